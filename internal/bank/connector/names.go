package connector

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// CheckName returns an error wrapping ErrInvalidName, saying why, when name is not one
// the connectors accept for a file: it must be a single, plain path element of at most
// MaxNameLen bytes of UTF-8, not hidden (a leading "."), without a path separator or a
// control character, and not ending like a temporary file (".tmp", ".part", ".partial",
// ".filepart", "~").
func CheckName(name string) error { return checkName(name) }

// checkName refuses a name that is not a single, plain path element: empty, longer than
// MaxNameLen, not UTF-8, starting with "." (which also refuses "." and ".."), holding a
// path separator or a control character, or ending like a temporary file. The folder
// joins names to its directories only after this check, and opens them through an
// os.Root, which refuses anything reaching outside the root a second time.
func checkName(name string) error {
	why := ""
	switch {
	case name == "":
		why = "it is empty"
	case len(name) > MaxNameLen:
		why = fmt.Sprintf("it has %d bytes, at most %d are allowed", len(name), MaxNameLen)
	case !utf8.ValidString(name):
		why = "it is not valid UTF-8"
	case name[0] == '.':
		why = `it starts with "." (hidden, or a path out of the folder)`
	case strings.ContainsAny(name, `/\`):
		why = "it contains a path separator"
	case strings.ContainsFunc(name, unicode.IsControl):
		why = "it contains a control character"
	case temporary(name):
		why = "it ends like a temporary file"
	default:
		return nil
	}
	return fmt.Errorf("%w %q: %s", ErrInvalidName, name, why)
}

// temporarySuffixes mark files still being written by the usual transfer tools (curl and
// browsers' .part, WinSCP's .filepart, editors' ~).
var temporarySuffixes = []string{".tmp", ".part", ".partial", ".filepart", "~"}

// temporary reports whether name ends like a file still being written.
func temporary(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range temporarySuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// offered reports whether an inbox entry of that name is offered to consumers: hidden,
// temporary and refused names are not.
func offered(name string) bool { return checkName(name) == nil }

// The kept name of a claimed file is PREFIX + the delivered name, PREFIX being the
// claim's UTC time, "-", 16 random characters and "-".
const (
	prefixTimeLayout = "20060102T150405Z"
	prefixRandomLen  = 16
	prefixLen        = len(prefixTimeLayout) + 1 + prefixRandomLen + 1
)

// keptName returns a new, unique name for a file delivered as name and claimed at now.
func keptName(name string, now time.Time) string {
	return now.UTC().Format(prefixTimeLayout) + "-" + rand.Text()[:prefixRandomLen] + "-" + name
}

// deliveredName returns the name a claimed file was delivered under: its kept name
// without the prefix, or the name itself when it has none (a file someone put into
// claimed/ by hand).
func deliveredName(kept string) string {
	if hasPrefix(kept) {
		return kept[prefixLen:]
	}
	return kept
}

// hasPrefix reports whether name starts with a claim prefix and has a name after it.
func hasPrefix(name string) bool {
	if len(name) <= prefixLen || name[len(prefixTimeLayout)] != '-' || name[prefixLen-1] != '-' {
		return false
	}
	if _, err := time.Parse(prefixTimeLayout, name[:len(prefixTimeLayout)]); err != nil {
		return false
	}
	for _, c := range []byte(name[len(prefixTimeLayout)+1 : prefixLen-1]) {
		if !(c >= 'A' && c <= 'Z' || c >= '2' && c <= '7') { // rand.Text's base32 alphabet
			return false
		}
	}
	return true
}

// checkID refuses a claim ID that is not a kept name.
func checkID(id string) error {
	if !hasPrefix(id) {
		return fmt.Errorf("%w %q: not a claim of this folder", ErrInvalidName, id)
	}
	return checkName(id[prefixLen:])
}
