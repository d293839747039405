package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

func TestWebhookCallsAreMeasuredWithTheirErrors(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	w, ok := Webhooks(s)
	if !ok {
		t.Fatal("no webhook store")
	}
	errs := func(op, kind string) float64 { return testutil.ToFloat64(opErrors.WithLabelValues("sqlite", op, kind)) }
	records, events, invalids, notFound := histogramCount(t, "webhook_record"), histogramCount(t, "webhook_event"),
		errs("webhook_pending", "invalid"), errs("webhook_event", "internal")+errs("webhook_event", "invalid")
	e := notify.Event{ID: "evt_1", Namespace: "tenant-a", Type: notify.OrderPlaced, Subject: "o", OccurredAt: time.Now()}
	if _, err := w.Record(ctx, []notify.Event{e}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Pending(ctx, "uid-a", 0); !errors.Is(err, notify.ErrInvalid) {
		t.Fatalf("want ErrInvalid, got %v", err)
	}
	if _, err := w.Event(ctx, "tenant-a", "evt_missing"); !errors.Is(err, notify.ErrNotFound) {
		t.Fatalf("want ErrNotFound, got %v", err)
	}
	if got := histogramCount(t, "webhook_record") - records; got != 1 {
		t.Errorf("webhook_record latency observed %d times, want 1", got)
	}
	if got := histogramCount(t, "webhook_event") - events; got != 1 {
		t.Errorf("webhook_event latency observed %d times, want 1", got)
	}
	if got := errs("webhook_pending", "invalid") - invalids; got != 1 {
		t.Errorf("invalid webhook_pending calls counted %v, want 1", got)
	}
	if got := errs("webhook_event", "internal") + errs("webhook_event", "invalid") - notFound; got != 0 {
		t.Errorf("a not-found webhook_event counted as an error")
	}
}

// seedWebhooks records events with deliveries to endpoints endpoints (a third of them
// delivered), and writes attempts attempts of ten times as many endpoints directly.
func seedWebhooks(t *testing.T, st *store, events, endpoints, attempts int) {
	t.Helper()
	ctx := context.Background()
	eps := make([]notify.Endpoint, endpoints)
	for i := range eps {
		eps[i] = notify.Endpoint{UID: fmt.Sprintf("uid-%d", i), Namespace: "tenant-a"}
	}
	base := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	batch := make([]notify.Event, 0, 500)
	for i := range events {
		batch = append(batch, notify.Event{ID: fmt.Sprintf("evt_%06d", i), Namespace: "tenant-a", Type: notify.OrderPlaced,
			Subject: fmt.Sprintf("order-%d", i%97), OccurredAt: base.Add(time.Duration(i) * time.Second), Payload: []byte(`{}`)})
		if len(batch) == cap(batch) || i == events-1 {
			if _, err := st.Record(ctx, batch, eps); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := st.db.Exec(st.dia.rebind(`UPDATE webhook_deliveries SET state = ? WHERE seq % 3 = 0`), stateSucceeded); err != nil {
		t.Fatal(err)
	}
	for start := 0; start < attempts; start += 500 {
		var q strings.Builder
		q.WriteString(`INSERT INTO webhook_attempts (endpoint_uid, event_id, event_type, number, at_unix_ms, status_code,
			latency_us, error, response_head, outcome, next_unix_ms) VALUES `)
		var args []any
		for i := start; i < min(start+500, attempts); i++ {
			if i > start {
				q.WriteString(", ")
			}
			q.WriteString(`(?, ?, 'order.placed', 1, ?, 200, 1000, ?, ?, 'succeeded', NULL)`)
			args = append(args, fmt.Sprintf("uid-%d", i%(10*endpoints)), fmt.Sprintf("evt_%06d", i%events),
				base.Add(time.Duration(i)*time.Second).UnixMilli(), []byte{}, []byte{})
		}
		if _, err := st.db.Exec(st.dia.rebind(q.String()), args...); err != nil {
			t.Fatal(err)
		}
	}
}

// webhookPlans returns the plan text of Pending and of each kind of Attempts page.
func webhookPlans(t *testing.T, st *store, explain string) map[string]string {
	t.Helper()
	out := map[string]string{}
	run := func(name, query string, args ...any) {
		rows, err := st.db.QueryContext(context.Background(), st.dia.rebind(explain+" "+query), args...)
		if err != nil {
			t.Fatalf("explain %s: %v", name, err)
		}
		defer func() { _ = rows.Close() }()
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		out[name] = strings.Join(lines, "\n")
	}
	run("Pending", pendingQuery, "uid-3", statePending, 100)
	cursor := encodeAttemptCursor(attemptPosition{atMs: time.Date(2026, 4, 1, 3, 0, 0, 0, time.UTC).UnixMilli(), id: 5000})
	for _, q := range []notify.AttemptQuery{
		{Limit: 50}, {Limit: 50, Cursor: cursor}, {Limit: 50, EventID: "evt_000003"}, {Limit: 50, EventID: "evt_000003", Cursor: cursor},
	} {
		query, args, err := attemptsQuery("uid-3", q)
		if err != nil {
			t.Fatal(err)
		}
		run(fmt.Sprintf("Attempts %+v", q), query, args...)
	}
	return out
}

func checkWebhookPlans(t *testing.T, plans map[string]string, require map[string]string, forbid ...string) {
	t.Helper()
	for name, plan := range plans {
		want := require["Attempts"]
		if name == "Pending" {
			want = require["Pending"]
		}
		ok := strings.Contains(plan, want)
		for _, f := range forbid {
			ok = ok && !strings.Contains(plan, f)
		}
		if !ok {
			t.Errorf("%s is not read through %s without sorting or scanning:\n%s", name, want, plan)
		}
	}
}

func TestSQLiteWebhookPagesReadThroughAnIndexWithoutSorting(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	st := s.(*instrumented).next.(*store)
	seedWebhooks(t, st, 2000, 10, 30000)
	// No ANALYZE, as in an embedded archive.
	checkWebhookPlans(t, webhookPlans(t, st, "EXPLAIN QUERY PLAN"),
		map[string]string{"Pending": "USING INDEX webhook_deliveries_pending", "Attempts": "USING INDEX webhook_attempts_"},
		"TEMP B-TREE", "SCAN webhook_deliveries", "SCAN webhook_attempts")
}

func TestPostgresWebhookPagesReadThroughAnIndexWithoutSorting(t *testing.T) {
	pg := pgtest.Start(t)
	s, err := Open(context.Background(), pg.NewDatabase(t), Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	st := s.(*instrumented).next.(*store)
	seedWebhooks(t, st, 2000, 10, 30000)
	if _, err := st.db.Exec(`ANALYZE webhook_events, webhook_deliveries, webhook_attempts`); err != nil {
		t.Fatal(err)
	}
	checkWebhookPlans(t, webhookPlans(t, st, "EXPLAIN"),
		map[string]string{"Pending": "webhook_deliveries_pending", "Attempts": "webhook_attempts_"}, "Sort", "Seq Scan")
}
