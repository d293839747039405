// Command devrun is `make run`: the whole service on one machine for a newcomer. It starts
// the local control plane (kube-apiserver and etcd built into bin/controlplane; etcd's data
// kept in .local/etcd with fsync on, so a restart keeps it; processes a killed earlier run
// left behind are stopped first), installs the CRDs and webhooks, loads the
// sample catalogue and a demo tenant, starts the local EVM chain (JSON-RPC on 127.0.0.1:8545,
// data in .local/chain, contracts in .local/chain.json), and runs the manager with the REST
// facade, the chain agent and the sandbox's money side (cmd/devrun/devenv does all that).
// Ctrl-C stops everything and exits 0; running it again reuses the data.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fundshare/fundshare-operator/cmd/devrun/devenv"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
)

func main() {
	var o devenv.Options
	flag.StringVar(&o.RESTAddr, "rest-bind-address", devenv.DefaultRESTAddr, "address of the REST facade")
	flag.StringVar(&o.PublicBaseURL, "public-base-url", "", "public base URL (default: http://<rest-bind-address>)")
	flag.StringVar(&o.LocalDir, "local-dir", ".local", "folder for etcd data, kubeconfig and the demo credentials")
	flag.DurationVar(&o.SandboxSettlementDelay, "sandbox-settlement-delay", devenv.DefaultSandboxSettlementDelay,
		"delay of each sandbox settlement step (negative: off); make it long enough to type the next command when a guide cancels an order by hand")
	flag.StringVar(&o.ArchiveDSN, archive.FlagDSN, "", "the order archive: sqlite://<file> or postgres://… (see docs/archive.md; default: an SQLite file in the local folder)")
	flag.IntVar(&o.ChainRPCPort, "chain-rpc-port", localchain.DefaultPort, "JSON-RPC port of the local chain on 127.0.0.1")
	flag.DurationVar(&o.ChainBlockInterval, "chain-block-interval", localchain.DefaultBlockInterval, "time between two blocks of the local chain")
	flag.DurationVar(&o.LedgerReconcileInterval, "ledger-reconcile-interval", time.Minute, "how often on-chain balances are compared with account holdings (negative: off; docs/tokens.md)")
	flag.DurationVar(&o.OrderRetention, "order-retention", 90*24*time.Hour, "how long a done order stays in the cluster before it moves to the order archive (0 or negative: orders stay); e.g. 30s to watch it happen")
	flag.StringVar(&o.MetricsAddr, "metrics-bind-address", "", "address of the manager's Prometheus metrics (default: a free port on 127.0.0.1, printed when up)")
	flag.BoolVar(&o.RESTAccessLog, "rest-access-log", false, "log every REST request at info level (off: only 5xx answers)")
	// Human-readable lines at info level: --zap-log-level=debug shows the controllers'
	// and the facade's debug lines.
	opts := zap.Options{Development: true, Level: zapcore.InfoLevel}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))

	// Ctrl-C (or SIGTERM) from the start on: a signal during start-up stops what has
	// started instead of killing the process and leaving etcd running.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "make run:", err)
		stop()
		os.Exit(1)
	}
}

func run(ctx context.Context, o devenv.Options) error {
	env, err := devenv.Start(ctx, o)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil //nolint:nilerr // Ctrl-C while starting is a clean end: Start stopped what it had started
	default:
		return err
	}
	printNextSteps(env)
	return env.Wait()
}

func printNextSteps(env *devenv.Env) {
	creds := env.Credentials
	kc, local := devenv.Rel(env.Kubeconfig), devenv.Rel(env.LocalDir)
	b, _ := json.Marshal(creds.BaseURL)
	fmt.Printf(`
fundshare-operator is running.

  REST facade      %s   (health: %s/healthz)
  metrics          %s
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
`, creds.BaseURL, creds.BaseURL, env.MetricsURL, kc, local, creds.Namespace, kc, kc, kc, string(b[1:len(b)-1]), creds.ClientID, local, creds.Audience, local)
	if d, err := archive.ParseDSN(env.ArchiveDSN); err == nil && env.OrderRetention > 0 {
		fmt.Printf("Done orders move to the order archive (%s) %s after they are done (--order-retention);\n"+
			"REST and `go run ./cmd/fundsharectl orders` still read them (docs/orders.md).\n\n", d.String(), env.OrderRetention)
	}
	if env.SandboxBank {
		fmt.Printf("The sandbox bank pays every waiting BUY with a camt.054 in %s/inbox, which the bank\n"+
			"ingestion reads like a real bank's; drop your own statements there too (docs/bank.md).\n\n", devenv.Rel(env.BankFolder))
	}
}
