package rules

import (
	"slices"
	"strings"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
)

// The CRD's enum of event types is the list REST and the dispatcher know.
func TestTheCRDsEventTypesAreTheEventTypes(t *testing.T) {
	spec := crdSpec(t, "invest.fundshare.io_webhookendpoints.yaml")
	var enum []string
	for _, v := range spec.Properties["eventTypes"].Items.Schema.Enum {
		enum = append(enum, strings.Trim(string(v.Raw), `"`))
	}
	var types []string
	for _, typ := range notify.Types() {
		types = append(types, string(typ))
	}
	slices.Sort(enum)
	slices.Sort(types)
	if !slices.Equal(enum, types) {
		t.Fatalf("CRD enum %v, notify.Types %v", enum, types)
	}
}

func TestAWebhookEndpointNeedsAPublicHTTPSURLAndKnownEventTypesOnce(t *testing.T) {
	ok := investv1.WebhookEndpointSpec{URL: "https://hooks.example.com/in", EventTypes: []investv1.WebhookEventType{"order.placed"}}
	if fe := WebhookEndpoint(&ok, egress.Options{}); !fe.Empty() {
		t.Fatalf("a valid endpoint refused: %v", fe)
	}
	bad := investv1.WebhookEndpointSpec{URL: "http://127.0.0.1:9000", EventTypes: []investv1.WebhookEventType{"order.placed", "order.placed", "order.shipped"},
		Description: "tab\there"}
	fe := WebhookEndpoint(&bad, egress.Options{})
	for _, field := range []string{"url", "event_types", "description"} {
		if len(fe[field]) == 0 {
			t.Errorf("%s not refused: %v", field, fe)
		}
	}
	if len(fe["event_types"]) != 2 {
		t.Errorf("event_types: %v; want the duplicate and the unknown type", fe["event_types"])
	}
	if fe := WebhookEndpoint(&investv1.WebhookEndpointSpec{URL: "http://127.0.0.1:9000"}, egress.Options{AllowLoopbackHTTP: true}); !fe.Empty() {
		t.Errorf("loopback http with the allowance refused: %v", fe)
	}
}
