package sqlstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
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
