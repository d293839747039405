package apiserver_test

import (
	"net/http"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

var _ = Describe("The secondary market of a share class", func() {
	It("serves secondary_market with its next windows, and the windows the window controller opened, newest first, without their book", func() {
		d, err := validation.ISINCheckDigit("LU0000SECR1")
		Expect(err).NotTo(HaveOccurred())
		isin := "LU0000SECR1" + string(d)
		sc := fixtures.ShareClass(controlplane.NewID(), isin)
		sc.Name = controlplane.NewID()
		sc.Spec.Name, sc.Spec.Abbreviation = "Class S EUR Secondary", "S-EUR"
		sc.Spec.Secondary = &investv1.SecondaryMarket{
			TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
			OrderDeadline:     investv1.CutOff{Time: "12:00", BusinessDaysBefore: 1},
			SpreadBasisPoints: 50, BuyFeeRate: 100, SellFeeRate: 75, CarryWindows: 1,
		}
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })

		var r response
		Eventually(func() int { r = alpha.get("/v1/share-classes/" + isin); return r.code }, 10*time.Second).Should(Equal(http.StatusOK))
		m, ok := r.json()["secondary_market"].(map[string]any)
		Expect(ok).To(BeTrue(), r.String())
		Expect(m).To(HaveKeyWithValue("time_zone", "Europe/Luxembourg"))
		Expect(m).To(HaveKeyWithValue("frequency", "DAILY"))
		Expect(m).To(HaveKeyWithValue("weekday", BeNil()))
		Expect(m).To(HaveKeyWithValue("order_deadline", map[string]any{"time": "12:00", "business_days_before": 1.0}))
		Expect(m).To(HaveKeyWithValue("spread_basis_points", 50.0))
		Expect(m).To(HaveKeyWithValue("buy_fee_rate", 100.0))
		Expect(m).To(HaveKeyWithValue("sell_fee_rate", 75.0))
		Expect(m).To(HaveKeyWithValue("carry_windows", 1.0))
		Expect(m["next_windows"]).To(HaveLen(3))

		// The window controller opens the share class's next windows; the list shows them
		// newest first with their order deadlines, nothing matched yet.
		var windows []map[string]any
		Eventually(func() []map[string]any {
			r := alpha.get("/v1/share-classes/" + isin + "/matching-windows")
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			windows = r.data()
			return windows
		}, 30*time.Second).ShouldNot(BeEmpty())
		var dates []string
		for _, w := range windows {
			Expect(w).To(HaveKeyWithValue("phase", "OPEN"))
			Expect(w).To(HaveKeyWithValue("buy_price", BeNil()))
			Expect(w).To(HaveKeyWithValue("volume_units", BeNil()))
			Expect(w).NotTo(HaveKey("book"))
			dates = append(dates, w["date"].(string))
		}
		Expect(slices.IsSortedFunc(dates, func(a, b string) int { return strings.Compare(b, a) })).To(BeTrue(), "dates %v are not newest first", dates)
		// Each is one of the next windows the share class shows, with the same deadline.
		next := map[string]any{}
		for _, w := range m["next_windows"].([]any) {
			next[w.(map[string]any)["date"].(string)] = w.(map[string]any)["order_deadline"]
		}
		for _, w := range windows {
			if deadline, ok := next[w["date"].(string)]; ok {
				Expect(w["order_deadline"]).To(Equal(deadline))
			}
		}

		// The catalogue's other share classes have no secondary market and no windows.
		r = beta.get("/v1/share-classes/" + fixtures.ISIN)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.json()).NotTo(HaveKey("secondary_market"))
		r = beta.get("/v1/share-classes/" + fixtures.ISIN + "/matching-windows")
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.data()).To(BeEmpty())
		r = beta.get("/v1/share-classes/XS0000000009/matching-windows")
		Expect(r.code).To(Equal(http.StatusNotFound), r.String())
		Expect(r.json()["error"]).To(Equal("Share class not found"))
		r = beta.get("/v1/share-classes/not-an-isin/matching-windows")
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKey("isin"))
	})
})
