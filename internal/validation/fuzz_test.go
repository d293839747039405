package validation

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// checkMessage asserts the user-facing message invariants: short, valid
// UTF-8 and never echoing (long) input.
func checkMessage(t *testing.T, in string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if msg == "" || len(msg) > 120 || !utf8.ValidString(msg) {
		t.Fatalf("bad message %q for input %q", msg, in)
	}
	if len(in) >= 12 && strings.Contains(msg, in) {
		t.Fatalf("message %q echoes input %q", msg, in)
	}
}

func FuzzValidateIBAN(f *testing.F) {
	for _, s := range validIBANs {
		f.Add(s)
	}
	for _, s := range []string{
		"", "D", "DE", "de89 3704 0044 0532 0130 00", "DE88370400440532013000",
		"XX89370400440532013000", "DE8937040044053201300", "DEAB370400440532013000",
		"DE00370400440532013000", "DE\xff89", "FR14\u00a02004", "\u0130\u0131",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMessage(t, s, ValidateIBAN(s))
		n := NormalizeIBAN(s)
		if NormalizeIBAN(n) != n {
			t.Fatalf("NormalizeIBAN not idempotent: %q -> %q -> %q", s, n, NormalizeIBAN(n))
		}
		err := ValidateIBAN(n)
		checkMessage(t, n, err)
		if err != nil {
			return
		}
		if len(n) != ibanLengths[n[:2]] || Mod97(n[4:], n[:4]) != 1 {
			t.Fatalf("accepted invalid IBAN %q", n)
		}
		for i := 0; i < len(n); i++ {
			if !isUpperAlnum(n[i]) {
				t.Fatalf("accepted IBAN with bad byte %q", n)
			}
		}
		// Rebuilding the check digits from the BBAN gives the same IBAN.
		if makeIBAN(n[:2], n[4:]) != n {
			t.Fatalf("check digits of %q are not canonical", n)
		}
	})
}

func FuzzNormalizeEVMAddress(f *testing.F) {
	for _, s := range eip55Vectors {
		f.Add(s)
		f.Add(strings.ToLower(s))
	}
	for _, s := range []string{
		"", "0x", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
		"0x0000000000000000000000000000000000000000", "0x\u00e9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := NormalizeEVMAddress(s)
		checkMessage(t, s, err)
		if err != nil {
			if c != "" {
				t.Fatalf("non-empty result %q with error", c)
			}
			return
		}
		if len(c) != 42 || !strings.EqualFold(c, s) {
			t.Fatalf("canonical %q does not match input %q", c, s)
		}
		// The canonical form is valid and a fixed point, and every accepted
		// spelling (lower, upper) maps to it.
		for _, variant := range []string{c, EVMAddressKey(c), "0x" + strings.ToUpper(c[2:])} {
			c2, err := NormalizeEVMAddress(variant)
			if err != nil || c2 != c {
				t.Fatalf("NormalizeEVMAddress(%q) = %q, %v; want %q", variant, c2, err, c)
			}
		}
		if EVMAddressKey(c) != strings.ToLower(s) {
			t.Fatalf("key of %q is %q", s, EVMAddressKey(c))
		}
	})
}

func FuzzValidateISIN(f *testing.F) {
	for _, s := range validISINs {
		f.Add(s)
	}
	for _, s := range []string{"", "US0378331006", "us0378331005", "US037833100A", "US03783310\u00e9", "XS0000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateISIN(s)
		checkMessage(t, s, err)
		if len(s) < 11 {
			return
		}
		d, derr := ISINCheckDigit(s[:11])
		checkMessage(t, s[:11], derr)
		if err == nil && (derr != nil || d != s[11]) {
			t.Fatalf("valid ISIN %q but ISINCheckDigit = %q, %v", s, d, derr)
		}
		if derr == nil {
			if d < '0' || d > '9' {
				t.Fatalf("ISINCheckDigit(%q) = %q", s[:11], d)
			}
			if e := ValidateISIN(s[:11] + string(d)); e != nil {
				t.Fatalf("generated ISIN %q%c invalid: %v", s[:11], d, e)
			}
		}
	})
}

func FuzzValidateLEI(f *testing.F) {
	for _, s := range validLEIs {
		f.Add(s)
	}
	for _, s := range []string{"", "5493001KJTIIGC8Y1R13", "5493001kjtiigc8y1r12", "5493001KJTIIGC8Y1RAB", "00000000000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateLEI(s)
		checkMessage(t, s, err)
		if len(s) < 18 {
			return
		}
		cd, cerr := LEICheckDigits(s[:18])
		checkMessage(t, s[:18], cerr)
		if err == nil && (cerr != nil || cd != s[18:]) {
			t.Fatalf("valid LEI %q but LEICheckDigits = %q, %v", s, cd, cerr)
		}
		if cerr == nil {
			if e := ValidateLEI(s[:18] + cd); e != nil {
				t.Fatalf("generated LEI %q%s invalid: %v", s[:18], cd, e)
			}
		}
	})
}

func FuzzParseBirthdate(f *testing.F) {
	for _, s := range []string{
		"1990-01-31", "2000-02-29", "1900-02-29", "1990-02-31", "1899-12-31",
		"2025-06-15", "2025-06-14", "", "1990-1-31", "1990-01-31T00:00:00Z",
		"+990-01-31", "-001-01-01", "9999-12-31", "0000-00-00",
	} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, offset int64) {
		// now ranges over roughly +/- 30 years around testNow.
		now := testNow.Add(time.Duration(offset%(30*365*24)) * time.Hour)
		got, err := ParseBirthdate(s, now)
		checkMessage(t, s, err)

		// Cross-check with the standard library's strict date parser.
		ref, rerr := time.Parse(time.DateOnly, s)
		ny, nm, nd := now.UTC().Date()
		today := time.Date(ny, nm, nd, 0, 0, 0, 0, time.UTC)
		wantOK := rerr == nil && ref.Year() >= minBirthYear && ref.Before(today)
		if (err == nil) != wantOK {
			t.Fatalf("ParseBirthdate(%q, %v) = %v, %v; time.Parse = %v, %v", s, now, got, err, ref, rerr)
		}
		if err != nil {
			return
		}
		if !got.Equal(ref) || got.Format(time.DateOnly) != s {
			t.Fatalf("ParseBirthdate(%q) = %v, want %v", s, got, ref)
		}
		// Idempotent: formatting and re-parsing yields the same day, and
		// the stored parts pass ValidateDateOfBirth.
		again, err := ParseBirthdate(got.Format(time.DateOnly), now)
		if err != nil || !again.Equal(got) {
			t.Fatalf("re-parse of %q: %v, %v", s, again, err)
		}
		if err := ValidateDateOfBirth(got.Day(), int(got.Month()), got.Year(), now); err != nil {
			t.Fatalf("ValidateDateOfBirth parts of %q: %v", s, err)
		}
	})
}

// FuzzNormalFormsAreIdempotent: every normaliser of the package maps any byte string to
// a normal form that it maps to itself, so storing a normalised value and normalising it
// again (a retry, an admission webhook after REST) never changes it.
func FuzzNormalFormsAreIdempotent(f *testing.F) {
	for _, s := range []string{
		"", "de89 3704 0044 0532 0130 00", "\xc2  \xa0", "\xc2\xa0", "\xff", "a\u00a0b", "\u2028",
		"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED",
		"\u0130\u0131", "\u212a", "\xe2\x80", "0x\u00e9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := NormalizeIBAN(s); NormalizeIBAN(n) != n {
			t.Fatalf("NormalizeIBAN not idempotent: %q -> %q -> %q", s, n, NormalizeIBAN(n))
		} else if !utf8.ValidString(n) {
			t.Fatalf("NormalizeIBAN(%q) = %q is not valid UTF-8", s, n)
		}
		if c, err := NormalizeEVMAddress(s); err == nil {
			if c2, err := NormalizeEVMAddress(c); err != nil || c2 != c {
				t.Fatalf("NormalizeEVMAddress not idempotent: %q -> %q -> %q, %v", s, c, c2, err)
			}
		}
		if k := EVMAddressKey(s); EVMAddressKey(k) != k {
			t.Fatalf("EVMAddressKey not idempotent: %q -> %q -> %q", s, k, EVMAddressKey(k))
		}
	})
}
