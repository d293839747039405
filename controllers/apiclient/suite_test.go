package apiclient_test

import (
	"testing"

	"k8s.io/utils/ptr"

	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The suite runs a real control plane with the webhook configurations installed and a
// manager built as in production (app.NewManager + app.Setup), and reads through k8s, a
// direct client, as a kubectl user would.
var env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true, Manager: ptr.To(apptest.Manager(apptest.WebhooksAndControllers))})

const settle, poll = envtest.Settle, envtest.Poll

func TestApiClient(t *testing.T) {
	env.Run(t, "ApiClient suite (envtest: tenancy admission + ApiClient controller)", nil)
}

// newNamespace is a fresh namespace that is not a tenant yet.
func newNamespace() string { return env.NewNamespace("apic") }
