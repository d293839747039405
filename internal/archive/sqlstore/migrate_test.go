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
