// Package rf makes and checks ISO 11649 structured creditor references ("RF
// references"), the reference an investor copies into a SEPA credit transfer so that
// the bank statement line can be matched to the order it pays for.
//
// A reference is "RF", two check digits and a payload of 1 to 21 letters A-Z and
// digits, so at most 25 characters: RF18539007547034 is the example of the standard.
// The check digits are those of ISO 7064 MOD 97-10, computed as for an IBAN: the
// payload followed by "RF00", letters replaced by two digits (A=10 ... Z=35), taken
// mod 97 and subtracted from 98. A reference is valid when the payload followed by
// "RF" and the check digits, converted the same way, is 1 mod 97.
//
// References are written on paper in groups of four characters ("RF18 5390 0754 7034")
// and typed by people in any case, so Valid and Normalize accept spaces and lower-case
// letters; New and Normalize return the electronic form, upper case without spaces, the
// form bank files carry.
//
// The check catches every single substitution of a digit by a digit or of a letter by
// a letter, and every transposition of two adjacent digits of the payload or of the
// check digits. A substitution of a digit by a letter (or back) changes the length of
// the converted number and escapes the check about once in 100 cases, so a matcher
// that knows the shape of its payloads (for example digits only) should check that
// shape too.
package rf

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

const (
	// Prefix starts every reference.
	Prefix = "RF"
	// MaxPayloadLen is the longest payload: 25 characters less "RF" and the check digits.
	MaxPayloadLen = 21
	// MaxLen is the length of the longest reference in electronic form.
	MaxLen = len(Prefix) + 2 + MaxPayloadLen
)

// ErrInvalid is wrapped by every error of New, Valid and Normalize; the message says
// what is wrong. Messages never repeat the reference, which may be typed by a person
// into a field meant for something else.
var ErrInvalid = errors.New("invalid RF creditor reference")

// New returns the reference of payload in electronic form: "RF", the two check digits
// and the payload with its letters upper-cased. payload must have 1 to 21 characters,
// each a letter A-Z (either case) or a digit.
func New(payload string) (string, error) {
	if payload == "" {
		return "", invalid("the payload is empty")
	}
	if len(payload) > MaxPayloadLen {
		return "", invalid("the payload has more than %d characters", MaxPayloadLen)
	}
	p := []byte(payload)
	for i, c := range p {
		c = upper(c)
		if !isAlnum(c) {
			return "", invalid("character %d of the payload is not a letter A-Z or a digit", i+1)
		}
		p[i] = c
	}
	check := 98 - validation.Mod97(string(p), Prefix+"00")
	return fmt.Sprintf("%s%02d%s", Prefix, check, p), nil
}

// Normalize returns ref in electronic form, upper case without spaces, after checking
// it with Valid.
func Normalize(ref string) (string, error) {
	return validCompact(compact(ref))
}

// Valid checks a reference in electronic or print form: spaces (the print form groups
// four characters) and the case of letters are ignored. The error says what is wrong:
// the length, a character, the "RF" prefix or the check digits.
func Valid(ref string) error {
	_, err := validCompact(compact(ref))
	return err
}

// Format returns the print form of a valid reference: groups of four characters
// separated by a space, the last group possibly shorter ("RF18 5390 0754 7034").
func Format(ref string) (string, error) {
	s, err := Normalize(ref)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(s); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:min(i+4, len(s))])
	}
	return b.String(), nil
}

// validCompact checks a reference without spaces, letters in either case, and returns
// it upper-cased.
func validCompact(s string) (string, error) {
	switch {
	case s == "":
		return "", invalid("it is empty")
	case len(s) < len(Prefix)+3:
		return "", invalid("it has %d characters, at least 5 are needed (RF, two check digits and a payload)", len(s))
	case len(s) > MaxLen:
		return "", invalid("it has %d characters, at most %d are allowed", len(s), MaxLen)
	case upper(s[0]) != 'R' || upper(s[1]) != 'F':
		return "", invalid(`it does not start with "RF"`)
	case !isDigit(s[2]) || !isDigit(s[3]):
		return "", invalid("characters 3 and 4 must be the check digits")
	}
	u := []byte(s)
	for i, c := range u {
		c = upper(c)
		if !isAlnum(c) {
			return "", invalid("character %d is not a letter A-Z, a digit or a space", i+1)
		}
		u[i] = c
	}
	// 00, 01 and 99 are never computed (98 - r lies in 02..98) but are congruent to 97,
	// 98 and 02: accepting them would let one reference have two spellings.
	if cd := s[2:4]; cd == "00" || cd == "01" || cd == "99" {
		return "", invalid("the check digits are out of range (02 to 98)")
	}
	if validation.Mod97(string(u[4:]), string(u[:4])) != 1 {
		return "", invalid("the check digits do not match")
	}
	return string(u), nil
}

// compact drops the spaces of the print form. Only the ASCII space is a separator;
// any other character is left for the check to refuse.
func compact(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	return strings.ReplaceAll(s, " ", "")
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || c >= 'A' && c <= 'Z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
