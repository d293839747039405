package settlement

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The settlement suite runs the sandbox Reconcilers (money side, and the no-chain token
// side) in a manager against the real control plane. The manager only watches managedNS,
// so specs in other namespaces can call Reconcile directly without the manager racing
// them.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{})
	managedNS     string
)

func TestSettlement(t *testing.T) { env.Run(t, "Settlement suite", startSandbox) }

// startSandbox starts a manager that watches managedNS only and runs the sandbox agents.
func startSandbox() {
	GinkgoHelper()
	managedNS = env.NewNamespace("settlement")

	env.Manager = env.StartManager(env.Config, envtest.ManagerOptions{
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{managedNS: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			return SetupSandbox(mgr, 0, true) // money side and the not-real token side
		},
	})
}
