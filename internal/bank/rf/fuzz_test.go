package rf

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzValid(f *testing.F) {
	for _, s := range published {
		f.Add(s)
	}
	for _, s := range []string{"", "RF", "RF18 5390 0754 7034", "rf00", "RF\xff", "RF18\u00a05390", "RF99XX5ZIC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Valid(s)
		n, nerr := Normalize(s)
		if (err == nil) != (nerr == nil) {
			t.Fatalf("Valid(%q) = %v but Normalize = %v", s, err, nerr)
		}
		if err != nil {
			if msg := err.Error(); !utf8.ValidString(msg) || len(msg) > 140 {
				t.Fatalf("bad message %q", msg)
			}
			return
		}
		if len(n) > MaxLen || !strings.HasPrefix(n, Prefix) {
			t.Fatalf("Normalize(%q) = %q", s, n)
		}
		// A valid reference is the one New makes of its payload.
		if made, err := New(n[4:]); err != nil || made != n {
			t.Fatalf("New(%q) = %q, %v; Valid accepted %q", n[4:], made, err, s)
		}
	})
}

func FuzzNew(f *testing.F) {
	for _, s := range []string{"1", "539007547034", "abc", "", "ZZZZZZZZZZZZZZZZZZZZZZ", "a b", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		ref, err := New(payload)
		if err != nil {
			return
		}
		if err := Valid(ref); err != nil {
			t.Fatalf("New(%q) = %q, which Valid refuses: %v", payload, ref, err)
		}
		if ref[4:] != strings.ToUpper(payload) {
			t.Fatalf("New(%q) = %q does not end in the payload", payload, ref)
		}
		printed, err := Format(ref)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Normalize(printed); err != nil || back != ref {
			t.Fatalf("Normalize(%q) = %q, %v", printed, back, err)
		}
	})
}
