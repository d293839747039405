package strike

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// The redemption gate of a dealing date (docs/dealing.md, "The redemption gate"):
//
//  1. draw, before the NAV is recorded and in the same write: the class's outstanding
//     units (every account's holding on the books), the limit, and the units the
//     dealing's SELLs ask, listed from the API server so that no SELL placed before the
//     cut-off is missed by a lagging cache;
//  2. price fills each SELL with lifecycle.GateFill and, under CarryForward, names in its
//     contract note the SELL that deals the remainder (an id derived from the order and
//     the dealing) and its dealing date; a SELL filled with nothing is moved to that date
//     instead (moveOn);
//  3. settleGate, after the contract note is written and again on every reconcile until
//     it holds: the account's reservation of the SELL is cut to the units filled and the
//     remainder's reservation added, in one write, then the remainder's SELL is created.
//
// Each step is idempotent and decided from what is recorded (the gate on the Dealing, the
// contract note on the order), so a crash between any two resumes where it stopped and no
// unit is redeemed twice or lost.

// draw draws up the dealing's redemption gate and anti-dilution decision under the share
// class's terms at the NAV nav (each nil when the terms have none): the class's
// outstanding units are every account's holding on the books, and the dealing's orders
// are listed from the API server, so that none placed before the cut-off is missed by a
// lagging cache. Orders that are terminal do not count.
func (r *Reconciler) draw(ctx context.Context, d *investv1.Dealing, terms *investv1.DealingTerms, nav int64) (*investv1.DealingGate, *investv1.DealingAntiDilution, error) {
	if terms.RedemptionGate == nil && terms.AntiDilution == nil {
		return nil, nil, nil
	}
	var accounts investv1.AccountList
	if err := r.Client.List(ctx, &accounts); err != nil {
		return nil, nil, err
	}
	var outstanding int64
	for i := range accounts.Items {
		for _, h := range accounts.Items[i].Status.Holdings {
			if h.ISIN == d.Spec.ISIN {
				outstanding += h.Units
			}
		}
	}
	var list investv1.OrderList
	if err := r.live().List(ctx, &list); err != nil {
		return nil, nil, err
	}
	orders := slices.DeleteFunc(list.Items, func(o investv1.Order) bool {
		return o.Spec.ISIN != d.Spec.ISIN || lifecycle.OrderDealingName(&o) != d.Name || o.Status.State.Terminal()
	})
	var gate *investv1.DealingGate
	if g := terms.RedemptionGate; g != nil {
		gate = &investv1.DealingGate{
			ThresholdBasisPoints: g.ThresholdBasisPoints, OutstandingUnits: outstanding,
			LimitUnits: lifecycle.GateLimit(outstanding, g.ThresholdBasisPoints), Remainder: g.Remainder,
		}
		if gate.Remainder == "" {
			gate.Remainder = investv1.GateCarryForward
		}
		for i := range orders {
			if orders[i].Spec.Side == investv1.SideSell {
				gate.RequestedUnits += orders[i].Spec.AmountOfUnits
				gate.Sells++
			}
		}
	}
	if terms.AntiDilution == nil {
		return gate, nil, nil
	}
	var in, out int64
	for i := range orders {
		i1, o1, err := lifecycle.Flow(&orders[i], nav, terms.UnitDecimals, gate)
		if err != nil {
			return nil, nil, reconcile.TerminalError(err)
		}
		in, out = in+i1, out+o1
	}
	ad, err := lifecycle.DrawAntiDilution(terms.AntiDilution, in, out, outstanding, nav, terms.UnitDecimals)
	if err != nil {
		return nil, nil, reconcile.TerminalError(err)
	}
	return gate, ad, nil
}

// carryTarget is the dealing date a remainder goes to: the first dealing date after the
// strike's whose NAV is not recorded yet, so that the remainder is counted by its gate.
func (r *Reconciler) carryTarget(ctx context.Context, cal *dealing.Calendar, s lifecycle.Strike) (dealing.Dealing, error) {
	from, err := dealing.ParsePoint(s.Date)
	if err != nil {
		return dealing.Dealing{}, err
	}
	isin, _, ok := lifecycle.SplitName(s.Dealing)
	if !ok {
		return dealing.Dealing{}, fmt.Errorf("%q is not the name of a Dealing", s.Dealing)
	}
	for range 60 {
		next, err := cal.After(from)
		if err != nil {
			return dealing.Dealing{}, err
		}
		d := &investv1.Dealing{}
		err = r.live().Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(isin, next.String())}, d)
		if apierrors.IsNotFound(err) || err == nil && d.Status.NAV == nil {
			return next, nil
		}
		if err != nil {
			return dealing.Dealing{}, err
		}
		from = next.Point
	}
	return dealing.Dealing{}, fmt.Errorf("no dealing date after %s is still to be struck", s.Date)
}

// moveOn moves a SELL the gate filled none of to the dealing date next, under the
// optimistic lock: it keeps its units, its reservation and its id.
func (r *Reconciler) moveOn(ctx context.Context, o *investv1.Order, next dealing.Dealing) error {
	before := o.DeepCopy()
	moves := int32(1)
	if o.Status.Dealing != nil {
		moves = o.Status.Dealing.Moves + 1
	}
	from := lifecycle.DealingDate(o)
	o.Status.Dealing = &investv1.OrderDealing{
		Date: next.String(), CutOff: metav1.NewTime(next.RedemptionCutOff.UTC()), Moves: moves, Reason: investv1.DealingMoveRedemptionGate,
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return err
	}
	ctrl.LoggerFrom(ctx).Info("gated SELL moved to the next dealing date", "order", klog.KObj(o), "from", from, "to", next.String())
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, corev1.EventTypeWarning, lifecycle.ReasonRedemptionCarriedForward, "Redate",
			"the redemption gate of dealing date %s filled none of the %d units: the order deals at %s", from, o.Spec.AmountOfUnits, next.String())
	}
	return nil
}

// settleGate makes what a gated SELL's contract note says true outside the order: the
// account reserves the units filled for it and the remainder for the SELL that carries
// them (one write), and that SELL exists. Nothing is done twice.
func (r *Reconciler) settleGate(ctx context.Context, o *investv1.Order) error {
	n := o.Status.Strike
	carry := n.CarriedForward
	if o.Status.State.Terminal() {
		// Done: its remainder's SELL was made before it could finish (and the retention
		// controller keeps that SELL while this one is not terminal).
		return nil
	}
	if carry != nil && r.exists(ctx, o.Namespace, string(carry.Order)) || carry == nil && r.reserved(ctx, o, n) {
		return nil
	}
	acct := &investv1.Account{}
	if err := r.live().Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct); err != nil {
		return err
	}
	changed := false
	for i := range acct.Status.Reservations {
		if string(acct.Status.Reservations[i].Order) == o.Name && acct.Status.Reservations[i].Units != n.Units {
			acct.Status.Reservations[i].Units = n.Units
			changed = true
		}
	}
	if carry != nil && !slices.ContainsFunc(acct.Status.Reservations, func(x investv1.UnitReservation) bool { return x.Order == carry.Order }) {
		acct.Status.Reservations = append(acct.Status.Reservations, investv1.UnitReservation{Order: carry.Order, ISIN: o.Spec.ISIN, Units: carry.Units})
		changed = true
	}
	if changed {
		if err := r.Client.Status().Update(ctx, acct); err != nil {
			return err
		}
		ctrl.LoggerFrom(ctx).Info("reservation split by the redemption gate", "account", klog.KObj(acct), "order", o.Name, "filled", n.Units, "carried", carryUnits(carry))
	}
	if carry == nil {
		return nil
	}
	child := carried(o, carry)
	if err := r.Client.Create(ctx, child); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}
	ctrl.LoggerFrom(ctx).Info("remainder carried forward", "order", klog.KObj(o), "carry", klog.KObj(child), "units", carry.Units, "dealingDate", carry.DealingDate)
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, corev1.EventTypeNormal, lifecycle.ReasonRedemptionCarriedForward, "CarryForward",
			"the redemption gate filled %d of %d units: %d are carried forward to the dealing date %s as order %s",
			n.Units, n.RequestedUnits, carry.Units, carry.DealingDate, carry.Order)
	}
	return nil
}

// reserved reports whether the cached account reserves no more for the order than its
// contract note's units.
func (r *Reconciler) reserved(ctx context.Context, o *investv1.Order, n *investv1.OrderContractNote) bool {
	acct := &investv1.Account{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct); err != nil {
		return false
	}
	return !slices.ContainsFunc(acct.Status.Reservations, func(x investv1.UnitReservation) bool {
		return string(x.Order) == o.Name && x.Units != n.Units
	})
}

func (r *Reconciler) exists(ctx context.Context, ns, name string) bool {
	return r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &investv1.Order{}) == nil
}

// carried is the SELL of a gated SELL's remainder: the same account, wallet, bank account,
// share class and market; admission gives it its parent's quote at the new dealing date.
func carried(o *investv1.Order, c *investv1.OrderCarry) *investv1.Order {
	return &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(c.Order), Labels: o.Labels},
		Spec: investv1.OrderSpec{
			Side: investv1.SideSell, Market: o.Spec.Market, ISIN: o.Spec.ISIN, Currency: o.Spec.Currency,
			AmountOfUnits: c.Units, AccountID: o.Spec.AccountID, SettlementType: o.Spec.SettlementType,
			WalletID: o.Spec.WalletID, PaymentMethodDetailsID: o.Spec.PaymentMethodDetailsID,
			CustomOfferingID: o.Spec.CustomOfferingID, CarriedFrom: investv1.ObjectID(o.Name),
		},
	}
}

func carryUnits(c *investv1.OrderCarry) int64 {
	if c == nil {
		return 0
	}
	return c.Units
}

func antiDilutionWords(ad *investv1.DealingAntiDilution) string {
	if ad.Method == investv1.SwingPricing {
		return fmt.Sprintf("every order is dealt at the swung price %d (NAV moved by %d basis points)", ad.NAVPerShare, ad.FactorBasisPoints)
	}
	side := "BUYs"
	if ad.Direction == investv1.FlowOutflow {
		side = "SELLs"
	}
	return fmt.Sprintf("the %s pay a levy of %d basis points, kept by the fund", side, ad.FactorBasisPoints)
}

func remainderWords(p investv1.GateRemainder) string {
	if p == investv1.GateCancel {
		return "not redeemed"
	}
	return "carried forward to the next dealing date"
}
