package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Deps are what the facade needs from the manager.
type Deps struct {
	// Reader reads from the informer cache.
	Reader client.Reader
	// Writer writes custom resources to the API server.
	Writer client.Client
	// Ready reports whether the caches have synced; it must not block past ctx.
	Ready func(ctx context.Context) bool
	// Log is the request logger.
	Log logr.Logger
}

// Server is the REST facade.
type Server struct {
	deps Deps
	http.Handler
}

// NewServer builds the facade's handler.
func NewServer(d Deps) *Server {
	s := &Server{deps: d}
	s.Handler = s.routes()
	return s
}

func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 100*time.Millisecond)
	defer cancel()
	if s.deps.Ready != nil && !s.deps.Ready(ctx) {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "starting"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
