package ledger

import (
	"context"
	"fmt"
	"time"
)

// Decisions is the book of operators' decisions on suspense: a payment the ingestion
// could not tie to one waiting order (Unmatched) or that came in another currency
// (WrongCurrency) waits until a person decides, and the decision is recorded here with
// what it does, in one transaction, once. Its implementations are those of Store
// (internal/archive/sqlstore), in the same database, under the same rules.
type Decisions interface {
	// Decide records d and what it does, all or nothing:
	//   - the decision, keyed by d.Name;
	//   - the suspense row (d.EntryReference, d.Transaction) gets Decision d.Name;
	//   - DecisionAssign: row is recorded as a row of Store (its EntryReference
	//     DecisionEntryReference(d.Name), Transaction 0, FileID "", Decision d.Name),
	//     usually Pending, so that Store.Pending hands it to the ingestion like a
	//     statement's row, and Store.Received counts it for its order;
	//   - DecisionRefund: payout is recorded as an instruction (Payouts.Instruct's rules;
	//     PurposeSuspenseRefund, Source DecisionSource(d.Name));
	//   - DecisionSettledOutside: nothing more.
	// A d.Name recorded already is ErrAlreadyRecorded, and nothing is written (the
	// caller asked again after a crash). A suspense row another decision settled is a
	// *DecidedError. A row that is not recorded or not of kind Unmatched or
	// WrongCurrency, a row or payout missing for its action (or given for another),
	// a missing field, is ErrInvalid.
	Decide(ctx context.Context, d Decision, row *Row, payout *Payout) error

	// Decision returns the decision recorded under name; false when none is.
	Decision(ctx context.Context, name string) (Decision, bool, error)

	// Row returns the row of (entryReference, transaction); false when none is.
	Row(ctx context.Context, entryReference string, transaction int) (Row, bool, error)
}

// The actions of a decision.
const (
	// DecisionAssign ties the payment to a waiting order, as if the payer had quoted
	// its reference.
	DecisionAssign = "Assign"
	// DecisionRefund sends the payment back to the account it came from.
	DecisionRefund = "Refund"
	// DecisionSettledOutside records that the payment was dealt with outside the
	// service (the bank returned it, it was booked elsewhere); nothing is sent.
	DecisionSettledOutside = "SettledOutside"
)

// Decision is an operator's decision on one suspense row.
type Decision struct {
	// Name is the decision's key: the BankDecision object's name. UID its object's UID.
	Name, UID string
	// Action is DecisionAssign, DecisionRefund or DecisionSettledOutside.
	Action string
	// EntryReference and Transaction name the suspense row decided.
	EntryReference string
	Transaction    int
	// Namespace and OrderID name the order an assignment pays (empty otherwise).
	Namespace, OrderID string
	// Note is the operator's reason, as given; DecidedBy who decided, as the API server
	// authenticated them (empty when unknown).
	Note, DecidedBy string
	// DecidedAt is when it was recorded.
	DecidedAt time.Time
}

// DecisionEntryReference is the EntryReference of the row an assignment records:
// "decision/" and the decision's name (no bank reference has that shape: the ingestion
// never meets it).
func DecisionEntryReference(name string) string { return "decision/" + name }

// DecidedError is Decide's refusal of a suspense row that another decision settled; it
// wraps ErrInvalid.
type DecidedError struct {
	// Decision is the name of the decision that settled the row.
	Decision string
}

// Error names the decision.
func (e *DecidedError) Error() string {
	return fmt.Sprintf("%s: the bank entry was decided already by %q", ErrInvalid, e.Decision)
}

// Unwrap makes errors.Is(err, ErrInvalid) hold.
func (e *DecidedError) Unwrap() error { return ErrInvalid }
