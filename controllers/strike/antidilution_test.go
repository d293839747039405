package strike_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// Anti-dilution at the strike (docs/dealing.md, "Anti-dilution"): 2 holders of 100 units
// (20,000 EUR of class value at 100 EUR), and orders at the dealing date 2026-03-11.
var _ = Describe("Anti-dilution at the strike", func() {
	gateCut := time.Date(2026, time.March, 11, 11, 0, 0, 0, time.UTC)
	BeforeEach(func() { clock.Set(start) })

	It("swing pricing deals every order at the swung NAV when the net flow passes the threshold", func() {
		sc, nh, cs := holdersOf(func(t *investv1.DealingTerms) {
			t.AntiDilution = &investv1.AntiDilution{Method: investv1.SwingPricing, ThresholdBasisPoints: 1000, FactorBasisPoints: 150}
		}, 2, 100)
		// In: 3,001 EUR by amount; out: 10 units (1,000 EUR at 100 EUR). The net inflow of
		// 2,001 EUR is just above 10% of the class's 20,000 EUR.
		buy := cs[0].buyAmount(sc.Spec.ISIN, 30_010_000)
		sell := fixtures.BuyOrder(cs[1].ns, cs[1].account.Name, string(sc.Spec.ISIN), 10)
		sell.Spec.Side = investv1.SideSell
		for _, o := range []*investv1.Order{buy, sell} {
			Expect(k8s.Create(ctx, o)).To(Succeed())
		}
		pay(buy)
		Eventually(func() bool { return lifecycle.ReadyForStrike(get(sell)) }).WithTimeout(envtest.Settle).Should(BeTrue())
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, "2026-03-11", 1_000_000)).To(Succeed())

		for _, o := range []*investv1.Order{buy, sell} {
			waitState(o, investv1.StateExecuted)
		}
		Eventually(func() *investv1.DealingAntiDilution { return dealingOf(sc.Spec.ISIN, "2026-03-11").Status.AntiDilution }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
		ad := dealingOf(sc.Spec.ISIN, "2026-03-11").Status.AntiDilution
		Expect(*ad).To(Equal(investv1.DealingAntiDilution{
			Method: investv1.SwingPricing, ThresholdBasisPoints: 1000, FactorBasisPoints: 150,
			Subscriptions: 30_010_000, Redemptions: 10_000_000, ClassValue: 200_000_000,
			Direction: investv1.FlowInflow, Applied: true, NAVPerShare: 1_015_000,
		}))
		Expect(dealingOf(sc.Spec.ISIN, "2026-03-11").Status.NAV.NAVPerShare).To(Equal(int64(1_000_000)), "the NAV itself is recorded unswung")
		for _, o := range []*investv1.Order{buy, sell} {
			n := get(o).Status.Strike
			Expect(n.NAVPerShare).To(Equal(int64(1_015_000)), "order %s", o.Name)
			Expect(n.AntiDilution).NotTo(BeNil())
			Expect(n.AntiDilution.NAV).To(Equal(int64(1_000_000)))
			Expect(n.AntiDilution.Direction).To(Equal(investv1.FlowInflow))
		}
		// The SELL is paid 10 × 101.50 EUR less its 1% fee; the BUY of 3,001 EUR gets
		// (3,001 − 45.015) ÷ 101.50 = 29 units.
		Expect(get(sell).Status.Strike.GrossAmount).To(Equal(int64(10_150_000)))
		Expect(get(buy).Status.Strike.Units).To(Equal(int64(29)))
		Eventually(func() int {
			return events("", lifecycle.DealingName(sc.Spec.ISIN, "2026-03-11"), "AntiDilutionApplied")
		}).
			WithTimeout(envtest.Settle).Should(Equal(1))
	})

	It("an anti-dilution levy is charged to the side that causes the flow and kept by the fund", func() {
		sc, nh, cs := holdersOf(func(t *investv1.DealingTerms) {
			t.AntiDilution = &investv1.AntiDilution{Method: investv1.AntiDilutionLevy, ThresholdBasisPoints: 100, FactorBasisPoints: 200}
		}, 2, 100)
		sell := fixtures.BuyOrder(cs[0].ns, cs[0].account.Name, string(sc.Spec.ISIN), 40)
		sell.Spec.Side = investv1.SideSell
		buy := cs[1].buyAmount(sc.Spec.ISIN, 5_000_000)
		for _, o := range []*investv1.Order{sell, buy} {
			Expect(k8s.Create(ctx, o)).To(Succeed())
		}
		pay(buy)
		Eventually(func() bool { return lifecycle.ReadyForStrike(get(sell)) }).WithTimeout(envtest.Settle).Should(BeTrue())
		clock.Set(gateCut.Add(time.Hour))
		Expect(publish(nh, "2026-03-11", 1_000_000)).To(Succeed())
		waitState(sell, investv1.StateExecuted)
		waitState(buy, investv1.StateExecuted)

		// Out 4,000 EUR, in 500 EUR: a net outflow of 3,500 EUR, above 1% of 20,000 EUR.
		// The SELL pays 2% of 4,000 EUR = 80 EUR besides its 1% fee; the BUY pays none.
		n := get(sell).Status.Strike
		Expect(n.NAVPerShare).To(Equal(int64(1_000_000)))
		Expect(n.GrossAmount).To(Equal(int64(40_000_000)))
		Expect(n.FeeAmount).To(Equal(int64(400_000)))
		Expect(n.AntiDilution).NotTo(BeNil())
		Expect(n.AntiDilution.LevyAmount).To(Equal(int64(800_000)))
		Expect(n.NetAmount).To(Equal(int64(40_000_000 - 400_000 - 800_000)))
		Expect(get(sell).Status.History[len(get(sell).Status.History)-1].Message).To(ContainSubstring("anti-dilution levy 80.0000 EUR (200 basis points) kept by the fund"))
		Expect(get(buy).Status.Strike.AntiDilution).To(BeNil())
		Expect(dealingOf(sc.Spec.ISIN, "2026-03-11").Status.AntiDilution.Direction).To(Equal(investv1.FlowOutflow))
	})
})
