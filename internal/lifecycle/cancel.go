package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Cancellable is the point-of-no-return rule of orders, the one place it is decided: REST
// DELETE, admission (spec.cancellationRequested) and the order controller all ask it.
// It is decided by what has already happened outside:
//
//   - BUY: cancellable in PLACED and AWAITING_PAYMENT (nothing to undo; not a carried
//     BUY whose carried money is not recorded yet, RefusalCarryInFlight); in
//     PAYMENT_RECEIVED, or earlier with the customer's payment already recorded, only
//     with a refund of what the customer paid (refund true). From EXECUTED on
//     (EXECUTED, DELIVERY_INITIATED, DELIVERY_COMPLETED) or once a token transfer is
//     recorded: refused, the order goes on to COMPLETED.
//   - SELL: cancellable in PLACED and REDEMPTION_GATED (the reservation is released).
//     In EXECUTED cancellable while nothing was burned or paid: no burn transaction is
//     recorded (the chain refused it before sending, or it was never sent), or the
//     recorded one is final and reverted, and no tokensBurned or payout evidence is
//     recorded; the reservation is released and nothing is refunded (nothing was paid).
//     Refused while a recorded burn is not final (the burn is in flight: it may still
//     succeed), and from the first successful burn or payout on (tokensBurned, a final
//     successful burn, PAYMENT_SENT, PAYMENT_COMPLETED): the order goes on to COMPLETED.
//   - A new order (no state yet) is cancellable; a terminal one (COMPLETED, CANCELLED) is
//     not; nor is a state that does not belong to the side, which needs a person.
//
// reason says why a refusal was made, naming the state; empty when ok.
func Cancellable(o *investv1.Order) (ok, refund bool, reason string) {
	ok, refund, _, reason = cancellable(o)
	return ok, refund, reason
}

// CancelRefusal says which rule refused a cancellation.
type CancelRefusal string

// The refusals of Cancellable.
const (
	// RefusalNone: the order can be cancelled.
	RefusalNone CancelRefusal = ""
	// RefusalTerminal: the order is COMPLETED or CANCELLED.
	RefusalTerminal CancelRefusal = "Terminal"
	// RefusalPastPointOfNoReturn: the order was executed, or its payout or token transfer
	// is recorded; it goes on to COMPLETED.
	RefusalPastPointOfNoReturn CancelRefusal = "PastPointOfNoReturn"
	// RefusalBurnInFlight: a SELL's recorded burn transaction is not final yet; it may
	// still succeed, so the order cannot be cancelled until it is final (a reverted burn
	// makes it cancellable again).
	RefusalBurnInFlight CancelRefusal = "BurnInFlight"
	// RefusalCarryInFlight: a carried BUY whose money (carried from the order it came
	// from) is not recorded as its payment yet; cancelled now, nothing would refund it.
	// The window controller records it in a moment.
	RefusalCarryInFlight CancelRefusal = "CarryInFlight"
	// RefusalInvalidState: the state does not belong to the order's side.
	RefusalInvalidState CancelRefusal = "InvalidState"
	// RefusalSubmittedForDealing: a forward order's cut-off has passed: it was submitted
	// for dealing and is priced at the strike.
	RefusalSubmittedForDealing CancelRefusal = "SubmittedForDealing"
)

// CancellableAt is Cancellable for a cancellation requested at instant now (REST DELETE,
// admission of spec.cancellationRequested): a forward order is cancellable only until
// the cut-off of its dealing date for its side; from then on it has been submitted for
// dealing (RefusalSubmittedForDealing). The order controller honours a request admitted
// before the cut-off with Cancellable, as long as the strike has not priced the order.
func CancellableAt(o *investv1.Order, now time.Time) (ok, refund bool, reason string) {
	ok, refund, _, reason = cancellableAt(o, now)
	return ok, refund, reason
}

// CancelRefusalAt is the rule that refuses a cancellation requested at now, RefusalNone
// when CancellableAt accepts it.
func CancelRefusalAt(o *investv1.Order, now time.Time) CancelRefusal {
	_, _, kind, _ := cancellableAt(o, now)
	return kind
}

func cancellableAt(o *investv1.Order, now time.Time) (ok, refund bool, kind CancelRefusal, reason string) {
	if w := Window(o); w != nil && o.Status.Strike == nil && !o.Status.State.Terminal() && !slices.Contains(dealtStates, o.Status.State) {
		if now.Before(w.Deadline.Time) {
			return cancellable(o)
		}
		return false, false, RefusalSubmittedForDealing, fmt.Sprintf(
			"the order was submitted for matching in the window of %s at its order deadline %s: it cannot be cancelled",
			w.Date, w.Deadline.UTC().Format(time.RFC3339))
	}
	if !Forward(o) || now.Before(CutOff(o)) || o.Status.State.Terminal() || slices.Contains(dealtStates, o.Status.State) {
		return cancellable(o)
	}
	return false, false, RefusalSubmittedForDealing, fmt.Sprintf(
		"the order was submitted for dealing on %s at its cut-off %s: it cannot be cancelled and is priced at the NAV of that date",
		DealingDate(o), CutOff(o).UTC().Format(time.RFC3339))
}

// CancelRefusalOf is the rule that refuses the order's cancellation, RefusalNone when
// Cancellable accepts it.
func CancelRefusalOf(o *investv1.Order) CancelRefusal {
	_, _, kind, _ := cancellable(o)
	return kind
}

// dealtStates are the states from EXECUTED on: a cancellation there is refused as past
// the point of no return, forward order or not.
var dealtStates = []investv1.OrderState{
	investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted,
	investv1.StatePaymentSent, investv1.StatePaymentCompleted,
}

func cancellable(o *investv1.Order) (ok, refund bool, kind CancelRefusal, reason string) {
	state := o.Status.State
	ev := &o.Status.Settlement
	if state.Terminal() {
		return false, false, RefusalTerminal, fmt.Sprintf("the order is %s, a terminal state: it cannot be cancelled", state)
	}
	shown := state
	if shown == "" {
		shown = investv1.StatePlaced
	}
	if n := o.Status.Strike; n != nil && n.Secondary != nil {
		return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the order was matched in the window of "+n.TradeDate)
	}
	if o.Status.Strike != nil {
		return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the order was priced at the strike of dealing date "+o.Status.Strike.TradeDate)
	}
	switch o.Spec.Side {
	case investv1.SideBuy:
		if ev.DeliveryInitiated != nil || ev.DeliveryCompleted != nil {
			return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the token transfer is recorded")
		}
		switch state {
		case "", investv1.StatePlaced, investv1.StateAwaitingPayment:
			if CarriedBuy(o) && ev.PaymentReceived == nil {
				return false, false, RefusalCarryInFlight, fmt.Sprintf("the money carried from order %s is not recorded as the order's payment yet: try again in a moment", o.Spec.CarriedFrom)
			}
			return true, ev.PaymentReceived != nil, RefusalNone, ""
		case investv1.StatePaymentReceived:
			return true, true, RefusalNone, ""
		case investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted:
			return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the order was executed")
		}
	case investv1.SideSell:
		if ev.PaymentSent != nil || ev.PaymentCompleted != nil {
			return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the payout is recorded")
		}
		switch state {
		case "", investv1.StatePlaced, investv1.StateRedemptionGated:
			if ev.TokensBurned != nil || ev.UnitsDelivered != nil {
				return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the units are burned")
			}
			return true, false, RefusalNone, ""
		case investv1.StateExecuted:
			return sellExecuted(o)
		case investv1.StatePaymentSent, investv1.StatePaymentCompleted:
			return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(shown, "the payout is recorded")
		}
	}
	return false, false, RefusalInvalidState, fmt.Sprintf("the order is %s, a state that does not belong to a %s order: it cannot be cancelled; an operator must look at it", shown, o.Spec.Side)
}

// sellExecuted is the rule of an EXECUTED sell: its point of no return is its first
// successful burn (or its payout, checked before).
func sellExecuted(o *investv1.Order) (ok, refund bool, kind CancelRefusal, reason string) {
	if o.Status.Settlement.TokensBurned != nil {
		return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(investv1.StateExecuted, "the units are burned")
	}
	c := o.Status.Chain
	if c == nil || c.Transaction == nil {
		return true, false, RefusalNone, "" // no burn recorded: nothing was burned or paid
	}
	tx := c.Transaction
	hash := ""
	if len(tx.Attempts) > 0 {
		hash = " " + tx.Attempts[len(tx.Attempts)-1].Hash
	}
	switch {
	case tx.Receipt == nil:
		return false, false, RefusalBurnInFlight, fmt.Sprintf(
			"the order is %s and its burn transaction%s (nonce %d) is in flight: it cannot be cancelled until the burn is final (a reverted burn makes it cancellable)", investv1.StateExecuted, hash, tx.Nonce)
	case c.Recovered != nil:
		return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(investv1.StateExecuted, "the units are burned in transaction "+c.Recovered.TransactionHash)
	case tx.Receipt.Status == investv1.ChainReceiptReverted:
		return true, false, RefusalNone, "" // the burn reverted: nothing was burned
	}
	return false, false, RefusalPastPointOfNoReturn, pastPointOfNoReturn(investv1.StateExecuted, "the units are burned in transaction "+tx.Receipt.Hash)
}

func pastPointOfNoReturn(state investv1.OrderState, what string) string {
	return fmt.Sprintf("the order is %s: %s, past the point of no return; it cannot be cancelled and goes on to COMPLETED", state, what)
}

// NewRefund is the refund a buy cancelled with a refund owes: what the customer paid (the
// quote's amount) to the bank account resolved at placement, under a reference unique to
// the order. It is a pure function of the order, so a controller that writes it again
// after a restart writes the same value.
func NewRefund(o *investv1.Order) *investv1.OrderRefund {
	r := &investv1.OrderRefund{Currency: o.Spec.Currency, PaymentMethodDetailsID: o.Spec.PaymentMethodDetailsID, Reference: RefundReference(o)}
	if q := o.Spec.Quote; q != nil {
		r.Amount = q.Amount
		if q.PaymentMethodDetailsID != "" {
			r.PaymentMethodDetailsID = q.PaymentMethodDetailsID
		}
	}
	return r
}

// RefundReference is "RF-" and the order id's hexadecimal digits in upper case: 35
// characters for a UUID, the most a SEPA reference holds.
func RefundReference(o *investv1.Order) string {
	ref := "RF-" + strings.ToUpper(strings.ReplaceAll(o.Name, "-", ""))
	if len(ref) > 35 {
		ref = ref[:35]
	}
	return ref
}
