// Copyright 2026 The fundshare-operator Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

// memStore is an in-memory ClientStore.
type memStore map[string]Client

func (m memStore) LookupClient(_ context.Context, id string) (Client, error) {
	if id == "boom" {
		return Client{}, errors.New("backend down")
	}
	c, ok := m[id]
	if !ok {
		return Client{}, ErrClientNotFound
	}
	if c.Credentials == "" {
		c.Credentials = CredentialsFingerprint("uid-"+id, 1, c.SecretHash)
	}
	return c, nil
}

// logBuffer collects log lines so tests can assert secrets never appear.
type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (b *logBuffer) logger() logr.Logger {
	return funcr.New(func(prefix, args string) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.lines = append(b.lines, prefix+" "+args)
	}, funcr.Options{})
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

// tokenFixture is a running token endpoint with known clients.
type tokenFixture struct {
	srv     *httptest.Server
	handler *tokenHandler
	clock   *fakeClock
	issuer  *Issuer
	logs    *logBuffer
	secret  string // secret of "acme", "disabled" and "acme:eu"
}

// oddSecret has characters that must be form-urlencoded inside Basic.
const oddSecret = "p+ss/w%rd:&=ü"

func newTokenFixture(t *testing.T) *tokenFixture {
	t.Helper()
	clock := newFakeClock()
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	secret := must(clientsecret.New())(t)
	hash := must(clientsecret.Hash(secret))(t)
	oddHash := must(clientsecret.Hash(oddSecret))(t)
	store := memStore{
		"acme":     {ID: "acme", Tenant: "tenant-acme", SecretHash: hash},
		"globex":   {ID: "globex", Tenant: "tenant-globex", SecretHash: hash},
		"disabled": {ID: "disabled", Tenant: "tenant-x", SecretHash: hash, Disabled: true},
		"broken":   {ID: "broken", Tenant: "tenant-x", SecretHash: "$argon2id$v=19$m=99999999,t=2,p=1$AAAA$AAAA"},
		"acme:eu":  {ID: "acme:eu", Tenant: "tenant-acme-eu", SecretHash: oddHash},
	}
	logs := &logBuffer{}
	h := NewTokenHandler(store, iss, NewThrottle(ThrottleConfig{PerClientSource: 5, PerSource: 20, Window: time.Minute, Now: clock.Now}), logs.logger())
	mux := http.NewServeMux()
	mux.Handle("/oauth2/token", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f := &tokenFixture{srv: srv, handler: h.(*tokenHandler), clock: clock, issuer: iss, logs: logs, secret: secret}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		all := logs.String()
		for _, s := range []string{secret, oddSecret, url.QueryEscape(oddSecret)} {
			if strings.Contains(all, s) {
				t.Error("a client secret appears in the logs")
			}
		}
		if strings.Contains(all, "eyJ") {
			t.Error("a JWT appears in the logs")
		}
	})
	return f
}

func (f *tokenFixture) form(clientID, secret string) url.Values {
	v := url.Values{
		"grant_type": {"client_credentials"},
		"scope":      {"openid offline"},
		"audience":   {testAudience},
	}
	if clientID != "" {
		v.Set("client_id", clientID)
	}
	if secret != "" {
		v.Set("client_secret", secret)
	}
	return v
}

type tokenResult struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

// do sends a raw request to the token endpoint.
func (f *tokenFixture) do(t *testing.T, method, path, contentType, body string, hdr http.Header) tokenResult {
	t.Helper()
	req := must(http.NewRequest(method, f.srv.URL+path, strings.NewReader(body)))(t)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, vs := range hdr {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	mustOK(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	res := tokenResult{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if err := json.Unmarshal(raw, &res.body); err != nil {
		t.Fatalf("status %d, body is not JSON: %v", resp.StatusCode, err)
	}
	return res
}

const formType = "application/x-www-form-urlencoded"

// postFrom sends a token request from the TCP peer remoteAddr (host:port), in
// process: httptest sets RemoteAddr as the server would.
func (f *tokenFixture) postFrom(t *testing.T, remoteAddr string, v url.Values) tokenResult {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", formType)
	req.RemoteAddr = remoteAddr
	w := httptest.NewRecorder()
	f.handler.ServeHTTP(w, req)
	res := tokenResult{status: w.Code, header: w.Header(), raw: w.Body.String()}
	if err := json.Unmarshal(w.Body.Bytes(), &res.body); err != nil {
		t.Fatalf("status %d, body is not JSON: %v", w.Code, err)
	}
	return res
}

func (f *tokenFixture) post(t *testing.T, v url.Values, hdr http.Header) tokenResult {
	t.Helper()
	return f.do(t, http.MethodPost, "/oauth2/token", formType, v.Encode(), hdr)
}

func basic(id, secret string) http.Header {
	raw := url.QueryEscape(id) + ":" + url.QueryEscape(secret)
	return http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(raw))}}
}

func checkNoStore(t *testing.T, r tokenResult) {
	t.Helper()
	if got := r.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
	if got := r.header.Get("Pragma"); got != "no-cache" {
		t.Errorf("Pragma %q", got)
	}
	if got := r.header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
}

func (f *tokenFixture) checkSuccess(t *testing.T, r tokenResult, tenant, clientID string) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.raw)
	}
	checkNoStore(t, r)
	if r.body["token_type"] != "Bearer" || r.body["expires_in"] != float64(3600) || r.body["scope"] != "openid offline" {
		t.Fatalf("body %v", r.body)
	}
	if len(r.body) != 4 {
		t.Fatalf("unexpected fields in %v", r.body)
	}
	tok, _ := r.body["access_token"].(string)
	claims, err := f.issuer.Verify(tok)
	if err != nil {
		t.Fatalf("issued token does not verify: %v", err)
	}
	if claims.Tenant != tenant || claims.ClientID != clientID || claims.Subject != clientID || claims.Scope != "openid offline" {
		t.Fatalf("claims %+v", claims)
	}
}

func TestTokenEndpointSuccess(t *testing.T) {
	f := newTokenFixture(t)
	t.Run("form credentials", func(t *testing.T) {
		f.checkSuccess(t, f.post(t, f.form("acme", f.secret), nil), "tenant-acme", "acme")
	})
	t.Run("scope order and charset", func(t *testing.T) {
		v := f.form("acme", f.secret)
		v.Set("scope", "offline  openid")
		r := f.do(t, http.MethodPost, "/oauth2/token", "application/x-www-form-urlencoded; charset=UTF-8", v.Encode(), nil)
		f.checkSuccess(t, r, "tenant-acme", "acme")
	})
	t.Run("audience case-insensitive", func(t *testing.T) {
		v := f.form("acme", f.secret)
		v.Set("audience", strings.ToUpper(testAudience))
		f.checkSuccess(t, f.post(t, v, nil), "tenant-acme", "acme")
	})
	t.Run("basic", func(t *testing.T) {
		f.checkSuccess(t, f.post(t, f.form("", ""), basic("acme", f.secret)), "tenant-acme", "acme")
	})
	t.Run("basic with form-urlencoded id and secret", func(t *testing.T) {
		f.checkSuccess(t, f.post(t, f.form("", ""), basic("acme:eu", oddSecret)), "tenant-acme-eu", "acme:eu")
	})
	t.Run("basic and matching form values", func(t *testing.T) {
		f.checkSuccess(t, f.post(t, f.form("acme", f.secret), basic("acme", f.secret)), "tenant-acme", "acme")
	})
	if !strings.Contains(f.logs.String(), `"outcome"="issued"`) {
		t.Error("success not logged")
	}
}

func TestTokenEndpointErrors(t *testing.T) {
	f := newTokenFixture(t)
	good := func() url.Values { return f.form("acme", f.secret) }
	with := func(mut func(url.Values)) string {
		v := good()
		mut(v)
		return v.Encode()
	}
	const basicChallenge = `Basic realm="fundshare"`

	cases := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		header      http.Header
		status      int
		code        string
		challenge   string
	}{
		{name: "GET", method: http.MethodGet, status: 405, code: "invalid_request"},
		{name: "JSON body", contentType: "application/json", body: `{"grant_type":"client_credentials"}`, status: 400, code: "invalid_request"},
		{name: "no content type", contentType: "-", body: good().Encode(), status: 400, code: "invalid_request"},
		{name: "multipart", contentType: "multipart/form-data; boundary=x", body: good().Encode(), status: 400, code: "invalid_request"},
		{name: "query string", path: "/oauth2/token?client_secret=x", body: good().Encode(), status: 400, code: "invalid_request"},
		{name: "malformed form", body: "grant_type=%zz", status: 400, code: "invalid_request"},
		{name: "body too large", body: good().Encode() + "&pad=" + strings.Repeat("a", 70<<10), status: 413, code: "invalid_request"},
		{name: "duplicate scope", body: good().Encode() + "&scope=openid+offline", status: 400, code: "invalid_request"},
		{name: "duplicate client_id", body: good().Encode() + "&client_id=acme", status: 400, code: "invalid_request"},
		{name: "duplicate unknown param", body: good().Encode() + "&x=1&x=2", status: 400, code: "invalid_request"},
		{name: "missing grant_type", body: with(func(v url.Values) { v.Del("grant_type") }), status: 400, code: "invalid_request"},
		{name: "empty grant_type", body: with(func(v url.Values) { v.Set("grant_type", "") }), status: 400, code: "invalid_request"},
		{name: "password grant", body: with(func(v url.Values) { v.Set("grant_type", "password") }), status: 400, code: "unsupported_grant_type"},
		{name: "scope without offline", body: with(func(v url.Values) { v.Set("scope", "openid") }), status: 400, code: "invalid_scope"},
		{name: "extra scope", body: with(func(v url.Values) { v.Set("scope", "openid offline admin") }), status: 400, code: "invalid_scope"},
		{name: "comma-separated scope", body: with(func(v url.Values) { v.Set("scope", "openid,offline") }), status: 400, code: "invalid_scope"},
		{name: "blank scope", body: with(func(v url.Values) { v.Set("scope", "  ") }), status: 400, code: "invalid_scope"},
		{name: "missing audience", body: with(func(v url.Values) { v.Del("audience") }), status: 400, code: "invalid_request"},
		{name: "audience with scheme", body: with(func(v url.Values) { v.Set("audience", testIssuerURL) }), status: 400, code: "invalid_request"},
		{name: "audience with port", body: with(func(v url.Values) { v.Set("audience", testAudience+":443") }), status: 400, code: "invalid_request"},
		{name: "other audience", body: with(func(v url.Values) { v.Set("audience", "evil.example") }), status: 400, code: "invalid_request"},
		{name: "no credentials", body: f.form("", "").Encode(), status: 401, code: "invalid_client"},
		{name: "client id too long", body: f.form(strings.Repeat("a", 300), "x").Encode(), status: 401, code: "invalid_client"},
		{name: "unknown client", body: f.form("nobody", f.secret).Encode(), status: 401, code: "invalid_client"},
		{name: "wrong secret", body: f.form("acme", "wrong").Encode(), status: 401, code: "invalid_client"},
		{name: "missing secret", body: f.form("globex", "").Encode(), status: 401, code: "invalid_client"},
		{name: "disabled client", body: f.form("disabled", f.secret).Encode(), status: 401, code: "invalid_client"},
		{name: "unusable stored hash", body: f.form("broken", f.secret).Encode(), status: 401, code: "invalid_client"},
		{name: "store failure", body: f.form("boom", f.secret).Encode(), status: 500, code: "server_error"},
		{name: "basic wrong secret", body: f.form("", "").Encode(), header: basic("globex", "wrong"), status: 401, code: "invalid_client", challenge: basicChallenge},
		{name: "basic unknown client", body: f.form("", "").Encode(), header: basic("nobody", "x"), status: 401, code: "invalid_client", challenge: basicChallenge},
		{name: "basic malformed", body: f.form("", "").Encode(), header: http.Header{"Authorization": {"Basic !!!"}}, status: 401, code: "invalid_client", challenge: basicChallenge},
		{name: "basic bad escaping", body: f.form("", "").Encode(),
			header: http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte("acme:%zz"))}}, status: 401, code: "invalid_client", challenge: basicChallenge},
		{name: "bearer instead of basic", body: f.form("", "").Encode(), header: http.Header{"Authorization": {"Bearer abc"}}, status: 401, code: "invalid_client", challenge: basicChallenge},
		{name: "basic and conflicting form id", body: f.form("globex", "").Encode(), header: basic("acme", f.secret), status: 400, code: "invalid_request"},
		{name: "basic and conflicting form secret", body: f.form("", "other").Encode(), header: basic("acme", f.secret), status: 400, code: "invalid_request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method, path, ct := tc.method, tc.path, tc.contentType
			if method == "" {
				method = http.MethodPost
			}
			if path == "" {
				path = "/oauth2/token"
			}
			switch ct {
			case "":
				ct = formType
			case "-":
				ct = ""
			}
			r := f.do(t, method, path, ct, tc.body, tc.header)
			if r.status != tc.status || r.body["error"] != tc.code {
				t.Fatalf("got %d %v, want %d %s", r.status, r.body["error"], tc.status, tc.code)
			}
			if _, ok := r.body["access_token"]; ok {
				t.Fatal("error response carries a token")
			}
			if desc, ok := r.body["error_description"].(string); !ok || desc == "" {
				t.Errorf("no error_description in %v", r.body)
			}
			if got := r.header.Get("WWW-Authenticate"); got != tc.challenge {
				t.Errorf("WWW-Authenticate %q, want %q", got, tc.challenge)
			}
			if tc.status == 405 && r.header.Get("Allow") != http.MethodPost {
				t.Errorf("Allow %q", r.header.Get("Allow"))
			}
			checkNoStore(t, r)
			if strings.Contains(r.raw, f.secret) {
				t.Fatal("response echoes the secret")
			}
		})
	}
}

// TestTokenEndpointClientFailuresLookAlike checks unknown client, wrong
// secret and disabled client produce byte-identical answers.
func TestTokenEndpointClientFailuresLookAlike(t *testing.T) {
	f := newTokenFixture(t)
	a := f.post(t, f.form("nobody", f.secret), nil)
	b := f.post(t, f.form("acme", "wrong"), nil)
	c := f.post(t, f.form("disabled", f.secret), nil)
	if a.raw != b.raw || b.raw != c.raw {
		t.Fatalf("answers differ:\n%s\n%s\n%s", a.raw, b.raw, c.raw)
	}
	logs := f.logs.String()
	for _, reason := range []string{"unknown client", "bad client secret", "client disabled"} {
		if !strings.Contains(logs, reason) {
			t.Errorf("log lacks reason %q", reason)
		}
	}
}

func TestTokenEndpointThrottle(t *testing.T) {
	f := newTokenFixture(t)
	for i := range 5 {
		if r := f.post(t, f.form("acme", "wrong"), nil); r.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: status %d", i+1, r.status)
		}
		f.clock.Advance(time.Second)
	}
	// Right secret, but throttled; Basic too.
	for _, hdr := range []http.Header{nil, basic("acme", f.secret)} {
		v := f.form("acme", f.secret)
		if hdr != nil {
			v = f.form("", "")
		}
		r := f.post(t, v, hdr)
		if r.status != http.StatusTooManyRequests || r.body["error"] != "invalid_client" {
			t.Fatalf("got %d %v, want 429 invalid_client", r.status, r.body["error"])
		}
		if ra := r.header.Get("Retry-After"); ra != "59" { // blocked until 5th failure (+4 s) + 60 s; now +5 s
			t.Fatalf("Retry-After %q, want 59", ra)
		}
		checkNoStore(t, r)
	}
	// Other clients are unaffected.
	f.checkSuccess(t, f.post(t, f.form("globex", f.secret), nil), "tenant-globex", "globex")

	f.clock.Advance(58 * time.Second)
	if r := f.post(t, f.form("acme", f.secret), nil); r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d one second before the window passes", r.status)
	}
	f.clock.Advance(time.Second)
	f.checkSuccess(t, f.post(t, f.form("acme", f.secret), nil), "tenant-acme", "acme")
	if !strings.Contains(f.logs.String(), `"reason"="throttled"`) {
		t.Error("throttling not logged")
	}
}

func TestTokenEndpointThrottleResetOnSuccess(t *testing.T) {
	f := newTokenFixture(t)
	fail := func(n int) {
		for range n {
			if r := f.post(t, f.form("acme", "wrong"), nil); r.status != http.StatusUnauthorized {
				t.Fatalf("status %d", r.status)
			}
		}
	}
	fail(4)
	f.checkSuccess(t, f.post(t, f.form("acme", f.secret), nil), "tenant-acme", "acme")
	fail(4)
	f.checkSuccess(t, f.post(t, f.form("acme", f.secret), nil), "tenant-acme", "acme")
}

// TestOAuth2ClientCredentials checks that the standard Go client works
// against the endpoint unmodified, with both client authentication styles.
func TestOAuth2ClientCredentials(t *testing.T) {
	f := newTokenFixture(t)
	for name, style := range map[string]oauth2.AuthStyle{
		"in params": oauth2.AuthStyleInParams,
		"in header": oauth2.AuthStyleInHeader,
	} {
		for _, client := range []struct{ id, secret, tenant string }{
			{"acme", f.secret, "tenant-acme"},
			{"acme:eu", oddSecret, "tenant-acme-eu"},
		} {
			t.Run(name+"/"+client.id, func(t *testing.T) {
				cfg := clientcredentials.Config{
					ClientID:       client.id,
					ClientSecret:   client.secret,
					TokenURL:       f.srv.URL + "/oauth2/token",
					Scopes:         []string{"openid", "offline"},
					EndpointParams: url.Values{"audience": {testAudience}},
					AuthStyle:      style,
				}
				tok, err := cfg.Token(context.Background())
				if err != nil {
					t.Fatalf("Token: %v", err)
				}
				if tok.TokenType != "Bearer" || tok.Extra("scope") != "openid offline" {
					t.Fatalf("token type %q scope %v", tok.TokenType, tok.Extra("scope"))
				}
				if until := time.Until(tok.Expiry); until < 59*time.Minute || until > time.Hour {
					t.Fatalf("expiry in %v", until)
				}
				claims, err := f.issuer.Verify(tok.AccessToken)
				if err != nil {
					t.Fatalf("token does not verify: %v", err)
				}
				if claims.Tenant != client.tenant || claims.ClientID != client.id {
					t.Fatalf("claims %+v", claims)
				}
			})
		}
	}

	// And a wrong secret surfaces as an OAuth error, not a token.
	cfg := clientcredentials.Config{
		ClientID: "acme", ClientSecret: "wrong", TokenURL: f.srv.URL + "/oauth2/token",
		Scopes: []string{"openid", "offline"}, EndpointParams: url.Values{"audience": {testAudience}},
		AuthStyle: oauth2.AuthStyleInHeader,
	}
	_, err := cfg.Token(context.Background())
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_client" || re.Response.StatusCode != http.StatusUnauthorized {
		t.Fatalf("err = %v, want invalid_client", err)
	}
}

// TestWrongSecretsFromOneAddressDoNotRefuseAnother: the lockout, where ten wrong
// secrets for a known client id refused the right secret everywhere for 15 minutes.
func TestWrongSecretsFromOneAddressDoNotRefuseAnother(t *testing.T) {
	f := newTokenFixture(t)
	for i := range 10 {
		r := f.postFrom(t, "192.0.2.1:4000", f.form("acme", "wrong"))
		if i < 5 && r.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, r.status)
		}
	}
	if r := f.postFrom(t, "192.0.2.1:4001", f.form("acme", f.secret)); r.status != http.StatusTooManyRequests {
		t.Fatalf("the failing address: %d, want 429", r.status)
	}
	f.checkSuccess(t, f.postFrom(t, "198.51.100.7:5000", f.form("acme", f.secret)), "tenant-acme", "acme")
}

// TestAnAddressSprayingClientIDsIsRefused: one address trying many ids is blocked as a
// source, for every id, and only that address.
func TestAnAddressSprayingClientIDsIsRefused(t *testing.T) {
	f := newTokenFixture(t)
	f.handler.verify = func(string, string) (bool, error) { return false, nil } // no argon2id: only the rule matters
	for i := range 20 {
		if r := f.postFrom(t, "192.0.2.1:4000", f.form(fmt.Sprintf("id-%d", i), "wrong")); r.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, r.status)
		}
	}
	r := f.postFrom(t, "192.0.2.1:4000", f.form("globex", f.secret))
	if r.status != http.StatusTooManyRequests || r.body["error"] != "invalid_client" || r.header.Get("Retry-After") == "" {
		t.Fatalf("got %d %v Retry-After %q, want 429 invalid_client with Retry-After", r.status, r.body, r.header.Get("Retry-After"))
	}
}

// TestUnknownClientVerifiesADummyHash: an unknown id costs one argon2id verification,
// against a hash with the real parameters, like a known one; so do disabled clients and
// clients whose stored hash is unusable.
func TestUnknownClientVerifiesADummyHash(t *testing.T) {
	f := newTokenFixture(t)
	var mu sync.Mutex
	var verified []string
	f.handler.verify = func(encoded, secret string) (bool, error) {
		mu.Lock()
		verified = append(verified, encoded)
		mu.Unlock()
		return clientsecret.Compare(encoded, secret)
	}
	cases := []struct {
		id   string
		want string
	}{
		{"nobody", clientsecret.DummyHash},
		{"acme", "real"},
		{"disabled", "real"},
	}
	for _, c := range cases {
		verified = nil
		if r := f.postFrom(t, "192.0.2.9:1", f.form(c.id, "wrong")); r.status != http.StatusUnauthorized {
			t.Fatalf("%s: %d", c.id, r.status)
		}
		if len(verified) != 1 {
			t.Fatalf("%s: %d verifications, want exactly 1", c.id, len(verified))
		}
		if c.want == clientsecret.DummyHash && verified[0] != clientsecret.DummyHash {
			t.Fatalf("%s: verified %q, want the dummy hash", c.id, verified[0])
		}
		if c.want == "real" && verified[0] == clientsecret.DummyHash {
			t.Fatalf("%s: verified the dummy hash, want its own", c.id)
		}
	}
	// That the dummy hash has the parameters of real hashes (so it costs the same) is
	// clientsecret's TestDummyHashMatchesRealParameters.
}

// TestTokenBodyOverTheLimitIs413InTheOAuthShape: announced or not, a body over 64 KiB is
// refused with 413 and an RFC 6749 error body.
func TestTokenBodyOverTheLimitIs413InTheOAuthShape(t *testing.T) {
	f := newTokenFixture(t)
	big := f.form("acme", f.secret).Encode() + "&pad=" + strings.Repeat("a", 2<<20)
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			body = io.MultiReader(strings.NewReader(big)) // no length: read up to the limit
		}
		req := must(http.NewRequest(http.MethodPost, f.srv.URL+"/oauth2/token", body))(t)
		req.Header.Set("Content-Type", formType)
		resp, err := http.DefaultClient.Do(req)
		mustOK(t, err)
		var got map[string]any
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || err != nil || got["error"] != "invalid_request" || got["error_description"] == nil {
			t.Fatalf("chunked=%v: %d %v (%v), want 413 invalid_request with a description", chunked, resp.StatusCode, got, err)
		}
	}
}

// TestSaturatedVerificationAnswers503WithRetryAfter: argon2id work is bounded; a request
// that finds no slot in time gets 503 temporarily_unavailable with Retry-After.
func TestSaturatedVerificationAnswers503WithRetryAfter(t *testing.T) {
	f := newTokenFixture(t)
	f.handler.gate = newVerifyGate(2, 100*time.Millisecond)
	release := make(chan struct{})
	entered := make(chan struct{}, 8)
	f.handler.verify = func(string, string) (bool, error) {
		entered <- struct{}{}
		<-release
		return false, nil
	}
	var wg sync.WaitGroup
	for i := range 2 { // fill every slot strangers may hold, and the known source's one
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.postFrom(t, fmt.Sprintf("203.0.113.%d:1", i), f.form("acme", "wrong"))
		}()
	}
	<-entered // one stranger holds the only unreserved slot; the other waits and times out
	r := f.postFrom(t, "203.0.113.99:1", f.form("acme", f.secret))
	if r.status != http.StatusServiceUnavailable || r.body["error"] != "temporarily_unavailable" || r.header.Get("Retry-After") != "1" {
		t.Fatalf("got %d %v Retry-After %q, want 503 temporarily_unavailable, Retry-After 1", r.status, r.body, r.header.Get("Retry-After"))
	}
	close(release)
	wg.Wait()
}

// TestAKnownSourceIsServedFirstUnderAFlood: a client id from an address it logged in from
// takes the reserved slot while strangers hold and queue for the rest.
func TestAKnownSourceIsServedFirstUnderAFlood(t *testing.T) {
	f := newTokenFixture(t)
	f.checkSuccess(t, f.postFrom(t, "198.51.100.7:5000", f.form("acme", f.secret)), "tenant-acme", "acme")
	f.handler.gate = newVerifyGate(2, time.Minute)
	release := make(chan struct{})
	f.handler.verify = func(encoded, secret string) (bool, error) {
		if secret == "wrong" {
			<-release
		}
		return clientsecret.Compare(encoded, secret)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.postFrom(t, fmt.Sprintf("203.0.113.%d:1", i), f.form("acme", "wrong"))
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.handler.gate.mu.Lock()
		queued := len(f.handler.gate.otherQ)
		f.handler.gate.mu.Unlock()
		if queued == 15 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d strangers queued, want 15", queued)
		}
		time.Sleep(time.Millisecond)
	}
	f.checkSuccess(t, f.postFrom(t, "198.51.100.7:5001", f.form("acme", f.secret)), "tenant-acme", "acme")
	close(release)
	wg.Wait()
}

// TestStrangersStartNoVerificationWhileAKnownSourceIsVerified: a free slot is not given to
// an unknown source while a known one is being verified.
func TestStrangersStartNoVerificationWhileAKnownSourceIsVerified(t *testing.T) {
	g := newVerifyGate(4, 50*time.Millisecond) // 3 slots strangers may hold, 1 reserved
	releaseKnown := must(g.acquire(context.Background(), true))(t)
	if _, err := g.acquire(context.Background(), false); !errors.Is(err, errGateBusy) {
		t.Fatalf("a stranger got a slot while a known source is verified: %v", err)
	}
	releaseKnown()
	release, err := g.acquire(context.Background(), false)
	if err != nil {
		t.Fatalf("a stranger got no slot once the known source was done: %v", err)
	}
	release()
}

// Rule (RFC 6749 §3.3): a token request without scope gets the default scope, every scope
// there is; a scope parameter without a value counts as omitted (§3.2).
func TestATokenRequestWithoutScopeGetsTheDefaultScope(t *testing.T) {
	f := newTokenFixture(t)
	for name, mut := range map[string]func(url.Values){
		"no scope":    func(v url.Values) { v.Del("scope") },
		"empty scope": func(v url.Values) { v.Set("scope", "") },
	} {
		t.Run(name, func(t *testing.T) {
			v := f.form("acme", f.secret)
			mut(v)
			r := f.post(t, v, nil)
			f.checkSuccess(t, r, "tenant-acme", "acme") // scope "openid offline", in the answer and the token
		})
	}
}

// Rule (RFC 6749 §5.2): a scope naming a scope that does not exist, or only part of the
// scope set (which is granted whole), is refused with 400 invalid_scope in the OAuth
// error shape, uncacheable, without a token.
func TestATokenRequestWithAnUnknownScopeGetsInvalidScope(t *testing.T) {
	f := newTokenFixture(t)
	for _, scope := range []string{"admin", "openid offline admin", "openid", "offline", "openid,offline", "OPENID OFFLINE"} {
		t.Run(scope, func(t *testing.T) {
			v := f.form("acme", f.secret)
			v.Set("scope", scope)
			r := f.post(t, v, nil)
			if r.status != http.StatusBadRequest || r.body["error"] != "invalid_scope" {
				t.Fatalf("%d %s, want 400 invalid_scope", r.status, r.raw)
			}
			desc, _ := r.body["error_description"].(string)
			if desc == "" || len(r.body) != 2 {
				t.Fatalf("body %s: want error and error_description only", r.raw)
			}
			for _, c := range desc { // RFC 6749 §5.2: %x20-21 / %x23-5B / %x5D-7E
				if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
					t.Fatalf("error_description %q has a character §5.2 excludes", desc)
				}
			}
			checkNoStore(t, r)
		})
	}
}

// Rule (RFC 6749 §5.1): the token response names the granted scope, always: when it
// differs from the one requested (none, or another spelling) and when it does not.
func TestTheTokenResponseAlwaysCarriesTheGrantedScope(t *testing.T) {
	f := newTokenFixture(t)
	for _, requested := range []string{"", "openid offline", "offline openid", "openid  openid offline"} {
		v := f.form("acme", f.secret)
		v.Set("scope", requested)
		r := f.post(t, v, nil)
		if r.status != http.StatusOK || r.body["scope"] != grantedScope {
			t.Errorf("scope %q: %d, granted scope %v, want %q", requested, r.status, r.body["scope"], grantedScope)
		}
	}
}
