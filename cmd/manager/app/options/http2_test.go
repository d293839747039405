package options

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/fundshare/fundshare-operator/internal/test/loopback"
)

// The tests start the webhook and metrics servers exactly as managerOptions configures
// them and ask for HTTP/2 in the TLS handshake (ALPN), as an HTTP/2 client does.

func TestWebhookAndMetricsServersRefuseHTTP2ByDefault(t *testing.T) {
	opts := optionsWith(func(o *Options) { o.MetricsAddr = ":8443"; o.WebhookPort = 9443 }).ManagerOptions(nil)
	if got := negotiatedWithWebhookServer(t, opts.WebhookServer); got != "http/1.1" {
		t.Errorf("webhook server negotiated %q, want http/1.1", got)
	}
	if got := negotiatedWithMetricsServer(t, opts.Metrics); got != "http/1.1" {
		t.Errorf("metrics server negotiated %q, want http/1.1", got)
	}
}

func TestEnableHTTP2FlagServesHTTP2(t *testing.T) {
	opts := optionsWith(func(o *Options) { o.MetricsAddr = ":8443"; o.WebhookPort = 9443; o.EnableHTTP2 = true }).ManagerOptions(nil)
	if got := negotiatedWithWebhookServer(t, opts.WebhookServer); got != "h2" {
		t.Errorf("webhook server negotiated %q, want h2", got)
	}
	if got := negotiatedWithMetricsServer(t, opts.Metrics); got != "h2" {
		t.Errorf("metrics server negotiated %q, want h2", got)
	}
}

func TestMetricsOffWhenBindAddressIsZero(t *testing.T) {
	opts := optionsWith(func(o *Options) { o.MetricsAddr = "0" }).ManagerOptions(nil)
	if opts.Metrics.SecureServing || opts.Metrics.BindAddress != "0" {
		t.Fatalf("metrics options %+v, want the server off", opts.Metrics)
	}
}

// negotiatedWithWebhookServer starts the webhook server configured in srv (its port and
// certificate folder replaced by local ones) and returns the protocol it agrees to.
func negotiatedWithWebhookServer(t *testing.T, srv webhook.Server) string {
	t.Helper()
	ds, ok := srv.(*webhook.DefaultServer)
	if !ok {
		t.Fatalf("webhook server is a %T, want *webhook.DefaultServer", srv)
	}
	o := ds.Options
	o.Host, o.Port, o.CertDir = "127.0.0.1", loopback.FreePort(t), selfSignedCertDir(t)
	local := webhook.NewServer(o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- local.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("webhook server: %v", err)
		}
	})
	addr := net.JoinHostPort(o.Host, fmt.Sprint(o.Port))
	waitUntil(t, func() bool { return local.StartedChecker()(nil) == nil })
	return negotiate(t, addr)
}

// negotiatedWithMetricsServer starts the metrics server configured in o (on a free local
// port) and returns the protocol it agrees to. The TLS handshake comes before the
// authentication filter, so the filter's API server is never called.
func negotiatedWithMetricsServer(t *testing.T, o metricsserver.Options) string {
	t.Helper()
	o.BindAddress = "127.0.0.1:0"
	srv, err := metricsserver.NewServer(o, &rest.Config{Host: "https://127.0.0.1:1"}, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	bound, ok := srv.(interface{ GetBindAddr() string })
	if !ok {
		t.Fatalf("metrics server %T does not tell its address", srv)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("metrics server: %v", err)
		}
	})
	waitUntil(t, func() bool { return bound.GetBindAddr() != "" })
	return negotiate(t, bound.GetBindAddr())
}

// negotiate makes a TLS handshake offering h2 first, as Go's and most HTTP/2 clients do.
func negotiate(t *testing.T, addr string) string {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{
		NextProtos: []string{"h2", "http/1.1"},
		// The servers use a self-signed certificate; only the protocol is under test.
		InsecureSkipVerify: true,
	})
	if err != nil {
		t.Fatalf("TLS handshake with %s: %v", addr, err)
	}
	defer func() { _ = conn.Close() }()
	return conn.ConnectionState().NegotiatedProtocol
}

func selfSignedCertDir(t *testing.T) string {
	t.Helper()
	cert, key, err := certutil.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{{127, 0, 0, 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"tls.crt": cert, "tls.key": key} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("server did not start within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// optionsWith returns the default options changed by set.
func optionsWith(set func(*Options)) *Options {
	o := New()
	set(o)
	return o
}
