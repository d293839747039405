package apiserver

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// fakeCache is a cache whose contents the test sets: namespace/name → resourceVersion.
type fakeCache struct {
	mu    sync.Mutex
	rvs   map[string]string
	gets  int
	fails error
}

func newFakeCache() *fakeCache { return &fakeCache{rvs: map[string]string{}} }

func (c *fakeCache) set(ns, name, rv string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rv == "" {
		delete(c.rvs, ns+"/"+name)
		return
	}
	c.rvs[ns+"/"+name] = rv
}

func (c *fakeCache) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	if c.fails != nil {
		return c.fails
	}
	rv, ok := c.rvs[key.Namespace+"/"+key.Name]
	if !ok {
		return apierrors.NewNotFound(schema.GroupResource{}, key.Name)
	}
	obj.SetNamespace(key.Namespace)
	obj.SetName(key.Name)
	obj.SetResourceVersion(rv)
	return nil
}

func (c *fakeCache) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return errors.New("not used")
}

// newTestTracker is a tracker over a fresh fake cache, polling every millisecond and
// waiting at most 300 ms.
func newTestTracker() (*fakeCache, *WriteTracker) {
	c := newFakeCache()
	t := NewWriteTracker(c, controlplane.Scheme(), logr.Discard())
	t.poll = time.Millisecond
	// The bound is well above the 50 ms after which the tests' cache shows a change: on a
	// loaded machine that goroutine may run late, and a wait must still end by the change.
	t.timeout = 2 * time.Second
	return c, t
}

// expectNoCacheReads fails if the tracker read the cache.
func expectNoCacheReads(t *testing.T, c *fakeCache) {
	t.Helper()
	if c.gets != 0 {
		t.Fatalf("cache read %d times, want 0", c.gets)
	}
}

func wallet(ns, name string, rv uint64) *investv1.Wallet {
	return &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: strconv.FormatUint(rv, 10)}}
}

// setLater sets the resource version of wallet name in namespace "a" of the cache after d.
func (c *fakeCache) setLater(d time.Duration, name, rv string) {
	go func() {
		time.Sleep(d)
		c.set("a", name, rv)
	}()
}

// waitForWallets runs tr.Wait for the wallets of namespace "a", failing the test on an
// error, and returns how long it took.
func waitForWallets(t *testing.T, tr *WriteTracker) time.Duration {
	t.Helper()
	start := time.Now()
	if err := tr.Wait(context.Background(), "a", gvkWallet); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// expectNoWait fails with why unless a read of the wallets returns before the tracker's
// bound: it did not wait for anything.
func expectNoWait(t *testing.T, tr *WriteTracker, why string) {
	t.Helper()
	if waitForWallets(t, tr) >= tr.timeout {
		t.Fatal(why)
	}
}

// expectWaitsUntilShown makes the cache show wallet w1 at version after d, and fails
// unless a read waits until then (expectCaughtUp).
func expectWaitsUntilShown(t *testing.T, c *fakeCache, tr *WriteTracker, d time.Duration, version string) {
	t.Helper()
	c.setLater(d, "w1", version)
	expectCaughtUp(t, tr, waitForWallets(t, tr), d)
}

// expectCaughtUp fails unless a wait that took waited lasted about want (until the cache
// showed the change, which it did after want) and left nothing pending.
func expectCaughtUp(t *testing.T, tr *WriteTracker, waited, want time.Duration) {
	t.Helper()
	if waited < want-10*time.Millisecond || waited >= tr.timeout {
		t.Fatalf("waited %v, want about %v (until the cache showed the change)", waited, want)
	}
	if n := tr.Pending(); n != 0 {
		t.Fatalf("pending = %d after the cache caught up, want 0", n)
	}
}

func TestTrackerReturnsAtOnceWithoutWrites(t *testing.T) {
	c, tr := newTestTracker()
	waitForWallets(t, tr)
	expectNoCacheReads(t, c)
}

// TestTrackerWaitsUntilCacheShowsTheChange: a read after a write waits until the cache
// has the written version; after a deletion, until the cache no longer has the object or
// has a newer one (deleted and created again).
func TestTrackerWaitsUntilCacheShowsTheChange(t *testing.T) {
	for _, tc := range []struct {
		name string
		// cached is the version of w1 in the cache when the change is recorded; shown is
		// the one the cache has a while later ("": none).
		cached, shown string
		change        func(*WriteTracker)
	}{
		{name: "write until its version is cached", cached: "9", shown: "10",
			change: func(tr *WriteTracker) { tr.Written(wallet("a", "w1", 10)) }},
		{name: "deletion until the object is gone", cached: "10", shown: "",
			change: func(tr *WriteTracker) { tr.Deleted(wallet("a", "w1", 10)) }},
		{name: "deletion until a newer object is cached", cached: "10", shown: "11",
			change: func(tr *WriteTracker) { tr.Deleted(wallet("a", "w1", 10)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, tr := newTestTracker()
			c.set("a", "w1", tc.cached)
			tc.change(tr)
			expectWaitsUntilShown(t, c, tr, 50*time.Millisecond, tc.shown)
		})
	}
}

func TestTrackerComparesResourceVersionsAsNumbers(t *testing.T) {
	c, tr := newTestTracker()
	c.set("a", "w1", "100") // "100" < "99" as text, > as a number
	tr.Written(wallet("a", "w1", 99))
	expectNoWait(t, tr, "waited for a version the cache already passed")
}

func TestTrackerComparesResourceVersionsOfAnyLength(t *testing.T) {
	// apimachinery bounds a resourceVersion's digits by nothing; a tracker that read them
	// as uint64 would drop this write and answer from a cache that has not seen it.
	c, tr := newTestTracker()
	c.set("a", "w1", "99999999999999999999999")
	w := &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "w1", ResourceVersion: "100000000000000000000000"}}
	tr.Written(w)
	expectWaitsUntilShown(t, c, tr, 50*time.Millisecond, "100000000000000000000000")
}

func TestTrackerGivesUpAfterItsBound(t *testing.T) {
	_, tr := newTestTracker()
	tr.Written(wallet("a", "w1", 10)) // the cache never sees it
	// A second of slack above the bound: a loaded machine runs the waiter late.
	if d := waitForWallets(t, tr); d < tr.timeout || d > tr.timeout+time.Second {
		t.Fatalf("waited %v, want the bound %v", d, tr.timeout)
	}
	if n := tr.Pending(); n != 1 {
		t.Fatalf("pending = %d, want the write still tracked", n)
	}
}

func TestTrackerWaitsOnlyForTheNamespaceAndKindsRead(t *testing.T) {
	c, tr := newTestTracker()
	tr.Written(wallet("b", "w1", 10)) // other namespace
	tr.Written(&investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "acc", ResourceVersion: "10"}})
	expectNoWait(t, tr, "waited for writes of another namespace or kind")
	expectNoCacheReads(t, c)
}

func TestTrackerKeepsTheNewestWrite(t *testing.T) {
	c, tr := newTestTracker()
	tr.Written(wallet("a", "w1", 12))
	tr.Written(wallet("a", "w1", 11)) // a slower answer to an older write
	c.set("a", "w1", "11")
	start := time.Now()
	_ = tr.Wait(context.Background(), "a", gvkWallet)
	if time.Since(start) < tr.timeout {
		t.Fatal("accepted version 11 although 12 was written")
	}
}

func TestTrackerIgnoresNonNumericVersions(t *testing.T) {
	_, tr := newTestTracker()
	w := wallet("a", "w1", 0)
	w.ResourceVersion = "abc"
	tr.Written(w)
	if n := tr.Pending(); n != 0 {
		t.Fatalf("pending = %d, want 0", n)
	}
}

func TestTrackerForgetsExpiredWrites(t *testing.T) {
	_, tr := newTestTracker()
	now := time.Now()
	tr.now = func() time.Time { return now }
	tr.Written(wallet("a", "w1", 10))
	now = now.Add(tr.expiry + time.Second)
	expectNoWait(t, tr, "an expired write was still waited for")
	if tr.Pending() != 0 {
		t.Fatal("an expired write is still tracked")
	}
}

func TestTrackerStopsWithTheRequest(t *testing.T) {
	_, tr := newTestTracker()
	tr.Written(wallet("a", "w1", 10))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := tr.Wait(ctx, "a", gvkWallet); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
}

func TestTrackerReportsCacheErrors(t *testing.T) {
	c, tr := newTestTracker()
	c.fails = errors.New("cache broken")
	tr.Written(wallet("a", "w1", 10))
	if err := tr.Wait(context.Background(), "a", gvkWallet); err == nil {
		t.Fatal("want the cache's error")
	}
}

func TestTrackerIsSafeForConcurrentUse(t *testing.T) {
	c, tr := newTestTracker()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			rv := uint64(100 + i)
			c.set("a", "w", strconv.FormatUint(rv, 10))
			tr.Written(wallet("a", "w", rv))
		}()
		go func() {
			defer wg.Done()
			_ = tr.Wait(context.Background(), "a", gvkWallet)
		}()
	}
	wg.Wait()
}
