package apiserver

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzDecodeBody feeds arbitrary bodies to the decoder of every request type: it must
// never panic, answer every refusal with the spec's error body and a 4xx status, and
// keep its messages short (never echo the body back).
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"chain":"polygon","wallet_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","is_primary":true}`,
		`{"type":"individual","first_name":"Erika","dob_day":31,"birthdate":"2023-02-31"}`,
		`{"side":"BUY","market":"PRIMARY","isin":"IE00B4L5Y983","amount_of_units":1e400}`,
		`{"iban":"DE89 3704 0044 0532 0130 00","type":"sepa","account_holder_name":null}`,
		`{"a":`, `[]`, `null`, `{} {}`, `{"is_primary":"yes","colour":"red"}`, "\xff\xfe", `{"x":{"y":[1,2,{"z":"` + strings.Repeat("w", 300) + `"}]}}`,
	} {
		f.Add(seed)
	}
	targets := []func() any{
		func() any { return &AccountCreateRequest{} }, func() any { return &AccountUpdateRequest{} },
		func() any { return &WalletCreateRequest{} }, func() any { return &WalletUpdateRequest{} },
		func() any { return &PaymentMethodDetailsCreateRequest{} }, func() any { return &PaymentMethodDetailsUpdateRequest{} },
		func() any { return &OrderCreateRequest{} },
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, newReq := range targets {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			fe, ok := decodeBody(w, r, newReq(), nil)
			if ok {
				for field, msgs := range fe {
					for _, m := range msgs {
						if len(m) > 200 {
							t.Fatalf("message for %q too long (%d bytes): echoes input?", field, len(m))
						}
					}
				}
				continue
			}
			if w.Code < 400 || w.Code > 499 {
				t.Fatalf("refusal with status %d", w.Code)
			}
			if !strings.Contains(w.Body.String(), `"error"`) {
				t.Fatalf("refusal without the spec's error body: %s", w.Body)
			}
		}
	})
}

// FuzzQueryParameters feeds arbitrary query strings to the query parser as the list
// endpoints use it: no panic, and paging is either in range or reported, never clamped.
func FuzzQueryParameters(f *testing.F) {
	for _, seed := range []string{
		"", "skip=0&limit=100", "skip=-1", "limit=0", "limit=1001", "limit=abc", "skip=1&skip=2",
		"is_primary=yes", "account_id=123E4567-E89B-42D3-A456-426614174000", "side=HOLD", "x=%zz", "limit=99999999999999999999",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		// The strict check of every route: whatever url.ParseQuery refuses, it refuses too.
		fe := checkQuery(raw, append([]string{"side", "account_id", "is_primary"}, pageParams...))
		if _, err := url.ParseQuery(raw); err != nil && fe.Empty() {
			t.Fatalf("checkQuery accepted %q, which url.ParseQuery refuses: %v", raw, err)
		}
		if _, err := url.ParseQuery(raw); err != nil {
			return // not a query string a client can send
		}
		r := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/", RawQuery: raw}}
		q := parseQuery(r, append([]string{"side", "account_id", "is_primary"}, pageParams...)...)
		q.enum("side", "BUY", "SELL")
		q.uuid("account_id")
		q.boolean("is_primary")
		p := q.page()
		if q.fe.Empty() && (p.skip < 0 || p.limit < 1 || p.limit > maxLimit) {
			t.Fatalf("page %+v out of range without a message", p)
		}
	})
}
