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
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRequireBearer(t *testing.T) {
	clock := newFakeClock()
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	tok := issued(t, iss, "tenant-acme", "acme")
	otherKS, _ := newTestKeys(t)
	foreignTok, _, _ := newTestIssuer(t, otherKS, clock).Issue("tenant-acme", "acme", "openid offline")

	var seen *Claims
	h := RequireBearer(iss, nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := ClaimsFrom(r.Context())
		if !ok {
			t.Error("no claims in context")
		}
		seen = c
		w.WriteHeader(http.StatusNoContent)
	}))

	const plain = `Bearer realm="fundshare"`
	const invalid = `Bearer realm="fundshare", error="invalid_token"`
	cases := []struct {
		name      string
		authz     []string
		advance   time.Duration
		status    int
		challenge string
		details   string
	}{
		{"valid", []string{"Bearer " + tok}, 0, 204, "", ""},
		{"lowercase scheme", []string{"bearer " + tok}, 0, 204, "", ""},
		{"uppercase scheme", []string{"BEARER " + tok}, 0, 204, "", ""},
		{"missing header", nil, 0, 401, plain, "missing bearer token"},
		{"basic scheme", []string{"Basic YTpi"}, 0, 401, invalid, "malformed Authorization header, expected Bearer token"},
		{"scheme only", []string{"Bearer"}, 0, 401, invalid, "malformed Authorization header, expected Bearer token"},
		{"empty token", []string{"Bearer   "}, 0, 401, invalid, "malformed Authorization header, expected Bearer token"},
		{"two headers", []string{"Bearer " + tok, "Bearer " + tok}, 0, 401, invalid, "multiple Authorization headers"},
		{"garbage", []string{"Bearer abc.def.ghi"}, 0, 401, invalid, "invalid token"},
		{"foreign key", []string{"Bearer " + foreignTok}, 0, 401, invalid, "invalid token"},
		{"expired", []string{"Bearer " + tok}, 2 * time.Hour, 401, invalid, "token expired"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seen = nil
			clock.Advance(tc.advance)
			defer clock.Advance(-tc.advance)
			req := httptest.NewRequest(http.MethodGet, "/api/v1/orders", nil)
			for _, v := range tc.authz {
				req.Header.Add("Authorization", v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d", rec.Code, tc.status)
			}
			if tc.status == 204 {
				if seen == nil || seen.Tenant != "tenant-acme" || seen.ClientID != "acme" {
					t.Fatalf("claims %+v", seen)
				}
				return
			}
			if seen != nil {
				t.Fatal("next handler ran")
			}
			if got := rec.Header().Get("WWW-Authenticate"); got != tc.challenge {
				t.Errorf("WWW-Authenticate %q, want %q", got, tc.challenge)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			raw, _ := io.ReadAll(rec.Body)
			if strings.Contains(string(raw), tok[:20]) || strings.Contains(string(raw), "abc.def") {
				t.Fatal("response echoes the token")
			}
			var body map[string]string
			mustOK(t, json.Unmarshal(raw, &body))
			if body["error"] != "Unauthorized" || body["details"] != tc.details || len(body) != 2 {
				t.Fatalf("body %v", body)
			}
		})
	}
}

func TestClaimsContext(t *testing.T) {
	if _, ok := ClaimsFrom(context.Background()); ok {
		t.Fatal("claims in empty context")
	}
	if _, ok := ClaimsFrom(WithClaims(context.Background(), nil)); ok {
		t.Fatal("nil claims reported as present")
	}
	c := &Claims{Tenant: "t", ClientID: "c"}
	got, ok := ClaimsFrom(WithClaims(context.Background(), c))
	if !ok || got != c {
		t.Fatal("claims not round-tripped")
	}
}

// fakeStates is a ClientStates whose answers the test sets; it records the max ages asked.
type fakeStates struct {
	mu     sync.Mutex
	answer []Client // consecutive answers; the last repeats
	err    error
	asked  []time.Duration
}

func (f *fakeStates) ClientState(_ context.Context, id string, maxAge time.Duration) (Client, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, maxAge)
	if f.err != nil {
		return Client{}, f.err
	}
	c := f.answer[0]
	if len(f.answer) > 1 {
		f.answer = f.answer[1:]
	}
	return c, nil
}

// TestRevokedTokensAreRefused: the bearer check consults the client's current state.
func TestRevokedTokensAreRefused(t *testing.T) {
	clock := newFakeClock()
	ks, _ := newTestKeys(t)
	iss := newTestIssuer(t, ks, clock)
	current := Client{ID: "acme", Tenant: "tenant-acme", Credentials: "fp-1"}
	tok, _, err := iss.IssueFor(current, "openid offline")
	if err != nil {
		t.Fatal(err)
	}
	unbound, _, _ := iss.Issue("tenant-acme", "acme", "openid offline")
	with := func(c Client) []Client { return []Client{c} }
	disabled, moved, rotated := current, current, current
	disabled.Disabled, moved.Tenant, rotated.Credentials = true, "tenant-other", "fp-2"
	cases := []struct {
		name   string
		token  string
		states *fakeStates
		status int
		asked  []time.Duration
	}{
		{"current", tok, &fakeStates{answer: with(current)}, http.StatusNoContent, []time.Duration{StateMaxAge}},
		{"deleted", tok, &fakeStates{err: ErrClientNotFound}, http.StatusUnauthorized, []time.Duration{StateMaxAge}},
		{"disabled", tok, &fakeStates{answer: with(disabled)}, http.StatusUnauthorized, nil},
		{"moved to another tenant", tok, &fakeStates{answer: with(moved)}, http.StatusUnauthorized, nil},
		{"rotated (rechecked on a fresher read)", tok, &fakeStates{answer: with(rotated)}, http.StatusUnauthorized, []time.Duration{StateMaxAge, stateRecheckAge}},
		{"issued after a rotation this replica had not read yet", tok, &fakeStates{answer: []Client{rotated, current}}, http.StatusNoContent, []time.Duration{StateMaxAge, stateRecheckAge}},
		{"no credentials claim", unbound, &fakeStates{answer: with(current)}, http.StatusUnauthorized, nil},
		{"state unknown", tok, &fakeStates{err: errors.New("api server down")}, http.StatusServiceUnavailable, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := RequireBearer(iss, c.states)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusNoContent)
			}))
			req := httptest.NewRequest(http.MethodGet, "/v1/funds", nil)
			req.Header.Set("Authorization", "Bearer "+c.token)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d: %s", w.Code, c.status, w.Body)
			}
			switch c.status {
			case http.StatusUnauthorized:
				if !strings.Contains(w.Body.String(), "token revoked") || !strings.Contains(w.Header().Get("WWW-Authenticate"), "invalid_token") {
					t.Fatalf("body %s, challenge %q", w.Body, w.Header().Get("WWW-Authenticate"))
				}
			case http.StatusServiceUnavailable:
				if w.Header().Get("Retry-After") == "" {
					t.Fatal("503 without Retry-After")
				}
			}
			if c.asked != nil && !slices.Equal(c.states.asked, c.asked) {
				t.Fatalf("asked for max ages %v, want %v", c.states.asked, c.asked)
			}
		})
	}
}
