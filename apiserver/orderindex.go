package apiserver

import (
	"context"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/btree"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
)

// orderPosition is an order's place in the newest-first order of GET /v1/orders: its
// creation time in whole seconds (what the API server keeps), then its id, descending.
// The order archive lists in the same order (archive.Position), so live and archived
// orders merge into one sequence.
type orderPosition struct {
	created int64
	id      string
}

func positionOf(o *investv1.Order) orderPosition {
	return orderPosition{created: o.CreationTimestamp.Unix(), id: o.Name}
}

// newer orders first.
func (a orderPosition) before(b orderPosition) bool {
	return a.created > b.created || (a.created == b.created && a.id > b.id)
}

// after reports whether a comes strictly after the cursor position c (newest first).
func (a orderPosition) after(c archive.Position) bool { return c.After(timeOfUnix(a.created), a.id) }

// liveOrderIndex keeps every live order's position per namespace in a B-tree, newest
// first, fed by the Order informer's events. It lets the unfiltered newest-first list
// answer a page by walking limit entries from the cursor, instead of listing and sorting
// the tenant's every order on each request. It only names orders: each page reads them
// from the cache, so an entry for an order that is gone (deleted a moment ago) is skipped.
type liveOrderIndex struct {
	mu     sync.RWMutex
	byNS   map[string]*btree.BTreeG[orderPosition]
	synced func() bool
}

func newLiveOrderIndex() *liveOrderIndex {
	return &liveOrderIndex{byNS: map[string]*btree.BTreeG[orderPosition]{}}
}

// handler is the informer event handler that maintains the index.
func (x *liveOrderIndex) handler() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { x.put(obj) },
		UpdateFunc: func(_, obj any) { x.put(obj) }, // the position never changes; idempotent
		DeleteFunc: func(obj any) {
			if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if o, ok := obj.(*investv1.Order); ok {
				x.mu.Lock()
				defer x.mu.Unlock()
				if t := x.byNS[o.Namespace]; t != nil {
					t.Delete(positionOf(o))
				}
			}
		},
	}
}

func (x *liveOrderIndex) put(obj any) {
	o, ok := obj.(*investv1.Order)
	if !ok {
		return
	}
	x.add(o)
}

// add records o; the REST facade also calls it for an order it created, so that the
// creator's next list shows it even before the informer's event is handled.
func (x *liveOrderIndex) add(o *investv1.Order) {
	x.mu.Lock()
	defer x.mu.Unlock()
	t := x.byNS[o.Namespace]
	if t == nil {
		t = btree.NewG(32, func(a, b orderPosition) bool { return a.before(b) })
		x.byNS[o.Namespace] = t
	}
	t.ReplaceOrInsert(positionOf(o))
}

// ready reports whether the index holds every order of the informer's initial list.
func (x *liveOrderIndex) ready() bool { return x != nil && x.synced != nil && x.synced() }

// page returns the positions of up to n orders of namespace strictly after cursor (nil:
// from the newest), newest first.
func (x *liveOrderIndex) page(namespace string, cursor *archive.Position, n int) []orderPosition {
	x.mu.RLock()
	defer x.mu.RUnlock()
	t := x.byNS[namespace]
	if t == nil {
		return nil
	}
	out := make([]orderPosition, 0, min(n, t.Len()))
	visit := func(p orderPosition) bool {
		if cursor != nil && !p.after(*cursor) {
			return true // the cursor's own position
		}
		out = append(out, p)
		return len(out) < n
	}
	if cursor == nil {
		t.Ascend(visit)
	} else {
		t.AscendGreaterOrEqual(orderPosition{created: cursor.Created.Unix(), id: cursor.ID}, visit)
	}
	return out
}

func timeOfUnix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// watchLiveOrders starts a live order index fed by reader's Order informer, when reader
// is an informer cache (the manager's); nil otherwise. It does not wait for the informer
// to sync: until it has, the list sorts instead (ready is false).
func watchLiveOrders(reader client.Reader, log logr.Logger) *liveOrderIndex {
	informers, ok := reader.(cache.Informers)
	if !ok {
		return nil
	}
	inf, err := informers.GetInformer(context.Background(), &investv1.Order{}, cache.BlockUntilSynced(false))
	if err != nil {
		log.Error(err, "no live order index: the unfiltered order list sorts every live order per request")
		return nil
	}
	x := newLiveOrderIndex()
	reg, err := inf.AddEventHandler(x.handler())
	if err != nil {
		log.Error(err, "no live order index: the unfiltered order list sorts every live order per request")
		return nil
	}
	x.synced = reg.HasSynced
	return x
}
