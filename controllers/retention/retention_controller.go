// Package retention moves done orders out of the cluster into the order archive
// (internal/archive) once they are older than the retention period, so that etcd, the
// kube-apiserver's watch cache and every informer hold live orders and a bounded tail of
// history only (issue 15; the pattern of Argo Workflows' workflow archive and Tekton
// Results).
//
// One order at a time, and only on the leader:
//
//  1. the order is done (terminal, no refund outstanding) and has been for the retention
//     period (DueAt);
//  2. a sell's units are no longer reserved on its account (the account controller drops
//     the reservation of a terminal order; archived orders are then never needed to
//     explain a reservation);
//  3. the full order is read from the API server (the cache keeps orders compact) and
//     written to the archive (Put: durable when it returns, idempotent by UID);
//  4. it is read back and compared (spec, status, UID, creation time);
//  5. only then it is deleted from the cluster, with UID and resourceVersion preconditions,
//     so that a changed or re-created order is never deleted unseen.
//
// A crash anywhere leaves the order in the cluster, archived or not: the next pass writes
// it again (a no-op for the same content) and goes on. It is never deleted before its
// archive write is durable and verified, and never archived twice. While the archive is
// unavailable the orders stay in the cluster, a Warning Event (ArchiveUnavailable) on the
// order and the metric fundshare_retention_archive_failures_total say so, and the
// controller retries with a backoff shared by all orders (1 s doubling to 1 min).
//
// Holdings stay whole through all of it: see internal/history.Load.
package retention

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/metricset"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reasons of the Events the controller emits on an order.
const (
	// ReasonArchived: the order was archived and deleted from the cluster.
	ReasonArchived = "Archived"
	// ReasonArchiveUnavailable: the archive could not be written or read; the order stays.
	ReasonArchiveUnavailable = "ArchiveUnavailable"
	// ReasonArchiveConflict: the archive holds another order under this id, or this order
	// with another spec or status; the order stays until a person looks.
	ReasonArchiveConflict = "ArchiveConflict"
)

// Store is where done orders go: internal/archive.Store.
type Store interface {
	Put(ctx context.Context, o *investv1.Order, accountType investv1.AccountType) error
	Get(ctx context.Context, namespace, id string) (*investv1.Order, error)
}

// Reconciler archives done orders older than Retention and deletes them from the cluster.
type Reconciler struct {
	// Client reads orders from the cache and deletes them.
	Client client.Client
	// Live reads the API server: the full order to archive (the cache keeps orders
	// compact) and the account (its reservations and type).
	Live client.Reader
	// Store is the archive.
	Store Store
	// Retention is how long an order stays in the cluster after it is done; positive.
	Retention time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Recorder emits Events on orders; none when nil.
	Recorder events.EventRecorder
	// AfterArchive, when set, runs after an order's archive write is verified and before
	// its deletion; an error stops the pass there. Tests put a crash there.
	AfterArchive func(ctx context.Context, o *investv1.Order) error
	// Events, when set, records the order's webhook events (internal/notify) after its
	// archive write and before its deletion, so that no event of an order is lost when it
	// leaves the cluster before the webhook ingest read its last change; an error stops
	// the pass there and the order stays.
	Events func(ctx context.Context, o *investv1.Order) error

	mu sync.Mutex
	// downUntil: while the archive is unavailable, no order tries before this time.
	downUntil time.Time
	// backoff is the current shared backoff (0: the archive answered last time).
	backoff time.Duration
}

// Backoff bounds of a failing archive.
const (
	minBackoff = time.Second
	maxBackoff = time.Minute
	// conflictRetry is how often an order in conflict with the archive is looked at again.
	conflictRetry = time.Hour
	// reservationRetry is how soon a sell whose reservation is still on its account is
	// looked at again (the account controller drops it when it sees the order terminal).
	reservationRetry = 5 * time.Second
)

var (
	archivedTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_retention_orders_archived_total",
		Help: "Orders written to the order archive, verified and deleted from the cluster.",
	})
	failuresTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_retention_archive_failures_total",
		Help: "Failed attempts to archive an order, by reason (ArchiveUnavailable, ArchiveConflict, VerifyFailed); the order stays in the cluster.",
	}, []string{"reason"})
)

// Whether the archive answers is fundshare_archive_up (internal/archive's probe, on every
// replica), not a gauge of this leader-only controller.
func init() {
	for _, reason := range []string{ReasonArchiveUnavailable, ReasonArchiveConflict, "VerifyFailed"} {
		failuresTotal.WithLabelValues(reason) // exported from the start, at 0
	}
	metricset.MustRegister(archivedTotal, failuresTotal)
}

// DoneAt is when the order became done: the latest of its history entries and, for a
// cancelled buy with a refund, the refund's completion.
func DoneAt(o *investv1.Order) time.Time {
	t := o.CreationTimestamp.Time
	for _, h := range o.Status.History {
		if h.At.After(t) {
			t = h.At.Time
		}
	}
	if rc := o.Status.Settlement.RefundCompleted; rc != nil && rc.At.After(t) {
		t = rc.At.Time
	}
	return t
}

// DueAt is when a done order may leave the cluster; ok is false for an order that is not
// done (nothing archives it) or when retention is not positive (off).
func DueAt(o *investv1.Order, retention time.Duration) (at time.Time, ok bool) {
	if retention <= 0 || !lifecycle.Done(o) {
		return time.Time{}, false
	}
	return DoneAt(o).Add(retention), true
}

// Reconcile archives one order once it is due.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	o := &investv1.Order{}
	if err := r.Client.Get(ctx, req.NamespacedName, o); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	due, ok := DueAt(o, r.Retention)
	if !ok {
		return ctrl.Result{}, nil // a change of the order brings it back
	}
	now := r.now()
	if wait := due.Sub(now); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	if wait := r.waitForArchive(now); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}

	full := &investv1.Order{}
	if err := r.Live.Get(ctx, req.NamespacedName, full); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, ok := DueAt(full, r.Retention); !ok {
		return ctrl.Result{}, nil
	}
	acct := &investv1.Account{}
	err := r.Live.Get(ctx, client.ObjectKey{Namespace: full.Namespace, Name: string(full.Spec.AccountID)}, acct)
	switch {
	case apierrors.IsNotFound(err):
		acct = nil // deleted: it held nothing (admission and its finalizer make sure)
	case err != nil:
		return ctrl.Result{}, err
	}
	if acct != nil && reserves(acct, full.Name) {
		log.V(1).Info("the account still reserves units for the order; waiting for the account controller to drop it",
			"account", klog.KObj(acct))
		return ctrl.Result{RequeueAfter: reservationRetry}, nil
	}
	if from := full.Spec.CarriedFrom; from != "" {
		// The SELL a redemption gate or a window carried forward stays while the SELL it
		// came from is live and not terminal: that one's strike or window makes sure it
		// exists, and must find it. A carried BUY stays while the BUY it came from is live
		// at all: the window creates it for a parent in any state (its money is owed to
		// it), so it must never be created again after it was archived.
		parent := &investv1.Order{}
		err := r.Live.Get(ctx, client.ObjectKey{Namespace: full.Namespace, Name: string(from)}, parent)
		switch {
		case err == nil && (lifecycle.CarriedBuy(full) || !parent.Status.State.Terminal()):
			log.V(1).Info("the order it was carried from is still live", "carriedFrom", from)
			return ctrl.Result{RequeueAfter: reservationRetry}, nil
		case err != nil && !apierrors.IsNotFound(err):
			return ctrl.Result{}, err
		}
	}
	if n := full.Status.Strike; n != nil && n.CarriedForward != nil && full.Spec.Side == investv1.SideBuy {
		// A BUY whose remainder a window carried stays until the BUY that carries it (and
		// its money) exists: archived before, nothing would create it.
		err := r.Live.Get(ctx, client.ObjectKey{Namespace: full.Namespace, Name: string(n.CarriedForward.Order)}, &investv1.Order{})
		switch {
		case apierrors.IsNotFound(err):
			log.V(1).Info("the BUY that carries its remainder does not exist yet", "carriedTo", n.CarriedForward.Order)
			return ctrl.Result{RequeueAfter: reservationRetry}, nil
		case err != nil:
			return ctrl.Result{}, err
		}
	}
	var accountType investv1.AccountType
	if acct != nil {
		accountType = acct.Spec.Type
	}

	full.ManagedFields = nil
	full.SetGroupVersionKind(investv1.GroupVersion.WithKind("Order"))
	if err := r.write(ctx, full, accountType); err != nil {
		return r.failed(ctx, full, err)
	}
	r.archiveAnswered()
	if r.Events != nil {
		if err := r.Events(ctx, full); err != nil {
			return ctrl.Result{}, fmt.Errorf("record the order's webhook events: %w", err)
		}
	}
	if r.AfterArchive != nil {
		if err := r.AfterArchive(ctx, full); err != nil {
			return ctrl.Result{}, err
		}
	}
	// Only the version archived is deleted: a changed order is read, compared and
	// archived again by the next pass.
	rv, uid := full.ResourceVersion, full.UID
	err = r.Client.Delete(ctx, full, client.Preconditions{UID: &uid, ResourceVersion: &rv})
	switch {
	case apierrors.IsNotFound(err):
		return ctrl.Result{}, nil
	case apierrors.IsConflict(err):
		log.V(1).Info("the order changed after it was archived; looking again")
		return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("delete archived order: %w", err)
	}
	archivedTotal.Inc()
	log.Info("order archived and deleted from the cluster", "doneAt", DoneAt(full).UTC(), "state", full.Status.State)
	r.event(full, corev1.EventTypeNormal, ReasonArchived, "archived and deleted from the cluster; REST and fundsharectl still read it")
	return ctrl.Result{}, nil
}

// errVerify says that the archive's copy differs from the order.
var errVerify = errors.New("the archived copy differs from the order")

// write puts the order into the archive and reads it back. A conflict with an archived
// copy of the same order (its metadata changed after an earlier write: labels, a
// resourceVersion) is no conflict when spec and status are the same: the archived record
// stands.
func (r *Reconciler) write(ctx context.Context, o *investv1.Order, accountType investv1.AccountType) error {
	putErr := r.Store.Put(ctx, o, accountType)
	if putErr != nil && !errors.Is(putErr, archive.ErrConflict) {
		return putErr
	}
	got, err := r.Store.Get(ctx, o.Namespace, o.Name)
	if err != nil {
		if putErr != nil {
			return putErr
		}
		return fmt.Errorf("read back: %w", err)
	}
	if same(got, o) {
		return nil
	}
	if putErr != nil {
		return putErr
	}
	return errVerify
}

// same compares what matters of an archived order with the live one.
func same(archived, live *investv1.Order) bool {
	return archived.UID == live.UID && archived.Namespace == live.Namespace && archived.Name == live.Name &&
		archived.CreationTimestamp.Equal(&live.CreationTimestamp) &&
		equality.Semantic.DeepEqual(archived.Spec, live.Spec) && equality.Semantic.DeepEqual(archived.Status, live.Status)
}

// failed records a failed archive write: the order stays in the cluster.
func (r *Reconciler) failed(ctx context.Context, o *investv1.Order, err error) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	switch {
	case errors.Is(err, archive.ErrConflict), errors.Is(err, errVerify):
		reason := ReasonArchiveConflict
		if errors.Is(err, errVerify) {
			reason = "VerifyFailed"
		}
		failuresTotal.WithLabelValues(reason).Inc()
		log.Error(err, "the order is kept in the cluster: the archive holds something else under its id; a person must look")
		r.event(o, corev1.EventTypeWarning, ReasonArchiveConflict, "kept in the cluster: "+err.Error())
		return ctrl.Result{RequeueAfter: conflictRetry}, nil
	}
	failuresTotal.WithLabelValues(ReasonArchiveUnavailable).Inc()
	wait := r.archiveFailed()
	log.Error(err, "the order archive is unavailable; the order stays in the cluster", "retryIn", wait)
	r.event(o, corev1.EventTypeWarning, ReasonArchiveUnavailable, "kept in the cluster: the order archive is unavailable; retrying")
	return ctrl.Result{RequeueAfter: wait}, nil
}

// waitForArchive is how long to wait before trying the archive again after a failure.
func (r *Reconciler) waitForArchive(now time.Time) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.downUntil.Sub(now)
}

// archiveFailed doubles the shared backoff (1 s to 1 min) and returns it.
func (r *Reconciler) archiveFailed() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.backoff = min(max(2*r.backoff, minBackoff), maxBackoff)
	r.downUntil = r.now().Add(r.backoff)
	return r.backoff
}

// archiveAnswered resets the backoff.
func (r *Reconciler) archiveAnswered() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.backoff, r.downUntil = 0, time.Time{}
}

func (r *Reconciler) event(o *investv1.Order, kind, reason, message string) {
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, kind, reason, "Archive", "%s", message)
	}
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func reserves(acct *investv1.Account, order string) bool {
	for _, res := range acct.Status.Reservations {
		if string(res.Order) == order {
			return true
		}
	}
	return false
}

// SetupWithManager watches orders; controllers run on the leader only.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("retention controller: nil manager")
	case r.Client == nil || r.Live == nil:
		return errors.New("retention controller: Client and Live must not be nil")
	case r.Store == nil:
		return errors.New("retention controller: Store must not be nil")
	case r.Retention <= 0:
		return errors.New("retention controller: Retention must be positive")
	}
	done := func(o client.Object) bool {
		ord, ok := o.(*investv1.Order)
		return ok && lifecycle.Done(ord)
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("retention").
		For(&investv1.Order{}, builder.WithPredicates(predicate.Funcs{
			CreateFunc:  func(e event.CreateEvent) bool { return done(e.Object) },
			UpdateFunc:  func(e event.UpdateEvent) bool { return done(e.ObjectNew) },
			DeleteFunc:  func(event.DeleteEvent) bool { return false },
			GenericFunc: func(e event.GenericEvent) bool { return done(e.Object) },
		})).
		WithOptions(controller.Options{
			MaxConcurrentReconciles: 2,
			RateLimiter:             workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](minBackoff, maxBackoff),
		}).
		Complete(r)
}
