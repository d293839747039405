package egress

import (
	"net/http"
	"testing"
	"time"
)

func TestClassifyTellsSuccessGoneAndRetry(t *testing.T) {
	tests := map[int]Verdict{
		200: Success, 201: Success, 202: Success, 204: Success, 299: Success,
		410: Gone,
		100: Retry, 199: Retry, 300: Retry, 301: Retry, 302: Retry, 304: Retry, 307: Retry, 308: Retry,
		400: Retry, 401: Retry, 403: Retry, 404: Retry, 409: Retry, 429: Retry,
		500: Retry, 502: Retry, 503: Retry, 504: Retry, 0: Retry, -1: Retry,
	}
	for status, want := range tests {
		if got := Classify(status); got != want {
			t.Errorf("Classify(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestRetryAfterReadsSecondsOrADateAndCapsAt24Hours(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{" 30 ", 30 * time.Second, true},
		{"86400", 24 * time.Hour, true},
		{"86401", 24 * time.Hour, true},
		{"999999999999999999999999", 24 * time.Hour, true},
		{"Sun, 01 Mar 2026 12:10:00 GMT", 10 * time.Minute, true},
		{"Sunday, 01-Mar-26 12:10:00 GMT", 10 * time.Minute, true},
		{"Sun Mar  1 12:10:00 2026", 10 * time.Minute, true},
		{"Sun, 01 Mar 2026 12:00:00 GMT", 0, true},
		{"Sat, 07 Mar 2026 12:00:00 GMT", 24 * time.Hour, true},
		{"Sun, 01 Mar 2026 11:59:59 GMT", 0, false},
		{"-5", 0, false},
		{"+5", 0, false},
		{"1.5", 0, false},
		{"5s", 0, false},
		{"soon", 0, false},
		{"2026-03-01T12:10:00Z", 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.value != "" {
			h.Set("Retry-After", tt.value)
		}
		got, ok := RetryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RetryAfter(%q) = %s, %v, want %s, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func half() float64 { return 0.5 }

func TestNextDelayFollowsTheStandardWebhooksSchedule(t *testing.T) {
	want := []time.Duration{
		0: 0, // before the first attempt
		1: 5 * time.Second,
		2: 5 * time.Minute,
		3: 30 * time.Minute,
		4: 2 * time.Hour,
		5: 5 * time.Hour,
		6: 10 * time.Hour,
		7: 14 * time.Hour,
		8: 20 * time.Hour,
		9: 24 * time.Hour,
	}
	for attempt, w := range want {
		got, ok := NextDelay(attempt, half)
		if !ok || got != w {
			t.Errorf("NextDelay(%d) = %s, %v, want %s, true", attempt, got, ok, w)
		}
	}
}

func TestTheScheduleIsSpentAfterTheTenthAttempt(t *testing.T) {
	for _, attempt := range []int{MaxAttempts, MaxAttempts + 1, 1000} {
		if d, ok := NextDelay(attempt, half); ok {
			t.Errorf("NextDelay(%d) = %s, true, want false", attempt, d)
		}
	}
	if MaxAttempts != 10 {
		t.Errorf("MaxAttempts = %d, want 10", MaxAttempts)
	}
	if d, ok := NextDelay(-1, half); !ok || d != 0 {
		t.Errorf("NextDelay(-1) = %s, %v, want 0, true", d, ok)
	}
}

func TestNextDelayJitterStaysWithinTenPercent(t *testing.T) {
	for attempt := 1; attempt < MaxAttempts; attempt++ {
		base := Schedule[attempt]
		lo, hi := base-base/10, base+base/10
		if d, _ := NextDelay(attempt, func() float64 { return 0 }); d != lo {
			t.Errorf("NextDelay(%d) with rnd 0 = %s, want %s", attempt, d, lo)
		}
		if d, _ := NextDelay(attempt, func() float64 { return 0.9999999999 }); d < hi-time.Millisecond || d > hi {
			t.Errorf("NextDelay(%d) with rnd near 1 = %s, want about %s", attempt, d, hi)
		}
		for _, r := range []float64{-1, 2} { // out of contract: clamped
			if d, _ := NextDelay(attempt, func() float64 { return r }); d < lo || d > hi {
				t.Errorf("NextDelay(%d) with rnd %v = %s, want within [%s, %s]", attempt, r, d, lo, hi)
			}
		}
		seen := map[time.Duration]bool{}
		for range 200 {
			d, ok := NextDelay(attempt, nil)
			if !ok || d < lo || d > hi {
				t.Fatalf("NextDelay(%d) = %s, %v, want within [%s, %s]", attempt, d, ok, lo, hi)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("NextDelay(%d) with math/rand is not jittered", attempt)
		}
	}
}
