package apiserver_test

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

var _ = Describe("GET /v1/assets/{isin}/custom-offerings", func() {
	// offer creates a CustomOffering in ns as an operator would with kubectl.
	offer := func(ns, isin string, fee int64, mutate func(*investv1.CustomOfferingSpec)) *investv1.CustomOffering {
		GinkgoHelper()
		o := &investv1.CustomOffering{ObjectMeta: metav1.ObjectMeta{Name: controlplane.NewID(), Namespace: ns},
			Spec: investv1.CustomOfferingSpec{ISIN: investv1.ISIN(isin), FeeRate: fee}}
		if mutate != nil {
			mutate(&o.Spec)
		}
		Expect(k8s.Create(ctx, o)).To(Succeed())
		return o
	}
	at := func(d time.Duration) *metav1.Time {
		t := metav1.NewTime(time.Now().Add(d).Truncate(time.Second))
		return &t
	}
	listed := func(t *tenant, path string, n int) []map[string]any {
		GinkgoHelper()
		var items []map[string]any
		Eventually(func(g Gomega) {
			r := t.get(path)
			g.Expect(r.code).To(Equal(http.StatusOK), r.String())
			items = r.data()
			g.Expect(items).To(HaveLen(n))
		}).WithTimeout(30 * time.Second).Should(Succeed())
		return items
	}

	It("lists the calling client's offerings for the share class with Rime's fields, the status computed now, oldest first", func() {
		t := newTenant("offers", investv1.ApiClientSpec{})
		ten := int64(10)
		active := offer(t.ns, fixtures.ISIN, 25, func(s *investv1.CustomOfferingSpec) {
			s.SubscriptionFeeRate, s.Description, s.ValidFrom = &ten, "negotiated 2026", at(-time.Hour)
		})
		pending := offer(t.ns, fixtures.ISIN, 20, func(s *investv1.CustomOfferingSpec) { s.ValidFrom = at(time.Hour) })
		expired := offer(t.ns, fixtures.ISIN, 15, func(s *investv1.CustomOfferingSpec) { s.ValidFrom, s.ValidUntil = at(-2*time.Hour), at(-time.Hour) })
		deactivated := offer(t.ns, fixtures.ISIN, 5, func(s *investv1.CustomOfferingSpec) { s.Deactivated = true })
		offer(t.ns, fixtures.OtherISIN, 30, nil) // another share class

		all := listed(t, "/v1/assets/"+fixtures.ISIN+"/custom-offerings", 4)
		Expect(idsOf(all)).To(ConsistOf(active.Name, pending.Name, expired.Name, deactivated.Name))
		var a map[string]any
		for _, it := range all {
			if it["id"] == active.Name {
				a = it
			}
		}
		Expect(a).To(MatchAllKeys(Keys{
			"id": Equal(active.Name), "isin": Equal(fixtures.ISIN), "share_class_id": Equal(shareClass.Name),
			"custom_subscription_fee": BeNumerically("==", 10), "custom_redemption_fee": BeNumerically("==", 25),
			"status": Equal("active"), "notes": Equal("negotiated 2026"),
			"valid_from": Equal(active.Spec.ValidFrom.UTC().Format(time.RFC3339)), "valid_until": BeNil(),
			"created": BeAssignableToTypeOf(""),
		}), "the offering as Rime documents it, with its share class and validity")
		Expect(time.Parse(time.RFC3339, a["created"].(string))).To(BeTemporally("~", time.Now(), time.Minute))

		By("each status filters to its offering")
		for status, want := range map[string]string{"active": active.Name, "pending": pending.Name, "expired": expired.Name, "deactivated": deactivated.Name} {
			got := listed(t, "/v1/assets/"+fixtures.ISIN+"/custom-offerings?status="+status, 1)
			Expect(got[0]).To(HaveKeyWithValue("id", want), status)
			Expect(got[0]).To(HaveKeyWithValue("status", status))
		}

		By("the ISIN in any letter case; skip and limit page through the same order")
		lower := listed(t, "/v1/assets/"+strings.ToLower(fixtures.ISIN)+"/custom-offerings", 4)
		Expect(idsOf(lower)).To(Equal(idsOf(all)), "one stable order")
		Expect(idsOf(listed(t, "/v1/assets/"+fixtures.ISIN+"/custom-offerings?skip=1&limit=2", 2))).To(Equal(idsOf(all)[1:3]))
		Expect(listed(t, "/v1/assets/"+fixtures.OtherISIN+"/custom-offerings", 1)[0]).To(HaveKeyWithValue("custom_redemption_fee", BeNumerically("==", 30)))

		By("another client sees none of them")
		other := newTenant("offers", investv1.ApiClientSpec{})
		Consistently(func() []map[string]any { return other.get("/v1/assets/" + fixtures.ISIN + "/custom-offerings").data() }, 500*time.Millisecond).Should(BeEmpty())
	})

	It("answers 404 Share class not found for an unknown ISIN and 422 for an unknown status or a limit outside 1 to 1000", func() {
		r := alpha.get("/v1/assets/XS0000000009/custom-offerings")
		Expect(r.code).To(Equal(http.StatusNotFound), r.String())
		Expect(r.json()).To(HaveKeyWithValue("error", "Share class not found"))
		for q, field := range map[string]string{"status=ACTIVE": "status", "status=revoked": "status", "limit=0": "limit", "limit=1001": "limit", "skip=-1": "skip", "sort=created": "sort"} {
			r := alpha.get("/v1/assets/" + fixtures.ISIN + "/custom-offerings?" + q)
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), q+": "+r.String())
			Expect(r.details()).To(HaveKey(field), q)
		}
		Expect(alpha.get("/v1/assets/" + fixtures.ISIN + "/custom-offerings?status=active&limit=1000").code).To(Equal(http.StatusOK))
	})

	It("an order may name an active offering, whose side's rate applies; a deactivated, pending or expired one is a field error and nothing is placed", func() {
		t := newTenant("offers", investv1.ApiClientSpec{})
		seven := int64(7)
		active := offer(t.ns, fixtures.ISIN, 25, func(s *investv1.CustomOfferingSpec) { s.SubscriptionFeeRate = &seven })
		deactivated := offer(t.ns, fixtures.ISIN, 5, func(s *investv1.CustomOfferingSpec) { s.Deactivated = true })
		pending := offer(t.ns, fixtures.ISIN, 5, func(s *investv1.CustomOfferingSpec) { s.ValidFrom = at(time.Hour) })
		listed(t, "/v1/assets/"+fixtures.ISIN+"/custom-offerings", 3)
		account := t.buyer()

		body := orderBody("BUY", fixtures.ISIN, account, 100)
		body["custom_offering_id"] = active.Name
		r := t.post("/v1/orders", body)
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		Expect(r.json()).To(HaveKeyWithValue("fee_source", "OFFERING"))
		Expect(r.json()).To(HaveKeyWithValue("subscription_fee", BeNumerically("==", 7)))
		Expect(r.json()).To(HaveKeyWithValue("custom_offering_id", active.Name))

		for id, msg := range map[string]string{deactivated.Name: "the offering is deactivated", pending.Name: "the offering is not valid now"} {
			body["custom_offering_id"] = id
			r := t.post("/v1/orders", body)
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(HaveKeyWithValue("custom_offering_id", ContainElement(msg)))
		}
		Consistently(func() []map[string]any { return t.get("/v1/orders").data() }, 500*time.Millisecond).Should(HaveLen(1), "only the order with the active offering")
	})
})
