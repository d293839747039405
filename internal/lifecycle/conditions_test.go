package lifecycle

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// kstatusOf computes the kstatus of the order with cli-utils, the way kubectl wait, Flux
// and kpt read it, after its conditions were set as the reconciler sets them.
func kstatusOf(t *testing.T, o *investv1.Order, waiting *Wait) *kstatus.Result {
	t.Helper()
	SetConditions(o, waiting, nil, "")
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(investv1.GroupVersion.String())
	u.SetKind("Order")
	res, err := kstatus.Compute(u)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestOrderStatusFollowsKstatus is the kstatus table of orders: in flight InProgress,
// COMPLETED and CANCELLED Current (a cancelled order owing a refund InProgress until the
// refund is completed), Failed when only a person can move the order on.
func TestOrderStatusFollowsKstatus(t *testing.T) {
	type row struct {
		side    investv1.OrderSide
		state   investv1.OrderState
		waiting *Wait
		refund  investv1.RefundState // "" none
		want    kstatus.Status
		reason  string // Ready's reason
	}
	inFlight := func(side investv1.OrderSide, s investv1.OrderState) row {
		return row{side, s, nil, "", kstatus.InProgressStatus, StateReason(s)}
	}
	rows := []row{
		inFlight(investv1.SideBuy, investv1.StatePlaced),
		inFlight(investv1.SideBuy, investv1.StateAwaitingPayment),
		inFlight(investv1.SideBuy, investv1.StatePaymentReceived),
		inFlight(investv1.SideBuy, investv1.StateExecuted),
		inFlight(investv1.SideBuy, investv1.StateDeliveryInitiated),
		inFlight(investv1.SideBuy, investv1.StateDeliveryCompleted),
		inFlight(investv1.SideSell, investv1.StatePlaced),
		inFlight(investv1.SideSell, investv1.StateRedemptionGated),
		inFlight(investv1.SideSell, investv1.StateExecuted),
		inFlight(investv1.SideSell, investv1.StatePaymentSent),
		inFlight(investv1.SideSell, investv1.StatePaymentCompleted),
		{investv1.SideBuy, investv1.StateAwaitingPayment, &Wait{Reason: WaitAwaitingPaymentEvidence, Message: "m"}, "", kstatus.InProgressStatus, "AwaitingPayment"},
		{investv1.SideBuy, investv1.StatePaymentReceived, &Wait{Reason: WaitMarketClosed, Message: "m"}, "", kstatus.InProgressStatus, "PaymentReceived"},
		{investv1.SideSell, investv1.StateRedemptionGated, &Wait{Reason: WaitRedemptionGated, Message: "m"}, "", kstatus.InProgressStatus, "RedemptionGated"},
		{investv1.SideBuy, investv1.StatePaymentReceived, &Wait{Reason: WaitShareClassNotFound, Message: "m"}, "", kstatus.FailedStatus, "PaymentReceived"},
		{investv1.SideBuy, investv1.StatePaymentSent, &Wait{Reason: WaitInvalidState, Message: "m"}, "", kstatus.FailedStatus, "PaymentSent"},
		{investv1.SideSell, investv1.StatePlaced, &Wait{Reason: WaitShareClassNotFound, Message: "m"}, "", kstatus.FailedStatus, "Placed"},
		{investv1.SideBuy, investv1.StateCompleted, nil, "", kstatus.CurrentStatus, ReasonCompleted},
		{investv1.SideSell, investv1.StateCompleted, nil, "", kstatus.CurrentStatus, ReasonCompleted},
		{investv1.SideBuy, investv1.StateCancelled, nil, "", kstatus.CurrentStatus, ReasonCancelled},
		{investv1.SideSell, investv1.StateCancelled, nil, "", kstatus.CurrentStatus, ReasonCancelled},
		{investv1.SideBuy, investv1.StateCancelled, nil, investv1.RefundPending, kstatus.InProgressStatus, ReasonRefundPending},
		{investv1.SideBuy, investv1.StateCancelled, nil, investv1.RefundSentState, kstatus.InProgressStatus, ReasonRefundPending},
		{investv1.SideBuy, investv1.StateCancelled, nil, investv1.RefundCompletedState, kstatus.CurrentStatus, ReasonCancelled},
	}
	for _, r := range rows {
		o := newOrder(r.side, investv1.MarketPrimary, r.state)
		o.Generation = 3
		if r.refund != "" {
			o.Status.Refund = NewRefund(o)
			if r.refund != investv1.RefundPending {
				o.Status.Settlement.RefundSent = record("SBX-RFD-ABCDEF012345", "")
			}
			if r.refund == investv1.RefundCompletedState {
				o.Status.Settlement.RefundCompleted = record("SBX-RFD-ABCDEF012345", "")
			}
		}
		res := kstatusOf(t, o, r.waiting)
		name := string(r.side) + " " + string(r.state) + " refund " + string(r.refund)
		if r.waiting != nil {
			name += " waiting " + r.waiting.Reason
		}
		if res.Status != r.want {
			t.Errorf("%s: kstatus %s (%s), want %s", name, res.Status, res.Message, r.want)
		}
		ready := meta.FindStatusCondition(o.Status.Conditions, investv1.ConditionReady)
		if ready == nil || ready.Reason != r.reason || (ready.Status == "True") != (r.want == kstatus.CurrentStatus) {
			t.Errorf("%s: Ready %+v, want reason %s and True iff Current", name, ready, r.reason)
		}
		for _, c := range o.Status.Conditions {
			if c.ObservedGeneration != 3 {
				t.Errorf("%s: condition %s has observedGeneration %d, want 3", name, c.Type, c.ObservedGeneration)
			}
		}
		if o.Status.ObservedGeneration != 3 {
			t.Errorf("%s: status.observedGeneration %d, want 3", name, o.Status.ObservedGeneration)
		}
	}
	// A status that describes an older generation is InProgress whatever it says.
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateCompleted)
	o.Generation = 1
	SetConditions(o, nil, nil, "")
	o.Generation = 2
	m, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if res, err := kstatus.Compute(&unstructured.Unstructured{Object: m}); err != nil || res.Status != kstatus.InProgressStatus {
		t.Errorf("stale status: %v, %v; want InProgress", res, err)
	}
}

func TestStateReasonIsCamelCase(t *testing.T) {
	for s, want := range map[investv1.OrderState]string{
		investv1.StateAwaitingPayment: "AwaitingPayment", investv1.StatePlaced: "Placed",
		investv1.StateDeliveryInitiated: "DeliveryInitiated", investv1.StateRedemptionGated: "RedemptionGated", "": "Pending",
	} {
		if got := StateReason(s); got != want {
			t.Errorf("StateReason(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestACancellationRefusalIsRecordedAsACondition.
func TestACancellationRefusalIsRecordedAsACondition(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePaymentSent)
	SetConditions(o, &Wait{Reason: WaitAwaitingPayoutEvidence, Message: "m"}, nil, "not honoured: PAYMENT_SENT")
	c := meta.FindStatusCondition(o.Status.Conditions, ConditionCancellationRefused)
	if c == nil || c.Status != "True" || c.Reason != ReasonPastPointOfNoReturn {
		t.Fatalf("CancellationRefused = %+v", c)
	}
	if s := meta.FindStatusCondition(o.Status.Conditions, ConditionStalled); s == nil || s.Status != "False" {
		t.Fatalf("a refused cancellation is not Stalled: %+v", s)
	}
}
