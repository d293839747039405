package validation

import (
	"testing"
)

var validISINs = []string{
	"US0378331005", // Apple Inc.
	"US5949181045", // Microsoft Corp.
	"DE000BAY0017", // Bayer AG
	"IE00B4L5Y983", // iShares Core MSCI World UCITS ETF
	"LU0274208692", // Xtrackers MSCI World Swap UCITS ETF
	"AU0000XVGZA3", // example from ISO 6166 material
	"GB0002634946", // BAE Systems
}

func TestValidateISIN(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"Apple", "US0378331005", nil},
		{"Bayer", "DE000BAY0017", nil},
		{"iShares", "IE00B4L5Y983", nil},
		{"Xtrackers", "LU0274208692", nil},
		{"check digit changed", "US0378331006", errISINCheck},
		{"body digit changed", "US0378331105", errISINCheck},
		{"body letter changed", "DE000BAZ0017", errISINCheck},
		{"check digit changed 2", "IE00B4L5Y984", errISINCheck},
		{"body digit changed 2", "LU0274208682", errISINCheck},
		{"empty", "", errISINLength},
		{"too short", "US037833100", errISINLength},
		{"too long", "US03783310050", errISINLength},
		{"lowercase", "us0378331005", errISINFormat},
		{"digit in prefix", "U10378331005", errISINFormat},
		{"letter check digit", "US037833100A", errISINFormat},
		{"punctuation", "US03783-1005", errISINFormat},
		{"non-ASCII (12 bytes)", "US03783310\u00e9", errISINFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateISIN(tt.in); err != tt.err {
				t.Fatalf("ValidateISIN(%q) = %v, want %v", tt.in, err, tt.err)
			}
		})
	}
}

func TestValidateISINDetectsDigitCorruptions(t *testing.T) {
	for _, isin := range validISINs {
		if err := ValidateISIN(isin); err != nil {
			t.Errorf("ValidateISIN(%s) = %v", isin, err)
			continue
		}
		for i := 2; i < len(isin); i++ {
			if !isDigit(isin[i]) {
				continue
			}
			for d := byte('0'); d <= '9'; d++ {
				if d == isin[i] {
					continue
				}
				bad := isin[:i] + string(d) + isin[i+1:]
				if err := ValidateISIN(bad); err != errISINCheck {
					t.Errorf("ValidateISIN(%s) = %v, want check digit error", bad, err)
				}
			}
		}
	}
}

func TestISINCheckDigit(t *testing.T) {
	for _, isin := range validISINs {
		d, err := ISINCheckDigit(isin[:11])
		if err != nil || d != isin[11] {
			t.Errorf("ISINCheckDigit(%s) = %q, %v; want %q", isin[:11], d, err, isin[11])
		}
	}
	// Generated fixtures validate.
	for _, first11 := range []string{"XS000000000", "DEFUNDSHARE", "EU000A1G0AB"} {
		d, err := ISINCheckDigit(first11)
		if err != nil {
			t.Fatalf("ISINCheckDigit(%s): %v", first11, err)
		}
		if err := ValidateISIN(first11 + string(d)); err != nil {
			t.Errorf("generated %s%c: %v", first11, d, err)
		}
	}
	for _, bad := range []string{"", "US03783310", "US0378331005", "us037833100", "1S037833100", "US03783310-"} {
		if _, err := ISINCheckDigit(bad); err == nil {
			t.Errorf("ISINCheckDigit(%q) succeeded", bad)
		}
	}
}

var validLEIs = []string{
	"5493001KJTIIGC8Y1R12",
	"529900T8BM49AURSDO55",
	"7LTWFZYICNSX8D621K86",
}

func TestValidateLEI(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"valid 1", "5493001KJTIIGC8Y1R12", nil},
		{"valid 2", "529900T8BM49AURSDO55", nil},
		{"valid 3", "7LTWFZYICNSX8D621K86", nil},
		{"check digit changed", "5493001KJTIIGC8Y1R13", errLEICheck},
		{"body digit changed", "529900T8BM49AURSDO56", errLEICheck},
		{"body letter changed", "7LTWFZYICNSX8D621L86", errLEICheck},
		{"transposition", "5493001KJTIIGC8Y1R21", errLEICheck},
		{"empty", "", errLEILength},
		{"too short", "5493001KJTIIGC8Y1R1", errLEILength},
		{"too long", "5493001KJTIIGC8Y1R120", errLEILength},
		{"lowercase", "5493001kjtiigc8y1r12", errLEIChars},
		{"space", "5493001KJTIIGC8Y1 12", errLEIChars},
		{"letter check digits", "5493001KJTIIGC8Y1RAB", errLEICheckFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateLEI(tt.in); err != tt.err {
				t.Fatalf("ValidateLEI(%q) = %v, want %v", tt.in, err, tt.err)
			}
		})
	}
}

func TestValidateLEIDetectsSingleSubstitutions(t *testing.T) {
	for _, lei := range validLEIs {
		for i := 0; i < len(lei); i++ {
			alphabet := "0123456789"
			if isUpper(lei[i]) {
				alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			}
			for j := 0; j < len(alphabet); j++ {
				if alphabet[j] == lei[i] {
					continue
				}
				bad := lei[:i] + alphabet[j:j+1] + lei[i+1:]
				if ValidateLEI(bad) == nil {
					t.Errorf("ValidateLEI(%s) accepted a corruption of %s", bad, lei)
				}
			}
		}
	}
}

func TestLEICheckDigits(t *testing.T) {
	for _, lei := range validLEIs {
		cd, err := LEICheckDigits(lei[:18])
		if err != nil || cd != lei[18:] {
			t.Errorf("LEICheckDigits(%s) = %q, %v; want %q", lei[:18], cd, err, lei[18:])
		}
	}
	// Fixture generation, including a prefix whose check digits are < 10.
	sawSmall := false
	for i := 0; i < 200; i++ {
		first18 := "FUNDSHARE00000" + string(rune('A'+i%26)) + "0" + string(rune('0'+i/26%10)) + "X"
		cd, err := LEICheckDigits(first18)
		if err != nil {
			t.Fatalf("LEICheckDigits(%s): %v", first18, err)
		}
		if len(cd) != 2 || cd < "02" || cd > "98" {
			t.Fatalf("LEICheckDigits(%s) = %q", first18, cd)
		}
		sawSmall = sawSmall || cd[0] == '0'
		if err := ValidateLEI(first18 + cd); err != nil {
			t.Errorf("generated %s%s: %v", first18, cd, err)
		}
	}
	if !sawSmall {
		t.Log("no generated LEI had check digits below 10")
	}
	for _, bad := range []string{"", "5493001KJTIIGC8Y1", "5493001KJTIIGC8Y1R1", "5493001kjtiigc8y1r"} {
		if _, err := LEICheckDigits(bad); err == nil {
			t.Errorf("LEICheckDigits(%q) succeeded", bad)
		}
	}
}
