package notify

import (
	"context"
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
)

// Finalizer keeps a WebhookEndpoint until its deliveries and attempts are deleted from the
// store.
const Finalizer = investv1.WebhookEndpointFinalizer

// Config is what the webhooks need.
type Config struct {
	// Store is the outbox and delivery log (the archive's database).
	Store notify.Store
	// Egress configures the HTTP client (AllowLoopbackHTTP for make run and tests).
	Egress egress.Options
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Setup registers the ingest reconcilers, the endpoint reconciler and the dispatcher, and
// returns the recorder (the retention controller records an order's events through it
// before the order leaves the cluster).
func Setup(mgr ctrl.Manager, c Config) (*notify.Recorder, error) {
	d := &Dispatcher{
		Cache: mgr.GetCache(), Live: mgr.GetAPIReader(), Writer: mgr.GetClient(), Store: c.Store,
		HTTP: egress.NewClient(c.Egress), Egress: c.Egress, Log: mgr.GetLogger().WithName("webhook-dispatcher"), Now: c.Now,
	}
	rec := &notify.Recorder{
		Store:     c.Store,
		Endpoints: func(ctx context.Context) ([]notify.Endpoint, error) { return Endpoints(ctx, mgr.GetCache()) },
		Wake:      d.Wake,
		Now:       c.Now,
	}
	d.Recorder = rec
	if err := setupIngest(mgr, rec); err != nil {
		return nil, fmt.Errorf("webhook events: %w", err)
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("webhook-endpoints").For(&investv1.WebhookEndpoint{}).
		Complete(&endpointReconciler{Client: mgr.GetClient(), Store: c.Store, Dispatcher: d}); err != nil {
		return nil, fmt.Errorf("webhook endpoints: %w", err)
	}
	if err := mgr.Add(d); err != nil {
		return nil, err
	}
	return rec, nil
}

// endpointReconciler keeps the finalizer on each endpoint, deletes a deleted endpoint's
// deliveries and attempts from the store, and tells the dispatcher.
type endpointReconciler struct {
	Client     client.Client
	Store      notify.Store
	Dispatcher *Dispatcher
}

func (r *endpointReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	defer r.Dispatcher.Resync()
	ep := &investv1.WebhookEndpoint{}
	if err := r.Client.Get(ctx, req.NamespacedName, ep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if ep.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(ep, Finalizer) {
			return ctrl.Result{}, r.Client.Update(ctx, ep)
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(ep, Finalizer) {
		return ctrl.Result{}, nil
	}
	if err := r.Store.Forget(ctx, string(ep.UID)); err != nil {
		return ctrl.Result{}, fmt.Errorf("delete the endpoint's deliveries: %w", err)
	}
	controllerutil.RemoveFinalizer(ep, Finalizer)
	return ctrl.Result{}, client.IgnoreNotFound(r.Client.Update(ctx, ep))
}
