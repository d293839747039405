package egress

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// newServer starts a server on 127.0.0.1 (TLS when tls) and counts the connections it
// accepts.
func newServer(t *testing.T, useTLS bool, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	if useTLS {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &conns
}

// trust makes client trust srv's certificate.
func trust(client *http.Client, srv *httptest.Server) {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	client.Transport.(*http.Transport).TLSClientConfig.RootCAs = pool
}

func ok(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

// get sends a GET to url, reads and closes the response's body, and returns the status
// and the headers of the response.
func get(client *http.Client, url string) (int, http.Header, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, nil, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header, errors.Join(err, resp.Body.Close())
}

func TestTheDialerRefusesALoopbackServerWithoutTheAllowance(t *testing.T) {
	srv, conns := newServer(t, true, http.HandlerFunc(ok))
	client := NewClient(Options{})
	trust(client, srv)

	_, _, err := get(client, srv.URL) // https://127.0.0.1:port
	if !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("GET %s = %v, want ErrForbiddenAddress", srv.URL, err)
	}
	if !strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("the error %q does not name the refused address", err)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the server accepted %d connections, want none", n)
	}
}

func TestTheDialerRefusesAHostNameThatResolvesToLoopback(t *testing.T) {
	srv, conns := newServer(t, false, http.HandlerFunc(ok))
	url := "http://localhost:" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port) + "/"
	client := NewClient(Options{})

	if _, _, err := get(client, url); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("GET %s = %v, want ErrForbiddenAddress", url, err)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the server accepted %d connections, want none", n)
	}
}

func TestTheClientReachesALoopbackServerWithTheAllowance(t *testing.T) {
	plain, _ := newServer(t, false, http.HandlerFunc(ok))
	secure, _ := newServer(t, true, http.HandlerFunc(ok))
	client := NewClient(Options{AllowLoopbackHTTP: true})
	trust(client, secure)

	port := plain.Listener.Addr().(*net.TCPAddr).Port
	for _, url := range []string{
		plain.URL,
		secure.URL,
		"http://localhost:" + strconv.Itoa(port) + "/",
	} {
		if err := CheckURL(url, Options{AllowLoopbackHTTP: true}); err != nil {
			t.Errorf("CheckURL(%q) = %v", url, err)
		}
		status, _, err := get(client, url)
		if err != nil {
			t.Errorf("GET %s: %v", url, err)
			continue
		}
		if status != http.StatusNoContent {
			t.Errorf("GET %s: status %d, want 204", url, status)
		}
	}
}

func TestARedirectIsReturnedNotFollowed(t *testing.T) {
	var followed atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, _ *http.Request) {
		followed.Store(true)
		w.WriteHeader(http.StatusOK)
	})
	srv, _ := newServer(t, false, mux)
	client := NewClient(Options{AllowLoopbackHTTP: true})

	status, header, err := get(client, srv.URL+"/hook")
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusFound || header.Get("Location") != "/elsewhere" {
		t.Fatalf("status %d, Location %q, want the 302 to /elsewhere itself", status, header.Get("Location"))
	}
	if followed.Load() {
		t.Fatal("the client followed the redirect")
	}
	if v := Classify(status); v != Retry {
		t.Fatalf("Classify(302) = %v, want retry", v)
	}
}

func TestTheTimeoutBoundsTheWholeRequest(t *testing.T) {
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/headers", func(_ http.ResponseWriter, r *http.Request) {
		select { // never answers
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/body", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		select { // never finishes the body
		case <-r.Context().Done():
		case <-release:
		}
	})
	srv, _ := newServer(t, false, mux)
	t.Cleanup(func() { close(release) }) // before srv.Close, which waits for handlers
	client := NewClient(Options{AllowLoopbackHTTP: true, Timeout: 200 * time.Millisecond})

	for _, path := range []string{"/headers", "/body"} {
		start := time.Now()
		_, _, err := get(client, srv.URL+path)
		var netErr net.Error
		if !errors.As(err, &netErr) || !netErr.Timeout() {
			t.Errorf("GET %s = %v, want a timeout", path, err)
		}
		// Generous: only an unbounded request could take this long.
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Errorf("GET %s took %s with a 200ms timeout", path, elapsed)
		}
	}
}

func TestTheClientUsesNoProxyTLS12AndKeepAlives(t *testing.T) {
	client := NewClient(Options{})
	if client.Timeout != DefaultTimeout {
		t.Errorf("Timeout = %s, want %s", client.Timeout, DefaultTimeout)
	}
	tr := client.Transport.(*http.Transport)
	if tr.Proxy != nil {
		t.Error("the transport has a proxy")
	}
	if tr.TLSClientConfig == nil || tr.TLSClientConfig.MinVersion != tls.VersionTLS12 {
		t.Error("the transport does not require TLS 1.2")
	}
	if tr.DisableKeepAlives || tr.MaxIdleConnsPerHost < 2 {
		t.Errorf("keep-alives off or %d idle connections per host", tr.MaxIdleConnsPerHost)
	}
	if c := NewClient(Options{Timeout: time.Second}); c.Timeout != time.Second {
		t.Errorf("Timeout = %s, want 1s", c.Timeout)
	}
}
