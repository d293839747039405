package apiserver_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

var _ = Describe("Dealing terms of a share class", func() {
	It("serves the terms in snake_case and the next dealing dates with their cut-offs as RFC 3339 instants", func() {
		d, err := validation.ISINCheckDigit("LU0000DEAL1")
		Expect(err).NotTo(HaveOccurred())
		isin := "LU0000DEAL1" + string(d)
		sc := fixtures.ShareClass(controlplane.NewID(), isin)
		sc.Name = controlplane.NewID()
		sc.Spec.Name, sc.Spec.Abbreviation = "Class F EUR Daily", "F-EUR"
		terms := &investv1.DealingTerms{
			Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
			Holidays:           []string{"2026-12-25"},
			SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "16:00", BusinessDaysBefore: 1},
			NAVPublicationLag: 1, SettlementPeriod: 2, RedemptionNoticeDays: 5, UnitDecimals: 6,
		}
		sc.Spec.Dealing = terms
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })

		var r response
		Eventually(func() int { r = alpha.get("/v1/share-classes/" + isin); return r.code }, 10*time.Second).Should(Equal(http.StatusOK))
		before := time.Now()
		r = alpha.get("/v1/share-classes/" + isin)
		after := time.Now()
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		got := r.json()["dealing"].(map[string]any)
		Expect(got).To(HaveKeyWithValue("pricing", "FORWARD"))
		Expect(got).To(HaveKeyWithValue("time_zone", "Europe/Luxembourg"))
		Expect(got).To(HaveKeyWithValue("frequency", "DAILY"))
		Expect(got).To(HaveKeyWithValue("weekday", BeNil()))
		Expect(got).To(HaveKeyWithValue("day_rule", BeNil()))
		Expect(got["business_days"]).To(Equal([]any{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"}))
		Expect(got["holidays"]).To(Equal([]any{"2026-12-25"}))
		Expect(got).To(HaveKeyWithValue("subscription_cut_off", map[string]any{"time": "12:00", "business_days_before": 0.0, "minutes_before": nil}))
		Expect(got).To(HaveKeyWithValue("redemption_cut_off", map[string]any{"time": "16:00", "business_days_before": 1.0, "minutes_before": nil}))
		Expect(got).To(HaveKeyWithValue("interval_minutes", BeNil()))
		Expect(got).To(HaveKeyWithValue("first_dealing_time", BeNil()))
		Expect(got).To(HaveKeyWithValue("settlement_period", 2.0))
		Expect(got).To(HaveKeyWithValue("redemption_notice_days", 5.0))
		Expect(got).To(HaveKeyWithValue("unit_decimals", 6.0))

		// The dates are the calendar's at the moment of the request (one of the two
		// readings, should a cut-off pass during it).
		view := func(at time.Time) []any {
			next, err := dealing.Next(terms, at, 3)
			Expect(err).NotTo(HaveOccurred())
			var out []any
			for _, d := range next {
				out = append(out, map[string]any{
					"dealing_date": d.Date.String(), "nav_date": d.Date.String(),
					"subscription_cut_off": d.SubscriptionCutOff.UTC().Format(time.RFC3339),
					"redemption_cut_off":   d.RedemptionCutOff.UTC().Format(time.RFC3339),
					"valuation_point":      d.ValuationPoint.UTC().Format(time.RFC3339),
					"nav_publication_date": d.NAVPublicationDate.String(), "settlement_date": d.SettlementDate.String(),
				})
			}
			return out
		}
		Expect(got["next_dealings"]).To(HaveLen(3))
		Expect(got["next_dealings"]).To(Or(Equal(view(before)), Equal(view(after))))

		// The list shows the same object.
		var listed map[string]any
		for _, c := range alpha.get("/v1/share-classes?abbreviation=F-EUR").data() {
			listed = c
		}
		Expect(listed).NotTo(BeNil())
		Expect(listed["dealing"]).To(HaveKeyWithValue("pricing", "FORWARD"))
	})

	It("serves an intraday share class's interval, its cut-offs in minutes and its next dealing points", func() {
		d, err := validation.ISINCheckDigit("LU0000DEAL3")
		Expect(err).NotTo(HaveOccurred())
		isin := "LU0000DEAL3" + string(d)
		sc := fixtures.ShareClass(controlplane.NewID(), isin)
		sc.Name = controlplane.NewID()
		sc.Spec.Abbreviation = "I-EUR"
		terms := &investv1.DealingTerms{
			Pricing: investv1.PricingForward, TimeZone: "UTC", Frequency: investv1.DealingIntraday, IntervalMinutes: 5,
			BusinessDays:       []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
			SubscriptionCutOff: investv1.CutOff{MinutesBefore: 2}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 3},
		}
		sc.Spec.Dealing = terms
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })

		var r response
		Eventually(func() int { r = alpha.get("/v1/share-classes/" + isin); return r.code }, 10*time.Second).Should(Equal(http.StatusOK))
		before := time.Now()
		r = alpha.get("/v1/share-classes/" + isin)
		after := time.Now()
		got := r.json()["dealing"].(map[string]any)
		Expect(got).To(HaveKeyWithValue("frequency", "INTRADAY"))
		Expect(got).To(HaveKeyWithValue("interval_minutes", 5.0))
		Expect(got).To(HaveKeyWithValue("first_dealing_time", "00:00"))
		Expect(got).To(HaveKeyWithValue("last_dealing_time", "23:59"))
		Expect(got).To(HaveKeyWithValue("subscription_cut_off", map[string]any{"time": nil, "business_days_before": 0.0, "minutes_before": 2.0}))
		Expect(got).To(HaveKeyWithValue("redemption_cut_off", map[string]any{"time": nil, "business_days_before": 0.0, "minutes_before": 3.0}))
		points := func(at time.Time) []any {
			next, err := dealing.Next(terms, at, 3)
			Expect(err).NotTo(HaveOccurred())
			var out []any
			for _, d := range next {
				out = append(out, d.String())
			}
			return out
		}
		var dates []any
		for _, n := range got["next_dealings"].([]any) {
			v := n.(map[string]any)
			Expect(v["nav_date"]).To(Equal(v["dealing_date"]))
			dates = append(dates, v["dealing_date"])
		}
		Expect(dates).To(Or(Equal(points(before)), Equal(points(after))))
		Expect(dates[0]).To(MatchRegexp(`^\d{4}-\d{2}-\d{2}T\d{2}:\d[05]$`))
	})

	It("leaves dealing out for a share class without terms", func() {
		r := alpha.get("/v1/share-classes/" + fixtures.ISIN)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.json()).NotTo(HaveKey("dealing"))
	})

	It("refuses a time zone the IANA database does not know, naming the field", func() {
		sc := fixtures.ShareClass(controlplane.NewID(), "LU0000DEAL1"+"0")
		d, _ := validation.ISINCheckDigit("LU0000DEAL2")
		sc.Spec.ISIN = investv1.ISIN("LU0000DEAL2" + string(d))
		sc.Name = controlplane.NewID()
		sc.Spec.Dealing = &investv1.DealingTerms{
			TimeZone: "Europe/Atlantis", Frequency: investv1.DealingDaily,
			SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00"},
		}
		err := k8s.Create(ctx, sc)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("spec.dealing.timeZone"))
		Expect(err.Error()).To(ContainSubstring("not an IANA time zone name"))
	})
})
