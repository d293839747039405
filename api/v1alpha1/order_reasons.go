package v1alpha1

// Reasons of an order's transitions (status.history[].reason, and the Events the order
// controller emits with them). They are part of what an order shows its readers, and
// more than the order controller reads them (the Order cache transform holds the
// messages of some of them once), so they are named here, next to the condition types;
// the order controller's reasons.go refers to them under its short names.
const (
	// OrderReasonCancellationRequested: spec.cancellationRequested was set.
	OrderReasonCancellationRequested = "CancellationRequested"
	// OrderReasonCancelledWithRefund: spec.cancellationRequested was set after the
	// customer's payment arrived; the order owes a refund.
	OrderReasonCancelledWithRefund = "CancelledWithRefund"
	// OrderReasonLatePaymentRefunded: a payment arrived for a buy already cancelled; a
	// refund is owed.
	OrderReasonLatePaymentRefunded = "LatePaymentRefunded"
	// OrderReasonNotPriced: the order has no quote, so it bypassed admission.
	OrderReasonNotPriced = "NotPriced"
	// OrderReasonShareClassNotFound: the order's share class or its fund does not exist.
	OrderReasonShareClassNotFound = "ShareClassNotFound"
	// OrderReasonAccepted: a new order entered PLACED.
	OrderReasonAccepted = "Accepted"
	// OrderReasonPaymentInstructionsIssued: a buy now waits for the customer's payment.
	OrderReasonPaymentInstructionsIssued = "PaymentInstructionsIssued"
	// OrderReasonPaymentReceived: payment evidence was recorded for a buy.
	OrderReasonPaymentReceived = "PaymentReceived"
	// OrderReasonExecuted: the order was executed on an open market.
	OrderReasonExecuted = "Executed"
	// OrderReasonDeliveryInitiated: the token transfer of a buy was submitted.
	OrderReasonDeliveryInitiated = "DeliveryInitiated"
	// OrderReasonDeliveryCompleted: the token transfer of a buy is final.
	OrderReasonDeliveryCompleted = "DeliveryCompleted"
	// OrderReasonInsufficientHoldings: a sell's units could not be reserved.
	OrderReasonInsufficientHoldings = "InsufficientHoldings"
	// OrderReasonRedemptionGateActive: a sell entered REDEMPTION_GATED.
	OrderReasonRedemptionGateActive = "RedemptionGateActive"
	// OrderReasonRedemptionGateLifted: a gated sell executed after the gate lifted.
	OrderReasonRedemptionGateLifted = "RedemptionGateLifted"
	// OrderReasonPaymentSent: the payout of a sell was sent.
	OrderReasonPaymentSent = "PaymentSent"
	// OrderReasonPaymentCompleted: the payout of a sell arrived.
	OrderReasonPaymentCompleted = "PaymentCompleted"
	// OrderReasonSettled: the order completed.
	OrderReasonSettled = "Settled"
	// OrderReasonPricedAtStrike: a forward-priced order was priced at the NAV of its
	// dealing date and executed (its contract note is status.strike).
	OrderReasonPricedAtStrike = "PricedAtStrike"
	// OrderReasonUnpaidAtCutOff: a forward BUY by amount was not paid by its subscription
	// cut-off and its share class cancels such orders.
	OrderReasonUnpaidAtCutOff = "UnpaidAtCutOff"
	// OrderReasonRedemptionCarriedForward: a SELL deals units that the redemption gate of
	// an earlier dealing date did not fill (spec.carriedFrom), or the gate filled none of
	// its units and moved it to the next dealing date.
	OrderReasonRedemptionCarriedForward = "RedemptionCarriedForward"
	// OrderReasonRedemptionNotFilled: the redemption gate of a SELL's dealing date filled
	// none of its units and its share class does not carry the remainder forward.
	OrderReasonRedemptionNotFilled = "RedemptionNotFilled"
	// OrderReasonMatched: a SECONDARY order was matched in its window and executed (its
	// fill is status.strike.secondary).
	OrderReasonMatched = "Matched"
	// OrderReasonNotMatched: the matching window of a SECONDARY SELL filled none of its
	// units and its share class does not carry them to a later window.
	OrderReasonNotMatched = "NotMatched"
	// OrderReasonUnpaidAtDeadline: a SECONDARY BUY was not paid by its window's order
	// deadline.
	OrderReasonUnpaidAtDeadline = "UnpaidAtDeadline"
)
