package secondary_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/secondary"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// BenchmarkWindowOfTenThousandOrders is issue 26's matching row of `make bench`: one
// window of 10,000 SECONDARY orders (SECONDARY_BENCH_ORDERS sets another even number),
// half BUYs of 1 to 10,000 units (paid), half SELLs of 1 to 25,000 units (reserved),
// over 1,000 accounts, created with admission off as the order controller leaves them.
// Only the window controller runs. Timed from the moment its clock passes the order
// deadline: the book recorded (drawn from the API server, checked, matched and written
// in one write: the window's "matching"), and every order's fill written (one status
// write each). Reported: both in seconds, and the fills written per second.
func BenchmarkWindowOfTenThousandOrders(b *testing.B) {
	n := 10_000
	if v := os.Getenv("SECONDARY_BENCH_ORDERS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 2 {
			b.Fatalf("SECONDARY_BENCH_ORDERS=%q: want a number of at least 2", v)
		}
	}
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	b.Run(fmt.Sprintf("orders=%d", n), func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			book, fills := matchOnce(b, context.Background(), e, n)
			b.ReportMetric(book.Seconds(), "book-seconds")
			b.ReportMetric(fills.Seconds(), "fills-seconds")
			b.ReportMetric(float64(n)/fills.Seconds(), "fills/s")
		}
	})
}

func matchOnce(b *testing.B, ctx context.Context, e *envtest.Environment, n int) (book, fills time.Duration) {
	b.Helper()
	b.StopTimer()
	k := e.Client
	ns, err := controlplane.NewNamespace(ctx, k, "window-bench")
	if err != nil {
		b.Fatal(err)
	}
	fund := fixtures.Fund()
	isin := investv1.ISIN(envtest.NewISIN())
	sc := fixtures.ShareClass(fund.Name, string(isin))
	sc.Spec.Secondary = market(0)
	nh := fixtures.NAVHistory(string(isin), "EUR", investv1.NAVPrice{Date: "2026-03-09", NAVPerShare: 1_000_000})
	for _, obj := range []client.Object{fund, sc, nh} {
		if err := k.Create(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
	var clk testClock
	clk.Set(start)
	window := &investv1.OrderWindow{Date: windowDay, Deadline: metav1.NewTime(deadline)}
	accounts := make([]string, 1000)
	for i := range accounts {
		accounts[i] = controlplane.NewID()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var wg sync.WaitGroup
	errs := make(chan error, n)
	writers := make(chan struct{}, 32)
	for i := range n {
		side, units := investv1.SideBuy, 1+rng.Int64N(10_000)
		if i%2 == 1 {
			side, units = investv1.SideSell, 1+rng.Int64N(25_000)
		}
		o := fixtures.BuyOrder(ns, accounts[i%len(accounts)], string(isin), units)
		o.Spec.Side, o.Spec.Market = side, investv1.MarketSecondary
		o.Spec.Quote = &investv1.OrderQuote{NAVPerShare: 1_000_000, NAVDate: "2026-03-09", GrossValue: units * 1_010_000,
			FeeRate: 50, FeeSource: investv1.FeeSourceDefault, Amount: units * 1_020_000, Window: window,
			FundDetails: investv1.OrderFundDetails{ISIN: isin, FundID: investv1.ObjectID(fund.Name), ShareClassID: investv1.ObjectID(sc.Name)}}
		wg.Add(1)
		writers <- struct{}{}
		go func() {
			defer func() { <-writers }()
			defer wg.Done()
			if err := k.Create(ctx, o); err != nil {
				errs <- err
				return
			}
			at := metav1.NewTime(start)
			states := []investv1.OrderState{investv1.StatePlaced}
			if side == investv1.SideBuy {
				states = append(states, investv1.StateAwaitingPayment, investv1.StatePaymentReceived)
				o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "BENCH", At: at}
			}
			for _, s := range states {
				o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: at, Reason: "Bench"})
			}
			o.Status.State = states[len(states)-1]
			meta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{Type: lifecycle.ConditionWaiting, Status: metav1.ConditionTrue,
				Reason: lifecycle.WaitAwaitingMatching, Message: "bench", LastTransitionTime: at})
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
	mgr, err := e.RunManager(e.Config, apptest.Manager(app.Config{Clock: clk.Now}, func(mgr ctrl.Manager) error {
		return (&secondary.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Now: clk.Now}).SetupWithManager(mgr)
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = mgr.Close() }()
	name := client.ObjectKey{Name: lifecycle.WindowName(isin, windowDay)}
	w := &investv1.MatchingWindow{}
	waitFor := func(what string, done func() bool) {
		for limit := time.Now().Add(30 * time.Minute); !done(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(limit) {
				b.Fatalf("%s: not within 30 minutes", what)
			}
		}
	}
	waitFor("the window is opened", func() bool { return k.Get(ctx, name, w) == nil && w.Status.Phase == investv1.WindowOpen })

	b.StartTimer()
	t0 := time.Now()
	clk.Set(deadline.Add(time.Second))
	// The deadline passes: publishing a NAV wakes the window (in production its requeue).
	fresh := nh.DeepCopy()
	if err := k.Get(ctx, client.ObjectKeyFromObject(nh), fresh); err != nil {
		b.Fatal(err)
	}
	base := fresh.DeepCopy()
	fresh.Spec.Prices = append(fresh.Spec.Prices, investv1.NAVPrice{Date: windowDay, NAVPerShare: 1_000_000})
	if err := k.Patch(ctx, fresh, client.MergeFrom(base)); err != nil {
		b.Fatal(err)
	}
	waitFor("the book is recorded", func() bool { return k.Get(ctx, name, w) == nil && w.Status.NAV != nil })
	book = time.Since(t0)
	waitFor("every fill is written", func() bool {
		return k.Get(ctx, name, w) == nil && (w.Status.Phase == investv1.WindowMatched || w.Status.Phase == investv1.WindowSettled)
	})
	fills = time.Since(t0)
	b.StopTimer()
	if len(w.Status.Book) != n || w.Status.Result.VolumeUnits == 0 {
		b.Fatalf("book of %d orders, volume %d: want %d orders", len(w.Status.Book), w.Status.Result.VolumeUnits, n)
	}
	b.Logf("%d orders: book recorded %.1f s after the deadline, every fill %.1f s (%d units matched, buy fill %d bp, sell fill %d bp)",
		n, book.Seconds(), fills.Seconds(), w.Status.Result.VolumeUnits, w.Status.Result.BuyFillBasisPoints, w.Status.Result.SellFillBasisPoints)
	return book, fills
}
