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
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

// Paths of the token flow, relative to the public base URL, which is the issuer.
const (
	// TokenPath is the token endpoint (NewTokenHandler).
	TokenPath = "/oauth2/token" //nolint:gosec // a path, not a credential
	// JWKSPath is the key set (JWKSHandler).
	JWKSPath = "/.well-known/jwks.json"
	// AuthorizationServerMetadataPath is the OAuth 2.0 authorization server metadata
	// (RFC 8414 §3).
	AuthorizationServerMetadataPath = "/.well-known/oauth-authorization-server"
	// OpenIDConfigurationPath is the OpenID Connect discovery document (OpenID Connect
	// Discovery 1.0 §4).
	OpenIDConfigurationPath = "/.well-known/openid-configuration"
)

// metadataCacheControl lets clients and proxies keep a discovery document for an hour:
// it changes only when the public base URL is reconfigured, which restarts the service.
const metadataCacheControl = "public, max-age=3600"

// metadata is an authorization server metadata document (RFC 8414 §2); the OpenID
// Connect discovery document is the same with the fields OpenID Connect Discovery 1.0 §3
// requires on top.
type metadata struct {
	// Issuer is the iss of every token, byte for byte (RFC 8414 §3.3).
	Issuer        string `json:"issuer"`
	TokenEndpoint string `json:"token_endpoint"`
	JWKSURI       string `json:"jwks_uri"`
	// ScopesSupported are the scopes there are; every token is granted all of them.
	ScopesSupported []string `json:"scopes_supported"`
	// ResponseTypesSupported is required, and empty: there is no authorization endpoint,
	// so no response_type can be asked for.
	ResponseTypesSupported            []string `json:"response_types_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`

	// OpenID Connect Discovery only. The service issues no ID tokens: these describe its
	// access tokens (sub is the client id, the same for everyone; ES256), which is what
	// a client that verifies them through OpenID Connect discovery reads them for.
	SubjectTypesSupported            []string `json:"subject_types_supported,omitempty"`
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported,omitempty"`
}

// serverMetadata is the RFC 8414 document of the token flow of issuer: the endpoints are
// the issuer (the public base URL) with their paths appended, so they are absolute and
// public exactly when the base URL is; the rest is what the token endpoint accepts and
// grants.
func serverMetadata(issuer *Issuer) metadata {
	base := strings.TrimSuffix(issuer.IssuerURL(), "/")
	return metadata{
		Issuer:                            issuer.IssuerURL(),
		TokenEndpoint:                     base + TokenPath,
		JWKSURI:                           base + JWKSPath,
		ScopesSupported:                   slices.Clone(requiredScopes),
		ResponseTypesSupported:            []string{},
		GrantTypesSupported:               []string{grantClientCredentials},
		TokenEndpointAuthMethodsSupported: slices.Clone(tokenEndpointAuthMethods),
	}
}

// openIDConfiguration is serverMetadata with the fields OpenID Connect Discovery 1.0 §3
// requires that a token-endpoint-only service can state truthfully. authorization_endpoint,
// which it also requires, is left out: there is none.
func openIDConfiguration(issuer *Issuer) metadata {
	m := serverMetadata(issuer)
	m.SubjectTypesSupported = []string{"public"}
	m.IDTokenSigningAlgValuesSupported = []string{jwt.SigningMethodES256.Alg()}
	return m
}

// AuthorizationServerMetadataHandler serves the OAuth 2.0 authorization server metadata
// of issuer's token flow (RFC 8414), for GET {base_url}/.well-known/oauth-authorization-server:
// issuer, token_endpoint, jwks_uri, the scopes, grant types and client authentication
// methods the token endpoint takes. See serveDocument for the answer.
func AuthorizationServerMetadataHandler(issuer *Issuer) http.Handler {
	return serveDocument(serverMetadata(issuer), metadataCacheControl)
}

// OpenIDConfigurationHandler serves the same metadata as an OpenID Connect discovery
// document (OpenID Connect Discovery 1.0), for GET {base_url}/.well-known/openid-configuration,
// which many token verifiers and gateways read to find jwks_uri. It adds
// subject_types_supported and id_token_signing_alg_values_supported and has no
// authorization_endpoint.
func OpenIDConfigurationHandler(issuer *Issuer) http.Handler {
	return serveDocument(openIDConfiguration(issuer), metadataCacheControl)
}

// serveDocument answers GET and HEAD with doc as JSON, public and cacheable as
// cacheControl says; the document is rendered once (what it says is fixed for the life of
// the process: the issuer, the keys). Other methods get 405. It serves the discovery
// documents and the JWK Set.
func serveDocument(doc any, cacheControl string) http.Handler {
	body, err := json.Marshal(doc)
	if err != nil {
		panic(fmt.Sprintf("auth: encoding %T: %v", doc, err))
	}
	length := strconv.Itoa(len(body))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", cacheControl)
		h.Set("Content-Length", length)
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
	})
}
