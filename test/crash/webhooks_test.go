package crash

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

// hookLog is an integrator's webhook receiver on 127.0.0.1: it answers 204 to every
// delivery and keeps, per webhook-id, how often it came, and per event (its type and
// data) the webhook-id it came under.
type hookLog struct {
	srv     *httptest.Server
	mu      sync.Mutex
	arrived map[string]int    // webhook-id -> deliveries
	idOf    map[string]string // type and data -> webhook-id
	twoIDs  []string          // events that came under a second id
}

func newHookLog(t *testing.T) *hookLog {
	h := &hookLog{arrived: map[string]int{}, idOf: map[string]string{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		_ = json.Unmarshal(body, &p)
		data, _ := json.Marshal(p.Data)
		id, key := r.Header.Get("webhook-id"), p.Type+" "+string(data)
		h.mu.Lock()
		h.arrived[id]++
		if first, ok := h.idOf[key]; ok && first != id {
			h.twoIDs = append(h.twoIDs, fmt.Sprintf("%s under %s and %s", key, first, id))
		} else {
			h.idOf[key] = id
		}
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// missing are the ids of want that have not arrived; repeated counts the deliveries of
// an id after its first (at least once: a delivery made but not recorded before a kill is
// made again).
func (h *hookLog) missing(want []string) (missing []string, repeated int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range want {
		if h.arrived[id] == 0 {
			missing = append(missing, id)
		}
	}
	for _, n := range h.arrived {
		repeated += n - 1
	}
	return missing, repeated
}

// subscribe makes a webhook endpoint of the demo tenant for h, subscribed to every event,
// through REST as an integrator would, and waits until the manager took it on (its
// finalizer): events recorded from then on are its.
func (a *restAPI) subscribe(t *testing.T, c client.Client, h *hookLog) {
	t.Helper()
	out := a.must(http.MethodPost, "/v1/webhook-endpoints", map[string]any{"url": h.srv.URL + "/hooks", "description": "crash test"}, http.StatusCreated)
	ep := &investv1.WebhookEndpoint{}
	key := client.ObjectKey{Namespace: devdata.DemoNamespace, Name: out["id"].(string)}
	for end := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if err := c.Get(context.Background(), key, ep); err == nil && slices.Contains(ep.Finalizers, investv1.WebhookEndpointFinalizer) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("webhook endpoint %s not taken on within a minute", key.Name)
		}
	}
	time.Sleep(time.Second) // the ingest's cache of endpoints follows the same watch
}

// checkWebhooks waits until every state every order of the demo tenant entered arrived at
// h under its event's id, and checks that no event came under two ids.
func checkWebhooks(t *testing.T, c client.Client, h *hookLog) {
	t.Helper()
	var want []string
	for _, o := range orders(t, c) {
		for _, e := range notify.OrderEvents(&o, time.Time{}) {
			if e.Type != notify.OrderStalled {
				want = append(want, e.ID)
			}
		}
	}
	var missing []string
	var repeated int
	for end := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Second) {
		if missing, repeated = h.missing(want); len(missing) == 0 || time.Now().After(end) {
			break
		}
	}
	if len(missing) > 0 {
		t.Errorf("webhooks: %d of the orders' %d events never arrived, e.g. %v", len(missing), len(want), missing[:min(5, len(missing))])
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.twoIDs) > 0 {
		t.Errorf("webhooks: events sent under two ids: %v", h.twoIDs)
	}
	t.Logf("webhooks: %d order events, every one arrived; %d deliveries repeated an id already received (at least once)", len(want), repeated)
}
