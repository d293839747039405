package apiserver_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/retention"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// archiveOrder moves a done order of t to the archive exactly as the retention controller
// does (archive write, read back, delete with preconditions), with a retention already
// over, and waits until the facade's cache no longer has it, so that what follows reads
// the archive.
func (t *tenant) archiveOrder(id string) {
	GinkgoHelper()
	r := &retention.Reconciler{Client: k8s, Live: k8s, Store: orderArchive, Retention: time.Nanosecond,
		Now: func() time.Time { return time.Now().Add(time.Minute) }}
	key := client.ObjectKey{Namespace: t.ns, Name: id}
	Eventually(func() error {
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: key})
		if err != nil {
			return err
		}
		return k8s.Get(ctx, key, &investv1.Order{})
	}).WithTimeout(30*time.Second).Should(MatchError(ContainSubstring("not found")), "order %s archived and deleted", id)
	_, err := orderArchive.Get(ctx, t.ns, id)
	Expect(err).NotTo(HaveOccurred())
	// What follows must read the archive: wait until the facade's cache no longer has it.
	Eventually(func() error {
		return env.Manager.GetCache().Get(ctx, key, &investv1.Order{})
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(MatchError(ContainSubstring("not found")))
}

// listIDs is the ids of a list answer.
func listIDs(t *tenant, query string) []string {
	GinkgoHelper()
	r := t.get("/v1/orders?" + query)
	Expect(r.code).To(Equal(http.StatusOK), r.String())
	return idsOf(r.data())
}

// walk pages through the list with limit and the cursor, and returns every id in order.
func walk(t *tenant, query string, limit int) []string {
	GinkgoHelper()
	return walkFrom(t, query, limit, "")
}

// walkFrom is walk from a cursor ("": the first page).
func walkFrom(t *tenant, query string, limit int, cursor string) []string {
	GinkgoHelper()
	out := []string{}
	for range 100 {
		q := query + "&limit=" + strconv.Itoa(limit)
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		r := t.get("/v1/orders?" + q)
		Expect(r.code).To(Equal(http.StatusOK), r.String())
		out = append(out, idsOf(r.data())...)
		next, _ := r.json()["next_cursor"].(string)
		if next == "" {
			return out
		}
		cursor = next
	}
	Fail("the cursor never ended")
	return nil
}

// newestFirst sorts stored orders (live or archived) the way the list answers.
func newestFirst(orders []*investv1.Order) []string {
	slices.SortFunc(orders, func(a, b *investv1.Order) int {
		if c := b.CreationTimestamp.Unix() - a.CreationTimestamp.Unix(); c != 0 {
			return int(c)
		}
		return strings.Compare(b.Name, a.Name)
	})
	var out []string
	for _, o := range orders {
		out = append(out, o.Name)
	}
	return out
}

var _ = Describe("Orders in the archive: reads stay whole", func() {
	It("GET /v1/orders/{order_id} answers an archived order as it answered the live one", func() {
		account := alpha.buyer()
		id := alpha.place("BUY", fixtures.ISIN, account, 100)
		alpha.settleBuy(id)
		// REST reads the informer cache, which may lag the COMPLETED the API server has.
		var live response
		Eventually(func() string {
			live = alpha.get("/v1/orders/" + id)
			return live.String()
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(ContainSubstring(`"status":"COMPLETED"`))
		Expect(live.code).To(Equal(http.StatusOK), live.String())
		alpha.archiveOrder(id)
		Consistently(func() string {
			r := alpha.get("/v1/orders/" + id)
			return r.String()
		}).WithTimeout(time.Second).Should(Equal(live.String()))
	})

	It("answers 404 for another tenant's archived order, exactly as for an unknown id", func() {
		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		alpha.settleBuy(id)
		alpha.archiveOrder(id)
		unknown := fixturesID()
		r1, r2 := beta.get("/v1/orders/"+id), beta.get("/v1/orders/"+unknown)
		Expect(r1.code).To(Equal(http.StatusNotFound), r1.String())
		Expect(strings.ReplaceAll(r1.String(), id, "<id>")).To(Equal(strings.ReplaceAll(r2.String(), unknown, "<id>")))
		Expect(beta.delete("/v1/orders/" + id).code).To(Equal(http.StatusNotFound))
		Expect(listIDs(beta, "")).NotTo(ContainElement(id))
	})

	It("DELETE of an archived order answers 409 naming its terminal state, as for a live one", func() {
		id := alpha.place("BUY", fixtures.ISIN, alpha.buyer(), 100)
		alpha.settleBuy(id)
		alpha.archiveOrder(id)
		r := alpha.delete("/v1/orders/" + id)
		Expect(r.code).To(Equal(http.StatusConflict), r.String())
		Expect(r.json()["error"]).To(Equal("Order already COMPLETED"))
	})

	It("the portfolio counts archived lots with their lock-up, and a sell may claim them", func() {
		account := alpha.buyer()
		locked := alpha.place("BUY", string(lockedClass.Spec.ISIN), account, 100)
		open := alpha.place("BUY", fixtures.ISIN, account, 100)
		alpha.settleBuy(locked)
		alpha.settleBuy(open)
		// settleBuy saw COMPLETED through the API server; the facade answers from its
		// cache, which may not have both completions yet.
		var before response
		Eventually(func() []any {
			before = alpha.get("/v1/accounts/" + account + "/portfolio")
			Expect(before.code).To(Equal(http.StatusOK), before.String())
			return before.json()["positions"].([]any)
		}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(HaveLen(2))
		alpha.archiveOrder(locked)
		alpha.archiveOrder(open)
		Expect(alpha.get("/v1/accounts/" + account + "/portfolio").String()).To(Equal(before.String()))

		r := alpha.post("/v1/orders", orderBody("SELL", string(lockedClass.Spec.ISIN), account, 10))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Shares locked"))
		r = alpha.post("/v1/orders", orderBody("SELL", fixtures.ISIN, account, 101))
		Expect(r.code).To(Equal(http.StatusBadRequest), r.String())
		Expect(r.json()["error"]).To(Equal("Insufficient holdings"))
		alpha.place("SELL", fixtures.ISIN, account, 100)
	})

	It("lists live and archived orders newest first, with a cursor stable across both and every filter", func() {
		gamma := newTenant("gamma", investv1.ApiClientSpec{})
		person, other := gamma.buyer(), gamma.buyer()
		var ids []string
		for i := range 6 {
			account := person
			if i%3 == 2 {
				account = other
			}
			id := gamma.place("BUY", fixtures.ISIN, account, 100)
			gamma.settleBuy(id)
			ids = append(ids, id)
			if i%2 == 1 {
				time.Sleep(time.Second) // some in the same second, some not
			}
		}
		live := gamma.place("BUY", string(lockedClass.Spec.ISIN), person, 100)
		var stored []*investv1.Order
		for _, id := range append(slices.Clone(ids), live) {
			stored = append(stored, gamma.storedOrder(id))
		}
		for _, id := range ids[:4] {
			gamma.archiveOrder(id)
		}
		all := newestFirst(slices.Clone(stored))
		Expect(listIDs(gamma, "")).To(Equal(all))
		Expect(walk(gamma, "", 2)).To(Equal(all))
		Expect(walk(gamma, "", 1)).To(Equal(all))
		Expect(listIDs(gamma, "skip=2&limit=3")).To(Equal(all[2:5]))

		mine := func(keep func(o *investv1.Order) bool) []string {
			var out []*investv1.Order
			for _, o := range stored {
				if keep(o) {
					out = append(out, o)
				}
			}
			return newestFirst(out)
		}
		for _, f := range []struct {
			query string
			keep  func(o *investv1.Order) bool
		}{
			{"account_id=" + person, func(o *investv1.Order) bool { return string(o.Spec.AccountID) == person }},
			{"order_status=COMPLETED", func(o *investv1.Order) bool { return o.Name != live }},
			{"isin=" + fixtures.ISIN + "&side=BUY&market=PRIMARY&currency=EUR", func(o *investv1.Order) bool { return o.Name != live }},
			{"account_type=individual&account_id=" + other, func(o *investv1.Order) bool { return string(o.Spec.AccountID) == other }},
			{"account_type=business", func(*investv1.Order) bool { return false }},
			{"side=SELL", func(*investv1.Order) bool { return false }},
			{"order_status=AWAITING_PAYMENT", func(o *investv1.Order) bool { return o.Name == live }},
		} {
			want := mine(f.keep)
			if want == nil {
				want = []string{}
			}
			Expect(listIDs(gamma, f.query)).To(Equal(want), f.query)
			Expect(walk(gamma, f.query, 2)).To(Equal(want), f.query)
		}

		// A page walk is stable while orders are placed and archived meanwhile.
		first := gamma.get("/v1/orders?limit=3")
		cursor := first.json()["next_cursor"].(string)
		gamma.place("BUY", fixtures.ISIN, person, 100)
		gamma.archiveOrder(ids[4])
		rest := walkFrom(gamma, "", 2, cursor)
		Expect(append(idsOf(first.data()), rest...)).To(Equal(all))
	})

	It("reads no archived order for a page its live orders fill, whatever the archive holds (the unfiltered list is O(limit))", func() {
		delta := newTenant("delta", investv1.ApiClientSpec{})
		account := delta.buyer()
		var old, recent []*investv1.Order
		for range 3 {
			id := delta.place("BUY", fixtures.ISIN, account, 100)
			delta.settleBuy(id)
			old = append(old, delta.storedOrder(id))
		}
		for _, o := range old {
			delta.archiveOrder(o.Name)
		}
		time.Sleep(time.Second) // the live orders are newer than every archived one
		for range 3 {
			recent = append(recent, delta.storedOrder(delta.place("BUY", fixtures.ISIN, account, 100)))
		}
		all := newestFirst(append(slices.Clone(recent), old...))

		before := archiveSwitch.Listed.Load()
		Expect(listIDs(delta, "limit=2")).To(Equal(all[:2]))
		Expect(archiveSwitch.Listed.Load()-before).To(BeZero(), "archived orders read for a page of live ones")
		// A page that reaches past the live orders reads at most a page and one more of
		// archived ones (the one more tells whether a next page exists).
		before = archiveSwitch.Listed.Load()
		Expect(listIDs(delta, "limit=4")).To(Equal(all[:4]))
		Expect(archiveSwitch.Listed.Load() - before).To(BeNumerically("<=", 5))
		Expect(walk(delta, "", 2)).To(Equal(all))
	})

	It("answers a retry of an archived order's Idempotency-Key with the order, and places nothing", func() {
		account := alpha.buyer()
		body := orderBody("BUY", fixtures.ISIN, account, 100)
		key := newKey()
		first := alpha.postWithKey("/v1/orders", key, body)
		Expect(first.code).To(Equal(http.StatusCreated), first.String())
		id := first.json()["id"].(string)
		alpha.settleBuy(id)
		alpha.archiveOrder(id)
		again := alpha.postWithKey("/v1/orders", key, body)
		Expect(again.code).To(Equal(http.StatusCreated), again.String())
		Expect(again.json()["id"]).To(Equal(id))
		Expect(again.json()["status"]).To(Equal("COMPLETED"))
		Expect(listIDs(alpha, "account_id="+account)).To(Equal([]string{id}), "placed once")
	})

	It("while the archive cannot be read, answers a SELL and the portfolio with 503, and places a BUY", func() {
		account := alpha.buyer()
		alpha.settleBuy(alpha.place("BUY", fixtures.ISIN, account, 100))
		archiveSwitch.SetDown(true)
		defer archiveSwitch.SetDown(false)
		r := alpha.post("/v1/orders", orderBody("SELL", fixtures.ISIN, account, 10))
		Expect(r.code).To(Equal(http.StatusServiceUnavailable), r.String())
		Expect(r.json()["error"]).To(Equal("Service unavailable"))
		r = alpha.get("/v1/accounts/" + account + "/portfolio")
		Expect(r.code).To(Equal(http.StatusServiceUnavailable), r.String())
		alpha.place("BUY", fixtures.ISIN, account, 100)
		Expect(alpha.get("/v1/orders/"+fixturesID()).code).To(Equal(http.StatusServiceUnavailable), "an unknown id cannot be told from an archived one")
	})

	It("refuses a cursor it did not issue with 422 naming the parameter", func() {
		r := alpha.get("/v1/orders?cursor=not-a-cursor")
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKey("cursor"))
	})
})
