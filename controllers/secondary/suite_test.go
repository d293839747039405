package secondary_test

import (
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The window suite runs the production manager (webhooks and every controller, no
// settlement agent, no chain: the books' checks at matching only) on a clock the specs
// move: each spec starts on Tuesday 10 March 2026 at 10:00 UTC, two hours before the
// order deadline of the window of 2026-03-10. Payments and deliveries are recorded by
// hand, as an operator would with kubectl. The transfers on chain are the chain agent's
// and are specified in controllers/delivery.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	stopMgr       func()
	clock         testClock
	suiteConfig   = app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1, Clock: clock.Now}
)

var (
	start    = time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)
	deadline = time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)
)

const (
	windowDay = "2026-03-10"
	nextDay   = "2026-03-11"
	txHash    = "0x" + "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"
)

func TestWindows(t *testing.T) {
	env.Run(t, "Matching window suite", func() {
		clock.Set(start)
		stopMgr = startManager()
		DeferCleanup(func() { stopMgr() })
	})
}

func startManager() func() {
	GinkgoHelper()
	return env.StartManager(env.Config, apptest.Manager(suiteConfig)).Stop
}

// testClock is a clock the specs set.
type testClock struct{ ns atomic.Int64 }

func (c *testClock) Now() time.Time  { return time.Unix(0, c.ns.Load()).UTC() }
func (c *testClock) Set(t time.Time) { c.ns.Store(t.UnixNano()) }

// market is a daily secondary market in UTC whose order deadline is noon on the window's
// date, with a 1% spread, a 0.5% buy fee and a 0.25% sell fee, carrying what a window
// does not fill for carry windows.
func market(carry int32) *investv1.SecondaryMarket {
	return &investv1.SecondaryMarket{
		TimeZone: "UTC", Frequency: investv1.DealingDaily, OrderDeadline: investv1.CutOff{Time: "12:00"},
		SpreadBasisPoints: 100, BuyFeeRate: 50, SellFeeRate: 25, CarryWindows: carry,
	}
}

// secondaryClass is a fund and a latest-priced share class with market(carry), and a NAV
// of 100 EUR dated 2026-03-09.
func secondaryClass(carry int32) (*investv1.ShareClass, *investv1.NAVHistory) {
	GinkgoHelper()
	fund := fixtures.Fund()
	isin := envtest.NewISIN()
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment, sc.Spec.SubscriptionFee, sc.Spec.RedemptionFee, sc.Spec.LockUp = 0, 0, 0, 0
	sc.Spec.Secondary = market(carry)
	nh := fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-03-09", NAVPerShare: 1_000_000})
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	Expect(k8s.Create(ctx, nh)).To(Succeed())
	return sc, nh
}

type customer struct {
	ns      string
	account *investv1.Account
}

func newCustomer() customer {
	GinkgoHelper()
	ns := env.NewTenant("window")
	a, _, _ := env.NewCustomer(ns)
	return customer{ns: ns, account: a}
}

// holders are n customers who each bought units on the primary market, delivered by hand.
func holders(sc *investv1.ShareClass, n int, units int64) []customer {
	GinkgoHelper()
	var cs []customer
	for range n {
		c := newCustomer()
		o := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), units)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		pay(o)
		waitState(o, investv1.StateExecuted)
		record(o, lifecycle.StepDeliveryInitiated)
		waitState(o, investv1.StateDeliveryInitiated)
		record(o, lifecycle.StepDeliveryCompleted)
		waitState(o, investv1.StateCompleted)
		cs = append(cs, c)
	}
	for _, c := range cs {
		Eventually(func() int64 { return holding(c, sc.Spec.ISIN) }).WithTimeout(envtest.Settle).Should(Equal(units))
	}
	return cs
}

// order places a SECONDARY order of units and waits until it waits for its window (a
// BUY paid, a SELL's units reserved).
func (c customer) order(sc *investv1.ShareClass, side investv1.OrderSide, units int64) *investv1.Order {
	GinkgoHelper()
	return c.orderFrom(sc, side, units, nil)
}

// orderFrom is order with the wallet named (nil: the account's primary).
func (c customer) orderFrom(sc *investv1.ShareClass, side investv1.OrderSide, units int64, wallet *investv1.Wallet) *investv1.Order {
	GinkgoHelper()
	o := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), units)
	o.Spec.Side, o.Spec.Market = side, investv1.MarketSecondary
	if wallet != nil {
		o.Spec.WalletID = investv1.ObjectID(wallet.Name)
	}
	Expect(k8s.Create(ctx, o)).To(Succeed())
	Expect(get(o).Spec.Quote.Window).NotTo(BeNil())
	if side == investv1.SideBuy {
		pay(o)
	}
	Eventually(func() bool { return lifecycle.ReadyForMatching(get(o)) }).WithTimeout(envtest.Settle).Should(BeTrue())
	return o
}

func get(o *investv1.Order) *investv1.Order {
	GinkgoHelper()
	fresh := &investv1.Order{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
	return fresh
}

func waitState(o *investv1.Order, s investv1.OrderState) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(get(o).Status.State).To(Equal(s))
	}).WithTimeout(envtest.Settle).WithPolling(50*time.Millisecond).Should(Succeed(), "order %s", o.Name)
}

// pay records the customer's payment of a BUY, as `kubectl patch --subresource=status`.
func pay(o *investv1.Order) {
	GinkgoHelper()
	waitState(o, investv1.StateAwaitingPayment)
	Eventually(func(g Gomega) {
		fresh := get(o)
		base := fresh.DeepCopy()
		lifecycle.Record(fresh, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + o.Name[:8], At: metav1.NewTime(time.Now().UTC().Truncate(time.Second))})
		g.Expect(k8s.Status().Patch(ctx, fresh, client.MergeFrom(base))).To(Succeed())
	}).WithTimeout(envtest.Settle).Should(Succeed())
	Eventually(func() investv1.OrderState { return get(o).Status.State }).WithTimeout(envtest.Settle).ShouldNot(Equal(investv1.StateAwaitingPayment))
}

// record records a piece of settlement evidence by hand, as an operator with kubectl.
func record(o *investv1.Order, step lifecycle.Step) {
	GinkgoHelper()
	Eventually(func() error {
		fresh := get(o)
		base := fresh.DeepCopy()
		lifecycle.Record(fresh, step, investv1.SettlementRecord{TransactionHash: txHash, Reference: "REF-" + o.Name[:8], At: metav1.NewTime(time.Now().UTC().Truncate(time.Second))})
		return k8s.Status().Patch(ctx, fresh, client.MergeFrom(base))
	}).WithTimeout(envtest.Settle).Should(Succeed())
}

func holding(c customer, isin investv1.ISIN) int64 {
	a := &investv1.Account{}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a); err != nil {
		return -1
	}
	for _, h := range a.Status.Holdings {
		if h.ISIN == isin {
			return h.Units
		}
	}
	return 0
}

func window(isin investv1.ISIN, date string) *investv1.MatchingWindow {
	GinkgoHelper()
	w := &investv1.MatchingWindow{}
	Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.WindowName(isin, date)}, w)).To(Succeed())
	return w
}

// events counts the Events of reason about the object named name in namespace ns.
func events(ns, name, reason string) int {
	GinkgoHelper()
	var evs eventsv1.EventList
	Expect(k8s.List(ctx, &evs, client.InNamespace(ns))).To(Succeed())
	n := 0
	for _, e := range evs.Items {
		if e.Regarding.Name == name && e.Reason == reason {
			n++
		}
	}
	return n
}
