// Command devrun is `make run`: the whole service on one machine for a newcomer. It starts
// the local control plane (kube-apiserver and etcd built into bin/controlplane; etcd's data
// kept in .local/etcd with fsync on, so a restart keeps it; processes a killed earlier run
// left behind are stopped first), installs the CRDs and webhooks, loads the
// sample catalogue and a demo tenant, starts the local EVM chain (JSON-RPC on 127.0.0.1:8545,
// data in .local/chain, contracts in .local/chain.json), and runs the manager with the REST
// facade, the chain agent and the sandbox's money side. Ctrl-C stops everything; running it again reuses the data.
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/controllers/delivery"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/app"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

func main() {
	var (
		restAddr, baseURL, localDir string
		sandboxDelay                time.Duration
		localChain                  devdata.LocalChainConfig
	)
	flag.StringVar(&restAddr, "rest-bind-address", "127.0.0.1:8080", "address of the REST facade")
	flag.StringVar(&baseURL, "public-base-url", "", "public base URL (default: http://<rest-bind-address>)")
	flag.StringVar(&localDir, "local-dir", ".local", "folder for etcd data, kubeconfig and the demo credentials")
	flag.DurationVar(&sandboxDelay, "sandbox-settlement-delay", 3*time.Second, "delay of each sandbox settlement step (negative: off)")
	flag.IntVar(&localChain.Port, "chain-rpc-port", localchain.DefaultPort, "JSON-RPC port of the local chain on 127.0.0.1")
	flag.DurationVar(&localChain.BlockInterval, "chain-block-interval", localchain.DefaultBlockInterval, "time between two blocks of the local chain")
	opts := zap.Options{Development: true}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	if baseURL == "" {
		baseURL = "http://" + restAddr
	}
	if err := run(restAddr, baseURL, localDir, sandboxDelay, localChain); err != nil {
		fmt.Fprintln(os.Stderr, "make run:", err)
		os.Exit(1)
	}
}

func run(restAddr, baseURL, localDir string, sandboxDelay time.Duration, localChain devdata.LocalChainConfig) error {
	localDir, err := filepath.Abs(localDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(localDir, 0o700); err != nil {
		return err
	}
	if ln, err := net.Listen("tcp", restAddr); err != nil {
		return fmt.Errorf("REST address %s is taken (is another `make run` running?): %w", restAddr, err)
	} else {
		_ = ln.Close()
	}

	fmt.Println("starting the local control plane (kube-apiserver v1.36.3, etcd with fsync; data in " + rel(localDir) + "/etcd)")
	// StartLocal first stops an etcd and kube-apiserver that a killed earlier run left
	// running on this folder (their pids are in .local/controlplane.pids).
	local, err := controlplane.StartLocal(localDir, controlplane.Options{Webhooks: true})
	if err != nil {
		return fmt.Errorf("start control plane: %w", err)
	}
	env, cfg := local.Env, local.Config
	defer func() {
		fmt.Println("stopping the control plane (data kept in " + rel(localDir) + ")")
		if err := local.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop control plane:", err)
		}
	}()
	kubeconfig := filepath.Join(localDir, "kubeconfig")
	if err := writeKubeconfig(env, cfg, kubeconfig); err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return err
	}
	if err := devdata.EnsureNamespace(ctx, c, devdata.OperatorNamespace); err != nil {
		return err
	}
	// The local chain (kept in .local/chain like etcd's data; see docs/tokens.md).
	localChain.LocalDir = localDir
	localChain.Catalogue = filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml")
	lc, err := devdata.StartLocalChain(ctx, c, localChain)
	if err != nil {
		return fmt.Errorf("local chain: %w", err)
	}
	defer func() { _ = lc.Close() }()
	fmt.Printf("local chain: JSON-RPC %s, chain id %d (contracts in %s/chain.json)\n", lc.RPCURL, lc.ChainID, rel(localDir))
	wio := env.WebhookInstallOptions
	mgr, err := app.NewManager(cfg, ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "127.0.0.1:0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir,
			// HTTP/1.1 only, as cmd/manager serves it by default (--enable-http2=false).
			TLSOpts: []func(*tls.Config){func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }},
		}),
	})
	if err != nil {
		return err
	}
	if err := app.Setup(mgr, app.Config{
		RESTAddr: restAddr, PublicBaseURL: baseURL, Namespace: devdata.OperatorNamespace,
		SigningKeySecret: "fundshare-jwt-signing-key", Webhooks: true, Controllers: true,
		SandboxSettlement: sandboxDelay,
		Chain:             delivery.Options{RPCURL: lc.RPCURL, ChainID: lc.ChainID, SignerSecret: devdata.ChainSignerSecret, Confirmations: 3},
		Token:             token.Options{Registry: lc.Registry.Hex(), LedgerInterval: time.Minute},
	}); err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- mgr.Start(ctx) }()
	// The samples pass through the admission webhooks: wait until they serve.
	if err := waitFor(ctx, errc, func() bool { return mgr.GetWebhookServer().StartedChecker()(nil) == nil }); err != nil {
		return err
	}
	if err := devdata.ApplyFile(ctx, c, filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml")); err != nil {
		return fmt.Errorf("load sample catalogue: %w", err)
	}
	if differing, err := devdata.AdoptLocalTokens(ctx, c, lc.Tokens); err != nil {
		return err
	} else if len(differing) > 0 {
		fmt.Printf("warning: share classes %v keep a token the local chain does not have (make clean-local starts afresh)\n", differing)
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return fmt.Errorf("public base URL: %w", err)
	}
	creds, err := devdata.EnsureDemoTenant(ctx, c, filepath.Join(localDir, "demo-client.json"), baseURL, u.Hostname())
	if err != nil {
		return fmt.Errorf("demo tenant: %w", err)
	}

	printNextSteps(kubeconfig, creds, localDir)
	if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
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

func printNextSteps(kubeconfig string, creds devdata.Credentials, localDir string) {
	kc := rel(kubeconfig)
	b, _ := json.Marshal(creds.BaseURL)
	fmt.Printf(`
fundshare-operator is running.

  REST facade      %s   (health: %s/healthz)
  kubeconfig       %s
  demo credentials %s/demo-client.json  (tenant namespace %q)

Try:
  kubectl --kubeconfig %s get fundshare -A
  kubectl --kubeconfig %s get funds,shareclasses
  kubectl --kubeconfig %s explain order.spec

Get a token (see docs/rest-api.md for every endpoint):
  curl -s %s/oauth2/token -d grant_type=client_credentials -d scope='openid offline' \
    -d client_id=%s -d client_secret="$(jq -r .client_secret %s/demo-client.json)" -d audience=%s

Ctrl-C stops everything; the data stays in %s for the next run (make clean-local forgets it).
`, creds.BaseURL, creds.BaseURL, kc, rel(localDir), creds.Namespace, kc, kc, kc, string(b[1:len(b)-1]), creds.ClientID, rel(localDir), creds.Audience, rel(localDir))
}

func rel(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil {
		return r
	}
	return p
}

// waitFor polls ready until it holds, the manager fails, or ctx ends.
func waitFor(ctx context.Context, errc chan error, ready func() bool) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errc:
			return fmt.Errorf("manager stopped: %w", err)
		case <-tick.C:
		}
	}
	return nil
}
