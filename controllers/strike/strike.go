// Package strike is the strike controller of forward pricing (docs/dealing.md): one
// Dealing object per ISIN and dealing date of a forward-priced share class, from Open to
// Settled, and the strike itself. When the NAV of a dealing date is published (a
// NAVHistory price of that date) and both its cut-offs have passed, the controller
// records that NAV on the Dealing (status.nav, immutable), then prices every order of the
// dealing that is ready for it (lifecycle.ReadyForStrike) at that recorded NAV, writing
// each order's contract note (status.strike, immutable) under the optimistic lock, with
// the moves the lifecycle then makes (a paid order becomes EXECUTED in the same write),
// several orders at a time.
//
// Exactly once: the price is the one recorded on the Dealing before the first order is
// priced, so a restart in the middle prices the rest at the same NAV; an order carries the
// contract note of the strike that priced it, which the API server refuses to change, and
// every write is guarded by the version of the order it was decided on, so no order is
// priced twice, whatever crashes or stale caches. It imports no other controller.
package strike

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=dealings,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=dealings/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses;navhistories;funds,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Upcoming is how many of a share class's next dealing dates get a Dealing object ahead
// of their orders, so that kubectl get dealings shows the next strikes.
const Upcoming = 3

// Reconciler keeps the Dealing objects and strikes them.
type Reconciler struct {
	Client client.Client
	// Live reads from the API server, past the cache: the SELLs a redemption gate counts,
	// the account whose reservation a gated SELL splits, the dealing a remainder goes to.
	// Nil: Client.
	Live     client.Reader
	Recorder events.EventRecorder
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Reconcile brings one dealing (named after its ISIN and date) up to date: it creates the
// Dealing object when its share class prices forward and the date is a dealing date,
// records the NAV once both cut-offs have passed and the NAV of the date is published,
// prices the orders ready for the strike, and writes the phase, counts and totals.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	now := r.now()
	d := &investv1.Dealing{}
	err := r.Client.Get(ctx, req.NamespacedName, d)
	switch {
	case apierrors.IsNotFound(err):
		created, err := r.create(ctx, req.Name)
		if err != nil || created == nil {
			return ctrl.Result{}, err
		}
		d = created
	case err != nil:
		return ctrl.Result{}, err
	}
	sc, err := r.shareClass(ctx, d.Spec.ISIN)
	if err != nil {
		return ctrl.Result{}, err
	}
	if sc == nil || sc.Spec.Dealing == nil || sc.Spec.Dealing.Pricing != investv1.PricingForward {
		return r.writeStatus(ctx, d, func(st *investv1.DealingProgress) {
			st.Message = fmt.Sprintf("no share class with ISIN %s prices forward", d.Spec.ISIN)
		})
	}
	cal, err := dealing.New(sc.Spec.Dealing)
	if err != nil {
		return r.writeStatus(ctx, d, func(st *investv1.DealingProgress) { st.Message = "no dealing calendar: " + err.Error() })
	}
	point, err := dealing.ParsePoint(d.Spec.Date)
	if err != nil {
		return ctrl.Result{}, reconcile.TerminalError(err)
	}
	dl, err := cal.DealingAt(point)
	if err != nil {
		return r.writeStatus(ctx, d, func(st *investv1.DealingProgress) { st.Message = err.Error() })
	}

	if d.Status.NAV == nil && !now.Before(dl.LastCutOff()) {
		nav, err := r.publishedNAV(ctx, d, point)
		if err != nil {
			return ctrl.Result{}, err
		}
		if nav != nil {
			gate, ad, err := r.draw(ctx, d, sc.Spec.Dealing, nav.NAVPerShare)
			if err != nil {
				return ctrl.Result{}, err
			}
			if res, err := r.recordNAV(ctx, d, nav, gate, ad, dl, now); err != nil || res.RequeueAfter > 0 {
				return res, err
			}
		}
	}

	// The cache's orders, not copies (a dealing of 10,000 orders is listed every second
	// while they change): only the orders priced below are copied before they are written.
	var orders investv1.OrderList
	if err := r.Client.List(ctx, &orders, client.MatchingFields{index.OrderDealing: d.Name}, client.UnsafeDisableDeepCopy); err != nil {
		return ctrl.Result{}, err
	}
	slices.SortFunc(orders.Items, func(a, b investv1.Order) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	if d.Status.NAV != nil {
		strike := lifecycle.Strike{
			Dealing: d.Name, Date: d.Spec.Date, NAVPerShare: d.Status.NAV.NAVPerShare,
			UnitDecimals: sc.Spec.Dealing.UnitDecimals, SettlementDate: dl.SettlementDate.String(), At: now,
			Gate: d.Status.RedemptionGate, AntiDilution: d.Status.AntiDilution,
		}
		facts, err := r.fundFacts(ctx, sc, now)
		if err != nil {
			return ctrl.Result{}, err
		}
		var (
			ready []*investv1.Order
			at    []int // ready[k] is a copy of orders.Items[at[k]]
		)
		for i := range orders.Items {
			if lifecycle.ReadyForStrike(&orders.Items[i]) {
				ready, at = append(ready, orders.Items[i].DeepCopy()), append(at, i)
			}
		}
		err = r.priceAll(ctx, ready, strike, cal, facts)
		for k, i := range at {
			orders.Items[i] = *ready[k] // as written (or not): the counts below read them
		}
		if err != nil {
			return patch.Retry(ctx, err, "price the dealing's orders")
		}
		for i := range orders.Items {
			o := &orders.Items[i]
			if n := o.Status.Strike; n != nil && n.Dealing == d.Name && n.RequestedUnits > 0 {
				if err := r.settleGate(ctx, o); err != nil {
					return patch.Retry(ctx, err, "carry the remainder of order "+o.Namespace+"/"+o.Name)
				}
			}
		}
	}

	if point.Timed() && d.Status.NAV == nil && noLiveOrder(orders.Items) {
		// An intraday dealing point nobody dealt at is not kept: a class that deals every
		// five minutes would leave 288 of them a day. An order that turns out to deal at it
		// after all (a cache behind the API server) makes it again.
		if at := dl.LastCutOff().Add(emptyPointGrace); now.Before(at) {
			if res, err := r.writeStatus(ctx, d, func(st *investv1.DealingProgress) { progress(st, d, dl, orders.Items, now) }); err != nil || res.RequeueAfter > 0 {
				return res, err
			}
			return ctrl.Result{RequeueAfter: at.Sub(now) + time.Second}, nil
		}
		if err := r.Client.Delete(ctx, d, client.Preconditions{ResourceVersion: &d.ResourceVersion}); err != nil && !apierrors.IsNotFound(err) {
			return patch.Retry(ctx, err, "delete the empty dealing point "+d.Name)
		}
		ctrl.LoggerFrom(ctx).V(1).Info("empty intraday dealing point deleted", "isin", d.Spec.ISIN, "point", d.Spec.Date)
		return ctrl.Result{}, nil
	}

	res, err := r.writeStatus(ctx, d, func(st *investv1.DealingProgress) { progress(st, d, dl, orders.Items, now) })
	if err != nil || res.RequeueAfter > 0 {
		return res, err
	}
	if d.Status.NAV == nil && now.Before(dl.LastCutOff()) {
		// Open: come back when the last cut-off passes.
		return ctrl.Result{RequeueAfter: dl.LastCutOff().Sub(now) + time.Second}, nil
	}
	return ctrl.Result{}, nil
}

// create makes the Dealing object name stands for, when its share class prices forward and
// its date is a dealing date (or point); an intraday point whose time to be deleted empty
// has come only when an order deals at it. nil when it should not exist.
func (r *Reconciler) create(ctx context.Context, name string) (*investv1.Dealing, error) {
	isin, date, ok := lifecycle.SplitName(name)
	if !ok {
		return nil, nil
	}
	sc, err := r.shareClass(ctx, isin)
	if err != nil || sc == nil || sc.Spec.Dealing == nil || sc.Spec.Dealing.Pricing != investv1.PricingForward {
		return nil, err
	}
	cal, err := dealing.New(sc.Spec.Dealing)
	if err != nil {
		return nil, nil //nolint:nilerr // a share class without a calendar has no dealings; its status says why
	}
	p, err := dealing.ParsePoint(date)
	if err != nil || !cal.IsDealingPoint(p) {
		return nil, nil //nolint:nilerr // not a dealing date (or point): nothing to create
	}
	if p.Timed() {
		// An intraday point past the time it is deleted at when empty is made for an order
		// that deals at it only: made empty, it would be deleted at once, and its deletion
		// wakes this controller for it again.
		dl, err := cal.DealingAt(p)
		if err != nil {
			return nil, nil //nolint:nilerr // the calendar cannot place it: nothing to create
		}
		if !r.now().Before(dl.LastCutOff().Add(emptyPointGrace)) {
			var orders investv1.OrderList
			if err := r.Client.List(ctx, &orders, client.MatchingFields{index.OrderDealing: name}, client.UnsafeDisableDeepCopy); err != nil {
				return nil, err
			}
			if noLiveOrder(orders.Items) {
				return nil, nil
			}
		}
	}
	obj := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.DealingSpec{ISIN: isin, Date: date}}
	if err := r.Client.Create(ctx, obj); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return obj, r.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		}
		return nil, err
	}
	ctrl.LoggerFrom(ctx).Info("dealing created", "isin", isin, "date", date)
	return obj, nil
}

func (r *Reconciler) shareClass(ctx context.Context, isin investv1.ISIN) (*investv1.ShareClass, error) {
	var classes investv1.ShareClassList
	if err := r.Client.List(ctx, &classes, client.MatchingFields{index.ShareClassISIN: string(isin)}); err != nil {
		return nil, err
	}
	if len(classes.Items) == 0 {
		return nil, nil
	}
	return &classes.Items[0], nil
}

// publishedNAV is the NAV of the dealing: for an intraday dealing point the NAV published
// on the Dealing itself (spec.navPerShare), for a dealing date the price of that date in
// its ISIN's history; nil when none is published yet.
func (r *Reconciler) publishedNAV(ctx context.Context, d *investv1.Dealing, point dealing.Point) (*investv1.NAVPrice, error) {
	if point.Timed() {
		if d.Spec.NAVPerShare == nil {
			return nil, nil
		}
		return &investv1.NAVPrice{Date: d.Spec.Date, NAVPerShare: *d.Spec.NAVPerShare}, nil
	}
	h := &investv1.NAVHistory{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: strings.ToLower(string(d.Spec.ISIN))}, h); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	for i := range h.Spec.Prices {
		if h.Spec.Prices[i].Date == d.Spec.Date && h.Spec.Prices[i].NAVPerShare > 0 {
			return &h.Spec.Prices[i], nil
		}
	}
	return nil, nil
}

// recordNAV fixes the dealing's NAV (status.nav) before any order is priced, under the
// optimistic lock: the strike's one price, also after a restart.
func (r *Reconciler) recordNAV(ctx context.Context, d *investv1.Dealing, nav *investv1.NAVPrice, gate *investv1.DealingGate, ad *investv1.DealingAntiDilution,
	dl dealing.Dealing, now time.Time,
) (ctrl.Result, error) {
	before := d.DeepCopy()
	d.Status.NAV = &investv1.DealingNAV{NAVPerShare: nav.NAVPerShare, Date: nav.Date, RecordedAt: metav1.NewTime(now.UTC().Truncate(time.Second))}
	d.Status.RedemptionGate, d.Status.AntiDilution = gate, ad
	d.Status.StruckAt = &d.Status.NAV.RecordedAt
	d.Status.Phase = investv1.DealingStruck
	fillDates(&d.Status, dl)
	if err := patch.Status(ctx, r.Client, d, before); err != nil {
		return patch.Retry(ctx, err, "record the NAV of dealing "+d.Name)
	}
	ctrl.LoggerFrom(ctx).Info("NAV recorded for the strike", "isin", d.Spec.ISIN, "date", d.Spec.Date, "navPerShare", nav.NAVPerShare)
	if r.Recorder != nil {
		r.Recorder.Eventf(d, nil, corev1.EventTypeNormal, "NAVRecorded", "Strike", "the NAV %d of %s is recorded: the dealing's orders are priced at it",
			nav.NAVPerShare, nav.Date)
		if ad != nil && ad.Applied {
			r.Recorder.Eventf(d, nil, corev1.EventTypeNormal, "AntiDilutionApplied", "Strike",
				"net %s of %d against %d in (%d out), above %d basis points of the class's value %d: %s",
				strings.ToLower(string(ad.Direction)), ad.Subscriptions-ad.Redemptions, ad.Subscriptions, ad.Redemptions,
				ad.ThresholdBasisPoints, ad.ClassValue, antiDilutionWords(ad))
		}
		if gate.Applied() {
			r.Recorder.Eventf(d, nil, corev1.EventTypeWarning, "RedemptionGateApplied", "Strike",
				"%d SELLs ask %d units, above the gate of %d units (%d basis points of %d outstanding): each is filled pro rata, the rest is %s",
				gate.Sells, gate.RequestedUnits, gate.LimitUnits, gate.ThresholdBasisPoints, gate.OutstandingUnits, remainderWords(gate.Remainder))
		}
	}
	return ctrl.Result{}, nil
}

// fundFacts are the facts of the share class's fund at now (lifecycle.FundFacts), from
// which the strike moves a priced order on in the same write as its contract note.
func (r *Reconciler) fundFacts(ctx context.Context, sc *investv1.ShareClass, now time.Time) (lifecycle.Facts, error) {
	f := lifecycle.Facts{Now: now, Priced: true}
	fund := &investv1.Fund{}
	err := r.Client.Get(ctx, client.ObjectKey{Name: string(sc.Spec.FeederFundID)}, fund)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return f, err
	default:
		lifecycle.FundFacts(&f, fund)
	}
	return f, nil
}

// strikeWorkers is how many orders of a dealing are priced at once: each is its own
// status write, so the strike goes as fast as the API server takes writes, not as one
// round trip after another.
const strikeWorkers = 8

// priceAll prices the orders, strikeWorkers at a time. After an error no further order is
// started, but the writes under way finish (the next reconcile resumes: a priced order is
// not ready any more); the first error is returned.
func (r *Reconciler) priceAll(ctx context.Context, orders []*investv1.Order, s lifecycle.Strike, cal *dealing.Calendar, f lifecycle.Facts) error {
	var g errgroup.Group
	g.SetLimit(strikeWorkers)
	var failed atomic.Bool
	for _, o := range orders {
		if failed.Load() {
			break
		}
		g.Go(func() error {
			if err := r.price(ctx, o, s, cal, f); err != nil {
				failed.Store(true)
				return fmt.Errorf("price order %s/%s: %w", o.Namespace, o.Name, err)
			}
			return nil
		})
	}
	return g.Wait()
}

// price writes the order's contract note and, in the same status write under the
// optimistic lock on the version read, the moves the lifecycle then makes at once
// (EXECUTED, or CANCELLED when the note fills nothing), with their history and
// conditions: one write and one Event per order at the strike.
func (r *Reconciler) price(ctx context.Context, o *investv1.Order, s lifecycle.Strike, cal *dealing.Calendar, f lifecycle.Facts) error {
	note, err := lifecycle.ContractNote(o, s)
	if err != nil {
		return reconcile.TerminalError(fmt.Errorf("price order %s/%s: %w", o.Namespace, o.Name, err))
	}
	if note.RequestedUnits > note.Units && s.Gate.Remainder != investv1.GateCancel {
		next, err := r.carryTarget(ctx, cal, s)
		if err != nil {
			return err
		}
		if note.Units == 0 {
			return r.moveOn(ctx, o, next)
		}
		note.CarriedForward = &investv1.OrderCarry{
			Order: investv1.ObjectID(lifecycle.CarryName(o.Namespace, o.Name, s.Dealing)), Units: note.RequestedUnits - note.Units,
			DealingDate: next.String(), CutOff: metav1.NewTime(next.RedemptionCutOff.UTC()),
		}
	}
	from := o.Status.State
	o.Status.Strike = note
	// A SELL is ready for the strike only once its units are reserved.
	f.Reservation = lifecycle.ReservationNotNeeded
	if o.Spec.Side == investv1.SideSell {
		f.Reservation = lifecycle.ReservationHeld
	}
	m := lifecycle.Decide(o, f)
	if m.Redate != nil {
		m = lifecycle.Moves{}
	}
	lifecycle.Apply(o, m.Steps, m.Wait, m.Refused, metav1.NewTime(s.At.UTC()))
	// The strike writes thousands of orders at once: their whole status, replaced under
	// the optimistic lock (patch.StatusReplace), costs the API server less than a merge
	// patch (docs/performance.md, the NAV strike).
	if err := patch.StatusReplace(ctx, r.Client, o); err != nil {
		return err
	}
	ctrl.LoggerFrom(ctx).Info("order priced", "order", o.Namespace+"/"+o.Name, "units", note.Units, "gross", note.GrossAmount, "state", o.Status.State)
	if r.Recorder == nil {
		return nil
	}
	if len(m.Steps) == 0 {
		cur := string(o.Spec.Currency)
		r.Recorder.Eventf(o, nil, corev1.EventTypeNormal, "ContractNote", "Strike",
			"trade date %s, NAV date %s, price %s, units %d, gross %s, fee %s, net %s, settlement date %s",
			note.TradeDate, note.NAVDate, money.Format(note.NAVPerShare, cur), note.Units, money.Format(note.GrossAmount, cur),
			money.Format(note.FeeAmount, cur), money.Format(note.NetAmount, cur), note.SettlementDate)
		return nil
	}
	last := m.Steps[len(m.Steps)-1]
	r.Recorder.Eventf(o, nil, lifecycle.MovesEventType(m.Steps), last.Reason, "Transition", "%s", lifecycle.MovesNote(from, m.Steps))
	return nil
}

// emptyPointGrace is how long after its last cut-off an intraday dealing point without an
// order is kept: long enough for an order placed just before the cut-off to reach the
// cache.
const emptyPointGrace = time.Minute

// noLiveOrder says whether none of a dealing's orders is to be struck: none, or each
// cancelled before it was priced.
func noLiveOrder(orders []investv1.Order) bool {
	for i := range orders {
		if orders[i].Status.State != investv1.StateCancelled || orders[i].Status.Strike != nil {
			return false
		}
	}
	return true
}

// progress is the dealing's status from its calendar and its orders at now.
func progress(st *investv1.DealingProgress, d *investv1.Dealing, dl dealing.Dealing, orders []investv1.Order, now time.Time) {
	fillDates(st, dl)
	st.Message = ""
	st.Orders, st.Priced, st.Buys, st.Sells = 0, 0, 0, 0
	st.UnitsSubscribed, st.UnitsRedeemed, st.Subscriptions, st.Redemptions, st.Fees, st.Residuals = 0, 0, 0, 0, 0, 0
	st.UnitsCarriedForward, st.UnitsNotRedeemed = 0, 0
	settled := d.Status.NAV != nil
	waiting := 0
	for i := range orders {
		o := &orders[i]
		if !o.Status.State.Terminal() {
			settled = false
		}
		n := o.Status.Strike
		if o.Status.State == investv1.StateCancelled && n == nil {
			continue
		}
		st.Orders++
		if n == nil || n.Dealing != d.Name {
			waiting++
			continue
		}
		st.Priced++
		st.Fees += n.FeeAmount
		st.Residuals += n.Residual
		if o.Spec.Side == investv1.SideSell {
			st.Sells++
			st.UnitsRedeemed += n.Units
			st.Redemptions += n.GrossAmount
			if c := n.CarriedForward; c != nil {
				st.UnitsCarriedForward += c.Units
			} else if n.RequestedUnits > n.Units {
				st.UnitsNotRedeemed += n.RequestedUnits - n.Units
			}
		} else {
			st.Buys++
			st.UnitsSubscribed += n.Units
			st.Subscriptions += n.GrossAmount
		}
	}
	switch {
	case settled && len(orders) > 0:
		st.Phase = investv1.DealingSettled
	case d.Status.NAV != nil:
		st.Phase = investv1.DealingStruck
		if waiting > 0 {
			st.Message = fmt.Sprintf("%d orders of the dealing are not priced yet: unpaid, cancelling or not yet ready; each is priced at the recorded NAV once it is ready", waiting)
		}
	case now.Before(dl.LastCutOff()):
		st.Phase = investv1.DealingOpen
	default:
		st.Phase = investv1.DealingCutOff
		st.Message = "waiting for the NAV of " + d.Spec.Date + " (publish it in the NAVHistory of the ISIN)"
	}
}

func fillDates(st *investv1.DealingProgress, dl dealing.Dealing) {
	sub, red := metav1.NewTime(dl.SubscriptionCutOff.UTC()), metav1.NewTime(dl.RedemptionCutOff.UTC())
	st.SubscriptionCutOff, st.RedemptionCutOff = &sub, &red
	st.NAVPublicationDate, st.SettlementDate = dl.NAVPublicationDate.String(), dl.SettlementDate.String()
}

// writeStatus applies change to a copy of the dealing's status and writes it when it
// differs, under the optimistic lock.
func (r *Reconciler) writeStatus(ctx context.Context, d *investv1.Dealing, change func(*investv1.DealingProgress)) (ctrl.Result, error) {
	before := d.DeepCopy()
	change(&d.Status)
	if equality.Semantic.DeepEqual(before.Status, d.Status) {
		return ctrl.Result{}, nil
	}
	if err := patch.Status(ctx, r.Client, d, before); err != nil {
		return patch.Retry(ctx, err, "write the status of dealing "+d.Name)
	}
	if before.Status.Phase != d.Status.Phase {
		ctrl.LoggerFrom(ctx).Info("dealing phase", "from", before.Status.Phase, "to", d.Status.Phase, "orders", d.Status.Orders, "priced", d.Status.Priced)
	}
	return ctrl.Result{}, nil
}

func (r *Reconciler) live() client.Reader {
	if r.Live == nil {
		return r.Client
	}
	return r.Live
}

func (r *Reconciler) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

// SetupWithManager watches Dealings, the orders of forward-priced share classes (each
// asks for its dealing, which is created with its first order), NAV histories (a price
// published strikes the ISIN's dealings) and share classes (their next dealings).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if mgr == nil || r.Client == nil {
		return errors.New("strike controller: nil manager or Client")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("strike").
		For(&investv1.Dealing{}).
		Watches(&investv1.Order{}, coalescedDealings{}).
		Watches(&investv1.NAVHistory{}, handler.EnqueueRequestsFromMapFunc(r.dealingsOfNAV)).
		Watches(&investv1.ShareClass{}, handler.EnqueueRequestsFromMapFunc(r.upcoming), builder.WithPredicates(NextDealingsMoved)).
		Complete(r)
}

// NextDealingsMoved passes what can change a share class's next dealings: its creation, a
// change of its spec (generation), and a change of status.dealing, which the dealing
// controller writes as the next dealings move. Not the other writes of its status, such as
// its token's transfer cursor, written every block: each would look at its next three
// dealings for nothing.
var NextDealingsMoved = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool {
		old, ok1 := e.ObjectOld.(*investv1.ShareClass)
		cur, ok2 := e.ObjectNew.(*investv1.ShareClass)
		if !ok1 || !ok2 {
			return true
		}
		return old.Generation != cur.Generation || !equality.Semantic.DeepEqual(old.Status.Dealing, cur.Status.Dealing)
	},
}

// orderCoalesce is how long after an order's change its dealing is looked at: the
// changes of a burst (orders placed, paid, priced) are counted in one reconcile and one
// status write of the Dealing, not one each. A NAV published is looked at at once.
const orderCoalesce = time.Second

// coalescedDealings enqueues the dealings of a changed order (dealingOfOrder, the old and
// the new version of an update) orderCoalesce later; a dealing already waiting is not
// pushed back, so a steady stream of changes is counted every orderCoalesce.
type coalescedDealings struct{}

func (coalescedDealings) add(obj client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	for _, req := range dealingOfOrder(context.Background(), obj) {
		q.AddAfter(req, orderCoalesce)
	}
}

func (h coalescedDealings) Create(_ context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.add(e.Object, q)
}

func (h coalescedDealings) Update(_ context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.add(e.ObjectOld, q)
	h.add(e.ObjectNew, q)
}

func (h coalescedDealings) Delete(_ context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.add(e.Object, q)
}

func (h coalescedDealings) Generic(_ context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.add(e.Object, q)
}

func dealingOfOrder(_ context.Context, obj client.Object) []reconcile.Request {
	o, ok := obj.(*investv1.Order)
	if !ok {
		return nil
	}
	var reqs []reconcile.Request
	if name := lifecycle.OrderDealingName(o); name != "" {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: name}})
	}
	if n := o.Status.Strike; n != nil && n.Dealing != lifecycle.OrderDealingName(o) {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: n.Dealing}})
	}
	return reqs
}

// dealingsOfNAV maps a NAV history to the Dealings of its ISIN that have no NAV yet and to
// a Dealing for each published date (created if it is a dealing date with orders).
func (r *Reconciler) dealingsOfNAV(ctx context.Context, obj client.Object) []reconcile.Request {
	h, ok := obj.(*investv1.NAVHistory)
	if !ok {
		return nil
	}
	var list investv1.DealingList
	if err := r.Client.List(ctx, &list, client.MatchingFields{index.DealingISIN: string(h.Spec.ISIN)}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "list the dealings of an ISIN; a NAV published is not struck until they are reconciled", "isin", h.Spec.ISIN)
		return nil
	}
	var reqs []reconcile.Request
	for i := range list.Items {
		if list.Items[i].Status.NAV == nil {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
		}
	}
	return reqs
}

// upcoming maps a forward-priced share class to its next dealings.
func (r *Reconciler) upcoming(_ context.Context, obj client.Object) []reconcile.Request {
	sc, ok := obj.(*investv1.ShareClass)
	if !ok || sc.Spec.Dealing == nil || sc.Spec.Dealing.Pricing != investv1.PricingForward {
		return nil
	}
	next, err := dealing.Next(sc.Spec.Dealing, r.now(), Upcoming)
	if err != nil {
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(next))
	for _, d := range next {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, d.String())}})
	}
	return reqs
}
