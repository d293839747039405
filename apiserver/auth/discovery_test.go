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
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

// discoveryDoc is a discovery document as a client reads it: every field, known or not.
type discoveryDoc map[string]any

func (d discoveryDoc) str(t *testing.T, field string) string {
	t.Helper()
	s, ok := d[field].(string)
	if !ok || s == "" {
		t.Fatalf("%s is %#v, want a non-empty string", field, d[field])
	}
	return s
}

func (d discoveryDoc) list(t *testing.T, field string) []string {
	t.Helper()
	raw, ok := d[field].([]any)
	if !ok {
		t.Fatalf("%s is %#v, want an array", field, d[field])
	}
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s holds %#v, want strings", field, v)
		}
		out = append(out, s)
	}
	return out
}

// fetchDocument answers method on h and returns the response and the decoded body (nil
// when there is none).
func fetchDocument(t *testing.T, h http.Handler, method string) (*httptest.ResponseRecorder, discoveryDoc) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, "/", nil))
	if w.Body.Len() == 0 {
		return w, nil
	}
	var doc discoveryDoc
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
		t.Fatalf("%s: body is not JSON: %v", method, err)
	}
	return w, doc
}

// discoveryHandlers are both documents of iss, by name.
func discoveryHandlers(iss *Issuer) map[string]http.Handler {
	return map[string]http.Handler{
		"oauth-authorization-server": AuthorizationServerMetadataHandler(iss),
		"openid-configuration":       OpenIDConfigurationHandler(iss),
	}
}

// Rule (RFC 8414 §3.3, OpenID Connect Discovery 1.0 §4.3): the issuer a discovery document
// names is the iss of the tokens, byte for byte, however the base URL is spelled.
func TestTheMetadataIssuerIsTheTokensIssuer(t *testing.T) {
	ks, _ := newTestKeys(t)
	for _, issuerURL := range []string{
		testIssuerURL,
		"https://api.fundshare.example/",
		"https://API.fundshare.example:8443/fundshare",
		"http://127.0.0.1:8080",
	} {
		iss := must(NewIssuer(IssuerConfig{Keys: ks, Issuer: issuerURL}))(t)
		tokenIss, ok := decodeSegment(t, issued(t, iss, "tenant-acme", "acme"), 1)["iss"].(string)
		if !ok || tokenIss != issuerURL {
			t.Fatalf("%s: the token's iss is %q", issuerURL, tokenIss)
		}
		for name, h := range discoveryHandlers(iss) {
			_, doc := fetchDocument(t, h, http.MethodGet)
			if got := doc.str(t, "issuer"); got != tokenIss {
				t.Errorf("%s of %s: issuer %q, the token's iss %q", name, issuerURL, got, tokenIss)
			}
		}
	}
}

// Rule: token_endpoint and jwks_uri are absolute URLs of the facade's own paths under the
// issuer (the public base URL), a trailing slash of the base URL not doubled.
func TestTheMetadataEndpointsAreAbsoluteURLsUnderTheIssuer(t *testing.T) {
	ks, _ := newTestKeys(t)
	for issuerURL, base := range map[string]string{
		testIssuerURL:                         testIssuerURL,
		"https://api.fundshare.example/":      "https://api.fundshare.example",
		"https://api.fundshare.example/base/": "https://api.fundshare.example/base",
	} {
		iss := must(NewIssuer(IssuerConfig{Keys: ks, Issuer: issuerURL}))(t)
		for name, h := range discoveryHandlers(iss) {
			_, doc := fetchDocument(t, h, http.MethodGet)
			for field, want := range map[string]string{"token_endpoint": base + "/oauth2/token", "jwks_uri": base + "/.well-known/jwks.json"} {
				got := doc.str(t, field)
				if got != want {
					t.Errorf("%s of %s: %s %q, want %q", name, issuerURL, field, got, want)
				}
				if u, err := url.Parse(got); err != nil || !u.IsAbs() || u.Host == "" {
					t.Errorf("%s of %s: %s %q is not an absolute URL", name, issuerURL, field, got)
				}
			}
		}
	}
}

// Rule: the documents are public JSON that clients and proxies may cache; HEAD answers as
// GET without the body; other methods get 405.
func TestTheMetadataIsPublicCacheableJSON(t *testing.T) {
	ks, _ := newTestKeys(t)
	for name, h := range discoveryHandlers(newTestIssuer(t, ks, nil)) {
		get, doc := fetchDocument(t, h, http.MethodGet)
		if get.Code != http.StatusOK || doc == nil {
			t.Fatalf("%s: GET %d, body %q", name, get.Code, get.Body)
		}
		if ct := get.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", name, ct)
		}
		cc := get.Header().Get("Cache-Control")
		maxAge, ok := strings.CutPrefix(cc, "public, max-age=")
		if n, err := strconv.Atoi(maxAge); !ok || err != nil || n <= 0 {
			t.Errorf("%s: Cache-Control %q, want public with a max-age", name, cc)
		}
		if cl := get.Header().Get("Content-Length"); cl != strconv.Itoa(get.Body.Len()) {
			t.Errorf("%s: Content-Length %q for %d bytes", name, cl, get.Body.Len())
		}
		head, body := fetchDocument(t, h, http.MethodHead)
		if head.Code != http.StatusOK || body != nil || !headersEqual(head.Header(), get.Header()) {
			t.Errorf("%s: HEAD %d %v with body %v; GET %v", name, head.Code, head.Header(), body, get.Header())
		}
		post := httptest.NewRecorder()
		h.ServeHTTP(post, httptest.NewRequest(http.MethodPost, "/", nil))
		if post.Code != http.StatusMethodNotAllowed || post.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: POST %d, Allow %q", name, post.Code, post.Header().Get("Allow"))
		}
	}
}

func headersEqual(a, b http.Header) bool {
	for _, k := range []string{"Content-Type", "Cache-Control", "Content-Length"} {
		if a.Get(k) != b.Get(k) {
			return false
		}
	}
	return true
}

// Rule: the metadata says what the token endpoint does: the one grant type, the scopes
// every token is granted, and the client authentication methods of clientCredentials.
func TestTheMetadataListsWhatTheTokenEndpointTakes(t *testing.T) {
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, nil)
	for name, h := range discoveryHandlers(iss) {
		_, doc := fetchDocument(t, h, http.MethodGet)
		if got := doc.list(t, "grant_types_supported"); !slices.Equal(got, []string{"client_credentials"}) {
			t.Errorf("%s: grant_types_supported %q", name, got)
		}
		if got := doc.list(t, "scopes_supported"); strings.Join(got, " ") != grantedScope {
			t.Errorf("%s: scopes_supported %q, tokens are granted %q", name, got, grantedScope)
		}
		if got := doc.list(t, "token_endpoint_auth_methods_supported"); !slices.Equal(got, []string{"client_secret_basic", "client_secret_post"}) {
			t.Errorf("%s: token_endpoint_auth_methods_supported %q", name, got)
		}
		// RFC 8414 §2 requires response_types_supported; there is no authorization endpoint,
		// so it lists nothing, and no authorization_endpoint is named.
		if got := doc.list(t, "response_types_supported"); len(got) != 0 {
			t.Errorf("%s: response_types_supported %q, want []", name, got)
		}
		for _, absent := range []string{"authorization_endpoint", "token_endpoint_auth_signing_alg_values_supported", "userinfo_endpoint", "registration_endpoint"} {
			if _, ok := doc[absent]; ok {
				t.Errorf("%s: names %s, which the service does not have", name, absent)
			}
		}
	}
}

// Rule (OpenID Connect Discovery 1.0 §3): the OpenID configuration has the required fields
// a service without authorization endpoint and ID tokens can state truthfully: issuer,
// jwks_uri, response_types_supported (empty), subject_types_supported (public: sub is the
// client id for everyone) and id_token_signing_alg_values_supported (the algorithm of the
// tokens it signs). The RFC 8414 document has none of the OpenID-only fields.
func TestTheOpenIDConfigurationHasTheRequiredDiscoveryFields(t *testing.T) {
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, nil)
	tokenAlg := decodeSegment(t, issued(t, iss, "tenant-acme", "acme"), 0)["alg"]

	_, oidc := fetchDocument(t, OpenIDConfigurationHandler(iss), http.MethodGet)
	oidc.str(t, "issuer")
	oidc.str(t, "jwks_uri")
	oidc.list(t, "response_types_supported")
	if got := oidc.list(t, "subject_types_supported"); !slices.Equal(got, []string{"public"}) {
		t.Errorf("subject_types_supported %q", got)
	}
	if got := oidc.list(t, "id_token_signing_alg_values_supported"); !slices.Equal(got, []string{tokenAlg.(string)}) {
		t.Errorf("id_token_signing_alg_values_supported %q, tokens are signed %v", got, tokenAlg)
	}
	if got := oidc.list(t, "scopes_supported"); !slices.Contains(got, "openid") {
		t.Errorf("scopes_supported %q lacks openid", got)
	}

	_, rfc8414 := fetchDocument(t, AuthorizationServerMetadataHandler(iss), http.MethodGet)
	for _, f := range []string{"subject_types_supported", "id_token_signing_alg_values_supported"} {
		if _, ok := rfc8414[f]; ok {
			t.Errorf("the RFC 8414 document names %s", f)
		}
	}
	for f, v := range rfc8414 {
		if w, ok := oidc[f]; !ok || !jsonEqual(t, v, w) {
			t.Errorf("%s: %v in the RFC 8414 document, %v in the OpenID configuration", f, v, w)
		}
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	return string(must(json.Marshal(a))(t)) == string(must(json.Marshal(b))(t))
}

// discoveredService is the token flow served at a real base URL: the token endpoint, the
// key set and both discovery documents at their paths, the issuer the server's URL.
type discoveredService struct {
	srv    *httptest.Server
	issuer *Issuer
	secret string
}

func newDiscoveredService(t *testing.T) *discoveredService {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ks, _ := newTestKeys(t)
	iss := must(NewIssuer(IssuerConfig{Keys: ks, Issuer: srv.URL}))(t)
	secret := must(clientsecret.New())(t)
	store := memStore{"acme": {ID: "acme", Tenant: "tenant-acme", SecretHash: must(clientsecret.Hash(secret))(t)}}
	mux.Handle(TokenPath, NewTokenHandler(store, iss, nil, logr.Discard()))
	mux.Handle(JWKSPath, JWKSHandler(ks))
	mux.Handle(AuthorizationServerMetadataPath, AuthorizationServerMetadataHandler(iss))
	mux.Handle(OpenIDConfigurationPath, OpenIDConfigurationHandler(iss))
	return &discoveredService{srv: srv, issuer: iss, secret: secret}
}

// discover fetches a discovery document as a client does: the issuer and the well-known
// path (both issuers here have no path, where RFC 8414 and OpenID Connect agree).
func (s *discoveredService) discover(t *testing.T, path string) discoveryDoc {
	t.Helper()
	res, err := http.Get(s.srv.URL + path)
	mustOK(t, err)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	var doc discoveryDoc
	mustOK(t, json.NewDecoder(res.Body).Decode(&doc))
	return doc
}

// keysOf reads the JWK Set at jwksURI, by kid.
func keysOf(t *testing.T, jwksURI string) map[string]*ecdsa.PublicKey {
	t.Helper()
	res, err := http.Get(jwksURI)
	mustOK(t, err)
	defer res.Body.Close()
	var set struct {
		Keys []map[string]string `json:"keys"`
	}
	mustOK(t, json.NewDecoder(res.Body).Decode(&set))
	keys := map[string]*ecdsa.PublicKey{}
	for _, k := range set.Keys {
		x := must(base64.RawURLEncoding.DecodeString(k["x"]))(t)
		y := must(base64.RawURLEncoding.DecodeString(k["y"]))(t)
		keys[k["kid"]] = must(ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...)))(t)
	}
	return keys
}

// Rule: a client that knows nothing but the base URL finds everything through discovery:
// golang.org/x/oauth2/clientcredentials, given the token_endpoint of each document and no
// scope, obtains a token with either authentication method; the token's iss is the
// document's issuer, and the keys at jwks_uri verify it as an RFC 9068 access token.
func TestAClientThatDiscoversTheTokenEndpointGetsATokenTheJWKSURIVerifies(t *testing.T) {
	s := newDiscoveredService(t)
	for _, path := range []string{AuthorizationServerMetadataPath, OpenIDConfigurationPath} {
		doc := s.discover(t, path)
		for _, method := range doc.list(t, "token_endpoint_auth_methods_supported") {
			t.Run(path+"/"+method, func(t *testing.T) {
				style := map[string]oauth2.AuthStyle{
					"client_secret_basic": oauth2.AuthStyleInHeader,
					"client_secret_post":  oauth2.AuthStyleInParams,
				}[method]
				if style == oauth2.AuthStyleAutoDetect {
					t.Fatalf("advertised method %q has no test", method)
				}
				cfg := clientcredentials.Config{
					ClientID: "acme", ClientSecret: s.secret, TokenURL: doc.str(t, "token_endpoint"), AuthStyle: style,
					EndpointParams: url.Values{"audience": {s.issuer.Audience()}},
				}
				tok, err := cfg.Token(context.Background())
				if err != nil {
					t.Fatalf("Token: %v", err)
				}
				if tok.Extra("scope") != strings.Join(doc.list(t, "scopes_supported"), " ") {
					t.Errorf("granted scope %v, scopes_supported %q", tok.Extra("scope"), doc.list(t, "scopes_supported"))
				}
				keys := keysOf(t, doc.str(t, "jwks_uri"))
				claims := &Claims{}
				parsed, err := jwt.ParseWithClaims(tok.AccessToken, claims, func(tk *jwt.Token) (any, error) {
					return keys[tk.Header["kid"].(string)], nil
				}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer(doc.str(t, "issuer")),
					jwt.WithAudience(s.issuer.Audience()), jwt.WithExpirationRequired(), jwt.WithLeeway(time.Minute))
				if err != nil {
					t.Fatalf("the keys at jwks_uri do not verify the token: %v", err)
				}
				if parsed.Header["typ"] != "at+jwt" || claims.ClientID != "acme" {
					t.Errorf("typ %v, client_id %q", parsed.Header["typ"], claims.ClientID)
				}
			})
		}
	}
}
