package apiserver

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// routeQuery is what one route accepts in its query string: the parameters that
// openapi.go documents for it, and nothing else.
type routeQuery struct {
	params []string
	public bool
}

// queryOfRoute maps "METHOD pattern" to the route's query parameters, from the operations
// of the OpenAPI document: what is documented is what is accepted.
var queryOfRoute = func() map[string]routeQuery {
	m := map[string]routeQuery{}
	for _, op := range operations() {
		q := routeQuery{public: op.public}
		for _, p := range op.query {
			q.params = append(q.params, p.name)
		}
		m[op.method+" "+op.path] = q
	}
	return m
}()

// strictQuery refuses, with 422 and a message per parameter, a query string that is badly
// encoded, or that names a parameter the route does not take or names one twice: on
// every route, the single-object reads and the writes included (their query strings used
// to be ignored, so a client's typo went unnoticed). It serves the public routes when
// public is true and the authenticated ones (after the bearer check, so that a caller
// without a token gets 401 first) when it is false. HEAD is checked as GET. The token
// endpoint is left to the OAuth handler, which answers in the OAuth error shape.
func strictQuery(public bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q, ok := routeQueryOf(r)
			if !ok || q.public != public || r.URL.Path == "/oauth2/token" {
				next.ServeHTTP(w, r)
				return
			}
			if fe := checkQuery(r.URL.RawQuery, q.params); !fe.Empty() {
				writeValidation(w, fe)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// routeQueryOf finds the route a request goes to; false for a path or method the router
// answers 404 or 405 to.
func routeQueryOf(r *http.Request) (routeQuery, bool) {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil || rctx.Routes == nil {
		return routeQuery{}, false
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	pattern := rctx.Routes.Find(chi.NewRouteContext(), method, path)
	if pattern == "" {
		return routeQuery{}, false
	}
	q, ok := queryOfRoute[method+" "+strings.ReplaceAll(pattern, "/*/", "/")]
	return q, ok
}

// checkQuery parses a raw query string strictly: pairs separated by & only, names and
// values correctly percent-encoded and valid UTF-8 text without control characters, each
// name one of allowed and given at most once. url.ParseQuery would drop a badly encoded
// pair without a word (?limit=%zz read as no limit at all).
func checkQuery(raw string, allowed []string) validation.FieldErrors {
	var fe validation.FieldErrors
	if raw == "" {
		return nil
	}
	seen := map[string]bool{}
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil || validation.ValidateText(name) != nil || strings.Contains(k, ";") {
			fe.Add("query", "has a parameter name that is not correctly percent-encoded (or uses ; as a separator)")
			continue
		}
		switch value, err := url.QueryUnescape(v); {
		case err != nil || strings.Contains(v, ";"):
			fe.Add(name, "is not correctly percent-encoded (or uses ; as a separator)")
		case validation.ValidateText(value) != nil:
			fe.AddErr(name, validation.ValidateText(value))
		}
		switch {
		case seen[name]:
			if contains(allowed, name) && !contains(fe[name], msgRepeated) {
				fe.Add(name, msgRepeated)
			}
		case !contains(allowed, name):
			fe.Add(name, "is not a known query parameter")
		}
		seen[name] = true
	}
	return fe
}

const msgRepeated = "must be given at most once"
