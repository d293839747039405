package iso20022

import (
	"strings"
	"testing"
)

func TestAnIdThatFitsAnEndToEndIdIsKeptAndAUUIDIsWrittenInItsSimpleForm(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"ord-7f3a9c2e", "ord-7f3a9c2e"},
		{strings.Repeat("a", MaxIDLen), strings.Repeat("a", MaxIDLen)},
		{"5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21", "5f0c3c7e2d9b4f439a550d3c1b7a9e21"},
		{strings.Repeat("a", MaxIDLen+1), ""},
		{"{5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21}", ""}, // a UUID, but not in its 36-character form
	} {
		if got := CompactID(c.id); got != c.want {
			t.Errorf("CompactID(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}
