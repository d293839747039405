package apiserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
)

// lines is a logger at info level (V(0)) that keeps what it logs.
type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) logger() logr.Logger {
	return funcr.New(func(prefix, args string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.got = append(l.got, args)
	}, funcr.Options{Verbosity: 0})
}

func (l *lines) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.got {
		if strings.Contains(s, `"msg"="request"`) {
			out = append(out, s)
		}
	}
	return out
}

func serveOnce(t *testing.T, s *Server, status int) {
	t.Helper()
	h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/orders", nil))
	if rec.Code != status {
		t.Fatalf("status %d, want %d", rec.Code, status)
	}
}

// TestWithoutTheAccessLogOnlyServerErrorsAreLoggedAtInfo: a routine answer (2xx, 4xx) is
// not an info line unless --rest-access-log asks for one; a 5xx always is.
func TestWithoutTheAccessLogOnlyServerErrorsAreLoggedAtInfo(t *testing.T) {
	var l lines
	s := &Server{deps: Deps{Log: l.logger()}}
	serveOnce(t, s, http.StatusOK)
	serveOnce(t, s, http.StatusNotFound)
	if got := l.requests(); len(got) != 0 {
		t.Fatalf("routine answers logged at info: %q", got)
	}
	serveOnce(t, s, http.StatusServiceUnavailable)
	got := l.requests()
	if len(got) != 1 || !strings.Contains(got[0], `"status"=503`) {
		t.Fatalf("a 503 is logged at info once: %q", got)
	}
}

// TestTheAccessLogLogsEveryRequestAtInfo: with --rest-access-log every request is one
// info line with its method, route, status and request id, never its headers.
func TestTheAccessLogLogsEveryRequestAtInfo(t *testing.T) {
	var l lines
	s := &Server{deps: Deps{Log: l.logger(), AccessLog: true}}
	serveOnce(t, s, http.StatusOK)
	serveOnce(t, s, http.StatusNotFound)
	got := l.requests()
	if len(got) != 2 {
		t.Fatalf("%d request lines, want 2: %q", len(got), got)
	}
	for _, want := range []string{`"method"="GET"`, `"status"=200`, `"request_id"=`} {
		if !strings.Contains(got[0], want) {
			t.Errorf("%q does not say %s", got[0], want)
		}
	}
}
