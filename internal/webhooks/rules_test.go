package webhooks

import (
	"strings"
	"testing"
)

// TestTenantKindsNeedExactlyOneApiClient is the pure rule of the tenancy webhook.
func TestTenantKindsNeedExactlyOneApiClient(t *testing.T) {
	if err := tenancyDecision("acme", []string{"integrator"}); err != nil {
		t.Fatalf("one ApiClient refused: %v", err)
	}
	err := tenancyDecision("default", nil)
	if err == nil || !strings.Contains(err.Error(), "namespace default is not a tenant: it has no ApiClient") ||
		!strings.Contains(err.Error(), "apply it before the tenant's objects") {
		t.Fatalf("no ApiClient: %v", err)
	}
	err = tenancyDecision("acme", []string{"a", "b"})
	if err == nil || !strings.Contains(err.Error(), "namespace acme has 2 ApiClients (a, b)") {
		t.Fatalf("two ApiClients: %v", err)
	}
}
