package placement

import (
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// market is a daily secondary market in UTC whose order deadline is 16:00 the business
// day before the window, with a 1% spread, a 0.5% buy fee and a 0.25% sell fee.
func market() *investv1.SecondaryMarket {
	return &investv1.SecondaryMarket{
		TimeZone: "UTC", Frequency: investv1.DealingDaily,
		OrderDeadline:     investv1.CutOff{Time: "16:00", BusinessDaysBefore: 1},
		SpreadBasisPoints: 100, BuyFeeRate: 50, SellFeeRate: 25, CarryWindows: 2,
	}
}

// onSecondary is placeable() as a SECONDARY order of a tradeable fund whose share class
// has market().
func onSecondary(side investv1.OrderSide) Input {
	in := placeable()
	in.Order.Spec.Side, in.Order.Spec.Market = side, investv1.MarketSecondary
	in.ShareClass.Spec.Secondary, in.Fund.Spec.Tradeable = market(), true
	return in
}

func TestASecondaryOrderNeedsTheShareClassesSecondaryMarket(t *testing.T) {
	in := onSecondary(investv1.SideBuy)
	in.ShareClass.Spec.Secondary = nil
	refusedOn(t, Decide(in), validation.FieldErrors{"market": {
		"share class IE00B4L5Y983 has no secondary market: a SECONDARY order is matched with other investors' orders in a matching window, and the share class publishes none"}})
}

func TestASecondaryOrderNeedsATradeableFund(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		in := onSecondary(side)
		in.Fund.Spec.Tradeable = false
		refusedByRule(t, Decide(in), RuleError{Code: CodeNotTradeable, Message: "fund Feeder Fund I does not accept SECONDARY orders now", Field: "market"})
	}
}

// now is Monday 2026-03-02 10:00 UTC: the deadline of Tuesday's window (Monday 16:00) is
// ahead; at 16:00 the order goes to Wednesday's.
func TestASecondaryOrderIsPlacedForTheFirstWindowWhoseDeadlineIsAhead(t *testing.T) {
	for _, tc := range []struct {
		at       time.Time
		date     string
		deadline time.Time
	}{
		{now, "2026-03-03", time.Date(2026, 3, 2, 16, 0, 0, 0, time.UTC)},
		{time.Date(2026, 3, 2, 16, 0, 0, 0, time.UTC), "2026-03-04", time.Date(2026, 3, 3, 16, 0, 0, 0, time.UTC)},
		{time.Date(2026, 3, 6, 17, 0, 0, 0, time.UTC), "2026-03-10", time.Date(2026, 3, 9, 16, 0, 0, 0, time.UTC)}, // Friday evening: Tuesday's
	} {
		in := onSecondary(investv1.SideBuy)
		in.Now = tc.at
		q := placed(t, Decide(in))
		if q.Window == nil || q.Window.Date != tc.date || !q.Window.Deadline.Time.Equal(tc.deadline) {
			t.Errorf("at %s: window %+v, want %s with deadline %s", tc.at, q.Window, tc.date, tc.deadline)
		}
		if q.DealingDate != "" || q.CutOff != nil {
			t.Errorf("a SECONDARY order has no dealing date: %+v", q)
		}
	}
}

// 40 units at the NAV of 100 EUR: a BUY's price is 101 EUR (1% spread), gross 4040 EUR,
// fee 0.5% = 20.20 EUR, to pay 4060.20 EUR; a SELL's 99 EUR, gross 3960 EUR, fee 0.25% =
// 9.90 EUR, net 3950.10 EUR.
func TestASecondaryOrderIsQuotedAtTheSpreadPriceWithTheSecondaryFee(t *testing.T) {
	buy := placed(t, Decide(onSecondary(investv1.SideBuy)))
	if buy.GrossValue != 40_400_000 || buy.FeeRate != 50 || buy.FeeAmount != 202_000 || buy.Amount != 40_602_000 || buy.NetAmount != 40_400_000 {
		t.Errorf("BUY quote %+v: want gross 40400000, fee 202000, amount to pay 40602000, net 40400000", buy)
	}
	if buy.NAVPerShare != 1_000_000 || buy.NAVDate != "2026-02-27" || buy.FeeSource != investv1.FeeSourceDefault {
		t.Errorf("BUY quote %+v: want the latest NAV 1000000 of 2026-02-27 and the default fee source", buy)
	}
	sell := placed(t, Decide(onSecondary(investv1.SideSell)))
	if sell.GrossValue != 39_600_000 || sell.FeeRate != 25 || sell.FeeAmount != 99_000 || sell.NetAmount != 39_501_000 || sell.Amount != 39_600_000 {
		t.Errorf("SELL quote %+v: want gross 39600000, fee 99000, net 39501000", sell)
	}
}

func TestASecondaryBuyIsGivenInUnitsEvenOfAForwardPricedShareClass(t *testing.T) {
	in := onSecondary(investv1.SideBuy)
	in.ShareClass.Spec.Dealing = &investv1.DealingTerms{Pricing: investv1.PricingForward, TimeZone: "UTC", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00"}}
	in.Order.Spec.Amount, in.Order.Spec.AmountOfUnits = 50_000_000, 0
	res := Decide(in)
	if res.Fields == nil || len(res.Fields["amount"]) == 0 || len(res.Fields["amount_of_units"]) == 0 {
		t.Fatalf("a SECONDARY BUY by amount: want field errors on amount and amount_of_units, got %+v", res)
	}
	in.Order.Spec.Amount, in.Order.Spec.AmountOfUnits = 0, 40
	if q := placed(t, Decide(in)); q.Window == nil || q.NAVPerShare != 1_000_000 {
		t.Errorf("a SECONDARY BUY of a forward-priced class is quoted at the latest NAV for a window: %+v", q)
	}
}

// TestAMarketWithCashOnChainQuotesAnEscrowInsteadOfABankTransfer: a SECONDARY BUY of a
// market whose cash is on chain is paid by an escrow under its own reference at the
// settlement contract, never by a bank transfer; a SELL is paid by the swaps.
func TestAMarketWithCashOnChainQuotesAnEscrowInsteadOfABankTransfer(t *testing.T) {
	cash := &investv1.CashOnChain{Settlement: "0x1111111111111111111111111111111111111111",
		CashToken: "0x2222222222222222222222222222222222222222", FeeCollector: "0x3333333333333333333333333333333333333333"}
	in := onSecondary(investv1.SideBuy)
	in.ShareClass.Spec.Secondary.CashOnChain = cash
	buy := placed(t, Decide(in))
	if buy.CashOnChain == nil || buy.CashOnChain.CashOnChain != *cash || buy.PaymentDetails != nil {
		t.Fatalf("BUY quote: cash on chain %+v, payment details %+v", buy.CashOnChain, buy.PaymentDetails)
	}
	want := EscrowReference(in.Order.Namespace, in.Order.Name)
	if buy.CashOnChain.EscrowReference != want || len(want) != 66 {
		t.Errorf("escrow reference %q, want %q (0x and 64 hexadecimal digits)", buy.CashOnChain.EscrowReference, want)
	}
	if buy.Amount != 40_602_000 {
		t.Errorf("the escrow is the quote's amount to pay: %d", buy.Amount)
	}
	if EscrowReference(in.Order.Namespace, in.Order.Name+"x") == want || EscrowReference(in.Order.Namespace+"x", in.Order.Name) == want {
		t.Error("another order has the same escrow reference")
	}
	in = onSecondary(investv1.SideSell)
	in.ShareClass.Spec.Secondary.CashOnChain = cash
	sell := placed(t, Decide(in))
	if sell.CashOnChain == nil || sell.CashOnChain.CashOnChain != *cash || sell.CashOnChain.EscrowReference != "" {
		t.Errorf("SELL quote: cash on chain %+v", sell.CashOnChain)
	}
	if q := placed(t, Decide(onSecondary(investv1.SideBuy))); q.CashOnChain != nil || q.PaymentDetails == nil {
		t.Errorf("a market without cash on chain: cash %+v, payment details %+v", q.CashOnChain, q.PaymentDetails)
	}
}
