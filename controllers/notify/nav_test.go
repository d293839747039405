package notify_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// navs are the nav.published deliveries of isin, the first of each webhook-id.
func (rc *receiver) navs(isin string) []delivery {
	seen := map[string]bool{}
	var out []delivery
	for _, d := range rc.deliveries() {
		if d.payload.Type == notify.NAVPublished && d.payload.Data["isin"] == isin && !seen[d.id] {
			seen[d.id] = true
			out = append(out, d)
		}
	}
	return out
}

var _ = Describe("NAV events", func() {
	It("sends nav.published to every tenant for the NAV published on an intraday dealing point, once, dated the point", func() {
		isin := envtest.NewISIN()
		fund := fixtures.Fund()
		sc := fixtures.ShareClass(fund.Name, isin)
		sc.Spec.MinInvestment = 0
		sc.Spec.Dealing = &investv1.DealingTerms{
			Pricing: investv1.PricingForward, TimeZone: "UTC", Frequency: investv1.DealingIntraday, IntervalMinutes: 30,
			BusinessDays:       []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
			SubscriptionCutOff: investv1.CutOff{MinutesBefore: 5}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 5},
		}
		Expect(k8s.Create(ctx, fund)).To(Succeed())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR"))).To(Succeed())
		rcA, rcB := newReceiver(), newReceiver()
		endpoint(env.NewTenant("navs-a"), rcA, investv1.WebhookEventType(notify.NAVPublished))
		endpoint(env.NewTenant("navs-b"), rcB)

		By("publishing the NAV of the last dealing point on its Dealing")
		// Applied with its NAV (as GitOps would): a point past its cut-off that nobody dealt
		// at is deleted while it has none.
		point := time.Now().UTC().Truncate(30 * time.Minute)
		date := point.Format("2006-01-02T15:04")
		nav := int64(1_234_567)
		d := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: lifecycle.DealingName(investv1.ISIN(isin), date)},
			Spec: investv1.DealingSpec{ISIN: investv1.ISIN(isin), Date: date, NAVPerShare: &nav}}
		Expect(k8s.Create(ctx, d)).To(Succeed())

		for _, rc := range []*receiver{rcA, rcB} {
			Eventually(func() []delivery { return rc.navs(isin) }).WithTimeout(time.Minute).Should(HaveLen(1))
			got := rc.navs(isin)[0]
			Expect(got.payload.Data).To(Equal(map[string]any{"object": "nav", "isin": isin, "date": date, "price": float64(nav), "currency": "EUR"}))
			Expect(got.payload.Timestamp.Equal(point)).To(BeTrue(), "occurred at %s, want the dealing point %s", got.payload.Timestamp, point)
		}
		By("the strike records the NAV on the Dealing: no second event")
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(d), d)).To(Succeed())
			g.Expect(d.Status.NAV).NotTo(BeNil())
		}).WithTimeout(time.Minute).Should(Succeed())
		Consistently(func() int { return len(rcA.navs(isin)) + len(rcB.navs(isin)) }).WithTimeout(2 * time.Second).Should(Equal(2))
		oneIDPerEvent(rcA)
	})
})
