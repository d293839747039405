package secondary

import (
	"strings"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// TestAWindowLeavesOutAnOrderPlacedUnderAnotherCashSettlement: an order keeps the cash
// settlement it was placed with; a window matches only the orders placed under the
// market's settlement of today (a bank-paid BUY cannot pay a seller on chain, nor an
// escrow a bank payout), and says why it leaves the others out.
func TestAWindowLeavesOutAnOrderPlacedUnderAnotherCashSettlement(t *testing.T) {
	onChain := &investv1.CashOnChain{Settlement: "0x1111111111111111111111111111111111111111",
		CashToken: "0x2222222222222222222222222222222222222222", FeeCollector: "0x3333333333333333333333333333333333333333"}
	other := *onChain
	other.Settlement = "0x4444444444444444444444444444444444444444"
	order := func(c *investv1.CashOnChain) *investv1.Order {
		o := &investv1.Order{Spec: investv1.OrderSpec{Side: investv1.SideBuy, Quote: &investv1.OrderQuote{}}}
		if c != nil {
			o.Spec.Quote.CashOnChain = &investv1.OrderCashOnChain{CashOnChain: *c}
		}
		return o
	}
	upper := *onChain
	upper.CashToken = strings.ToUpper(upper.CashToken[:2]) + strings.ToUpper(upper.CashToken[2:])
	upper.FeeCollector = "0x5555555555555555555555555555555555555555" // the fee wallet may change
	for _, tc := range []struct {
		name          string
		placed, today *investv1.CashOnChain
		left          string
	}{
		{"both through the bank", nil, nil, ""},
		{"both on the same contracts", onChain, &upper, ""},
		{"placed through the bank, on chain today", nil, onChain, "its cash settles through the bank as placed, the market's today on chain (settlement contract 0x1111111111111111111111111111111111111111, cash token 0x2222222222222222222222222222222222222222)"},
		{"placed on chain, through the bank today", onChain, nil, "its cash settles on chain (settlement contract 0x1111111111111111111111111111111111111111, cash token 0x2222222222222222222222222222222222222222) as placed, the market's today through the bank"},
		{"another settlement contract", onChain, &other, "its cash settles on chain (settlement contract 0x1111111111111111111111111111111111111111, cash token 0x2222222222222222222222222222222222222222) as placed, the market's today on chain (settlement contract 0x4444444444444444444444444444444444444444, cash token 0x2222222222222222222222222222222222222222)"},
	} {
		if got := cashMismatch(order(tc.placed), tc.today); got != tc.left {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.left)
		}
	}
}
