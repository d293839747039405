package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func loadOpenAPI(t *testing.T, s *Server) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(s.openAPI)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return doc
}

func TestOpenAPIDocumentIsAValidOpenAPI3Document(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid document: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0") {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	schemes := doc.Components.SecuritySchemes
	if schemes["bearerAuth"].Value.Scheme != "bearer" || schemes["oauth2"].Value.Flows.ClientCredentials.TokenURL != "http://api.example.com/oauth2/token" {
		t.Fatalf("security schemes %+v", schemes)
	}
}

// Every route the router serves is documented with its method, and the document names
// no route the router lacks.
func TestOpenAPIDocumentsEveryRouteAndNoOther(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)
	var served []string
	err := chi.Walk(s.routes().(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.ReplaceAll(route, "/*/", "/")
		if route == "/oauth2/token" && method != http.MethodPost {
			return nil // answered 405 in the OAuth error shape
		}
		if route != "/" && strings.HasSuffix(route, "/") {
			// A second spelling of the route without the slash (an alias operation):
			// documented once, without it.
			if !slices.ContainsFunc(operations(), func(op operation) bool { return op.alias && op.method+" "+op.path == method+" "+route }) {
				return fmt.Errorf("%s %s ends with a slash and is no alias operation", method, route)
			}
			route = strings.TrimSuffix(route, "/")
			if slices.Contains(served, method+" "+route) {
				return nil
			}
		}
		served = append(served, method+" "+route)
		if method == http.MethodGet {
			served = append(served, http.MethodHead+" "+route) // middleware.GetHead
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	sort.Strings(served)
	sort.Strings(documented)
	if strings.Join(served, "\n") != strings.Join(documented, "\n") {
		t.Fatalf("served:\n%s\n\ndocumented:\n%s", strings.Join(served, "\n"), strings.Join(documented, "\n"))
	}
}

// Response fields are required and nullable exactly as the views write them: pointers
// are null, omitempty fields may be absent, request fields optional unless tagged.
func TestOpenAPISchemasFollowTheTypes(t *testing.T) {
	s, _, _ := newTestServer(t)
	schemas := loadOpenAPI(t, s).Components.Schemas
	order := schemas["Order"].Value
	for _, f := range []string{"id", "value", "settlement_transaction_hash", "created_at", "fund_details", "history"} {
		if !contains(order.Required, f) {
			t.Errorf("Order.%s not required", f)
		}
	}
	for _, f := range []string{"payment_details", "redemption_fee", "redemption_fee_amount", "subscription_fee", "refund"} {
		if !contains(order.Required, f) || !order.Properties[f].Value.Nullable {
			t.Errorf("Order.%s must be present on every order (required) and nullable", f)
		}
	}
	if !order.Properties["settlement_transaction_hash"].Value.Nullable || order.Properties["value"].Value.Nullable {
		t.Error("nullable wrong on Order")
	}
	if order.AdditionalProperties.Has == nil || *order.AdditionalProperties.Has {
		t.Error("response objects must not allow unknown fields")
	}
	req := schemas["OrderCreateRequest"].Value
	if !contains(req.Required, "account_id") || contains(req.Required, "wallet_id") {
		t.Errorf("OrderCreateRequest required %v", req.Required)
	}
	if got := req.Properties["account_id"].Value.Pattern; got != anyUUIDPattern {
		t.Errorf("request ids accept any letter case, pattern %q", got)
	}
}

func TestOpenAPIIsServedWithoutAToken(t *testing.T) {
	s, _, _ := newTestServer(t)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", w.Code, w.Header())
	}
	var v map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || v["openapi"] == nil {
		t.Fatalf("body %.200s", w.Body)
	}
}

// With the lifecycle controller down nothing confirms an accepted cancellation: the
// answer comes after the bounded wait, 202 with cancellation_requested true.
func TestCancellationNotConfirmedInTimeAnswers202WithTheRequestRecorded(t *testing.T) {
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Namespace: "t1", Name: "0d9e8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b", CreationTimestamp: metav1.Now()},
		Spec: investv1.OrderSpec{Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: "IE00B4L5Y983",
			AmountOfUnits: 10, Currency: "EUR", AccountID: "1d9e8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"},
		Status: investv1.OrderStatus{State: investv1.StateAwaitingPayment},
	}
	s, c, token := newTestServer(t, o)
	s.cancelWait = 200 * time.Millisecond
	for _, path := range []string{"/v1/orders/" + o.Name, "/v1/orders/" + o.Name + "/"} {
		r := httptest.NewRequest(http.MethodDelete, path, nil)
		r.Header.Set("Authorization", "Bearer "+token("t1"))
		w := httptest.NewRecorder()
		start := time.Now()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusAccepted {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
		if time.Since(start) < s.cancelWait {
			t.Fatal("answered before the wait was over")
		}
		var got Order
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if !got.CancellationRequested || got.Status != "AWAITING_PAYMENT" {
			t.Fatalf("answer %+v", got)
		}
	}
	stored := &investv1.Order{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(o), stored); err != nil || !stored.Spec.CancellationRequested {
		t.Fatalf("stored %v %+v", err, stored.Spec)
	}
}

func TestIdempotencyKeyHeaderIsOneTo255VisibleASCII(t *testing.T) {
	cases := map[string]bool{"a": true, strings.Repeat("k", 255): true, "0193-ä": false, "with space": false,
		strings.Repeat("k", 256): false, "tab\t": false, "~!#": true}
	for k, want := range cases {
		if got := validIdempotencyKey(k); got != want {
			t.Errorf("%q: %v, want %v", k, got, want)
		}
	}
}

func TestRequestHashIgnoresKeyOrderAndWhiteSpaceButNotValuesOrPath(t *testing.T) {
	a := requestHash("/v1/accounts", []byte(`{"type":"individual","city":"Berlin"}`))
	b := requestHash("/v1/accounts", []byte("{ \"city\": \"Berlin\",\n \"type\": \"individual\" }"))
	if a != b {
		t.Fatal("same request, different hash")
	}
	if a == requestHash("/v1/accounts", []byte(`{"type":"individual","city":"Bonn"}`)) {
		t.Fatal("other body, same hash")
	}
	if a == requestHash("/v1/accounts/x/wallets", []byte(`{"type":"individual","city":"Berlin"}`)) {
		t.Fatal("other path, same hash")
	}
}
