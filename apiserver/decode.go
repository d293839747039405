package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// maxBodyBytes bounds every request body (1 MiB); bigger bodies get 413.
const maxBodyBytes = 1 << 20

// decodeBody reads the request's JSON object into dst, a pointer to one of the request
// structs of types.go. When the body cannot be used at all (wrong content type or a
// charset other than UTF-8 415, too large 413, not a JSON object or a key repeated in an
// object 400) it answers the request and returns ok false.
// Field-level problems, unknown fields (each named) and values of the wrong JSON type,
// are returned for the caller to answer together with its own checks as one 422.
// refused names fields that exist elsewhere but are not accepted here, with the message
// to give (for example "type": "cannot be changed").
func decodeBody(w http.ResponseWriter, r *http.Request, dst any, refused map[string]string, mediaTypes ...string) (fe validation.FieldErrors, ok bool) {
	if len(mediaTypes) == 0 {
		mediaTypes = []string{"application/json"}
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !contains(mediaTypes, mt) {
		writeError(w, http.StatusUnsupportedMediaType, msgUnsupportedMedia,
			"Content-Type must be "+strings.Join(mediaTypes, " or "))
		return nil, false
	}
	// JSON exchanged between systems is UTF-8 (RFC 8259 §8.1); application/json defines no
	// charset parameter, so one is tolerated only when it says just that.
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		writeError(w, http.StatusUnsupportedMediaType, msgUnsupportedMedia,
			fmt.Sprintf("charset %q is not supported: only utf-8 is accepted", clip(cs, maxEchoed)))
		return nil, false
	}
	body, ok := readBody(w, r)
	if !ok {
		return nil, false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		writeError(w, http.StatusBadRequest, msgMalformedJSON, "the request body is empty; send a JSON object")
		return nil, false
	}
	// Before the decoding below, which keeps the last of repeated keys without a word.
	if dups := duplicateKeys(body); !dups.Empty() {
		writeError(w, http.StatusBadRequest, msgMalformedJSON, dups)
		return nil, false
	}
	return decodeFields(w, body, dst, refused)
}

// decodeFields is decodeBody's decoding of a body without repeated keys: one JSON object
// (else it answers 400 and returns ok false), each field into dst.
func decodeFields(w http.ResponseWriter, body []byte, dst any, refused map[string]string) (fe validation.FieldErrors, ok bool) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&fields); err != nil || fields == nil {
		writeError(w, http.StatusBadRequest, msgMalformedJSON, malformedDetail(err))
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(w, http.StatusBadRequest, msgMalformedJSON, "unexpected data after the JSON object")
		return nil, false
	}

	v := reflect.ValueOf(dst).Elem()
	known := jsonFields(v.Type())
	for name, raw := range fields {
		if msg, ok := refused[name]; ok {
			fe.Add(name, msg)
			continue
		}
		idx, ok := known[name]
		if !ok {
			fe.Add(name, "is not a known field")
			continue
		}
		f := v.FieldByIndex(idx)
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			fe.Add(name, "must be "+jsonKind(f.Type()))
			continue
		}
		fe.AddErr(name, textProblem(raw, f))
	}
	return fe, true
}

// textProblem checks every string of a decoded request field as text (valid UTF-8, no
// control characters: validation.ValidateText). encoding/json replaces bytes that are not
// UTF-8, and \u escapes of lone UTF-16 surrogates, by U+FFFD without a word, so those are
// looked for in the raw JSON; control characters (also when escaped, as \u0000) in the
// decoded strings.
func textProblem(raw json.RawMessage, v reflect.Value) error {
	if !utf8.Valid(raw) || hasLoneSurrogate(raw) {
		return validation.ValidateText("\xff")
	}
	return walkStrings(v)
}

// walkStrings applies validation.ValidateText to every string in v.
func walkStrings(v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		return validation.ValidateText(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walkStrings(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := walkStrings(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := walkStrings(it.Key()); err != nil {
				return err
			}
			if err := walkStrings(it.Value()); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				if err := walkStrings(v.Field(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hasLoneSurrogate reports whether valid JSON text escapes a UTF-16 surrogate (\ud800 to
// \udfff) that is not half of a pair: it names no character.
func hasLoneSurrogate(raw []byte) bool {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character, possibly a backslash
			continue
		}
		r, ok := hex4(i)
		if !ok {
			continue
		}
		switch {
		case utf16.IsSurrogate(r) && r < 0xdc00:
			low, ok := hex4(i + 6)
			if !ok || low < 0xdc00 || low > 0xdfff {
				return true
			}
			i += 11
		case utf16.IsSurrogate(r):
			return true
		default:
			i += 5
		}
	}
	return false
}

func writeTooLarge(w http.ResponseWriter) {
	writeError(w, http.StatusRequestEntityTooLarge, msgTooLarge,
		fmt.Sprintf("the request body must not be larger than %d bytes", maxBodyBytes))
}

func malformedDetail(err error) string {
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return "the request body must be a JSON object"
	case errors.As(err, &syntax):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON in the request body is incomplete"
	default:
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return "the request body must be a JSON object"
		}
		return "the request body is not valid JSON"
	}
}

// jsonFields maps the json names of a struct's fields, and of the structs it embeds, to
// their index paths (reflect.Value.FieldByIndex).
func jsonFields(t reflect.Type) map[string][]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string][]int)
	}
	m := make(map[string][]int, t.NumField())
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.Anonymous && name != "" && name != "-" {
			m[name] = f.Index
		}
	}
	fieldCache.Store(t, m)
	return m
}

var fieldCache sync.Map // reflect.Type → map[string][]int

// jsonKind describes what a request field accepts, for "must be ..." messages.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprintf("an integer (at most %d)", int64(1)<<(t.Bits()-1)-1)
	default:
		return "a " + t.Kind().String()
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Paging limits of every list endpoint (spec "Limits").
const (
	defaultLimit = 100
	maxLimit     = 1000
)

// query reads and checks query parameters: unknown and repeated parameters, and values
// out of range, become field messages; nothing is clamped silently. An empty value
// (?name=) counts as absent.
type query struct {
	values url.Values
	fe     validation.FieldErrors
}

func parseQuery(r *http.Request, allowed ...string) *query {
	q := &query{values: r.URL.Query()}
	for name, vs := range q.values {
		switch {
		case !contains(allowed, name):
			q.fe.Add(name, "is not a known query parameter")
		case len(vs) > 1:
			q.fe.Add(name, msgRepeated)
		}
	}
	return q
}

// str is the value of a parameter, "" when absent.
func (q *query) str(name string) string {
	return q.values.Get(name)
}

// boolean parses true/false; nil when absent.
func (q *query) boolean(name string) *bool {
	v := q.str(name)
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil || (v != "true" && v != "false") {
		q.fe.Add(name, "must be true or false")
		return nil
	}
	return &b
}

// integer parses an integer within [lo, hi]; def when absent.
func (q *query) integer(name string, def, lo, hi int) int {
	v := q.str(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		q.fe.Add(name, "must be an integer")
	case n < lo || n > hi:
		if hi == int(^uint(0)>>1) {
			q.fe.Add(name, fmt.Sprintf("must be at least %d", lo))
		} else {
			q.fe.Add(name, fmt.Sprintf("must be between %d and %d", lo, hi))
		}
	default:
		return n
	}
	return def
}

// enum checks that a parameter is one of values.
func (q *query) enum(name string, values ...string) string {
	v := q.str(name)
	if v != "" && !contains(values, v) {
		q.fe.Add(name, "must be one of "+strings.Join(values, ", "))
		return ""
	}
	return v
}

// pattern checks that a parameter matches re.
func (q *query) pattern(name string, re *regexp.Regexp, want string) string {
	v := q.str(name)
	if v != "" && !re.MatchString(v) {
		q.fe.Add(name, "must be "+want)
		return ""
	}
	return v
}

// msgUUID is the message for a malformed id.
const msgUUID = "must be a UUID such as 123e4567-e89b-42d3-a456-426614174000"

// uuid reads an id in any letter case and returns it in lower case, the form of every id.
func (q *query) uuid(name string) string {
	v := lower(q.str(name))
	if v != "" && !validation.IsLowercaseUUID(v) {
		q.fe.Add(name, msgUUID)
		return ""
	}
	return v
}

// page reads skip (>= 0, default 0) and limit (1 to 1000, default 100).
func (q *query) page() page {
	return page{
		skip:  q.integer("skip", 0, 0, int(^uint(0)>>1)),
		limit: q.integer("limit", defaultLimit, 1, maxLimit),
	}
}

// page is an offset and a page size.
type page struct{ skip, limit int }

// pageParams are the query parameters of paging, for parseQuery.
var pageParams = []string{"skip", "limit"}

// readBody reads the whole request body; it answers 413 itself when the body is over the
// limit, and 400 when it cannot be read.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			writeTooLarge(w)
			return nil, false
		}
		writeError(w, http.StatusBadRequest, msgMalformedJSON, "the request body could not be read")
		return nil, false
	}
	return body, true
}
