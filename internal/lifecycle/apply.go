package lifecycle

import (
	"fmt"
	"strings"
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
// one status write (lifecycle.Apply): one history entry per state, one Event per write, no
// extra round trip through the watch for moves that need nothing from outside
// (PAYMENT_RECEIVED → EXECUTED on an open market, DELIVERY_COMPLETED → COMPLETED, …).
type Moves struct {
	// Steps are the moves, in order; none when the order stays.
	Steps []*Transition
	// Wait is why the order stays after the last step (nil when the last step is a SELL's
	// PLACED, written alone: the order controller reserves the SELL's units before it
	// decides what follows).
	Wait *Wait
	// Refused is why a cancellation requested is not honoured ("" when none is refused).
	Refused string
	// Redate, with no steps, moves a forward order to another dealing date instead.
	Redate *investv1.OrderDealing
}

// maxMovesPerWrite bounds the moves written at once; no path has more than two in a row.
const maxMovesPerWrite = 4

// Decide is Next applied in a row to o (not changed) under the facts f, until the order
// waits, a SELL is accepted (its PLACED is its own write) or it has moved
// maxMovesPerWrite times. A BUY is accepted and given its payment instructions in one
// write: PLACED → AWAITING_PAYMENT needs nothing from outside.
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
		if d.Transition.To == investv1.StatePlaced && o.Spec.Side != investv1.SideBuy {
			break // a SELL reserves its units between PLACED and what follows
		}
	}
	return m
}

// Follow is what an agent writes together with the evidence it records in o: the moves
// that evidence unlocks (Decide under f), applied as Apply does, so that the evidence, its
// moves and their history take one status write, and one Event. It returns the moves
// applied; with no move, it sets the conditions to what the order now waits for. It
// applies none, leaving them to the order controller, where the decision is
// not the evidence's plain consequence: an order not yet accepted, a cancellation
// requested (honoured or refused, it is decided on the live order), a move to another
// dealing date or to CANCELLED, a SELL whose units are not reserved.
func Follow(o *investv1.Order, f Facts, at metav1.Time) []*Transition {
	if o.Status.State == "" || o.Status.State.Terminal() || o.Spec.CancellationRequested {
		return nil
	}
	if o.Spec.Side == investv1.SideSell && f.Reservation != ReservationHeld {
		return nil
	}
	m := Decide(o, f)
	if m.Redate != nil || m.Refused != "" {
		return nil
	}
	if len(m.Steps) == 0 {
		if m.Wait != nil {
			// No move, but the evidence changes what the order waits for (a SELL whose
			// units were delivered now waits for its payout): the conditions say so in
			// the evidence's write, not in a second write of the order controller's.
			SetConditions(o, m.Wait, nil, "")
		}
		return nil
	}
	for _, t := range m.Steps {
		if t.To == investv1.StateCancelled {
			return nil
		}
	}
	Apply(o, m.Steps, m.Wait, "", at)
	return m.Steps
}

// MovesNote describes moves written together from state from, for the one Event of their
// write: "AWAITING_PAYMENT → PAYMENT_RECEIVED: …; PAYMENT_RECEIVED → EXECUTED: …" (a new
// order's from is "new"), cut to MaxMessageLength.
func MovesNote(from investv1.OrderState, steps []*Transition) string {
	prev := string(from)
	if prev == "" {
		prev = "new"
	}
	var b strings.Builder
	for i, t := range steps {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s → %s: %s", prev, t.To, t.Message)
		prev = string(t.To)
	}
	return truncate(b.String())
}

// MovesEventType is the type of the Event of moves (core/v1's EventTypeNormal or
// EventTypeWarning): Warning when they end CANCELLED.
func MovesEventType(steps []*Transition) string {
	if len(steps) > 0 && steps[len(steps)-1].To == investv1.StateCancelled {
		return "Warning"
	}
	return "Normal"
}

// EvidenceEvent is the one Event of a write that records evidence and the moves it
// unlocked (Follow), from state from: the type and reason of the last move (the
// evidence's own reason, EvidenceReason, when it unlocked none) and a note that says what
// was recorded (recorded, e.g. "sandbox recorded paymentReceived evidence with reference
// X"), then the moves, cut to MaxMessageLength.
func EvidenceEvent(step Step, recorded string, from investv1.OrderState, moves []*Transition) (eventType, reason, note string) {
	if len(moves) == 0 {
		return "Normal", EvidenceReason(step), truncate(recorded)
	}
	return MovesEventType(moves), moves[len(moves)-1].Reason, truncate(recorded + "; " + MovesNote(from, moves))
}
