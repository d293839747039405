package delivery

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	ordercontroller "github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// benchBatchSize is the --chain-batch-size of the batch-on run of the delivery bench.
const benchBatchSize = 50

// BenchmarkDeliveryThroughput is the delivery row of `make bench`: orders delivered per
// second on the simulated chain, with batch mints off (one mint transaction per order) and
// on (--chain-batch-size 50, --chain-batch-window 200ms), side by side in one run on one
// control plane. benchOrders BUY orders are created EXECUTED; the order controller and the
// chain agent (1 confirmation) then run them to COMPLETED while the chain mines a block
// every 200 ms. Reported: orders/s from the agent's start to the last COMPLETED, orders
// initiated per second, orders minted per block and the mint transactions sent.
func BenchmarkDeliveryThroughput(b *testing.B) {
	const benchOrders = 200
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	ctx := context.Background()
	for _, run := range []struct {
		name string
		size int
	}{{"batch=off", 1}, {fmt.Sprintf("batch=%d", benchBatchSize), benchBatchSize}} {
		b.Run(run.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res := deliverOnce(b, ctx, e, benchOrders, run.size)
				b.ReportMetric(res.rate, "orders/s")
				b.ReportMetric(res.sentRate, "initiated/s")
				b.ReportMetric(res.perBlock, "orders/block")
				b.ReportMetric(float64(res.txs), "mint-txs")
				b.ReportMetric(res.requests.statusWrites()/float64(benchOrders), "status-writes/order")
				b.ReportMetric(res.requests.events()/float64(benchOrders), "events/order")
				b.Logf("API requests for %d orders: %s", benchOrders, res.requests)
			}
		})
	}
}

// BenchmarkStrikeDelivered is issue 23's "strike delivered" row of `make bench`: the
// orders of a strike (10,000; STRIKE_DELIVERED_ORDERS sets another number), created
// EXECUTED as the strike leaves them, delivered by the order controller and the chain
// agent with batch mints of strikeBatchSize (window 200 ms) on the simulated chain, a
// block every 200 ms, 1 confirmation. Reported: the seconds from the agent's start to the
// last order COMPLETED (the target: every order DELIVERY_COMPLETED ≤ 120 s after the
// strike), orders/s, orders initiated per second and the mint transactions.
func BenchmarkStrikeDelivered(b *testing.B) {
	n := 10_000
	if v := os.Getenv("STRIKE_DELIVERED_ORDERS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("STRIKE_DELIVERED_ORDERS=%q: want a positive number", v)
		}
	}
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	b.Run(fmt.Sprintf("orders=%d/batch=%d", n, strikeBatchSize), func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res := deliverOnce(b, context.Background(), e, n, strikeBatchSize)
			b.ReportMetric(float64(n)/res.rate, "seconds")
			b.ReportMetric(res.rate, "orders/s")
			b.ReportMetric(res.sentRate, "initiated/s")
			b.ReportMetric(float64(res.txs), "mint-txs")
			b.ReportMetric(res.requests.statusWrites()/float64(n), "status-writes/order")
			b.ReportMetric(res.requests.events()/float64(n), "events/order")
			b.Logf("API requests for %d orders: %s", n, res.requests)
		}
	})
}

// executedAsWritten gives an EXECUTED order (created, so with its generation) the
// conditions and observed generation that the write which executed it leaves (the
// strike's, or the order controller's), so that the bench counts the delivery's writes
// only and not one the order controller would add to write the conditions.
func executedAsWritten(o *investv1.Order, now time.Time) {
	m := lifecycle.Decide(o, lifecycle.Facts{Now: now, FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true, Priced: true, Reservation: lifecycle.ReservationNotNeeded})
	lifecycle.SetConditions(o, m.Wait, nil, m.Refused)
	o.Status.ObservedGeneration = o.Generation
}

// strikeBatchSize is the --chain-batch-size of BenchmarkStrikeDelivered.
const strikeBatchSize = 100

// deliveryResult is one run of the delivery bench.
type deliveryResult struct {
	rate, perBlock, sentRate float64
	txs                      int
	requests                 requests // the API server's, from the agent's start to the last order COMPLETED
}

func deliverOnce(b *testing.B, ctx context.Context, e *envtest.Environment, n, batchSize int) (res deliveryResult) {
	b.Helper()
	b.StopTimer()
	k := e.Client
	ns, err := controlplane.NewNamespace(ctx, k, "delivery-bench")
	if err != nil {
		b.Fatal(err)
	}
	c := chaintest.New(b)
	body := fmt.Sprintf("XS%09d", rand.IntN(1_000_000_000))
	d, err := validation.ISINCheckDigit(body)
	if err != nil {
		b.Fatal(err)
	}
	isin := investv1.ISIN(body + string(d))
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, string(isin))
	account := controlplane.NewID()
	addr := c.NewWallet()
	wal := fixtures.Wallet(ns, account, addr.Hex())
	for _, obj := range []client.Object{fund, sc, wal} {
		if err := k.Create(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
	c.Register(addr)
	orders := make([]*investv1.Order, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	writers := make(chan struct{}, 32) // the API server answers 429 to thousands at once
	for i := range n {
		o := fixtures.BuyOrder(ns, account, string(isin), int64(1+i%10))
		o.Spec.WalletID = investv1.ObjectID(wal.Name)
		orders[i] = o
		wg.Add(1)
		writers <- struct{}{}
		go func() {
			defer func() { <-writers }()
			defer wg.Done()
			if err := k.Create(ctx, o); err != nil {
				errs <- err
				return
			}
			now := metav1.Now()
			for _, s := range []investv1.OrderState{investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted} {
				o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: now, Reason: "Bench"})
			}
			o.Status.State = investv1.StateExecuted
			o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "BENCH", At: now}
			executedAsWritten(o, now.Time)
			if err := k.Status().Update(ctx, o); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}

	counted, err := apiRequests(ctx, e.Config)
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	start := time.Now()
	// As in production (ctrl.GetConfig) and hack/bench: no client-side rate limit; the API
	// server's priority and fairness limits the manager.
	cfg := rest.CopyConfig(e.Config)
	cfg.QPS = -1
	mgr, err := e.RunManager(cfg, envtest.ManagerOptions{
		New: func(cfg *rest.Config, opts ctrl.Options) (ctrl.Manager, error) {
			m, err := ctrl.NewManager(cfg, opts)
			if err != nil {
				return nil, err
			}
			return m, index.Register(ctx, m.GetFieldIndexer())
		},
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			if err := (&ordercontroller.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("order-controller"), Now: time.Now}).SetupWithManager(mgr); err != nil {
				return err
			}
			rt, err := agent.NewRuntime(c.Client, c.Agent, c.ChainID, 1, 0, mgr)
			if err != nil {
				return err
			}
			rt.BatchSize, rt.BatchWindow = batchSize, 200*time.Millisecond
			return Setup(mgr, rt, agent.StaticTokens{isin: {Address: c.Token, ChainID: c.ChainID.Int64()}})
		},
		SkipNameValidation: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = mgr.Close() }()
	stop := c.Mine(200 * time.Millisecond)
	defer stop()
	// Polled from the manager's cache, so that the bench's own reads do not load the API
	// server; a larger run is polled less often.
	limit, poll := max(5*time.Minute, time.Duration(n)*200*time.Millisecond), 50*time.Millisecond
	if n > 1_000 {
		poll = 500 * time.Millisecond
	}
	deadline := time.Now().Add(limit)
	for {
		var list investv1.OrderList
		if err := mgr.GetClient().List(ctx, &list, client.InNamespace(ns)); err != nil {
			b.Fatal(err)
		}
		done, initiated := 0, 0
		for i := range list.Items {
			if list.Items[i].Status.State == investv1.StateCompleted {
				done++
			}
			if list.Items[i].Status.Settlement.DeliveryInitiated != nil {
				initiated++
			}
		}
		if initiated == n && res.sentRate == 0 {
			res.sentRate = float64(n) / time.Since(start).Seconds()
		}
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d orders completed in %s", done, n, limit)
		}
		time.Sleep(poll)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	after, err := apiRequests(ctx, e.Config)
	if err != nil {
		b.Fatal(err)
	}
	res.requests = after.minus(counted)
	stop()
	mints := c.Mints(c.Token, addr)
	if len(mints) != n {
		b.Fatalf("%d mints for %d orders", len(mints), n)
	}
	blocks := map[uint64]bool{}
	txs := map[string]bool{}
	for _, m := range mints {
		blocks[m.Block] = true
		txs[m.TxHash.Hex()] = true
	}
	if batchSize <= 1 && len(txs) != n {
		b.Fatalf("batch off: %d mint transactions for %d orders", len(txs), n)
	}
	res.rate, res.perBlock, res.txs = float64(n)/elapsed.Seconds(), float64(n)/float64(len(blocks)), len(txs)
	return res
}
