package validation

import (
	"testing"
	"time"
)

var testNow = time.Date(2025, time.June, 15, 10, 0, 0, 0, time.UTC)

func TestParseBirthdate(t *testing.T) {
	tests := []struct {
		name string
		in   string
		now  time.Time
		err  error
	}{
		{"ordinary", "1990-01-31", testNow, nil},
		{"leap day 2000", "2000-02-29", testNow, nil},
		{"leap day 2024", "2024-02-29", testNow, nil},
		{"first accepted year", "1900-01-01", testNow, nil},
		{"yesterday", "2025-06-14", testNow, nil},
		{"31 February", "1990-02-31", testNow, errDateNotReal},
		{"30 February", "2000-02-30", testNow, errDateNotReal},
		{"29 February 1900", "1900-02-29", testNow, errDateNotReal},
		{"29 February 2023", "2023-02-29", testNow, errDateNotReal},
		{"31 April", "1990-04-31", testNow, errDateNotReal},
		{"month 13", "1990-13-01", testNow, errDateNotReal},
		{"month 00", "1990-00-10", testNow, errDateNotReal},
		{"day 00", "1990-01-00", testNow, errDateNotReal},
		{"day 32", "1990-01-32", testNow, errDateNotReal},
		{"before 1900", "1899-12-31", testNow, errDateTooEarly},
		{"year 0000", "0000-01-01", testNow, errDateTooEarly},
		{"today", "2025-06-15", testNow, errDateNotPast},
		{"tomorrow", "2025-06-16", testNow, errDateNotPast},
		{"future year", "2030-01-01", testNow, errDateNotPast},
		{"later this year", "2025-12-01", testNow, errDateNotPast},
		// now is 2025-06-15 01:00 at UTC+3, i.e. 2025-06-14 22:00 UTC.
		{"UTC date used: today in UTC", "2025-06-14", time.Date(2025, 6, 15, 1, 0, 0, 0, time.FixedZone("UTC+3", 3*3600)), errDateNotPast},
		{"UTC date used: yesterday in UTC", "2025-06-13", time.Date(2025, 6, 15, 1, 0, 0, 0, time.FixedZone("UTC+3", 3*3600)), nil},
		{"empty", "", testNow, errDateFormat},
		{"single-digit month", "1990-1-31", testNow, errDateFormat},
		{"basic format", "19900131", testNow, errDateFormat},
		{"slashes", "1990/01/31", testNow, errDateFormat},
		{"with time", "1990-01-31T00:00:00Z", testNow, errDateFormat},
		{"leading space", " 1990-01-31", testNow, errDateFormat},
		{"trailing space", "1990-01-3 ", testNow, errDateFormat},
		{"letter", "199a-01-31", testNow, errDateFormat},
		{"sign", "+990-01-31", testNow, errDateFormat},
		{"negative month", "1990--1-31", testNow, errDateFormat},
		{"day-month-year", "31-01-1990", testNow, errDateFormat},
		{"fullwidth digit", "1990-01-3\uff11", testNow, errDateFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseBirthdate(tt.in, tt.now)
			if err != tt.err {
				t.Fatalf("ParseBirthdate(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if err == nil {
				if s := got.Format(time.DateOnly); s != tt.in || got.Location() != time.UTC || got.Hour() != 0 {
					t.Fatalf("ParseBirthdate(%q) = %v", tt.in, got)
				}
			} else if !got.IsZero() {
				t.Fatalf("ParseBirthdate(%q) returned %v with an error", tt.in, got)
			}
		})
	}
}

func TestValidateDateOfBirth(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	tests := []struct {
		name             string
		day, month, year int
		err              error
	}{
		{"ordinary", 31, 1, 1990, nil},
		{"leap day", 29, 2, 2000, nil},
		{"31 February", 31, 2, 1990, errDateNotReal},
		{"29 February non-leap", 29, 2, 2023, errDateNotReal},
		{"29 February 2100-rule", 29, 2, 1900, errDateNotReal},
		{"31 June", 31, 6, 1990, errDateNotReal},
		{"day 0", 0, 1, 1990, errDateNotReal},
		{"negative day", -1, 1, 1990, errDateNotReal},
		{"month 0", 1, 0, 1990, errDateNotReal},
		{"month 13", 1, 13, 1990, errDateNotReal},
		{"huge month", 1, maxInt, 1990, errDateNotReal},
		{"before 1900", 31, 12, 1899, errDateTooEarly},
		{"year 0", 1, 1, 0, errDateTooEarly},
		{"negative year", 1, 1, -5, errDateTooEarly},
		{"today", 15, 6, 2025, errDateNotPast},
		{"yesterday", 14, 6, 2025, nil},
		{"last month", 30, 5, 2025, nil},
		{"next month", 1, 7, 2025, errDateNotPast},
		{"huge year", 1, 1, maxInt, errDateNotPast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateDateOfBirth(tt.day, tt.month, tt.year, testNow); err != tt.err {
				t.Fatalf("ValidateDateOfBirth(%d, %d, %d) = %v, want %v", tt.day, tt.month, tt.year, err, tt.err)
			}
		})
	}
}

func TestValidateDateOfBirthAgreesWithTimePackage(t *testing.T) {
	// Every day 1..31 of every month of a range of years: our calendar must
	// agree with time.Date normalisation.
	for year := 1896; year <= 2026; year++ {
		for month := 1; month <= 12; month++ {
			for day := 1; day <= 31; day++ {
				d := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
				real := d.Day() == day
				err := ValidateDateOfBirth(day, month, year, testNow)
				if real != (err != errDateNotReal) {
					t.Fatalf("%04d-%02d-%02d: real=%v err=%v", year, month, day, real, err)
				}
			}
		}
	}
}
