package order_test

import (
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Order concurrency", func() {
	It("never lets holdings go negative: of 20 concurrent sells of 60% of the holdings at most one stays alive", func() {
		ns := newNamespace()
		m := newMarket(nil)
		c := newCustomer(ns)
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 100)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		Eventually(func(g Gomega) []investv1.Holding {
			a := &investv1.Account{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
			return a.Status.Holdings
		}).WithTimeout(envtest.Settle).Should(ConsistOf(HaveField("Units", int64(100))))

		const n = 20
		sells := make([]*investv1.Order, n)
		created := make([]bool, n)
		var wg sync.WaitGroup
		for i := range sells {
			sells[i] = c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 60)
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				err := k8s.Create(ctx, sells[i])
				if err != nil {
					Expect(err.Error()).To(ContainSubstring("Insufficient holdings"))
				}
				created[i] = err == nil
			}()
		}
		wg.Wait()
		alive := 0
		for i, o := range sells {
			if !created[i] {
				continue
			}
			Eventually(func() bool {
				s := get(o).Status.State
				return s == investv1.StateExecuted || s == investv1.StateCancelled
			}).WithTimeout(30 * time.Second).Should(BeTrue())
			fresh := get(o)
			if fresh.Status.State == investv1.StateCancelled {
				last := fresh.Status.History[len(fresh.Status.History)-1]
				Expect(last.Reason).To(Equal(lifecycle.ReasonInsufficientHoldings))
				Expect(last.Message).To(ContainSubstring("Insufficient holdings"))
			} else {
				alive++
			}
		}
		Expect(alive).To(Equal(1), "exactly one sell of 60 fits in 100 units")
		a := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
		var reserved int64
		for _, r := range a.Status.Reservations {
			reserved += r.Units
		}
		Expect(reserved).To(BeNumerically("<=", 100))
	})

	It("completes 200 moving orders exactly once each although the manager restarts in the middle", func() {
		ns := newNamespace()
		m := newMarket(nil)
		c := newCustomer(ns)
		stopSandbox := startSandbox(ns)
		defer stopSandbox()

		const n = 200
		orders := make([]*investv1.Order, n)
		for i := range orders {
			orders[i] = c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, int64(1+i%5))
			Expect(k8s.Create(ctx, orders[i])).To(Succeed())
		}
		// Let part of them move, then restart the manager.
		Eventually(func() int { return env.CompletedOrders(ns) }).WithTimeout(2 * time.Minute).WithPolling(100 * time.Millisecond).Should(BeNumerically(">=", 20))
		stopMgr()
		time.Sleep(time.Second)
		stopMgr = startManager()

		Eventually(func() int { return env.CompletedOrders(ns) }).WithTimeout(4 * time.Minute).WithPolling(500 * time.Millisecond).Should(Equal(n))
		var list investv1.OrderList
		Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		for _, o := range list.Items {
			Expect(lifecycle.ValidHistory(investv1.SideBuy, lifecycle.HistoryStates(o.Status.History))).To(Succeed(), "order %s", o.Name)
			Expect(o.Status.History).To(HaveLen(len(lifecycle.Path(investv1.SideBuy))))
		}
	})
})
