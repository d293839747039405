package apiclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/internal/app"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// The suite runs a real control plane with the webhook configurations installed and a
// manager built as in production (app.NewManager + app.Setup), and reads through k8s, a
// direct client, as a kubectl user would.
var (
	env    *envtest.Environment
	cfg    *rest.Config
	k8s    client.Client
	ctx    context.Context
	mgr    ctrl.Manager
	cancel context.CancelFunc
	done   = make(chan error, 1)
)

const (
	settle = 30 * time.Second
	poll   = 100 * time.Millisecond
)

func TestApiClient(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "ApiClient suite (envtest: tenancy admission + ApiClient controller)")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx = context.Background()
	env = controlplane.New(controlplane.Options{Webhooks: true})
	var err error
	cfg, err = env.Start()
	Expect(err).NotTo(HaveOccurred())
	k8s, err = client.New(cfg, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())

	wio := env.WebhookInstallOptions
	mgr, err = app.NewManager(cfg, ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer:          webhook.NewServer(webhook.Options{Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir}),
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(app.Setup(mgr, app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1})).To(Succeed())
	var mctx context.Context
	mctx, cancel = context.WithCancel(context.Background())
	go func() {
		defer GinkgoRecover()
		done <- mgr.Start(mctx)
	}()
	Eventually(func() error { return mgr.GetWebhookServer().StartedChecker()(nil) }, settle, poll).Should(Succeed())
	Expect(mgr.GetCache().WaitForCacheSync(mctx)).To(BeTrue())
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
		var err error
		Eventually(done, settle).Should(Receive(&err))
		if err != nil && !errors.Is(err, context.Canceled) {
			Expect(err).NotTo(HaveOccurred())
		}
	}
	if env != nil {
		Expect(env.Stop()).To(Succeed())
	}
})

// newNamespace is a fresh namespace that is not a tenant yet.
func newNamespace() string {
	GinkgoHelper()
	ns, err := controlplane.NewNamespace(ctx, k8s, "apic")
	Expect(err).NotTo(HaveOccurred())
	return ns
}
