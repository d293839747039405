package options

import (
	"flag"
	"io"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func parse(t *testing.T, args ...string) *Options {
	t.Helper()
	o := New()
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	return o
}

// TestEveryFlagOfTheManagerIsInTheOptionsTypeWithHelp: one FlagSet holds every flag the
// manager has (its servers, the REST facade, the chain, the tokens, the archive, logging),
// each with a help text, and a flag's default parses back to itself.
func TestEveryFlagOfTheManagerIsInTheOptionsTypeWithHelp(t *testing.T) {
	o := New()
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	o.AddFlags(fs)
	want := []string{
		"metrics-bind-address", "health-probe-bind-address", "leader-elect", "webhook-port", "webhook-cert-dir", "enable-http2",
		"rest-bind-address", "public-base-url", "namespace", "signing-key-secret", "sandbox-settlement-delay", "rest-trusted-proxies",
		"chain-rpc-url", "chain-id", "chain-signer-secret", "chain-confirmations", "chain-registry", "ledger-reconcile-interval",
		"transfer-index-range", "transfer-index-interval", "archive-dsn", "order-retention", "zap-log-level",
		"bank-folder", "bank-poll-interval", "sandbox-bank",
	}
	for _, name := range want {
		if fs.Lookup(name) == nil {
			t.Errorf("--%s is not bound by Options.AddFlags", name)
		}
	}
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if strings.TrimSpace(f.Usage) == "" {
			t.Errorf("--%s has no help text", f.Name)
		}
		if f.DefValue == "" || f.DefValue == "[]" {
			return
		}
		if err := f.Value.Set(f.DefValue); err != nil {
			t.Errorf("--%s: its default %q does not parse: %v", f.Name, f.DefValue, err)
		}
	})
	if n < len(want) {
		t.Fatalf("%d flags bound, want at least %d", n, len(want))
	}
}

// TestFlagsLandInTheOptions: what a command line says is what the manager is built with.
func TestFlagsLandInTheOptions(t *testing.T) {
	o := parse(t, "--rest-bind-address=127.0.0.1:9090", "--archive-dsn=sqlite://archive.db", "--chain-confirmations=3",
		"--rest-trusted-proxies=10.1.2.3/8, 192.0.2.0/24", "--order-retention=48h", "--leader-elect", "--webhook-port=10443", "--namespace=ops")
	if o.App.RESTAddr != "127.0.0.1:9090" || o.ArchiveDSN != "sqlite://archive.db" || o.App.Chain.Confirmations != 3 ||
		o.App.OrderRetention != 48*time.Hour || !o.LeaderElect || o.WebhookPort != 10443 || o.App.Namespace != "ops" {
		t.Fatalf("options after parsing: %+v", o)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.0/24")}
	if len(o.App.TrustedProxies) != 2 || o.App.TrustedProxies[0] != want[0] || o.App.TrustedProxies[1] != want[1] {
		t.Fatalf("trusted proxies %v, want %v (masked)", o.App.TrustedProxies, want)
	}
	if !o.App.Webhooks || !o.App.Controllers {
		t.Fatal("the manager binary runs webhooks and controllers")
	}
	m := o.ManagerOptions(nil)
	if !m.LeaderElection || m.LeaderElectionNamespace != "ops" || m.LeaderElectionID != LeaderElectionID {
		t.Fatalf("leader election options %v %q %q", m.LeaderElection, m.LeaderElectionNamespace, m.LeaderElectionID)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("valid options refused: %v", err)
	}
}

// TestInvalidFlagsAreRefusedNamingTheFlag: the manager does not start on options that
// cannot work; the error names every flag at fault.
func TestInvalidFlagsAreRefusedNamingTheFlag(t *testing.T) {
	o := parse(t, "--webhook-port=0", "--public-base-url=localhost:8080", "--archive-dsn=mysql://x", "--namespace=")
	err := o.Validate()
	if err == nil {
		t.Fatal("invalid options accepted")
	}
	for _, name := range []string{"--webhook-port", "--public-base-url", "--archive-dsn", "--namespace"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error does not name %s: %v", name, err)
		}
	}
	if err := New().Validate(); err != nil {
		t.Fatalf("the defaults are refused: %v", err)
	}
}

// TestTheBankNeedsTheArchiveAndTheSandboxBankNeedsTheBank: the bank ledger lives in the
// archive's database, and the sandbox bank writes into the bank folder's inbox.
func TestTheBankNeedsTheArchiveAndTheSandboxBankNeedsTheBank(t *testing.T) {
	o := parse(t, "--bank-folder=/var/lib/bank", "--bank-poll-interval=-1s")
	err := o.Validate()
	if err == nil || !strings.Contains(err.Error(), "--bank-folder") || !strings.Contains(err.Error(), "--archive-dsn") ||
		!strings.Contains(err.Error(), "--bank-poll-interval") {
		t.Fatalf("a bank folder without an archive and a negative poll interval: %v", err)
	}
	if err := parse(t, "--sandbox-bank").Validate(); err == nil || !strings.Contains(err.Error(), "--sandbox-bank") {
		t.Fatalf("the sandbox bank without a bank folder: %v", err)
	}
	o = parse(t, "--bank-folder=/var/lib/bank", "--archive-dsn=sqlite://archive.db", "--bank-poll-interval=2s", "--sandbox-bank")
	if err := o.Validate(); err != nil {
		t.Fatalf("valid bank options refused: %v", err)
	}
	if o.App.BankFolder != "/var/lib/bank" || o.App.BankPollInterval != 2*time.Second || !o.App.SandboxBank {
		t.Fatalf("bank options after parsing: %+v", o.App)
	}
}
