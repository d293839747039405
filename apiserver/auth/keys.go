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
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
)

// p256CoordLen is the fixed byte length of a P-256 coordinate. RFC 7518
// §6.2.1.2 requires JWK coordinates to be encoded at full length, leading
// zeros included, or thumbprints would not be stable.
const p256CoordLen = 32

// KeySet holds the ES256 key that signs new tokens and every public key
// that tokens may still be verified with, indexed by key id. The key id is the
// RFC 7638 JWK thumbprint, so it is derived from the key itself: a replica
// that loads the same key computes the same kid, and a foreign key can never
// be mistaken for ours by reusing a kid (verification uses our stored key).
//
// A KeySet is immutable after construction and safe for concurrent use.
type KeySet struct {
	active    *ecdsa.PrivateKey
	activeKID string
	keys      map[string]*ecdsa.PublicKey
	order     []string // active kid first, then others in argument order
}

// NewKeySet builds a KeySet that signs with active and also accepts tokens
// signed by any of others (for example the previous key during a rotation).
// All keys must be on the P-256 curve, as ES256 requires. Duplicate keys are
// ignored.
func NewKeySet(active *ecdsa.PrivateKey, others ...*ecdsa.PublicKey) (*KeySet, error) {
	if active == nil {
		return nil, errors.New("auth: active signing key is required")
	}
	activeKID, err := Thumbprint(&active.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("auth: active signing key: %w", err)
	}
	ks := &KeySet{
		active:    active,
		activeKID: activeKID,
		keys:      map[string]*ecdsa.PublicKey{activeKID: &active.PublicKey},
		order:     []string{activeKID},
	}
	for i, pub := range others {
		kid, err := Thumbprint(pub)
		if err != nil {
			return nil, fmt.Errorf("auth: verification key %d: %w", i, err)
		}
		if _, dup := ks.keys[kid]; dup {
			continue
		}
		ks.keys[kid] = pub
		ks.order = append(ks.order, kid)
	}
	return ks, nil
}

// ActiveKID returns the key id that newly issued tokens carry in their
// header.
func (k *KeySet) ActiveKID() string { return k.activeKID }

// PublicKey returns the verification key with the given key id.
func (k *KeySet) PublicKey(kid string) (*ecdsa.PublicKey, bool) {
	pub, ok := k.keys[kid]
	return pub, ok
}

// KIDs returns the ids of all verification keys, the active key first.
func (k *KeySet) KIDs() []string {
	return append([]string(nil), k.order...)
}

// GenerateSigningKey returns a fresh ECDSA P-256 private key for ES256.
func GenerateSigningKey() (*ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("auth: generating signing key: %w", err)
	}
	return key, nil
}

// MarshalSigningKeyPEM encodes key as a PEM "PRIVATE KEY" block (PKCS#8),
// the format stored in the signing-key Secret.
func MarshalSigningKeyPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	if key == nil {
		return nil, errors.New("auth: nil signing key")
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("auth: encoding signing key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParseSigningKeyPEM decodes a P-256 private key from a PEM "PRIVATE KEY"
// (PKCS#8) block, or from an "EC PRIVATE KEY" (SEC 1) block so that keys made
// with `openssl ecparam -genkey` can be supplied by hand. Error messages never
// include key material.
func ParseSigningKeyPEM(data []byte) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("auth: signing key: no PEM block found")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("auth: signing key: unexpected PEM block type %q", block.Type)
	}
	if err != nil {
		return nil, errors.New("auth: signing key: cannot parse private key")
	}
	ec, ok := key.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("auth: signing key: expected an ECDSA key, got %T", key)
	}
	if ec.Curve != elliptic.P256() {
		return nil, errors.New("auth: signing key: curve must be P-256")
	}
	return ec, nil
}

// Thumbprint returns the RFC 7638 JWK thumbprint of a P-256 public key:
// base64url (no padding) of SHA-256 over the canonical JWK
// {"crv","kty","x","y"} with members in lexicographic order and no
// whitespace.
func Thumbprint(pub *ecdsa.PublicKey) (string, error) {
	x, y, err := p256Coordinates(pub)
	if err != nil {
		return "", err
	}
	canonical := `{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`
	sum := sha256.Sum256([]byte(canonical))
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// p256Coordinates returns the base64url-encoded, fixed-length x and y
// coordinates of a P-256 public key.
func p256Coordinates(pub *ecdsa.PublicKey) (x, y string, err error) {
	if pub == nil || pub.Curve != elliptic.P256() {
		return "", "", errors.New("key must be a non-nil ECDSA P-256 public key")
	}
	raw, err := pub.Bytes() // 0x04 || X || Y
	if err != nil || len(raw) != 1+2*p256CoordLen || raw[0] != 4 {
		return "", "", errors.New("invalid P-256 public key")
	}
	return base64.RawURLEncoding.EncodeToString(raw[1 : 1+p256CoordLen]),
		base64.RawURLEncoding.EncodeToString(raw[1+p256CoordLen:]), nil
}
