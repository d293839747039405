package sqlstore_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

var t0 = time.Date(2026, 4, 1, 12, 0, 0, 0, time.UTC)

const opTimeout = 1500 * time.Millisecond

// everyOperation runs each store call once and returns its error by name.
func everyOperation(s archive.Store, o *investv1.Order) map[string]error {
	ctx := context.Background()
	putErr := s.Put(ctx, o, investv1.AccountTypeIndividual)
	_, getErr := s.Get(ctx, o.Namespace, o.Name)
	_, listErr := s.List(ctx, o.Namespace, archive.Query{Limit: 10})
	_, completedErr := s.CompletedOrders(ctx, o.Namespace, string(o.Spec.AccountID), "")
	return map[string]error{
		"Put": putErr, "Get": getErr, "List": listErr, "CompletedOrders": completedErr, "Ping": s.Ping(ctx),
	}
}

// expectUnavailable checks that every operation fails with ErrUnavailable, each within
// the operation timeout (and a margin), not hanging.
func expectUnavailable(t *testing.T, s archive.Store, o *investv1.Order) map[string]error {
	t.Helper()
	start := time.Now()
	errs := everyOperation(s, o)
	for op, err := range errs {
		if !errors.Is(err, archive.ErrUnavailable) {
			t.Errorf("%s while the database is down: got %v, want ErrUnavailable", op, err)
		}
	}
	if d := time.Since(start); d > 5*(opTimeout+time.Second) {
		t.Errorf("five operations on a down database took %v: more than their timeouts", d)
	}
	return errs
}

func TestPostgresUnavailableWhileTheServerIsDownAndAvailableAfterRestart(t *testing.T) {
	pg := pgtest.Start(t)
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, pg.NewDatabase(t), sqlstore.Options{OpTimeout: opTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	before := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", t0)
	if err := s.Put(ctx, before, investv1.AccountTypeIndividual); err != nil {
		t.Fatal(err)
	}

	pg.Stop(t)
	during := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000002", t0)
	expectUnavailable(t, s, during)

	pg.Restart(t)
	deadline := time.Now().Add(30 * time.Second)
	for s.Ping(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store does not answer after the server restarted")
		}
		time.Sleep(100 * time.Millisecond)
	}
	for op, err := range everyOperation(s, during) {
		if err != nil {
			t.Errorf("%s after the restart: %v", op, err)
		}
	}
	for _, o := range []*investv1.Order{before, during} {
		if _, err := s.Get(ctx, o.Namespace, o.Name); err != nil {
			t.Errorf("Get %s after the restart: %v", o.Name, err)
		}
	}
}

func TestPostgresUnavailableWhileTheServerHangsAndAvailableWhenItResumes(t *testing.T) {
	pg := pgtest.Start(t)
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, pg.NewDatabase(t), sqlstore.Options{OpTimeout: opTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	o := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", t0)
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	pg.Pause(t)
	for op, err := range expectUnavailable(t, s, o) {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s on a hanging server: %v does not say the deadline passed", op, err)
		}
	}
	pg.Resume(t)
	deadline := time.Now().Add(30 * time.Second)
	for s.Ping(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the store does not answer after the server resumed")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := s.Put(ctx, o, investv1.AccountTypeIndividual); err != nil {
		t.Fatalf("Put after the server resumed: %v", err)
	}
	if _, err := s.Get(ctx, o.Namespace, o.Name); err != nil {
		t.Fatalf("Get after the server resumed: %v", err)
	}
}

func TestPostgresOpenOfAServerThatNeverAnswersIsUnavailableWithinTheTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	go func() { // accept and never answer
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	const password = "s3cret-Passw0rd"
	_, err = sqlstore.Open(ctx, "postgres://archive:"+password+"@"+l.Addr().String()+"/archive?sslmode=disable",
		sqlstore.Options{OpTimeout: opTimeout})
	if !errors.Is(err, archive.ErrUnavailable) {
		t.Fatalf("Open of a silent server: got %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("Open of a silent server took %v", d)
	}
	if strings.Contains(err.Error(), password) {
		t.Fatalf("the error shows the password: %v", err)
	}
}

func TestSQLiteUnavailableWhileAnotherWriterHoldsTheDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "archive.db")
	s, err := sqlstore.Open(ctx, "sqlite://"+path, sqlstore.Options{OpTimeout: opTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	locker, err := sqlstore.Open(ctx, "sqlite://"+path, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = locker.Close() }()
	release := sqlstore.HoldWriteLock(t, locker)
	start := time.Now()
	o := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", t0)
	err = s.Put(ctx, o, investv1.AccountTypeIndividual)
	if !errors.Is(err, archive.ErrUnavailable) {
		t.Fatalf("Put while another process writes: got %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > opTimeout+2*time.Second {
		t.Fatalf("Put waited %v, more than its timeout", d)
	}
	release()
	if err := s.Put(ctx, o, investv1.AccountTypeIndividual); err != nil {
		t.Fatalf("Put after the other writer finished: %v", err)
	}
}

func TestSQLiteOpenOfAnUnwritableFolderFails(t *testing.T) {
	if os.Geteuid() == 0 {
		// root writes anywhere: use a path below a regular file instead.
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := sqlstore.Open(context.Background(), "sqlite://"+filepath.Join(f, "archive.db"), sqlstore.Options{}); err == nil {
			t.Fatal("Open below a regular file succeeded")
		}
		return
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlstore.Open(context.Background(), "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{}); err == nil {
		t.Fatal("Open in a read-only folder succeeded")
	}
}
