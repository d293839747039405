// Package notify runs the outgoing webhooks: it records the events of orders, wallets and
// NAV prices as their changes are committed (the ingest reconcilers), keeps a finalizer on
// each WebhookEndpoint so that its deliveries go with it, and delivers every event to every
// endpoint that subscribed to it (the dispatcher), signed (Standard Webhooks v1), retried on
// the schedule of internal/notify/egress, and logged attempt by attempt in the store.
package notify

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders;wallets;navhistories;dealings;shareclasses,verbs=get;list;watch

// ingest records the events an object's committed status shows. kind names the object's
// kind in the recorder's keys; events derives its events (reading what else it needs from
// the cache).
type ingest[T client.Object] struct {
	reader   client.Reader
	recorder *notify.Recorder
	kind     string
	newObj   func() T
	events   func(context.Context, T, time.Time) ([]notify.Event, error)
}

// of makes a pure event function one of ingest's.
func of[T client.Object](f func(T, time.Time) []notify.Event) func(context.Context, T, time.Time) ([]notify.Event, error) {
	return func(_ context.Context, obj T, since time.Time) ([]notify.Event, error) { return f(obj, since), nil }
}

func (r *ingest[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	key := r.kind + "/" + req.String()
	obj := r.newObj()
	if err := r.reader.Get(ctx, req.NamespacedName, obj); err != nil {
		if apierrors.IsNotFound(err) {
			r.recorder.Forget(key)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	// An object deleted and created again under its name has other event ids (they hold
	// its UID), so what the recorder remembers of the old one hides nothing.
	events, err := r.events(ctx, obj, r.recorder.Since())
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.recorder.Record(ctx, key, events); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// setupIngest registers the ingest reconcilers. They only read (the cache) and write
// the store, so every change of an order wakes them; the workqueue folds rapid changes of
// one object into one reconcile.
func setupIngest(mgr ctrl.Manager, rec *notify.Recorder) error {
	statusChanged := builder.WithPredicates(predicate.ResourceVersionChangedPredicate{})
	if err := ctrl.NewControllerManagedBy(mgr).Named("webhook-events-orders").
		For(&investv1.Order{}, statusChanged).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(&ingest[*investv1.Order]{reader: mgr.GetClient(), recorder: rec, kind: "order",
			newObj: func() *investv1.Order { return &investv1.Order{} }, events: of(notify.OrderEvents)}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("webhook-events-wallets").
		For(&investv1.Wallet{}, statusChanged).
		Complete(&ingest[*investv1.Wallet]{reader: mgr.GetClient(), recorder: rec, kind: "wallet",
			newObj: func() *investv1.Wallet { return &investv1.Wallet{} }, events: of(notify.WalletEvents)}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("webhook-events-navs").
		For(&investv1.NAVHistory{}, statusChanged).
		Complete(&ingest[*investv1.NAVHistory]{reader: mgr.GetClient(), recorder: rec, kind: "nav",
			newObj: func() *investv1.NAVHistory { return &investv1.NAVHistory{} }, events: of(notify.NAVEvents)}); err != nil {
		return err
	}
	// The NAV of an Intraday dealing point is published on its Dealing (spec.navPerShare):
	// only a change of the spec can publish one.
	return ctrl.NewControllerManagedBy(mgr).Named("webhook-events-dealing-navs").
		For(&investv1.Dealing{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(&ingest[*investv1.Dealing]{reader: mgr.GetClient(), recorder: rec, kind: "dealing-nav",
			newObj: func() *investv1.Dealing { return &investv1.Dealing{} },
			events: dealingNAVEvents(mgr.GetClient(), mgr.GetAPIReader())})
}

// dealingNAVEvents is the nav.published event of the NAV a Dealing publishes for an
// intraday point, dated in its share class's time zone. The class is read from the cache,
// or from the API server (live) when the cache has not seen it yet; a Dealing whose class
// the API server does not have either publishes nothing (the strike says so on the
// Dealing), and is not tried again.
func dealingNAVEvents(cache, live client.Reader) func(context.Context, *investv1.Dealing, time.Time) ([]notify.Event, error) {
	return func(ctx context.Context, d *investv1.Dealing, since time.Time) ([]notify.Event, error) {
		if d.Spec.NAVPerShare == nil {
			return nil, nil
		}
		classes, err := index.ShareClassesOf(ctx, d.Spec.ISIN, cache, live)
		if err != nil {
			return nil, fmt.Errorf("read the share class of ISIN %s: %w", d.Spec.ISIN, err)
		}
		if len(classes.Items) == 0 {
			ctrl.LoggerFrom(ctx).Info("no share class with the dealing's ISIN: its NAV is not published", "dealing", d.Name, "isin", d.Spec.ISIN)
			return nil, nil
		}
		return notify.IntradayNAVEvents(d, &classes.Items[0], since), nil
	}
}
