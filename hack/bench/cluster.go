package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify/egress"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/internal/archive"
)

const (
	operatorNamespace = "fundshare-system"
	signingKeySecret  = "fundshare-jwt-signing-key"
)

// managerConfig is the rest.Config the production binary would use against this API
// server: ctrl.GetConfig turns client-side rate limiting off (QPS -1) and relies on the API
// server's priority and fairness. The raw write ceiling uses the same settings.
func managerConfig(base *rest.Config) *rest.Config {
	cfg := rest.CopyConfig(base)
	cfg.QPS = -1
	cfg.Burst = 0
	return cfg
}

// webhooks switches the admission webhook configurations of config/webhook on and off.
// Historical orders are loaded while they are off: they carry a quote computed here and a
// terminal status, so admission has nothing to add and the controllers nothing to do.
type webhooks struct {
	c   client.Client
	wio *envtest.WebhookInstallOptions
}

func (w webhooks) off(ctx context.Context) error {
	for _, m := range w.wio.MutatingWebhooks {
		if err := client.IgnoreNotFound(w.c.Delete(ctx, &admissionv1.MutatingWebhookConfiguration{ObjectMeta: m.ObjectMeta})); err != nil {
			return err
		}
	}
	for _, v := range w.wio.ValidatingWebhooks {
		if err := client.IgnoreNotFound(w.c.Delete(ctx, &admissionv1.ValidatingWebhookConfiguration{ObjectMeta: v.ObjectMeta})); err != nil {
			return err
		}
	}
	// The API server drops the configurations from its admission chain through a watch.
	time.Sleep(500 * time.Millisecond)
	return nil
}

func (w webhooks) on(ctx context.Context) error {
	for _, m := range w.wio.MutatingWebhooks {
		obj := m.DeepCopy()
		obj.ResourceVersion, obj.UID = "", ""
		if err := w.c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	for _, v := range w.wio.ValidatingWebhooks {
		obj := v.DeepCopy()
		obj.ResourceVersion, obj.UID = "", ""
		if err := w.c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return nil
}

// operator is a running production manager (app.NewManager + app.Setup) in this process.
type operator struct {
	mgr     ctrl.Manager
	baseURL string
	cancel  context.CancelFunc
	done    chan error
	startup startupTimes
}

// archiveConfig is the order archive the manager reads and the retention that moves
// orders into it, as --archive-dsn and --order-retention set them (none: zero).
type archiveConfig struct {
	store     archive.Store
	retention time.Duration
}

// startupTimes are measured from just before app.NewManager.
type startupTimes struct {
	CacheSynced time.Duration `json:"cache_synced_ns"`
	RESTReady   time.Duration `json:"rest_ready_ns"`
	Idle        time.Duration `json:"controllers_idle_ns"`
}

// startOperator builds and starts the manager exactly as cmd/manager does (REST facade,
// webhooks, controllers, the sandbox settlement agent without delay), with its transport
// wrapped by counter, and waits until its caches are synced and the facade answers.
// sandboxOf is app.Config.SandboxSettlement for v: the sandbox agents on (0), or off (-1).
func sandboxOf(v variant) time.Duration {
	if v.noAgents {
		return -1
	}
	return 0
}

func startOperator(ctx context.Context, base *rest.Config, wio *envtest.WebhookInstallOptions, counter *apiCounter, v variant, ac archiveConfig) (*operator, error) {
	restAddr, err := freeAddress()
	if err != nil {
		return nil, err
	}
	baseURL := "http://" + restAddr
	cfg := managerConfig(base)
	cfg.Wrap(counter.wrap)
	if v.config != nil {
		v.config(cfg)
	}

	opts := ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir,
		}),
		// The harness runs several managers one after the other in one process; controller
		// names are registered globally for metrics.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	}
	if v.tweak != nil {
		v.tweak(&opts)
	}
	start := time.Now()
	mgr, err := app.NewManager(cfg, opts)
	if err != nil {
		return nil, err
	}
	if err := app.Setup(mgr, app.Config{
		RESTAddr: restAddr, PublicBaseURL: baseURL, Namespace: operatorNamespace,
		SigningKeySecret: signingKeySecret, Webhooks: true, Controllers: true,
		SandboxSettlement: sandboxOf(v), Archive: ac.store, OrderRetention: ac.retention,
		// The webhook measurement's receivers listen on 127.0.0.1.
		WebhookEgress: egress.Options{AllowLoopbackHTTP: true},
	}); err != nil {
		return nil, err
	}
	mctx, cancel := context.WithCancel(ctx)
	op := &operator{mgr: mgr, baseURL: baseURL, cancel: cancel, done: make(chan error, 1)}
	go func() { op.done <- mgr.Start(mctx) }()

	synced := make(chan bool, 1)
	go func() { synced <- mgr.GetCache().WaitForCacheSync(mctx) }()
	select {
	case ok := <-synced:
		if !ok {
			op.stop()
			return nil, errors.New("caches did not sync")
		}
		op.startup.CacheSynced = time.Since(start)
	case err := <-op.done:
		cancel()
		return nil, fmt.Errorf("manager stopped: %w", err)
	}
	if err := waitUntil(ctx, 2*time.Minute, 10*time.Millisecond, func() bool {
		res, err := http.Get(baseURL + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}); err != nil {
		op.stop()
		return nil, fmt.Errorf("REST facade not ready: %w", err)
	}
	op.startup.RESTReady = time.Since(start)
	if err := waitUntil(ctx, 2*time.Minute, 10*time.Millisecond, func() bool {
		return mgr.GetWebhookServer().StartedChecker()(nil) == nil
	}); err != nil {
		op.stop()
		return nil, fmt.Errorf("webhook server not serving: %w", err)
	}
	// With a large archive the account controller's first pass reads every account's
	// archived orders (holdings), which takes minutes on a small machine.
	idleTimeout := 10 * time.Minute
	if ac.store != nil {
		idleTimeout = 40 * time.Minute
	}
	if err := waitIdle(ctx, idleTimeout); err != nil {
		op.stop()
		return nil, err
	}
	op.startup.Idle = time.Since(start)
	return op, nil
}

func (op *operator) stop() {
	op.cancel()
	select {
	case err := <-op.done:
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench: manager stopped with an error:", err)
		}
	case <-time.After(time.Minute):
	}
}

// waitIdle waits until every controller's work queue is empty, no reconcile runs, and no
// item was added for a while: the controllers have finished what the last change gave
// them (including short requeues).
func waitIdle(ctx context.Context, timeout time.Duration) error {
	const quiet = 750 * time.Millisecond
	deadline := time.Now().Add(timeout)
	var lastAdds float64 = -1
	var quietSince time.Time
	for {
		depth, active, adds := queueMetrics()
		now := time.Now()
		if depth == 0 && active == 0 && adds == lastAdds {
			if quietSince.IsZero() {
				quietSince = now
			}
			if now.Sub(quietSince) >= quiet {
				return nil
			}
		} else {
			quietSince = time.Time{}
		}
		lastAdds = adds
		if now.After(deadline) {
			return fmt.Errorf("controllers still busy after %s (queued %v, reconciling %v; by queue: %s)", timeout, depth, active, busyQueues())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// queueMetrics sums controller-runtime's work queue depth, active workers and adds.
func queueMetrics() (depth, active, adds float64) {
	queues, err := byQueue()
	if err != nil {
		return -1, -1, -1
	}
	for _, q := range queues {
		depth, active, adds = depth+q.depth, active+q.active, adds+q.adds
	}
	return depth, active, adds
}

// queueFigures are a work queue's depth, active workers and adds, by field.
type queueFigures struct{ depth, active, adds float64 }

// byQueue reads controller-runtime's work queue depth, active workers and adds, per
// queue (its name, or its controller's).
func byQueue() (map[string]queueFigures, error) {
	families, err := metrics.Registry.Gather()
	if err != nil {
		return nil, err
	}
	out := map[string]queueFigures{}
	for _, f := range families {
		name := f.GetName()
		if name != "workqueue_depth" && name != "controller_runtime_active_workers" && name != "workqueue_adds_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			queue := ""
			for _, l := range m.GetLabel() {
				if l.GetName() == "name" || l.GetName() == "controller" {
					queue = l.GetValue()
				}
			}
			v, q := m.GetGauge().GetValue()+m.GetCounter().GetValue(), out[queue]
			switch name {
			case "workqueue_depth":
				q.depth += v
			case "controller_runtime_active_workers":
				q.active += v
			default:
				q.adds += v
			}
			out[queue] = q
		}
	}
	return out, nil
}

// busyQueues names the work queues with items queued or in work, and those that are
// added to within a second, for an error that says which controller does not go idle.
func busyQueues() string {
	before, err := byQueue()
	if err != nil {
		return err.Error()
	}
	time.Sleep(time.Second)
	after, err := byQueue()
	if err != nil {
		return err.Error()
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(after)) {
		q := after[name]
		if added := q.adds - before[name].adds; q.depth > 0 || q.active > 0 || added > 0 {
			parts = append(parts, fmt.Sprintf("%s queued %v, reconciling %v, added %v/s", name, q.depth, q.active, added))
		}
	}
	if len(parts) == 0 {
		return "none now"
	}
	return strings.Join(parts, "; ")
}

// apiCounter counts the requests a client sends to the API server, by verb and resource,
// from a wrapped transport (rest.Config.Wrap). Watches are left out.
type apiCounter struct {
	mu sync.Mutex
	n  map[string]int64
}

func newAPICounter() *apiCounter { return &apiCounter{n: map[string]int64{}} }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (c *apiCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		res, err := rt.RoundTrip(r)
		if r.URL.Query().Get("watch") == "true" {
			return res, err
		}
		key := r.Method + " " + resourceOf(r.URL.Path)
		if err == nil && res.StatusCode == http.StatusConflict {
			key += " (409)"
		}
		c.mu.Lock()
		c.n[key]++
		c.mu.Unlock()
		return res, err
	})
}

func (c *apiCounter) snapshot() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.n))
	for k, v := range c.n {
		out[k] = v
	}
	return out
}

// requestCounts is a difference of two snapshots.
type requestCounts map[string]int64

func diffCounts(before, after map[string]int64) requestCounts {
	out := requestCounts{}
	for k, v := range after {
		if d := v - before[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// writes is the number of requests that change something (every verb but GET).
func (rc requestCounts) writes() int64 {
	var n int64
	for k, v := range rc {
		if !strings.HasPrefix(k, "GET ") {
			n += v
		}
	}
	return n
}

func (rc requestCounts) reads() int64 {
	var n int64
	for k, v := range rc {
		if strings.HasPrefix(k, "GET ") {
			n += v
		}
	}
	return n
}

// resourceOf reduces an API path to its resource and subresource, e.g.
// /apis/invest.fundshare.io/v1alpha1/namespaces/t1/orders/x/status → orders/status.
func resourceOf(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		parts = parts[3:]
	default:
		return path
	}
	if len(parts) >= 2 && parts[0] == "namespaces" {
		if len(parts) == 2 {
			return "namespaces"
		}
		parts = parts[2:]
	}
	switch len(parts) {
	case 0:
		return path
	case 1, 2:
		return parts[0]
	default:
		return parts[0] + "/" + parts[2]
	}
}

// memory is the Go heap after a full collection and the process's resident set.
type memory struct {
	HeapAlloc uint64 `json:"heap_alloc_bytes"`
	RSS       uint64 `json:"rss_bytes"`
}

func measureMemory() memory {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memory{HeapAlloc: ms.HeapAlloc, RSS: rss()}
}

func freeAddress() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func waitUntil(ctx context.Context, timeout, every time.Duration, ok func() bool) error {
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s", timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
	return nil
}
