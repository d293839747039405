// Copyright 2026 The fundshare-operator Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package auth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"

	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

// Client is an API client (integrator) as the token endpoint sees it.
type Client struct {
	// ID is the OAuth client_id.
	ID string
	// Tenant is the Kubernetes namespace the client is confined to.
	Tenant string
	// SecretHash is the argon2id PHC string produced by clientsecret.Hash; the
	// plain secret is never stored.
	SecretHash string
	// Disabled clients cannot obtain tokens; they get the same invalid_client
	// answer as an unknown client or a wrong secret. Their tokens are refused.
	Disabled bool
	// Credentials is CredentialsFingerprint of the client's current credentials;
	// tokens carry it and stop working when it changes.
	Credentials string
}

// ClientStore looks up API clients by client id. Implementations must
// return an error wrapping ErrClientNotFound for unknown ids; any other error
// is treated as a server fault (500), not as a failed login.
type ClientStore interface {
	LookupClient(ctx context.Context, clientID string) (Client, error)
}

// ClientStates tells the bearer check the current state of a client, from
// caches: it is called on every authenticated request.
type ClientStates interface {
	// ClientState returns the client's Tenant, Disabled and Credentials (not its
	// SecretHash), from data at most maxAge old, or an error wrapping
	// ErrClientNotFound when no client has the id. Any other error means the
	// state cannot be known now.
	ClientState(ctx context.Context, clientID string, maxAge time.Duration) (Client, error)
}

// ErrClientNotFound is returned (possibly wrapped) by a ClientStore when no
// client has the requested id.
var ErrClientNotFound = errors.New("auth: client not found")

// Token endpoint limits.
const (
	// maxTokenRequestBody bounds the form body; a real request is a few
	// hundred bytes.
	maxTokenRequestBody = 64 << 10
	// maxClientIDLen bounds client ids so that throttle keys and log fields
	// stay small.
	maxClientIDLen = 256
)

// The scopes there are. Every token is granted all of them: a request names all of them
// or, to get that default, none (RFC 6749 §3.3); one that names only some is refused
// (invalid_scope), since the set is granted whole or not at all.
var requiredScopes = []string{"openid", "offline"}

// grantedScope is the canonical scope string returned and put in tokens; it is also the
// default scope of a request without one.
var grantedScope = strings.Join(requiredScopes, " ")

// grantClientCredentials is the only grant type (RFC 6749 §4.4).
const grantClientCredentials = "client_credentials"

// tokenEndpointAuthMethods are the ways a client authenticates to the token endpoint, as
// clientCredentials reads them, by their names in the OAuth registry (RFC 7591 §2):
// HTTP Basic, and client_id and client_secret in the form body.
var tokenEndpointAuthMethods = []string{"client_secret_basic", "client_secret_post"}

// oauthError is an RFC 6749 §5.2 error response.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// tokenResponse is an RFC 6749 §5.1 successful response.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
	Scope       string `json:"scope"`
}

// verifyQueueTimeout bounds how long a token request waits for a verification
// slot before it is answered 503 temporarily_unavailable with Retry-After.
const verifyQueueTimeout = 3 * time.Second

// tokenHandler implements the client-credentials token endpoint.
type tokenHandler struct {
	store    ClientStore
	issuer   *Issuer
	throttle *Throttle
	log      logr.Logger
	// gate bounds concurrent argon2id verifications (GOMAXPROCS slots, at least
	// two) and serves sources known for the client first.
	gate *verifyGate
	// verify checks a secret against a stored hash; clientsecret.Compare, replaced by tests
	// to see which hashes were verified.
	verify func(encoded, secret string) (bool, error)
}

// NewTokenHandler returns the OAuth 2.0 client-credentials token endpoint
// (POST {base_url}/oauth2/token). Clients authenticate with client_id and
// client_secret in the form body or with HTTP Basic (RFC 6749 §2.3.1,
// form-urlencoded inside Basic). The request must carry
// grant_type=client_credentials and audience equal to issuer.Audience(), and either
// no scope, to get the default scope "openid offline" (RFC 6749 §3.3), or a scope
// containing exactly "openid" and "offline" in any order. The answer always names the
// granted scope.
//
// Unknown clients, wrong secrets and disabled clients all get the same 401
// invalid_client, and unknown ids are verified against a dummy hash so the
// answer costs the same. throttle may be nil to disable throttling. At most
// GOMAXPROCS secrets are verified at once; a request that finds no slot within
// 3 s is answered 503 temporarily_unavailable with Retry-After. Each request is
// logged with its outcome, client id, source and reason; secrets and tokens are
// never logged.
//
// It panics if store or issuer is nil: that is a wiring bug, better caught at
// start-up than on the first login.
func NewTokenHandler(store ClientStore, issuer *Issuer, throttle *Throttle, log logr.Logger) http.Handler {
	if store == nil || issuer == nil {
		panic("auth: NewTokenHandler needs a ClientStore and an Issuer")
	}
	return &tokenHandler{
		store:    store,
		issuer:   issuer,
		throttle: throttle,
		log:      log,
		gate:     newVerifyGate(runtime.GOMAXPROCS(0), verifyQueueTimeout),
		verify:   clientsecret.Compare,
	}
}

// tokenFailure describes a rejected token request.
type tokenFailure struct {
	status int
	code   string // RFC 6749 error code
	desc   string // client-facing; fixed ASCII text only
	reason string // for the log
	// challenge adds WWW-Authenticate: Basic (client tried Basic).
	challenge bool
	// retryAfter, when non-zero, is sent as Retry-After seconds.
	retryAfter int64
}

// ServeHTTP implements http.Handler.
func (h *tokenHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	source := h.throttle.Source(r)
	clientID, fail := h.serve(w, r, source)
	if fail == nil {
		return
	}
	hdr := w.Header()
	if fail.challenge {
		hdr.Set("WWW-Authenticate", `Basic realm="fundshare"`)
	}
	if fail.retryAfter > 0 {
		hdr.Set("Retry-After", strconv.FormatInt(fail.retryAfter, 10))
	}
	h.log.Info("token request rejected",
		"outcome", "rejected", "status", fail.status, "error", fail.code,
		"client_id", clientID, "source", source, "reason", fail.reason)
	writeTokenJSON(w, fail.status, oauthError{Error: fail.code, Description: fail.desc})
}

// serve handles the request; on success it writes the response itself and
// returns nil, otherwise it returns the failure to report. The client id is
// returned (when known) for logging.
func (h *tokenHandler) serve(w http.ResponseWriter, r *http.Request, source string) (string, *tokenFailure) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return "", &tokenFailure{status: http.StatusMethodNotAllowed, code: "invalid_request",
			desc: "the token endpoint only accepts POST", reason: "method " + r.Method}
	}
	if r.URL.RawQuery != "" {
		return "", badRequest("parameters must be sent in the request body", "query string present")
	}
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/x-www-form-urlencoded" {
		return "", badRequest("Content-Type must be application/x-www-form-urlencoded", "wrong content type")
	}
	// RFC 6749 §4.4.2 and Appendix B: the parameters are form-encoded in UTF-8, so a body
	// declared in another charset is refused rather than misread. OAuth answers every
	// malformed token request with 400 invalid_request (§5.2), never 415. The charset is
	// logged, not echoed: error_description allows only fixed text (§5.2).
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return "", badRequest("the form body must be UTF-8: send charset=utf-8 or no charset", "charset "+strconv.QuoteToASCII(clipCharset(cs)))
	}
	tooLarge := &tokenFailure{status: http.StatusRequestEntityTooLarge, code: "invalid_request",
		desc: "request body too large (at most " + strconv.Itoa(maxTokenRequestBody) + " bytes)", reason: "body too large"}
	if r.ContentLength > maxTokenRequestBody {
		return "", tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxTokenRequestBody))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return "", tooLarge
		}
		return "", badRequest("cannot read request body", "body read error")
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return "", badRequest("malformed form body", "form parse error")
	}
	// RFC 6749 §3.2: parameters must not be included more than once.
	for name, values := range form {
		if len(values) > 1 {
			desc := "a parameter was included more than once"
			if knownParam(name) {
				desc = "parameter " + name + " was included more than once"
			}
			return "", badRequest(desc, "duplicate parameter")
		}
	}

	switch grant := form.Get("grant_type"); grant {
	case grantClientCredentials:
	case "":
		return "", badRequest("grant_type is required", "missing grant_type")
	default:
		return "", &tokenFailure{status: http.StatusBadRequest, code: "unsupported_grant_type",
			desc: "only grant_type=client_credentials is supported", reason: "unsupported grant_type"}
	}

	clientID, secret, usedBasic, fail := clientCredentials(r, form)
	if fail != nil {
		return clientID, fail
	}
	if clientID == "" {
		return "", invalidClient(usedBasic, "no client credentials")
	}
	if len(clientID) > maxClientIDLen {
		return "", invalidClient(usedBasic, "client id too long")
	}

	// RFC 6749 §3.3: a request without scope gets the default scope, grantedScope; a
	// parameter sent without a value counts as omitted (§3.2).
	if rawScope := form.Get("scope"); rawScope != "" && !validScope(rawScope) {
		return clientID, &tokenFailure{status: http.StatusBadRequest, code: "invalid_scope",
			desc: "scope must be exactly 'openid offline', or left out for that default", reason: "invalid scope"}
	}
	aud := form.Get("audience")
	if aud == "" {
		return clientID, badRequest("audience is required", "missing audience")
	}
	if !strings.EqualFold(aud, h.issuer.Audience()) {
		return clientID, badRequest("audience must be the API host name", "wrong audience")
	}

	// Expensive part: throttle (cheap refusal before queueing), a verification
	// slot, the throttle again (blocks reached while waiting), then argon2id.
	if fail := h.throttled(clientID, source); fail != nil {
		return clientID, fail
	}
	release, err := h.gate.acquire(r.Context(), h.throttle.Known(clientID, source))
	if err != nil {
		return clientID, &tokenFailure{status: http.StatusServiceUnavailable, code: "temporarily_unavailable",
			desc: "too many token requests in progress; retry later", reason: "no verification slot: " + err.Error(),
			retryAfter: 1}
	}
	defer release()
	if fail := h.throttled(clientID, source); fail != nil {
		return clientID, fail
	}

	client, err := h.store.LookupClient(r.Context(), clientID)
	found := err == nil
	if err != nil && !errors.Is(err, ErrClientNotFound) {
		h.log.Error(err, "client lookup failed", "client_id", clientID)
		return clientID, serverError("client lookup failed")
	}
	var reason string
	authenticated := false
	if !found {
		_, _ = h.verify(clientsecret.DummyHash, secret) // the same work as a real check
		reason = "unknown client"
	} else {
		ok, herr := h.verify(client.SecretHash, secret)
		switch {
		case herr != nil:
			_, _ = h.verify(clientsecret.DummyHash, secret)
			h.log.Error(herr, "stored client secret hash is unusable", "client_id", clientID)
			reason = "stored secret hash unusable"
		case !ok:
			reason = "bad client secret"
		case client.Disabled:
			reason = "client disabled"
		default:
			authenticated = true
		}
	}
	if !authenticated {
		h.throttle.Failure(clientID, source)
		return clientID, invalidClient(usedBasic, reason)
	}

	token, expiresIn, err := h.issuer.IssueFor(client, grantedScope)
	if err != nil {
		h.log.Error(err, "issuing token failed", "client_id", clientID)
		return clientID, serverError("token issuance failed")
	}
	h.throttle.Success(clientID, source)
	h.log.Info("token issued", "outcome", "issued", "status", http.StatusOK,
		"client_id", clientID, "tenant", client.Tenant, "expires_in", expiresIn)
	writeTokenJSON(w, http.StatusOK, tokenResponse{
		AccessToken: token,
		TokenType:   "Bearer",
		ExpiresIn:   expiresIn,
		Scope:       grantedScope,
	})
	return clientID, nil
}

// throttled refuses an attempt of clientID from source while it is blocked.
func (h *tokenHandler) throttled(clientID, source string) *tokenFailure {
	wait, ok := h.throttle.Allow(clientID, source)
	if ok {
		return nil
	}
	return &tokenFailure{status: http.StatusTooManyRequests, code: "invalid_client",
		desc: "too many failed authentication attempts from this address; retry later", reason: "throttled",
		retryAfter: int64(wait / time.Second)}
}

// clientCredentials extracts the client id and secret from HTTP Basic or the
// form. Using both is allowed only when they agree.
func clientCredentials(r *http.Request, form url.Values) (id, secret string, usedBasic bool, fail *tokenFailure) {
	formID, formSecret := form.Get("client_id"), form.Get("client_secret")
	authz := r.Header.Values("Authorization")
	if len(authz) == 0 {
		return formID, formSecret, false, nil
	}
	if len(authz) > 1 {
		return "", "", true, badRequest("multiple Authorization headers", "multiple Authorization headers")
	}
	user, pass, ok := r.BasicAuth()
	if !ok {
		return "", "", true, invalidClient(true, "unsupported or malformed Authorization header")
	}
	// RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic.
	id, err1 := url.QueryUnescape(user)
	secret, err2 := url.QueryUnescape(pass)
	if err1 != nil || err2 != nil {
		return "", "", true, invalidClient(true, "malformed Basic credentials encoding")
	}
	if (formID != "" && formID != id) || (formSecret != "" && formSecret != secret) {
		return id, "", true, badRequest("conflicting client credentials in Authorization header and body",
			"conflicting client credentials")
	}
	return id, secret, true, nil
}

// validScope reports whether raw (space-delimited, RFC 6749 §3.3) contains
// every required scope and nothing else. Order and repetition don't matter.
func validScope(raw string) bool {
	seen := make(map[string]bool, len(requiredScopes))
	for _, tok := range strings.Split(raw, " ") {
		if tok == "" {
			continue
		}
		known := false
		for _, s := range requiredScopes {
			if tok == s {
				known = true
				break
			}
		}
		if !known {
			return false
		}
		seen[tok] = true
	}
	return len(seen) == len(requiredScopes)
}

// knownParam reports whether name is a parameter of this endpoint, and so
// safe to echo in an error description.
func knownParam(name string) bool {
	switch name {
	case "grant_type", "scope", "client_id", "client_secret", "audience":
		return true
	}
	return false
}

// clipCharset bounds a client's charset parameter for the log.
func clipCharset(cs string) string {
	if len(cs) > 64 {
		return cs[:64]
	}
	return cs
}

// badRequest is a 400 invalid_request.
func badRequest(desc, reason string) *tokenFailure {
	return &tokenFailure{status: http.StatusBadRequest, code: "invalid_request", desc: desc, reason: reason}
}

// invalidClient is the single answer for every client-authentication
// failure, so that it reveals nothing about which check failed.
func invalidClient(usedBasic bool, reason string) *tokenFailure {
	return &tokenFailure{status: http.StatusUnauthorized, code: "invalid_client",
		desc: "client authentication failed", reason: reason, challenge: usedBasic}
}

// serverError is a 500 server_error.
func serverError(reason string) *tokenFailure {
	return &tokenFailure{status: http.StatusInternalServerError, code: "server_error",
		desc: "internal error", reason: reason}
}

// writeTokenJSON writes a token-endpoint response. Every response, errors
// included, is marked uncacheable (RFC 6749 §5.1).
func writeTokenJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
