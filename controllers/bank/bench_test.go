package bank_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	ordercontroller "github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// BenchmarkStatementPaysWaitingOrders is issue 27's target: one camt.054 of n booked
// credits (BANK_BENCH_ORDERS, default 10,000) against n BUYs waiting for their payment,
// parsed, matched, recorded in the ledger and every order PAYMENT_RECEIVED (≤ 30 s on
// this machine), with the order controller running beside the ingestion as in
// production; then the same file again, which must change nothing. Run by make bench.
func BenchmarkStatementPaysWaitingOrders(b *testing.B) {
	n := 10_000
	if v := os.Getenv("BANK_BENCH_ORDERS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("BANK_BENCH_ORDERS=%q: want a positive number", v)
		}
	}
	workers := 0
	if v := os.Getenv("BANK_BENCH_WORKERS"); v != "" {
		var err error
		if workers, err = strconv.Atoi(v); err != nil || workers < 1 {
			b.Fatalf("BANK_BENCH_WORKERS=%q: want a positive number", v)
		}
	}
	e, err := envtest.New(envtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	b.Run(fmt.Sprintf("orders=%d/workers=%d", n, cmp.Or(workers, bank.DefaultApplyWorkers)), func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			payOnce(b, context.Background(), e, n, workers)
		}
	})
}

func payOnce(b *testing.B, ctx context.Context, e *envtest.Environment, n, workers int) {
	b.Helper()
	b.StopTimer()
	k := e.Client
	ns, err := controlplane.NewNamespace(ctx, k, "bank-bench")
	if err != nil {
		b.Fatal(err)
	}
	isin := envtest.NewISIN()
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, isin)
	account := controlplane.NewID()
	for _, obj := range []client.Object{fund, sc} {
		if err := k.Create(ctx, obj); err != nil {
			b.Fatal(err)
		}
	}
	// n BUYs as placement leaves them: quoted, with the fund's account and an RF
	// reference, waiting for their payment.
	orders := make([]*investv1.Order, n)
	entries := make([]iso20022.NotificationEntry, n)
	day := time.Now().UTC().Truncate(24 * time.Hour)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	writers := make(chan struct{}, 32)
	for i := range n {
		o := fixtures.BuyOrder(ns, account, isin, int64(1+i%10))
		o.Name = controlplane.NewID()
		amount := int64(1+i%10) * 1_000_000
		o.Spec.Quote = &investv1.OrderQuote{
			NAVPerShare: 1_000_000, GrossValue: amount, NetAmount: amount, Amount: amount, FeeSource: investv1.FeeSourceDefault,
			FundDetails:    investv1.OrderFundDetails{ISIN: investv1.ISIN(isin), FundID: investv1.ObjectID(fund.Name), FundName: "Bench", ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: "Bench"},
			PaymentDetails: &investv1.OrderPaymentDetails{AccountHolderName: fixtures.FundHolder, IBAN: fixtures.FundIBAN, PaymentReference: placement.PaymentReference(o.Name)},
		}
		orders[i] = o
		entries[i] = iso20022.NotificationEntry{
			AccountServicerRef: fmt.Sprintf("BENCH-%s", strings.ReplaceAll(o.Name, "-", "")[:24]), Amount: amount, Currency: "EUR",
			CreditDebit: iso20022.Credit, BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
			Transactions: []iso20022.NotificationTransaction{{Amount: amount, DebtorName: "Bench payer", DebtorIBAN: fixtures.IBAN,
				CreditorReference: o.Spec.Quote.PaymentDetails.PaymentReference}},
		}
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
			for _, s := range []investv1.OrderState{investv1.StatePlaced, investv1.StateAwaitingPayment} {
				o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: now, Reason: "Bench"})
			}
			o.Status.State = investv1.StateAwaitingPayment
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
	data, err := iso20022.WriteCamt054(&iso20022.Notification{
		MessageID: "BENCH-" + ns[len(ns)-8:], CreatedAt: time.Now(), ID: "BENCH-1", AccountIBAN: fixtures.FundIBAN, Currency: "EUR", Entries: entries,
	})
	if err != nil {
		b.Fatal(err)
	}

	dir := b.TempDir()
	st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = st.Close() }()
	books, _ := sqlstore.Ledger(st)
	folder := filepath.Join(dir, "bank")
	if err := os.MkdirAll(folder, 0o750); err != nil {
		b.Fatal(err)
	}
	conn, err := connector.OpenFolder(folder)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	cfg := rest.CopyConfig(e.Config)
	cfg.QPS = -1 // as in production: the API server's priority and fairness limits the manager
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
			return bank.Setup(mgr, &bank.Ingester{Connector: conn, Ledger: books, PollInterval: 100 * time.Millisecond, ApplyWorkers: workers})
		},
		SkipNameValidation: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = mgr.Close() }()
	paid := func() int {
		var list investv1.OrderList
		if err := mgr.GetClient().List(ctx, &list, client.InNamespace(ns)); err != nil {
			b.Fatal(err)
		}
		p := 0
		for i := range list.Items {
			if list.Items[i].Status.Settlement.PaymentReceived != nil {
				p++
			}
		}
		return p
	}
	// The cache holds the n waiting orders before the file comes.
	for deadline := time.Now().Add(5 * time.Minute); ; {
		var list investv1.OrderList
		if err := mgr.GetClient().List(ctx, &list, client.InNamespace(ns)); err != nil {
			b.Fatal(err)
		}
		if len(list.Items) == n {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the cache has %d of %d orders", len(list.Items), n)
		}
		time.Sleep(200 * time.Millisecond)
	}

	b.StartTimer()
	start := time.Now()
	deliverInto(b, folder, "camt054-bench.xml", data)
	var ingested time.Duration
	for deadline := start.Add(max(5*time.Minute, time.Duration(n)*50*time.Millisecond)); ; {
		if ingested == 0 && processed(b, folder, "camt054-bench.xml") {
			ingested = time.Since(start)
		}
		if p := paid(); p == n {
			break
		} else if time.Now().After(deadline) {
			b.Fatalf("%d of %d orders paid after %s", p, n, time.Since(start))
		}
		time.Sleep(100 * time.Millisecond)
	}
	total := time.Since(start)
	b.StopTimer()

	// The same file again changes nothing.
	deliverInto(b, folder, "camt054-bench-again.xml", data)
	for deadline := time.Now().Add(5 * time.Minute); !processed(b, folder, "camt054-bench-again.xml"); {
		if time.Now().After(deadline) {
			b.Fatal("the repeated file was not processed")
		}
		time.Sleep(100 * time.Millisecond)
	}
	files, _, err := books.Files(ctx, 2, "")
	if err != nil {
		b.Fatal(err)
	}
	if got := files[0].Counts[string(reconcile.Duplicate)]; got != n || len(files[0].Counts) != 1 {
		b.Fatalf("the repeated file: %v, want %d duplicates and nothing else", files[0].Counts, n)
	}
	if p := paid(); p != n {
		b.Fatalf("%d of %d orders paid after the repeat", p, n)
	}
	b.ReportMetric(total.Seconds(), "seconds")
	b.ReportMetric(ingested.Seconds(), "ingested-s")
	b.ReportMetric(float64(n)/total.Seconds(), "orders/s")
	b.ReportMetric(float64(files[0].Counts[string(reconcile.Duplicate)]), "repeat-duplicates")
}

// deliverInto puts data into the folder's inbox under a temporary name, then renames it.
func deliverInto(b *testing.B, folder, name string, data []byte) {
	b.Helper()
	tmp := filepath.Join(folder, "inbox", name+".part")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(folder, "inbox", name)); err != nil {
		b.Fatal(err)
	}
}

// processed reports whether the file is in processed/.
func processed(b *testing.B, folder, name string) bool {
	b.Helper()
	entries, err := os.ReadDir(filepath.Join(folder, "processed"))
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "-"+name) || e.Name() == name {
			return true
		}
	}
	return false
}
