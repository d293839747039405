package notify_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	svix "github.com/svix/svix-webhooks/go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
	"github.com/fundshare/fundshare-operator/internal/notify/signature"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The webhook suite runs the production manager (admission, the controllers, the sandbox
// settlement agent with no delay, so orders complete at once, and the webhook ingest and
// dispatcher) with a real SQLite archive holding the webhook store, and real HTTP receivers
// on 127.0.0.1 (allowed by egress.Options.AllowLoopbackHTTP, as in make run). Endpoints are
// made as GitOps makes them: a Secret and a WebhookEndpoint.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	archiveStore  archive.Store
	hooks         notify.Store
	stopMgr       func()
	// sendTimeout bounds each delivery, so that a hanging receiver costs seconds.
	sendTimeout = 3 * time.Second
)

func TestNotify(t *testing.T) {
	env.Run(t, "Webhook delivery suite", func() {
		dir, err := filepath.Abs(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		archiveStore, err = sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(archiveStore.Close()).To(Succeed()) })
		var ok bool
		hooks, ok = sqlstore.Webhooks(archiveStore)
		Expect(ok).To(BeTrue())
		stopMgr = startManager()
		DeferCleanup(func() { stopMgr() })
	})
}

func startManager() func() {
	GinkgoHelper()
	return startManagerOn(archiveStore)
}

// startManagerOn starts the manager with st as its archive and webhook store.
func startManagerOn(st archive.Store) func() {
	GinkgoHelper()
	return env.StartManager(env.Config, apptest.Manager(app.Config{
		Webhooks: true, Controllers: true, SandboxSettlement: 0, Archive: st,
		WebhookEgress: egress.Options{AllowLoopbackHTTP: true, Timeout: sendTimeout},
	})).Stop
}

// delivery is one request a receiver got.
type delivery struct {
	id, timestamp, signature string
	header                   http.Header
	body                     []byte
	payload                  struct {
		Type      notify.EventType `json:"type"`
		Timestamp time.Time        `json:"timestamp"`
		Data      map[string]any   `json:"data"`
	}
}

// receiver is an HTTP endpoint on 127.0.0.1 that records every request and answers what
// answer says (200 when nil).
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []delivery
	answer func(d delivery, n int) (status int, header http.Header)
}

func newReceiver() *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		d := delivery{id: r.Header.Get("webhook-id"), timestamp: r.Header.Get("webhook-timestamp"),
			signature: r.Header.Get("webhook-signature"), header: r.Header.Clone(), body: body}
		_ = json.Unmarshal(body, &d.payload)
		rc.mu.Lock()
		rc.got = append(rc.got, d)
		n := len(rc.got)
		answer := rc.answer
		rc.mu.Unlock()
		status, h := http.StatusOK, http.Header(nil)
		if answer != nil {
			status, h = answer(d, n)
		}
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"received":true}`)
	}))
	DeferCleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// of are the deliveries about subject (an order id), in arrival order.
func (rc *receiver) of(subject string) []delivery {
	var out []delivery
	for _, d := range rc.deliveries() {
		if d.payload.Data["id"] == subject {
			out = append(out, d)
		}
	}
	return out
}

// typesOf are the event types of the deliveries about subject that succeeded once each:
// the first delivery of each webhook-id.
func (rc *receiver) typesOf(subject string) []notify.EventType {
	seen := map[string]bool{}
	var out []notify.EventType
	for _, d := range rc.of(subject) {
		if !seen[d.id] {
			seen[d.id] = true
			out = append(out, d.payload.Type)
		}
	}
	return out
}

// endpoint makes a webhook endpoint of ns for rc as GitOps would (a Secret, then the
// WebhookEndpoint), subscribed to types (none: all), and returns it with its secret.
func endpoint(ns string, rc *receiver, types ...investv1.WebhookEventType) (*investv1.WebhookEndpoint, string) {
	GinkgoHelper()
	secret, err := signature.NewSecret()
	Expect(err).NotTo(HaveOccurred())
	name := uuid.NewString()
	Expect(k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "webhook-" + name},
		Data: map[string][]byte{investv1.WebhookSecretKey: []byte(secret)}})).To(Succeed())
	ep := &investv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: investv1.WebhookEndpointSpec{URL: rc.srv.URL + "/hooks", EventTypes: types, SecretRef: investv1.LocalSecretReference{Name: "webhook-" + name}}}
	Expect(k8s.Create(ctx, ep)).To(Succeed())
	// The finalizer shows the endpoint reconciler saw it; the dispatcher is told at once.
	Eventually(func() []string {
		_ = k8s.Get(ctx, client.ObjectKeyFromObject(ep), ep)
		return ep.Finalizers
	}).WithTimeout(30 * time.Second).Should(ContainElement(investv1.WebhookEndpointFinalizer))
	return ep, secret
}

// verify checks d's signature with the official Standard Webhooks library.
func verify(secret string, d delivery) error {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return err
	}
	return wh.Verify(d.body, d.header)
}

// verifySvix checks d's signature with Svix's verifier (it reads the webhook-* headers).
func verifySvix(secret string, d delivery) error {
	wh, err := svix.NewWebhook(secret)
	if err != nil {
		return err
	}
	return wh.Verify(d.body, d.header)
}

// newMarket is a fund with one share class and a NAV.
func newMarket() string {
	GinkgoHelper()
	isin := envtest.NewISIN()
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment = 0
	Expect(k8s.Create(ctx, fund)).To(Succeed())
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_000_000}))).To(Succeed())
	return isin
}

// buy places a BUY as kubectl would; the sandbox settles it to COMPLETED. Admission
// prices it from the manager's cache, which may not have seen a share class made just
// before (failed so under load: "spec.isin: Not found"): the placement is tried again.
func buy(a *investv1.Account, isin string, units int64) *investv1.Order {
	GinkgoHelper()
	o := fixtures.BuyOrder(a.Namespace, a.Name, isin, units)
	Eventually(func() error { return k8s.Create(ctx, o.DeepCopy()) }).WithTimeout(time.Minute).Should(Succeed())
	return o
}

// completed waits for o to be COMPLETED and returns it as the API server has it.
func completed(o *investv1.Order) *investv1.Order {
	GinkgoHelper()
	fresh := &investv1.Order{}
	Eventually(func() investv1.OrderState {
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh); err != nil {
			return ""
		}
		return fresh.Status.State
	}).WithTimeout(time.Minute).WithPolling(50*time.Millisecond).Should(Equal(investv1.StateCompleted), "order %s", o.Name)
	return fresh
}

// historyTypes are the events an order's history shows, in order.
func historyTypes(o *investv1.Order) []notify.EventType {
	var out []notify.EventType
	for _, e := range notify.OrderEvents(o, time.Time{}) {
		if e.Type != notify.OrderStalled {
			out = append(out, e.Type)
		}
	}
	return out
}

// rotate replaces ep's secret as REST's rotation does and returns the new one; the old
// one still signs until until.
func rotate(ep *investv1.WebhookEndpoint, old string, until time.Time) string {
	GinkgoHelper()
	fresh, err := signature.NewSecret()
	Expect(err).NotTo(HaveOccurred())
	sec := &corev1.Secret{}
	Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ep.Namespace, Name: ep.Spec.SecretRef.Name}, sec)).To(Succeed())
	sec.Data[investv1.WebhookSecretKey] = []byte(fresh)
	sec.Data[investv1.WebhookPreviousSecretKey] = []byte(old)
	sec.Data[investv1.WebhookPreviousSecretExpiresKey] = []byte(until.UTC().Format(time.RFC3339))
	Expect(k8s.Update(ctx, sec)).To(Succeed())
	return fresh
}

// oneIDPerEvent checks that rc never got one event under two webhook-ids: an event is its
// type and its data (an order's id, status and version; a NAV's ISIN and date; ...), and
// a repeated delivery of it must carry the id of the first.
func oneIDPerEvent(rc *receiver) {
	GinkgoHelper()
	byEvent := map[string]string{}
	for _, d := range rc.deliveries() {
		data, err := json.Marshal(d.payload.Data) // map keys sorted: one text per data
		Expect(err).NotTo(HaveOccurred())
		key := string(d.payload.Type) + " " + string(data)
		if id, ok := byEvent[key]; ok {
			Expect(d.id).To(Equal(id), "event %s sent under two ids", key)
		}
		byEvent[key] = d.id
	}
}

// deliveriesUnderWay is a customer of a new tenant (prefix) with an endpoint receiving at
// rc and three BUY orders of a new share class (isin) whose first deliveries arrived.
func deliveriesUnderWay(prefix string) (a *investv1.Account, isin string, rc *receiver, orders []*investv1.Order) {
	GinkgoHelper()
	isin = newMarket()
	a, _, _ = env.NewCustomer(env.NewTenant(prefix))
	rc = newReceiver()
	endpoint(a.Namespace, rc)
	for range 3 {
		orders = append(orders, buy(a, isin, 1))
	}
	Eventually(func() int { return len(rc.deliveries()) }).WithTimeout(time.Minute).Should(BeNumerically(">", 0))
	return a, isin, rc, orders
}

// everyStateArrives waits until rc got, for each order, every state its history shows
// once it completed, in order.
func everyStateArrives(rc *receiver, orders []*investv1.Order) {
	GinkgoHelper()
	for _, o := range orders {
		want := historyTypes(completed(o))
		Eventually(func() []notify.EventType { return rc.typesOf(o.Name) }).WithTimeout(2*time.Minute).Should(Equal(want), "order %s", o.Name)
	}
}
