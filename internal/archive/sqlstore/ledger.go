package sqlstore

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// The bank ledger (ledger.Store) lives in the archive's database, in the tables of
// migration 00005 (bank_rows as 00007 left it): bank_files, bank_rows and
// bank_ingest_lock. A row of no file (an assignment's, see decisions.go) has file_id
// NULL, read back as FileID "". Every call is bounded by Options.OpTimeout (Ingest by one
// per ledgerChunk rows and one for the file, Recorded and Received by one per query of
// ledgerChunk keys, Done by one per ledgerChunk ids), every write is one transaction, and
// SQLite's writes queue for the store's writer slot as Put's do. Lookups of many keys
// join a VALUES list of them (see valuesOf).

// Ledger returns the bank ledger kept in the database of s, an archive Open or OpenDSN
// returned, measured like its archive calls (operations bank_*); false for any other
// archive.Store. It shares s's connections, so it works until s is closed. Of a read-only
// archive (Options.ReadOnly) only the reads work.
func Ledger(s archive.Store) (ledger.Store, bool) {
	m, ok := s.(*instrumented)
	if !ok {
		return nil, false
	}
	return measuredLedger{m: m}, true
}

// bankLedger is the ledger.Store of a store. It is a type of its own, not methods of
// store, because ledger.Store's Pending is not notify.Store's.
type bankLedger struct{ s *store }

var (
	_ ledger.Store = bankLedger{}
	_ ledger.Store = measuredLedger{}
)

const (
	// maxLedgerLimit is the largest page of Pending, Rows and Files; defaultLedgerLimit
	// the page of Rows and Files when the caller gives 0.
	maxLedgerLimit     = 1000
	defaultLedgerLimit = 100
	// ledgerChunk is how many keys one query of Recorded, Received, Done and of Ingest's
	// check carries, and how many rows one INSERT of Ingest carries on PostgreSQL
	// (bankRowValues values each: 13,000 parameters, below its limit of 65,535).
	ledgerChunk = 500
	// sqliteRowsPerInsert is how many rows one INSERT of Ingest carries on SQLite: few,
	// because the driver binds each parameter after a linear search of the arguments,
	// so a statement costs the square of its parameters (measured on 10,000 rows: 7 to
	// 11 s at 500 rows a statement, about 0.5 s from 10 to 50).
	sqliteRowsPerInsert = 20
)

// receiptKinds are the kinds of the rows whose Received is what arrived for their order.
var receiptKinds = []any{string(reconcile.Underpaid), string(reconcile.Matched), string(reconcile.Overpaid)}

// ledgerErr turns an error of a ledger call into ledger's: the store's own errors as they
// are, ledger.ErrUnavailable for a database that cannot serve (as classify decides).
func (s *store) ledgerErr(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, ledger.ErrInvalid) || errors.Is(err, ledger.ErrAlreadyRecorded) ||
		errors.Is(err, ledger.ErrUnavailable) {
		return err
	}
	return s.classifyAs(ctx, err, ledger.ErrUnavailable, "bank ledger")
}

func invalidLedger(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ledger.ErrInvalid, fmt.Sprintf(format, args...))
}

// writeLedger runs f in one write transaction (SQLite: in the writer slot) and commits
// it; f's error rolls it back.
func (s *store) writeLedger(ctx context.Context, f func(tx *sql.Tx) error) error {
	release, err := s.writer(ctx)
	if err != nil {
		return s.ledgerErr(ctx, err)
	}
	defer release()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.ledgerErr(ctx, err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return s.ledgerErr(ctx, err)
	}
	return s.ledgerErr(ctx, tx.Commit())
}

// readLedger runs one query within its own operation timeout and hands each result row
// to scan.
func (s *store) readLedger(ctx context.Context, query string, args []any, scan func(rows *sql.Rows) error) error {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, s.dia.rebind(query), args...)
	if err != nil {
		return s.ledgerErr(ctx, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return s.ledgerErr(ctx, err)
		}
	}
	return s.ledgerErr(ctx, rows.Err())
}

// nullMs is the Unix milliseconds of t, NULL for the zero time; fromNullMs its inverse.
func nullMs(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return unixMs(t)
}

func fromNullMs(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return fromUnixMs(ms.Int64)
}

// entryKey is the key of a row: its entry's reference and its transaction's index.
type entryKey struct {
	ref string
	txn int
}

// checkIngest applies Ingest's rules to its input. The entry references of decisions
// (ledger.DecisionEntryReference) and the Decision of a row are Decide's: a file has
// neither, so that an ingested entry never takes the key of an assignment's row.
func checkIngest(f ledger.File, rows []ledger.Row) error {
	if f.ID == "" {
		return invalidLedger("the file has no id")
	}
	seen := make(map[entryKey]int, len(rows))
	for i, r := range rows {
		switch {
		case r.FileID != "" && r.FileID != f.ID:
			return invalidLedger("row %d names file %q, not the file %q it is ingested with", i, r.FileID, f.ID)
		case strings.HasPrefix(r.EntryReference, decisionPrefix):
			return invalidLedger("row %d has the entry reference %q of a decision's row (Decide records those)", i, r.EntryReference)
		case r.Decision != "":
			return invalidLedger("row %d names the decision %q (Decide records those)", i, r.Decision)
		}
		if fault := rowFault(r); fault != "" {
			return invalidLedger("row %d %s", i, fault)
		}
		k := entryKey{r.EntryReference, r.Transaction}
		if j, ok := seen[k]; ok {
			return invalidLedger("rows %d and %d are both transaction %d of entry %s", j, i, k.txn, k.ref)
		}
		seen[k] = i
	}
	return nil
}

// decisionPrefix begins the entry reference of every row a decision records, and no
// other's (ledger.DecisionEntryReference).
var decisionPrefix = ledger.DecisionEntryReference("")

// rowFault says how r breaks a rule every row of bank_rows follows, Ingest's and
// Decide's ("has no kind"); "" when it breaks none.
func rowFault(r ledger.Row) string {
	switch {
	case r.EntryReference == "":
		return "has no entry reference"
	case r.Transaction < 0:
		return fmt.Sprintf("has the negative transaction index %d", r.Transaction)
	case r.Kind == "":
		return "has no kind"
	case r.Pending && r.OrderID == "" && r.EndToEndID == "":
		// A debit or return of a transfer that pays no order (a refund from suspense) is
		// pending for its decision, which its end-to-end id names.
		return "is pending but names no order and no end-to-end id"
	case r.Pending && !r.AppliedAt.IsZero():
		return fmt.Sprintf("is pending but was applied at %s", r.AppliedAt)
	}
	return ""
}

// entryRace is the error of an insert of rows whose key another transaction recorded
// after Ingest's check (a writer that did not take bank_ingest_lock): the unique
// constraint refused it.
type entryRace struct{ err error }

func (e *entryRace) Error() string { return "a row's entry was recorded meanwhile: " + e.err.Error() }
func (e *entryRace) Unwrap() error { return e.err }

// uniqueViolation reports whether err is a driver's refusal of a row that breaks a
// primary key or unique constraint: SQLite's extended result codes
// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY, PostgreSQL's SQLSTATE 23505
// (unique_violation).
func uniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// Ingest implements ledger.Store, in one transaction: the row of bank_ingest_lock is
// updated first (Ingests run one at a time, see migration 00005), the file inserted with
// ON CONFLICT (id) DO NOTHING (nothing inserted: ErrAlreadyRecorded), the rows' keys
// looked up (one recorded: ErrAlreadyRecorded naming its entry), then the rows inserted
// rowsPerInsert at a time in the order given. The unique key (entry_reference, txn) stays
// the guard against a writer that does not take the lock: its refusal rolls everything
// back, and the entry is named by looking it up after.
func (b bankLedger) Ingest(ctx context.Context, f ledger.File, rows []ledger.Row) error {
	s := b.s
	if err := checkIngest(f, rows); err != nil {
		return err
	}
	chunks := 1 + (len(rows)+ledgerChunk-1)/ledgerChunk
	ctx, cancel := context.WithTimeout(ctx, time.Duration(chunks)*s.opts.OpTimeout)
	defer cancel()
	err := s.writeLedger(ctx, func(tx *sql.Tx) error {
		if err := lockIngests(ctx, tx); err != nil {
			return err
		}
		if err := s.recordFile(ctx, tx, f); err != nil {
			return err
		}
		if k, found, err := s.firstRecorded(ctx, tx, rows); err != nil {
			return err
		} else if found {
			return alreadyRecorded(k)
		}
		return s.insertRows(ctx, tx, f.ID, rows)
	})
	var race *entryRace
	if !errors.As(err, &race) {
		return err
	}
	// Rolled back; the writer that won has committed (a unique violation waits for it).
	k, found, lerr := s.firstRecorded(ctx, s.db, rows)
	switch {
	case lerr != nil:
		return s.ledgerErr(ctx, lerr)
	case found:
		return alreadyRecorded(k)
	}
	return fmt.Errorf("an entry of file %s was recorded by another ingestion (%w): %w", f.ID, race.err, &ledger.EntryRecordedError{})
}

// lockIngests updates the row of bank_ingest_lock: the transaction's writes of rows
// (Ingest's, Decide's) run alone until it ends.
func lockIngests(ctx context.Context, tx *sql.Tx) error {
	res, err := tx.ExecContext(ctx, `UPDATE bank_ingest_lock SET ingests = ingests + 1 WHERE id = 1`)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return errors.New("the row of bank_ingest_lock is missing")
	}
	return nil
}

// recordFile inserts the file f into bank_files with ON CONFLICT (id) DO NOTHING:
// ErrAlreadyRecorded when nothing was inserted. A file without IngestedAt is recorded at
// the store's time, one without Counts with none. It is how Ingest records its file and
// Payouts.Report its status report.
func (s *store) recordFile(ctx context.Context, tx *sql.Tx, f ledger.File) error {
	counts := f.Counts
	if counts == nil {
		counts = map[string]int{}
	}
	countsJSON, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	ingested := f.IngestedAt
	if ingested.IsZero() {
		ingested = s.opts.Now()
	}
	res, err := tx.ExecContext(ctx, s.dia.rebind(`INSERT INTO bank_files (id, name, sha256, message_type, message_id,
		delivered_unix_ms, ingested_unix_ms, counts) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
		f.ID, f.Name, f.SHA256, f.MessageType, f.MessageID, nullMs(f.DeliveredAt), unixMs(ingested), string(countsJSON))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("%w: file %s was ingested before", ledger.ErrAlreadyRecorded, f.ID)
	}
	return nil
}

// alreadyRecorded is Ingest's refusal naming the recorded entry (ledger.EntryRecordedError,
// which the caller tells from a file ingested before).
func alreadyRecorded(k entryKey) error {
	return fmt.Errorf("transaction %d: %w", k.txn, &ledger.EntryRecordedError{EntryReference: k.ref})
}

// valuesOf is a table k of n rows of cols text placeholders, its columns column1,
// column2 and so on (SQLite and PostgreSQL both name a VALUES list's columns so). The
// lookups of many keys join it rather than test an IN list: without statistics (a table
// not analyzed yet, as after its first large Ingest) PostgreSQL estimates that a long IN
// list on a column not known to be unique matches most of the table, scans all of it and
// compares each row with every key (seconds for 500 keys over 40,000 rows). An IN list
// of ids (Done) is fine: the primary key is known to be unique.
func valuesOf(n, cols int) string {
	one := "(" + placeholders(cols) + ")"
	return "(VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", n), ", ") + ") AS k"
}

// firstRecorded returns the key of the first of rows that is recorded, looking the
// entries up ledgerChunk at a time through the unique index bank_rows_entry.
func (s *store) firstRecorded(ctx context.Context, q querier, rows []ledger.Row) (entryKey, bool, error) {
	refs := make([]any, 0, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		if !seen[r.EntryReference] {
			seen[r.EntryReference] = true
			refs = append(refs, r.EntryReference)
		}
	}
	recorded := map[entryKey]bool{}
	for part := range slices.Chunk(refs, ledgerChunk) {
		err := func() error {
			rs, err := q.QueryContext(ctx, s.dia.rebind(`SELECT r.entry_reference, r.txn FROM `+valuesOf(len(part), 1)+`
				JOIN bank_rows r ON r.entry_reference = k.column1`), part...)
			if err != nil {
				return err
			}
			defer func() { _ = rs.Close() }()
			for rs.Next() {
				var k entryKey
				if err := rs.Scan(&k.ref, &k.txn); err != nil {
					return err
				}
				recorded[k] = true
			}
			return rs.Err()
		}()
		if err != nil {
			return entryKey{}, false, err
		}
	}
	for _, r := range rows {
		if k := (entryKey{r.EntryReference, r.Transaction}); recorded[k] {
			return k, true, nil
		}
	}
	return entryKey{}, false, nil
}

// bankRowColumns are the columns of bank_rows an Ingest or a Decide writes, in the order
// of bankRowArgs; bankRowValues how many.
const (
	bankRowColumns = `file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
		booking_unix_ms, value_unix_ms, creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban,
		namespace, order_id, due, received_before, received, shortfall, excess, return_reason, pending, applied_unix_ms,
		decision`
	bankRowValues = 27
)

// bankRowArgs appends the values of r, in the file fileID ("": in none, NULL).
func bankRowArgs(args []any, fileID string, r ledger.Row) []any {
	var file any
	if fileID != "" {
		file = fileID
	}
	return append(args, file, r.EntryReference, r.Transaction, r.Kind, r.Rule, r.Reason, r.CreditDebit, r.Amount,
		r.Currency, nullMs(r.BookingDate), nullMs(r.ValueDate), r.CreditorReference, r.ReferenceValid, r.EndToEndID,
		r.DebtorName, r.DebtorIBAN, r.Namespace, r.OrderID, r.Due, r.ReceivedBefore, r.Received, r.Shortfall, r.Excess,
		r.ReturnReason, r.Pending, nullMs(r.AppliedAt), r.Decision)
}

// insertRows inserts the rows of a file (fileID "": of none, a decision's) a chunk at a
// time (rowsPerInsert), each INSERT's rows getting increasing ids in their order. A
// unique violation is an entryRace.
func (s *store) insertRows(ctx context.Context, tx *sql.Tx, fileID string, rows []ledger.Row) error {
	for part := range slices.Chunk(rows, s.rowsPerInsert()) {
		args := make([]any, 0, bankRowValues*len(part))
		for _, r := range part {
			args = bankRowArgs(args, fileID, r)
		}
		if _, err := tx.ExecContext(ctx, s.dia.rebind(insertRowsQuery(len(part))), args...); err != nil {
			if uniqueViolation(err) {
				return &entryRace{err: err}
			}
			return err
		}
	}
	return nil
}

// rowsPerInsert is how many rows one INSERT of Ingest carries.
func (s *store) rowsPerInsert() int {
	if _, ok := s.dia.(sqliteDialect); ok {
		return sqliteRowsPerInsert
	}
	return ledgerChunk
}

// insertRowsQuery is the INSERT of n rows into bank_rows.
func insertRowsQuery(n int) string {
	one := "(" + placeholders(bankRowValues) + ")"
	var q strings.Builder
	q.Grow(len(bankRowColumns) + 64 + n*(len(one)+2))
	q.WriteString(`INSERT INTO bank_rows (` + bankRowColumns + `) VALUES `)
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(one)
	}
	return q.String()
}

// Recorded implements ledger.Store: the distinct references ledgerChunk at a time, each
// query with its own operation timeout, through the unique index bank_rows_entry.
func (b bankLedger) Recorded(ctx context.Context, entryRefs []string) (map[string]bool, error) {
	out := map[string]bool{}
	refs := make([]any, 0, len(entryRefs))
	seen := make(map[string]bool, len(entryRefs))
	for _, ref := range entryRefs {
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	for part := range slices.Chunk(refs, ledgerChunk) {
		err := b.s.readLedger(ctx, `SELECT DISTINCT r.entry_reference FROM `+valuesOf(len(part), 1)+`
			JOIN bank_rows r ON r.entry_reference = k.column1`, part, func(rows *sql.Rows) error {
			var ref string
			if err := rows.Scan(&ref); err != nil {
				return err
			}
			out[ref] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Received implements ledger.Store: ledgerChunk orders per query (each with its own
// operation timeout), each order's receipt with the highest id read through the index
// bank_rows_order.
func (b bankLedger) Received(ctx context.Context, orders []ledger.OrderKey) (map[ledger.OrderKey]int64, error) {
	out := map[ledger.OrderKey]int64{}
	keys := make([]ledger.OrderKey, 0, len(orders))
	seen := make(map[ledger.OrderKey]bool, len(orders))
	for _, o := range orders {
		if !seen[o] {
			seen[o] = true
			keys = append(keys, o)
		}
	}
	for part := range slices.Chunk(keys, ledgerChunk) {
		args := make([]any, 0, len(receiptKinds)+2*len(part))
		args = append(args, receiptKinds...)
		for _, k := range part {
			args = append(args, k.Namespace, k.OrderID)
		}
		err := b.s.readLedger(ctx, `SELECT k.column1, k.column2, (SELECT r.received FROM bank_rows r
			WHERE r.namespace = k.column1 AND r.order_id = k.column2 AND r.kind IN (`+placeholders(len(receiptKinds))+`)
			ORDER BY r.id DESC LIMIT 1) FROM `+valuesOf(len(part), 2), args, func(rows *sql.Rows) error {
			var k ledger.OrderKey
			var received sql.NullInt64
			if err := rows.Scan(&k.Namespace, &k.OrderID, &received); err != nil {
				return err
			}
			if received.Valid {
				out[k] = received.Int64
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bankRowSelect is the columns scanRow reads.
const bankRowSelect = `id, ` + bankRowColumns

func scanRow(sc scanner) (ledger.Row, error) {
	var r ledger.Row
	var file sql.NullString
	var booking, value, applied sql.NullInt64
	if err := sc.Scan(&r.ID, &file, &r.EntryReference, &r.Transaction, &r.Kind, &r.Rule, &r.Reason, &r.CreditDebit,
		&r.Amount, &r.Currency, &booking, &value, &r.CreditorReference, &r.ReferenceValid, &r.EndToEndID, &r.DebtorName,
		&r.DebtorIBAN, &r.Namespace, &r.OrderID, &r.Due, &r.ReceivedBefore, &r.Received, &r.Shortfall, &r.Excess,
		&r.ReturnReason, &r.Pending, &applied, &r.Decision); err != nil {
		return ledger.Row{}, err
	}
	r.FileID = file.String
	r.BookingDate, r.ValueDate, r.AppliedAt = fromNullMs(booking), fromNullMs(value), fromNullMs(applied)
	return r, nil
}

// Pending implements ledger.Store, through the partial index bank_rows_pending.
func (b bankLedger) Pending(ctx context.Context, limit int) ([]ledger.Row, error) {
	if limit < 1 || limit > maxLedgerLimit {
		return nil, invalidLedger("limit %d is not between 1 and %d", limit, maxLedgerLimit)
	}
	var out []ledger.Row
	err := b.s.readLedger(ctx, `SELECT `+bankRowSelect+` FROM bank_rows WHERE pending ORDER BY id LIMIT ?`,
		[]any{limit}, func(rows *sql.Rows) error {
			r, err := scanRow(rows)
			out = append(out, r)
			return err
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Done implements ledger.Store: one transaction, ledgerChunk ids per UPDATE (each with
// an operation timeout), of the rows still pending only, so that a Done repeated (an
// answer lost) keeps the first time. The time must be given: a row that is no longer
// pending without one would look like a row that never had an effect to write.
func (b bankLedger) Done(ctx context.Context, ids []int64, at time.Time) error {
	s := b.s
	if at.IsZero() {
		return invalidLedger("the time the rows were applied is missing")
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
		for part := range slices.Chunk(distinct, ledgerChunk) {
			if _, err := tx.ExecContext(ctx, s.dia.rebind(`UPDATE bank_rows SET pending = FALSE, applied_unix_ms = ?
				WHERE pending AND id IN (`+placeholders(len(part))+`)`), append([]any{unixMs(at)}, part...)...); err != nil {
				return err
			}
		}
		return nil
	})
}

// The cursors of Rows and Files: a version (see archive's cursorVersion) and the
// position of the page's last item, base64url-encoded.
const (
	rowCursorVersion  = "r1"
	fileCursorVersion = "f1"
)

func encodeRowCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(rowCursorVersion + "." + strconv.FormatInt(id, 10)))
}

func decodeRowCursor(cursor string) (int64, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, invalidLedger("the cursor is not one this store issued")
	}
	version, rest, ok := strings.Cut(string(raw), ".")
	id, err := strconv.ParseInt(rest, 10, 64)
	if !ok || version != rowCursorVersion || err != nil {
		return 0, invalidLedger("the cursor is not one this store issued")
	}
	return id, nil
}

// filePosition is a place in the newest-first order of Files.
type filePosition struct {
	ingestedMs int64
	id         string
}

func encodeFileCursor(p filePosition) string {
	raw := fileCursorVersion + "." + strconv.FormatInt(p.ingestedMs, 10) + "." + p.id
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeFileCursor(cursor string) (filePosition, error) {
	bad := invalidLedger("the cursor is not one this store issued")
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return filePosition{}, bad
	}
	parts := strings.SplitN(string(raw), ".", 3)
	if len(parts) != 3 || parts[0] != fileCursorVersion || parts[2] == "" {
		return filePosition{}, bad
	}
	ms, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return filePosition{}, bad
	}
	return filePosition{ingestedMs: ms, id: parts[2]}, nil
}

// pageLimit is the page size of a limit given to Rows or Files.
func pageLimit(limit int) (int, error) {
	switch {
	case limit == 0:
		return defaultLedgerLimit, nil
	case limit < 0 || limit > maxLedgerLimit:
		return 0, invalidLedger("limit %d is not between 1 and %d", limit, maxLedgerLimit)
	}
	return limit, nil
}

// openRows is the condition of Query.Open: the key of the partial index bank_rows_open
// and its condition as the index states it (SQLite reads through a partial index only
// for a query that has its condition's very terms).
const openRows = `decision = '' AND kind IN ('` + string(reconcile.Unmatched) + `', '` + string(reconcile.WrongCurrency) + `')`

// rowsQuery is the query of a page of Rows: the filters, the keyset condition after the
// cursor, newest first, one row more than the page to know whether another follows. It
// reads through the index of its most selective filter: bank_rows_order for one order,
// bank_rows_file for one file, bank_rows_namespace for one tenant, bank_rows_open for the
// open suspense rows, bank_rows_kind for kinds, the primary key otherwise.
func rowsQuery(q ledger.Query) (query string, args []any, limit int, err error) {
	if limit, err = pageLimit(q.Limit); err != nil {
		return "", nil, 0, err
	}
	if q.OrderID != "" && q.Namespace == "" {
		return "", nil, 0, invalidLedger("order %s is named without its namespace", q.OrderID)
	}
	var where []string
	if len(q.Kinds) > 0 {
		where = append(where, `kind IN (`+placeholders(len(q.Kinds))+`)`)
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	for _, f := range []struct{ col, val string }{{"namespace", q.Namespace}, {"order_id", q.OrderID}, {"file_id", q.FileID}} {
		if f.val != "" {
			where = append(where, f.col+` = ?`)
			args = append(args, f.val)
		}
	}
	if q.Open {
		where = append(where, openRows)
	}
	if q.Cursor != "" {
		id, err := decodeRowCursor(q.Cursor)
		if err != nil {
			return "", nil, 0, err
		}
		where = append(where, `id < ?`)
		args = append(args, id)
	}
	query = `SELECT ` + bankRowSelect + ` FROM bank_rows`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	return query + ` ORDER BY id DESC LIMIT ?`, append(args, limit+1), limit, nil
}

// Rows implements ledger.Store: keyset paging on the id, descending. The cursor is the
// id of the page's last row, so rows ingested meanwhile (larger ids) never shift a later
// page.
func (b bankLedger) Rows(ctx context.Context, q ledger.Query) ([]ledger.Row, string, error) {
	query, args, limit, err := rowsQuery(q)
	if err != nil {
		return nil, "", err
	}
	var out []ledger.Row
	more := false
	err = b.s.readLedger(ctx, query, args, func(rows *sql.Rows) error {
		if len(out) == limit {
			more = true
			return nil
		}
		r, err := scanRow(rows)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	if !more {
		return out, "", nil
	}
	return out, encodeRowCursor(out[len(out)-1].ID), nil
}

// Files implements ledger.Store: keyset paging on (ingested_unix_ms, id), descending,
// through the index bank_files_ingested.
func (b bankLedger) Files(ctx context.Context, limit int, cursor string) ([]ledger.File, string, error) {
	limit, err := pageLimit(limit)
	if err != nil {
		return nil, "", err
	}
	query := `SELECT id, name, sha256, message_type, message_id, delivered_unix_ms, ingested_unix_ms, counts FROM bank_files`
	var args []any
	if cursor != "" {
		pos, err := decodeFileCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		query += ` WHERE (ingested_unix_ms, id) < (?, ?)`
		args = append(args, pos.ingestedMs, pos.id)
	}
	query += ` ORDER BY ingested_unix_ms DESC, id DESC LIMIT ?`
	var out []ledger.File
	more := false
	err = b.s.readLedger(ctx, query, append(args, limit+1), func(rows *sql.Rows) error {
		if len(out) == limit {
			more = true
			return nil
		}
		var f ledger.File
		var delivered sql.NullInt64
		var ingested int64
		var counts string
		if err := rows.Scan(&f.ID, &f.Name, &f.SHA256, &f.MessageType, &f.MessageID, &delivered, &ingested, &counts); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(counts), &f.Counts); err != nil {
			return fmt.Errorf("decode the counts of file %s: %w", f.ID, err)
		}
		f.DeliveredAt, f.IngestedAt = fromNullMs(delivered), fromUnixMs(ingested)
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	if !more {
		return out, "", nil
	}
	last := out[len(out)-1]
	return out, encodeFileCursor(filePosition{ingestedMs: unixMs(last.IngestedAt), id: last.ID}), nil
}
