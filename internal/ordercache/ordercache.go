// Package ordercache is how the manager's cache holds Orders, the one resource whose count
// grows without bound: a compact copy of each (CompactOrder), a streaming first LIST
// (ListOrdersStreaming) and client-go's paged initial list instead of its watch-list
// (UsePagedInitialLists). The composition root (cmd/manager/app) applies it with
// UsePagedInitialLists and Configure; make bench measures each part (docs/performance.md).
package ordercache

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Configure sets the Orders' part of a manager's cache options: CompactOrder as their
// transform (unless the caller chose one) and, when the cache lists every namespace
// without selectors and the caller set no NewInformer of its own, an Order informer that
// lists through ListOrdersStreaming. scheme is the manager's.
func Configure(cfg *rest.Config, scheme *runtime.Scheme, opts *cache.Options) error {
	opts.ByObject = withOrderTransform(opts.ByObject)
	if !streamingOrdersApply(*opts) || opts.NewInformer != nil {
		return nil
	}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return fmt.Errorf("order cache: %w", err)
	}
	orders, err := NewOrderRESTClient(cfg, scheme, hc)
	if err != nil {
		return fmt.Errorf("order cache: %w", err)
	}
	opts.NewInformer = func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
		if _, ok := obj.(*investv1.Order); ok {
			lw = streamingOrderLister{ListerWatcherWithContext: toolscache.ToListerWatcherWithContext(lw), client: orders}
		}
		return toolscache.NewSharedIndexInformer(lw, obj, resync, indexers)
	}
	return nil
}

// streamingOrdersApply tells whether the Order informer may list through the streaming
// lister: it lists every namespace without selectors, which is what the manager's cache
// asks for unless it was restricted.
func streamingOrdersApply(o cache.Options) bool {
	if len(o.DefaultNamespaces) > 0 || o.DefaultLabelSelector != nil || o.DefaultFieldSelector != nil {
		return false
	}
	for obj, by := range o.ByObject {
		if _, ok := obj.(*investv1.Order); ok && (len(by.Namespaces) > 0 || by.Label != nil || by.Field != nil) {
			return false
		}
	}
	return true
}

// withOrderTransform returns byObject with CompactOrder as the Orders' transform, unless
// the caller chose one (make bench measures the manager without it that way).
func withOrderTransform(byObject map[client.Object]cache.ByObject) map[client.Object]cache.ByObject {
	out := make(map[client.Object]cache.ByObject, len(byObject)+1)
	found := false
	for obj, by := range byObject {
		if _, ok := obj.(*investv1.Order); ok {
			found = true
			if by.Transform == nil {
				by.Transform = CompactOrder
			}
		}
		out[obj] = by
	}
	if !found {
		out[&investv1.Order{}] = cache.ByObject{Transform: CompactOrder}
	}
	return out
}

// pagedInitialList turns off client-go's streaming initial list (WatchListClient, on by
// default since 1.35): with it, informers decode each object twice at start-up. make bench
// measured the manager's start with 100,000 orders at 93 s with it and 33 s without.
type pagedInitialList struct{ clientfeatures.Gates }

func (g pagedInitialList) Enabled(f clientfeatures.Feature) bool {
	return f != clientfeatures.WatchListClient && g.Gates.Enabled(f)
}

var pagedListOnce sync.Once

// settableGates is client-go's default gates implementation (read from KUBE_FEATURE_*
// environment variables), which lets a feature be set.
type settableGates interface {
	Set(clientfeatures.Feature, bool) error
}

// UsePagedInitialLists makes every informer the process builds from now on start with a
// LIST (paged, or ListOrdersStreaming for Orders) rather than client-go's watch-list.
// The switch is process-wide (client-go's feature gates are) and is made once; reflectors
// read the gate when they are built, so call it before the manager's cache starts.
//
// client-go's own gates are set, not replaced: replacing them once they have been read
// (and the scheme's registration reads them) logs an error at every start ("The default
// feature gates implementation has already been used and now it's being overwritten").
// Only gates of another implementation, which may not be settable, are wrapped.
func UsePagedInitialLists() { pagedListOnce.Do(turnOffWatchList) }

func turnOffWatchList() {
	if g, ok := clientfeatures.FeatureGates().(settableGates); ok && g.Set(clientfeatures.WatchListClient, false) == nil {
		return
	}
	clientfeatures.ReplaceFeatureGates(pagedInitialList{clientfeatures.FeatureGates()})
}
