package apiclient_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The suite runs a real control plane with the webhook configurations installed and a
// manager built as in production (app.NewManager + app.Setup), and reads through k8s, a
// direct client, as a kubectl user would.
var (
	env *envtest.Environment
	k8s client.Client
	ctx = context.Background()
	mgr *envtest.Manager
)

const settle, poll = envtest.Settle, envtest.Poll

func TestApiClient(t *testing.T) {
	envtest.RunSuite(t, "ApiClient suite (envtest: tenancy admission + ApiClient controller)")
}

var _ = BeforeSuite(func() {
	mo := apptest.Manager(apptest.WebhooksAndControllers)
	env = envtest.Start(envtest.Options{Webhooks: true, Manager: &mo})
	k8s, mgr = env.Client, env.Manager
})

var _ = AfterSuite(func() { env.Stop() })

// newNamespace is a fresh namespace that is not a tenant yet.
func newNamespace() string { return env.NewNamespace("apic") }
