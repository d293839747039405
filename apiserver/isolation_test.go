package apiserver_test

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

var _ = Describe("Tenancy: another tenant's ids answer exactly like ids that do not exist", func() {
	It("walks every tenant endpoint with the other tenant's ids and with unknown ids", func() {
		account := alpha.newAccount()
		wallet := alpha.newWallet(account, randomAddress())
		pmd := alpha.newPaymentMethod(account)
		Expect(alpha.patch("/v1/accounts/"+account+"/wallets/"+wallet, map[string]any{"is_primary": true}).code).To(Equal(http.StatusOK))
		before := storedAccount(alpha.ns, account)

		type request struct {
			method, path string
			body         any
		}
		endpoints := func(account, wallet, pmd string) []request {
			a := "/v1/accounts/" + account
			return []request{
				{http.MethodGet, a, nil},
				{http.MethodPatch, a, map[string]any{"city": "Paris"}},
				{http.MethodPost, a + "/wallets", map[string]any{"chain": "polygon", "wallet_address": randomAddress()}},
				{http.MethodGet, a + "/wallets", nil},
				{http.MethodGet, a + "/wallets/" + wallet, nil},
				{http.MethodPatch, a + "/wallets/" + wallet, map[string]any{"is_primary": false}},
				{http.MethodPost, a + "/wallets/" + wallet + "/recovery", map[string]any{"to_wallet_id": fixturesID()}},
				{http.MethodGet, a + "/wallets/" + wallet + "/recovery", nil},
				{http.MethodPost, a + "/payment-method-details", map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "X"}},
				{http.MethodGet, a + "/payment-method-details", nil},
				{http.MethodGet, a + "/payment-method-details/" + pmd, nil},
				{http.MethodPatch, a + "/payment-method-details/" + pmd, map[string]any{"is_primary": true}},
				{http.MethodGet, a + "/portfolio", nil},
			}
		}
		// The other tenant's ids, and ids that exist nowhere (the wallet and details of an
		// existing account of beta's own, so that the inner id is what is unknown).
		theirs := endpoints(account, wallet, pmd)
		unknown := endpoints(fixturesID(), fixturesID(), fixturesID())
		own := beta.newAccount()
		innerTheirs := endpoints(own, wallet, pmd)
		innerUnknown := endpoints(own, fixturesID(), fixturesID())

		normalize := func(r response, ids ...string) string {
			s := r.String()
			for _, id := range ids {
				s = strings.ReplaceAll(s, id, "<id>")
			}
			return s
		}
		for i := range theirs {
			t, u := theirs[i], unknown[i]
			rt := call(t.method, t.path, beta.token, t.body)
			ru := call(u.method, u.path, beta.token, u.body)
			Expect(rt.code).To(Equal(http.StatusNotFound), "%s %s: %s", t.method, t.path, rt)
			Expect(normalize(rt, account, wallet, pmd)).To(Equal(normalize(ru, strings.Split(u.path, "/")[3])), "%s %s", t.method, t.path)

			it, iu := innerTheirs[i], innerUnknown[i]
			if it.path == iu.path {
				continue // the endpoint names no inner id
			}
			rt = call(it.method, it.path, beta.token, it.body)
			ru = call(iu.method, iu.path, beta.token, iu.body)
			Expect(rt.code).To(Equal(http.StatusNotFound), "%s %s: %s", it.method, it.path, rt)
			innerID := strings.Split(iu.path, "/")[5] // /v1/accounts/{account}/{kind}/{id}[/...]
			Expect(normalize(rt, wallet, pmd)).To(Equal(normalize(ru, innerID)), "%s %s", it.method, it.path)
		}

		Expect(idsOf(beta.get("/v1/accounts").data())).NotTo(ContainElement(account))
		after := storedAccount(alpha.ns, account)
		Expect(after.Spec).To(Equal(before.Spec))
		Expect(alpha.get("/v1/accounts/" + account + "/wallets").data()).To(HaveLen(1))
	})
})
