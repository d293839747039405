package placement

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

const (
	isin      = investv1.ISIN("IE00B4L5Y983")
	otherISIN = investv1.ISIN("LU0274208692")
	orderName = "123e4567-e89b-42d3-a456-426614174000"
)

var now = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// placeable is an input every rule accepts: a PRIMARY BEARER BUY of 40 units of a EUR
// share class at a NAV of 100 EUR (gross 4000 EUR, minimum 1000 EUR), 0.5% subscription
// and 1% redemption fee, the account's primary wallet and bank account, 100 units held.
func placeable() Input {
	return Input{
		Now: now,
		Order: &investv1.Order{
			ObjectMeta: metav1.ObjectMeta{Name: orderName, Namespace: "tenant"},
			Spec: investv1.OrderSpec{
				Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: isin, AmountOfUnits: 40,
				Currency: "EUR", AccountID: "acct", SettlementType: investv1.SettlementBearer,
			},
		},
		Account: &investv1.Account{
			ObjectMeta: metav1.ObjectMeta{Name: "acct", Namespace: "tenant"},
			Spec:       investv1.AccountSpec{PrimaryWallet: "w1", PrimaryPaymentMethodDetails: "p1"},
		},
		ShareClass: &investv1.ShareClass{
			ObjectMeta: metav1.ObjectMeta{Name: "sc1"},
			Spec: investv1.ShareClassSpec{
				Name: "Class A", ISIN: isin, Currency: "EUR", SubscriptionFee: 50, RedemptionFee: 100,
				MinInvestment: 10_000_000, FeederFundID: "fund1",
			},
		},
		Fund: &investv1.Fund{
			ObjectMeta: metav1.ObjectMeta{Name: "fund1"},
			Spec: investv1.FundSpec{
				Name: "Feeder Fund I", Redeemable: true,
				PaymentDetails: &investv1.FundPaymentDetails{AccountHolderName: "Feeder Fund I SCSp", IBAN: "GB82WEST12345698765432"},
			},
		},
		NAVHistory: &investv1.NAVHistory{Spec: investv1.NAVHistorySpec{ISIN: isin, Currency: "EUR", Prices: []investv1.NAVPrice{
			{Date: "2026-02-26", NAVPerShare: 990_000}, {Date: "2026-02-27", NAVPerShare: 1_000_000},
		}}},
		Wallet: &investv1.Wallet{
			ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "tenant"}, Spec: investv1.WalletSpec{AccountID: "acct"},
		},
		PaymentMethodDetails: &investv1.PaymentMethodDetails{
			ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "tenant"}, Spec: investv1.PaymentMethodDetailsSpec{AccountID: "acct"},
		},
		Positions: map[investv1.ISIN]*holdings.Position{isin: {ISIN: isin, Units: 100}},
	}
}

func sell(in *Input) { in.Order.Spec.Side = investv1.SideSell }

func offering(rate int64, from, until *time.Time) *investv1.CustomOffering {
	off := &investv1.CustomOffering{
		ObjectMeta: metav1.ObjectMeta{Name: "off1", Namespace: "tenant"},
		Spec:       investv1.CustomOfferingSpec{ISIN: isin, FeeRate: rate},
	}
	if from != nil {
		off.Spec.ValidFrom = &metav1.Time{Time: *from}
	}
	if until != nil {
		off.Spec.ValidUntil = &metav1.Time{Time: *until}
	}
	return off
}

func at(d time.Duration) *time.Time { t := now.Add(d); return &t }

// placed asserts that the order was priced.
func placed(t *testing.T, res Result) *investv1.OrderQuote {
	t.Helper()
	if err := res.Err(); err != nil || res.Quote == nil {
		t.Fatalf("want a quote, got refusal %v (result %+v)", err, res)
	}
	return res.Quote
}

// refusedOn asserts that the order was refused with exactly these field errors.
func refusedOn(t *testing.T, res Result, want validation.FieldErrors) {
	t.Helper()
	if res.Quote != nil || res.NotFound != nil || res.Rule != nil {
		t.Fatalf("want field errors %v only, got %+v", want, res)
	}
	if !reflect.DeepEqual(res.Fields, want) {
		t.Fatalf("field errors:\n got %v\nwant %v", res.Fields, want)
	}
}

func refusedByRule(t *testing.T, res Result, want RuleError) {
	t.Helper()
	if res.Quote != nil || res.NotFound != nil || !res.Fields.Empty() || res.Rule == nil {
		t.Fatalf("want rule %+v, got %+v", want, res)
	}
	if *res.Rule != want {
		t.Fatalf("rule:\n got %+v\nwant %+v", *res.Rule, want)
	}
}

func notFound(t *testing.T, res Result, want NotFoundError) {
	t.Helper()
	if res.Quote != nil || res.Rule != nil || !res.Fields.Empty() || res.NotFound == nil {
		t.Fatalf("want not found %+v, got %+v", want, res)
	}
	if *res.NotFound != want {
		t.Fatalf("not found:\n got %+v\nwant %+v", *res.NotFound, want)
	}
}

func TestAPlaceableOrderIsPricedInFull(t *testing.T) {
	q := placed(t, Decide(placeable()))
	want := &investv1.OrderQuote{
		NAVPerShare: 1_000_000, NAVDate: "2026-02-27",
		GrossValue: 40_000_000, FeeRate: 50, FeeAmount: 200_000, FeeSource: investv1.FeeSourceDefault,
		NetAmount: 39_800_000, Amount: 40_000_000,
		FundDetails: investv1.OrderFundDetails{
			ISIN: isin, FundID: "fund1", FundName: "Feeder Fund I", ShareClassID: "sc1", ShareClassName: "Class A",
		},
		PaymentDetails: &investv1.OrderPaymentDetails{
			AccountHolderName: "Feeder Fund I SCSp", IBAN: "GB82WEST12345698765432", PaymentReference: PaymentReference(orderName),
		},
		WalletID: "w1", PaymentMethodDetailsID: "p1",
	}
	if !reflect.DeepEqual(q, want) {
		t.Fatalf("quote:\n got %+v\nwant %+v", q, want)
	}
}

func TestTheAccountMustExist(t *testing.T) {
	in := placeable()
	in.Account = nil
	// Nothing else was read: the account comes first.
	in.ShareClass, in.Fund, in.NAVHistory, in.Wallet, in.PaymentMethodDetails = nil, nil, nil, nil, nil
	in.Order.Spec.ISIN = "not an isin"
	notFound(t, Decide(in), NotFoundError{Resource: "Account", ID: "acct", Field: "account_id"})
}

func TestTheISINMustBeValid(t *testing.T) {
	in := placeable()
	in.Order.Spec.ISIN = "IE00B4L5Y984" // check digit wrong
	in.ShareClass, in.Fund = nil, nil
	res := Decide(in)
	if len(res.Fields) != 1 || len(res.Fields["isin"]) != 1 || res.NotFound != nil || res.Quote != nil {
		t.Fatalf("want one isin field error and nothing else, got %+v", res)
	}
	if want := validation.ValidateISIN("IE00B4L5Y984").Error(); res.Fields["isin"][0] != want {
		t.Fatalf("isin: got %q, want %q", res.Fields["isin"][0], want)
	}
}

func TestTheShareClassMustExist(t *testing.T) {
	in := placeable()
	in.ShareClass, in.Fund, in.NAVHistory = nil, nil, nil
	notFound(t, Decide(in), NotFoundError{Resource: "Share class", ID: string(isin), Field: "isin"})
}

func TestAShareClassWhoseFundIsMissingIsNotFound(t *testing.T) {
	in := placeable()
	in.Fund, in.NAVHistory = nil, nil
	notFound(t, Decide(in), NotFoundError{Resource: "Share class", ID: string(isin), Field: "isin"})
}

func TestCurrencyMustBeTheShareClasssCurrency(t *testing.T) {
	in := placeable()
	in.Order.Spec.Currency = "USD"
	refusedOn(t, Decide(in), validation.FieldErrors{"currency": {"must be EUR, the currency of share class IE00B4L5Y983"}})
}

func TestANAVMustBePublished(t *testing.T) {
	for name, h := range map[string]*investv1.NAVHistory{
		"no history":             nil,
		"a history of no prices": {Spec: investv1.NAVHistorySpec{ISIN: isin}},
	} {
		t.Run(name, func(t *testing.T) {
			in := placeable()
			in.NAVHistory = h
			refusedOn(t, Decide(in), validation.FieldErrors{"isin": {"no NAV price is published for this share class yet"}})
		})
	}
}

func TestGrossValueIsUnitsTimesLatestNAV(t *testing.T) {
	for _, tc := range []struct {
		name      string
		units     int64
		prices    []investv1.NAVPrice
		wantNAV   int64
		wantDate  string
		wantGross int64
	}{
		{"one price", 40, []investv1.NAVPrice{{Date: "2026-02-27", NAVPerShare: 1_234_567}}, 1_234_567, "2026-02-27", 49_382_680},
		{"the newest date wins, whatever the order", 7, []investv1.NAVPrice{
			{Date: "2026-02-25", NAVPerShare: 3_000_000}, {Date: "2026-02-28", NAVPerShare: 2_500_000}, {Date: "2026-02-27", NAVPerShare: 9_000_000},
		}, 2_500_000, "2026-02-28", 17_500_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.AmountOfUnits = tc.units
			in.NAVHistory.Spec.Prices = tc.prices
			q := placed(t, Decide(in))
			if q.NAVPerShare != tc.wantNAV || q.NAVDate != tc.wantDate || q.GrossValue != tc.wantGross || q.Amount != tc.wantGross {
				t.Fatalf("got NAV %d of %s, gross %d, amount %d; want NAV %d of %s, gross and amount %d",
					q.NAVPerShare, q.NAVDate, q.GrossValue, q.Amount, tc.wantNAV, tc.wantDate, tc.wantGross)
			}
		})
	}
}

func TestNetAmountIsGrossMinusFee(t *testing.T) {
	in := placeable()
	in.NAVHistory.Spec.Prices = []investv1.NAVPrice{{Date: "2026-02-27", NAVPerShare: 1_234_567}}
	q := placed(t, Decide(in))
	if q.NetAmount != q.GrossValue-q.FeeAmount || q.FeeAmount == 0 {
		t.Fatalf("gross %d, fee %d, net %d", q.GrossValue, q.FeeAmount, q.NetAmount)
	}
}

func TestFeeRoundsHalfUp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		units   int64
		nav     int64
		rate    int64
		wantFee int64
	}{
		{"an exact fee", 1, 10_000_000, 5, 5_000},                    // 5,000 exactly
		{"below half rounds down", 1, 1_000_099, 50, 5_000},          // 5,000.495
		{"half rounds up, not to even", 1, 1_000_100, 50, 5_001},     // 5,000.5
		{"half rounds up from an odd unit", 1, 1_000_300, 50, 5_002}, // 5,001.5
		{"above half rounds up", 1, 1_000_180, 50, 5_001},            // 5,000.9
		{"a zero rate is no fee", 40, 1_000_000, 0, 0},
		{"100% is the whole gross", 2, 1_500_000, 10_000, 3_000_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.ShareClass.Spec.MinInvestment = 0
			in.Order.Spec.AmountOfUnits = tc.units
			in.NAVHistory.Spec.Prices = []investv1.NAVPrice{{Date: "2026-02-27", NAVPerShare: tc.nav}}
			in.ShareClass.Spec.SubscriptionFee = tc.rate
			q := placed(t, Decide(in))
			if q.FeeAmount != tc.wantFee || q.FeeRate != tc.rate {
				t.Fatalf("gross %d at rate %d: fee %d, want %d", q.GrossValue, q.FeeRate, q.FeeAmount, tc.wantFee)
			}
		})
	}
}

func TestABuyPaysTheSubscriptionFeeAndASellTheRedemptionFee(t *testing.T) {
	for _, tc := range []struct {
		side investv1.OrderSide
		want int64
	}{{investv1.SideBuy, 50}, {investv1.SideSell, 100}} {
		t.Run(string(tc.side), func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side = tc.side
			q := placed(t, Decide(in))
			if q.FeeRate != tc.want || q.FeeSource != investv1.FeeSourceDefault {
				t.Fatalf("fee rate %d from %s, want %d from %s", q.FeeRate, q.FeeSource, tc.want, investv1.FeeSourceDefault)
			}
		})
	}
}

func TestFeeComesFromTheCustomOfferingWhenNamed(t *testing.T) {
	for _, tc := range []struct {
		name        string
		side        investv1.OrderSide
		from, until *time.Time
	}{
		{"a BUY, open-ended", investv1.SideBuy, nil, nil},
		{"a SELL, open-ended", investv1.SideSell, nil, nil},
		{"valid from now on", investv1.SideBuy, at(0), nil},
		{"valid until a moment from now", investv1.SideBuy, at(-time.Hour), at(time.Nanosecond)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side = tc.side
			in.Order.Spec.CustomOfferingID = "off1"
			in.CustomOffering = offering(25, tc.from, tc.until)
			q := placed(t, Decide(in))
			if q.FeeRate != 25 || q.FeeSource != investv1.FeeSourceOffering || q.FeeAmount != 100_000 {
				t.Fatalf("fee rate %d from %s, amount %d; want 25 from %s, 100000", q.FeeRate, q.FeeSource, q.FeeAmount, investv1.FeeSourceOffering)
			}
		})
	}
}

func TestANamedCustomOfferingMustExist(t *testing.T) {
	in := placeable()
	in.Order.Spec.CustomOfferingID = "off1"
	refusedOn(t, Decide(in), validation.FieldErrors{"custom_offering_id": {"no custom offering with this id exists"}})
}

func TestAnOfferingNotNamedIsNotUsed(t *testing.T) {
	in := placeable()
	in.CustomOffering = offering(25, nil, nil) // Gather reads none unless named; Decide ignores one anyway
	if q := placed(t, Decide(in)); q.FeeSource != investv1.FeeSourceDefault || q.FeeRate != 50 {
		t.Fatalf("fee rate %d from %s, want the share class's", q.FeeRate, q.FeeSource)
	}
}

func TestTheCustomOfferingMustBeForTheOrdersISIN(t *testing.T) {
	in := placeable()
	in.Order.Spec.CustomOfferingID = "off1"
	in.CustomOffering = offering(25, nil, nil)
	in.CustomOffering.Spec.ISIN = otherISIN
	refusedOn(t, Decide(in), validation.FieldErrors{"custom_offering_id": {"the offering is for ISIN LU0274208692, not IE00B4L5Y983"}})
}

func TestTheCustomOfferingMustBeValidNow(t *testing.T) {
	for name, tc := range map[string]struct{ from, until *time.Time }{
		"not yet valid":            {at(time.Nanosecond), nil},
		"expired":                  {nil, at(-time.Hour)},
		"valid until exactly now":  {at(-time.Hour), at(0)},
		"a window entirely future": {at(time.Hour), at(2 * time.Hour)},
	} {
		t.Run(name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.CustomOfferingID = "off1"
			in.CustomOffering = offering(25, tc.from, tc.until)
			refusedOn(t, Decide(in), validation.FieldErrors{"custom_offering_id": {"the offering is not valid now"}})
		})
	}
}

func TestADeactivatedCustomOfferingIsRefusedEvenInsideItsValidity(t *testing.T) {
	in := placeable()
	in.Order.Spec.CustomOfferingID = "off1"
	in.CustomOffering = offering(25, at(-time.Hour), at(time.Hour))
	in.CustomOffering.Spec.Deactivated = true
	refusedOn(t, Decide(in), validation.FieldErrors{"custom_offering_id": {"the offering is deactivated"}})
}

func TestAnOfferingsSideSpecificRateReplacesItsFeeRateForThatSideOnly(t *testing.T) {
	sub, red := int64(10), int64(0)
	for _, tc := range []struct {
		name     string
		side     investv1.OrderSide
		sub, red *int64
		want     int64
	}{
		{"a BUY with a subscription rate", investv1.SideBuy, &sub, nil, 10},
		{"a SELL with a subscription rate only: feeRate", investv1.SideSell, &sub, nil, 25},
		{"a SELL with a zero redemption rate", investv1.SideSell, nil, &red, 0},
		{"a BUY with a redemption rate only: feeRate", investv1.SideBuy, nil, &red, 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side = tc.side
			in.Order.Spec.CustomOfferingID = "off1"
			in.CustomOffering = offering(25, nil, nil)
			in.CustomOffering.Spec.SubscriptionFeeRate, in.CustomOffering.Spec.RedemptionFeeRate = tc.sub, tc.red
			q := placed(t, Decide(in))
			if q.FeeRate != tc.want || q.FeeSource != investv1.FeeSourceOffering {
				t.Fatalf("fee rate %d from %s; want %d from %s", q.FeeRate, q.FeeSource, tc.want, investv1.FeeSourceOffering)
			}
		})
	}
}

// child is the wallet or the payment method details: the same rules hold for both.
type childKind struct {
	field   string
	primary investv1.ObjectID
	name    func(in *Input, id string)
	set     func(in *Input, owner investv1.ObjectID, id string)
	remove  func(in *Input)
	quoted  func(q *investv1.OrderQuote) investv1.ObjectID
}

var children = []childKind{
	{
		field: "wallet_id", primary: "w1",
		name: func(in *Input, id string) { in.Order.Spec.WalletID = investv1.ObjectID(id) },
		set: func(in *Input, owner investv1.ObjectID, id string) {
			in.Wallet = &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: "tenant"}, Spec: investv1.WalletSpec{AccountID: owner}}
		},
		remove: func(in *Input) { in.Wallet = nil },
		quoted: func(q *investv1.OrderQuote) investv1.ObjectID { return q.WalletID },
	},
	{
		field: "payment_method_details_id", primary: "p1",
		name: func(in *Input, id string) { in.Order.Spec.PaymentMethodDetailsID = investv1.ObjectID(id) },
		set: func(in *Input, owner investv1.ObjectID, id string) {
			in.PaymentMethodDetails = &investv1.PaymentMethodDetails{ObjectMeta: metav1.ObjectMeta{Name: id, Namespace: "tenant"}, Spec: investv1.PaymentMethodDetailsSpec{AccountID: owner}}
		},
		remove: func(in *Input) { in.PaymentMethodDetails = nil },
		quoted: func(q *investv1.OrderQuote) investv1.ObjectID { return q.PaymentMethodDetailsID },
	},
}

func TestWalletAndPaymentMethodDefaultToTheAccountsPrimary(t *testing.T) {
	for _, c := range children {
		t.Run(c.field, func(t *testing.T) {
			if got := c.quoted(placed(t, Decide(placeable()))); got != c.primary {
				t.Fatalf("%s: got %q, want the primary", c.field, got)
			}
		})
	}
}

func TestANamedWalletOrPaymentMethodIsUsed(t *testing.T) {
	for _, c := range children {
		t.Run(c.field, func(t *testing.T) {
			in := placeable()
			c.name(&in, "named")
			c.set(&in, "acct", "named")
			if got := c.quoted(placed(t, Decide(in))); got != "named" {
				t.Fatalf("%s: got %q, want the named one", c.field, got)
			}
		})
	}
}

func TestANamedWalletOrPaymentMethodMustExist(t *testing.T) {
	for _, c := range children {
		t.Run(c.field, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.SettlementType = investv1.SettlementClaimable // a missing wallet is not also a missing recipient
			c.name(&in, "named")
			c.remove(&in)
			refusedOn(t, Decide(in), validation.FieldErrors{c.field: {"does not exist"}})
		})
	}
}

func TestWalletMustBelongToTheAccount(t *testing.T) { belongsToTheAccount(t, children[0]) }

func TestPaymentMethodMustBelongToTheAccount(t *testing.T) { belongsToTheAccount(t, children[1]) }

func belongsToTheAccount(t *testing.T, c childKind) {
	t.Helper()
	in := placeable()
	in.Order.Spec.SettlementType = investv1.SettlementClaimable
	c.name(&in, "named")
	c.set(&in, "someone-else", "named")
	refusedOn(t, Decide(in), validation.FieldErrors{c.field: {"belongs to another account"}})
}

func TestADanglingOrForeignPrimaryCountsAsNone(t *testing.T) {
	for _, c := range children {
		for name, mod := range map[string]func(in *Input){
			"dangling": c.remove,
			"foreign":  func(in *Input) { c.set(in, "someone-else", "w1") },
		} {
			t.Run(c.field+"/"+name, func(t *testing.T) {
				in := placeable()
				in.Order.Spec.SettlementType = investv1.SettlementClaimable
				mod(&in)
				if got := c.quoted(placed(t, Decide(in))); got != "" {
					t.Fatalf("%s: got %q, want none", c.field, got)
				}
			})
		}
	}
}

func TestABearerBuyNeedsARecipientWallet(t *testing.T) {
	const msg = "a bearer order needs a recipient wallet: name one or make one of the account's wallets primary"
	for _, tc := range []struct {
		name       string
		side       investv1.OrderSide
		settlement investv1.SettlementType
		refused    bool
	}{
		{"a bearer buy", investv1.SideBuy, investv1.SettlementBearer, true},
		{"a buy of no settlement type is bearer", investv1.SideBuy, "", true},
		{"a claimable buy", investv1.SideBuy, investv1.SettlementClaimable, false},
		{"a bearer sell", investv1.SideSell, investv1.SettlementBearer, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side, in.Order.Spec.SettlementType = tc.side, tc.settlement
			in.Account.Spec.PrimaryWallet, in.Wallet = "", nil
			res := Decide(in)
			if tc.refused {
				refusedOn(t, res, validation.FieldErrors{"wallet_id": {msg}})
			} else if q := placed(t, res); q.WalletID != "" {
				t.Fatalf("wallet %q, want none", q.WalletID)
			}
		})
	}
	t.Run("not said on top of another field error", func(t *testing.T) {
		in := placeable()
		in.Order.Spec.Currency = "USD"
		in.Account.Spec.PrimaryWallet, in.Wallet = "", nil
		refusedOn(t, Decide(in), validation.FieldErrors{"currency": {"must be EUR, the currency of share class IE00B4L5Y983"}})
	})
}

func TestFieldErrorsAreReportedTogether(t *testing.T) {
	in := placeable()
	in.Order.Spec.Currency = "USD"
	in.NAVHistory = nil
	in.Order.Spec.CustomOfferingID = "off1"
	in.Order.Spec.WalletID = "named"
	in.Wallet = nil
	in.Order.Spec.PaymentMethodDetailsID = "other"
	in.PaymentMethodDetails = &investv1.PaymentMethodDetails{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Spec: investv1.PaymentMethodDetailsSpec{AccountID: "someone-else"}}
	sell(&in)
	in.Fund.Spec.Redeemable = false // a rule is not checked while fields are wrong
	refusedOn(t, Decide(in), validation.FieldErrors{
		"currency":                  {"must be EUR, the currency of share class IE00B4L5Y983"},
		"isin":                      {"no NAV price is published for this share class yet"},
		"custom_offering_id":        {"no custom offering with this id exists"},
		"wallet_id":                 {"does not exist"},
		"payment_method_details_id": {"belongs to another account"},
	})
}

func TestAnOrderValueThatDoesNotFitIsAFieldError(t *testing.T) {
	in := placeable()
	in.Order.Spec.AmountOfUnits = 1_000_000_000_000
	in.NAVHistory.Spec.Prices = []investv1.NAVPrice{{Date: "2026-02-27", NAVPerShare: 10_000_000_000}}
	refusedOn(t, Decide(in), validation.FieldErrors{"amount_of_units": {"the order value cannot be computed: amount overflows int64"}})
}

func TestABuyMustReachTheMinimumInvestment(t *testing.T) {
	for _, tc := range []struct {
		name    string
		side    investv1.OrderSide
		units   int64
		refused bool
	}{
		{"a buy below", investv1.SideBuy, 9, true}, // 900 EUR < 1000 EUR
		{"a buy of exactly the minimum", investv1.SideBuy, 10, false},
		{"a sell below", investv1.SideSell, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side, in.Order.Spec.AmountOfUnits = tc.side, tc.units
			res := Decide(in)
			if tc.refused {
				refusedOn(t, res, validation.FieldErrors{"amount_of_units": {
					"the order value 900.0000 EUR is below the share class's minimum investment 1000.0000 EUR"}})
			} else {
				placed(t, res)
			}
		})
	}
}

func TestASellNeedsARedeemableFund(t *testing.T) {
	for _, tc := range []struct {
		name    string
		side    investv1.OrderSide
		market  investv1.Market
		refused bool
	}{
		{"a PRIMARY sell", investv1.SideSell, investv1.MarketPrimary, true},
		{"a SECONDARY sell", investv1.SideSell, investv1.MarketSecondary, false},
		{"a PRIMARY buy", investv1.SideBuy, investv1.MarketPrimary, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Fund.Spec.Redeemable = false
			in.Order.Spec.Side, in.Order.Spec.Market = tc.side, tc.market
			if tc.market == investv1.MarketSecondary {
				in.ShareClass.Spec.Secondary, in.Fund.Spec.Tradeable = market(), true
			}
			in.Positions = nil // the redeemable rule comes before holdings
			if tc.side == investv1.SideSell && !tc.refused {
				in.Positions = placeable().Positions
			}
			res := Decide(in)
			if tc.refused {
				refusedByRule(t, res, RuleError{Code: CodeNotRedeemable, Message: "fund Feeder Fund I does not accept PRIMARY sell orders now", Field: "market"})
			} else {
				placed(t, res)
			}
		})
	}
}

func TestASellNeedsEnoughFreeUnlockedUnits(t *testing.T) {
	for _, tc := range []struct {
		name      string
		positions map[investv1.ISIN]*holdings.Position
		units     int64
		wantCode  string
	}{
		{"nothing held", nil, 1, holdings.CodeInsufficientHoldings},
		{"another ISIN held", map[investv1.ISIN]*holdings.Position{otherISIN: {ISIN: otherISIN, Units: 100}}, 1, holdings.CodeInsufficientHoldings},
		{"more than held", map[investv1.ISIN]*holdings.Position{isin: {ISIN: isin, Units: 39}}, 40, holdings.CodeInsufficientHoldings},
		{"held but reserved for other sells", map[investv1.ISIN]*holdings.Position{isin: {ISIN: isin, Units: 100, Reserved: 61}}, 40, holdings.CodeInsufficientHoldings},
		{"held but locked", map[investv1.ISIN]*holdings.Position{isin: {ISIN: isin, Units: 100, Locked: 61}}, 40, holdings.CodeSharesLocked},
		{"exactly the redeemable units", map[investv1.ISIN]*holdings.Position{isin: {ISIN: isin, Units: 100, Locked: 30, Reserved: 30}}, 40, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			sell(&in)
			in.Positions, in.Order.Spec.AmountOfUnits = tc.positions, tc.units
			res := Decide(in)
			if tc.wantCode == "" {
				placed(t, res)
				return
			}
			code, msg, _ := holdings.SellCheck(tc.positions, isin, tc.units)
			refusedByRule(t, res, RuleError{Code: tc.wantCode, Message: msg, Field: "amount_of_units"})
			if code != tc.wantCode {
				t.Fatalf("holdings said %q", code)
			}
		})
	}
	t.Run("a buy needs no holdings", func(t *testing.T) {
		in := placeable()
		in.Positions = nil
		placed(t, Decide(in))
	})
}

// TestASellBeyondWhatTheAccountHoldsOnChainIsRefused: units ≤ min(the books'
// redeemable units, the units on chain at the recorded block + minted since − reserved by
// other sells not burned by then); no on-chain figures (no chain): the books only.
func TestASellBeyondWhatTheAccountHoldsOnChainIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		onChain                       *investv1.OnChainHoldings
		minted, transferred, reserved int64
		units                         int64
		wantRefusalToSay              string // "": placed
	}{
		{"no chain: the books only", nil, 0, 0, 0, 100, ""},
		{"within the units on chain", &investv1.OnChainHoldings{Block: 7, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 100}}}, 0, 0, 0, 100, ""},
		{"units moved away on chain", &investv1.OnChainHoldings{Block: 7, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 53}}}, 0, 0, 0, 54,
			"54 units of " + string(isin) + " requested, 53 on chain at block 7, 0 reserved by other sells not burned by then"},
		{"other sells' unburned units count", &investv1.OnChainHoldings{Block: 7, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 100}}}, 0, 0, 50, 51,
			"51 units of " + string(isin) + " requested, 100 on chain at block 7, 50 reserved"},
		{"a mint since the block counts", &investv1.OnChainHoldings{Block: 7}, 40, 0, 0, 40, ""},
		{"units transferred in since the block count", &investv1.OnChainHoldings{Block: 7}, 0, 60, 0, 60, ""},
		{"units transferred out since the block do not", &investv1.OnChainHoldings{Block: 7, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 100}}}, 0, -40, 0, 61,
			"61 units of " + string(isin) + " requested, 100 on chain at block 7 (and 40 transferred out since)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			sell(&in)
			in.Account.Status.OnChain, in.OnChainMinted, in.OnChainTransferred, in.OnChainReserved, in.Order.Spec.AmountOfUnits = tc.onChain, tc.minted, tc.transferred, tc.reserved, tc.units
			res := Decide(in)
			if tc.wantRefusalToSay == "" {
				placed(t, res)
				return
			}
			if res.Rule == nil || res.Rule.Code != holdings.CodeInsufficientHoldings || res.Rule.Field != "amount_of_units" || !strings.Contains(res.Rule.Message, tc.wantRefusalToSay) {
				t.Fatalf("want Insufficient holdings naming %q, got %+v", tc.wantRefusalToSay, res)
			}
		})
	}
}

func TestABuyQuotesTheFundsBankAccountAndAPaymentReference(t *testing.T) {
	for _, tc := range []struct {
		name   string
		side   investv1.OrderSide
		noBank bool
		want   bool
	}{
		{"a buy", investv1.SideBuy, false, true},
		{"a sell", investv1.SideSell, false, false},
		{"a buy of a fund with no bank account", investv1.SideBuy, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := placeable()
			in.Order.Spec.Side = tc.side
			if tc.noBank {
				in.Fund.Spec.PaymentDetails = nil
			}
			q := placed(t, Decide(in))
			if !tc.want {
				if q.PaymentDetails != nil {
					t.Fatalf("payment details %+v, want none", q.PaymentDetails)
				}
				return
			}
			want := &investv1.OrderPaymentDetails{AccountHolderName: "Feeder Fund I SCSp", IBAN: "GB82WEST12345698765432", PaymentReference: "RF2901314564453825200851"}
			if !reflect.DeepEqual(q.PaymentDetails, want) {
				t.Fatalf("payment details %+v, want %+v", q.PaymentDetails, want)
			}
		})
	}
}

func TestPaymentReferenceIsAnRFReferenceOfTheOrdersFirst64BitsInDecimal(t *testing.T) {
	// 0x123e4567e89b42d3 = 1314564453825200851; check digits 98 − (01314564453825200851 271500 mod 97) = 29,
	// computed by hand (R = 27, F = 15).
	got := PaymentReference(orderName)
	if got != "RF2901314564453825200851" {
		t.Fatalf("got %q, want RF2901314564453825200851", got)
	}
	if err := rf.Valid(got); err != nil || len(got) > rf.MaxLen {
		t.Fatalf("%q is not a valid RF reference: %v", got, err)
	}
}

func TestPaymentReferencesOfDifferentOrdersDiffer(t *testing.T) {
	seen := map[string]string{}
	for range 10_000 {
		id := uuid.NewString()
		ref := PaymentReference(id)
		if err := rf.Valid(ref); err != nil {
			t.Fatalf("order %s: %q: %v", id, ref, err)
		}
		if other, dup := seen[ref]; dup {
			t.Fatalf("orders %s and %s have the reference %s", other, id, ref)
		}
		seen[ref] = id
	}
}

func TestPaymentReferenceOfANameThatIsNoUUIDIsStillAValidRFReference(t *testing.T) {
	for _, name := range []string{"sample-order", "x", "zzzzzzzzzzzzzzzzzzzz"} {
		a, b := PaymentReference(name), PaymentReference(name)
		if err := rf.Valid(a); err != nil || a != b {
			t.Fatalf("%q: %q, %q: %v", name, a, b, err)
		}
	}
}

func TestDecideIsDeterministicAndLeavesItsInputAlone(t *testing.T) {
	in := placeable()
	first := Decide(in)
	second := Decide(in)
	if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(in, placeable()) {
		t.Fatal("Decide answered differently for the same input, or changed its input")
	}
}

func TestErrFoldsTheRefusalAndIsRefusalRecognisesIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  Result
		want string
	}{
		{"not found", Result{NotFound: &NotFoundError{Resource: "Account", ID: "acct"}}, "Account not found: acct"},
		{"fields", Result{Fields: validation.FieldErrors{"isin": {"bad"}}}, "isin: bad"},
		{"rule", Result{Rule: &RuleError{Code: CodeNotRedeemable, Message: "no"}}, "Fund not redeemable: no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.res.Err()
			if err == nil || err.Error() != tc.want || !IsRefusal(err) {
				t.Fatalf("got %v (refusal %v), want %q", err, IsRefusal(err), tc.want)
			}
		})
	}
	if err := (Result{Quote: &investv1.OrderQuote{}}).Err(); err != nil {
		t.Fatalf("a priced order: %v", err)
	}
	if IsRefusal(errors.New("etcd is down")) {
		t.Fatal("an internal error is not a refusal")
	}
	if !strings.HasPrefix((&NotFoundError{Resource: "Share class", ID: string(isin)}).Error(), "Share class not found") {
		t.Fatal("not found message")
	}
}
