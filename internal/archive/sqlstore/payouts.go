package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// The payouts book (ledger.Payouts) lives beside the bank ledger, in the tables of
// migration 00006 (bank_payouts as 00007 left it): bank_payouts (the instructions),
// bank_out_files (the pain.001 files with their bytes) and bank_payout_lock; a status
// report (pain.002) is a file of bank_files, recorded as Ingest records its file. An
// instruction's key is (namespace, order, purpose, source), and a suspense refund's
// namespace and order are empty. The ledger's rules hold: every call is bounded by
// Options.OpTimeout (Instruct, AddFile, Report and PayoutsDone by one per ledgerChunk
// instructions, ids or statuses and one more), every write is one transaction, SQLite's
// writes queue for the store's writer slot, and errors are classified by ledgerErr.
// Instruct, AddFile, Report and PayoutsDone update the row of bank_payout_lock first, so
// they run one at a time (see migration 00006). Times are Unix milliseconds; an execution
// date is the text YYYY-MM-DD of the time's calendar date (in its own location, as a
// pain.001 writes it), read back as UTC midnight.

// Payouts returns the payouts book kept in the database of s, an archive Open or OpenDSN
// returned, measured like its archive calls (operations bank_payouts_*); false for any
// other archive.Store. It shares s's connections, so it works until s is closed. Of a
// read-only archive (Options.ReadOnly) only the reads work.
func Payouts(s archive.Store) (ledger.Payouts, bool) {
	m, ok := s.(*instrumented)
	if !ok {
		return nil, false
	}
	return measuredPayouts{m: m}, true
}

// bankPayouts is the ledger.Payouts of a store.
type bankPayouts struct{ s *store }

var (
	_ ledger.Payouts = bankPayouts{}
	_ ledger.Payouts = measuredPayouts{}
)

const (
	// maxUnfiledLimit is the largest page of Unfiled: a pain.001 file's worth of
	// instructions (controllers/bank files up to 10,000 transfers at once).
	maxUnfiledLimit = 10_000
	// maxRemittanceInfo is the length of a pain.001's unstructured remittance
	// information, in characters.
	maxRemittanceInfo = 140
	// payoutCursorVersion is the version of ListPayouts' cursors (see rowCursorVersion).
	payoutCursorVersion = "p1"
)

// The kinds of the ledger's rows Released reads, as the partial indexes bank_rows_paid_out
// and bank_rows_returned state them: literals of its query (SQLite reads through a partial
// index only for a query that has its condition's very terms, not a parameter).
const (
	kindPaidOut  = string(reconcile.PaidOut)
	kindReturned = string(reconcile.Returned)
)

// dateOf is the stored text of the date of t: its calendar date in its own location.
func dateOf(t time.Time) string { return t.Format(time.DateOnly) }

// lockPayouts updates the row of bank_payout_lock: the transaction's payout writes run
// alone until it ends.
func lockPayouts(ctx context.Context, tx *sql.Tx) error {
	res, err := tx.ExecContext(ctx, `UPDATE bank_payout_lock SET writes = writes + 1 WHERE id = 1`)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return errors.New("the row of bank_payout_lock is missing")
	}
	return nil
}

// payoutKey is the key of an instruction.
type payoutKey struct {
	namespace, orderID string
	purpose            ledger.Purpose
	source             string
}

func keyOf(p ledger.Payout) payoutKey { return payoutKey{p.Namespace, p.OrderID, p.Purpose, p.Source} }

func (k payoutKey) String() string {
	s := k.namespace + "/" + k.orderID + "/" + string(k.purpose)
	if k.source != "" {
		s += " of " + k.source
	}
	return s
}

// sourced says, of each purpose Instruct knows, whether its instructions have a Source:
// those an order can owe more than once (one per row or decision they pay back) have
// one, the others none, so that the key (namespace, order, purpose, source) still
// records those once an order; but for the sending again an operator decided (a Source
// ledger.ResendSource), once per decision.
var sourced = map[ledger.Purpose]bool{
	ledger.PurposePayout: false, ledger.PurposeRefund: false, ledger.PurposeResidual: false,
	ledger.PurposeExcess: true, ledger.PurposeReturn: true, ledger.PurposeSuspenseRefund: true,
}

// checkInstruction applies Instruct's rules to instruction i: its fields are given, and
// what the other methods set (its file, status and their times) is not. Only a suspense
// refund may name no order.
func checkInstruction(i int, p ledger.Payout) error {
	bad := func(format string, args ...any) error {
		return invalidLedger("instruction %d (%s/%s %s): %s", i, p.Namespace, p.OrderID, p.Purpose, fmt.Sprintf(format, args...))
	}
	withSource, known := sourced[p.Purpose]
	orderless := p.Purpose == ledger.PurposeSuspenseRefund && p.Namespace == "" && p.OrderID == ""
	switch {
	case !known:
		return bad("the purpose %q is none of %s, %s, %s, %s, %s and %s", p.Purpose, ledger.PurposePayout, ledger.PurposeRefund,
			ledger.PurposeResidual, ledger.PurposeExcess, ledger.PurposeReturn, ledger.PurposeSuspenseRefund)
	case p.Namespace == "" && !orderless:
		return bad("no namespace")
	case p.OrderID == "" && !orderless:
		return bad("no order id")
	case withSource && p.Source == "":
		return bad("no source (what of the order it pays back)")
	case !withSource && p.Source != "" && !strings.HasPrefix(p.Source, ledger.ResendSource("")):
		return bad("the source %q (the purpose is paid once an order, or again as an operator decided: %s and the decision)", p.Source, ledger.ResendSource(""))
	case p.EndToEndID == "":
		return bad("no end-to-end id")
	case p.Amount <= 0:
		return bad("the amount %d is not positive", p.Amount)
	case p.Currency == "":
		return bad("no currency")
	case p.CreditorIBAN == "":
		return bad("no creditor IBAN")
	case p.DebtorIBAN == "":
		return bad("no debtor IBAN")
	case p.ExecutionDate.IsZero():
		return bad("no execution date")
	case utf8.RuneCountInString(p.RemittanceInfo) > maxRemittanceInfo:
		return bad("the remittance information has more than %d characters", maxRemittanceInfo)
	case p.FileMessageID != "" || !p.ReleasedAt.IsZero():
		return bad("it names a file (AddFile puts instructions in files)")
	case (p.Status != "" && p.Status != ledger.StatusInstructed) || p.BankStatus != "" || p.Reason != "" || !p.StatusAt.IsZero() ||
		p.VoPResult != "" || p.VoPName != "":
		return bad("it has a status (Report sets them)")
	case p.Pending || !p.AppliedAt.IsZero():
		return bad("it has a status's effect to write (Report sets it)")
	}
	return nil
}

// payoutColumns are the columns of bank_payouts an Instruct writes, in the order of
// payoutArgs; payoutValues how many.
const (
	payoutColumns = `namespace, order_id, purpose, source, end_to_end_id, amount, currency, creditor_name, creditor_iban,
		remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, status, bank_status, reason, pending`
	payoutValues = 18
)

func payoutArgs(args []any, p ledger.Payout, instructed time.Time) []any {
	return append(args, p.Namespace, p.OrderID, string(p.Purpose), p.Source, p.EndToEndID, p.Amount, p.Currency,
		p.CreditorName, p.CreditorIBAN, p.RemittanceInfo, p.DebtorName, p.DebtorIBAN, dateOf(p.ExecutionDate),
		unixMs(instructed), ledger.StatusInstructed, "", "", false)
}

// Instruct implements ledger.Payouts, in one transaction: the row of bank_payout_lock is
// updated first (Instructs run one at a time, so each sees every instruction committed
// before it), the keys looked up ledgerChunk at a time (those recorded, and those given
// twice, are left out), the end-to-end ids of the others looked up (one held: ErrInvalid),
// then the new instructions inserted rowsPerInsert at a time in the order given, with ON
// CONFLICT DO NOTHING. The unique keys stay the guard against a writer that does not take
// the lock: an instruction such a writer recorded meanwhile is left out, and one whose
// end-to-end id it took is ErrInvalid.
func (b bankPayouts) Instruct(ctx context.Context, ps []ledger.Payout) (int, error) {
	s := b.s
	fresh, err := freshInstructions(ps)
	if err != nil || len(fresh) == 0 {
		return 0, err
	}
	chunks := 1 + (len(fresh)+ledgerChunk-1)/ledgerChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(chunks)*s.opts.OpTimeout)
	defer cancel()
	var n int
	err = s.writeLedger(ctx, func(tx *sql.Tx) error {
		if err := lockPayouts(ctx, tx); err != nil {
			return err
		}
		var err error
		n, err = s.instruct(ctx, tx, fresh)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// freshInstructions applies Instruct's rules to ps and returns the instructions to
// record: the first of each key. One end-to-end id of two keys is ErrInvalid.
func freshInstructions(ps []ledger.Payout) ([]ledger.Payout, error) {
	var fresh []ledger.Payout
	seen := make(map[payoutKey]bool, len(ps))
	holders := make(map[string]payoutKey, len(ps))
	for i, p := range ps {
		if err := checkInstruction(i, p); err != nil {
			return nil, err
		}
		k := keyOf(p)
		if seen[k] {
			continue
		}
		if other, ok := holders[p.EndToEndID]; ok {
			return nil, invalidLedger("instructions %s and %s have the same end-to-end id %q", other, k, p.EndToEndID)
		}
		seen[k], holders[p.EndToEndID] = true, k
		fresh = append(fresh, p)
	}
	return fresh, nil
}

// instruct records the instructions fresh (as freshInstructions returns them) in tx,
// which holds the row of bank_payout_lock, and returns how many it recorded: it is
// Instruct's transaction, and Decide's for a refund's instruction. Those of a recorded
// key are left out; one whose end-to-end id a recorded instruction holds is ErrInvalid.
func (s *store) instruct(ctx context.Context, tx *sql.Tx, fresh []ledger.Payout) (int, error) {
	instructed := s.opts.Now()
	recorded, err := s.recordedKeys(ctx, tx, fresh)
	if err != nil {
		return 0, err
	}
	todo := slices.DeleteFunc(slices.Clone(fresh), func(p ledger.Payout) bool { return recorded[keyOf(p)] })
	if err := s.checkEndToEnd(ctx, tx, todo); err != nil {
		return 0, err
	}
	n := 0
	for part := range slices.Chunk(todo, s.rowsPerInsert()) {
		args := make([]any, 0, payoutValues*len(part))
		for _, p := range part {
			at := p.InstructedAt
			if at.IsZero() {
				at = instructed
			}
			args = payoutArgs(args, p, at)
		}
		res, err := tx.ExecContext(ctx, s.dia.rebind(insertPayoutsQuery(len(part))), args...)
		if err != nil {
			return 0, err
		}
		inserted, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		n += int(inserted)
		if int(inserted) < len(part) {
			// A writer that did not take the lock recorded some meanwhile (committed: a
			// conflict waits for it). Those of a recorded key are left out; one whose
			// end-to-end id another key took is refused.
			if err := s.checkRaced(ctx, tx, part); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// insertPayoutsQuery is the INSERT of n instructions into bank_payouts.
func insertPayoutsQuery(n int) string {
	one := "(" + placeholders(payoutValues) + ")"
	return `INSERT INTO bank_payouts (` + payoutColumns + `) VALUES ` +
		strings.TrimSuffix(strings.Repeat(one+", ", n), ", ") + ` ON CONFLICT DO NOTHING`
}

// recordedKeys returns which of the instructions' keys are recorded, looking them up
// ledgerChunk at a time through the unique index bank_payouts_key.
func (s *store) recordedKeys(ctx context.Context, q querier, ps []ledger.Payout) (map[payoutKey]bool, error) {
	out := map[payoutKey]bool{}
	for part := range slices.Chunk(ps, ledgerChunk) {
		args := make([]any, 0, 4*len(part))
		for _, p := range part {
			args = append(args, p.Namespace, p.OrderID, string(p.Purpose), p.Source)
		}
		err := queryEach(ctx, q, s.dia.rebind(recordedKeysQuery(len(part))), args, func(rows *sql.Rows) error {
			var k payoutKey
			var purpose string
			if err := rows.Scan(&k.namespace, &k.orderID, &purpose, &k.source); err != nil {
				return err
			}
			k.purpose = ledger.Purpose(purpose)
			out[k] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// recordedKeysQuery is the lookup of n keys (namespace, order id, purpose, source),
// through the unique index bank_payouts_key.
func recordedKeysQuery(n int) string {
	return `SELECT p.namespace, p.order_id, p.purpose, p.source FROM ` + valuesOf(n, 4) + `
		JOIN bank_payouts p ON p.namespace = k.column1 AND p.order_id = k.column2 AND p.purpose = k.column3
		AND p.source = k.column4`
}

// endToEndQuery is the lookup of n end-to-end ids, through the unique index
// bank_payouts_end_to_end.
func endToEndQuery(n int) string {
	return `SELECT p.end_to_end_id, p.namespace, p.order_id, p.purpose, p.source FROM ` + valuesOf(n, 1) + `
		JOIN bank_payouts p ON p.end_to_end_id = k.column1`
}

// checkEndToEnd refuses instructions (of keys not recorded) whose end-to-end id an
// instruction recorded holds, looking them up ledgerChunk at a time through the unique
// index bank_payouts_end_to_end.
func (s *store) checkEndToEnd(ctx context.Context, q querier, ps []ledger.Payout) error {
	for part := range slices.Chunk(ps, ledgerChunk) {
		args := make([]any, 0, len(part))
		for _, p := range part {
			args = append(args, p.EndToEndID)
		}
		var held error
		err := queryEach(ctx, q, s.dia.rebind(endToEndQuery(len(part))), args, func(rows *sql.Rows) error {
			var e2e string
			var k payoutKey
			var purpose string
			if err := rows.Scan(&e2e, &k.namespace, &k.orderID, &purpose, &k.source); err != nil {
				return err
			}
			k.purpose = ledger.Purpose(purpose)
			if held == nil {
				held = invalidLedger("the end-to-end id %q is held by the instruction %s", e2e, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if held != nil {
			return held
		}
	}
	return nil
}

// checkRaced is Instruct's rule for a part of which some were not inserted: each of them
// must now be recorded under its key (by a writer that did not take the lock); one that
// is not was refused for its end-to-end id.
func (s *store) checkRaced(ctx context.Context, tx *sql.Tx, part []ledger.Payout) error {
	recorded, err := s.recordedKeys(ctx, tx, part)
	if err != nil {
		return err
	}
	for _, p := range part {
		if !recorded[keyOf(p)] {
			return invalidLedger("the end-to-end id %q of instruction %s was recorded meanwhile for another key", p.EndToEndID, keyOf(p))
		}
	}
	return nil
}

// queryEach runs one query of a transaction (or the pool) and hands each result row to
// scan.
func queryEach(ctx context.Context, q querier, query string, args []any, scan func(rows *sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// payoutSelect is the columns scanPayout reads, of bank_payouts p and the bank_out_files
// f of its file; payoutFrom joins them.
const (
	payoutSelect = `p.id, p.namespace, p.order_id, p.purpose, p.source, p.end_to_end_id, p.amount, p.currency,
		p.creditor_name, p.creditor_iban, p.remittance_info, p.debtor_name, p.debtor_iban, p.execution_date,
		p.instructed_unix_ms, p.file_message_id, f.released_unix_ms, p.status, p.bank_status, p.reason, p.status_unix_ms,
		p.vop_result, p.vop_name, p.pending, p.applied_unix_ms`
	payoutFrom = ` FROM bank_payouts p LEFT JOIN bank_out_files f ON f.message_id = p.file_message_id`
)

func scanPayout(sc scanner, more ...any) (ledger.Payout, error) {
	var p ledger.Payout
	var purpose, date string
	var instructed int64
	var file sql.NullString
	var released, statusAt, applied sql.NullInt64
	if err := sc.Scan(append([]any{&p.ID, &p.Namespace, &p.OrderID, &purpose, &p.Source, &p.EndToEndID, &p.Amount,
		&p.Currency, &p.CreditorName, &p.CreditorIBAN, &p.RemittanceInfo, &p.DebtorName, &p.DebtorIBAN, &date, &instructed,
		&file, &released, &p.Status, &p.BankStatus, &p.Reason, &statusAt, &p.VoPResult, &p.VoPName, &p.Pending, &applied},
		more...)...); err != nil {
		return ledger.Payout{}, err
	}
	day, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return ledger.Payout{}, fmt.Errorf("decode the execution date of instruction %d: %w", p.ID, err)
	}
	p.Purpose, p.ExecutionDate, p.InstructedAt, p.FileMessageID = ledger.Purpose(purpose), day, fromUnixMs(instructed), file.String
	p.ReleasedAt, p.StatusAt, p.AppliedAt = fromNullMs(released), fromNullMs(statusAt), fromNullMs(applied)
	return p, nil
}

// payoutsOf reads the instructions of a query.
func (s *store) payoutsOf(ctx context.Context, query string, args []any) ([]ledger.Payout, error) {
	var out []ledger.Payout
	err := s.readLedger(ctx, query, args, func(rows *sql.Rows) error {
		p, err := scanPayout(rows)
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Unfiled implements ledger.Payouts, through the index bank_payouts_file (whose entries
// of no file are those of NULL, in id order). The limit is 1 to maxUnfiledLimit.
func (b bankPayouts) Unfiled(ctx context.Context, limit int) ([]ledger.Payout, error) {
	if limit < 1 || limit > maxUnfiledLimit {
		return nil, invalidLedger("limit %d is not between 1 and %d", limit, maxUnfiledLimit)
	}
	return b.s.payoutsOf(ctx, unfiledQuery, []any{limit})
}

// unfiledQuery is Unfiled's: the NULL entries of bank_payouts_file, in id order.
const unfiledQuery = `SELECT ` + payoutSelect + payoutFrom + ` WHERE p.file_message_id IS NULL ORDER BY p.id LIMIT ?`

// checkOutFile applies AddFile's rules to its input and returns the file as recorded:
// its Transfers and SHA256 filled in when not given (and checked when given), CreatedAt
// the store's time when not given.
func (s *store) checkOutFile(f ledger.OutFile, ids []int64) (ledger.OutFile, error) {
	bad := func(format string, args ...any) error {
		return invalidLedger("file %q: %s", f.MessageID, fmt.Sprintf(format, args...))
	}
	sum := sha256.Sum256(f.Data)
	digest := hex.EncodeToString(sum[:])
	switch {
	case f.MessageID == "":
		return f, bad("no message id")
	case f.Name == "":
		return f, bad("no name")
	case f.DebtorIBAN == "":
		return f, bad("no debtor IBAN")
	case f.ExecutionDate.IsZero():
		return f, bad("no execution date")
	case len(f.Data) == 0:
		return f, bad("no data")
	case f.SHA256 != "" && f.SHA256 != digest:
		return f, bad("its SHA-256 is %s, not the %s given", digest, f.SHA256)
	case !f.ReleasedAt.IsZero():
		return f, bad("it is released (a file is recorded before its release)")
	case len(ids) == 0:
		return f, bad("it carries no instruction")
	case f.Transfers != 0 && f.Transfers != len(ids):
		return f, bad("it says it carries %d instructions, but %d are given", f.Transfers, len(ids))
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return f, bad("it carries instruction %d twice", id)
		}
		seen[id] = true
	}
	f.SHA256, f.Transfers = digest, len(ids)
	if f.CreatedAt.IsZero() {
		f.CreatedAt = s.opts.Now()
	}
	return f, nil
}

// AddFile implements ledger.Payouts, in one transaction after the row of
// bank_payout_lock: the file inserted with ON CONFLICT DO NOTHING (nothing inserted: its
// MessageID is recorded, ErrAlreadyRecorded, or another file has its name, ErrInvalid),
// the instructions looked up ledgerChunk ids at a time (one unknown: ErrInvalid; one in a
// file: ErrAlreadyRecorded), then put into the file ledgerChunk at a time.
func (b bankPayouts) AddFile(ctx context.Context, f ledger.OutFile, ids []int64) error {
	s := b.s
	f, err := s.checkOutFile(f, ids)
	if err != nil {
		return err
	}
	all := make([]any, 0, len(ids))
	for _, id := range ids {
		all = append(all, id)
	}
	chunks := (len(all) + ledgerChunk - 1) / ledgerChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(1+chunks)*s.opts.OpTimeout)
	defer cancel()
	return s.writeLedger(ctx, func(tx *sql.Tx) error {
		if err := lockPayouts(ctx, tx); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO bank_out_files (message_id, name, debtor_iban, execution_date,
			created_unix_ms, released_unix_ms, sha256, transfers, data) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?) ON CONFLICT DO NOTHING`),
			f.MessageID, f.Name, f.DebtorIBAN, dateOf(f.ExecutionDate), unixMs(f.CreatedAt), f.SHA256, f.Transfers, blob(f.Data))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var known int
			if err := tx.QueryRowContext(ctx, s.dia.rebind(`SELECT COUNT(*) FROM bank_out_files WHERE message_id = ?`),
				f.MessageID).Scan(&known); err != nil {
				return err
			}
			if known > 0 {
				return fmt.Errorf("%w: file %s was recorded before", ledger.ErrAlreadyRecorded, f.MessageID)
			}
			return invalidLedger("file %q: another file is recorded under the name %q", f.MessageID, f.Name)
		}
		filed := map[int64]string{}
		for part := range slices.Chunk(all, ledgerChunk) {
			err := queryEach(ctx, tx, s.dia.rebind(`SELECT id, file_message_id FROM bank_payouts WHERE id IN (`+
				placeholders(len(part))+`)`), part, func(rows *sql.Rows) error {
				var id int64
				var file sql.NullString
				if err := rows.Scan(&id, &file); err != nil {
					return err
				}
				filed[id] = file.String
				return nil
			})
			if err != nil {
				return err
			}
		}
		for _, id := range ids {
			if _, ok := filed[id]; !ok {
				return invalidLedger("file %q: no instruction has the id %d", f.MessageID, id)
			}
		}
		for _, id := range ids {
			if other := filed[id]; other != "" {
				return fmt.Errorf("%w: instruction %d is in file %s", ledger.ErrAlreadyRecorded, id, other)
			}
		}
		for part := range slices.Chunk(all, ledgerChunk) {
			res, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE bank_payouts SET file_message_id = ?
				WHERE file_message_id IS NULL AND id IN (`+placeholders(len(part))+`)`), append([]any{f.MessageID}, part...)...)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if int(n) != len(part) {
				// Only a writer that did not take the lock gets here.
				return fmt.Errorf("%w: an instruction of file %s was filed meanwhile", ledger.ErrAlreadyRecorded, f.MessageID)
			}
		}
		return nil
	})
}

// Unreleased implements ledger.Payouts, through the partial index
// bank_out_files_unreleased.
func (b bankPayouts) Unreleased(ctx context.Context) ([]ledger.OutFile, error) {
	var out []ledger.OutFile
	err := b.s.readLedger(ctx, unreleasedQuery, nil, func(rows *sql.Rows) error {
		var f ledger.OutFile
		var date string
		var created int64
		var released sql.NullInt64
		if err := rows.Scan(&f.MessageID, &f.Name, &f.DebtorIBAN, &date, &created, &released, &f.SHA256, &f.Transfers,
			&f.Data); err != nil {
			return err
		}
		day, err := time.Parse(time.DateOnly, date)
		if err != nil {
			return fmt.Errorf("decode the execution date of file %s: %w", f.MessageID, err)
		}
		f.ExecutionDate, f.CreatedAt, f.ReleasedAt = day, fromUnixMs(created), fromNullMs(released)
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// unreleasedQuery is Unreleased's.
const unreleasedQuery = `SELECT message_id, name, debtor_iban, execution_date, created_unix_ms, released_unix_ms, sha256,
	transfers, data FROM bank_out_files WHERE released_unix_ms IS NULL ORDER BY created_unix_ms, message_id`

// MarkReleased implements ledger.Payouts: one UPDATE of the file while it is not
// released, so that a release recorded again (an answer lost) keeps the first time.
func (b bankPayouts) MarkReleased(ctx context.Context, messageID string, at time.Time) error {
	s := b.s
	if at.IsZero() {
		return invalidLedger("the time file %q was released is missing", messageID)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	return s.writeLedger(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE bank_out_files SET released_unix_ms = ?
			WHERE message_id = ? AND released_unix_ms IS NULL`), unixMs(at), messageID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var known int
		if err := tx.QueryRowContext(ctx, s.dia.rebind(`SELECT COUNT(*) FROM bank_out_files WHERE message_id = ?`),
			messageID).Scan(&known); err != nil {
			return err
		}
		if known == 0 {
			return invalidLedger("no file has the message id %q", messageID)
		}
		return nil // released before
	})
}

// statusKey names the instruction a status is about.
type statusKey struct{ messageID, endToEndID string }

// statusRank orders the statuses Report applies: a Rejected wins over an Accepted, which
// wins over an Instructed (a status that only carries a Verification of Payee result).
var statusRank = map[string]int{ledger.StatusInstructed: 0, ledger.StatusAccepted: 1, ledger.StatusRejected: 2}

// effectiveStatuses is what Report applies to each instruction named: the status of the
// first Rejected given for it, else of the first Accepted, else a StatusInstructed (which
// sets no status); and the last Verification of Payee result given for it, with its name.
// Applying it by Report's rules leaves the instruction as applying all of them in their
// order would (a Rejected is final, a second Accepted equals the first, and each result
// replaces the one before). A status of StatusInstructed without a result has no effect
// and is ErrInvalid, as any other status is. Statuses naming no file or no transfer name
// no instruction and are left out.
func effectiveStatuses(statuses []ledger.PayoutStatus, defaultAt time.Time) ([]ledger.PayoutStatus, error) {
	var out []ledger.PayoutStatus
	at := make(map[statusKey]int, len(statuses))
	for i, st := range statuses {
		switch {
		case st.Status == ledger.StatusInstructed && st.VoPResult == "":
			return nil, invalidLedger("status %d is %s and carries no Verification of Payee result", i, st.Status)
		case st.Status != ledger.StatusAccepted && st.Status != ledger.StatusRejected && st.Status != ledger.StatusInstructed:
			return nil, invalidLedger("status %d is %q, none of %s, %s and %s", i, st.Status, ledger.StatusAccepted,
				ledger.StatusRejected, ledger.StatusInstructed)
		}
		if st.OriginalMessageID == "" || st.EndToEndID == "" {
			continue
		}
		if st.At.IsZero() {
			st.At = defaultAt
		}
		if st.VoPResult == "" {
			st.VoPName = "" // a name comes with a result only
		}
		k := statusKey{st.OriginalMessageID, st.EndToEndID}
		j, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, st)
			continue
		}
		e := &out[j]
		if statusRank[st.Status] > statusRank[e.Status] {
			e.Status, e.BankStatus, e.Reason, e.At = st.Status, st.BankStatus, st.Reason, st.At
		}
		if st.VoPResult != "" {
			e.VoPResult, e.VoPName = st.VoPResult, st.VoPName
		}
	}
	return out, nil
}

// statusValues is the width of a row of Report's VALUES list.
const statusValues = 8

// Report implements ledger.Payouts, in one transaction after the row of
// bank_payout_lock: the file recorded as Ingest records its own (ErrAlreadyRecorded when
// it was), then what each instruction takes (see effectiveStatuses) set by an UPDATE
// joining a VALUES list of ledgerChunk of them. A status without a time gets the
// report's (its IngestedAt, else the store's time).
func (b bankPayouts) Report(ctx context.Context, f ledger.File, statuses []ledger.PayoutStatus) (int, error) {
	s := b.s
	if f.ID == "" {
		return 0, invalidLedger("the status report has no id")
	}
	if f.IngestedAt.IsZero() {
		f.IngestedAt = s.opts.Now()
	}
	eff, err := effectiveStatuses(statuses, f.IngestedAt)
	if err != nil {
		return 0, err
	}
	chunks := 1 + (len(eff)+ledgerChunk-1)/ledgerChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(chunks)*s.opts.OpTimeout)
	defer cancel()
	var changed int
	err = s.writeLedger(ctx, func(tx *sql.Tx) error {
		changed = 0
		if err := lockPayouts(ctx, tx); err != nil {
			return err
		}
		if err := s.recordFile(ctx, tx, f); err != nil {
			return err
		}
		for part := range slices.Chunk(eff, ledgerChunk) {
			args := make([]any, 0, statusValues*len(part))
			for _, st := range part {
				args = append(args, st.OriginalMessageID, st.EndToEndID, st.Status, st.BankStatus, st.Reason, unixMs(st.At),
					st.VoPResult, st.VoPName)
			}
			res, err := tx.ExecContext(ctx, s.dia.rebind(reportQuery(len(part))), args...)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			changed += int(n)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return changed, nil
}

// The conditions of reportQuery: a status changes an instruction (not Rejected, of
// another status; a StatusInstructed never does), and a Verification of Payee result
// does (another than the instruction's).
const (
	statusChanges = `(k.column3 <> '` + ledger.StatusInstructed + `' AND p.status <> '` + ledger.StatusRejected + `'
		AND p.status <> k.column3)`
	vopChanges = `(k.column7 <> '' AND p.vop_result <> k.column7)`
)

// reportQuery is Report's UPDATE of n statuses (original message id, end-to-end id,
// status, bank status, reason, time, Verification of Payee result and name), through the
// unique index bank_payouts_end_to_end: an instruction of the original file that either
// changes takes it (the status with its code, reason and time; the result with its
// name), keeps the rest, and is pending. Every expression of SET reads the row as it was.
func reportQuery(n int) string {
	one := "(" + placeholders(5) + ", CAST(? AS BIGINT), ?, ?)"
	return `UPDATE bank_payouts AS p SET
		status = CASE WHEN ` + statusChanges + ` THEN k.column3 ELSE p.status END,
		bank_status = CASE WHEN ` + statusChanges + ` THEN k.column4 ELSE p.bank_status END,
		reason = CASE WHEN ` + statusChanges + ` THEN k.column5 ELSE p.reason END,
		status_unix_ms = CASE WHEN ` + statusChanges + ` THEN k.column6 ELSE p.status_unix_ms END,
		vop_result = CASE WHEN ` + vopChanges + ` THEN k.column7 ELSE p.vop_result END,
		vop_name = CASE WHEN ` + vopChanges + ` THEN k.column8 ELSE p.vop_name END,
		pending = TRUE, applied_unix_ms = NULL
		FROM (VALUES ` + strings.TrimSuffix(strings.Repeat(one+", ", n), ", ") + `) AS k
		WHERE p.end_to_end_id = k.column2 AND p.file_message_id = k.column1
		AND (` + statusChanges + ` OR ` + vopChanges + `)`
}

// Released implements ledger.Payouts: the instructions of released files, those not
// Rejected and without a Returned row of their end-to-end id, and of those with a
// PaidOut row of it, the ones none of whose PaidOut rows came in a file ingested before
// since. The end-to-end id names the transfer, so that two instructions of one order (a
// refund and an excess sent back) are told apart, and those of no order are found too.
// By ID ascending. It reads every instruction in a file: those still to reconcile are
// not known without the ledger's rows.
func (b bankPayouts) Released(ctx context.Context, since time.Time) ([]ledger.Payout, error) {
	query, args := releasedQuery(since)
	var out []ledger.Payout
	err := b.s.readLedger(ctx, query, args, func(rows *sql.Rows) error {
		var debited bool
		p, err := scanPayout(rows, &debited)
		p.Debited = debited
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// releasedQuery is Released's query and its arguments. Its subqueries read a transfer's
// rows through the partial indexes bank_rows_paid_out and bank_rows_returned, whose
// conditions they state as literals.
func releasedQuery(since time.Time) (string, []any) {
	query := `SELECT ` + payoutSelect + `, EXISTS (SELECT 1 FROM bank_rows r
			WHERE r.end_to_end_id = p.end_to_end_id AND r.kind = '` + kindPaidOut + `')
		FROM bank_payouts p JOIN bank_out_files f ON f.message_id = p.file_message_id
		WHERE f.released_unix_ms IS NOT NULL AND p.status <> ?
		AND NOT EXISTS (SELECT 1 FROM bank_rows r
			WHERE r.end_to_end_id = p.end_to_end_id AND r.kind = '` + kindReturned + `')
		AND NOT EXISTS (SELECT 1 FROM bank_rows r JOIN bank_files bf ON bf.id = r.file_id
			WHERE r.end_to_end_id = p.end_to_end_id AND r.kind = '` + kindPaidOut + `' AND bf.ingested_unix_ms < ?)
		ORDER BY p.id`
	return query, []any{ledger.StatusRejected, unixMs(since)}
}

// PendingPayouts implements ledger.Payouts, through the partial index
// bank_payouts_pending. The limit is 1 to maxLedgerLimit, as Store.Pending's.
func (b bankPayouts) PendingPayouts(ctx context.Context, limit int) ([]ledger.Payout, error) {
	if limit < 1 || limit > maxLedgerLimit {
		return nil, invalidLedger("limit %d is not between 1 and %d", limit, maxLedgerLimit)
	}
	return b.s.payoutsOf(ctx, pendingPayoutsQuery, []any{limit})
}

// pendingPayoutsQuery is PendingPayouts'.
const pendingPayoutsQuery = `SELECT ` + payoutSelect + payoutFrom + ` WHERE p.pending ORDER BY p.id LIMIT ?`

// PayoutsDone implements ledger.Payouts as Store.Done: one transaction after the row of
// bank_payout_lock (so that it never deadlocks with a Report), ledgerChunk ids per
// UPDATE, of the instructions still pending only.
func (b bankPayouts) PayoutsDone(ctx context.Context, ids []int64, at time.Time) error {
	s := b.s
	if at.IsZero() {
		return invalidLedger("the time the statuses were applied is missing")
	}
	distinct := make([]any, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			distinct = append(distinct, id)
		}
	}
	if len(distinct) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration((len(distinct)+ledgerChunk-1)/ledgerChunk)*s.opts.OpTimeout)
	defer cancel()
	return s.writeLedger(ctx, func(tx *sql.Tx) error {
		if err := lockPayouts(ctx, tx); err != nil {
			return err
		}
		for part := range slices.Chunk(distinct, ledgerChunk) {
			if _, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE bank_payouts SET pending = FALSE, applied_unix_ms = ?
				WHERE pending AND id IN (`+placeholders(len(part))+`)`), append([]any{unixMs(at)}, part...)...); err != nil {
				return err
			}
		}
		return nil
	})
}

func encodePayoutCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(payoutCursorVersion + "." + strconv.FormatInt(id, 10)))
}

func decodePayoutCursor(cursor string) (int64, error) {
	bad := invalidLedger("the cursor is not one this store issued")
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, bad
	}
	version, rest, ok := strings.Cut(string(raw), ".")
	id, err := strconv.ParseInt(rest, 10, 64)
	if !ok || version != payoutCursorVersion || err != nil {
		return 0, bad
	}
	return id, nil
}

// payoutsQuery is the query of a page of ListPayouts, as rowsQuery is Rows': the filters,
// the keyset condition after the cursor, newest first, one more than the page. It reads
// through bank_payouts_end_to_end for one end-to-end id, bank_payouts_order for one
// order, bank_payouts_file for one file, bank_payouts_namespace for one tenant,
// bank_payouts_status for statuses, bank_payouts_purpose for purposes, the primary key
// otherwise.
func payoutsQuery(q ledger.PayoutQuery) (query string, args []any, limit int, err error) {
	if limit, err = pageLimit(q.Limit); err != nil {
		return "", nil, 0, err
	}
	if q.OrderID != "" && q.Namespace == "" {
		return "", nil, 0, invalidLedger("order %s is named without its namespace", q.OrderID)
	}
	var where []string
	if len(q.Statuses) > 0 {
		where = append(where, `p.status IN (`+placeholders(len(q.Statuses))+`)`)
		for _, st := range q.Statuses {
			args = append(args, st)
		}
	}
	if len(q.Purposes) > 0 {
		where = append(where, `p.purpose IN (`+placeholders(len(q.Purposes))+`)`)
		for _, p := range q.Purposes {
			args = append(args, string(p))
		}
	}
	for _, f := range []struct{ col, val string }{{"p.namespace", q.Namespace}, {"p.order_id", q.OrderID},
		{"p.file_message_id", q.FileMessageID}, {"p.end_to_end_id", q.EndToEndID}} {
		if f.val != "" {
			where = append(where, f.col+` = ?`)
			args = append(args, f.val)
		}
	}
	if q.Cursor != "" {
		id, err := decodePayoutCursor(q.Cursor)
		if err != nil {
			return "", nil, 0, err
		}
		where = append(where, `p.id < ?`)
		args = append(args, id)
	}
	query = `SELECT ` + payoutSelect + payoutFrom
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	return query + ` ORDER BY p.id DESC LIMIT ?`, append(args, limit+1), limit, nil
}

// ListPayouts implements ledger.Payouts: keyset paging on the id, descending, as Rows.
func (b bankPayouts) ListPayouts(ctx context.Context, q ledger.PayoutQuery) ([]ledger.Payout, string, error) {
	query, args, limit, err := payoutsQuery(q)
	if err != nil {
		return nil, "", err
	}
	out, err := b.s.payoutsOf(ctx, query, args)
	if err != nil {
		return nil, "", err
	}
	if len(out) <= limit {
		return out, "", nil
	}
	out = out[:limit]
	return out, encodePayoutCursor(out[len(out)-1].ID), nil
}
