package sqlstore

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/holdings"
)

// openAtOnce opens replicas stores on one database at the same moment and checks that
// each migration was applied once and that the stores share the data.
func openAtOnce(t *testing.T, dsn string, replicas int) {
	t.Helper()
	stores := make([]archive.Store, replicas)
	errs := make([]error, replicas)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range replicas {
		wg.Go(func() {
			<-start
			stores[i], errs[i] = Open(context.Background(), dsn, Options{})
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("replica %d: Open: %v", i, err)
		}
		defer func() { _ = stores[i].Close() }()
	}
	var applied, versions int
	db := stores[0].(*instrumented).next.(*store).db
	if err := db.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`).
		Scan(&applied, &versions); err != nil {
		t.Fatal(err)
	}
	if applied != versions || versions == 0 {
		t.Fatalf("%d migration rows for %d versions: a migration was applied twice or none", applied, versions)
	}
	o := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	if err := stores[0].Put(context.Background(), o, investv1.AccountTypeIndividual); err != nil {
		t.Fatal(err)
	}
	for i, s := range stores {
		if _, err := s.Get(context.Background(), o.Namespace, o.Name); err != nil {
			t.Fatalf("replica %d does not see the order another one archived: %v", i, err)
		}
	}
	// Opening again finds the schema current.
	again, err := Open(context.Background(), dsn, Options{})
	if err != nil {
		t.Fatalf("Open of a migrated database: %v", err)
	}
	_ = again.Close()
}

func TestSQLiteReplicasOpeningOneDatabaseAtOnceMigrateItOnce(t *testing.T) {
	openAtOnce(t, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), 6)
}

func TestPostgresReplicasOpeningOneDatabaseAtOnceMigrateItOnce(t *testing.T) {
	pg := pgtest.Start(t)
	openAtOnce(t, pg.NewDatabase(t), 6)
}

func TestSQLiteRunsInWALModeWithFullSync(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	db := s.(*instrumented).next.(*store).db
	// Several connections: the pragmas hold on each one, not only the first.
	conns := make([]*sql.Conn, 3)
	for i := range conns {
		if conns[i], err = db.Conn(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conns[i].Close() }()
		var mode string
		var sync int
		if err := conns[i].QueryRowContext(context.Background(), `PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := conns[i].QueryRowContext(context.Background(), `PRAGMA synchronous`).Scan(&sync); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || sync != 2 {
			t.Fatalf("connection %d: journal_mode %s, synchronous %d; want wal and 2 (FULL)", i, mode, sync)
		}
	}
}

func TestSQLiteDSNWithARelativePathAndUnusualCharacters(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, rel := range []string{".local/archive.db", "with space/ärchiv 1.db"} {
		s, err := Open(context.Background(), "sqlite://"+rel, Options{})
		if err != nil {
			t.Fatalf("Open sqlite://%s: %v", rel, err)
		}
		o := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", time.Unix(1_760_000_000, 0))
		if err := s.Put(context.Background(), o, investv1.AccountTypeIndividual); err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			t.Fatalf("the database of sqlite://%s is not at %s: %v", rel, filepath.Join(dir, rel), err)
		}
	}
}

// archiveAtVersion2 archives o the way the store did at schema version 2 (before
// locked_until_unix existed): the database is migrated up to 2 only, and the row written
// with version 2's columns.
func archiveAtVersion2(t *testing.T, d archive.DSN, o *investv1.Order) {
	t.Helper()
	var dia dialect
	var gd goose.Dialect
	dir := "sqlite"
	switch d.Backend {
	case archive.BackendSQLite:
		dia, gd = sqliteDialect{path: d.Path}, goose.DialectSQLite3
	default:
		dia, gd, dir = postgresDialect{url: d.URL}, goose.DialectPostgres, "postgres"
	}
	db, err := dia.open(Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	fsys, err := fs.Sub(migrations, "migrations/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(gd, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	c, err := archive.ColumnsOf(o, investv1.AccountTypeIndividual)
	if err != nil {
		t.Fatal(err)
	}
	body, err := encode(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(dia.rebind(`INSERT INTO archived_orders (uid, namespace, name, account_id, account_type, isin, side, market,
		currency, state, wallet_id, payment_method_details_id, units, created_unix, terminal_unix, archived_unix, order_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		c.UID, c.Namespace, c.Name, c.AccountID, c.AccountType, c.ISIN, c.Side, c.Market, c.Currency, c.State,
		c.WalletID, c.PaymentMethodDetailsID, c.Units, c.Created.Unix(), c.Terminal.Unix(), c.Terminal.Unix(), string(body)); err != nil {
		t.Fatal(err)
	}
}

// anArchivedBuyKeepsTheLockItsMintWroteOnChain: a buy archived before the store recorded
// the on-chain release time gets it from its JSON when the schema moves to version 3, and
// Holdings answers it (not the completion plus today's lock-up).
func anArchivedBuyKeepsTheLockItsMintWroteOnChain(t *testing.T, dsn string) {
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	completed := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	until := metav1.NewTime(time.Date(2026, 8, 1, 12, 30, 5, 0, time.UTC))
	old := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", completed.Add(-time.Hour), func(o *investv1.Order) {
		o.Status.Chain = &investv1.OrderChainStatus{LockedUntil: &until}
	})
	unlocked := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000002", completed.Add(-time.Hour))
	archiveAtVersion2(t, d, old)
	archiveAtVersion2(t, d, unlocked)
	s, err := OpenDSN(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	later := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	put := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000003", completed, func(o *investv1.Order) {
		t := metav1.NewTime(later)
		o.Status.Chain = &investv1.OrderChainStatus{LockedUntil: &t}
	})
	if err := s.Put(context.Background(), put, investv1.AccountTypeIndividual); err != nil {
		t.Fatal(err)
	}
	for _, fold := range []time.Time{completed.AddDate(0, 0, -1), completed.AddDate(1, 0, 0)} {
		sum, err := s.Holdings(context.Background(), "tenant-a", string(old.Spec.AccountID), fold, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := holdings.Summarize([]investv1.Order{*old, *unlocked, *put}, fold, nil)
		if !reflect.DeepEqual(sum.ByISIN, want.ByISIN) {
			t.Fatalf("Holdings folding before %s:\n got %+v\nwant %+v", fold, sum.ByISIN, want.ByISIN)
		}
		var releases []time.Time
		for _, b := range sum.ByISIN[old.Spec.ISIN].Bought {
			releases = append(releases, b.LockedUntil)
		}
		if fold.Before(completed) && !slices.ContainsFunc(releases, func(r time.Time) bool { return r.Equal(until.Time) }) {
			t.Fatalf("the buy archived at version 2 lost its on-chain release %s: %v", until, releases)
		}
		if fold.After(completed) && (len(releases) != 1 || !releases[0].Equal(later)) {
			t.Fatalf("the summed lot's release is %v, want the latest of its buys, %s", releases, later)
		}
	}
}

func TestSQLiteAnArchivedBuyKeepsTheLockItsMintWroteOnChain(t *testing.T) {
	anArchivedBuyKeepsTheLockItsMintWroteOnChain(t, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"))
}

func TestPostgresAnArchivedBuyKeepsTheLockItsMintWroteOnChain(t *testing.T) {
	pg := pgtest.Start(t)
	anArchivedBuyKeepsTheLockItsMintWroteOnChain(t, pg.NewDatabase(t))
}

// migrator returns a goose provider of the store's migrations on the database of d, and
// the database (closed when the test ends), as archiveAtVersion2 makes one.
func migrator(t *testing.T, d archive.DSN) (*goose.Provider, *sql.DB, dialect) {
	t.Helper()
	var dia dialect
	var gd goose.Dialect
	dir := "sqlite"
	switch d.Backend {
	case archive.BackendSQLite:
		dia, gd = sqliteDialect{path: d.Path}, goose.DialectSQLite3
	default:
		dia, gd, dir = postgresDialect{url: d.URL}, goose.DialectPostgres, "postgres"
	}
	db, err := dia.open(Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	fsys, err := fs.Sub(migrations, "migrations/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(gd, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	return p, db, dia
}

// theBooksKeepTheirRowsThroughVersion7: the ledger's rows and the instructions recorded at
// version 6 are those of version 7 (with the new columns empty), ids go on after every id
// used before, and version 7 goes down to 6 again while nothing of its own is used, and
// refuses to, changing nothing, once it is.
func theBooksKeepTheirRowsThroughVersion7(t *testing.T, dsn string) {
	ctx := context.Background()
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p, db, dia := migrator(t, d)
	if _, err := p.UpTo(ctx, 6); err != nil {
		t.Fatal(err)
	}
	// Version 6's rows, written with its columns; the last row and instruction deleted
	// (ids used once must not be used again).
	for _, q := range []string{
		`INSERT INTO bank_files (id, name, sha256, message_type, message_id, ingested_unix_ms, counts)
			VALUES ('camt', 'camt.xml', '', 'camt.054.001.08', 'M1', 1760000000000, '{}')`,
		`INSERT INTO bank_rows (file_id, entry_reference, txn, kind, rule, reason, credit_debit, amount, currency,
			creditor_reference, reference_valid, end_to_end_id, debtor_name, debtor_iban, namespace, order_id, due,
			received_before, received, shortfall, excess, return_reason, pending)
			VALUES ('camt', 'E1', 0, 'Unmatched', '', 'NoMatch', 'CRDT', 500, 'EUR', '', FALSE, '', 'Payer', '', '', '', 0, 0, 0, 0, 0, '', FALSE),
			('camt', 'E2', 0, 'PaidOut', 'ByEndToEnd', '', 'DBIT', 700, 'EUR', '', FALSE, 'order-1', '', '', 'tenant-a', 'order-1', 0, 0, 0, 0, 0, '', FALSE),
			('camt', 'E3', 0, 'Unmatched', '', 'NoMatch', 'CRDT', 1, 'EUR', '', FALSE, '', '', '', '', '', 0, 0, 0, 0, 0, '', FALSE)`,
		`DELETE FROM bank_rows WHERE entry_reference = 'E3'`,
		`INSERT INTO bank_out_files (message_id, name, debtor_iban, execution_date, created_unix_ms, released_unix_ms, sha256, transfers, data)
			VALUES ('F1', 'f1.xml', 'DE02120300000000202051', '2026-04-02', 1760000000000, 1760000000001, '', 1, 'x')`,
		`INSERT INTO bank_payouts (namespace, order_id, purpose, end_to_end_id, amount, currency, creditor_name, creditor_iban,
			remittance_info, debtor_name, debtor_iban, execution_date, instructed_unix_ms, file_message_id, status, bank_status,
			reason, status_unix_ms, pending)
			VALUES ('tenant-a', 'order-1', 'Payout', 'order-1', 700, 'EUR', '', 'DE89370400440532013000', '', '', 'DE02120300000000202051',
				'2026-04-02', 1760000000000, 'F1', 'Accepted', 'ACCP', '', 1760000000002, TRUE),
			('tenant-a', 'order-2', 'Refund', 'order-2', 9, 'EUR', '', 'DE89370400440532013000', '', '', 'DE02120300000000202051',
				'2026-04-02', 1760000000000, NULL, 'Instructed', '', '', NULL, FALSE)`,
		`DELETE FROM bank_payouts WHERE order_id = 'order-2'`,
	} {
		if _, err := db.ExecContext(ctx, dia.rebind(q)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	check := func(when string) {
		t.Helper()
		s, err := OpenDSN(ctx, d, Options{})
		if err != nil {
			t.Fatalf("%s: Open: %v", when, err)
		}
		defer func() { _ = s.Close() }()
		l, _ := Ledger(s)
		books, _ := Payouts(s)
		rows, _, err := l.Rows(ctx, ledger.Query{})
		if err != nil || len(rows) != 2 || rows[0].EntryReference != "E2" || rows[1].EntryReference != "E1" ||
			rows[0].FileID != "camt" || rows[0].Decision != "" || rows[1].Amount != 500 {
			t.Fatalf("%s: the rows of version 6: %+v, %v", when, rows, err)
		}
		if open, _, err := l.Rows(ctx, ledger.Query{Open: true}); err != nil || len(open) != 1 || open[0].EntryReference != "E1" {
			t.Fatalf("%s: the open rows: %+v, %v; want E1", when, open, err)
		}
		ps, _, err := books.ListPayouts(ctx, ledger.PayoutQuery{})
		if err != nil || len(ps) != 1 || ps[0].OrderID != "order-1" || ps[0].Status != ledger.StatusAccepted || !ps[0].Pending ||
			ps[0].Source != "" || ps[0].VoPResult != "" {
			t.Fatalf("%s: the instructions of version 6: %+v, %v", when, ps, err)
		}
		if rel, err := books.Released(ctx, time.Time{}); err != nil || len(rel) != 1 || !rel[0].Debited {
			t.Fatalf("%s: Released: %+v, %v; want order-1, debited by E2", when, rel, err)
		}
	}
	check("at version 7")
	// Nothing of version 7's own is used yet: down to 6 and up again, the rows are kept.
	if _, err := p.DownTo(ctx, 6); err != nil {
		t.Fatalf("down to version 6: %v", err)
	}
	check("at version 7 again")
	s, err := OpenDSN(ctx, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	l, _ := Ledger(s)
	books, _ := Payouts(s)
	decisions, _ := Decisions(s)
	if err := l.Ingest(ctx, ledger.File{ID: "camt-2"}, []ledger.Row{{EntryReference: "E4", Kind: "Unmatched"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := books.Instruct(ctx, []ledger.Payout{anInstruction("order-3")}); err != nil {
		t.Fatal(err)
	}
	rows, _, err := l.Rows(ctx, ledger.Query{Limit: 1})
	if err != nil || rows[0].EntryReference != "E4" || rows[0].ID <= 3 {
		t.Fatalf("a row recorded at version 7: %+v, %v; want an id after the 3 used", rows, err)
	}
	ps, _, err := books.ListPayouts(ctx, ledger.PayoutQuery{Limit: 1})
	if err != nil || ps[0].OrderID != "order-3" || ps[0].ID <= 2 {
		t.Fatalf("an instruction recorded at version 7: %+v, %v; want an id after the 2 used", ps, err)
	}
	// Used: an assignment's row has no file. Down refuses, and changes nothing.
	row := ledger.Row{Kind: "Matched", Namespace: "tenant-a", OrderID: "order-4", Amount: 500, Received: 500, Pending: true}
	if err := decisions.Decide(ctx, ledger.Decision{Name: "d-1", Action: ledger.DecisionAssign, EntryReference: "E1",
		Namespace: "tenant-a", OrderID: "order-4"}, &row, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 6); err == nil {
		t.Fatal("version 7 went down to 6 with a row of no file")
	}
	if v, err := p.GetDBVersion(ctx); err != nil || v != 7 {
		t.Fatalf("the version after the refused down: %d, %v; want 7", v, err)
	}
	if got, ok, err := decisions.Decision(ctx, "d-1"); err != nil || !ok || got.EntryReference != "E1" {
		t.Fatalf("the decision after the refused down: %+v (found %t), %v", got, ok, err)
	}
	if r, ok, err := decisions.Row(ctx, ledger.DecisionEntryReference("d-1"), 0); err != nil || !ok || r.FileID != "" || r.Decision != "d-1" {
		t.Fatalf("the assignment's row after the refused down: %+v (found %t), %v", r, ok, err)
	}
}

func TestSQLiteTheBooksKeepTheirRowsThroughVersion7(t *testing.T) {
	theBooksKeepTheirRowsThroughVersion7(t, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"))
}

func TestPostgresTheBooksKeepTheirRowsThroughVersion7(t *testing.T) {
	theBooksKeepTheirRowsThroughVersion7(t, pgtest.Start(t).NewDatabase(t))
}
