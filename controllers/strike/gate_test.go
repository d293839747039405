package strike_test

import (
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

// The redemption gate of a dealing date (docs/dealing.md, "The redemption gate"): three
// holders of 100 units each (300 outstanding) sell 50, 20 and 7 units at the dealing date
// 2026-03-11 of a class whose gate is 10% (30 units).
const (
	gateDay  = "2026-03-11"
	gateNext = "2026-03-12"
	txHash   = "0x" + "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"
)

var _ = Describe("The redemption gate of a dealing date", func() {
	var gateCut = time.Date(2026, time.March, 11, 11, 0, 0, 0, time.UTC)
	BeforeEach(func() { clock.Set(start) })

	// holders are n customers holding units each of a new class with a 10% gate.
	holders := func(remainder investv1.GateRemainder, n int, units int64) (*investv1.ShareClass, *investv1.NAVHistory, []customer) {
		GinkgoHelper()
		return holdersOf(func(t *investv1.DealingTerms) {
			t.RedemptionGate = &investv1.DealingRedemptionGate{ThresholdBasisPoints: 1000, Remainder: remainder}
		}, n, units)
	}
	sell := func(c customer, isin investv1.ISIN, units int64) *investv1.Order {
		GinkgoHelper()
		o := fixtures.BuyOrder(c.ns, c.account.Name, string(isin), units)
		o.Spec.Side = investv1.SideSell
		Expect(k8s.Create(ctx, o)).To(Succeed())
		Expect(get(o).Spec.Quote.DealingDate).To(Equal(gateDay))
		Eventually(func() bool { return lifecycle.ReadyForStrike(get(o)) }).WithTimeout(envtest.Settle).Should(BeTrue())
		return o
	}

	It("a redemption gate fills SELLs pro rata and carries the rest forward", func() {
		sc, nh, cs := holders(investv1.GateCarryForward, 3, 100)
		asked := []int64{50, 20, 7}
		var sells []*investv1.Order
		for i, c := range cs {
			sells = append(sells, sell(c, sc.Spec.ISIN, asked[i]))
		}
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, gateDay, 1_000_000)).To(Succeed())

		Eventually(func() *investv1.DealingGate { return dealingOf(sc.Spec.ISIN, gateDay).Status.RedemptionGate }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
		d := dealingOf(sc.Spec.ISIN, gateDay)
		Expect(*d.Status.RedemptionGate).To(Equal(investv1.DealingGate{
			ThresholdBasisPoints: 1000, OutstandingUnits: 300, LimitUnits: 30, RequestedUnits: 77, Sells: 3, Remainder: investv1.GateCarryForward,
		}))

		// 30 of 77: 50 → 19, 20 → 7, 7 → 2 (rounded down; 2 units of the limit unused).
		filled, carried := []int64{19, 7, 2}, []int64{31, 13, 5}
		for i, o := range sells {
			waitState(o, investv1.StateExecuted)
			n := get(o).Status.Strike
			Expect(n.Units).To(Equal(filled[i]))
			Expect(n.RequestedUnits).To(Equal(asked[i]))
			Expect(n.GrossAmount).To(Equal(filled[i] * 1_000_000))
			Expect(n.CarriedForward).NotTo(BeNil())
			Expect(n.CarriedForward.Units).To(Equal(carried[i]))
			Expect(n.CarriedForward.DealingDate).To(Equal(gateNext))
			Expect(lifecycle.Units(get(o))).To(Equal(filled[i]), "a gated SELL burns and pays out the units filled")

			child := &investv1.Order{}
			Eventually(func() error {
				return k8s.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(n.CarriedForward.Order)}, child)
			}).WithTimeout(envtest.Settle).Should(Succeed())
			Expect(child.Spec.CarriedFrom).To(Equal(investv1.ObjectID(o.Name)))
			Expect(child.Spec.AmountOfUnits).To(Equal(carried[i]))
			Expect(child.Spec.Quote.DealingDate).To(Equal(gateNext))
			Expect(child.Spec.Quote.FeeRate).To(Equal(get(o).Spec.Quote.FeeRate))
			waitState(child, investv1.StateRedemptionGated)
			Expect(get(child).Status.History[len(get(child).Status.History)-1].Reason).To(Equal(lifecycle.ReasonRedemptionCarriedForward))

			// The account reserves the units filled for the SELL and the rest for the
			// carried one: the 50 (or 20, 7) units stay promised, none twice.
			Eventually(func() map[investv1.ObjectID]int64 { return reservations(cs[i]) }).WithTimeout(envtest.Settle).Should(Equal(
				map[investv1.ObjectID]int64{investv1.ObjectID(o.Name): filled[i], n.CarriedForward.Order: carried[i]}))
		}
		Eventually(func(g Gomega) {
			st := dealingOf(sc.Spec.ISIN, gateDay).Status
			g.Expect(st.UnitsRedeemed).To(Equal(int64(28)))
			g.Expect(st.UnitsCarriedForward).To(Equal(int64(49)))
		}).WithTimeout(envtest.Settle).Should(Succeed())

		// A client cannot make up a carried SELL: admission checks the contract note.
		forged := fixtures.BuyOrder(cs[0].ns, cs[0].account.Name, string(sc.Spec.ISIN), 31)
		forged.Spec.Side, forged.Spec.CarriedFrom = investv1.SideSell, investv1.ObjectID(sells[0].Name)
		err := k8s.Create(ctx, forged)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("only the strike and window controllers create a carried-forward order"))

		// The next dealing date gates the carried units again: 300 outstanding (the SELLs
		// are not completed), 49 asked, 30 filled pro rata.
		clock.Set(time.Date(2026, time.March, 12, 12, 0, 0, 0, time.UTC))
		Expect(publish(nh, gateNext, 1_010_000)).To(Succeed())
		for i, o := range sells {
			child := get(&investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(get(o).Status.Strike.CarriedForward.Order)}})
			waitState(child, investv1.StateExecuted)
			n := get(child).Status.Strike
			Expect(n.Units).To(Equal([]int64{18, 7, 3}[i]))
			Expect(n.NAVPerShare).To(Equal(int64(1_010_000)))
			Expect(lifecycle.ValidHistory(investv1.SideSell, lifecycle.HistoryStates(get(child).Status.History))).To(Succeed())
		}
	})

	It("a redemption gate with the Cancel remainder deals what it fills and redeems no more", func() {
		sc, nh, cs := holders(investv1.GateCancel, 2, 100)
		big := sell(cs[0], sc.Spec.ISIN, 50)
		small := sell(cs[1], sc.Spec.ISIN, 1)
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, gateDay, 1_000_000)).To(Succeed())

		// 20 of 51: 50 → 19, 1 → 0.
		waitState(big, investv1.StateExecuted)
		n := get(big).Status.Strike
		Expect(n.Units).To(Equal(int64(19)))
		Expect(n.RequestedUnits).To(Equal(int64(50)))
		Expect(n.CarriedForward).To(BeNil())
		Expect(get(big).Status.History[len(get(big).Status.History)-1].Message).To(ContainSubstring("the redemption gate filled 19 of the 50 units asked: the rest is not redeemed"))
		Eventually(func() map[investv1.ObjectID]int64 { return reservations(cs[0]) }).WithTimeout(envtest.Settle).Should(Equal(
			map[investv1.ObjectID]int64{investv1.ObjectID(big.Name): 19}))

		waitState(small, investv1.StateCancelled)
		last := get(small).Status.History[len(get(small).Status.History)-1]
		Expect(last.Reason).To(Equal(lifecycle.ReasonRedemptionNotFilled))
		Eventually(func(g Gomega) {
			st := dealingOf(sc.Spec.ISIN, gateDay).Status
			g.Expect(st.UnitsRedeemed).To(Equal(int64(19)))
			g.Expect(st.UnitsNotRedeemed).To(Equal(int64(32)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
	})

	It("a SELL the gate fills none of moves whole to the next dealing date", func() {
		sc, nh, cs := holders(investv1.GateCarryForward, 2, 100)
		big := sell(cs[0], sc.Spec.ISIN, 20)
		small := sell(cs[1], sc.Spec.ISIN, 1)
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, gateDay, 1_000_000)).To(Succeed())

		// 20 of 21: 20 → 19 (1 carried), 1 → 0: the SELL itself moves on, and deals in
		// full at the next date (2 units asked, 20 the limit).
		waitState(big, investv1.StateExecuted)
		Eventually(func(g Gomega) {
			o := get(small)
			g.Expect(o.Status.Dealing).NotTo(BeNil())
			g.Expect(o.Status.Dealing.Date).To(Equal(gateNext))
			g.Expect(o.Status.Dealing.Reason).To(Equal(investv1.DealingMoveRedemptionGate))
			g.Expect(o.Status.Strike).To(BeNil())
			g.Expect(o.Status.State).To(Equal(investv1.StateRedemptionGated))
		}).WithTimeout(envtest.Settle).Should(Succeed())
		Expect(reservations(cs[1])).To(Equal(map[investv1.ObjectID]int64{investv1.ObjectID(small.Name): 1}))

		clock.Set(time.Date(2026, time.March, 12, 12, 0, 0, 0, time.UTC))
		Expect(publish(nh, gateNext, 1_000_000)).To(Succeed())
		waitState(small, investv1.StateExecuted)
		Expect(get(small).Status.Strike.Units).To(Equal(int64(1)))
		Expect(get(small).Status.Strike.TradeDate).To(Equal(gateNext))
	})

	It("a strike that dies between a gated SELL's contract note and its carried SELL resumes without carrying twice", func() {
		sc, nh, cs := holders(investv1.GateCarryForward, 2, 100)
		a := sell(cs[0], sc.Spec.ISIN, 50)
		b := sell(cs[1], sc.Spec.ISIN, 30)

		// A strike controller that writes a contract note and the reservations, then dies
		// each time it creates an order.
		stopMgr()
		var written atomic.Int32
		dying := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&strike.Reconciler{Client: crashingClient{Client: mgr.GetClient(), after: 1000, written: &written, noCreate: true},
				Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("strike-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, gateDay, 1_000_000)).To(Succeed())
		// The strike prices every order of the dealing first, then carries the remainders.
		Eventually(func() bool { return get(a).Status.Strike != nil && get(b).Status.Strike != nil }).WithTimeout(envtest.Settle).Should(BeTrue())
		carried := func() int {
			n := 0
			for _, o := range []*investv1.Order{a, b} {
				var orders investv1.OrderList
				Expect(k8s.List(ctx, &orders, client.InNamespace(o.Namespace))).To(Succeed())
				for _, c := range orders.Items {
					if c.Spec.CarriedFrom != "" {
						n++
					}
				}
			}
			return n
		}
		Consistently(carried).WithTimeout(2*time.Second).Should(BeZero(), "the dying strike carried no remainder")
		dying.Stop()
		for _, o := range []*investv1.Order{a, b} {
			if n := get(o).Status.Strike; n != nil {
				Expect(k8s.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(n.CarriedForward.Order)}, &investv1.Order{})).NotTo(Succeed(),
					"the dying strike created a carried SELL")
			}
		}

		stopMgr = startManager()
		// 20 of 80: 50 → 12 (38 carried), 30 → 7 (23 carried).
		for i, o := range []*investv1.Order{a, b} {
			waitState(o, investv1.StateExecuted)
			n := get(o).Status.Strike
			Expect(n.Units).To(Equal([]int64{12, 7}[i]))
			child := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(n.CarriedForward.Order)}}
			waitState(child, investv1.StateRedemptionGated)
			Expect(get(child).Spec.AmountOfUnits).To(Equal([]int64{38, 23}[i]))
			var orders investv1.OrderList
			Expect(k8s.List(ctx, &orders, client.InNamespace(o.Namespace))).To(Succeed())
			Expect(orders.Items).To(HaveLen(3), "the buy, the gated SELL and one carried SELL")
			Eventually(func() map[investv1.ObjectID]int64 { return reservations(cs[i]) }).WithTimeout(envtest.Settle).Should(Equal(
				map[investv1.ObjectID]int64{investv1.ObjectID(o.Name): n.Units, n.CarriedForward.Order: n.CarriedForward.Units}))
			Eventually(func() int { return events(o.Namespace, o.Name, lifecycle.ReasonRedemptionCarriedForward) }).WithTimeout(envtest.Settle).Should(Equal(1))
		}
	})
})

// holdersOf are n customers holding units each of a new forward class with the terms
// mutate sets, bought at the strike of 2026-03-10 (NAV 100 EUR) and settled by hand; the
// clock is then past that cut-off.
func holdersOf(mutate func(*investv1.DealingTerms), n int, units int64) (*investv1.ShareClass, *investv1.NAVHistory, []customer) {
	GinkgoHelper()
	sc, nh := forwardClass(mutate)
	var cs []customer
	var buys []*investv1.Order
	for range n {
		c := newCustomer()
		o := fixtures.BuyOrder(c.ns, c.account.Name, string(sc.Spec.ISIN), units)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		cs, buys = append(cs, c), append(buys, o)
	}
	for _, o := range buys {
		pay(o)
	}
	clock.Set(cutOff.Add(time.Hour))
	Expect(publish(nh, dealingDay, 1_000_000)).To(Succeed())
	for _, o := range buys {
		waitState(o, investv1.StateExecuted)
		record(o, lifecycle.StepDeliveryInitiated)
		waitState(o, investv1.StateDeliveryInitiated)
		record(o, lifecycle.StepDeliveryCompleted)
		waitState(o, investv1.StateCompleted)
	}
	for _, c := range cs {
		Eventually(func() int64 { return holding(c, sc.Spec.ISIN) }).WithTimeout(envtest.Settle).Should(Equal(units))
	}
	return sc, nh, cs
}

// record records a piece of settlement evidence by hand, as an operator with kubectl.
func record(o *investv1.Order, step lifecycle.Step) {
	GinkgoHelper()
	Eventually(func() error {
		fresh := get(o)
		base := fresh.DeepCopy()
		lifecycle.Record(fresh, step, investv1.SettlementRecord{TransactionHash: txHash, At: metav1.NewTime(time.Now().UTC().Truncate(time.Second))})
		return k8s.Status().Patch(ctx, fresh, client.MergeFrom(base))
	}).WithTimeout(envtest.Settle).Should(Succeed())
}

func holding(c customer, isin investv1.ISIN) int64 {
	GinkgoHelper()
	a := &investv1.Account{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
	for _, h := range a.Status.Holdings {
		if h.ISIN == isin {
			return h.Units
		}
	}
	return 0
}

func reservations(c customer) map[investv1.ObjectID]int64 {
	GinkgoHelper()
	a := &investv1.Account{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
	out := map[investv1.ObjectID]int64{}
	for _, r := range a.Status.Reservations {
		out[r.Order] = r.Units
	}
	return out
}
