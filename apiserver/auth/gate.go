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
	"context"
	"errors"
	"slices"
	"sync"
	"time"
)

// errGateBusy means no verification slot came free in time (or the queue was full).
var errGateBusy = errors.New("auth: secret verification is saturated")

// verifyGate bounds concurrent argon2id verifications (each holds ~19 MiB and a
// core for tens of milliseconds) to size slots, queued first come first served
// with a timeout. Known sources (a client id from an address that authenticated
// it within 24 h) come first: requests from other sources hold at most
// size − reserved slots, and start no verification while a known one is running
// or waiting, so a flood of wrong secrets from strangers, however many addresses
// it comes from, neither queues a returning client behind it nor competes with
// its verification for memory bandwidth beyond the one that was already running.
type verifyGate struct {
	size, reserved int
	timeout        time.Duration
	maxQueue       int // waiters per lane beyond which requests are refused at once

	mu             sync.Mutex
	inUse, others  int // slots held in total, and by unknown sources
	knownQ, otherQ []*gateWaiter
}

type gateWaiter struct {
	known   bool
	granted chan struct{}
}

func newVerifyGate(size int, timeout time.Duration) *verifyGate {
	size = max(size, 2)
	return &verifyGate{size: size, reserved: max(1, size/4), timeout: timeout, maxQueue: 16 * size}
}

// acquire waits for a slot; known requests are served before the others and may
// take the reserved slots. It returns errGateBusy when none came free within the
// gate's timeout, and ctx's error when ctx ended first.
func (g *verifyGate) acquire(ctx context.Context, known bool) (release func(), err error) {
	w := &gateWaiter{known: known, granted: make(chan struct{})}
	g.mu.Lock()
	q := &g.otherQ
	if known {
		q = &g.knownQ
	}
	if len(*q) >= g.maxQueue {
		g.mu.Unlock()
		return nil, errGateBusy
	}
	*q = append(*q, w)
	g.dispatch()
	g.mu.Unlock()

	release = func() {
		g.mu.Lock()
		g.inUse--
		if !known {
			g.others--
		}
		g.dispatch()
		g.mu.Unlock()
	}
	select {
	case <-w.granted:
		return release, nil
	default:
	}
	t := time.NewTimer(g.timeout)
	defer t.Stop()
	select {
	case <-w.granted:
		return release, nil
	case <-t.C:
		err = errGateBusy
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-w.granted: // granted while giving up: hand the slot on
		g.inUse--
		if !known {
			g.others--
		}
		g.dispatch()
	default:
		if i := slices.Index(*q, w); i >= 0 {
			*q = slices.Delete(*q, i, i+1)
		}
	}
	return nil, err
}

// dispatch grants free slots to waiters, known ones first. The caller holds g.mu.
func (g *verifyGate) dispatch() {
	for g.inUse < g.size {
		switch {
		case len(g.knownQ) > 0:
			w := g.knownQ[0]
			g.knownQ = g.knownQ[1:]
			g.inUse++
			close(w.granted)
		case len(g.otherQ) > 0 && g.others < g.size-g.reserved && g.inUse == g.others:
			w := g.otherQ[0]
			g.otherQ = g.otherQ[1:]
			g.inUse++
			g.others++
			close(w.granted)
		default:
			return
		}
	}
}
