package notify

import (
	"context"
	"sync"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Retention is how long events, deliveries and attempts are kept (the delivery log's
// promise: at least 30 days). Window is how old a fact may be to be recorded as an event
// at all: a day less, so that an event pruned for its age can never be recorded again
// (and sent twice) when its object is read again after a restart.
const (
	Retention = 31 * 24 * time.Hour
	Window    = Retention - 24*time.Hour
)

// Recorder records events in the store and fans them out to the endpoints subscribed when
// they are recorded, then wakes the dispatcher. It remembers which events it recorded,
// per object, so that reading an object again costs nothing; after a restart the first
// read of each object records its events again, which the store ignores (Record is
// idempotent by event id).
type Recorder struct {
	// Store is the outbox.
	Store Store
	// Endpoints lists the enabled endpoints of every tenant (the informer cache).
	Endpoints func(ctx context.Context) ([]Endpoint, error)
	// Wake is called after events were recorded (the dispatcher's trigger); may be nil.
	Wake func()
	// Now is the clock of the window; nil: time.Now.
	Now func() time.Time

	mu    sync.Mutex
	seen  map[string]map[string]struct{} // object key -> event ids recorded
	once  sync.Once
	group Group[recordItem] // the calls waiting for, or in, a write
}

// Since is the oldest time of a fact recorded as an event now.
func (r *Recorder) Since() time.Time {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return now().Add(-Window)
}

// Record records the events of the object key (its kind and UID) that it has not recorded
// yet. The events must be in the order they occurred. Calls that arrive together are
// recorded in one transaction (a Group): a burst of changes costs a few writes of the
// store, not one each.
func (r *Recorder) Record(ctx context.Context, key string, events []Event) error {
	fresh := r.unseen(key, events)
	if len(fresh) == 0 {
		return nil
	}
	r.once.Do(func() { r.group.Write = r.write })
	return r.group.Do(ctx, recordItem{key: key, events: fresh})
}

// recordItem is one Record call's events, written with its group.
type recordItem struct {
	key    string
	events []Event
}

// write records a group's events in one Record and remembers them.
func (r *Recorder) write(ctx context.Context, group []recordItem) error {
	var events []Event
	for _, it := range group {
		events = append(events, it.events...)
	}
	eps, err := r.Endpoints(ctx)
	if err != nil {
		return err
	}
	n, err := r.Store.Record(ctx, events, eps)
	if err != nil {
		return err
	}
	r.mu.Lock()
	for _, it := range group {
		s := r.seen[it.key]
		if s == nil {
			s = make(map[string]struct{}, len(it.events))
			r.seen[it.key] = s
		}
		for _, e := range it.events {
			s[e.ID] = struct{}{}
		}
	}
	r.mu.Unlock()
	if n > 0 && r.Wake != nil {
		r.Wake()
	}
	return nil
}

// Forget drops what the recorder remembers of an object (it was deleted).
func (r *Recorder) Forget(key string) {
	r.mu.Lock()
	delete(r.seen, key)
	r.mu.Unlock()
}

func (r *Recorder) unseen(key string, events []Event) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = make(map[string]map[string]struct{})
	}
	s := r.seen[key]
	var fresh []Event
	for _, e := range events {
		if _, ok := s[e.ID]; !ok {
			fresh = append(fresh, e)
		}
	}
	return fresh
}

// RecordOrder records o's events (the retention controller calls it before the order
// leaves the cluster). Its key is the ingest's: "order/" and namespace/name.
func (r *Recorder) RecordOrder(ctx context.Context, o *investv1.Order) error {
	return r.Record(ctx, "order/"+o.Namespace+"/"+o.Name, OrderEvents(o, r.Since()))
}
