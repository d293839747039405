package apiserver_test

import (
	"net/http"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// Input hygiene (issue 11): what the body and the query string may carry.
var _ = Describe("Input hygiene", func() {
	// The text fields of an account body, with the CRD's maxLength of each.
	accountText := map[string]int{
		"external_id": 128, "city": 100, "line1": 200, "line2": 200, "postal_code": 20, "state": 100,
		"first_name": 100, "last_name": 100, "place_of_birth": 100, "tin": 64, "tax_residencies": 200,
	}

	It("refuses NUL, other control characters and invalid UTF-8 in every text field with 422 naming the field, and stores nothing", func() {
		for name := range accountText {
			for what, value := range map[string]string{"NUL": "Ber\u0000lin", "escape": "\u001b[2J", "newline": "a\nb", "DEL": "a\u007f", "C1": "a\u0085"} {
				body := individual()
				body[name] = value
				r := alpha.post("/v1/accounts", body)
				Expect(r.code).To(Equal(http.StatusUnprocessableEntity), "%s %s: %s", name, what, r)
				Expect(r.details()).To(HaveKey(name), "%s %s: %s", name, what, r)
				Expect(r.details()).To(HaveLen(1), "%s %s: %s", name, what, r)
				if name != "external_id" {
					Expect(alpha.get("/v1/accounts?external_id=" + body["external_id"].(string)).data()).To(BeEmpty())
				}
			}
		}
		// Invalid UTF-8 cannot go through json.Marshal: a raw body.
		raw := `{"type":"individual","first_name":"Erika","last_name":"Mustermann","birthdate":"1964-08-12","place_of_birth":"Berlin","city":"Ber` + "\xff" + `lin"}`
		r := alpha.post("/v1/accounts", raw)
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(Equal(map[string]any{"city": []any{"must be valid UTF-8 text"}}))

		id := alpha.newAccount()
		r = alpha.patch("/v1/accounts/"+id, map[string]any{"line1": "Unter den Linden 1\r\nX-Injected: 1"})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKey("line1"))
		Expect(storedAccount(alpha.ns, id).Spec.Line1).To(Equal("Unter den Linden 1"))

		r = alpha.post("/v1/accounts/"+id+"/payment-method-details",
			`{"type":"sepa","iban":"`+fixtures.IBAN+`","account_holder_name":"Erika `+"\xc3"+`"}`)
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(Equal(map[string]any{"account_holder_name": []any{"must be valid UTF-8 text"}}))
	})

	It("gives kubectl users the same refusal of control characters from admission", func() {
		acct := fixtures.IndividualAccount(alpha.ns)
		acct.Spec.City = "Ber\x00lin"
		err := k8s.Create(ctx, acct)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("spec.city"))
		Expect(err.Error()).To(ContainSubstring("must not contain control characters"))
	})

	It("answers a too-long field with 422 naming only that field, in every request type", func() {
		for name, max := range accountText {
			body := individual()
			body[name] = strings.Repeat("é", max+1)
			r := alpha.post("/v1/accounts", body)
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), "%s: %s", name, r)
			Expect(r.details()).To(Equal(map[string]any{name: []any{"must be at most " + itoa(max) + " characters"}}), name)
		}
		body := business()
		body["business_name"] = strings.Repeat("B", 201)
		r := alpha.post("/v1/accounts", body)
		Expect(r.details()).To(Equal(map[string]any{"business_name": []any{"must be at most 200 characters"}}), r.String())
		body = business()
		body["tax_id"] = strings.Repeat("T", 65)
		r = alpha.post("/v1/accounts", body)
		Expect(r.details()).To(Equal(map[string]any{"tax_id": []any{"must be at most 64 characters"}}), r.String())

		id := alpha.newAccount()
		r = alpha.patch("/v1/accounts/"+id, map[string]any{"city": strings.Repeat("c", 101)})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(Equal(map[string]any{"city": []any{"must be at most 100 characters"}}))

		r = alpha.post("/v1/accounts/"+id+"/wallets", map[string]any{"chain": "polygon", "wallet_address": randomAddress() + "00"})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveLen(1))
		Expect(r.details()).To(HaveKey("wallet_address"))

		r = alpha.post("/v1/accounts/"+id+"/payment-method-details",
			map[string]any{"type": "sepa", "iban": fixtures.IBAN, "account_holder_name": strings.Repeat("A", 71)})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(Equal(map[string]any{"account_holder_name": []any{"must be at most 70 characters"}}))
		r = alpha.post("/v1/accounts/"+id+"/payment-method-details",
			map[string]any{"type": "sepa", "iban": fixtures.IBAN + strings.Repeat("0", 20), "account_holder_name": "Erika"})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveLen(1))
		Expect(r.details()).To(HaveKey("iban"))

		r = alpha.post("/v1/orders", map[string]any{
			"side": "BUY", "market": "PRIMARY", "isin": string(shareClass.Spec.ISIN) + strings.Repeat("9", 40),
			"amount_of_units": 1, "currency": "EUR", "account_id": id,
		})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveLen(1))
		Expect(r.details()).To(HaveKey("isin"))
	})

	It("says dob_day 0 (and dob_month 0, dob_year 0) is out of range, not required", func() {
		for name, want := range map[string]string{
			"dob_day": "must be between 1 and 31", "dob_month": "must be between 1 and 12", "dob_year": "must be between 1900 and 9999",
		} {
			body := individual()
			delete(body, "birthdate")
			body["dob_day"], body["dob_month"], body["dob_year"] = 12, 8, 1964
			body[name] = 0
			r := alpha.post("/v1/accounts", body)
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(Equal(map[string]any{name: []any{want}}), name)
		}
		body := individual()
		delete(body, "birthdate")
		r := alpha.post("/v1/accounts", body)
		Expect(r.details()).To(HaveKeyWithValue("birthdate", ContainElement(ContainSubstring("is required"))), "absent is still required")
	})

	It("refuses unknown, repeated or badly encoded query parameters on single-object reads and lists", func() {
		id := alpha.newAccount()
		for _, path := range []string{"/v1/accounts/" + id, "/v1/accounts", "/v1/accounts/" + id + "/wallets"} {
			for _, q := range []string{"limit=%zz", "colour=red", "external_id=a&external_id=b"} {
				r := alpha.get(path + "?" + q)
				Expect(r.code).To(Equal(http.StatusUnprocessableEntity), "%s?%s: %s", path, q, r)
			}
		}
		Expect(alpha.get("/v1/accounts/" + id).code).To(Equal(http.StatusOK))
	})
})

func itoa(n int) string { return strconv.Itoa(n) }
