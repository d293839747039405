// Package notifytest is the conformance suite of notify.Store: every implementation runs
// Run from its tests, so that the webhook store on SQLite and on PostgreSQL behave alike.
// Each rule is a subtest named after it, on a fresh database. Test-only: import it from
// _test.go files.
package notifytest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify"
)

// Open opens a store on one test's database. Each call opens another store on the same
// database, as another process (a manager replica) would; Open closes what it opened when
// the test ends (t.Cleanup).
type Open func(t *testing.T) notify.Store

// NewDatabase creates an empty database for one test and returns how to open stores on
// it.
type NewDatabase func(t *testing.T) Open

// Run runs the conformance suite, each rule a subtest on a fresh database.
func Run(t *testing.T, newDatabase NewDatabase) {
	t.Helper()
	rules := []struct {
		name string
		test func(t *testing.T, s notify.Store, open Open)
	}{
		{"an event recorded twice fans out once", testRecordedTwice},
		{"record fans out to the endpoints that subscribe", testFanOut},
		{"a later endpoint gets no older event except by replay", testLaterEndpoint},
		{"pending keeps sequence order", testPendingOrder},
		{"pending returns the event as recorded due at once", testPendingRoundTrip},
		{"record of many events fans out every one", testRecordMany},
		{"attempted moves a delivery out of pending", testAttempted},
		{"attempted of a delivery that does not exist is not found", testAttemptedNotFound},
		{"attempted records a round of attempts at once, leaving out a missing delivery", testAttemptedRound},
		{"concurrent records of one event fan out once", testConcurrentRecords},
		{"concurrent records of events in other orders fan out once", testConcurrentRecordsReordered},
		{"attempts page newest first with a stable cursor", testAttemptsPaging},
		{"an attempt keeps what it was given", testAttemptFields},
		{"an event is its tenant's and a catalogue event everyone's", testEventVisibility},
		{"replay of one event makes its delivery due again", testReplayOne},
		{"replay by range schedules subscribed events of the tenant only", testReplayRange},
		{"forget deletes an endpoint's deliveries and attempts", testForget},
		{"prune keeps pending deliveries", testPrune},
		{"prune deletes many events", testPruneMany},
		{"replay and prune at once never lose a replayed delivery", testReplayWhilePruning},
		{"bad arguments answer ErrInvalid", testInvalid},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			open := newDatabase(t)
			r.test(t, open(t), open)
		})
	}
}

// base is the time the suite's facts occurred around.
var base = time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// event is an event of namespace with id, type and subject, occurred at, with a payload
// naming it.
func event(namespace, id string, typ notify.EventType, subject string, at time.Time) notify.Event {
	return notify.Event{
		ID: id, Namespace: namespace, Type: typ, Subject: subject, OccurredAt: at,
		Payload: fmt.Appendf(nil, `{"type":%q,"timestamp":%q,"data":{"id":%q}}`, typ, at.Format(time.RFC3339Nano), subject),
	}
}

// placed is an order.placed event of namespace; n makes its id, subject and time.
func placed(namespace string, n int) notify.Event {
	return event(namespace, fmt.Sprintf("evt_%s_%04d", namespace, n), notify.OrderPlaced, fmt.Sprintf("order-%04d", n),
		base.Add(time.Duration(n)*time.Minute))
}

// endpoint is an endpoint of namespace subscribed to types (all when none).
func endpoint(uid, namespace string, types ...notify.EventType) notify.Endpoint {
	return notify.Endpoint{UID: uid, Namespace: namespace, Types: types}
}

func record(t *testing.T, s notify.Store, events []notify.Event, eps ...notify.Endpoint) int {
	t.Helper()
	n, err := s.Record(ctxOf(t), events, eps)
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	return n
}

func pending(t *testing.T, s notify.Store, uid string) []notify.Delivery {
	t.Helper()
	d, err := s.Pending(ctxOf(t), uid, 1000)
	if err != nil {
		t.Fatalf("Pending(%s): %v", uid, err)
	}
	return d
}

// ids is the event ids of deliveries, in their order.
func ids(ds []notify.Delivery) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.Event.ID)
	}
	return out
}

func expectPending(t *testing.T, s notify.Store, uid string, want ...string) []notify.Delivery {
	t.Helper()
	ds := pending(t, s, uid)
	if got := ids(ds); !slices.Equal(got, want) {
		t.Fatalf("pending deliveries of %s: got %v, want %v", uid, got, want)
	}
	return ds
}

func attempted(t *testing.T, s notify.Store, a notify.Attempt) {
	t.Helper()
	if err := s.Attempted(ctxOf(t), a); err != nil {
		t.Fatalf("Attempted(%s, %s #%d): %v", a.EndpointUID, a.EventID, a.Number, err)
	}
}

// attempt is attempt number n of the delivery of e to uid, at at, with outcome o (and a
// next attempt a minute later when retrying).
func attempt(uid string, e notify.Event, n int, at time.Time, o notify.Outcome) notify.Attempt {
	a := notify.Attempt{EndpointUID: uid, EventID: e.ID, EventType: e.Type, Number: n, At: at, Outcome: o,
		Latency: 20 * time.Millisecond}
	switch o {
	case notify.Succeeded:
		a.StatusCode, a.ResponseHead = 204, ""
	case notify.Retrying:
		a.StatusCode, a.ResponseHead, a.NextAt = 503, "try later", at.Add(time.Minute)
	case notify.Failed:
		a.Error = "dial tcp 192.0.2.1:443: connect: connection refused"
	case notify.Disabled:
		a.StatusCode = 410
	}
	return a
}

// expectDueNow checks that a delivery is due between before and after (whole ms).
func expectDueNow(t *testing.T, d notify.Delivery, before, after time.Time) {
	t.Helper()
	if d.NextAt.Before(before.Truncate(time.Millisecond)) || d.NextAt.After(after) {
		t.Fatalf("delivery of %s is due at %s, want at once (between %s and %s)", d.Event.ID, d.NextAt, before, after)
	}
}

func testRecordedTwice(t *testing.T, s notify.Store, _ Open) {
	a := endpoint("uid-a", "tenant-a")
	e1, e2, e3, e4 := placed("tenant-a", 1), placed("tenant-a", 2), placed("tenant-a", 3), placed("tenant-a", 4)
	if n := record(t, s, []notify.Event{e1, e2}, a); n != 2 {
		t.Fatalf("Record of two new events: %d new, want 2", n)
	}
	if n := record(t, s, []notify.Event{e1, e2}, a); n != 0 {
		t.Fatalf("Record of the same events again: %d new, want 0", n)
	}
	if n := record(t, s, []notify.Event{e2, e3}, a); n != 1 {
		t.Fatalf("Record of one old and one new event: %d new, want 1", n)
	}
	if n := record(t, s, []notify.Event{e4, e4}, a); n != 1 {
		t.Fatalf("Record of one new event given twice: %d new, want 1", n)
	}
	expectPending(t, s, "uid-a", e1.ID, e2.ID, e3.ID, e4.ID)
	// Delivered, then recorded again: it stays delivered.
	attempted(t, s, attempt("uid-a", e1, 1, base, notify.Succeeded))
	changed := e1
	changed.Payload = []byte(`{"changed":true}`)
	if n := record(t, s, []notify.Event{changed}, a); n != 0 {
		t.Fatalf("Record of a delivered event: %d new, want 0", n)
	}
	expectPending(t, s, "uid-a", e2.ID, e3.ID, e4.ID)
	got, err := s.Event(ctxOf(t), "tenant-a", e1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Payload, e1.Payload) {
		t.Fatalf("an event recorded again changed: payload %s, want %s", got.Payload, e1.Payload)
	}
}

func testFanOut(t *testing.T, s notify.Store, _ Open) {
	eps := []notify.Endpoint{
		endpoint("a-all", "tenant-a"),
		endpoint("a-placed", "tenant-a", notify.OrderPlaced),
		endpoint("a-nav", "tenant-a", notify.NAVPublished, notify.WalletRegistered),
		endpoint("b-all", "tenant-b"),
	}
	events := []notify.Event{
		placed("tenant-a", 1),
		event("tenant-a", "evt_a_completed", notify.OrderCompleted, "order-0001", base.Add(time.Hour)),
		placed("tenant-b", 1),
		event("", "evt_nav", notify.NAVPublished, "LU0000000001", base.Add(2*time.Hour)),
		event("tenant-c", "evt_c", notify.WalletRegistered, "wallet-1", base.Add(3*time.Hour)),
	}
	if n := record(t, s, events, eps...); n != len(events) {
		t.Fatalf("Record: %d new, want %d", n, len(events))
	}
	want := map[string][]string{
		"a-all":    {"evt_tenant-a_0001", "evt_a_completed", "evt_nav"},
		"a-placed": {"evt_tenant-a_0001"},
		"a-nav":    {"evt_nav"},
		"b-all":    {"evt_tenant-b_0001", "evt_nav"},
	}
	for _, ep := range eps {
		// The rule is Endpoint.Subscribes.
		var subscribed []string
		for _, e := range events {
			if ep.Subscribes(e) {
				subscribed = append(subscribed, e.ID)
			}
		}
		if !slices.Equal(subscribed, want[ep.UID]) {
			t.Fatalf("the suite's expectation for %s disagrees with Subscribes: %v, %v", ep.UID, want[ep.UID], subscribed)
		}
		expectPending(t, s, ep.UID, want[ep.UID]...)
	}
	// An event nobody subscribes to is recorded all the same.
	if _, err := s.Event(ctxOf(t), "tenant-c", "evt_c"); err != nil {
		t.Fatalf("an event without subscribers: %v", err)
	}
	// An endpoint given twice gets one delivery.
	if n := record(t, s, []notify.Event{placed("tenant-a", 2)}, eps[0], eps[0]); n != 1 {
		t.Fatalf("Record: %d new, want 1", n)
	}
	expectPending(t, s, "a-all", "evt_tenant-a_0001", "evt_a_completed", "evt_nav", "evt_tenant-a_0002")
}

func testLaterEndpoint(t *testing.T, s notify.Store, _ Open) {
	a, b := endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a")
	e1, e2 := placed("tenant-a", 1), placed("tenant-a", 2)
	record(t, s, []notify.Event{e1}, a)
	// b is created; the recorder records e1 again (a restart) and e2.
	if n := record(t, s, []notify.Event{e1, e2}, a, b); n != 1 {
		t.Fatalf("Record: %d new, want 1", n)
	}
	expectPending(t, s, "uid-a", e1.ID, e2.ID)
	expectPending(t, s, "uid-b", e2.ID)
	n, err := s.Replay(ctxOf(t), b, notify.ReplayQuery{EventID: e1.ID})
	if err != nil || n != 1 {
		t.Fatalf("Replay of the older event to the later endpoint: %d, %v; want 1", n, err)
	}
	expectPending(t, s, "uid-b", e1.ID, e2.ID)
}

func testPendingOrder(t *testing.T, s notify.Store, _ Open) {
	a := endpoint("uid-a", "tenant-a")
	ev := func(id string, minute int) notify.Event {
		return event("tenant-a", id, notify.OrderPlaced, "order-"+id, base.Add(time.Duration(minute)*time.Minute))
	}
	// Ids and times in no particular order: the sequence is the order of recording.
	calls := [][]notify.Event{
		{ev("m", 5), ev("c", 1), ev("x", 9)},
		{ev("b", 0), ev("z", 7)},
		{ev("a", 3)},
	}
	for _, c := range calls {
		record(t, s, c, a)
	}
	ds := expectPending(t, s, "uid-a", "m", "c", "x", "b", "z", "a")
	for i := 1; i < len(ds); i++ {
		if ds[i].Event.Seq <= ds[i-1].Event.Seq {
			t.Fatalf("sequence numbers do not increase: %s has %d after %s's %d", ds[i].Event.ID, ds[i].Event.Seq,
				ds[i-1].Event.ID, ds[i-1].Event.Seq)
		}
	}
	if ds[0].Event.Seq <= 0 {
		t.Fatalf("the first sequence number is %d", ds[0].Event.Seq)
	}
	// A limit takes the first ones.
	first, err := s.Pending(ctxOf(t), "uid-a", 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(first); !slices.Equal(got, []string{"m", "c"}) {
		t.Fatalf("Pending with limit 2: %v", got)
	}
	// A delivery due later stays in its place; a delivered one leaves.
	retry := attempt("uid-a", ds[1].Event, 1, base, notify.Retrying)
	retry.NextAt = time.Now().Add(24 * time.Hour)
	attempted(t, s, retry)
	attempted(t, s, attempt("uid-a", ds[0].Event, 1, base, notify.Succeeded))
	expectPending(t, s, "uid-a", "c", "x", "b", "z", "a")
}

func testPendingRoundTrip(t *testing.T, s notify.Store, _ Open) {
	zone := time.FixedZone("CEST", 2*60*60)
	e := notify.Event{
		ID: "evt_01JZ8Q3V7W9XKQ2C4M6N8P0R2T", Namespace: "tenant-a", Type: notify.OrderPaymentReceived,
		Subject:    "6f1c2f0e-3d7a-4b8e-9c1d-2a3b4c5d6e7f",
		OccurredAt: time.Date(2026, 4, 1, 11, 22, 33, 456_000_000, zone),
		Payload:    []byte(`{"type":"order.payment_received","timestamp":"2026-04-01T09:22:33.456Z","data":{"name":"Zürich €"}}`),
	}
	empty := event("tenant-a", "evt_empty", notify.OrderPlaced, "o", base)
	empty.Payload = nil
	before := time.Now()
	record(t, s, []notify.Event{e, empty}, endpoint("uid-a", "tenant-a"))
	after := time.Now()
	ds := expectPending(t, s, "uid-a", e.ID, empty.ID)
	d := ds[0]
	expectEvent(t, d.Event, e)
	if len(ds[1].Event.Payload) != 0 {
		t.Fatalf("an empty payload came back as %q", ds[1].Event.Payload)
	}
	if d.EndpointUID != "uid-a" || d.Attempts != 0 || !d.FirstFailureAt.IsZero() {
		t.Fatalf("a new delivery: %+v", d)
	}
	expectDueNow(t, d, before, after)
	got, err := s.Event(ctxOf(t), "tenant-a", e.ID)
	if err != nil {
		t.Fatal(err)
	}
	expectEvent(t, got, e)
	if got.Seq != d.Event.Seq {
		t.Fatalf("Event's sequence number %d, Pending's %d", got.Seq, d.Event.Seq)
	}
}

// expectEvent checks that got is want as recorded: its time in UTC, its sequence number set.
func expectEvent(t *testing.T, got, want notify.Event) {
	t.Helper()
	if got.ID != want.ID || got.Namespace != want.Namespace || got.Type != want.Type || got.Subject != want.Subject ||
		!bytes.Equal(got.Payload, want.Payload) {
		t.Fatalf("event came back as\n%+v\nwant\n%+v", got, want)
	}
	if !got.OccurredAt.Equal(want.OccurredAt) || got.OccurredAt.Location() != time.UTC {
		t.Fatalf("the event occurred at %s, want %s in UTC", got.OccurredAt, want.OccurredAt.UTC())
	}
	if got.Seq <= 0 {
		t.Fatalf("the event has sequence number %d", got.Seq)
	}
}

func testRecordMany(t *testing.T, s notify.Store, _ Open) {
	const n = 800 // more than an implementation's batch, most likely; and one page of Pending
	events := make([]notify.Event, n)
	want := make([]string, n)
	for i := range events {
		events[i] = placed("tenant-a", i)
		want[i] = events[i].ID
	}
	eps := []notify.Endpoint{endpoint("uid-1", "tenant-a"), endpoint("uid-2", "tenant-a"), endpoint("uid-3", "tenant-a")}
	if got := record(t, s, events, eps...); got != n {
		t.Fatalf("Record of %d events: %d new", n, got)
	}
	for _, ep := range eps {
		if got := ids(pending(t, s, ep.UID)); !slices.Equal(got, want) {
			t.Fatalf("%s got %d deliveries, want %d in order", ep.UID, len(got), n)
		}
	}
}

func testAttempted(t *testing.T, s notify.Store, _ Open) {
	a, b := endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a")
	e1, e2, e3, e4 := placed("tenant-a", 1), placed("tenant-a", 2), placed("tenant-a", 3), placed("tenant-a", 4)
	record(t, s, []notify.Event{e1, e2, e3, e4}, a, b)
	t1 := base.Add(time.Hour)

	attempted(t, s, attempt("uid-a", e1, 1, t1, notify.Succeeded))
	first := attempt("uid-a", e2, 1, t1, notify.Retrying)
	attempted(t, s, first)
	ds := expectPending(t, s, "uid-a", e2.ID, e3.ID, e4.ID)
	if d := ds[0]; d.Attempts != 1 || !d.NextAt.Equal(first.NextAt) || !d.FirstFailureAt.Equal(t1) {
		t.Fatalf("after a retrying attempt: attempts %d, next %s, first failure %s; want 1, %s, %s",
			d.Attempts, d.NextAt, d.FirstFailureAt, first.NextAt, t1)
	}
	second := attempt("uid-a", e2, 2, t1.Add(time.Minute), notify.Retrying)
	second.NextAt = t1.Add(10 * time.Minute)
	attempted(t, s, second)
	ds = expectPending(t, s, "uid-a", e2.ID, e3.ID, e4.ID)
	if d := ds[0]; d.Attempts != 2 || !d.NextAt.Equal(second.NextAt) || !d.FirstFailureAt.Equal(t1) {
		t.Fatalf("after a second retrying attempt: attempts %d, next %s, first failure %s; want 2, %s, %s (the first)",
			d.Attempts, d.NextAt, d.FirstFailureAt, second.NextAt, t1)
	}
	attempted(t, s, attempt("uid-a", e2, 3, t1.Add(10*time.Minute), notify.Failed))
	attempted(t, s, attempt("uid-a", e3, 1, t1, notify.Disabled))
	expectPending(t, s, "uid-a", e4.ID)
	// The other endpoint's deliveries of the same events are untouched.
	ds = expectPending(t, s, "uid-b", e1.ID, e2.ID, e3.ID, e4.ID)
	if ds[1].Attempts != 0 || !ds[1].FirstFailureAt.IsZero() {
		t.Fatalf("another endpoint's delivery changed: %+v", ds[1])
	}
	// The log has every attempt.
	got, _, err := s.Attempts(ctxOf(t), "uid-a", notify.AttemptQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("the log has %d attempts, want 5", len(got))
	}
}

func testAttemptedNotFound(t *testing.T, s notify.Store, _ Open) {
	e := placed("tenant-a", 1)
	record(t, s, []notify.Event{e}, endpoint("uid-a", "tenant-a"))
	for _, a := range []notify.Attempt{
		attempt("uid-a", placed("tenant-a", 2), 1, base, notify.Succeeded), // no such event
		attempt("uid-b", e, 1, base, notify.Retrying),                      // no such endpoint
	} {
		if err := s.Attempted(ctxOf(t), a); !errors.Is(err, notify.ErrNotFound) {
			t.Fatalf("Attempted of a delivery that does not exist (%s, %s): %v, want ErrNotFound", a.EndpointUID, a.EventID, err)
		}
	}
	for _, uid := range []string{"uid-a", "uid-b"} {
		got, _, err := s.Attempts(ctxOf(t), uid, notify.AttemptQuery{Limit: 10})
		if err != nil || len(got) != 0 {
			t.Fatalf("the log of %s has %d attempts (%v): an attempt of no delivery was kept", uid, len(got), err)
		}
	}
	expectPending(t, s, "uid-a", e.ID)
}

func testAttemptedRound(t *testing.T, s notify.Store, _ Open) {
	e1, e2, e3 := placed("tenant-a", 1), placed("tenant-a", 2), placed("tenant-a", 3)
	record(t, s, []notify.Event{e1, e2, e3}, endpoint("uid-a", "tenant-a"))
	err := s.Attempted(ctxOf(t),
		attempt("uid-a", e1, 1, base, notify.Succeeded),
		attempt("uid-a", placed("tenant-a", 9), 1, base, notify.Succeeded), // no such delivery
		attempt("uid-a", e2, 1, base.Add(time.Millisecond), notify.Retrying))
	if !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("a round with a missing delivery: %v, want ErrNotFound", err)
	}
	ds := expectPending(t, s, "uid-a", e2.ID, e3.ID)
	if ds[0].Attempts != 1 || !ds[0].NextAt.Equal(base.Add(time.Millisecond+time.Minute)) {
		t.Fatalf("the retried delivery: %d attempts, due %s", ds[0].Attempts, ds[0].NextAt)
	}
	got, _, err := s.Attempts(ctxOf(t), "uid-a", notify.AttemptQuery{Limit: 10})
	if err != nil || len(got) != 2 {
		t.Fatalf("the log holds %d attempts (%v), want the two of existing deliveries", len(got), err)
	}
	if err := s.Attempted(ctxOf(t)); err != nil {
		t.Fatalf("an empty round: %v", err)
	}
}

// concurrentRecords has stores × per goroutines record events (each its own order of them)
// to two endpoints, rounds times with new events, and checks that each round's events
// fanned out once.
func concurrentRecords(t *testing.T, open Open, stores, per, rounds int, order func(g int, events []notify.Event) []notify.Event) {
	ss := make([]notify.Store, stores)
	for i := range ss {
		ss[i] = open(t)
	}
	eps := []notify.Endpoint{endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a", notify.OrderPlaced)}
	var all []string
	for r := range rounds {
		events := make([]notify.Event, 10)
		for i := range events {
			events[i] = placed("tenant-a", r*100+i)
			all = append(all, events[i].ID)
		}
		ns := make([]int, stores*per)
		errs := make([]error, stores*per)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range stores * per {
			mine := order(g, slices.Clone(events))
			wg.Go(func() {
				<-start
				ns[g], errs[g] = ss[g%stores].Record(ctxOf(t), mine, eps)
			})
		}
		close(start)
		wg.Wait()
		total := 0
		for g, err := range errs {
			if err != nil {
				t.Fatalf("round %d, recorder %d: %v", r, g, err)
			}
			total += ns[g]
		}
		if total != len(events) {
			t.Fatalf("round %d: the recorders counted %d new events, want %d", r, total, len(events))
		}
	}
	for _, ep := range eps {
		got := ids(pending(t, ss[0], ep.UID))
		slices.Sort(got)
		want := slices.Sorted(slices.Values(all))
		if !slices.Equal(got, want) {
			t.Fatalf("%s has %d deliveries, want one of each of %d events:\n%v", ep.UID, len(got), len(want), got)
		}
	}
}

func testConcurrentRecords(t *testing.T, _ notify.Store, open Open) {
	concurrentRecords(t, open, 3, 4, 5, func(_ int, events []notify.Event) []notify.Event { return events })
}

func testConcurrentRecordsReordered(t *testing.T, _ notify.Store, open Open) {
	concurrentRecords(t, open, 2, 1, 3, func(g int, events []notify.Event) []notify.Event {
		if g%2 == 1 {
			slices.Reverse(events)
		}
		return events
	})
}

func testAttemptsPaging(t *testing.T, s notify.Store, _ Open) {
	events := []notify.Event{placed("tenant-a", 1), placed("tenant-a", 2), placed("tenant-a", 3)}
	record(t, s, events, endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a"))
	// 30 attempts in 10 distinct milliseconds (ties by time), over the three events, and
	// some of another endpoint.
	t1 := base.Add(time.Hour)
	number := map[string]int{}
	for i := range 30 {
		e := events[i%3]
		number[e.ID]++
		attempted(t, s, attempt("uid-a", e, number[e.ID], t1.Add(time.Duration(i/3)*time.Millisecond), notify.Retrying))
		if i%10 == 0 {
			attempted(t, s, attempt("uid-b", e, i/10+1, t1, notify.Retrying))
		}
	}
	all := pageAll(t, s, "uid-a", "", 1000, nil)
	if len(all) != 30 {
		t.Fatalf("one page of the log: %d attempts, want 30", len(all))
	}
	expectNewestFirst(t, all)
	for _, a := range all {
		if a.EndpointUID != "uid-a" {
			t.Fatalf("the log of uid-a has an attempt of %s", a.EndpointUID)
		}
	}
	// Pages of 4, with attempts made while paging (later ones, and some in the very
	// millisecond of the newest): the pages still cover the log as it was, each once.
	made := 0
	paged := pageAll(t, s, "uid-a", "", 4, func() {
		made++
		attempted(t, s, attempt("uid-a", events[0], 100+made, all[0].At, notify.Retrying))
		attempted(t, s, attempt("uid-a", events[1], 100+made, t1.Add(time.Hour), notify.Retrying))
	})
	if len(paged) != len(all) {
		t.Fatalf("pages of 4 with attempts made meanwhile: %d attempts, want the %d there were", len(paged), len(all))
	}
	for i := range all {
		if paged[i].ID != all[i].ID {
			t.Fatalf("page item %d is attempt %d, want %d", i, paged[i].ID, all[i].ID)
		}
	}
	// One event's attempts.
	one := pageAll(t, s, "uid-a", events[2].ID, 3, nil)
	if len(one) != 10 {
		t.Fatalf("the attempts of one event: %d, want 10", len(one))
	}
	for _, a := range one {
		if a.EventID != events[2].ID {
			t.Fatalf("the log of event %s has an attempt of %s", events[2].ID, a.EventID)
		}
	}
	expectNewestFirst(t, one)
}

// expectNewestFirst checks that attempts are by time, then id, descending.
func expectNewestFirst(t *testing.T, attempts []notify.Attempt) {
	t.Helper()
	for i := 1; i < len(attempts); i++ {
		p, c := attempts[i-1], attempts[i]
		if c.At.After(p.At) || (c.At.Equal(p.At) && c.ID >= p.ID) {
			t.Fatalf("attempt %d (%s, id %d) follows (%s, id %d): not newest first", i, c.At, c.ID, p.At, p.ID)
		}
	}
}

// pageAll reads the whole log of uid (one event's when eventID is set) in pages of limit,
// calling between (when not nil) after each page.
func pageAll(t *testing.T, s notify.Store, uid, eventID string, limit int, between func()) []notify.Attempt {
	t.Helper()
	var out []notify.Attempt
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the cursor does not end")
		}
		page, next, err := s.Attempts(ctxOf(t), uid, notify.AttemptQuery{EventID: eventID, Limit: limit, Cursor: cursor})
		if err != nil {
			t.Fatalf("Attempts: %v", err)
		}
		if len(page) > limit || (next != "" && len(page) != limit) {
			t.Fatalf("a page of %d attempts for limit %d, next %q", len(page), limit, next)
		}
		out = append(out, page...)
		if next == "" {
			return out
		}
		cursor = next
		if between != nil {
			between()
		}
	}
}

func testAttemptFields(t *testing.T, s notify.Store, _ Open) {
	e := placed("tenant-a", 1)
	record(t, s, []notify.Event{e}, endpoint("uid-a", "tenant-a"))
	zone := time.FixedZone("EST", -5*60*60)
	want := notify.Attempt{
		EndpointUID: "uid-a", EventID: e.ID, EventType: e.Type, Number: 1,
		At:      time.Date(2026, 4, 1, 6, 0, 0, 123_000_000, zone),
		Latency: 1234567*time.Microsecond + 890*time.Nanosecond,
		// Bytes from the network, kept as given: a NUL, bytes that are not UTF-8.
		Error:        "read tcp: unexpected \x00 in \xff\xfe answer",
		ResponseHead: "<html>\x00Zürich €</html>",
		Outcome:      notify.Retrying,
		NextAt:       time.Date(2026, 4, 1, 6, 1, 0, 123_000_000, zone),
	}
	attempted(t, s, want)
	failed := notify.Attempt{EndpointUID: "uid-a", EventID: e.ID, EventType: e.Type, Number: 2, At: want.At.Add(time.Minute),
		StatusCode: 500, Outcome: notify.Failed}
	attempted(t, s, failed)
	got, next, err := s.Attempts(ctxOf(t), "uid-a", notify.AttemptQuery{Limit: 10})
	if err != nil || next != "" || len(got) != 2 {
		t.Fatalf("Attempts: %d, next %q, %v", len(got), next, err)
	}
	g := got[1]
	if g.ID <= 0 || g.EndpointUID != want.EndpointUID || g.EventID != want.EventID || g.EventType != want.EventType ||
		g.Number != 1 || g.StatusCode != 0 || g.Error != want.Error || g.ResponseHead != want.ResponseHead ||
		g.Outcome != notify.Retrying {
		t.Fatalf("the attempt came back as\n%+v\nwant\n%+v", g, want)
	}
	if !g.At.Equal(want.At) || g.At.Location() != time.UTC || !g.NextAt.Equal(want.NextAt) || g.NextAt.Location() != time.UTC {
		t.Fatalf("the attempt's times came back as %s and %s, want %s and %s in UTC", g.At, g.NextAt, want.At.UTC(), want.NextAt.UTC())
	}
	if g.Latency != want.Latency.Truncate(time.Microsecond) {
		t.Fatalf("latency %s, want %s to the microsecond", g.Latency, want.Latency)
	}
	if f := got[0]; f.Number != 2 || f.StatusCode != 500 || f.Outcome != notify.Failed || !f.NextAt.IsZero() ||
		f.Error != "" || f.ResponseHead != "" || f.ID <= g.ID {
		t.Fatalf("the failed attempt came back as %+v", f)
	}
}

func testEventVisibility(t *testing.T, s notify.Store, _ Open) {
	ea := placed("tenant-a", 1)
	nav := event("", "evt_nav", notify.NAVPublished, "LU0000000001", base)
	record(t, s, []notify.Event{ea, nav})
	for _, c := range []struct {
		namespace, id string
		found         bool
	}{
		{"tenant-a", ea.ID, true}, {"tenant-b", ea.ID, false}, {"", ea.ID, false},
		{"tenant-a", nav.ID, true}, {"tenant-b", nav.ID, true}, {"", nav.ID, true},
		{"tenant-a", "evt_missing", false},
	} {
		got, err := s.Event(ctxOf(t), c.namespace, c.id)
		switch {
		case c.found && err != nil:
			t.Fatalf("Event(%q, %s): %v", c.namespace, c.id, err)
		case c.found && got.ID != c.id:
			t.Fatalf("Event(%q, %s) returned %s", c.namespace, c.id, got.ID)
		case !c.found && !errors.Is(err, notify.ErrNotFound):
			t.Fatalf("Event(%q, %s): %v, want ErrNotFound", c.namespace, c.id, err)
		}
	}
}

func testReplayOne(t *testing.T, s notify.Store, _ Open) {
	a := endpoint("uid-a", "tenant-a", notify.OrderPlaced, notify.NAVPublished)
	e1, e2, e3 := placed("tenant-a", 1), placed("tenant-a", 2), placed("tenant-a", 3)
	nav := event("", "evt_nav", notify.NAVPublished, "LU0000000001", base)
	completed := event("tenant-a", "evt_completed", notify.OrderCompleted, "order-0001", base)
	other := placed("tenant-b", 1)
	record(t, s, []notify.Event{e1, e2, e3, nav}, a)
	record(t, s, []notify.Event{completed, other}, endpoint("uid-b", "tenant-b"))
	t1 := base.Add(time.Hour)
	// e1 failed for good after two attempts; e2 succeeded; e3 is due tomorrow.
	attempted(t, s, attempt("uid-a", e1, 1, t1, notify.Retrying))
	attempted(t, s, attempt("uid-a", e1, 2, t1.Add(time.Minute), notify.Failed))
	attempted(t, s, attempt("uid-a", e2, 1, t1, notify.Succeeded))
	later := attempt("uid-a", e3, 1, t1, notify.Retrying)
	later.NextAt = time.Now().Add(24 * time.Hour)
	attempted(t, s, later)
	expectPending(t, s, "uid-a", e3.ID, nav.ID)

	before := time.Now()
	for _, e := range []notify.Event{e1, e2, e3} {
		if n, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: e.ID}); err != nil || n != 1 {
			t.Fatalf("Replay of %s: %d, %v; want 1", e.ID, n, err)
		}
	}
	after := time.Now()
	ds := expectPending(t, s, "uid-a", e1.ID, e2.ID, e3.ID, nav.ID)
	for i, want := range []int{2, 1, 1} {
		d := ds[i]
		if d.Attempts != want || !d.FirstFailureAt.IsZero() {
			t.Fatalf("replayed delivery of %s: attempts %d, first failure %s; want %d kept and none", d.Event.ID, d.Attempts,
				d.FirstFailureAt, want)
		}
		expectDueNow(t, d, before, after)
	}
	// Another tenant's event is not found; a catalogue event is every tenant's.
	if _, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: other.ID}); !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("Replay of another tenant's event: %v, want ErrNotFound", err)
	}
	if _, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: "evt_missing"}); !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("Replay of an event that does not exist: %v, want ErrNotFound", err)
	}
	if n, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: nav.ID}); err != nil || n != 1 {
		t.Fatalf("Replay of a catalogue event: %d, %v; want 1", n, err)
	}
	// The tenant's event of a type the endpoint does not subscribe to, never delivered to
	// it: nothing to schedule.
	if n, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: completed.ID}); err != nil || n != 0 {
		t.Fatalf("Replay of an event the endpoint does not subscribe to: %d, %v; want 0", n, err)
	}
	expectPending(t, s, "uid-a", e1.ID, e2.ID, e3.ID, nav.ID)
	// An event the endpoint had no delivery of, and subscribes to, gets one.
	late := endpoint("uid-late", "tenant-a")
	if n, err := s.Replay(ctxOf(t), late, notify.ReplayQuery{EventID: completed.ID}); err != nil || n != 1 {
		t.Fatalf("Replay to a later endpoint: %d, %v; want 1", n, err)
	}
	ds = expectPending(t, s, "uid-late", completed.ID)
	if ds[0].Attempts != 0 {
		t.Fatalf("a new delivery by replay has %d attempts", ds[0].Attempts)
	}
}

func testReplayRange(t *testing.T, s notify.Store, _ Open) {
	from, to := base, base.Add(3*time.Hour)
	at := func(d time.Duration) time.Time { return from.Add(d) }
	inFirst := event("tenant-a", "evt_first", notify.OrderPlaced, "o1", at(0))
	inDone := event("tenant-a", "evt_done", notify.OrderPlaced, "o2", at(time.Hour))
	inOther := event("tenant-a", "evt_completed", notify.OrderCompleted, "o2", at(time.Hour)) // type not subscribed
	otherTenant := event("tenant-b", "evt_b", notify.OrderPlaced, "o3", at(time.Hour))
	nav := event("", "evt_nav", notify.NAVPublished, "LU0000000001", at(2*time.Hour))
	atTo := event("tenant-a", "evt_at_to", notify.OrderPlaced, "o4", to)
	beforeFrom := event("tenant-a", "evt_before", notify.OrderPlaced, "o5", from.Add(-time.Millisecond))
	lastMs := event("tenant-a", "evt_last_ms", notify.OrderPlaced, "o6", to.Add(-time.Millisecond))

	old := endpoint("uid-old", "tenant-a", notify.OrderPlaced, notify.NAVPublished)
	record(t, s, []notify.Event{inFirst, inDone, inOther, otherTenant, nav, atTo, beforeFrom, lastMs}, old,
		endpoint("uid-b", "tenant-b"))
	attempted(t, s, attempt("uid-old", inDone, 1, at(time.Hour), notify.Succeeded))
	attempted(t, s, attempt("uid-old", beforeFrom, 1, at(time.Hour), notify.Succeeded))
	attempted(t, s, attempt("uid-old", atTo, 1, at(time.Hour), notify.Succeeded))

	// An endpoint created later, of the same subscriptions, has nothing; replay gives it
	// the tenant's and the catalogue's subscribed events of [from, to).
	later := endpoint("uid-later", "tenant-a", notify.OrderPlaced, notify.NAVPublished)
	want := []string{inFirst.ID, inDone.ID, nav.ID, lastMs.ID}
	before := time.Now()
	n, err := s.Replay(ctxOf(t), later, notify.ReplayQuery{From: from, To: to})
	if err != nil || n != len(want) {
		t.Fatalf("Replay by range to a later endpoint: %d, %v; want %d", n, err, len(want))
	}
	for _, d := range expectPending(t, s, "uid-later", want...) {
		expectDueNow(t, d, before, time.Now())
	}
	// The endpoint that had them: the delivered one is pending again, the others stay.
	n, err = s.Replay(ctxOf(t), old, notify.ReplayQuery{From: from, To: to})
	if err != nil || n != len(want) {
		t.Fatalf("Replay by range: %d, %v; want %d", n, err, len(want))
	}
	expectPending(t, s, "uid-old", want...)
	// Again: the same deliveries, scheduled again.
	if n, err := s.Replay(ctxOf(t), later, notify.ReplayQuery{From: from, To: to}); err != nil || n != len(want) {
		t.Fatalf("Replay by range again: %d, %v; want %d", n, err, len(want))
	}
	expectPending(t, s, "uid-later", want...)
	// An endpoint of every type gets the tenant's other types too, never another tenant's.
	every := endpoint("uid-every", "tenant-a")
	if n, err := s.Replay(ctxOf(t), every, notify.ReplayQuery{From: from, To: to}); err != nil || n != 5 {
		t.Fatalf("Replay by range to an endpoint of every type: %d, %v; want 5", n, err)
	}
	expectPending(t, s, "uid-every", inFirst.ID, inDone.ID, inOther.ID, nav.ID, lastMs.ID)
	// Nothing in the range: nothing scheduled.
	if n, err := s.Replay(ctxOf(t), every, notify.ReplayQuery{From: to.Add(time.Hour), To: to.Add(2 * time.Hour)}); err != nil || n != 0 {
		t.Fatalf("Replay of an empty range: %d, %v", n, err)
	}
	expectPending(t, s, "uid-b", otherTenant.ID, nav.ID)
}

func testForget(t *testing.T, s notify.Store, _ Open) {
	a, b := endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a")
	e1, e2 := placed("tenant-a", 1), placed("tenant-a", 2)
	record(t, s, []notify.Event{e1, e2}, a, b)
	for _, uid := range []string{"uid-a", "uid-b"} {
		attempted(t, s, attempt(uid, e1, 1, base, notify.Succeeded))
		attempted(t, s, attempt(uid, e2, 1, base, notify.Retrying))
	}
	if err := s.Forget(ctxOf(t), "uid-a"); err != nil {
		t.Fatal(err)
	}
	expectPending(t, s, "uid-a")
	if got, _, err := s.Attempts(ctxOf(t), "uid-a", notify.AttemptQuery{Limit: 10}); err != nil || len(got) != 0 {
		t.Fatalf("the forgotten endpoint's log has %d attempts (%v)", len(got), err)
	}
	if err := s.Attempted(ctxOf(t), attempt("uid-a", e2, 2, base, notify.Succeeded)); !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("Attempted of a forgotten endpoint's delivery: %v, want ErrNotFound", err)
	}
	// The other endpoint and the events are kept; forgetting again is a no-op.
	expectPending(t, s, "uid-b", e2.ID)
	if got, _, err := s.Attempts(ctxOf(t), "uid-b", notify.AttemptQuery{Limit: 10}); err != nil || len(got) != 2 {
		t.Fatalf("another endpoint's log has %d attempts (%v), want 2", len(got), err)
	}
	if _, err := s.Event(ctxOf(t), "tenant-a", e1.ID); err != nil {
		t.Fatalf("Forget deleted an event: %v", err)
	}
	if err := s.Forget(ctxOf(t), "uid-a"); err != nil {
		t.Fatalf("Forget again: %v", err)
	}
	// An endpoint created again under the same uid starts afresh.
	if n, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: e1.ID}); err != nil || n != 1 {
		t.Fatalf("Replay after Forget: %d, %v", n, err)
	}
	if ds := expectPending(t, s, "uid-a", e1.ID); ds[0].Attempts != 0 {
		t.Fatalf("a delivery after Forget kept %d attempts", ds[0].Attempts)
	}
}

func testPrune(t *testing.T, s notify.Store, _ Open) {
	cut := base.Add(24 * time.Hour)
	old := func(n int) notify.Event { return placed("tenant-a", n) } // before cut
	delivered, stillPending, noDelivery, failed := old(1), old(2), old(3), old(4)
	fresh := event("tenant-a", "evt_fresh", notify.OrderPlaced, "o", cut)
	a, b := endpoint("uid-a", "tenant-a"), endpoint("uid-b", "tenant-a")
	record(t, s, []notify.Event{delivered, stillPending, failed, fresh}, a, b)
	record(t, s, []notify.Event{noDelivery})
	t1 := base.Add(time.Hour)
	for _, uid := range []string{"uid-a", "uid-b"} {
		attempted(t, s, attempt(uid, delivered, 1, t1, notify.Succeeded))
		attempted(t, s, attempt(uid, failed, 1, t1, notify.Disabled))
	}
	// stillPending: delivered to b, retrying to a (an attempt before the cut, one after).
	attempted(t, s, attempt("uid-b", stillPending, 1, t1, notify.Succeeded))
	attempted(t, s, attempt("uid-a", stillPending, 1, t1, notify.Retrying))
	attempted(t, s, attempt("uid-a", stillPending, 2, cut, notify.Retrying))
	attempted(t, s, attempt("uid-a", fresh, 1, cut.Add(time.Hour), notify.Succeeded))
	attempted(t, s, attempt("uid-b", fresh, 1, cut.Add(-time.Millisecond), notify.Succeeded))

	n, err := s.Prune(ctxOf(t), cut)
	if err != nil {
		t.Fatal(err)
	}
	// 3 events (delivered, noDelivery, failed), their 4 deliveries, and the 7 attempts
	// before the cut: 4 of delivered and failed, stillPending's to b and its first to a,
	// and fresh's to b.
	const events, deliveries, attempts = 3, 4, 7
	if n != events+deliveries+attempts {
		t.Fatalf("Prune deleted %d rows, want %d events, %d deliveries and %d attempts", n, events, deliveries, attempts)
	}
	for _, e := range []notify.Event{delivered, noDelivery, failed} {
		if _, err := s.Event(ctxOf(t), "tenant-a", e.ID); !errors.Is(err, notify.ErrNotFound) {
			t.Fatalf("Event of a pruned event: %v, want ErrNotFound", err)
		}
		if _, err := s.Replay(ctxOf(t), a, notify.ReplayQuery{EventID: e.ID}); !errors.Is(err, notify.ErrNotFound) {
			t.Fatalf("Replay of a pruned event: %v, want ErrNotFound", err)
		}
	}
	for _, e := range []notify.Event{stillPending, fresh} {
		if _, err := s.Event(ctxOf(t), "tenant-a", e.ID); err != nil {
			t.Fatalf("Prune deleted %s: %v", e.ID, err)
		}
	}
	ds := expectPending(t, s, "uid-a", stillPending.ID)
	expectEvent(t, ds[0].Event, stillPending)
	if ds[0].Attempts != 2 {
		t.Fatalf("the pending delivery has %d attempts, want 2", ds[0].Attempts)
	}
	// The attempts left are those at or after the cut.
	for uid, want := range map[string]int{"uid-a": 2, "uid-b": 0} {
		got, _, err := s.Attempts(ctxOf(t), uid, notify.AttemptQuery{Limit: 100})
		if err != nil || len(got) != want {
			t.Fatalf("%s has %d attempts left (%v), want %d", uid, len(got), err, want)
		}
		for _, a := range got {
			if a.At.Before(cut) {
				t.Fatalf("an attempt at %s is left, before the cut %s", a.At, cut)
			}
		}
	}
	// stillPending's delivery to b (succeeded) is kept with its event: replaying it finds it.
	if n, err := s.Replay(ctxOf(t), b, notify.ReplayQuery{EventID: stillPending.ID}); err != nil || n != 1 {
		t.Fatalf("Replay of a kept event: %d, %v", n, err)
	}
	if n, err := s.Prune(ctxOf(t), cut); err != nil || n != 0 {
		t.Fatalf("Prune again: %d, %v; want 0", n, err)
	}
}

func testPruneMany(t *testing.T, s notify.Store, _ Open) {
	const n = 2500
	events := make([]notify.Event, n)
	for i := range events {
		events[i] = placed("tenant-a", i)
	}
	record(t, s, events)
	keep := event("tenant-a", "evt_keep", notify.OrderPlaced, "o", base.Add(365*24*time.Hour))
	record(t, s, []notify.Event{keep})
	got, err := s.Prune(ctxOf(t), keep.OccurredAt)
	if err != nil || got != n {
		t.Fatalf("Prune of %d events: %d, %v", n, got, err)
	}
	if _, err := s.Event(ctxOf(t), "tenant-a", events[n-1].ID); !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("the last old event: %v, want ErrNotFound", err)
	}
	if _, err := s.Event(ctxOf(t), "tenant-a", keep.ID); err != nil {
		t.Fatalf("the newer event: %v", err)
	}
}

func testInvalid(t *testing.T, s notify.Store, _ Open) {
	e := placed("tenant-a", 1)
	a := endpoint("uid-a", "tenant-a")
	record(t, s, []notify.Event{e}, a)
	valid := attempt("uid-a", e, 1, base, notify.Retrying)
	with := func(f func(*notify.Attempt)) notify.Attempt {
		c := valid
		f(&c)
		return c
	}
	ctx := ctxOf(t)
	calls := map[string]func() error{
		"Record of an event without id": func() error {
			_, err := s.Record(ctx, []notify.Event{placed("tenant-a", 2), {Namespace: "tenant-a"}}, []notify.Endpoint{a})
			return err
		},
		"Record to an endpoint without uid": func() error {
			_, err := s.Record(ctx, []notify.Event{placed("tenant-a", 3)}, []notify.Endpoint{a, {Namespace: "tenant-a"}})
			return err
		},
		"Pending without endpoint": func() error { _, err := s.Pending(ctx, "", 10); return err },
		"Pending of limit 0":       func() error { _, err := s.Pending(ctx, "uid-a", 0); return err },
		"Pending of limit 1001":    func() error { _, err := s.Pending(ctx, "uid-a", 1001); return err },
		"Attempted without endpoint": func() error {
			return s.Attempted(ctx, with(func(a *notify.Attempt) { a.EndpointUID = "" }))
		},
		"Attempted without event":    func() error { return s.Attempted(ctx, with(func(a *notify.Attempt) { a.EventID = "" })) },
		"Attempted of number 0":      func() error { return s.Attempted(ctx, with(func(a *notify.Attempt) { a.Number = 0 })) },
		"Attempted without time":     func() error { return s.Attempted(ctx, with(func(a *notify.Attempt) { a.At = time.Time{} })) },
		"Attempted of an outcome":    func() error { return s.Attempted(ctx, with(func(a *notify.Attempt) { a.Outcome = "maybe" })) },
		"Attempted retrying without": func() error { return s.Attempted(ctx, with(func(a *notify.Attempt) { a.NextAt = time.Time{} })) },
		"Attempts without endpoint": func() error {
			_, _, err := s.Attempts(ctx, "", notify.AttemptQuery{Limit: 10})
			return err
		},
		"Attempts of limit 0": func() error { _, _, err := s.Attempts(ctx, "uid-a", notify.AttemptQuery{}); return err },
		"Attempts of limit 1001": func() error {
			_, _, err := s.Attempts(ctx, "uid-a", notify.AttemptQuery{Limit: 1001})
			return err
		},
		"Attempts of a bad cursor": func() error {
			_, _, err := s.Attempts(ctx, "uid-a", notify.AttemptQuery{Limit: 10, Cursor: "not a cursor"})
			return err
		},
		"Attempts of a made-up cursor": func() error {
			_, _, err := s.Attempts(ctx, "uid-a", notify.AttemptQuery{Limit: 10, Cursor: "bm90LWEtY3Vyc29y"})
			return err
		},
		"Replay without endpoint": func() error {
			_, err := s.Replay(ctx, notify.Endpoint{Namespace: "tenant-a"}, notify.ReplayQuery{EventID: e.ID})
			return err
		},
		"Replay of nothing": func() error { _, err := s.Replay(ctx, a, notify.ReplayQuery{}); return err },
		"Replay of an event and a range": func() error {
			_, err := s.Replay(ctx, a, notify.ReplayQuery{EventID: e.ID, From: base, To: base.Add(time.Hour)})
			return err
		},
		"Replay of an empty range": func() error {
			_, err := s.Replay(ctx, a, notify.ReplayQuery{From: base, To: base})
			return err
		},
		"Replay of a range without end": func() error { _, err := s.Replay(ctx, a, notify.ReplayQuery{From: base}); return err },
		"Event without id":              func() error { _, err := s.Event(ctx, "tenant-a", ""); return err },
		"Forget without endpoint":       func() error { return s.Forget(ctx, "") },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, notify.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// Nothing of it was written.
	expectPending(t, s, "uid-a", e.ID)
	if got, _, err := s.Attempts(ctx, "uid-a", notify.AttemptQuery{Limit: 10}); err != nil || len(got) != 0 {
		t.Fatalf("an invalid call left %d attempts (%v)", len(got), err)
	}
}

func testReplayWhilePruning(t *testing.T, s notify.Store, open Open) {
	other := open(t) // another replica prunes
	a := endpoint("uid-a", "tenant-a")
	cut := base.Add(365 * 24 * time.Hour)
	for r := range 40 {
		e := placed("tenant-a", r)
		record(t, s, []notify.Event{e}, a)
		attempted(t, s, attempt("uid-a", e, 1, base, notify.Succeeded))
		var replayed int
		var replayErr, pruneErr error
		start := make(chan struct{})
		var wg sync.WaitGroup
		q := notify.ReplayQuery{EventID: e.ID}
		if r%2 == 1 {
			q = notify.ReplayQuery{From: e.OccurredAt, To: e.OccurredAt.Add(time.Millisecond)}
		}
		wg.Go(func() { <-start; replayed, replayErr = s.Replay(ctxOf(t), a, q) })
		wg.Go(func() { <-start; _, pruneErr = other.Prune(ctxOf(t), cut) })
		close(start)
		wg.Wait()
		if pruneErr != nil {
			t.Fatalf("round %d: Prune: %v", r, pruneErr)
		}
		_, eventErr := s.Event(ctxOf(t), "tenant-a", e.ID)
		switch {
		case replayErr == nil && replayed == 1:
			// Replayed first: the event is kept with its pending delivery.
			if eventErr != nil || !slices.Contains(ids(pending(t, s, "uid-a")), e.ID) {
				t.Fatalf("round %d: Replay scheduled %s, then Prune lost it (Event: %v)", r, e.ID, eventErr)
			}
			attempted(t, s, attempt("uid-a", e, 2, base, notify.Succeeded))
		case errors.Is(replayErr, notify.ErrNotFound), replayErr == nil && replayed == 0 && q.EventID == "":
			// Pruned first.
			if !errors.Is(eventErr, notify.ErrNotFound) {
				t.Fatalf("round %d: Replay did not find %s, which is there: %v", r, e.ID, eventErr)
			}
		default:
			t.Fatalf("round %d: Replay: %d, %v", r, replayed, replayErr)
		}
	}
	expectPending(t, s, "uid-a")
}
