package egress

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verdict is what an endpoint's answer to a delivery means.
type Verdict int

// The verdicts.
const (
	// Retry: the delivery failed and is tried again (NextDelay). Every status but 2xx and
	// 410, redirects included, and no answer at all.
	Retry Verdict = iota
	// Success: the endpoint took the message (2xx).
	Success
	// Gone: the endpoint no longer exists (410 Gone) and must be disabled.
	Gone
)

// String returns "retry", "success" or "gone".
func (v Verdict) String() string {
	switch v {
	case Success:
		return "success"
	case Gone:
		return "gone"
	case Retry:
		return "retry"
	}
	return "Verdict(" + strconv.Itoa(int(v)) + ")"
}

// Classify returns the verdict of an HTTP status: Success for 2xx, Gone for 410, Retry
// for any other.
func Classify(status int) Verdict {
	switch {
	case status >= 200 && status <= 299:
		return Success
	case status == http.StatusGone:
		return Gone
	default:
		return Retry
	}
}

// MaxRetryAfter is the longest delay RetryAfter returns.
const MaxRetryAfter = 24 * time.Hour

// RetryAfter returns the delay a Retry-After header asks for, as delay-seconds or as an
// HTTP-date relative to now, at most MaxRetryAfter, and whether there was one. A missing,
// malformed or negative value, or a date before now, is ignored (false).
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64(MaxRetryAfter/time.Second) {
			// Only a value out of int64's range fails to parse: it is very long, too.
			return MaxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		return 0, false
	}
	return min(d, MaxRetryAfter), true
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// MaxAttempts is how many times a delivery is attempted, the first included.
const MaxAttempts = 10

// Schedule is the Standard Webhooks retry schedule: Schedule[n-1] is the delay before
// attempt n, after attempt n-1 failed. Attempt 1 is made immediately, attempt 2 5 s after
// it failed, then 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and, before attempt 10, the
// last, 24 h: 75 h 35 min 5 s of waiting in all. NextDelay adds jitter. Read only.
var Schedule = [MaxAttempts]time.Duration{
	0,
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
	14 * time.Hour,
	20 * time.Hour,
	24 * time.Hour,
}

// jitter is how far, as a fraction, NextDelay moves a delay of the Schedule either way.
const jitter = 0.1

// NextDelay returns the delay before attempt+1 after attempt (from 1) failed: the
// Schedule's, moved by up to ±10% by rnd (a number in [0, 1); 0.5 keeps it as it is,
// nil means math/rand/v2's Float64), and false when attempt was the last (MaxAttempts).
// Before the first attempt (attempt 0) the delay is 0.
func NextDelay(attempt int, rnd func() float64) (time.Duration, bool) {
	if attempt >= MaxAttempts {
		return 0, false
	}
	d := Schedule[max(attempt, 0)]
	if d == 0 {
		return 0, true
	}
	if rnd == nil {
		rnd = rand.Float64
	}
	r := min(max(rnd(), 0), 1)
	return time.Duration(float64(d) * (1 + jitter*(2*r-1))), true
}
