package lifecycle

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// The secondary market (docs/secondary.md). A SECONDARY order is placed for a matching
// window of its share class (spec.quote.window, or status.window once a window that
// filled none of it carried it on), is cancellable until the window's order deadline,
// and is matched when the deadline passes: the window controller records the window's
// book and writes each order's fill as its contract note (status.strike with
// secondary set), with the moves the lifecycle then makes. A secondary trade moves
// existing units from the sellers' wallets to the buyers' (delivery versus payment:
// the buyer paid first, the seller is paid once its units were delivered); it never
// mints or burns.

// Secondary reports whether the order deals on the secondary market in a matching window.
func Secondary(o *investv1.Order) bool {
	return o.Spec.Market == investv1.MarketSecondary && o.Spec.Quote != nil && o.Spec.Quote.Window != nil
}

// Window is the matching window the order waits for or was matched in: status.window
// once it was carried, else its quote's. Nil for an order that is not Secondary.
func Window(o *investv1.Order) *investv1.OrderWindow {
	if !Secondary(o) {
		return nil
	}
	if w := o.Status.Window; w != nil {
		return w
	}
	return o.Spec.Quote.Window
}

// WindowName is the name of the MatchingWindow object of an ISIN and a date: the ISIN in
// lower case, a dash and the date, as a Dealing's.
func WindowName(isin investv1.ISIN, date string) string {
	return strings.ToLower(string(isin)) + "-" + date
}

// OrderWindowName is the MatchingWindow the order belongs to now; "" when it is not
// Secondary.
func OrderWindowName(o *investv1.Order) string {
	if w := Window(o); w != nil {
		return WindowName(o.Spec.ISIN, w.Date)
	}
	return ""
}

// Fill is the order's matching-window fill, nil before it is matched (or when it is not
// Secondary).
func Fill(o *investv1.Order) *investv1.OrderSecondaryFill {
	if n := o.Status.Strike; n != nil {
		return n.Secondary
	}
	return nil
}

// ReadyForMatching reports whether the order goes into its window's book when the
// deadline passes: a Secondary order not matched yet, not cancelled nor asked to be,
// that is a BUY whose payment was received (PAYMENT_RECEIVED) or a SELL whose units are
// reserved and that waits for its window only (PLACED, Waiting reason AwaitingMatching).
func ReadyForMatching(o *investv1.Order) bool {
	if !Secondary(o) || o.Status.Strike != nil || o.Spec.CancellationRequested || o.Status.State.Terminal() {
		return false
	}
	switch o.Spec.Side {
	case investv1.SideBuy:
		return o.Status.State == investv1.StatePaymentReceived
	case investv1.SideSell:
		return o.Status.State == investv1.StatePlaced && waitingFor(o, WaitAwaitingMatching)
	}
	return false
}

// secondaryExecute is the move of a Secondary order that waits for its window (BUY:
// paid; SELL: units reserved): a wait until its fill is written, then EXECUTED with what
// the window filled, or CANCELLED when it filled nothing (a BUY's payment refunded).
func secondaryExecute(o *investv1.Order) Decision {
	n := o.Status.Strike
	if n == nil || n.Secondary == nil {
		w := Window(o)
		return wait(WaitAwaitingMatching, fmt.Sprintf("waiting for the matching window of %s (order deadline %s)",
			w.Date, w.Deadline.UTC().Format(time.RFC3339)))
	}
	f := n.Secondary
	if n.Units == 0 && o.Spec.Side == investv1.SideSell {
		return move(investv1.StateCancelled, ReasonNotMatched, fmt.Sprintf(
			"the matching window of %s filled none of the %d units and they are not carried to a later window: none is sold",
			n.TradeDate, f.RequestedUnits))
	}
	if n.Units == 0 {
		r := NewRefund(o)
		d := move(investv1.StateCancelled, ReasonCancelledWithRefund, fmt.Sprintf(
			"the matching window of %s filled none of the %d units and they are not carried to a later window: the payment is refunded: %s with reference %s",
			n.TradeDate, f.RequestedUnits, money.Format(r.Amount, string(r.Currency)), r.Reference))
		d.Transition.Refund = r
		return d
	}
	return move(investv1.StateExecuted, ReasonMatched, fillMessage(o))
}

// fillMessage describes a fill for the history and the Event.
func fillMessage(o *investv1.Order) string {
	n := o.Status.Strike
	f := n.Secondary
	cur := string(o.Spec.Currency)
	msg := fmt.Sprintf("matched in the window of %s: %d of %d units at %s (NAV %s, spread %d basis points), gross %s, fee %s",
		n.TradeDate, n.Units, f.RequestedUnits, money.Format(n.NAVPerShare, cur), money.Format(f.NAVPerShare, cur), f.SpreadBasisPoints,
		money.Format(n.GrossAmount, cur), money.Format(n.FeeAmount, cur))
	if o.Spec.Side == investv1.SideSell {
		msg += ", to be paid " + money.Format(n.NetAmount, cur) + " once the units are delivered"
	} else if n.Residual > 0 {
		msg += fmt.Sprintf(", residual %s refunded with reference %s", money.Format(n.Residual, cur), n.ResidualReference)
	}
	if c := n.CarriedForward; c != nil {
		msg += fmt.Sprintf("; %d units carried to the window of %s as order %s", c.Units, c.DealingDate, c.Order)
		if o.Spec.Side == investv1.SideBuy {
			msg += fmt.Sprintf(", paid with the %s the payment did not use", money.Format(c.Amount, cur))
		}
	}
	return msg
}

// unitsDeliveredWait is the wait of an EXECUTED Secondary SELL whose units are not yet
// delivered to its buyers.
func unitsDeliveredWait(o *investv1.Order) Decision {
	return wait(WaitAwaitingUnitsDelivered, "waiting for the units sold to be transferred to the buyers: the payout follows the transfers")
}

// UnpaidAtDeadline reports whether a Secondary BUY is still unpaid when its window's
// order deadline has passed at now. A carried BUY never is: it is paid with money already
// received, which its window controller records (late, after a restart, but never lost).
func UnpaidAtDeadline(o *investv1.Order, now time.Time) bool {
	w := Window(o)
	return w != nil && o.Spec.Side == investv1.SideBuy && !CarriedBuy(o) && o.Status.Settlement.PaymentReceived == nil && !now.Before(w.Deadline.Time)
}

// waitingFor reports whether the order's Waiting condition is True with the reason.
func waitingFor(o *investv1.Order, reason string) bool {
	c := meta.FindStatusCondition(o.Status.Conditions, ConditionWaiting)
	return c != nil && c.Status == metav1.ConditionTrue && c.Reason == reason
}

// CarriedBuy reports whether o is a BUY carried from another order (a SECONDARY BUY's
// remainder): it is paid with the money its parent carried to it, which the window
// controller records; no transfer is asked for or matched to it.
func CarriedBuy(o *investv1.Order) bool {
	return o.Spec.Side == investv1.SideBuy && o.Spec.CarriedFrom != ""
}

// CashOnChain reports whether the order's cash moves on chain (a SECONDARY order of a
// market whose cash is on chain, spec.quote.cashOnChain): its payment is an escrow at the
// settlement contract, its payout, residual and refund are paid by that contract, and the
// chain agent records all of them; the bank and its sandbox never see the order.
func CashOnChain(o *investv1.Order) bool {
	return o.Spec.Quote != nil && o.Spec.Quote.CashOnChain != nil
}

// SideOf is the side that settles o's step: the step's own side, except that the money
// steps of an order whose cash is on chain (CashOnChain) are read from the chain, by the
// chain agent, with the token steps.
func SideOf(o *investv1.Order, step Step) Side {
	if CashOnChain(o) {
		return TokenSide
	}
	return step.Side()
}
