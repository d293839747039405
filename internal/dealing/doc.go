// Package dealing is the dealing calendar of a share class: from its dealing terms
// (ShareClass spec.dealing) and an instant it computes the next dealing dates, each with
// its subscription and redemption cut-off instants, its valuation point, the expected NAV
// publication date and the settlement date, and the dealing date an order received at a
// given instant deals at (DealingDateFor). It is pure: no I/O and no clock; every function
// takes the instant it reasons about. Dates are civil dates of the share class's time zone
// (Date, days since 1970-01-01), instants are time.Time; there is no floating point.
//
// The rules (docs/dealing.md, "Dealing terms and the calendar"):
//
//   - A business day is a day whose weekday is one of businessDays (default Monday to
//     Friday) and that is not in holidays.
//   - Daily: every business day is a dealing date.
//   - Weekly: the weekday; when it is not a business day, the next business day
//     (following). Two weeks whose weekdays both roll to the same day deal once.
//   - Monthly and Quarterly: FirstBusinessDay and LastBusinessDay are the month's first and
//     last business days; DayOfMonth is that day (the month's last day in shorter months),
//     and when it is not a business day the next business day of the same month, else the
//     previous one (modified following: the dealing date stays in its month). Quarterly
//     deals in the quarter's monthOfQuarter (default 3: March, June, September, December).
//     A month without a business day has no dealing date.
//   - A cut-off is a local time of day on the business day businessDaysBefore business
//     days before the dealing date. An order is on time when received strictly before it.
//   - The valuation point is the dealing date at valuationTime, or the end of the dealing
//     date (the next day's 00:00) without one. The NAV date is the dealing date; the NAV is
//     published navPublicationLag business days after it; settlement is T+settlementPeriod
//     business days.
//   - A SELL also needs its notice: its dealing date is at least redemptionNoticeDays
//     calendar days after the local date it was received.
//   - Local times honour the time zone's daylight saving time: a time that occurs twice
//     (clocks go back) is its first occurrence; a time that does not occur (clocks go
//     forward) is the instant the clocks jump, the first instant at or after it.
package dealing
