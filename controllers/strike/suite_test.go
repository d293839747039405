package strike_test

import (
	"context"
	"errors"
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

// The strike suite runs the production manager (webhooks and every controller, no
// settlement agent, no chain) on a clock the specs move: each spec starts on Tuesday 10
// March 2026 at 10:00 UTC (11:00 in Luxembourg), an hour before the cut-off of the
// dealing date 2026-03-10, and moves past it when the rule needs it. Payments are
// recorded by hand, as an operator would with kubectl.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	stopMgr       func()
	clock         testClock
	suiteConfig   = app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1, Clock: clock.Now}
)

// dealingDay is the suite's dealing date; cutOff its cut-off for BUYs and SELLs.
var (
	start  = time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)
	cutOff = time.Date(2026, time.March, 10, 11, 0, 0, 0, time.UTC)
)

const dealingDay = "2026-03-10"

func TestStrike(t *testing.T) {
	env.Run(t, "Strike suite", func() {
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

func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *testClock) Set(t time.Time)         { c.ns.Store(t.UnixNano()) }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// forwardClass is a fund and a forward-priced share class dealing every business day in
// Luxembourg, BUYs and SELLs until noon on the dealing date, settled T+2, with a 1.5%
// subscription fee and a 1% redemption fee, and an empty NAV history.
func forwardClass(mutate func(*investv1.DealingTerms)) (*investv1.ShareClass, *investv1.NAVHistory) {
	GinkgoHelper()
	fund := fixtures.Fund()
	isin := envtest.NewISIN()
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment, sc.Spec.SubscriptionFee, sc.Spec.RedemptionFee = 0, 150, 100
	sc.Spec.Dealing = &investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00"},
		NAVPublicationLag: 1, SettlementPeriod: 2,
	}
	if mutate != nil {
		mutate(sc.Spec.Dealing)
	}
	nh := fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-03-06", NAVPerShare: 1_000_000})
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	Expect(k8s.Create(ctx, nh)).To(Succeed())
	return sc, nh
}

// publish adds the NAV of date to the ISIN's history, as `kubectl patch navhistory` does.
func publish(nh *investv1.NAVHistory, date string, navPerShare int64) error {
	fresh := &investv1.NAVHistory{}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(nh), fresh); err != nil {
		return err
	}
	base := fresh.DeepCopy()
	fresh.Spec.Prices = append(fresh.Spec.Prices, investv1.NAVPrice{Date: date, NAVPerShare: navPerShare})
	return k8s.Patch(ctx, fresh, client.MergeFrom(base))
}

type customer struct {
	ns      string
	account *investv1.Account
}

func newCustomer() customer {
	GinkgoHelper()
	ns := env.NewTenant("strike")
	a, _, _ := env.NewCustomer(ns)
	return customer{ns: ns, account: a}
}

// buyAmount is a BUY of amount micro-units; buyUnits and sell by units.
func (c customer) buyAmount(isin investv1.ISIN, amount int64) *investv1.Order {
	o := fixtures.BuyOrder(c.ns, c.account.Name, string(isin), 1)
	o.Spec.AmountOfUnits, o.Spec.Amount = 0, amount
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
		fresh := &investv1.Order{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
		g.Expect(fresh.Status.State).To(Equal(s))
	}).WithTimeout(envtest.Settle).WithPolling(50*time.Millisecond).Should(Succeed(), "order %s", o.Name)
}

// pay records the customer's payment of a BUY, as `kubectl patch --subresource=status`.
func pay(o *investv1.Order) {
	GinkgoHelper()
	waitState(o, investv1.StateAwaitingPayment)
	Eventually(func(g Gomega) {
		fresh := &investv1.Order{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
		base := fresh.DeepCopy()
		lifecycle.Record(fresh, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + o.Name[:8], At: metav1.NewTime(time.Now().UTC().Truncate(time.Second))})
		g.Expect(k8s.Status().Patch(ctx, fresh, client.MergeFrom(base))).To(Succeed())
	}).WithTimeout(envtest.Settle).Should(Succeed())
	waitState(o, investv1.StatePaymentReceived)
}

func dealingOf(isin investv1.ISIN, date string) *investv1.Dealing {
	GinkgoHelper()
	d := &investv1.Dealing{}
	Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(isin, date)}, d)).To(Succeed())
	return d
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

// crashingClient is a client whose writes of order statuses fail once it has written
// after of them: a strike controller on it dies in the middle of a strike, as a process
// killed between two writes.
type crashingClient struct {
	client.Client
	after   int32
	written *atomic.Int32
	// noCreate: every order it creates fails, as a process killed before the write.
	noCreate bool
}

func (c crashingClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	if _, ok := obj.(*investv1.Order); ok && c.noCreate {
		return errCrashed
	}
	return c.Client.Create(ctx, obj, opts...)
}

func (c crashingClient) Status() client.SubResourceWriter {
	return crashingWriter{SubResourceWriter: c.Client.Status(), c: c}
}

type crashingWriter struct {
	client.SubResourceWriter
	c crashingClient
}

var errCrashed = errors.New("the process crashed")

func (w crashingWriter) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	if w.crashed(obj) {
		return errCrashed
	}
	return w.SubResourceWriter.Patch(ctx, obj, p, opts...)
}

func (w crashingWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if w.crashed(obj) {
		return errCrashed
	}
	return w.SubResourceWriter.Update(ctx, obj, opts...)
}

// crashed counts a write of an order's status before it is made (the strike writes
// several orders at once, and the process dies after exactly `after` of them) and says
// whether the process is dead by then.
func (w crashingWriter) crashed(obj client.Object) bool {
	if _, ok := obj.(*investv1.Order); !ok {
		return false
	}
	return w.c.written.Add(1) > w.c.after
}
