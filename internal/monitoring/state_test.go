package monitoring_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/monitoring"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func order(name string, state investv1.OrderState, entered time.Time, waiting string) *investv1.Order {
	o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "tenant", CreationTimestamp: metav1.NewTime(t0.Add(-48 * time.Hour))}}
	o.Status.State = state
	if state != "" {
		o.Status.History = []investv1.OrderTransition{
			{State: investv1.StatePlaced, At: metav1.NewTime(t0.Add(-24 * time.Hour)), Reason: "Accepted"},
			{State: state, At: metav1.NewTime(entered), Reason: "X"},
		}
	}
	if waiting != "" {
		o.Status.Conditions = []metav1.Condition{{Type: "Waiting", Status: metav1.ConditionTrue, Reason: waiting, LastTransitionTime: metav1.NewTime(entered)}}
	}
	return o
}

func trio(ready, stalled metav1.ConditionStatus, gen int64) []metav1.Condition {
	return []metav1.Condition{
		{Type: investv1.ConditionReady, Status: ready, Reason: "R", ObservedGeneration: gen},
		{Type: investv1.ConditionStalled, Status: stalled, Reason: "R", ObservedGeneration: gen},
	}
}

func TestStateCollectorExportsWhatTheObjectsSay(t *testing.T) {
	objs := []client.Object{
		order("o1", investv1.StateAwaitingPayment, t0.Add(-90*time.Minute), "AwaitingPaymentEvidence"),
		order("o2", investv1.StateAwaitingPayment, t0.Add(-10*time.Minute), "AwaitingPaymentEvidence"),
		order("o3", investv1.StateExecuted, t0.Add(-2*time.Minute), "TokenTransactionReverted"),
		order("o4", investv1.StateCompleted, t0.Add(-5*time.Hour), ""),
		order("o5", "", time.Time{}, ""), // not accepted yet: its age counts from creation
		&investv1.ShareClass{ObjectMeta: metav1.ObjectMeta{Name: "sc1"}, Spec: investv1.ShareClassSpec{ISIN: "LU0000000001"},
			Status: investv1.ShareClassStatus{Conditions: []metav1.Condition{{Type: investv1.ConditionTokenReady, Status: metav1.ConditionFalse, Reason: investv1.ReasonTokenPaused}}}},
		&investv1.ShareClass{ObjectMeta: metav1.ObjectMeta{Name: "sc2"}, Spec: investv1.ShareClassSpec{ISIN: "LU0000000002"}},
		&investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "tenant", Generation: 1}, Status: investv1.WalletStatus{Conditions: trio(metav1.ConditionTrue, metav1.ConditionFalse, 1)}},
		&investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: "w2", Namespace: "tenant", Generation: 2}, Status: investv1.WalletStatus{Conditions: trio(metav1.ConditionTrue, metav1.ConditionFalse, 1)}},
		&investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: "w3", Namespace: "tenant", Generation: 1}},
		&investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: "w4", Namespace: "tenant", Generation: 1}, Status: investv1.WalletStatus{Conditions: trio(metav1.ConditionFalse, metav1.ConditionTrue, 1)}},
	}
	c := fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...).Build()
	col := monitoring.NewStateCollector(c, func() time.Time { return t0 })

	want := `
# HELP fundshare_orders Orders in the cluster (not archived) by state and the reason they wait (their Waiting condition; None when they are not waiting). PENDING: not accepted yet.
# TYPE fundshare_orders gauge
fundshare_orders{reason="AwaitingPaymentEvidence",state="AWAITING_PAYMENT"} 2
fundshare_orders{reason="None",state="AWAITING_PAYMENT"} 0
fundshare_orders{reason="None",state="CANCELLED"} 0
fundshare_orders{reason="None",state="COMPLETED"} 1
fundshare_orders{reason="None",state="DELIVERY_COMPLETED"} 0
fundshare_orders{reason="None",state="DELIVERY_INITIATED"} 0
fundshare_orders{reason="None",state="EXECUTED"} 0
fundshare_orders{reason="None",state="PAYMENT_COMPLETED"} 0
fundshare_orders{reason="None",state="PAYMENT_RECEIVED"} 0
fundshare_orders{reason="None",state="PAYMENT_SENT"} 0
fundshare_orders{reason="None",state="PENDING"} 1
fundshare_orders{reason="None",state="PLACED"} 0
fundshare_orders{reason="None",state="REDEMPTION_GATED"} 0
fundshare_orders{reason="TokenTransactionReverted",state="EXECUTED"} 1
# HELP fundshare_order_oldest_in_state_seconds Seconds the oldest order in a non-terminal state has been in it, by state and waiting reason.
# TYPE fundshare_order_oldest_in_state_seconds gauge
fundshare_order_oldest_in_state_seconds{reason="AwaitingPaymentEvidence",state="AWAITING_PAYMENT"} 5400
fundshare_order_oldest_in_state_seconds{reason="None",state="PENDING"} 172800
fundshare_order_oldest_in_state_seconds{reason="TokenTransactionReverted",state="EXECUTED"} 120
# HELP fundshare_share_class_token 1 per share class with a token, labelled with its TokenReady condition: status (True/False/Unknown) and reason (Deployed, Adopted, Deploying, Paused, ...).
# TYPE fundshare_share_class_token gauge
fundshare_share_class_token{isin="LU0000000001",reason="Paused",status="False"} 1
# HELP fundshare_wallets Wallets by state: Ready, Pending (registration in the identity registry on its way, or no status yet) or Stalled (a person must act).
# TYPE fundshare_wallets gauge
fundshare_wallets{state="Pending"} 2
fundshare_wallets{state="Ready"} 1
fundshare_wallets{state="Stalled"} 1
`
	if err := testutil.CollectAndCompare(col, strings.NewReader(want),
		monitoring.MetricOrders, monitoring.MetricOrderOldest, monitoring.MetricShareClassToken, monitoring.MetricWallets); err != nil {
		t.Fatal(err)
	}

	// The histogram: AWAITING_PAYMENT holds a 90-minute and a 10-minute order.
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, f := range fams {
		if f.GetName() != monitoring.MetricOrderTimeInState {
			continue
		}
		for _, m := range f.GetMetric() {
			if m.GetLabel()[0].GetValue() != string(investv1.StateAwaitingPayment) {
				continue
			}
			found = true
			h := m.GetHistogram()
			if h.GetSampleCount() != 2 || h.GetSampleSum() != 6000 {
				t.Errorf("AWAITING_PAYMENT: count %d sum %v, want 2 and 6000", h.GetSampleCount(), h.GetSampleSum())
			}
			for _, b := range h.GetBucket() {
				var want uint64
				switch {
				case b.GetUpperBound() >= 5400:
					want = 2
				case b.GetUpperBound() >= 600:
					want = 1
				}
				if b.GetCumulativeCount() != want {
					t.Errorf("AWAITING_PAYMENT bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no %s series for AWAITING_PAYMENT", monitoring.MetricOrderTimeInState)
	}
}

// failingReader answers every List with an error, as a cache that has not synced within
// the scrape's timeout.
type failingReader struct{ client.Reader }

func (failingReader) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return errors.New("cache not synced")
}

func TestStateCollectorExportsNothingItCannotRead(t *testing.T) {
	col := monitoring.NewStateCollector(failingReader{}, time.Now)
	if n := testutil.CollectAndCount(col); n != 0 {
		t.Fatalf("collected %d series from a cache that cannot be read, want none (zeros would read as no orders)", n)
	}
}
