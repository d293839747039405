package lifecycle

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func rejected(purpose, outcome string) *investv1.OrderPayout {
	return &investv1.OrderPayout{Purpose: purpose, EndToEndID: "e2e", MessageID: "FS1", Amount: 1_000_000,
		Outcome: outcome, Code: "AC04", Reason: "closed account", At: metav1.Now()}
}

func TestARejectedPayoutStallsTheSellWithTheBanksReason(t *testing.T) {
	for _, state := range []investv1.OrderState{investv1.StateExecuted, investv1.StatePaymentSent} {
		o := newOrder(investv1.SideSell, investv1.MarketPrimary, state)
		o.Status.Settlement.TokensBurned = record("", txHash)
		if state == investv1.StatePaymentSent {
			o.Status.Settlement.PaymentSent = record("FS1/e2e", "")
		}
		o.Status.Payout = rejected(investv1.PurposePayout, investv1.PayoutRejected)
		d := Next(o, openFacts())
		w := mustWait(t, d, WaitPayoutRejected)
		mustContain(t, w.Message, "AC04 closed account")
		mustContain(t, w.Message, "nothing is sent again")
		SetConditions(o, d.Wait, nil, "")
		if c := meta.FindStatusCondition(o.Status.Conditions, ConditionStalled); c == nil || c.Status != metav1.ConditionTrue || c.Reason != WaitPayoutRejected {
			t.Fatalf("%s: Stalled = %+v, want True with reason %s", state, c, WaitPayoutRejected)
		}
	}
}

func TestAReturnedRefundStallsTheCancelledOrderWhileItsRefundIsOutstanding(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateCancelled)
	o.Status.Refund = &investv1.OrderRefund{Amount: 1_000_000, Currency: "EUR", Reference: "RF-1"}
	o.Status.Settlement.RefundSent = record("FS1/e2e", "")
	o.Status.Payout = rejected(investv1.PurposeRefund, investv1.PayoutReturned)
	w := RefundWait(o)
	if w == nil || w.Reason != WaitPayoutReturned {
		t.Fatalf("RefundWait = %+v, want %s", w, WaitPayoutReturned)
	}
	mustContain(t, w.Message, "sent back by the bank")
	SetConditions(o, w, nil, "")
	stalled := meta.FindStatusCondition(o.Status.Conditions, ConditionStalled)
	ready := meta.FindStatusCondition(o.Status.Conditions, "Ready")
	if stalled == nil || stalled.Status != metav1.ConditionTrue || ready == nil || ready.Status != metav1.ConditionFalse || ready.Reason != ReasonRefundPending {
		t.Fatalf("Stalled = %+v, Ready = %+v; want Stalled True and Ready False RefundPending", stalled, ready)
	}
}

func TestAPayoutProblemOfAnotherPurposeDoesNotStallTheOrder(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	o.Status.Payout = rejected(investv1.PurposeRefund, investv1.PayoutRejected)
	mustWait(t, Next(o, openFacts()), WaitAwaitingPayoutEvidence)
}
