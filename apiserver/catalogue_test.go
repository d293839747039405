package apiserver_test

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

var _ = Describe("Catalogue", func() {
	byID := func(items []map[string]any, id string) map[string]any {
		for _, it := range items {
			if it["id"] == id {
				return it
			}
		}
		Fail("no item " + id)
		return nil
	}

	Describe("GET /v1/funds", func() {
		It("lists funds with the spec's fields, the market flags and the redemption gate, readable by every tenant", func() {
			funds := beta.get("/v1/funds").data()
			f := byID(funds, fund.Name)
			Expect(f).To(HaveKeyWithValue("name", "Global Private Equity Feeder I"))
			Expect(f).To(HaveKeyWithValue("abbreviation", "GPEF1"))
			Expect(f).To(HaveKeyWithValue("target_fund_volume", BeNumerically("==", 2_500_000_000)))
			Expect(f).To(HaveKeyWithValue("target_fund_jurisdiction", "LU"))
			Expect(f).To(HaveKeyWithValue("risk_score", BeNumerically("==", 6)))
			Expect(f).To(HaveKeyWithValue("recommended_holding_duration", "5 years"))
			Expect(f).To(HaveKeyWithValue("nav_frequency", "monthly"))
			Expect(f).To(HaveKeyWithValue("base_currency", "EUR"))
			Expect(f).To(HaveKeyWithValue("distribution_strategy", "accumulating"))
			Expect(f).To(HaveKeyWithValue("payment_details", Equal(map[string]any{
				"type": "SEPA", "account_holder_name": fixtures.FundHolder, "iban": fixtures.FundIBAN,
			})))
			Expect(f["documents"]).To(ConsistOf(map[string]any{
				"id": "prospectus", "url": "https://docs.example.com/gpef1/prospectus.pdf", "type": "FEEDER_FUND",
			}))
			Expect(f).To(HaveKeyWithValue("subscribable", true))
			Expect(f).To(HaveKeyWithValue("redeemable", true))
			Expect(f).To(HaveKeyWithValue("tradeable", true))
			Expect(f).To(HaveKeyWithValue("redemption_gate", BeNil()))
			for _, k := range []string{"description", "target_fund_name", "feeder_fund_volume", "feeder_fund_location", "strategy", "created"} {
				Expect(f).To(HaveKey(k))
			}

			o := byID(funds, otherFund.Name)
			Expect(o).To(HaveKeyWithValue("recommended_holding_duration", BeNumerically("==", 7)))
			Expect(o["documents"]).To(Equal([]any{}))
			Expect(o).To(HaveKeyWithValue("payment_details", BeNil()))
			Expect(o["redemption_gate"]).To(HaveKeyWithValue("active", true))
		})

		It("filters by abbreviation (exact), name (case-insensitive, partial), base_currency and risk_score", func() {
			Expect(idsOf(alpha.get("/v1/funds?abbreviation=EIIF").data())).To(ContainElement(otherFund.Name))
			Expect(idsOf(alpha.get("/v1/funds?abbreviation=EII").data())).NotTo(ContainElement(otherFund.Name))
			Expect(idsOf(alpha.get("/v1/funds?name=infrastructure%20INCOME").data())).To(ContainElement(otherFund.Name))
			usd := idsOf(alpha.get("/v1/funds?base_currency=USD").data())
			Expect(usd).To(ContainElement(otherFund.Name))
			Expect(usd).NotTo(ContainElement(fund.Name))
			risk := idsOf(alpha.get("/v1/funds?risk_score=6").data())
			Expect(risk).To(ContainElement(fund.Name))
			Expect(risk).NotTo(ContainElement(otherFund.Name))
			Expect(alpha.get("/v1/funds?limit=1").data()).To(HaveLen(1))
		})

	})

	Describe("GET /v1/funds/{fund_id}", func() {
		It("reads one fund by the id the list answers, for every tenant, as the list shows it", func() {
			for _, f := range []string{fund.Name, otherFund.Name} {
				listed := byID(alpha.get("/v1/funds").data(), f)
				for _, c := range []*tenant{alpha, beta} {
					r := c.get("/v1/funds/" + f)
					Expect(r.code).To(Equal(http.StatusOK), r.String())
					Expect(r.json()).To(Equal(listed))
				}
			}
			Expect(alpha.get("/v1/funds/" + fund.Name).json()).To(HaveKeyWithValue("abbreviation", "GPEF1"))
		})

		It("answers 404 Fund not found for an id no fund has, well-formed or not", func() {
			for _, id := range []string{"0b7e4f4e-1d1c-4c55-9d9e-7a0f5f0b2c11", "GPEF1", strings.ToUpper(fund.Name)} {
				r := alpha.get("/v1/funds/" + id)
				Expect(r.code).To(Equal(http.StatusNotFound), r.String())
				Expect(r.json()["error"]).To(Equal("Fund not found"))
				Expect(r.json()["details"]).To(ContainSubstring(id))
			}
		})

		It("refuses query parameters with 422: the filters belong to GET /v1/funds", func() {
			r := alpha.get("/v1/funds/" + fund.Name + "?abbreviation=GPEF1")
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(HaveKey("abbreviation"))
		})
	})

	Describe("GET /v1/share-classes", func() {
		It("lists share classes with the spec's fields plus isin and currency", func() {
			c := byID(alpha.get("/v1/share-classes").data(), shareClass.Name)
			Expect(c).To(Equal(map[string]any{
				"id": shareClass.Name, "name": "Class A EUR Acc", "abbreviation": "A-EUR",
				"management_fee": 150.0, "administration_fee": 20.0, "servicing_fee": 10.0,
				"subscription_fee": 50.0, "redemption_fee": 25.0, "depositary_fee": 5.0,
				"target_return_net": 1200.0, "min_investment": 100_000_000.0, "lock_up": 0.0,
				"redemption_window": "monthly", "feeder_fund_id": fund.Name, "created": c["created"],
				"isin": fixtures.ISIN, "currency": "EUR",
			}))
			Expect(byID(alpha.get("/v1/share-classes").data(), otherClass.Name)).To(HaveKeyWithValue("servicing_fee", BeNil()))
		})

		It("filters by abbreviation, name (partial, case-insensitive) and feeder_fund_id", func() {
			Expect(idsOf(alpha.get("/v1/share-classes?abbreviation=I-USD").data())).To(ConsistOf(otherClass.Name))
			Expect(idsOf(alpha.get("/v1/share-classes?name=usd%20dist").data())).To(ConsistOf(otherClass.Name))
			Expect(idsOf(alpha.get("/v1/share-classes?feeder_fund_id=" + fund.Name).data())).To(ConsistOf(shareClass.Name))
			r := alpha.get("/v1/share-classes?feeder_fund_id=gpef1")
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity))
			Expect(r.details()).To(HaveKey("feeder_fund_id"))
		})

		It("reads one share class by ISIN (extension)", func() {
			r := alpha.get("/v1/share-classes/" + fixtures.ISIN)
			Expect(r.code).To(Equal(http.StatusOK))
			Expect(r.json()["id"]).To(Equal(shareClass.Name))
			r = alpha.get("/v1/share-classes/XS0000000009")
			Expect(r.code).To(Equal(http.StatusNotFound))
			Expect(r.json()["error"]).To(Equal("Share class not found"))
		})
	})

	Describe("GET /v1/assets/{isin}/prices", func() {
		It("returns every price newest first with isin, currency and total_count; dates as date-times", func() {
			r := alpha.get("/v1/assets/" + fixtures.ISIN + "/prices")
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			body := r.json()
			Expect(body).To(HaveKeyWithValue("isin", fixtures.ISIN))
			Expect(body).To(HaveKeyWithValue("currency", "EUR"))
			Expect(body).To(HaveKeyWithValue("total_count", BeNumerically("==", 3)))
			prices := body["prices"].([]any)
			Expect(prices).To(HaveLen(3))
			Expect(prices[0]).To(Equal(map[string]any{
				"nav_per_share": 1_030_000.0, "date": "2025-03-31T00:00:00Z", "currency": "EUR",
				"change_percentage": 100.0, "volume": 1500.0,
			}))
			Expect(prices[1].(map[string]any)["date"]).To(Equal("2025-02-28T00:00:00Z"))
			Expect(prices[1].(map[string]any)["change_percentage"]).To(BeNumerically("==", -50))
			Expect(prices[2].(map[string]any)["volume"]).To(BeNil())
		})

		It("answers 404 Share class not found for an unknown ISIN", func() {
			r := alpha.get("/v1/assets/US0378331005/prices")
			Expect(r.code).To(Equal(http.StatusNotFound))
			Expect(r.json()["error"]).To(Equal("Share class not found"))
			Expect(r.json()["details"]).To(ContainSubstring("US0378331005"))
		})

		It("answers an empty history for a share class without prices", func() {
			r := alpha.get("/v1/assets/" + strings.ToLower(fixtures.OtherISIN) + "/prices")
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			Expect(r.json()).To(Equal(map[string]any{"prices": []any{}, "isin": fixtures.OtherISIN, "currency": "USD", "total_count": 0.0}))
		})

		It("returns the newest price at /prices/latest (extension)", func() {
			r := alpha.get("/v1/assets/" + fixtures.ISIN + "/prices/latest")
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			Expect(r.json()).To(HaveKeyWithValue("date", "2025-03-31T00:00:00Z"))
			Expect(r.json()).To(HaveKeyWithValue("isin", fixtures.ISIN))
			r = alpha.get("/v1/assets/" + fixtures.OtherISIN + "/prices/latest")
			Expect(r.code).To(Equal(http.StatusNotFound))
			Expect(r.json()["error"]).To(Equal("Price not found"))
		})
	})
})
