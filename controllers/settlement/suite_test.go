package settlement

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// The settlement suite runs the sandbox Reconciler in a manager against the real control
// plane. The manager only watches managedNS, so specs in other namespaces can call
// Reconcile directly without the manager racing them.
var (
	env       *envtest.Environment
	cfg       *rest.Config
	k8s       client.Client // direct, uncached
	ctx       context.Context
	stop      context.CancelFunc
	mgrDone   chan struct{}
	managedNS string
)

func TestSettlement(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Settlement suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx, stop = context.WithCancel(context.Background())

	env = controlplane.New(controlplane.Options{})
	var err error
	cfg, err = env.Start()
	Expect(err).NotTo(HaveOccurred())
	k8s, err = client.New(cfg, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())

	managedNS, err = controlplane.NewNamespace(ctx, k8s, "settlement")
	Expect(err).NotTo(HaveOccurred())

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  controlplane.Scheme(),
		Metrics: metricsserver.Options{BindAddress: "0"},
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{managedNS: {}}},
	})
	Expect(err).NotTo(HaveOccurred())
	r := &Reconciler{Client: mgr.GetClient(), Agent: &Sandbox{Name: "sandbox"}, Delay: 0, Name: "sandbox"}
	Expect(r.SetupWithManager(mgr)).To(Succeed())

	mgrDone = make(chan struct{})
	go func() {
		defer GinkgoRecover()
		defer close(mgrDone)
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
})

var _ = AfterSuite(func() {
	if stop != nil {
		stop()
	}
	if mgrDone != nil {
		Eventually(mgrDone, "30s").Should(BeClosed())
	}
	if env != nil {
		Expect(env.Stop()).To(Succeed())
	}
})
