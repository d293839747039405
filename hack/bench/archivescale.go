package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver of archiveBytes
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

// The archive scale run (-archive-scale) measures issue 15's targets: a platform with
// -total orders placed in all, of which -orders are live (in the cluster) and the rest in
// the order archive, beside the same cluster with only the live orders and no history,
// in one run:
//
//  1. base (-base-orders in all): half of them live on the measured accounts (through
//     the API server), half archived on the same accounts (the archive's own write path,
//     PutMany); the manager with the archive; the filtered list of the measured accounts
//     and every tenant's unfiltered list, each beside the map ceiling;
//  2. the live-only baseline: the other live orders loaded; etcd compacted and
//     defragmented; the manager started without an archive (no history): start-up,
//     heap, kube-apiserver RSS, etcd's database size;
//  3. history: the archive seeded to -total through PutMany; then -flow orders loaded
//     (no manager running) whose last transitions make them all due at one moment under
//     a retention of 1 minute, and the manager started with the archive and that
//     retention: the retention controller archives and deletes them (the real path: full
//     read, Put, read back, delete), timed from that moment to the last deletion;
//  4. the full cluster: etcd compacted and defragmented as an operator would after the
//     deletions, the manager started with the archive: the same figures as the baseline,
//     the lists again, GET of archived against GET of live orders, and the order
//     pipeline, whose throughput archiving must double.

// archiveScale is the result of an archive scale run.
type archiveScale struct {
	Total        int    `json:"total_orders"`
	Live         int    `json:"live_orders"`
	Archived     int    `json:"archived_orders"`
	BaseLive     int    `json:"base_live_orders"`
	BaseArchived int    `json:"base_archived_orders"`
	Flow         int    `json:"flow_orders"`
	Backend      string `json:"archive_backend"`
	Retention    string `json:"retention"`
	// SeedPerSec is the rate of the archive's seed through PutMany.
	SeedPerSec  float64 `json:"seed_orders_per_s"`
	SeedSeconds float64 `json:"seed_seconds"`
	// ArchiveBytes is the archive database's size on disk after the run (SQLite: the file and
	// its write-ahead log; PostgreSQL: pg_database_size).
	ArchiveBytes int64 `json:"archive_bytes,omitempty"`

	Baseline *clusterState `json:"baseline_live_only,omitempty"`
	Full     *clusterState `json:"full,omitempty"`

	Filtered   listScale `json:"filtered_list"`
	Unfiltered listScale `json:"unfiltered_list"`

	GetLive     *readStats `json:"get_live,omitempty"`
	GetArchived *readStats `json:"get_archived,omitempty"`

	// FlowSeconds is from the moment the flow orders became due to the last one's deletion.
	FlowSeconds   float64 `json:"flow_seconds"`
	FlowPerSec    float64 `json:"flow_orders_per_s"`
	FlowArchived  int     `json:"flow_archived"`
	FlowDueLateBy float64 `json:"flow_due_after_idle_s"`
	FlowErr       string  `json:"flow_error,omitempty"`
}

// clusterState is one side of the memory and size comparison.
type clusterState struct {
	Label string `json:"label"`
	// Start is the manager start (an entry of results.Managers).
	Start        managerStart `json:"manager_start"`
	ManagerHeap  uint64       `json:"manager_heap_bytes"`
	APIServerRSS uint64       `json:"kube_apiserver_rss_bytes"`
	EtcdBefore   etcdStatus   `json:"etcd_before_compaction"`
	EtcdAfter    etcdStatus   `json:"etcd_after_compaction_defrag"`
	OrdersInEtcd int          `json:"orders_in_cluster"`
}

// runArchiveScale is the -archive-scale run, after the control plane and the tenants.
func (b *bench) runArchiveScale(ctx context.Context, env *envtest.Environment) error {
	o, res := b.o, b.res
	retention := 90 * 24 * time.Hour // the manager's default --order-retention
	a := &archiveScale{Total: o.total, Live: o.orders, Flow: o.flow, Retention: "2160h (the manager's default); 1m for the flow"}
	res.Archive = a
	a.BaseLive = res.Scale.BaseOrders / 2
	a.BaseArchived = res.Scale.BaseOrders - a.BaseLive
	a.Archived = o.total - o.orders
	if a.Archived < a.BaseArchived || o.orders < a.BaseLive {
		return fmt.Errorf("-total %d and -orders %d leave no room for the base step's %d live and %d archived orders", o.total, o.orders, a.BaseLive, a.BaseArchived)
	}
	store, backend, path, cleanup, err := openBenchArchive(ctx, o.archiveDSN)
	if err != nil {
		return err
	}
	defer cleanup()
	a.Backend = backend
	etcdURL := env.ControlPlane.Etcd.URL.String()

	// A done order's retention runs from its last transition or its creation, whichever
	// is later, and the API server dates the creation of every order loaded through it:
	// now. Live orders' lifecycles start when they are loaded (an hour per step, so they
	// complete some hours "later"): no retention of the run reaches them. Archived ones
	// were placed 100 days to a year ago.
	recent := func(*rand.Rand) time.Time { return time.Now() }
	old := within(time.Now().Add(-100*24*time.Hour), 265*24*time.Hour)

	// Step 1: the base, half live and half archived, all on the measured accounts.
	if err := b.loadWith(ctx, b.ds.measured, a.BaseLive, recent); err != nil {
		return err
	}
	if _, err := b.seedArchive(ctx, store, b.ds.measured, a.BaseArchived, old); err != nil {
		return err
	}
	b.archive = archiveConfig{store: store, retention: retention}
	defer b.stopServing()
	if res.Served, err = b.startServing(ctx, false); err != nil {
		return err
	}
	a.Filtered = listScale{OrdersBase: res.Scale.BaseOrders, OrdersFull: o.total}
	a.Unfiltered = listScale{OrdersBase: res.Scale.BaseOrders, OrdersFull: o.total}
	if a.Filtered.Base, a.Filtered.BaseCeiling, err = b.scaleStep(ctx, "filtered list", listRequests(b.ds.measured, len(b.ds.measured))); err != nil {
		return err
	}
	if a.Unfiltered.Base, a.Unfiltered.BaseCeiling, err = b.scaleStep(ctx, "unfiltered list", b.unfilteredRequests()); err != nil {
		return err
	}
	b.stop()

	// Step 2: the live orders only, no history.
	if err := b.loadWith(ctx, b.ds.others, o.orders-a.BaseLive, recent); err != nil {
		return err
	}
	liveSample := append([]orderRef(nil), b.ds.sample...)
	b.archive = archiveConfig{}
	if a.Baseline, err = b.measureCluster(ctx, etcdURL, fmt.Sprintf("%s live orders, no history (no archive)", thousands(b.ds.orders))); err != nil {
		return err
	}
	b.stop()

	// Step 3: the history, then a flow of orders through retention.
	seeded, err := b.seedArchive(ctx, store, b.ds.others, a.Archived-a.BaseArchived-o.flow, old)
	if err != nil {
		return err
	}
	b.archive = archiveConfig{store: store, retention: flowRetention}
	if err := b.retentionFlow(ctx, a, flowRetention); err != nil {
		return err
	}
	b.stop()

	// Step 4: the full cluster.
	b.archive = archiveConfig{store: store, retention: retention}
	if a.Full, err = b.measureCluster(ctx, etcdURL, fmt.Sprintf("%s orders in all: %s live, %s archived", thousands(o.total), thousands(b.ds.orders), thousands(a.Archived))); err != nil {
		return err
	}
	if a.Filtered.Full, a.Filtered.FullCeiling, err = b.scaleStep(ctx, "filtered list", listRequests(b.ds.measured, len(b.ds.measured))); err != nil {
		return err
	}
	if a.Unfiltered.Full, a.Unfiltered.FullCeiling, err = b.scaleStep(ctx, "unfiltered list", b.unfilteredRequests()); err != nil {
		return err
	}
	for _, l := range []*listScale{&a.Filtered, &a.Unfiltered} {
		l.Ratio = l.Full.P99Median / l.Base.P99Median
		l.CeilingRatio = l.FullCeiling.P99Median / l.BaseCeiling.P99Median
	}
	progress("GET /v1/orders/{id}: live against archived orders")
	a.GetLive, a.GetArchived = compareSets(ctx, b.op.baseURL, getRequests(liveSample, b.o.sample), getRequests(seeded, b.o.sample), 8, 2*b.o.rounds, b.o.warmup, 2*b.o.duration)
	if o.pipeline > 0 {
		p, err := b.measurePipeline(ctx)
		if err != nil {
			return err
		}
		res.Pipeline = &p
	}
	// The size is a note beside the figures: a failure to read it loses no measurement.
	if a.ArchiveBytes, err = archiveBytes(ctx, o.archiveDSN, path); err != nil {
		progress("archive size unknown: %v", err)
	}
	return nil
}

// archiveBytes is the archive database's size: the SQLite file and its write-ahead log at
// path, or PostgreSQL's own figure for the database of dsn (path "").
func archiveBytes(ctx context.Context, dsn, path string) (int64, error) {
	if path != "" {
		var n int64
		for _, f := range []string{path, path + "-wal"} {
			if d, err := os.Stat(f); err == nil {
				n += d.Size()
			}
		}
		return n, nil
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close() }()
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT pg_database_size(current_database())").Scan(&n); err != nil {
		return 0, fmt.Errorf("archive database size: %w", err)
	}
	return n, nil
}

// openBenchArchive opens the archive of the run: dsn, or a new SQLite file in a
// temporary folder (removed by cleanup). path is the SQLite file, "" for PostgreSQL.
func openBenchArchive(ctx context.Context, dsn string) (store archive.Store, backend, path string, cleanup func(), err error) {
	cleanup = func() {}
	if dsn == "" {
		dir, err := os.MkdirTemp("", "fundshare-bench-archive-")
		if err != nil {
			return nil, "", "", nil, err
		}
		cleanup = func() { _ = os.RemoveAll(dir) }
		dsn = "sqlite://" + filepath.Join(dir, "archive.db")
	}
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		cleanup()
		return nil, "", "", nil, err
	}
	s, err := sqlstore.OpenDSN(ctx, d, sqlstore.Options{})
	if err != nil {
		cleanup()
		return nil, "", "", nil, err
	}
	if d.Backend == archive.BackendSQLite {
		path = d.Path
	}
	c := cleanup
	return s, string(d.Backend), path, func() { _ = s.Close(); c() }, nil
}

// loadWith loads n orders on accts through the API server (admission off), placed as
// life says.
func (b *bench) loadWith(ctx context.Context, accts []accountRef, n int, life placedAt) error {
	if err := b.hooks.off(ctx); err != nil {
		return fmt.Errorf("webhooks off: %w", err)
	}
	progress("loading %s orders on %d accounts through the API server (admission off)", thousands(n), len(accts))
	rate, err := loadOrders(ctx, b.c, b.ds, accts, n, b.o.loadWorkers, life, func(done int) { progress("  %s loaded", thousands(done)) })
	if err != nil {
		return fmt.Errorf("load orders: %w", err)
	}
	b.res.Load = append(b.res.Load, loadStep{Orders: n, PerSec: rate, Note: "live, through the API server: create + terminal status, admission off"})
	return b.hooks.on(ctx)
}

// seedArchive writes n historical orders on accts into the archive through its own
// batch write path (Store.PutMany, 1,000 orders a transaction), and returns a sample of
// them for GET.
func (b *bench) seedArchive(ctx context.Context, store archive.Store, accts []accountRef, n int, life placedAt) ([]orderRef, error) {
	if n <= 0 {
		return nil, nil
	}
	progress("seeding the archive with %s orders on %d accounts (Store.PutMany)", thousands(n), len(accts))
	const batch = 1000
	batches := make(chan []archive.Entry, 4)
	var sample []orderRef
	var mu sync.Mutex
	every := max(1, n/200)
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var wg sync.WaitGroup
	seed := uint64(time.Now().UnixNano())
	var genErr error
	var once sync.Once
	for range 2 {
		wg.Go(func() {
			for gctx.Err() == nil {
				first := int(next.Add(batch)) - batch
				if first >= n {
					return
				}
				es := make([]archive.Entry, 0, batch)
				for i := first; i < min(first+batch, n); i++ {
					rng := rand.New(rand.NewPCG(seed, uint64(i)))
					acct := accts[i%len(accts)]
					start := life(rng).Truncate(time.Second)
					o, status, err := historicalOrder(rng, acct.tenant.ns, acct, b.ds.classes[i%len(b.ds.classes)], start)
					if err != nil {
						once.Do(func() { genErr = err; cancel() })
						return
					}
					o.UID = types.UID(uuid.NewString())
					o.CreationTimestamp = metav1.NewTime(start)
					o.Generation, o.ResourceVersion = 1, "1"
					o.Status = status
					o.Status.ObservedGeneration = 1
					es = append(es, archive.Entry{Order: o, AccountType: investv1.AccountTypeIndividual})
					if i%every == 0 {
						mu.Lock()
						sample = append(sample, orderRef{tenant: acct.tenant, id: o.Name})
						mu.Unlock()
					}
				}
				select {
				case batches <- es:
				case <-gctx.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(batches) }()
	start := time.Now()
	done := 0
	var putErr error
	for es := range batches {
		if putErr != nil {
			continue
		}
		if err := store.PutMany(ctx, es); err != nil {
			putErr = err
			cancel()
			continue
		}
		done += len(es)
		if done%50_000 < batch {
			progress("  %s archived", thousands(done))
		}
	}
	if genErr != nil {
		return nil, genErr
	}
	if putErr != nil {
		return nil, fmt.Errorf("seed the archive: %w", putErr)
	}
	secs := time.Since(start).Seconds()
	if a := b.res.Archive; a != nil {
		a.SeedSeconds += secs
		a.SeedPerSec = float64(done) / secs
	}
	b.res.Load = append(b.res.Load, loadStep{Orders: done, PerSec: float64(done) / secs, Note: "archived, through Store.PutMany (1,000 a transaction), generation included"})
	return sample, nil
}

// measureCluster compacts and defragments etcd, starts the manager as configured, and
// measures its heap and start-up, kube-apiserver's RSS, and etcd's database size.
func (b *bench) measureCluster(ctx context.Context, etcdURL, label string) (*clusterState, error) {
	st := &clusterState{Label: label, OrdersInEtcd: b.ds.orders}
	var err error
	progress("etcd: compaction and defragmentation")
	if st.EtcdBefore, st.EtcdAfter, err = compactDefrag(ctx, etcdURL); err != nil {
		return nil, err
	}
	progress("etcd database %s before, %s after (in use %s)", mib(uint64(st.EtcdBefore.DBSize)), mib(uint64(st.EtcdAfter.DBSize)), mib(uint64(st.EtcdAfter.DBSizeInUse)))
	if err := b.start(ctx, false, variant{}); err != nil {
		return nil, err
	}
	st.Start = b.res.Managers[len(b.res.Managers)-1]
	st.ManagerHeap = uint64(max(0, int64(st.Start.After.HeapAlloc)-int64(st.Start.Before.HeapAlloc)))
	if err := collectAPIServer(ctx, b.cfg); err != nil {
		return nil, err
	}
	time.Sleep(2 * time.Second)
	st.APIServerRSS = processRSS(apiserverPID())
	progress("%s: manager heap %s, kube-apiserver RSS %s", label, mib(st.ManagerHeap), mib(st.APIServerRSS))
	return st, nil
}

// flowRetention is the retention of the manager that archives the flow orders.
const flowRetention = time.Minute

// retentionFlow loads the flow orders while no manager runs (as every load: no
// controller sees an order between its create and its terminal status), each done
// exactly retention before a moment shortly after the load, starts the manager with
// retention, and times the retention controller archiving and deleting them all from
// that moment on.
func (b *bench) retentionFlow(ctx context.Context, a *archiveScale, retention time.Duration) error {
	n := b.o.flow
	if n <= 0 {
		return nil
	}
	// Due after the load (~150 orders/s) and the controllers' reaction to it (the account
	// controller recomputes the holdings of every account that got an order).
	due := time.Now().Add(b.o.flowMargin)
	// Done when the load is over (so that their creation, during the load, is earlier),
	// due retention later.
	b.ds.shift = func(st *investv1.OrderStatus) { doneAt(st, due.Add(-retention)) }
	if b.o.flowMargin < retention+time.Minute {
		return fmt.Errorf("-flow-margin %s: must be at least the flow's retention (%s) and a minute for the load", b.o.flowMargin, retention)
	}
	before := archivedCounter()
	err := b.loadWith(ctx, b.ds.others, n, within(time.Now().Add(-100*24*time.Hour), 30*24*time.Hour))
	b.ds.shift = nil
	if err != nil {
		return err
	}
	// The counter is watched from the due moment on, whether or not the manager's start
	// (which waits for its controllers to be idle) has returned by then.
	type flowEnd struct {
		at  time.Time
		got int
	}
	ended := make(chan flowEnd, 1)
	go func() {
		time.Sleep(time.Until(due))
		deadline := time.Now().Add(15 * time.Minute)
		for {
			got := int(archivedCounter() - before)
			if got >= n || time.Now().After(deadline) || ctx.Err() != nil {
				ended <- flowEnd{at: time.Now(), got: got}
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	if err := b.start(ctx, false, variant{}); err != nil {
		return err
	}
	if late := time.Since(due); late > 0 {
		a.FlowDueLateBy = late.Seconds()
		progress("the controllers were idle %.1f s after the flow orders became due", late.Seconds())
	}
	progress("retention flow: %s orders due at %s", thousands(n), due.Format("15:04:05"))
	end := <-ended
	a.FlowArchived = end.got
	if end.got < n {
		a.FlowErr = fmt.Sprintf("%d of %d archived after 15 minutes", end.got, n)
	}
	a.FlowSeconds = end.at.Sub(due).Seconds()
	a.FlowPerSec = float64(a.FlowArchived) / a.FlowSeconds
	b.ds.orders -= a.FlowArchived
	var left investv1.OrderList
	if err := b.c.List(ctx, &left, client.Limit(1)); err == nil && left.RemainingItemCount != nil {
		progress("orders left in the cluster: %d", *left.RemainingItemCount+1)
	}
	progress("retention archived %d orders in %.1f s (%.1f orders/s)", a.FlowArchived, a.FlowSeconds, a.FlowPerSec)
	return waitIdle(ctx, 40*time.Minute)
}

// archivedCounter reads fundshare_retention_orders_archived_total of the manager (it runs
// in this process).
func archivedCounter() float64 {
	families, err := metrics.Registry.Gather()
	if err != nil {
		return 0
	}
	for _, f := range families {
		if f.GetName() == "fundshare_retention_orders_archived_total" {
			var sum float64
			for _, m := range f.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
			return sum
		}
	}
	return 0
}

// unfilteredRequests is every tenant's first page of GET /v1/orders without filters.
func (b *bench) unfilteredRequests() []request {
	out := make([]request, 0, len(b.ds.tenants))
	for _, t := range b.ds.tenants {
		out = append(out, request{path: "/v1/orders?limit=100", token: t.token})
	}
	return out
}

func getRequests(sample []orderRef, n int) []request {
	var out []request
	for i, s := range sample {
		if i >= n {
			break
		}
		out = append(out, request{path: "/v1/orders/" + s.id, token: s.tenant.token})
	}
	return out
}

// scaleStep measures reqs on the facade beside the map ceiling, as the filtered list's
// scale step does.
func (b *bench) scaleStep(ctx context.Context, what string, reqs []request) (*readStats, *readStats, error) {
	progress("%s at %s live orders", what, thousands(b.ds.orders))
	cs, err := startCeiling(ctx, b.c, b.op.baseURL)
	if err != nil {
		return nil, nil, err
	}
	defer cs.stop()
	if err := cs.record(ctx, b.op.baseURL, reqs); err != nil {
		return nil, nil, err
	}
	ours, ceiling := compare(ctx, b.op.baseURL, cs.baseURL, reqs, 8, 2*b.o.rounds, b.o.warmup, 2*b.o.duration)
	return &ours, &ceiling, nil
}

// compareSets measures two request sets against one server in alternating rounds.
func compareSets(ctx context.Context, baseURL string, a, b []request, conc, rounds int, warmup, dur time.Duration) (*readStats, *readStats) {
	hc := httpClient(conc)
	defer hc.CloseIdleConnections()
	var sa, sb sample
	alternate(rounds, warmup, dur,
		func(w, per time.Duration) { sa.merge(round(hammer(ctx, hc, baseURL, a, conc, w, per))) },
		func(w, per time.Duration) { sb.merge(round(hammer(ctx, hc, baseURL, b, conc, w, per))) })
	x, y := sa.stats(), sb.stats()
	return &x, &y
}

// Names of the archive scale targets.
const (
	tStartup    = "archive scale: start-up"
	tHeap       = "archive scale: manager heap"
	tAPIServer  = "archive scale: kube-apiserver RSS"
	tEtcd       = "archive scale: etcd database size"
	tGet        = "archive scale: archived GET p99"
	tFiltered   = "archive scale: filtered list p99"
	tUnfiltered = "archive scale: unfiltered list p99"
	tArchiving  = "archive scale: archiving throughput"
)

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// targets are issue 15's targets of the run.
func (a *archiveScale) targets(p *pipelineResult) []target {
	var out []target
	if a.Full != nil && a.Baseline != nil {
		f, bl := a.Full, a.Baseline
		out = append(out,
			target{tStartup, fmt.Sprintf("%.2f s to REST ready", f.Start.Times.RESTReady.Seconds()), "≤ 10 s", verdict(f.Start.Times.RESTReady <= 10*time.Second)},
			target{tHeap, fmt.Sprintf("%.2f×", ratio(float64(f.ManagerHeap), float64(bl.ManagerHeap))), "≤ 1.2×", verdict(ratio(float64(f.ManagerHeap), float64(bl.ManagerHeap)) <= 1.2)},
			target{tAPIServer, fmt.Sprintf("%.2f×", ratio(float64(f.APIServerRSS), float64(bl.APIServerRSS))), "≤ 1.2×", verdict(ratio(float64(f.APIServerRSS), float64(bl.APIServerRSS)) <= 1.2)},
			target{tEtcd, fmt.Sprintf("%.2f×", ratio(float64(f.EtcdAfter.DBSize), float64(bl.EtcdAfter.DBSize))), "≤ 1.2×", verdict(ratio(float64(f.EtcdAfter.DBSize), float64(bl.EtcdAfter.DBSize)) <= 1.2)},
		)
	}
	if a.GetLive != nil && a.GetArchived != nil {
		x := ratio(a.GetArchived.P99Median, a.GetLive.P99Median)
		out = append(out, target{tGet, fmt.Sprintf("%.2f× live", x), "≤ 2× live", verdict(x <= 2 && a.GetArchived.Errors == 0)})
	}
	for _, l := range []struct {
		name string
		s    *listScale
	}{{tFiltered, &a.Filtered}, {tUnfiltered, &a.Unfiltered}} {
		if l.s.Full != nil {
			out = append(out, target{l.name, fmt.Sprintf("%.2f×", l.s.corrected()), "≤ 2× (1,000 → 1,000,000)", verdict(l.s.corrected() <= 2 && l.s.Full.Errors == 0)})
		}
	}
	if p != nil && a.FlowPerSec > 0 {
		x := ratio(a.FlowPerSec, p.OrdersPerSec)
		out = append(out, target{tArchiving, fmt.Sprintf("%.2f× the pipeline", x), "≥ 2×", verdict(x >= 2 && a.FlowErr == "")})
	}
	return out
}

// printRows writes the archive scale rows of the table.
func (a *archiveScale) printRows(row func(...string), targetOf func(string) (string, string), p *pipelineResult) {
	at := fmt.Sprintf("%s orders (%s live, %s archived)", thousands(a.Total), thousands(a.Live), thousands(a.Archived))
	if f, bl := a.Full, a.Baseline; f != nil && bl != nil {
		tg, res := targetOf(tStartup)
		row("start-up, "+at, startup(f.Start), "live orders only, no archive: "+startup(bl.Start), fmt.Sprintf("%.2f s", f.Start.Times.RESTReady.Seconds()), tg+" (to REST ready)", res)
		tg, res = targetOf(tHeap)
		row("manager heap after start (caches synced, controllers idle), "+at, fmt.Sprintf("%s (process RSS %s)", mib(f.ManagerHeap), mib(f.Start.After.RSS)),
			fmt.Sprintf("%s (process RSS %s)", mib(bl.ManagerHeap), mib(bl.Start.After.RSS)), fmt.Sprintf("%.2f×", ratio(float64(f.ManagerHeap), float64(bl.ManagerHeap))), tg, res)
		tg, res = targetOf(tAPIServer)
		row("kube-apiserver RSS after the manager's start, "+at, mib(f.APIServerRSS), mib(bl.APIServerRSS), fmt.Sprintf("%.2f×", ratio(float64(f.APIServerRSS), float64(bl.APIServerRSS))), tg, res)
		tg, res = targetOf(tEtcd)
		row("etcd database after compaction + defragmentation, "+at, fmt.Sprintf("%s (before: %s)", mib(uint64(f.EtcdAfter.DBSize)), mib(uint64(f.EtcdBefore.DBSize))),
			fmt.Sprintf("%s (before: %s)", mib(uint64(bl.EtcdAfter.DBSize)), mib(uint64(bl.EtcdBefore.DBSize))), fmt.Sprintf("%.2f×", ratio(float64(f.EtcdAfter.DBSize), float64(bl.EtcdAfter.DBSize))), tg, res)
	}
	if a.GetLive != nil && a.GetArchived != nil {
		tg, res := targetOf(tGet)
		row(fmt.Sprintf("`GET /v1/orders/{id}` of archived orders (median of %d rounds' p99), 8 clients, %s", len(a.GetArchived.RoundP99), at),
			fmt.Sprintf("%s; p99 median %.2f ms", stats(a.GetArchived), a.GetArchived.P99Median),
			fmt.Sprintf("live orders: %s; p99 median %.2f ms", stats(a.GetLive), a.GetLive.P99Median),
			fmt.Sprintf("%.2f×", ratio(a.GetArchived.P99Median, a.GetLive.P99Median)), tg, res)
	}
	for _, l := range []struct {
		name, label string
		s           *listScale
	}{
		{tFiltered, "filtered list `GET /v1/orders?account_id=…&limit=100` over live + archived (20 orders per account, half archived)", &a.Filtered},
		{tUnfiltered, "unfiltered list `GET /v1/orders?limit=100`, every tenant", &a.Unfiltered},
	} {
		if l.s.Base == nil || l.s.Full == nil {
			continue
		}
		tg, res := targetOf(l.name)
		row(fmt.Sprintf("%s, p99 (median of %d rounds' p99; 8 clients), %s → %s orders", l.label, len(l.s.Base.RoundP99), thousands(l.s.OrdersBase), thousands(l.s.OrdersFull)),
			fmt.Sprintf("%.2f ms → %.2f ms (%.2f×; pooled p99 %.2f → %.2f ms)", l.s.Base.P99Median, l.s.Full.P99Median, l.s.Ratio, l.s.Base.P99, l.s.Full.P99),
			fmt.Sprintf("%.2f ms → %.2f ms (%.2f×; pooled %.2f → %.2f ms)", l.s.BaseCeiling.P99Median, l.s.FullCeiling.P99Median, l.s.CeilingRatio, l.s.BaseCeiling.P99, l.s.FullCeiling.P99),
			fmt.Sprintf("%.2f× (ours ÷ ceiling)", l.s.corrected()), tg, res)
	}
	if p != nil && a.FlowPerSec > 0 {
		tg, res := targetOf(tArchiving)
		ours := fmt.Sprintf("%d orders archived and deleted by retention in %.1f s = %.1f orders/s", a.FlowArchived, a.FlowSeconds, a.FlowPerSec)
		if a.FlowErr != "" {
			ours += " (" + a.FlowErr + ")"
		}
		row("archiving throughput ("+a.Backend+" archive), "+at, ours, fmt.Sprintf("order pipeline: %.1f orders/s", p.OrdersPerSec),
			fmt.Sprintf("%.2f×", ratio(a.FlowPerSec, p.OrdersPerSec)), tg, res)
	}
	if a.SeedSeconds > 0 {
		row(fmt.Sprintf("archive seed (%s, Store.PutMany)", a.Backend), fmt.Sprintf("%s orders in %.0f s; database %s", thousands(a.Archived), a.SeedSeconds, mib(uint64(a.ArchiveBytes))), "", "", "", "")
	}
}
