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

// Package clientsecret makes, hashes and verifies the client secrets of API clients
// (argon2id in PHC string format). It is the one place secrets are hashed: the token
// endpoint (apiserver/auth), the ApiClient controller, fundsharectl, the development data
// and the bench all use it, so none of them imports the REST facade for it.
package clientsecret

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters used for new hashes. They follow the OWASP minimum
// recommendation (19 MiB, 2 passes, 1 lane): expensive enough to slow offline
// guessing should a Secret leak, cheap enough that the token endpoint stays
// responsive on small nodes.
const (
	argonMemoryKiB uint32 = 19456
	argonTime      uint32 = 2
	argonThreads   uint8  = 1
	argonSaltLen          = 16
	argonKeyLen           = 32
)

// Bounds for parameters read back from a stored hash. A tampered Secret must
// not be able to make every login allocate gigabytes or spin for minutes.
const (
	maxArgonMemoryKiB = 1 << 20 // 1 GiB
	maxArgonTime      = 16
	maxArgonThreads   = 16
	minArgonSaltLen   = 8
	maxArgonSaltLen   = 64
	minArgonKeyLen    = 16
	maxArgonKeyLen    = 64
)

// phcB64 is the encoding PHC strings use for salt and hash: standard
// alphabet, no padding. Strict rejects non-canonical trailing bits so that a
// stored hash has exactly one accepted spelling.
var phcB64 = base64.RawStdEncoding.Strict()

// errMalformedHash is returned by parseHash for any structural or
// parameter problem; the message never contains the hash itself.
var errMalformedHash = errors.New("clientsecret: malformed argon2id secret hash")

// New returns a new random client secret: 32 bytes from
// crypto/rand encoded as unpadded base64url, so it is safe to place in URLs,
// form bodies and HTTP Basic credentials without escaping.
func New() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("clientsecret: generating client secret: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// Hash hashes a client secret with argon2id and a fresh 16-byte salt
// and returns it in PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>). The parameters are stored
// in the string so they can be raised later without invalidating existing
// hashes.
func Hash(secret string) (string, error) {
	if secret == "" {
		return "", errors.New("clientsecret: refusing to hash an empty secret")
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("clientsecret: generating salt: %w", err)
	}
	key := argon2.IDKey([]byte(secret), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		phcB64.EncodeToString(salt), phcB64.EncodeToString(key)), nil
}

// Verify reports whether secret matches the argon2id PHC string
// encoded. The parameters are taken from encoded; strings with unsupported
// versions or out-of-range parameters are rejected before any hashing work is
// done. The final comparison is constant-time.
func Verify(encoded, secret string) bool {
	ok, err := Compare(encoded, secret)
	return err == nil && ok
}

// Compare is Verify with the reason a hash could not be used, so
// that callers can tell a wrong secret from a broken stored hash.
func Compare(encoded, secret string) (bool, error) {
	h, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	if secret == "" {
		return false, nil
	}
	got := argon2.IDKey([]byte(secret), h.salt, h.time, h.memory, h.threads, uint32(len(h.key)))
	return subtle.ConstantTimeCompare(got, h.key) == 1, nil
}

// parsedHash is a parsed argon2id PHC string.
type parsedHash struct {
	memory  uint32
	time    uint32
	threads uint8
	salt    []byte
	key     []byte
}

// parseHash parses and bounds-checks an argon2id PHC string.
func parseHash(encoded string) (*parsedHash, error) {
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return nil, errMalformedHash
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return nil, errMalformedHash
	}
	params := strings.Split(parts[3], ",")
	if len(params) != 3 {
		return nil, errMalformedHash
	}
	m, err := parseParam(params[0], "m=", 1, maxArgonMemoryKiB)
	if err != nil {
		return nil, err
	}
	t, err := parseParam(params[1], "t=", 1, maxArgonTime)
	if err != nil {
		return nil, err
	}
	p, err := parseParam(params[2], "p=", 1, maxArgonThreads)
	if err != nil {
		return nil, err
	}
	// Argon2 needs at least 8 KiB per lane.
	if m < 8*p {
		return nil, errMalformedHash
	}
	salt, err := phcB64.DecodeString(parts[4])
	if err != nil || len(salt) < minArgonSaltLen || len(salt) > maxArgonSaltLen {
		return nil, errMalformedHash
	}
	key, err := phcB64.DecodeString(parts[5])
	if err != nil || len(key) < minArgonKeyLen || len(key) > maxArgonKeyLen {
		return nil, errMalformedHash
	}
	return &parsedHash{memory: uint32(m), time: uint32(t), threads: uint8(p), salt: salt, key: key}, nil
}

// parseParam parses "<prefix><decimal>" and checks lo <= value <= hi.
func parseParam(s, prefix string, lo, hi uint64) (uint64, error) {
	digits, ok := strings.CutPrefix(s, prefix)
	if !ok || digits == "" || len(digits) > 10 {
		return 0, errMalformedHash
	}
	v, err := strconv.ParseUint(digits, 10, 32)
	if err != nil || v < lo || v > hi {
		return 0, errMalformedHash
	}
	return v, nil
}

// DummyHash has the same parameters as real hashes but matches no
// known secret. The token endpoint verifies against it when the client id is
// unknown, so that "unknown client" and "wrong secret" cost the same time.
const DummyHash = "$argon2id$v=19$m=19456,t=2,p=1$T2qR8vG3rSodm1m4wM6Mmg$VtBFAPxlUKWBqRpqriXCxeTVHtJnB+abmX+pXM+bAX0"

// CheckHash reports why encoded is not a usable argon2id PHC string, or nil. The
// ApiClient controller reports it in the client's Ready condition.
func CheckHash(encoded string) error {
	_, err := parseHash(encoded)
	return err
}
