package sqlstore

import (
	"context"
	"database/sql"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/archive"
)

// HoldWriteLock starts a write transaction (BEGIN IMMEDIATE) on a SQLite store and keeps
// it open until the returned function is called: another writer then waits.
func HoldWriteLock(t *testing.T, s archive.Store) func() {
	t.Helper()
	tx, err := s.(*instrumented).next.(*store).db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE archived_orders SET state = state WHERE 1 = 0`); err != nil {
		t.Fatal(err)
	}
	return func() { _ = tx.Rollback() }
}

// SQLDB is the store's connection pool, for tests that look at the schema and plans.
func SQLDB(s archive.Store) *sql.DB { return s.(*instrumented).next.(*store).db }
