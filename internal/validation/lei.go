package validation

import (
	"errors"
	"strconv"
)

var (
	errLEILength      = errors.New("must be a valid LEI: expected 20 characters")
	errLEIChars       = errors.New("must be a valid LEI: only uppercase letters A-Z and digits 0-9 are allowed")
	errLEICheckFormat = errors.New("must be a valid LEI: the last 2 characters must be check digits")
	errLEICheck       = errors.New("must be a valid LEI: check digits do not match")

	errLEIPrefixLength = errors.New("must be the first 18 characters of an LEI")
)

// ValidateLEI checks a Legal Entity Identifier (ISO 17442): exactly 20
// uppercase alphanumeric characters whose last two are numeric check digits,
// and the ISO 7064 MOD 97-10 value of the whole string (letters become
// A=10 ... Z=35) equals 1.
func ValidateLEI(s string) error {
	if len(s) != 20 {
		return errLEILength
	}
	for i := 0; i < len(s); i++ {
		if !isUpperAlnum(s[i]) {
			return errLEIChars
		}
	}
	if !isDigit(s[18]) || !isDigit(s[19]) {
		return errLEICheckFormat
	}
	// Issued check digits are always 02..98; 00, 01 and 99 would only pass
	// the modulus by aliasing 97, 98 and 02.
	if cd := s[18:]; cd == "00" || cd == "01" || cd == "99" {
		return errLEICheck
	}
	if Mod97(s) != 1 {
		return errLEICheck
	}
	return nil
}

// LEICheckDigits returns the two check digits ("02".."98") for the first 18
// characters of an LEI, so that first18+cd is a valid LEI.
func LEICheckDigits(first18 string) (string, error) {
	if len(first18) != 18 {
		return "", errLEIPrefixLength
	}
	for i := 0; i < len(first18); i++ {
		if !isUpperAlnum(first18[i]) {
			return "", errLEIChars
		}
	}
	cd := 98 - Mod97(first18, "00")
	if cd < 10 {
		return "0" + strconv.Itoa(cd), nil
	}
	return strconv.Itoa(cd), nil
}
