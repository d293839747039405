package signature

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	svix "github.com/svix/svix-webhooks/go"
)

// The test vector of the Standard Webhooks Go library (libraries/go/webhook_test.go,
// TestWebhookSign).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

const testID = "msg_2cHeAgdvoJFBm4uwNhj2mwqoGZs"

var testBody = []byte(`{"type":"order.placed","data":{"order":"o-1"}}`)

// newSecret returns a new secret and its key.
func newSecret(t *testing.T) (string, []byte) {
	t.Helper()
	secret, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	key, err := ParseSecret(secret)
	if err != nil {
		t.Fatal(err)
	}
	return secret, key
}

func TestTheSignatureIsThePublishedTestVector(t *testing.T) {
	key, err := ParseSecret(vectorSecret)
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Unix(vectorTimestamp, 0)
	if got := Sign(key, vectorID, ts, []byte(vectorBody)); got != vectorSignature {
		t.Fatalf("Sign = %q, want %q", got, vectorSignature)
	}
	h := Headers([][]byte{key}, vectorID, ts, []byte(vectorBody))
	if got := h.Get(HeaderSignature); got != vectorSignature {
		t.Fatalf("webhook-signature = %q, want %q", got, vectorSignature)
	}
	if err := Verify([][]byte{key}, h, []byte(vectorBody), ts, 0); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

func TestASignatureVerifiesWithTheStandardWebhooksLibrary(t *testing.T) {
	secret, key := newSecret(t)
	h := Headers([][]byte{key}, testID, time.Now(), testBody)

	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(testBody, h); err != nil {
		t.Fatalf("standardwebhooks: %v", err)
	}
	if err := wh.Verify(append(testBody, ' '), h); err == nil {
		t.Fatal("standardwebhooks verified a tampered body")
	}
}

func TestASignatureVerifiesWithTheSvixLibrary(t *testing.T) {
	secret, key := newSecret(t)
	h := Headers([][]byte{key}, testID, time.Now(), testBody)

	wh, err := svix.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	// Svix reads svix-id, svix-timestamp and svix-signature, and the webhook-* headers
	// when those are missing.
	if err := wh.Verify(testBody, h); err != nil {
		t.Fatalf("svix with webhook-* headers: %v", err)
	}
	svixHeaders := http.Header{}
	svixHeaders.Set("svix-id", h.Get(HeaderID))
	svixHeaders.Set("svix-timestamp", h.Get(HeaderTimestamp))
	svixHeaders.Set("svix-signature", h.Get(HeaderSignature))
	if err := wh.Verify(testBody, svixHeaders); err != nil {
		t.Fatalf("svix with svix-* headers: %v", err)
	}
	if err := wh.Verify(append(testBody, ' '), h); err == nil {
		t.Fatal("svix verified a tampered body")
	}
}

func TestBothKeysOfARotationVerifyAlone(t *testing.T) {
	oldSecret, oldKey := newSecret(t)
	nextSecret, newKey := newSecret(t)
	now := time.Now()
	h := Headers([][]byte{oldKey, newKey}, testID, now, testBody)

	sigs := strings.Split(h.Get(HeaderSignature), " ")
	if len(sigs) != 2 || sigs[0] != Sign(oldKey, testID, now, testBody) || sigs[1] != Sign(newKey, testID, now, testBody) {
		t.Fatalf("webhook-signature = %q, want the old and the new key's signatures separated by a space", h.Get(HeaderSignature))
	}
	for name, key := range map[string][]byte{"old": oldKey, "new": newKey} {
		if err := Verify([][]byte{key}, h, testBody, now, 0); err != nil {
			t.Errorf("Verify with the %s key: %v", name, err)
		}
	}
	for name, secret := range map[string]string{"old": oldSecret, "new": nextSecret} {
		std, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := std.Verify(testBody, h); err != nil {
			t.Errorf("standardwebhooks with the %s secret: %v", name, err)
		}
		sx, err := svix.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := sx.Verify(testBody, h); err != nil {
			t.Errorf("svix with the %s secret: %v", name, err)
		}
	}
	_, otherKey := newSecret(t)
	if err := Verify([][]byte{otherKey}, h, testBody, now, 0); !errors.Is(err, ErrSignature) {
		t.Fatalf("Verify with a third key = %v, want ErrSignature", err)
	}
}

func TestTheStandardWebhooksLibrarysSignatureVerifiesHere(t *testing.T) {
	secret, key := newSecret(t)
	now := time.Now()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := wh.Sign(testID, now, testBody)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set(HeaderID, testID)
	h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(HeaderSignature, sig)
	if err := Verify([][]byte{key}, h, testBody, now, 0); err != nil {
		t.Fatal(err)
	}
}

func TestATamperedMessageIsRefused(t *testing.T) {
	_, key := newSecret(t)
	now := time.Now()
	keys := [][]byte{key}
	tests := map[string]func(h http.Header, body []byte) []byte{
		"body": func(_ http.Header, body []byte) []byte {
			return []byte(strings.Replace(string(body), "o-1", "o-2", 1))
		},
		"id": func(h http.Header, body []byte) []byte {
			h.Set(HeaderID, testID+"x")
			return body
		},
		"timestamp": func(h http.Header, body []byte) []byte {
			h.Set(HeaderTimestamp, strconv.FormatInt(now.Unix()-1, 10))
			return body
		},
		"signature": func(h http.Header, body []byte) []byte {
			mac, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(Sign(key, testID, now, testBody), "v1,"))
			if err != nil {
				t.Fatal(err)
			}
			mac[0] ^= 1
			h.Set(HeaderSignature, "v1,"+base64.StdEncoding.EncodeToString(mac))
			return body
		},
	}
	for name, tamper := range tests {
		t.Run(name, func(t *testing.T) {
			h := Headers(keys, testID, now, testBody)
			body := tamper(h, append([]byte(nil), testBody...))
			if err := Verify(keys, h, body, now, 0); !errors.Is(err, ErrSignature) {
				t.Fatalf("Verify = %v, want ErrSignature", err)
			}
		})
	}
}

func TestOnlyV1SignaturesCount(t *testing.T) {
	_, key := newSecret(t)
	now := time.Now()
	keys := [][]byte{key}
	valid := Sign(key, testID, now, testBody)
	mac := strings.TrimPrefix(valid, "v1,")
	tests := []struct {
		header string
		ok     bool
	}{
		{"v2," + mac, false},
		{"v1a," + mac, false},
		{mac, false},
		{"v1,", false},
		{"v1,not base64!", false},
		{"v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2," + mac, false},
		{"v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2,x " + valid + " v1,", true},
		{valid, true},
	}
	for _, tt := range tests {
		h := Headers(nil, testID, now, testBody)
		h.Set(HeaderSignature, tt.header)
		err := Verify(keys, h, testBody, now, 0)
		if tt.ok && err != nil {
			t.Errorf("webhook-signature %q: %v, want it verified", tt.header, err)
		}
		if !tt.ok && !errors.Is(err, ErrSignature) {
			t.Errorf("webhook-signature %q: %v, want ErrSignature", tt.header, err)
		}
	}
}

func TestTheTimestampMustBeWithinTheTolerance(t *testing.T) {
	_, key := newSecret(t)
	keys := [][]byte{key}
	now := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name      string
		ts        time.Time
		tolerance time.Duration
		ok        bool
	}{
		{"now", now, 0, true},
		{"5 min old, the default tolerance", now.Add(-5 * time.Minute), 0, true},
		{"5 min 1 s old", now.Add(-5*time.Minute - time.Second), 0, false},
		{"5 min ahead", now.Add(5 * time.Minute), 0, true},
		{"5 min 1 s ahead", now.Add(5*time.Minute + time.Second), 0, false},
		{"a day old", now.Add(-24 * time.Hour), 0, false},
		{"61 s old, 1 min tolerance", now.Add(-61 * time.Second), time.Minute, false},
		{"61 s ahead, 1 min tolerance", now.Add(61 * time.Second), time.Minute, false},
		{"59 s old, 1 min tolerance", now.Add(-59 * time.Second), time.Minute, true},
		{"the epoch", time.Unix(0, 0), 0, false},
	}
	for _, tt := range tests {
		h := Headers(keys, testID, tt.ts, testBody)
		err := Verify(keys, h, testBody, now, tt.tolerance)
		if tt.ok && err != nil {
			t.Errorf("%s: %v, want it verified", tt.name, err)
		}
		if !tt.ok && !errors.Is(err, ErrTimestamp) {
			t.Errorf("%s: %v, want ErrTimestamp", tt.name, err)
		}
	}

	for _, bad := range []string{"1700000000.5", "abc", "-", "1e9", " 1700000000"} {
		h := Headers(keys, testID, now, testBody)
		h.Set(HeaderTimestamp, bad)
		if err := Verify(keys, h, testBody, now, 0); !errors.Is(err, ErrTimestamp) {
			t.Errorf("webhook-timestamp %q: %v, want ErrTimestamp", bad, err)
		}
	}
}

func TestAMessageWithoutItsHeadersIsRefused(t *testing.T) {
	_, key := newSecret(t)
	now := time.Now()
	for _, name := range []string{HeaderID, HeaderTimestamp, HeaderSignature} {
		h := Headers([][]byte{key}, testID, now, testBody)
		h.Del(name)
		if err := Verify([][]byte{key}, h, testBody, now, 0); !errors.Is(err, ErrMissingHeaders) {
			t.Errorf("without %s: %v, want ErrMissingHeaders", name, err)
		}
	}
	if err := Verify([][]byte{key}, Headers(nil, testID, now, testBody), testBody, now, 0); !errors.Is(err, ErrMissingHeaders) {
		t.Errorf("signed with no key: %v, want ErrMissingHeaders", err)
	}
}

func TestHeadersCarryTheMessageIDTimestampInSecondsAndJSONContentType(t *testing.T) {
	_, key := newSecret(t)
	ts := time.Unix(1_700_000_000, 999_999_999)
	h := Headers([][]byte{key}, testID, ts, testBody)
	want := map[string]string{
		"Content-Type":  "application/json",
		HeaderID:        testID,
		HeaderTimestamp: "1700000000",
	}
	for name, value := range want {
		if got := h.Get(name); got != value {
			t.Errorf("%s = %q, want %q", name, got, value)
		}
	}
	if got, want := h.Get(HeaderSignature), Sign(key, testID, time.Unix(1_700_000_000, 0), testBody); got != want {
		t.Errorf("webhook-signature = %q, want %q (signed over whole seconds)", got, want)
	}
}

func TestASecretRoundTrips(t *testing.T) {
	secret, key := newSecret(t)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("NewSecret = %q, want the whsec_ prefix", secret)
	}
	if len(key) != 32 {
		t.Fatalf("key is %d bytes, want 32", len(key))
	}
	if got := SecretPrefix + base64.StdEncoding.EncodeToString(key); got != secret {
		t.Fatalf("the key encodes to %q, want %q", got, secret)
	}
	unprefixed, err := ParseSecret(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		t.Fatalf("ParseSecret without the prefix: %v", err)
	}
	if string(unprefixed) != string(key) {
		t.Fatal("the unprefixed secret parses to another key")
	}
	other, _ := newSecret(t)
	if other == secret {
		t.Fatal("NewSecret returned the same secret twice")
	}
}

func TestABadSecretIsRefusedWithoutRevealingIt(t *testing.T) {
	short := base64.StdEncoding.EncodeToString([]byte("sixteen byte key"))
	tests := []struct {
		secret, reveal, want string
	}{
		{"", "", "empty"},
		{"whsec_", "", "empty"},
		{"whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0*", "c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0", "base64"},
		{"whsec_c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0IQ", "c2VjcmV0IHNlY3JldCBzZWNyZXQgc2VjcmV0", "base64"},
		{"whsec_" + short, short, "at least 24"},
		{short, short, "at least 24"},
	}
	for _, tt := range tests {
		_, err := ParseSecret(tt.secret)
		if !errors.Is(err, ErrInvalidSecret) {
			t.Errorf("ParseSecret(%q) = %v, want ErrInvalidSecret", tt.secret, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSecret(%q) = %q, want it to say %q", tt.secret, err, tt.want)
		}
		if tt.reveal != "" && strings.Contains(err.Error(), tt.reveal) {
			t.Errorf("ParseSecret(%q) = %q, which reveals the secret", tt.secret, err)
		}
	}
}
