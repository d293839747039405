package validation

import (
	"strings"
	"testing"
)

// Rule: text fields refuse invalid UTF-8, U+FFFD and every control character.
func TestValidateTextRefusesControlCharactersAndInvalidUTF8(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
	}{
		{"empty", "", nil},
		{"latin", "Unter den Linden 1", nil},
		{"accents and CJK", "M\u00fcller \u674e\u5c0f\u9f8d", nil},
		{"no-break space", "a\u00a0b", nil},
		{"NUL", "Berlin\x00", errTextControl},
		{"escape", "\x1b[31mred", errTextControl},
		{"tab", "a\tb", errTextControl},
		{"newline", "a\nb", errTextControl},
		{"carriage return", "a\rb", errTextControl},
		{"DEL", "a\x7f", errTextControl},
		{"C1 NEL", "a\u0085", errTextControl},
		{"C1 CSI", "a\u009b", errTextControl},
		{"line separator", "a\u2028b", errTextControl},
		{"bidi override", "a\u202eb", errTextControl},
		{"bidi isolate", "a\u2066b", errTextControl},
		{"invalid byte", "a\xffb", errTextUTF8},
		{"truncated sequence", "a\xe2\x80", errTextUTF8},
		{"encoded surrogate", "a\xed\xa0\x80", errTextUTF8},
		{"replacement character", "a\ufffdb", errTextReplacement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValidateText(tt.in); got != tt.want {
				t.Fatalf("ValidateText(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// Rule: lengths count characters (code points), as the CRD schema's maxLength does.
func TestValidateMaxLengthCountsCharacters(t *testing.T) {
	if err := ValidateMaxLength(strings.Repeat("\u00e9", 100), 100); err != nil {
		t.Fatalf("100 two-byte characters refused: %v", err)
	}
	err := ValidateMaxLength(strings.Repeat("a", 101), 100)
	if err == nil || err.Error() != "must be at most 100 characters" {
		t.Fatalf("101 characters: %v", err)
	}
}

func TestNormalizeIBANIsIdempotentOnInvalidUTF8(t *testing.T) {
	for _, in := range []string{"\xc2  \xa0", "\xc2 \xa0", "de\xff89 3704", "\xe2\x80 \xa8"} {
		n := NormalizeIBAN(in)
		if again := NormalizeIBAN(n); again != n {
			t.Errorf("NormalizeIBAN(%q) = %q, then %q", in, n, again)
		}
	}
}
