// Package signature signs outgoing webhooks as Standard Webhooks v1 prescribes
// (https://www.standardwebhooks.com), and verifies them for receivers.
//
// A message is signed with HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>",
// the timestamp in Unix seconds, and the signature is sent as "v1,<base64 MAC>" in the
// webhook-signature header. An endpoint's secret is "whsec_" followed by the standard
// base64 of its key. While a secret is rotated, the old and the new key both sign each
// message, and the header carries both signatures separated by a space; a receiver
// accepts the message when any of them verifies with a key it holds.
package signature

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers a signed message carries.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

const (
	// SecretPrefix starts every secret NewSecret makes.
	SecretPrefix = "whsec_"
	// MinKeyLen is the shortest key, in bytes, ParseSecret accepts (the specification's
	// lower bound).
	MinKeyLen = 24
	// DefaultTolerance is how far a message's timestamp may be from the receiver's clock,
	// either way, when Verify is given no tolerance.
	DefaultTolerance = 5 * time.Minute

	// keyLen is the length, in bytes, of the keys NewSecret makes.
	keyLen = 32
	// version is the signature scheme this package signs and verifies.
	version = "v1"
)

// ErrInvalidSecret is wrapped by the errors of ParseSecret. Their messages never contain
// the secret.
var ErrInvalidSecret = errors.New("invalid webhook secret")

// The errors of Verify; they are wrapped, so compare them with errors.Is.
var (
	// ErrMissingHeaders: webhook-id, webhook-timestamp or webhook-signature is missing.
	ErrMissingHeaders = errors.New("missing webhook-id, webhook-timestamp or webhook-signature header")
	// ErrTimestamp: webhook-timestamp is not an integer, or is too far from now.
	ErrTimestamp = errors.New("invalid webhook-timestamp")
	// ErrSignature: no signature of webhook-signature verifies with any key.
	ErrSignature = errors.New("no matching webhook signature")
)

// NewSecret returns a new random secret: "whsec_" and the standard base64 of 32 bytes
// from crypto/rand.
func NewSecret() (string, error) {
	key := make([]byte, keyLen)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("generating a webhook secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ParseSecret returns the key of a secret: the standard base64 of at least MinKeyLen
// bytes, prefixed with "whsec_" or, as the specification allows, not. Its errors wrap
// ErrInvalidSecret and never contain the secret.
func ParseSecret(s string) ([]byte, error) {
	s = strings.TrimPrefix(s, SecretPrefix)
	if s == "" {
		return nil, fmt.Errorf("%w: it is empty", ErrInvalidSecret)
	}
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: it is not valid standard base64", ErrInvalidSecret)
	}
	if len(key) < MinKeyLen {
		return nil, fmt.Errorf("%w: its key is %d bytes long, at least %d are required",
			ErrInvalidSecret, len(key), MinKeyLen)
	}
	return key, nil
}

// Sign returns the v1 signature of a message, "v1," and the standard base64 of
// HMAC-SHA256(key, id + "." + ts in Unix seconds + "." + body).
func Sign(key []byte, id string, ts time.Time, body []byte) string {
	return version + "," + base64.StdEncoding.EncodeToString(mac(key, id, ts.Unix(), body))
}

// Headers returns the headers of a signed message: webhook-id, webhook-timestamp (Unix
// seconds), webhook-signature with one signature per key, separated by a space, and
// Content-Type application/json. With no keys there is no webhook-signature header.
func Headers(keys [][]byte, id string, ts time.Time, body []byte) http.Header {
	sigs := make([]string, 0, len(keys))
	for _, key := range keys {
		sigs = append(sigs, Sign(key, id, ts, body))
	}
	h := make(http.Header, 4)
	h.Set("Content-Type", "application/json")
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	if len(sigs) > 0 {
		h.Set(HeaderSignature, strings.Join(sigs, " "))
	}
	return h
}

// Verify checks a received message: its headers are present, its timestamp is within
// tolerance of now either way (DefaultTolerance when tolerance is not positive), and one
// of the v1 signatures of webhook-signature is that of one of keys, compared in constant
// time. Signatures of other versions are ignored. Its errors wrap ErrMissingHeaders,
// ErrTimestamp or ErrSignature.
func Verify(keys [][]byte, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	id, tsHeader, sigHeader := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || tsHeader == "" || sigHeader == "" {
		return ErrMissingHeaders
	}
	unix, err := strconv.ParseInt(tsHeader, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: it is not an integer", ErrTimestamp)
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	ts := time.Unix(unix, 0)
	if now.Sub(ts) > tolerance {
		return fmt.Errorf("%w: it is more than %s old", ErrTimestamp, tolerance)
	}
	if ts.Sub(now) > tolerance {
		return fmt.Errorf("%w: it is more than %s in the future", ErrTimestamp, tolerance)
	}

	var sigs [][]byte
	for _, versioned := range strings.Fields(sigHeader) {
		v, encoded, ok := strings.Cut(versioned, ",")
		if !ok || v != version {
			continue
		}
		sig, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil || len(sig) != sha256.Size {
			continue
		}
		sigs = append(sigs, sig)
	}
	for _, key := range keys {
		expected := mac(key, id, unix, body)
		for _, sig := range sigs {
			if hmac.Equal(sig, expected) {
				return nil
			}
		}
	}
	return ErrSignature
}

// mac returns HMAC-SHA256(key, id + "." + unix + "." + body).
func mac(key []byte, id string, unix int64, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write(strconv.AppendInt([]byte{'.'}, unix, 10))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}
