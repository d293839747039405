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
	"net/http"
)

// jwk is the public JSON Web Key form of an ES256 verification key.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
}

// jwks is a JSON Web Key Set document (RFC 7517 §5).
type jwks struct {
	Keys []jwk `json:"keys"`
}

// JWKSHandler serves the public verification keys of keys as a JWK Set so
// that integrators and gateways can verify our tokens offline. The document
// is rendered once; keys are immutable. Responses may be cached for five
// minutes, which is how long a newly added key can take to be noticed.
func JWKSHandler(keys *KeySet) http.Handler {
	doc := jwks{Keys: make([]jwk, 0, len(keys.order))}
	for _, kid := range keys.order {
		x, y, err := p256Coordinates(keys.keys[kid])
		if err != nil {
			// NewKeySet already validated every key.
			panic("auth: KeySet holds an invalid key: " + err.Error())
		}
		doc.Keys = append(doc.Keys, jwk{Kty: "EC", Crv: "P-256", X: x, Y: y, Kid: kid, Use: "sig", Alg: "ES256"})
	}
	return serveDocument(doc, "public, max-age=300")
}
