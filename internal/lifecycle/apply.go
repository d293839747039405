package lifecycle

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// FundFacts fills the facts that come from the order's fund (nil: none exists): whether it
// exists, its market flags and its redemption gate at f.Now. It returns when a fact changes
// by itself (the gate's until-time), zero when none does.
func FundFacts(f *Facts, fund *investv1.Fund) (changesAt time.Time) {
	if fund == nil {
		return time.Time{}
	}
	f.FundFound = true
	f.Subscribable, f.Redeemable, f.Tradeable = fund.Spec.Subscribable, fund.Spec.Redeemable, fund.Spec.Tradeable
	if g := fund.Spec.RedemptionGate; g != nil && g.Active {
		f.GateActive = g.Until == nil || f.Now.Before(g.Until.Time)
		f.GateReason = g.Reason
		if f.GateActive && g.Until != nil {
			return g.Until.Time
		}
	}
	return time.Time{}
}

// Apply records in o's status the moves Next decided, as one status write does: a history
// entry per move stamped at, the state of the last, the refund a move owes (unless one is
// recorded), and the conditions: waiting is why the order stays after the moves (nil: it
// waits for its refund, if it owes one), refused why a cancellation requested is not
// honoured. Every writer of moves (the order controller, the strike) applies them so.
func Apply(o *investv1.Order, steps []*Transition, waiting *Wait, refused string, at metav1.Time) {
	if len(steps) == 0 {
		return
	}
	for _, t := range steps {
		o.Status.History = append(o.Status.History, investv1.OrderTransition{State: t.To, At: at, Reason: t.Reason, Message: t.Message})
		if t.Refund != nil && o.Status.Refund == nil {
			o.Status.Refund = t.Refund
		}
	}
	last := steps[len(steps)-1]
	o.Status.State = last.To
	if waiting == nil {
		waiting = RefundWait(o)
	}
	SetConditions(o, waiting, last, refused)
}

// Moves are the moves Next decides in a row from an order's state, written together in
// one status write (lifecycle.Apply): one history entry and one Event per state, and no
// extra round trip through the watch for moves that need nothing from outside
// (PAYMENT_RECEIVED → EXECUTED on an open market, DELIVERY_COMPLETED → COMPLETED, …).
type Moves struct {
	// Steps are the moves, in order; none when the order stays.
	Steps []*Transition
	// Wait is why the order stays after the last step (nil when the last step is PLACED,
	// which is written alone so that watchers see every order PLACED first).
	Wait *Wait
	// Refused is why a cancellation requested is not honoured ("" when none is refused).
	Refused string
	// Redate, with no steps, moves a forward order to another dealing date instead.
	Redate *investv1.OrderDealing
}

// maxMovesPerWrite bounds the moves written at once; no path has more than two in a row.
const maxMovesPerWrite = 4

// Decide is Next applied in a row to o (not changed) under the facts f, until the order
// waits, is accepted (PLACED is its own write) or has moved maxMovesPerWrite times.
func Decide(o *investv1.Order, f Facts) Moves {
	work := o.DeepCopy()
	var m Moves
	for range maxMovesPerWrite {
		d := Next(work, f)
		if d.CancellationRefused != "" {
			m.Refused = d.CancellationRefused
		}
		if d.Redate != nil && len(m.Steps) == 0 {
			m.Redate, m.Wait = d.Redate, d.Wait
			return m
		}
		if d.Transition == nil {
			m.Wait = d.Wait
			break
		}
		if d.Transition.Refund != nil {
			work.Status.Refund = d.Transition.Refund
		}
		work.Status.State = d.Transition.To
		m.Steps = append(m.Steps, d.Transition)
		if d.Transition.To == investv1.StatePlaced {
			break
		}
	}
	return m
}
