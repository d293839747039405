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
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"testing"
)

// rfc7515A3Key is the P-256 public key of RFC 7515 Appendix A.3.
func rfc7515A3Key(t *testing.T) *ecdsa.PublicKey {
	t.Helper()
	x, _ := base64.RawURLEncoding.DecodeString("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU")
	y, _ := base64.RawURLEncoding.DecodeString("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")
	pub := must(ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...)))(t)
	return pub
}

// independentThumbprint computes the RFC 7638 thumbprint via encoding/json,
// which sorts map keys, as a cross-check of the hand-built canonical form.
func independentThumbprint(t *testing.T, pub *ecdsa.PublicKey) string {
	t.Helper()
	raw := must(pub.Bytes())(t)
	b, err := json.Marshal(map[string]string{
		"kty": "EC", "crv": "P-256",
		"x": base64.RawURLEncoding.EncodeToString(raw[1:33]),
		"y": base64.RawURLEncoding.EncodeToString(raw[33:]),
	})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func TestThumbprintKnownVector(t *testing.T) {
	pub := rfc7515A3Key(t)
	got := must(Thumbprint(pub))(t)
	// SHA-256 of {"crv":"P-256","kty":"EC","x":"f83O…","y":"x_FE…"},
	// computed independently with Python's hashlib.
	const want = "oKIywvGUpTVTyxMQ3bwIIeQUudfr_CkLMjCE19ECD-U"
	if got != want {
		t.Fatalf("Thumbprint = %q, want %q", got, want)
	}
	if ind := independentThumbprint(t, pub); got != ind {
		t.Fatalf("Thumbprint = %q, json-based = %q", got, ind)
	}
}

func TestThumbprintStable(t *testing.T) {
	key := must(GenerateSigningKey())(t)
	a := must(Thumbprint(&key.PublicKey))(t)
	b, _ := Thumbprint(&key.PublicKey)
	if a != b {
		t.Fatal("thumbprint changed between calls")
	}
	if ind := independentThumbprint(t, &key.PublicKey); a != ind {
		t.Fatalf("Thumbprint = %q, json-based = %q", a, ind)
	}
	// Survives a PEM round trip, i.e. a restart that reloads the Secret.
	pemBytes := must(MarshalSigningKeyPEM(key))(t)
	reloaded := must(ParseSigningKeyPEM(pemBytes))(t)
	ks1 := must(NewKeySet(key))(t)
	ks2 := must(NewKeySet(reloaded))(t)
	if ks1.ActiveKID() != a || ks2.ActiveKID() != a {
		t.Fatalf("kids %q/%q, want %q", ks1.ActiveKID(), ks2.ActiveKID(), a)
	}
	// Fixed-length coordinates: 32 bytes -> 43 base64url chars each.
	x, y, err := p256Coordinates(&key.PublicKey)
	if err != nil || len(x) != 43 || len(y) != 43 {
		t.Fatalf("coordinates %d/%d chars, err %v", len(x), len(y), err)
	}
}

func TestNewKeySet(t *testing.T) {
	active, _ := GenerateSigningKey()
	old, _ := GenerateSigningKey()
	ks := must(NewKeySet(active, &old.PublicKey, &old.PublicKey, &active.PublicKey))(t)
	kids := ks.KIDs()
	if len(kids) != 2 || kids[0] != ks.ActiveKID() {
		t.Fatalf("KIDs = %v, want active first and duplicates dropped", kids)
	}
	oldKID, _ := Thumbprint(&old.PublicKey)
	if pub, ok := ks.PublicKey(oldKID); !ok || !pub.Equal(&old.PublicKey) {
		t.Fatal("previous key not available for verification")
	}
	if _, ok := ks.PublicKey("nope"); ok {
		t.Fatal("unknown kid found")
	}

	if _, err := NewKeySet(nil); err == nil {
		t.Fatal("nil active key accepted")
	}
	p384 := p384Key(t)
	if _, err := NewKeySet(p384); err == nil {
		t.Fatal("P-384 active key accepted for ES256")
	}
	if _, err := NewKeySet(active, &p384.PublicKey); err == nil {
		t.Fatal("P-384 verification key accepted for ES256")
	}
	if _, err := NewKeySet(active, nil); err == nil {
		t.Fatal("nil verification key accepted")
	}
}

func TestParseSigningKeyPEM(t *testing.T) {
	key, _ := GenerateSigningKey()
	sec1 := must(x509.MarshalECPrivateKey(key))(t)
	got, err := ParseSigningKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1}))
	if err != nil || !got.Equal(key) {
		t.Fatalf("SEC 1 key not accepted: %v", err)
	}

	p384DER, _ := x509.MarshalPKCS8PrivateKey(p384Key(t))
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	edDER, _ := x509.MarshalPKCS8PrivateKey(edKey)

	bad := map[string][]byte{
		"empty":        nil,
		"not PEM":      []byte("hello"),
		"public key":   publicKeyPEM(t, key),
		"corrupt DER":  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}),
		"P-384":        pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p384DER}),
		"Ed25519":      pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: edDER}),
		"wrong labels": pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: edDER}),
	}
	for name, data := range bad {
		if _, err := ParseSigningKeyPEM(data); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// p384Key is an ECDSA key on P-384, a curve ES256 does not use.
func p384Key(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	return must(ecdsa.GenerateKey(elliptic.P384(), rand.Reader))(t)
}

// publicKeyDER is the public half of key as PKIX DER.
func publicKeyDER(t testing.TB, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	return must(x509.MarshalPKIXPublicKey(&key.PublicKey))(t)
}

// publicKeyPEM is the public half of key as a PEM "PUBLIC KEY" block.
func publicKeyPEM(t testing.TB, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: publicKeyDER(t, key)})
}
