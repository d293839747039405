package validation

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	errIBANEmpty       = errors.New("must be a valid IBAN: value is empty")
	errIBANChars       = errors.New("must be a valid IBAN: only uppercase letters A-Z and digits 0-9 are allowed")
	errIBANCountry     = errors.New("must be a valid IBAN: unknown country code")
	errIBANCheckFormat = errors.New("must be a valid IBAN: characters 3 and 4 must be check digits")
	errIBANChecksum    = errors.New("must be a valid IBAN: check digits do not match")

	errHolderRequired = errors.New("is required")
	errHolderLength   = fmt.Errorf("must be at most %d characters", maxAccountHolderLen)
)

// maxAccountHolderLen is the SEPA limit for the creditor/debtor name.
const maxAccountHolderLen = 70

// NormalizeIBAN turns user input into the electronic IBAN form: every
// whitespace character (ASCII or Unicode, e.g. the spaces of the grouped
// print form) is removed and ASCII letters are uppercased. Bytes that are not
// valid UTF-8 are first replaced by U+FFFD (one per run), so that removing a
// space can never join two invalid bytes into a new character ("\xc2 \xa0"
// would otherwise become U+00A0, a space, on the next pass). Other characters
// are left untouched so that ValidateIBAN can reject them. The result is
// valid UTF-8 and stable: NormalizeIBAN(NormalizeIBAN(s)) == NormalizeIBAN(s).
func NormalizeIBAN(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			// dropped
		case r >= 'a' && r <= 'z':
			b.WriteByte(byte(r) - ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ValidateIBAN checks an IBAN in normalized electronic form (see
// NormalizeIBAN): only A-Z and 0-9, a country code from the SWIFT IBAN
// registry, exactly the registered length for that country, numeric check
// digits and a successful ISO 7064 MOD 97-10 check.
func ValidateIBAN(s string) error {
	if s == "" {
		return errIBANEmpty
	}
	for i := 0; i < len(s); i++ {
		if !isUpperAlnum(s[i]) {
			return errIBANChars
		}
	}
	if len(s) < 2 {
		return errIBANCountry
	}
	country := s[:2]
	want, ok := ibanLengths[country]
	if !ok {
		return errIBANCountry
	}
	if len(s) != want {
		// country is one of our table keys, so it is safe to echo.
		return fmt.Errorf("must be a valid IBAN: IBANs from %s have %d characters, not %d", country, want, len(s))
	}
	if !isDigit(s[2]) || !isDigit(s[3]) {
		return errIBANCheckFormat
	}
	// 00, 01 and 99 are never issued (the algorithm yields 02..98) but 00 and
	// 01 alias 97 and 98 and 99 aliases 02 under mod 97.
	if cd := s[2:4]; cd == "00" || cd == "01" || cd == "99" {
		return errIBANChecksum
	}
	// Move the first four characters to the end, then check mod 97 == 1.
	if Mod97(s[4:], s[:4]) != 1 {
		return errIBANChecksum
	}
	return nil
}

// ValidateAccountHolderName checks the name of a bank account holder: not
// blank, at most 70 characters (Unicode code points; the SEPA limit) and text
// as ValidateText accepts it.
func ValidateAccountHolderName(s string) error {
	if strings.TrimSpace(s) == "" {
		return errHolderRequired
	}
	if err := ValidateText(s); err != nil {
		return err
	}
	if utf8.RuneCountInString(s) > maxAccountHolderLen {
		return errHolderLength
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isUpperAlnum(c byte) bool { return isDigit(c) || isUpper(c) }

// Mod97 returns the ISO 7064 MOD 97-10 remainder of the number obtained by
// concatenating the parts and replacing every letter by two digits
// (A=10 ... Z=35). It works digit by digit, so no big integers are needed.
// All bytes must be 0-9 or A-Z.
func Mod97(parts ...string) int {
	rem := 0
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			c := p[i]
			if isDigit(c) {
				rem = (rem*10 + int(c-'0')) % 97
			} else {
				rem = (rem*100 + int(c-'A') + 10) % 97
			}
		}
	}
	return rem
}
