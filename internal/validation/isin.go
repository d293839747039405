package validation

import "errors"

var (
	errISINLength = errors.New("must be a valid ISIN: expected 12 characters")
	errISINFormat = errors.New("must be a valid ISIN: expected 2 uppercase letters, 9 uppercase letters or digits and 1 check digit")
	errISINCheck  = errors.New("must be a valid ISIN: check digit does not match")

	errISINPrefixLength = errors.New("must be the first 11 characters of an ISIN")
)

// ValidateISIN checks an International Securities Identification Number
// (ISO 6166): 12 characters, a 2-letter prefix (country code or XS/EU...),
// 9 uppercase alphanumeric characters and a numeric check digit computed
// with the Luhn algorithm after replacing letters by two digits (A=10 ...
// Z=35). Lowercase input is rejected; uppercase it before validating.
func ValidateISIN(s string) error {
	if len(s) != 12 {
		return errISINLength
	}
	if err := checkISINBody(s[:11]); err != nil {
		return err
	}
	if !isDigit(s[11]) {
		return errISINFormat
	}
	if isinCheckDigit(s[:11]) != s[11] {
		return errISINCheck
	}
	return nil
}

// ISINCheckDigit returns the check digit, as an ASCII character '0'..'9',
// for the first 11 characters of an ISIN, so that first11+string(d) is a
// valid ISIN. It fails when first11 does not have the ISIN layout.
func ISINCheckDigit(first11 string) (byte, error) {
	if len(first11) != 11 {
		return 0, errISINPrefixLength
	}
	if err := checkISINBody(first11); err != nil {
		return 0, err
	}
	return isinCheckDigit(first11), nil
}

// checkISINBody checks the layout of the 11 characters before the check digit.
func checkISINBody(s string) error {
	if !isUpper(s[0]) || !isUpper(s[1]) {
		return errISINFormat
	}
	for i := 2; i < len(s); i++ {
		if !isUpperAlnum(s[i]) {
			return errISINFormat
		}
	}
	return nil
}

// isinCheckDigit computes the Luhn check digit over the digit expansion of
// s (letters become two digits, A=10 ... Z=35). Walking the expansion from
// the right, the rightmost digit and every second one after it are doubled.
func isinCheckDigit(s string) byte {
	sum := 0
	double := true
	add := func(d int) {
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if isDigit(c) {
			add(int(c - '0'))
			continue
		}
		v := int(c-'A') + 10
		add(v % 10) // the units digit is the right one
		add(v / 10)
	}
	return byte('0' + (10-sum%10)%10)
}
