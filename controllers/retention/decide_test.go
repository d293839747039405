package retention

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestAnOrderIsDueOnlyWhenDoneAndOlderThanTheRetention(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) metav1.Time { return metav1.NewTime(t0.Add(d)) }
	order := func(state investv1.OrderState, history ...time.Duration) *investv1.Order {
		o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: at(0)}}
		o.Status.State = state
		for _, h := range history {
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: state, At: at(h)})
		}
		return o
	}
	refunding := order(investv1.StateCancelled, time.Hour)
	refunding.Status.Refund = &investv1.OrderRefund{Amount: 1}
	refunded := refunding.DeepCopy()
	refunded.Status.Settlement.RefundCompleted = &investv1.SettlementRecord{At: at(5 * time.Hour)}

	for _, tc := range []struct {
		name      string
		o         *investv1.Order
		retention time.Duration
		due       time.Time
		ok        bool
	}{
		{"completed: due a retention after its last transition", order(investv1.StateCompleted, time.Minute, time.Hour), 24 * time.Hour, t0.Add(25 * time.Hour), true},
		{"cancelled without refund", order(investv1.StateCancelled, 2*time.Hour), time.Hour, t0.Add(3 * time.Hour), true},
		{"live: never", order(investv1.StateExecuted, time.Hour), time.Hour, time.Time{}, false},
		{"cancelled with a refund outstanding: never", refunding, time.Hour, time.Time{}, false},
		{"cancelled with its refund completed: from the completion", refunded, time.Hour, t0.Add(6 * time.Hour), true},
		{"retention 0: off", order(investv1.StateCompleted, time.Hour), 0, time.Time{}, false},
		{"negative retention: off", order(investv1.StateCompleted, time.Hour), -time.Hour, time.Time{}, false},
		{"no history: from creation", order(investv1.StateCompleted), time.Hour, t0.Add(time.Hour), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			due, ok := DueAt(tc.o, tc.retention)
			if ok != tc.ok || !due.Equal(tc.due) {
				t.Fatalf("DueAt = %v, %v; want %v, %v", due, ok, tc.due, tc.ok)
			}
		})
	}
}

func TestASharedBackoffDoublesFromOneSecondToOneMinuteAndResets(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Reconciler{Now: func() time.Time { return now }}
	var got []time.Duration
	for range 8 {
		got = append(got, r.archiveFailed())
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("backoffs %v, want %v", got, want)
		}
	}
	if w := r.waitForArchive(now); w != time.Minute {
		t.Fatalf("wait %v, want 1m", w)
	}
	r.archiveAnswered()
	if w := r.waitForArchive(now); w > 0 {
		t.Fatalf("after an answer: wait %v, want none", w)
	}
}
