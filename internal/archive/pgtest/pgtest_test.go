package pgtest_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
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

// recorder is a TB whose Fatal stops the calling goroutine, as testing.T's does, and keeps
// the message.
type recorder struct {
	msg      string
	cleanups []func()
}

func (r *recorder) Helper()           {}
func (r *recorder) Cleanup(f func())  { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestAMissingServerFailsTheRunWithTheInstallCommand(t *testing.T) {
	t.Setenv("PG_BINDIR", t.TempDir()) // a folder without the server
	r := &recorder{}
	done := make(chan *pgtest.Cluster)
	go func() {
		defer close(done)
		done <- pgtest.Start(r)
	}()
	if c := <-done; c != nil {
		t.Fatal("Start returned a cluster without server binaries")
	}
	for _, f := range r.cleanups {
		f()
	}
	if !strings.Contains(r.msg, "apt-get install -y postgresql") {
		t.Fatalf("Start failed with %q, which does not say how to install the server", r.msg)
	}
}
