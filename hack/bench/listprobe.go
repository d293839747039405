package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/app"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// listBreakdown splits the start-up floor (one LIST of every order) into its parts, each
// measured on the same data one after the other: the API server's work alone (pages read
// as bytes and thrown away, with and without gzip), and the client's decode into typed
// Orders (with and without compression).
type listBreakdown struct {
	Orders int `json:"orders"`
	// Pages of 500, as informers list them.
	ServerGzip     time.Duration `json:"server_gzip_ns"`
	ServerIdentity time.Duration `json:"server_identity_ns"`
	BytesGzip      int64         `json:"bytes_gzip"`
	BytesIdentity  int64         `json:"bytes_identity"`
	TypedGzip      time.Duration `json:"typed_gzip_ns"`
	TypedIdentity  time.Duration `json:"typed_identity_ns"`
	// Streaming is the manager's own list (app.ListOrdersStreaming): decoded while the
	// API server writes, uncompressed, one request (as an informer's first list).
	Streaming time.Duration `json:"streaming_ns"`
	// TypedFull is the same single request through a typed client (read whole, then decode).
	TypedFull time.Duration `json:"typed_full_ns"`
	// ManagedFieldsBytes is the JSON of metadata.managedFields in the identity pages.
	ManagedFieldsBytes int64 `json:"managed_fields_bytes"`
}

func (l listBreakdown) String() string {
	per := func(b int64) string { return fmt.Sprintf("%s B/order", thousands(int(b/int64(max(l.Orders, 1))))) }
	return fmt.Sprintf("pages as bytes: gzip %.2f s (%s), identity %.2f s (%s, managedFields %s); typed decode in pages of 500: gzip %.2f s, identity %.2f s; one request: typed %.2f s, streaming %.2f s",
		l.ServerGzip.Seconds(), per(l.BytesGzip), l.ServerIdentity.Seconds(), per(l.BytesIdentity), per(l.ManagedFieldsBytes),
		l.TypedGzip.Seconds(), l.TypedIdentity.Seconds(), l.TypedFull.Seconds(), l.Streaming.Seconds())
}

func probeList(ctx context.Context, base *rest.Config) (listBreakdown, error) {
	var out listBreakdown
	cfg := managerConfig(base)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return out, err
	}
	// Walk once without compression to learn the bytes and page tokens, timing only the
	// requests (the JSON scan for the token is outside the timed part).
	tokens, idDur, idBytes, n, mf, err := walkPages(ctx, hc, cfg.Host, "identity", nil)
	if err != nil {
		return out, err
	}
	out.Orders, out.ServerIdentity, out.BytesIdentity, out.ManagedFieldsBytes = n, idDur, idBytes, mf
	_, gzDur, gzBytes, _, _, err := walkPages(ctx, hc, cfg.Host, "gzip", tokens)
	if err != nil {
		return out, err
	}
	out.ServerGzip, out.BytesGzip = gzDur, gzBytes
	typed := func(disable bool) (time.Duration, error) {
		c := managerConfig(base)
		c.DisableCompression = disable
		cl, err := client.New(c, client.Options{Scheme: controlplane.Scheme()})
		if err != nil {
			return 0, err
		}
		start := time.Now()
		cont := ""
		for {
			var list investv1.OrderList
			if err := cl.List(ctx, &list, client.Limit(500), client.Continue(cont)); err != nil {
				return 0, err
			}
			if cont = list.Continue; cont == "" {
				break
			}
		}
		return time.Since(start), nil
	}
	if out.TypedGzip, err = typed(false); err != nil {
		return out, err
	}
	if out.TypedIdentity, err = typed(true); err != nil {
		return out, err
	}
	// One request at resourceVersion 0, as a reflector's first list: the watch cache
	// answers it whole.
	{
		c := managerConfig(base)
		c.DisableCompression = true
		cl, err := client.New(c, client.Options{Scheme: controlplane.Scheme()})
		if err != nil {
			return out, err
		}
		start := time.Now()
		var list investv1.OrderList
		if err := cl.List(ctx, &list, &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: "0"}}); err != nil {
			return out, err
		}
		out.TypedFull = time.Since(start)
		hc, err := rest.HTTPClientFor(c)
		if err != nil {
			return out, err
		}
		rc, err := app.NewOrderRESTClient(c, controlplane.Scheme(), hc)
		if err != nil {
			return out, err
		}
		start = time.Now()
		got, err := app.ListOrdersStreaming(ctx, rc, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return out, err
		}
		out.Streaming = time.Since(start)
		if len(got.Items) != len(list.Items) {
			return out, fmt.Errorf("streaming list has %d orders, typed list %d", len(got.Items), len(list.Items))
		}
	}
	return out, nil
}

// walkPages reads every page of orders (500 each) with the given Accept-Encoding and
// returns the continue tokens it used, the time spent in requests and the bytes received.
// With tokens given, it follows them instead of reading them from the pages.
func walkPages(ctx context.Context, hc *http.Client, host, encoding string, tokens []string) ([]string, time.Duration, int64, int, int64, error) {
	var spent time.Duration
	var bytes, mf int64
	n := 0
	var used []string
	cont := ""
	for i := 0; ; i++ {
		if tokens != nil {
			if i >= len(tokens) {
				break
			}
			cont = tokens[i]
		}
		q := url.Values{"limit": {"500"}}
		if cont != "" {
			q.Set("continue", cont)
		}
		used = append(used, cont)
		u := strings.TrimSuffix(host, "/") + "/apis/" + investv1.GroupVersion.String() + "/orders?" + q.Encode()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		req.Header.Set("Accept", "application/json")
		// Set explicitly, Go's transport leaves the body as sent: only the server's work
		// and the transfer are timed.
		req.Header.Set("Accept-Encoding", encoding)
		start := time.Now()
		res, err := hc.Do(req)
		if err != nil {
			return nil, 0, 0, 0, 0, err
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		spent += time.Since(start)
		if err != nil {
			return nil, 0, 0, 0, 0, err
		}
		if res.StatusCode != http.StatusOK {
			return nil, 0, 0, 0, 0, fmt.Errorf("list orders: %s", res.Status)
		}
		bytes += int64(len(b))
		if tokens != nil {
			continue
		}
		var page struct {
			Metadata struct {
				Continue string `json:"continue"`
			} `json:"metadata"`
			Items []struct {
				Metadata struct {
					ManagedFields json.RawMessage `json:"managedFields"`
				} `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			return nil, 0, 0, 0, 0, err
		}
		n += len(page.Items)
		for _, it := range page.Items {
			mf += int64(len(it.Metadata.ManagedFields))
		}
		if cont = page.Metadata.Continue; cont == "" {
			break
		}
	}
	return used, spent, bytes, n, mf, nil
}
