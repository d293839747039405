package dealing

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Validate checks dealing terms at path (spec.dealing when nil): what the CRD's schema and
// CEL rules check, for terms built in Go, and what they cannot check: that the time zone is
// one the IANA database knows (admission calls it on every ShareClass).
func Validate(t *investv1.DealingTerms, path *field.Path) field.ErrorList {
	if path == nil {
		path = field.NewPath("spec", "dealing")
	}
	var errs field.ErrorList
	switch t.Pricing {
	case "", investv1.PricingLatest, investv1.PricingForward:
	default:
		errs = append(errs, field.NotSupported(path.Child("pricing"), t.Pricing, []string{string(investv1.PricingLatest), string(investv1.PricingForward)}))
	}
	if t.TimeZone == "" {
		errs = append(errs, field.Required(path.Child("timeZone"), "an IANA time zone name, e.g. Europe/Luxembourg"))
	} else if _, err := location(t.TimeZone); err != nil || t.TimeZone == "Local" {
		errs = append(errs, field.Invalid(path.Child("timeZone"), t.TimeZone, "not an IANA time zone name (e.g. Europe/Luxembourg, America/New_York, UTC)"))
	}
	weekly := t.Frequency == investv1.DealingWeekly
	monthly := t.Frequency == investv1.DealingMonthly || t.Frequency == investv1.DealingQuarterly
	intraday := t.Frequency == investv1.DealingIntraday
	switch t.Frequency {
	case investv1.DealingIntraday, investv1.DealingDaily, investv1.DealingWeekly, investv1.DealingMonthly, investv1.DealingQuarterly:
	default:
		errs = append(errs, field.NotSupported(path.Child("frequency"), t.Frequency, []string{"Intraday", "Daily", "Weekly", "Monthly", "Quarterly"}))
	}
	errs = append(errs, validateIntraday(t, intraday, path)...)
	switch {
	case weekly && t.Weekday == "":
		errs = append(errs, field.Required(path.Child("weekday"), "weekday is required when frequency is Weekly"))
	case !weekly && t.Weekday != "":
		errs = append(errs, field.Forbidden(path.Child("weekday"), "weekday is allowed only when frequency is Weekly"))
	case weekly:
		if _, ok := weekdays[t.Weekday]; !ok {
			errs = append(errs, field.Invalid(path.Child("weekday"), t.Weekday, "not a weekday (Monday to Sunday)"))
		}
	}
	switch {
	case monthly && t.DayRule == "":
		errs = append(errs, field.Required(path.Child("dayRule"), "dayRule is required when frequency is Monthly or Quarterly"))
	case !monthly && t.DayRule != "":
		errs = append(errs, field.Forbidden(path.Child("dayRule"), "dayRule is allowed only when frequency is Monthly or Quarterly"))
	}
	switch t.DayRule {
	case "", investv1.DayRuleFirstBusinessDay, investv1.DayRuleLastBusinessDay, investv1.DayRuleDayOfMonth:
	default:
		errs = append(errs, field.NotSupported(path.Child("dayRule"), t.DayRule, []string{"DayOfMonth", "FirstBusinessDay", "LastBusinessDay"}))
	}
	switch {
	case t.DayRule == investv1.DayRuleDayOfMonth && (t.DayOfMonth < 1 || t.DayOfMonth > 31):
		errs = append(errs, field.Invalid(path.Child("dayOfMonth"), t.DayOfMonth, "dayOfMonth (1 to 31) is required when dayRule is DayOfMonth"))
	case t.DayRule != investv1.DayRuleDayOfMonth && t.DayOfMonth != 0:
		errs = append(errs, field.Forbidden(path.Child("dayOfMonth"), "dayOfMonth is allowed only when dayRule is DayOfMonth"))
	}
	if t.MonthOfQuarter != 0 && (t.Frequency != investv1.DealingQuarterly || t.MonthOfQuarter < 1 || t.MonthOfQuarter > 3) {
		errs = append(errs, field.Invalid(path.Child("monthOfQuarter"), t.MonthOfQuarter, "1 to 3, and only when frequency is Quarterly"))
	}
	seen := map[investv1.Weekday]bool{}
	for i, d := range t.BusinessDays {
		if _, ok := weekdays[d]; !ok || seen[d] {
			errs = append(errs, field.Invalid(path.Child("businessDays").Index(i), d, "a weekday (Monday to Sunday), each at most once"))
		}
		seen[d] = true
	}
	for i, h := range t.Holidays {
		if _, err := ParseDate(h); err != nil {
			errs = append(errs, field.Invalid(path.Child("holidays").Index(i), h, err.Error()))
		}
	}
	var valuation clock = -1
	if intraday && t.ValuationTime != "" {
		errs = append(errs, field.Forbidden(path.Child("valuationTime"), "valuationTime is not allowed when frequency is Intraday: each dealing point is its own valuation point"))
	} else if t.ValuationTime != "" {
		v, err := parseClock(t.ValuationTime)
		if err != nil {
			errs = append(errs, field.Invalid(path.Child("valuationTime"), t.ValuationTime, err.Error()))
		}
		valuation = v
	}
	for _, co := range []struct {
		name string
		c    investv1.CutOff
	}{{"subscriptionCutOff", t.SubscriptionCutOff}, {"redemptionCutOff", t.RedemptionCutOff}} {
		p := path.Child(co.name)
		if intraday {
			if co.c.Time != "" || co.c.BusinessDaysBefore != 0 {
				errs = append(errs, field.Forbidden(p, "an Intraday cut-off is minutesBefore each dealing point (no time or businessDaysBefore)"))
			}
			if co.c.MinutesBefore < 0 || co.c.MinutesBefore > 1440 {
				errs = append(errs, field.Invalid(p.Child("minutesBefore"), co.c.MinutesBefore, "0 to 1440"))
			}
			continue
		}
		if co.c.MinutesBefore != 0 {
			errs = append(errs, field.Forbidden(p.Child("minutesBefore"), "minutesBefore is allowed only when frequency is Intraday"))
		}
		at, err := parseClock(co.c.Time)
		if err != nil {
			errs = append(errs, field.Invalid(p.Child("time"), co.c.Time, err.Error()))
		}
		if co.c.BusinessDaysBefore < 0 || co.c.BusinessDaysBefore > 60 {
			errs = append(errs, field.Invalid(p.Child("businessDaysBefore"), co.c.BusinessDaysBefore, "0 to 60"))
		}
		if err == nil && valuation >= 0 && co.c.BusinessDaysBefore == 0 && at >= valuation {
			errs = append(errs, field.Invalid(p, co.c.Time, "a cut-off on the dealing date must be before the valuation time"))
		}
	}
	for _, n := range []struct {
		name  string
		value int32
		max   int32
	}{{"navPublicationLag", t.NAVPublicationLag, 60}, {"settlementPeriod", t.SettlementPeriod, 60}, {"redemptionNoticeDays", t.RedemptionNoticeDays, 3660}, {"unitDecimals", t.UnitDecimals, 18}} {
		if n.value < 0 || n.value > n.max {
			errs = append(errs, field.Invalid(path.Child(n.name), n.value, "0 to "+strconv.Itoa(int(n.max))))
		}
	}
	return errs
}

// validateIntraday checks the fields of an Intraday calendar: an interval that divides a
// day, and the first and last dealing times of a business day.
func validateIntraday(t *investv1.DealingTerms, intraday bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !intraday {
		for _, f := range []struct {
			name string
			set  bool
		}{{"intervalMinutes", t.IntervalMinutes != 0}, {"firstDealingTime", t.FirstDealingTime != ""}, {"lastDealingTime", t.LastDealingTime != ""}} {
			if f.set {
				errs = append(errs, field.Forbidden(path.Child(f.name), f.name+" is allowed only when frequency is Intraday"))
			}
		}
		return errs
	}
	if t.IntervalMinutes < 1 || t.IntervalMinutes > 720 || 1440%t.IntervalMinutes != 0 {
		errs = append(errs, field.Invalid(path.Child("intervalMinutes"), t.IntervalMinutes,
			"intervalMinutes (1 to 720, dividing a day's 1,440 minutes) is required when frequency is Intraday"))
	}
	first, last := clock(0), clock(24*60-1)
	var err error
	if t.FirstDealingTime != "" {
		if first, err = parseClock(t.FirstDealingTime); err != nil {
			errs = append(errs, field.Invalid(path.Child("firstDealingTime"), t.FirstDealingTime, err.Error()))
		}
	}
	if t.LastDealingTime != "" {
		if last, err = parseClock(t.LastDealingTime); err != nil {
			errs = append(errs, field.Invalid(path.Child("lastDealingTime"), t.LastDealingTime, err.Error()))
		}
	}
	if first > last {
		errs = append(errs, field.Invalid(path.Child("lastDealingTime"), t.LastDealingTime, "firstDealingTime must not be after lastDealingTime"))
	}
	return errs
}
