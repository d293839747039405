// Command manager runs the fund share operator: the controllers (leader-elected), the
// admission webhooks and the REST facade (on every replica).
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"net/netip"
	"os"
	"strings"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/controllers/delivery"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

// +kubebuilder:rbac:groups=authentication.k8s.io,resources=tokenreviews,verbs=create
// +kubebuilder:rbac:groups=authorization.k8s.io,resources=subjectaccessreviews,verbs=create

// version is stamped at build time (-ldflags -X main.version=...).
var version = "dev"

// serverFlags are the flags of the manager's own servers (metrics, probes, webhooks) and
// of leader election.
type serverFlags struct {
	metricsAddr, probeAddr, certDir, namespace string
	leaderElect, enableHTTP2                   bool
	webhookPort                                int
}

func main() {
	var (
		f serverFlags
		c app.Config
	)
	flag.StringVar(&f.metricsAddr, "metrics-bind-address", ":8443", "address of the metrics endpoint (0 disables it)")
	flag.StringVar(&f.probeAddr, "health-probe-bind-address", ":8081", "address of the health probes")
	flag.BoolVar(&f.leaderElect, "leader-elect", false, "elect a leader among replicas; only the leader runs controllers")
	flag.IntVar(&f.webhookPort, "webhook-port", 9443, "port of the admission webhook server")
	flag.StringVar(&f.certDir, "webhook-cert-dir", "", "folder with tls.crt and tls.key of the webhook server")
	flag.BoolVar(&f.enableHTTP2, "enable-http2", false, "serve HTTP/2 on the webhook and metrics servers (off by default: HTTP/2 stream resets, CVE-2023-44487 and CVE-2023-39325)")
	flag.StringVar(&c.RESTAddr, "rest-bind-address", ":8080", "address of the REST facade")
	flag.StringVar(&c.PublicBaseURL, "public-base-url", "http://localhost:8080", "public base URL of the REST facade; its host name is the token audience")
	flag.StringVar(&c.Namespace, "namespace", envOr("POD_NAMESPACE", "fundshare-system"), "namespace of the operator's own Secrets")
	flag.StringVar(&c.SigningKeySecret, "signing-key-secret", "fundshare-jwt-signing-key", "Secret holding the JWT signing key (created when missing)")
	flag.DurationVar(&c.SandboxSettlement, "sandbox-settlement-delay", -1, "run the sandbox settlement agent with this delay per step (negative: off)")
	delivery.BindFlags(flag.CommandLine, &c.Chain)
	token.BindFlags(flag.CommandLine, &c.Token)
	transfer.BindFlags(flag.CommandLine, &c.Transfers)
	flag.Func("rest-trusted-proxies", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For the token endpoint's throttle believes (default none: the TCP peer is the source)", func(v string) error {
		for _, part := range strings.Split(v, ",") {
			p, err := netip.ParsePrefix(strings.TrimSpace(part))
			if err != nil {
				return err
			}
			c.TrustedProxies = append(c.TrustedProxies, p.Masked())
		}
		return nil
	})
	archiveDSN := archive.BindDSNFlag(flag.CommandLine, "")
	flag.DurationVar(&c.OrderRetention, "order-retention", 90*24*time.Hour, "how long a done order stays in the cluster before it moves to the order archive (needs --archive-dsn; 0 or negative: orders stay)")
	opts := zap.Options{Development: false}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
	log := ctrl.Log.WithName("setup")
	log.Info("starting fundshare-operator", "version", version, "http2", f.enableHTTP2)

	c.Webhooks, c.Controllers = true, true
	if *archiveDSN != "" {
		st, err := openArchive(*archiveDSN)
		if err != nil {
			log.Error(err, "unable to open the order archive")
			os.Exit(1)
		}
		defer st.Close()
		c.Archive = st
	} else {
		log.Info("no --archive-dsn: no order archive, and done orders stay in the cluster")
	}
	f.namespace = c.Namespace
	mgr, err := app.NewManager(ctrl.GetConfigOrDie(), managerOptions(f))
	if err != nil {
		log.Error(err, "unable to create manager")
		os.Exit(1)
	}
	if err := app.Setup(mgr, c); err != nil {
		log.Error(err, "unable to set up manager")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "manager stopped with an error")
		os.Exit(1) //nolint:gocritic // the archive's connections end with the process
	}
}

// openArchive opens the order archive of a --archive-dsn value (migrating its schema).
func openArchive(dsn string) (archive.Store, error) {
	d, err := archive.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	ctrl.Log.WithName("setup").Info("order archive", "dsn", d.String())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return sqlstore.OpenDSN(ctx, d, sqlstore.Options{})
}

// managerOptions are the manager's options for the flags given.
func managerOptions(f serverFlags) ctrl.Options {
	var tlsOpts []func(*tls.Config)
	if !f.enableHTTP2 {
		// As the kubebuilder scaffold does: offer only HTTP/1.1 in ALPN, so that no client
		// can use HTTP/2's stream resets against the webhook and metrics servers.
		tlsOpts = append(tlsOpts, disableHTTP2)
	}
	leaseDuration := 15 * time.Second
	return ctrl.Options{
		// Metrics are served over TLS and only to callers the API server authenticates and
		// authorizes (TokenReview + SubjectAccessReview on GET /metrics).
		Metrics: metricsserver.Options{
			BindAddress: f.metricsAddr, SecureServing: f.metricsAddr != "0",
			FilterProvider: filters.WithAuthenticationAndAuthorization,
			TLSOpts:        tlsOpts,
		},
		HealthProbeBindAddress:  f.probeAddr,
		WebhookServer:           webhook.NewServer(webhook.Options{Port: f.webhookPort, CertDir: f.certDir, TLSOpts: tlsOpts}),
		LeaderElection:          f.leaderElect,
		LeaderElectionID:        "fundshare-operator.invest.fundshare.io",
		LeaderElectionNamespace: f.namespace,
		LeaseDuration:           &leaseDuration,
	}
}

// disableHTTP2 leaves HTTP/1.1 as the only protocol a TLS client may choose.
func disableHTTP2(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
