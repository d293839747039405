// Package options holds every flag of the manager in one type (as cert-manager's
// controller keeps its own in app/options): the manager's servers and leader election,
// the composition root's Config (REST facade, sandbox, chain, tokens, retention), the
// order archive and logging. cmd/main.go parses them, validates them and builds the
// manager from them; tests build the same options without a command line.
package options

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
)

// LeaderElectionID is the name of the Lease the replicas elect their leader with.
const LeaderElectionID = "fundshare-operator.invest.fundshare.io"

// Options are the manager's flags.
type Options struct {
	// MetricsAddr is where metrics are served (over TLS, to callers the API server
	// authorizes); "0" turns them off.
	MetricsAddr string
	// ProbeAddr is where /healthz and /readyz are served.
	ProbeAddr string
	// LeaderElect elects a leader among replicas; only the leader runs controllers.
	LeaderElect bool
	// WebhookPort and WebhookCertDir are the admission webhook server's port and the folder
	// of its tls.crt and tls.key.
	WebhookPort    int
	WebhookCertDir string
	// EnableHTTP2 serves HTTP/2 on the webhook and metrics servers (off by default).
	EnableHTTP2 bool
	// ArchiveDSN is the order archive (empty: none).
	ArchiveDSN string
	// Log are the logger's options (zap's flags).
	Log zap.Options
	// App is the composition root's configuration: everything app.Setup wires.
	App app.Config
}

// New returns the options with their defaults; namespace defaults to $POD_NAMESPACE.
func New() *Options {
	o := &Options{
		MetricsAddr: ":8443", ProbeAddr: ":8081", WebhookPort: 9443,
		App: app.Config{ //nolint:gosec // G101: SigningKeySecret is the name of a Secret, not a credential
			RESTAddr: ":8080", PublicBaseURL: "http://localhost:8080",
			Namespace:        envOr("POD_NAMESPACE", "fundshare-system"),
			SigningKeySecret: "fundshare-jwt-signing-key", SandboxSettlement: -1,
			OrderRetention: 90 * 24 * time.Hour,
			Webhooks:       true, Controllers: true,
		},
	}
	return o
}

// AddFlags binds every option to a flag of fs, the current values as defaults.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.MetricsAddr, "metrics-bind-address", o.MetricsAddr, "address of the metrics endpoint (0 disables it)")
	fs.StringVar(&o.ProbeAddr, "health-probe-bind-address", o.ProbeAddr, "address of the health probes")
	fs.BoolVar(&o.LeaderElect, "leader-elect", o.LeaderElect, "elect a leader among replicas; only the leader runs controllers")
	fs.IntVar(&o.WebhookPort, "webhook-port", o.WebhookPort, "port of the admission webhook server")
	fs.StringVar(&o.WebhookCertDir, "webhook-cert-dir", o.WebhookCertDir, "folder with tls.crt and tls.key of the webhook server")
	fs.BoolVar(&o.EnableHTTP2, "enable-http2", o.EnableHTTP2, "serve HTTP/2 on the webhook and metrics servers (off by default: HTTP/2 stream resets, CVE-2023-44487 and CVE-2023-39325)")
	c := &o.App
	fs.StringVar(&c.RESTAddr, "rest-bind-address", c.RESTAddr, "address of the REST facade")
	fs.StringVar(&c.PublicBaseURL, "public-base-url", c.PublicBaseURL, "public base URL of the REST facade; its host name is the token audience")
	fs.BoolVar(&c.RESTAccessLog, "rest-access-log", c.RESTAccessLog, "log every REST request at info level (off: only 5xx answers; the metrics count every request)")
	fs.StringVar(&c.Namespace, "namespace", c.Namespace, "namespace of the operator's own Secrets")
	fs.StringVar(&c.SigningKeySecret, "signing-key-secret", c.SigningKeySecret, "Secret holding the JWT signing key (created when missing)")
	fs.DurationVar(&c.SandboxSettlement, "sandbox-settlement-delay", c.SandboxSettlement, "run the sandbox settlement agent with this delay per step (negative: off)")
	fs.StringVar(&c.BankFolder, "bank-folder", c.BankFolder, "folder connector of the fund's bank (inbox/, processed/, rejected/, outbox/): its camt.053/camt.054 files record BUYs' payments, payouts and refunds leave as pain.001 files (needs --archive-dsn; empty: no bank)")
	fs.BoolVar(&c.BankInstant, "bank-instant", c.BankInstant, "ask the bank for SEPA Instant Credit Transfers in the pain.001 files")
	fs.DurationVar(&c.BankPollInterval, "bank-poll-interval", c.BankPollInterval, "how often the bank's inbox is looked at (0: 5s)")
	fs.BoolVar(&c.SandboxBank, "sandbox-bank", c.SandboxBank, "not real money: pay every waiting BUY after --sandbox-settlement-delay with a camt.054 in --bank-folder's inbox, and answer every pain.001 in its outbox with a pain.002 and the camt.054 of the debits (local runs)")
	agent.BindFlags(fs, &c.Chain)
	token.BindFlags(fs, &c.Token)
	transfer.BindFlags(fs, &c.Transfers)
	fs.Func("rest-trusted-proxies", "comma-separated CIDRs of reverse proxies whose X-Forwarded-For the token endpoint's throttle believes (default none: the TCP peer is the source)", func(v string) error {
		for _, part := range strings.Split(v, ",") {
			p, err := netip.ParsePrefix(strings.TrimSpace(part))
			if err != nil {
				return err
			}
			c.TrustedProxies = append(c.TrustedProxies, p.Masked())
		}
		return nil
	})
	archive.BindDSNFlagVar(fs, &o.ArchiveDSN, o.ArchiveDSN)
	fs.DurationVar(&c.OrderRetention, "order-retention", c.OrderRetention, "how long a done order stays in the cluster before it moves to the order archive (needs --archive-dsn; 0 or negative: orders stay)")
	fs.BoolVar(&c.WebhookEgress.AllowLoopbackHTTP, "webhooks-allow-loopback-http", false,
		"let webhook endpoints be plain http to 127.0.0.1, ::1 or localhost (local development and tests only; production sends https to public addresses)")
	fs.DurationVar(&c.WebhookEgress.Timeout, "webhooks-timeout", 15*time.Second, "how long one webhook delivery may take before it counts as failed")
	o.Log.BindFlags(fs)
}

// Validate says which options cannot work together, naming the flags; nil when they can.
func (o *Options) Validate() error {
	var errs []error
	if o.WebhookPort < 1 || o.WebhookPort > 65535 {
		errs = append(errs, fmt.Errorf("--webhook-port %d: want a port from 1 to 65535", o.WebhookPort))
	}
	if u, err := url.Parse(o.App.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("--public-base-url %q: want an absolute http or https URL", o.App.PublicBaseURL))
	}
	if o.App.Namespace == "" {
		errs = append(errs, errors.New("--namespace: empty; the operator's own Secrets need a namespace"))
	}
	if err := o.App.Chain.Validate(); err != nil {
		errs = append(errs, err)
	}
	if o.ArchiveDSN != "" {
		if _, err := archive.ParseDSN(o.ArchiveDSN); err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", archive.FlagDSN, err))
		}
	}
	if o.App.BankFolder != "" && o.ArchiveDSN == "" {
		errs = append(errs, fmt.Errorf("--bank-folder: needs --%s, the SQL database the bank ledger lives in", archive.FlagDSN))
	}
	if o.App.SandboxBank && o.App.BankFolder == "" {
		errs = append(errs, errors.New("--sandbox-bank: needs --bank-folder, the inbox it writes its notifications into"))
	}
	if o.App.BankPollInterval < 0 {
		errs = append(errs, fmt.Errorf("--bank-poll-interval %s: want 0 (the default) or more", o.App.BankPollInterval))
	}
	return errors.Join(errs...)
}

// ManagerOptions are controller-runtime's options for these: the scheme given, metrics
// over TLS behind authentication and authorization, HTTP/1.1 only unless EnableHTTP2, the
// webhook server, and leader election in the operator's namespace.
func (o *Options) ManagerOptions(scheme *runtime.Scheme) ctrl.Options {
	var tlsOpts []func(*tls.Config)
	if !o.EnableHTTP2 {
		// As the kubebuilder scaffold does: offer only HTTP/1.1 in ALPN, so that no client
		// can use HTTP/2's stream resets against the webhook and metrics servers.
		tlsOpts = append(tlsOpts, disableHTTP2)
	}
	leaseDuration := 15 * time.Second
	return ctrl.Options{
		Scheme: scheme,
		// Metrics are served over TLS and only to callers the API server authenticates and
		// authorizes (TokenReview + SubjectAccessReview on GET /metrics).
		Metrics: metricsserver.Options{
			BindAddress: o.MetricsAddr, SecureServing: o.MetricsAddr != "0",
			FilterProvider: filters.WithAuthenticationAndAuthorization,
			TLSOpts:        tlsOpts,
		},
		HealthProbeBindAddress:  o.ProbeAddr,
		WebhookServer:           webhook.NewServer(webhook.Options{Port: o.WebhookPort, CertDir: o.WebhookCertDir, TLSOpts: tlsOpts}),
		LeaderElection:          o.LeaderElect,
		LeaderElectionID:        LeaderElectionID,
		LeaderElectionNamespace: o.App.Namespace,
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
