package validation

import (
	"strings"
	"testing"
)

func TestCodeTables(t *testing.T) {
	countries := strings.Fields(iso3166Alpha2)
	if len(countries) != 249 || len(countryCodes) != 249 {
		t.Errorf("ISO 3166-1 list has %d entries (%d distinct), want 249", len(countries), len(countryCodes))
	}
	for i, c := range countries {
		if !isUpperLetters(c, 2) || i > 0 && countries[i-1] >= c {
			t.Errorf("country list entry %q is malformed or out of order", c)
		}
	}
	currencies := strings.Fields(iso4217Active)
	if len(currencies) != len(currencyCodes) {
		t.Errorf("ISO 4217 list has duplicates")
	}
	for i, c := range currencies {
		if !isUpperLetters(c, 3) || i > 0 && currencies[i-1] >= c {
			t.Errorf("currency list entry %q is malformed or out of order", c)
		}
	}
	// Every IBAN country except XK is an assigned ISO 3166-1 code.
	for c := range ibanLengths {
		if err := ValidateCountryCode(c); err != nil && c != "XK" {
			t.Errorf("IBAN country %s: %v", c, err)
		}
	}
}

func TestValidateCountryCode(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"DE", nil},
		{"US", nil},
		{"GB", nil},
		{"AX", nil},
		{"SS", nil},
		{"ZW", nil},
		{"de", errCountryFormat},
		{"De", errCountryFormat},
		{"D", errCountryFormat},
		{"DEU", errCountryFormat},
		{"", errCountryFormat},
		{"D1", errCountryFormat},
		{"\u00c4", errCountryFormat},
		{"XK", errCountryUnknown},
		{"UK", errCountryUnknown},
		{"EU", errCountryUnknown},
		{"ZZ", errCountryUnknown},
		{"AN", errCountryUnknown},
	}
	for _, tt := range tests {
		if err := ValidateCountryCode(tt.in); err != tt.err {
			t.Errorf("ValidateCountryCode(%q) = %v, want %v", tt.in, err, tt.err)
		}
	}
}

func TestValidateCurrencyCode(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"EUR", nil},
		{"USD", nil},
		{"CHF", nil},
		{"GBP", nil},
		{"JPY", nil},
		{"XAU", nil},
		{"eur", errCurrencyFormat},
		{"Eur", errCurrencyFormat},
		{"EU", errCurrencyFormat},
		{"EURO", errCurrencyFormat},
		{"", errCurrencyFormat},
		{"E1R", errCurrencyFormat},
		{" EUR", errCurrencyFormat},
		{"ABC", errCurrencyUnknown},
		{"HRK", errCurrencyUnknown},
		{"DEM", errCurrencyUnknown},
		{"BTC", errCurrencyUnknown},
	}
	for _, tt := range tests {
		if err := ValidateCurrencyCode(tt.in); err != tt.err {
			t.Errorf("ValidateCurrencyCode(%q) = %v, want %v", tt.in, err, tt.err)
		}
	}
}

func TestIsLowercaseUUID(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"123e4567-e89b-12d3-a456-426614174000", true},
		{"00000000-0000-0000-0000-000000000000", true},
		{"f47ac10b-58cc-4372-a567-0e02b2c3d479", true},
		{"123E4567-E89B-12D3-A456-426614174000", false},
		{"123e4567-e89b-12d3-a456-42661417400", false},
		{"123e4567-e89b-12d3-a456-4266141740000", false},
		{"123e4567e89b12d3a456426614174000", false},
		{"{123e4567-e89b-12d3-a456-426614174000}", false},
		{"urn:uuid:123e4567-e89b-12d3-a456-426614174000", false},
		{"123e4567-e89b-12d3-a456_426614174000", false},
		{"123e4567-e89b-12d3-a4567426614174000", false},
		{"123e4567-e89b-12d3-a456-42661417400g", false},
		{"123e4567-e89b-12d3-a456-42661417400\u00e9"[:36], false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsLowercaseUUID(tt.in); got != tt.want {
			t.Errorf("IsLowercaseUUID(%q) = %v, want %v", tt.in, got, tt.want)
		}
		err := ValidateObjectID(tt.in)
		if (err == nil) != tt.want {
			t.Errorf("ValidateObjectID(%q) = %v", tt.in, err)
		}
		if err != nil && err.Error() != "must be a lowercase UUID such as 123e4567-e89b-12d3-a456-426614174000" {
			t.Errorf("ValidateObjectID message = %q", err)
		}
	}
}

func TestFieldErrors(t *testing.T) {
	var fe FieldErrors
	if !fe.Empty() {
		t.Fatal("zero FieldErrors not empty")
	}
	fe.AddErr("iban", nil)
	if !fe.Empty() {
		t.Fatal("AddErr(nil) recorded something")
	}
	fe.AddErr("iban", ValidateIBAN("DE88370400440532013000"))
	fe.Add("iban", "second")
	fe.Add("currency", "must be an active ISO 4217 currency code")
	if fe.Empty() {
		t.Fatal("FieldErrors empty after Add")
	}
	if got := fe["iban"]; len(got) != 2 || got[0] != "must be a valid IBAN: check digits do not match" || got[1] != "second" {
		t.Fatalf("iban messages = %q", got)
	}
	if len(fe) != 2 {
		t.Fatalf("len = %d", len(fe))
	}
	made := FieldErrors{}
	made.Add("x", "y")
	if made.Empty() || made["x"][0] != "y" {
		t.Fatal("Add on literal map failed")
	}
}
