// Package apiserver is the REST facade of the fund share service: the documented HTTP
// interface and the OAuth2 token flow, served from the manager's informer cache and
// writing custom resources. routes.go shows the whole surface on one screen.
package apiserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
)

// routes wires every path of the facade. "ext" marks extensions of the spec. Every POST
// honours an Idempotency-Key header (idempotency.go); openapi.go documents every route
// (a test checks that none is missing).
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// HEAD is answered on every GET route as GET without the body (GetHead); strictQuery
	// refuses unknown, repeated or badly encoded query parameters on every route.
	r.Use(s.observe, s.recoverer, limitBody, withTimeout, middleware.GetHead, strictQuery(true))
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	r.Get("/healthz", s.health)
	r.Get("/readyz", s.ready)
	r.Handle("/oauth2/token", auth.NewTokenHandler(s.deps.Clients, s.deps.Issuer, s.deps.Throttle, s.deps.Log.WithName("token")))
	r.Method(http.MethodGet, "/.well-known/jwks.json", auth.JWKSHandler(s.deps.Issuer.Keys()))
	r.Get("/openapi.json", s.serveOpenAPI)

	r.Route("/v1", func(r chi.Router) {
		r.Use(auth.RequireBearer(s.deps.Issuer, s.deps.States), withTenant, strictQuery(false))

		r.Post("/accounts", s.createAccount) // ext
		r.Get("/accounts", s.listAccounts)   // ext
		r.Get("/accounts/{account_id}", s.getAccount)
		r.Patch("/accounts/{account_id}", s.updateAccount)

		r.Post("/accounts/{account_id}/wallets", s.createWallet)
		r.Get("/accounts/{account_id}/wallets", s.listWallets)
		r.Get("/accounts/{account_id}/wallets/{wallet_id}", s.getWallet) // ext
		r.Patch("/accounts/{account_id}/wallets/{wallet_id}", s.updateWallet)

		r.Post("/accounts/{account_id}/payment-method-details", s.createPaymentMethod)
		r.Get("/accounts/{account_id}/payment-method-details", s.listPaymentMethods) // ext
		r.Get("/accounts/{account_id}/payment-method-details/{payment_method_details_id}", s.getPaymentMethod)
		r.Patch("/accounts/{account_id}/payment-method-details/{payment_method_details_id}", s.updatePaymentMethod)

		r.Get("/accounts/{account_id}/portfolio", s.getPortfolio) // ext

		r.Post("/orders", s.createOrder) // ext
		r.Get("/orders", s.listOrders)
		r.Get("/orders/{order_id}", s.getOrder) // ext
		r.Delete("/orders/{order_id}", s.cancelOrder)
		r.Delete("/orders/{order_id}/", s.cancelOrder)

		r.Get("/funds", s.listFunds)
		r.Get("/funds/{fund_id}", s.getFund)
		r.Get("/share-classes", s.listShareClasses)
		r.Get("/share-classes/{isin}", s.getShareClass) // ext
		r.Get("/assets/{isin}/prices", s.listPrices)
		r.Get("/assets/{isin}/prices/latest", s.latestPrice) // ext
	})
	return r
}
