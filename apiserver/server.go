package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
)

// Deps are what the facade needs from the manager.
type Deps struct {
	// Reader reads from the informer cache (with the project's field indexes).
	Reader client.Reader
	// Writer writes custom resources to the API server.
	Writer client.Client
	// APIReader reads from the API server directly: Secrets (never cached) and fresh
	// copies for retried read-modify-writes.
	APIReader client.Reader
	// Issuer issues and verifies access tokens.
	Issuer *auth.Issuer
	// Clients finds API clients for the token endpoint.
	Clients auth.ClientStore
	// States gives the bearer check each client's current state, so that tokens of
	// deleted, disabled, changed or rotated clients stop working. When nil, Clients
	// must provide it (ClientStore does).
	States auth.ClientStates
	// Throttle limits failed logins by source address and by client from an address;
	// nil disables it.
	Throttle *auth.Throttle
	// Ready reports whether the caches have synced; it must not block past ctx.
	Ready func(ctx context.Context) bool
	// Log is the request logger.
	Log logr.Logger
	// AccessLog logs every request at info level (method, route, status, duration,
	// tenant, request id). Off: only answers 5xx are logged at info, the others at V(1)
	// (--zap-log-level=debug shows them); the metrics count every request either way.
	AccessLog bool
	// Now is the clock for validation (dates of birth must be in the past).
	Now func() time.Time
	// Archive holds the orders that left the cluster (controllers/retention): order reads,
	// the order list, cancellation answers and portfolios include them. Nil: none.
	Archive archive.Store
	// Webhooks is the webhook store (deliveries, attempts, replay); nil: no webhooks, and
	// the webhook routes answer 503.
	Webhooks notify.Store
	// WebhookEgress are the rules of webhook endpoint URLs (as admission applies them).
	WebhookEgress egress.Options
	// BankConnector is the bank connector operators upload bank files into (POST
	// /v1/operator/bank-files), which must implement connector.Uploader (the folder
	// does); nil: no bank, and the route answers 501.
	BankConnector connector.Connector
	// Operators authenticates and authorizes the Kubernetes tokens of the operator
	// routes (TokenReview, SubjectAccessReview); nil: a KubeReviewer with Writer.
	Operators OperatorReviewer
}

// Server is the REST facade.
type Server struct {
	deps    Deps
	tracker *WriteTracker
	// liveIndex names the live orders per tenant newest first, for the unfiltered list;
	// nil (or not yet synced) when the Reader has no informers: the list sorts instead.
	liveIndex *liveOrderIndex
	// cancelWait bounds how long DELETE /v1/orders/{id} waits for the controller;
	// defaultCancelWait when zero.
	cancelWait time.Duration
	// openAPI is the document served at /openapi.json.
	openAPI []byte
	// operators reviews operators' tokens; operatorReviews remembers its positive answers.
	operators       OperatorReviewer
	operatorReviews *reviewCache
	http.Handler
}

// NewServer builds the facade's handler.
func NewServer(d Deps) *Server {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.APIReader == nil {
		d.APIReader = d.Writer
	}
	if d.States == nil {
		states, ok := d.Clients.(auth.ClientStates)
		if !ok {
			panic("apiserver: Deps.States is required (tokens could not be revoked)")
		}
		d.States = states
	}
	if d.Operators == nil {
		d.Operators = &KubeReviewer{Client: d.Writer}
	}
	s := &Server{deps: d, tracker: NewWriteTracker(d.Reader, d.Writer.Scheme(), d.Log.WithName("tracker")),
		openAPI: openAPIJSON(d.Issuer.IssuerURL()), operators: d.Operators, operatorReviews: newReviewCache(time.Now)}
	s.liveIndex = watchLiveOrders(d.Reader, d.Log)
	s.Handler = s.routes()
	return s
}

// Tracker is the server's write tracker (read-your-writes over the cache).
func (s *Server) Tracker() *WriteTracker { return s.tracker }

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, HealthStatus{Status: "ok"})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 100*time.Millisecond)
	defer cancel()
	if s.deps.Ready != nil && !s.deps.Ready(ctx) {
		writeJSON(w, http.StatusServiceUnavailable, HealthStatus{Status: "starting"})
		return
	}
	writeJSON(w, http.StatusOK, HealthStatus{Status: "ok"})
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, msgNotFound, "no route for "+r.Method+" "+r.URL.Path)
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusMethodNotAllowed, msgMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Runnable serves the facade from the manager, on every replica (not only the leader).
// The server is built when the manager starts, because what it needs (the signing key in
// a Secret) may only be readable then; the manager starts it after its caches synced.
type Runnable struct {
	// Addr is the listen address, e.g. :8080.
	Addr string
	// Build creates the server.
	Build func(ctx context.Context) (*Server, error)
	// ShutdownTimeout bounds the graceful shutdown; 10 s when zero.
	ShutdownTimeout time.Duration
	// Log reports start and stop.
	Log logr.Logger
}

// NeedLeaderElection is false: every replica answers REST calls.
func (r *Runnable) NeedLeaderElection() bool { return false }

// Start builds the server and serves until ctx is done.
func (r *Runnable) Start(ctx context.Context) error {
	srv, err := r.Build(ctx)
	if err != nil {
		return fmt.Errorf("rest: %w", err)
	}
	ln, err := net.Listen("tcp", r.Addr)
	if err != nil {
		return fmt.Errorf("rest: listen on %s: %w", r.Addr, err)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       requestTimeout,
		WriteTimeout:      requestTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	r.Log.Info("REST facade listening", "address", ln.Addr().String())

	select {
	case err := <-errc:
		return fmt.Errorf("rest: %w", err)
	case <-ctx.Done():
	}
	timeout := r.ShutdownTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("rest: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("rest: %w", err)
	}
	return nil
}
