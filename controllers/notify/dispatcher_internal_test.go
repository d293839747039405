package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
)

// An endpoint admitted under other options (or while admission was off) is checked again
// before every request: production sends nothing to a URL its rule refuses.
func TestTheDispatcherChecksTheURLRuleBeforeEveryRequest(t *testing.T) {
	w := &worker{d: &Dispatcher{HTTP: egress.NewClient(egress.Options{}), Egress: egress.Options{}}}
	ep := &investv1.WebhookEndpoint{Spec: investv1.WebhookEndpointSpec{URL: "http://127.0.0.1:9/hooks", SecretRef: investv1.LocalSecretReference{Name: "s"}}}
	_, err := w.send(context.Background(), ep, notify.Event{ID: "evt_x", Payload: []byte(`{}`)}, time.Now())
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("send to a loopback http URL without the allowance: %v", err)
	}
}
