package apiserver

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
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
