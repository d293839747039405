package validation

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

var (
	errTextUTF8        = errors.New("must be valid UTF-8 text")
	errTextReplacement = errors.New("must not contain U+FFFD, the mark of text that was not valid UTF-8")
	errTextControl     = errors.New("must not contain control characters (tab, line break, NUL, DEL and the like)")
)

// ValidateText checks a text field of a request or a custom resource (a name, an
// address line, an identifier): valid UTF-8; no U+FFFD, the replacement character
// that decoders substitute for bytes that were not UTF-8 (stored, it would hide
// that the original text was lost); and no control characters. None of the
// service's fields is multi-line, so tab and line breaks are refused with the rest:
// C0 controls (NUL to U+001F), DEL, C1 controls (U+0080 to U+009F), the line and
// paragraph separators, and the bidirectional embedding, override and isolate
// controls that can make a name display as another ("Trojan Source").
func ValidateText(s string) error {
	if !utf8.ValidString(s) {
		return errTextUTF8
	}
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return errTextReplacement
		case isControlRune(r):
			return errTextControl
		}
	}
	return nil
}

// ValidateMaxLength checks that s has at most max characters (Unicode code points,
// as the CRD schema's maxLength counts them).
func ValidateMaxLength(s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return fmt.Errorf("must be at most %d characters", max)
	}
	return nil
}

func isControlRune(r rune) bool {
	switch {
	case unicode.IsControl(r): // C0, DEL, C1 (includes \t, \n, \r)
		return true
	case r == '\u2028' || r == '\u2029': // line / paragraph separator
		return true
	case r >= '\u202A' && r <= '\u202E': // bidi embedding / override
		return true
	case r >= '\u2066' && r <= '\u2069': // bidi isolates
		return true
	}
	return false
}
