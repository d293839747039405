package notify_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

// Calls of the recorder that arrive together are one group: every event recorded once,
// fanned out once, and each call answered.
func TestConcurrentRecordsAreGroupedAndEachEventFansOutOnce(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws, _ := sqlstore.Webhooks(st)
	woken := 0
	var mu sync.Mutex
	rec := &notify.Recorder{Store: ws,
		Endpoints: func(context.Context) ([]notify.Endpoint, error) {
			return []notify.Endpoint{{UID: "ep", Namespace: "t"}}, nil
		},
		Wake: func() { mu.Lock(); woken++; mu.Unlock() }}
	const calls = 50
	var wg sync.WaitGroup
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := notify.Event{ID: fmt.Sprintf("evt_%02d", i), Namespace: "t", Type: notify.OrderPlaced, Subject: fmt.Sprint(i), Payload: []byte(`{}`)}
			// Every call twice: the second is remembered, or joins the same group.
			for range 2 {
				if err := rec.Record(ctx, fmt.Sprint("order/", i), []notify.Event{e}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	pending, err := ws.Pending(ctx, "ep", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != calls {
		t.Fatalf("%d deliveries, want %d: one per event", len(pending), calls)
	}
	mu.Lock()
	defer mu.Unlock()
	if woken == 0 || woken >= calls {
		t.Fatalf("the dispatcher was woken %d times for %d calls: want fewer groups than calls", woken, calls)
	}
}
