package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger/ledgertest"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// openLedger opens the archive at dsn with opts, closed when the test ends, and returns
// it with its bank ledger.
func openLedger(tb testing.TB, dsn string, opts Options) (archive.Store, ledger.Store) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, dsn, opts)
	if err != nil {
		tb.Fatalf("open %s: %v", archive.RedactURL(dsn), err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	l, ok := Ledger(s)
	if !ok {
		tb.Fatal("the store Open returned has no bank ledger")
	}
	return s, l
}

// ledgerOpener opens ledgers on dsn, as the suite's replicas; a minute per call, as the
// archive's conformance runs.
func ledgerOpener(dsn string) ledgertest.Open {
	return func(t *testing.T) ledger.Store {
		_, l := openLedger(t, dsn, Options{OpTimeout: time.Minute})
		return l
	}
}

func sqliteLedgerDSN(tb testing.TB) string {
	return "sqlite://" + filepath.Join(tb.TempDir(), "archive.db")
}

func TestSQLiteLedgerConformance(t *testing.T) {
	ledgertest.Run(t, func(t *testing.T) ledgertest.Open { return ledgerOpener(sqliteLedgerDSN(t)) })
}

func TestPostgresLedgerConformance(t *testing.T) {
	pg := pgtest.Start(t)
	ledgertest.Run(t, func(t *testing.T) ledgertest.Open { return ledgerOpener(pg.NewDatabase(t)) })
}

// booksOpener opens the books (ledger, payouts and decisions) on dsn, as the payouts and
// decisions suites' replicas; a minute per call, as the ledger's conformance runs.
func booksOpener(dsn string) ledgertest.OpenBooks {
	return func(t *testing.T) ledgertest.Books {
		s, l := openLedger(t, dsn, Options{OpTimeout: time.Minute})
		p, ok := Payouts(s)
		if !ok {
			t.Fatal("the store Open returned has no payouts book")
		}
		d, ok := Decisions(s)
		if !ok {
			t.Fatal("the store Open returned has no decisions book")
		}
		return ledgertest.Books{Ledger: l, Payouts: p, Decisions: d}
	}
}

func TestSQLitePayoutsConformance(t *testing.T) {
	ledgertest.RunPayouts(t, func(t *testing.T) ledgertest.OpenBooks { return booksOpener(sqliteLedgerDSN(t)) })
}

func TestPostgresPayoutsConformance(t *testing.T) {
	pg := pgtest.Start(t)
	ledgertest.RunPayouts(t, func(t *testing.T) ledgertest.OpenBooks { return booksOpener(pg.NewDatabase(t)) })
}

func TestSQLiteDecisionsConformance(t *testing.T) {
	ledgertest.RunDecisions(t, func(t *testing.T) ledgertest.OpenBooks { return booksOpener(sqliteLedgerDSN(t)) })
}

func TestPostgresDecisionsConformance(t *testing.T) {
	pg := pgtest.Start(t)
	ledgertest.RunDecisions(t, func(t *testing.T) ledgertest.OpenBooks { return booksOpener(pg.NewDatabase(t)) })
}

// otherStore is an archive.Store of another implementation.
type otherStore struct{ archive.Store }

func TestLedgerIsTheStoreOpenReturned(t *testing.T) {
	dsn := sqliteLedgerDSN(t)
	_, l := openLedger(t, dsn, Options{})
	ctx := context.Background()
	f := ledger.File{ID: "claim-1", IngestedAt: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)}
	if err := l.Ingest(ctx, f, []ledger.Row{{EntryReference: "E1", Kind: string(reconcile.Unmatched)}}); err != nil {
		t.Fatal(err)
	}
	// Another process on the same file sees it, and a read-only one reads it.
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		_, other := openLedger(t, dsn, opts)
		if got, err := other.Recorded(ctx, []string{"E1"}); err != nil || !got["E1"] {
			t.Fatalf("Recorded through another store (%+v): %v, %v", opts, got, err)
		}
		if files, _, err := other.Files(ctx, 10, ""); err != nil || len(files) != 1 || files[0].ID != f.ID {
			t.Fatalf("Files through another store (%+v): %+v, %v", opts, files, err)
		}
	}
	_, readOnly := openLedger(t, dsn, Options{ReadOnly: true})
	if err := readOnly.Ingest(ctx, ledger.File{ID: "claim-2"}, nil); err == nil {
		t.Fatal("a read-only archive's ledger ingested a file")
	}
	if _, ok := Ledger(otherStore{}); ok {
		t.Fatal("Ledger of another archive.Store answered a bank ledger")
	}
}

func TestLedgerCallsAreMeasuredWithTheirErrors(t *testing.T) {
	_, l := openLedger(t, sqliteLedgerDSN(t), Options{})
	ctx := context.Background()
	errs := func(op, kind string) float64 { return testutil.ToFloat64(opErrors.WithLabelValues("sqlite", op, kind)) }
	ingests, pendings := histogramCount(t, "bank_ingest"), histogramCount(t, "bank_pending")
	conflicts, invalids := errs("bank_ingest", "conflict"), errs("bank_pending", "invalid")
	f := ledger.File{ID: "claim-1"}
	if err := l.Ingest(ctx, f, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Ingest(ctx, f, nil); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("a file ingested twice: %v", err)
	}
	if _, err := l.Pending(ctx, 0); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("Pending of limit 0: %v", err)
	}
	if got := histogramCount(t, "bank_ingest") - ingests; got != 2 {
		t.Errorf("bank_ingest latency observed %d times, want 2", got)
	}
	if got := histogramCount(t, "bank_pending") - pendings; got != 1 {
		t.Errorf("bank_pending latency observed %d times, want 1", got)
	}
	if got := errs("bank_ingest", "conflict") - conflicts; got != 1 {
		t.Errorf("bank_ingest conflicts counted %v, want 1", got)
	}
	if got := errs("bank_pending", "invalid") - invalids; got != 1 {
		t.Errorf("invalid bank_pending calls counted %v, want 1", got)
	}
}

// manyRows are n rows of a statement, prefix making their entry references: every
// fifth unmatched, the others receipts of n/2 orders of three tenants, pending.
func manyRows(prefix string, n int) []ledger.Row {
	rows := make([]ledger.Row, 0, n)
	base := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := ledger.Row{
			EntryReference: fmt.Sprintf("%s-%06d", prefix, i/2), Transaction: i % 2, CreditDebit: "CRDT",
			Amount: int64(1000 + i), Currency: "EUR", BookingDate: base, ValueDate: base,
			CreditorReference: fmt.Sprintf("RF%08d", i), DebtorName: "Payer", DebtorIBAN: "DE89370400440532013000",
		}
		if i%5 == 0 {
			r.Kind, r.Reason = string(reconcile.Unmatched), string(reconcile.ReasonNoMatch)
		} else {
			r.Kind, r.Rule, r.Pending = string(reconcile.Underpaid), string(reconcile.ByReference), true
			r.Namespace, r.OrderID = fmt.Sprintf("tenant-%d", i%3), fmt.Sprintf("%s-order-%06d", prefix, i/2)
			r.Due, r.Received, r.Shortfall = 1_000_000, int64(1000+i), 1_000_000-int64(1000+i)
		}
		rows = append(rows, r)
	}
	return rows
}

// ingestTenThousand ingests a statement of 10,000 rows with the production timeout, and
// checks that every row is there.
func ingestTenThousand(t *testing.T, dsn string) {
	_, l := openLedger(t, dsn, Options{})
	ctx := context.Background()
	rows := manyRows("E", 10_000)
	start := time.Now()
	if err := l.Ingest(ctx, ledger.File{ID: "statement"}, rows); err != nil {
		t.Fatalf("Ingest of 10,000 rows: %v", err)
	}
	t.Logf("Ingest of 10,000 rows took %v", time.Since(start))
	refs := make([]string, 0, len(rows))
	var orders []ledger.OrderKey
	distinct := map[ledger.OrderKey]bool{}
	for _, r := range rows {
		refs = append(refs, r.EntryReference)
		if r.OrderID != "" {
			k := ledger.OrderKey{Namespace: r.Namespace, OrderID: r.OrderID}
			orders, distinct[k] = append(orders, k), true
		}
	}
	if got, err := l.Recorded(ctx, refs); err != nil || len(got) != 5000 {
		t.Fatalf("Recorded of the statement's entries: %d of 5,000 (%v)", len(got), err)
	}
	if got, err := l.Received(ctx, orders); err != nil || len(got) != len(distinct) {
		t.Fatalf("Received of the statement's orders: %d of %d (%v)", len(got), len(distinct), err)
	}
	n, cursor := 0, ""
	for {
		page, next, err := l.Rows(ctx, ledger.Query{FileID: "statement", Limit: 1000, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		n += len(page)
		if next == "" {
			break
		}
		cursor = next
	}
	if n != len(rows) {
		t.Fatalf("the statement has %d rows, want %d", n, len(rows))
	}
	// All the pending rows done at once.
	done := 0
	for {
		page, err := l.Pending(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		ids := make([]int64, 0, len(page))
		for _, r := range page {
			ids = append(ids, r.ID)
		}
		if err := l.Done(ctx, ids, time.Now()); err != nil {
			t.Fatal(err)
		}
		done += len(ids)
	}
	if done != 8000 {
		t.Fatalf("%d rows were pending, want 8,000", done)
	}
}

func TestLedgerIngestOfTenThousandRows(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { ingestTenThousand(t, sqliteLedgerDSN(t)) })
	t.Run("postgres", func(t *testing.T) { ingestTenThousand(t, pgtest.Start(t).NewDatabase(t)) })
}

// expectUniqueViolations runs statements that break a unique key and checks that
// uniqueViolation recognises the driver's error, and that it does not take another
// constraint's refusal for one.
func expectUniqueViolations(t *testing.T, dsn string) {
	s, l := openLedger(t, dsn, Options{})
	st := s.(*instrumented).next.(*store)
	if err := l.Ingest(context.Background(), ledger.File{ID: "f"}, []ledger.Row{{EntryReference: "E1", Kind: "Matched"}}); err != nil {
		t.Fatal(err)
	}
	row := func(ref string, txn int) error {
		_, err := st.db.Exec(st.dia.rebind(`INSERT INTO bank_rows (`+bankRowColumns+`) VALUES (`+placeholders(bankRowValues)+`)`),
			bankRowArgs(nil, "f", ledger.Row{EntryReference: ref, Transaction: txn, Kind: "Matched"})...)
		return err
	}
	_, fileErr := st.db.Exec(st.dia.rebind(`INSERT INTO bank_files (id, name, sha256, message_type, message_id,
		ingested_unix_ms, counts) VALUES (?, '', '', '', '', 0, '{}')`), "f")
	for what, err := range map[string]error{"a file recorded already": fileErr, "an entry recorded already": row("E1", 0)} {
		if !uniqueViolation(err) {
			t.Errorf("%s: %v is not recognised as a unique violation", what, err)
		}
	}
	if err := row("E2", -1); err == nil || uniqueViolation(err) {
		t.Errorf("a negative transaction: %v, want a check violation", err)
	}
}

func TestUniqueViolationsAreRecognisedOnBothDrivers(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { expectUniqueViolations(t, sqliteLedgerDSN(t)) })
	t.Run("postgres", func(t *testing.T) { expectUniqueViolations(t, pgtest.Start(t).NewDatabase(t)) })
}

// A writer that records an entry without taking bank_ingest_lock, after an Ingest's
// check: the unique key refuses the Ingest's rows, and Ingest names the entry.
func TestPostgresLedgerRefusesAnEntryRecordedAfterItsCheck(t *testing.T) {
	s, l := openLedger(t, pgtest.Start(t).NewDatabase(t), Options{OpTimeout: time.Minute})
	db := s.(*instrumented).next.(*store).db
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`INSERT INTO bank_files (id, name, sha256, message_type, message_id, ingested_unix_ms, counts)
		VALUES ('other', '', '', '', '', 0, '{}')`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO bank_rows (`+bankRowColumns+`) VALUES (`+postgresDialect{}.rebind(placeholders(bankRowValues))+`)`,
		bankRowArgs(nil, "other", ledger.Row{EntryReference: "RACE", Kind: "Matched"})...); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- l.Ingest(ctx, ledger.File{ID: "mine"}, []ledger.Row{{EntryReference: "MINE", Kind: "Matched"},
			{EntryReference: "RACE", Kind: "Matched"}})
	}()
	// The Ingest waits for the other writer's row of RACE.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		if err := db.QueryRow(`SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Ingest never waited for the other writer")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	err = <-done
	if !errors.Is(err, ledger.ErrAlreadyRecorded) || !strings.Contains(err.Error(), "RACE") {
		t.Fatalf("Ingest of an entry recorded meanwhile: %v, want ErrAlreadyRecorded naming RACE", err)
	}
	if got, err := l.Recorded(ctx, []string{"MINE"}); err != nil || len(got) != 0 {
		t.Fatalf("the refused Ingest recorded %v (%v)", got, err)
	}
	if files, _, err := l.Files(ctx, 10, ""); err != nil || len(files) != 1 || files[0].ID != "other" {
		t.Fatalf("files after the refusal: %+v (%v), want only the other writer's", files, err)
	}
}

// BenchmarkLedgerIngest10000 is an Ingest of a statement of 10,000 rows into SQLite, into
// a ledger that grows by one statement an iteration.
func BenchmarkLedgerIngest10000(b *testing.B) {
	_, l := openLedger(b, sqliteLedgerDSN(b), Options{})
	n := 0
	for b.Loop() {
		n++
		if err := l.Ingest(context.Background(), ledger.File{ID: fmt.Sprintf("statement-%d", n)}, manyRows(fmt.Sprintf("S%d", n), 10_000)); err != nil {
			b.Fatal(err)
		}
	}
}
