package dealing

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	// The manager's image may have no zoneinfo; the calendar must read the same zones in
	// every process (admission, controllers, REST), so the database is compiled in.
	_ "time/tzdata"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Date is a civil date of the share class's time zone, as days since 1970-01-01.
type Date int64

// DateOf is the date of year, month and day (normalised as time.Date does).
func DateOf(year int, month time.Month, day int) Date {
	return Date(time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix() / secondsPerDay)
}

// ParseDate reads YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return DateOf(t.Date()), nil
}

// LocalDate is the date of instant t in loc.
func LocalDate(t time.Time, loc *time.Location) Date { return DateOf(t.In(loc).Date()) }

const secondsPerDay = 24 * 60 * 60

func (d Date) civil() time.Time { return time.Unix(int64(d)*secondsPerDay, 0).UTC() }

// YMD is the date's year, month and day.
func (d Date) YMD() (int, time.Month, int) { return d.civil().Date() }

// Weekday is the date's day of the week.
func (d Date) Weekday() time.Weekday { return time.Weekday((int64(d)%7 + 7 + 4) % 7) } // 1970-01-01 was a Thursday

// String is YYYY-MM-DD.
func (d Date) String() string { return d.civil().Format(time.DateOnly) }

// Point is a dealing date, or a dealing point of an Intraday share class: a date and a
// local time of day. Its text (String, ParsePoint) is YYYY-MM-DD or YYYY-MM-DDTHH:MM; it
// is what orders, Dealing objects and contract notes name a dealing by.
type Point struct {
	Date Date
	// Minute of the local day of an intraday dealing point, 0 to 1439; -1 for a date.
	Minute int
}

// DatePoint is the dealing date d.
func DatePoint(d Date) Point { return Point{Date: d, Minute: -1} }

// Timed says whether p is an intraday dealing point (a date and a time).
func (p Point) Timed() bool { return p.Minute >= 0 }

// String is YYYY-MM-DD, or YYYY-MM-DDTHH:MM for an intraday dealing point.
func (p Point) String() string {
	if !p.Timed() {
		return p.Date.String()
	}
	return fmt.Sprintf("%sT%02d:%02d", p.Date, p.Minute/60, p.Minute%60)
}

// ParsePoint reads YYYY-MM-DD or YYYY-MM-DDTHH:MM.
func ParsePoint(s string) (Point, error) {
	date, hm, timed := strings.Cut(s, "T")
	d, err := ParseDate(date)
	if err != nil || !timed {
		return Point{Date: d, Minute: -1}, err
	}
	at, err := parseClock(hm)
	if err != nil {
		return Point{}, fmt.Errorf("%q is not a dealing point (YYYY-MM-DDTHH:MM)", s)
	}
	return Point{Date: d, Minute: int(at)}, nil
}

// Side is the side of an order: its cut-off and, for a SELL, its notice.
type Side = investv1.OrderSide

// Dealing is one dealing date (or intraday dealing point) and what follows from it.
type Dealing struct {
	// Point is the dealing date (the trade date and the NAV date), or the dealing point of
	// an Intraday share class; Date is its date.
	Point
	// SubscriptionCutOff and RedemptionCutOff are the instants BUYs and SELLs for Date
	// must arrive before.
	SubscriptionCutOff, RedemptionCutOff time.Time
	// ValuationPoint is the instant the NAV of Date is struck at.
	ValuationPoint time.Time
	// NAVPublicationDate is when the NAV of Date is expected.
	NAVPublicationDate Date
	// SettlementDate is T+n.
	SettlementDate Date
}

// CutOff is the cut-off of side.
func (d Dealing) CutOff(side Side) time.Time {
	if side == investv1.SideSell {
		return d.RedemptionCutOff
	}
	return d.SubscriptionCutOff
}

// LastCutOff is the later of the two cut-offs: until it passes the dealing is open to one
// side at least.
func (d Dealing) LastCutOff() time.Time {
	if d.RedemptionCutOff.After(d.SubscriptionCutOff) {
		return d.RedemptionCutOff
	}
	return d.SubscriptionCutOff
}

// locations caches the time zones read from the compiled-in database: time.LoadLocation
// parses the zone's data on every call, which made building a calendar (placement of
// every forward order, the dealing and strike controllers) cost a tenth of a millisecond.
// A Location is immutable, so one may be shared; only zones that load are kept, and there
// are some six hundred names.
var locations sync.Map // string → *time.Location

// location is time.LoadLocation, cached.
func location(name string) (*time.Location, error) {
	if loc, ok := locations.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, loc)
	return loc, nil
}

// Horizon bounds every search: a calendar that has no dealing date (or business day) for
// ten years is refused rather than searched for ever.
const Horizon = 3660 // days

// ErrNoDealingDate is returned when the horizon holds no dealing date.
var ErrNoDealingDate = errors.New("no dealing date within ten years: check the business days and holidays")

// errNoBusinessDay is returned when counting business days finds none within the horizon.
var errNoBusinessDay = errors.New("no business day within ten years: check the business days and holidays")

// clock is a local time of day in minutes after midnight.
type clock int

func parseClock(s string) (clock, error) {
	if len(s) != 5 || s[2] != ':' {
		return 0, fmt.Errorf("%q is not a time of day (HH:MM)", s)
	}
	h, m := digits2(s[0:2]), digits2(s[3:5])
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, fmt.Errorf("%q is not a time of day (HH:MM)", s)
	}
	return clock(h*60 + m), nil
}

func digits2(s string) int {
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

// cutOff is a parsed CutOff.
type cutOff struct {
	at         clock
	daysBefore int
}

// Calendar is the dealing calendar of one set of terms.
type Calendar struct {
	terms          investv1.DealingTerms
	loc            *time.Location
	business       [7]bool
	holidays       map[Date]bool
	sub, red       cutOff
	valuation      clock
	hasValuation   bool
	weekday        time.Weekday
	monthOfQuarter int
	// Intraday: the dealing points of a business day are first, first+interval, ... up
	// to last; the cut-offs are subMinutes and redMinutes before each.
	intraday               bool
	interval, first, last  clock
	subMinutes, redMinutes clock
}

var weekdays = map[investv1.Weekday]time.Weekday{
	"Sunday": time.Sunday, "Monday": time.Monday, "Tuesday": time.Tuesday, "Wednesday": time.Wednesday,
	"Thursday": time.Thursday, "Friday": time.Friday, "Saturday": time.Saturday,
}

// New checks the terms (Validate) and builds their calendar.
func New(terms *investv1.DealingTerms) (*Calendar, error) {
	if errs := Validate(terms, nil); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	c := &Calendar{terms: *terms, holidays: map[Date]bool{}, monthOfQuarter: 3}
	c.loc, _ = location(terms.TimeZone)
	if len(terms.BusinessDays) == 0 {
		for d := time.Monday; d <= time.Friday; d++ {
			c.business[d] = true
		}
	}
	for _, d := range terms.BusinessDays {
		c.business[weekdays[d]] = true
	}
	for _, h := range terms.Holidays {
		d, _ := ParseDate(h)
		c.holidays[d] = true
	}
	c.sub.at, _ = parseClock(terms.SubscriptionCutOff.Time)
	c.sub.daysBefore = int(terms.SubscriptionCutOff.BusinessDaysBefore)
	c.red.at, _ = parseClock(terms.RedemptionCutOff.Time)
	c.red.daysBefore = int(terms.RedemptionCutOff.BusinessDaysBefore)
	if terms.ValuationTime != "" {
		c.valuation, _ = parseClock(terms.ValuationTime)
		c.hasValuation = true
	}
	c.weekday = weekdays[terms.Weekday]
	if terms.MonthOfQuarter != 0 {
		c.monthOfQuarter = int(terms.MonthOfQuarter)
	}
	if terms.Frequency == investv1.DealingIntraday {
		c.intraday, c.interval, c.first, c.last = true, clock(terms.IntervalMinutes), 0, 24*60-1
		if terms.FirstDealingTime != "" {
			c.first, _ = parseClock(terms.FirstDealingTime)
		}
		if terms.LastDealingTime != "" {
			c.last, _ = parseClock(terms.LastDealingTime)
		}
		c.subMinutes, c.redMinutes = clock(terms.SubscriptionCutOff.MinutesBefore), clock(terms.RedemptionCutOff.MinutesBefore)
	}
	return c, nil
}

// Location is the calendar's time zone.
func (c *Calendar) Location() *time.Location { return c.loc }

// IsBusinessDay says whether d is a business day.
func (c *Calendar) IsBusinessDay(d Date) bool {
	return c.business[d.Weekday()] && !c.holidays[d]
}

// AddBusinessDays moves n business days from d: forward for n > 0, backward for n < 0;
// 0 returns d.
func (c *Calendar) AddBusinessDays(d Date, n int) (Date, error) {
	step := Date(1)
	if n < 0 {
		step, n = -1, -n
	}
	for limit := Date(Horizon); n > 0; limit-- {
		if limit == 0 {
			return 0, errNoBusinessDay
		}
		d += step
		if c.IsBusinessDay(d) {
			n--
			limit = Horizon
		}
	}
	return d, nil
}

// Intraday says whether the calendar has dealing points within a day.
func (c *Calendar) Intraday() bool { return c.intraday }

// start is the first point of date d a search looks at.
func (c *Calendar) start(d Date) Point {
	if c.intraday {
		return Point{Date: d, Minute: int(c.first)}
	}
	return DatePoint(d)
}

// IsDealingPoint says whether p is a dealing date of a calendar of dates, or a dealing
// point of an Intraday one.
func (c *Calendar) IsDealingPoint(p Point) bool {
	if !c.intraday {
		return !p.Timed() && c.IsDealingDate(p.Date)
	}
	m := clock(p.Minute)
	return p.Timed() && c.IsBusinessDay(p.Date) && m >= c.first && m <= c.last && (m-c.first)%c.interval == 0
}

// IsDealingDate says whether d is a dealing date (for an Intraday calendar: a date with
// dealing points, a business day).
func (c *Calendar) IsDealingDate(d Date) bool {
	if !c.IsBusinessDay(d) {
		return false
	}
	switch c.terms.Frequency {
	case investv1.DealingDaily, investv1.DealingIntraday:
		return true
	case investv1.DealingWeekly:
		// d is the first business day on or after the week's scheduled weekday: every day
		// from that weekday up to d is not a business day.
		back := (int(d.Weekday()) - int(c.weekday) + 7) % 7
		for w := d - Date(back); w < d; w++ {
			if c.IsBusinessDay(w) {
				return false
			}
		}
		return true
	case investv1.DealingMonthly, investv1.DealingQuarterly:
		y, m, _ := d.YMD()
		if c.terms.Frequency == investv1.DealingQuarterly && (int(m)-1)%3 != c.monthOfQuarter-1 {
			return false
		}
		rd, ok := c.monthDealingDate(y, m)
		return ok && rd == d
	}
	return false
}

// monthDealingDate is the dealing date of a monthly rule in month m of year y; false when
// the month has no business day.
func (c *Calendar) monthDealingDate(y int, m time.Month) (Date, bool) {
	first := DateOf(y, m, 1)
	last := DateOf(y, m+1, 1) - 1
	switch c.terms.DayRule {
	case investv1.DayRuleFirstBusinessDay:
		return c.firstBusinessDay(first, last)
	case investv1.DayRuleLastBusinessDay:
		return c.lastBusinessDay(first, last)
	case investv1.DayRuleDayOfMonth:
		day := min(first+Date(c.terms.DayOfMonth)-1, last)
		if d, ok := c.firstBusinessDay(day, last); ok {
			return d, true
		}
		return c.lastBusinessDay(first, day)
	}
	return 0, false
}

func (c *Calendar) firstBusinessDay(from, to Date) (Date, bool) {
	for d := from; d <= to; d++ {
		if c.IsBusinessDay(d) {
			return d, true
		}
	}
	return 0, false
}

func (c *Calendar) lastBusinessDay(from, to Date) (Date, bool) {
	for d := to; d >= from; d-- {
		if c.IsBusinessDay(d) {
			return d, true
		}
	}
	return 0, false
}

// Dealing is what follows from dealing date d: its cut-offs, valuation point, NAV
// publication and settlement dates. d should be a dealing date of a calendar of dates.
func (c *Calendar) Dealing(d Date) (Dealing, error) { return c.DealingAt(DatePoint(d)) }

// DealingAt is what follows from dealing point p (a dealing date, or an intraday dealing
// point): its cut-offs, valuation point, NAV publication and settlement dates. p should
// be a dealing point of the calendar (IsDealingPoint). An intraday dealing point is its
// own valuation point; its cut-offs are minutesBefore it; its NAV publication and
// settlement dates count business days from its date.
func (c *Calendar) DealingAt(p Point) (Dealing, error) {
	d := p.Date
	out := Dealing{Point: p}
	var err error
	if p.Timed() {
		at := LocalInstant(d, p.Minute/60, p.Minute%60, c.loc)
		out.ValuationPoint = at
		out.SubscriptionCutOff = at.Add(-time.Duration(c.subMinutes) * time.Minute)
		out.RedemptionCutOff = at.Add(-time.Duration(c.redMinutes) * time.Minute)
		if out.NAVPublicationDate, err = c.AddBusinessDays(d, int(c.terms.NAVPublicationLag)); err != nil {
			return Dealing{}, err
		}
		if out.SettlementDate, err = c.AddBusinessDays(d, int(c.terms.SettlementPeriod)); err != nil {
			return Dealing{}, err
		}
		return out, nil
	}
	if out.SubscriptionCutOff, err = c.cutOffInstant(d, c.sub); err != nil {
		return Dealing{}, err
	}
	if out.RedemptionCutOff, err = c.cutOffInstant(d, c.red); err != nil {
		return Dealing{}, err
	}
	if c.hasValuation {
		out.ValuationPoint = LocalInstant(d, int(c.valuation/60), int(c.valuation%60), c.loc)
	} else {
		out.ValuationPoint = LocalInstant(d+1, 0, 0, c.loc)
	}
	if out.NAVPublicationDate, err = c.AddBusinessDays(d, int(c.terms.NAVPublicationLag)); err != nil {
		return Dealing{}, err
	}
	if out.SettlementDate, err = c.AddBusinessDays(d, int(c.terms.SettlementPeriod)); err != nil {
		return Dealing{}, err
	}
	return out, nil
}

func (c *Calendar) cutOffInstant(d Date, co cutOff) (time.Time, error) {
	day, err := c.AddBusinessDays(d, -co.daysBefore)
	if err != nil {
		return time.Time{}, err
	}
	return LocalInstant(day, int(co.at/60), int(co.at%60), c.loc), nil
}

// nextDealing is the first dealing at or after point from (a date: every dealing of that
// date and later) for which keep is true.
func (c *Calendar) nextDealing(from Point, keep func(Dealing) bool) (Dealing, error) {
	for d, end := from.Date, from.Date+Horizon; d < end; d++ {
		if !c.IsDealingDate(d) {
			continue
		}
		if !c.intraday {
			dl, err := c.Dealing(d)
			if err != nil {
				return Dealing{}, err
			}
			if keep(dl) {
				return dl, nil
			}
			continue
		}
		m := c.first
		if d == from.Date && clock(from.Minute) > m {
			// The first point at or after from's time.
			m += (clock(from.Minute) - m + c.interval - 1) / c.interval * c.interval
		}
		for ; m <= c.last; m += c.interval {
			dl, err := c.DealingAt(Point{Date: d, Minute: int(m)})
			if err != nil {
				return Dealing{}, err
			}
			if keep(dl) {
				return dl, nil
			}
		}
	}
	return Dealing{}, ErrNoDealingDate
}

// searchFrom is where a search for a dealing whose cut-off is after instant at starts, at
// date d or later. A cut-off is at or before its dealing point, so an intraday search
// skips the points of at's local date before at's local time (two hours before it, the
// widest daylight saving shift, when the zone's offset changes near at): a day of
// two-minute points is not computed point by point for every order placed.
func (c *Calendar) searchFrom(at time.Time, d Date) Point {
	if !c.intraday {
		return c.start(d)
	}
	local := at.In(c.loc)
	today := DateOf(local.Date())
	m := local.Hour()*60 + local.Minute()
	_, now := local.Zone()
	_, earlier := at.Add(-3 * time.Hour).In(c.loc).Zone()
	_, later := at.Add(26 * time.Hour).In(c.loc).Zone()
	if now != earlier || now != later {
		m -= 120 // a daylight saving change near at: local times are not in order
	}
	if d > today || m < 0 {
		return c.start(d)
	}
	// Every point of an earlier date, and of today before at's local time (two hours
	// before it near a daylight saving change), is before at, and so is its cut-off.
	return Point{Date: today, Minute: m}
}

// successor is the first point after p a search looks at.
func (c *Calendar) successor(p Point) Point {
	if c.intraday && p.Timed() {
		return Point{Date: p.Date, Minute: p.Minute + 1}
	}
	return c.start(p.Date + 1)
}

// After is the first dealing after point p (the next dealing date or point, whatever its
// cut-offs).
func (c *Calendar) After(p Point) (Dealing, error) {
	return c.nextDealing(c.successor(p), func(Dealing) bool { return true })
}

// Next is the next n open dealings at instant at: the first n dealing dates (or intraday
// dealing points), earliest first, at least one of whose cut-offs is still ahead
// (strictly after at).
func (c *Calendar) Next(at time.Time, n int) ([]Dealing, error) {
	out := make([]Dealing, 0, n)
	// A dealing whose cut-off is ahead is on or after the local date of at; a day earlier
	// is searched too, for a zone whose clocks go back across midnight.
	from := c.searchFrom(at, LocalDate(at, c.loc)-1)
	for len(out) < n {
		dl, err := c.nextDealing(from, func(dl Dealing) bool { return dl.LastCutOff().After(at) })
		if err != nil {
			return out, err
		}
		out = append(out, dl)
		from = c.successor(dl.Point)
	}
	return out, nil
}

// DealingDateFor is the dealing an order of side received at receivedAt deals at: the
// first dealing date whose cut-off for side is still ahead (receivedAt strictly before
// it), and for a SELL also at least redemptionNoticeDays calendar days after the local
// date of receivedAt.
func (c *Calendar) DealingDateFor(side Side, receivedAt time.Time) (Dealing, error) {
	received := LocalDate(receivedAt, c.loc)
	earliest := received - 1
	if side == investv1.SideSell {
		earliest = received + Date(c.terms.RedemptionNoticeDays)
	}
	return c.nextDealing(c.searchFrom(receivedAt, earliest), func(dl Dealing) bool { return dl.CutOff(side).After(receivedAt) })
}

// Next is Calendar.Next for terms.
func Next(terms *investv1.DealingTerms, at time.Time, n int) ([]Dealing, error) {
	c, err := New(terms)
	if err != nil {
		return nil, err
	}
	return c.Next(at, n)
}

// DealingDateFor is Calendar.DealingDateFor for terms.
func DealingDateFor(terms *investv1.DealingTerms, side Side, receivedAt time.Time) (Dealing, error) {
	c, err := New(terms)
	if err != nil {
		return Dealing{}, err
	}
	return c.DealingDateFor(side, receivedAt)
}

// LocalInstant is the instant of the local time hour:minute on date d in loc. A local
// time that occurs twice (the clocks go back) is its first occurrence; one that does not
// occur (the clocks go forward) is the instant the clocks jump over it, the first instant
// whose local time is later.
func LocalInstant(d Date, hour, minute int, loc *time.Location) time.Time {
	wall := int64(d)*secondsPerDay + int64(hour)*3600 + int64(minute)*60 // as if UTC
	// The offsets in force a day before and a day after: transitions are months apart.
	_, before := time.Unix(wall-secondsPerDay, 0).In(loc).Zone()
	_, after := time.Unix(wall+secondsPerDay, 0).In(loc).Zone()
	var found []int64
	for _, off := range []int{before, after} {
		u := wall - int64(off)
		if localWall(u, loc) == wall {
			found = append(found, u)
		}
	}
	switch {
	case len(found) == 2:
		return time.Unix(min(found[0], found[1]), 0)
	case len(found) == 1:
		return time.Unix(found[0], 0)
	}
	// A gap: the first instant whose local time is at or after wall lies between the two
	// readings; local time only jumps forward inside a gap, so bisect on it.
	lo, hi := wall-int64(max(before, after)), wall-int64(min(before, after))
	if lo > hi {
		lo, hi = hi, lo
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if localWall(mid, loc) >= wall {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return time.Unix(lo, 0)
}

// localWall is instant u's local date and time in loc, in seconds as if it were UTC.
func localWall(u int64, loc *time.Location) int64 {
	_, off := time.Unix(u, 0).In(loc).Zone()
	return u + int64(off)
}

// NextCount is how many dealing dates the REST facade and status.dealing.next show.
const NextCount = 3
