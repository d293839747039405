package ordercache

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestDecodeOrderListMatchesWholeDecode(t *testing.T) {
	want := &investv1.OrderList{
		TypeMeta: metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "OrderList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "4711", Continue: "next-page-token", RemainingItemCount: new(int64(3))},
	}
	for i, state := range []investv1.OrderState{investv1.StatePlaced, investv1.StateExecuted, investv1.StateCompleted} {
		o := settledOrder(t, "tenant-a", "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b", testHash, state)
		o.APIVersion, o.Kind = investv1.GroupVersion.String(), "Order"
		o.Annotations = map[string]string{"n": string(rune('a' + i))}
		want.Items = append(want.Items, *o)
	}
	raw, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	// The API server's key order differs from Go's: items may come before metadata.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatal(err)
	}
	reordered := `{"items":` + string(fields["items"]) + `,"kind":"OrderList","extra":{"ignored":[1,2]},"apiVersion":` +
		string(fields["apiVersion"]) + `,"metadata":` + string(fields["metadata"]) + `}`
	for name, body := range map[string]string{"as encoded": string(raw), "reordered": reordered} {
		t.Run(name, func(t *testing.T) {
			got := &investv1.OrderList{}
			if err := decodeOrderList(strings.NewReader(body), got); err != nil {
				t.Fatal(err)
			}
			whole := &investv1.OrderList{}
			if err := json.Unmarshal([]byte(body), whole); err != nil {
				t.Fatal(err)
			}
			// The lister does not keep managedFields; everything else is as decoded whole.
			for i := range whole.Items {
				if len(whole.Items[i].ManagedFields) == 0 || len(got.Items[i].ManagedFields) != 0 {
					t.Fatalf("item %d: managedFields sent %d, kept %d", i, len(whole.Items[i].ManagedFields), len(got.Items[i].ManagedFields))
				}
				whole.Items[i].ManagedFields = nil
			}
			if len(got.Items) != len(want.Items) || got.Items[2].Name != want.Items[2].Name || got.Continue != want.Continue {
				t.Fatalf("streamed decode lost items or metadata: %d items, continue %q", len(got.Items), got.Continue)
			}
			if !equality.Semantic.DeepEqual(got, whole) {
				t.Fatal("streamed decode differs from decoding the whole body")
			}
		})
	}
}

func TestDecodeOrderListEmptyAndNull(t *testing.T) {
	for _, body := range []string{`{"kind":"OrderList","items":[],"metadata":{"resourceVersion":"9"}}`, `{"items":null,"metadata":{"resourceVersion":"9"}}`} {
		got := &investv1.OrderList{}
		if err := decodeOrderList(strings.NewReader(body), got); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if len(got.Items) != 0 || got.ResourceVersion != "9" {
			t.Fatalf("%s: got %+v", body, got)
		}
	}
}

// A response cut off mid-way (the connection dropped) is an error, never a shorter list
// that an informer would take for the truth.
func TestDecodeOrderListRefusesTruncatedResponses(t *testing.T) {
	o := settledOrder(t, "tenant-a", "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b", testHash, investv1.StateCompleted)
	raw, err := json.Marshal(&investv1.OrderList{Items: []investv1.Order{*o, *o}})
	if err != nil {
		t.Fatal(err)
	}
	for cut := 1; cut < len(raw); cut += 37 {
		if err := decodeOrderList(strings.NewReader(string(raw[:cut])), &investv1.OrderList{}); err == nil {
			t.Fatalf("a response cut at byte %d of %d decoded without error", cut, len(raw))
		}
	}
	for _, body := range []string{`[]`, `{"items":{}}`, `{"items":[1]}`, `{"items":[],"metadata":"x"}`} {
		if err := decodeOrderList(strings.NewReader(body), &investv1.OrderList{}); err == nil {
			t.Fatalf("%s decoded without error", body)
		}
	}
}

// The streaming lister lists every namespace without selectors: a cache restricted in
// either way keeps client-go's lister, which applies the restriction.
func TestStreamingOrdersOnlyForAnUnrestrictedCache(t *testing.T) {
	if !streamingOrdersApply(cache.Options{}) {
		t.Fatal("the manager's own cache options should list orders streaming")
	}
	for name, o := range map[string]cache.Options{
		"namespaces":       {DefaultNamespaces: map[string]cache.Config{"tenant-a": {}}},
		"label selector":   {DefaultLabelSelector: labels.Everything()},
		"field selector":   {DefaultFieldSelector: fields.Everything()},
		"order namespaces": {ByObject: map[client.Object]cache.ByObject{&investv1.Order{}: {Namespaces: map[string]cache.Config{"tenant-a": {}}}}},
		"order label":      {ByObject: map[client.Object]cache.ByObject{&investv1.Order{}: {Label: labels.Everything()}}},
		"order field":      {ByObject: map[client.Object]cache.ByObject{&investv1.Order{}: {Field: fields.Everything()}}},
	} {
		if streamingOrdersApply(o) {
			t.Errorf("%s: a restricted cache must not use the streaming lister", name)
		}
	}
}

// listedOrder mirrors investv1.Order field for field except metadata.managedFields: a
// field added to Order must be added there too, or the cache would silently lose it.
func TestListedOrderMirrorsOrder(t *testing.T) {
	var fields []string
	for f := range reflect.TypeFor[investv1.Order]().Fields() {
		fields = append(fields, f.Name)
	}
	if want := []string{"TypeMeta", "ObjectMeta", "Spec", "Status"}; !slices.Equal(fields, want) {
		t.Fatalf("investv1.Order has fields %v; decodeItems copies %v: update listedOrder", fields, want)
	}
}
