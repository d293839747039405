// Package envtest starts the project's envtest suites: one real control plane (kube-apiserver
// and etcd, internal/controlplane) with the CRDs and, when asked, the admission webhook
// configurations, an uncached client that reads as a kubectl user does, and a manager built
// as in production (given app.NewManager and app.Setup) or a plain one for a single reconciler.
// Every suite starts through Start, as cluster-api's internal/test/envtest does. It imports
// envtest and Gomega, so only _test.go files may import it.
package envtest

import (
	"context"
	"errors"
	"time"

	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive,staticcheck // the suites' own idiom
	. "github.com/onsi/gomega"    //nolint:revive,staticcheck // the suites' own idiom
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	crenvtest "sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// Timeouts for starting and stopping a manager; the control plane runs on two shared cores.
const (
	settle = 30 * time.Second
	poll   = 100 * time.Millisecond
)

// Options chooses what a suite's environment runs.
type Options struct {
	// Webhooks installs the webhook configurations of config/webhook and serves the
	// manager's webhook server on the address and certificates envtest installed them for.
	Webhooks bool
	// Logger replaces the default logger (development mode, to GinkgoWriter), e.g. one that
	// also captures the run's logs.
	Logger logr.Logger
	// Manager, when set, starts a manager right away; nil: the suite starts one itself with
	// Environment.StartManager (e.g. after creating the namespace the manager watches).
	Manager *ManagerOptions
}

// ManagerOptions chooses how a manager is built and what it runs.
type ManagerOptions struct {
	// New builds the manager: app.NewManager for one built as production does (this package
	// cannot import internal/app, which imports the controllers whose own tests use it).
	// Nil: a plain ctrl.NewManager with the project's scheme.
	New func(*rest.Config, ctrl.Options) (ctrl.Manager, error)
	// Options adjusts the manager's options (cache, controller settings) before it is built.
	Options func(*ctrl.Options)
	// Setup registers webhooks, reconcilers or runnables before the manager starts, e.g.
	// app.Setup with the suite's app.Config.
	Setup func(ctrl.Manager) error
	// NoWebhookServer leaves the webhook server out of a manager that runs reconcilers only
	// next to the suite's manager, which serves the webhooks on the installed address.
	NoWebhookServer bool
	// SkipNameValidation lets a suite build a second manager in the process (controller
	// names are registered globally for metrics).
	SkipNameValidation bool
}

// Environment is a started control plane, its direct client and the suite's manager.
type Environment struct {
	*crenvtest.Environment
	// Config reaches the API server as an administrator.
	Config *rest.Config
	// Client is direct and uncached: a spec sees what a kubectl user sees.
	Client client.Client
	// Manager is the manager of Options.Manager, nil if none was asked for.
	Manager *Manager
}

// Manager is a started manager and the means to stop it.
type Manager struct {
	ctrl.Manager
	// Config is the rest config the manager was built with.
	Config  *rest.Config
	cancel  context.CancelFunc
	done    chan error
	stopped bool
}

// Start starts the control plane, the direct client and, if asked, the manager; it fails
// the suite on error. Call it from BeforeSuite and Stop from AfterSuite.
func Start(opts Options) *Environment {
	GinkgoHelper()
	if opts.Logger.GetSink() != nil {
		logf.SetLogger(opts.Logger)
	} else {
		logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	}
	e := &Environment{Environment: controlplane.New(controlplane.Options{Webhooks: opts.Webhooks})}
	var err error
	e.Config, err = e.Environment.Start()
	Expect(err).NotTo(HaveOccurred())
	e.Client, err = client.New(e.Config, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	if opts.Manager != nil {
		e.Manager = e.StartManager(e.Config, *opts.Manager)
	}
	return e
}

// StartManager builds a manager on cfg, starts it and waits until its webhooks (if the
// environment has them) serve and its cache is synced.
func (e *Environment) StartManager(cfg *rest.Config, mo ManagerOptions) *Manager {
	GinkgoHelper()
	webhooks := len(e.WebhookInstallOptions.Paths) > 0 && !mo.NoWebhookServer
	opts := ctrl.Options{
		Scheme:                 controlplane.Scheme(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	}
	if webhooks {
		wio := e.WebhookInstallOptions
		opts.WebhookServer = webhook.NewServer(webhook.Options{
			Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir,
		})
	}
	if mo.SkipNameValidation {
		skip := true
		opts.Controller = config.Controller{SkipNameValidation: &skip}
	}
	if mo.Options != nil {
		mo.Options(&opts)
	}
	newManager := mo.New
	if newManager == nil {
		newManager = ctrl.NewManager
	}
	m, err := newManager(cfg, opts)
	Expect(err).NotTo(HaveOccurred())
	if mo.Setup != nil {
		Expect(mo.Setup(m)).To(Succeed())
	}

	mctx, cancel := context.WithCancel(context.Background())
	rm := &Manager{Manager: m, Config: cfg, cancel: cancel, done: make(chan error, 1)}
	go func() {
		defer GinkgoRecover()
		rm.done <- m.Start(mctx)
	}()
	if webhooks {
		Eventually(func() error { return m.GetWebhookServer().StartedChecker()(nil) }, settle, poll).Should(Succeed())
	}
	Expect(m.GetCache().WaitForCacheSync(mctx)).To(BeTrue())
	return rm
}

// Stopped tells whether Stop was called.
func (m *Manager) Stopped() bool { return m.stopped }

// Stop stops the manager and waits until it has returned (and released its ports).
func (m *Manager) Stop() {
	GinkgoHelper()
	if m == nil || m.stopped {
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

// Stop stops the manager, if any, and the control plane.
func (e *Environment) Stop() {
	GinkgoHelper()
	if e == nil {
		return
	}
	e.Manager.Stop()
	Expect(e.Environment.Stop()).To(Succeed())
}
