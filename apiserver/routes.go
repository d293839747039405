// Package apiserver is the REST facade of the fund share service: the documented HTTP
// interface and the OAuth2 token flow, served from the manager's informer cache and
// writing custom resources. routes.go shows the whole surface on one screen.
package apiserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// routes wires every path of the facade.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Get("/healthz", s.health)
	r.Get("/readyz", s.ready)
	return r
}
