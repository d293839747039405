package notify

import (
	"context"
	"sync"
	"time"
)

// Group writes the items of calls that arrive together in one write (group commit): the
// first call of a group waits Window for others to join it, one goroutine writes the group,
// and every call of the group gets the write's error. Calls that arrive while a group is
// being written form the next group. An embedded database serialises its writers, so N
// callers writing together cost one transaction instead of N waiting for each other's
// lock (and its busy-wait sleeps).
type Group[T any] struct {
	// Window is how long the first call of a group waits for others; zero: GroupWindow.
	Window time.Duration
	// Timeout bounds one group's write; zero: GroupTimeout. The write does not end with
	// the callers' contexts: a caller that gives up leaves the others' items written.
	Timeout time.Duration
	// Write writes one group's items, in the order their calls arrived.
	Write func(ctx context.Context, items []T) error

	mu       sync.Mutex
	queue    []*groupCall[T]
	flushing bool
}

// GroupWindow and GroupTimeout are Group's defaults.
const (
	GroupWindow  = 5 * time.Millisecond
	GroupTimeout = 30 * time.Second
)

type groupCall[T any] struct {
	items []T
	done  chan error
}

// Do writes items with the group they arrive in and returns that write's error, or
// ctx's error when ctx ends first (the items may still be written).
func (g *Group[T]) Do(ctx context.Context, items ...T) error {
	if len(items) == 0 {
		return nil
	}
	c := &groupCall[T]{items: items, done: make(chan error, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	start := !g.flushing
	g.flushing = true
	g.mu.Unlock()
	if start {
		go g.flush()
	}
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush writes the queue in groups until it is empty.
func (g *Group[T]) flush() {
	window, timeout := g.Window, g.Timeout
	if window <= 0 {
		window = GroupWindow
	}
	if timeout <= 0 {
		timeout = GroupTimeout
	}
	for {
		time.Sleep(window)
		g.mu.Lock()
		group := g.queue
		g.queue = nil
		if len(group) == 0 {
			g.flushing = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		var items []T
		for _, c := range group {
			items = append(items, c.items...)
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := g.Write(ctx, items)
		cancel()
		for _, c := range group {
			c.done <- err
		}
	}
}
