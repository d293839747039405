package dealing_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/dealing"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The suite runs the dealing controller alone, on a clock stopped at Tuesday 10 March
// 2026, 11:00 in Luxembourg (10:00 UTC).
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Manager: &envtest.ManagerOptions{
		Setup: func(mgr ctrl.Manager) error {
			return (&dealing.Reconciler{Client: mgr.GetClient(), Now: func() time.Time { return stopped }}).SetupWithManager(mgr)
		},
	}})
	stopped = time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)
)

func TestDealingController(t *testing.T) { env.Run(t, "Dealing controller suite", nil) }

var _ = Describe("status.dealing", func() {
	It("shows the next three dealing dates with their cut-offs, and leaves a class without terms alone", func() {
		sc := fixtures.ShareClass(fixtures.Fund().Name, envtest.NewISIN())
		sc.Spec.Dealing = &investv1.DealingTerms{
			Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
			SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00", BusinessDaysBefore: 1},
			SettlementPeriod: 2,
		}
		plain := fixtures.ShareClass(fixtures.Fund().Name, envtest.NewISIN())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		Expect(k8s.Create(ctx, plain)).To(Succeed())
		DeferCleanup(func() {
			Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed())
			Expect(client.IgnoreNotFound(k8s.Delete(ctx, plain))).To(Succeed())
		})

		Eventually(func(g Gomega) {
			var got investv1.ShareClass
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(sc), &got)).To(Succeed())
			g.Expect(got.Status.Dealing).NotTo(BeNil())
			g.Expect(got.Status.Dealing.ObservedGeneration).To(Equal(got.Generation))
			var dates []string
			for _, d := range got.Status.Dealing.Next {
				dates = append(dates, d.Date)
			}
			// Today's SELL cut-off was yesterday, but BUYs are open until noon: today counts.
			g.Expect(dates).To(Equal([]string{"2026-03-10", "2026-03-11", "2026-03-12"}))
			first := got.Status.Dealing.Next[0]
			g.Expect(first.SubscriptionCutOff.UTC()).To(Equal(time.Date(2026, time.March, 10, 11, 0, 0, 0, time.UTC)))
			g.Expect(first.RedemptionCutOff.UTC()).To(Equal(time.Date(2026, time.March, 9, 11, 0, 0, 0, time.UTC)))
			g.Expect(first.SettlementDate).To(Equal("2026-03-12"))
		}, 20*time.Second, 100*time.Millisecond).Should(Succeed())

		// The class without terms has no calendar (Calendar's unit test holds that the
		// controller never computes one for it).
		var got investv1.ShareClass
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(plain), &got)).To(Succeed())
		Expect(got.Status.Dealing).To(BeNil())
	})

	It("removes the calendar when the terms are removed", func() {
		sc := fixtures.ShareClass(fixtures.Fund().Name, envtest.NewISIN())
		sc.Spec.Dealing = &investv1.DealingTerms{
			TimeZone: "UTC", Frequency: investv1.DealingWeekly, Weekday: "Friday",
			SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00"},
		}
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
		key := client.ObjectKeyFromObject(sc)
		Eventually(func(g Gomega) {
			var got investv1.ShareClass
			g.Expect(k8s.Get(ctx, key, &got)).To(Succeed())
			g.Expect(got.Status.Dealing).NotTo(BeNil())
			g.Expect(got.Status.Dealing.Next).To(HaveLen(3))
			g.Expect(got.Status.Dealing.Next[0].Date).To(Equal("2026-03-13"))
		}, 20*time.Second, 100*time.Millisecond).Should(Succeed())

		Eventually(func() error {
			var got investv1.ShareClass
			if err := k8s.Get(ctx, key, &got); err != nil {
				return err
			}
			got.Spec.Dealing = nil
			return k8s.Update(ctx, &got)
		}, 10*time.Second).Should(Succeed())
		Eventually(func(g Gomega) {
			var got investv1.ShareClass
			g.Expect(k8s.Get(ctx, key, &got)).To(Succeed())
			g.Expect(got.Status.Dealing).To(BeNil())
		}, 20*time.Second, 100*time.Millisecond).Should(Succeed())
	})
})
