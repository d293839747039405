package apiserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// hookReceiver is an HTTP receiver on 127.0.0.1 that keeps every request.
type hookReceiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	heads  []http.Header
	status int
}

func newHookReceiver() *hookReceiver {
	rc := &hookReceiver{status: http.StatusNoContent}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.bodies, rc.heads = append(rc.bodies, body), append(rc.heads, r.Header.Clone())
		status := rc.status
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	DeferCleanup(rc.srv.Close)
	return rc
}

// about returns the requests whose body names id, in arrival order.
func (rc *hookReceiver) about(id string) (bodies [][]byte, heads []http.Header) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i, b := range rc.bodies {
		if strings.Contains(string(b), `"id":"`+id+`"`) {
			bodies, heads = append(bodies, b), append(heads, rc.heads[i])
		}
	}
	return bodies, heads
}

func verifyWith(secret string, body []byte, h http.Header) error {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return err
	}
	return wh.Verify(body, h)
}

var _ = Describe("Webhook endpoints", func() {
	It("creates an endpoint whose secret is shown once and signs every event of the tenant's orders", func() {
		rc := newHookReceiver()
		r := alpha.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL + "/in", "event_types": []string{"order.placed"}, "description": "books"})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		ep := r.json()
		id, secret := ep["id"].(string), ep["secret"].(string)
		Expect(secret).To(HavePrefix("whsec_"))
		Expect(r.header.Get("Location")).To(Equal("/v1/webhook-endpoints/" + id))
		Expect(ep["enabled"]).To(BeTrue())
		Expect(ep["event_types"]).To(Equal([]any{"order.placed"}))

		got := alpha.get("/v1/webhook-endpoints/" + id)
		Expect(got.code).To(Equal(http.StatusOK), got.String())
		Expect(got.json()).NotTo(HaveKey("secret"), "the secret is shown once")
		list := alpha.get("/v1/webhook-endpoints")
		Expect(list.String()).To(ContainSubstring(id))
		Expect(list.String()).NotTo(ContainSubstring(secret))
		// The secret is in a Secret owned by the endpoint.
		var sec corev1.Secret
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: alpha.ns, Name: "webhook-" + id}, &sec)).To(Succeed())
		Expect(sec.OwnerReferences).To(HaveLen(1))
		Expect(string(sec.Data["secret"])).To(Equal(secret))

		order := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		Eventually(func() int { b, _ := rc.about(order); return len(b) }).WithTimeout(time.Minute).Should(Equal(1))
		bodies, heads := rc.about(order)
		Expect(verifyWith(secret, bodies[0], heads[0])).To(Succeed())
		Expect(string(bodies[0])).To(ContainSubstring(`"type":"order.placed"`))

		// The delivery log shows the attempt (recorded once the answer came). The tenant's
		// other orders (an earlier spec's, whose events are recorded late) may have
		// attempts of their own: this order's is found by its event id.
		var first map[string]any
		Eventually(func() map[string]any {
			attempts := alpha.get("/v1/webhook-endpoints/" + id + "/attempts")
			Expect(attempts.code).To(Equal(http.StatusOK), attempts.String())
			for _, a := range attempts.json()["data"].([]any) {
				if m := a.(map[string]any); m["event_id"] == heads[0].Get("webhook-id") {
					first = m
				}
			}
			return first
		}).WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(first["status_code"]).To(BeEquivalentTo(http.StatusNoContent))
		Expect(first["outcome"]).To(Equal("SUCCEEDED"))

		// Replay delivers the same event again, under the same id.
		rp := alpha.post("/v1/webhook-endpoints/"+id+"/replay", map[string]any{"event_id": heads[0].Get("webhook-id")})
		Expect(rp.code).To(Equal(http.StatusAccepted), rp.String())
		Expect(rp.json()["scheduled"]).To(BeEquivalentTo(1))
		Eventually(func() int { b, _ := rc.about(order); return len(b) }).WithTimeout(time.Minute).Should(Equal(2))
		_, heads = rc.about(order)
		Expect(heads[1].Get("webhook-id")).To(Equal(heads[0].Get("webhook-id")))
	})

	It("refuses a URL that is not https to a public address, an unknown event type and a client-set secret, naming each field", func() {
		r := alpha.post("/v1/webhook-endpoints", map[string]any{"url": "http://10.0.0.1/hook", "event_types": []string{"order.shipped", "order.placed", "order.placed"}, "secret": "whsec_x"})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		details := r.json()["details"].(map[string]any)
		Expect(details).To(HaveKey("url"))
		Expect(details).To(HaveKey("event_types"))
		Expect(details).To(HaveKey("secret"))
		Expect(r.String()).To(ContainSubstring("order.shipped"))
		Expect(r.String()).To(ContainSubstring("twice"))
		missing := alpha.post("/v1/webhook-endpoints", map[string]any{})
		Expect(missing.code).To(Equal(http.StatusUnprocessableEntity), missing.String())
		Expect(missing.json()["details"]).To(HaveKey("url"))
	})

	It("gives kubectl users the same message for a URL that is not public", func() {
		rest := alpha.post("/v1/webhook-endpoints", map[string]any{"url": "https://169.254.169.254/latest"})
		Expect(rest.code).To(Equal(http.StatusUnprocessableEntity), rest.String())
		msg := rest.json()["details"].(map[string]any)["url"].([]any)[0].(string)
		ep := &investv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: alpha.ns, Name: "kubectl-made"},
			Spec: investv1.WebhookEndpointSpec{URL: "https://169.254.169.254/latest", SecretRef: investv1.LocalSecretReference{Name: "s"}}}
		err := k8s.Create(ctx, ep)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec.url"))
		Expect(err.Error()).To(ContainSubstring(msg))
	})

	It("answers 404 for another tenant's endpoint, on every route", func() {
		rc := newHookReceiver()
		r := alpha.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		id := r.json()["id"].(string)
		for _, res := range []response{
			beta.get("/v1/webhook-endpoints/" + id),
			beta.patch("/v1/webhook-endpoints/"+id, map[string]any{"enabled": false}),
			beta.delete("/v1/webhook-endpoints/" + id),
			beta.post("/v1/webhook-endpoints/"+id+"/rotate-secret", nil),
			beta.get("/v1/webhook-endpoints/" + id + "/attempts"),
			beta.post("/v1/webhook-endpoints/"+id+"/replay", map[string]any{"event_id": "evt_x"}),
		} {
			Expect(res.code).To(Equal(http.StatusNotFound), res.String())
		}
		Expect(beta.get("/v1/webhook-endpoints").String()).NotTo(ContainSubstring(id))
	})

	It("updates, disables and enables an endpoint, and deletes it with its secret", func() {
		rc := newHookReceiver()
		r := alpha.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		id := r.json()["id"].(string)
		p := alpha.patch("/v1/webhook-endpoints/"+id, map[string]any{"enabled": false, "event_types": []string{"order.completed"}, "description": "paused"})
		Expect(p.code).To(Equal(http.StatusOK), p.String())
		Expect(p.json()["enabled"]).To(BeFalse())
		Expect(p.json()["event_types"]).To(Equal([]any{"order.completed"}))
		bad := alpha.patch("/v1/webhook-endpoints/"+id, map[string]any{"url": "ftp://example.com"})
		Expect(bad.code).To(Equal(http.StatusUnprocessableEntity), bad.String())
		on := alpha.patch("/v1/webhook-endpoints/"+id, map[string]any{"enabled": true})
		Expect(on.json()["enabled"]).To(BeTrue())
		d := alpha.delete("/v1/webhook-endpoints/" + id)
		Expect(d.code).To(Equal(http.StatusNoContent), d.String())
		Eventually(func() int { return alpha.get("/v1/webhook-endpoints/" + id).code }).WithTimeout(time.Minute).Should(Equal(http.StatusNotFound))
		Eventually(func() bool {
			return apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKey{Namespace: alpha.ns, Name: id}, &investv1.WebhookEndpoint{}))
		}).WithTimeout(time.Minute).Should(BeTrue(), "the finalizer is dropped once the deliveries are deleted")
	})

	It("rotates the secret: the new one is shown once and both sign for 24 hours", func() {
		rc := newHookReceiver()
		r := alpha.post("/v1/webhook-endpoints", map[string]any{"url": rc.srv.URL, "event_types": []string{"order.placed"}})
		Expect(r.code).To(Equal(http.StatusCreated), r.String())
		id, old := r.json()["id"].(string), r.json()["secret"].(string)
		rot := alpha.post("/v1/webhook-endpoints/"+id+"/rotate-secret", nil)
		Expect(rot.code).To(Equal(http.StatusOK), rot.String())
		fresh := rot.json()["secret"].(string)
		Expect(fresh).NotTo(Equal(old))
		until, err := time.Parse(time.RFC3339, rot.json()["previous_secret_expires_at"].(string))
		Expect(err).NotTo(HaveOccurred())
		Expect(until).To(BeTemporally("~", time.Now().Add(24*time.Hour), time.Minute))
		order := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		Eventually(func() int { b, _ := rc.about(order); return len(b) }).WithTimeout(time.Minute).Should(Equal(1))
		bodies, heads := rc.about(order)
		Expect(strings.Fields(heads[0].Get("webhook-signature"))).To(HaveLen(2))
		Expect(verifyWith(fresh, bodies[0], heads[0])).To(Succeed())
		Expect(verifyWith(old, bodies[0], heads[0])).To(Succeed())
	})

	It("lists every event type with what it means", func() {
		r := alpha.get("/v1/webhook-event-types")
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		Expect(r.String()).To(ContainSubstring(`"type":"order.completed"`))
		Expect(r.String()).To(ContainSubstring(`"type":"nav.published"`))
	})
})
