/*
Copyright 2026 The fundshare-operator Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package auth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

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

// RequireBearer returns middleware that admits only requests carrying a
// valid access token in "Authorization: Bearer <token>" (scheme matched
// case-insensitively) and stores the verified claims in the request context.
// Other requests get 401 with an RFC 6750 WWW-Authenticate challenge: plain
// when no Authorization header was sent, error="invalid_token" otherwise.
// The token is never echoed in the response.
func RequireBearer(issuer *Issuer) func(http.Handler) http.Handler {
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
			next.ServeHTTP(w, r.WithContext(WithClaims(r.Context(), claims)))
		})
	}
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
