package apiserver_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
)

// OAuth as clients discover it: the running facade's RFC 8414 metadata and OpenID Connect
// discovery document, fetched over HTTP without a token, lead a client that knows only
// the base URL to the token endpoint and to the keys that verify what it issues.
var _ = Describe("OAuth discovery and metadata", func() {
	const (
		metadataPath = "/.well-known/oauth-authorization-server"
		oidcPath     = "/.well-known/openid-configuration"
	)
	type discovery struct {
		Issuer                            string   `json:"issuer"`
		TokenEndpoint                     string   `json:"token_endpoint"`
		JWKSURI                           string   `json:"jwks_uri"`
		ScopesSupported                   []string `json:"scopes_supported"`
		ResponseTypesSupported            []string `json:"response_types_supported"`
		GrantTypesSupported               []string `json:"grant_types_supported"`
		TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
		SubjectTypesSupported             []string `json:"subject_types_supported"`
		IDTokenSigningAlgValuesSupported  []string `json:"id_token_signing_alg_values_supported"`
	}
	discover := func(path string) discovery {
		GinkgoHelper()
		r := get(path, "")
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		var d discovery
		Expect(json.Unmarshal(r.body, &d)).To(Succeed())
		return d
	}
	// segment decodes part i of a token (0 the header, 1 the payload).
	segment := func(token string, i int) map[string]any {
		GinkgoHelper()
		raw, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[i])
		Expect(err).NotTo(HaveOccurred())
		var m map[string]any
		Expect(json.Unmarshal(raw, &m)).To(Succeed())
		return m
	}
	// keysAt reads the JWK Set at uri, by kid.
	keysAt := func(uri string) map[string]*ecdsa.PublicKey {
		GinkgoHelper()
		req, err := http.NewRequest(http.MethodGet, uri, nil)
		Expect(err).NotTo(HaveOccurred())
		r := do(req)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		var set struct {
			Keys []map[string]string `json:"keys"`
		}
		Expect(json.Unmarshal(r.body, &set)).To(Succeed())
		keys := map[string]*ecdsa.PublicKey{}
		for _, k := range set.Keys {
			x, err := base64.RawURLEncoding.DecodeString(k["x"])
			Expect(err).NotTo(HaveOccurred())
			y, err := base64.RawURLEncoding.DecodeString(k["y"])
			Expect(err).NotTo(HaveOccurred())
			pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
			Expect(err).NotTo(HaveOccurred())
			keys[k["kid"]] = pub
		}
		return keys
	}
	audience := func() string {
		u, err := url.Parse(baseURL)
		Expect(err).NotTo(HaveOccurred())
		return u.Hostname()
	}
	// tokenAt asks endpoint for a token of alpha with form (credentials and audience added).
	tokenAt := func(endpoint string, form url.Values) response {
		GinkgoHelper()
		form.Set("grant_type", "client_credentials")
		form.Set("client_id", alpha.clientID)
		form.Set("client_secret", alpha.secret)
		form.Set("audience", audience())
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return do(req)
	}

	It("serves the metadata and the OpenID configuration without a token, as cacheable JSON, HEAD as GET", func() {
		for _, path := range []string{metadataPath, oidcPath} {
			r := get(path, "")
			Expect(r.code).To(Equal(http.StatusOK), path+": "+r.String())
			Expect(r.header.Get("Content-Type")).To(Equal("application/json"), path)
			Expect(r.header.Get("Cache-Control")).To(MatchRegexp(`^public, max-age=[1-9][0-9]*$`), path)
			head := call(http.MethodHead, path, "", nil)
			Expect(head.code).To(Equal(http.StatusOK), path)
			Expect(head.body).To(BeEmpty(), path)
			Expect(head.header.Get("Content-Type")).To(Equal(r.header.Get("Content-Type")), path)
			Expect(head.header.Get("Cache-Control")).To(Equal(r.header.Get("Cache-Control")), path)
		}
	})

	It("names in both metadata documents the issuer a real token carries in iss, byte for byte", func() {
		iss, ok := segment(alpha.token, 1)["iss"].(string)
		Expect(ok).To(BeTrue())
		Expect(iss).To(Equal(baseURL), "the issuer is the public base URL")
		for _, path := range []string{metadataPath, oidcPath} {
			Expect(discover(path).Issuer).To(Equal(iss), path)
		}
	})

	It("serves at the discovered jwks_uri the keys that verify a real token (metadata)", func() {
		for _, path := range []string{metadataPath, oidcPath} {
			d := discover(path)
			keys := keysAt(d.JWKSURI)
			claims := &auth.Claims{}
			_, err := jwt.ParseWithClaims(alpha.token, claims, func(t *jwt.Token) (any, error) {
				kid, _ := t.Header["kid"].(string)
				return keys[kid], nil
			}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer(d.Issuer), jwt.WithAudience(audience()), jwt.WithExpirationRequired())
			Expect(err).NotTo(HaveOccurred(), path)
			Expect(claims.ClientID).To(Equal(alpha.clientID))
		}
	})

	It("issues a token at the discovered token_endpoint, without scope the default scope, typed at+jwt", func() {
		for _, path := range []string{metadataPath, oidcPath} {
			d := discover(path)
			Expect(d.TokenEndpoint).To(Equal(baseURL + "/oauth2/token"))
			Expect(d.GrantTypesSupported).To(Equal([]string{"client_credentials"}))
			Expect(d.TokenEndpointAuthMethodsSupported).To(ConsistOf("client_secret_basic", "client_secret_post"))
			Expect(d.ResponseTypesSupported).To(BeEmpty())
			r := tokenAt(d.TokenEndpoint, url.Values{})
			Expect(r.code).To(Equal(http.StatusOK), r.String())
			tok := r.json()
			Expect(tok["scope"]).To(Equal(strings.Join(d.ScopesSupported, " ")), "the default scope is every scope there is")
			token := tok["access_token"].(string)
			Expect(segment(token, 0)["typ"]).To(Equal("at+jwt"))
			Expect(segment(token, 1)["scope"]).To(Equal(tok["scope"]))
			Expect(get("/v1/funds", token).code).To(Equal(http.StatusOK), "the token works")
		}
	})

	It("describes the access tokens in the OpenID configuration's required fields (discovery)", func() {
		d := discover(oidcPath)
		Expect(d.SubjectTypesSupported).To(Equal([]string{"public"}))
		Expect(d.IDTokenSigningAlgValuesSupported).To(Equal([]string{segment(alpha.token, 0)["alg"].(string)}))
		Expect(d.ScopesSupported).To(ContainElement("openid"))
		m := discover(metadataPath)
		Expect(m.SubjectTypesSupported).To(BeNil(), "OpenID only")
		Expect(m.IDTokenSigningAlgValuesSupported).To(BeNil(), "OpenID only")
	})

	It("lets golang.org/x/oauth2/clientcredentials obtain a token from the discovered token_endpoint with either method and no scope (discovery)", func() {
		d := discover(oidcPath)
		for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
			cfg := clientcredentials.Config{
				ClientID: alpha.clientID, ClientSecret: alpha.secret, TokenURL: d.TokenEndpoint, AuthStyle: style,
				EndpointParams: url.Values{"audience": {audience()}},
			}
			tok, err := cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, hc))
			Expect(err).NotTo(HaveOccurred())
			Expect(tok.TokenType).To(Equal("Bearer"))
			Expect(tok.Extra("scope")).To(Equal("openid offline"))
			Expect(get("/v1/funds", tok.AccessToken).code).To(Equal(http.StatusOK))
		}
	})

	It("answers a scope that does not exist with 400 invalid_scope in the OAuth shape", func() {
		r := tokenAt(baseURL+"/oauth2/token", url.Values{"scope": {"openid offline admin"}})
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()).To(HaveKeyWithValue("error", "invalid_scope"))
		Expect(r.json()).To(HaveKey("error_description"))
		Expect(r.json()).NotTo(HaveKey("access_token"))
		Expect(r.header.Get("Cache-Control")).To(Equal("no-store"))
	})
})
