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
	"container/list"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Default limits of the token endpoint's throttle.
const (
	// DefaultPerClientSourceFailures blocks one client id from one source after
	// this many failures within the window.
	DefaultPerClientSourceFailures = 10
	// DefaultPerSourceFailures blocks a source after this many failures within the
	// window, whatever client ids it tried (a spray of ids from one address).
	DefaultPerSourceFailures = 100
	// DefaultThrottleWindow is the failure window and the length of a block.
	DefaultThrottleWindow = 15 * time.Minute
	// DefaultThrottleCapacity bounds the records of each table (client+source,
	// source). Past it, records that do not block are dropped first, least recently
	// failed first; a block is dropped only when every record is a block, and then
	// the one that ends first.
	DefaultThrottleCapacity = 20_000
	// knownSourceTTL is how long a source that authenticated a client stays known
	// for it (its requests take the reserved verification slots).
	knownSourceTTL = 24 * time.Hour
)

// ThrottleConfig configures a Throttle. Zero values take the defaults.
type ThrottleConfig struct {
	// PerClientSource is the failures of one client id from one source that block
	// that pair.
	PerClientSource int
	// PerSource is the failures from one source, any client id, that block it.
	PerSource int
	// Window is the failure window and the block length.
	Window time.Duration
	// Capacity bounds each table's records.
	Capacity int
	// TrustedProxies are the addresses of reverse proxies whose X-Forwarded-For
	// is believed. Empty (the default): the source is always the TCP peer, and
	// X-Forwarded-For is ignored.
	TrustedProxies []netip.Prefix
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Throttle limits failed client authentications by source address and by
// client id from that source, never by client id alone: failures from one
// address never refuse the right secret from another. A source is an IPv4
// address or an IPv6 /64 (one host's usual allocation).
//
// After PerClientSource failures of one client id from one source within Window,
// that pair is blocked for Window from the failure that reached the limit; after
// PerSource failures from one source (whatever ids), the source is. Attempts
// refused while blocked are not counted, so a blocked pair recovers once the
// window passes. A success clears the pair's record (not the source's: an
// attacker with a client of its own cannot reset its spraying count) and makes
// the source known for the client for 24 h: Known lets the token endpoint serve
// known sources first when argon2id work is scarce.
//
// Memory is bounded by Capacity records per table, and blocks survive floods: a
// flood of ids or addresses evicts records that do not block first. A Throttle
// is safe for concurrent use.
type Throttle struct {
	pair, source *failureTable
	known        *knownSources
	proxies      []netip.Prefix
	now          func() time.Time
}

// NewThrottle returns a Throttle with cfg's limits (defaults for zero values).
func NewThrottle(cfg ThrottleConfig) *Throttle {
	if cfg.PerClientSource == 0 {
		cfg.PerClientSource = DefaultPerClientSourceFailures
	}
	if cfg.PerSource == 0 {
		cfg.PerSource = DefaultPerSourceFailures
	}
	if cfg.Window == 0 {
		cfg.Window = DefaultThrottleWindow
	}
	if cfg.Capacity <= 0 {
		cfg.Capacity = DefaultThrottleCapacity
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Throttle{
		pair:    newFailureTable(cfg.PerClientSource, cfg.Window, cfg.Capacity),
		source:  newFailureTable(cfg.PerSource, cfg.Window, cfg.Capacity),
		known:   newKnownSources(cfg.Capacity, knownSourceTTL),
		proxies: cfg.TrustedProxies,
		now:     cfg.Now,
	}
}

// pairKey joins a client id and a source; client ids cannot hold a NUL byte
// that a source could forge (sources are parsed addresses).
func pairKey(clientID, source string) string { return source + "\x00" + clientID }

// Allow reports whether an attempt of clientID from source may proceed. When
// it may not, it returns how long until it may (whole seconds, at least one,
// for Retry-After).
func (t *Throttle) Allow(clientID, source string) (retryAfter time.Duration, allowed bool) {
	if t == nil {
		return 0, true
	}
	now := t.now()
	a, okSource := t.source.allow(source, now)
	b, okPair := t.pair.allow(pairKey(clientID, source), now)
	if okSource && okPair {
		return 0, true
	}
	return max(a, b), false
}

// Failure records a failed attempt of clientID from source.
func (t *Throttle) Failure(clientID, source string) {
	if t == nil {
		return
	}
	now := t.now()
	t.source.failure(source, now)
	t.pair.failure(pairKey(clientID, source), now)
}

// Success clears the record of clientID from source and makes source known
// for clientID.
func (t *Throttle) Success(clientID, source string) {
	if t == nil {
		return
	}
	key := pairKey(clientID, source)
	t.pair.success(key)
	t.known.add(key, t.now())
}

// Known reports whether clientID authenticated from source within 24 h.
func (t *Throttle) Known(clientID, source string) bool {
	if t == nil {
		return false
	}
	return t.known.has(pairKey(clientID, source), t.now())
}

// Source is the throttling key of r's sender: the TCP peer's IPv4 address or
// IPv6 /64. When the peer is a trusted proxy, the right-most address of
// X-Forwarded-For that is not a trusted proxy is used instead.
func (t *Throttle) Source(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return "unknown"
	}
	addr = addr.Unmap().WithZone("")
	if t != nil && t.trusted(addr) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a malformed hop: trust nothing further left
			}
			addr = hop.Unmap().WithZone("")
			if !t.trusted(addr) {
				break
			}
		}
	}
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

func (t *Throttle) trusted(a netip.Addr) bool {
	for _, p := range t.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// failureTable counts failures per key. Records that do not block live in an
// LRU list (front: most recently failed); blocks live in a second list in the
// order they began, which, every block lasting one window, is the order they
// end (back: ends first). Eviction takes from the first list while it has
// records, so a flood of new keys cannot push a block out.
type failureTable struct {
	maxFailures int
	window      time.Duration
	capacity    int

	mu       sync.Mutex
	entries  map[string]*list.Element // values are *failureRecord
	counting *list.List
	blocked  *list.List
}

// failureRecord is the failure record of one key.
type failureRecord struct {
	key          string
	failures     int
	windowStart  time.Time
	blockedUntil time.Time
	inBlocked    bool
}

func newFailureTable(maxFailures int, window time.Duration, capacity int) *failureTable {
	return &failureTable{maxFailures: maxFailures, window: window, capacity: capacity,
		entries: map[string]*list.Element{}, counting: list.New(), blocked: list.New()}
}

func (f *failureTable) disabled() bool { return f.maxFailures <= 0 || f.window <= 0 }

func (f *failureTable) allow(key string, now time.Time) (time.Duration, bool) {
	if f.disabled() {
		return 0, true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	el, ok := f.entries[key]
	if !ok {
		return 0, true
	}
	e := el.Value.(*failureRecord)
	if now.Before(e.blockedUntil) {
		wait := e.blockedUntil.Sub(now)
		// Round up: Retry-After has second resolution, and rounding down would
		// invite a retry that is still refused.
		if r := wait % time.Second; r != 0 {
			wait += time.Second - r
		}
		return wait, false
	}
	if f.expired(e, now) {
		f.remove(el)
	}
	return 0, true
}

func (f *failureTable) expired(e *failureRecord, now time.Time) bool {
	return !now.Before(e.windowStart.Add(f.window)) && !now.Before(e.blockedUntil)
}

func (f *failureTable) failure(key string, now time.Time) {
	if f.disabled() {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prune(now)
	el, ok := f.entries[key]
	var e *failureRecord
	if ok {
		e = el.Value.(*failureRecord)
		if now.Before(e.blockedUntil) {
			return // a late failure of a request admitted before the block
		}
		if e.inBlocked { // its block ended: it counts afresh
			f.blocked.Remove(el)
			e.inBlocked, e.failures, e.blockedUntil = false, 0, time.Time{}
			el = f.counting.PushFront(e)
			f.entries[key] = el
		} else {
			f.counting.MoveToFront(el)
		}
	} else {
		e = &failureRecord{key: key}
		el = f.counting.PushFront(e)
		f.entries[key] = el
	}
	if e.failures == 0 || !now.Before(e.windowStart.Add(f.window)) {
		e.failures, e.windowStart = 0, now
	}
	e.failures++
	if e.failures >= f.maxFailures {
		e.blockedUntil = now.Add(f.window)
		e.inBlocked = true
		f.counting.Remove(el)
		f.entries[key] = f.blocked.PushFront(e)
	}
	f.evict()
}

// evict drops records past capacity: those that do not block first (least
// recently failed first), then the block that ends first.
func (f *failureTable) evict() {
	for len(f.entries) > f.capacity {
		if back := f.counting.Back(); back != nil {
			f.remove(back)
			continue
		}
		f.remove(f.blocked.Back())
	}
}

func (f *failureTable) success(key string) {
	if f.disabled() {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if el, ok := f.entries[key]; ok {
		f.remove(el)
	}
}

// prune drops expired records from the old ends of both lists, stopping at the
// first live one, so each call does bounded work on average.
func (f *failureTable) prune(now time.Time) {
	for _, l := range []*list.List{f.counting, f.blocked} {
		for el := l.Back(); el != nil; el = l.Back() {
			if !f.expired(el.Value.(*failureRecord), now) {
				break
			}
			f.remove(el)
		}
	}
}

func (f *failureTable) remove(el *list.Element) {
	e := el.Value.(*failureRecord)
	if e.inBlocked {
		f.blocked.Remove(el)
	} else {
		f.counting.Remove(el)
	}
	delete(f.entries, e.key)
}

func (f *failureTable) len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.entries)
}

// knownSources remembers which (client, source) pairs authenticated recently,
// least recently used out first. Only successful logins add to it, so a flood
// of wrong secrets cannot fill it.
type knownSources struct {
	capacity int
	ttl      time.Duration

	mu      sync.Mutex
	entries map[string]*list.Element // values are *knownSource
	lru     *list.List
}

type knownSource struct {
	key  string
	seen time.Time
}

func newKnownSources(capacity int, ttl time.Duration) *knownSources {
	return &knownSources{capacity: capacity, ttl: ttl, entries: map[string]*list.Element{}, lru: list.New()}
}

func (k *knownSources) add(key string, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if el, ok := k.entries[key]; ok {
		el.Value.(*knownSource).seen = now
		k.lru.MoveToFront(el)
		return
	}
	k.entries[key] = k.lru.PushFront(&knownSource{key: key, seen: now})
	for k.lru.Len() > k.capacity {
		e := k.lru.Remove(k.lru.Back()).(*knownSource)
		delete(k.entries, e.key)
	}
}

func (k *knownSources) has(key string, now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	el, ok := k.entries[key]
	return ok && now.Sub(el.Value.(*knownSource).seen) < k.ttl
}
