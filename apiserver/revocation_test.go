package apiserver_test

import (
	"crypto/elliptic"
	"encoding/base64"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// Revocation: the tokens of a client that is disabled, deleted or whose secret was
// rotated stop working within 5 s, and a token obtained afterwards works.
var _ = Describe("Token revocation", func() {
	var t *tenant
	BeforeEach(func() { t = newTenant("revoke", investv1.ApiClientSpec{}) })

	apiClient := func() *investv1.ApiClient {
		var ac investv1.ApiClient
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: "integrator"}, &ac)).To(Succeed())
		return &ac
	}
	status := func(token string) func() int {
		return func() int { return t.withToken(token).get("/v1/funds").code }
	}
	// relogin gets a new token once the facade accepts the client again.
	relogin := func() string {
		GinkgoHelper()
		var token string
		Eventually(func() int {
			r := t.login()
			if r.code == http.StatusOK {
				token = r.json()["access_token"].(string)
			}
			return r.code
		}).WithTimeout(5 * time.Second).Should(Equal(http.StatusOK))
		return token
	}

	It("refuses the tokens of a disabled client within 5 s; a token after re-enabling works", func() {
		old := t.token
		Expect(status(old)()).To(Equal(http.StatusOK))
		ac := apiClient()
		ac.Spec.Disabled = true
		Expect(k8s.Update(ctx, ac)).To(Succeed())
		Eventually(status(old)).WithTimeout(5 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal(http.StatusUnauthorized))
		Expect(t.withToken(old).get("/v1/funds").json()["details"]).To(Equal("token revoked"))
		Expect(t.login().code).To(Equal(http.StatusUnauthorized), "a disabled client gets no token")

		ac = apiClient()
		ac.Spec.Disabled = false
		Expect(k8s.Update(ctx, ac)).To(Succeed())
		fresh := relogin()
		Expect(status(fresh)()).To(Equal(http.StatusOK))
		Consistently(status(old)).WithTimeout(time.Second).Should(Equal(http.StatusUnauthorized),
			"re-enabling does not revive tokens issued before the client was disabled")
	})

	It("refuses the tokens of a deleted client within 5 s; a token after re-creating it works", func() {
		old := t.token
		Expect(status(old)()).To(Equal(http.StatusOK))
		Expect(k8s.Delete(ctx, apiClient())).To(Succeed())
		Eventually(status(old)).WithTimeout(5 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal(http.StatusUnauthorized))

		Expect(k8s.Create(ctx, fixtures.ApiClient(t.ns, t.clientID, "credentials"))).To(Succeed())
		fresh := relogin()
		Expect(status(fresh)()).To(Equal(http.StatusOK))
		Consistently(status(old)).WithTimeout(time.Second).Should(Equal(http.StatusUnauthorized),
			"the re-created client is another client: the old tokens stay revoked")
	})

	It("refuses the tokens issued before a secret rotation within 5 s; the new secret's token works", func() {
		old, oldSecret := t.token, t.secret
		Expect(status(old)()).To(Equal(http.StatusOK))
		secret, err := clientsecret.New()
		Expect(err).NotTo(HaveOccurred())
		hash, err := clientsecret.Hash(secret)
		Expect(err).NotTo(HaveOccurred())
		var s corev1.Secret
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: "credentials"}, &s)).To(Succeed())
		s.Data["hash"] = []byte(hash)
		Expect(k8s.Update(ctx, &s)).To(Succeed())
		Eventually(status(old)).WithTimeout(5 * time.Second).WithPolling(100 * time.Millisecond).Should(Equal(http.StatusUnauthorized))

		Expect(t.login().code).To(Equal(http.StatusUnauthorized), "the old secret gets no token")
		t.secret = secret
		fresh := relogin()
		Expect(status(fresh)()).To(Equal(http.StatusOK))
		Expect(fresh).NotTo(Equal(old))
		Expect(oldSecret).NotTo(Equal(secret))
	})
})

var _ = Describe("Token endpoint hygiene", func() {
	It("answers a body over the limit with 413 in the OAuth error shape", func() {
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {alpha.clientID}}
		for _, size := range []int{100 << 10, 2 << 20} { // over the endpoint's 64 KiB, and over the facade's 1 MiB
			req, err := http.NewRequest(http.MethodPost, baseURL+"/oauth2/token",
				strings.NewReader(form.Encode()+"&pad="+strings.Repeat("a", size)))
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r := do(req)
			Expect(r.code).To(Equal(http.StatusRequestEntityTooLarge), r.String()[:min(200, len(r.String()))])
			Expect(r.json()).To(HaveKeyWithValue("error", "invalid_request"))
			Expect(r.json()).To(HaveKey("error_description"))
			Expect(r.header.Get("Cache-Control")).To(Equal("no-store"))
		}
	})

	It("refuses a token whose signature's s is replaced by n − s", func() {
		Expect(alpha.get("/v1/funds").code).To(Equal(http.StatusOK))
		parts := strings.Split(alpha.token, ".")
		sig, err := base64.RawURLEncoding.DecodeString(parts[2])
		Expect(err).NotTo(HaveOccurred())
		Expect(sig).To(HaveLen(64))
		s := new(big.Int).SetBytes(sig[32:])
		s.Sub(elliptic.P256().Params().N, s)
		s.FillBytes(sig[32:])
		twin := parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(sig)
		r := alpha.withToken(twin).get("/v1/funds")
		Expect(r.code).To(Equal(http.StatusUnauthorized), r.String())
		Expect(r.header.Get("WWW-Authenticate")).To(ContainSubstring("invalid_token"))
	})
})
