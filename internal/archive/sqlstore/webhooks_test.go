package sqlstore_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/notifytest"
)

// webhooks opens the archive at dsn with opts and returns its webhook store, closed when
// the test ends.
func webhooks(t *testing.T, dsn string, opts sqlstore.Options) notify.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := sqlstore.Open(ctx, dsn, opts)
	if err != nil {
		t.Fatalf("open %s: %v", archive.RedactURL(dsn), err)
	}
	t.Cleanup(func() { _ = s.Close() })
	w, ok := sqlstore.Webhooks(s)
	if !ok {
		t.Fatal("the store Open returned has no webhook store")
	}
	return w
}

// opener opens stores on dsn, as the suite's replicas; a minute per call, as openStore.
func opener(dsn string) notifytest.Open {
	return func(t *testing.T) notify.Store { return webhooks(t, dsn, sqlstore.Options{OpTimeout: time.Minute}) }
}

func TestSQLiteWebhookConformance(t *testing.T) {
	notifytest.Run(t, func(t *testing.T) notifytest.Open { return opener(sqliteDSN(t)) })
}

func TestPostgresWebhookConformance(t *testing.T) {
	pg := pgtest.Start(t)
	notifytest.Run(t, func(t *testing.T) notifytest.Open { return opener(pg.NewDatabase(t)) })
}

// notAStore is an archive.Store of another implementation.
type notAStore struct{ archive.Store }

func TestWebhooksIsTheStoreOpenReturned(t *testing.T) {
	dsn := sqliteDSN(t)
	w := webhooks(t, dsn, sqlstore.Options{})
	e := notify.Event{ID: "evt_1", Namespace: "tenant-a", Type: notify.OrderPlaced, Subject: "o", OccurredAt: t0}
	if _, err := w.Record(context.Background(), []notify.Event{e}, nil); err != nil {
		t.Fatal(err)
	}
	// Another process reading the same file sees it, and a read-only one reads it.
	for _, opts := range []sqlstore.Options{{}, {ReadOnly: true}} {
		if _, err := webhooks(t, dsn, opts).Event(context.Background(), "tenant-a", "evt_1"); err != nil {
			t.Fatalf("Event through another store (%+v): %v", opts, err)
		}
	}
	if _, ok := sqlstore.Webhooks(notAStore{}); ok {
		t.Fatal("Webhooks of another archive.Store answered a webhook store")
	}
}

// everyWebhookOperation runs each webhook store call once, all at once, and returns its
// error by name.
func everyWebhookOperation(s notify.Store) map[string]error {
	ctx := context.Background()
	e := notify.Event{ID: "evt_down", Namespace: "tenant-a", Type: notify.OrderPlaced, Subject: "o", OccurredAt: t0}
	ep := notify.Endpoint{UID: "uid-a", Namespace: "tenant-a"}
	calls := map[string]func() error{
		"Record":  func() error { _, err := s.Record(ctx, []notify.Event{e}, []notify.Endpoint{ep}); return err },
		"Pending": func() error { _, err := s.Pending(ctx, ep.UID, 10); return err },
		"Attempted": func() error {
			return s.Attempted(ctx, notify.Attempt{EndpointUID: ep.UID, EventID: "evt_before", Number: 1, At: t0,
				Outcome: notify.Succeeded})
		},
		"Attempts": func() error { _, _, err := s.Attempts(ctx, ep.UID, notify.AttemptQuery{Limit: 10}); return err },
		"Replay": func() error {
			_, err := s.Replay(ctx, ep, notify.ReplayQuery{From: t0, To: t0.Add(time.Hour)})
			return err
		},
		"Event":  func() error { _, err := s.Event(ctx, "tenant-a", "evt_before"); return err },
		"Forget": func() error { return s.Forget(ctx, "uid-gone") },
		"Prune":  func() error { _, err := s.Prune(ctx, t0); return err },
	}
	errs := make(map[string]error, len(calls))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for op, call := range calls {
		wg.Go(func() {
			err := call()
			mu.Lock()
			errs[op] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return errs
}

// expectWebhooksUnavailable checks that every webhook call fails with ErrUnavailable
// within the operation timeout (and a margin), and returns the errors.
func expectWebhooksUnavailable(t *testing.T, s notify.Store) map[string]error {
	t.Helper()
	start := time.Now()
	errs := everyWebhookOperation(s)
	for op, err := range errs {
		if !errors.Is(err, notify.ErrUnavailable) {
			t.Errorf("%s while the database is down: got %v, want notify.ErrUnavailable", op, err)
		}
	}
	if d := time.Since(start); d > opTimeout+2*time.Second {
		t.Errorf("operations on a down database took %v: more than their timeout", d)
	}
	return errs
}

// recordBefore records the event evt_before with a delivery to uid-a.
func recordBefore(t *testing.T, s notify.Store) {
	t.Helper()
	e := notify.Event{ID: "evt_before", Namespace: "tenant-a", Type: notify.OrderPlaced, Subject: "o", OccurredAt: t0}
	if _, err := s.Record(context.Background(), []notify.Event{e}, []notify.Endpoint{{UID: "uid-a", Namespace: "tenant-a"}}); err != nil {
		t.Fatal(err)
	}
}

// expectWebhooksAnswer waits until the store answers again, then checks that every call
// succeeds.
func expectWebhooksAnswer(t *testing.T, s notify.Store) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := s.Pending(context.Background(), "uid-a", 1)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store does not answer after the database came back: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for op, err := range everyWebhookOperation(s) {
		if err != nil {
			t.Errorf("%s after the database came back: %v", op, err)
		}
	}
}

func TestPostgresWebhookStoreUnavailable(t *testing.T) {
	pg := pgtest.Start(t)
	t.Run("a database that is down answers ErrUnavailable", func(t *testing.T) {
		s := webhooks(t, pg.NewDatabase(t), sqlstore.Options{OpTimeout: opTimeout})
		recordBefore(t, s)
		pg.Stop(t)
		expectWebhooksUnavailable(t, s)
		pg.Restart(t)
		expectWebhooksAnswer(t, s)
	})
	t.Run("a database that hangs answers ErrUnavailable within the timeout", func(t *testing.T) {
		s := webhooks(t, pg.NewDatabase(t), sqlstore.Options{OpTimeout: opTimeout})
		recordBefore(t, s)
		pg.Pause(t)
		errs := expectWebhooksUnavailable(t, s)
		pg.Resume(t)
		for op, err := range errs {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s on a hanging server: %v does not say the deadline passed", op, err)
			}
		}
		expectWebhooksAnswer(t, s)
	})
}

func TestSQLiteWebhookWritesAreUnavailableWhileAnotherWriterHoldsTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "archive.db")
	s := webhooks(t, "sqlite://"+path, sqlstore.Options{OpTimeout: opTimeout})
	recordBefore(t, s)
	locker, err := sqlstore.Open(context.Background(), "sqlite://"+path, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = locker.Close() }()
	release := sqlstore.HoldWriteLock(t, locker)
	start := time.Now()
	errs := everyWebhookOperation(s)
	for _, op := range []string{"Record", "Attempted", "Replay", "Forget", "Prune"} {
		if !errors.Is(errs[op], notify.ErrUnavailable) {
			t.Errorf("%s while another process writes: got %v, want notify.ErrUnavailable", op, errs[op])
		}
	}
	// Readers of a WAL database do not wait for writers.
	for _, op := range []string{"Pending", "Attempts", "Event"} {
		if errs[op] != nil {
			t.Errorf("%s while another process writes: %v", op, errs[op])
		}
	}
	if d := time.Since(start); d > opTimeout+2*time.Second {
		t.Errorf("the writes waited %v, more than their timeout", d)
	}
	release()
	expectWebhooksAnswer(t, s)
}
