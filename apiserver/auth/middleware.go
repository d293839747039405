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
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// claimsKey is the context key for verified claims; unexported so only this
// package can set it.
type claimsKey struct{}

// WithClaims returns a copy of ctx carrying claims, as RequireBearer does
// after verifying a token. Exposed so other packages can test handlers that
// expect an authenticated request.
func WithClaims(ctx context.Context, claims *Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, claims)
}

// ClaimsFrom returns the claims stored by RequireBearer (or WithClaims).
func ClaimsFrom(ctx context.Context) (*Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(*Claims)
	return c, ok && c != nil
}

// bearerError is the JSON body of a 401 from RequireBearer, matching the
// facade's general error shape.
type bearerError struct {
	Error   string `json:"error"`
	Details string `json:"details"`
}

// How fresh the client state behind the bearer check must be. A revoked token
// (client deleted, disabled, changed or its secret rotated) stops working
// within StateMaxAge plus the informer's lag; 2 s leaves room under the 5 s
// promise. When a token's fingerprint differs from a state older than
// stateRecheckAge (a token issued by another replica right after a rotation
// this one has not read yet), the state is read again before refusing, at
// most that often per client.
const (
	StateMaxAge     = 2 * time.Second
	stateRecheckAge = 250 * time.Millisecond
)

// RequireBearer returns middleware that admits only requests carrying a
// valid access token in "Authorization: Bearer <token>" (scheme matched
// case-insensitively) and stores the verified claims in the request context.
// Other requests get 401 with an RFC 6750 WWW-Authenticate challenge: plain
// when no Authorization header was sent, error="invalid_token" otherwise.
// The token is never echoed in the response.
//
// With states, every request also checks the client's current state: a
// token whose client no longer exists, is disabled, belongs to another
// tenant now or whose credentials fingerprint is not the current one is
// refused with 401 "token revoked". When the state cannot be read, 503. A nil
// states checks the signature and claims only (make bench's ceiling).
func RequireBearer(issuer *Issuer, states ClientStates) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			values := r.Header.Values("Authorization")
			if len(values) == 0 {
				unauthorized(w, `Bearer realm="fundshare"`, "missing bearer token")
				return
			}
			const invalid = `Bearer realm="fundshare", error="invalid_token"`
			if len(values) > 1 {
				unauthorized(w, invalid, "multiple Authorization headers")
				return
			}
			scheme, token, ok := strings.Cut(values[0], " ")
			token = strings.TrimSpace(token)
			if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
				unauthorized(w, invalid, "malformed Authorization header, expected Bearer token")
				return
			}
			claims, err := issuer.Verify(token)
			if err != nil {
				unauthorized(w, invalid, verifyFailureReason(err))
				return
			}
			if states != nil {
				current, err := checkState(r.Context(), states, claims)
				if err != nil {
					stateUnavailable(w)
					return
				}
				if !current {
					unauthorized(w, invalid, "token revoked")
					return
				}
			}
			next.ServeHTTP(w, r.WithContext(WithClaims(r.Context(), claims)))
		})
	}
}

// checkState reports whether the token's client still holds the credentials
// the token was issued for. A mismatch against a state older than
// stateRecheckAge is checked once more against a fresh read.
func checkState(ctx context.Context, states ClientStates, claims *Claims) (bool, error) {
	c, err := states.ClientState(ctx, claims.ClientID, StateMaxAge)
	if errors.Is(err, ErrClientNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if tokenCurrent(claims, c) {
		return true, nil
	}
	c, err = states.ClientState(ctx, claims.ClientID, stateRecheckAge)
	if errors.Is(err, ErrClientNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return tokenCurrent(claims, c), nil
}

// tokenCurrent decides whether a verified token still stands against its
// client's current state.
func tokenCurrent(claims *Claims, c Client) bool {
	return !c.Disabled && c.Tenant == claims.Tenant && c.Credentials != "" &&
		subtle.ConstantTimeCompare([]byte(c.Credentials), []byte(claims.Credentials)) == 1
}

// stateUnavailable answers 503 when the client's state cannot be read: failing
// open would let revoked tokens through.
func stateUnavailable(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", "1")
	w.WriteHeader(http.StatusServiceUnavailable)
	_ = json.NewEncoder(w).Encode(bearerError{Error: "Service unavailable", Details: "cannot check the token's client now; retry"})
}

// verifyFailureReason maps a Verify error to a short client-facing reason.
func verifyFailureReason(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return "token expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "token not yet valid"
	default:
		return "invalid token"
	}
}

// unauthorized writes a 401 with the given challenge and reason.
func unauthorized(w http.ResponseWriter, challenge, details string) {
	h := w.Header()
	h.Set("WWW-Authenticate", challenge)
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	_ = json.NewEncoder(w).Encode(bearerError{Error: "Unauthorized", Details: details})
}
