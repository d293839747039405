package apiserver

import (
	"context"
	"sync"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// WriteTracker gives this process read-your-writes on top of the informer cache, which
// lags the API server by a few milliseconds: a client that POSTs a wallet and lists the
// wallets right after must see it.
//
// After every successful write the handler records the object's new resourceVersion
// (Written) or its deletion (Deleted). Before reading a kind in a namespace, the handler
// calls Wait, which polls the cache until it shows, for each object written there, at
// least the recorded resourceVersion (or no object, for a deletion). An entry is dropped
// as soon as the cache has caught up with it, or after an expiry, so the tracker only
// holds the writes of the last moments.
//
// resourceVersions are compared with apimachinery's resourceversion.CompareResourceVersion,
// as integers of any length, which apimachinery defines for two versions of the same
// resource: with etcd3 storage every resourceVersion is the etcd revision
// of the write, a counter that increases with every write to the cluster, so a newer
// version of an object has a larger resourceVersion. A version that is not a well-formed
// integer is not tracked.
//
// Writes by other replicas, kubectl or controllers are not tracked: the guarantee is for
// one client talking to one replica, which is what a REST client sees within a request
// sequence on one connection.
type WriteTracker struct {
	reader  client.Reader
	scheme  *runtime.Scheme
	log     logr.Logger
	poll    time.Duration
	timeout time.Duration
	expiry  time.Duration
	now     func() time.Time

	mu      sync.Mutex
	pending map[string]map[trackedObject]trackedWrite // by namespace
}

type trackedObject struct {
	gvk  schema.GroupVersionKind
	name string
}

type trackedWrite struct {
	// rv is the resourceVersion written, or for a deletion the last one known ("": unknown).
	rv       string
	deleted  bool
	recorded time.Time
}

// Tracker defaults: poll the cache every 5 ms, give up after 2 s (the read then answers
// from the cache as it is), forget a write after 10 s.
const (
	trackerPoll    = 5 * time.Millisecond
	trackerTimeout = 2 * time.Second
	trackerExpiry  = 10 * time.Second
)

// NewWriteTracker returns a tracker that polls reader, the informer cache.
func NewWriteTracker(reader client.Reader, scheme *runtime.Scheme, log logr.Logger) *WriteTracker {
	return &WriteTracker{
		reader: reader, scheme: scheme, log: log,
		poll: trackerPoll, timeout: trackerTimeout, expiry: trackerExpiry, now: time.Now,
		pending: map[string]map[trackedObject]trackedWrite{},
	}
}

// Written records a successful create, update or patch; obj carries the API server's answer.
func (t *WriteTracker) Written(obj client.Object) {
	rv := obj.GetResourceVersion()
	if !wellFormed(rv) {
		return
	}
	t.record(obj, trackedWrite{rv: rv})
}

// Deleted records a successful delete of obj (its last known resourceVersion, if any).
func (t *WriteTracker) Deleted(obj client.Object) {
	rv := obj.GetResourceVersion()
	if !wellFormed(rv) {
		rv = ""
	}
	t.record(obj, trackedWrite{rv: rv, deleted: true})
}

func (t *WriteTracker) record(obj client.Object, w trackedWrite) {
	gvk, err := apiutil.GVKForObject(obj, t.scheme)
	if err != nil {
		return
	}
	w.recorded = t.now()
	key := trackedObject{gvk: gvk, name: obj.GetName()}
	t.mu.Lock()
	defer t.mu.Unlock()
	ns := t.pending[obj.GetNamespace()]
	if ns == nil {
		ns = map[trackedObject]trackedWrite{}
		t.pending[obj.GetNamespace()] = ns
	}
	// Keep the newest: a late answer to an older write must not hide a newer one.
	if cur, ok := ns[key]; !ok || w.deleted || cur.deleted || compare(w.rv, cur.rv) >= 0 {
		ns[key] = w
	}
	t.pruneLocked()
}

// pruneLocked forgets expired writes of every namespace.
func (t *WriteTracker) pruneLocked() {
	cutoff := t.now().Add(-t.expiry)
	for nsName, ns := range t.pending {
		for k, w := range ns {
			if w.recorded.Before(cutoff) {
				delete(ns, k)
			}
		}
		if len(ns) == 0 {
			delete(t.pending, nsName)
		}
	}
}

// Pending is the number of writes not yet seen in the cache (for tests and metrics).
func (t *WriteTracker) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, ns := range t.pending {
		n += len(ns)
	}
	return n
}

// Wait returns once the cache shows every write of the given kinds that this process made
// in namespace ("" for cluster-scoped kinds) before the call, or after the bounded wait,
// or with the context's error.
func (t *WriteTracker) Wait(ctx context.Context, namespace string, kinds ...schema.GroupVersionKind) error {
	todo := t.snapshot(namespace, kinds)
	if len(todo) == 0 {
		return nil
	}
	timeout := time.NewTimer(t.timeout)
	defer timeout.Stop()
	tick := time.NewTicker(t.poll)
	defer tick.Stop()
	for {
		remaining := todo[:0]
		for _, p := range todo {
			ok, err := t.caughtUp(ctx, namespace, p)
			if err != nil {
				return err
			}
			if ok {
				t.drop(namespace, p)
			} else {
				remaining = append(remaining, p)
			}
		}
		todo = remaining
		if len(todo) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout.C:
			t.log.Info("cache did not catch up with this process's writes in time; reading it anyway",
				"namespace", namespace, "pending", len(todo), "waited", t.timeout)
			return nil
		case <-tick.C:
		}
	}
}

type pendingWrite struct {
	key   trackedObject
	write trackedWrite
}

func (t *WriteTracker) snapshot(namespace string, kinds []schema.GroupVersionKind) []pendingWrite {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pruneLocked()
	var out []pendingWrite
	for k, w := range t.pending[namespace] {
		for _, gvk := range kinds {
			if k.gvk == gvk {
				out = append(out, pendingWrite{key: k, write: w})
				break
			}
		}
	}
	return out
}

// caughtUp reports whether the cache shows the write p.
func (t *WriteTracker) caughtUp(ctx context.Context, namespace string, p pendingWrite) (bool, error) {
	o, err := t.scheme.New(p.key.gvk)
	if err != nil {
		return true, nil //nolint:nilerr // not a kind we can read: nothing to wait for
	}
	obj, ok := o.(client.Object)
	if !ok {
		return true, nil
	}
	err = t.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: p.key.name}, obj)
	switch {
	case apierrors.IsNotFound(err):
		return p.write.deleted, nil
	case err != nil:
		return false, err
	}
	rv := obj.GetResourceVersion()
	if !wellFormed(rv) {
		return true, nil
	}
	if p.write.deleted {
		// Still there: caught up only if it is a newer object (recreated since).
		return p.write.rv != "" && compare(rv, p.write.rv) > 0, nil
	}
	return compare(rv, p.write.rv) >= 0, nil
}

// wellFormed tells whether rv is a resourceVersion the tracker can compare.
func wellFormed(rv string) bool {
	_, err := resourceversion.CompareResourceVersion(rv, rv)
	return err == nil
}

// compare orders two well-formed resourceVersions (-1, 0, +1).
func compare(a, b string) int {
	c, err := resourceversion.CompareResourceVersion(a, b)
	if err != nil {
		return 0 // unreachable: both were checked by wellFormed when recorded or read
	}
	return c
}

// drop forgets a write the cache has caught up with, unless a newer one replaced it.
func (t *WriteTracker) drop(namespace string, p pendingWrite) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ns := t.pending[namespace]
	if cur, ok := ns[p.key]; ok && cur == p.write {
		delete(ns, p.key)
		if len(ns) == 0 {
			delete(t.pending, namespace)
		}
	}
}
