package notify

import (
	"context"
	"errors"
	"time"
)

// Store is the webhook outbox and delivery log: the events recorded from committed state,
// one delivery per (endpoint, event) with its retry schedule, and every attempt. It lives in
// the order archive's database (internal/archive/sqlstore implements it on SQLite and
// PostgreSQL), not in etcd. Implementations are safe for concurrent use by many goroutines
// and by several processes (manager replicas) sharing one database.
//
// Errors are typed: ErrUnavailable (the database does not answer), ErrNotFound, ErrInvalid.
type Store interface {
	// Record records events, each idempotently by Event.ID, and for each event that was not
	// recorded before, in the same transaction, one pending delivery (due at once) to every
	// endpoint of endpoints that Subscribes to it. An event recorded before is left as it
	// is and fans out to nobody again: an endpoint created later never receives older
	// events except by Replay. Record returns how many events were new. Events of one
	// call get increasing sequence numbers in the order given; a later call's events come
	// after every earlier call's.
	Record(ctx context.Context, events []Event, endpoints []Endpoint) (int, error)

	// Pending returns up to limit deliveries of the endpoint that are neither delivered nor
	// given up, due or not, by sequence number ascending (the dispatcher keeps the order
	// per subject from it).
	Pending(ctx context.Context, endpointUID string, limit int) ([]Delivery, error)

	// Attempted records attempts of deliveries and their outcomes, all in one transaction
	// (the dispatcher records a round of attempts at once): each attempt joins the log and
	// its delivery is delivered (Outcome Succeeded), given up (Failed, Disabled), or due
	// again at NextAt (Retrying). An attempt whose delivery does not exist (deleted with its
	// endpoint meanwhile) is left out, and Attempted then returns ErrNotFound after
	// recording the others.
	Attempted(ctx context.Context, attempts ...Attempt) error

	// Attempts pages through the endpoint's attempts, newest first (by time, then attempt
	// id); eventID, when set, keeps one event's. The page has at most limit attempts and
	// the cursor of the next page ("" on the last one).
	Attempts(ctx context.Context, endpointUID string, q AttemptQuery) ([]Attempt, string, error)

	// Replay makes the endpoint's deliveries of its tenant's events due again at once:
	// one event (q.EventID), or those that occurred in [q.From, q.To) that it Subscribes to
	// now. An event the endpoint never had a delivery of (it was created later, or not
	// subscribed then) gets one when the endpoint Subscribes to it now. Returns how many
	// deliveries were scheduled.
	Replay(ctx context.Context, ep Endpoint, q ReplayQuery) (int, error)

	// Event returns one recorded event by id; ErrNotFound when none. The namespace must be
	// the event's own, or the event must be a catalogue event (Namespace "").
	Event(ctx context.Context, namespace, id string) (Event, error)

	// Forget deletes an endpoint's deliveries and attempts (its endpoint was deleted).
	Forget(ctx context.Context, endpointUID string) error

	// Prune deletes the events, deliveries and attempts older than before (by the event's
	// OccurredAt and the attempt's At), but never a delivery still pending (nor its event).
	// Returns how many rows (events, deliveries and attempts) it deleted.
	Prune(ctx context.Context, before time.Time) (int, error)
}

// The store's errors.
var (
	ErrUnavailable = errors.New("the webhook store is unavailable")
	ErrNotFound    = errors.New("not found")
	ErrInvalid     = errors.New("invalid")
)

// Endpoint is what the store needs of a webhook endpoint to fan out to it.
type Endpoint struct {
	// UID is the WebhookEndpoint's metadata.uid: deliveries are keyed by it, so an endpoint
	// deleted and created again under the same name starts afresh.
	UID string
	// Namespace is its tenant.
	Namespace string
	// Types are the event types it subscribes to; empty: every type.
	Types []EventType
}

// Subscribes reports whether the endpoint receives e: an event of its tenant, or a
// catalogue event (Namespace ""), of one of its types.
func (ep Endpoint) Subscribes(e Event) bool {
	if e.Namespace != "" && e.Namespace != ep.Namespace {
		return false
	}
	if len(ep.Types) == 0 {
		return true
	}
	for _, t := range ep.Types {
		if t == e.Type {
			return true
		}
	}
	return false
}

// Event is one webhook event: a fact that was committed (an order entered a state, a wallet
// was registered, a NAV was published), with the payload every endpoint receives.
type Event struct {
	// ID is the event's id, the webhook-id header: derived from the fact (EventID), so the
	// same fact recorded twice is one event.
	ID string
	// Namespace is the tenant; "" for catalogue events, sent to every tenant's endpoints.
	Namespace string
	// Type is the event type.
	Type EventType
	// Subject is what the event is about (an order id, a wallet id, an ISIN): deliveries of
	// one subject to one endpoint go in order, a later one never before an earlier one
	// succeeded or was given up.
	Subject string
	// OccurredAt is when the fact happened (the transition's time), whole milliseconds.
	OccurredAt time.Time
	// Payload is the JSON body sent, {"type", "timestamp", "data"}.
	Payload []byte
	// Seq is the store's sequence number, assigned by Record (zero in the events given to
	// it, which it does not change) and returned by Pending and Event.
	Seq int64
}

// Delivery is one event owed to one endpoint.
type Delivery struct {
	EndpointUID string
	Event       Event
	// Attempts made so far.
	Attempts int
	// NextAt is when the next attempt is due.
	NextAt time.Time
	// FirstFailureAt is the time of the first failed attempt of this delivery (zero when
	// none failed).
	FirstFailureAt time.Time
}

// Outcome is what an attempt came to.
type Outcome string

// The outcomes of an attempt.
const (
	// Succeeded: the receiver answered 2xx; the delivery is done.
	Succeeded Outcome = "succeeded"
	// Retrying: it failed and is due again at NextAt.
	Retrying Outcome = "retrying"
	// Failed: it failed and the schedule is spent; the delivery is given up.
	Failed Outcome = "failed"
	// Disabled: the endpoint answered 410 Gone or was disabled; the delivery is given up.
	Disabled Outcome = "disabled"
)

// Attempt is one try of a delivery, as the log shows it.
type Attempt struct {
	// ID is the store's id of the attempt (set by the store).
	ID          int64
	EndpointUID string
	EventID     string
	EventType   EventType
	// Number is the delivery's attempt number, from 1.
	Number int
	// At is when the request was sent.
	At time.Time
	// StatusCode is the HTTP status answered; 0 when there was no answer.
	StatusCode int
	// Latency is from the request to the answer (or the failure).
	Latency time.Duration
	// Error says why an attempt without an answer failed (timeout, refused address).
	Error string
	// ResponseHead is the first bytes of the answer's body (at most 1 KiB, valid UTF-8).
	ResponseHead string
	Outcome      Outcome
	// NextAt is when the delivery is due again (Outcome Retrying only).
	NextAt time.Time
}

// AttemptQuery selects a page of attempts.
type AttemptQuery struct {
	EventID string
	Limit   int
	Cursor  string
}

// ReplayQuery selects the events to deliver again: one by id, or a time range.
type ReplayQuery struct {
	EventID  string
	From, To time.Time
}
