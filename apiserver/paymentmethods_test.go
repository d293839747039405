package apiserver_test

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

var _ = Describe("Payment method details", func() {
	var account string
	BeforeEach(func() { account = alpha.newAccount() })
	pmdOf := func(id string) string { return "/v1/accounts/" + id + "/payment-method-details" }

	It("adds SEPA details with 201, the IBAN normalized (spaces, case), and reads them back", func() {
		r := alpha.post(pmdOf(account), map[string]any{
			"type": "sepa", "iban": "de89 3704 0044 0532 0130 00", "account_holder_name": "Erika Mustermann",
		})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		p := r.json()
		Expect(p).To(HaveKeyWithValue("iban", fixtures.IBAN))
		Expect(p).To(HaveKeyWithValue("type", "sepa"))
		Expect(p).To(HaveKeyWithValue("account_id", account))
		Expect(p).To(HaveKeyWithValue("account_holder_name", "Erika Mustermann"))
		Expect(p).To(HaveKeyWithValue("is_primary", false))
		got := alpha.get(pmdOf(account) + "/" + p["id"].(string))
		Expect(got.code).To(Equal(http.StatusOK))
		Expect(got.json()).To(Equal(p))
		Expect(idsOf(alpha.get(pmdOf(account)).data())).To(ConsistOf(p["id"]))
	})

	DescribeTable("refuses invalid details with 422 keyed by field",
		func(body map[string]any, field, message string) {
			r := alpha.post(pmdOf(account), body)
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.json()["error"]).To(Equal("Validation error"))
			Expect(r.details()).To(HaveKeyWithValue(field, ContainElement(ContainSubstring(message))))
		},
		Entry("IBAN check digits", map[string]any{"type": "sepa", "iban": "DE88370400440532013000", "account_holder_name": "E"}, "iban", "check digits"),
		Entry("IBAN country", map[string]any{"type": "sepa", "iban": "XX89370400440532013000", "account_holder_name": "E"}, "iban", "country"),
		Entry("type not sepa", map[string]any{"type": "swift", "iban": fixtures.IBAN, "account_holder_name": "E"}, "type", "sepa"),
		Entry("type missing", map[string]any{"iban": fixtures.IBAN, "account_holder_name": "E"}, "type", "is required"),
		Entry("iban missing", map[string]any{"type": "sepa", "account_holder_name": "E"}, "iban", "is required"),
		Entry("holder missing", map[string]any{"type": "sepa", "iban": fixtures.IBAN}, "account_holder_name", "is required"),
		Entry("holder too long", map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": strings.Repeat("x", 71)}, "account_holder_name", "70"),
		Entry("unknown field", map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "E", "bic": "X"}, "bic", "is not a known field"),
	)

	It("answers 404 Account not found for an unknown account", func() {
		r := alpha.post(pmdOf(fixturesID()), map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "E"})
		Expect(r.code).To(Equal(http.StatusNotFound), r.String())
		Expect(r.json()["error"]).To(Equal("Account not found"))
	})

	It("answers a path account_id that names no account of the tenant (unknown, another tenant's, not a lowercase UUID) with 404 Account not found, after the body's own problems", func() {
		for _, id := range []string{fixturesID(), beta.newAccount(), "not-a-uuid", strings.ToUpper(account)} {
			r := alpha.post(pmdOf(id), map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "E"})
			Expect(r.code).To(Equal(http.StatusNotFound), "%s: %s", id, r.String())
			Expect(r.json()["error"]).To(Equal("Account not found"))
			Expect(r.json()["details"]).To(ContainSubstring(id))
			r = alpha.post(pmdOf(id), map[string]any{"type": "sepa", "iban": "DE88370400440532013000", "account_holder_name": "E"})
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), "%s: %s", id, r.String())
		}
	})

	It("answers 404 Payment method details not found for an unknown id", func() {
		id := fixturesID()
		r := alpha.get(pmdOf(account) + "/" + id)
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Payment method details not found"))
		Expect(r.json()["details"]).To(ContainSubstring(id))
	})

	It("keeps one primary per account: POST and PATCH is_primary move the account's pointer", func() {
		a := alpha.post(pmdOf(account), map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "E", "is_primary": true})
		Expect(a.code).To(Equal(http.StatusCreated), a.String())
		Expect(a.json()["is_primary"]).To(BeTrue())
		b := alpha.newPaymentMethod(account)

		r := alpha.patch(pmdOf(account)+"/"+b, map[string]any{"is_primary": true})
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.json()["is_primary"]).To(BeTrue())
		Expect(alpha.get(pmdOf(account) + "/" + a.json()["id"].(string)).json()["is_primary"]).To(BeFalse())
		Expect(primaries(alpha.get(pmdOf(account)).data())).To(ConsistOf(b))
		Expect(storedAccount(alpha.ns, account).Spec.PrimaryPaymentMethodDetails).To(Equal(b))

		r = alpha.patch(pmdOf(account)+"/"+a.json()["id"].(string), map[string]any{"is_primary": false})
		Expect(r.json()["is_primary"]).To(BeFalse())
		Expect(storedAccount(alpha.ns, account).Spec.PrimaryPaymentMethodDetails).To(Equal(b))
		r = alpha.patch(pmdOf(account)+"/"+b, map[string]any{"is_primary": false})
		Expect(r.json()["is_primary"]).To(BeFalse())
		Expect(primaries(alpha.get(pmdOf(account)).data())).To(BeEmpty())

		r = alpha.patch(pmdOf(account)+"/"+b, map[string]any{"iban": fixtures.OtherIBAN})
		expectInvalid(r, map[string][]string{"iban": {"cannot be changed"}})
	})

	It("pages the list with skip and limit and refuses out-of-range values", func() {
		for range 3 {
			alpha.newPaymentMethod(account)
		}
		all := alpha.get(pmdOf(account)).data()
		Expect(all).To(HaveLen(3))
		Expect(idsOf(alpha.get(pmdOf(account) + "?skip=2&limit=5").data())).To(Equal(idsOf(all[2:])))
		Expect(alpha.get(pmdOf(account) + "?limit=1001").code).To(Equal(http.StatusUnprocessableEntity))
	})
})
