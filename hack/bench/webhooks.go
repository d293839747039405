package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/notify/signature"
)

// webhookRun is one measurement of webhook delivery: orders of one tenant placed through
// the pipeline (admission, controllers, the sandbox agent) while that tenant has
// -webhook-endpoints endpoints on 127.0.0.1, every endpoint subscribed to every event.
type webhookRun struct {
	Variant   string `json:"variant"`
	Orders    int    `json:"orders"`
	Endpoints int    `json:"endpoints"`
	// Events are the order events the orders' histories show; Expected the deliveries the
	// measured (answering) endpoints owe: Events × their number.
	Events   int `json:"events"`
	Expected int `json:"expected_deliveries"`
	// Received are the distinct (endpoint, webhook-id) pairs the measured endpoints got;
	// Repeated the deliveries of an id an endpoint already had (at least once);
	// Missing what they never got within the wait.
	Received int `json:"received"`
	Repeated int `json:"repeated"`
	Missing  int `json:"missing"`
	// P50/P99: from the harness's informer seeing the history entry (the change is
	// committed and visible) to the first arrival at a measured endpoint, in ms.
	P50     float64 `json:"p50_ms"`
	P99     float64 `json:"p99_ms"`
	Seconds float64 `json:"seconds"`
	Err     string  `json:"error,omitempty"`
}

// webhookResult is the webhook figure: all endpoints answering, then one answering 500,
// then one hanging; the others' p99 beside the first run's.
type webhookResult struct {
	Runs []webhookRun `json:"runs"`
}

// hookReceiver records the first arrival of each webhook-id, and answers as mode says:
// "" 204 at once, "500" 500 at once, "hang" never (until the run ends).
type hookReceiver struct {
	srv     *httptest.Server
	mode    string
	release chan struct{}
	mu      sync.Mutex
	first   map[string]time.Time // by "order/version"
	ids     map[string]int
}

func newHookReceiver(mode string) *hookReceiver {
	rc := &hookReceiver{mode: mode, release: make(chan struct{}), first: map[string]time.Time{}, ids: map[string]int{}}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(r.Body)
		switch rc.mode {
		case "500":
			w.WriteHeader(http.StatusInternalServerError)
			return
		case "hang":
			select {
			case <-rc.release:
			case <-r.Context().Done():
			}
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var p struct {
			Data struct {
				Object  string `json:"object"`
				ID      string `json:"id"`
				Version int    `json:"version"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &p)
		rc.mu.Lock()
		rc.ids[r.Header.Get("webhook-id")]++
		if p.Data.Object == "order" {
			key := fmt.Sprintf("%s/%d", p.Data.ID, p.Data.Version)
			if _, ok := rc.first[key]; !ok {
				rc.first[key] = at
			}
		}
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return rc
}

func (rc *hookReceiver) close() {
	close(rc.release)
	rc.srv.Close()
}

// measureWebhooks restarts the manager with a SQLite archive (the webhook store), then
// measures each variant; it leaves the manager stopped and the archive off.
func (b *bench) measureWebhooks(ctx context.Context) (webhookResult, error) {
	var res webhookResult
	dir, err := os.MkdirTemp("", "fundshare-bench-webhooks-*")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	store, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		return res, err
	}
	defer store.Close()
	b.stop()
	b.archive = archiveConfig{store: store}
	defer func() { b.stop(); b.archive = archiveConfig{} }()
	if err := b.start(ctx, false, variant{name: "with the webhook store"}); err != nil {
		return res, err
	}
	// The ingest records the events of every order already in the cluster once.
	progress("webhooks: waiting for the ingest to record the cluster's orders")
	if err := waitIdle(ctx, 10*time.Minute); err != nil {
		return res, err
	}
	for _, mode := range []string{"", "500", "hang"} {
		run, err := b.webhookRun(ctx, mode)
		if err != nil {
			return res, err
		}
		res.Runs = append(res.Runs, run)
	}
	return res, nil
}

// webhookRun places -webhook-orders orders of one tenant while its endpoints receive.
func (b *bench) webhookRun(ctx context.Context, mode string) (webhookRun, error) {
	o := b.o
	name := map[string]string{"": "all answer 204", "500": "one answers 500", "hang": "one hangs"}[mode]
	run := webhookRun{Variant: name, Orders: o.webhookOrders, Endpoints: o.webhookEndpoints}
	accts := append(append([]accountRef{}, b.ds.measured...), b.ds.others...)
	t := accts[0].tenant
	accts = slices.DeleteFunc(accts, func(a accountRef) bool { return a.tenant != t })

	var receivers []*hookReceiver
	var endpoints []*investv1.WebhookEndpoint
	defer func() {
		for _, ep := range endpoints {
			_ = b.c.Delete(context.WithoutCancel(ctx), ep)
		}
		for _, rc := range receivers {
			rc.close()
		}
	}()
	for i := range o.webhookEndpoints {
		m := ""
		if i == 0 {
			m = mode
		}
		rc := newHookReceiver(m)
		receivers = append(receivers, rc)
		secret, err := signature.NewSecret()
		if err != nil {
			return run, err
		}
		id := uuid.NewString()
		sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: t.ns, Name: "webhook-" + id},
			Data: map[string][]byte{investv1.WebhookSecretKey: []byte(secret)}}
		ep := &investv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: t.ns, Name: id},
			Spec: investv1.WebhookEndpointSpec{URL: rc.srv.URL + "/hooks", SecretRef: investv1.LocalSecretReference{Name: sec.Name}}}
		if err := b.c.Create(ctx, sec); err != nil {
			return run, err
		}
		if err := b.c.Create(ctx, ep); err != nil {
			return run, err
		}
		endpoints = append(endpoints, ep)
	}
	// The dispatcher runs a worker per endpoint once the endpoint reconciler saw it.
	if err := waitUntil(ctx, time.Minute, 100*time.Millisecond, func() bool {
		for _, ep := range endpoints {
			cur := &investv1.WebhookEndpoint{}
			if err := b.op.mgr.GetAPIReader().Get(ctx, client.ObjectKeyFromObject(ep), cur); err != nil || !slices.Contains(cur.Finalizers, investv1.WebhookEndpointFinalizer) {
				return false
			}
		}
		return true
	}); err != nil {
		return run, fmt.Errorf("webhook endpoints not reconciled: %w", err)
	}
	time.Sleep(time.Second)

	// When the harness sees each history entry: the change is committed and visible.
	inf, err := b.op.mgr.GetCache().GetInformer(ctx, &investv1.Order{})
	if err != nil {
		return run, err
	}
	var mu sync.Mutex
	seen := map[string]time.Time{}
	note := func(o *investv1.Order, from int) {
		now := time.Now()
		mu.Lock()
		for i := from; i < len(o.Status.History); i++ {
			key := fmt.Sprintf("%s/%d", o.Name, i+1)
			if _, ok := seen[key]; !ok {
				seen[key] = now
			}
		}
		mu.Unlock()
	}
	reg, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := newObj.(*investv1.Order)
			old, ok2 := oldObj.(*investv1.Order)
			if ok1 && ok2 && len(o.Status.History) > len(old.Status.History) {
				note(o, len(old.Status.History))
			}
		},
	})
	if err != nil {
		return run, err
	}
	defer func() { _ = inf.RemoveEventHandler(reg) }()

	progress("webhooks (%s): %s orders of one tenant, %d endpoints", name, thousands(o.webhookOrders), o.webhookEndpoints)
	start := time.Now()
	p, err := runPipeline(ctx, b.op, b.counter, admissionPlacer(b.c), true, accts, b.ds.classes, o.webhookOrders, o.pipelineConc, o.pipelineTimeout)
	if err != nil {
		return run, err
	}
	b.ds.orders += o.webhookOrders
	if p.Err != "" {
		run.Err = p.Err
	}
	// What the orders' histories owe, from the harness's informer records.
	mu.Lock()
	want := make(map[string]time.Time, len(seen))
	for k, v := range seen {
		want[k] = v
	}
	mu.Unlock()
	run.Events = len(want)
	measured := receivers
	if mode != "" {
		measured = receivers[1:]
	}
	run.Expected = run.Events * len(measured)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		got := 0
		for _, rc := range measured {
			rc.mu.Lock()
			for k := range want {
				if _, ok := rc.first[k]; ok {
					got++
				}
			}
			rc.mu.Unlock()
		}
		run.Received = got
		if got >= run.Expected || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	run.Seconds = time.Since(start).Seconds()
	run.Missing = run.Expected - run.Received
	var lat []time.Duration
	for _, rc := range measured {
		rc.mu.Lock()
		for k, at := range want {
			if got, ok := rc.first[k]; ok {
				lat = append(lat, max(0, got.Sub(at)))
			}
		}
		for _, n := range rc.ids {
			run.Repeated += n - 1
		}
		rc.mu.Unlock()
	}
	run.P50, run.P99 = percentile(lat, 0.5), percentile(lat, 0.99)
	return run, nil
}
