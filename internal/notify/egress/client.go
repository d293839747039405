package egress

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrForbiddenAddress is wrapped by the error of a request whose host resolved to an
// address the client must not connect to (see CheckURL).
var ErrForbiddenAddress = errors.New("refusing to connect to a non-public address")

// NewClient returns the HTTP client webhooks are sent with. Its dialer refuses, after DNS
// resolution, every address that is not public (except loopback ones with
// AllowLoopbackHTTP), with an error that wraps ErrForbiddenAddress. It uses no proxy,
// returns a redirect as the response instead of following it, bounds each request by the
// Timeout, requires TLS 1.2 or later and keeps idle connections for reuse.
func NewClient(opts Options) *http.Client {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	dialer := &net.Dialer{
		Timeout:   min(timeout, 10*time.Second),
		KeepAlive: 30 * time.Second,
		Control:   control(opts.AllowLoopbackHTTP),
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    min(timeout, 10*time.Second),
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// control returns the dialer's Control: it refuses to connect to an address that is not
// public, except a loopback one when allowLoopback.
func control(allowLoopback bool) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrForbiddenAddress, address)
		}
		addr := ap.Addr().Unmap()
		if isPublic(addr) || (allowLoopback && addr.IsLoopback()) {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrForbiddenAddress, addr)
	}
}
