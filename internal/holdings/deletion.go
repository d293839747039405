package holdings

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// DeletionBlockers is the pure rule of account deletion (admission and the account
// controller's finalizer): what the account holds, one phrase each, computed from its
// live orders, the summary of its archived ones (nil: no archive), its reservations and
// its on-chain transfers between holders. Empty means the account may go.
func DeletionBlockers(orders []investv1.Order, archived *Summary, reservations []investv1.UnitReservation, now time.Time, transfers ...investv1.Transfer) []string {
	positions := Compute(Input{Orders: orders, Archived: archived, Reservations: reservations, Now: now, Transfers: transfers})
	var out []string
	for _, isin := range slices.Sorted(maps.Keys(positions)) {
		if p := positions[isin]; p.Units > 0 {
			out = append(out, fmt.Sprintf("account holds %d units of %s", p.Units, isin))
		}
	}
	for _, isin := range slices.Sorted(maps.Keys(positions)) {
		if p := positions[isin]; p.Reserved > 0 {
			out = append(out, fmt.Sprintf("%d units of %s are reserved for a sell order", p.Reserved, isin))
		}
	}
	var live []string
	for i := range orders {
		if !orders[i].Status.State.Terminal() {
			live = append(live, fmt.Sprintf("%s (%s %s)", orders[i].Name, orders[i].Spec.Side, placedState(&orders[i])))
		}
	}
	slices.Sort(live)
	if len(live) > 0 {
		const shown = 5
		more := ""
		if len(live) > shown {
			more = fmt.Sprintf(" and %d more", len(live)-shown)
			live = live[:shown]
		}
		word := "order"
		if len(live) > 1 || more != "" {
			word = "orders"
		}
		out = append(out, fmt.Sprintf("live %s %s%s", word, strings.Join(live, ", "), more))
	}
	return out
}

// placedState is the order's state, PLACED before the controller first wrote one.
func placedState(o *investv1.Order) investv1.OrderState {
	if o.Status.State == "" {
		return investv1.StatePlaced
	}
	return o.Status.State
}
