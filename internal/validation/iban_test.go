package validation

import (
	"fmt"
	"strings"
	"testing"
)

// Real example IBANs (SWIFT registry / bank documentation examples).
var validIBANs = []string{
	"DE89370400440532013000",
	"GB82WEST12345698765432",
	"GB29NWBK60161331926819",
	"FR1420041010050500013M02606",
	"NL91ABNA0417164300",
	"BE68539007547034",
	"AT611904300234573201",
	"CH9300762011623852957",
	"ES9121000418450200051332",
	"IT60X0542811101000000123456",
	"NO9386011117947",
	"DK5000400440116243",
	"FI2112345600000785",
	"PL61109010140000071219812874",
	"MT84MALT011000012345MTLCAST001S",
	"BR1800360305000010009795493C1",
}

func TestValidateIBANValid(t *testing.T) {
	for _, s := range validIBANs {
		if err := ValidateIBAN(s); err != nil {
			t.Errorf("ValidateIBAN(%s) = %v, want nil", s, err)
		}
	}
}

func TestValidateIBAN(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		err     error  // exact sentinel, or nil
		wantMsg string // substring of the message when err is nil but an error is expected
	}{
		{name: "valid DE", in: "DE89370400440532013000"},
		{name: "valid FR with letter in BBAN", in: "FR1420041010050500013M02606"},
		{name: "empty", in: "", err: errIBANEmpty},
		{name: "unknown country", in: "XX89370400440532013000", err: errIBANCountry},
		{name: "digits as country", in: "1289370400440532013000", err: errIBANCountry},
		{name: "US has no IBAN", in: "US89370400440532013000", err: errIBANCountry},
		{name: "single letter", in: "D", err: errIBANCountry},
		{name: "too short for DE", in: "DE8937040044053201300", wantMsg: "IBANs from DE have 22 characters, not 21"},
		{name: "too long for DE", in: "DE893704004405320130000", wantMsg: "IBANs from DE have 22 characters, not 23"},
		{name: "NL length", in: "NL91ABNA041716430", wantMsg: "IBANs from NL have 18 characters, not 17"},
		{name: "bad check digits", in: "DE88370400440532013000", err: errIBANChecksum},
		{name: "bad BBAN digit", in: "DE89370400440532013001", err: errIBANChecksum},
		{name: "transposed digits", in: "GB82WEST12345698765423", err: errIBANChecksum},
		{name: "letter check digits", in: "DEAB370400440532013000", err: errIBANCheckFormat},
		{name: "lowercase (not normalized)", in: "de89370400440532013000", err: errIBANChars},
		{name: "spaces (not normalized)", in: "DE89 3704 0044 0532 0130 00", err: errIBANChars},
		{name: "hyphen", in: "DE89-370400440532013000", err: errIBANChars},
		{name: "non-ASCII", in: "DE8937040044053201300\u00d6", err: errIBANChars},
		{name: "invalid UTF-8", in: "DE89370400440532013\xff00", err: errIBANChars},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateIBAN(tt.in)
			switch {
			case tt.err != nil:
				if err != tt.err {
					t.Fatalf("ValidateIBAN(%q) = %v, want %v", tt.in, err, tt.err)
				}
			case tt.wantMsg != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
					t.Fatalf("ValidateIBAN(%q) = %v, want message containing %q", tt.in, err, tt.wantMsg)
				}
			default:
				if err != nil {
					t.Fatalf("ValidateIBAN(%q) = %v, want nil", tt.in, err)
				}
			}
		})
	}
}

// makeIBAN builds a valid IBAN for country with the given BBAN.
func makeIBAN(country, bban string) string {
	cd := 98 - Mod97(bban, country, "00")
	return fmt.Sprintf("%s%02d%s", country, cd, bban)
}

func TestIBANRegistryTable(t *testing.T) {
	if got := len(ibanLengths); got != 89 {
		t.Errorf("registry has %d countries, want 89", got)
	}
	sepa := strings.Fields(`AD AL AT BE BG CH CY CZ DE DK EE ES FI FR GB GI GR HR HU IE IS IT
		LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS SE SI SK SM VA`)
	for _, c := range sepa {
		if _, ok := ibanLengths[c]; !ok {
			t.Errorf("SEPA country %s missing from the IBAN registry table", c)
		}
	}
	for country, n := range ibanLengths {
		if n < 15 || n > 34 {
			t.Errorf("%s: implausible length %d", country, n)
		}
		// A synthetic IBAN of the right length passes, one character more
		// or less fails with the length message.
		iban := makeIBAN(country, strings.Repeat("1", n-4))
		if err := ValidateIBAN(iban); err != nil {
			t.Errorf("%s: ValidateIBAN(%s) = %v", country, iban, err)
		}
		if err := ValidateIBAN(makeIBAN(country, strings.Repeat("1", n-3))); err == nil || !strings.Contains(err.Error(), country) {
			t.Errorf("%s: too long IBAN gave %v", country, err)
		}
	}
}

func TestValidateIBANAliasedCheckDigits(t *testing.T) {
	// 00, 01 and 99 would pass mod 97 as aliases of 97, 98 and 02; they are
	// never issued and must be rejected.
	alias := map[string]string{"97": "00", "98": "01", "02": "99"}
	found := map[string]bool{}
	for i := 0; len(found) < len(alias) && i < 100000; i++ {
		iban := makeIBAN("DE", fmt.Sprintf("%018d", i))
		cd := iban[2:4]
		a, ok := alias[cd]
		if !ok || found[cd] {
			continue
		}
		found[cd] = true
		if err := ValidateIBAN(iban); err != nil {
			t.Fatalf("ValidateIBAN(%s) = %v", iban, err)
		}
		bad := iban[:2] + a + iban[4:]
		if Mod97(bad[4:], bad[:4]) != 1 {
			t.Fatalf("%s is not an alias of %s", bad, iban)
		}
		if err := ValidateIBAN(bad); err != errIBANChecksum {
			t.Errorf("ValidateIBAN(%s) = %v, want checksum error", bad, err)
		}
	}
	if len(found) != len(alias) {
		t.Fatalf("found only %v", found)
	}
}

func TestValidateIBANDetectsSingleSubstitutions(t *testing.T) {
	// MOD 97-10 detects every substitution of a digit by a digit and of a
	// letter by a letter.
	for _, iban := range validIBANs {
		for i := 2; i < len(iban); i++ {
			alphabet := "0123456789"
			if isUpper(iban[i]) {
				alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			}
			for j := 0; j < len(alphabet); j++ {
				if alphabet[j] == iban[i] {
					continue
				}
				bad := iban[:i] + alphabet[j:j+1] + iban[i+1:]
				if ValidateIBAN(bad) == nil {
					t.Errorf("ValidateIBAN(%s) accepted a corruption of %s", bad, iban)
				}
			}
		}
	}
}

func TestNormalizeIBAN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"DE89 3704 0044 0532 0130 00", "DE89370400440532013000"},
		{"de89370400440532013000", "DE89370400440532013000"},
		{"  gb82 west 1234 5698 7654 32\n", "GB82WEST12345698765432"},
		{"FR14\t2004\u00a01010\u20030505 0001 3m02 606", "FR1420041010050500013M02606"},
		{"", ""},
		{"DE89-3704", "DE89-3704"},
		{"d\u00e9", "D\u00e9"},
		{"de\xff89", "DE\ufffd89"},
	}
	for _, tt := range tests {
		got := NormalizeIBAN(tt.in)
		if got != tt.want {
			t.Errorf("NormalizeIBAN(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := NormalizeIBAN(got); again != got {
			t.Errorf("NormalizeIBAN not idempotent on %q: %q", got, again)
		}
	}
	for _, s := range []string{"DE89 3704 0044 0532 0130 00", "fr14 2004 1010 0505 0001 3m02 606", "nl91abna0417164300"} {
		if err := ValidateIBAN(NormalizeIBAN(s)); err != nil {
			t.Errorf("ValidateIBAN(NormalizeIBAN(%q)) = %v", s, err)
		}
	}
}

func TestValidateAccountHolderName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"simple", "Erika Mustermann", nil},
		{"accents", "Jos\u00e9 M\u00fcller-L\u00fcdenscheidt", nil},
		{"CJK", "\u674e\u5c0f\u9f8d", nil},
		{"apostrophe", "Siobh\u00e1n O'Neill", nil},
		{"70 runes", strings.Repeat("\u00e9", 70), nil},
		{"empty", "", errHolderRequired},
		{"blank", " \t ", errHolderRequired},
		{"71 runes", strings.Repeat("a", 71), errHolderLength},
		{"71 multibyte runes", strings.Repeat("\u00e9", 71), errHolderLength},
		{"newline", "Erika\nMustermann", errTextControl},
		{"tab", "Erika\tMustermann", errTextControl},
		{"NUL", "Erika\x00", errTextControl},
		{"DEL", "Erika\x7f", errTextControl},
		{"C1", "Erika\u0085", errTextControl},
		{"bidi override", "Erika \u202eannamretsuM", errTextControl},
		{"line separator", "Erika\u2028M", errTextControl},
		{"invalid UTF-8", "Erika \xff", errTextUTF8},
		{"replacement character", "Erika \ufffd", errTextReplacement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := ValidateAccountHolderName(tt.in); err != tt.err {
				t.Fatalf("ValidateAccountHolderName(%q) = %v, want %v", tt.in, err, tt.err)
			}
		})
	}
	if got := errHolderLength.Error(); got != "must be at most 70 characters" {
		t.Errorf("length message = %q", got)
	}
}
