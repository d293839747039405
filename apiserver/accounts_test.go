package apiserver_test

import (
	"net/http"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Accounts", func() {
	It("creates an individual account from a birthdate and returns every Account field (POST /v1/accounts, 201)", func() {
		body := individual()
		r := alpha.post("/v1/accounts", body)
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		a := r.json()
		Expect(r.header.Get("Location")).To(Equal("/v1/accounts/" + a["id"].(string)))
		Expect(a["id"]).To(MatchRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`))
		Expect(a).To(HaveKeyWithValue("external_id", body["external_id"]))
		Expect(a).To(HaveKeyWithValue("type", "individual"))
		Expect(a).To(HaveKeyWithValue("dob_day", BeNumerically("==", 12)))
		Expect(a).To(HaveKeyWithValue("dob_month", BeNumerically("==", 8)))
		Expect(a).To(HaveKeyWithValue("dob_year", BeNumerically("==", 1964)))
		Expect(a).NotTo(HaveKey("birthdate"))
		// Fields the account does not have are null, not missing.
		Expect(a).To(HaveKeyWithValue("line2", BeNil()))
		Expect(a).To(HaveKeyWithValue("business_name", BeNil()))
		Expect(a).To(HaveKeyWithValue("state", BeNil()))
		created, err := time.Parse(time.RFC3339, a["created"].(string))
		Expect(err).NotTo(HaveOccurred())
		Expect(a["created"]).To(HaveSuffix("Z"))
		Expect(created).To(BeTemporally("~", time.Now(), time.Minute))
		Expect(a).To(HaveLen(21))

		got := alpha.get("/v1/accounts/" + a["id"].(string))
		Expect(got.code).To(Equal(http.StatusOK))
		Expect(got.json()).To(Equal(a))
	})

	It("creates an individual from dob_day, dob_month and dob_year, and a business without birth data", func() {
		body := individual()
		delete(body, "birthdate")
		body["dob_day"], body["dob_month"], body["dob_year"] = 29, 2, 1996
		r := alpha.post("/v1/accounts", body)
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		Expect(r.json()["dob_day"]).To(BeNumerically("==", 29))

		r = alpha.post("/v1/accounts", business())
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		Expect(r.json()).To(HaveKeyWithValue("dob_day", BeNil()))
		Expect(r.json()).To(HaveKeyWithValue("first_name", BeNil()))
		Expect(r.json()).To(HaveKeyWithValue("lei", fixtures.LEI))
	})

	It("answers 404 Account not found naming the id for an unknown account", func() {
		id := fixturesID()
		r := alpha.get("/v1/accounts/" + id)
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Account not found"))
		Expect(r.json()["details"]).To(ContainSubstring(id))
		r = alpha.get("/v1/accounts/not-a-uuid")
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Account not found"))
	})

	Describe("external_id is unique within a tenant", func() {
		It("answers 409 to a second account with the same external_id", func() {
			body := individual()
			Expect(alpha.post("/v1/accounts", body).code).To(Equal(http.StatusCreated))
			r := alpha.post("/v1/accounts", body)
			Expect(r.code).To(Equal(http.StatusConflict), r.String())
			Expect(r.json()["error"]).To(Equal("External ID already in use"))
			Expect(r.json()["details"]).To(ContainSubstring(body["external_id"].(string)))
			// Another tenant may use it.
			Expect(beta.post("/v1/accounts", body).code).To(Equal(http.StatusCreated))
		})

		It("lets exactly one of 10 concurrent creations with one external_id succeed", func() {
			body := individual()
			count := map[int]int{}
			for _, r := range concurrently(10, func(int) response { return alpha.post("/v1/accounts", body) }) {
				count[r.code]++
			}
			Expect(count).To(Equal(map[int]int{http.StatusCreated: 1, http.StatusConflict: 9}))
		})

		It("answers 409 when an account created with kubectl already has the external_id", func() {
			acct := fixtures.IndividualAccount(alpha.ns)
			Expect(k8s.Create(ctx, acct)).To(Succeed())
			body := individual()
			body["external_id"] = acct.Spec.ExternalID
			Eventually(func() int { return alpha.post("/v1/accounts", body).code }).
				WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal(http.StatusConflict))
		})

		It("answers 409 to a PATCH that takes another account's external_id", func() {
			first, second := individual(), individual()
			Expect(alpha.post("/v1/accounts", first).code).To(Equal(http.StatusCreated))
			r := alpha.post("/v1/accounts", second)
			id := r.json()["id"].(string)
			r = alpha.patch("/v1/accounts/"+id, map[string]any{"external_id": first["external_id"]})
			Expect(r.code).To(Equal(http.StatusConflict), r.String())
			Expect(r.json()["error"]).To(Equal("External ID already in use"))
		})
	})

	Describe("PATCH /v1/accounts/{account_id}", func() {
		var id string
		BeforeEach(func() { id = alpha.newAccount() })

		It("changes the given fields; null or absent leaves a field unchanged", func() {
			Expect(alpha.patch("/v1/accounts/"+id, map[string]any{"line2": "Hinterhaus"}).code).To(Equal(http.StatusOK))
			r := alpha.patch("/v1/accounts/"+id, map[string]any{"city": "Hamburg", "line2": nil, "postal_code": "20095"})
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			a := r.json()
			Expect(a).To(HaveKeyWithValue("city", "Hamburg"))
			Expect(a).To(HaveKeyWithValue("postal_code", "20095"))
			Expect(a).To(HaveKeyWithValue("line2", "Hinterhaus"))
			Expect(a).To(HaveKeyWithValue("first_name", "Erika"))
			Expect(alpha.get("/v1/accounts/" + id).json()).To(Equal(a))
			stored := storedAccount(alpha.ns, id)
			Expect(stored.Spec.City).To(Equal("Hamburg"))
		})

		It("sets dob_day, dob_month and dob_year from birthdate (YYYY-MM-DD)", func() {
			r := alpha.patch("/v1/accounts/"+id, map[string]any{"birthdate": "1990-12-01"})
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			Expect(r.json()).To(HaveKeyWithValue("dob_day", BeNumerically("==", 1)))
			Expect(r.json()).To(HaveKeyWithValue("dob_month", BeNumerically("==", 12)))
			Expect(r.json()).To(HaveKeyWithValue("dob_year", BeNumerically("==", 1990)))
		})

		DescribeTable("refuses a birthdate that is not a real past day with 422 on birthdate",
			func(birthdate, message string) {
				r := alpha.patch("/v1/accounts/"+id, map[string]any{"birthdate": birthdate})
				Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
				Expect(r.json()["error"]).To(Equal("Validation error"))
				Expect(r.details()).To(HaveKeyWithValue("birthdate", ContainElement(ContainSubstring(message))))
			},
			Entry("31 February", "2023-02-31", "not a real calendar day"),
			Entry("29 February of a common year", "2023-02-29", "not a real calendar day"),
			Entry("in the future", "2999-01-01", "must be in the past"),
			Entry("another format", "12.08.1964", "YYYY-MM-DD"),
			Entry("before 1900", "1899-12-31", "1900"),
		)

		It("names every unknown field, and refuses type (not changeable) with 422", func() {
			r := alpha.patch("/v1/accounts/"+id, map[string]any{"type": "business", "nickname": "E", "dob_day": 3, "city": 7})
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			d := r.details()
			Expect(d).To(HaveKeyWithValue("type", ConsistOf("cannot be changed")))
			Expect(d).To(HaveKeyWithValue("nickname", ConsistOf("is not a known field")))
			Expect(d).To(HaveKey("dob_day"))
			Expect(d).To(HaveKeyWithValue("city", ConsistOf("must be a string")))
			Expect(storedAccount(alpha.ns, id).Spec.Type).To(BeEquivalentTo("individual"))
		})

		It("checks the whole account with the shared rules (individual fields only)", func() {
			r := alpha.patch("/v1/accounts/"+id, map[string]any{"business_name": "ACME", "first_name": ""})
			expectInvalid(r, map[string][]string{"business_name": {"is only for business accounts"}, "first_name": {"is required"}})
		})

		It("maps the API server's schema messages back to REST field names", func() {
			r := alpha.patch("/v1/accounts/"+id, map[string]any{"city": strings.Repeat("x", 101)})
			expectInvalid(r, map[string][]string{"city": nil})
			Expect(r.details()).NotTo(HaveKey("spec.city"))
		})

		It("keeps every one of 8 concurrent updates of different fields (retries on conflicts)", func() {
			fields := []string{"city", "line1", "line2", "state", "place_of_birth", "last_name", "first_name", "postal_code"}
			answers := concurrently(len(fields), func(i int) response {
				return alpha.patch("/v1/accounts/"+id, map[string]any{fields[i]: "v-" + fields[i]})
			})
			for _, r := range answers {
				Expect(r.code).To(Equal(http.StatusOK), r.String())
			}
			a := alpha.get("/v1/accounts/" + id).json()
			for _, f := range fields {
				Expect(a).To(HaveKeyWithValue(f, "v-"+f))
			}
		})

		It("answers 404 for an unknown account", func() {
			r := alpha.patch("/v1/accounts/"+fixturesID(), map[string]any{"city": "Hamburg"})
			Expect(r.code).To(Equal(http.StatusNotFound))
			Expect(r.json()["error"]).To(Equal("Account not found"))
		})
	})

	Describe("the caller's settings decide which fields an account needs", func() {
		It("requires tin and tax_residencies from a tenant that opted in to tax reporting", func() {
			body := individual()
			delete(body, "tin")
			delete(body, "tax_residencies")
			Expect(alpha.post("/v1/accounts", body).code).To(Equal(http.StatusCreated))
			body["external_id"] = "x-" + fixturesID()
			r := strict.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"tin": {"is required"}, "tax_residencies": {"is required"}})
		})

		It("requires a valid LEI for business accounts when the tenant requires LEIs", func() {
			body := business()
			delete(body, "lei")
			r := strict.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"lei": {"is required"}})
			body["lei"] = "5493001KJTIIGC8Y1R13" // wrong check digits
			r = strict.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"lei": nil})
			body["lei"] = fixtures.LEI
			Expect(strict.post("/v1/accounts", body).code).To(Equal(http.StatusCreated))
		})

		It("requires the address from a tenant that requires KYC data", func() {
			body := individual()
			delete(body, "city")
			r := strict.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"city": {"is required"}})
		})
	})

	Describe("POST /v1/accounts validation", func() {
		It("requires type, one of individual or business", func() {
			body := individual()
			delete(body, "type")
			r := alpha.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"type": {"is required"}})
			body["type"] = "trust"
			r = alpha.post("/v1/accounts", body)
			Expect(r.details()).To(HaveKeyWithValue("type", ConsistOf("must be individual or business")))
		})

		It("names unknown fields and refuses both birthdate and dob_*", func() {
			body := individual()
			body["dob_day"] = 1
			body["favourite_colour"] = "blue"
			r := alpha.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"favourite_colour": {"is not a known field"}, "birthdate": nil})
		})

		It("refuses business fields on an individual account", func() {
			body := individual()
			body["business_name"] = "ACME"
			body["lei"] = fixtures.LEI
			r := alpha.post("/v1/accounts", body)
			expectInvalid(r, map[string][]string{"business_name": {"is only for business accounts"}, "lei": nil})
		})
	})

	Describe("GET /v1/accounts", func() {
		It("filters by external_id and account_type and pages in creation order", func() {
			t := newTenant("list", investv1.ApiClientSpec{})
			var created []map[string]any
			for i := range 5 {
				body := individual()
				if i%2 == 1 {
					body = business()
				}
				created = append(created, t.post("/v1/accounts", body).json())
			}
			// Creation timestamps have whole seconds; the id breaks ties.
			ids := idsOf(stableOrder(created))
			all := t.get("/v1/accounts").data()
			Expect(all).To(HaveLen(5))
			Expect(idsOf(all)).To(Equal(ids))
			var businessIDs []string
			for _, a := range all {
				if a["type"] == "business" {
					businessIDs = append(businessIDs, a["id"].(string))
				}
			}

			page := t.get("/v1/accounts?skip=1&limit=2").data()
			Expect(idsOf(page)).To(Equal(ids[1:3]))
			Expect(t.get("/v1/accounts?skip=5").data()).To(BeEmpty())

			business := t.get("/v1/accounts?account_type=business").data()
			Expect(idsOf(business)).To(Equal(businessIDs))

			var one, oneID string
			for _, a := range all {
				if a["type"] == "individual" {
					one, oneID = a["external_id"].(string), a["id"].(string)
				}
			}
			Expect(idsOf(t.get("/v1/accounts?external_id=" + one).data())).To(Equal([]string{oneID}))
			Expect(t.get("/v1/accounts?external_id=" + one + "&account_type=business").data()).To(BeEmpty())
		})

	})
})

// stableOrder sorts REST objects as the lists do: by created, then by id.
func stableOrder(items []map[string]any) []map[string]any {
	out := append([]map[string]any(nil), items...)
	sort.SliceStable(out, func(i, j int) bool {
		ci, cj := out[i]["created"].(string), out[j]["created"].(string)
		if ci != cj {
			return ci < cj
		}
		return out[i]["id"].(string) < out[j]["id"].(string)
	})
	return out
}

func idsOf(items []map[string]any) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["id"].(string))
	}
	return out
}
