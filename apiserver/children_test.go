package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Wallets", func() {
	var account string
	BeforeEach(func() { account = alpha.newAccount() })

	It("registers a polygon wallet and returns it with 201, its address in EIP-55 form", func() {
		r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": strings.ToLower(fixtures.Address)})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		w := r.json()
		Expect(w).To(HaveKeyWithValue("account_id", account))
		Expect(w).To(HaveKeyWithValue("chain", "polygon"))
		Expect(w).To(HaveKeyWithValue("wallet_address", fixtures.Address))
		Expect(w).To(HaveKeyWithValue("is_primary", false))
		Expect(w).To(HaveKey("created"))
		Expect(w).To(HaveLen(6))
		Expect(r.header.Get("Location")).To(Equal(walletsOf(account) + "/" + w["id"].(string)))
		Expect(alpha.get(walletsOf(account) + "/" + w["id"].(string)).json()).To(Equal(w))
	})

	Describe("the spec's wallet registration errors", func() {
		It("Validation error: a required field missing or invalid (chain, wallet_address), keyed by field", func() {
			r := alpha.post(walletsOf(account), map[string]any{})
			expectInvalid(r, map[string][]string{"chain": {"is required"}, "wallet_address": {"is required"}})

			r = alpha.post(walletsOf(account), map[string]any{"chain": "ethereum", "wallet_address": "0x123"})
			expectInvalid(r, map[string][]string{"chain": {"must be polygon, the only enabled chain"}, "wallet_address": {"must be 0x followed by 40 hexadecimal digits"}})
		})

		It("Validation error: a mixed-case address must pass its EIP-55 checksum", func() {
			bad := strings.Replace(fixtures.Address, "aA", "Aa", 1)
			r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": bad})
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(HaveKeyWithValue("wallet_address", ConsistOf(ContainSubstring("EIP-55"))))
		})

		It("Account not found: an account id that does not exist, details naming it", func() {
			id := fixturesID()
			r := alpha.post(walletsOf(id), map[string]any{"chain": "polygon", "wallet_address": fixtures.Address})
			Expect(r.code).To(Equal(http.StatusNotFound), r.String())
			Expect(r.json()["error"]).To(Equal("Account not found"))
			Expect(r.json()["details"]).To(BeAssignableToTypeOf(""))
			Expect(r.json()["details"]).To(ContainSubstring(id))
		})

		It("answers a path account_id that names no account of the tenant (unknown, another tenant's, not a lowercase UUID) with 404 Account not found, after the body's own problems", func() {
			for _, id := range []string{fixturesID(), beta.newAccount(), "not-a-uuid", strings.ToUpper(account)} {
				r := alpha.post(walletsOf(id), map[string]any{"chain": "polygon", "wallet_address": fixtures.Address})
				Expect(r.code).To(Equal(http.StatusNotFound), "%s: %s", id, r.String())
				Expect(r.json()["error"]).To(Equal("Account not found"))
				Expect(r.json()["details"]).To(ContainSubstring(id))
				r = alpha.post(walletsOf(id), map[string]any{"chain": "polygon", "wallet_address": "0x12"})
				Expect(r.code).To(Equal(http.StatusUnprocessableEntity), "%s: %s", id, r.String())
			}
		})

		It("Wallet already registered: the address again on the account (any letter case), details naming it", func() {
			alpha.newWallet(account, fixtures.Address)
			for _, address := range []string{fixtures.Address, strings.ToLower(fixtures.Address), "0x" + strings.ToUpper(fixtures.Address[2:])} {
				r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": address})
				Expect(r.code).To(Equal(http.StatusConflict), r.String())
				Expect(r.json()["error"]).To(Equal("Wallet already registered"))
				Expect(r.json()["details"]).To(ContainSubstring(fixtures.Address))
			}
			// Another account may register it.
			alpha.newWallet(alpha.newAccount(), fixtures.Address)
		})

		It("Wallet already registered: also for a registration made with kubectl under another id", func() {
			w := fixtures.Wallet(alpha.ns, account, fixtures.OtherAddr)
			Expect(k8s.Create(ctx, w)).To(Succeed())
			Eventually(func() string {
				r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": fixtures.OtherAddr})
				return fmt.Sprintf("%d %s", r.code, r.json()["error"])
			}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal("409 Wallet already registered"))
		})

		It("Wallet already registered: exactly one of 20 concurrent registrations of one address succeeds", func() {
			address := randomAddress()
			var created, duplicate, other int32
			answers := concurrently(20, func(int) response {
				return alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": address})
			})
			for _, r := range answers {
				switch {
				case r.code == http.StatusCreated:
					created++
				case r.code == http.StatusConflict && r.json()["error"] == "Wallet already registered":
					duplicate++
				default:
					other++
					GinkgoWriter.Println("unexpected:", r.String())
				}
			}
			Expect([]int32{created, duplicate, other}).To(Equal([]int32{1, 19, 0}))
			Expect(alpha.get(walletsOf(account)).data()).To(HaveLen(1))
		})
	})

	It("refuses unknown body fields, naming them", func() {
		r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "label": "main"})
		expectInvalid(r, map[string][]string{"label": {"is not a known field"}})
	})

	Describe("only one wallet per account is primary", func() {
		It("POST with is_primary true makes the new wallet primary and clears the flag on the others", func() {
			first := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "is_primary": true})
			Expect(first.code).To(Equal(http.StatusCreated), first.String())
			Expect(first.json()["is_primary"]).To(BeTrue())
			second := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "is_primary": true})
			Expect(second.json()["is_primary"]).To(BeTrue())

			list := alpha.get(walletsOf(account)).data()
			Expect(primaries(list)).To(ConsistOf(second.json()["id"]))
			Expect(storedAccount(alpha.ns, account).Spec.PrimaryWallet).To(Equal(second.json()["id"]))
		})

		It("PATCH is_primary true moves the flag; false clears it only on the primary; null changes nothing", func() {
			a, b := alpha.newWallet(account, randomAddress()), alpha.newWallet(account, randomAddress())
			r := alpha.patch(walletsOf(account)+"/"+a, map[string]any{"is_primary": true})
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			Expect(r.json()["is_primary"]).To(BeTrue())
			Expect(r.json()).To(HaveKey("created"))

			r = alpha.patch(walletsOf(account)+"/"+b, map[string]any{"is_primary": false})
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			Expect(r.json()["is_primary"]).To(BeFalse())
			Expect(primaries(alpha.get(walletsOf(account)).data())).To(ConsistOf(a))

			r = alpha.patch(walletsOf(account)+"/"+a, map[string]any{"is_primary": nil})
			Expect(r.json()["is_primary"]).To(BeTrue())
			r = alpha.patch(walletsOf(account)+"/"+a, map[string]any{})
			Expect(r.json()["is_primary"]).To(BeTrue())

			r = alpha.patch(walletsOf(account)+"/"+a, map[string]any{"is_primary": false})
			Expect(r.json()["is_primary"]).To(BeFalse())
			Expect(primaries(alpha.get(walletsOf(account)).data())).To(BeEmpty())
			Expect(storedAccount(alpha.ns, account).Spec.PrimaryWallet).To(BeEmpty())
		})

		It("refuses changes to a registration's fixed fields", func() {
			a := alpha.newWallet(account, randomAddress())
			r := alpha.patch(walletsOf(account)+"/"+a, map[string]any{"wallet_address": randomAddress(), "is_primary": "yes"})
			expectInvalid(r, map[string][]string{"wallet_address": {"cannot be changed"}, "is_primary": {"must be a boolean"}})
		})

		It("holds under 50 concurrent PATCH is_primary=true over 5 wallets: one primary, the account's pointer, never two in a list", func() {
			var wallets []string
			for range 5 {
				wallets = append(wallets, alpha.newWallet(account, randomAddress()))
			}
			done := make(chan struct{})
			var polls, twoPrimaries atomic.Int32
			go func() {
				defer GinkgoRecover()
				for {
					select {
					case <-done:
						return
					default:
					}
					r := alpha.get(walletsOf(account))
					if r.code == http.StatusOK && len(primaries(r.data())) > 1 {
						twoPrimaries.Add(1)
					}
					polls.Add(1)
				}
			}()
			answers := concurrently(50, func(i int) response {
				return alpha.patch(walletsOf(account)+"/"+wallets[i%5], map[string]any{"is_primary": true})
			})
			close(done)
			for _, r := range answers {
				Expect(r.code).To(Equal(http.StatusOK), r.String())
			}
			Expect(twoPrimaries.Load()).To(BeZero())
			Expect(polls.Load()).To(BeNumerically(">", 0))
			pointer := storedAccount(alpha.ns, account).Spec.PrimaryWallet
			Expect(wallets).To(ContainElement(pointer))
			Expect(primaries(alpha.get(walletsOf(account)).data())).To(ConsistOf(pointer))
		})
	})

	Describe("GET /v1/accounts/{account_id}/wallets", func() {
		It("filters by wallet_address (any letter case) and is_primary, and pages in a stable order", func() {
			var created []map[string]any
			for i := range 4 {
				r := alpha.post(walletsOf(account), map[string]any{"chain": "polygon", "wallet_address": randomAddress(), "is_primary": i == 2})
				created = append(created, r.json())
			}
			ids := idsOf(stableOrder(created))
			Expect(idsOf(alpha.get(walletsOf(account)).data())).To(Equal(ids))
			Expect(idsOf(alpha.get(walletsOf(account) + "?skip=1&limit=2").data())).To(Equal(ids[1:3]))
			Expect(alpha.get(walletsOf(account) + "?skip=10").data()).To(BeEmpty())

			primary := created[2]["id"]
			Expect(idsOf(alpha.get(walletsOf(account) + "?is_primary=true").data())).To(ConsistOf(primary))
			Expect(alpha.get(walletsOf(account) + "?is_primary=false").data()).To(HaveLen(3))

			address := created[1]["wallet_address"].(string)
			Expect(idsOf(alpha.get(walletsOf(account) + "?wallet_address=0x" + strings.ToUpper(address[2:])).data())).
				To(ConsistOf(created[1]["id"]))
			Expect(alpha.get(walletsOf(account) + "?wallet_address=" + randomAddress()).data()).To(BeEmpty())
		})

		It("answers 404 Account not found for an unknown account", func() {
			r := alpha.get(walletsOf(fixturesID()))
			Expect(r.code).To(Equal(http.StatusNotFound))
			Expect(r.json()["error"]).To(Equal("Account not found"))
		})
	})

	It("answers 404 Wallet not found for a wallet of another account of the tenant", func() {
		other := alpha.newAccount()
		w := alpha.newWallet(other, randomAddress())
		r := alpha.get(walletsOf(account) + "/" + w)
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Wallet not found"))
		Expect(r.json()["details"]).To(ContainSubstring(w))
		r = alpha.patch(walletsOf(account)+"/"+w, map[string]any{"is_primary": true})
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(storedAccount(alpha.ns, account).Spec.PrimaryWallet).To(BeEmpty())
	})
})

// primaries are the ids flagged primary in a list.
func primaries(items []map[string]any) []string {
	out := []string{}
	for _, it := range items {
		if it["is_primary"] == true {
			out = append(out, it["id"].(string))
		}
	}
	return out
}

var _ = Describe("Payment method details", func() {
	var account string
	BeforeEach(func() { account = alpha.newAccount() })

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
