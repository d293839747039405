package apiserver_test

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Authentication", func() {
	It("issues a bearer token for valid client credentials (POST /oauth2/token)", func() {
		r := alpha.login()
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		body := r.json()
		Expect(body["token_type"]).To(Equal("Bearer"))
		Expect(body["expires_in"]).To(BeNumerically("==", 3600))
		Expect(body["scope"]).To(Equal("openid offline"))
		Expect(body["access_token"]).NotTo(BeEmpty())
	})

	It("refuses a wrong client secret with 401 invalid_client", func() {
		t := *alpha
		t.secret = "wrong"
		r := t.login()
		Expect(r.code).To(Equal(http.StatusUnauthorized), r.String())
		Expect(r.json()["error"]).To(Equal("invalid_client"))
	})

	It("refuses a disabled client like an unknown one", func() {
		t := newTenant("disabled", investv1.ApiClientSpec{})
		var ac investv1.ApiClient
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: "integrator"}, &ac)).To(Succeed())
		ac.Spec.Disabled = true
		Expect(k8s.Update(ctx, &ac)).To(Succeed())
		Eventually(func() int { return t.login().code }).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal(http.StatusUnauthorized))
	})

	It("reads the client secret hash from the key the ApiClient names", func() {
		t := newTenant("keyed", investv1.ApiClientSpec{})
		secret, _ := clientsecret.New()
		hash, _ := clientsecret.Hash(secret)
		Expect(k8s.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: t.ns, Name: "rotated"},
			Data:       map[string][]byte{"argon": []byte(hash)},
		})).To(Succeed())
		var ac investv1.ApiClient
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: "integrator"}, &ac)).To(Succeed())
		ac.Spec.ClientSecretRef = investv1.SecretKeyRef{Name: "rotated", Key: "argon"}
		Expect(k8s.Update(ctx, &ac)).To(Succeed())
		t.secret = secret
		Eventually(func() int { return t.login().code }).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Equal(http.StatusOK))
	})

	It("answers 401 with WWW-Authenticate without a bearer token", func() {
		r := get("/v1/funds", "")
		Expect(r.code).To(Equal(http.StatusUnauthorized))
		Expect(r.header.Get("WWW-Authenticate")).To(HavePrefix("Bearer"))
		Expect(r.json()["error"]).To(Equal("Unauthorized"))
		Expect(r.json()["details"]).To(BeAssignableToTypeOf(""))
	})

	It("answers 401 with WWW-Authenticate invalid_token for a bad token", func() {
		for _, token := range []string{"not-a-jwt", alpha.token[:len(alpha.token)-4] + "AAAA"} {
			r := get("/v1/accounts/"+fixturesID(), token)
			Expect(r.code).To(Equal(http.StatusUnauthorized))
			Expect(r.header.Get("WWW-Authenticate")).To(ContainSubstring(`error="invalid_token"`))
			Expect(string(r.body)).NotTo(ContainSubstring(token))
		}
	})

	It("publishes the token verification keys at /.well-known/jwks.json", func() {
		r := get("/.well-known/jwks.json", "")
		Expect(r.code).To(Equal(http.StatusOK))
		keys := r.json()["keys"].([]any)
		Expect(keys).NotTo(BeEmpty())
		Expect(keys[0].(map[string]any)["kty"]).To(Equal("EC"))
	})
})

var _ = Describe("Every request", func() {
	It("answers /healthz and /readyz without a token", func() {
		Expect(get("/healthz", "").code).To(Equal(http.StatusOK))
		Expect(get("/readyz", "").code).To(Equal(http.StatusOK))
	})

	It("echoes X-Request-ID, and generates one when absent", func() {
		req, _ := http.NewRequest(http.MethodGet, baseURL+"/healthz", nil)
		req.Header.Set("X-Request-ID", "trace-123")
		Expect(do(req).header.Get("X-Request-ID")).To(Equal("trace-123"))
		Expect(get("/healthz", "").header.Get("X-Request-ID")).To(HaveLen(36))
	})

	It("refuses bodies over 1 MiB with 413 and the error body", func() {
		big := `{"city":"` + strings.Repeat("x", 1<<20) + `"}`
		r := alpha.patch("/v1/accounts/"+alpha.newAccount(), big)
		Expect(r.code).To(Equal(http.StatusRequestEntityTooLarge), r.String()[:100])
		Expect(r.json()["error"]).To(Equal("Request body too large"))
	})

	It("refuses bodies that are not JSON with 415", func() {
		req, _ := http.NewRequest(http.MethodPost, baseURL+"/v1/accounts", strings.NewReader("type=individual"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+alpha.token)
		r := do(req)
		Expect(r.code).To(Equal(http.StatusUnsupportedMediaType))
		Expect(r.json()["error"]).To(Equal("Unsupported media type"))
	})

	It("refuses malformed JSON with 400", func() {
		r := alpha.post("/v1/accounts", `{"type": "individual",`)
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Malformed JSON"))
		Expect(r.json()["details"]).To(BeAssignableToTypeOf(""))
	})

	It("answers unknown routes with 404 and the error body", func() {
		r := alpha.get("/v1/nothing-here")
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Not found"))
	})

	It("counts requests by method, route pattern and status in the manager's metrics", func() {
		alpha.get("/v1/funds")
		alpha.get("/v1/accounts/" + fixturesID())
		get("/v1/funds", "")
		families, err := metrics.Registry.Gather()
		Expect(err).NotTo(HaveOccurred())
		var requests, durations *dto.MetricFamily
		for _, f := range families {
			switch f.GetName() {
			case "fundshare_http_requests_total":
				requests = f
			case "fundshare_http_request_duration_seconds":
				durations = f
			}
		}
		Expect(requests).NotTo(BeNil())
		Expect(durations).NotTo(BeNil())
		labels := map[string]string{}
		for _, m := range requests.GetMetric() {
			for _, l := range m.GetLabel() {
				labels[l.GetName()+"="+l.GetValue()] = ""
			}
		}
		Expect(labels).To(HaveKey("route=/v1/funds"))
		Expect(labels).To(HaveKey("route=/v1/accounts/{account_id}"))
		Expect(labels).To(HaveKey("code=401"))
	})
})

// fixturesID is an id that exists nowhere.
func fixturesID() string { return fixtures.Fund().Name }
