package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

func openStore(t *testing.T, dsn string) archive.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A minute per call: the conformance rules are about answers, not speed, and a loaded
	// machine syncing SQLite to disk missed the production default of 5 s.
	s, err := sqlstore.Open(ctx, dsn, sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatalf("open %s: %v", archive.RedactURL(dsn), err)
	}
	return s
}

func sqliteDSN(t *testing.T) string { return "sqlite://" + filepath.Join(t.TempDir(), "archive.db") }

func TestSQLiteConformance(t *testing.T) {
	archivetest.Run(t, func(t *testing.T) archive.Store { return openStore(t, sqliteDSN(t)) })
}

func TestPostgresConformance(t *testing.T) {
	pg := pgtest.Start(t)
	archivetest.Run(t, func(t *testing.T) archive.Store { return openStore(t, pg.NewDatabase(t)) })
}
