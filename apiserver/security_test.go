package apiserver_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/apiserver/auth"
)

// The security matrix: every kind of forged, stale or misdirected token is refused by the
// running facade with 401 and no data, and another tenant's valid token sees the ids of
// this tenant exactly like ids that do not exist.
var _ = Describe("Bearer token security matrix", func() {
	var (
		accountID, path string
		valid           *auth.Claims
		kid             string
		key             *ecdsa.PrivateKey
	)
	BeforeEach(func() {
		r := alpha.post("/v1/accounts", individual())
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		accountID = r.json()["id"].(string)
		path = "/v1/accounts/" + accountID

		secret := &corev1.Secret{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: operatorNamespace, Name: "fundshare-jwt-signing-key"}, secret)).To(Succeed())
		var err error
		key, err = auth.ParseSigningKeyPEM(secret.Data[auth.SigningKeyDataKey])
		Expect(err).NotTo(HaveOccurred())
		kid, err = auth.Thumbprint(&key.PublicKey)
		Expect(err).NotTo(HaveOccurred())
		valid = &auth.Claims{}
		_, _, err = jwt.NewParser().ParseUnverified(alpha.token, valid)
		Expect(err).NotTo(HaveOccurred())
	})

	// signUnderKid signs claims with method and signingKey under the service's kid.
	signUnderKid := func(method jwt.SigningMethod, claims jwt.Claims, signingKey any) string {
		t := jwt.NewWithClaims(method, claims)
		t.Header["kid"] = kid
		s, err := t.SignedString(signingKey)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	// sign makes a token with the service's own key and kid, from the valid claims
	// changed by mutate.
	sign := func(mutate func(*auth.Claims)) string {
		c := *valid
		mutate(&c)
		s, err := auth.CanonicalES256(signUnderKid(jwt.SigningMethodES256, &c, key)) // the low-s form the service issues and accepts
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	segment := func(v any) string {
		b, err := json.Marshal(v)
		Expect(err).NotTo(HaveOccurred())
		return base64.RawURLEncoding.EncodeToString(b)
	}

	expectRefused := func(token string) {
		GinkgoHelper()
		r := alpha.withToken(token).get(path)
		Expect(r.code).To(Equal(http.StatusUnauthorized), r.String())
		Expect(r.header.Get("WWW-Authenticate")).To(HavePrefix("Bearer"))
		Expect(r.json()).To(HaveKey("error"))
		Expect(string(r.body)).NotTo(ContainSubstring(accountID), "no data")
		Expect(string(r.body)).NotTo(ContainSubstring("Erika"), "no data")
	}

	It("serves the account with the tenant's own valid token (the control)", func() {
		Expect(alpha.get(path).code).To(Equal(http.StatusOK))
		Expect(alpha.withToken(sign(func(*auth.Claims) {})).get(path).code).To(Equal(http.StatusOK), "a token re-signed with the service key is valid")
	})

	It("refuses alg none", func() {
		payload := strings.Split(alpha.token, ".")[1]
		expectRefused(segment(map[string]string{"alg": "none", "typ": "JWT", "kid": kid}) + "." + payload + ".")
	})

	It("refuses HS256 signed with the public key", func() {
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		Expect(err).NotTo(HaveOccurred())
		pub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		expectRefused(signUnderKid(jwt.SigningMethodHS256, valid, pub))
	})

	It("refuses a token signed by a foreign key under the service's kid", func() {
		foreign, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		Expect(err).NotTo(HaveOccurred())
		expectRefused(signUnderKid(jwt.SigningMethodES256, valid, foreign))
	})

	It("refuses an expired token", func() {
		expectRefused(sign(func(c *auth.Claims) {
			c.IssuedAt = jwt.NewNumericDate(time.Now().Add(-2 * time.Hour))
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Hour))
		}))
	})

	It("refuses a token that is not valid yet", func() {
		expectRefused(sign(func(c *auth.Claims) { c.NotBefore = jwt.NewNumericDate(time.Now().Add(time.Hour)) }))
	})

	It("refuses a token for another audience", func() {
		expectRefused(sign(func(c *auth.Claims) { c.Audience = jwt.ClaimStrings{"evil.example.com"} }))
	})

	It("refuses a token from another issuer", func() {
		expectRefused(sign(func(c *auth.Claims) { c.Issuer = "https://evil.example.com" }))
	})

	It("refuses a tampered payload (the tenant changed, the signature kept)", func() {
		parts := strings.Split(alpha.token, ".")
		c := *valid
		c.Tenant = beta.ns
		parts[1] = segment(&c)
		expectRefused(strings.Join(parts, "."))
	})

	It("answers another tenant's valid token with the same 404 as an id that does not exist", func() {
		other := beta.get(path)
		Expect(other.code).To(Equal(http.StatusNotFound), other.String())
		missing := beta.get("/v1/accounts/" + fixturesID())
		Expect(missing.code).To(Equal(http.StatusNotFound))
		Expect(other.json()["error"]).To(Equal(missing.json()["error"]))
		Expect(string(other.body)).NotTo(ContainSubstring("Erika"))
	})
})

// withToken is the tenant calling with another token.
func (t *tenant) withToken(token string) *tenant {
	c := *t
	c.token = token
	return &c
}
