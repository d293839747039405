package apiserver_test

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// postWithKey sends a POST with an Idempotency-Key.
func (t *tenant) postWithKey(path, key string, body any) response {
	req := newJSONRequest(http.MethodPost, path, t.token, body)
	req.Header.Set("Idempotency-Key", key)
	return do(req)
}

func newKey() string { return "key-" + controlplane.NewID() }

// idempotentPost is one POST endpoint as the Idempotency-Key specs exercise it: a body
// (a fresh one on every call, all creating equal objects) and a count of the objects it
// creates.
type idempotentPost struct {
	path  func() string
	body  func() map[string]any
	other func(map[string]any) // changes a body into another request
	count func() int
}

func countIn(list client.ObjectList, opts ...client.ListOption) func() int {
	return func() int {
		ExpectWithOffset(1, k8s.List(ctx, list, opts...)).To(Succeed())
		items := 0
		switch l := list.(type) {
		case *investv1.AccountList:
			items = len(l.Items)
		case *investv1.WalletList:
			items = len(l.Items)
		case *investv1.PaymentMethodDetailsList:
			items = len(l.Items)
		case *investv1.OrderList:
			items = len(l.Items)
		}
		return items
	}
}

type idempotentEndpoint struct {
	name  string
	build func(t *tenant) idempotentPost
}

// idempotentEndpoints build each POST endpoint on a fresh tenant (so that counts are exact).
func idempotentEndpoints() []idempotentEndpoint {
	return []idempotentEndpoint{
		{"POST /v1/accounts (no external_id)", func(t *tenant) idempotentPost {
			return idempotentPost{
				path: func() string { return "/v1/accounts" },
				body: func() map[string]any {
					b := individual()
					delete(b, "external_id")
					return b
				},
				other: func(b map[string]any) { b["city"] = "Hamburg" },
				count: countIn(&investv1.AccountList{}, client.InNamespace(t.ns)),
			}
		}},
		{"POST /v1/accounts (with external_id, a derived id)", func(t *tenant) idempotentPost {
			ext := "cust-" + controlplane.NewID()[:8]
			return idempotentPost{
				path: func() string { return "/v1/accounts" },
				body: func() map[string]any {
					b := individual()
					b["external_id"] = ext
					return b
				},
				// Another external_id derives another id: the key still refuses it.
				other: func(b map[string]any) { b["external_id"] = "other-" + ext },
				count: countIn(&investv1.AccountList{}, client.InNamespace(t.ns)),
			}
		}},
		{"POST /v1/accounts/{account_id}/wallets (a derived id)", func(t *tenant) idempotentPost {
			account, address := t.newAccount(), randomAddress()
			return idempotentPost{
				path: func() string { return "/v1/accounts/" + account + "/wallets" },
				body: func() map[string]any {
					return map[string]any{"chain": "polygon", "wallet_address": address, "is_primary": true}
				},
				other: func(b map[string]any) { b["wallet_address"] = randomAddress() },
				count: countIn(&investv1.WalletList{}, client.InNamespace(t.ns)),
			}
		}},
		{"POST /v1/accounts/{account_id}/payment-method-details", func(t *tenant) idempotentPost {
			account := t.newAccount()
			return idempotentPost{
				path: func() string { return "/v1/accounts/" + account + "/payment-method-details" },
				body: func() map[string]any {
					return map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": "Erika Mustermann"}
				},
				other: func(b map[string]any) { b["iban"] = fixtures.OtherIBAN },
				count: countIn(&investv1.PaymentMethodDetailsList{}, client.InNamespace(t.ns)),
			}
		}},
		{"POST /v1/orders", func(t *tenant) idempotentPost {
			account := t.buyer()
			return idempotentPost{
				path:  func() string { return "/v1/orders" },
				body:  func() map[string]any { return orderBody("BUY", fixtures.ISIN, account, 100) },
				other: func(b map[string]any) { b["amount_of_units"] = 200 },
				count: countIn(&investv1.OrderList{}, client.InNamespace(t.ns)),
			}
		}},
	}
}

var _ = Describe("Idempotency-Key on every POST", func() {
	for _, e := range idempotentEndpoints() {
		build := e.build
		Describe(e.name, func() {
			var t *tenant
			var ep idempotentPost
			BeforeEach(func() {
				t = newTenant("idem", investv1.ApiClientSpec{})
				ep = build(t)
			})

			It("answers a retry with the same key and body 201 with the same id, and creates nothing more", func() {
				key := newKey()
				before := ep.count()
				first := t.postWithKey(ep.path(), key, ep.body())
				Expect(first.code).To(Equal(http.StatusCreated), first.String())
				Expect(first.header.Get("Idempotent-Replayed")).To(BeEmpty())
				id := first.json()["id"].(string)
				for range 3 {
					again := t.postWithKey(ep.path(), key, ep.body())
					Expect(again.code).To(Equal(http.StatusCreated), again.String())
					Expect(again.json()["id"]).To(Equal(id))
					Expect(again.header.Get("Idempotent-Replayed")).To(Equal("true"))
					Expect(again.header.Get("Location")).To(Equal(first.header.Get("Location")))
				}
				Expect(ep.count()).To(Equal(before + 1))
			})

			It("answers the same key with another body 422, naming the header, and creates nothing", func() {
				key := newKey()
				Expect(t.postWithKey(ep.path(), key, ep.body()).code).To(Equal(http.StatusCreated))
				before := ep.count()
				other := ep.body()
				ep.other(other)
				r := t.postWithKey(ep.path(), key, other)
				Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
				Expect(r.json()["error"]).To(Equal("Validation error"))
				Expect(r.details()).To(Equal(map[string]any{"Idempotency-Key": []any{"was used with a different request"}}))
				Expect(ep.count()).To(Equal(before))
			})

			It("creates one object for 10 concurrent requests with one key, and answers each 201 with its id", func() {
				key := newKey()
				before := ep.count()
				answers := concurrently(10, func(int) response { return t.postWithKey(ep.path(), key, ep.body()) })
				ids := map[any]bool{}
				for _, a := range answers {
					Expect(a.code).To(Equal(http.StatusCreated), a.String())
					ids[a.json()["id"]] = true
				}
				Expect(ids).To(HaveLen(1))
				Expect(ep.count()).To(Equal(before + 1))
			})
		})
	}

	It("refuses a key that is not 1 to 255 visible ASCII characters with 422 naming the header", func() {
		for _, key := range []string{strings.Repeat("k", 256), "two words", "schlüssel"} {
			r := alpha.postWithKey("/v1/accounts", key, individual())
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(HaveKeyWithValue("Idempotency-Key", ConsistOf("must be 1 to 255 visible ASCII characters")))
		}
	})

	It("scopes keys per client: another tenant's request with the same key creates its own object", func() {
		key := newKey()
		a := alpha.postWithKey("/v1/accounts", key, individual())
		b := beta.postWithKey("/v1/accounts", key, individual())
		Expect(a.code).To(Equal(http.StatusCreated), a.String())
		Expect(b.code).To(Equal(http.StatusCreated), b.String())
		Expect(a.json()["id"]).NotTo(Equal(b.json()["id"]))
	})

	It("answers the usual 409 when a derived id is taken by an object created without the key", func() {
		body := individual()
		Expect(alpha.post("/v1/accounts", body).code).To(Equal(http.StatusCreated))
		r := alpha.postWithKey("/v1/accounts", newKey(), body)
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("External ID already in use"))

		account, address := alpha.newAccount(), randomAddress()
		alpha.newWallet(account, address)
		r = alpha.postWithKey("/v1/accounts/"+account+"/wallets", newKey(), map[string]any{"chain": "polygon", "wallet_address": address})
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("Wallet already registered"))
	})

	It("records the key and the request hash on the created object", func() {
		key := newKey()
		r := alpha.postWithKey("/v1/accounts", key, individual())
		Expect(r.code).To(Equal(http.StatusCreated))
		a := storedAccount(alpha.ns, r.json()["id"].(string))
		Expect(a.Annotations).To(HaveKeyWithValue("invest.fundshare.io/idempotency-key", key))
		Expect(a.Annotations).To(HaveKeyWithValue("invest.fundshare.io/request-hash", MatchRegexp(`^[0-9a-f]{64}$`)))
	})
})
