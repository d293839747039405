package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Limits of what a refusal quotes back, so that an answer never grows with the body: a
// repeated key (or a charset) is quoted up to maxEchoed bytes, a key's path up to
// maxPathEchoed bytes (its end, nearest the key), and at most maxDuplicatesReported
// repeated keys are named.
const (
	maxEchoed             = 64
	maxPathEchoed         = 200
	maxDuplicatesReported = 10
)

// maxKeyDepth is encoding/json's own nesting limit: a deeper body is refused by the
// decoding anyway, so the scan stops there instead of holding a frame per level.
const maxKeyDepth = 10000

// linearKeys is how many keys of an object are compared one by one; the keys of a
// larger object go into a map, so that a body of many keys costs linear time.
const linearKeys = 16

// duplicateKeys names every key that an object of the JSON text body repeats, at any
// depth (objects in objects and in arrays): field → [`duplicate key "iban"`], the field
// being the key's path (amount, beneficiary.iban, items[0].iban). Keys are compared as
// decoded, so "a" and "\u0061" are the same key (RFC 8259 §8.3). RFC 8259 §4 leaves
// the meaning of repeated names to each parser and encoding/json keeps the last one
// silently, so the facade refuses them (I-JSON, RFC 7493 §2.3): the caller meant one of
// the values and we cannot know which.
//
// It is one streaming pass of json.Decoder.Token, with nothing decoded into values. Text
// that is not JSON, or not an object, yields nothing: the decoding that follows reports
// it in its own words.
func duplicateKeys(body []byte) validation.FieldErrors {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // numbers stay text: nothing to parse
	var fe validation.FieldErrors
	stack := make([]keyFrame, 0, 8)
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
			top := &stack[n-1]
			key, isKey := tok.(string)
			if !isKey { // '}': the object ends
				if stack = stack[:n-1]; len(stack) == 0 {
					return fe
				}
				continue
			}
			// Token replaces bytes that are not UTF-8 by U+FFFD, so two such keys may
			// look alike without being alike; they are refused anyway (no field has one).
			if top.has(key) && !strings.ContainsRune(key, utf8.RuneError) {
				path := keyPath(stack, key)
				if _, named := fe[path]; !named {
					fe.Add(path, fmt.Sprintf("duplicate key %q", clip(key, maxEchoed)))
					if len(fe) == maxDuplicatesReported {
						return fe
					}
				}
			} else {
				top.add(key)
			}
			top.key, top.wantKey = key, false
			continue
		}
		// A value, or the end of an array.
		if tok == json.Delim(']') {
			if stack = stack[:len(stack)-1]; len(stack) == 0 {
				return fe
			}
			continue
		}
		if n := len(stack); n > 0 {
			if top := &stack[n-1]; top.object {
				top.wantKey = true // after this value: another key or '}'
			} else {
				top.index++
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if len(stack) == maxKeyDepth {
				return nil
			}
			stack = push(stack, tok == json.Delim('{'))
		default:
			if len(stack) == 0 {
				return nil // not an object
			}
		}
	}
}

// keyFrame is an object or an array being read.
type keyFrame struct {
	object  bool
	wantKey bool   // object: the next token is a key or '}'
	key     string // object: the key of the value being read
	index   int    // array: the index of the value being read
	keys    []string
	set     map[string]struct{} // the keys, once there are more than linearKeys
}

// push adds a frame, reusing the keys slice a frame at that depth had before.
func push(stack []keyFrame, object bool) []keyFrame {
	var keys []string
	if n := len(stack); n < cap(stack) {
		keys = stack[: n+1 : n+1][n].keys[:0]
	}
	return append(stack, keyFrame{object: object, wantKey: object, index: -1, keys: keys})
}

func (f *keyFrame) has(key string) bool {
	if f.set != nil {
		_, ok := f.set[key]
		return ok
	}
	for _, k := range f.keys {
		if k == key {
			return true
		}
	}
	return false
}

func (f *keyFrame) add(key string) {
	switch {
	case f.set != nil:
		f.set[key] = struct{}{}
	case len(f.keys) < linearKeys:
		f.keys = append(f.keys, key)
	default:
		f.set = make(map[string]struct{}, 2*linearKeys)
		for _, k := range f.keys {
			f.set[k] = struct{}{}
		}
		f.set[key] = struct{}{}
	}
}

// keyPath is the path of key in the innermost object of stack: the keys and array indexes
// that lead to it, joined as in beneficiary.iban or items[0].iban; its end when long.
func keyPath(stack []keyFrame, key string) string {
	var b strings.Builder
	for _, f := range stack[:len(stack)-1] {
		if f.object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(f.index))
			b.WriteByte(']')
		}
	}
	if b.Len() > 0 {
		b.WriteByte('.')
	}
	b.WriteString(key)
	path := b.String()
	if len(path) <= maxPathEchoed {
		return path
	}
	cut := len(path) - maxPathEchoed
	for cut < len(path) && !utf8.RuneStart(path[cut]) {
		cut++
	}
	return "…" + path[cut:]
}

// clip shortens s to at most n bytes (at a character boundary), marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
