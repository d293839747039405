package notify_test

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

var _ = Describe("Webhook delivery", func() {
	It("delivers every state an order enters to a subscribed endpoint once, in order, signed by Standard Webhooks", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks"))
		rc := newReceiver()
		_, secret := endpoint(a.Namespace, rc)
		o := completed(buy(a, isin, 10))
		want := historyTypes(o)
		Expect(want).To(ContainElements(notify.OrderPlaced, notify.OrderPaymentReceived, notify.OrderCompleted))
		Eventually(func() []notify.EventType { return rc.typesOf(o.Name) }).WithTimeout(time.Minute).Should(Equal(want))
		ids := map[string]bool{}
		for _, d := range rc.of(o.Name) {
			Expect(verify(secret, d)).To(Succeed(), "delivery %s verifies with the standard-webhooks library", d.id)
			Expect(verifySvix(secret, d)).To(Succeed(), "delivery %s verifies with Svix's verifier", d.id)
			Expect(d.header.Get("Content-Type")).To(Equal("application/json"))
			Expect(d.payload.Data["version"]).NotTo(BeNil())
			ids[d.id] = true
		}
		Expect(ids).To(HaveLen(len(want)), "one webhook-id per event")
		// Every attempt is in the log, each succeeded at the first try.
		attempts, _, err := hooks.Attempts(ctx, endpointUID(a.Namespace), notify.AttemptQuery{Limit: 1000})
		Expect(err).NotTo(HaveOccurred())
		for _, at := range attempts {
			Expect(at.Outcome).To(Equal(notify.Succeeded))
			Expect(at.StatusCode).To(Equal(http.StatusOK))
			Expect(at.ResponseHead).To(Equal(`{"received":true}`))
		}
	})

	It("sends an endpoint only its tenant's events, of the types it subscribes to", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-a"))
		b, _, _ := env.NewCustomer(env.NewTenant("hooks-b"))
		rc := newReceiver()
		endpoint(a.Namespace, rc, investv1.WebhookEventType(notify.OrderCompleted))
		ob := completed(buy(b, isin, 3))
		oa := completed(buy(a, isin, 4))
		Eventually(func() []notify.EventType { return rc.typesOf(oa.Name) }).WithTimeout(time.Minute).Should(Equal([]notify.EventType{notify.OrderCompleted}))
		Consistently(func() int { return len(rc.of(ob.Name)) }).WithTimeout(2*time.Second).Should(BeZero(), "another tenant's order")
		for _, d := range rc.deliveries() {
			Expect(d.payload.Type).To(Equal(notify.OrderCompleted))
		}
	})

	It("retries a failed delivery, honouring Retry-After, logs every attempt and clears the run of failures on success", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-retry"))
		rc := newReceiver()
		rc.answer = func(_ delivery, n int) (int, http.Header) {
			if n <= 2 {
				return http.StatusServiceUnavailable, http.Header{"Retry-After": {"1"}}
			}
			return http.StatusOK, nil
		}
		ep, _ := endpoint(a.Namespace, rc, investv1.WebhookEventType(notify.OrderPlaced))
		o := buy(a, isin, 2)
		Eventually(func() int { return len(rc.of(o.Name)) }).WithTimeout(time.Minute).Should(Equal(3))
		got := rc.of(o.Name)
		Expect(got[0].id).To(Equal(got[2].id), "a retry is the same event, the same webhook-id")
		Eventually(func() []notify.Outcome {
			attempts, _, err := hooks.Attempts(ctx, string(ep.UID), notify.AttemptQuery{EventID: got[0].id, Limit: 10})
			Expect(err).NotTo(HaveOccurred())
			var out []notify.Outcome
			for _, at := range attempts {
				out = append(out, at.Outcome)
			}
			return out
		}).Should(Equal([]notify.Outcome{notify.Succeeded, notify.Retrying, notify.Retrying}), "newest first")
		attempts, _, err := hooks.Attempts(ctx, string(ep.UID), notify.AttemptQuery{EventID: got[0].id, Limit: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(attempts[2].StatusCode).To(Equal(http.StatusServiceUnavailable))
		Expect(attempts[2].NextAt.Sub(attempts[2].At)).To(Equal(time.Second), "Retry-After: 1 sets the next attempt")
		Expect(attempts[0].Number).To(Equal(3))
		Eventually(func() bool {
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(ep), ep)).To(Succeed())
			return ep.Status.FailingSince == nil && ep.Status.LastSuccessAt != nil
		}).Should(BeTrue(), "a success ends the run of failures")
	})

	It("disables an endpoint that answers 410 Gone and tells the tenant's other endpoints", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-gone"))
		gone, watcher := newReceiver(), newReceiver()
		gone.answer = func(delivery, int) (int, http.Header) { return http.StatusGone, nil }
		ep, _ := endpoint(a.Namespace, gone)
		endpoint(a.Namespace, watcher, investv1.WebhookEventType(notify.WebhookEndpointDisabled))
		o := completed(buy(a, isin, 1))
		Eventually(func() *investv1.WebhookDisabled {
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(ep), ep)).To(Succeed())
			return ep.Status.DisabledBy
		}).WithTimeout(time.Minute).ShouldNot(BeNil())
		Expect(ep.Status.DisabledBy.Reason).To(Equal("Gone"))
		Eventually(func() []notify.EventType { return watcher.typesOf(ep.Name) }).WithTimeout(time.Minute).
			Should(Equal([]notify.EventType{notify.WebhookEndpointDisabled}))
		Expect(gone.of(o.Name)).To(HaveLen(1), "nothing is sent after the 410")
	})

	It("does not let a hanging endpoint hold up the others", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-hang"))
		hang, fast := newReceiver(), newReceiver()
		release := make(chan struct{})
		DeferCleanup(func() { close(release) })
		hang.answer = func(delivery, int) (int, http.Header) {
			<-release
			return http.StatusOK, nil
		}
		endpoint(a.Namespace, hang)
		endpoint(a.Namespace, fast)
		o := completed(buy(a, isin, 5))
		want := historyTypes(o)
		Eventually(func() []notify.EventType { return fast.typesOf(o.Name) }).WithTimeout(time.Minute).Should(Equal(want))
		// The hanging endpoint's worker waits out each attempt (sendTimeout) in turn, one
		// order's events in order: it cannot have had them all.
		Expect(len(hang.of(o.Name))).To(BeNumerically("<", len(want)))
	})

	It("loses no event of orders that move while the manager restarts", func() {
		a, isin, rc, orders := deliveriesUnderWay("hooks-restart")
		// The manager stops with deliveries in flight and orders moving; a new one takes over
		// from what the cluster and the store hold.
		stopMgr()
		stopMgr = startManager()
		for range 2 {
			orders = append(orders, buy(a, isin, 1))
		}
		everyStateArrives(rc, orders)
		// At least once: an attempt in flight when the manager stopped may be made again,
		// with the same webhook-id; no event has two ids.
		oneIDPerEvent(rc)
	})

	It("loses no event and sends none under two ids when the webhook database is killed mid-delivery and comes back", func() {
		By("a manager whose webhook store is a PostgreSQL server")
		pg := pgtest.Start(GinkgoT())
		st, err := sqlstore.Open(ctx, pg.NewDatabase(GinkgoT()), sqlstore.Options{OpTimeout: 2 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		stopMgr()
		stopMgr = startManagerOn(st)
		DeferCleanup(func() {
			stopMgr()
			Expect(st.Close()).To(Succeed())
			stopMgr = startManager()
		})

		a, isin, rc, orders := deliveriesUnderWay("hooks-pgkill")

		By("kill -9 of the database with deliveries in flight; orders go on moving while it is down")
		pg.Kill(GinkgoT())
		for range 2 {
			orders = append(orders, buy(a, isin, 1))
		}
		for _, o := range orders {
			completed(o)
		}
		sentWhileDown := len(rc.deliveries())

		By("the database comes back: every state each order entered arrives, by itself")
		pg.Restart(GinkgoT())
		everyStateArrives(rc, orders)
		Expect(len(rc.deliveries())).To(BeNumerically(">", sentWhileDown))
		// At least once: an attempt whose outcome the dead database never recorded is made
		// again, under the same webhook-id; no event has two ids.
		oneIDPerEvent(rc)
	})

	It("sends an endpoint no event recorded before it existed, except by replay", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-replay"))
		before := completed(buy(a, isin, 1))
		// The ingest recorded every event of the first order before the endpoint exists (its
		// last state may be recorded after its first: waiting for the first alone let the
		// endpoint receive the later ones, recorded after it existed, as it should).
		for _, e := range notify.OrderEvents(before, time.Time{}) {
			Eventually(func() error {
				_, err := hooks.Event(ctx, a.Namespace, e.ID)
				return err
			}).WithTimeout(time.Minute).Should(Succeed(), "event %s of %s recorded", e.Type, before.Name)
		}
		rc := newReceiver()
		ep, _ := endpoint(a.Namespace, rc)
		after := completed(buy(a, isin, 1))
		Eventually(func() []notify.EventType { return rc.typesOf(after.Name) }).WithTimeout(time.Minute).Should(Equal(historyTypes(after)))
		Expect(rc.of(before.Name)).To(BeEmpty())
		first := notify.OrderEvents(before, time.Time{})[0]
		n, err := hooks.Replay(ctx, notify.Endpoint{UID: string(ep.UID), Namespace: ep.Namespace}, notify.ReplayQuery{EventID: first.ID})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(1))
		Eventually(func() []notify.EventType { return rc.typesOf(before.Name) }).WithTimeout(time.Minute).Should(Equal([]notify.EventType{notify.OrderPlaced}))
		Expect(rc.of(before.Name)[0].id).To(Equal(first.ID))
	})

	It("signs with the previous secret too while a rotation's overlap lasts", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-rotate"))
		rc := newReceiver()
		ep, oldSecret := endpoint(a.Namespace, rc, investv1.WebhookEventType(notify.OrderPlaced))
		// Rotate as REST does: the new secret in "secret", the old one in "previous" until
		// its expiry. A new endpoint's worker reads the Secret at its first delivery.
		newSecret := rotate(ep, oldSecret, time.Now().Add(24*time.Hour))
		o := buy(a, isin, 1)
		Eventually(func() int { return len(rc.of(o.Name)) }).WithTimeout(time.Minute).Should(Equal(1))
		d := rc.of(o.Name)[0]
		Expect(strings.Fields(d.signature)).To(HaveLen(2), "two signatures: %s", d.signature)
		Expect(verify(newSecret, d)).To(Succeed())
		Expect(verify(oldSecret, d)).To(Succeed())
	})

	It("deletes an endpoint's deliveries and log with it", func() {
		isin := newMarket()
		a, _, _ := env.NewCustomer(env.NewTenant("hooks-delete"))
		rc := newReceiver()
		ep, _ := endpoint(a.Namespace, rc, investv1.WebhookEventType(notify.OrderPlaced))
		o := buy(a, isin, 1)
		Eventually(func() int { return len(rc.of(o.Name)) }).WithTimeout(time.Minute).Should(Equal(1))
		Eventually(func() int {
			attempts, _, err := hooks.Attempts(ctx, string(ep.UID), notify.AttemptQuery{Limit: 10})
			Expect(err).NotTo(HaveOccurred())
			return len(attempts)
		}).Should(Equal(1))
		Expect(k8s.Delete(ctx, ep)).To(Succeed())
		Eventually(func() bool { return k8s.Get(ctx, client.ObjectKeyFromObject(ep), ep) != nil }).WithTimeout(time.Minute).Should(BeTrue(), "the finalizer is dropped")
		attempts, _, err := hooks.Attempts(ctx, string(ep.UID), notify.AttemptQuery{Limit: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(attempts).To(BeEmpty())
	})
})

// endpointUID is the UID of the only endpoint of ns.
func endpointUID(ns string) string {
	GinkgoHelper()
	var list investv1.WebhookEndpointList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	Expect(list.Items).To(HaveLen(1))
	return string(list.Items[0].UID)
}
