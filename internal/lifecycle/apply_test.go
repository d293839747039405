package lifecycle

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestDecideWritesMovesThatNeedNothingFromOutsideTogether(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateDeliveryInitiated)
	o.Status.Settlement = buyEvidence()
	m := Decide(o, openFacts())
	if len(m.Steps) != 2 || m.Steps[0].To != investv1.StateDeliveryCompleted || m.Steps[1].To != investv1.StateCompleted || m.Wait != nil {
		t.Fatalf("moves %+v, wait %+v; want DELIVERY_COMPLETED then COMPLETED", m.Steps, m.Wait)
	}
	if o.Status.State != investv1.StateDeliveryInitiated {
		t.Fatalf("Decide changed the order: %s", o.Status.State)
	}
}

func TestDecideAcceptsABuyAndIssuesItsPaymentInstructionsInOneWrite(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, "")
	m := Decide(o, openFacts())
	if len(m.Steps) != 2 || m.Steps[0].To != investv1.StatePlaced || m.Steps[1].To != investv1.StateAwaitingPayment ||
		m.Wait == nil || m.Wait.Reason != WaitAwaitingPaymentEvidence {
		t.Fatalf("moves %+v, wait %+v; want PLACED then AWAITING_PAYMENT, waiting for the payment", m.Steps, m.Wait)
	}
}

func TestDecideWritesTheAcceptanceOfASellAlone(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, "")
	m := Decide(o, openFacts())
	if len(m.Steps) != 1 || m.Steps[0].To != investv1.StatePlaced || m.Wait != nil {
		t.Fatalf("moves %+v, wait %+v; want PLACED alone (the units are reserved before what follows)", m.Steps, m.Wait)
	}
}

func TestDecideStopsAtTheFirstWaitWithItsReason(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePlaced)
	m := Decide(o, openFacts())
	if len(m.Steps) != 1 || m.Steps[0].To != investv1.StateAwaitingPayment || m.Wait == nil || m.Wait.Reason != WaitAwaitingPaymentEvidence {
		t.Fatalf("moves %+v, wait %+v; want AWAITING_PAYMENT, then waiting for the payment", m.Steps, m.Wait)
	}
}

func TestApplyRecordsEveryMoveItsRefundOnceAndTheConditions(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePaymentReceived)
	o.Spec.CancellationRequested = true
	m := Decide(o, openFacts())
	if len(m.Steps) != 1 || m.Steps[0].To != investv1.StateCancelled || m.Steps[0].Refund == nil {
		t.Fatalf("moves %+v; want CANCELLED with a refund", m.Steps)
	}
	at := metav1.NewTime(now)
	Apply(o, m.Steps, m.Wait, m.Refused, at)
	if o.Status.State != investv1.StateCancelled || len(o.Status.History) != 1 || !o.Status.History[0].At.Equal(&at) ||
		o.Status.History[0].Reason != m.Steps[0].Reason {
		t.Fatalf("state %s, history %+v", o.Status.State, o.Status.History)
	}
	if o.Status.Refund == nil || o.Status.Refund.Reference != m.Steps[0].Refund.Reference {
		t.Fatalf("refund %+v, want the move's", o.Status.Refund)
	}
	first := o.Status.Refund
	again := *m.Steps[0]
	again.Refund = &investv1.OrderRefund{Reference: "OTHER"}
	Apply(o, []*Transition{&again}, nil, "", at)
	if o.Status.Refund != first {
		t.Fatalf("a recorded refund was replaced: %+v", o.Status.Refund)
	}
	w := meta.FindStatusCondition(o.Status.Conditions, ConditionWaiting)
	if w == nil || w.Status != metav1.ConditionTrue || w.Reason != WaitAwaitingRefundEvidence {
		t.Fatalf("waiting %+v; want the refund awaited", w)
	}
	before := o.DeepCopy()
	Apply(o, nil, nil, "", at)
	if len(o.Status.History) != len(before.Status.History) {
		t.Fatal("no move wrote a history entry")
	}
}

func TestFundFactsAGateWhoseUntilHasPassedIsInactive(t *testing.T) {
	fund := &investv1.Fund{Spec: investv1.FundSpec{Subscribable: true, Redeemable: true,
		RedemptionGate: &investv1.RedemptionGate{Active: true, Reason: "liquidity", Until: &metav1.Time{Time: now.Add(time.Hour)}}}}
	f := Facts{Now: now}
	if at := FundFacts(&f, fund); !f.FundFound || !f.GateActive || f.GateReason != "liquidity" || !at.Equal(now.Add(time.Hour)) || !f.Subscribable || f.Tradeable {
		t.Fatalf("facts %+v, changes at %s", f, at)
	}
	f = Facts{Now: now.Add(2 * time.Hour)}
	if at := FundFacts(&f, fund); f.GateActive || !at.IsZero() {
		t.Fatalf("past its until-time: facts %+v, changes at %s", f, at)
	}
	f = Facts{Now: now}
	if FundFacts(&f, nil); f.FundFound {
		t.Fatal("no fund, yet found")
	}
}
