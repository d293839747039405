package strike_test

import (
	"fmt"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/strike"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Forward orders and the NAV strike", func() {
	BeforeEach(func() { clock.Set(start) })

	It("places a forward order for its dealing date without a price, and admission names both fields when both or neither are given", func() {
		sc, _ := forwardClass(nil)
		c := newCustomer()

		o := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		placed := get(o)
		q := placed.Spec.Quote
		Expect(q.DealingDate).To(Equal(dealingDay))
		Expect(q.CutOff.UTC()).To(Equal(cutOff))
		Expect(q.NAVPerShare).To(BeZero(), "no NAV is read at placement")
		Expect(q.FeeRate).To(Equal(int64(150)))
		Expect(q.Amount).To(Equal(int64(10_000_000)))
		waitState(o, investv1.StateAwaitingPayment)
		Expect(get(o).Status.History[1].Message).To(ContainSubstring("by 2026-03-10T11:00:00Z"), "the payment instructions say pay by the cut-off")

		both := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		both.Spec.AmountOfUnits = 3
		err := k8s.Create(ctx, both)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(And(ContainSubstring("spec.amount:"), ContainSubstring("spec.amountOfUnits:"), ContainSubstring("not both")))

		neither := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		neither.Spec.Amount = 0
		err = k8s.Create(ctx, neither)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(And(ContainSubstring("spec.amount:"), ContainSubstring("spec.amountOfUnits:"), ContainSubstring("exactly one")))

		sell := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		sell.Spec.Side = investv1.SideSell
		err = k8s.Create(ctx, sell)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("a SELL is given in units"))
	})

	It("a paid order is priced and executed in one status write and one Event", func() {
		sc, nh := forwardClass(nil)
		c := newCustomer()
		o := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		pay(o)
		wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: k8s.Scheme()})
		Expect(err).NotTo(HaveOccurred())
		w, err := wc.Watch(ctx, &investv1.OrderList{}, client.InNamespace(c.ns), client.MatchingFields{"metadata.name": o.Name},
			&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: get(o).ResourceVersion}})
		Expect(err).NotTo(HaveOccurred())
		defer w.Stop()

		clock.Set(cutOff.Add(time.Hour))
		Expect(publish(nh, dealingDay, 1_000_000)).To(Succeed())
		var seen []string // every version of the order the API server stored, in order
		Eventually(func() investv1.OrderState {
			for {
				select {
				case ev := <-w.ResultChan():
					if v, ok := ev.Object.(*investv1.Order); ok {
						seen = append(seen, fmt.Sprintf("%s priced=%v", v.Status.State, v.Status.Strike != nil))
						if v.Status.Strike != nil {
							return v.Status.State
						}
					}
				default:
					return ""
				}
			}
		}).WithTimeout(envtest.Settle).Should(Equal(investv1.StateExecuted))
		Expect(seen).To(HaveExactElements(fmt.Sprintf("%s priced=true", investv1.StateExecuted)),
			"the one write of the strike holds the contract note and the move to EXECUTED")
		Eventually(func() int { return events(c.ns, o.Name, lifecycle.ReasonPricedAtStrike) }).WithTimeout(envtest.Settle).Should(Equal(1))
		Consistently(func() int { return events(c.ns, o.Name, "ContractNote") }).WithTimeout(time.Second).Should(BeZero(),
			"the transition's Event carries the contract note")
	})

	It("a burst of orders is counted in a few status writes of its Dealing, not one write per order", func() {
		sc, _ := forwardClass(nil)
		c := newCustomer()
		name := lifecycle.DealingName(sc.Spec.ISIN, dealingDay)
		first := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, first)).To(Succeed())
		d := &investv1.Dealing{}
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: name}, d)).To(Succeed())
			g.Expect(d.Status.Orders).To(Equal(int32(1)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: k8s.Scheme()})
		Expect(err).NotTo(HaveOccurred())
		w, err := wc.Watch(ctx, &investv1.DealingList{}, client.MatchingFields{"metadata.name": name},
			&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: d.ResourceVersion}})
		Expect(err).NotTo(HaveOccurred())
		defer w.Stop()

		const burst = 20
		for range burst {
			Expect(k8s.Create(ctx, c.buyAmount(sc.Spec.ISIN, 10_000_000))).To(Succeed())
			time.Sleep(50 * time.Millisecond) // one order after the other, as clients place them
		}
		var counts []int32 // the order count of every version of the Dealing the API server stored
		Eventually(func() int32 {
			for {
				select {
				case ev := <-w.ResultChan():
					if v, ok := ev.Object.(*investv1.Dealing); ok {
						counts = append(counts, v.Status.Orders)
					}
				default:
					if len(counts) == 0 {
						return 0
					}
					return counts[len(counts)-1]
				}
			}
		}).WithTimeout(envtest.Settle).Should(Equal(int32(1 + burst)))
		Expect(len(counts)).To(BeNumerically("<=", 3), "the Dealing's versions while %d orders arrived in about a second: %v", burst, counts)
	})

	It("an amount BUY gets units rounded down and the residual refunded", func() {
		sc, nh := forwardClass(nil)
		c := newCustomer()
		o := c.buyAmount(sc.Spec.ISIN, 10_000_000) // 1,000 EUR
		Expect(k8s.Create(ctx, o)).To(Succeed())
		pay(o)
		Eventually(func(g Gomega) {
			d := &investv1.Dealing{}
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, dealingDay)}, d)).To(Succeed())
			g.Expect(d.Status.Phase).To(Equal(investv1.DealingOpen))
			g.Expect(d.Status.Orders).To(Equal(int32(1)))
		}).WithTimeout(envtest.Settle).Should(Succeed())

		clock.Set(cutOff.Add(time.Hour))
		Expect(publish(nh, dealingDay, 1_050_000)).To(Succeed()) // 105.0000 EUR
		waitState(o, investv1.StateExecuted)

		n := get(o).Status.Strike
		// fee 1.5% of 1,000 = 15 EUR; 985 EUR ÷ 105 = 9.38…: 9 units worth 945 EUR; 40 EUR back.
		Expect(n.Units).To(Equal(int64(9)))
		Expect(n.FeeAmount).To(Equal(int64(150_000)))
		Expect(n.NetAmount).To(Equal(int64(9_850_000)))
		Expect(n.UnitsValue).To(Equal(int64(9_450_000)))
		Expect(n.Residual).To(Equal(int64(400_000)))
		Expect(n.ResidualReference).To(HavePrefix("RS-"))
		Expect(n.TradeDate).To(Equal(dealingDay))
		Expect(n.NAVDate).To(Equal(dealingDay))
		Expect(n.NAVPerShare).To(Equal(int64(1_050_000)))
		Expect(n.SettlementDate).To(Equal("2026-03-12"))
		Expect(lifecycle.Units(get(o))).To(Equal(int64(9)))
		last := get(o).Status.History[len(get(o).Status.History)-1]
		Expect(last.Reason).To(Equal(lifecycle.ReasonPricedAtStrike))
		Expect(last.Message).To(ContainSubstring("the residual 40.0000 EUR is refunded"))
		Eventually(func() int { return events(c.ns, o.Name, lifecycle.ReasonPricedAtStrike) }).WithTimeout(envtest.Settle).Should(Equal(1))

		Eventually(func(g Gomega) {
			d := &investv1.Dealing{}
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, dealingDay)}, d)).To(Succeed())
			g.Expect(d.Status.Phase).To(Equal(investv1.DealingStruck))
			g.Expect(d.Status.NAV.NAVPerShare).To(Equal(int64(1_050_000)))
			g.Expect(d.Status.Priced).To(Equal(int32(1)))
			g.Expect(d.Status.Subscriptions).To(Equal(int64(10_000_000)))
			g.Expect(d.Status.UnitsSubscribed).To(Equal(int64(9)))
			g.Expect(d.Status.Residuals).To(Equal(int64(400_000)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
	})

	It("a BUY by units is priced at the strike with the placement arithmetic (gross = units × NAV)", func() {
		sc, nh := forwardClass(nil)
		c := newCustomer()
		// By units: the strike fixes the amount; this one was paid ahead.
		holding := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), 10)
		Expect(k8s.Create(ctx, holding)).To(Succeed())
		pay(holding)
		clock.Set(cutOff.Add(time.Hour))
		Expect(publish(nh, dealingDay, 1_050_000)).To(Succeed())
		waitState(holding, investv1.StateExecuted)
		Expect(get(holding).Status.Strike.GrossAmount).To(Equal(int64(10_500_000)))
		Expect(get(holding).Status.Strike.FeeAmount).To(Equal(int64(157_500)))
	})

	It("a cancel after the cut-off is refused with 409 Order submitted for dealing", func() {
		sc, _ := forwardClass(nil)
		c := newCustomer()
		before := c.buyAmount(sc.Spec.ISIN, 5_000_000)
		after := c.buyAmount(sc.Spec.ISIN, 5_000_000)
		Expect(k8s.Create(ctx, before)).To(Succeed())
		Expect(k8s.Create(ctx, after)).To(Succeed())
		pay(before)
		pay(after)

		// Before the cut-off: cancelled, the payment refunded.
		cancel := func(o *investv1.Order) error {
			fresh := get(o)
			base := fresh.DeepCopy()
			fresh.Spec.CancellationRequested = true
			return k8s.Patch(ctx, fresh, client.MergeFrom(base))
		}
		Expect(cancel(before)).To(Succeed())
		waitState(before, investv1.StateCancelled)
		Expect(get(before).Status.Refund.Amount).To(Equal(int64(5_000_000)))

		clock.Set(cutOff)
		err := cancel(after)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("submitted for dealing on 2026-03-10"))
		Expect(get(after).Spec.CancellationRequested).To(BeFalse())
	})

	It("an unpaid BUY is cancelled at the cut-off when its share class says Cancel", func() {
		sc, _ := forwardClass(nil)
		o := newCustomer().buyAmount(sc.Spec.ISIN, 5_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		clock.Set(cutOff.Add(time.Second))
		waitState(o, investv1.StateCancelled)
		h := get(o).Status.History
		Expect(h[len(h)-1].Reason).To(Equal(lifecycle.ReasonUnpaidAtCutOff))
	})

	It("an unpaid BUY moves to the next dealing date", func() {
		sc, _ := forwardClass(func(t *investv1.DealingTerms) { t.UnpaidAtCutOff = investv1.UnpaidNextDealingDate })
		c := newCustomer()
		o := c.buyAmount(sc.Spec.ISIN, 5_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		clock.Set(cutOff.Add(time.Second))
		Eventually(func(g Gomega) {
			fresh := &investv1.Order{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
			g.Expect(fresh.Status.Dealing).NotTo(BeNil())
			g.Expect(fresh.Status.Dealing.Date).To(Equal("2026-03-11"))
			g.Expect(fresh.Status.Dealing.CutOff.UTC()).To(Equal(cutOff.Add(24 * time.Hour)))
			g.Expect(fresh.Status.State).To(Equal(investv1.StateAwaitingPayment))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		Eventually(func() int { return events(c.ns, o.Name, lifecycle.ReasonMovedToNextDealingDate) }).WithTimeout(envtest.Settle).Should(Equal(1))
		// It belongs to the next dealing now, and is cancellable until its cut-off.
		Eventually(func(g Gomega) {
			d := &investv1.Dealing{}
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, "2026-03-11")}, d)).To(Succeed())
			g.Expect(d.Status.Orders).To(Equal(int32(1)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		fresh := get(o)
		base := fresh.DeepCopy()
		fresh.Spec.CancellationRequested = true
		Expect(k8s.Patch(ctx, fresh, client.MergeFrom(base))).To(Succeed())
		waitState(o, investv1.StateCancelled)
	})

	It("a NAV correction after the strike is refused", func() {
		sc, nh := forwardClass(nil)
		o := newCustomer().buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		pay(o)
		clock.Set(cutOff.Add(time.Hour))
		Expect(publish(nh, dealingDay, 1_050_000)).To(Succeed())
		waitState(o, investv1.StateExecuted)

		fresh := &investv1.NAVHistory{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(nh), fresh)).To(Succeed())
		base := fresh.DeepCopy()
		for i := range fresh.Spec.Prices {
			if fresh.Spec.Prices[i].Date == dealingDay {
				fresh.Spec.Prices[i].NAVPerShare = 1_060_000
			}
		}
		err := k8s.Patch(ctx, fresh, client.MergeFrom(base))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(And(ContainSubstring("was struck at 105.0000 EUR"), ContainSubstring("a struck NAV is not changed"), ContainSubstring("docs/dealing.md")))

		// A date no dealing was struck on can still be corrected.
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(nh), fresh)).To(Succeed())
		base = fresh.DeepCopy()
		fresh.Spec.Prices[0].NAVPerShare = 1_000_001
		Expect(k8s.Patch(ctx, fresh, client.MergeFrom(base))).To(Succeed())
		Expect(get(o).Status.Strike.NAVPerShare).To(Equal(int64(1_050_000)))
	})

	It("the strike prices every order exactly once across a restart", func() {
		sc, nh := forwardClass(nil)
		c := newCustomer()
		const n = 12
		var orders []*investv1.Order
		for i := range n {
			o := c.buyAmount(sc.Spec.ISIN, int64(50_000_000+i*1_370_001))
			Expect(k8s.Create(ctx, o)).To(Succeed())
			orders = append(orders, o)
		}
		for _, o := range orders {
			pay(o)
		}

		// The production manager stops; a strike controller that dies after pricing 5
		// orders takes over, beside the webhooks.
		stopMgr()
		var written atomic.Int32
		dying := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&strike.Reconciler{Client: crashingClient{Client: mgr.GetClient(), after: 5, written: &written},
				Recorder: mgr.GetEventRecorder("strike-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(cutOff.Add(time.Hour))
		Expect(publish(nh, dealingDay, 1_234_567)).To(Succeed())
		Eventually(func(g Gomega) {
			priced := 0
			for _, o := range orders {
				fresh := &investv1.Order{}
				g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
				if fresh.Status.Strike != nil {
					priced++
				}
			}
			g.Expect(priced).To(Equal(5))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		dying.Stop()
		Expect(dealingOf(sc.Spec.ISIN, dealingDay).Status.NAV.NAVPerShare).To(Equal(int64(1_234_567)))

		// The production manager comes back and finishes the strike.
		stopMgr = startManager()
		for _, o := range orders {
			waitState(o, investv1.StateExecuted)
		}
		var units int64
		for _, o := range orders {
			fresh := get(o)
			note := fresh.Status.Strike
			Expect(note.NAVPerShare).To(Equal(int64(1_234_567)))
			Expect(note.Dealing).To(Equal(lifecycle.DealingName(sc.Spec.ISIN, dealingDay)))
			want, err := lifecycle.ContractNote(fresh, lifecycle.Strike{Dealing: note.Dealing, Date: dealingDay, NAVPerShare: 1_234_567, SettlementDate: "2026-03-12", At: note.StruckAt.Time})
			Expect(err).NotTo(HaveOccurred())
			Expect(want.StruckAt.Equal(&note.StruckAt)).To(BeTrue())
			want.StruckAt = note.StruckAt // the same instant; the decoded one is in UTC
			Expect(*note).To(Equal(*want))
			Expect(lifecycle.ValidHistory(investv1.SideBuy, lifecycle.HistoryStates(fresh.Status.History))).To(Succeed())
			units += note.Units
		}
		for _, o := range orders {
			Eventually(func() int { return events(c.ns, o.Name, lifecycle.ReasonPricedAtStrike) }).WithTimeout(envtest.Settle).Should(Equal(1), "one contract note for %s", o.Name)
		}
		Eventually(func(g Gomega) {
			d := &investv1.Dealing{}
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, dealingDay)}, d)).To(Succeed())
			g.Expect(d.Status.Priced).To(Equal(int32(n)))
			g.Expect(d.Status.UnitsSubscribed).To(Equal(units))
		}).WithTimeout(envtest.Settle).Should(Succeed())

		// A contract note cannot be replaced: the API server refuses a second pricing.
		fresh := get(orders[0])
		base := fresh.DeepCopy()
		fresh.Status.Strike.NAVPerShare++
		err := k8s.Status().Patch(ctx, fresh, client.MergeFrom(base))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("an order is priced once"))
	})

	It("shows the next strikes with kubectl get dealings", func() {
		sc, _ := forwardClass(nil)
		Eventually(func(g Gomega) {
			var list investv1.DealingList
			g.Expect(k8s.List(ctx, &list)).To(Succeed())
			var dates []string
			for _, d := range list.Items {
				if d.Spec.ISIN == sc.Spec.ISIN {
					dates = append(dates, fmt.Sprintf("%s %s", d.Spec.Date, d.Status.Phase))
				}
			}
			g.Expect(dates).To(ConsistOf("2026-03-10 Open", "2026-03-11 Open", "2026-03-12 Open"))
		}).WithTimeout(envtest.Settle).Should(Succeed())
	})
})
