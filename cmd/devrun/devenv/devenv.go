// Package devenv starts the whole service on one machine, as `make run` does: the local
// control plane (internal/controlplane; etcd's data kept in <local dir>/etcd with fsync
// on, processes a killed earlier run left behind stopped first), the CRDs and webhooks,
// the manager with the REST facade and the sandbox settlement agent, the sample
// catalogue and the demo tenant. cmd/devrun is its command line; the executable-guide
// test (test/guides) starts the same environment in a temporary folder.
//
// It imports the envtest-based control plane, so only cmd/devrun and tests may import it.
package devenv

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/fundshare/fundshare-operator/internal/localport"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// Options are the settings of a run; the zero value of each field means the `make run`
// default.
type Options struct {
	// RESTAddr is the REST facade's listen address (default 127.0.0.1:8080).
	RESTAddr string
	// RESTAccessLog logs every REST request at info level (app.Config.RESTAccessLog).
	RESTAccessLog bool
	// MetricsAddr is where the manager serves /metrics (default: a free port on
	// 127.0.0.1, printed when it is up).
	MetricsAddr string
	// PublicBaseURL is the public base URL (default http://<RESTAddr>).
	PublicBaseURL string
	// LocalDir holds etcd's data, the kubeconfig and the demo credentials (default .local).
	LocalDir string
	// SandboxSettlementDelay is the delay of each sandbox settlement step; negative: off.
	SandboxSettlementDelay time.Duration
	// Out receives the progress lines (default os.Stdout).
	Out io.Writer
	// ArchiveDSN is the order archive (internal/archive); empty: an SQLite file in LocalDir.
	ArchiveDSN string
	// OrderRetention is how long a done order stays in the cluster before it moves to the
	// archive; 0 or negative: orders stay.
	OrderRetention time.Duration
	// ChainRPCPort is the local EVM chain's JSON-RPC port on 127.0.0.1 (default
	// localchain.DefaultPort, 8545); ChainBlockInterval the time between its blocks (default
	// localchain.DefaultBlockInterval).
	ChainRPCPort       int
	ChainBlockInterval time.Duration
	// LedgerReconcileInterval is how often on-chain balances are compared with holdings
	// (the manager's --ledger-reconcile-interval; 0: its default, 1m; negative: off).
	LedgerReconcileInterval time.Duration
	// SkipControllerNameValidation lets a process run more than one environment (tests):
	// controller-runtime refuses a second controller of the same name in a process.
	SkipControllerNameValidation bool
}

// DefaultRESTAddr and DefaultSandboxSettlementDelay are the defaults of `make run`.
const (
	DefaultRESTAddr               = "127.0.0.1:8080"
	DefaultSandboxSettlementDelay = 3 * time.Second
)

// Env is a running environment.
type Env struct {
	// LocalDir is the absolute local folder; Kubeconfig is LocalDir/kubeconfig, a
	// system:masters user's kubeconfig.
	LocalDir, Kubeconfig string
	// ArchiveDSN is the order archive the manager uses (a password in it is never printed:
	// show it with archive.ParseDSN(...).String()); OrderRetention its retention.
	ArchiveDSN     string
	OrderRetention time.Duration
	// Chain is the local EVM chain (its RPCURL, ChainID, Registry and Tokens; also in
	// LocalDir/chain.json).
	Chain localchain.Info
	// Credentials are the demo tenant's (also in LocalDir/demo-client.json).
	Credentials devdata.Credentials
	// Config reaches the API server as the control plane's admin.
	Config *rest.Config
	// MetricsURL is where the manager's Prometheus metrics are, e.g.
	// http://127.0.0.1:41234/metrics.
	MetricsURL string
	// BankFolder is the bank connector's folder (<local dir>/bank): drop camt.053 and
	// camt.054 files into its inbox/ (docs/bank.md). SandboxBank says the sandbox bank
	// pays waiting BUYs through it (the sandbox settlement is on).
	BankFolder  string
	SandboxBank bool

	local   *controlplane.Local
	chain   *localchain.Chain
	archive archive.Store
	cancel  context.CancelFunc
	errc    chan error
	out     io.Writer
}

// Start starts everything and returns once the catalogue and the demo tenant are loaded
// and the REST facade serves. The manager runs until ctx ends or Stop is called; Wait
// then stops the control plane (keeping the data). On an error everything started is
// stopped again.
func Start(ctx context.Context, o Options) (_ *Env, err error) {
	if o.RESTAddr == "" {
		o.RESTAddr = DefaultRESTAddr
	}
	if o.PublicBaseURL == "" {
		o.PublicBaseURL = "http://" + o.RESTAddr
	}
	if o.LocalDir == "" {
		o.LocalDir = ".local"
	}
	if o.Out == nil {
		o.Out = os.Stdout
	}
	u, err := url.Parse(o.PublicBaseURL)
	if err != nil {
		return nil, fmt.Errorf("public base URL: %w", err)
	}
	localDir, err := filepath.Abs(o.LocalDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(localDir, 0o700); err != nil {
		return nil, err
	}
	if ln, err := net.Listen("tcp", o.RESTAddr); err != nil {
		return nil, fmt.Errorf("REST address %s is taken (is another `make run` running?): %w", o.RESTAddr, err)
	} else {
		_ = ln.Close()
	}

	_, _ = fmt.Fprintln(o.Out, "starting the local control plane (kube-apiserver v1.36.3, etcd with fsync; data in "+Rel(localDir)+"/etcd)")
	// StartLocal first stops an etcd and kube-apiserver that a killed earlier run left
	// running on this folder (their pids are in <local dir>/controlplane.pids).
	local, err := controlplane.StartLocal(localDir, controlplane.Options{Webhooks: true})
	if err != nil {
		return nil, fmt.Errorf("start control plane: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	e := &Env{
		LocalDir: localDir, Kubeconfig: filepath.Join(localDir, "kubeconfig"), Config: local.Config,
		local: local, cancel: cancel, errc: make(chan error, 1), out: o.Out,
	}
	started := false
	defer func() {
		if err != nil {
			cancel()
			if started {
				if mgrErr := <-e.errc; mgrErr != nil && !errors.Is(mgrErr, context.Canceled) {
					err = errors.Join(err, mgrErr)
				}
			}
			err = errors.Join(err, e.stopControlPlane())
		}
	}()
	if err := writeKubeconfig(local.Env, local.Config, e.Kubeconfig); err != nil {
		return nil, err
	}
	c, err := client.New(local.Config, client.Options{Scheme: scheme.New()})
	if err != nil {
		return nil, err
	}
	if err := devdata.EnsureNamespace(ctx, c, devdata.OperatorNamespace); err != nil {
		return nil, err
	}
	// The local chain (kept in <local dir>/chain like etcd's data; see docs/tokens.md).
	if o.ChainRPCPort == 0 {
		o.ChainRPCPort = localchain.DefaultPort
	}
	if o.ChainBlockInterval == 0 {
		o.ChainBlockInterval = localchain.DefaultBlockInterval
	}
	e.chain, err = devdata.StartLocalChain(ctx, c, devdata.LocalChainConfig{
		LocalDir: localDir, Catalogue: filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml"),
		Port: o.ChainRPCPort, BlockInterval: o.ChainBlockInterval,
	})
	if err != nil {
		return nil, fmt.Errorf("local chain: %w", err)
	}
	e.Chain = e.chain.Info
	_, _ = fmt.Fprintf(o.Out, "local chain: JSON-RPC %s, chain id %d (contracts in %s/chain.json)\n", e.Chain.RPCURL, e.Chain.ChainID, Rel(localDir))
	wio := local.Env.WebhookInstallOptions
	metricsAddr := o.MetricsAddr
	if metricsAddr == "" {
		if metricsAddr, err = freeLoopbackAddr(); err != nil {
			return nil, fmt.Errorf("metrics address: %w", err)
		}
	}
	e.MetricsURL = "http://" + metricsAddr + "/metrics"
	mgr, err := app.NewManager(local.Config, ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		Controller:             config.Controller{SkipNameValidation: ptr.To(o.SkipControllerNameValidation)},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir,
			// HTTP/1.1 only, as cmd/manager serves it by default (--enable-http2=false).
			TLSOpts: []func(*tls.Config){func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }},
		}),
	})
	if err != nil {
		return nil, err
	}
	dsn := o.ArchiveDSN
	if dsn == "" {
		dsn = "sqlite://" + filepath.Join(localDir, "archive.db")
	}
	e.ArchiveDSN, e.OrderRetention = dsn, o.OrderRetention
	e.BankFolder, e.SandboxBank = filepath.Join(localDir, "bank"), o.SandboxSettlementDelay >= 0
	if e.archive, err = sqlstore.Open(ctx, dsn, sqlstore.Options{}); err != nil {
		return nil, fmt.Errorf("open the order archive: %w", err)
	}
	if err := app.Setup(mgr, app.Config{
		RESTAddr: o.RESTAddr, PublicBaseURL: o.PublicBaseURL, Namespace: devdata.OperatorNamespace,
		SigningKeySecret: "fundshare-jwt-signing-key", Webhooks: true, Controllers: true,
		SandboxSettlement: o.SandboxSettlementDelay, Archive: e.archive, OrderRetention: o.OrderRetention,
		RESTAccessLog: o.RESTAccessLog,
		// Payments go through the bank's path (docs/bank.md): the sandbox bank pays every
		// waiting BUY with a camt.054 in <local dir>/bank/inbox, which the ingestion reads.
		BankFolder: e.BankFolder, BankPollInterval: time.Second, SandboxBank: e.SandboxBank,
		// Webhook receivers of a local run listen on 127.0.0.1 (docs/webhooks.md).
		WebhookEgress: egress.Options{AllowLoopbackHTTP: true},
		Chain:         agent.Options{RPCURL: e.Chain.RPCURL, ChainID: e.Chain.ChainID, SignerSecret: devdata.ChainSignerSecret, Confirmations: 3},
		Token:         token.Options{Registry: e.Chain.Registry.Hex(), LedgerInterval: cmp.Or(o.LedgerReconcileInterval, time.Minute)},
	}); err != nil {
		return nil, err
	}
	go func() { e.errc <- mgr.Start(ctx) }()
	started = true
	// The samples pass through the admission webhooks: wait until they serve.
	if err := e.waitFor(ctx, func() bool { return mgr.GetWebhookServer().StartedChecker()(nil) == nil }); err != nil {
		return nil, err
	}
	if err := devdata.ApplyFile(ctx, c, filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml")); err != nil {
		return nil, fmt.Errorf("load sample catalogue: %w", err)
	}
	if differing, err := devdata.AdoptLocalTokens(ctx, c, e.Chain.Tokens); err != nil {
		return nil, err
	} else if len(differing) > 0 {
		_, _ = fmt.Fprintf(o.Out, "warning: share classes %v keep a token the local chain does not have (make clean-local starts afresh)\n", differing)
	}
	e.Credentials, err = devdata.EnsureDemoTenant(ctx, c, filepath.Join(localDir, "demo-client.json"), o.PublicBaseURL, u.Hostname())
	if err != nil {
		return nil, fmt.Errorf("demo tenant: %w", err)
	}
	// The REST facade is served by the manager: wait until it answers, and until it issues
	// the demo client a token (its cache may not hold the client's new secret yet), so
	// that "running" means a reader of the README can log in at once.
	if err := e.waitFor(ctx, func() bool { return serves(o.RESTAddr) && issuesToken(o.RESTAddr, e.Credentials) }); err != nil {
		return nil, err
	}
	// The REST facade answers from the manager's cache: "running" also means it holds the
	// catalogue as stored (a loaded machine served the share classes while the NAV
	// histories' watch was still behind, and a first price read said none was published).
	if err := e.waitFor(ctx, func() bool { return cached(ctx, c, mgr.GetCache()) }); err != nil {
		return nil, err
	}
	return e, nil
}

// cached says whether reader holds every fund, share class and NAV history the API server
// has, each with the spec the API server has (its generation; their statuses change on
// their own).
func cached(ctx context.Context, live client.Reader, reader client.Reader) bool {
	for _, pair := range []struct{ live, cache client.ObjectList }{
		{&investv1.FundList{}, &investv1.FundList{}},
		{&investv1.ShareClassList{}, &investv1.ShareClassList{}},
		{&investv1.NAVHistoryList{}, &investv1.NAVHistoryList{}},
	} {
		if live.List(ctx, pair.live) != nil || reader.List(ctx, pair.cache) != nil {
			return false
		}
		have := map[string]int64{}
		_ = meta.EachListItem(pair.cache, func(o runtime.Object) error {
			m := o.(client.Object)
			have[m.GetName()] = m.GetGeneration()
			return nil
		})
		missing := meta.EachListItem(pair.live, func(o runtime.Object) error {
			if m := o.(client.Object); have[m.GetName()] != m.GetGeneration() {
				return errNotCached
			}
			return nil
		})
		if missing != nil {
			return false
		}
	}
	return true
}

var errNotCached = errors.New("not cached yet")

// Stop ends the manager (as ctx ending does); Wait then returns.
func (e *Env) Stop() { e.cancel() }

// Wait blocks until the manager has stopped, then stops the control plane (its data stays
// in LocalDir). A manager stopped by its context is a clean end (nil).
func (e *Env) Wait() error {
	err := <-e.errc
	e.cancel()
	if stopErr := e.stopControlPlane(); err == nil || errors.Is(err, context.Canceled) {
		err = stopErr
	}
	return err
}

func (e *Env) stopControlPlane() error {
	var errs []error
	if e.chain != nil {
		if err := e.chain.Close(); err != nil {
			errs = append(errs, fmt.Errorf("stop the local chain: %w", err))
		}
	}
	if e.archive != nil {
		if err := e.archive.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close the order archive: %w", err))
		}
	}
	_, _ = fmt.Fprintln(e.out, "stopping the control plane (data kept in "+Rel(e.LocalDir)+")")
	if err := e.local.Stop(); err != nil {
		errs = append(errs, fmt.Errorf("stop control plane: %w", err))
	}
	return errors.Join(errs...)
}

func writeKubeconfig(env *envtest.Environment, cfg *rest.Config, path string) error {
	user, err := env.ControlPlane.AddUser(envtest.User{Name: "local-admin", Groups: []string{"system:masters"}}, cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig user: %w", err)
	}
	data, err := user.KubeConfig()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// issuesToken reports whether the REST facade on addr issues creds an access token (the
// client-credentials grant, as docs/rest-api.md requests it).
func issuesToken(addr string, creds devdata.Credentials) bool {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {creds.ClientID},
		"client_secret": {creds.ClientSecret}, "audience": {creds.Audience}, "scope": {"openid offline"}}
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.PostForm("http://"+addr+"/oauth2/token", form)
	if err != nil {
		return false
	}
	defer func() { _ = resp.Body.Close() }()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	return resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&tok) == nil && tok.AccessToken != ""
}

// serves reports whether something accepts connections on addr.
func serves(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	_ = conn.Close()
	return true
}

// waitFor polls ready until it holds, the manager fails, or ctx ends.
func (e *Env) waitFor(ctx context.Context, ready func() bool) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-e.errc:
			e.errc <- err // Wait and the error path read it again
			return fmt.Errorf("manager stopped: %w", err)
		case <-tick.C:
		}
	}
	return nil
}

// Rel is p relative to the working directory when it can be (for messages).
func Rel(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

// freeLoopbackAddr is a 127.0.0.1 address whose port was free a moment ago, below the
// kernel's ephemeral range so that no connection takes it before the manager binds it
// next (the metrics server's own ":0" would not say where it listens).
func freeLoopbackAddr() (string, error) { return localport.FreeAddr() }
