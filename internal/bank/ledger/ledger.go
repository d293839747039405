// Package ledger is the fund's book of its bank account: every inbound bank file the
// operator ingested and every transaction of every booked entry in it, with the outcome
// package reconcile decided for it (matched, underpaid, overpaid, unmatched, returned,
// paid out, wrong currency). It is what makes ingestion happen once: an entry is recorded
// under the bank's reference before anything is done about it, so the same entry in a
// second file (the camt.053 that repeats the day's camt.054, a file delivered twice) is
// a duplicate; and it is what an operator reads to see where every euro went.
//
// It lives in the order archive's database, beside the webhook store
// (internal/archive/sqlstore implements it on SQLite and PostgreSQL), not in etcd: a
// statement of 10,000 entries is one transaction there, where it would be 10,000 objects.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Store is the bank ledger. Implementations are safe for concurrent use by many
// goroutines and by several processes (manager replicas) sharing one database. Every
// write is one database transaction.
//
// Errors are typed: ErrUnavailable (the database does not answer), ErrInvalid (the
// caller's input breaks a rule below; nothing was written), ErrAlreadyRecorded.
type Store interface {
	// Ingest records an ingested file and the rows decided from it, all or nothing. The
	// file is keyed by File.ID: a second Ingest of the same File.ID records nothing and
	// returns ErrAlreadyRecorded (the file was ingested before a crash kept it from being
	// finished). A row is keyed by (EntryReference, Transaction): when any row's key is
	// recorded already (another ingestion of the same entry won a race), Ingest records
	// nothing and returns an *EntryRecordedError (it wraps ErrAlreadyRecorded) naming the
	// entry reference; the caller decides again. Rows get increasing IDs in the order given.
	Ingest(ctx context.Context, f File, rows []Row) error

	// Recorded returns which of the entry references have rows (true), for
	// reconcile.Input.Applied. References not recorded are absent from the map.
	Recorded(ctx context.Context, entryRefs []string) (map[string]bool, error)

	// Received returns, for each of the orders that has rows of kind Underpaid, Matched
	// or Overpaid, the Received of its last such row (the highest ID): what has arrived
	// for it so far, for reconcile.Order.Received. Orders without such rows are absent.
	Received(ctx context.Context, orders []OrderKey) (map[OrderKey]int64, error)

	// Pending returns up to limit rows whose effect on their order is still to be written
	// (Row.Pending true), by ID ascending.
	Pending(ctx context.Context, limit int) ([]Row, error)

	// Done records that the effect of the rows was written at at: they are no longer
	// Pending and their AppliedAt is at. IDs already done, or unknown, are left alone.
	Done(ctx context.Context, ids []int64, at time.Time) error

	// Rows pages through the rows, newest first (by ID descending), filtered by q. The
	// page has at most q.Limit rows (1 to 1,000; 0 means 100) and the cursor of the next
	// page ("" on the last one).
	Rows(ctx context.Context, q Query) ([]Row, string, error)

	// Files pages through the ingested files, newest first (by IngestedAt, then ID), at
	// most limit (1 to 1,000; 0 means 100), with the cursor of the next page.
	Files(ctx context.Context, limit int, cursor string) ([]File, string, error)
}

// File is one inbound bank file as ingested.
type File struct {
	// ID is the connector's claim ID (unique per delivery of a file).
	ID string
	// Name is the file's name as delivered.
	Name string
	// SHA256 is the lower-case hex SHA-256 of its content.
	SHA256 string
	// MessageType (such as camt.054.001.08) and MessageID (GrpHdr/MsgId) are the file's.
	MessageType, MessageID string
	// DeliveredAt is when the file was delivered; IngestedAt when it was recorded.
	DeliveredAt, IngestedAt time.Time
	// Counts is how many transactions of the file had each outcome kind (the
	// reconcile.Kind names), Duplicate and Ignored included: those have no rows.
	Counts map[string]int
}

// Row is one transaction of a booked entry and its outcome (a reconcile.Outcome, with
// what the ledger adds). Amounts are money units (1 EUR = 10,000).
type Row struct {
	// ID is assigned by Ingest.
	ID int64
	// FileID is the File.ID it came in.
	FileID string
	// EntryReference is the bank's reference of the entry; Transaction the index of the
	// transaction in the entry (0 for an entry without details).
	EntryReference string
	Transaction    int
	// Kind is the reconcile.Kind; Rule the reconcile.Rule that named the order or
	// payout (empty when none); Reason the reconcile.Reason of an Unmatched row.
	Kind, Rule, Reason string
	// CreditDebit is CRDT or DBIT; Amount and Currency are the transaction's.
	CreditDebit string
	Amount      int64
	Currency    string
	// BookingDate and ValueDate are the entry's (zero when absent).
	BookingDate, ValueDate time.Time
	// CreditorReference is the structured creditor reference as the payer gave it;
	// ReferenceValid whether it passed its check.
	CreditorReference string
	ReferenceValid    bool
	// EndToEndID is the transaction's EndToEndId.
	EndToEndID string
	// DebtorName and DebtorIBAN are the payer's, as the bank gave them.
	DebtorName, DebtorIBAN string
	// Namespace and OrderID name the order or payout the outcome names (empty for none).
	Namespace, OrderID string
	// Due, ReceivedBefore, Received, Shortfall and Excess are the outcome's.
	Due, ReceivedBefore, Received, Shortfall, Excess int64
	// ReturnReason is the bank's return reason of a Returned row.
	ReturnReason string
	// Pending says the row's effect on its order is still to be written; AppliedAt is
	// when it was (zero while Pending, and for rows that never had one to write). A
	// pending row names an order, or an EndToEndID (the debit or return of a transfer
	// that pays no order, whose decision learns of it).
	Pending   bool
	AppliedAt time.Time
	// Decision is the name of the operator's decision that settled this suspense row,
	// or that recorded this row (an assignment's); "" for the others.
	Decision string
}

// OrderKey names an order.
type OrderKey struct {
	Namespace, OrderID string
}

// Query filters Rows. Empty fields do not filter.
type Query struct {
	// Kinds keeps rows of these kinds.
	Kinds []string
	// Namespace and OrderID keep one tenant's rows, or one order's (both set).
	Namespace, OrderID string
	// FileID keeps one file's rows.
	FileID string
	// Open keeps the suspense rows (Unmatched, WrongCurrency) no decision settled.
	Open bool
	// Limit is the page size (0 means 100, at most 1,000); Cursor is the previous page's.
	Limit  int
	Cursor string
}

var (
	// ErrUnavailable says the database did not answer; nothing is known to be written.
	ErrUnavailable = errors.New("bank ledger unavailable")
	// ErrInvalid says the input breaks a rule of the Store (an empty key, a bad cursor,
	// a limit out of range); nothing was written.
	ErrInvalid = errors.New("invalid bank ledger input")
	// ErrAlreadyRecorded says a file or an entry is recorded already.
	ErrAlreadyRecorded = errors.New("already recorded in the bank ledger")
)

// EntryRecordedError is Ingest's refusal of rows one of whose entries is recorded
// already (another ingestion won the race); it wraps ErrAlreadyRecorded. A refusal of a
// File.ID recorded before is ErrAlreadyRecorded itself.
type EntryRecordedError struct {
	// EntryReference is the entry found recorded.
	EntryReference string
}

// Error names the entry.
func (e *EntryRecordedError) Error() string {
	return fmt.Sprintf("entry %q is %s", e.EntryReference, ErrAlreadyRecorded)
}

// Unwrap makes errors.Is(err, ErrAlreadyRecorded) hold.
func (e *EntryRecordedError) Unwrap() error { return ErrAlreadyRecorded }
