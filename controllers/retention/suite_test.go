package retention_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/retention"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The retention suite runs the production manager (webhooks, account and order
// controllers, the sandbox settlement agent with no delay, so orders complete at once)
// with a real SQLite order archive, and the retention controller with a short retention
// and a fail point between the archive write and the delete.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	store         *archivetest.Switch
	// crash, when set, is the fail point of the running retention controller.
	crash func(ctx context.Context, o *investv1.Order) error
	// events, when set, is the running retention controller's webhook events hook.
	events    func(ctx context.Context, o *investv1.Order) error
	crashMu   sync.Mutex
	stopMgr   func()
	retainFor = 2 * time.Second
)

// suiteT is the suite's *testing.T, for helpers that take a testing.TB (ginkgoTB).
var suiteT *testing.T

func TestRetention(t *testing.T) {
	suiteT = t
	env.Run(t, "Retention suite", func() {
		dir, err := filepath.Abs(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
		Expect(err).NotTo(HaveOccurred())
		store = archivetest.NewSwitch(st)
		DeferCleanup(func() { Expect(store.Close()).To(Succeed()) })
		stopMgr = startManager()
		DeferCleanup(func() { stopMgr() })
	})
}

// startManager starts the production manager with the archive, and the retention
// controller with the suite's fail point; it returns what stops it (a crash of the
// process, as far as the cluster and the archive can tell).
func startManager() func() {
	GinkgoHelper()
	return env.StartManager(env.Config, apptest.Manager(
		app.Config{Webhooks: true, Controllers: true, SandboxSettlement: 0, Archive: store},
		func(mgr ctrl.Manager) error {
			return (&retention.Reconciler{
				Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Store: store, Retention: retainFor,
				Recorder: mgr.GetEventRecorder("retention-controller"),
				AfterArchive: func(ctx context.Context, o *investv1.Order) error {
					crashMu.Lock()
					f := crash
					crashMu.Unlock()
					if f == nil {
						return nil
					}
					return f(ctx, o)
				},
				Events: func(ctx context.Context, o *investv1.Order) error {
					crashMu.Lock()
					f := events
					crashMu.Unlock()
					if f == nil {
						return nil
					}
					return f(ctx, o)
				},
			}).SetupWithManager(mgr)
		})).Stop
}

func setEvents(f func(ctx context.Context, o *investv1.Order) error) {
	crashMu.Lock()
	defer crashMu.Unlock()
	events = f
}

func setCrash(f func(ctx context.Context, o *investv1.Order) error) {
	crashMu.Lock()
	defer crashMu.Unlock()
	crash = f
}

// direct is the store behind the switch, for assertions (never switched off).
func direct() archive.Store { return store.Direct() }

// market is a fund with one share class (lock-up in days) and a NAV.
func newMarket(lockUpDays int32) string {
	GinkgoHelper()
	isin := envtest.NewISIN()
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment, sc.Spec.LockUp = 0, lockUpDays
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_000_000}))).To(Succeed())
	return isin
}

// newCustomer is a tenant namespace and an account with a primary wallet and payment
// method.
func newCustomer() *investv1.Account {
	GinkgoHelper()
	a, _, _ := env.NewCustomer(env.NewTenant("retention"))
	return a
}

// place creates an order as kubectl would (admission prices and checks it).
func place(a *investv1.Account, side investv1.OrderSide, isin string, units int64) (*investv1.Order, error) {
	o := fixtures.BuyOrder(a.Namespace, a.Name, isin, units)
	o.Spec.Side = side
	return o, k8s.Create(ctx, o)
}

func mustPlace(a *investv1.Account, side investv1.OrderSide, isin string, units int64) *investv1.Order {
	GinkgoHelper()
	o, err := place(a, side, isin, units)
	Expect(err).NotTo(HaveOccurred())
	return o
}

// inCluster reports whether the order is still in the cluster.
func inCluster(o *investv1.Order) func() bool {
	return func() bool {
		err := k8s.Get(ctx, client.ObjectKeyFromObject(o), &investv1.Order{})
		return err == nil
	}
}

func waitArchived(o *investv1.Order) {
	GinkgoHelper()
	Eventually(inCluster(o)).WithTimeout(time.Minute).WithPolling(100*time.Millisecond).Should(BeFalse(), "order %s leaves the cluster", o.Name)
	got, err := direct().Get(ctx, o.Namespace, o.Name)
	Expect(err).NotTo(HaveOccurred(), "order %s is in the archive", o.Name)
	Expect(got.UID).To(Equal(o.UID))
}

func waitCompleted(o *investv1.Order) {
	GinkgoHelper()
	Eventually(func() investv1.OrderState {
		fresh := &investv1.Order{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh); err != nil {
			return ""
		}
		return fresh.Status.State
	}).WithTimeout(30*time.Second).WithPolling(50*time.Millisecond).Should(Equal(investv1.StateCompleted), "order %s", o.Name)
}

// archivedOfAccount lists the account's archived orders, every page.
func archivedOfAccount(a *investv1.Account) []investv1.Order {
	GinkgoHelper()
	var out []investv1.Order
	q := archive.Query{Filter: archive.Filter{AccountID: investv1.ObjectID(a.Name)}, Limit: archive.MaxLimit}
	for {
		page, err := direct().List(ctx, a.Namespace, q)
		Expect(err).NotTo(HaveOccurred())
		out = append(out, page.Orders...)
		if page.Next == "" {
			return out
		}
		q.Cursor = page.Next
	}
}

// holding is the account's status holding of isin (units), as the API server has it.
func holding(a *investv1.Account, isin string) func() int64 {
	return func() int64 {
		fresh := &investv1.Account{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(a), fresh); err != nil {
			return -1
		}
		for _, h := range fresh.Status.Holdings {
			if string(h.ISIN) == isin {
				return h.Units
			}
		}
		return 0
	}
}

// watchHolding samples the account's holding of isin until stop is called, and returns
// every value seen after the first time it reached want.
func watchHolding(a *investv1.Account, isin string, want int64) (stop func() []int64) {
	var mu sync.Mutex
	var seen []int64
	reached := false
	stopSampling := envtest.Sample(10*time.Millisecond, func() {
		v := holding(a, isin)()
		mu.Lock()
		defer mu.Unlock()
		if v == want {
			reached = true
		}
		if reached {
			seen = append(seen, v)
		}
	})
	return func() []int64 {
		stopSampling()
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

var errCrash = errors.New("fail point: the process dies between the archive write and the delete")

// ginkgoTB is a testing.TB for the spec running now: failures fail the spec, cleanups run
// after it (GinkgoT does not implement testing.TB since Go 1.26 added ArtifactDir).
type ginkgoTB struct{ testing.TB }

func specTB() ginkgoTB { return ginkgoTB{suiteT} }

func (ginkgoTB) Helper()                      {}
func (ginkgoTB) Fatal(args ...any)            { Fail(fmt.Sprint(args...), 1) }
func (ginkgoTB) Fatalf(f string, args ...any) { Fail(fmt.Sprintf(f, args...), 1) }
func (ginkgoTB) Error(args ...any)            { Fail(fmt.Sprint(args...), 1) }
func (ginkgoTB) Errorf(f string, args ...any) { Fail(fmt.Sprintf(f, args...), 1) }
func (ginkgoTB) Log(args ...any)              { GinkgoWriter.Println(args...) }
func (ginkgoTB) Logf(f string, args ...any)   { GinkgoWriter.Printf(f+"\n", args...) }
func (ginkgoTB) Cleanup(f func())             { DeferCleanup(f) }
func (ginkgoTB) TempDir() string              { return GinkgoT().TempDir() }
func (ginkgoTB) Name() string                 { return CurrentSpecReport().FullText() }
