package validation

import (
	"errors"
	"time"
)

var (
	errDateFormat   = errors.New("must be a date in the form YYYY-MM-DD")
	errDateNotReal  = errors.New("is not a real calendar day")
	errDateTooEarly = errors.New("must not be before the year 1900")
	errDateNotPast  = errors.New("must be in the past")
)

// minBirthYear is the earliest accepted year of birth.
const minBirthYear = 1900

// ParseBirthdate parses a date of birth written exactly as an ISO 8601
// calendar date "YYYY-MM-DD" (no time, no zone, no surrounding spaces) and
// checks it with the rules of ValidateDateOfBirth. The result is midnight
// UTC of that day.
func ParseBirthdate(s string, now time.Time) (time.Time, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, errDateFormat
	}
	year, ok1 := atoiDigits(s[0:4])
	month, ok2 := atoiDigits(s[5:7])
	day, ok3 := atoiDigits(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, errDateFormat
	}
	if err := ValidateDateOfBirth(day, month, year, now); err != nil {
		return time.Time{}, err
	}
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), nil
}

// ValidateDateOfBirth checks a date of birth given as separate parts (as
// stored in dob_day, dob_month, dob_year): the combination must be a real
// day of the proleptic Gregorian calendar (no 31 February, 29 February only
// in leap years), the year must be 1900 or later, and the day must be
// strictly before the current UTC date of now.
func ValidateDateOfBirth(day, month, year int, now time.Time) error {
	if month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) {
		return errDateNotReal
	}
	if year < minBirthYear {
		return errDateTooEarly
	}
	ny, nm, nd := now.UTC().Date()
	if year > ny ||
		year == ny && month > int(nm) ||
		year == ny && month == int(nm) && day >= nd {
		return errDateNotPast
	}
	return nil
}

func daysInMonth(year, month int) int {
	switch month {
	case 2:
		if isLeapYear(year) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	default:
		return 31
	}
}

func isLeapYear(y int) bool {
	return y%4 == 0 && (y%100 != 0 || y%400 == 0)
}

// atoiDigits parses a short string made only of ASCII digits.
func atoiDigits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
