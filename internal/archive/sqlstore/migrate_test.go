package sqlstore

import (
	"context"
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
