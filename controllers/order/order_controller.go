package order

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/predicates"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=funds;shareclasses;navhistories;customofferings,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconciler steps orders through their lifecycle. It is the only writer of
// status.state and status.history: each transition is one status write guarded by the
// resourceVersion it was decided on, so it happens exactly once, also across restarts and
// leader changes, and a cancellation racing it resolves to one outcome.
type Reconciler struct {
	Client client.Client
	// Live reads the API server directly, for the account when reserving units.
	Live     client.Reader
	Recorder events.EventRecorder
	Now      func() time.Time
	// Archive holds the orders that left the cluster: a sell's reservation counts the
	// archived buys and sells of its account. Nil: no archive.
	Archive history.Archive
	// MaxConcurrentReconciles defaults to 4.
	MaxConcurrentReconciles int
}

// Reconcile makes the one move the state machine decides.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	o := &investv1.Order{}
	if err := r.Client.Get(ctx, req.NamespacedName, o); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !lifecycle.NeedsReconcile(o) {
		return ctrl.Result{}, nil
	}
	if o.Status.State.Terminal() {
		if lifecycle.LatePayment(o) {
			return r.refundLatePayment(ctx, o)
		}
		// A cancelled order with a refund: report where the refund stands.
		return r.wait(ctx, o, lifecycle.RefundWait(o), "")
	}
	f, requeueAt, err := facts.Gather(ctx, r.Client, o, r.Now())
	if err != nil {
		return ctrl.Result{}, err
	}
	if o.Status.State == "" && f.Priced && !f.FundFound {
		// Admission priced the order from its share class and fund, so their absence from
		// the cache is most likely a cache behind the API server (both made just before
		// the order). Cancelling is final: the API server is asked first.
		if f, requeueAt, err = facts.Gather(ctx, r.Live, o, r.Now()); err != nil {
			return ctrl.Result{}, err
		}
	}
	if f.Reservation == lifecycle.ReservationPending && o.Status.State == investv1.StatePlaced && !o.Spec.CancellationRequested {
		held, message, err := r.reserve(ctx, o)
		account := klog.KRef(o.Namespace, string(o.Spec.AccountID))
		switch {
		case apierrors.IsConflict(err):
			return patch.Retry(ctx, err, "reserve units on account "+account.String())
		case err != nil:
			return ctrl.Result{}, err
		case held:
			f.Reservation = lifecycle.ReservationHeld
		default:
			ctrl.LoggerFrom(ctx).Info("units not reserved", "account", account, "isin", o.Spec.ISIN, "units", lifecycle.Units(o), "why", message)
			f.Reservation, f.ReservationMessage = lifecycle.ReservationRefused, message
		}
	}

	m := lifecycle.Decide(o, f)
	if m.Redate != nil {
		return r.redate(ctx, o, m.Redate, m.Wait)
	}
	steps, waiting, refused := m.Steps, m.Wait, m.Refused
	res := ctrl.Result{}
	if waiting != nil && !requeueAt.IsZero() {
		res.RequeueAfter = max(time.Until(requeueAt), time.Second)
	}
	if len(steps) > 0 {
		r2, err := r.transition(ctx, o, steps, waiting, refused)
		if r2.RequeueAfter > 0 || err != nil {
			return r2, err
		}
		return res, nil
	}
	r2, err := r.wait(ctx, o, waiting, refused)
	if r2.RequeueAfter > 0 || err != nil {
		return r2, err
	}
	return res, nil
}

// redate moves a forward order to another dealing date (status.dealing) in one status
// write guarded by the version read, with its conditions and an Event: an unpaid BUY by
// amount at its cut-off, under its share class's NextDealingDate policy.
func (r *Reconciler) redate(ctx context.Context, o *investv1.Order, to *investv1.OrderDealing, w *lifecycle.Wait) (ctrl.Result, error) {
	before := o.DeepCopy()
	from := lifecycle.DealingDate(o)
	o.Status.Dealing = to
	lifecycle.SetConditions(o, w, nil, "")
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "move the order to dealing date "+to.Date)
	}
	ctrl.LoggerFrom(ctx).Info("unpaid at the cut-off: moved to the next dealing date", "from", from, "to", to.Date, "moves", to.Moves)
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, corev1.EventTypeWarning, lifecycle.ReasonMovedToNextDealingDate, "Redate",
			"not paid by the cut-off of %s: moved to the dealing date %s; pay by %s", from, to.Date, to.CutOff.UTC().Format(time.RFC3339))
	}
	return ctrl.Result{RequeueAfter: max(time.Until(to.CutOff.Time), time.Second)}, nil
}

// reserve claims the sell's units on the account. The account's status is the lock:
// the write carries the resourceVersion the check was made on, so concurrent sells of one
// account are serialized by the API server and can never promise more than is owned.
func (r *Reconciler) reserve(ctx context.Context, o *investv1.Order) (bool, string, error) {
	acct := &investv1.Account{}
	if err := r.Live.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct); err != nil {
		if apierrors.IsNotFound(err) {
			return false, "account " + string(o.Spec.AccountID) + " does not exist", nil
		}
		return false, "", err
	}
	if facts.HasReservation(acct, o.Name) {
		ctrl.LoggerFrom(ctx).V(1).Info("units already reserved", "account", klog.KObj(acct))
		return true, "", nil
	}
	history, err := history.Load(ctx, r.Client, r.Archive, acct, r.Now())
	if err != nil {
		return false, "", err
	}
	if code, message, ok := holdings.SellCheck(history.Positions(acct, r.Now()), o.Spec.ISIN, o.Spec.AmountOfUnits); !ok {
		return false, code + ": " + message, nil
	}
	if oc := acct.Status.OnChain; oc != nil {
		// The same check as placement: no more than the chain says the account holds.
		reserved := holdings.NotBurnedBy(acct.Status.Reservations, history.Live, o.Spec.ISIN, o.Name, oc.Block)
		minted := holdings.MintedAfter(history.Live, o.Spec.ISIN, oc.Block)
		transferred := holdings.TransferredAfter(history.Transfers, o.Spec.ISIN, oc.Block)
		if code, message, ok := holdings.OnChainCheck(oc, o.Spec.ISIN, o.Spec.AmountOfUnits, minted, transferred, reserved); !ok {
			return false, code + ": " + message, nil
		}
	}
	acct.Status.Reservations = append(acct.Status.Reservations, investv1.UnitReservation{
		Order: investv1.ObjectID(o.Name), ISIN: o.Spec.ISIN, Units: o.Spec.AmountOfUnits,
	})
	if err := r.Client.Status().Update(ctx, acct); err != nil {
		return false, "", err
	}
	ctrl.LoggerFrom(ctx).Info("units reserved", "account", klog.KObj(acct), "isin", o.Spec.ISIN, "units", o.Spec.AmountOfUnits)
	return true, "", nil
}

// transition writes state changes with their history entries in one status write,
// guarded by the order's resourceVersion (lifecycle.Apply: a refund a step owes is written
// with it), then emits one Event for them (the history has an entry per state). waiting, when set, is why the order stops after
// the last step; refused, when set, why a cancellation requested is not honoured.
func (r *Reconciler) transition(ctx context.Context, o *investv1.Order, steps []*lifecycle.Transition, waiting *lifecycle.Wait, refused string) (ctrl.Result, error) {
	before := o.DeepCopy()
	from := o.Status.State
	last := steps[len(steps)-1]
	newlyRefused := refused != "" && !meta.IsStatusConditionTrue(before.Status.Conditions, lifecycle.ConditionCancellationRefused)
	lifecycle.Apply(o, steps, waiting, refused, metav1.NewTime(r.Now().UTC()))
	if waiting == nil {
		waiting = lifecycle.RefundWait(o) // what Apply reported (for the log below)
	}
	log := ctrl.LoggerFrom(ctx)
	if last.To == investv1.StateCancelled && before.Spec.CancellationRequested {
		// A cancellation decided on the cached order: check it on the live one, where a
		// chain agent may have recorded a burn since (the status write below is guarded
		// by the version read too, so a burn recorded after this read conflicts).
		live := &investv1.Order{}
		if err := r.Live.Get(ctx, client.ObjectKeyFromObject(o), live); err != nil {
			if apierrors.IsNotFound(err) {
				return ctrl.Result{}, nil
			}
			return ctrl.Result{}, fmt.Errorf("re-read the order before cancelling it: %w", err)
		}
		if ok, _, why := lifecycle.Cancellable(live); !ok || live.ResourceVersion != before.ResourceVersion {
			log.V(1).Info("the live order differs from the cached one; deciding again", "cancellable", ok, "why", why)
			return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil
		}
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, fmt.Sprintf("write transition %s → %s", from, last.To))
	}
	for i, t := range steps {
		prev := from
		if i > 0 {
			prev = steps[i-1].To
		}
		log.Info("transition written", "from", prev, "to", t.To, "reason", t.Reason)
	}
	if o.Status.Refund != nil && before.Status.Refund == nil {
		log.Info("refund owed", "refund", o.Status.Refund.Reference, "amount", o.Status.Refund.Amount)
	}
	if newlyRefused {
		log.Info("cancellation refused", "reason", lifecycle.ReasonPastPointOfNoReturn, "why", refused)
	}
	if waiting != nil {
		log.V(1).Info("waiting", "reason", waiting.Reason)
	}
	if r.Recorder == nil {
		return ctrl.Result{}, nil
	}
	if newlyRefused {
		r.Recorder.Eventf(o, nil, corev1.EventTypeWarning, lifecycle.ReasonPastPointOfNoReturn, "Cancel", "%s", refused)
	}
	// One Event per write, as the write's history entries: the last move's reason, every
	// move in the note.
	r.Recorder.Eventf(o, nil, lifecycle.MovesEventType(steps), last.Reason, "Transition", "%s", lifecycle.MovesNote(from, steps))
	return ctrl.Result{}, nil
}

// refundLatePayment fixes the refund of a payment that arrived for a buy already
// cancelled, in one status write guarded by the version read.
func (r *Reconciler) refundLatePayment(ctx context.Context, o *investv1.Order) (ctrl.Result, error) {
	before := o.DeepCopy()
	o.Status.Refund = lifecycle.NewRefund(o)
	lifecycle.SetConditions(o, lifecycle.RefundWait(o), nil, "")
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "write the refund of a late payment")
	}
	ctrl.LoggerFrom(ctx).Info("refund of a late payment written", "reason", lifecycle.ReasonLatePaymentRefunded,
		"refund", o.Status.Refund.Reference, "amount", o.Status.Refund.Amount, "payment", o.Status.Settlement.PaymentReceived.Reference)
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, corev1.EventTypeWarning, lifecycle.ReasonLatePaymentRefunded, "Refund",
			"a payment (reference %s) arrived for the cancelled order: it is refunded under %s",
			o.Status.Settlement.PaymentReceived.Reference, o.Status.Refund.Reference)
	}
	return ctrl.Result{}, nil
}

// wait reports why the order does not move (waiting may be nil: nothing to wait for, e.g.
// a cancelled order whose refund completed), writing only when that changed.
func (r *Reconciler) wait(ctx context.Context, o *investv1.Order, w *lifecycle.Wait, refused string) (ctrl.Result, error) {
	before := o.DeepCopy()
	newlyRefused := refused != "" && !meta.IsStatusConditionTrue(before.Status.Conditions, lifecycle.ConditionCancellationRefused)
	wasReported := lifecycle.ReadyReported(before)
	lifecycle.SetConditions(o, w, nil, refused)
	log := ctrl.LoggerFrom(ctx)
	if w != nil {
		log = log.WithValues("waitingFor", w.Reason)
	}
	if conditionsUnchanged(before, o) {
		log.V(1).Info("nothing to do")
		return ctrl.Result{}, nil
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "write the order's conditions")
	}
	for _, c := range o.Status.Conditions {
		if old := meta.FindStatusCondition(before.Status.Conditions, c.Type); old == nil || old.Status != c.Status || old.Reason != c.Reason {
			log.Info("condition changed", "type", c.Type, "status", c.Status, "reason", c.Reason)
		}
	}
	if newlyRefused {
		log.Info("cancellation refused", "reason", lifecycle.ReasonPastPointOfNoReturn, "why", refused)
	}
	if !wasReported && lifecycle.ReadyReported(o) && o.Status.Refund != nil {
		log.Info("refund settled", "reason", lifecycle.ReasonRefundCompleted, "refund", o.Status.Refund.Reference, "amount", o.Status.Refund.Amount)
	}
	if r.Recorder != nil {
		if newlyRefused {
			r.Recorder.Eventf(o, nil, corev1.EventTypeWarning, lifecycle.ReasonPastPointOfNoReturn, "Cancel", "%s", refused)
		}
		if !wasReported && lifecycle.ReadyReported(o) && o.Status.Refund != nil {
			r.Recorder.Eventf(o, nil, corev1.EventTypeNormal, lifecycle.ReasonRefundCompleted, "Refund",
				"the refund %s of %d micro-units is completed", o.Status.Refund.Reference, o.Status.Refund.Amount)
		}
	}
	return ctrl.Result{}, nil
}

func conditionsUnchanged(a, b *investv1.Order) bool {
	if a.Status.ObservedGeneration != b.Status.ObservedGeneration || len(a.Status.Conditions) != len(b.Status.Conditions) {
		return false
	}
	for _, c := range b.Status.Conditions {
		old := meta.FindStatusCondition(a.Status.Conditions, c.Type)
		if old == nil || old.Status != c.Status || old.Reason != c.Reason || old.Message != c.Message || old.ObservedGeneration != c.ObservedGeneration {
			return false
		}
	}
	return true
}

// SetupWithManager watches orders (spec and status: settlement evidence arrives in the
// status) and funds (market flags and gates move waiting orders, without polling).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("order controller: nil manager")
	case r.Client == nil:
		return errors.New("order controller: Client must not be nil")
	case r.Live == nil:
		return errors.New("order controller: Live must not be nil (it reads accounts from the API server to reserve units)")
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.MaxConcurrentReconciles == 0 {
		r.MaxConcurrentReconciles = 4
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("order").
		For(&investv1.Order{}, builder.WithPredicates(predicates.LiveOrders())).
		Watches(&investv1.Fund{}, handler.EnqueueRequestsFromMapFunc(r.ordersOfFund)).
		// A share class the cache shows after its fund (or whose fund changes) wakes the
		// orders waiting for it; its status (the token's cursor, every block) does not.
		Watches(&investv1.ShareClass{}, handler.EnqueueRequestsFromMapFunc(r.ordersOfShareClass),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(controller.Options{MaxConcurrentReconciles: r.MaxConcurrentReconciles}).
		Complete(r)
}

// ordersOfFund maps a fund to the live orders of its share classes. A map function cannot
// return an error: a failed List is logged, or waiting orders would silently miss a change
// of their fund's market flags or gate.
func (r *Reconciler) ordersOfFund(ctx context.Context, fund client.Object) []reconcile.Request {
	log := ctrl.LoggerFrom(ctx).WithValues("fund", klog.KObj(fund))
	var classes investv1.ShareClassList
	if err := r.Client.List(ctx, &classes, client.MatchingFields{index.ShareClassFund: fund.GetName()}); err != nil {
		log.Error(err, "list the share classes of a fund; its waiting orders are not told of its change")
		return nil
	}
	var reqs []reconcile.Request
	for i := range classes.Items {
		more, ok := r.liveOrdersOf(ctx, log, &classes.Items[i])
		if !ok {
			return nil
		}
		reqs = append(reqs, more...)
	}
	return reqs
}

// ordersOfShareClass maps a share class to its live orders: an order that waited for its
// class (a cache that showed the fund first) goes on when the class arrives.
func (r *Reconciler) ordersOfShareClass(ctx context.Context, obj client.Object) []reconcile.Request {
	sc, ok := obj.(*investv1.ShareClass)
	if !ok {
		return nil
	}
	reqs, _ := r.liveOrdersOf(ctx, ctrl.LoggerFrom(ctx), sc)
	return reqs
}

// liveOrdersOf lists the orders of the share class's ISIN that are not done; false when
// the list failed (logged).
func (r *Reconciler) liveOrdersOf(ctx context.Context, log logr.Logger, sc *investv1.ShareClass) ([]reconcile.Request, bool) {
	var orders investv1.OrderList
	if err := r.Client.List(ctx, &orders, client.MatchingFields{index.OrderISIN: string(sc.Spec.ISIN)}); err != nil {
		log.Error(err, "list the orders of a share class; its waiting orders are not told of its change", "shareClass", klog.KObj(sc), "isin", sc.Spec.ISIN)
		return nil, false
	}
	var reqs []reconcile.Request
	for i := range orders.Items {
		if !orders.Items[i].Status.State.Terminal() {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&orders.Items[i])})
		}
	}
	return reqs, true
}
