package apiserver

import (
	"strings"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

// nextDealings is how many dealing dates a share class shows.
const nextDealings = dealing.NextCount

// dealingView is the dealing object of a share class at instant now: its terms in the
// REST naming style and its next open dealing dates, computed from the terms (not read
// from the status), so it is right even while the dealing controller is not running. A
// share class without terms has none (nil: the field is left out).
func dealingView(terms *investv1.DealingTerms, now time.Time) *ShareClassDealing {
	if terms == nil {
		return nil
	}
	pricing := terms.Pricing
	if pricing == "" {
		pricing = investv1.PricingLatest
	}
	intraday := terms.Frequency == investv1.DealingIntraday
	out := &ShareClassDealing{
		Pricing: upperSnake(string(pricing)), TimeZone: terms.TimeZone, Frequency: upperSnake(string(terms.Frequency)),
		BusinessDays: []string{}, Holidays: append([]string{}, terms.Holidays...),
		SubscriptionCutOff: cutOffView(terms.SubscriptionCutOff, intraday), RedemptionCutOff: cutOffView(terms.RedemptionCutOff, intraday),
		NAVPublicationLag: terms.NAVPublicationLag, SettlementPeriod: terms.SettlementPeriod,
		RedemptionNoticeDays: terms.RedemptionNoticeDays, UnitDecimals: terms.UnitDecimals,
		NextDealings: []DealingDateView{},
	}
	if g := terms.RedemptionGate; g != nil {
		remainder := g.Remainder
		if remainder == "" {
			remainder = investv1.GateCarryForward
		}
		out.RedemptionGate = &DealingRedemptionGate{ThresholdBasisPoints: g.ThresholdBasisPoints, Remainder: upperSnake(string(remainder))}
	}
	if a := terms.AntiDilution; a != nil {
		out.AntiDilution = &DealingAntiDilution{Method: upperSnake(string(a.Method)), ThresholdBasisPoints: a.ThresholdBasisPoints, FactorBasisPoints: a.FactorBasisPoints}
	}
	if intraday {
		first, last := terms.FirstDealingTime, terms.LastDealingTime
		if first == "" {
			first = "00:00"
		}
		if last == "" {
			last = "23:59"
		}
		out.IntervalMinutes, out.FirstDealingTime, out.LastDealingTime = &terms.IntervalMinutes, &first, &last
	}
	if terms.Weekday != "" {
		out.Weekday = optString(upperSnake(string(terms.Weekday)))
	}
	if terms.DayRule != "" {
		out.DayRule = optString(upperSnake(string(terms.DayRule)))
	}
	if terms.DayOfMonth != 0 {
		out.DayOfMonth = &terms.DayOfMonth
	}
	if terms.Frequency == investv1.DealingQuarterly {
		q := terms.MonthOfQuarter
		if q == 0 {
			q = 3
		}
		out.MonthOfQuarter = &q
	}
	if terms.ValuationTime != "" {
		out.ValuationTime = optString(terms.ValuationTime)
	}
	business := terms.BusinessDays
	if len(business) == 0 {
		business = []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	}
	for _, d := range business {
		out.BusinessDays = append(out.BusinessDays, upperSnake(string(d)))
	}
	// Terms admission refused (an unknown time zone) have no calendar: an empty list.
	if next, err := dealing.Next(terms, now, nextDealings); err == nil {
		for _, d := range next {
			out.NextDealings = append(out.NextDealings, DealingDateView{
				DealingDate: d.String(), NAVDate: d.String(),
				SubscriptionCutOff: instant(d.SubscriptionCutOff), RedemptionCutOff: instant(d.RedemptionCutOff),
				ValuationPoint: instant(d.ValuationPoint), NAVPublicationDate: d.NAVPublicationDate.String(),
				SettlementDate: d.SettlementDate.String(),
			})
		}
	}
	return out
}

func cutOffView(c investv1.CutOff, intraday bool) DealingCutOff {
	if intraday {
		return DealingCutOff{MinutesBefore: &c.MinutesBefore}
	}
	return DealingCutOff{Time: optString(c.Time), BusinessDaysBefore: c.BusinessDaysBefore}
}

func instant(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// upperSnake writes a CRD enum value (CamelCase) as the REST style writes enums:
// DayOfMonth is DAY_OF_MONTH.
func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}
