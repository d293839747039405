package apiserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// servedRoutes lists every route of the router with a concrete path (path parameters
// filled with a well-formed id or ISIN).
func servedRoutes(t *testing.T, s *Server) [][2]string {
	t.Helper()
	var out [][2]string
	err := chi.Walk(s.routes().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.ReplaceAll(route, "/*/", "/")
		path := pathParam.ReplaceAllStringFunc(route, func(p string) string {
			if p == "{isin}" {
				return "IE00B4L5Y983"
			}
			return "123e4567-e89b-42d3-a456-426614174000"
		})
		out = append(out, [2]string{method, path})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Rule: unknown, repeated or badly encoded query parameters answer 422 on every endpoint,
// the single-object reads and the writes included; the token endpoint answers in the
// OAuth shape and is left to its handler.
func TestUnknownRepeatedOrBadlyEncodedQueryParametersAre422OnEveryRoute(t *testing.T) {
	s, _, token := newTestServer(t)
	// The operator routes take an operator's Kubernetes token (operatorauth.go).
	s.operators = &fakeReviewer{users: map[string]string{clerkToken: clerk}, allowed: map[string]bool{clerk: true}}
	srv := httptest.NewServer(s.routes())
	defer srv.Close()
	tenantBearer := token("tenant-a")
	for _, rt := range servedRoutes(t, s) {
		method, path := rt[0], rt[1]
		if path == "/oauth2/token" {
			continue
		}
		bearer := tenantBearer
		if q, ok := queryOfRoute[method+" "+path]; ok && !q.public && strings.HasPrefix(path, "/v1/operator/") {
			bearer = clerkToken
		}
		for query, field := range map[string]string{
			"colour=red":      "colour",
			"x=%zz":           "x",
			"%zz=1":           "query",
			"a=1;b=2":         "a",
			"nul=%00":         "nul",
			"bad=%ff":         "bad",
			"colour=1&colour": "colour",
		} {
			req, _ := http.NewRequest(method, srv.URL+path+"?"+query, nil)
			req.Header.Set("Authorization", "Bearer "+bearer)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("%s %s?%s: %d %s, want 422", method, path, query, res.StatusCode, body)
				continue
			}
			var e struct {
				Error   string              `json:"error"`
				Details map[string][]string `json:"details"`
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error != msgValidation || len(e.Details[field]) == 0 {
				t.Errorf("%s %s?%s: body %s, want a message for %q", method, path, query, body, field)
			}
		}
	}
}

func TestCheckQuery(t *testing.T) {
	allowed := []string{"limit", "skip", "name"}
	tests := []struct {
		raw  string
		want validation.FieldErrors
	}{
		{"", nil},
		{"limit=10&skip=0", nil},
		{"name=M%C3%BCller+AG", nil},
		{"limit=%zz", validation.FieldErrors{"limit": {"is not correctly percent-encoded (or uses ; as a separator)"}}},
		{"limit=1&limit=2&limit=3", validation.FieldErrors{"limit": {msgRepeated}}},
		{"colour=red&colour=blue", validation.FieldErrors{"colour": {"is not a known query parameter"}}},
		{"name=%0A", validation.FieldErrors{"name": {validation.ValidateText("\n").Error()}}},
		{"name=%FF", validation.FieldErrors{"name": {validation.ValidateText("\xff").Error()}}},
	}
	for _, tt := range tests {
		if got := checkQuery(tt.raw, allowed); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("checkQuery(%q) = %v, want %v", tt.raw, got, tt.want)
		}
	}
}

// Rule: HEAD is answered on every GET route like GET (status, headers) without a body.
func TestHEADOnEveryGETRouteAnswersLikeGETWithoutBody(t *testing.T) {
	s, _, token := newTestServer(t)
	srv := httptest.NewServer(s.routes())
	defer srv.Close()
	bearer := token("tenant-a")
	n := 0
	for _, rt := range servedRoutes(t, s) {
		if rt[0] != http.MethodGet {
			continue
		}
		n++
		answer := func(method string) (*http.Response, []byte) {
			req, _ := http.NewRequest(method, srv.URL+rt[1], nil)
			req.Header.Set("Authorization", "Bearer "+bearer)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			return res, body
		}
		get, getBody := answer(http.MethodGet)    //nolint:bodyclose // answer reads and closes the body
		head, headBody := answer(http.MethodHead) //nolint:bodyclose // answer reads and closes the body
		if head.StatusCode != get.StatusCode || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q; GET: %d %q", rt[1], head.StatusCode, head.Header.Get("Content-Type"), get.StatusCode, get.Header.Get("Content-Type"))
		}
		if len(headBody) != 0 || len(getBody) == 0 {
			t.Errorf("HEAD %s: body of %d bytes (GET %d)", rt[1], len(headBody), len(getBody))
		}
	}
	if n < 10 {
		t.Fatalf("only %d GET routes", n)
	}
}

// Rule: NUL, other control characters and invalid UTF-8 in any string field of a request
// body are refused naming the field (encoding/json alone would keep the controls and turn
// invalid UTF-8 and lone surrogates into U+FFFD without a word).
func TestDecodeBodyRefusesControlCharactersAndInvalidUTF8InEveryStringField(t *testing.T) {
	targets := map[string]any{
		"AccountCreateRequest": &AccountCreateRequest{}, "AccountUpdateRequest": &AccountUpdateRequest{},
		"WalletCreateRequest": &WalletCreateRequest{}, "PaymentMethodDetailsCreateRequest": &PaymentMethodDetailsCreateRequest{},
		"OrderCreateRequest": &OrderCreateRequest{},
	}
	bad := map[string]struct {
		raw  string
		want string
	}{
		"NUL escaped":        {`"a\u0000b"`, validation.ValidateText("\x00").Error()},
		"tab":                {`"a\tb"`, validation.ValidateText("\t").Error()},
		"newline":            {`"a\nb"`, validation.ValidateText("\n").Error()},
		"DEL":                {"\"a\x7fb\"", validation.ValidateText("\x7f").Error()},
		"C1":                 {`"a\u0085b"`, validation.ValidateText("\u0085").Error()},
		"invalid UTF-8":      {"\"a\xffb\"", validation.ValidateText("\xff").Error()},
		"lone surrogate":     {`"a\ud800b"`, validation.ValidateText("\xff").Error()},
		"lone low surrogate": {`"a\udc00"`, validation.ValidateText("\xff").Error()},
		"replacement char":   {`"a\ufffdb"`, validation.ValidateText("\ufffd").Error()},
	}
	for typeName, target := range targets {
		typ := reflect.TypeOf(target).Elem()
		for name, idx := range jsonFields(typ) {
			if jsonKind(typ.FieldByIndex(idx).Type) != "a string" {
				continue
			}
			for what, b := range bad {
				body := `{"` + name + `":` + b.raw + `}`
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				fe, ok := decodeBody(w, r, reflect.New(typ).Interface(), nil)
				if !ok {
					t.Fatalf("%s %s %s: refused %d %s", typeName, name, what, w.Code, w.Body)
				}
				if got := fe[name]; len(got) != 1 || got[0] != b.want {
					t.Errorf("%s.%s %s: %v, want [%s]", typeName, name, what, fe, b.want)
				}
			}
		}
	}
	// A surrogate pair is a character; an escaped backslash before "u" is not an escape.
	for _, ok := range []string{`"\ud83d\ude00"`, `"a\\ud800"`, `"M\u00fcller"`} {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"city":`+ok+`}`))
		r.Header.Set("Content-Type", "application/json")
		if fe, _ := decodeBody(httptest.NewRecorder(), r, &AccountCreateRequest{}, nil); !fe.Empty() {
			t.Errorf("%s refused: %v", ok, fe)
		}
	}
}

// The request types document the same length limits as the rules check (/openapi.json).
func TestRequestMaxLengthsAreTheRules(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeOf(AccountCreateRequest{}), reflect.TypeOf(AccountUpdateRequest{}), reflect.TypeOf(PaymentMethodDetailsCreateRequest{}),
	} {
		for _, idx := range jsonFields(typ) {
			f := typ.FieldByIndex(idx)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			max, limited := rules.MaxLength[name]
			tag := parseOpenAPITag(f.Tag.Get("openapi"))
			got := 0
			if tag.maxLength != nil {
				got = int(*tag.maxLength)
			}
			if limited && got != max || !limited && got != 0 {
				t.Errorf("%s.%s: maxLength tag %d, rules %d", typ.Name(), name, got, max)
			}
		}
	}
}
