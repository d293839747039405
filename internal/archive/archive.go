// Package archive is the order archive: where a finished order goes when it leaves the
// cluster (etcd), so that the control plane holds only live orders and a bounded tail of
// history while every order ever placed stays readable through REST and fundsharectl.
//
// The Store interface is what the retention controller writes through (Put, then Get to
// verify, and only then delete the Order from the cluster) and what the REST reads and the
// holdings computation read through (Get, List, Holdings, CompletedOrders). Two implementations pass
// one conformance suite (internal/archive/archivetest): an embedded SQLite store that needs
// no server (make run, tests) and PostgreSQL through pgx (production), both in
// internal/archive/sqlstore, opened from a DSN with sqlstore.Open.
//
// Every read is scoped by namespace (the tenant): an order of one namespace is never
// returned for another, even with a known id.
//
// Errors are typed: test them with errors.Is against ErrNotFound, ErrConflict,
// ErrUnavailable and ErrInvalid (a *ConflictError carries the conflicting keys).
package archive

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// MaxLimit is the largest page List returns (the REST facade's largest limit).
const MaxLimit = 1000

// Store is the order archive. Implementations are safe for concurrent use by many
// goroutines and by several processes (manager replicas) sharing one database.
//
// Every method honours ctx; besides, each call is bounded by the store's operation
// timeout (sqlstore.Options.OpTimeout), so a database that stops answering makes calls
// fail with ErrUnavailable instead of hanging.
type Store interface {
	// Put archives a finished order: the full Order (as JSON, metadata.managedFields
	// dropped) with the columns every read filters on, derived from the order itself
	// (see ColumnsOf) and the account's type, which the order does not carry (it is
	// immutable on the Account, so the value at archiving time stays true).
	//
	// Put is idempotent by metadata.uid: when an order with that UID is archived already
	// with the same content (the same JSON bytes, the same account type) Put returns nil
	// and changes nothing, so a retention controller that crashed after the write and
	// before the delete can simply Put again. When the UID is archived with different
	// content, or another UID is archived under the same (namespace, name), Put returns a
	// *ConflictError (errors.Is(err, ErrConflict)) and changes nothing. Concurrent Puts of
	// one UID from several processes leave exactly one record: one wins, the others see
	// it as a no-op or a conflict by the same rule.
	//
	// When Put returns nil the record is durable (committed; SQLite with synchronous=FULL)
	// and immediately visible to Get, List and CompletedOrders on every store opened on the
	// same database. The order must be terminal (COMPLETED or CANCELLED), with a UID,
	// namespace, name and creation timestamp; anything else is ErrInvalid.
	Put(ctx context.Context, o *investv1.Order, accountType investv1.AccountType) error

	// PutMany archives a batch of finished orders in one transaction, for bulk loads (an
	// import of history, the scale benchmark's seed): each entry by the rules of Put, and
	// the batch all or nothing. Entries already archived with the same content are no-ops
	// (so a batch that failed half-way, or a retried one, may simply be Put again); when
	// any entry is invalid (ErrInvalid) or conflicts (a *ConflictError naming the first
	// conflicting entry), nothing of the batch is written. The same order twice in one
	// batch counts once. An empty batch is a no-op. When PutMany returns nil the whole
	// batch is durable and visible, as after Put.
	PutMany(ctx context.Context, entries []Entry) error

	// Get returns the archived order namespace/id (id is the order's name, its REST id)
	// exactly as it was Put. ErrNotFound when the namespace has no such archived order.
	Get(ctx context.Context, namespace, id string) (*investv1.Order, error)

	// List returns a page of the namespace's archived orders that match q's filter,
	// newest first: by creation time descending, then by id descending (byte order), so
	// orders created in the same second have a stable order too. The page has at most
	// q.Limit orders (1..MaxLimit) and Next, an opaque cursor for the page after it ("" on
	// the last page). Paging is keyset paging on (created, id): each page costs O(limit)
	// rows read through an index that serves the filter, never an OFFSET or a sort of the
	// tenant's orders, and a page is stable when orders are archived meanwhile (an order
	// is never seen twice nor skipped, except newer ones than the first page, which appear
	// only when paging starts again).
	List(ctx context.Context, namespace string, q Query) (Page, error)

	// CompletedOrders returns every archived COMPLETED order of an account (buys and
	// sells), oldest completion first, for holdings: the lots and lock-ups of a portfolio
	// come from completed buys, and completed sells consume them, whether the orders are
	// live or archived. isin "" means every ISIN; otherwise only that ISIN's orders.
	// CANCELLED orders never count towards holdings and are not returned.
	CompletedOrders(ctx context.Context, namespace, accountID string, isin investv1.ISIN) ([]investv1.Order, error)

	// Holdings sums an account's archived COMPLETED orders for its holdings in the
	// database, so that the cost of reading them grows with the account's ISINs and its
	// buys since foldBefore, not with its history: per ISIN the units sold, the units of
	// the buys completed before foldBefore (whole seconds) summed into one lot dated by the
	// latest of them, and each later buy with its completion time, oldest first (then
	// fewest units first); each lot with the release time its mint wrote on chain (the
	// summed lot's is the latest of its buys'). foldBefore must be older than every share class's lock-up (see
	// holdings.Summary). The answer is exactly holdings.Summarize of the archived orders.
	//
	// live are the UIDs of the account's live completed orders the caller counts; the
	// answer's Counted names those that are archived (the caller leaves its live copies out
	// of the computation, holdings.Compute does). The sums and Counted are read in one
	// consistent snapshot, so an order archived meanwhile is counted exactly once.
	Holdings(ctx context.Context, namespace, accountID string, foldBefore time.Time, live []types.UID) (holdings.Summary, error)

	// Ping checks that the database answers (for readiness checks and the retention
	// controller's backoff); ErrUnavailable when it does not.
	Ping(ctx context.Context) error

	// Close releases the store's connections. Calls after Close fail.
	Close() error
}

// Entry is one order of a PutMany batch with its account's type (see Put).
type Entry struct {
	Order       *investv1.Order
	AccountType investv1.AccountType
}

// Filter selects orders; empty fields select everything. The fields are the filters of
// GET /v1/orders, with the same values: each one is answered through an index.
type Filter struct {
	// Side is BUY or SELL.
	Side investv1.OrderSide
	// Market is PRIMARY or SECONDARY.
	Market investv1.Market
	// State is an order state (archived orders are COMPLETED or CANCELLED).
	State investv1.OrderState
	// AccountType is individual or business: the type of the order's account.
	AccountType investv1.AccountType
	// AccountID is the order's account.
	AccountID investv1.ObjectID
	// Currency is the order's currency.
	Currency investv1.CurrencyCode
	// ISIN is the order's share class.
	ISIN investv1.ISIN
}

// Query is a List request.
type Query struct {
	Filter
	// Limit is the page size, 1..MaxLimit.
	Limit int
	// Cursor is "" for the first (newest) page, or a Page.Next (or EncodeCursor) value:
	// the page then starts strictly after that position. A cursor that does not decode is
	// ErrInvalid.
	Cursor string
	// Until, when set, ends the list at that position: only orders strictly before it in
	// the newest-first order (created later, or in the same second with a larger id) are
	// returned. A caller that merges archived orders with others it already has up to a
	// position (the REST list's live orders) reads only the archived ones that can still
	// be on its page: none at all when its page is full of newer ones.
	Until *Position
}

// Page is a List answer.
type Page struct {
	// Orders, newest first.
	Orders []investv1.Order
	// Next is the cursor of the page after this one; "" when there is none.
	Next string
}

// Errors of the store, to test with errors.Is.
var (
	// ErrNotFound: no archived order (namespace, id).
	ErrNotFound = errors.New("archive: order not found")
	// ErrConflict: Put of a UID archived with other content, or of a (namespace, name)
	// archived under another UID. The error is a *ConflictError.
	ErrConflict = errors.New("archive: conflicting archived order")
	// ErrUnavailable: the database cannot be reached or did not answer within the
	// operation timeout (or the caller's deadline). The operation may be retried later; a
	// Put that returned ErrUnavailable may or may not have been written, and a retried Put
	// is a no-op when it was.
	ErrUnavailable = errors.New("archive: store unavailable")
	// ErrInvalid: a bad argument (a non-terminal order, a missing UID, a limit out of
	// range, a cursor that does not decode).
	ErrInvalid = errors.New("archive: invalid request")
)

// ConflictError says which archived order a Put conflicts with.
type ConflictError struct {
	// UID of the order Put.
	UID string
	// Namespace and Name of the order Put.
	Namespace, Name string
	// ExistingUID is the UID archived under (Namespace, Name); equal to UID when the
	// content differs.
	ExistingUID string
	// Reason says what differs.
	Reason string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("archive: order %s/%s (uid %s) conflicts with the archived one (uid %s): %s",
		e.Namespace, e.Name, e.UID, e.ExistingUID, e.Reason)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Columns are what a store indexes of an archived order, derived from the order by
// ColumnsOf (and the account type given to Put).
type Columns struct {
	UID, Namespace, Name string
	AccountID            string
	AccountType          string
	ISIN                 string
	Side, Market         string
	Currency             string
	// State is COMPLETED or CANCELLED.
	State string
	// WalletID and PaymentMethodDetailsID are the ones resolved at placement (the quote's),
	// else the ones asked for in the spec.
	WalletID, PaymentMethodDetailsID string
	// Units is spec.amountOfUnits.
	Units int64
	// Created is metadata.creationTimestamp, in whole seconds (as the Order's JSON has it,
	// so that the order of List and the order of the decoded orders agree).
	Created time.Time
	// Terminal is when the order entered its terminal state (its last history entry of
	// that state), in whole seconds; Created when the history does not say.
	Terminal time.Time
	// LockedUntil is the release time a completed buy's mint wrote on chain
	// (status.chain.lockedUntil), in whole seconds; zero when none was recorded.
	LockedUntil time.Time
}

// ColumnsOf derives the indexed columns of a terminal order; ErrInvalid when the order
// cannot be archived (not terminal, no UID, namespace, name or creation timestamp).
func ColumnsOf(o *investv1.Order, accountType investv1.AccountType) (Columns, error) {
	switch {
	case o == nil:
		return Columns{}, fmt.Errorf("%w: no order", ErrInvalid)
	case o.UID == "" || o.Namespace == "" || o.Name == "":
		return Columns{}, fmt.Errorf("%w: order %s/%s has no uid, namespace or name", ErrInvalid, o.Namespace, o.Name)
	case o.CreationTimestamp.IsZero():
		return Columns{}, fmt.Errorf("%w: order %s/%s has no creation timestamp", ErrInvalid, o.Namespace, o.Name)
	case !o.Status.State.Terminal():
		return Columns{}, fmt.Errorf("%w: order %s/%s is %q, not terminal", ErrInvalid, o.Namespace, o.Name, o.Status.State)
	}
	c := Columns{
		UID: string(o.UID), Namespace: o.Namespace, Name: o.Name,
		AccountID: string(o.Spec.AccountID), AccountType: string(accountType), ISIN: string(o.Spec.ISIN),
		Side: string(o.Spec.Side), Market: string(o.Spec.Market), Currency: string(o.Spec.Currency),
		State: string(o.Status.State), WalletID: string(o.Spec.WalletID),
		PaymentMethodDetailsID: string(o.Spec.PaymentMethodDetailsID), Units: lifecycle.Units(o),
		Created: o.CreationTimestamp.UTC().Truncate(time.Second),
	}
	if q := o.Spec.Quote; q != nil {
		if q.WalletID != "" {
			c.WalletID = string(q.WalletID)
		}
		if q.PaymentMethodDetailsID != "" {
			c.PaymentMethodDetailsID = string(q.PaymentMethodDetailsID)
		}
	}
	if o.Spec.Side == investv1.SideBuy && o.Status.State == investv1.StateCompleted {
		if until := holdings.LockedUntil(o); !until.IsZero() {
			c.LockedUntil = until.UTC().Truncate(time.Second)
		}
	}
	c.Terminal = c.Created
	for i := len(o.Status.History) - 1; i >= 0; i-- {
		if h := o.Status.History[i]; h.State == o.Status.State {
			c.Terminal = h.At.UTC().Truncate(time.Second)
			break
		}
	}
	return c, nil
}
