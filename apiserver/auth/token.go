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
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// DefaultTokenTTL is the access-token lifetime used when IssuerConfig.TTL is
// zero; it is also the token endpoint's default expires_in.
const DefaultTokenTTL = time.Hour

// verifyLeeway is the clock-skew allowance applied to exp, nbf and iat.
// Tokens are only verified by our own replicas, so skew is small; 30 s is
// the ceiling the spec permits.
const verifyLeeway = 30 * time.Second

// maxTokenLen bounds the size of a token Verify will parse. Our tokens are
// well under 1 KiB; anything far larger is not ours and is not worth
// decoding.
const maxTokenLen = 8 << 10

// Values of the typ header (RFC 7515 §4.1.9). Access tokens are issued typed at+jwt, the
// JWT access token profile's type (RFC 9068 §2.1), so that no other kind of JWT signed
// with the same keys can pass for one. Verify also accepts application/at+jwt, the same
// type spelled as a full media type (RFC 9068 §4), and legacyTokenType, see acceptedType.
const (
	accessTokenType = "at+jwt"
	legacyTokenType = "JWT"
)

// ErrInvalidToken is wrapped by every error Verify returns, so callers can
// test for it with errors.Is. The jwt/v5 sentinel errors (for example
// jwt.ErrTokenExpired) are wrapped as well.
var ErrInvalidToken = errors.New("auth: invalid access token")

// Claims are the claims of a fundshare access token: those RFC 9068 §2.2 asks of a JWT
// access token (iss, exp, aud, sub, client_id, iat, jti), nbf, and ours. Tenant is the
// Kubernetes namespace the client is confined to; handlers must take the
// tenant from here, never from the request.
type Claims struct {
	jwt.RegisteredClaims
	// Tenant is the namespace of the client that obtained the token.
	Tenant string `json:"tenant"`
	// ClientID is the OAuth client id; it equals the sub claim.
	ClientID string `json:"client_id"`
	// Scope is the granted, space-separated scope string.
	Scope string `json:"scope"`
	// Credentials is the fingerprint of the client's credentials when the token was
	// issued (CredentialsFingerprint): the ApiClient object, its generation and its
	// secret hash. The bearer check refuses the token once the client's current
	// fingerprint differs, that is after the client was deleted, changed (disabled) or
	// its secret rotated.
	Credentials string `json:"cred,omitempty"`
}

// CredentialsFingerprint identifies the credentials a client authenticates with now:
// the identity of its ApiClient object (uid), the generation of its spec and the stored
// secret hash. Any change to one of them gives another fingerprint, so the tokens bound
// to the old one stop working. It is a truncated SHA-256 (128 bits) of values that are
// already unguessable or public to the client; it reveals nothing of the secret (the
// hash it covers is salted argon2id output, and the salt is not in the token).
func CredentialsFingerprint(uid string, generation int64, secretHash string) string {
	h := sha256.New()
	fmt.Fprintf(h, "fundshare credentials v1\x00%s\x00%d\x00", uid, generation)
	h.Write([]byte(secretHash))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:16])
}

// Validate implements jwt.ClaimsValidator; the parser calls it after the
// registered-claim checks. It enforces what those checks leave optional:
// iat must be present, tenant and client_id must be non-empty, and sub must
// name the same client as client_id.
func (c *Claims) Validate() error {
	if c.IssuedAt == nil {
		return fmt.Errorf("%w: iat claim is required", jwt.ErrTokenRequiredClaimMissing)
	}
	if c.Tenant == "" {
		return fmt.Errorf("%w: tenant claim is required", jwt.ErrTokenRequiredClaimMissing)
	}
	if c.ClientID == "" {
		return fmt.Errorf("%w: client_id claim is required", jwt.ErrTokenRequiredClaimMissing)
	}
	if c.Subject != c.ClientID {
		return fmt.Errorf("%w: sub does not match client_id", jwt.ErrTokenInvalidSubject)
	}
	return nil
}

// IssuerConfig configures an Issuer.
type IssuerConfig struct {
	// Keys signs new tokens and verifies presented ones. Required.
	Keys *KeySet
	// Issuer is the public base URL of the API (absolute http or https URL);
	// it becomes the iss claim. Required.
	Issuer string
	// Audience is the host name (no scheme, no port) of the public base URL;
	// it becomes the single aud value. When empty it is derived from Issuer.
	Audience string
	// TTL is the token lifetime, in whole seconds; DefaultTokenTTL when zero.
	TTL time.Duration
	// Now returns the current time; time.Now when nil. Injected by tests.
	Now func() time.Time
}

// Issuer issues and verifies ES256 access tokens. It is safe for concurrent
// use.
type Issuer struct {
	keys     *KeySet
	issuer   string
	audience string
	ttl      time.Duration
	now      func() time.Time
	parser   *jwt.Parser
}

// NewIssuer validates cfg and returns an Issuer.
func NewIssuer(cfg IssuerConfig) (*Issuer, error) {
	if cfg.Keys == nil {
		return nil, errors.New("auth: IssuerConfig.Keys is required")
	}
	u, err := url.Parse(cfg.Issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return nil, errors.New("auth: IssuerConfig.Issuer must be an absolute http(s) URL")
	}
	aud := cfg.Audience
	if aud == "" {
		aud = u.Hostname()
	}
	if strings.ContainsAny(aud, "/?#@ ") || strings.Contains(aud, "://") {
		return nil, errors.New("auth: IssuerConfig.Audience must be a bare host name")
	}
	ttl := cfg.TTL
	if ttl == 0 {
		ttl = DefaultTokenTTL
	}
	if ttl < time.Second || ttl%time.Second != 0 {
		return nil, errors.New("auth: IssuerConfig.TTL must be a positive whole number of seconds")
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	iss := &Issuer{
		keys:     cfg.Keys,
		issuer:   cfg.Issuer,
		audience: aud,
		ttl:      ttl,
		now:      now,
	}
	iss.parser = jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodES256.Alg()}),
		jwt.WithIssuer(iss.issuer),
		jwt.WithAudience(iss.audience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(verifyLeeway),
		jwt.WithTimeFunc(now),
		jwt.WithStrictDecoding(),
	)
	return iss, nil
}

// Audience returns the audience (public host name) tokens are issued for;
// the token endpoint requires clients to request exactly this audience.
func (i *Issuer) Audience() string { return i.audience }

// IssuerURL returns the iss value of issued tokens.
func (i *Issuer) IssuerURL() string { return i.issuer }

// TTL returns the lifetime of issued tokens.
func (i *Issuer) TTL() time.Duration { return i.ttl }

// Keys returns the KeySet used for signing and verification.
func (i *Issuer) Keys() *KeySet { return i.keys }

// Issue signs a new access token for clientID in tenant with the granted
// scope and returns it with its lifetime in seconds (the OAuth expires_in). The
// token carries no credentials fingerprint: a bearer check that consults the
// client's state refuses it (IssueFor is what the token endpoint uses).
func (i *Issuer) Issue(tenant, clientID, scope string) (token string, expiresIn int64, err error) {
	return i.issue(tenant, clientID, "", scope)
}

// IssueFor signs a new access token for c, bound to c.Credentials.
func (i *Issuer) IssueFor(c Client, scope string) (token string, expiresIn int64, err error) {
	if c.Credentials == "" {
		return "", 0, errors.New("auth: the client's credentials fingerprint is required to issue a token")
	}
	return i.issue(c.Tenant, c.ID, c.Credentials, scope)
}

func (i *Issuer) issue(tenant, clientID, credentials, scope string) (token string, expiresIn int64, err error) {
	if tenant == "" || clientID == "" {
		return "", 0, errors.New("auth: tenant and client id are required to issue a token")
	}
	jti, err := uuid.NewRandom()
	if err != nil {
		return "", 0, fmt.Errorf("auth: generating token id: %w", err)
	}
	now := i.now()
	claims := &Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    i.issuer,
			Subject:   clientID,
			Audience:  jwt.ClaimStrings{i.audience},
			ExpiresAt: jwt.NewNumericDate(now.Add(i.ttl)),
			NotBefore: jwt.NewNumericDate(now),
			IssuedAt:  jwt.NewNumericDate(now),
			ID:        jti.String(),
		},
		Tenant:      tenant,
		ClientID:    clientID,
		Scope:       scope,
		Credentials: credentials,
	}
	t := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	t.Header["typ"] = accessTokenType
	t.Header["kid"] = i.keys.ActiveKID()
	signed, err := t.SignedString(i.keys.active)
	if err != nil {
		return "", 0, fmt.Errorf("auth: signing token: %w", err)
	}
	if signed, err = CanonicalES256(signed); err != nil {
		return "", 0, err
	}
	return signed, int64(i.ttl / time.Second), nil
}

// Verify parses token and returns its claims if, and only if, it is an
// ES256 JWT typed as an access token (typ at+jwt, or JWT as tokens issued before
// RFC 9068 typing were: see acceptedType) with no critical header extensions, its kid names a
// key of our KeySet and the signature verifies with that key, iss equals the
// issuer, aud contains the audience, exp and iat are present, exp/nbf/iat
// hold (with at most 30 s leeway), and tenant, client_id and sub are
// consistent and non-empty, and the signature's s is in the lower half of the
// curve order (a high-s twin of a valid signature, n − s, verifies with
// crypto/ecdsa too; refusing it keeps one token one spelling). The algorithm is fixed by us, never chosen by the
// token, which defeats alg=none and HS256-with-public-key substitution.
//
// Errors wrap ErrInvalidToken and never contain the token.
func (i *Issuer) Verify(token string) (*Claims, error) {
	if token == "" {
		return nil, fmt.Errorf("%w: empty token", ErrInvalidToken)
	}
	if len(token) > maxTokenLen {
		return nil, fmt.Errorf("%w: token too large", ErrInvalidToken)
	}
	claims := &Claims{}
	t, err := i.parser.ParseWithClaims(token, claims, i.keyFunc)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	// jwt/v5 verifies with crypto/ecdsa, which accepts both (r, s) and (r, n − s).
	if !lowS(t.Signature) {
		return nil, fmt.Errorf("%w: %w: non-canonical (high-s) ECDSA signature", ErrInvalidToken, jwt.ErrTokenSignatureInvalid)
	}
	return claims, nil
}

// keyFunc selects the verification key by kid after checking the header.
func (i *Issuer) keyFunc(t *jwt.Token) (any, error) {
	if t.Method != jwt.SigningMethodES256 {
		return nil, errors.New("unexpected signing method")
	}
	if typ, _ := t.Header["typ"].(string); !acceptedType(typ) {
		return nil, errors.New("typ header must be at+jwt")
	}
	if _, ok := t.Header["crit"]; ok {
		return nil, errors.New("critical header extensions are not supported")
	}
	kid, _ := t.Header["kid"].(string)
	if kid == "" {
		return nil, errors.New("kid header is required")
	}
	pub, ok := i.keys.PublicKey(kid)
	if !ok {
		return nil, errors.New("unknown kid")
	}
	return pub, nil
}

// acceptedType reports whether typ, a token's typ header, is one Verify accepts: at+jwt
// or application/at+jwt, in any letter case (media types compare case-insensitively,
// RFC 7515 §4.1.9), which is what Issue writes; and exactly JWT, what it wrote before
// access tokens were typed (RFC 9068).
//
// JWT is still accepted for compatibility: a token lives at most one lifetime (an hour by
// default), but during a rolling upgrade replicas of the previous release go on issuing
// JWT-typed tokens that the upgraded replicas must take, as they took them before. Our
// keys sign nothing but access tokens, so the old type cannot be confused with another
// kind of token. Once no replica of a release before typing is left and one token
// lifetime has passed, legacyTokenType may be dropped.
func acceptedType(typ string) bool {
	return typ == legacyTokenType || strings.EqualFold(typ, accessTokenType) || strings.EqualFold(typ, "application/"+accessTokenType)
}

// p256HalfOrder is n/2 of P-256; a canonical signature has s ≤ n/2.
var p256HalfOrder = new(big.Int).Rsh(elliptic.P256().Params().N, 1)

// lowS reports whether sig (JWS ES256: r ‖ s, 32 bytes each) has s ≤ n/2. Other
// lengths are left to the signature check, which refuses them.
func lowS(sig []byte) bool {
	const size = 32
	if len(sig) != 2*size {
		return true
	}
	s := new(big.Int).SetBytes(sig[size:])
	return s.Cmp(p256HalfOrder) <= 0
}

// CanonicalES256 rewrites a freshly signed ES256 token's signature to its low-s
// form: crypto/ecdsa signs with either s or n − s, both valid, and Verify accepts only
// s ≤ n/2. (r, n − s) is the same signature's other spelling, not a new signature.
func CanonicalES256(token string) (string, error) {
	dot := strings.LastIndexByte(token, '.')
	if dot < 0 {
		return "", errors.New("auth: signed token has no signature")
	}
	sig, err := base64.RawURLEncoding.DecodeString(token[dot+1:])
	if err != nil || len(sig) != 64 {
		return "", errors.New("auth: signed token has a malformed signature")
	}
	if lowS(sig) {
		return token, nil
	}
	s := new(big.Int).SetBytes(sig[32:])
	s.Sub(elliptic.P256().Params().N, s)
	s.FillBytes(sig[32:])
	return token[:dot+1] + base64.RawURLEncoding.EncodeToString(sig), nil
}
