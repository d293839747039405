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
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

func TestJWKSHandler(t *testing.T) {
	clock := newFakeClock()
	active, _ := GenerateSigningKey()
	previous, _ := GenerateSigningKey()
	ks := must(NewKeySet(active, &previous.PublicKey))(t)
	srv := httptest.NewServer(JWKSHandler(ks))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	mustOK(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control %q", cc)
	}
	var doc struct {
		Keys []map[string]string `json:"keys"`
	}
	mustOK(t, json.NewDecoder(resp.Body).Decode(&doc))
	if len(doc.Keys) != 2 {
		t.Fatalf("%d keys, want 2", len(doc.Keys))
	}
	byKID := map[string]*ecdsa.PublicKey{}
	for _, k := range doc.Keys {
		if k["kty"] != "EC" || k["crv"] != "P-256" || k["use"] != "sig" || k["alg"] != "ES256" || len(k) != 7 {
			t.Fatalf("unexpected JWK %v", k)
		}
		x, _ := base64.RawURLEncoding.DecodeString(k["x"])
		y, _ := base64.RawURLEncoding.DecodeString(k["y"])
		pub := must(ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...)))(t)
		if kid, _ := Thumbprint(pub); kid != k["kid"] {
			t.Fatalf("kid %q is not the thumbprint of its key", k["kid"])
		}
		byKID[k["kid"]] = pub
	}
	if doc.Keys[0]["kid"] != ks.ActiveKID() {
		t.Fatal("active key not listed first")
	}

	// A third party verifying with only the JWKS accepts our token.
	iss := newTestIssuer(t, ks, clock)
	tok, _, _ := iss.Issue("tenant-acme", "acme", "openid offline")
	_, err = jwt.Parse(tok, func(tk *jwt.Token) (any, error) {
		return byKID[tk.Header["kid"].(string)], nil
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithTimeFunc(clock.Now))
	if err != nil {
		t.Fatalf("token does not verify with the published JWKS: %v", err)
	}

	post, _ := http.Post(srv.URL, "text/plain", nil)
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST status %d", post.StatusCode)
	}
}
