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
	"fmt"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"
)

const (
	addrA = "192.0.2.1"
	addrB = "198.51.100.7"
)

// testThrottle is a throttle on a fake clock: 5 failures per client and source, 20 per
// source, in a minute, its tables holding capacity records (0: the default).
func testThrottle(capacity int) (*fakeClock, *Throttle) {
	clock := newFakeClock()
	return clock, NewThrottle(ThrottleConfig{PerClientSource: 5, PerSource: 20, Window: time.Minute, Capacity: capacity, Now: clock.Now})
}

// failures records n failed logins of clientID from addr.
func failures(th *Throttle, clientID, addr string, n int) {
	for range n {
		th.Failure(clientID, addr)
	}
}

// sprayed records a failed login from addr for each of n client ids, prefix0 to
// prefix(n-1).
func sprayed(th *Throttle, prefix, addr string, n int) {
	for i := range n {
		th.Failure(fmt.Sprintf("%s%d", prefix, i), addr)
	}
}

func TestThrottleBlocksAClientFromOneSourceAfterMaxFailures(t *testing.T) {
	clock, th := testThrottle(0)
	expectBlockedAfterFailures(t, th, clock, "acme", addrA, 5, time.Second)
	// Blocked for a window from the 5th failure (at +4 s, now +5 s).
	if wait, _ := th.Allow("acme", addrA); wait != 59*time.Second {
		t.Fatalf("retryAfter = %v, want 59s", wait)
	}
	expectAllow(t, th, "other", addrA, true, "another client from the same source blocked by the pair's failures")
	clock.Advance(58*time.Second + 500*time.Millisecond)
	if wait, ok := th.Allow("acme", addrA); ok || wait != time.Second {
		t.Fatalf("retryAfter = %v ok=%v; want rounded up to 1s, still blocked", wait, ok)
	}
	clock.Advance(500 * time.Millisecond)
	expectAllow(t, th, "acme", addrA, true, "still blocked after the window")
	th.Failure("acme", addrA)
	expectAllow(t, th, "acme", addrA, true, "one failure after the window blocked the client")
}

func TestFailuresFromOneAddressDoNotBlockTheClientFromAnother(t *testing.T) {
	_, th := testThrottle(0)
	failures(th, "acme", addrA, 50)
	expectAllow(t, th, "acme", addrA, false, "the failing source is not blocked")
	expectAllow(t, th, "acme", addrB, true, "the client is refused from another source")
}

func TestASourceSprayingClientIDsIsBlocked(t *testing.T) {
	_, th := testThrottle(0)
	sprayed(th, "id-", addrA, 20)
	expectAllow(t, th, "never-tried", addrA, false, "a source with 20 failures over many ids is not blocked")
	expectAllow(t, th, "never-tried", addrB, true, "another source is blocked")
}

func TestASuccessDoesNotResetTheSourceCount(t *testing.T) {
	_, th := testThrottle(0)
	sprayed(th, "id-", addrA, 19)
	th.Success("own-client", addrA)
	th.Failure("id-19", addrA)
	expectAllow(t, th, "own-client", addrA, false, "a success of the attacker's own client reset its spraying count")
}

func TestThrottleWindowExpiresFailures(t *testing.T) {
	clock, th := testThrottle(0)
	failures(th, "acme", addrA, 4)
	clock.Advance(time.Minute)
	th.Failure("acme", addrA) // the old four no longer count
	expectAllow(t, th, "acme", addrA, true, "failures from an expired window counted")
}

func TestThrottleSuccessResetsThePair(t *testing.T) {
	clock, th := testThrottle(0)
	failures(th, "acme", addrA, 4)
	th.Success("acme", addrA)
	// The count starts again: allowed until the 5th failure since the success.
	expectBlockedAfterFailures(t, th, clock, "acme", addrA, 5, 0)
}

// TestFloodOfUnknownClientIDsDoesNotEvictABlock: the attack (flooding other ids
// resets the throttle) with more distinct ids and addresses than the tables hold.
func TestFloodOfUnknownClientIDsDoesNotEvictABlock(t *testing.T) {
	_, th := testThrottle(100)
	failures(th, "acme", addrA, 5)
	sprayed(th, "spray-", addrB, 20) // blocks addrB as a source
	// 10,000 other ids, each from its own address: nothing ever blocks, every record
	// is new, and the tables are far too small for them.
	for i := range 10_000 {
		src := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}).String()
		th.Failure(fmt.Sprintf("flood-%d", i), src)
	}
	// And 10,000 from the attacker's own, blocked address.
	for i := range 10_000 {
		th.Failure(fmt.Sprintf("flood-%d", i), addrA)
	}
	expectAllow(t, th, "acme", addrA, false, "the flood evicted the block of acme from addrA")
	expectAllow(t, th, "anyone", addrB, false, "the flood evicted the block of source addrB")
	if n := th.pair.len(); n > 100 {
		t.Fatalf("%d records, capacity 100", n)
	}
	if n := th.source.len(); n > 100 {
		t.Fatalf("%d records, capacity 100", n)
	}
}

func TestThrottleBoundedMemory(t *testing.T) {
	clock, th := testThrottle(100)
	sprayed(th, "old-", addrA, 50)
	clock.Advance(2 * time.Minute)
	th.Failure("fresh", addrA)
	if n := th.pair.len(); n != 1 {
		t.Fatalf("%d records after expiry, want 1", n)
	}
	// When every record is a block, the block that ends first goes.
	f := newFailureTable(1, time.Minute, 3)
	for i := range 4 {
		f.failure(fmt.Sprintf("b-%d", i), clock.Now())
		clock.Advance(time.Second)
	}
	if f.len() != 3 {
		t.Fatalf("%d records, want 3", f.len())
	}
	if _, ok := f.allow("b-0", clock.Now()); !ok {
		t.Fatal("the oldest block was kept past capacity")
	}
	if _, ok := f.allow("b-3", clock.Now()); ok {
		t.Fatal("the newest block was dropped")
	}
}

func TestThrottleDisabledAndNil(t *testing.T) {
	var nilThrottle *Throttle
	nilThrottle.Failure("x", addrA)
	nilThrottle.Success("x", addrA)
	expectAllow(t, nilThrottle, "x", addrA, true, "nil throttle blocked")
	off := NewThrottle(ThrottleConfig{PerClientSource: -1, PerSource: -1})
	for range 200 {
		off.Failure("x", addrA)
	}
	expectAllow(t, off, "x", addrA, true, "disabled throttle blocked")
}

func TestThrottleConcurrent(t *testing.T) {
	clock, th := testThrottle(50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				key := fmt.Sprintf("c-%d", (g*31+i)%80)
				src := fmt.Sprintf("10.0.0.%d", i%7)
				th.Allow(key, src)
				if i%7 == 0 {
					th.Success(key, src)
				} else {
					th.Failure(key, src)
				}
				if i%100 == 0 {
					clock.Advance(time.Second)
				}
			}
		}()
	}
	wg.Wait()
	if n := th.pair.len(); n > 50 {
		t.Fatalf("%d records exceed capacity", n)
	}
}

func TestSourceIsThePeerAddressOrIPv6Slash64(t *testing.T) {
	th := NewThrottle(ThrottleConfig{})
	for remote, want := range map[string]string{
		"192.0.2.1:5000":                  "192.0.2.1",
		"[::ffff:192.0.2.1]:5000":         "192.0.2.1",
		"[2001:db8:1:2:aaaa::1]:443":      "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9%eth0]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:443":           "2001:db8:1:3::/64",
		"not an address":                  "unknown",
	} {
		r := httptest.NewRequest("POST", "/oauth2/token", nil)
		r.RemoteAddr = remote
		if got := th.Source(r); got != want {
			t.Errorf("%s: source %q, want %q", remote, got, want)
		}
	}
}

func TestXForwardedForIsIgnoredUnlessThePeerIsATrustedProxy(t *testing.T) {
	plain := NewThrottle(ThrottleConfig{})
	proxied := NewThrottle(ThrottleConfig{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	cases := []struct {
		th     *Throttle
		remote string
		xff    []string
		want   string
	}{
		{plain, "10.1.2.3:80", []string{"203.0.113.9"}, "10.1.2.3"},
		{plain, "192.0.2.1:80", []string{"203.0.113.9"}, "192.0.2.1"},
		{proxied, "192.0.2.1:80", []string{"203.0.113.9"}, "192.0.2.1"}, // peer not a proxy
		{proxied, "10.1.2.3:80", []string{"203.0.113.9"}, "203.0.113.9"},
		{proxied, "10.1.2.3:80", []string{"198.51.100.1, 203.0.113.9, 10.9.9.9"}, "203.0.113.9"}, // right-most untrusted
		{proxied, "10.1.2.3:80", []string{"198.51.100.1", "203.0.113.9"}, "203.0.113.9"},
		{proxied, "10.1.2.3:80", []string{"forged, 203.0.113.9"}, "203.0.113.9"},
		{proxied, "10.1.2.3:80", []string{"203.0.113.9, garbage"}, "10.1.2.3"}, // malformed hop: stop at the proxy
		{proxied, "10.1.2.3:80", nil, "10.1.2.3"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/oauth2/token", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := c.th.Source(r); got != c.want {
			t.Errorf("peer %s, X-Forwarded-For %q: source %q, want %q", c.remote, c.xff, got, c.want)
		}
	}
}

func TestKnownSourcesAreRememberedOnlyOnSuccess(t *testing.T) {
	clock, th := testThrottle(0)
	th.Failure("acme", addrA)
	if th.Known("acme", addrA) {
		t.Fatal("a failure made the source known")
	}
	th.Success("acme", addrA)
	if !th.Known("acme", addrA) || th.Known("acme", addrB) || th.Known("other", addrA) {
		t.Fatal("known sources are not per client and address")
	}
	clock.Advance(knownSourceTTL)
	if th.Known("acme", addrA) {
		t.Fatal("a source stays known past 24 h")
	}
}

// expectBlockedAfterFailures records n failed logins of client id from addr, step apart
// on clock, and fails unless every attempt before the n-th failure is allowed and the
// attempt after it is not.
func expectBlockedAfterFailures(t *testing.T, th *Throttle, clock *fakeClock, id, addr string, n int, step time.Duration) {
	t.Helper()
	for i := range n {
		expectAllow(t, th, id, addr, true, fmt.Sprintf("blocked before failure %d", i+1))
		th.Failure(id, addr)
		clock.Advance(step)
	}
	expectAllow(t, th, id, addr, false, fmt.Sprintf("not blocked after %d failures", n))
}

// expectAllow fails, saying why, unless th allows the attempt of client id from addr
// exactly when want.
func expectAllow(t *testing.T, th *Throttle, id, addr string, want bool, why string) {
	t.Helper()
	if _, ok := th.Allow(id, addr); ok != want {
		t.Fatal(why)
	}
}
