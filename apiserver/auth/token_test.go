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
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

const (
	testIssuerURL = "https://api.fundshare.example"
	testAudience  = "api.fundshare.example"
)

// fakeClock is a settable clock shared by Issuer and Throttle in tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTestKeys(t testing.TB) (*KeySet, *ecdsa.PrivateKey) {
	t.Helper()
	key := must(GenerateSigningKey())(t)
	ks := must(NewKeySet(key))(t)
	return ks, key
}

// newTestIssuer is an issuer of testIssuerURL signing with ks, on clock (nil: the real
// time).
func newTestIssuer(t testing.TB, ks *KeySet, clock *fakeClock) *Issuer {
	t.Helper()
	cfg := IssuerConfig{Keys: ks, Issuer: testIssuerURL}
	if clock != nil {
		cfg.Now = clock.Now
	}
	return must(NewIssuer(cfg))(t)
}

// issued is a token iss issues to the client clientID of tenant for the scope every
// client is granted.
func issued(t testing.TB, iss *Issuer, tenant, clientID string) string {
	t.Helper()
	tok, _, err := iss.Issue(tenant, clientID, "openid offline")
	mustOK(t, err)
	return tok
}

func TestNewIssuerConfig(t *testing.T) {
	ks, _ := newTestKeys(t)
	iss := must(NewIssuer(IssuerConfig{Keys: ks, Issuer: "https://api.fundshare.example:8443/base"}))(t)
	if iss.Audience() != testAudience || iss.TTL() != time.Hour {
		t.Fatalf("audience %q ttl %v; want host name without port and 1h", iss.Audience(), iss.TTL())
	}
	for name, cfg := range map[string]IssuerConfig{
		"no keys":         {Issuer: testIssuerURL},
		"no issuer":       {Keys: ks},
		"relative issuer": {Keys: ks, Issuer: "/api"},
		"audience scheme": {Keys: ks, Issuer: testIssuerURL, Audience: "https://api.fundshare.example"},
		"negative ttl":    {Keys: ks, Issuer: testIssuerURL, TTL: -time.Second},
		"fractional ttl":  {Keys: ks, Issuer: testIssuerURL, TTL: 1500 * time.Millisecond},
	} {
		if _, err := NewIssuer(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestIssueAndVerify(t *testing.T) {
	clock := newFakeClock()
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)

	tok, expiresIn, err := iss.Issue("tenant-acme", "acme", "openid offline")
	if err != nil {
		t.Fatal(err)
	}
	if expiresIn != 3600 {
		t.Fatalf("expiresIn = %d", expiresIn)
	}

	// Header as specified.
	header := decodeSegment(t, tok, 0)
	if header["alg"] != "ES256" || header["typ"] != "at+jwt" || header["kid"] != ks.ActiveKID() {
		t.Fatalf("header = %v", header)
	}
	// Raw claims as specified (aud is an array).
	payload := decodeSegment(t, tok, 1)
	if aud, ok := payload["aud"].([]any); !ok || len(aud) != 1 || aud[0] != testAudience {
		t.Fatalf("aud = %#v, want [%q]", payload["aud"], testAudience)
	}

	claims := must(iss.Verify(tok))(t)
	now := clock.Now()
	if claims.Issuer != testIssuerURL || claims.Subject != "acme" || claims.ClientID != "acme" ||
		claims.Tenant != "tenant-acme" || claims.Scope != "openid offline" {
		t.Fatalf("claims = %+v", claims)
	}
	if !claims.IssuedAt.Equal(now) || !claims.NotBefore.Equal(now) || !claims.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Fatalf("times iat=%v nbf=%v exp=%v", claims.IssuedAt, claims.NotBefore, claims.ExpiresAt)
	}
	id, err := uuid.Parse(claims.ID)
	if err != nil || id.Version() != 4 {
		t.Fatalf("jti %q is not a UUIDv4", claims.ID)
	}
	tok2, _, _ := iss.Issue("tenant-acme", "acme", "openid offline")
	c2, _ := iss.Verify(tok2)
	if c2.ID == claims.ID {
		t.Fatal("jti repeated")
	}

	// Still valid just before expiry and within the leeway after it.
	clock.Advance(time.Hour + 20*time.Second)
	if _, err := iss.Verify(tok); err != nil {
		t.Fatalf("rejected within leeway: %v", err)
	}
	clock.Advance(11 * time.Second) // 31 s past exp
	if _, err := iss.Verify(tok); !errors.Is(err, jwt.ErrTokenExpired) || !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("err = %v, want expired", err)
	}

	if _, _, err := iss.Issue("", "acme", "openid offline"); err == nil {
		t.Fatal("issued a token without tenant")
	}
}

// TestVerifyAcceptsPreviousKey covers key rotation: tokens signed by a key
// that is still listed for verification remain valid.
func TestVerifyAcceptsPreviousKey(t *testing.T) {
	clock := newFakeClock()
	oldKS, oldKey := newTestKeys(t)
	oldIss := newTestIssuer(t, oldKS, clock)
	tok := issued(t, oldIss, "t", "c")
	newKey, _ := GenerateSigningKey()
	rotated := must(NewKeySet(newKey, &oldKey.PublicKey))(t)
	if _, err := newTestIssuer(t, rotated, clock).Verify(tok); err != nil {
		t.Fatalf("token signed by previous key rejected: %v", err)
	}
	onlyNew, _ := NewKeySet(newKey)
	if _, err := newTestIssuer(t, onlyNew, clock).Verify(tok); err == nil {
		t.Fatal("token signed by a retired key accepted")
	}
}

func decodeSegment(t *testing.T, tok string, i int) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	raw := must(base64.RawURLEncoding.DecodeString(parts[i]))(t)
	m := map[string]any{}
	mustOK(t, json.Unmarshal(raw, &m))
	return m
}

func TestVerifyRejects(t *testing.T) {
	clock := newFakeClock()
	ks, key := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	now := clock.Now()
	kid := ks.ActiveKID()

	validClaims := func() *Claims {
		return &Claims{
			RegisteredClaims: jwt.RegisteredClaims{
				Issuer:    testIssuerURL,
				Subject:   "acme",
				Audience:  jwt.ClaimStrings{testAudience},
				ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
				NotBefore: jwt.NewNumericDate(now),
				IssuedAt:  jwt.NewNumericDate(now),
				ID:        uuid.NewString(),
			},
			Tenant:   "tenant-acme",
			ClientID: "acme",
			Scope:    "openid offline",
		}
	}
	sign := func(method jwt.SigningMethod, signKey any, header map[string]any, claims jwt.Claims) string {
		t.Helper()
		tok := jwt.NewWithClaims(method, claims)
		tok.Header["kid"] = kid
		for k, v := range header {
			if v == nil {
				delete(tok.Header, k)
			} else {
				tok.Header[k] = v
			}
		}
		s := must(tok.SignedString(signKey))(t)
		if method == jwt.SigningMethodES256 {
			s = must(CanonicalES256(s))(t)
		}
		return s
	}
	withClaims := func(mut func(*Claims)) string {
		c := validClaims()
		mut(c)
		return sign(jwt.SigningMethodES256, key, nil, c)
	}

	// Sanity: the helper itself produces an accepted token.
	if _, err := iss.Verify(sign(jwt.SigningMethodES256, key, nil, validClaims())); err != nil {
		t.Fatalf("baseline token rejected: %v", err)
	}

	pubDER, pubPEM := publicKeyDER(t, key), publicKeyPEM(t, key)
	pubRaw, _ := key.PublicKey.Bytes()
	foreign, _ := GenerateSigningKey()
	p384 := p384Key(t)

	tampered := func() string {
		good := sign(jwt.SigningMethodES256, key, nil, validClaims())
		parts := strings.Split(good, ".")
		c := validClaims()
		c.Tenant = "tenant-victim"
		payload, _ := json.Marshal(c)
		parts[1] = base64.RawURLEncoding.EncodeToString(payload)
		return strings.Join(parts, ".")
	}()
	badSig := func() string {
		good := sign(jwt.SigningMethodES256, key, nil, validClaims())
		parts := strings.Split(good, ".")
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		sig[5] ^= 0x01
		parts[2] = base64.RawURLEncoding.EncodeToString(sig)
		return strings.Join(parts, ".")
	}()
	headerSwap := func() string {
		// ES256 token whose header is replaced by one claiming HS256.
		good := sign(jwt.SigningMethodES256, key, nil, validClaims())
		parts := strings.Split(good, ".")
		parts[0] = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","kid":"` + kid + `","typ":"JWT"}`))
		return strings.Join(parts, ".")
	}()

	cases := []struct {
		name    string
		token   string
		wantErr error // optional, checked with errors.Is
	}{
		{"alg none", sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, nil, validClaims()), nil},
		{"alg none unsigned literal", strings.Join([]string{
			base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT","kid":"` + kid + `"}`)),
			strings.Split(sign(jwt.SigningMethodES256, key, nil, validClaims()), ".")[1], ""}, "."), nil},
		{"HS256 with public key PEM", sign(jwt.SigningMethodHS256, pubPEM, nil, validClaims()), nil},
		{"HS256 with public key DER", sign(jwt.SigningMethodHS256, pubDER, nil, validClaims()), nil},
		{"HS256 with raw public point", sign(jwt.SigningMethodHS256, pubRaw, nil, validClaims()), nil},
		{"ES256 signature under HS256 header", headerSwap, nil},
		{"ES384 with P-384 key", sign(jwt.SigningMethodES384, p384, nil, validClaims()), nil},
		{"foreign key same kid", sign(jwt.SigningMethodES256, foreign, nil, validClaims()), jwt.ErrTokenSignatureInvalid},
		{"foreign key own kid", sign(jwt.SigningMethodES256, foreign, map[string]any{"kid": mustKID(t, foreign)}, validClaims()), nil},
		{"missing kid", sign(jwt.SigningMethodES256, key, map[string]any{"kid": nil}, validClaims()), nil},
		{"non-string kid", sign(jwt.SigningMethodES256, key, map[string]any{"kid": 7}, validClaims()), nil},
		{"typ JOSE", sign(jwt.SigningMethodES256, key, map[string]any{"typ": "JOSE"}, validClaims()), nil},
		{"typ of another JWT kind", sign(jwt.SigningMethodES256, key, map[string]any{"typ": "secevent+jwt"}, validClaims()), nil},
		{"typ jwt in lower case", sign(jwt.SigningMethodES256, key, map[string]any{"typ": "jwt"}, validClaims()), nil},
		{"typ at+jwt with parameters", sign(jwt.SigningMethodES256, key, map[string]any{"typ": "at+jwt; charset=utf-8"}, validClaims()), nil},
		{"no typ", sign(jwt.SigningMethodES256, key, map[string]any{"typ": nil}, validClaims()), nil},
		{"non-string typ", sign(jwt.SigningMethodES256, key, map[string]any{"typ": 1}, validClaims()), nil},
		{"crit header", sign(jwt.SigningMethodES256, key, map[string]any{"crit": []string{"exp"}}, validClaims()), nil},
		{"expired", withClaims(func(c *Claims) {
			c.IssuedAt = jwt.NewNumericDate(now.Add(-2 * time.Hour))
			c.NotBefore = c.IssuedAt
			c.ExpiresAt = jwt.NewNumericDate(now.Add(-time.Hour))
		}), jwt.ErrTokenExpired},
		{"expired beyond leeway", withClaims(func(c *Claims) {
			c.ExpiresAt = jwt.NewNumericDate(now.Add(-31 * time.Second))
			c.IssuedAt = jwt.NewNumericDate(now.Add(-time.Hour))
			c.NotBefore = c.IssuedAt
		}), jwt.ErrTokenExpired},
		{"not yet valid", withClaims(func(c *Claims) {
			c.NotBefore = jwt.NewNumericDate(now.Add(time.Hour))
		}), jwt.ErrTokenNotValidYet},
		{"issued in the future", withClaims(func(c *Claims) {
			c.IssuedAt = jwt.NewNumericDate(now.Add(time.Hour))
		}), jwt.ErrTokenUsedBeforeIssued},
		{"wrong aud", withClaims(func(c *Claims) { c.Audience = jwt.ClaimStrings{"evil.example"} }), jwt.ErrTokenInvalidAudience},
		{"aud with scheme", withClaims(func(c *Claims) { c.Audience = jwt.ClaimStrings{testIssuerURL} }), jwt.ErrTokenInvalidAudience},
		{"missing aud", withClaims(func(c *Claims) { c.Audience = nil }), nil},
		{"wrong iss", withClaims(func(c *Claims) { c.Issuer = "https://evil.example" }), jwt.ErrTokenInvalidIssuer},
		{"missing iss", withClaims(func(c *Claims) { c.Issuer = "" }), nil},
		{"missing exp", withClaims(func(c *Claims) { c.ExpiresAt = nil }), jwt.ErrTokenRequiredClaimMissing},
		{"missing iat", withClaims(func(c *Claims) { c.IssuedAt = nil }), jwt.ErrTokenRequiredClaimMissing},
		{"empty tenant", withClaims(func(c *Claims) { c.Tenant = "" }), jwt.ErrTokenRequiredClaimMissing},
		{"empty client_id", withClaims(func(c *Claims) { c.ClientID = "" }), jwt.ErrTokenRequiredClaimMissing},
		{"sub differs from client_id", withClaims(func(c *Claims) { c.Subject = "someone-else" }), nil},
		{"tampered payload", tampered, jwt.ErrTokenSignatureInvalid},
		{"tampered signature", badSig, jwt.ErrTokenSignatureInvalid},
		{"empty", "", nil},
		{"garbage", "not.a.jwt", nil},
		{"two segments", "abc.def", nil},
		{"oversized", strings.Repeat("a", maxTokenLen+1), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			claims, err := iss.Verify(tc.token)
			t.Logf("rejected: %v", err)
			if err == nil {
				t.Fatalf("accepted: %+v", claims)
			}
			if claims != nil {
				t.Fatal("claims returned with an error")
			}
			if !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("error %v does not wrap ErrInvalidToken", err)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if tc.token != "" && len(tc.token) > 20 && strings.Contains(err.Error(), tc.token) {
				t.Fatal("error echoes the token")
			}
		})
	}
}

func mustKID(t *testing.T, k *ecdsa.PrivateKey) string {
	t.Helper()
	kid := must(Thumbprint(&k.PublicKey))(t)
	return kid
}

// highS returns token with its ES256 signature's s replaced by n − s: the same
// signature's other spelling, which crypto/ecdsa accepts.
func highS(t *testing.T, token string) string {
	t.Helper()
	dot := strings.LastIndexByte(token, '.')
	sig, err := base64.RawURLEncoding.DecodeString(token[dot+1:])
	if err != nil || len(sig) != 64 {
		t.Fatalf("signature: %v (%d bytes)", err, len(sig))
	}
	s := new(big.Int).SetBytes(sig[32:])
	s.Sub(elliptic.P256().Params().N, s)
	s.FillBytes(sig[32:])
	return token[:dot+1] + base64.RawURLEncoding.EncodeToString(sig)
}

func TestVerifyRefusesNonCanonicalHighSSignatures(t *testing.T) {
	clock := newFakeClock()
	ks, key := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	for i := range 32 { // Issue canonicalises: every token is low-s, and its twin is refused
		tok := issued(t, iss, "tenant-acme", "acme")
		if _, err := iss.Verify(tok); err != nil {
			t.Fatalf("token %d refused: %v", i, err)
		}
		twin := highS(t, tok)
		// The twin is a valid ECDSA signature: only the low-s rule refuses it.
		parts := strings.Split(twin, ".")
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		if !ecdsa.Verify(&key.PublicKey, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
			t.Fatal("the high-s twin does not verify with crypto/ecdsa; the test proves nothing")
		}
		_, err := iss.Verify(twin)
		if !errors.Is(err, ErrInvalidToken) || !errors.Is(err, jwt.ErrTokenSignatureInvalid) {
			t.Fatalf("high-s twin: err = %v, want an invalid signature", err)
		}
	}
}

// Rule (RFC 9068 §2.1): access tokens are issued with the typ header at+jwt.
func TestAccessTokensAreTypedATJWT(t *testing.T) {
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, nil)
	for range 3 {
		if typ := decodeSegment(t, issued(t, iss, "tenant-acme", "acme"), 0)["typ"]; typ != "at+jwt" {
			t.Fatalf("typ %#v, want at+jwt", typ)
		}
	}
}

// typedToken is a valid token of iss's key for acme, signed with the typ header typ.
func typedToken(t *testing.T, iss *Issuer, key *ecdsa.PrivateKey, clock *fakeClock, typ string) string {
	t.Helper()
	now := clock.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, &Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer: iss.IssuerURL(), Subject: "acme", Audience: jwt.ClaimStrings{iss.Audience()},
			ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)), NotBefore: jwt.NewNumericDate(now),
			IssuedAt: jwt.NewNumericDate(now), ID: uuid.NewString(),
		},
		Tenant: "tenant-acme", ClientID: "acme", Scope: "openid offline",
	})
	tok.Header["kid"] = iss.Keys().ActiveKID()
	tok.Header["typ"] = typ
	return must(CanonicalES256(must(tok.SignedString(key))(t)))(t)
}

// Rule (RFC 9068 §4, RFC 7515 §4.1.9): verification takes the access token type in either
// spelling, at+jwt or the media type application/at+jwt, in any letter case.
func TestVerifyAcceptsTheATJWTTypeInEitherSpelling(t *testing.T) {
	clock := newFakeClock()
	ks, key := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	for _, typ := range []string{"at+jwt", "AT+JWT", "application/at+jwt", "Application/At+JWT"} {
		if _, err := iss.Verify(typedToken(t, iss, key, clock, typ)); err != nil {
			t.Errorf("typ %q refused: %v", typ, err)
		}
	}
}

// Rule: tokens typed JWT, as every token was before the upgrade to RFC 9068 typing, are
// still accepted (they live at most one lifetime, and replicas of the previous release
// issue them during a rolling upgrade); any other type is refused (TestVerifyRejects).
func TestVerifyStillAcceptsTokensTypedJWTFromBeforeTheUpgrade(t *testing.T) {
	clock := newFakeClock()
	ks, key := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	claims, err := iss.Verify(typedToken(t, iss, key, clock, "JWT"))
	if err != nil || claims.ClientID != "acme" {
		t.Fatalf("a JWT-typed token: %v, %+v", err, claims)
	}
}

// Rule (RFC 9068 §2.2): an access token carries iss, exp, aud, sub, client_id, iat and
// jti; sub is the client (client credentials: no resource owner), jti unique, and aud is
// checked (a token without it or for another audience is refused: TestVerifyRejects).
func TestAccessTokensCarryTheClaimsOfRFC9068(t *testing.T) {
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, nil)
	seen := map[any]bool{}
	for range 2 {
		payload := decodeSegment(t, issued(t, iss, "tenant-acme", "acme"), 1)
		for _, claim := range []string{"iss", "exp", "aud", "sub", "client_id", "iat", "jti"} {
			if v, ok := payload[claim]; !ok || v == "" || v == nil {
				t.Errorf("claim %s missing in %v", claim, payload)
			}
		}
		if payload["sub"] != payload["client_id"] || payload["iss"] != iss.IssuerURL() {
			t.Errorf("sub %v, client_id %v, iss %v", payload["sub"], payload["client_id"], payload["iss"])
		}
		if seen[payload["jti"]] {
			t.Error("jti repeated")
		}
		seen[payload["jti"]] = true
	}
}
