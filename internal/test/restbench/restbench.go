// Package restbench holds the loop the REST facade's benchmarks share: one authenticated
// read through a middleware, measured per request. Test code only: nothing the production
// binary links imports it.
package restbench

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Bearer measures middleware (the bearer check, e.g. auth.RequireBearer(issuer, states))
// in front of a handler that answers 204: one GET /v1/funds with the token per iteration.
// A request the middleware does not let through fails the benchmark.
func Bearer(b *testing.B, middleware func(http.Handler) http.Handler, token string) {
	b.Helper()
	h := middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	req := httptest.NewRequest(http.MethodGet, "/v1/funds", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusNoContent {
			b.Fatal(w.Code, w.Body)
		}
	}
}
