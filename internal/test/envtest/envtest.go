// Package envtest starts the project's envtest suites: one real control plane (kube-apiserver
// and etcd, internal/controlplane) with the CRDs and, when asked, the admission webhook
// configurations; a direct, uncached client that reads as a kubectl user does; and managers
// built as in production (given app.NewManager and app.Setup) or plain ones for a single
// reconciler. Every envtest suite starts here, as cluster-api's suites start in its
// internal/test/envtest. It imports envtest, Ginkgo and Gomega: only _test.go files may
// import it.
//
// Ginkgo suites call Start, StartManager and Stop, which fail the suite on error; suites with
// a TestMain or a single test call New, RunManager and Close, which return errors.
package envtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"
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

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Settle and Poll are the suites' usual Eventually timeout and polling interval; the
// control plane runs on two shared cores.
const (
	Settle = 30 * time.Second
	Poll   = 100 * time.Millisecond
)

// RunSuite runs the Ginkgo specs of the suite named name as the test t, Gomega's failures
// failing the spec: the whole body of every suite's TestX.
func RunSuite(t *testing.T, name string) bool {
	RegisterFailHandler(Fail)
	return RunSpecs(t, name)
}

// Timeouts for starting and stopping a manager; the control plane runs on two shared cores.
const (
	startTimeout = time.Minute
	stopTimeout  = time.Minute
	poll         = 50 * time.Millisecond
)

// Options chooses what a suite's environment runs.
type Options struct {
	// Webhooks installs the webhook configurations of config/webhook; the managers serve
	// them on the address and certificates envtest installed them for.
	Webhooks bool
	// CRDPaths are installed besides the project's CRDs (e.g. stand-ins of other operators').
	CRDPaths []string
	// KubeconfigUser, when set, adds an administrator (group system:masters) of that name and
	// writes its kubeconfig to Environment.Kubeconfig, for kubectl.
	KubeconfigUser string
	// Logger is the controller-runtime logger. Start defaults it to development mode on
	// GinkgoWriter; New leaves the logger alone when it is unset.
	Logger logr.Logger
	// Manager, when set, starts a manager right away; nil: the suite starts its own with
	// StartManager or RunManager (e.g. after creating the namespace the manager watches).
	Manager *ManagerOptions
}

// ManagerOptions chooses how a manager is built and what it runs.
type ManagerOptions struct {
	// New builds the manager: app.NewManager for one built as production does (this package
	// cannot import cmd/manager/app, which imports the controllers whose own tests use it).
	// Nil: a plain ctrl.NewManager with the project's scheme and field indexes (index.Register).
	New func(*rest.Config, ctrl.Options) (ctrl.Manager, error)
	// Options adjusts the manager's options (cache, leader election) before it is built.
	Options func(*ctrl.Options)
	// Setup registers webhooks, reconcilers or runnables before the manager starts, e.g.
	// app.Setup with the suite's app.Config.
	Setup func(ctrl.Manager) error
	// NoWebhookServer leaves the webhook server out of a manager that runs reconcilers only
	// next to the suite's manager, which serves the webhooks on the installed address.
	NoWebhookServer bool
	// SkipNameValidation lets a suite build more than one manager in the process (controller
	// names are registered globally for metrics).
	SkipNameValidation bool
	// NoCacheSync returns as soon as the manager runs, without waiting for its caches (a
	// leader-elected manager that is not the leader may not start them).
	NoCacheSync bool
}

// Environment is a started control plane, its direct client and the suite's manager.
type Environment struct {
	*crenvtest.Environment
	// Config reaches the API server as an administrator.
	Config *rest.Config
	// Client is direct and uncached: a spec sees what a kubectl user sees.
	Client client.Client
	// Kubeconfig is the path of the KubeconfigUser's kubeconfig, empty without one.
	Kubeconfig string
	// Manager is the manager of Options.Manager, or the one a suite stores here to have it
	// stopped by Stop/Close.
	Manager *Manager

	tmp   string
	suite *suite // Suite's, nil for an environment of Start or New
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

// Start starts the environment of opts and fails the suite on error. Call it from
// BeforeSuite and Stop from AfterSuite.
func Start(opts Options) *Environment {
	GinkgoHelper()
	e := &Environment{}
	e.mustStart(opts)
	return e
}

// mustStart is start that fails the suite on error, the logger defaulting to development
// mode on GinkgoWriter.
func (e *Environment) mustStart(opts Options) {
	GinkgoHelper()
	if opts.Logger.GetSink() == nil {
		opts.Logger = zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true))
	}
	Expect(e.start(opts)).To(Succeed())
}

// New starts the control plane, the direct client, the kubeconfig and, if asked, the
// manager. On error it stops what it started.
func New(opts Options) (*Environment, error) {
	e := &Environment{}
	if err := e.start(opts); err != nil {
		return nil, err
	}
	return e, nil
}

// start is New on an Environment that exists already (Suite's, which specs hold before
// the suite starts).
func (e *Environment) start(opts Options) (err error) {
	if opts.Logger.GetSink() != nil {
		logf.SetLogger(opts.Logger)
	}
	e.Environment = controlplane.New(controlplane.Options{Webhooks: opts.Webhooks})
	e.CRDDirectoryPaths = append(e.CRDDirectoryPaths, opts.CRDPaths...)
	if e.Config, err = e.Environment.Start(); err != nil { //nolint:staticcheck // named like e.Environment.Stop, which the outer Stop shadows
		return fmt.Errorf("start the control plane: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, e.Close())
		}
	}()
	if e.Client, err = client.New(e.Config, client.Options{Scheme: controlplane.Scheme()}); err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if opts.KubeconfigUser != "" {
		if err = e.writeKubeconfig(opts.KubeconfigUser); err != nil {
			return fmt.Errorf("kubeconfig: %w", err)
		}
	}
	if opts.Manager != nil {
		if e.Manager, err = e.RunManager(e.Config, *opts.Manager); err != nil {
			return fmt.Errorf("manager: %w", err)
		}
	}
	return nil
}

// Suite declares the environment of a Ginkgo suite, in the package-level declaration
//
//	var env, k8s, ctx = envtest.Suite(envtest.Options{...})
//
// and the suite's TestX calls env.Run. env and k8s (the environment's direct, uncached
// client) serve once the suite has started; ctx is the context of the suite's calls.
func Suite(opts Options) (*Environment, client.Client, context.Context) {
	e := &Environment{suite: &suite{opts: opts, client: &suiteClient{}}}
	return e, e.suite.client, context.Background()
}

// suite is what Suite declared and Run starts.
type suite struct {
	opts   Options
	client *suiteClient
}

// Run runs the Ginkgo specs of the suite named name as the test t, Gomega's failures
// failing the spec, in Suite's environment: before the first spec it starts the
// environment, then calls setup, if not nil (the suite's own start: a manager, a store, a
// chain), which may DeferCleanup what it starts; that is stopped after the last spec, and
// the environment last. A suite that runs with Run declares no BeforeSuite of its own
// (Ginkgo allows one).
func (e *Environment) Run(t *testing.T, name string, setup func()) bool {
	if e.suite == nil {
		t.Fatal("envtest: Run is for the environment of Suite")
	}
	BeforeSuite(func() {
		e.mustStart(e.suite.opts)
		DeferCleanup(e.Stop)
		e.suite.client.Client = e.Client
		if setup != nil {
			setup()
		}
	})
	return RunSuite(t, name)
}

// suiteClient is Suite's client, which specs hold from the start: it calls the
// environment's direct client, once BeforeSuite has made it.
type suiteClient struct{ client.Client }

func (e *Environment) writeKubeconfig(name string) error {
	user, err := e.ControlPlane.AddUser(crenvtest.User{Name: name, Groups: []string{"system:masters"}}, e.Config)
	if err != nil {
		return err
	}
	data, err := user.KubeConfig()
	if err != nil {
		return err
	}
	if e.tmp, err = os.MkdirTemp("", "fundshare-envtest-"); err != nil {
		return err
	}
	e.Kubeconfig = filepath.Join(e.tmp, "kubeconfig")
	return os.WriteFile(e.Kubeconfig, data, 0o600)
}

// NewNamespace is a new namespace named after prefix (controlplane.NewNamespace), for one
// spec: envtest has no garbage collector, so specs do not share namespaces. An error
// fails the spec.
func (e *Environment) NewNamespace(prefix string) string {
	GinkgoHelper()
	ns, err := controlplane.NewNamespace(context.Background(), e.Client, prefix)
	Expect(err).NotTo(HaveOccurred())
	return ns
}

// NewTenant is NewNamespace made a tenant of the facade (fixtures.MakeTenant), as an
// operator onboards an integrator.
func (e *Environment) NewTenant(prefix string) string {
	GinkgoHelper()
	ns := e.NewNamespace(prefix)
	_, err := fixtures.MakeTenant(context.Background(), e.Client, ns)
	Expect(err).NotTo(HaveOccurred())
	return ns
}

// NewCustomer creates in the tenant namespace ns an individual account with a wallet and
// payment method details, both made its primary ones, as an integrator onboards an
// investor who can place orders. An error fails the spec.
func (e *Environment) NewCustomer(ns string) (*investv1.Account, *investv1.Wallet, *investv1.PaymentMethodDetails) {
	GinkgoHelper()
	ctx := context.Background()
	a := fixtures.IndividualAccount(ns)
	Expect(e.Client.Create(ctx, a)).To(Succeed())
	w := fixtures.Wallet(ns, a.Name, fixtures.Address)
	Expect(e.Client.Create(ctx, w)).To(Succeed())
	p := fixtures.PaymentMethodDetails(ns, a.Name, fixtures.IBAN)
	Expect(e.Client.Create(ctx, p)).To(Succeed())
	patch := client.MergeFrom(a.DeepCopy())
	a.Spec.PrimaryWallet, a.Spec.PrimaryPaymentMethodDetails = w.Name, p.Name
	Expect(e.Client.Patch(ctx, a, patch)).To(Succeed())
	return a, w, p
}

// CompletedOrders is the number of the orders in ns that are COMPLETED.
func (e *Environment) CompletedOrders(ns string) int {
	GinkgoHelper()
	var list investv1.OrderList
	Expect(e.Client.List(context.Background(), &list, client.InNamespace(ns))).To(Succeed())
	n := 0
	for _, o := range list.Items {
		if o.Status.State == investv1.StateCompleted {
			n++
		}
	}
	return n
}

// Sample calls sample at once and then every interval, in a goroutine, until the returned
// stop is called; stop returns once the last call has. A failed assertion in sample fails
// the spec.
func Sample(interval time.Duration, sample func()) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer GinkgoRecover()
		defer close(finished)
		for {
			sample()
			select {
			case <-done:
				return
			case <-time.After(interval):
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// Race runs a(i) and b(i) at once for every i below n, each in a goroutine of its own
// (a failure in either fails the spec), and returns when all have returned: the two
// sides of n races, whose callers add the jitter that lets either side come first.
func Race(n int, a, b func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		for _, side := range []func(int){a, b} {
			wg.Go(func() {
				defer GinkgoRecover()
				side(i)
			})
		}
	}
	wg.Wait()
}

// NewISIN is a random valid ISIN (XS, nine digits, the check digit) for a share class a
// spec or a plain test creates. It needs no Gomega: crypto/rand does not fail, and the
// check digit of nine digits always exists, so either failing is a panic.
func NewISIN() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000_000))
	if err != nil {
		panic(err)
	}
	body := fmt.Sprintf("XS%09d", n)
	d, err := validation.ISINCheckDigit(body)
	if err != nil {
		panic(err)
	}
	return body + string(d)
}

// StartManager is RunManager that fails the suite on error.
func (e *Environment) StartManager(cfg *rest.Config, mo ManagerOptions) *Manager {
	GinkgoHelper()
	m, err := e.RunManager(cfg, mo)
	Expect(err).NotTo(HaveOccurred())
	return m
}

// RunManager builds a manager on cfg, starts it and waits until its webhooks (if the
// environment has them) serve and its caches are synced.
func (e *Environment) RunManager(cfg *rest.Config, mo ManagerOptions) (*Manager, error) {
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
	// The classic workqueue, as app.ClassicWorkqueue gives production managers: the pinned
	// controller-runtime's priority queue can deadlock on shutdown, and suites stop managers
	// on purpose (a killed agent) all the time.
	noPriorityQueue := false
	opts.Controller = config.Controller{UsePriorityQueue: &noPriorityQueue}
	if mo.SkipNameValidation {
		skip := true
		opts.Controller.SkipNameValidation = &skip
	}
	if mo.Options != nil {
		mo.Options(&opts)
	}
	newManager := mo.New
	if newManager == nil {
		newManager = ctrl.NewManager
	}
	m, err := newManager(cfg, opts)
	if err != nil {
		return nil, err
	}
	if mo.New == nil {
		// The field indexes every production manager has (app.Setup registers them):
		// the lifecycle's facts and the controllers' lookups read through them. A
		// custom New registers its own.
		if err := index.Register(context.Background(), m.GetFieldIndexer()); err != nil {
			return nil, err
		}
	}
	if mo.Setup != nil {
		if err := mo.Setup(m); err != nil {
			return nil, err
		}
	}

	mctx, cancel := context.WithCancel(context.Background())
	rm := &Manager{Manager: m, Config: cfg, cancel: cancel, done: make(chan error, 1)}
	go func() { rm.done <- m.Start(mctx) }()
	fail := func(err error) (*Manager, error) { return nil, errors.Join(err, rm.Close()) }
	deadline := time.Now().Add(startTimeout)
	for webhooks && m.GetWebhookServer().StartedChecker()(nil) != nil {
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("the webhook server did not start within %s", startTimeout))
		}
		time.Sleep(poll)
	}
	if !mo.NoCacheSync {
		syncCtx, syncCancel := context.WithTimeout(mctx, startTimeout)
		defer syncCancel()
		if !m.GetCache().WaitForCacheSync(syncCtx) {
			return fail(fmt.Errorf("the caches did not sync within %s", startTimeout))
		}
	}
	return rm, nil
}

// Stopped tells whether Stop or Close was called.
func (m *Manager) Stopped() bool { return m.stopped }

// Stop is Close that fails the spec on error.
func (m *Manager) Stop() {
	GinkgoHelper()
	Expect(m.Close()).To(Succeed())
}

// Close stops the manager and waits until it has returned (and released its ports). A
// manager stopped by its context returns no error; Close on a stopped or nil manager does
// nothing.
func (m *Manager) Close() error {
	if m == nil || m.stopped {
		return nil
	}
	m.stopped = true
	m.cancel()
	select {
	case err := <-m.done:
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("manager: %w", err)
		}
		return nil
	case <-time.After(stopTimeout):
		return fmt.Errorf("the manager did not stop within %s", stopTimeout)
	}
}

// Stop is Close that fails the suite on error.
func (e *Environment) Stop() {
	GinkgoHelper()
	Expect(e.Close()).To(Succeed())
}

// Close stops the manager, if any, and the control plane, and removes the kubeconfig.
func (e *Environment) Close() error {
	if e == nil {
		return nil
	}
	err := e.Manager.Close()
	if stopErr := e.Environment.Stop(); stopErr != nil {
		err = errors.Join(err, fmt.Errorf("stop the control plane: %w", stopErr))
	}
	if e.tmp != "" {
		err = errors.Join(err, os.RemoveAll(e.tmp))
	}
	return err
}
