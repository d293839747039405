package ordercache

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// Orders are the one resource whose count grows without bound, and their informer's
// first LIST is most of the manager's start-up. client-go reads a LIST response whole and
// only then decodes it, so the API server's encoding and the client's decoding happen one
// after the other. The streaming lister decodes the items while the API server is still
// writing them (it streams JSON lists item by item), so the two overlap; make bench
// measures both side by side (docs/performance.md).

// streamingOrderLister is the Order informer's ListerWatcher with a streaming List. Watch
// is the original's.
type streamingOrderLister struct {
	toolscache.ListerWatcherWithContext
	client rest.Interface
}

// NewOrderRESTClient is a REST client for the Orders' group that asks for JSON.
func NewOrderRESTClient(cfg *rest.Config, scheme *runtime.Scheme, hc *http.Client) (rest.Interface, error) {
	c := rest.CopyConfig(cfg)
	c.APIPath = "/apis"
	c.GroupVersion = &investv1.GroupVersion
	c.ContentType = runtime.ContentTypeJSON
	c.AcceptContentTypes = runtime.ContentTypeJSON
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	return rest.RESTClientForConfigAndClient(c, hc)
}

func (s streamingOrderLister) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

func (s streamingOrderLister) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

func (s streamingOrderLister) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	start := time.Now()
	list, err := ListOrdersStreaming(ctx, s.client, opts)
	if err != nil {
		orderLists.WithLabelValues("error").Observe(time.Since(start).Seconds())
		return nil, err
	}
	orderLists.WithLabelValues("ok").Observe(time.Since(start).Seconds())
	orderListItems.Add(float64(len(list.Items)))
	return list, nil
}

// Metrics of the Order informer's lists: the first one is most of a start-up.
var (
	orderLists = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "fundshare_order_cache_list_duration_seconds",
		Help:    "Time the Order informer's LIST requests took (the first one at start-up, then relists), by result.",
		Buckets: []float64{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160},
	}, []string{"result"})
	orderListItems = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fundshare_order_cache_listed_orders_total",
		Help: "Orders received by the Order informer's LIST requests.",
	})
)

func init() {
	metricset.MustRegister(orderLists, orderListItems)
}

// ListOrdersStreaming lists Orders across namespaces with opts, decoding the response as
// it arrives. Errors of the API server (410 Expired, 429, 5xx) come back as the same
// *StatusError a typed client returns, so reflectors handle them as usual.
func ListOrdersStreaming(ctx context.Context, c rest.Interface, opts metav1.ListOptions) (*investv1.OrderList, error) {
	body, err := c.Get().Resource("orders").VersionedParams(&opts, metav1.ParameterCodec).
		Timeout(listTimeout(opts)).Stream(ctx)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	list := &investv1.OrderList{}
	if err := decodeOrderList(body, list); err != nil {
		return nil, fmt.Errorf("decode the list of orders: %w", err)
	}
	return list, nil
}

// listTimeout is the client-side bound of one LIST: the server's own timeout when one is
// asked for, else none beyond the context (reflectors pass none).
func listTimeout(opts metav1.ListOptions) time.Duration {
	if opts.TimeoutSeconds != nil {
		return time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	return 0
}

// decodeOrderList decodes a JSON OrderList from r item by item.
func decodeOrderList(r io.Reader, list *investv1.OrderList) error {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "apiVersion":
			err = dec.Decode(&list.APIVersion)
		case "kind":
			err = dec.Decode(&list.Kind)
		case "metadata":
			err = dec.Decode(&list.ListMeta)
		case "items":
			err = decodeItems(dec, list)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	return expectDelim(dec, '}')
}

func decodeItems(dec *json.Decoder, list *investv1.OrderList) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil { // "items": null
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("want an array, got %v", tok)
	}
	for dec.More() {
		var item listedOrder
		if err := dec.Decode(&item); err != nil {
			return err
		}
		list.Items = append(list.Items, investv1.Order{TypeMeta: item.TypeMeta, ObjectMeta: item.Metadata.ObjectMeta, Spec: item.Spec, Status: item.Status})
	}
	return expectDelim(dec, ']')
}

// listedOrder is an Order as the lister decodes it: without managedFields, which the
// cache drops anyway (a third of every order's JSON, and its most allocation-heavy part).
type listedOrder struct {
	metav1.TypeMeta
	Metadata listedMeta           `json:"metadata"`
	Spec     investv1.OrderSpec   `json:"spec"`
	Status   investv1.OrderStatus `json:"status"`
}

type listedMeta struct {
	metav1.ObjectMeta
	// ManagedFields shadows ObjectMeta's field of the same name: scanned, not kept.
	ManagedFields skipped `json:"managedFields"`
}

// skipped is a JSON value that is read past and not kept.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}
