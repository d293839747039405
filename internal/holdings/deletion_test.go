package holdings

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const deletionISIN = "LU0274208692"

func deletionOrder(name string, side investv1.OrderSide, state investv1.OrderState, units int64) investv1.Order {
	o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.OrderSpec{Side: side, ISIN: deletionISIN, AmountOfUnits: units}}
	o.Status.State = state
	if state == investv1.StateCompleted {
		o.Status.History = []investv1.OrderTransition{{State: state, At: metav1.NewTime(time.Now().Add(-time.Hour))}}
	}
	return o
}

// TestAnAccountThatHoldsSomethingCannotBeDeleted is the pure rule behind the account
// webhook's DELETE refusal and the account controller's finalizer (DeletionBlockers).
func TestAnAccountThatHoldsSomethingCannotBeDeleted(t *testing.T) {
	buy900 := deletionOrder("b1", investv1.SideBuy, investv1.StateCompleted, 900)
	for _, tc := range []struct {
		name         string
		orders       []investv1.Order
		reservations []investv1.UnitReservation
		want         []string // substrings, in order; none means deletable
	}{
		{name: "no orders"},
		{name: "only cancelled orders", orders: []investv1.Order{deletionOrder("c", investv1.SideBuy, investv1.StateCancelled, 10)}},
		{name: "everything bought was sold", orders: []investv1.Order{buy900, deletionOrder("s1", investv1.SideSell, investv1.StateCompleted, 900)}},
		{name: "holds 900 units", orders: []investv1.Order{buy900}, want: []string{"account holds 900 units of " + deletionISIN}},
		{name: "holds what a partial sell left", orders: []investv1.Order{buy900, deletionOrder("s1", investv1.SideSell, investv1.StateCompleted, 400)},
			want: []string{"account holds 500 units of " + deletionISIN}},
		{name: "an open sell reserves units", orders: []investv1.Order{buy900, deletionOrder("s2", investv1.SideSell, investv1.StateRedemptionGated, 900)},
			reservations: []investv1.UnitReservation{{Order: "s2", ISIN: deletionISIN, Units: 900}},
			want:         []string{"account holds 900 units", "900 units of " + deletionISIN + " are reserved for a sell order", "live order s2 (SELL REDEMPTION_GATED)"}},
		{name: "a reservation of an order not seen yet still counts", reservations: []investv1.UnitReservation{{Order: "unseen", ISIN: deletionISIN, Units: 5}},
			want: []string{"5 units of " + deletionISIN + " are reserved"}},
		{name: "a live buy", orders: []investv1.Order{deletionOrder("b2", investv1.SideBuy, "", 10)}, want: []string{"live order b2 (BUY PLACED)"}},
		{name: "many live orders are summed up", orders: []investv1.Order{
			deletionOrder("o1", investv1.SideBuy, investv1.StateAwaitingPayment, 1), deletionOrder("o2", investv1.SideBuy, investv1.StateAwaitingPayment, 1),
			deletionOrder("o3", investv1.SideBuy, investv1.StateAwaitingPayment, 1), deletionOrder("o4", investv1.SideBuy, investv1.StateAwaitingPayment, 1),
			deletionOrder("o5", investv1.SideBuy, investv1.StateAwaitingPayment, 1), deletionOrder("o6", investv1.SideBuy, investv1.StateAwaitingPayment, 1),
		}, want: []string{"live orders o1 (BUY AWAITING_PAYMENT)", "o5 (BUY AWAITING_PAYMENT) and 1 more"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(DeletionBlockers(tc.orders, nil, tc.reservations, time.Now()), "; ")
			if len(tc.want) == 0 {
				if got != "" {
					t.Fatalf("deletable account refused: %s", got)
				}
				return
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("got %q, want it to contain %q (in order)", got, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
