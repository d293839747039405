package retention_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/retention"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

var _ = Describe("Retention: done orders leave the cluster for the archive", func() {
	It("archives a done order older than the retention, verified, and only then deletes it; its holding stays whole", func() {
		isin := newMarket(0)
		a := newCustomer()
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		Eventually(holding(a, isin)).WithTimeout(30 * time.Second).Should(Equal(int64(100)))
		stop := watchHolding(a, isin, 100)
		waitArchived(buy)
		// The account controller sees the deletion and computes again: still 100.
		Consistently(holding(a, isin)).WithTimeout(2 * time.Second).Should(Equal(int64(100)))
		for _, v := range stop() {
			Expect(v).To(Equal(int64(100)), "the holding never changes while the order moves to the archive")
		}
		archived, err := direct().Get(ctx, buy.Namespace, buy.Name)
		Expect(err).NotTo(HaveOccurred())
		Expect(archived.Status.State).To(Equal(investv1.StateCompleted))
		Expect(archived.Spec.Quote).NotTo(BeNil(), "the full order is archived, not the cache's compact copy")
		Expect(archived.Status.Conditions).NotTo(BeEmpty(), "the full order is archived, not the cache's compact copy")
		Expect(time.Since(retention.DoneAt(archived))).To(BeNumerically(">=", retainFor), "not before the retention")
		Expect(archivedOfAccount(a)).To(HaveLen(1))
	})

	It("records a done order's webhook events before it leaves the cluster, and keeps the order while it cannot", func() {
		isin := newMarket(0)
		a := newCustomer()
		ws, ok := sqlstore.Webhooks(direct())
		Expect(ok).To(BeTrue())
		endpointUID := "retention-" + a.Namespace
		rec := &notify.Recorder{Store: ws, Endpoints: func(context.Context) ([]notify.Endpoint, error) {
			return []notify.Endpoint{{UID: endpointUID, Namespace: a.Namespace}}, nil
		}}
		var mu sync.Mutex
		down, calls := true, 0
		setEvents(func(ctx context.Context, o *investv1.Order) error {
			mu.Lock()
			calls++
			failing := down
			mu.Unlock()
			if failing {
				return errors.New("the webhook store does not answer")
			}
			return rec.RecordOrder(ctx, o)
		})
		DeferCleanup(func() { setEvents(nil) })
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		Eventually(func() int { mu.Lock(); defer mu.Unlock(); return calls }).WithTimeout(time.Minute).Should(BeNumerically(">", 0))
		Consistently(inCluster(buy)).WithTimeout(2*retainFor).Should(BeTrue(), "the order stays while its events cannot be recorded")
		mu.Lock()
		down = false
		mu.Unlock()
		waitArchived(buy)
		archived, err := direct().Get(ctx, buy.Namespace, buy.Name)
		Expect(err).NotTo(HaveOccurred())
		var want []notify.EventType
		for _, e := range notify.OrderEvents(archived, time.Time{}) {
			want = append(want, e.Type)
		}
		pending, err := ws.Pending(ctx, endpointUID, 100)
		Expect(err).NotTo(HaveOccurred())
		var got []notify.EventType
		for _, d := range pending {
			got = append(got, d.Event.Type)
		}
		Expect(got).To(Equal(want), "every state the order entered is an event, recorded before the order left")
		Expect(got).To(ContainElement(notify.OrderCompleted))
	})

	It("lets a sell claim archived units, and refuses one beyond them", func() {
		isin := newMarket(0)
		a := newCustomer()
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		waitArchived(buy)

		_, err := place(a, investv1.SideSell, isin, 101)
		Expect(err).To(MatchError(ContainSubstring("Insufficient holdings")))
		sell := mustPlace(a, investv1.SideSell, isin, 60)
		waitCompleted(sell)
		Eventually(holding(a, isin)).WithTimeout(30 * time.Second).Should(Equal(int64(40)))
		waitArchived(sell)
		Consistently(holding(a, isin)).WithTimeout(2 * time.Second).Should(Equal(int64(40)))
		_, err = place(a, investv1.SideSell, isin, 41)
		Expect(err).To(MatchError(ContainSubstring("Insufficient holdings")), "an archived sell still consumes its units")
		Expect(archivedOfAccount(a)).To(HaveLen(2))
	})

	It("drops a reservation that names a sell already in the archive: it holds nothing", func() {
		isin := newMarket(0)
		a := newCustomer()
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		sell := mustPlace(a, investv1.SideSell, isin, 30)
		waitCompleted(sell)
		waitArchived(sell)
		// A status written before the sell completed (a restored backup, an old replica's
		// write) still reserves the sell's units; the sell is only in the archive now.
		acct := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(a), acct)).To(Succeed())
		before := acct.DeepCopy()
		acct.Status.Reservations = append(acct.Status.Reservations, investv1.UnitReservation{
			Order: investv1.ObjectID(sell.Name), ISIN: investv1.ISIN(isin), Units: 30})
		Expect(k8s.Status().Patch(ctx, acct, client.MergeFrom(before))).To(Succeed())
		// The account's next reconcile (here: an annotation, as any change of it) drops it.
		before = acct.DeepCopy()
		acct.Annotations = map[string]string{"example.com/touched": "yes"}
		Expect(k8s.Patch(ctx, acct, client.MergeFrom(before))).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(a), acct)).To(Succeed())
			g.Expect(acct.Status.Reservations).To(BeEmpty())
			g.Expect(acct.Status.Holdings).To(ConsistOf(HaveField("ReservedUnits", BeZero())))
		}).WithTimeout(30 * time.Second).Should(Succeed())
		Expect(holding(a, isin)()).To(Equal(int64(70)))
		mustPlace(a, investv1.SideSell, isin, 70) // every unit left may be sold
	})

	It("keeps the lock-up of an archived buy", func() {
		isin := newMarket(365)
		a := newCustomer()
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		waitArchived(buy)
		_, err := place(a, investv1.SideSell, isin, 10)
		Expect(err).To(MatchError(ContainSubstring("Shares locked")))
	})

	It("refuses to delete an account that holds archived units", func() {
		isin := newMarket(0)
		a := newCustomer()
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		waitArchived(buy)
		err := k8s.Delete(ctx, a)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
		Expect(err).To(MatchError(ContainSubstring("account holds 100 units of " + isin)))
	})

	It("keeps an order in the cluster when the archive holds another order under its id", func() {
		isin := newMarket(0)
		a := newCustomer()
		setCrash(func(context.Context, *investv1.Order) error { return errCrash }) // hold it back until the impostor is in
		buy := mustPlace(a, investv1.SideBuy, isin, 100)
		waitCompleted(buy)
		impostor := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(buy), impostor)).To(Succeed())
		impostor.UID = "another-order-under-the-same-id"
		impostor.ResourceVersion = ""
		Expect(direct().Put(ctx, impostor, investv1.AccountTypeIndividual)).To(Succeed())
		setCrash(nil)

		Eventually(func() []string {
			var list eventsv1.EventList
			Expect(k8s.List(ctx, &list, client.InNamespace(a.Namespace))).To(Succeed())
			var reasons []string
			for _, e := range list.Items {
				reasons = append(reasons, e.Reason)
			}
			return reasons
		}).WithTimeout(time.Minute).Should(ContainElement(retention.ReasonArchiveConflict))
		Consistently(inCluster(buy)).WithTimeout(retainFor+time.Second).Should(BeTrue(), "never deleted on another order's record")
	})

	for _, b := range backends {
		It(b.name+": loses and duplicates nothing when the process dies between the archive write and the delete", func() {
			b.setUp()
			isin := newMarket(0)
			a := newCustomer()
			buy := mustPlace(a, investv1.SideBuy, isin, 100)
			var hits atomic.Int32
			setCrash(func(_ context.Context, o *investv1.Order) error {
				if o.UID == buy.UID || o.Name == buy.Name {
					hits.Add(1)
					return errCrash
				}
				return nil
			})
			waitCompleted(buy)
			Eventually(hits.Load).WithTimeout(time.Minute).Should(BeNumerically(">=", 1))
			stopMgr() // the crash: the write is durable, the delete never happened
			stopMgr = nil
			setCrash(nil)

			Expect(inCluster(buy)()).To(BeTrue(), "not deleted")
			Expect(archivedOfAccount(a)).To(HaveLen(1), "archived")
			Expect(holding(a, isin)()).To(Equal(int64(100)))

			stopMgr = startManager()
			waitArchived(buy)
			orders := archivedOfAccount(a)
			Expect(orders).To(HaveLen(1), "archived once")
			Expect(orders[0].UID).To(Equal(buy.UID))
			Consistently(holding(a, isin)).WithTimeout(2 * time.Second).Should(Equal(int64(100)))
		})

		It(b.name+": keeps orders in the cluster while the archive is down, goes on placing buys, and resumes archiving", func() {
			down, up := b.setUp()
			isin := newMarket(0)
			a := newCustomer()
			failuresBefore := archiveFailures()
			down()
			DeferCleanup(up)
			var buys []*investv1.Order
			for range 3 {
				buys = append(buys, mustPlace(a, investv1.SideBuy, isin, 10))
			}
			for _, b := range buys {
				waitCompleted(b)
			}
			// A sell needs the whole history, which cannot be read now: refused, never
			// decided on part of it.
			_, err := place(a, investv1.SideSell, isin, 5)
			Expect(err).To(MatchError(ContainSubstring("the order archive is unavailable")))

			Consistently(func() bool {
				for _, b := range buys {
					if !inCluster(b)() {
						return false
					}
				}
				return true
			}).WithTimeout(retainFor+3*time.Second).Should(BeTrue(), "nothing leaves the cluster while the archive is down")
			Expect(archiveFailures()).To(BeNumerically(">", failuresBefore))
			Eventually(func() []string {
				var list eventsv1.EventList
				Expect(k8s.List(ctx, &list, client.InNamespace(a.Namespace))).To(Succeed())
				var reasons []string
				for _, e := range list.Items {
					reasons = append(reasons, e.Reason)
				}
				return reasons
			}).WithTimeout(10 * time.Second).Should(ContainElement(retention.ReasonArchiveUnavailable))

			up()
			for _, b := range buys {
				waitArchived(b)
			}
			Expect(archivedOfAccount(a)).To(HaveLen(3), "each archived once")
			Eventually(holding(a, isin)).WithTimeout(30 * time.Second).Should(Equal(int64(30)))
			Expect(mustPlace(a, investv1.SideSell, isin, 30)).NotTo(BeNil(), "every archived unit can be sold")
		})
	}

	It("PostgreSQL: loses and duplicates nothing when the database is killed -9 while orders are archived", func() {
		pg := usePostgres()
		isin := newMarket(0)
		a := newCustomer()
		const n = 8
		var buys []*investv1.Order
		for range n {
			buys = append(buys, mustPlace(a, investv1.SideBuy, isin, 10))
		}
		// The first order whose record is written and verified holds its worker while the
		// database is killed: its record was committed before the kill, and the other
		// worker may be in the middle of a write (or done with an order or two already).
		hit, killed := make(chan string), make(chan struct{})
		var first atomic.Bool
		setCrash(func(ctx context.Context, o *investv1.Order) error {
			// Only this spec's orders: an earlier spec's order may still be on its way out,
			// and holding it instead would hold nothing this spec watches.
			if o.Namespace != a.Namespace || !first.CompareAndSwap(false, true) {
				return nil
			}
			select {
			case hit <- o.Name:
			case <-ctx.Done():
				return ctx.Err()
			}
			<-killed
			return nil
		})
		DeferCleanup(func() { setCrash(nil) })
		for _, b := range buys {
			waitCompleted(b)
		}
		var committed string
		Eventually(hit).WithTimeout(time.Minute).Should(Receive(&committed))
		pg.Kill(specTB())
		close(killed)

		By("while the database is down, no order leaves the cluster")
		left := func() []string {
			var out []string
			for _, b := range buys {
				if !inCluster(b)() {
					out = append(out, b.Name)
				}
			}
			return out
		}
		// What left before the kill was committed and verified first; the order that held
		// its worker across the kill leaves now, on its record committed before the kill.
		Eventually(left).WithTimeout(10 * time.Second).Should(ContainElement(committed))
		gone := left()
		Consistently(left).WithTimeout(retainFor + 3*time.Second).Should(Equal(gone))

		By("after the restart every order is archived exactly once and the holding is whole")
		pg.Restart(specTB())
		for _, name := range gone {
			_, err := direct().Get(ctx, a.Namespace, name)
			Expect(err).NotTo(HaveOccurred(), "order %s left the cluster before the kill: its record survived it", name)
		}
		for _, b := range buys {
			waitArchived(b)
		}
		orders := archivedOfAccount(a)
		Expect(orders).To(HaveLen(n), "each archived once")
		uids := map[string]bool{}
		for _, o := range orders {
			uids[string(o.UID)] = true
		}
		for _, b := range buys {
			Expect(uids).To(HaveKey(string(b.UID)), "order %s archived under its own UID", b.Name)
		}
		Eventually(holding(a, isin)).WithTimeout(30 * time.Second).Should(Equal(int64(n * 10)))
	})
})

// backends are the archive stores the crash and outage specs run on: the suite's SQLite
// store, switched off as a database that stopped answering; and a throwaway PostgreSQL
// server (Debian's postgresql package, internal/archive/pgtest), really stopped and
// restarted.
var backends = []struct {
	name string
	// setUp puts the backend's store behind the suite's switch for the spec and returns
	// what takes the database down and brings it back.
	setUp func() (down, up func())
}{
	{"SQLite", func() (func(), func()) {
		return func() { store.SetDown(true) }, func() { store.SetDown(false) }
	}},
	{"PostgreSQL", func() (func(), func()) {
		pg := usePostgres()
		stopped := false
		return func() { pg.Stop(specTB()); stopped = true }, func() {
			if stopped {
				pg.Restart(specTB())
				stopped = false
			}
		}
	}},
}

// usePostgres starts a throwaway PostgreSQL server and puts a store on it behind the
// suite's switch for the spec.
func usePostgres() *pgtest.Cluster {
	GinkgoHelper()
	pg := pgtest.Start(specTB())
	st, err := sqlstore.Open(ctx, pg.NewDatabase(specTB()), sqlstore.Options{OpTimeout: 2 * time.Second})
	Expect(err).NotTo(HaveOccurred())
	old := store.Use(st)
	DeferCleanup(func() {
		store.Use(old)
		Expect(st.Close()).To(Succeed())
	})
	return pg
}

// archiveFailures reads fundshare_retention_archive_failures_total (every reason).
func archiveFailures() float64 {
	GinkgoHelper()
	families, err := metrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	total := 0.0
	for _, f := range families {
		if !strings.HasPrefix(f.GetName(), "fundshare_retention_archive_failures_total") {
			continue
		}
		for _, m := range f.GetMetric() {
			total += m.GetCounter().GetValue()
		}
	}
	return total
}
