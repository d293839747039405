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

package clientsecret

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestNewClientSecret(t *testing.T) {
	a := must(New())(t)
	b := must(New())(t)
	if a == b {
		t.Fatal("two generated secrets are equal")
	}
	raw, err := base64.RawURLEncoding.DecodeString(a)
	if err != nil {
		t.Fatalf("secret is not unpadded base64url: %v", err)
	}
	if len(raw) != 32 {
		t.Fatalf("secret decodes to %d bytes, want 32", len(raw))
	}
}

func TestHashSecretRoundTrip(t *testing.T) {
	secret := must(New())(t)
	h1 := must(Hash(secret))(t)
	h2 := must(Hash(secret))(t)
	const prefix = "$argon2id$v=19$m=19456,t=2,p=1$"
	if !strings.HasPrefix(h1, prefix) {
		t.Fatalf("hash does not start with %q", prefix)
	}
	if strings.Contains(h1, secret) {
		t.Fatal("hash contains the secret")
	}
	if h1 == h2 {
		t.Fatal("two hashes of the same secret are equal; salt not random")
	}
	parsed := must(parseHash(h1))(t)
	if len(parsed.salt) != 16 || len(parsed.key) != 32 {
		t.Fatalf("salt/key length = %d/%d, want 16/32", len(parsed.salt), len(parsed.key))
	}
	if !Verify(h1, secret) || !Verify(h2, secret) {
		t.Fatal("Verify rejected the right secret")
	}
	for _, wrong := range []string{"", secret + "x", secret[:len(secret)-1], strings.ToUpper(secret)} {
		if Verify(h1, wrong) {
			t.Fatalf("Verify accepted a wrong secret (len %d)", len(wrong))
		}
	}
}

func TestHashSecretRejectsEmpty(t *testing.T) {
	if _, err := Hash(""); err == nil {
		t.Fatal("Hash accepted an empty secret")
	}
}

func TestDummyHashMatchesRealParameters(t *testing.T) {
	d, err := parseHash(DummyHash)
	if err != nil {
		t.Fatalf("dummy hash does not parse: %v", err)
	}
	if d.memory != argonMemoryKiB || d.time != argonTime || d.threads != argonThreads ||
		len(d.salt) != argonSaltLen || len(d.key) != argonKeyLen {
		t.Fatal("dummy hash parameters differ from Hash's; timing would leak unknown clients")
	}
}

func TestVerifySecretRejectsTamperedPHC(t *testing.T) {
	const secret = "correct horse battery staple"
	good := must(Hash(secret))(t)
	parts := strings.Split(good, "$") // "", argon2id, v=19, params, salt, hash
	join := func(p ...string) string { return strings.Join(p, "$") }
	salt, hash := parts[4], parts[5]
	flipped := []byte(hash)
	if flipped[0] == 'A' {
		flipped[0] = 'B'
	} else {
		flipped[0] = 'A'
	}

	cases := []struct {
		name       string
		encoded    string
		parseError bool // must be refused before any hashing
	}{
		{"empty", "", true},
		{"garbage", "not a hash", true},
		{"argon2i", join("", "argon2i", "v=19", parts[3], salt, hash), true},
		{"bcrypt-like", "$2a$10$abcdefghijklmnopqrstuu", true},
		{"old version", join("", "argon2id", "v=16", parts[3], salt, hash), true},
		{"missing version", join("", "argon2id", parts[3], salt, hash), true},
		{"memory 4 GiB", join("", "argon2id", "v=19", "m=4194304,t=2,p=1", salt, hash), true},
		{"memory just over 1 GiB", join("", "argon2id", "v=19", "m=1048577,t=2,p=1", salt, hash), true},
		{"memory zero", join("", "argon2id", "v=19", "m=0,t=2,p=1", salt, hash), true},
		{"memory below 8*p", join("", "argon2id", "v=19", "m=16,t=2,p=4", salt, hash), true},
		{"memory overflow", join("", "argon2id", "v=19", "m=99999999999999,t=2,p=1", salt, hash), true},
		{"time zero", join("", "argon2id", "v=19", "m=19456,t=0,p=1", salt, hash), true},
		{"time huge", join("", "argon2id", "v=19", "m=19456,t=100000,p=1", salt, hash), true},
		{"threads zero", join("", "argon2id", "v=19", "m=19456,t=2,p=0", salt, hash), true},
		{"threads 255", join("", "argon2id", "v=19", "m=19456,t=2,p=255", salt, hash), true},
		{"negative", join("", "argon2id", "v=19", "m=-1,t=2,p=1", salt, hash), true},
		{"plus sign", join("", "argon2id", "v=19", "m=+19456,t=2,p=1", salt, hash), true},
		{"params reordered", join("", "argon2id", "v=19", "t=2,m=19456,p=1", salt, hash), true},
		{"extra param", join("", "argon2id", "v=19", "m=19456,t=2,p=1,k=1", salt, hash), true},
		{"missing param", join("", "argon2id", "v=19", "m=19456,t=2", salt, hash), true},
		{"spaces", join("", "argon2id", "v=19", "m= 19456,t=2,p=1", salt, hash), true},
		{"missing hash", join("", "argon2id", "v=19", parts[3], salt), true},
		{"extra field", good + "$x", true},
		{"no leading $", strings.TrimPrefix(good, "$"), true},
		{"salt not base64", join("", "argon2id", "v=19", parts[3], "!!!!", hash), true},
		{"hash padded", join("", "argon2id", "v=19", parts[3], salt, hash+"="), true},
		{"salt too short", join("", "argon2id", "v=19", parts[3], "AAAA", hash), true},
		{"hash too short", join("", "argon2id", "v=19", parts[3], salt, "AAAAAAAA"), true},
		// Well-formed but not matching: hashing runs and must say no.
		{"hash bit flipped", join("", "argon2id", "v=19", parts[3], salt, string(flipped)), false},
		{"other salt", join("", "argon2id", "v=19", parts[3], "AAAAAAAAAAAAAAAAAAAAAA", hash), false},
		{"time changed", join("", "argon2id", "v=19", "m=19456,t=1,p=1", salt, hash), false},
		{"memory changed", join("", "argon2id", "v=19", "m=19457,t=2,p=1", salt, hash), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, perr := parseHash(tc.encoded)
			if tc.parseError && perr == nil {
				t.Fatal("parseHash accepted a tampered hash")
			}
			if !tc.parseError && perr != nil {
				t.Fatalf("parseHash: %v", perr)
			}
			if perr != nil && strings.Contains(perr.Error(), salt) {
				t.Fatal("parse error leaks hash contents")
			}
			if Verify(tc.encoded, secret) {
				t.Fatal("Verify accepted a tampered hash")
			}
		})
	}
}

// must returns v, failing the test when err is not nil: s := must(New())(t).
func must[T any](v T, err error) func(*testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
