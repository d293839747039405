package placement

import (
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// BenchmarkDecide prices one BUY at placement, latest-priced (units × the latest NAV of a
// history of ten years of daily prices) and forward (by amount; its dealing date from the
// share class's calendar, no NAV), side by side.
func BenchmarkDecide(b *testing.B) {
	latest := placeable()
	prices := make([]investv1.NAVPrice, 0, 3650)
	for d := range 3650 {
		prices = append(prices, investv1.NAVPrice{Date: now.AddDate(0, 0, d-3650).Format("2006-01-02"), NAVPerShare: 1_000_000})
	}
	latest.NAVHistory.Spec.Prices = prices
	forward := placeable()
	forward.NAVHistory = nil
	forward.Order.Spec.AmountOfUnits, forward.Order.Spec.Amount = 0, 20_000_000
	forward.ShareClass.Spec.Dealing = &investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "16:00", BusinessDaysBefore: 1},
		Holidays: []string{"2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"}, SettlementPeriod: 2,
	}
	intraday := placeable()
	intraday.NAVHistory = nil
	intraday.Order.Spec.AmountOfUnits, intraday.Order.Spec.Amount = 0, 20_000_000
	intraday.ShareClass.Spec.Dealing = &investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingIntraday, IntervalMinutes: 2,
		SubscriptionCutOff: investv1.CutOff{MinutesBefore: 1}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 1},
		Holidays: []string{"2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"}, SettlementPeriod: 2,
	}
	for _, bc := range []struct {
		name string
		in   Input
	}{{"latest", latest}, {"forward", forward}, {"intraday", intraday}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := Decide(bc.in); res.Quote == nil {
					b.Fatalf("not placed: %+v", res)
				}
			}
		})
	}
}
