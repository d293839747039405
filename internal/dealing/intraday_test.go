package dealing_test

import (
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

// intraday are terms that deal every five minutes from 09:00 to 17:00 on Luxembourg
// business days, BUYs until two minutes and SELLs until four minutes before each point.
func intraday() investv1.DealingTerms {
	return investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingIntraday,
		IntervalMinutes: 5, FirstDealingTime: "09:00", LastDealingTime: "17:00",
		SubscriptionCutOff: investv1.CutOff{MinutesBefore: 2}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 4},
	}
}

func TestIntradayDealsEveryIntervalWithinTheDealingHoursOfBusinessDays(t *testing.T) {
	c := calendar(t, intraday())
	for _, tc := range []struct{ name, now, want string }{
		{"in the morning", "2026-03-10 10:01", "2026-03-10T10:05 2026-03-10T10:10 2026-03-10T10:15"},
		{"before the first point", "2026-03-10 06:00", "2026-03-10T09:00 2026-03-10T09:05 2026-03-10T09:10"},
		{"at the day's last points: then the next business day", "2026-03-13 16:54", "2026-03-13T17:00 2026-03-16T09:00 2026-03-16T09:05"},
		{"after the last point on Friday: Monday", "2026-03-13 17:30", "2026-03-16T09:00 2026-03-16T09:05 2026-03-16T09:10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dates(t, c, at(t, "Europe/Luxembourg", tc.now), 3); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestAnIntradayCutOffIsMinutesBeforeEachDealingPoint(t *testing.T) {
	c := calendar(t, intraday())
	for _, tc := range []struct {
		name, received, want string
		side                 investv1.OrderSide
	}{
		{"a BUY three minutes before a point deals at it", "2026-03-10 12:02", "2026-03-10T12:05", investv1.SideBuy},
		{"a BUY at the cut-off deals at the next point", "2026-03-10 12:03", "2026-03-10T12:10", investv1.SideBuy},
		{"a SELL has its own, earlier cut-off", "2026-03-10 12:02", "2026-03-10T12:10", investv1.SideSell},
		{"an order after the last point deals the next business day", "2026-03-10 16:59", "2026-03-11T09:00", investv1.SideBuy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.DealingDateFor(tc.side, at(t, "Europe/Luxembourg", tc.received))
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want {
				t.Errorf("dealing point %s, want %s", got, tc.want)
			}
			minutes := 2
			if tc.side == investv1.SideSell {
				minutes = 4
			}
			if d := got.ValuationPoint.Sub(got.CutOff(tc.side)); d != time.Duration(minutes)*time.Minute {
				t.Errorf("the cut-off is %s before the point, want %d minutes", d, minutes)
			}
		})
	}
}

func TestAnIntradayDealingPointIsItsOwnValuationPoint(t *testing.T) {
	terms := intraday()
	terms.NAVPublicationLag, terms.SettlementPeriod = 0, 2
	c := calendar(t, terms)
	p, err := dealing.ParsePoint("2026-03-13T16:30") // a Friday
	if err != nil {
		t.Fatal(err)
	}
	dl, err := c.DealingAt(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := utc(t, "2026-03-13T15:30:00Z"); !dl.ValuationPoint.Equal(want) {
		t.Errorf("valuation point %s, want %s (16:30 CET)", dl.ValuationPoint, want)
	}
	if dl.NAVPublicationDate.String() != "2026-03-13" || dl.SettlementDate.String() != "2026-03-17" {
		t.Errorf("NAV published %s, settled %s; want 2026-03-13 and T+2 2026-03-17", dl.NAVPublicationDate, dl.SettlementDate)
	}
}

func TestIntradayPointsFollowTheTimeZoneAcrossDST(t *testing.T) {
	c := calendar(t, intraday())
	winter, _ := c.DealingAt(dealing.Point{Date: dealing.DateOf(2026, time.March, 27), Minute: 12 * 60})
	summer, _ := c.DealingAt(dealing.Point{Date: dealing.DateOf(2026, time.March, 30), Minute: 12 * 60})
	if winter.ValuationPoint.UTC().Hour() != 11 || summer.ValuationPoint.UTC().Hour() != 10 {
		t.Errorf("12:00 local is %s and %s, want 11:00 UTC in winter and 10:00 UTC in summer", winter.ValuationPoint.UTC(), summer.ValuationPoint.UTC())
	}
}

func TestTheDealingPointAfterAnotherIsTheNextPointOrTheNextBusinessDay(t *testing.T) {
	c := calendar(t, intraday())
	for _, tc := range []struct{ from, want string }{
		{"2026-03-10T12:05", "2026-03-10T12:10"},
		{"2026-03-13T17:00", "2026-03-16T09:00"},
	} {
		p, err := dealing.ParsePoint(tc.from)
		if err != nil {
			t.Fatal(err)
		}
		next, err := c.After(p)
		if err != nil || next.String() != tc.want {
			t.Errorf("after %s: %s (%v), want %s", tc.from, next.Point, err, tc.want)
		}
	}
}

func TestOnlyPointsOnTheIntervalAreDealingPoints(t *testing.T) {
	c := calendar(t, intraday())
	for s, want := range map[string]bool{
		"2026-03-10T09:00": true, "2026-03-10T12:35": true, "2026-03-10T17:00": true,
		"2026-03-10T12:36": false, "2026-03-10T08:55": false, "2026-03-10T17:05": false,
		"2026-03-14T12:00": false, // a Saturday
		"2026-03-10":       false, // a date is not an intraday dealing point
	} {
		p, err := dealing.ParsePoint(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.IsDealingPoint(p); got != want {
			t.Errorf("IsDealingPoint(%s) = %v, want %v", s, got, want)
		}
	}
	daily := calendar(t, daily())
	p, _ := dealing.ParsePoint("2026-03-10T12:00")
	if daily.IsDealingPoint(p) {
		t.Error("a daily calendar took a point with a time as a dealing date")
	}
}

func TestADealingPointReadsBackAsWritten(t *testing.T) {
	for _, s := range []string{"2026-03-10", "2026-03-10T00:00", "2026-03-10T23:55"} {
		p, err := dealing.ParsePoint(s)
		if err != nil || p.String() != s {
			t.Errorf("ParsePoint(%q) = %s, %v", s, p, err)
		}
	}
	for _, s := range []string{"2026-03-10T24:00", "2026-03-10T9:05", "2026-02-30T10:00", "2026-03-10 10:00"} {
		if _, err := dealing.ParsePoint(s); err == nil {
			t.Errorf("ParsePoint(%q) accepted it", s)
		}
	}
}

func TestIntradayTermsAreValidatedFieldByField(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*investv1.DealingTerms)
		field  string
	}{
		{"an interval that does not divide a day", func(t *investv1.DealingTerms) { t.IntervalMinutes = 7 }, "spec.dealing.intervalMinutes"},
		{"no interval", func(t *investv1.DealingTerms) { t.IntervalMinutes = 0 }, "spec.dealing.intervalMinutes"},
		{"a valuation time", func(t *investv1.DealingTerms) { t.ValuationTime = "12:00" }, "spec.dealing.valuationTime"},
		{"a cut-off time", func(t *investv1.DealingTerms) { t.SubscriptionCutOff.Time = "12:00" }, "spec.dealing.subscriptionCutOff"},
		{"the first point after the last", func(t *investv1.DealingTerms) { t.FirstDealingTime = "18:00" }, "spec.dealing.lastDealingTime"},
		{"an interval on a daily class", func(t *investv1.DealingTerms) {
			t.Frequency = investv1.DealingDaily
			t.SubscriptionCutOff, t.RedemptionCutOff = investv1.CutOff{Time: "12:00"}, investv1.CutOff{Time: "12:00"}
			t.FirstDealingTime, t.LastDealingTime = "", ""
		}, "spec.dealing.intervalMinutes"},
		{"minutes before on a daily class", func(t *investv1.DealingTerms) {
			t.Frequency, t.IntervalMinutes, t.FirstDealingTime, t.LastDealingTime = investv1.DealingDaily, 0, "", ""
			t.SubscriptionCutOff, t.RedemptionCutOff = investv1.CutOff{Time: "12:00", MinutesBefore: 2}, investv1.CutOff{Time: "12:00"}
		}, "spec.dealing.subscriptionCutOff.minutesBefore"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := intraday()
			tc.change(&terms)
			errs := dealing.Validate(&terms, nil)
			if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tc.field) {
				t.Errorf("errors %v do not name %s", errs, tc.field)
			}
		})
	}
	terms := intraday()
	if errs := dealing.Validate(&terms, nil); len(errs) != 0 {
		t.Errorf("valid terms refused: %v", errs)
	}
}

func BenchmarkIntradayDealingFor(b *testing.B) {
	terms := intraday()
	terms.FirstDealingTime, terms.LastDealingTime, terms.IntervalMinutes = "", "", 1
	c, err := dealing.New(&terms)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, time.March, 10, 22, 30, 0, 0, time.UTC)
	for b.Loop() {
		if _, err := c.DealingDateFor(investv1.SideBuy, now); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTheIntradaySearchSkipsOnlyPointsThatCannotDeal compares the dealing point of orders
// received every seven minutes across both daylight saving changes of 2026 with a search
// that computes every point from the day before: skipping the points before the order's
// local time changes no answer.
func TestTheIntradaySearchSkipsOnlyPointsThatCannotDeal(t *testing.T) {
	terms := intraday()
	terms.FirstDealingTime, terms.LastDealingTime = "", ""
	terms.BusinessDays = []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	c := calendar(t, terms)
	every := func(received time.Time, side investv1.OrderSide) dealing.Dealing {
		loc := c.Location()
		for d := dealing.LocalDate(received, loc) - 1; ; d++ {
			for m := 0; m < 24*60; m += 5 {
				dl, err := c.DealingAt(dealing.Point{Date: d, Minute: m})
				if err != nil {
					t.Fatal(err)
				}
				if dl.CutOff(side).After(received) {
					return dl
				}
			}
		}
	}
	for _, day := range []string{"2026-03-28T22:00:00Z", "2026-10-24T22:00:00Z"} {
		from := utc(t, day)
		for at := from; at.Before(from.Add(30 * time.Hour)); at = at.Add(7 * time.Minute) {
			for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
				got, err := c.DealingDateFor(side, at)
				if err != nil {
					t.Fatal(err)
				}
				if want := every(at, side); got.Point != want.Point {
					t.Fatalf("%s received %s: dealing point %s, want %s", side, at, got.Point, want.Point)
				}
			}
		}
	}
}
