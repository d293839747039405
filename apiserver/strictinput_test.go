package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// Strict input (issue 24): a JSON body that repeats a key is refused, a body in a charset
// other than UTF-8 is refused, and every order answer says which wallet and payment method
// the order was placed with.

// strictInput is a tenant of its own, so that "nothing was created" is the whole list.
var strictInput *tenant

func strictTenant() *tenant {
	if strictInput == nil {
		strictInput = newTenant("strictinput", investv1.ApiClientSpec{})
	}
	return strictInput
}

// send sends body exactly as given with the Content-Type given.
func (t *tenant) send(method, path, contentType, body string) response {
	req := newJSONRequest(method, path, t.token, body)
	req.Header.Set("Content-Type", contentType)
	return do(req)
}

// sendJSON is send with Content-Type application/json.
func (t *tenant) sendJSON(method, path, body string) response {
	return t.send(method, path, "application/json", body)
}

// withMember is the JSON object of fields with the raw member added first (a key the
// object has already makes it repeat).
func withMember(fields map[string]any, member string) string {
	b, err := json.Marshal(fields)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return "{" + member + "," + string(b[1:])
}

// expectDuplicateKey checks the refusal of a repeated key: 400 Malformed JSON, details
// naming the key's path with the key.
func expectDuplicateKey(r response, path, key string) {
	GinkgoHelper()
	Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
	Expect(r.json()["error"]).To(Equal("Malformed JSON"), r.String())
	Expect(r.details()).To(Equal(map[string]any{path: []any{`duplicate key "` + key + `"`}}), r.String())
}

// idsAt lists the ids GET path answers.
func (t *tenant) idsAt(path string) []string {
	GinkgoHelper()
	r := t.get(path)
	Expect(r.code).To(Equal(http.StatusOK), r.String())
	return idsOf(r.data())
}

var _ = Describe("Strict input: a JSON body with a repeated key is refused with 400 on every route that takes one", func() {
	It("POST /v1/accounts refuses a repeated key, top-level or nested, naming it and its path, and creates no account", func() {
		t := strictTenant()
		before := t.idsAt("/v1/accounts")
		body := individual()
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/accounts", withMember(body, `"city":"Hamburg"`)), "city", "city")
		// Both values valid, or the last one invalid: neither is picked.
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/accounts", withMember(body, `"type":"trust"`)), "type", "type")
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/accounts", withMember(body, `"address":{"city":"Berlin","line1":"x","city":"Bonn"}`)), "address.city", "city")
		// With an Idempotency-Key too (the key's hash is computed before the body is read).
		req := newJSONRequest(http.MethodPost, "/v1/accounts", t.token, withMember(body, `"country":"FR"`))
		req.Header.Set("Idempotency-Key", "strict-dup-1")
		expectDuplicateKey(do(req), "country", "country")
		Expect(t.idsAt("/v1/accounts")).To(Equal(before))
		Expect(t.idsAt("/v1/accounts?external_id=" + body["external_id"].(string))).To(BeEmpty())
	})

	It("POST of a wallet and of payment method details refuses a repeated key, also inside an array, and registers nothing", func() {
		t := strictTenant()
		account := t.newAccount()
		a, b := randomAddress(), randomAddress()
		expectDuplicateKey(t.sendJSON(http.MethodPost, walletsOf(account),
			`{"chain":"polygon","wallet_address":"`+a+`","wallet_address":"`+b+`"}`), "wallet_address", "wallet_address")
		expectDuplicateKey(t.sendJSON(http.MethodPost, walletsOf(account),
			`{"chain":"polygon","wallet_address":"`+a+`","labels":[{"x":1},{"x":1,"y":2,"x":3}]}`), "labels[1].x", "x")
		expectDuplicateKey(t.sendJSON(http.MethodPost, pmdOf(account),
			`{"type":"sepa","iban":"`+fixtures.IBAN+`","account_holder_name":"Erika Mustermann","iban":"DE89370400440532013000"}`), "iban", "iban")
		Expect(t.idsAt(walletsOf(account))).To(BeEmpty())
		Expect(t.idsAt(pmdOf(account))).To(BeEmpty())
	})

	It("POST /v1/orders refuses a repeated key, top-level or nested, and places no order", func() {
		t := strictTenant()
		account := t.buyer()
		body := orderBody("BUY", fixtures.ISIN, account, 100)
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/orders", withMember(body, `"amount_of_units":1000`)), "amount_of_units", "amount_of_units")
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/orders", withMember(body, `"side":"SELL"`)), "side", "side")
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/orders",
			withMember(body, `"beneficiary":{"name":"E","iban":"DE1","iban":"DE2"}`)), "beneficiary.iban", "iban")
		Expect(t.idsAt("/v1/orders?account_id=" + account)).To(BeEmpty())
	})

	It("PATCH of an account, a wallet, payment method details and a webhook endpoint refuses a repeated key and changes nothing", func() {
		t := strictTenant()
		account := t.newAccount()
		wallet := t.newWallet(account, randomAddress())
		pmd := t.newPaymentMethod(account)
		rc := newHookReceiver()
		created := t.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL, "description": "books"})
		Expect(created.code).To(Equal(http.StatusCreated), created.String())
		endpoint := created.json()["id"].(string)
		stored := func() []string {
			return []string{
				t.get("/v1/accounts/" + account).String(), t.get(walletsOf(account) + "/" + wallet).String(),
				t.get(pmdOf(account) + "/" + pmd).String(), t.get("/v1/webhook-endpoints/" + endpoint).String(),
			}
		}
		before := stored()

		expectDuplicateKey(t.sendJSON(http.MethodPatch, "/v1/accounts/"+account, `{"city":"Hamburg","city":"Munich"}`), "city", "city")
		expectDuplicateKey(t.send(http.MethodPatch, "/v1/accounts/"+account, "application/merge-patch+json", `{"line2":"a","x":{"y":{"z":1,"z":2}}}`), "x.y.z", "z")
		expectDuplicateKey(t.sendJSON(http.MethodPatch, walletsOf(account)+"/"+wallet, `{"is_primary":true,"is_primary":false}`), "is_primary", "is_primary")
		expectDuplicateKey(t.sendJSON(http.MethodPatch, pmdOf(account)+"/"+pmd, `{"is_primary":true,"is_primary":true}`), "is_primary", "is_primary")
		expectDuplicateKey(t.sendJSON(http.MethodPatch, "/v1/webhook-endpoints/"+endpoint, `{"description":"a","enabled":false,"description":"b"}`), "description", "description")
		Expect(stored()).To(Equal(before))
	})

	It("POST /v1/webhook-endpoints refuses a repeated key, top-level or nested, and creates no endpoint", func() {
		t := strictTenant()
		before := t.idsAt("/v1/webhook-endpoints")
		rc := newHookReceiver()
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/webhook-endpoints",
			`{"url":"`+rc.srv.URL+`/a","url":"`+rc.srv.URL+`/b"}`), "url", "url")
		expectDuplicateKey(t.sendJSON(http.MethodPost, "/v1/webhook-endpoints",
			`{"url":"`+rc.srv.URL+`","event_types":["order.placed"],"meta":{"a":{"b":1,"b":2}}}`), "meta.a.b", "b")
		Expect(t.idsAt("/v1/webhook-endpoints")).To(Equal(before))
	})
})

var _ = Describe("Strict input: a Content-Type charset other than UTF-8 is refused", func() {
	It("answers 415 naming the charset on every route that reads a body, and writes nothing; utf-8 in any spelling is accepted", func() {
		t := strictTenant()
		account := t.buyer()
		wallet := t.idsAt(walletsOf(account))[0]
		other := t.newWallet(account, randomAddress())
		pmd := t.newPaymentMethod(account)
		rc := newHookReceiver()
		created := t.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL})
		Expect(created.code).To(Equal(http.StatusCreated), created.String())
		endpoint := created.json()["id"].(string)
		order, err := json.Marshal(orderBody("BUY", fixtures.ISIN, account, 100))
		Expect(err).NotTo(HaveOccurred())
		lists := func() []string {
			return []string{
				t.get("/v1/accounts").String(), t.get(walletsOf(account)).String(), t.get(pmdOf(account)).String(),
				t.get("/v1/orders?account_id=" + account).String(), t.get("/v1/webhook-endpoints").String(),
				t.get(walletsOf(account) + "/" + wallet + "/recovery").String(),
			}
		}
		// The controllers settle what was just created (the primary marks of the wallets)
		// before the lists are taken: two reads apart agree.
		var before []string
		Eventually(func(g Gomega) {
			before = lists()
			time.Sleep(200 * time.Millisecond)
			g.Expect(lists()).To(Equal(before))
		}).WithTimeout(10 * time.Second).Should(Succeed())

		routes := []struct{ method, path, body string }{
			{http.MethodPost, "/v1/accounts", mustJSON(individual())},
			{http.MethodPatch, "/v1/accounts/" + account, `{"city":"Hamburg"}`},
			{http.MethodPost, walletsOf(account), `{"chain":"polygon","wallet_address":"` + randomAddress() + `"}`},
			{http.MethodPatch, walletsOf(account) + "/" + other, `{"is_primary":true}`},
			{http.MethodPost, walletsOf(account) + "/" + wallet + "/recovery", `{"to_wallet_id":"` + other + `"}`},
			{http.MethodPost, pmdOf(account), `{"type":"sepa","iban":"` + fixtures.IBAN + `","account_holder_name":"Erika Mustermann"}`},
			{http.MethodPatch, pmdOf(account) + "/" + pmd, `{"is_primary":true}`},
			{http.MethodPost, "/v1/orders", string(order)},
			{http.MethodPost, "/v1/webhook-endpoints", `{"url":"` + rc.srv.URL + `/other"}`},
			{http.MethodPatch, "/v1/webhook-endpoints/" + endpoint, `{"description":"changed"}`},
			{http.MethodPost, "/v1/webhook-endpoints/" + endpoint + "/replay", `{"event_id":"evt_x"}`},
		}
		for _, rt := range routes {
			for _, ct := range []string{"application/json; charset=iso-8859-1", `application/json; charset="UTF-16"`} {
				r := t.send(rt.method, rt.path, ct, rt.body)
				Expect(r.code).To(Equal(http.StatusUnsupportedMediaType), "%s %s %s: %s", rt.method, rt.path, ct, r)
				Expect(r.json()["error"]).To(Equal("Unsupported media type"), r.String())
				charset := strings.Trim(strings.SplitN(ct, "=", 2)[1], `"`)
				Expect(r.json()["details"]).To(Equal(`charset "`+charset+`" is not supported: only utf-8 is accepted`), r.String())
			}
		}
		Expect(lists()).To(Equal(before))

		// UTF-8, named in any letter case and quoted or not, or no charset at all.
		for i, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8", `application/json; charset="utf-8"`, "application/json"} {
			r := t.send(http.MethodPatch, "/v1/accounts/"+account, ct, `{"line2":"Hinterhaus `+string(rune('A'+i))+`"}`)
			Expect(r.code).To(Equal(http.StatusOK), "%s: %s", ct, r)
		}
		r := t.send(http.MethodPost, "/v1/orders", `application/json; charset="UTF-8"`, string(order))
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
	})

	It("POST /oauth2/token answers 400 invalid_request (RFC 6749 §5.2, OAuth's status for a malformed request) for a charset other than UTF-8", func() {
		t := strictTenant()
		form := url.Values{
			"grant_type": {"client_credentials"}, "scope": {"openid offline"},
			"client_id": {t.clientID}, "client_secret": {t.secret}, "audience": {"127.0.0.1"},
		}
		token := func(ct string) response {
			req, err := http.NewRequest(http.MethodPost, baseURL+"/oauth2/token", strings.NewReader(form.Encode()))
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("Content-Type", ct)
			return do(req)
		}
		r := token("application/x-www-form-urlencoded; charset=iso-8859-1")
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()).To(Equal(map[string]any{"error": "invalid_request", "error_description": "the form body must be UTF-8: send charset=utf-8 or no charset"}))
		for _, ct := range []string{"application/x-www-form-urlencoded; charset=UTF-8", "application/x-www-form-urlencoded"} {
			Expect(token(ct).code).To(Equal(http.StatusOK), ct)
		}
	})
})

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return string(b)
}

// orderIDs reads the order of the path (GET /v1/orders/{id}, or its item in the account's
// list) and returns its wallet_id and payment_method_details_id.
func (t *tenant) orderIDs(account, id string) (one, listed [2]any) {
	GinkgoHelper()
	r := t.get("/v1/orders/" + id)
	Expect(r.code).To(Equal(http.StatusOK), r.String())
	o := r.json()
	Expect(o).To(HaveKey("wallet_id"))
	Expect(o).To(HaveKey("payment_method_details_id"))
	one = [2]any{o["wallet_id"], o["payment_method_details_id"]}
	for _, item := range t.get("/v1/orders?account_id=" + account).data() {
		if item["id"] == id {
			Expect(item).To(HaveKey("wallet_id"))
			Expect(item).To(HaveKey("payment_method_details_id"))
			return one, [2]any{item["wallet_id"], item["payment_method_details_id"]}
		}
	}
	Fail("order " + id + " is not in its account's list")
	return
}

// primaries is an account of t with a primary wallet and primary payment method details.
func (t *tenant) primaries() (account, wallet, pmd string) {
	GinkgoHelper()
	account = t.buyer()
	wallet = t.idsAt(walletsOf(account))[0]
	r := t.post(pmdOf(account), map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "Erika Mustermann", "is_primary": true})
	Expect(r.code).To(Equal(http.StatusCreated), r.String())
	return account, wallet, r.json()["id"].(string)
}

// kubectlOrder creates a BUY directly through the Kubernetes API, as kubectl does: its
// spec names no wallet and no payment method.
func (t *tenant) kubectlOrder(account string) string {
	GinkgoHelper()
	o := fixtures.BuyOrder(t.ns, account, fixtures.ISIN, 100)
	Expect(o.Spec.WalletID).To(BeEmpty())
	Expect(o.Spec.PaymentMethodDetailsID).To(BeEmpty())
	Expect(k8s.Create(ctx, o)).To(Succeed())
	return o.Name
}

var _ = Describe("Strict input: every order answer carries the wallet and payment method resolved at placement", func() {
	It("an order placed with kubectl shows the account's primary wallet and payment method in GET /v1/orders/{order_id} and in the list", func() {
		t := strictTenant()
		account, wallet, pmd := t.primaries()
		id := t.kubectlOrder(account)
		want := [2]any{wallet, pmd}
		// The facade reads its cache, which learns of an order it did not write a moment later.
		Eventually(func() int { return t.get("/v1/orders/" + id).code }).
			WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal(http.StatusOK))
		one, listed := t.orderIDs(account, id)
		Expect(one).To(Equal(want))
		Expect(listed).To(Equal(want))
		// Recorded at placement: the spec still names neither.
		stored := t.storedOrder(id)
		Expect(stored.Spec.WalletID).To(BeEmpty())
		Expect(stored.Spec.PaymentMethodDetailsID).To(BeEmpty())
	})

	It("a terminal order shows them: a cancelled order placed through REST without naming either", func() {
		t := strictTenant()
		account, wallet, pmd := t.primaries()
		id := t.place("BUY", fixtures.ISIN, account, 100)
		r := t.deleteAsAClientWould("/v1/orders/" + id)
		Expect(r.code).To(BeElementOf(http.StatusOK, http.StatusAccepted), r.String())
		t.waitState(id, investv1.StateCancelled)
		t.waitServed(id, investv1.StateCancelled)
		one, listed := t.orderIDs(account, id)
		Expect(one).To(Equal([2]any{wallet, pmd}))
		Expect(listed).To(Equal([2]any{wallet, pmd}))
	})

	It("an archived order shows them: a kubectl order completed and moved to the order archive", func() {
		t := strictTenant()
		account, wallet, pmd := t.primaries()
		id := t.kubectlOrder(account)
		t.settleBuy(id)
		one, listed := t.orderIDs(account, id)
		Expect(one).To(Equal([2]any{wallet, pmd}))
		Expect(listed).To(Equal([2]any{wallet, pmd}))
		t.archiveOrder(id)
		one, listed = t.orderIDs(account, id)
		Expect(one).To(Equal([2]any{wallet, pmd}))
		Expect(listed).To(Equal([2]any{wallet, pmd}))
	})
})
