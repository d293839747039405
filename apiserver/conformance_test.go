package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The suite's HTTP client goes through conformance, which holds the facade to two
// promises for every exchange of every spec:
//
//   - the answer matches GET /openapi.json: a documented status, the required headers, a
//     body of the documented schema (routes the document does not have answer 404 or 405
//     with the error body); a request the facade accepted (2xx) is one the document allows;
//   - no secret leaks: it notes every client secret, Authorization header value and access
//     token that goes over the wire, and every error body, so that the suite can check at
//     its end that none of them appears in the logs, in Events or in an error body.
type conformance struct {
	base        http.RoundTripper
	router      routers.Router
	errorSchema *openapi3.Schema
	oauthSchema *openapi3.Schema

	mu          sync.Mutex
	mismatches  []string
	exchanges   int
	secrets     map[string]bool // client secrets and Authorization values sent
	tokens      map[string]bool // access tokens received
	errorBodies []string
}

func init() {
	// Operators upload bank files as XML (POST /v1/operator/bank-files, a string of format
	// binary in the document): kin-openapi checks such a body as a file.
	for _, mt := range []string{"application/xml", "text/xml"} {
		openapi3filter.RegisterBodyDecoder(mt, openapi3filter.FileBodyDecoder)
	}
}

// loadConformance fetches the facade's document (with a plain client), validates it and
// returns the transport that checks every exchange against it.
func loadConformance(baseURL string, base http.RoundTripper) *conformance {
	res, err := http.Get(baseURL + "/openapi.json")
	Expect(err).NotTo(HaveOccurred())
	defer res.Body.Close()
	Expect(res.StatusCode).To(Equal(http.StatusOK))
	raw, err := io.ReadAll(res.Body)
	Expect(err).NotTo(HaveOccurred())
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	Expect(err).NotTo(HaveOccurred())
	Expect(doc.Validate(context.Background())).To(Succeed())
	Expect(doc.Servers).To(HaveLen(1))
	Expect(doc.Servers[0].URL).To(Equal(baseURL))
	router, err := gorillamux.NewRouter(doc)
	Expect(err).NotTo(HaveOccurred())
	return &conformance{
		base: base, router: router,
		errorSchema: doc.Components.Schemas["ErrorResponse"].Value,
		oauthSchema: doc.Components.Schemas["OAuthError"].Value,
		secrets:     map[string]bool{}, tokens: map[string]bool{},
	}
}

func (c *conformance) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	c.noteRequest(req, reqBody)
	res, err := c.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	c.noteResponse(req, res, body)
	if verr := c.check(req, reqBody, res, body); verr != nil {
		msg := fmt.Sprintf("%s %s answered %d, which /openapi.json does not allow: %v\nbody: %.600s",
			req.Method, req.URL.RequestURI(), res.StatusCode, verr, body)
		c.mu.Lock()
		c.mismatches = append(c.mismatches, msg)
		c.mu.Unlock()
		return nil, errors.New(msg)
	}
	return res, nil
}

// check validates one exchange.
func (c *conformance) check(req *http.Request, reqBody []byte, res *http.Response, body []byte) error {
	c.mu.Lock()
	c.exchanges++
	c.mu.Unlock()
	ctx := context.Background()
	probe := req.Clone(ctx)
	probe.Body = io.NopCloser(bytes.NewReader(reqBody))
	// DELETE /v1/orders/{order_id}/ is documented once, without the slash (openapi.go, alias).
	if p := probe.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		probe.URL.Path, probe.URL.RawPath = strings.TrimSuffix(p, "/"), strings.TrimSuffix(probe.URL.RawPath, "/")
	}
	route, params, err := c.router.FindRoute(probe)
	if err != nil {
		if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed {
			return fmt.Errorf("the route is not documented (%w)", err)
		}
		schema := c.errorSchema
		if req.URL.Path == "/oauth2/token" {
			schema = c.oauthSchema
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return fmt.Errorf("the body is not JSON: %w", err)
		}
		return schema.VisitJSON(v, openapi3.MultiErrors())
	}
	opts := &openapi3filter.Options{
		IncludeResponseStatus: true, MultiError: true,
		AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
			if !strings.HasPrefix(in.RequestValidationInput.Request.Header.Get("Authorization"), "Bearer ") {
				return errors.New("no bearer token")
			}
			return nil
		},
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	if res.StatusCode < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("the facade accepted a request the document does not allow: %w", err)
		}
	}
	return openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: res.StatusCode, Header: res.Header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: opts,
	})
}

// minSecretLength: shorter values ("wrong", used by a spec as a bad secret) would match
// ordinary words; every real secret and token is far longer.
const minSecretLength = 12

func (c *conformance) noteSecret(m map[string]bool, v string) {
	if len(v) >= minSecretLength {
		m[v] = true
	}
}

func (c *conformance) noteRequest(req *http.Request, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, v := range req.Header.Values("Authorization") {
		c.noteSecret(c.secrets, v)
		if _, cred, ok := strings.Cut(v, " "); ok {
			c.noteSecret(c.secrets, strings.TrimSpace(cred))
		}
	}
	if user, pass, ok := req.BasicAuth(); ok {
		c.noteSecret(c.secrets, user+":"+pass)
		c.noteSecret(c.secrets, pass)
	}
	if req.URL.Path == "/oauth2/token" {
		if form, err := url.ParseQuery(string(body)); err == nil {
			c.noteSecret(c.secrets, form.Get("client_secret"))
		}
	}
}

func (c *conformance) noteResponse(req *http.Request, res *http.Response, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if res.StatusCode >= 400 {
		c.errorBodies = append(c.errorBodies, string(body))
	}
	if strings.HasPrefix(req.URL.Path, "/v1/webhook-endpoints") && res.StatusCode < 300 {
		// A webhook endpoint's signing secret, shown at its creation and rotation.
		var sec struct {
			Secret string `json:"secret"`
		}
		if json.Unmarshal(body, &sec) == nil && sec.Secret != "" {
			c.noteSecret(c.secrets, sec.Secret)
		}
	}
	if req.URL.Path == "/oauth2/token" && res.StatusCode == http.StatusOK {
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		if json.Unmarshal(body, &tok) == nil && tok.AccessToken != "" {
			c.noteSecret(c.tokens, tok.AccessToken)
			// The signature alone identifies the token as well.
			if i := strings.LastIndex(tok.AccessToken, "."); i > 0 {
				c.noteSecret(c.tokens, tok.AccessToken[i+1:])
			}
		}
	}
}

// Mismatches are the exchanges that broke the document, for the end of the suite.
func (c *conformance) Mismatches() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.mismatches...)
}

// leaks lists the secrets, tokens and Authorization values found in text, by kind.
func (c *conformance) leaks(where, text string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for v := range c.secrets {
		if strings.Contains(text, v) {
			out = append(out, fmt.Sprintf("%s contains a client secret or Authorization value (%.6s…)", where, v))
		}
	}
	for v := range c.tokens {
		if strings.Contains(text, v) {
			out = append(out, fmt.Sprintf("%s contains an access token (%.6s…)", where, v))
		}
	}
	return out
}

// assertNoSecretsLeaked checks the captured logs, the Events of the tenants' namespaces
// and every error body the suite received.
func (c *conformance) assertNoSecretsLeaked(logs string, namespaces []string) {
	c.mu.Lock()
	secrets, tokens, bodies := len(c.secrets), len(c.tokens), append([]string(nil), c.errorBodies...)
	c.mu.Unlock()
	// The checks must have had something to look for and somewhere to look.
	Expect(secrets).To(BeNumerically(">", 3), "the suite sent no client secrets or Authorization headers?")
	Expect(tokens).To(BeNumerically(">", 3), "the suite received no access tokens?")
	Expect(logs).To(ContainSubstring("token issued"), "the facade's logs were not captured")
	Expect(logs).To(ContainSubstring(`"route"`), "the request logs were not captured")

	leaks := c.leaks("the manager's and facade's logs", logs)
	for _, ns := range namespaces {
		var events corev1.EventList
		Expect(k8s.List(context.Background(), &events, client.InNamespace(ns))).To(Succeed())
		raw, err := json.Marshal(events.Items)
		Expect(err).NotTo(HaveOccurred())
		leaks = append(leaks, c.leaks("Events of namespace "+ns, string(raw))...)
	}
	for _, b := range bodies {
		leaks = append(leaks, c.leaks("an error body", b)...)
	}
	Expect(leaks).To(BeEmpty())
}

// TestConformanceNotesBasicCredentials: a client id and secret sent with HTTP Basic (as
// RFC 6749 §2.3.1 allows at the token endpoint) are looked for in the logs like a form's
// client_secret, decoded as well as encoded.
func TestConformanceNotesBasicCredentials(t *testing.T) {
	c := &conformance{secrets: map[string]bool{}, tokens: map[string]bool{}}
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/oauth2/token", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("tenant-client", "s3cret-s3cret-s3cret")
	c.noteRequest(req, nil)
	for _, logged := range []string{
		"secret=s3cret-s3cret-s3cret",
		"credentials tenant-client:s3cret-s3cret-s3cret",
		"header " + req.Header.Get("Authorization"),
	} {
		if len(c.leaks("the log", logged)) == 0 {
			t.Errorf("%q: the leak is not found", logged)
		}
	}
}
