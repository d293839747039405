package settlement

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/predicates"
)

// Reconciler records settlement evidence produced by an Agent on orders that wait for it,
// with the moves the evidence unlocks (lifecycle.Follow) in the same status write. It
// only adds evidence and appends moves (a status merge patch with optimistic locking), so
// it never overwrites the order controller or another agent.
type Reconciler struct {
	// Client reads orders (from the cache) and patches their status.
	Client client.Client
	// Agent settles steps with the outside world.
	Agent Agent
	// Side is the side whose steps this Reconciler settles; empty means MoneySide. Steps of
	// the other side are left to its own agent.
	Side lifecycle.Side
	// Delay is the least time an order spends in a state before the agent is asked.
	Delay time.Duration
	// Name names the agent: recordedBy when the agent leaves it empty, and the controller
	// "settlement-<Name>"; empty means "sandbox".
	Name string
	// Recorder emits an Event for each piece of evidence recorded; nil emits none, and
	// SetupWithManager fills it from the manager.
	Recorder events.EventRecorder
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxConcurrentReconciles defaults to 4: orders are independent (each write is guarded
	// by its own order's version), and an Agent must be safe for concurrent use.
	MaxConcurrentReconciles int
	// Leave are steps of the side another agent settles: the bank's ingestion records
	// the payments received (controllers/bank) where the sandbox would invent them.
	Leave []lifecycle.Step
}

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=funds;shareclasses;accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile settles the one step the order waits for, once its Delay has passed, and
// records the evidence.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)

	o := &investv1.Order{}
	if err := r.Client.Get(ctx, req.NamespacedName, o); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !o.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // nothing moves for an order on its way out
	}
	step, ok := lifecycle.NextStep(o)
	if !ok || lifecycle.SideOf(o, step) != r.side() || slices.Contains(r.Leave, step) {
		return ctrl.Result{}, nil
	}
	if step == lifecycle.StepPaymentReceived && lifecycle.CarriedBuy(o) {
		return ctrl.Result{}, nil // paid by the order it was carried from (the window controller records it)
	}
	log = log.WithValues("step", step)
	if left := r.Delay - r.now().Sub(lifecycle.StartedAt(o, step)); left > 0 {
		log.V(1).Info("waiting for the settlement delay", "left", left)
		return ctrl.Result{RequeueAfter: left}, nil
	}

	rec, err := r.Agent.Settle(ctx, o, step)
	if notReady := (*NotReadyError)(nil); errors.As(err, &notReady) {
		retry := notReady.RetryAfter
		if retry <= 0 {
			retry = patch.ConflictRetry
		}
		log.V(1).Info("the agent has no evidence yet", "retryAfter", retry)
		return ctrl.Result{RequeueAfter: retry}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("settle %s: %w", step, err)
	}
	if rec.RecordedBy == "" {
		rec.RecordedBy = r.name()
	}

	before := o.DeepCopy()
	if !lifecycle.Record(o, step, rec) {
		log.V(1).Info("evidence already recorded")
		return ctrl.Result{}, nil // NextStep said it was missing; kept defensively
	}
	// The moves the evidence unlocks go in the same write (one write and one Event where
	// the order controller would have needed another of each); the order controller
	// decides whatever else.
	moves, err := facts.Follow(ctx, r.Client, o, r.now())
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		// Stale: someone wrote the order since we read it (the order controller moved it,
		// or another agent recorded this step): read it fresh next time.
		return patch.Retry(ctx, err, fmt.Sprintf("record %s evidence", step))
	}

	log.Info("recorded settlement evidence", "reference", rec.Reference,
		"transactionHash", rec.TransactionHash, "recordedBy", rec.RecordedBy, "moves", len(moves), "state", o.Status.State)
	if r.Recorder != nil {
		kind, reason, note := lifecycle.EvidenceEvent(step, rec.RecordedBy+" recorded "+describe(step, rec), before.Status.State, moves)
		r.Recorder.Eventf(o, nil, kind, reason, "RecordSettlement", "%s", note)
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller "settlement-<Name>" on Orders.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("settlement controller: nil manager")
	case r.Client == nil:
		return errors.New("settlement controller: Client must not be nil")
	case r.Agent == nil:
		return errors.New("settlement controller: Agent must not be nil")
	}
	name := "settlement-" + r.name()
	if r.Recorder == nil {
		r.Recorder = mgr.GetEventRecorder(name)
	}
	if r.MaxConcurrentReconciles == 0 {
		r.MaxConcurrentReconciles = 4
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&investv1.Order{}, builder.WithPredicates(predicates.LiveOrders())).
		Named(name).
		WithOptions(controller.Options{MaxConcurrentReconciles: r.MaxConcurrentReconciles}).
		Complete(r)
}

func (r *Reconciler) name() string {
	if r.Name == "" {
		return "sandbox"
	}
	return r.Name
}

func (r *Reconciler) side() lifecycle.Side {
	if r.Side == "" {
		return lifecycle.MoneySide
	}
	return r.Side
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func describe(step lifecycle.Step, rec investv1.SettlementRecord) string {
	s := string(step) + " evidence"
	if rec.Reference != "" {
		s += " with reference " + rec.Reference
	}
	if rec.TransactionHash != "" {
		s += " in transaction " + rec.TransactionHash
	}
	return s
}
