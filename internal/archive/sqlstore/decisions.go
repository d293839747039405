package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// The decisions book (ledger.Decisions) lives beside the bank ledger, in bank_decisions
// of migration 00007; what a decision does is written to the ledger's tables: the
// suspense row's decision, an assignment's row in bank_rows (of no file, its file_id
// NULL), a refund's instruction in bank_payouts. The ledger's rules hold: a call is
// bounded by Options.OpTimeout, a Decide is one transaction, SQLite's writes queue for
// the store's writer slot, and errors are classified by ledgerErr.
//
// Decide updates the row of bank_ingest_lock first, as Ingest does: decisions run one at
// a time, with each other and with the ingestion, so that a decision sees every decision
// and row committed before it (two replicas deciding one row at once record one), and an
// assignment's row gets a larger id than every row recorded before it, as an ingested
// row does (Store.Received reads the last receipt by id). A refund's Decide then updates
// the row of bank_payout_lock, as Instruct does. No write takes the two locks in the other
// order, so none deadlocks with it.

// Decisions returns the decisions book kept in the database of s, an archive Open or
// OpenDSN returned, measured like its archive calls (operations bank_decisions_*); false
// for any other archive.Store. It shares s's connections, so it works until s is closed.
// Of a read-only archive (Options.ReadOnly) only the reads work.
func Decisions(s archive.Store) (ledger.Decisions, bool) {
	m, ok := s.(*instrumented)
	if !ok {
		return nil, false
	}
	return measuredDecisions{m: m}, true
}

// bankDecisions is the ledger.Decisions of a store.
type bankDecisions struct{ s *store }

var (
	_ ledger.Decisions = bankDecisions{}
	_ ledger.Decisions = measuredDecisions{}
)

// suspenseKinds are the kinds of the rows a decision settles.
var suspenseKinds = map[string]bool{string(reconcile.Unmatched): true, string(reconcile.WrongCurrency): true}

// checkDecision applies Decide's rules to its input and returns the row and the
// instruction as recorded: what the action fixes (the row's key, file and decision, its
// order the decision's; the instruction's purpose and source) filled in where not given,
// and refused where given otherwise.
func checkDecision(d ledger.Decision, row *ledger.Row, payout *ledger.Payout) (*ledger.Row, *ledger.Payout, error) {
	bad := func(format string, args ...any) error {
		return invalidLedger("decision %q: %s", d.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case d.Name == "":
		return nil, nil, invalidLedger("the decision has no name")
	case d.EntryReference == "":
		return nil, nil, bad("no entry reference")
	case d.Transaction < 0:
		return nil, nil, bad("the negative transaction index %d", d.Transaction)
	}
	switch d.Action {
	case ledger.DecisionAssign:
		switch {
		case d.Namespace == "" || d.OrderID == "":
			return nil, nil, bad("an assignment names no order")
		case row == nil:
			return nil, nil, bad("an assignment has no row to record")
		case payout != nil:
			return nil, nil, bad("an assignment sends no payout")
		}
	case ledger.DecisionRefund, ledger.DecisionSettledOutside:
		switch {
		case d.Namespace != "" || d.OrderID != "":
			return nil, nil, bad("a decision of action %s names the order %s/%s", d.Action, d.Namespace, d.OrderID)
		case row != nil:
			return nil, nil, bad("a decision of action %s records no row", d.Action)
		case d.Action == ledger.DecisionRefund && payout == nil:
			return nil, nil, bad("a refund has no payout to instruct")
		case d.Action == ledger.DecisionSettledOutside && payout != nil:
			return nil, nil, bad("a decision of action %s sends no payout", d.Action)
		}
	default:
		return nil, nil, bad("the action %q is none of %s, %s and %s", d.Action, ledger.DecisionAssign, ledger.DecisionRefund,
			ledger.DecisionSettledOutside)
	}
	if row != nil {
		r := *row
		ref := ledger.DecisionEntryReference(d.Name)
		switch {
		case r.FileID != "":
			return nil, nil, bad("the assignment's row names the file %q (it comes in none)", r.FileID)
		case r.EntryReference != "" && r.EntryReference != ref:
			return nil, nil, bad("the assignment's row has the entry reference %q, not %q", r.EntryReference, ref)
		case r.Transaction != 0:
			return nil, nil, bad("the assignment's row is transaction %d, not 0", r.Transaction)
		case r.Decision != "" && r.Decision != d.Name:
			return nil, nil, bad("the assignment's row names the decision %q", r.Decision)
		case (r.Namespace != "" || r.OrderID != "") && (r.Namespace != d.Namespace || r.OrderID != d.OrderID):
			return nil, nil, bad("the assignment's row names the order %s/%s, not %s/%s", r.Namespace, r.OrderID, d.Namespace, d.OrderID)
		}
		r.EntryReference, r.Decision, r.Namespace, r.OrderID = ref, d.Name, d.Namespace, d.OrderID
		if fault := rowFault(r); fault != "" {
			return nil, nil, bad("the assignment's row %s", fault)
		}
		row = &r
	}
	if payout != nil {
		p := *payout
		source := ledger.DecisionSource(d.Name)
		switch {
		case p.Purpose != "" && p.Purpose != ledger.PurposeSuspenseRefund:
			return nil, nil, bad("the refund's payout has the purpose %s, not %s", p.Purpose, ledger.PurposeSuspenseRefund)
		case p.Source != "" && p.Source != source:
			return nil, nil, bad("the refund's payout has the source %q, not %q", p.Source, source)
		}
		p.Purpose, p.Source = ledger.PurposeSuspenseRefund, source
		if err := checkInstruction(0, p); err != nil {
			return nil, nil, fmt.Errorf("decision %q: the refund's payout: %w", d.Name, err)
		}
		payout = &p
	}
	return row, payout, nil
}

// decisionRace is the error of an insert refused by a unique key after Decide's checks:
// a writer that does not take bank_ingest_lock recorded the decision, or one of the
// row, meanwhile.
type decisionRace struct{ err error }

func (e *decisionRace) Error() string { return "a decision was recorded meanwhile: " + e.err.Error() }
func (e *decisionRace) Unwrap() error { return e.err }

// Decide implements ledger.Decisions, in one transaction after the row of
// bank_ingest_lock (and, for a refund, of bank_payout_lock): the name looked up (recorded:
// ErrAlreadyRecorded), the suspense row looked up (settled: a *ledger.DecidedError naming
// its decision), then the decision inserted, the suspense row's decision set, and the
// assignment's row inserted as Ingest inserts its rows or the refund's instruction
// recorded as Instruct records its own. The unique keys of bank_decisions stay the guard
// against a writer that does not take the lock: their refusal rolls everything back, and
// the decision that won is named by looking it up after.
func (b bankDecisions) Decide(ctx context.Context, d ledger.Decision, row *ledger.Row, payout *ledger.Payout) error {
	s := b.s
	row, payout, err := checkDecision(d, row, payout)
	if err != nil {
		return err
	}
	if d.DecidedAt.IsZero() {
		d.DecidedAt = s.opts.Now()
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	err = s.writeLedger(ctx, func(tx *sql.Tx) error {
		if err := lockIngests(ctx, tx); err != nil {
			return err
		}
		if payout != nil {
			if err := lockPayouts(ctx, tx); err != nil {
				return err
			}
		}
		if err := s.checkUndecided(ctx, tx, d); err != nil {
			return err
		}
		if row != nil {
			if _, found, err := s.rowOf(ctx, tx, row.EntryReference, row.Transaction); err != nil {
				return err
			} else if found {
				// Only a bank entry of a decision's reference gets here (Ingest refuses
				// those): the decision's row cannot take its key.
				return invalidLedger("decision %q: the entry %s of its row is recorded already", d.Name, row.EntryReference)
			}
		}
		if _, err := tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO bank_decisions (name, uid, action, entry_reference, txn,
			namespace, order_id, note, decided_by, decided_unix_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			d.Name, d.UID, d.Action, d.EntryReference, d.Transaction, d.Namespace, d.OrderID, d.Note, d.DecidedBy,
			unixMs(d.DecidedAt)); err != nil {
			if uniqueViolation(err) {
				return &decisionRace{err: err}
			}
			return err
		}
		res, err := tx.ExecContext(ctx, s.dia.rebind(settleQuery), d.Name, d.EntryReference, d.Transaction)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			// Only a writer that did not take the lock gets here.
			return &decisionRace{err: fmt.Errorf("the row of entry %s/%d was decided meanwhile", d.EntryReference, d.Transaction)}
		}
		switch {
		case row != nil:
			return s.insertRows(ctx, tx, "", []ledger.Row{*row})
		case payout != nil:
			_, err := s.instruct(ctx, tx, []ledger.Payout{*payout})
			return err
		}
		return nil
	})
	var race *decisionRace
	var entry *entryRace
	if !errors.As(err, &race) && !errors.As(err, &entry) {
		return err
	}
	// Rolled back; the writer that won has committed (a unique violation waits for it).
	if lerr := s.checkUndecided(ctx, s.db, d); lerr != nil {
		return s.ledgerErr(ctx, lerr)
	}
	return err
}

// checkUndecided refuses a decision whose name is recorded (ErrAlreadyRecorded), or
// whose row is unknown, not in suspense (ErrInvalid) or settled by another decision (a
// *ledger.DecidedError), reading through the primary key of bank_decisions and the
// unique index bank_rows_entry.
func (s *store) checkUndecided(ctx context.Context, q querier, d ledger.Decision) error {
	known := false
	if err := queryEach(ctx, q, s.dia.rebind(decisionKnownQuery), []any{d.Name},
		func(*sql.Rows) error { known = true; return nil }); err != nil {
		return err
	}
	if known {
		return fmt.Errorf("%w: decision %q was recorded before", ledger.ErrAlreadyRecorded, d.Name)
	}
	r, found, err := s.rowOf(ctx, q, d.EntryReference, d.Transaction)
	switch {
	case err != nil:
		return err
	case !found:
		return invalidLedger("decision %q: no row of entry %s/%d is recorded", d.Name, d.EntryReference, d.Transaction)
	case !suspenseKinds[r.Kind]:
		// Before the decision it names: that of an assignment's row recorded it, and
		// settled no suspense.
		return invalidLedger("decision %q: the row of entry %s/%d is %s, not in suspense (%s or %s)", d.Name, d.EntryReference,
			d.Transaction, r.Kind, reconcile.Unmatched, reconcile.WrongCurrency)
	case r.Decision != "":
		return fmt.Errorf("decision %q of entry %s/%d: %w", d.Name, d.EntryReference, d.Transaction,
			&ledger.DecidedError{Decision: r.Decision})
	}
	return nil
}

// The queries of Decide and Decision by the keys they read through: the primary key of
// bank_decisions (decisionKnownQuery, decisionQuery), the unique index bank_rows_entry
// (rowQuery, and settleQuery, which sets the decision of a suspense row no other settled).
const (
	decisionKnownQuery = `SELECT 1 FROM bank_decisions WHERE name = ?`
	decisionQuery      = `SELECT name, uid, action, entry_reference, txn, namespace, order_id, note, decided_by,
		decided_unix_ms FROM bank_decisions WHERE name = ?`
	rowQuery    = `SELECT ` + bankRowSelect + ` FROM bank_rows WHERE entry_reference = ? AND txn = ?`
	settleQuery = `UPDATE bank_rows SET decision = ? WHERE entry_reference = ? AND txn = ? AND decision = ''`
)

// rowOf reads the row of (entryReference, transaction).
func (s *store) rowOf(ctx context.Context, q querier, entryReference string, transaction int) (ledger.Row, bool, error) {
	var r ledger.Row
	found := false
	err := queryEach(ctx, q, s.dia.rebind(rowQuery), []any{entryReference, transaction}, func(rows *sql.Rows) error {
		var err error
		r, err = scanRow(rows)
		found = err == nil
		return err
	})
	if err != nil || !found {
		return ledger.Row{}, false, err
	}
	return r, true, nil
}

// Decision implements ledger.Decisions, through the primary key of bank_decisions.
func (b bankDecisions) Decision(ctx context.Context, name string) (ledger.Decision, bool, error) {
	var d ledger.Decision
	found := false
	err := b.s.readLedger(ctx, decisionQuery, []any{name}, func(rows *sql.Rows) error {
		var decided int64
		if err := rows.Scan(&d.Name, &d.UID, &d.Action, &d.EntryReference, &d.Transaction, &d.Namespace, &d.OrderID, &d.Note,
			&d.DecidedBy, &decided); err != nil {
			return err
		}
		d.DecidedAt, found = fromUnixMs(decided), true
		return nil
	})
	if err != nil || !found {
		return ledger.Decision{}, false, err
	}
	return d, true, nil
}

// Row implements ledger.Decisions, through the unique index bank_rows_entry.
func (b bankDecisions) Row(ctx context.Context, entryReference string, transaction int) (ledger.Row, bool, error) {
	s := b.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	r, found, err := s.rowOf(ctx, s.db, entryReference, transaction)
	return r, found, s.ledgerErr(ctx, err)
}
