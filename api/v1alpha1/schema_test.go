package v1alpha1_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// expectInvalid asserts that the API server refused the object as Invalid and that the
// message names the field.
func expectInvalid(err error, field, message string) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred())
	Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want Invalid, got %v", err)
	Expect(err.Error()).To(ContainSubstring(field))
	if message != "" {
		Expect(err.Error()).To(ContainSubstring(message))
	}
}

// intraday makes terms deal every five minutes from 09:00 to 17:00, BUYs and SELLs until
// two minutes before each dealing point.
func intraday(t *investv1.DealingTerms) {
	t.Frequency, t.IntervalMinutes, t.FirstDealingTime, t.LastDealingTime = investv1.DealingIntraday, 5, "09:00", "17:00"
	t.SubscriptionCutOff, t.RedemptionCutOff = investv1.CutOff{MinutesBefore: 2}, investv1.CutOff{MinutesBefore: 2}
}

var _ = Describe("CRD schemas", func() {
	var ns string
	BeforeEach(func() { ns = env.NewNamespace("schema") })

	Describe("the spec's valid examples are accepted", func() {
		It("accepts an individual and a business account, a wallet, a payment method, a fund, a share class, a NAV history, an offering, an API client and an order", func() {
			fund := fixtures.Fund()
			sc := fixtures.ShareClass(fund.Name, fixtures.ISIN)
			sc.Name = controlplane.NewID()
			acct := fixtures.IndividualAccount(ns)
			vol := int64(1200)
			objs := []client.Object{
				acct, fixtures.BusinessAccount(ns),
				fixtures.Wallet(ns, acct.Name, fixtures.Address),
				fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN),
				fund, sc,
				fixtures.NAVHistory(fixtures.OtherISIN, "EUR",
					investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_053_400, ChangePercentage: 120, Volume: &vol},
					investv1.NAVPrice{Date: "2026-09-30", NAVPerShare: 1_040_900, ChangePercentage: -35}),
				&investv1.CustomOffering{ObjectMeta: objMeta(ns), Spec: investv1.CustomOfferingSpec{ISIN: fixtures.ISIN, FeeRate: 25}},
				fixtures.ApiClient(ns, "demo-client", "demo-client-secret"),
				fixtures.BuyOrder(ns, acct.Name, fixtures.ISIN, 10),
			}
			for _, o := range objs {
				Expect(k8s.Create(ctx, o)).To(Succeed(), "%T", o)
			}
			// Cluster-scoped objects are shared by the whole suite: remove them again.
			Expect(k8s.Delete(ctx, objs[4])).To(Succeed())
			Expect(k8s.Delete(ctx, objs[5])).To(Succeed())
			Expect(k8s.Delete(ctx, objs[6])).To(Succeed())
		})

		It("defaults the wallet chain to polygon, the payment method type to sepa and the settlement type to bearer", func() {
			acct := fixtures.IndividualAccount(ns)
			w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
			w.Spec.Chain = ""
			p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
			p.Spec.Type = ""
			o := fixtures.BuyOrder(ns, acct.Name, fixtures.ISIN, 1)
			Expect(k8s.Create(ctx, w)).To(Succeed())
			Expect(k8s.Create(ctx, p)).To(Succeed())
			Expect(k8s.Create(ctx, o)).To(Succeed())
			Expect(w.Spec.Chain).To(Equal(investv1.ChainPolygon))
			Expect(p.Spec.Type).To(Equal(investv1.PaymentMethodSEPA))
			Expect(o.Spec.SettlementType).To(Equal(investv1.SettlementBearer))
		})

		It("keeps ten years of daily NAV prices in one object", func() {
			prices := make([]investv1.NAVPrice, 0, 3660)
			day := mustDate("2016-11-01")
			for range 3660 {
				prices = append(prices, investv1.NAVPrice{Date: day.Format("2006-01-02"), NAVPerShare: 1_000_000 + int64(len(prices)), ChangePercentage: 1})
				day = day.AddDate(0, 0, 1)
			}
			h := fixtures.NAVHistory("DE000BAY0017", "EUR", prices...)
			Expect(k8s.Create(ctx, h)).To(Succeed())
			DeferCleanup(func() { Expect(k8s.Delete(ctx, h)).To(Succeed()) })
		})
	})

	DescribeTable("invalid objects are rejected with the field in the message",
		func(build func(ns string) client.Object, field, message string) {
			expectInvalid(k8s.Create(ctx, build(ns)), field, message)
		},
		// Names: REST ids are object names, so every object is named by a lowercase UUID.
		Entry("an account named by something other than a UUID", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Name = "erika"
			return a
		}, "metadata.name", "must be a lowercase UUID"),
		Entry("a wallet named by an uppercase UUID", func(ns string) client.Object {
			w := fixtures.Wallet(ns, controlplane.NewID(), fixtures.Address)
			w.Name = strings.ToUpper(w.Name)
			return w
		}, "metadata.name", ""),
		Entry("an order named by something other than a UUID", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Name = "order-1"
			return o
		}, "metadata.name", "must be a lowercase UUID"),
		Entry("a fund named by something other than a UUID", func(string) client.Object {
			f := fixtures.Fund()
			f.Name = "gpef1"
			return f
		}, "metadata.name", "must be a lowercase UUID"),
		Entry("a NAV history not named by its ISIN", func(string) client.Object {
			h := fixtures.NAVHistory(fixtures.ISIN, "EUR")
			h.Name = "prices"
			return h
		}, "metadata.name", "ISIN in lower case"),

		// Account.
		Entry("an account type outside individual/business", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.Type = "trust"
			return a
		}, "spec.type", "Unsupported value"),
		Entry("dob_day 0", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.DobDay = -1
			return a
		}, "spec.dobDay", ""),
		Entry("dob_day 32", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.DobDay = 32
			return a
		}, "spec.dobDay", "less than or equal to 31"),
		Entry("dob_month 13", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.DobMonth = 13
			return a
		}, "spec.dobMonth", "less than or equal to 12"),
		Entry("a three-digit dob_year", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.DobYear = 964
			return a
		}, "spec.dobYear", ""),
		Entry("a country that is not a two-letter code", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.Country = "Germany"
			return a
		}, "spec.country", ""),
		Entry("an LEI of the wrong form", func(ns string) client.Object {
			a := fixtures.BusinessAccount(ns)
			a.Spec.LEI = "not-an-lei"
			return a
		}, "spec.lei", ""),
		Entry("a city longer than 100 characters", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.City = strings.Repeat("x", 101)
			return a
		}, "spec.city", "Too long"),
		Entry("a primary wallet pointer that is not an id", func(ns string) client.Object {
			a := fixtures.IndividualAccount(ns)
			a.Spec.PrimaryWallet = "my-wallet"
			return a
		}, "spec.primaryWallet", ""),

		// Wallet.
		Entry("a chain other than polygon", func(ns string) client.Object {
			w := fixtures.Wallet(ns, controlplane.NewID(), fixtures.Address)
			w.Spec.Chain = "ethereum"
			return w
		}, "spec.chain", "Unsupported value"),
		Entry("a wallet address without 0x", func(ns string) client.Object {
			return fixtures.Wallet(ns, controlplane.NewID(), strings.TrimPrefix(fixtures.Address, "0x")+"00")
		}, "spec.walletAddress", ""),
		Entry("a wallet address with a non-hex digit", func(ns string) client.Object {
			return fixtures.Wallet(ns, controlplane.NewID(), "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ")
		}, "spec.walletAddress", ""),
		Entry("a wallet whose account is not an id", func(ns string) client.Object {
			return fixtures.Wallet(ns, "erika", fixtures.Address)
		}, "spec.accountID", ""),

		// Payment method details.
		Entry("a payment method type other than sepa", func(ns string) client.Object {
			p := fixtures.PaymentMethodDetails(ns, controlplane.NewID(), fixtures.IBAN)
			p.Spec.Type = "swift"
			return p
		}, "spec.type", "Unsupported value"),
		Entry("an IBAN with spaces and lower case", func(ns string) client.Object {
			return fixtures.PaymentMethodDetails(ns, controlplane.NewID(), "de89 3704 0044 0532 0130 00")
		}, "spec.iban", ""),
		Entry("an account holder name over the SEPA limit of 70", func(ns string) client.Object {
			p := fixtures.PaymentMethodDetails(ns, controlplane.NewID(), fixtures.IBAN)
			p.Spec.AccountHolderName = strings.Repeat("n", 71)
			return p
		}, "spec.accountHolderName", "Too long"),

		// Order.
		Entry("a side other than BUY/SELL", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.Side = "HOLD"
			return o
		}, "spec.side", "Unsupported value"),
		Entry("a market other than PRIMARY/SECONDARY", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.Market = "OTC"
			return o
		}, "spec.market", "Unsupported value"),
		Entry("zero units", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.AmountOfUnits = 0
			return o
		}, "spec.amountOfUnits", ""),
		Entry("a lowercase currency", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.Currency = "eur"
			return o
		}, "spec.currency", ""),
		Entry("an ISIN of the wrong form", func(ns string) client.Object {
			return fixtures.BuyOrder(ns, controlplane.NewID(), "IE00B4L5Y98", 1)
		}, "spec.isin", ""),
		Entry("a settlement type other than bearer/claimable", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.SettlementType = "courier"
			return o
		}, "spec.settlementType", "Unsupported value"),
		Entry("a quote with a NAV per share of zero", func(ns string) client.Object {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 1)
			o.Spec.Quote = &investv1.OrderQuote{NAVPerShare: 0, NAVDate: "2026-10-31"}
			return o
		}, "spec.quote", ""),

		// Catalogue.
		Entry("a risk score of 0", func(string) client.Object {
			f := fixtures.Fund()
			f.Spec.RiskScore = 0
			return f
		}, "spec.riskScore", ""),
		Entry("a risk score of 11", func(string) client.Object {
			f := fixtures.Fund()
			f.Spec.RiskScore = 11
			return f
		}, "spec.riskScore", "less than or equal to 10"),
		Entry("a base currency of four letters", func(string) client.Object {
			f := fixtures.Fund()
			f.Spec.BaseCurrency = "EURO"
			return f
		}, "spec.baseCurrency", ""),
		Entry("a distribution strategy outside accumulating/distributing", func(string) client.Object {
			f := fixtures.Fund()
			f.Spec.DistributionStrategy = "reinvesting"
			return f
		}, "spec.distributionStrategy", "Unsupported value"),
		Entry("a negative recommended holding duration", func(string) client.Object {
			f := fixtures.Fund()
			d := intstr.FromInt32(-1)
			f.Spec.RecommendedHoldingDuration = &d
			return f
		}, "spec.recommendedHoldingDuration", "non-negative"),
		Entry("a share class fee above 100%", func(string) client.Object {
			sc := fixtures.ShareClass(controlplane.NewID(), fixtures.ISIN)
			sc.Spec.SubscriptionFee = 10_001
			return sc
		}, "spec.subscriptionFee", ""),
		Entry("a share class whose fund is not an id", func(string) client.Object {
			return fixtures.ShareClass("gpef1", fixtures.ISIN)
		}, "spec.feederFundID", ""),
		Entry("a NAV price of zero", func(string) client.Object {
			return fixtures.NAVHistory(fixtures.ISIN, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 0})
		}, "spec.prices[0].navPerShare", ""),
		Entry("a NAV price with a date that is not a date", func(string) client.Object {
			return fixtures.NAVHistory(fixtures.ISIN, "EUR", investv1.NAVPrice{Date: "31.10.2026", NAVPerShare: 1})
		}, "spec.prices[0].date", ""),
		Entry("two NAV prices for one date", func(string) client.Object {
			return fixtures.NAVHistory(fixtures.ISIN, "EUR",
				investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1}, investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 2})
		}, "spec.prices[1]", "Duplicate value"),
		Entry("an offering fee above 100%", func(ns string) client.Object {
			return &investv1.CustomOffering{ObjectMeta: objMeta(ns), Spec: investv1.CustomOfferingSpec{ISIN: fixtures.ISIN, FeeRate: 20_000}}
		}, "spec.feeRate", ""),
		Entry("an offering's subscription fee rate above 100%", func(ns string) client.Object {
			rate := int64(10_001)
			return &investv1.CustomOffering{ObjectMeta: objMeta(ns), Spec: investv1.CustomOfferingSpec{ISIN: fixtures.ISIN, FeeRate: 25, SubscriptionFeeRate: &rate}}
		}, "spec.subscriptionFeeRate", ""),
		Entry("an offering's negative redemption fee rate", func(ns string) client.Object {
			rate := int64(-1)
			return &investv1.CustomOffering{ObjectMeta: objMeta(ns), Spec: investv1.CustomOfferingSpec{ISIN: fixtures.ISIN, FeeRate: 25, RedemptionFeeRate: &rate}}
		}, "spec.redemptionFeeRate", ""),
		Entry("an API client id with a space", func(ns string) client.Object {
			return fixtures.ApiClient(ns, "demo client", "s")
		}, "spec.clientID", ""),
	)

	Describe("share class token", func() {
		newClass := func(tok *investv1.ShareClassToken) *investv1.ShareClass {
			sc := fixtures.ShareClass(controlplane.NewID(), fixtures.ISIN)
			sc.Name = controlplane.NewID()
			sc.Spec.Token = tok
			return sc
		}
		adopt := &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: "0x" + strings.Repeat("ab", 20)}

		It("requires an address to adopt a token and refuses one to deploy", func() {
			expectInvalid(k8s.Create(ctx, newClass(&investv1.ShareClassToken{Mode: investv1.TokenModeAdopt})), "spec.token", "address is required when mode is Adopt")
			expectInvalid(k8s.Create(ctx, newClass(&investv1.ShareClassToken{Mode: investv1.TokenModeDeploy, Address: adopt.Address})), "spec.token", "not allowed when mode is Deploy")
			expectInvalid(k8s.Create(ctx, newClass(&investv1.ShareClassToken{Mode: "Mint"})), "spec.token.mode", "Unsupported value")
			expectInvalid(k8s.Create(ctx, newClass(&investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: "0x12"})), "spec.token.address", "")
		})

		It("keeps the token immutable once set and refuses to remove it, but allows setting it later", func() {
			sc := newClass(nil)
			Expect(k8s.Create(ctx, sc)).To(Succeed())
			DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
			sc.Spec.Token = adopt.DeepCopy()
			Expect(k8s.Update(ctx, sc)).To(Succeed())
			sc.Spec.Token.Address = "0x" + strings.Repeat("cd", 20)
			expectInvalid(k8s.Update(ctx, sc), "spec.token", "token is immutable once set")
			sc.Spec.Token = nil
			expectInvalid(k8s.Update(ctx, sc), "spec", "token cannot be removed once set")
		})
	})

	Describe("share classes by ISIN", func() {
		It("selects share classes by spec.isin on the API server, and refuses a field it does not declare", func() {
			fund := controlplane.NewID()
			mine, other := fixtures.ShareClass(fund, "LU0000SLCT11"), fixtures.ShareClass(fund, "LU0000SLCT22")
			for _, sc := range []*investv1.ShareClass{mine, other} {
				Expect(k8s.Create(ctx, sc)).To(Succeed())
				DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
			}
			var classes investv1.ShareClassList
			Expect(k8s.List(ctx, &classes, client.MatchingFields{"spec.isin": "LU0000SLCT11"})).To(Succeed())
			Expect(classes.Items).To(HaveLen(1))
			Expect(classes.Items[0].Name).To(Equal(mine.Name))
			Expect(k8s.List(ctx, &classes, client.MatchingFields{"spec.isin": "XS0000000000"})).To(Succeed())
			Expect(classes.Items).To(BeEmpty())
			err := k8s.List(ctx, &classes, client.MatchingFields{"spec.feederFundID": fund})
			Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "want 400 Bad Request, got %v", err)
		})
	})

	Describe("share class dealing terms", func() {
		withTerms := func(change func(*investv1.DealingTerms)) *investv1.ShareClass {
			sc := fixtures.ShareClass(controlplane.NewID(), fixtures.ISIN)
			sc.Name = controlplane.NewID()
			sc.Spec.Dealing = &investv1.DealingTerms{
				TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
				SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00", BusinessDaysBefore: 1},
			}
			change(sc.Spec.Dealing)
			return sc
		}

		It("accepts daily terms and defaults the pricing to Latest", func() {
			sc := withTerms(func(*investv1.DealingTerms) {})
			Expect(k8s.Create(ctx, sc)).To(Succeed())
			DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
			Expect(sc.Spec.Dealing.Pricing).To(Equal(investv1.PricingLatest))
		})

		DescribeTable("refuses bad terms with the field and the rule in the message",
			func(change func(*investv1.DealingTerms), field, message string) {
				expectInvalid(k8s.Create(ctx, withTerms(change)), field, message)
			},
			Entry("weekly needs a weekday", func(t *investv1.DealingTerms) { t.Frequency = investv1.DealingWeekly },
				"spec.dealing.weekday", "weekday is required when frequency is Weekly"),
			Entry("daily takes no weekday", func(t *investv1.DealingTerms) { t.Weekday = "Friday" },
				"spec.dealing.weekday", "not allowed otherwise"),
			Entry("monthly needs a day rule", func(t *investv1.DealingTerms) { t.Frequency = investv1.DealingMonthly },
				"spec.dealing.dayRule", "dayRule is required when frequency is Monthly or Quarterly"),
			Entry("DayOfMonth needs the day", func(t *investv1.DealingTerms) {
				t.Frequency, t.DayRule = investv1.DealingMonthly, investv1.DayRuleDayOfMonth
			}, "spec.dealing.dayOfMonth", "dayOfMonth is required when dayRule is DayOfMonth"),
			Entry("a month-end rule takes no day", func(t *investv1.DealingTerms) {
				t.Frequency, t.DayRule, t.DayOfMonth = investv1.DealingMonthly, investv1.DayRuleLastBusinessDay, 5
			}, "spec.dealing.dayOfMonth", "not allowed otherwise"),
			Entry("monthOfQuarter only for Quarterly", func(t *investv1.DealingTerms) { t.MonthOfQuarter = 2 },
				"spec.dealing.monthOfQuarter", "allowed only when frequency is Quarterly"),
			Entry("a cut-off time is HH:MM", func(t *investv1.DealingTerms) { t.SubscriptionCutOff.Time = "12h00" },
				"spec.dealing.subscriptionCutOff.time", ""),
			Entry("a cut-off on the dealing date is before the valuation time", func(t *investv1.DealingTerms) { t.ValuationTime = "11:00" },
				"spec.dealing.subscriptionCutOff", "must be before the valuation time"),
			Entry("a holiday is a date", func(t *investv1.DealingTerms) { t.Holidays = []string{"25.12.2026"} },
				"spec.dealing.holidays[0]", ""),
			Entry("unit decimals are at most 18", func(t *investv1.DealingTerms) { t.UnitDecimals = 19 },
				"spec.dealing.unitDecimals", ""),
			Entry("pricing is Latest or Forward", func(t *investv1.DealingTerms) { t.Pricing = "Historic" },
				"spec.dealing.pricing", "Unsupported value"),
			Entry("Intraday needs intervalMinutes", func(t *investv1.DealingTerms) { intraday(t); t.IntervalMinutes = 0 },
				"spec.dealing.intervalMinutes", "intervalMinutes is required when frequency is Intraday"),
			Entry("an interval divides a day", func(t *investv1.DealingTerms) { intraday(t); t.IntervalMinutes = 7 },
				"spec.dealing.intervalMinutes", "must divide a day"),
			Entry("an intraday cut-off is minutes before each point, not a time", func(t *investv1.DealingTerms) {
				intraday(t)
				t.SubscriptionCutOff = investv1.CutOff{Time: "12:00"}
			}, "spec.dealing.subscriptionCutOff", "an Intraday cut-off is minutesBefore each dealing point"),
			Entry("an intraday point is its own valuation point", func(t *investv1.DealingTerms) { intraday(t); t.ValuationTime = "12:00" },
				"spec.dealing.valuationTime", "not allowed when frequency is Intraday"),
			Entry("the first dealing time is not after the last", func(t *investv1.DealingTerms) {
				intraday(t)
				t.FirstDealingTime, t.LastDealingTime = "17:00", "09:00"
			}, "spec.dealing.lastDealingTime", "must not be after lastDealingTime"),
			Entry("a daily cut-off is a time, not minutes before", func(t *investv1.DealingTerms) { t.RedemptionCutOff.MinutesBefore = 5 },
				"spec.dealing.redemptionCutOff", "any other cut-off is a time"),
			Entry("only Intraday has an interval", func(t *investv1.DealingTerms) { t.IntervalMinutes = 5 },
				"spec.dealing.intervalMinutes", "allowed only then"),
		)

		It("refuses intraday matching windows and a window deadline in minutes", func() {
			sc := fixtures.ShareClass(controlplane.NewID(), fixtures.ISIN)
			sc.Name = controlplane.NewID()
			sc.Spec.Secondary = &investv1.SecondaryMarket{TimeZone: "UTC", Frequency: investv1.DealingIntraday, OrderDeadline: investv1.CutOff{Time: "12:00"}}
			expectInvalid(k8s.Create(ctx, sc), "spec.secondary.frequency", "matching windows are dated")
			sc.Spec.Secondary = &investv1.SecondaryMarket{TimeZone: "UTC", Frequency: investv1.DealingDaily, OrderDeadline: investv1.CutOff{MinutesBefore: 5}}
			expectInvalid(k8s.Create(ctx, sc), "spec.secondary.orderDeadline", "the order deadline is a time")
		})

		It("accepts terms written without businessDaysBefore, as YAML leaves it out", func() {
			for _, dealing := range []map[string]any{
				{"pricing": "Forward", "timeZone": "UTC", "frequency": "Intraday", "intervalMinutes": int64(2),
					"subscriptionCutOff": map[string]any{"minutesBefore": int64(1)}, "redemptionCutOff": map[string]any{"minutesBefore": int64(1)}},
				{"pricing": "Forward", "timeZone": "UTC", "frequency": "Daily", "valuationTime": "16:00",
					"subscriptionCutOff": map[string]any{"time": "12:00"}, "redemptionCutOff": map[string]any{"time": "12:00"}},
			} {
				sc := fixtures.ShareClass(controlplane.NewID(), fixtures.ISIN)
				sc.Name = controlplane.NewID()
				raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sc)
				Expect(err).NotTo(HaveOccurred())
				u := &unstructured.Unstructured{Object: raw}
				u.SetGroupVersionKind(investv1.GroupVersion.WithKind("ShareClass"))
				Expect(unstructured.SetNestedField(u.Object, dealing, "spec", "dealing")).To(Succeed())
				Expect(k8s.Create(ctx, u)).To(Succeed(), "%v", dealing)
				DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, u))).To(Succeed()) })
			}
		})

		It("names a Dealing after its ISIN and its date or dealing point, and nothing else", func() {
			for name, date := range map[string]string{
				"lu0000deal19-2026-03-10":      "2026-03-10",
				"lu0000deal19-2026-03-10t1205": "2026-03-10T12:05",
			} {
				d := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.DealingSpec{ISIN: "LU0000DEAL19", Date: date}}
				Expect(k8s.Create(ctx, d)).To(Succeed(), name)
				DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, d))).To(Succeed()) })
			}
			for name, date := range map[string]string{
				"lu0000deal19-2026-03-11":      "2026-03-10",
				"lu0000deal19-2026-03-10t1210": "2026-03-10T12:05",
				"lu0000deal19-2026-03-10":      "2026-03-10T12:05",
			} {
				d := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.DealingSpec{ISIN: "LU0000DEAL19", Date: date}}
				expectInvalid(k8s.Create(ctx, d), "metadata.name", "must be the ISIN in lower case, a dash and the date")
			}
		})

		It("accepts intraday terms: a dealing point every five minutes, cut-offs minutes before", func() {
			sc := withTerms(intraday)
			Expect(k8s.Create(ctx, sc)).To(Succeed())
			DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
		})
	})

	Describe("immutability", func() {
		It("rejects a change of the account type", func() {
			a := fixtures.IndividualAccount(ns)
			Expect(k8s.Create(ctx, a)).To(Succeed())
			a.Spec.Type = investv1.AccountTypeBusiness
			expectInvalid(k8s.Update(ctx, a), "spec.type", "type is immutable")
		})

		It("rejects a change of the wallet's address, chain reference or account", func() {
			w := fixtures.Wallet(ns, controlplane.NewID(), fixtures.Address)
			Expect(k8s.Create(ctx, w)).To(Succeed())
			changed := w.DeepCopy()
			changed.Spec.WalletAddress = fixtures.OtherAddr
			expectInvalid(k8s.Update(ctx, changed), "spec.walletAddress", "walletAddress is immutable")
			changed = w.DeepCopy()
			changed.Spec.AccountID = investv1.ObjectID(controlplane.NewID())
			expectInvalid(k8s.Update(ctx, changed), "spec.accountID", "accountID is immutable")
		})

		It("rejects a change of the payment method's IBAN", func() {
			p := fixtures.PaymentMethodDetails(ns, controlplane.NewID(), fixtures.IBAN)
			Expect(k8s.Create(ctx, p)).To(Succeed())
			p.Spec.IBAN = fixtures.OtherIBAN
			expectInvalid(k8s.Update(ctx, p), "spec.iban", "iban is immutable")
		})

		It("rejects a change of any order field but allows a cancellation request, which cannot be withdrawn", func() {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 5)
			Expect(k8s.Create(ctx, o)).To(Succeed())

			for field, mutate := range map[string]func(*investv1.Order){
				"spec.side":           func(o *investv1.Order) { o.Spec.Side = investv1.SideSell },
				"spec.market":         func(o *investv1.Order) { o.Spec.Market = investv1.MarketSecondary },
				"spec.isin":           func(o *investv1.Order) { o.Spec.ISIN = fixtures.OtherISIN },
				"spec.amountOfUnits":  func(o *investv1.Order) { o.Spec.AmountOfUnits = 6 },
				"spec.currency":       func(o *investv1.Order) { o.Spec.Currency = "USD" },
				"spec.accountID":      func(o *investv1.Order) { o.Spec.AccountID = investv1.ObjectID(controlplane.NewID()) },
				"spec.settlementType": func(o *investv1.Order) { o.Spec.SettlementType = investv1.SettlementClaimable },
				"spec.walletID":       func(o *investv1.Order) { o.Spec.WalletID = investv1.ObjectID(controlplane.NewID()) },
			} {
				changed := o.DeepCopy()
				mutate(changed)
				expectInvalid(k8s.Update(ctx, changed), field, "immutable")
			}

			o.Spec.CancellationRequested = true
			Expect(k8s.Update(ctx, o)).To(Succeed())
			o.Spec.CancellationRequested = false
			expectInvalid(k8s.Update(ctx, o), "spec.cancellationRequested", "cannot be withdrawn")
		})

		It("rejects a change of recorded settlement evidence", func() {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 5)
			Expect(k8s.Create(ctx, o)).To(Succeed())
			o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "SEPA-1", At: nowTime()}
			Expect(k8s.Status().Update(ctx, o)).To(Succeed())
			o.Status.Settlement.PaymentReceived.Reference = "SEPA-2"
			expectInvalid(k8s.Status().Update(ctx, o), "status.settlement.paymentReceived", "recorded evidence is immutable")
		})

		It("rejects a transaction hash that is not 0x and 64 hex digits", func() {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 5)
			Expect(k8s.Create(ctx, o)).To(Succeed())
			o.Status.Settlement.DeliveryInitiated = &investv1.SettlementRecord{TransactionHash: "0x1234", At: nowTime()}
			expectInvalid(k8s.Status().Update(ctx, o), "status.settlement.deliveryInitiated.transactionHash", "")
		})

		It("rejects a status state outside the eleven states", func() {
			o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 5)
			Expect(k8s.Create(ctx, o)).To(Succeed())
			o.Status.State = "SHIPPED"
			expectInvalid(k8s.Status().Update(ctx, o), "status.state", "Unsupported value")
		})
	})
})
