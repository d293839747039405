/*
Copyright 2026 The fundshare-operator Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package auth

import (
	"container/list"
	"sync"
	"time"
)

// DefaultThrottleCapacity is the number of client ids a Throttle tracks at
// most. Past it the least recently failed entry is evicted, which bounds
// memory even when an attacker sprays random client ids.
const DefaultThrottleCapacity = 10000

// Throttle limits failed authentication attempts per client id. After
// maxFailures failures within window, the client id is blocked for window
// measured from the failure that reached the limit; attempts made while
// blocked are refused without being counted (so a legitimate client recovers
// once the window passes). A success clears the record.
//
// Memory is bounded: expired entries are pruned as new failures arrive, and
// at most DefaultThrottleCapacity ids are tracked. A Throttle is safe for
// concurrent use. The clock is injected so tests can advance time without
// sleeping.
type Throttle struct {
	maxFailures int
	window      time.Duration
	now         func() time.Time
	capacity    int

	mu      sync.Mutex
	entries map[string]*list.Element // values are *throttleEntry
	lru     *list.List               // front: most recently failed
}

// throttleEntry is the failure record of one client id.
type throttleEntry struct {
	key          string
	failures     int
	windowStart  time.Time
	blockedUntil time.Time
}

// expired reports whether the entry no longer affects decisions at now.
func (e *throttleEntry) expired(now time.Time, window time.Duration) bool {
	return !now.Before(e.windowStart.Add(window)) && !now.Before(e.blockedUntil)
}

// NewThrottle returns a Throttle that blocks a client id after maxFailures
// failed attempts within window. A nil now means time.Now. Non-positive
// maxFailures or window disable throttling (Allow always succeeds).
func NewThrottle(maxFailures int, window time.Duration, now func() time.Time) *Throttle {
	if now == nil {
		now = time.Now
	}
	return &Throttle{
		maxFailures: maxFailures,
		window:      window,
		now:         now,
		capacity:    DefaultThrottleCapacity,
		entries:     make(map[string]*list.Element),
		lru:         list.New(),
	}
}

// disabled reports whether t does nothing.
func (t *Throttle) disabled() bool {
	return t == nil || t.maxFailures <= 0 || t.window <= 0
}

// Allow reports whether an attempt for key may proceed. When it may not, it
// returns how long until it may (at least one second, suitable for
// Retry-After).
func (t *Throttle) Allow(key string) (retryAfter time.Duration, allowed bool) {
	if t.disabled() {
		return 0, true
	}
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.entries[key]
	if !ok {
		return 0, true
	}
	e := el.Value.(*throttleEntry)
	if now.Before(e.blockedUntil) {
		wait := e.blockedUntil.Sub(now)
		// Round up to whole seconds: Retry-After has second resolution and
		// rounding down would invite a retry that is still refused.
		if r := wait % time.Second; r != 0 {
			wait += time.Second - r
		}
		return wait, false
	}
	if e.expired(now, t.window) {
		t.remove(el)
	}
	return 0, true
}

// Failure records a failed attempt for key.
func (t *Throttle) Failure(key string) {
	if t.disabled() {
		return
	}
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pruneLocked(now)

	var e *throttleEntry
	if el, ok := t.entries[key]; ok {
		e = el.Value.(*throttleEntry)
		t.lru.MoveToFront(el)
	} else {
		e = &throttleEntry{key: key}
		t.entries[key] = t.lru.PushFront(e)
		for t.lru.Len() > t.capacity {
			t.remove(t.lru.Back())
		}
	}
	if e.failures == 0 || !now.Before(e.windowStart.Add(t.window)) {
		if now.Before(e.blockedUntil) {
			// Still blocked (late failure from a request admitted before the
			// block): keep counting within the block, do not extend it.
			e.failures++
			return
		}
		e.failures = 0
		e.windowStart = now
		e.blockedUntil = time.Time{}
	}
	e.failures++
	if e.failures == t.maxFailures {
		e.blockedUntil = now.Add(t.window)
	}
}

// Success clears the record for key, so earlier failures no longer count.
func (t *Throttle) Success(key string) {
	if t.disabled() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.entries[key]; ok {
		t.remove(el)
	}
}

// pruneLocked drops expired entries from the least recently failed end,
// stopping at the first live one so each call does bounded work on average.
func (t *Throttle) pruneLocked(now time.Time) {
	for el := t.lru.Back(); el != nil; el = t.lru.Back() {
		if !el.Value.(*throttleEntry).expired(now, t.window) {
			return
		}
		t.remove(el)
	}
}

// remove deletes el from both indexes. The caller holds t.mu.
func (t *Throttle) remove(el *list.Element) {
	e := t.lru.Remove(el).(*throttleEntry)
	delete(t.entries, e.key)
}

// len returns the number of tracked ids (for tests).
func (t *Throttle) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lru.Len()
}
