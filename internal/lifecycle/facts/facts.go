// Package facts gathers what the lifecycle's decisions depend on outside the order (its
// share class and fund, the market flags and gate, a SELL's reservation, a forward order's
// dealing terms), through a reader, so that every writer of moves (the order controller,
// the settlement agents, the chain agent) decides with the same facts. The decisions
// themselves are internal/lifecycle's, which does no I/O.
package facts

import (
	"context"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Gather collects the facts outside the order at now: its share class and fund, the
// market flags and gate, and whether a SELL's units are reserved (Held once the order has
// left PLACED, Pending before unless the account already lists the reservation). The
// reader is the manager's cache, with share classes indexed by ISIN (index.Register), or
// the API server. changesAt is when a fact
// changes by itself (a gate's until-time, a forward BUY's cut-off), zero when none does.
func Gather(ctx context.Context, c client.Reader, o *investv1.Order, now time.Time) (f lifecycle.Facts, changesAt time.Time, err error) {
	f = lifecycle.Facts{Now: now, Priced: o.Spec.Quote != nil, Reservation: lifecycle.ReservationNotNeeded}
	classes, err := index.ShareClassesOf(ctx, o.Spec.ISIN, c)
	if err != nil {
		return f, changesAt, err
	}
	if len(classes.Items) > 0 {
		fund := &investv1.Fund{}
		err := c.Get(ctx, client.ObjectKey{Name: string(classes.Items[0].Spec.FeederFundID)}, fund)
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return f, changesAt, err
		default:
			changesAt = lifecycle.FundFacts(&f, fund)
		}
	}
	if len(classes.Items) > 0 && lifecycle.Forward(o) {
		changesAt = earliest(changesAt, forwardFacts(&f, o, &classes.Items[0], now))
	}
	if w := lifecycle.Window(o); w != nil && o.Spec.Side == investv1.SideBuy && o.Status.State == investv1.StateAwaitingPayment && now.Before(w.Deadline.Time) {
		// A SECONDARY BUY unpaid at its window's order deadline is cancelled then.
		changesAt = earliest(changesAt, w.Deadline.Time)
	}
	if o.Spec.Side == investv1.SideSell {
		f.Reservation = lifecycle.ReservationPending
		if o.Status.State != "" && o.Status.State != investv1.StatePlaced {
			f.Reservation = lifecycle.ReservationHeld
			return f, changesAt, nil
		}
		acct := &investv1.Account{}
		err := c.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct)
		if err != nil && !apierrors.IsNotFound(err) {
			return f, changesAt, err
		}
		if HasReservation(acct, o.Name) {
			f.Reservation = lifecycle.ReservationHeld
		}
	}
	return f, changesAt, nil
}

// Follow gathers the facts of o at now and applies to it the moves the evidence just
// recorded in it unlocks (lifecycle.Follow), for an agent to write with the evidence.
func Follow(ctx context.Context, c client.Reader, o *investv1.Order, now time.Time) ([]*lifecycle.Transition, error) {
	f, _, err := Gather(ctx, c, o, now)
	if err != nil {
		return nil, fmt.Errorf("gather the facts order %s's next moves depend on: %w", o.Name, err)
	}
	return lifecycle.Follow(o, f, metav1.NewTime(now.UTC())), nil
}

// HasReservation reports whether the account's status lists a unit reservation of order.
func HasReservation(acct *investv1.Account, order string) bool {
	return slices.ContainsFunc(acct.Status.Reservations, func(r investv1.UnitReservation) bool { return string(r.Order) == order })
}

// forwardFacts adds the facts of a forward order: its share class's unpaid policy and,
// for a BUY by amount waiting for its payment past its cut-off under NextDealingDate, the
// dealing date it moves to (the first whose subscription cut-off is still ahead). It
// returns when a fact changes by itself: the cut-off of such a BUY still ahead.
func forwardFacts(f *lifecycle.Facts, o *investv1.Order, sc *investv1.ShareClass, now time.Time) time.Time {
	terms := sc.Spec.Dealing
	if terms == nil || o.Spec.Side != investv1.SideBuy || !lifecycle.ByAmount(o) || o.Status.State != investv1.StateAwaitingPayment {
		return time.Time{}
	}
	f.UnpaidPolicy = terms.UnpaidAtCutOff
	cutOff := lifecycle.CutOff(o)
	if now.Before(cutOff) {
		return cutOff
	}
	if f.UnpaidPolicy == investv1.UnpaidNextDealingDate {
		if next, err := dealing.DealingDateFor(terms, investv1.SideBuy, now); err == nil {
			f.NextDealing = &investv1.OrderDealing{Date: next.String(), CutOff: metav1.NewTime(next.SubscriptionCutOff.UTC())}
		}
	}
	return time.Time{}
}

// earliest is the earlier of two instants, zero meaning none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
