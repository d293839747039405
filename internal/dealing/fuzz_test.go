package dealing_test

import (
	"fmt"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

var (
	fuzzZones       = []string{"Europe/Luxembourg", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "America/Sao_Paulo", "Pacific/Apia"}
	fuzzFrequencies = []investv1.DealingFrequency{investv1.DealingDaily, investv1.DealingWeekly, investv1.DealingMonthly, investv1.DealingQuarterly, investv1.DealingIntraday}
	fuzzIntervals   = []int32{1, 2, 5, 15, 30, 60, 90, 720}
	fuzzRules       = []investv1.DealingDayRule{investv1.DayRuleDayOfMonth, investv1.DayRuleFirstBusinessDay, investv1.DayRuleLastBusinessDay}
	fuzzWeekdays    = []investv1.Weekday{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// FuzzCalendarInvariants checks, for any terms the validation accepts and any instant:
// the next dealing dates are dealing dates, strictly increasing, each still open; a
// cut-off is never after its dealing date's valuation point nor on a later day than the
// dealing date; the NAV publication and settlement dates are not before the dealing date;
// and DealingDateFor is the first open dealing date of its side (after the notice).
func FuzzCalendarInvariants(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(2), uint8(0), uint8(31), uint8(3), uint8(0x3e), uint16(720), uint8(0), uint16(900), uint8(1), uint16(0), int64(1773136800), uint64(0), uint8(1), uint8(3), uint8(10))
	f.Add(uint8(1), uint8(2), uint8(3), uint8(2), uint8(15), uint8(1), uint8(0x7f), uint16(150), uint8(3), uint16(1439), uint8(0), uint16(300), int64(1774746000), uint64(0xdeadbeef), uint8(0), uint8(0), uint8(0))
	f.Add(uint8(5), uint8(3), uint8(1), uint8(1), uint8(1), uint8(2), uint8(0x41), uint16(0), uint8(10), uint16(60), uint8(2), uint16(1380), int64(1792800000), uint64(42), uint8(2), uint8(5), uint8(60))
	f.Add(uint8(0), uint8(4), uint8(2), uint8(0), uint8(9), uint8(17), uint8(0x3e), uint16(2), uint8(0), uint16(3), uint8(0), uint16(540), int64(1793235600), uint64(0), uint8(0), uint8(1), uint8(0))
	f.Add(uint8(1), uint8(4), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0x7f), uint16(0), uint8(0), uint16(59), uint8(0), uint16(0), int64(1793584800), uint64(7), uint8(0), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, zone, freq, rule, weekday, dayOfMonth, monthOfQuarter, businessMask uint8,
		subAt uint16, subBefore uint8, redAt uint16, redBefore uint8, valuation uint16,
		unix int64, holidaySeed uint64, lag, settlement, notice uint8) {
		terms := investv1.DealingTerms{
			Pricing:            investv1.PricingForward,
			TimeZone:           fuzzZones[int(zone)%len(fuzzZones)],
			Frequency:          fuzzFrequencies[int(freq)%len(fuzzFrequencies)],
			SubscriptionCutOff: investv1.CutOff{Time: hhmm(subAt), BusinessDaysBefore: int32(subBefore % 8)},
			RedemptionCutOff:   investv1.CutOff{Time: hhmm(redAt), BusinessDaysBefore: int32(redBefore % 8)},
			NAVPublicationLag:  int32(lag % 10), SettlementPeriod: int32(settlement % 10), RedemptionNoticeDays: int32(notice),
		}
		switch terms.Frequency {
		case investv1.DealingIntraday:
			// An interval, a dealing window from dayOfMonth to monthOfQuarter hours (when
			// in order), cut-offs up to two hours before each point.
			terms.IntervalMinutes = fuzzIntervals[int(rule)%len(fuzzIntervals)]
			if first, last := int(dayOfMonth%24), int(monthOfQuarter%24); first < last {
				terms.FirstDealingTime, terms.LastDealingTime = fmt.Sprintf("%02d:00", first), fmt.Sprintf("%02d:59", last)
			}
			terms.SubscriptionCutOff = investv1.CutOff{MinutesBefore: int32(subAt % 120)}
			terms.RedemptionCutOff = investv1.CutOff{MinutesBefore: int32(redAt % 120)}
		case investv1.DealingWeekly:
			terms.Weekday = fuzzWeekdays[int(weekday)%7]
		case investv1.DealingMonthly, investv1.DealingQuarterly:
			terms.DayRule = fuzzRules[int(rule)%len(fuzzRules)]
			if terms.DayRule == investv1.DayRuleDayOfMonth {
				terms.DayOfMonth = int32(dayOfMonth%31) + 1
			}
			if terms.Frequency == investv1.DealingQuarterly {
				terms.MonthOfQuarter = int32(monthOfQuarter%3) + 1
			}
		}
		for i, d := range fuzzWeekdays {
			if businessMask&(1<<i) != 0 {
				terms.BusinessDays = append(terms.BusinessDays, d)
			}
		}
		if valuation%2 == 1 && terms.Frequency != investv1.DealingIntraday {
			terms.ValuationTime = hhmm(valuation)
		}
		// Instants from 1990 to 2100; holidays scattered over the following half year.
		now := time.Unix(631152000+mod(unix, 3_471_292_800), 0)
		start := dealing.LocalDate(now, time.UTC)
		for i := 0; i < 24 && holidaySeed != 0; i++ {
			terms.Holidays = append(terms.Holidays, (start + dealing.Date(holidaySeed%183)).String())
			holidaySeed = holidaySeed*6364136223846793005 + 1442695040888963407
			holidaySeed >>= 1
		}
		if len(terms.BusinessDays) == 0 || len(dealing.Validate(&terms, nil)) > 0 {
			return // the CRD and admission refuse these terms
		}
		c, err := dealing.New(&terms)
		if err != nil {
			t.Fatalf("New refused terms Validate accepts: %v", err)
		}
		next, err := c.Next(now, 6)
		if err != nil {
			t.Fatalf("Next(%s): %v (terms %+v)", now, err, terms)
		}
		for i, d := range next {
			where := fmt.Sprintf("dealing %d (%s) at %s, terms %+v", i, d.Point, now.UTC(), terms)
			if !c.IsDealingDate(d.Date) || !c.IsDealingPoint(d.Point) {
				t.Fatalf("%s: not a dealing date", where)
			}
			if i > 0 && !pointBefore(next[i-1].Point, d.Point) {
				t.Fatalf("%s: not after the previous one %s", where, next[i-1].Date)
			}
			if !d.LastCutOff().After(now) {
				t.Fatalf("%s: both cut-offs passed", where)
			}
			for _, co := range []time.Time{d.SubscriptionCutOff, d.RedemptionCutOff} {
				if co.After(d.ValuationPoint) {
					t.Fatalf("%s: cut-off %s after the valuation point %s", where, co, d.ValuationPoint)
				}
				if dealing.LocalDate(co, c.Location()) > d.Date {
					t.Fatalf("%s: cut-off %s on a later day", where, co)
				}
			}
			if d.NAVPublicationDate < d.Date || d.SettlementDate < d.Date {
				t.Fatalf("%s: NAV published %s, settled %s, before the dealing date", where, d.NAVPublicationDate, d.SettlementDate)
			}
		}
		// DealingDateFor is the first open dealing of its side (a SELL's after its notice).
		for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
			got, err := c.DealingDateFor(side, now)
			if err != nil {
				t.Fatalf("DealingDateFor(%s, %s): %v", side, now, err)
			}
			if !got.CutOff(side).After(now) {
				t.Fatalf("%s at %s deals %s whose cut-off %s passed", side, now, got.Date, got.CutOff(side))
			}
			earliest := dealing.LocalDate(now, c.Location())
			if side == investv1.SideSell {
				earliest += dealing.Date(terms.RedemptionNoticeDays)
				if got.Date < earliest {
					t.Fatalf("SELL at %s deals %s, inside its %d days' notice", now, got.Date, terms.RedemptionNoticeDays)
				}
			}
			for _, d := range next {
				if d.Date >= earliest && pointBefore(d.Point, got.Point) && d.CutOff(side).After(now) {
					t.Fatalf("%s at %s deals %s, but %s was open (cut-off %s)", side, now, got.Date, d.Date, d.CutOff(side))
				}
			}
		}
	})
}

// pointBefore says whether dealing point a comes before b.
func pointBefore(a, b dealing.Point) bool {
	return a.Date < b.Date || a.Date == b.Date && a.Minute < b.Minute
}

func hhmm(minutes uint16) string {
	m := int(minutes) % (24 * 60)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

func mod(a, n int64) int64 { return (a%n + n) % n }
