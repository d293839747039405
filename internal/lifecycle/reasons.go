package lifecycle

import investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"

// Every reason an order's conditions, history entries and Events carry is named here,
// besides the state reasons StateReason derives (AwaitingPayment, …).

// Transition and wait reasons. Exported so the reconciler, events and tests name them
// the same way. The transition reasons (status.history[].reason) are defined in
// api/v1alpha1, where the packages that read orders find them; they are named here
// under their short names.
const (
	// ReasonCancellationRequested: spec.cancellationRequested was set.
	ReasonCancellationRequested = investv1.OrderReasonCancellationRequested
	// ReasonCancelledWithRefund: spec.cancellationRequested was set after the customer's
	// payment arrived; the order owes a refund.
	ReasonCancelledWithRefund = investv1.OrderReasonCancelledWithRefund
	// ReasonLatePaymentRefunded: a payment arrived for a buy already cancelled; a refund
	// is owed.
	ReasonLatePaymentRefunded = investv1.OrderReasonLatePaymentRefunded
	// ReasonPastPointOfNoReturn: a cancellation was requested on an order past the point
	// of no return; it is not honoured (CancellationRefused condition, Warning event).
	ReasonPastPointOfNoReturn = "PastPointOfNoReturn"
	// ReasonNotPriced: the order has no quote, so it bypassed admission.
	ReasonNotPriced = investv1.OrderReasonNotPriced
	// ReasonShareClassNotFound: the order's share class or its fund does not exist.
	ReasonShareClassNotFound = investv1.OrderReasonShareClassNotFound
	// ReasonAccepted: a new order entered PLACED.
	ReasonAccepted = investv1.OrderReasonAccepted
	// ReasonPaymentInstructionsIssued: a buy now waits for the customer's payment.
	ReasonPaymentInstructionsIssued = investv1.OrderReasonPaymentInstructionsIssued
	// ReasonPaymentReceived: payment evidence was recorded for a buy.
	ReasonPaymentReceived = investv1.OrderReasonPaymentReceived
	// ReasonExecuted: the order was executed on an open market.
	ReasonExecuted = investv1.OrderReasonExecuted
	// ReasonDeliveryInitiated: the token transfer of a buy was submitted.
	ReasonDeliveryInitiated = investv1.OrderReasonDeliveryInitiated
	// ReasonDeliveryCompleted: the token transfer of a buy is final.
	ReasonDeliveryCompleted = investv1.OrderReasonDeliveryCompleted
	// ReasonInsufficientHoldings: a sell's units could not be reserved.
	ReasonInsufficientHoldings = investv1.OrderReasonInsufficientHoldings
	// ReasonRedemptionGateActive: a sell entered REDEMPTION_GATED.
	ReasonRedemptionGateActive = investv1.OrderReasonRedemptionGateActive
	// ReasonRedemptionGateLifted: a gated sell executed after the gate lifted.
	ReasonRedemptionGateLifted = investv1.OrderReasonRedemptionGateLifted
	// ReasonPaymentSent: the payout of a sell was sent.
	ReasonPaymentSent = investv1.OrderReasonPaymentSent
	// ReasonPaymentCompleted: the payout of a sell arrived.
	ReasonPaymentCompleted = investv1.OrderReasonPaymentCompleted
	// ReasonSettled: the order completed.
	ReasonSettled = investv1.OrderReasonSettled
	// ReasonPricedAtStrike: a forward order was priced at its dealing date's NAV and
	// executed.
	ReasonPricedAtStrike = investv1.OrderReasonPricedAtStrike
	// ReasonUnpaidAtCutOff: a forward BUY by amount was not paid by its cut-off and its
	// share class cancels such orders.
	ReasonUnpaidAtCutOff = investv1.OrderReasonUnpaidAtCutOff
	// ReasonRedemptionCarriedForward: a SELL deals units a redemption gate carried forward.
	ReasonRedemptionCarriedForward = investv1.OrderReasonRedemptionCarriedForward
	// ReasonRedemptionNotFilled: the redemption gate filled none of a SELL's units and
	// the remainder policy is Cancel.
	ReasonRedemptionNotFilled = investv1.OrderReasonRedemptionNotFilled
	// ReasonMatched: a SECONDARY order was matched in its window and executed.
	ReasonMatched = investv1.OrderReasonMatched
	// ReasonNotMatched: a SECONDARY SELL's window filled none of it and nothing is carried.
	ReasonNotMatched = investv1.OrderReasonNotMatched
	// ReasonUnpaidAtDeadline: a SECONDARY BUY was not paid by its window's order deadline.
	ReasonUnpaidAtDeadline = investv1.OrderReasonUnpaidAtDeadline
	// ReasonCarriedToNextWindow: a SECONDARY order its window filled none of waits for the
	// next window (an Event, no transition).
	ReasonCarriedToNextWindow = "CarriedToNextWindow"
	// ReasonMovedToNextDealingDate: a forward BUY by amount was not paid by its cut-off
	// and its share class moved it to the next dealing date (an Event, no transition).
	ReasonMovedToNextDealingDate = "MovedToNextDealingDate"

	// WaitAwaitingPaymentEvidence: a buy waits for paymentReceived evidence.
	WaitAwaitingPaymentEvidence = "AwaitingPaymentEvidence"
	// WaitAwaitingDeliveryEvidence: a buy waits for deliveryInitiated or deliveryCompleted.
	WaitAwaitingDeliveryEvidence = "AwaitingDeliveryEvidence"
	// WaitAwaitingPayoutEvidence: a sell waits for paymentSent or paymentCompleted.
	WaitAwaitingPayoutEvidence = "AwaitingPayoutEvidence"
	// WaitMarketClosed: the market flag the order needs to execute is false.
	WaitMarketClosed = "MarketClosed"
	// WaitRedemptionGated: a gated sell waits for the gate to lift.
	WaitRedemptionGated = "RedemptionGated"
	// WaitAwaitingReservation: a sell waits for its units to be reserved.
	WaitAwaitingReservation = "AwaitingReservation"
	// WaitAwaitingStrike: a forward order waits for the NAV of its dealing date.
	WaitAwaitingStrike = "AwaitingStrike"
	// WaitAwaitingMatching: a SECONDARY order waits for its matching window.
	WaitAwaitingMatching = "AwaitingMatching"
	// WaitAwaitingUnitsDelivered: an EXECUTED SECONDARY SELL waits for its units to be
	// transferred to the buyers before its payout.
	WaitAwaitingUnitsDelivered = "AwaitingUnitsDelivered"
	// WaitShareClassNotFound: an accepted order's share class or fund disappeared, so
	// its market flags are unknown.
	WaitShareClassNotFound = "ShareClassNotFound"
	// WaitInvalidState: the order is in a state that does not belong to its side (or is
	// unknown); nothing moves it automatically, the reconciler reports it.
	WaitInvalidState = "InvalidState"
)

// Reasons of the kstatus conditions that are not a state's.
const (
	// ReasonPending: the state reason of an order not yet accepted (no state).
	ReasonPending = "Pending"
	// ReasonCompleted: Ready of a COMPLETED order.
	ReasonCompleted = "Completed"
	// ReasonCancelled: Ready of a CANCELLED order that owes nothing (any refund completed).
	ReasonCancelled = "Cancelled"
	// ReasonRefundPending: a CANCELLED order whose refund is not completed yet.
	ReasonRefundPending = "RefundPending"
	// ReasonRefundCompleted: the Event of a cancelled order whose refund arrived.
	ReasonRefundCompleted = "RefundCompleted"
	// WaitTokenTransactionRefused: the chain refuses the order's mint or burn before it is
	// sent (its gas estimate reverts, e.g. NotVerified(wallet), EnforcedPause()); nothing
	// was sent; the chain agent checks again. Stalled: a person must fix the cause.
	WaitTokenTransactionRefused = "TokenTransactionRefused"
	// WaitTokenTransactionReverted: the order's mint or burn was mined and reverted. It is
	// never re-sent as a new transaction. Stalled: a person must look at the order.
	WaitTokenTransactionReverted = "TokenTransactionReverted"
	// WaitTokenTransactionNonceTaken: the nonce of the order's recorded mint or burn was
	// mined by a transaction not recorded here (the agent key was used elsewhere). Nothing
	// is re-sent. Stalled: a person must find out who signed with the key.
	WaitTokenTransactionNonceTaken = "TokenTransactionNonceTaken"
	// WaitPayoutRejected: the bank refused the transfer of the order's money (a pain.002
	// rejection: a closed account, a wrong IBAN, …; status.payout). Nothing is sent again
	// by itself. Stalled: an operator decides.
	WaitPayoutRejected = "PayoutRejected"
	// WaitPayoutReturned: the transfer of the order's money was booked and came back (a
	// return credit in a camt statement; status.payout). Stalled: an operator decides.
	WaitPayoutReturned = "PayoutReturned"
	// WaitAwaitingBurnEvidence: a sell waits for its units to be burned before the payout.
	WaitAwaitingBurnEvidence = "AwaitingBurnEvidence"
	// WaitAwaitingRefundEvidence: a cancelled buy waits for refundSent or refundCompleted.
	WaitAwaitingRefundEvidence = "AwaitingRefundEvidence"
)
