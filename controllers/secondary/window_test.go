package secondary_test

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/secondary"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	rules "github.com/fundshare/fundshare-operator/internal/secondary"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// publish adds the NAV of date to the ISIN's history, as `kubectl patch navhistory` does;
// the windows waiting for their deadline look again.
func publish(nh *investv1.NAVHistory, date string) {
	GinkgoHelper()
	Eventually(func() error {
		fresh := &investv1.NAVHistory{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(nh), fresh); err != nil {
			return err
		}
		base := fresh.DeepCopy()
		fresh.Spec.Prices = append(fresh.Spec.Prices, investv1.NAVPrice{Date: date, NAVPerShare: 1_000_000})
		return k8s.Patch(ctx, fresh, client.MergeFrom(base))
	}).WithTimeout(envtest.Settle).Should(Succeed())
}

// matched waits until the window of date has its book.
func matched(isin investv1.ISIN, date string) *investv1.MatchingWindow {
	GinkgoHelper()
	Eventually(func() *investv1.DealingNAV { return window(isin, date).Status.NAV }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
	return window(isin, date)
}

var _ = Describe("A matching window", func() {
	BeforeEach(func() { clock.Set(start) })

	// A BUY of 30 units meets SELLs of 50, 20 and 7 (77 units): the SELLs are filled pro
	// rata, 30 × units / 77 rounded down (19, 7, 2) and the 2 units left over go to the
	// largest remainders (600 mod 77 = 61 and 210 mod 77 = 56, against 1500 mod 77 = 37):
	// 19, 8 and 3. The price is the NAV of 100 EUR with the 1% spread: 101 EUR for the
	// buyer, 99 EUR for the sellers.
	It("fills the larger side pro rata in whole units by the largest remainder, and carries a SELL's remainder as a new SELL", func() {
		sc, nh := secondaryClass(1)
		sellers := holders(sc, 3, 100)
		buyer := newCustomer()
		buy := buyer.order(sc, investv1.SideBuy, 30)
		Expect(get(buy).Spec.Quote.Amount).To(Equal(int64(30_451_500)), "30 × 101 EUR + 0.5% fee")
		asked := []int64{50, 20, 7}
		var sells []*investv1.Order
		for i, c := range sellers {
			sells = append(sells, c.order(sc, investv1.SideSell, asked[i]))
		}
		Expect(window(sc.Spec.ISIN, windowDay).Status.Phase).To(Equal(investv1.WindowOpen))

		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		w := matched(sc.Spec.ISIN, windowDay)
		Expect(*w.Status.Result).To(Equal(investv1.MatchingWindowResult{
			BuyPrice: 1_010_000, SellPrice: 990_000, VolumeUnits: 30, BuyFillBasisPoints: 10_000, SellFillBasisPoints: 3896,
			BuyOrders: 1, SellOrders: 3, BuyUnits: 30, SellUnits: 77,
		}))
		Expect(w.Status.NAV.NAVPerShare).To(Equal(int64(1_000_000)))
		Expect(w.Status.NAV.Date).To(Equal(windowDay))

		waitState(buy, investv1.StateExecuted)
		n := get(buy).Status.Strike
		Expect(n.Units).To(Equal(int64(30)))
		Expect(n.NAVPerShare).To(Equal(int64(1_010_000)))
		Expect(n.GrossAmount).To(Equal(int64(30_300_000)))
		Expect(n.FeeAmount).To(Equal(int64(151_500)))
		Expect(n.Residual).To(BeZero())
		Expect(n.Secondary.Outcome).To(Equal(investv1.FillFilled))
		Expect(n.Secondary.AmountPaid).To(Equal(int64(30_451_500)))
		Expect(n.Secondary.AmountDue).To(Equal(int64(30_451_500)))
		Expect(get(buy).Status.Chain).To(BeNil(), "nothing is minted for a SECONDARY BUY")

		filled, carried := []int64{19, 8, 3}, []int64{31, 12, 4}
		nets := []int64{18_762_975, 7_900_200, 2_962_575}
		for i, o := range sells {
			waitState(o, investv1.StateExecuted)
			n := get(o).Status.Strike
			Expect(n.Units).To(Equal(filled[i]))
			Expect(n.RequestedUnits).To(Equal(asked[i]))
			Expect(n.NAVPerShare).To(Equal(int64(990_000)))
			Expect(n.NetAmount).To(Equal(nets[i]))
			Expect(n.Secondary.Outcome).To(Equal(investv1.FillPartial))
			Expect(n.CarriedForward).NotTo(BeNil())
			Expect(n.CarriedForward.Units).To(Equal(carried[i]))
			Expect(n.CarriedForward.DealingDate).To(Equal(nextDay))
			child := &investv1.Order{}
			Eventually(func() error {
				return k8s.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(n.CarriedForward.Order)}, child)
			}).WithTimeout(envtest.Settle).Should(Succeed())
			Expect(child.Spec.CarriedFrom).To(Equal(investv1.ObjectID(o.Name)))
			Expect(child.Spec.AmountOfUnits).To(Equal(carried[i]))
			Expect(child.Spec.Quote.Window.Date).To(Equal(nextDay))
			Eventually(func() bool { return lifecycle.ReadyForMatching(get(child)) }).WithTimeout(envtest.Settle).Should(BeTrue())
			// The SELL waits for its units to reach the buyers; nothing is burned.
			Eventually(func() string { return waitingReason(get(o)) }).WithTimeout(envtest.Settle).Should(Equal(lifecycle.WaitAwaitingUnitsDelivered))
			Expect(get(o).Status.Chain).To(BeNil())
		}
		Eventually(func() investv1.MatchingWindowPhase { return window(sc.Spec.ISIN, windowDay).Status.Phase }).
			WithTimeout(envtest.Settle).Should(Equal(investv1.WindowMatched))

		// Delivery versus payment, recorded by hand: the BUY's transfers, then each SELL's
		// units delivered, then its payout.
		record(buy, lifecycle.StepDeliveryInitiated)
		waitState(buy, investv1.StateDeliveryInitiated)
		record(buy, lifecycle.StepDeliveryCompleted)
		waitState(buy, investv1.StateCompleted)
		for _, o := range sells {
			record(o, lifecycle.StepUnitsDelivered)
			Eventually(func() string { return waitingReason(get(o)) }).WithTimeout(envtest.Settle).Should(Equal(lifecycle.WaitAwaitingPayoutEvidence))
			record(o, lifecycle.StepPaymentSent)
			waitState(o, investv1.StatePaymentSent)
			record(o, lifecycle.StepPaymentCompleted)
			waitState(o, investv1.StateCompleted)
		}
		Eventually(func() int64 { return holding(buyer, sc.Spec.ISIN) }).WithTimeout(envtest.Settle).Should(Equal(int64(30)))
		for i, c := range sellers {
			Eventually(func() int64 { return holding(c, sc.Spec.ISIN) }).WithTimeout(envtest.Settle).Should(Equal(100 - filled[i]))
		}
	})

	// Two BUYs of 6 and 8 units meet one SELL of 10: 10 × 6 / 14 and 10 × 8 / 14 round
	// down to 4 and 5, the unit left over goes to the larger remainder (80 mod 14 = 10
	// against 60 mod 14 = 4): fills of 4 and 6, remainders of 2 each. At 101 EUR and a
	// 0.5% fee the first paid 609.03 EUR and its fill costs 406.02 EUR: the 203.01 EUR
	// left pays its carried BUY of 2 units, exactly what 2 units cost at that price. In the
	// next window a SELL of 2 fills each carried BUY with 1 unit; carried once already
	// (carryWindows 1), the rest of each is cancelled and its money refunded.
	It("carries a BUY's remainder as a new BUY paid with the money its payment did not use, and refunds what that BUY does not use once carried the policy's windows", func() {
		sc, nh := secondaryClass(1)
		seller := holders(sc, 1, 10)[0]
		sell := seller.order(sc, investv1.SideSell, 10)
		buyer1, buyer2 := newCustomer(), newCustomer()
		buy1, buy2 := buyer1.order(sc, investv1.SideBuy, 6), buyer2.order(sc, investv1.SideBuy, 8)
		Expect(get(buy1).Spec.Quote.Amount).To(Equal(int64(6_090_300)))

		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		matched(sc.Spec.ISIN, windowDay)
		waitState(sell, investv1.StateExecuted)
		paid := map[string]int64{buy1.Name: 6_090_300, buy2.Name: 8_120_400}
		var children []*investv1.Order
		for i, o := range []*investv1.Order{buy1, buy2} {
			waitState(o, investv1.StateExecuted)
			n := get(o).Status.Strike
			Expect(n.Units).To(Equal([]int64{4, 6}[i]))
			Expect(n.Secondary.Outcome).To(Equal(investv1.FillPartial))
			Expect(n.Secondary.RemainderCancelled).To(BeZero())
			Expect(n.Residual).To(BeZero(), "nothing is refunded: the money goes with the remainder")
			Expect(n.ResidualReference).To(BeEmpty())
			c := n.CarriedForward
			Expect(c).NotTo(BeNil())
			Expect(c.Units).To(Equal(int64(2)))
			Expect(c.Amount).To(Equal(paid[o.Name]-n.Secondary.AmountDue), "what the fill did not use")
			Expect(c.Amount).To(Equal(int64(2_030_100)), "2 units at 101 EUR and the 0.5% fee")
			Expect(c.DealingDate).To(Equal(nextDay))

			child := &investv1.Order{}
			Eventually(func() error {
				return k8s.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(c.Order)}, child)
			}).
				WithTimeout(envtest.Settle).Should(Succeed())
			Expect(child.Spec.Side).To(Equal(investv1.SideBuy))
			Expect(child.Spec.CarriedFrom).To(Equal(investv1.ObjectID(o.Name)))
			Expect(child.Spec.AmountOfUnits).To(Equal(int64(2)))
			Expect(child.Spec.Quote.Amount).To(Equal(c.Amount))
			Expect(child.Spec.Quote.PaymentDetails).To(BeNil(), "the carried BUY asks for no payment")
			Expect(child.Spec.Quote.Window.Date).To(Equal(nextDay))
			waitState(child, investv1.StatePaymentReceived)
			Expect(get(child).Status.Settlement.PaymentReceived.Reference).To(Equal(secondary.CarriedPaymentPrefix + o.Name))
			Expect(lifecycle.ReadyForMatching(get(child))).To(BeTrue())
			Expect(events(o.Namespace, o.Name, lifecycle.ReasonCarriedToNextWindow)).To(Equal(1))
			children = append(children, child)
		}

		// The parents settle as any BUY filled in part, with no residual to refund.
		for _, o := range []*investv1.Order{buy1, buy2} {
			record(o, lifecycle.StepDeliveryInitiated)
			waitState(o, investv1.StateDeliveryInitiated)
			record(o, lifecycle.StepDeliveryCompleted)
			waitState(o, investv1.StateCompleted)
			Expect(get(o).Status.Settlement.ResidualRefundSent).To(BeNil())
		}

		other := holders(sc, 1, 5)[0]
		sell2 := other.order(sc, investv1.SideSell, 2)
		Expect(get(sell2).Spec.Quote.Window.Date).To(Equal(nextDay))
		clock.Set(deadline.Add(24*time.Hour + time.Minute))
		publish(nh, nextDay)
		matched(sc.Spec.ISIN, nextDay)
		for _, child := range children {
			waitState(child, investv1.StateExecuted)
			n := get(child).Status.Strike
			Expect(n.Units).To(Equal(int64(1)))
			Expect(n.Secondary.Carried).To(Equal(int32(1)))
			Expect(n.CarriedForward).To(BeNil(), "carried the policy's windows: not carried again")
			Expect(n.Secondary.RemainderCancelled).To(Equal(int64(1)))
			Expect(n.Residual).To(Equal(int64(2_030_100-1_015_050)), "the unit it could not buy is refunded")
			Expect(n.ResidualReference).NotTo(BeEmpty())
		}
	})

	It("records a carried BUY's payment once after a crash between its creation and that record, and refuses its cancellation until then", func() {
		sc, nh := secondaryClass(1)
		seller := holders(sc, 1, 3)[0]
		seller.order(sc, investv1.SideSell, 3)
		buyer := newCustomer()
		buy := buyer.order(sc, investv1.SideBuy, 5)
		other := newCustomer().order(sc, investv1.SideBuy, 5)

		stopMgr()
		restarted := false
		DeferCleanup(func() {
			if !restarted {
				stopMgr = startManager()
			}
		})
		dying := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&secondary.Reconciler{Client: carryCrashClient{Client: mgr.GetClient()}, Live: mgr.GetAPIReader(),
				Recorder: mgr.GetEventRecorder("window-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		matched(sc.Spec.ISIN, windowDay)
		var children []*investv1.Order
		for _, o := range []*investv1.Order{buy, other} {
			Eventually(func() *investv1.OrderContractNote { return get(o).Status.Strike }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
			c := get(o).Status.Strike.CarriedForward
			Expect(c).NotTo(BeNil())
			children = append(children, &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(c.Order)}})
		}
		// The controller dies on each carried BUY's record, after creating it.
		for _, child := range children {
			Eventually(func() error { return k8s.Get(ctx, client.ObjectKeyFromObject(child), child) }).WithTimeout(envtest.Settle).Should(Succeed())
		}
		created := children[0]
		Expect(get(created).Status.Settlement.PaymentReceived).To(BeNil(), "the crash came before the record")
		// With its money not recorded yet, a carried BUY cannot be cancelled: nothing
		// would refund it (the dying manager still answers admission).
		fresh := get(created)
		base := fresh.DeepCopy()
		fresh.Spec.CancellationRequested = true
		err := k8s.Patch(ctx, fresh, client.MergeFrom(base))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("is not recorded as the order's payment yet"))
		dying.Stop()

		stopMgr, restarted = startManager(), true
		for _, child := range children {
			Eventually(func() error { return k8s.Get(ctx, client.ObjectKeyFromObject(child), child) }).WithTimeout(envtest.Settle).Should(Succeed())
			waitState(child, investv1.StatePaymentReceived)
			Expect(get(child).Status.Settlement.PaymentReceived.Reference).To(HavePrefix(secondary.CarriedPaymentPrefix))
			Expect(lifecycle.ValidHistory(investv1.SideBuy, lifecycle.HistoryStates(get(child).Status.History))).To(Succeed())
			Eventually(func() int { return events(child.Namespace, child.Name, lifecycle.ReasonPaymentReceived) }).WithTimeout(envtest.Settle).Should(Equal(1))
		}
		Consistently(func() int { return events(created.Namespace, created.Name, lifecycle.ReasonPaymentReceived) }).
			WithTimeout(2 * time.Second).Should(Equal(1))
	})

	It("carries an order it fills none of to the next window, and cancels it with its refund once carried the policy's windows", func() {
		sc, nh := secondaryClass(1)
		buyer := newCustomer()
		buy := buyer.order(sc, investv1.SideBuy, 10)

		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		w := matched(sc.Spec.ISIN, windowDay)
		Expect(w.Status.Result.VolumeUnits).To(BeZero())
		Eventually(func() *investv1.OrderWindow { return get(buy).Status.Window }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
		moved := get(buy)
		Expect(moved.Status.Window.Date).To(Equal(nextDay))
		Expect(moved.Status.Window.Carried).To(Equal(int32(1)))
		Expect(moved.Status.Strike).To(BeNil())
		Expect(moved.Status.State).To(Equal(investv1.StatePaymentReceived))
		Eventually(func() int { return events(buy.Namespace, buy.Name, lifecycle.ReasonCarriedToNextWindow) }).WithTimeout(envtest.Settle).Should(Equal(1))

		clock.Set(deadline.Add(24*time.Hour + time.Minute))
		publish(nh, nextDay)
		waitState(buy, investv1.StateCancelled)
		final := get(buy)
		Expect(final.Status.Strike.Units).To(BeZero())
		Expect(final.Status.Strike.Secondary.Outcome).To(Equal(investv1.FillUnfilled))
		Expect(final.Status.Strike.Secondary.Carried).To(Equal(int32(1)))
		Expect(final.Status.Refund).NotTo(BeNil())
		Expect(final.Status.Refund.Amount).To(Equal(final.Spec.Quote.Amount), "the whole payment is refunded")
	})

	It("takes a cancellation until the window's order deadline and refuses it after", func() {
		sc, nh := secondaryClass(0)
		c := newCustomer()
		early, late := c.order(sc, investv1.SideBuy, 5), c.order(sc, investv1.SideBuy, 6)
		cancel := func(o *investv1.Order) error {
			fresh := get(o)
			base := fresh.DeepCopy()
			fresh.Spec.CancellationRequested = true
			return k8s.Patch(ctx, fresh, client.MergeFrom(base))
		}
		Expect(cancel(early)).To(Succeed())
		waitState(early, investv1.StateCancelled)
		Expect(get(early).Status.Refund).NotTo(BeNil())

		clock.Set(deadline)
		err := cancel(late)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("submitted for matching in the window of " + windowDay))
		publish(nh, windowDay)
		waitState(late, investv1.StateCancelled) // filled nothing, carried nowhere: refunded
		Expect(get(late).Status.Strike.Secondary).NotTo(BeNil())
	})

	It("cancels a SECONDARY BUY still unpaid at its window's order deadline", func() {
		sc, _ := secondaryClass(1)
		c := newCustomer()
		o := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), 2)
		o.Spec.Market = investv1.MarketSecondary
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		Expect(waitingReason(get(o))).To(Equal(lifecycle.WaitAwaitingPaymentEvidence))
		clock.Set(deadline)
		// The order controller wakes at the deadline; here the clock jumped, so touch it.
		Eventually(func() error {
			fresh := get(o)
			base := fresh.DeepCopy()
			fresh.Annotations = map[string]string{"example.com/nudge": "1"}
			return k8s.Patch(ctx, fresh, client.MergeFrom(base))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		waitState(o, investv1.StateCancelled)
		last := get(o).Status.History[len(get(o).Status.History)-1]
		Expect(last.Reason).To(Equal(lifecycle.ReasonUnpaidAtDeadline))
		Expect(get(o).Status.Refund).To(BeNil(), "nothing was paid")
	})

	It("writes the same fills after a crash between the book and the fills, each order once", func() {
		sc, nh := secondaryClass(0)
		sellers := holders(sc, 2, 10)
		var buys []*investv1.Order
		for range 3 {
			buys = append(buys, newCustomer().order(sc, investv1.SideBuy, 4))
		}
		s1, s2 := sellers[0].order(sc, investv1.SideSell, 7), sellers[1].order(sc, investv1.SideSell, 3)

		// The production manager stops; a window controller that dies after writing one
		// order's fill takes over, beside the webhooks.
		stopMgr()
		restarted := false
		DeferCleanup(func() {
			if !restarted {
				stopMgr = startManager()
			}
		})
		var written, succeeded atomic.Int32
		dying := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&secondary.Reconciler{Client: crashingClient{Client: mgr.GetClient(), after: 1, written: &written, succeeded: &succeeded},
				Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("window-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		Eventually(func() int32 { return written.Load() }).WithTimeout(envtest.Settle).Should(BeNumerically(">", 1))
		dying.Stop()
		w := matched(sc.Spec.ISIN, windowDay)
		Expect(w.Status.Book).To(HaveLen(5), "the book was recorded before the first fill")
		Expect(w.Status.Phase).To(Equal(investv1.WindowMatching))
		// The fills written before the crash: at least those whose write returned, at most the
		// one write the crash let through (a write cut short by the stop may still land, and
		// its caller never learns that it did). Read at each poll.
		Eventually(func(g Gomega) {
			fills := 0
			for _, o := range append(append([]*investv1.Order{}, buys...), s1, s2) {
				if get(o).Status.Strike != nil {
					fills++
				}
			}
			g.Expect(fills).To(BeNumerically(">=", succeeded.Load()), "every fill whose write returned is there")
			g.Expect(fills).To(BeNumerically("<=", 1), "no fill beyond the one write the crash let through")
		}).WithTimeout(envtest.Settle).Should(Succeed())
		Expect(succeeded.Load()).To(BeNumerically("<=", 1))

		stopMgr, restarted = startManager(), true
		all := append(append([]*investv1.Order{}, buys...), s1, s2)
		for _, o := range all {
			waitState(o, investv1.StateExecuted)
			Expect(lifecycle.ValidHistory(o.Spec.Side, lifecycle.HistoryStates(get(o).Status.History))).To(Succeed())
			Expect(events(o.Namespace, o.Name, lifecycle.ReasonMatched)).To(BeNumerically("<=", 1))
		}
		// 12 units asked against 10: 4 × 10 / 12 = 3.33 each, the 1 unit left over to the
		// first in priority (placement second, then namespace/name).
		var units []int64
		for _, o := range buys {
			units = append(units, get(o).Status.Strike.Units)
		}
		Expect(units).To(ConsistOf(int64(4), int64(3), int64(3)))
		Expect(get(s1).Status.Strike.Units + get(s2).Status.Strike.Units).To(Equal(int64(10)))
		Eventually(func() investv1.MatchingWindowPhase { return window(sc.Spec.ISIN, windowDay).Status.Phase }).
			WithTimeout(envtest.Settle).Should(Equal(investv1.WindowMatched))
	})

	It("does not match a window with more orders ready than a book holds, and says so", func() {
		sc, nh := secondaryClass(0)
		for range 3 {
			newCustomer().order(sc, investv1.SideBuy, 1)
		}
		stopMgr()
		restarted := false
		DeferCleanup(func() {
			if !restarted {
				stopMgr = startManager()
			}
		})
		small := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&secondary.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), MaxBook: 2, Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		Eventually(func() string { return window(sc.Spec.ISIN, windowDay).Status.Message }).WithTimeout(envtest.Settle).
			Should(Equal("3 orders are ready for this window, more than the 2 one book holds: it is not matched; an operator must split the market's windows"))
		Expect(window(sc.Spec.ISIN, windowDay).Status.NAV).To(BeNil(), "no book recorded")
		small.Stop()
		stopMgr, restarted = startManager(), true
	})

	It("refuses a SECONDARY order of a share class without a secondary market", func() {
		fund := fixtures.Fund()
		sc := fixtures.ShareClass(fund.Name, envtest.NewISIN())
		Expect(k8s.Create(ctx, fund)).To(Succeed())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		Expect(k8s.Create(ctx, fixtures.NAVHistory(string(sc.Spec.ISIN), "EUR", investv1.NAVPrice{Date: "2026-03-09", NAVPerShare: 1_000_000}))).To(Succeed())
		c := newCustomer()
		o := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), 3)
		o.Spec.Market = investv1.MarketSecondary
		err := k8s.Create(ctx, o)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("has no secondary market"))
	})
})

func waitingReason(o *investv1.Order) string {
	for _, c := range o.Status.Conditions {
		if c.Type == lifecycle.ConditionWaiting && c.Status == "True" {
			return c.Reason
		}
	}
	return ""
}

// fakeChain answers the checks at matching with what the spec says of a wallet address
// or, for the suite's customers' shared address, of the customer's namespace; a wallet it
// does not know is registered, not frozen, with 1,000 units.
type fakeChain map[string]rules.WalletState

func (f fakeChain) Wallet(_ context.Context, namespace string, _ investv1.ISIN, address string) (rules.WalletState, error) {
	if st, ok := f[address]; ok {
		return st, nil
	}
	if st, ok := f[namespace]; ok {
		return st, nil
	}
	return rules.WalletState{Verified: true, Unlocked: 1000}, nil
}

// ownWallet is a new wallet of the customer with an address of its own (the suite's
// customers share one).
func ownWallet(c customer) *investv1.Wallet {
	GinkgoHelper()
	var b [20]byte
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	w := fixtures.Wallet(c.ns, c.account.Name, common.BytesToAddress(b[:]).Hex())
	Expect(k8s.Create(ctx, w)).To(Succeed())
	return w
}

var _ = Describe("The checks at matching", func() {
	BeforeEach(func() { clock.Set(start) })

	It("leave out of the book a SELL whose units left its wallet, a BUY whose wallet is frozen and a BUY whose wallet also sells, saying why, and carry them", func() {
		sc, nh := secondaryClass(1)
		sellers := holders(sc, 2, 10)
		walletA, walletB := ownWallet(sellers[0]), ownWallet(sellers[1])
		gone := sellers[0].orderFrom(sc, investv1.SideSell, 8, walletA)
		kept := sellers[1].orderFrom(sc, investv1.SideSell, 5, walletB)
		self := sellers[1].orderFrom(sc, investv1.SideBuy, 2, walletB) // the wallet that sells
		buyer1, buyer2 := newCustomer(), newCustomer()
		frozen := buyer1.orderFrom(sc, investv1.SideBuy, 3, ownWallet(buyer1))
		fine := buyer2.orderFrom(sc, investv1.SideBuy, 5, ownWallet(buyer2))
		chain := fakeChain{
			walletA.Spec.WalletAddress: {Verified: true, Unlocked: 2}, // 8 of its 10 units moved away on chain
			frozen.Namespace:           {Verified: true, Frozen: true},
		}

		stopMgr()
		restarted := false
		DeferCleanup(func() {
			if !restarted {
				stopMgr = startManager()
			}
		})
		checking := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&secondary.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Chain: chain,
				Recorder: mgr.GetEventRecorder("window-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		w := matched(sc.Spec.ISIN, windowDay)
		Expect(w.Status.Unmatched).To(Equal(int32(3)))
		Expect(w.Status.Book).To(HaveLen(2))
		Expect(w.Status.Result.VolumeUnits).To(Equal(int64(5)))
		for _, o := range []*investv1.Order{gone, frozen, self} {
			Eventually(func() *investv1.OrderWindow { return get(o).Status.Window }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
			Expect(get(o).Status.Window.Date).To(Equal(nextDay))
			Expect(get(o).Status.Strike).To(BeNil(), "never half-settled: no fill")
			Expect(events(o.Namespace, o.Name, "NotMatched")).To(Equal(1))
		}
		for _, o := range []*investv1.Order{kept, fine} {
			Eventually(func() *investv1.OrderContractNote { return get(o).Status.Strike }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
			Expect(get(o).Status.Strike.Units).To(Equal(int64(5)))
		}
		checking.Stop()
		stopMgr, restarted = startManager(), true
	})
})
