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
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestThrottleBlocksAfterMaxFailures(t *testing.T) {
	clock := newFakeClock()
	th := NewThrottle(5, time.Minute, clock.Now)
	for i := range 5 {
		if _, ok := th.Allow("acme"); !ok {
			t.Fatalf("blocked before failure %d", i+1)
		}
		th.Failure("acme")
		clock.Advance(time.Second)
	}
	wait, ok := th.Allow("acme")
	if ok {
		t.Fatal("not blocked after 5 failures")
	}
	// Blocked for a window from the 5th failure (at +4 s, now +5 s).
	if wait != 59*time.Second {
		t.Fatalf("retryAfter = %v, want 59s", wait)
	}
	if _, ok := th.Allow("other"); !ok {
		t.Fatal("unrelated client blocked")
	}
	clock.Advance(58*time.Second + 500*time.Millisecond)
	if wait, ok := th.Allow("acme"); ok || wait != time.Second {
		t.Fatalf("retryAfter = %v ok=%v; want rounded up to 1s, still blocked", wait, ok)
	}
	clock.Advance(500 * time.Millisecond)
	if _, ok := th.Allow("acme"); !ok {
		t.Fatal("still blocked after the window")
	}
	// The record is gone: a new failure starts a fresh count.
	th.Failure("acme")
	if _, ok := th.Allow("acme"); !ok {
		t.Fatal("one failure after the window blocked the client")
	}
}

func TestThrottleWindowExpiresFailures(t *testing.T) {
	clock := newFakeClock()
	th := NewThrottle(5, time.Minute, clock.Now)
	for range 4 {
		th.Failure("acme")
	}
	clock.Advance(time.Minute)
	th.Failure("acme") // old four no longer count
	if _, ok := th.Allow("acme"); !ok {
		t.Fatal("failures from an expired window counted")
	}
}

func TestThrottleSuccessResets(t *testing.T) {
	clock := newFakeClock()
	th := NewThrottle(5, time.Minute, clock.Now)
	for range 4 {
		th.Failure("acme")
	}
	th.Success("acme")
	for range 4 {
		th.Failure("acme")
	}
	if _, ok := th.Allow("acme"); !ok {
		t.Fatal("success did not reset the counter")
	}
	th.Failure("acme")
	if _, ok := th.Allow("acme"); ok {
		t.Fatal("not blocked after 5 failures since the success")
	}
}

func TestThrottleBoundedMemory(t *testing.T) {
	clock := newFakeClock()
	th := NewThrottle(5, time.Minute, clock.Now)
	th.capacity = 100

	// Expired entries are pruned as new failures arrive.
	for i := range 50 {
		th.Failure(fmt.Sprintf("old-%d", i))
	}
	clock.Advance(2 * time.Minute)
	th.Failure("fresh")
	if n := th.len(); n != 1 {
		t.Fatalf("%d entries after expiry, want 1", n)
	}

	// A flood of distinct ids never exceeds capacity; the oldest go first.
	for i := range 1000 {
		th.Failure(fmt.Sprintf("spray-%d", i))
	}
	if n := th.len(); n != 100 {
		t.Fatalf("%d entries, want capacity 100", n)
	}
	th.mu.Lock()
	_, hasOld := th.entries["spray-0"]
	_, hasNew := th.entries["spray-999"]
	th.mu.Unlock()
	if hasOld || !hasNew {
		t.Fatal("eviction is not least-recently-failed first")
	}
}

func TestThrottleDisabledAndNil(t *testing.T) {
	var nilThrottle *Throttle
	nilThrottle.Failure("x")
	nilThrottle.Success("x")
	if _, ok := nilThrottle.Allow("x"); !ok {
		t.Fatal("nil throttle blocked")
	}
	off := NewThrottle(0, time.Minute, nil)
	for range 10 {
		off.Failure("x")
	}
	if _, ok := off.Allow("x"); !ok {
		t.Fatal("disabled throttle blocked")
	}
}

func TestThrottleConcurrent(t *testing.T) {
	clock := newFakeClock()
	th := NewThrottle(5, time.Minute, clock.Now)
	th.capacity = 50
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				key := fmt.Sprintf("c-%d", (g*31+i)%80)
				th.Allow(key)
				if i%7 == 0 {
					th.Success(key)
				} else {
					th.Failure(key)
				}
				if i%100 == 0 {
					clock.Advance(time.Second)
				}
			}
		}()
	}
	wg.Wait()
	if n := th.len(); n > 50 {
		t.Fatalf("%d entries exceed capacity", n)
	}
}
