package order_test

import (
	"math/rand/v2"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// cancel requests the cancellation of o as REST DELETE does: on the version read (merge
// patch with its resourceVersion), again on a fresh read after a conflict. lock false
// patches as `kubectl patch` does, on whatever version is current. It returns nil when
// the request was accepted, or admission's refusal.
func cancel(o *investv1.Order, lock bool) error {
	GinkgoHelper()
	for {
		fresh := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
		if fresh.Spec.CancellationRequested {
			return nil
		}
		var err error
		if lock {
			before := fresh.DeepCopy()
			fresh.Spec.CancellationRequested = true
			err = k8s.Patch(ctx, fresh, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		} else {
			err = k8s.Patch(ctx, fresh, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"cancellationRequested":true}}`)))
		}
		switch {
		case err == nil:
			return nil
		case refusal.IsNotCancellable(err):
			return err
		case apierrors.IsConflict(err):
			continue
		}
		Expect(err).NotTo(HaveOccurred())
	}
}

// holdingOf is the account's holding of the ISIN as its status says.
func holdingOf(a *investv1.Account, isin string) int64 {
	fresh := &investv1.Account{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(a), fresh)).To(Succeed())
	for _, h := range fresh.Status.Holdings {
		if string(h.ISIN) == isin {
			return h.Units
		}
	}
	return 0
}

// done: the order is terminal and owes nothing, and says so (Ready=True).
func done(o *investv1.Order) bool {
	fresh := &investv1.Order{}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh); err != nil {
		return false
	}
	return lifecycle.Done(fresh) && meta.IsStatusConditionTrue(fresh.Status.Conditions, investv1.ConditionReady)
}

var _ = Describe("Order cancellation: the point of no return", func() {
	It("races cancellations at random moments against a fast sandbox agent: no CANCELLED order with a payout or delivery, refunds settled, holdings = completed buys − completed sells", func() {
		ns := newNamespace()
		m := newMarket(nil)
		c := newCustomer(ns)
		stopSandbox := startSandbox(ns)
		defer stopSandbox()

		seed := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1000)
		Expect(k8s.Create(ctx, seed)).To(Succeed())
		Eventually(func() bool { return done(seed) }).WithTimeout(time.Minute).Should(BeTrue())
		Eventually(func() int64 { return holdingOf(c.account, m.isin) }).WithTimeout(envtest.Settle).Should(Equal(int64(1000)))

		const buys, sells = 30, 20
		var orders []*investv1.Order
		for i := range buys {
			orders = append(orders, c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, int64(1+i%7)))
		}
		for i := range sells {
			orders = append(orders, c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, int64(1+i%9)))
		}
		refusals := make([]error, len(orders))
		var wg sync.WaitGroup
		for i, o := range orders {
			Expect(k8s.Create(ctx, o)).To(Succeed())
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				time.Sleep(rand.N(800 * time.Millisecond))
				refusals[i] = cancel(o, i%2 == 0)
			}()
		}
		// While they race: holdings never go negative.
		stopSampling := envtest.Sample(50*time.Millisecond, func() {
			Expect(holdingOf(c.account, m.isin)).To(BeNumerically(">=", 0))
		})
		wg.Wait()
		for _, o := range orders {
			Eventually(func() bool { return done(o) }).WithTimeout(2*time.Minute).Should(BeTrue(), "order %s", o.Name)
		}
		stopSampling()

		var bought, sold int64 = 1000, 0
		outcomes := map[string]int{}
		for i, o := range orders {
			f := get(o)
			ev := f.Status.Settlement
			Expect(lifecycle.ValidHistory(f.Spec.Side, lifecycle.HistoryStates(f.Status.History))).To(Succeed(), "order %s", o.Name)
			if refusals[i] != nil {
				// Refused: the typed 409 cause, and the order went on to COMPLETED.
				Expect(apierrors.IsConflict(refusals[i])).To(BeTrue())
				Expect(f.Status.State).To(Equal(investv1.StateCompleted), "order %s refused: %v", o.Name, refusals[i])
				Expect(f.Spec.CancellationRequested).To(BeFalse())
			} else {
				Expect(f.Status.State).To(Equal(investv1.StateCancelled), "order %s: cancellation accepted", o.Name)
			}
			switch f.Status.State {
			case investv1.StateCancelled:
				Expect(ev.DeliveryInitiated).To(BeNil(), "order %s CANCELLED with a delivery", o.Name)
				Expect(ev.DeliveryCompleted).To(BeNil(), "order %s CANCELLED with a delivery", o.Name)
				Expect(ev.PaymentSent).To(BeNil(), "order %s CANCELLED with a payout", o.Name)
				Expect(ev.PaymentCompleted).To(BeNil(), "order %s CANCELLED with a payout", o.Name)
				if f.Spec.Side == investv1.SideBuy && ev.PaymentReceived != nil {
					Expect(f.Status.Refund).NotTo(BeNil(), "paid order %s CANCELLED without a refund", o.Name)
					Expect(f.Status.Refund.Amount).To(Equal(f.Spec.Quote.Amount))
					Expect(f.Status.Refund.PaymentMethodDetailsID).To(Equal(investv1.ObjectID(c.pmd.Name)))
					Expect(ev.RefundSent).NotTo(BeNil())
					Expect(ev.RefundCompleted).NotTo(BeNil())
					Expect(ev.RefundCompleted.Reference).To(Equal(ev.RefundSent.Reference))
					outcomes["cancelled with refund"]++
				} else {
					Expect(f.Status.Refund).To(BeNil())
					outcomes["cancelled "+string(f.Spec.Side)]++
				}
			case investv1.StateCompleted:
				outcomes["completed "+string(f.Spec.Side)]++
				if f.Spec.Side == investv1.SideBuy {
					bought += f.Spec.AmountOfUnits
				} else {
					sold += f.Spec.AmountOfUnits
				}
			}
		}
		GinkgoWriter.Printf("cancellation race outcomes: %v\n", outcomes)
		Expect(outcomes["completed BUY"]+outcomes["completed SELL"]).To(BeNumerically(">", 0), "no order got past the point of no return: the race was not exercised")
		Expect(outcomes["cancelled BUY"]+outcomes["cancelled SELL"]+outcomes["cancelled with refund"]).To(BeNumerically(">", 0), "no cancellation won")
		Eventually(func() int64 { return holdingOf(c.account, m.isin) }).WithTimeout(envtest.Settle).Should(Equal(bought-sold),
			"holdings must equal completed buys minus completed sells")
		a := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
		Eventually(func(g Gomega) []investv1.UnitReservation {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
			return a.Status.Reservations
		}).WithTimeout(envtest.Settle).Should(BeEmpty())
	})

	It("decides a cancellation requested at every state, for both sides, the same across a manager restart", func() {
		ns := newNamespace()
		// Buys wait in PAYMENT_RECEIVED while subscriptions are closed; sells wait in
		// REDEMPTION_GATED behind a gate.
		open := newMarket(nil)
		closed := newMarket(func(f *investv1.Fund, _ *investv1.ShareClass) { f.Spec.Subscribable = false })
		gated := newMarket(func(f *investv1.Fund, _ *investv1.ShareClass) {
			f.Spec.RedemptionGate = &investv1.RedemptionGate{Active: true, Reason: "quarterly window"}
		})
		c := newCustomer(ns)
		for _, m := range []market{open, gated} {
			seed := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 100)
			Expect(k8s.Create(ctx, seed)).To(Succeed())
			settleBuy(seed)
		}
		Eventually(func() int64 { return holdingOf(c.account, gated.isin) }).WithTimeout(envtest.Settle).Should(Equal(int64(100)))

		type row struct {
			side   investv1.OrderSide
			state  investv1.OrderState
			market market
			reach  func(o *investv1.Order)
			// outcome after the restart
			want   investv1.OrderState
			refund bool
		}
		payIt := func(o *investv1.Order) {
			waitState(o, investv1.StateAwaitingPayment)
			record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + o.Name[:8]})
		}
		rows := []row{
			{investv1.SideBuy, investv1.StateAwaitingPayment, open, func(o *investv1.Order) { waitState(o, investv1.StateAwaitingPayment) }, investv1.StateCancelled, false},
			{investv1.SideBuy, investv1.StatePaymentReceived, closed, func(o *investv1.Order) { payIt(o); waitState(o, investv1.StatePaymentReceived) }, investv1.StateCancelled, true},
			{investv1.SideBuy, investv1.StateExecuted, open, func(o *investv1.Order) { payIt(o); waitState(o, investv1.StateExecuted) }, investv1.StateCompleted, false},
			{investv1.SideBuy, investv1.StateDeliveryInitiated, open, func(o *investv1.Order) {
				payIt(o)
				waitState(o, investv1.StateExecuted)
				record(o, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
				waitState(o, investv1.StateDeliveryInitiated)
			}, investv1.StateCompleted, false},
			{investv1.SideSell, investv1.StateRedemptionGated, gated, func(o *investv1.Order) { waitState(o, investv1.StateRedemptionGated) }, investv1.StateCancelled, false},
			// A SELL's point of no return is its first burn or payout, not EXECUTED.
			{investv1.SideSell, investv1.StateExecuted, open, func(o *investv1.Order) { waitState(o, investv1.StateExecuted) }, investv1.StateCancelled, false},
			{investv1.SideSell, investv1.StateExecuted, open, func(o *investv1.Order) {
				waitState(o, investv1.StateExecuted)
				record(o, lifecycle.StepTokensBurned, investv1.SettlementRecord{TransactionHash: txHash})
			}, investv1.StateCompleted, false},
			{investv1.SideSell, investv1.StatePaymentSent, open, func(o *investv1.Order) {
				waitState(o, investv1.StateExecuted)
				record(o, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-" + o.Name[:8]})
				waitState(o, investv1.StatePaymentSent)
			}, investv1.StateCompleted, false},
		}
		orders := make([]*investv1.Order, len(rows))
		for i, r := range rows {
			orders[i] = c.order(r.side, investv1.MarketPrimary, r.market.isin, 10)
			Expect(k8s.Create(ctx, orders[i])).To(Succeed())
			r.reach(orders[i])
		}
		// PLACED (or not yet accepted): the cancellation is requested right after creation.
		placedBuy := c.order(investv1.SideBuy, investv1.MarketPrimary, open.isin, 10)
		placedSell := c.order(investv1.SideSell, investv1.MarketPrimary, gated.isin, 10)
		for _, o := range []*investv1.Order{placedBuy, placedSell} {
			Expect(k8s.Create(ctx, o)).To(Succeed())
			Expect(cancel(o, true)).To(Succeed())
		}
		refusals := make([]error, len(rows))
		for i, o := range orders {
			refusals[i] = cancel(o, i%2 == 0)
		}
		stopMgr()
		time.Sleep(500 * time.Millisecond)
		stopMgr = startManager()

		for _, o := range []*investv1.Order{placedBuy, placedSell} {
			waitState(o, investv1.StateCancelled)
			Expect(get(o).Status.Refund).To(BeNil())
		}
		for i, r := range rows {
			o := orders[i]
			if r.want == investv1.StateCompleted {
				Expect(refusals[i]).To(HaveOccurred(), "%s %s: cancellation accepted past the point of no return", r.side, r.state)
				Expect(refusal.IsNotCancellable(refusals[i])).To(BeTrue(), "%v", refusals[i])
				Expect(refusals[i].Error()).To(ContainSubstring(string(r.state)))
				// Settle what is left: the order goes on to COMPLETED.
				switch {
				case r.side == investv1.SideBuy && r.state == investv1.StateExecuted:
					record(o, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
					waitState(o, investv1.StateDeliveryInitiated)
					fallthrough
				case r.side == investv1.SideBuy:
					record(o, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
				case r.state == investv1.StateExecuted:
					record(o, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-" + o.Name[:8]})
					waitState(o, investv1.StatePaymentSent)
					fallthrough
				default:
					record(o, lifecycle.StepPaymentCompleted, investv1.SettlementRecord{})
				}
			} else {
				Expect(refusals[i]).NotTo(HaveOccurred(), "%s %s", r.side, r.state)
			}
			waitState(o, r.want)
			f := get(o)
			Expect(f.Status.Refund != nil).To(Equal(r.refund), "%s %s: refund %+v", r.side, r.state, f.Status.Refund)
			Expect(lifecycle.ValidHistory(r.side, lifecycle.HistoryStates(f.Status.History))).To(Succeed())
			if r.refund {
				ready := meta.FindStatusCondition(f.Status.Conditions, investv1.ConditionReady)
				Expect(ready).NotTo(BeNil())
				Expect(ready.Reason).To(Equal(lifecycle.ReasonRefundPending))
				record(o, lifecycle.StepRefundSent, investv1.SettlementRecord{Reference: "REFUND-" + o.Name[:8]})
				record(o, lifecycle.StepRefundCompleted, investv1.SettlementRecord{Reference: "REFUND-" + o.Name[:8]})
			}
			Eventually(func() bool { return done(o) }).WithTimeout(30*time.Second).Should(BeTrue(), "%s %s", r.side, r.state)
		}
		// Units: the open market's seed plus the completed buys (EXECUTED and
		// DELIVERY_INITIATED rows, 10 each) minus the completed sells (the burned EXECUTED and
		// the PAYMENT_SENT rows, 20; the EXECUTED sell with nothing burned was cancelled); the gated
		// market keeps its seed (its sells were cancelled, their reservations released).
		Eventually(func() int64 { return holdingOf(c.account, open.isin) }).WithTimeout(envtest.Settle).Should(Equal(int64(100 + 20 - 20)))
		Eventually(func() int64 { return holdingOf(c.account, gated.isin) }).WithTimeout(envtest.Settle).Should(Equal(int64(100)))
		Eventually(func(g Gomega) []investv1.UnitReservation {
			a := &investv1.Account{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
			return a.Status.Reservations
		}).WithTimeout(envtest.Settle).Should(BeEmpty())
	})
})
