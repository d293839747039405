package strike_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// intradayClass deals every five minutes, every day (UTC): BUYs until two minutes and
// SELLs until three minutes before each dealing point, settled T+1.
func intradayClass(mutate func(*investv1.DealingTerms)) *investv1.ShareClass {
	GinkgoHelper()
	sc, _ := forwardClass(func(t *investv1.DealingTerms) {
		t.TimeZone, t.Frequency, t.IntervalMinutes = "UTC", investv1.DealingIntraday, 5
		t.BusinessDays = []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
		t.SubscriptionCutOff, t.RedemptionCutOff = investv1.CutOff{MinutesBefore: 2}, investv1.CutOff{MinutesBefore: 3}
		t.NAVPublicationLag, t.SettlementPeriod = 0, 1
		if mutate != nil {
			mutate(t)
		}
	})
	return sc
}

// publishPoint publishes the NAV of an intraday dealing point on its Dealing, as
// `kubectl patch dealing` does.
func publishPoint(isin investv1.ISIN, point string, navPerShare int64) error {
	d := &investv1.Dealing{}
	if err := k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(isin, point)}, d); err != nil {
		return err
	}
	base := d.DeepCopy()
	d.Spec.NAVPerShare = &navPerShare
	return k8s.Patch(ctx, d, client.MergeFrom(base))
}

var _ = Describe("Intraday dealing points", func() {
	BeforeEach(func() { clock.Set(start) }) // Tuesday 2026-03-10 10:00 UTC

	It("an intraday order deals at the next dealing point and is struck at the NAV published on its Dealing", func() {
		sc := intradayClass(nil)
		c := newCustomer()
		o := c.buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		q := get(o).Spec.Quote
		Expect(q.DealingDate).To(Equal("2026-03-10T10:05"), "10:00 is past the 10:00 point's cut-off (09:58): the next point")
		Expect(q.CutOff.UTC()).To(Equal(time.Date(2026, time.March, 10, 10, 3, 0, 0, time.UTC)))
		pay(o)
		d := dealingOf(sc.Spec.ISIN, "2026-03-10T10:05")
		Expect(d.Name).To(Equal(lifecycle.DealingName(sc.Spec.ISIN, "") + "2026-03-10t1005"))

		// At the cut-off the order is submitted for dealing.
		clock.Set(time.Date(2026, time.March, 10, 10, 3, 0, 0, time.UTC))
		fresh := get(o)
		base := fresh.DeepCopy()
		fresh.Spec.CancellationRequested = true
		err := k8s.Patch(ctx, fresh, client.MergeFrom(base))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("submitted for dealing on 2026-03-10T10:05"))

		// Published before the dealing point's cut-offs have both passed (SELLs 10:02,
		// BUYs 10:03), the NAV is struck as soon as they have.
		clock.Set(time.Date(2026, time.March, 10, 10, 5, 0, 0, time.UTC))
		Expect(publishPoint(sc.Spec.ISIN, "2026-03-10T10:05", 1_050_000)).To(Succeed())
		waitState(o, investv1.StateExecuted)
		n := get(o).Status.Strike
		Expect(n.TradeDate).To(Equal("2026-03-10T10:05"))
		Expect(n.NAVDate).To(Equal("2026-03-10T10:05"))
		Expect(n.NAVPerShare).To(Equal(int64(1_050_000)))
		Expect(n.Units).To(Equal(int64(9)))
		Expect(n.Residual).To(Equal(int64(400_000)))
		Expect(n.SettlementDate).To(Equal("2026-03-11"))
		Eventually(func(g Gomega) {
			d := &investv1.Dealing{}
			g.Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, "2026-03-10T10:05")}, d)).To(Succeed())
			g.Expect(d.Status.Phase).To(Equal(investv1.DealingStruck))
			g.Expect(d.Status.NAV.Date).To(Equal("2026-03-10T10:05"))
			g.Expect(d.Status.Priced).To(Equal(int32(1)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
	})

	It("the NAV of a dealing point is published once, and only on an intraday Dealing", func() {
		sc := intradayClass(nil)
		o := newCustomer().buyAmount(sc.Spec.ISIN, 10_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		Eventually(func() error {
			return k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, "2026-03-10T10:05")}, &investv1.Dealing{})
		}).WithTimeout(envtest.Settle).Should(Succeed())
		Expect(publishPoint(sc.Spec.ISIN, "2026-03-10T10:05", 1_050_000)).To(Succeed())
		err := publishPoint(sc.Spec.ISIN, "2026-03-10T10:05", 1_060_000)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("published once and cannot be changed"))

		daily, _ := forwardClass(nil)
		Eventually(func() error {
			return k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(daily.Spec.ISIN, dealingDay)}, &investv1.Dealing{})
		}).WithTimeout(envtest.Settle).Should(Succeed())
		err = publishPoint(daily.Spec.ISIN, dealingDay, 1_050_000)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(And(ContainSubstring("spec.navPerShare"), ContainSubstring("a price of the ISIN's NAVHistory")))
	})

	It("an unpaid BUY moves to the next dealing point", func() {
		sc := intradayClass(func(t *investv1.DealingTerms) { t.UnpaidAtCutOff = investv1.UnpaidNextDealingDate })
		o := newCustomer().buyAmount(sc.Spec.ISIN, 5_000_000)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		clock.Set(time.Date(2026, time.March, 10, 10, 3, 1, 0, time.UTC))
		Eventually(func(g Gomega) {
			fresh := &investv1.Order{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
			g.Expect(fresh.Status.Dealing).NotTo(BeNil())
			g.Expect(fresh.Status.Dealing.Date).To(Equal("2026-03-10T10:10"))
			g.Expect(fresh.Status.Dealing.CutOff.UTC()).To(Equal(time.Date(2026, time.March, 10, 10, 8, 0, 0, time.UTC)))
		}).WithTimeout(envtest.Settle).Should(Succeed())
	})

	It("an intraday dealing point nobody dealt at is deleted after its cut-off", func() {
		sc := intradayClass(nil)
		name := lifecycle.DealingName(sc.Spec.ISIN, "2026-03-10T10:05")
		// One of the next three dealing points: made before any order deals at it.
		Eventually(func() error { return k8s.Get(ctx, client.ObjectKey{Name: name}, &investv1.Dealing{}) }).
			WithTimeout(envtest.Settle).Should(Succeed())
		clock.Set(time.Date(2026, time.March, 10, 10, 3, 0, 0, time.UTC).Add(time.Minute))
		Eventually(func() bool {
			d := &investv1.Dealing{}
			err := k8s.Get(ctx, client.ObjectKey{Name: name}, d)
			if err == nil { // wake the controller on the moved clock, as its requeue would
				base := d.DeepCopy()
				d.Annotations = map[string]string{"test/touched": clock.Now().Format(time.RFC3339Nano)}
				_ = k8s.Patch(ctx, d, client.MergeFrom(base))
			}
			return apierrors.IsNotFound(err)
		}).WithTimeout(envtest.Settle).WithPolling(200 * time.Millisecond).Should(BeTrue())
		// Deleted for good: its deletion wakes the controller for it, which does not make it
		// again (a loop of create and delete, hundreds a second, until this was seen).
		Consistently(func() bool {
			return apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKey{Name: name}, &investv1.Dealing{}))
		}).WithTimeout(3 * time.Second).WithPolling(20 * time.Millisecond).Should(BeTrue())
		// The next point, still open, is kept.
		Expect(k8s.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(sc.Spec.ISIN, "2026-03-10T10:10")}, &investv1.Dealing{})).To(Succeed())
	})
})
