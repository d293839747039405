// Command bench is `make bench`: the performance harness of issue 6. It starts its own
// control plane (kube-apiserver and etcd from bin/controlplane, etcd data in a temporary
// folder) and the production manager in this process (app.NewManager + app.Setup: REST
// facade, webhooks, controllers, the sandbox settlement agent without delay), loads
// tenants, accounts and historical orders, and measures every figure beside its ceiling
// in the same run:
//
//  1. read path: GET /v1/funds, /v1/orders?account_id=…&limit=100 and /v1/orders/{id}
//     from 8 and 64 clients, against the same answers served from a map behind the same
//     router and authentication;
//  2. scale: p99 of the filtered order list with the base load and with the full load,
//     for accounts whose orders do not change in between, beside the map ceiling;
//  3. order pipeline: BUY orders placed concurrently until all are COMPLETED, in API
//     writes per second, against raw status writes of a trivial resource;
//  4. memory: the manager's heap per cached order, and the process RSS;
//  5. start-up: manager construction to caches synced, against one LIST of all orders.
//
// It prints one markdown table and writes the whole result as JSON (-out).
// docs/performance.md explains the figures and what limits them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap/zapcore"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
)

type options struct {
	orders, accounts, tenants int
	baseOrders, perMeasured   int
	duration, warmup          time.Duration
	clients                   []int
	sample, rounds            int
	skipRead                  bool
	pipeline, pipelineConc    int
	pipelineTimeout           time.Duration
	loadWorkers               int
	strike                    int
	placement                 int
	webhookOrders             int
	webhookEndpoints          int
	variants                  []variant
	out, logPath              string
	cpuProfile, profilePhase  string
	memProfile                string
	apiserverProfile          string
	apiserverSeconds          int
	archiveScale              bool
	total, flow               int
	flowMargin                time.Duration
	archiveDSN                string
}

func main() {
	var o options
	var clients, variantList string
	var large bool
	flag.IntVar(&o.orders, "orders", 10_000, "historical orders to load in total")
	flag.BoolVar(&large, "scale", false, "load 100,000 orders (the scale targets of the issue); same as -orders 100000")
	flag.IntVar(&o.accounts, "accounts", 1_000, "accounts, spread over the tenants")
	flag.IntVar(&o.tenants, "tenants", 10, "tenants (API clients, one namespace each)")
	flag.IntVar(&o.baseOrders, "base-orders", 1_000, "orders of the first load step (the scale figure compares the filtered list at this count and at -orders)")
	flag.IntVar(&o.perMeasured, "orders-per-account", 20, "orders of each account whose list is measured at both steps")
	flag.DurationVar(&o.duration, "duration", 4*time.Second, "duration of each read-path measurement (per side) and of each raw-write measurement")
	flag.DurationVar(&o.warmup, "warmup", 500*time.Millisecond, "warm-up before each read-path measurement (not counted)")
	flag.StringVar(&clients, "clients", "8,64", "concurrent clients of the read path, comma-separated")
	flag.IntVar(&o.rounds, "rounds", 4, "alternating rounds of facade and ceiling in each read-path measurement")
	flag.BoolVar(&o.skipRead, "skip-read", false, "skip the read-path comparison")
	flag.IntVar(&o.sample, "sample", 200, "distinct accounts and orders the read path cycles through")
	flag.IntVar(&o.pipeline, "pipeline", 500, "BUY orders of the pipeline measurement (0 skips it)")
	flag.IntVar(&o.pipelineConc, "pipeline-clients", 16, "concurrent placements, and writers of the raw write ceiling")
	flag.DurationVar(&o.pipelineTimeout, "pipeline-timeout", 10*time.Minute, "how long the pipeline may take")
	flag.IntVar(&o.loadWorkers, "load-workers", 32, "concurrent writers when loading data")
	flag.IntVar(&o.webhookOrders, "webhook-orders", 1_500, "BUY orders of one tenant placed through the pipeline while its webhook endpoints receive every event (0 skips the webhook measurement)")
	flag.IntVar(&o.webhookEndpoints, "webhook-endpoints", 10, "webhook endpoints on 127.0.0.1 of that tenant")
	flag.IntVar(&o.placement, "placement", 500, "orders of each kind (forward-priced by amount, latest-priced by units) placed through REST side by side after the pipeline (0 skips it)")
	flag.IntVar(&o.strike, "strike", 10_000, "paid forward orders of one ISIN and dealing date struck at once, last (0 skips it)")
	flag.StringVar(&variantList, "variants", "", "after the main measurements, restart the manager with each candidate change and measure again: watchlist, nocompact, nostream, compression, workers (comma-separated)")
	flag.StringVar(&o.out, "out", "bench-results.json", "JSON file of the results")
	flag.StringVar(&o.logPath, "log", "", "log file of the manager (default: a temporary file, removed unless the run fails)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the phase -profile to this file")
	flag.StringVar(&o.profilePhase, "profile", "read", "phase the profiles cover: load, startup, scale, read, pipeline, webhooks or strike")
	flag.StringVar(&o.apiserverProfile, "apiserver-cpuprofile", "", "also write kube-apiserver's CPU profile from the start of the phase -profile to this file")
	flag.IntVar(&o.apiserverSeconds, "apiserver-profile-seconds", 20, "length of the kube-apiserver CPU profile")
	flag.StringVar(&o.memProfile, "memprofile", "", "write a heap profile after the last manager start (full load, caches synced); samples every 64 KiB allocated, which slows allocation a little")
	flag.BoolVar(&o.archiveScale, "archive-scale", false, "the order archive's scale targets (issue 15): -total orders in all, -orders of them live, the rest in the archive, beside the live orders alone; see docs/performance.md")
	flag.IntVar(&o.total, "total", 1_000_000, "with -archive-scale: orders placed in all (live and archived)")
	flag.IntVar(&o.flow, "flow", 2_000, "with -archive-scale: orders that the retention controller archives and deletes while timed")
	flag.DurationVar(&o.flowMargin, "flow-margin", 4*time.Minute, "with -archive-scale: the flow orders become due for retention this long after their load starts")
	flag.StringVar(&o.archiveDSN, "archive-dsn", "", "with -archive-scale: the order archive (sqlite://<file> or postgres://…); default a new SQLite file in a temporary folder, removed at the end")
	flag.Parse()
	if large {
		o.orders = 100_000
	}
	if o.memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	o.rounds = max(1, o.rounds)
	for _, s := range strings.Split(clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "bench: -clients: want positive integers, got", s)
			os.Exit(2)
		}
		o.clients = append(o.clients, n)
	}
	var err error
	if o.variants, err = parseVariants(variantList); err != nil {
		fmt.Fprintln(os.Stderr, "bench: -variants:", err)
		os.Exit(2)
	}
	if o.tenants < 1 || o.accounts < 2*o.tenants || o.orders < 1 {
		fmt.Fprintln(os.Stderr, "bench: need at least one tenant, two accounts per tenant and one order")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s bench: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// bench is one run: the control plane, the data and the manager currently running.
type bench struct {
	o       options
	res     *results
	cfg     *rest.Config
	c       client.Client // the harness's own client (admin, not counted)
	hooks   webhooks
	ds      *dataset
	counter *apiCounter
	op      *operator
	archive archiveConfig // of the next manager start
}

func run(ctx context.Context, o options) (err error) {
	b := &bench{o: o, counter: newAPICounter(), ds: &dataset{}, res: &results{
		Started: time.Now().UTC(), Command: "go run ./hack/bench " + strings.Join(os.Args[1:], " "),
		Machine: describeMachine(),
		Scale:   scale{Orders: o.orders, BaseOrders: min(o.baseOrders, o.orders), Accounts: o.accounts, Tenants: o.tenants},
	}}
	res := b.res

	// The manager logs like production (JSON, info level, sampled) into a file: the
	// facade's request log is part of what a request costs.
	logPath := o.logPath
	if logPath == "" {
		f, err := os.CreateTemp("", "fundshare-bench-*.log")
		if err != nil {
			return err
		}
		f.Close()
		logPath = f.Name()
		defer func() {
			if err == nil {
				os.Remove(logPath)
			} else {
				fmt.Fprintln(os.Stderr, "bench: manager log kept in", logPath)
			}
		}()
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := zap.New(zap.WriteTo(logFile), zap.Level(zapcore.InfoLevel))
	ctrl.SetLogger(logger)
	klog.SetLogger(logger)

	progress("starting the control plane (kube-apiserver, etcd in a temporary folder)")
	env := controlplane.New(controlplane.Options{Webhooks: true})
	env.ControlPlane.GetAPIServer().Configure().Set("profiling", "true") // for -apiserver-cpuprofile
	if b.cfg, err = env.Start(); err != nil {
		return fmt.Errorf("start control plane: %w", err)
	}
	defer func() {
		if err := env.Stop(); err != nil {
			progress("stop control plane: %v", err)
		}
	}()
	if b.c, err = client.New(b.cfg, client.Options{Scheme: controlplane.Scheme()}); err != nil {
		return err
	}
	b.hooks = webhooks{c: b.c, wio: &env.WebhookInstallOptions}
	if err := b.hooks.off(ctx); err != nil {
		return fmt.Errorf("webhooks off: %w", err)
	}
	if err := b.createBase(ctx); err != nil {
		return err
	}

	if o.archiveScale {
		if err := b.runArchiveScale(ctx, env); err != nil {
			return err
		}
		return b.report()
	}

	// Step 1: the base load, all on the measured accounts; start the manager on it.
	full := o.orders > res.Scale.BaseOrders
	endLoad := b.profile(ctx, "load")
	if err := b.load(ctx, b.ds.measured, res.Scale.BaseOrders); err != nil {
		return err
	}
	if !full {
		endLoad()
	}
	defer b.stopServing()
	if res.Served, err = b.startServing(ctx, !full); err != nil {
		return err
	}
	res.List = &listScale{OrdersBase: b.ds.orders, OrdersFull: o.orders}
	switch {
	case !res.Served.List:
		res.List.Missing = res.Served.ListWhy
	case !full:
		res.List.Missing = "one load step only (-orders ≤ -base-orders)"
	default:
		end := b.profile(ctx, "scale-base")
		res.List.Base, res.List.BaseCeiling, err = b.listScaleStep(ctx)
		end()
		if err != nil {
			return err
		}
	}

	// Step 2: the bulk load on the other accounts, with the manager stopped so that no
	// controller sees an order between its create and its terminal status.
	if full {
		b.stop()
		if err := b.load(ctx, b.ds.others, o.orders-b.ds.orders); err != nil {
			return err
		}
		endLoad()
		if err := b.start(ctx, true, variant{}); err != nil {
			return err
		}
		a, z := res.Managers[0], res.Managers[1]
		res.MarginalPerOrder = float64((int64(z.After.HeapAlloc)-int64(z.Before.HeapAlloc))-(int64(a.After.HeapAlloc)-int64(a.Before.HeapAlloc))) / float64(z.Orders-a.Orders)
		if res.Served.List {
			end := b.profile(ctx, "scale")
			res.List.Full, res.List.FullCeiling, err = b.listScaleStep(ctx)
			end()
			if err != nil {
				return err
			}
			res.List.Ratio = res.List.Full.P99Median / res.List.Base.P99Median
			res.List.CeilingRatio = res.List.FullCeiling.P99Median / res.List.BaseCeiling.P99Median
		}
	}

	if o.skipRead {
		res.Notes = append(res.Notes, "read path skipped (-skip-read)")
	} else {
		end := b.profile(ctx, "read")
		err := b.measureReads(ctx)
		end()
		if err != nil {
			return err
		}
	}
	if o.pipeline > 0 {
		end := b.profile(ctx, "pipeline")
		p, err := b.measurePipeline(ctx)
		end()
		if err != nil {
			return err
		}
		res.Pipeline = &p
	}
	if o.placement > 0 {
		pl, err := b.measurePlacement(ctx, o.placement)
		if err != nil {
			pl.Err = err.Error()
			progress("placement: %v", err)
		}
		res.Placement = &pl
	}
	for _, v := range o.variants {
		b.stop()
		if err := b.start(ctx, false, v); err != nil {
			return err
		}
		if v.pipeline && o.pipeline > 0 {
			p, err := b.measurePipeline(ctx)
			if err != nil {
				return err
			}
			p.Variant = v.name
			res.PipelineVariants = append(res.PipelineVariants, p)
		}
		res.Notes = append(res.Notes, "variant "+v.name+": "+v.description)
	}
	if o.webhookOrders > 0 && o.webhookEndpoints > 0 {
		end := b.profile(ctx, "webhooks")
		wh, err := b.measureWebhooks(ctx)
		end()
		if err != nil {
			return fmt.Errorf("webhooks: %w", err)
		}
		res.Webhooks = &wh
	}
	if o.strike > 0 {
		st, err := b.measureStrike(ctx, o.strike)
		if err != nil {
			return fmt.Errorf("strike: %w", err)
		}
		res.Strike = &st
	}

	return b.report()
}

// report evaluates the targets, prints the table and writes the JSON file.
func (b *bench) report() error {
	o, res := b.o, b.res
	res.evaluate()
	res.printTable(os.Stdout)
	fmt.Printf("\n%s orders, %d accounts, %d tenants; %d CPUs (%s), %s, %s, Linux %s; load average at start %s.\n",
		thousands(b.ds.orders), o.accounts, o.tenants, res.Machine.CPUs, res.Machine.CPU, res.Machine.MemTotal, res.Machine.Go, res.Machine.Kernel, res.Machine.LoadAvg)
	if p := res.Pipeline; p != nil {
		fmt.Printf("API requests of the pipeline: %s\n", formatCounts(p.Requests))
		fmt.Printf("Controllers during the pipeline: %s\n", formatLoad(p.Controllers))
	}
	for _, n := range res.Notes {
		fmt.Println(n)
	}
	if abs, err := filepath.Abs(o.out); err == nil {
		o.out = abs
	}
	if err := res.writeJSON(o.out); err != nil {
		return err
	}
	progress("results written to %s", o.out)
	return nil
}

// createBase loads the catalogue, the tenants with their accounts, and the objects of the
// raw write ceiling, while admission is off.
func (b *bench) createBase(ctx context.Context) error {
	o := b.o
	progress("loading the catalogue, %d tenants and %d accounts", o.tenants, o.accounts)
	if err := devdata.EnsureNamespace(ctx, b.c, operatorNamespace); err != nil {
		return err
	}
	var err error
	if b.ds.classes, err = loadCatalogue(ctx, b.c); err != nil {
		return fmt.Errorf("catalogue: %w", err)
	}
	if b.ds.tenants, err = createTenants(ctx, b.c, o.tenants, o.accounts, o.loadWorkers); err != nil {
		return fmt.Errorf("tenants: %w", err)
	}
	if b.ds.ceiling, err = createCeilingObjects(ctx, b.c, o.pipelineConc); err != nil {
		return fmt.Errorf("ceiling objects: %w", err)
	}
	b.splitAccounts()
	return nil
}

// splitAccounts chooses the measured accounts (the base load, a fixed number of orders
// each) and the others (the bulk load and the pipeline), alternating between tenants.
func (b *bench) splitAccounts() {
	var all []accountRef
	for i := 0; ; i++ {
		added := false
		for _, t := range b.ds.tenants {
			if i < len(t.accounts) {
				all = append(all, accountRef{tenant: t, id: t.accounts[i], wallet: t.wallets[i]})
				added = true
			}
		}
		if !added {
			break
		}
	}
	base := b.res.Scale.BaseOrders
	m := max(1, min((base+b.o.perMeasured-1)/b.o.perMeasured, len(all)/2))
	b.ds.measured, b.ds.others = all[:m], all[m:]
	b.res.Scale.Measured, b.res.Scale.PerAccount = m, base/m
}

// load creates n historical orders on accts with admission off, and switches it on again.
func (b *bench) load(ctx context.Context, accts []accountRef, n int) error {
	if err := b.hooks.off(ctx); err != nil {
		return fmt.Errorf("webhooks off: %w", err)
	}
	progress("loading %s historical orders on %d accounts (admission off)", thousands(n), len(accts))
	rate, err := loadOrders(ctx, b.c, b.ds, accts, n, b.o.loadWorkers, nil, func(done int) { progress("  %s loaded", thousands(done)) })
	if err != nil {
		return fmt.Errorf("load orders: %w", err)
	}
	b.res.Load = append(b.res.Load, loadStep{Orders: n, PerSec: rate, Note: "create + terminal status, admission off"})
	if err := b.hooks.on(ctx); err != nil {
		return fmt.Errorf("webhooks on: %w", err)
	}
	return nil
}

// start starts the production manager (or a variant of it), measures its start-up and
// heap, and logs every tenant in.
func (b *bench) start(ctx context.Context, last bool, v variant) error {
	progress("starting the manager with %s orders in the cluster %s", thousands(b.ds.orders), v.name)
	list, listBytes, err := listFloor(ctx, b.cfg, "identity")
	if err != nil {
		return err
	}
	var parts *listBreakdown
	if last {
		p, err := probeList(ctx, b.cfg, list, listBytes)
		if err != nil {
			return fmt.Errorf("LIST breakdown: %w", err)
		}
		parts = &p
		progress("one LIST of all orders, in parts: %s", p)
	}
	var endProfile func()
	if last {
		endProfile = b.profile(ctx, "startup")
	}
	if v.gateOn {
		defer overrideClientGate(clientfeatures.WatchListClient, true)()
	}
	before := measureMemory()
	if err := collectAPIServer(ctx, b.cfg); err != nil {
		return err
	}
	op, err := startOperator(ctx, b.cfg, b.hooks.wio, b.counter, v, b.archive)
	if endProfile != nil {
		endProfile()
	}
	if err != nil {
		return fmt.Errorf("start manager: %w", err)
	}
	b.op = op
	after := measureMemory()
	m := managerStart{Orders: b.ds.orders, Variant: v.name, Times: op.startup, ListAll: list, ListParts: parts, Before: before, After: after,
		PerOrder: float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(b.ds.orders)}
	b.res.Managers = append(b.res.Managers, m)
	// Signed: the heap of the manager stopped before may be collected meanwhile.
	progress("caches synced after %.2f s (API server alone: %.2f s), controllers idle after %.2f s; heap %+.0f MiB",
		m.Times.CacheSynced.Seconds(), list.Seconds(), m.Times.Idle.Seconds(), float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
	if last && b.o.memProfile != "" {
		if err := writeHeapProfile(b.o.memProfile); err != nil {
			progress("heap profile: %v", err)
		}
	}
	// Tokens name the facade's address as issuer: every start needs new ones.
	for _, t := range b.ds.tenants {
		if err := login(ctx, op.baseURL, t); err != nil {
			return err
		}
	}
	return nil
}

// stop stops the running manager and lets its caches be collected.
func (b *bench) stop() {
	if b.op != nil {
		b.op.stop()
		b.op = nil
	}
}

// listScaleStep measures the filtered list of the measured accounts (a fixed number of
// orders each), and the same answers from the map ceiling as a control for drift of the
// machine between the two steps.
func (b *bench) listScaleStep(ctx context.Context) (*readStats, *readStats, error) {
	progress("filtered list at %s orders", thousands(b.ds.orders))
	cs, err := startCeiling(ctx, b.c, b.op.baseURL)
	if err != nil {
		return nil, nil, err
	}
	defer cs.stop()
	reqs := listRequests(b.ds.measured, len(b.ds.measured))
	if err := cs.record(ctx, b.op.baseURL, reqs); err != nil {
		return nil, nil, err
	}
	// Twice the rounds of the read path, each as long: the figure compares the median of
	// the rounds' p99s, measured minutes apart.
	ours, ceiling := compare(ctx, b.op.baseURL, cs.baseURL, reqs, 8, 2*b.o.rounds, b.o.warmup, 2*b.o.duration)
	return &ours, &ceiling, nil
}

func listRequests(accts []accountRef, n int) []request {
	var out []request
	for i, a := range accts {
		if i >= n {
			break
		}
		out = append(out, request{path: "/v1/orders?account_id=" + a.id + "&limit=100", token: a.tenant.token})
	}
	return out
}

// measureReads runs each read endpoint at each concurrency against the facade and the
// ceiling.
func (b *bench) measureReads(ctx context.Context) error {
	ds, res, o := b.ds, b.res, b.o
	cs, err := startCeiling(ctx, b.c, b.op.baseURL)
	if err != nil {
		return fmt.Errorf("ceiling server: %w", err)
	}
	defer cs.stop()
	var funds []request
	for _, t := range ds.tenants {
		funds = append(funds, request{path: "/v1/funds", token: t.token})
	}
	listAccts := ds.others
	if ds.orders <= res.Scale.BaseOrders {
		listAccts = ds.measured
	}
	var gets []request
	for i, s := range ds.sample {
		if i >= o.sample {
			break
		}
		gets = append(gets, request{path: "/v1/orders/" + s.id, token: s.tenant.token})
	}
	eps := []readEndpoint{
		{name: "/v1/funds", requests: funds},
		{name: "/v1/orders?account_id=…&limit=100", requests: listRequests(listAccts, o.sample)},
		{name: "/v1/orders/{id}", requests: gets},
	}
	if !res.Served.List {
		eps[1].missing = "endpoint missing"
	}
	if !res.Served.Get {
		eps[2].missing = "endpoint missing"
	}
	for _, ep := range eps {
		if ep.missing != "" {
			for _, conc := range o.clients {
				res.Read = append(res.Read, readRow{Endpoint: ep.name, Concurrency: conc, Missing: ep.missing})
			}
			continue
		}
		if err := cs.record(ctx, b.op.baseURL, ep.requests); err != nil {
			return fmt.Errorf("record answers of %s: %w", ep.name, err)
		}
		for _, conc := range o.clients {
			progress("read path %s, %d clients", ep.name, conc)
			ours, ceil := compare(ctx, b.op.baseURL, cs.baseURL, ep.requests, conc, o.rounds, o.warmup, o.duration)
			row := readRow{Endpoint: ep.name, Concurrency: conc, Ours: &ours, Ceiling: &ceil}
			if ceil.PerSec > 0 {
				row.Figure = ours.PerSec / ceil.PerSec
			}
			res.Read = append(res.Read, row)
		}
		cs.forget()
	}
	return nil
}

// measurePipeline measures raw writes, the pipeline, and raw writes again.
func (b *bench) measurePipeline(ctx context.Context) (pipelineResult, error) {
	ds, o := b.ds, b.o
	raw, err := client.New(managerConfig(b.cfg), client.Options{Scheme: controlplane.Scheme()})
	if err != nil {
		return pipelineResult{}, err
	}
	progress("raw write ceiling, %d writers", len(ds.ceiling))
	before, err := rawWrites(ctx, raw, ds.ceiling, o.duration)
	if err != nil {
		return pipelineResult{}, fmt.Errorf("raw writes: %w", err)
	}
	accts := ds.others
	if len(accts) == 0 {
		accts = ds.measured
	}
	place, how, harnessWrites := admissionPlacer(b.c), "placed with the Kubernetes client through admission", true
	if b.res.Served.Create {
		place, how, harnessWrites = restPlacer(b.op.baseURL, o.pipelineConc), "placed through REST POST /v1/orders", false
	}
	progress("order pipeline: %d BUY orders, %s", o.pipeline, how)
	p, err := runPipeline(ctx, b.op, b.counter, place, harnessWrites, accts, ds.classes, o.pipeline, o.pipelineConc, o.pipelineTimeout)
	if err != nil && b.res.Served.Create {
		b.res.Notes = append(b.res.Notes, "REST placement failed ("+err.Error()+"); placed through admission instead")
		progress("REST placement failed (%v); placing through admission instead", err)
		if werr := waitIdle(ctx, 5*time.Minute); werr != nil {
			return p, werr
		}
		how, harnessWrites = "placed with the Kubernetes client through admission", true
		p, err = runPipeline(ctx, b.op, b.counter, admissionPlacer(b.c), harnessWrites, accts, ds.classes, o.pipeline, o.pipelineConc, o.pipelineTimeout)
	}
	if err != nil {
		return p, err
	}
	p.Placement = how
	progress("raw write ceiling again")
	after, err := rawWrites(ctx, raw, ds.ceiling, o.duration)
	if err != nil {
		return p, fmt.Errorf("raw writes: %w", err)
	}
	p.RawBefore, p.RawAfter, p.RawWritesPerSec = before, after, (before+after)/2
	p.Figure = p.OrdersPerSec * p.WritesPerOrder / p.RawWritesPerSec
	return p, nil
}

// profile starts the CPU profiles asked for when phase is the one named by -profile, and
// returns the function that ends them.
func (b *bench) profile(ctx context.Context, phase string) func() {
	if b.o.profilePhase != phase {
		return func() {}
	}
	stopAPIServer := func() {}
	if b.o.apiserverProfile != "" {
		stopAPIServer = apiserverProfile(ctx, b.cfg, b.o.apiserverProfile, b.o.apiserverSeconds)
	}
	if b.o.cpuProfile == "" {
		return stopAPIServer
	}
	f, err := os.Create(b.o.cpuProfile)
	if err != nil {
		progress("cpu profile: %v", err)
		return stopAPIServer
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		progress("cpu profile: %v", err)
		f.Close()
		return stopAPIServer
	}
	progress("CPU profile of phase %s → %s", phase, b.o.cpuProfile)
	return func() { pprof.StopCPUProfile(); f.Close(); stopAPIServer() }
}

// apiserverProfile records kube-apiserver's CPU profile (its /debug/pprof) for seconds
// from now; the returned function waits until it is written.
func apiserverProfile(ctx context.Context, cfg *rest.Config, path string, seconds int) func() {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		progress("kube-apiserver profile: %v", err)
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		u := fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", strings.TrimSuffix(cfg.Host, "/"), seconds)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		res, err := hc.Do(req)
		if err != nil {
			progress("kube-apiserver profile: %v", err)
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			progress("kube-apiserver profile: %v", err)
		}
	}()
	progress("kube-apiserver CPU profile of the next %d s → %s", seconds, path)
	return func() { <-done }
}

// gateOverride answers one client-go feature gate itself.
type gateOverride struct {
	clientfeatures.Gates
	feature clientfeatures.Feature
	enabled bool
}

func (g gateOverride) Enabled(f clientfeatures.Feature) bool {
	if f == g.feature {
		return g.enabled
	}
	return g.Gates.Enabled(f)
}

// overrideClientGate sets a client-go feature gate for reflectors built from now on
// (they read it when they are created) and returns the function that restores it.
func overrideClientGate(f clientfeatures.Feature, enabled bool) func() {
	prev := clientfeatures.FeatureGates()
	clientfeatures.ReplaceFeatureGates(gateOverride{Gates: prev, feature: f, enabled: enabled})
	return func() { clientfeatures.ReplaceFeatureGates(prev) }
}

func formatCounts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func formatLoad(m map[string]controllerLoad) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		c := m[k]
		parts = append(parts, fmt.Sprintf("%s %.0f reconciles, %.0f%% of %.0f workers busy", k, c.Reconciles, 100*c.Utilization, c.Workers))
	}
	return strings.Join(parts, "; ")
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("heap").WriteTo(f, 0)
}

// startServing starts the manager (last: see start) and probes every endpoint it serves;
// stopServing stops it, if it still runs.
func (b *bench) startServing(ctx context.Context, last bool) (endpoints, error) {
	if err := b.start(ctx, last, variant{}); err != nil {
		return endpoints{}, err
	}
	return probeEndpoints(ctx, b.op.baseURL, b.ds)
}

func (b *bench) stopServing() {
	if b.op != nil {
		b.op.stop()
	}
}
