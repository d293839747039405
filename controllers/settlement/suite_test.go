package settlement

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The settlement suite runs the sandbox Reconcilers (money side, and the no-chain token
// side) in a manager against the real control
// plane. The manager only watches managedNS, so specs in other namespaces can call
// Reconcile directly without the manager racing them.
var (
	env       *envtest.Environment
	k8s       client.Client // direct, uncached
	ctx       = context.Background()
	managedNS string
)

func TestSettlement(t *testing.T) { envtest.RunSuite(t, "Settlement suite") }

var _ = BeforeSuite(func() {
	env = envtest.Start(envtest.Options{})
	k8s = env.Client

	managedNS = env.NewNamespace("settlement")

	env.Manager = env.StartManager(env.Config, envtest.ManagerOptions{
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{managedNS: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			return SetupSandbox(mgr, 0, true) // money side and the not-real token side

		},
	})
})

var _ = AfterSuite(func() { env.Stop() })
