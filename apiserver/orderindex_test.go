package apiserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

var indexT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func indexedOrder(ns, name string, sec int) *investv1.Order {
	return &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
		CreationTimestamp: metav1.NewTime(indexT0.Add(time.Duration(sec) * time.Second))}}
}

func ids(ps []orderPosition) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.id)
	}
	return strings.Join(out, ",")
}

func TestTheLiveOrderIndexPagesNewestFirstFromACursor(t *testing.T) {
	x := newLiveOrderIndex()
	h := x.handler()
	for _, o := range []*investv1.Order{
		indexedOrder("a", "o1", 1), indexedOrder("a", "o3", 3), indexedOrder("a", "o2a", 2), indexedOrder("a", "o2b", 2),
		indexedOrder("a", "o4", 4), indexedOrder("b", "other", 9),
	} {
		h.OnAdd(o, true)
	}
	h.OnUpdate(indexedOrder("a", "o3", 3), indexedOrder("a", "o3", 3)) // no duplicate
	h.OnDelete(toolscache.DeletedFinalStateUnknown{Obj: indexedOrder("a", "o4", 4)})

	if got := ids(x.page("a", nil, 10)); got != "o3,o2b,o2a,o1" {
		t.Fatalf("page: %s", got)
	}
	if got := ids(x.page("a", nil, 2)); got != "o3,o2b" {
		t.Fatalf("first two: %s", got)
	}
	cur := &archive.Position{Created: indexT0.Add(2 * time.Second), ID: "o2b"}
	if got := ids(x.page("a", cur, 10)); got != "o2a,o1" {
		t.Fatalf("after o2b: %s", got)
	}
	// A cursor between entries (an archived order's position) starts after it too.
	cur = &archive.Position{Created: indexT0.Add(3 * time.Second), ID: "zz"}
	if got := ids(x.page("a", cur, 1)); got != "o3" {
		t.Fatalf("after a foreign position: %s", got)
	}
	if got := x.page("c", nil, 10); len(got) != 0 {
		t.Fatalf("another namespace: %v", got)
	}
}

func TestMergingLiveAndArchivedOrdersIsNewestFirstAndShowsEachOnce(t *testing.T) {
	live := []investv1.Order{*indexedOrder("a", "l5", 5), *indexedOrder("a", "both3", 3), *indexedOrder("a", "l1", 1)}
	archived := []investv1.Order{*indexedOrder("a", "a4", 4), *indexedOrder("a", "both3", 3), *indexedOrder("a", "a3", 3), *indexedOrder("a", "a0", 0)}
	live[1].Status.State = investv1.StateCompleted
	got := mergeNewestFirst(live, archived)
	var names []string
	for _, o := range got {
		names = append(names, o.Name)
	}
	if s := strings.Join(names, ","); s != "l5,a4,both3,a3,l1,a0" {
		t.Fatalf("merged: %s", s)
	}
}

// readCounter counts the reads a list makes.
type readCounter struct {
	client.Reader
	gets, lists int
}

func (c *readCounter) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.gets++
	return c.Reader.Get(ctx, key, obj, opts...)
}

func (c *readCounter) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.lists++
	return c.Reader.List(ctx, list, opts...)
}

func TestTheUnfilteredOrderListReadsLimitOrdersNotTheTenantsEvery(t *testing.T) {
	const n, limit = 5000, 10
	objs := make([]client.Object, 0, n)
	x := newLiveOrderIndex()
	x.synced = func() bool { return true }
	for i := range n {
		o := indexedOrder("t", fmt.Sprintf("o%05d", i), i)
		objs = append(objs, o)
		x.add(o)
	}
	reader := &readCounter{Reader: fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...).Build()}
	s := &Server{deps: Deps{Reader: reader}, liveIndex: x}
	got, err := s.liveOrders(context.Background(), "t", orderFilter{}, nil, limit+1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != limit+1 || got[0].Name != "o04999" || got[limit].Name != "o04989" {
		t.Fatalf("got %d orders from %s", len(got), got[0].Name)
	}
	if reader.lists != 0 || reader.gets != limit+1 {
		t.Fatalf("the page read %d lists and %d gets; want no list and %d gets", reader.lists, reader.gets, limit+1)
	}
	// From a cursor: the same cost.
	reader.gets = 0
	cur := &archive.Position{Created: got[limit].CreationTimestamp.UTC(), ID: got[limit].Name}
	next, err := s.liveOrders(context.Background(), "t", orderFilter{}, cur, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(next) != limit || next[0].Name != "o04988" || reader.gets != limit || reader.lists != 0 {
		t.Fatalf("next page from %s: %d orders, %d gets, %d lists", next[0].Name, len(next), reader.gets, reader.lists)
	}
	// Not synced yet: the list falls back to listing (and sorting) the tenant's orders.
	x.synced = func() bool { return false }
	reader.lists = 0
	if _, err := s.liveOrders(context.Background(), "t", orderFilter{}, nil, limit); err != nil || reader.lists != 1 {
		t.Fatalf("before the index synced: %d lists, err %v", reader.lists, err)
	}
}
