package pgtest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/onsi/ginkgo/v2"

	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
)

// Ginkgo suites pass GinkgoT(); this only has to compile.
var _ pgtest.TB = ginkgo.GinkgoT()

func TestStartGivesFreshDatabasesWithAPassword(t *testing.T) {
	c := pgtest.Start(t)
	ctx := context.Background()
	a, b := c.NewDatabase(t), c.NewDatabase(t)
	if a == b {
		t.Fatal("two databases with one URL")
	}
	conn, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }()
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a new database has %d tables (%v)", n, err)
	}
	cfg, err := pgx.ParseConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Password = "wrong"
	if bad, err := pgx.ConnectConfig(ctx, cfg); err == nil {
		_ = bad.Close(ctx)
		t.Fatal("the server accepts a wrong password")
	}
}
