package sandboxbank

import (
	"slices"
	"strings"
	"unicode"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
)

// MatchName is the sandbox's Verification of Payee of a payee's name against the
// account holder's name: iso20022.VoPMatch, VoPCloseMatch or VoPNoMatch. It is simple on
// purpose, a stand-in for the banks' own matching (which the scheme leaves to them):
//
//   - a match when the names are equal ignoring case and white space ("JAN JANSEN" and
//     "Jan Jansen", "Jan  Jansen");
//   - a close match when they are equal after normalizing them (upper and lower case
//     made alike, accents removed, "Müller" being "muller" and "ß" "ss", punctuation
//     removed, "O'Brien" being "obrien") and ignoring the order of the words
//     ("Mustermann, Erika" and "Erika Mustermann"), or when the normalized names, words
//     in the order given or sorted, are one edit apart: one letter added, removed or
//     replaced ("Jan Janssen", "Mueller" for "Müller"). Short names one letter apart
//     are close too ("Li" and "Lu");
//   - otherwise no match. A name with no letter or digit matches only itself.
//
// The sandbox never reports iso20022.VoPNotPossible.
func MatchName(name, holder string) string {
	if strings.EqualFold(withoutSpaces(name), withoutSpaces(holder)) {
		return iso20022.VoPMatch
	}
	a, b := nameWords(name), nameWords(holder)
	if len(a) == 0 || len(b) == 0 {
		return iso20022.VoPNoMatch
	}
	inOrderA, inOrderB := strings.Join(a, " "), strings.Join(b, " ")
	slices.Sort(a)
	slices.Sort(b)
	sortedA, sortedB := strings.Join(a, " "), strings.Join(b, " ")
	if sortedA == sortedB || oneEditApart(inOrderA, inOrderB) || oneEditApart(sortedA, sortedB) {
		return iso20022.VoPCloseMatch
	}
	return iso20022.VoPNoMatch
}

func withoutSpaces(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// nameWords are the words of a name (separated by white space), each in lower case,
// without accents and with only its letters and digits; empty words are left out.
func nameWords(s string) []string {
	var words []string
	for _, w := range strings.Fields(s) {
		var b strings.Builder
		for _, r := range strings.ToLower(w) {
			switch {
			case foldAccents[r] != "":
				b.WriteString(foldAccents[r])
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
			// Anything else (punctuation, symbols, combining accents of a decomposed
			// letter) is dropped.
		}
		if b.Len() > 0 {
			words = append(words, b.String())
		}
	}
	return words
}

// foldAccents maps the lower-case letters of Latin-1 and Latin Extended-A (and the
// Romanian comma-below letters) to their letters without accents.
var foldAccents = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'þ': "th", 'ð': "d", 'ĳ': "ij"}
	for base, accented := range map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķĸ", "l": "ĺļľŀł", "n": "ñńņňŉŋ", "o": "òóôõöøōŏő",
		"r": "ŕŗř", "s": "śŝşšș", "t": "ţťŧț", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// oneEditApart reports whether b is a with exactly one character added, removed or
// replaced.
func oneEditApart(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(rb)-len(ra) > 1 {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	if len(ra) == len(rb) {
		// One replacement: the rest after the first difference is equal.
		return i < len(ra) && slices.Equal(ra[i+1:], rb[i+1:])
	}
	// One insertion into the shorter at i.
	return slices.Equal(ra[i:], rb[i+1:])
}
