package account

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
)

// TestTheAccountComesBackWhenItsNextLotUnlocksSoTheLotFolds: the account controller asks to
// come back a second after the earliest locked lot of any ISIN unlocks, and the status it
// computes then has that lot folded into the ISIN's lot of unlocked units.
func TestTheAccountComesBackWhenItsNextLotUnlocksSoTheLotFolds(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	lockUp := map[investv1.ISIN]int32{"IE00B4L5Y983": 30, "LU0274208692": 7, "DE0007164600": 0}
	buy := func(isin investv1.ISIN, day int) investv1.Order {
		o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", isin, day)}}
		o.Spec = investv1.OrderSpec{Side: investv1.SideBuy, ISIN: isin, AmountOfUnits: 10}
		o.Status.State = investv1.StateCompleted
		o.Status.History = []investv1.OrderTransition{{State: investv1.StateCompleted, At: metav1.NewTime(t0.AddDate(0, 0, day))}}
		return o
	}
	compute := func(now time.Time, orders ...investv1.Order) map[investv1.ISIN]*holdings.Position {
		return holdings.Compute(holdings.Input{Orders: orders, Now: now, LockUpDays: func(i investv1.ISIN) int32 { return lockUp[i] }})
	}
	for _, tc := range []struct {
		name   string
		orders []investv1.Order
		now    time.Time
		want   time.Duration // zero: no requeue
	}{
		{"nothing held", nil, t0, 0},
		{"nothing locked", []investv1.Order{buy("DE0007164600", 0), buy("IE00B4L5Y983", 0)}, t0.AddDate(0, 0, 40), 0},
		{"one locked lot", []investv1.Order{buy("IE00B4L5Y983", 0), buy("IE00B4L5Y983", 10)}, t0.AddDate(0, 0, 35), 5*24*time.Hour + time.Second},
		{"the earliest unlock of any ISIN", []investv1.Order{buy("IE00B4L5Y983", 0), buy("LU0274208692", 2)}, t0.AddDate(0, 0, 1), 8*24*time.Hour + time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := requeueAtNextUnlock(compute(tc.now, tc.orders...), tc.now)
			if got.RequeueAfter != tc.want {
				t.Fatalf("RequeueAfter %v, want %v", got.RequeueAfter, tc.want)
			}
			if tc.want == 0 {
				return
			}
			// Coming back then, the lot that unlocked has folded: every ISIN has at most one
			// unlocked lot and one lot fewer is locked.
			then := tc.now.Add(got.RequeueAfter)
			before, after := compute(tc.now, tc.orders...), compute(then, tc.orders...)
			var lockedBefore, lockedAfter int
			for isin, p := range after {
				unlocked := 0
				for _, l := range p.Lots {
					if l.UnlocksAt.After(then) {
						lockedAfter++
					} else {
						unlocked++
					}
				}
				if unlocked > 1 {
					t.Fatalf("%s: %d unlocked lots at %v, want them folded: %+v", isin, unlocked, then, p.Lots)
				}
				lockedBefore += int(before[isin].Locked / 10)
			}
			if lockedAfter != lockedBefore-1 {
				t.Fatalf("%d lots locked at %v, %d before: want one unlocked", lockedAfter, then, lockedBefore)
			}
		})
	}
}
