package ordercache

import (
	"context"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// TestStreamingOrderListAgainstTheAPIServer runs the streaming lister and the manager's
// Order cache against a real kube-apiserver and etcd: the same orders as a typed LIST, in
// one response or in pages, API errors as StatusErrors, and an informer that lists with
// it and then follows the watch.
func TestStreamingOrderListAgainstTheAPIServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env, err := envtest.New(envtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := env.Close(); err != nil {
			t.Errorf("stop the control plane: %v", err)
		}
	}()
	cfg, c := env.Config, env.Client
	var names []string
	for i := range 3 {
		ns, err := controlplane.NewNamespace(ctx, c, "stream")
		if err != nil {
			t.Fatal(err)
		}
		for range 8 + i {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), "LU0000000001", 10)
			if err := c.Create(ctx, o); err != nil {
				t.Fatalf("create order: %v", err)
			}
			names = append(names, o.Namespace+"/"+o.Name)
		}
	}
	slices.Sort(names)

	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := NewOrderRESTClient(cfg, controlplane.Scheme(), hc)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(items []investv1.Order) []string {
		out := make([]string, 0, len(items))
		for _, o := range items {
			out = append(out, o.Namespace+"/"+o.Name)
		}
		slices.Sort(out)
		return out
	}

	t.Run("one response, as an informer's first list", func(t *testing.T) {
		got, err := ListOrdersStreaming(ctx, rc, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			t.Fatal(err)
		}
		var typed investv1.OrderList
		if err := c.List(ctx, &typed); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys(got.Items), names) || !slices.Equal(keys(typed.Items), names) {
			t.Fatalf("streamed %v, typed %v, want %v", keys(got.Items), keys(typed.Items), names)
		}
		if got.ResourceVersion == "" {
			t.Fatal("the list carries no resourceVersion to watch from")
		}
		for i := range got.Items {
			if got.Items[i].Spec.AmountOfUnits != 10 || got.Items[i].CreationTimestamp.IsZero() {
				t.Fatalf("order decoded incompletely: %+v", got.Items[i])
			}
		}
	})

	t.Run("pages", func(t *testing.T) {
		var seen []string
		opts := metav1.ListOptions{Limit: 10}
		for pages := 0; ; pages++ {
			page, err := ListOrdersStreaming(ctx, rc, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) > 10 {
				t.Fatalf("page of %d orders with limit 10", len(page.Items))
			}
			seen = append(seen, keys(page.Items)...)
			if page.Continue == "" {
				break
			}
			if pages > 5 {
				t.Fatal("paging does not end")
			}
			opts.Continue = page.Continue
		}
		slices.Sort(seen)
		if !slices.Equal(seen, names) {
			t.Fatalf("pages gave %v, want %v", seen, names)
		}
	})

	t.Run("errors of the API server are StatusErrors", func(t *testing.T) {
		_, err := ListOrdersStreaming(ctx, rc, metav1.ListOptions{Limit: 5, Continue: "not-a-continue-token"})
		if !apierrors.IsBadRequest(err) {
			t.Fatalf("want 400 as a StatusError, got %T %v", err, err)
		}
	})

	t.Run("the manager's cache lists with it and follows the watch", func(t *testing.T) {
		before := listsObserved(t)
		// Built as cmd/manager/app builds the manager's cache, which this package cannot import.
		newManager := func(cfg *rest.Config, opts ctrl.Options) (ctrl.Manager, error) {
			UsePagedInitialLists()
			if err := Configure(cfg, opts.Scheme, &opts.Cache); err != nil {
				return nil, err
			}
			return ctrl.NewManager(cfg, opts)
		}
		mgr, err := env.RunManager(cfg, envtest.ManagerOptions{New: newManager, SkipNameValidation: true})
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := mgr.Close(); err != nil {
				t.Error(err)
			}
		}()
		var cached investv1.OrderList
		if err := mgr.GetCache().List(ctx, &cached); err != nil { // starts the informer, waits for its sync
			t.Fatal(err)
		}
		if !slices.Equal(keys(cached.Items), names) {
			t.Fatalf("cache holds %v, want %v", keys(cached.Items), names)
		}
		if listsObserved(t) <= before {
			t.Fatal("the Order informer did not list through the streaming lister")
		}
		for _, o := range cached.Items {
			if len(o.ManagedFields) > 0 {
				t.Fatalf("order %s cached with managedFields: CompactOrder is not installed", o.Name)
			}
		}
		// Changes after the list arrive through the watch.
		ns := cached.Items[0].Namespace
		added := fixtures.BuyOrder(ns, controlplane.NewID(), "LU0000000001", 7)
		if err := c.Create(ctx, added); err != nil {
			t.Fatal(err)
		}
		if err := c.Delete(ctx, &cached.Items[1]); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			var now investv1.OrderList
			if err := mgr.GetCache().List(ctx, &now, client.InNamespace(ns)); err != nil {
				t.Fatal(err)
			}
			k := keys(now.Items)
			if slices.Contains(k, ns+"/"+added.Name) && !slices.Contains(k, ns+"/"+cached.Items[1].Name) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the cache did not follow the watch: %v", k)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// listsObserved is how many successful Order lists the streaming lister recorded.
func listsObserved(t *testing.T) uint64 {
	t.Helper()
	m := &dto.Metric{}
	h, err := orderLists.GetMetricWithLabelValues("ok")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.(interface{ Write(*dto.Metric) error }).Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount()
}
