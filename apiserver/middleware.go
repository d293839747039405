package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// requestTimeout bounds the work of one request (cache waits, API server calls).
const requestTimeout = 30 * time.Second

// Metrics of the facade, served by the manager's metrics endpoint.
var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_http_requests_total",
		Help: "HTTP requests answered by the REST facade, by method, route pattern and status code.",
	}, []string{"method", "route", "code"})
	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "fundshare_http_request_duration_seconds",
		Help:    "Time the REST facade took to answer, by method and route pattern.",
		Buckets: prometheus.DefBuckets,
	}, []string{"method", "route"})
)

func init() {
	metricset.MustRegister(httpRequests, httpDuration)
}

// requestInfo travels in the context so that the outermost middleware can log what inner
// layers learned (the tenant is known only after authentication).
type requestInfo struct {
	id     string
	tenant string
}

type infoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

func requestIDFrom(ctx context.Context) string { return infoFrom(ctx).id }

// routeOf is the route pattern that matched, e.g. /v1/accounts/{account_id}; bounded
// cardinality for logs and metrics.
func routeOf(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe gives every request an id (X-Request-ID, kept when the caller sent a sane one,
// echoed in the answer), then logs and counts it. It logs the method, route pattern,
// status, duration and tenant, never headers, tokens or bodies.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-ID")
		if !validRequestID(id) {
			id = uuid.NewString()
		}
		w.Header().Set("X-Request-ID", id)
		info := &requestInfo{id: id}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		sw := &statusWriter{ResponseWriter: w}

		next.ServeHTTP(sw, r)

		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		elapsed := time.Since(start)
		route, method := routeOf(r), metricMethod(r.Method)
		httpRequests.WithLabelValues(method, route, strconv.Itoa(sw.status)).Inc()
		httpDuration.WithLabelValues(method, route).Observe(elapsed.Seconds())
		log := s.deps.Log
		if !s.deps.AccessLog && sw.status < http.StatusInternalServerError {
			log = log.V(1)
		}
		log.Info("request", "request_id", id, "method", method, "route", route,
			"status", sw.status, "duration", elapsed.String(), "tenant", info.tenant)
	})
}

// validRequestID accepts ids of 1 to 128 visible ASCII characters.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "OTHER"
}

// recoverer turns a panic into a 500 with the request id, and logs the stack.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler { //nolint:errorlint // a panic value, compared as net/http compares it
				panic(v)
			}
			s.deps.Log.Error(fmt.Errorf("panic: %v", v), "handler panicked",
				"request_id", requestIDFrom(r.Context()), "route", routeOf(r), "stack", string(debug.Stack()))
			if sw, ok := w.(*statusWriter); ok && sw.status != 0 {
				return // the answer has started; nothing sensible can be added
			}
			writeError(w, http.StatusInternalServerError, msgInternal, "request id "+requestIDFrom(r.Context()))
		}()
		next.ServeHTTP(w, r)
	})
}

// limitBody refuses bodies larger than maxBodyBytes with 413. The token endpoint bounds
// its own (smaller) body and answers in the OAuth error shape its clients parse; an
// operator's upload of a bank file bounds its own (larger) body after authenticating
// the operator (bankfiles.go).
func limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth2/token" || r.URL.Path == bankFilesPath {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > maxBodyBytes {
			writeTooLarge(w)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// withTimeout bounds the request's context; handlers pass it to every cache wait and API
// call, and a deadline becomes 504.
func withTimeout(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// withTenant records the authenticated tenant for the request log.
func withTenant(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := auth.ClaimsFrom(r.Context()); ok {
			infoFrom(r.Context()).tenant = c.Tenant
		}
		next.ServeHTTP(w, r)
	})
}

// tenantOf is the namespace every read and write of the request is confined to. Only
// routes behind RequireBearer call it.
func tenantOf(r *http.Request) string {
	c, _ := auth.ClaimsFrom(r.Context())
	return c.Tenant
}
