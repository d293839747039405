// Package apiserver is the REST facade of the fund share service: the documented HTTP
// interface and the OAuth2 token flow, served from the manager's informer cache and
// writing custom resources. routes.go wires the whole surface; the operations table of
// openapi.go lists every route with its handler and its documentation.
package apiserver

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
)

// routes wires every path of the facade: the operations of openapi.go (one table, so that
// what is served is what is documented, and its query parameters what strictQuery
// accepts), and the token endpoint, the key set and the discovery documents of package
// auth. Every POST honours an Idempotency-Key header (idempotency.go).
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// HEAD is answered on every GET route as GET without the body (GetHead); strictQuery
	// refuses unknown, repeated or badly encoded query parameters on every route.
	r.Use(s.observe, s.recoverer, limitBody, withTimeout, middleware.GetHead, strictQuery(true))
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	s.serveOperations(r, "", func(op operation) bool { return op.public })
	// The operator routes answer to Kubernetes tokens, not to the tenants' (operatorauth.go):
	// beside /v1's tenant routes, not behind their bearer check. chi finds these static
	// paths before the /v1 mount.
	s.serveOperations(r, "", func(op operation) bool { return op.operator })
	r.Handle("/oauth2/token", auth.NewTokenHandler(s.deps.Clients, s.deps.Issuer, s.deps.Throttle, s.deps.Log.WithName("token")))
	r.Method(http.MethodGet, "/.well-known/jwks.json", auth.JWKSHandler(s.deps.Issuer.Keys()))
	r.Method(http.MethodGet, "/.well-known/oauth-authorization-server", auth.AuthorizationServerMetadataHandler(s.deps.Issuer))
	r.Method(http.MethodGet, "/.well-known/openid-configuration", auth.OpenIDConfigurationHandler(s.deps.Issuer))

	r.Route("/v1", func(r chi.Router) {
		r.Use(auth.RequireBearer(s.deps.Issuer, s.deps.States), withTenant, strictQuery(false))
		s.serveOperations(r, "/v1", func(op operation) bool { return !op.public && !op.operator })
	})
	return r
}

// serveOperations registers on r the handlers of the operations that pick selects (the
// public ones, the operators', the tenants'), their paths relative to prefix.
func (s *Server) serveOperations(r chi.Router, prefix string, pick func(operation) bool) {
	for _, op := range operations() {
		if op.serve == nil || !pick(op) {
			continue
		}
		serve := op.serve
		r.MethodFunc(op.method, strings.TrimPrefix(op.path, prefix), func(w http.ResponseWriter, req *http.Request) { serve(s, w, req) })
	}
}
