package delivery

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
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
	"github.com/fundshare/fundshare-operator/internal/secondary"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// BenchmarkSecondarySettled is issue 26's settlement row of `make bench`: a matched window
// of SECONDARY_SETTLE_PAIRS (default 500) SELLs and as many BUYs of the same sizes (1 to
// 10 units; 100 seller and 100 buyer wallets on the simulated chain), created EXECUTED with
// their fills and the window's recorded book, as the window controller leaves them. The
// order controller and the chain agent (batch settlements of settleBatchSize BUYs, window
// 200 ms, one batchSettleWithRefs transaction each, 1 confirmation) then settle them while
// the chain mines a block every 200 ms. Timed from
// the agent's start until every BUY is COMPLETED and every SELL has unitsDelivered
// (its payout is the bank's, not measured here). Reported: seconds, orders/s, and the
// settle transactions; the token's totalSupply is checked unchanged.
func BenchmarkSecondarySettled(b *testing.B) {
	pairs := 500
	if v := os.Getenv("SECONDARY_SETTLE_PAIRS"); v != "" {
		var err error
		if pairs, err = strconv.Atoi(v); err != nil || pairs < 1 {
			b.Fatalf("SECONDARY_SETTLE_PAIRS=%q: want a positive number", v)
		}
	}
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	b.Run(fmt.Sprintf("pairs=%d", pairs), func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			secs, txs := settleOnce(b, context.Background(), e, pairs)
			b.ReportMetric(secs, "seconds")
			b.ReportMetric(float64(2*pairs)/secs, "orders/s")
			b.ReportMetric(float64(txs), "settle-txs")
		}
	})
}

// settleBatchSize is the --chain-batch-size of BenchmarkSecondarySettled, as the strike's.
const settleBatchSize = strikeBatchSize

func settleOnce(b *testing.B, ctx context.Context, e *envtest.Environment, pairs int) (float64, int) {
	b.Helper()
	b.StopTimer()
	k := e.Client
	ns, err := controlplane.NewNamespace(ctx, k, "settle-bench")
	if err != nil {
		b.Fatal(err)
	}
	c := chaintest.New(b)
	isin := investv1.ISIN(envtest.NewISIN())
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, string(isin))
	for _, obj := range []client.Object{fund, sc} {
		if err := k.Create(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
	const wallets = 100
	type party struct {
		account string
		wallet  *investv1.Wallet
		addr    common.Address
	}
	newParty := func() party {
		p := party{account: controlplane.NewID(), addr: c.NewWallet()}
		p.wallet = fixtures.Wallet(ns, p.account, p.addr.Hex())
		if err := k.Create(ctx, p.wallet); err != nil {
			b.Fatal(err)
		}
		c.Register(p.addr)
		return p
	}
	var sellers, buyers []party
	for range wallets {
		sellers, buyers = append(sellers, newParty()), append(buyers, newParty())
	}
	for _, s := range sellers {
		c.Mint(c.Token, s.addr, int64(10*pairs/wallets+10))
	}
	c.Commit(1)
	supply := c.TotalSupply(c.Token)

	date := "2026-05-04"
	name := lifecycle.WindowName(isin, date)
	newOrder := func(side investv1.OrderSide, p party, units int64) *investv1.Order {
		o := fixtures.BuyOrder(ns, p.account, string(isin), units)
		o.Spec.Side, o.Spec.Market, o.Spec.WalletID = side, investv1.MarketSecondary, investv1.ObjectID(p.wallet.Name)
		o.Spec.Quote = &investv1.OrderQuote{Amount: units * 1_000_000, WalletID: investv1.ObjectID(p.wallet.Name), FeeSource: investv1.FeeSourceDefault,
			FundDetails: investv1.OrderFundDetails{ISIN: isin, FundID: investv1.ObjectID(fund.Name), ShareClassID: investv1.ObjectID(sc.Name)},
			Window:      &investv1.OrderWindow{Date: date, Deadline: metav1.Now()}}
		return o
	}
	var sells, buys []*investv1.Order
	var book []string
	for i := range pairs {
		units := int64(1 + i%10)
		sells = append(sells, newOrder(investv1.SideSell, sellers[i%wallets], units))
		buys = append(buys, newOrder(investv1.SideBuy, buyers[i%wallets], units))
	}
	for _, o := range append(append([]*investv1.Order{}, sells...), buys...) {
		book = append(book, secondary.Entry{Side: o.Spec.Side, Units: o.Spec.AmountOfUnits, Namespace: o.Namespace, Name: o.Name}.String())
	}
	mw := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.MatchingWindowSpec{ISIN: isin, Date: date}}
	if err := k.Create(ctx, mw); err != nil {
		b.Fatal(err)
	}
	at := metav1.NewTime(time.Now().UTC().Truncate(time.Second))
	mw.Status = investv1.MatchingWindowStatus{Phase: investv1.WindowMatching, NAV: &investv1.DealingNAV{NAVPerShare: 1_000_000, Date: date, RecordedAt: at},
		Policy: &investv1.MatchingPolicy{}, Book: book, MatchedAt: &at}
	if err := k.Status().Update(ctx, mw); err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*pairs)
	writers := make(chan struct{}, 32)
	for _, o := range append(append([]*investv1.Order{}, sells...), buys...) {
		wg.Add(1)
		writers <- struct{}{}
		go func() {
			defer func() { <-writers }()
			defer wg.Done()
			if err := k.Create(ctx, o); err != nil {
				errs <- err
				return
			}
			states := []investv1.OrderState{investv1.StatePlaced, investv1.StateExecuted}
			if o.Spec.Side == investv1.SideBuy {
				states = []investv1.OrderState{investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted}
				o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "BENCH", At: at}
			}
			for _, s := range states {
				o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: at, Reason: "Bench"})
			}
			o.Status.State = investv1.StateExecuted
			u := o.Spec.AmountOfUnits
			o.Status.Strike = &investv1.OrderContractNote{TradeDate: date, NAVDate: date, NAVPerShare: 1_000_000, Units: u, GrossAmount: u * 1_000_000,
				NetAmount: u * 1_000_000, SettlementDate: date, StruckAt: at,
				Secondary: &investv1.OrderSecondaryFill{Window: name, Outcome: investv1.FillFilled, RequestedUnits: u, NAVPerShare: 1_000_000}}
			executedAsWritten(o, at.Time)
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
			rt.BatchSize, rt.BatchWindow = settleBatchSize, 200*time.Millisecond
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
	limit := max(5*time.Minute, time.Duration(pairs)*time.Second)
	if v := os.Getenv("SECONDARY_SETTLE_LIMIT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			limit = d
		}
	}
	for deadline := time.Now().Add(limit); ; time.Sleep(200 * time.Millisecond) {
		var list investv1.OrderList
		if err := mgr.GetClient().List(ctx, &list, client.InNamespace(ns)); err != nil {
			b.Fatal(err)
		}
		done := 0
		for i := range list.Items {
			o := &list.Items[i]
			if o.Spec.Side == investv1.SideBuy && o.Status.State == investv1.StateCompleted || o.Spec.Side == investv1.SideSell && o.Status.Settlement.UnitsDelivered != nil {
				done++
			}
		}
		if done == 2*pairs {
			break
		}
		if time.Now().After(deadline) {
			states := map[string]int{}
			for i := range list.Items {
				o := &list.Items[i]
				k := string(o.Spec.Side) + " " + string(o.Status.State)
				if c := o.Status.Chain; c != nil && c.Refused != nil {
					k += " refused: " + c.Refused.Reason
				}
				states[k]++
			}
			var batches investv1.DeliveryBatchList
			if err := mgr.GetClient().List(ctx, &batches, client.InNamespace(ns)); err != nil {
				b.Fatal(err)
			}
			phases := map[string]int{}
			for _, bt := range batches.Items {
				k := string(bt.Status.Phase)
				if bt.Status.Abandoned != nil {
					k += " " + bt.Status.Abandoned.Reason
				}
				if tx := bt.Status.Transaction; tx != nil && tx.Receipt == nil {
					_, rerr := c.Client.TransactionReceipt(ctx, common.HexToHash(tx.Attempts[0].Hash))
					legs := 0
					for _, m := range bt.Spec.Members {
						legs += len(m.Legs)
					}
					b.Logf("batch %s: %d members, %d legs, nonce %d, gas %d, attempts %d, receipt on chain: %v", bt.Name, len(bt.Status.Included), legs, tx.Nonce, tx.Attempts[0].Gas, len(tx.Attempts), rerr)
				}
				phases[k]++
			}
			b.Fatalf("%d of %d orders settled in %s; orders %v; batches %v", done, 2*pairs, limit, states, phases)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	after, err := apiRequests(ctx, e.Config)
	if err != nil {
		b.Fatal(err)
	}
	reqs := after.minus(counted)
	b.Logf("API requests for %d orders: %s (%.2f status writes and %.2f Events per order)", 2*pairs, reqs, reqs.statusWrites()/float64(2*pairs), reqs.events()/float64(2*pairs))
	stop()
	if got := c.TotalSupply(c.Token); got != supply {
		b.Fatalf("totalSupply %d after the window, %d before", got, supply)
	}
	isBuyer := map[common.Address]bool{}
	for _, p := range buyers {
		isBuyer[p.addr] = true
	}
	txs := map[string]bool{}
	for _, t := range c.Transfers(c.Token) {
		if isBuyer[t.To] {
			txs[t.TxHash.Hex()] = true
		}
	}
	var batches investv1.DeliveryBatchList
	if err := e.Client.List(ctx, &batches, client.InNamespace(ns)); err != nil {
		b.Fatal(err)
	}
	members, legs := 0, 0
	for _, bt := range batches.Items {
		members += len(bt.Status.Included)
		for _, m := range bt.Spec.Members {
			legs += len(m.Legs)
		}
	}
	b.Logf("%d batch settlements of %d BUYs in all (%d legs); the other BUYs settled on their own", len(batches.Items), members, legs)
	b.Logf("%d SELLs and %d BUYs settled in %.1f s (%d settle transactions); totalSupply unchanged at %d", pairs, pairs, elapsed.Seconds(), len(txs), supply)
	return elapsed.Seconds(), len(txs)
}
