package account_test

import (
	"context"
	"errors"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/internal/app"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// The account suite runs one real control plane (kube-apiserver + etcd) with the CRDs and
// the admission webhook configurations installed, and a manager built exactly as in
// production (app.NewManager + app.Setup with webhooks and controllers). Every assertion
// reads through k8s, a direct client that bypasses the manager's cache, so a spec sees what
// a kubectl user sees.
var (
	env *envtest.Environment
	cfg *rest.Config
	k8s client.Client // direct, uncached
	ctx context.Context

	mgr *runningManager
)

// Timeouts of Eventually/Consistently; the control plane runs on two shared cores.
const (
	settle  = 30 * time.Second
	poll    = 100 * time.Millisecond
	observe = 2 * time.Second
)

func TestAccount(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Account suite (envtest: admission webhooks + account controllers)")
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

	mgr = startManager(cfg)
})

var _ = AfterSuite(func() {
	if mgr != nil {
		mgr.Stop()
	}
	if env != nil {
		Expect(env.Stop()).To(Succeed())
	}
})

// runningManager is a started manager and the means to stop it.
type runningManager struct {
	ctrl.Manager
	config  *rest.Config
	cancel  context.CancelFunc
	done    chan error
	stopped bool
}

// startManager builds the manager the way cmd/manager and cmd/devrun do, with the webhook
// server on the address and certificates that envtest installed the webhook configurations
// for, and waits until the webhooks serve. RESTAddr is empty: no REST facade here.
func startManager(cfg *rest.Config) *runningManager {
	wio := env.WebhookInstallOptions
	skip := true
	m, err := app.NewManager(cfg, ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir,
		}),
		// The restart spec builds a second manager in this process; controller names are
		// registered globally for metrics.
		Controller: config.Controller{SkipNameValidation: &skip},
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(app.Setup(m, app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1})).To(Succeed())

	mctx, cancel := context.WithCancel(context.Background())
	rm := &runningManager{Manager: m, config: cfg, cancel: cancel, done: make(chan error, 1)}
	go func() {
		defer GinkgoRecover()
		rm.done <- m.Start(mctx)
	}()
	Eventually(func() error { return m.GetWebhookServer().StartedChecker()(nil) }, settle, poll).Should(Succeed())
	Expect(m.GetCache().WaitForCacheSync(mctx)).To(BeTrue())
	return rm
}

// Stop stops the manager and waits until it has released the webhook port.
func (m *runningManager) Stop() {
	if m.stopped {
		return
	}
	m.stopped = true
	m.cancel()
	var err error
	Eventually(m.done, settle).Should(Receive(&err))
	if err != nil && !errors.Is(err, context.Canceled) {
		Expect(err).NotTo(HaveOccurred())
	}
}

// ensureSuiteManager leaves the suite's manager running, whatever a spec did to it.
func ensureSuiteManager() {
	if mgr != nil && !mgr.stopped && mgr.config == cfg {
		return
	}
	if mgr != nil {
		mgr.Stop()
	}
	mgr = startManager(cfg)
}

// newNamespace gives every spec its own namespace (envtest has no garbage collector).
func newNamespace() string {
	ns, err := controlplane.NewNamespace(ctx, k8s, "acct")
	Expect(err).NotTo(HaveOccurred())
	_, err = fixtures.MakeTenant(ctx, k8s, ns)
	Expect(err).NotTo(HaveOccurred())
	return ns
}

// create creates obj through the API server (so admission answers) and fails the spec on
// error.
func create(obj client.Object) {
	GinkgoHelper()
	Expect(k8s.Create(ctx, obj)).To(Succeed())
}

// causes returns the field-level causes of an API error as field path → messages.
func causes(err error) map[string][]string {
	GinkgoHelper()
	var status apierrors.APIStatus
	Expect(errors.As(err, &status)).To(BeTrue(), "not an API status error: %v", err)
	out := map[string][]string{}
	if d := status.Status().Details; d != nil {
		for _, c := range d.Causes {
			out[c.Field] = append(out[c.Field], c.Message)
		}
	}
	return out
}

// reason returns the StatusReason of an API error.
func reason(err error) metav1.StatusReason { return apierrors.ReasonForError(err) }
