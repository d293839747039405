package apiclient_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
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
	env = envtest.Start(envtest.Options{Webhooks: true, Manager: &envtest.ManagerOptions{
		New: app.NewManager,
		Setup: func(m ctrl.Manager) error {
			return app.Setup(m, app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1})
		},
	}})
	k8s, mgr = env.Client, env.Manager
})

var _ = AfterSuite(func() { env.Stop() })

// newNamespace is a fresh namespace that is not a tenant yet.
func newNamespace() string {
	GinkgoHelper()
	ns, err := controlplane.NewNamespace(ctx, k8s, "apic")
	Expect(err).NotTo(HaveOccurred())
	return ns
}
