package dealing_test

import (
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

// daily are forward-priced terms that deal every business day in Luxembourg, BUYs and SELLs
// until 12:00 on the dealing date.
func daily() investv1.DealingTerms {
	return investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "12:00"},
	}
}

func monthly(rule investv1.DealingDayRule, day int32) investv1.DealingTerms {
	t := daily()
	t.Frequency, t.DayRule, t.DayOfMonth = investv1.DealingMonthly, rule, day
	return t
}

func calendar(t *testing.T, terms investv1.DealingTerms) *dealing.Calendar {
	t.Helper()
	c, err := dealing.New(&terms)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// at is a local time of the zone, "2006-01-02 15:04".
func at(t *testing.T, zone, local string) time.Time {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	v, err := time.ParseInLocation("2006-01-02 15:04", local, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func utc(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// dates are the dates of the next n open dealings at instant now.
func dates(t *testing.T, c *dealing.Calendar, now time.Time, n int) string {
	t.Helper()
	next, err := c.Next(now, n)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	var out []string
	for _, d := range next {
		out = append(out, d.String())
	}
	return strings.Join(out, " ")
}

func TestAnOrderAfterTheCutOffDealsAtTheNextDealingDate(t *testing.T) {
	c := calendar(t, daily())
	for _, tc := range []struct {
		name, received, want string
		side                 investv1.OrderSide
	}{
		{"a BUY a minute before the cut-off deals today", "2026-03-10 11:59", "2026-03-10", investv1.SideBuy},
		{"a BUY at the cut-off deals the next business day", "2026-03-10 12:00", "2026-03-11", investv1.SideBuy},
		{"a SELL after Friday's cut-off deals on Monday", "2026-03-13 13:00", "2026-03-16", investv1.SideSell},
		{"a BUY on a Saturday deals on Monday", "2026-03-14 09:00", "2026-03-16", investv1.SideBuy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.DealingDateFor(tc.side, at(t, "Europe/Luxembourg", tc.received))
			if err != nil {
				t.Fatal(err)
			}
			if got.Date.String() != tc.want {
				t.Errorf("dealing date %s, want %s", got.Date, tc.want)
			}
		})
	}
}

func TestEachSideHasItsOwnCutOff(t *testing.T) {
	terms := daily()
	terms.RedemptionCutOff = investv1.CutOff{Time: "17:00", BusinessDaysBefore: 1}
	c := calendar(t, terms)
	received := at(t, "Europe/Luxembourg", "2026-03-10 11:00") // Tuesday
	buy, _ := c.DealingDateFor(investv1.SideBuy, received)
	sell, _ := c.DealingDateFor(investv1.SideSell, received)
	if buy.Date.String() != "2026-03-10" || sell.Date.String() != "2026-03-11" {
		t.Errorf("BUY deals %s, SELL %s; want 2026-03-10 and 2026-03-11 (the SELL cut-off was Monday 17:00)", buy.Date, sell.Date)
	}
	if want := utc(t, "2026-03-10T16:00:00Z"); !sell.RedemptionCutOff.Equal(want) {
		t.Errorf("the SELL's cut-off %s, want %s (Tuesday 17:00 CET)", sell.RedemptionCutOff, want)
	}
}

func TestCutOffsCountBusinessDaysBeforeTheDealingDate(t *testing.T) {
	for _, tc := range []struct {
		name     string
		holidays []string
		want     string
	}{
		{"two business days before Monday is Thursday", nil, "2026-03-12T11:00:00Z"},
		{"a holiday on Friday moves it to Wednesday", []string{"2026-03-13"}, "2026-03-11T11:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := daily()
			terms.SubscriptionCutOff.BusinessDaysBefore = 2
			terms.Holidays = tc.holidays
			d, err := calendar(t, terms).Dealing(dealing.DateOf(2026, time.March, 16))
			if err != nil {
				t.Fatal(err)
			}
			if !d.SubscriptionCutOff.Equal(utc(t, tc.want)) {
				t.Errorf("cut-off %s, want %s", d.SubscriptionCutOff.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
}

func TestCutOffsFollowTheShareClassTimeZoneAcrossDST(t *testing.T) {
	for _, tc := range []struct {
		name, zone string
		date       dealing.Date
		want       string
	}{
		{"Luxembourg, Friday before summer time: 12:00 CET", "Europe/Luxembourg", dealing.DateOf(2026, time.March, 27), "2026-03-27T11:00:00Z"},
		{"Luxembourg, Monday after summer time began: 12:00 CEST", "Europe/Luxembourg", dealing.DateOf(2026, time.March, 30), "2026-03-30T10:00:00Z"},
		{"Luxembourg, Monday after winter time began: 12:00 CET", "Europe/Luxembourg", dealing.DateOf(2026, time.October, 26), "2026-10-26T11:00:00Z"},
		{"New York, before daylight time: 12:00 EST", "America/New_York", dealing.DateOf(2026, time.March, 6), "2026-03-06T17:00:00Z"},
		{"New York, after daylight time began (Europe not yet): 12:00 EDT", "America/New_York", dealing.DateOf(2026, time.March, 9), "2026-03-09T16:00:00Z"},
		{"Tokyo has no daylight time", "Asia/Tokyo", dealing.DateOf(2026, time.July, 1), "2026-07-01T03:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := daily()
			terms.TimeZone = tc.zone
			d, err := calendar(t, terms).Dealing(tc.date)
			if err != nil {
				t.Fatal(err)
			}
			if !d.SubscriptionCutOff.Equal(utc(t, tc.want)) {
				t.Errorf("cut-off %s, want %s", d.SubscriptionCutOff.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
}

func TestLocalTimesThatDoNotOccurOrOccurTwiceHaveOneInstant(t *testing.T) {
	lux, _ := time.LoadLocation("Europe/Luxembourg")
	for _, tc := range []struct {
		name string
		date dealing.Date
		h, m int
		want string
	}{
		{"02:30 on the spring-forward day is the jump at 03:00 CEST", dealing.DateOf(2026, time.March, 29), 2, 30, "2026-03-29T01:00:00Z"},
		{"02:30 on the fall-back day is its first occurrence, in CEST", dealing.DateOf(2026, time.October, 25), 2, 30, "2026-10-25T00:30:00Z"},
		{"an ordinary time is itself", dealing.DateOf(2026, time.October, 25), 12, 0, "2026-10-25T11:00:00Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dealing.LocalInstant(tc.date, tc.h, tc.m, lux); !got.Equal(utc(t, tc.want)) {
				t.Errorf("got %s, want %s", got.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
}

func TestLastBusinessDaySkipsWeekendsAndHolidays(t *testing.T) {
	for _, tc := range []struct {
		name     string
		holidays []string
		from     string
		want     string
	}{
		{"a month ending on a weekend deals on its last Friday", nil, "2026-05-01 00:00", "2026-05-29 2026-06-30"},
		{"a holiday on that Friday moves it to Thursday", []string{"2026-05-29"}, "2026-05-01 00:00", "2026-05-28 2026-06-30"},
		{"January 2026 ends on a Saturday", nil, "2026-01-05 00:00", "2026-01-30 2026-02-27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := monthly(investv1.DayRuleLastBusinessDay, 0)
			terms.Holidays = tc.holidays
			if got := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", tc.from), 2); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestFirstBusinessDaySkipsWeekendsAndHolidays(t *testing.T) {
	terms := monthly(investv1.DayRuleFirstBusinessDay, 0)
	terms.Holidays = []string{"2026-01-01"}
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2025-12-15 00:00"), 3), "2026-01-02 2026-02-02 2026-03-02"; got != want {
		t.Errorf("got %s, want %s (1 January a holiday, 1 February and 1 March Sundays)", got, want)
	}
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2026-07-15 00:00"), 1), "2026-08-03"; got != want {
		t.Errorf("got %s, want %s (1 August is a Saturday)", got, want)
	}
}

func TestADayOfMonthOnAHolidayMovesForwardWithinItsMonthElseBack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		day      int32
		holidays []string
		from     string
		want     string
	}{
		{"the 15th on a Sunday deals on Monday the 16th", 15, nil, "2026-02-01 00:00", "2026-02-16"},
		{"the 31st in a 30-day month is its last day", 31, nil, "2026-04-01 00:00", "2026-04-30"},
		{"the 31st on a Sunday cannot roll into June: Friday the 29th", 31, nil, "2026-05-01 00:00", "2026-05-29"},
		{"the 30th on a holiday Monday (the month's last day) goes back to Friday", 30, []string{"2026-11-30"}, "2026-11-01 00:00", "2026-11-27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := monthly(investv1.DayRuleDayOfMonth, tc.day)
			terms.Holidays = tc.holidays
			if got := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", tc.from), 1); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestWeeklyDealsOnTheWeekdayOrTheNextBusinessDay(t *testing.T) {
	terms := daily()
	terms.Frequency, terms.Weekday = investv1.DealingWeekly, "Wednesday"
	terms.Holidays = []string{"2026-04-01"}
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2026-03-30 00:00"), 3), "2026-04-02 2026-04-08 2026-04-15"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// A whole week of holidays: two weeks' weekdays roll to one day, which deals once.
	terms.Holidays = []string{"2026-04-01", "2026-04-02", "2026-04-03", "2026-04-06", "2026-04-07", "2026-04-08"}
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2026-03-30 00:00"), 2), "2026-04-09 2026-04-15"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestQuarterlyDealsInItsMonthOfTheQuarter(t *testing.T) {
	terms := monthly(investv1.DayRuleLastBusinessDay, 0)
	terms.Frequency = investv1.DealingQuarterly
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2026-01-10 00:00"), 4), "2026-03-31 2026-06-30 2026-09-30 2026-12-31"; got != want {
		t.Errorf("quarter ends: got %s, want %s", got, want)
	}
	terms.DayRule, terms.MonthOfQuarter, terms.Holidays = investv1.DayRuleFirstBusinessDay, 1, []string{"2026-01-01"}
	if got, want := dates(t, calendar(t, terms), at(t, "Europe/Luxembourg", "2025-12-10 00:00"), 4), "2026-01-02 2026-04-01 2026-07-01 2026-10-01"; got != want {
		t.Errorf("quarter starts: got %s, want %s", got, want)
	}
}

func TestASellDealsOnlyAfterItsNoticePeriod(t *testing.T) {
	received := at(t, "Europe/Luxembourg", "2026-03-10 09:00")
	for _, tc := range []struct {
		name       string
		noticeDays int32
		side       investv1.OrderSide
		want       string
	}{
		{"a BUY needs no notice", 30, investv1.SideBuy, "2026-03-31"},
		{"21 days' notice reaches 31 March exactly: it deals then", 21, investv1.SideSell, "2026-03-31"},
		{"22 days' notice passes March's dealing date", 22, investv1.SideSell, "2026-04-30"},
		{"no notice: the next dealing date", 0, investv1.SideSell, "2026-03-31"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := monthly(investv1.DayRuleLastBusinessDay, 0)
			terms.RedemptionNoticeDays = tc.noticeDays
			got, err := dealing.DealingDateFor(&terms, tc.side, received)
			if err != nil {
				t.Fatal(err)
			}
			if got.Date.String() != tc.want {
				t.Errorf("dealing date %s, want %s", got.Date, tc.want)
			}
		})
	}
}

func TestNAVPublicationAndSettlementCountBusinessDaysAfterTheDealingDate(t *testing.T) {
	for _, tc := range []struct {
		name          string
		holidays      []string
		nav, settling string
	}{
		{"over a weekend", nil, "2026-03-30", "2026-04-01"},
		{"over a weekend and a holiday", []string{"2026-03-30"}, "2026-03-31", "2026-04-02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := daily()
			terms.NAVPublicationLag, terms.SettlementPeriod, terms.Holidays = 1, 3, tc.holidays
			d, err := calendar(t, terms).Dealing(dealing.DateOf(2026, time.March, 27))
			if err != nil {
				t.Fatal(err)
			}
			if d.NAVPublicationDate.String() != tc.nav || d.SettlementDate.String() != tc.settling {
				t.Errorf("NAV published %s, settled %s; want %s and %s", d.NAVPublicationDate, d.SettlementDate, tc.nav, tc.settling)
			}
		})
	}
}

func TestTheValuationPointIsTheValuationTimeElseTheEndOfTheDealingDate(t *testing.T) {
	terms := daily()
	d, _ := calendar(t, terms).Dealing(dealing.DateOf(2026, time.March, 27))
	if want := utc(t, "2026-03-27T23:00:00Z"); !d.ValuationPoint.Equal(want) {
		t.Errorf("without a valuation time: %s, want %s (midnight CET)", d.ValuationPoint.UTC(), want)
	}
	terms.ValuationTime = "16:00"
	d, _ = calendar(t, terms).Dealing(dealing.DateOf(2026, time.March, 27))
	if want := utc(t, "2026-03-27T15:00:00Z"); !d.ValuationPoint.Equal(want) {
		t.Errorf("valuation time 16:00: %s, want %s", d.ValuationPoint.UTC(), want)
	}
}

func TestTheNextDealingsAreThoseWithACutOffAhead(t *testing.T) {
	terms := daily()
	terms.RedemptionCutOff = investv1.CutOff{Time: "15:00"}
	c := calendar(t, terms)
	for _, tc := range []struct{ name, now, want string }{
		{"before both cut-offs today deals today", "2026-03-10 11:00", "2026-03-10 2026-03-11 2026-03-12"},
		{"between the cut-offs today is still open to SELLs", "2026-03-10 13:00", "2026-03-10 2026-03-11 2026-03-12"},
		{"after both cut-offs today is gone", "2026-03-10 15:00", "2026-03-11 2026-03-12 2026-03-13"},
		{"on Friday evening: Monday", "2026-03-13 18:00", "2026-03-16 2026-03-17 2026-03-18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dates(t, c, at(t, "Europe/Luxembourg", tc.now), 3); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestACalendarWithoutBusinessDaysIsRefusedNotSearchedForEver(t *testing.T) {
	terms := daily()
	terms.BusinessDays = []investv1.Weekday{"Saturday"}
	var holidays []string
	for d := dealing.DateOf(2026, time.January, 1); d < dealing.DateOf(2037, time.January, 1); d++ {
		if d.Weekday() == time.Saturday {
			holidays = append(holidays, d.String())
		}
	}
	terms.Holidays = holidays
	if _, err := calendar(t, terms).Next(at(t, "Europe/Luxembourg", "2026-01-01 00:00"), 1); err == nil {
		t.Fatal("a calendar without a business day for ten years answered a dealing date")
	}
}

func TestValidateNamesTheFieldAtFault(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*investv1.DealingTerms)
		field  string
	}{
		{"an unknown time zone", func(t *investv1.DealingTerms) { t.TimeZone = "Europe/Atlantis" }, "spec.dealing.timeZone"},
		{"the machine's local zone", func(t *investv1.DealingTerms) { t.TimeZone = "Local" }, "spec.dealing.timeZone"},
		{"weekly without a weekday", func(t *investv1.DealingTerms) { t.Frequency = investv1.DealingWeekly }, "spec.dealing.weekday"},
		{"monthly without a day rule", func(t *investv1.DealingTerms) { t.Frequency = investv1.DealingMonthly }, "spec.dealing.dayRule"},
		{"a day of month without its rule", func(t *investv1.DealingTerms) { t.DayOfMonth = 5 }, "spec.dealing.dayOfMonth"},
		{"a cut-off that is not HH:MM", func(t *investv1.DealingTerms) { t.SubscriptionCutOff.Time = "24:00" }, "spec.dealing.subscriptionCutOff.time"},
		{"a cut-off at the valuation time", func(t *investv1.DealingTerms) { t.ValuationTime = "12:00" }, "spec.dealing.subscriptionCutOff"},
		{"a holiday that is not a date", func(t *investv1.DealingTerms) { t.Holidays = []string{"2026-02-30"} }, "spec.dealing.holidays[0]"},
		{"19 unit decimals", func(t *investv1.DealingTerms) { t.UnitDecimals = 19 }, "spec.dealing.unitDecimals"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := daily()
			tc.change(&terms)
			errs := dealing.Validate(&terms, nil)
			if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tc.field) {
				t.Errorf("errors %v do not name %s", errs, tc.field)
			}
		})
	}
	terms := daily()
	if errs := dealing.Validate(&terms, nil); len(errs) != 0 {
		t.Errorf("valid terms refused: %v", errs)
	}
}
