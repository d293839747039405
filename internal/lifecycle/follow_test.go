package lifecycle

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestFollowWritesThePaymentAndTheMovesItUnlocksTogether(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	o.Status.Settlement.PaymentReceived = record("SBX-PAY-ABCDEF012345", "")
	at := metav1.NewTime(now)
	moves := Follow(o, openFacts(), at)
	if len(moves) != 2 || moves[0].To != investv1.StatePaymentReceived || moves[1].To != investv1.StateExecuted {
		t.Fatalf("moves %+v; want PAYMENT_RECEIVED then EXECUTED", moves)
	}
	if o.Status.State != investv1.StateExecuted || len(o.Status.History) != 2 || !o.Status.History[1].At.Equal(&at) {
		t.Fatalf("state %s, history %+v; want both moves applied", o.Status.State, o.Status.History)
	}
	if w := waitingCondition(o); w == nil || w.Reason != WaitAwaitingDeliveryEvidence {
		t.Fatalf("waiting %+v; want the next wait (the mint)", w)
	}
}

func TestFollowMovesADeliveredBuyToCompleted(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateDeliveryInitiated)
	o.Status.Settlement = buyEvidence()
	moves := Follow(o, openFacts(), metav1.NewTime(now))
	if len(moves) != 2 || o.Status.State != investv1.StateCompleted {
		t.Fatalf("moves %+v, state %s; want DELIVERY_COMPLETED then COMPLETED", moves, o.Status.State)
	}
}

func TestFollowMovesNothingWhereTheEvidenceUnlocksNothingAndSaysWhatTheOrderWaitsFor(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	before := o.DeepCopy()
	if moves := Follow(o, openFacts(), metav1.NewTime(now)); moves != nil || o.Status.State != before.Status.State || len(o.Status.History) != len(before.Status.History) {
		t.Fatalf("moves %+v, state %s, history %+v; want no move", moves, o.Status.State, o.Status.History)
	}
	if w := waitingCondition(o); w == nil || w.Reason != WaitAwaitingPaymentEvidence {
		t.Fatalf("waiting %+v; want what the order waits for", w)
	}
}

func TestFollowGivesASecondarySellWhoseUnitsWereDeliveredItsNextWaitInTheEvidencesWrite(t *testing.T) {
	// The units leave a SECONDARY SELL at EXECUTED; it then waits for its payout. The
	// evidence's write says so, so that the order controller has nothing to write.
	o := filled(onWindow(investv1.SideSell, investv1.StateExecuted), 30)
	SetConditions(o, &Wait{Reason: WaitAwaitingUnitsDelivered, Message: "the units"}, nil, "")
	o.Status.Settlement.UnitsDelivered = record("", "0xabc")
	f := openFacts()
	f.Reservation = ReservationHeld
	if moves := Follow(o, f, metav1.NewTime(now)); moves != nil || o.Status.State != investv1.StateExecuted {
		t.Fatalf("moves %+v, state %s; want none (the payout moves it)", moves, o.Status.State)
	}
	if w := waitingCondition(o); w == nil || w.Reason != WaitAwaitingPayoutEvidence {
		t.Fatalf("waiting %+v; want %s", w, WaitAwaitingPayoutEvidence)
	}
	m := Decide(o, f)
	if len(m.Steps) != 0 || m.Wait == nil || m.Wait.Reason != WaitAwaitingPayoutEvidence {
		t.Fatalf("Decide after Follow: %+v; want the same wait", m)
	}
}

func TestFollowLeavesACancellationRequestedToTheOrderController(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	o.Status.Settlement.PaymentReceived = record("SBX-PAY-ABCDEF012345", "")
	o.Spec.CancellationRequested = true
	if moves := Follow(o, openFacts(), metav1.NewTime(now)); moves != nil || o.Status.State != investv1.StateAwaitingPayment {
		t.Fatalf("moves %+v, state %s; want none (the cancellation is decided on the live order)", moves, o.Status.State)
	}
}

func TestFollowLeavesANewOrderToTheOrderController(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, "")
	if moves := Follow(o, openFacts(), metav1.NewTime(now)); moves != nil || o.Status.State != "" {
		t.Fatalf("moves %+v, state %q; want none", moves, o.Status.State)
	}
}

func TestFollowNeverCancels(t *testing.T) {
	// A forward BUY by amount unpaid at its cut-off under the Cancel policy: Decide cancels
	// it, but that is the order controller's to write (its Event, its live re-read).
	o := forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment)
	f := forwardFacts(fwdAfter)
	m := Decide(o, f)
	if len(m.Steps) == 0 || m.Steps[len(m.Steps)-1].To != investv1.StateCancelled {
		t.Fatalf("Decide: %+v; the premise is a move to CANCELLED", m.Steps)
	}
	if moves := Follow(o, f, metav1.NewTime(fwdAfter)); moves != nil || o.Status.State != investv1.StateAwaitingPayment || len(o.Status.History) != 0 {
		t.Fatalf("moves %+v, state %s, history %+v: Follow cancelled", moves, o.Status.State, o.Status.History)
	}
}

func TestFollowMovesNoSellWhoseUnitsAreNotReserved(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePaymentSent)
	o.Status.Settlement = sellEvidence()
	f := openFacts()
	f.Reservation = ReservationPending
	if moves := Follow(o, f, metav1.NewTime(now)); moves != nil {
		t.Fatalf("moves %+v; want none", moves)
	}
	f.Reservation = ReservationHeld
	if moves := Follow(o, f, metav1.NewTime(now)); len(moves) == 0 || o.Status.State != investv1.StateCompleted {
		t.Fatalf("moves %+v, state %s; want the paid-out SELL COMPLETED", moves, o.Status.State)
	}
}

func TestFollowLeavesAClosedMarketWaiting(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	o.Status.Settlement.PaymentReceived = record("SBX-PAY-ABCDEF012345", "")
	f := openFacts()
	f.Subscribable = false
	moves := Follow(o, f, metav1.NewTime(now))
	if len(moves) != 1 || o.Status.State != investv1.StatePaymentReceived {
		t.Fatalf("moves %+v, state %s; want PAYMENT_RECEIVED, then waiting for the market", moves, o.Status.State)
	}
	if w := waitingCondition(o); w == nil || w.Status != metav1.ConditionTrue {
		t.Fatalf("waiting %+v; want the market's wait reported", w)
	}
}

func TestMovesNoteNamesEveryMoveOfTheWrite(t *testing.T) {
	steps := []*Transition{
		{To: investv1.StatePlaced, Reason: ReasonAccepted, Message: "the order was accepted"},
		{To: investv1.StateAwaitingPayment, Reason: ReasonPaymentInstructionsIssued, Message: "pay to X"},
	}
	if got, want := MovesNote("", steps), "new → PLACED: the order was accepted; PLACED → AWAITING_PAYMENT: pay to X"; got != want {
		t.Fatalf("note %q, want %q", got, want)
	}
	long := []*Transition{{To: investv1.StatePlaced, Message: strings.Repeat("é", MaxMessageLength)}}
	if got := MovesNote("", long); len(got) > MaxMessageLength || !strings.HasSuffix(got, "…") {
		t.Fatalf("a long note is %d bytes, ends %q; want it cut to %d with an ellipsis", len(got), got[len(got)-5:], MaxMessageLength)
	}
}

func TestEvidenceEventCarriesTheLastMovesReasonAndTheEvidence(t *testing.T) {
	moves := []*Transition{
		{To: investv1.StatePaymentReceived, Reason: ReasonPaymentReceived, Message: "payment received"},
		{To: investv1.StateExecuted, Reason: ReasonExecuted, Message: "executed"},
	}
	kind, reason, note := EvidenceEvent(StepPaymentReceived, "sandbox recorded paymentReceived evidence", investv1.StateAwaitingPayment, moves)
	if kind != "Normal" || reason != ReasonExecuted ||
		note != "sandbox recorded paymentReceived evidence; AWAITING_PAYMENT → PAYMENT_RECEIVED: payment received; PAYMENT_RECEIVED → EXECUTED: executed" {
		t.Fatalf("event %s %s %q", kind, reason, note)
	}
	kind, reason, note = EvidenceEvent(StepPaymentReceived, "sandbox recorded paymentReceived evidence", investv1.StateAwaitingPayment, nil)
	if kind != "Normal" || reason != EvidenceReason(StepPaymentReceived) || note != "sandbox recorded paymentReceived evidence" {
		t.Fatalf("event without moves %s %s %q; want the evidence's own", kind, reason, note)
	}
}

func waitingCondition(o *investv1.Order) *metav1.Condition {
	return meta.FindStatusCondition(o.Status.Conditions, ConditionWaiting)
}
