package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// The discovery documents as routes.go serves them, checked against the facade itself
// (the REST suite's discovery_test.go fetches them over HTTP from a running manager).

func serveDiscovery(t *testing.T, s *Server, path string) []byte {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
	}
	return w.Body.Bytes()
}

// Rule: each discovery document is exactly its documented type (OAuthServerMetadata,
// OpenIDConfiguration): no field the type lacks, every field it has.
func TestTheDiscoveryDocumentsAreTheirDocumentedTypes(t *testing.T) {
	s, _, _ := newTestServer(t)
	for path, v := range map[string]any{
		"/.well-known/oauth-authorization-server": &OAuthServerMetadata{},
		"/.well-known/openid-configuration":       &OpenIDConfiguration{},
	} {
		body := serveDiscovery(t, s, path)
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			t.Fatalf("%s: %v in %s", path, err, body)
		}
		var served, typed map[string]any
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if json.Unmarshal(body, &served) != nil || json.Unmarshal(again, &typed) != nil || len(served) != len(typed) {
			t.Fatalf("%s: served %s, its type has %s", path, body, again)
		}
		for k, sv := range served {
			a, _ := json.Marshal(sv)
			b, _ := json.Marshal(typed[k])
			if !bytes.Equal(a, b) {
				t.Errorf("%s: %s is %s served, %s typed", path, k, a, b)
			}
		}
	}
}

// Rule: the endpoints the documents name are routes of this facade: token_endpoint is the
// token endpoint (it answers a token request in the OAuth shape) and jwks_uri the key set.
func TestTheDiscoveredEndpointsAreTheFacadesRoutes(t *testing.T) {
	s, _, _ := newTestServer(t)
	var doc OAuthServerMetadata
	if err := json.Unmarshal(serveDiscovery(t, s, "/.well-known/oauth-authorization-server"), &doc); err != nil {
		t.Fatal(err)
	}
	base := s.deps.Issuer.IssuerURL()
	pathOf := func(field, u string) string {
		t.Helper()
		rel, ok := strings.CutPrefix(u, base)
		if !ok {
			t.Fatalf("%s %q is not under the base URL %q", field, u, base)
		}
		return rel
	}

	w := httptest.NewRecorder()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {"nobody"}, "client_secret": {"wrong"}, "audience": {"api.example.com"}}
	req := httptest.NewRequest(http.MethodPost, pathOf("token_endpoint", doc.TokenEndpoint), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	s.ServeHTTP(w, req)
	var oauthErr OAuthError
	if w.Code != http.StatusUnauthorized || json.Unmarshal(w.Body.Bytes(), &oauthErr) != nil || oauthErr.Error != "invalid_client" {
		t.Errorf("POST token_endpoint for an unknown client: %d %s, want 401 invalid_client", w.Code, w.Body)
	}

	var keys JSONWebKeySet
	if err := json.Unmarshal(serveDiscovery(t, s, pathOf("jwks_uri", doc.JWKSURI)), &keys); err != nil || len(keys.Keys) == 0 || keys.Keys[0].Kid != s.deps.Issuer.Keys().ActiveKID() {
		t.Errorf("jwks_uri: %v, %+v", err, keys)
	}
}
