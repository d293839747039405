package order_test

import (
	"math/rand/v2"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Order placement", func() {
	var (
		ns string
		m  market
		c  customer
	)
	BeforeEach(func() { ns, m, c = newScene() })

	It("prices a BUY from the latest NAV with integer money, rounding the fee half up", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 7)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		q := o.Spec.Quote
		Expect(q).NotTo(BeNil())
		Expect(q.NAVPerShare).To(Equal(nav))
		Expect(q.NAVDate).To(Equal("2026-10-31"))
		Expect(q.GrossValue).To(Equal(7 * nav)) // 7,373,800 = 737.38 EUR
		Expect(q.FeeRate).To(Equal(int64(50)))
		Expect(q.FeeAmount).To(Equal(int64(36_869))) // 7,373,800 × 50 / 10,000 = 36,869
		Expect(q.NetAmount).To(Equal(q.GrossValue - q.FeeAmount))
		Expect(q.Amount).To(Equal(q.GrossValue))
		Expect(q.FeeSource).To(Equal(investv1.FeeSourceDefault))
		Expect(q.FundDetails.FundName).To(Equal(m.fund.Spec.Name))
		Expect(q.FundDetails.ShareClassName).To(Equal(m.sc.Spec.Name))
		Expect(q.PaymentDetails).NotTo(BeNil())
		Expect(q.PaymentDetails.IBAN).To(Equal(m.fund.Spec.PaymentDetails.IBAN))
		Expect(q.PaymentDetails.PaymentReference).To(Equal(placement.PaymentReference(o.Name)))
		Expect(string(q.WalletID)).To(Equal(c.wallet.Name), "the account's primary wallet is the default recipient")
		Expect(string(q.PaymentMethodDetailsID)).To(Equal(c.pmd.Name))
	})

	It("replaces a quote supplied by the client", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		o.Spec.Quote = &investv1.OrderQuote{NAVPerShare: 1, NAVDate: "2020-01-01", FeeSource: investv1.FeeSourceDefault}
		Expect(k8s.Create(ctx, o)).To(Succeed())
		Expect(o.Spec.Quote.NAVPerShare).To(Equal(nav))
	})

	It("applies a custom offering's fee rate with fee source OFFERING", func() {
		off := &investv1.CustomOffering{ObjectMeta: metav1.ObjectMeta{Name: newID(), Namespace: ns}, Spec: investv1.CustomOfferingSpec{ISIN: investv1.ISIN(m.isin), FeeRate: 10}}
		Expect(k8s.Create(ctx, off)).To(Succeed())
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		o.Spec.CustomOfferingID = investv1.ObjectID(off.Name)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		Expect(o.Spec.Quote.FeeSource).To(Equal(investv1.FeeSourceOffering))
		Expect(o.Spec.Quote.FeeRate).To(Equal(int64(10)))
		Expect(o.Spec.Quote.FeeAmount).To(Equal(int64(10_534))) // 10,534,000 × 10 / 10,000
	})

	It("refuses a custom offering that does not exist", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		o.Spec.CustomOfferingID = investv1.ObjectID(newID())
		Expect(k8s.Create(ctx, o)).To(contains("spec.customOfferingID"))
	})

	It("refuses an order whose currency is not the share class's currency", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		o.Spec.Currency = "USD"
		Expect(k8s.Create(ctx, o)).To(contains("spec.currency: Invalid value: must be EUR"))
	})

	It("refuses an order naming an account or share class that does not exist", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		o.Spec.AccountID = investv1.ObjectID(newID())
		Expect(k8s.Create(ctx, o)).To(contains("spec.accountID: Not found"))
		o = c.order(investv1.SideBuy, investv1.MarketPrimary, envtest.NewISIN(), 1)
		Expect(k8s.Create(ctx, o)).To(contains("spec.isin: Not found"))
	})

	It("refuses a bearer BUY without a recipient wallet", func() {
		bare := bareAccount(ns)
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		o.Spec.AccountID = investv1.ObjectID(bare.Name)
		Expect(k8s.Create(ctx, o)).To(contains("a bearer order needs a recipient wallet"))
		o.Spec.SettlementType = investv1.SettlementClaimable
		Expect(k8s.Create(ctx, o)).To(Succeed(), "a claimable order needs none")
	})

	It("refuses a wallet of another account", func() {
		other := newCustomer(ns)
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		o.Spec.WalletID = investv1.ObjectID(other.wallet.Name)
		Expect(k8s.Create(ctx, o)).To(contains("spec.walletID: Invalid value: belongs to another account"))
	})

	It("refuses a PRIMARY SELL unless the fund is redeemable", func() {
		closed := newMarket(func(f *investv1.Fund, _ *investv1.ShareClass) { f.Spec.Redeemable = false })
		o := c.order(investv1.SideSell, investv1.MarketPrimary, closed.isin, 1)
		Expect(k8s.Create(ctx, o)).To(contains(placement.CodeNotRedeemable))
	})

	It("refuses a SELL without enough holdings (Insufficient holdings)", func() {
		o := c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(contains("Insufficient holdings"))
	})

	It("refuses a SELL of units younger than the lock-up (Shares locked)", func() {
		locked := newMarket(func(_ *investv1.Fund, sc *investv1.ShareClass) { sc.Spec.LockUp = 30 })
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, locked.isin, 10)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		Eventually(func(g Gomega) []investv1.Holding {
			a := &investv1.Account{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
			return a.Status.Holdings
		}).WithTimeout(envtest.Settle).Should(ContainElement(And(
			HaveField("ISIN", investv1.ISIN(locked.isin)), HaveField("Units", int64(10)), HaveField("LockedUnits", int64(10)))))
		sell := c.order(investv1.SideSell, investv1.MarketPrimary, locked.isin, 5)
		Expect(k8s.Create(ctx, sell)).To(contains("Shares locked"))
	})
})

var _ = Describe("Order lifecycle", func() {
	var (
		ns string
		m  market
		c  customer
	)
	BeforeEach(func() { ns, m, c = newScene() })

	It("walks a BUY through every state of the spec on settlement evidence, each once, with one Event per write naming its transitions", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 3)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		settleBuy(o)
		Expect(historyStates(o)).To(Equal(lifecycle.Path(investv1.SideBuy)))
		Expect(lifecycle.ValidHistory(investv1.SideBuy, historyStates(o))).To(Succeed())
		// The evidence is recorded by the spec, not by an agent, so the order controller
		// makes every move: PLACED and AWAITING_PAYMENT, PAYMENT_RECEIVED and EXECUTED,
		// DELIVERY_INITIATED, DELIVERY_COMPLETED and COMPLETED: four writes.
		var notes []string
		Eventually(func() []string {
			var evs eventsv1.EventList
			Expect(k8s.List(ctx, &evs, client.InNamespace(ns))).To(Succeed())
			notes = nil
			for _, e := range evs.Items {
				if e.Regarding.Name == o.Name && e.Action == "Transition" {
					notes = append(notes, e.Note)
				}
			}
			return notes
		}).WithTimeout(envtest.Settle).Should(HaveLen(4))
		all := strings.Join(notes, "\n")
		for _, st := range lifecycle.Path(investv1.SideBuy) {
			Expect(strings.Count(all, "→ "+string(st)+":")).To(Equal(1), "the Events name the move to %s once", st)
		}
	})

	It("walks a SELL through PLACED, EXECUTED, PAYMENT_SENT, PAYMENT_COMPLETED and COMPLETED, and the holdings follow", func() {
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		sell := c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 4)
		Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(envtest.Settle).Should(Succeed())
		waitState(sell, investv1.StateExecuted)
		record(sell, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-1"})
		waitState(sell, investv1.StatePaymentSent)
		record(sell, lifecycle.StepPaymentCompleted, investv1.SettlementRecord{Reference: "PAYOUT-1"})
		waitState(sell, investv1.StateCompleted)
		Expect(historyStates(sell)).To(Equal(lifecycle.Path(investv1.SideSell)))
		Eventually(func(g Gomega) []investv1.Holding {
			a := &investv1.Account{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(c.account), a)).To(Succeed())
			g.Expect(a.Status.Reservations).To(BeEmpty())
			return a.Status.Holdings
		}).WithTimeout(envtest.Settle).Should(ConsistOf(And(HaveField("Units", int64(6)), HaveField("ReservedUnits", int64(0)))))
	})

	It("holds a PRIMARY BUY before EXECUTED while the fund is not subscribable, and moves it when the flag turns true", func() {
		closed := newMarket(func(f *investv1.Fund, _ *investv1.ShareClass) { f.Spec.Subscribable = false })
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, closed.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-1"})
		waitState(o, investv1.StatePaymentReceived)
		Eventually(func() string {
			cond := findCondition(get(o), lifecycle.ConditionWaiting)
			return cond.Reason
		}).WithTimeout(envtest.Settle).Should(Equal(lifecycle.WaitMarketClosed))
		Consistently(stateOf(o)).WithTimeout(time.Second).Should(Equal(investv1.StatePaymentReceived))
		setFund(closed.fund, func(f *investv1.Fund) { f.Spec.Subscribable = true })
		waitState(o, investv1.StateExecuted)
	})

	It("refuses SECONDARY orders while the fund is not tradeable", func() {
		closed := newMarket(func(f *investv1.Fund, sc *investv1.ShareClass) {
			f.Spec.Tradeable = false
			sc.Spec.Secondary = &investv1.SecondaryMarket{TimeZone: "UTC", Frequency: investv1.DealingDaily, OrderDeadline: investv1.CutOff{Time: "12:00"}}
		})
		o := c.order(investv1.SideBuy, investv1.MarketSecondary, closed.isin, 1)
		err := k8s.Create(ctx, o)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("does not accept SECONDARY orders now"))
	})

	It("sends a SELL placed while the redemption gate is active to REDEMPTION_GATED and executes it when the gate lifts", func() {
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		setFund(m.fund, func(f *investv1.Fund) {
			f.Spec.RedemptionGate = &investv1.RedemptionGate{Active: true, Reason: "quarter-end liquidity"}
		})
		sell := c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 5)
		Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(envtest.Settle).Should(Succeed())
		waitState(sell, investv1.StateRedemptionGated)
		Consistently(stateOf(sell)).WithTimeout(time.Second).Should(Equal(investv1.StateRedemptionGated))
		setFund(m.fund, func(f *investv1.Fund) { f.Spec.RedemptionGate.Active = false })
		waitState(sell, investv1.StateExecuted)
		Expect(historyStates(sell)).To(Equal([]investv1.OrderState{investv1.StatePlaced, investv1.StateRedemptionGated, investv1.StateExecuted}))
	})

	It("lifts a redemption gate by itself at its until-time", func() {
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		until := metav1.NewTime(time.Now().Add(8 * time.Second))
		setFund(m.fund, func(f *investv1.Fund) { f.Spec.RedemptionGate = &investv1.RedemptionGate{Active: true, Until: &until} })
		sell := c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 5)
		Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(envtest.Settle).Should(Succeed())
		waitState(sell, investv1.StateRedemptionGated)
		waitState(sell, investv1.StateExecuted)
	})

	It("stalls an order whose mint's nonce a transaction not recorded here took (TokenTransactionNonceTaken), and lets it go on once the chain agent clears it", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 2)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-NT"})
		waitState(o, investv1.StateExecuted)
		setChain := func(mutate func(*investv1.Order)) {
			GinkgoHelper()
			Eventually(func() error {
				fresh := get(o)
				patch := client.MergeFrom(fresh.DeepCopy())
				mutate(fresh)
				return k8s.Status().Patch(ctx, fresh, patch)
			}).WithTimeout(envtest.Settle).Should(Succeed())
		}
		// What the chain agent records: the mint (nonce 3), then that another transaction
		// was mined with its nonce.
		setChain(func(f *investv1.Order) {
			f.Status.Chain = &investv1.OrderChainStatus{
				Token: fixtures.Address, Recipient: fixtures.Address,
				Transaction: &investv1.ChainTransaction{ChainID: 1337, From: fixtures.Address, To: fixtures.Address, Nonce: 3,
					Attempts: []investv1.ChainTransactionAttempt{{Hash: txHash, Raw: "0x02", MaxFeePerGas: "2", MaxPriorityFeePerGas: "1", Gas: 60000, SignedAt: nowTime()}}},
				NonceTaken: &investv1.ChainNonceTaken{Nonce: 3, At: nowTime()},
			}
		})
		Eventually(func(g Gomega) {
			cur := get(o)
			s := findCondition(cur, lifecycle.ConditionStalled)
			g.Expect(s.Status).To(Equal(metav1.ConditionTrue))
			g.Expect(s.Reason).To(Equal(lifecycle.WaitTokenTransactionNonceTaken))
			g.Expect(s.Message).To(And(ContainSubstring("nonce 3 of the mint transaction"),
				ContainSubstring("a transaction not recorded here was mined with this nonce: was the agent key used elsewhere?")))
			g.Expect(findCondition(cur, lifecycle.ConditionReconciling).Status).To(Equal(metav1.ConditionFalse))
		}).WithTimeout(30 * time.Second).Should(Succeed())
		Expect(get(o).Status.State).To(Equal(investv1.StateExecuted))

		setChain(func(f *investv1.Order) { f.Status.Chain.NonceTaken = nil })
		Eventually(func() metav1.ConditionStatus { return findCondition(get(o), lifecycle.ConditionStalled).Status }).
			WithTimeout(30 * time.Second).Should(Equal(metav1.ConditionFalse))
		record(o, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
		waitState(o, investv1.StateDeliveryInitiated)
	})

	It("holds evidence that arrives ahead of the order's state instead of skipping states", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		// The delivery's evidence before the payment's (a completion before its start is
		// refused: "refuses a completion recorded before its start").
		record(o, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
		record(o, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
		Consistently(stateOf(o)).WithTimeout(2 * time.Second).Should(Equal(investv1.StateAwaitingPayment))
		record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-3"})
		waitState(o, investv1.StateCompleted)
		Expect(historyStates(o)).To(Equal(lifecycle.Path(investv1.SideBuy)))
	})
})

var _ = Describe("Order cancellation", func() {
	var (
		m market
		c customer
	)
	BeforeEach(func() { _, m, c = newScene() })

	// cancel requests a cancellation the way the REST facade does: on the version read,
	// read again after a conflict, until it is accepted or admission refuses it.
	cancel := func(o *investv1.Order) error {
		for {
			fresh := get(o)
			patch := client.MergeFromWithOptions(fresh.DeepCopy(), client.MergeFromWithOptimisticLock{})
			fresh.Spec.CancellationRequested = true
			err := k8s.Patch(ctx, fresh, patch)
			if err == nil || !apierrors.IsConflict(err) || refusal.IsNotCancellable(err) {
				return err
			}
		}
	}

	It("cancels a BUY before the point of no return (AWAITING_PAYMENT; PAYMENT_RECEIVED with a refund) and refuses it from EXECUTED on", func() {
		for _, stop := range []investv1.OrderState{investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted} {
			closed := newMarket(func(f *investv1.Fund, _ *investv1.ShareClass) {
				f.Spec.Subscribable = stop != investv1.StatePaymentReceived
			})
			o := c.order(investv1.SideBuy, investv1.MarketPrimary, closed.isin, 1)
			Expect(k8s.Create(ctx, o)).To(Succeed())
			waitState(o, investv1.StateAwaitingPayment)
			if stop != investv1.StateAwaitingPayment {
				record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA"})
				waitState(o, stop)
			}
			err := cancel(o)
			if stop == investv1.StateExecuted {
				Expect(refusal.IsNotCancellable(err)).To(BeTrue(), "got %v", err)
				Expect(err.Error()).To(ContainSubstring("EXECUTED"))
				Consistently(stateOf(o)).WithTimeout(300 * time.Millisecond).Should(Equal(investv1.StateExecuted))
				Expect(get(o).Spec.CancellationRequested).To(BeFalse())
				continue
			}
			Expect(err).To(Succeed())
			waitState(o, investv1.StateCancelled)
			f := get(o)
			h := f.Status.History
			if stop == investv1.StatePaymentReceived {
				Expect(h[len(h)-1].Reason).To(Equal(lifecycle.ReasonCancelledWithRefund))
				Expect(f.Status.Refund).To(Equal(lifecycle.NewRefund(f)))
				Expect(f.Status.Refund.Amount).To(Equal(f.Spec.Quote.Amount))
			} else {
				Expect(h[len(h)-1].Reason).To(Equal(lifecycle.ReasonCancellationRequested))
				Expect(f.Status.Refund).To(BeNil())
			}
		}
	})

	It("refuses to cancel a terminal order and changes nothing", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		settleBuy(o)
		before := get(o)
		err := cancel(o)
		Expect(err).To(HaveOccurred())
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring("COMPLETED, a terminal state"))
		Expect(get(o).ResourceVersion).To(Equal(before.ResourceVersion))
	})

	It("refuses to delete an order that is not terminal, and allows it once terminal", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		err := k8s.Delete(ctx, get(o))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring("AWAITING_PAYMENT"))
		Expect(cancel(o)).To(Succeed())
		waitState(o, investv1.StateCancelled)
		Expect(k8s.Delete(ctx, get(o))).To(Succeed())
	})

	It("resolves 100 races between a cancellation and the payment that takes the order past the point of no return to exactly one outcome, and the answer is the truth", func() {
		const n = 100
		orders := make([]*investv1.Order, n)
		for i := range orders {
			orders[i] = c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
			Expect(k8s.Create(ctx, orders[i])).To(Succeed())
		}
		for _, o := range orders {
			waitState(o, investv1.StateAwaitingPayment)
		}
		// Race: the payment evidence (the controller then writes PAYMENT_RECEIVED and
		// EXECUTED at once on the open market) against a cancellation made like the REST
		// facade makes it (optimistic, retried on conflict until admission refuses it or
		// it is accepted). The evidence is patched as kubectl does, without a version: it
		// may land on an order already cancelled, which then owes a refund.
		answers := make([]string, n)
		envtest.Race(n, func(i int) {
			record(orders[i], lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA"})
		}, func(i int) {
			// Jitter, so that some cancellations arrive before and some after the
			// controller's write.
			time.Sleep(time.Duration(rand.IntN(1500)) * time.Millisecond)
			for {
				fresh := get(orders[i])
				patch := client.MergeFromWithOptions(fresh.DeepCopy(), client.MergeFromWithOptimisticLock{})
				fresh.Spec.CancellationRequested = true
				err := k8s.Patch(ctx, fresh, patch)
				switch {
				case err == nil:
					answers[i] = "accepted"
					return
				case refusal.IsNotCancellable(err):
					answers[i] = "refused"
					return
				case apierrors.IsConflict(err):
					continue
				default:
					Fail(err.Error())
				}
			}
		})
		accepted := 0
		for i, o := range orders {
			if answers[i] == "accepted" {
				accepted++
				waitState(o, investv1.StateCancelled)
				// A payment recorded (before or after) is refunded: nothing is kept.
				Eventually(func() bool { f := get(o); return f.Status.Refund != nil }).WithTimeout(envtest.Settle).Should(BeTrue(), "order %s", o.Name)
				Expect(get(o).Status.Settlement.DeliveryInitiated).To(BeNil())
			} else {
				Expect(answers[i]).To(Equal("refused"))
				waitState(o, investv1.StateExecuted)
				Consistently(stateOf(o)).WithTimeout(100 * time.Millisecond).Should(Equal(investv1.StateExecuted))
				Expect(get(o).Spec.CancellationRequested).To(BeFalse())
			}
			Expect(lifecycle.ValidHistory(investv1.SideBuy, historyStates(o))).To(Succeed())
		}
		GinkgoWriter.Printf("cancellation races: %d cancelled, %d executed\n", accepted, n-accepted)
		Expect(accepted).To(BeNumerically(">", 0), "no cancellation won: the race was not exercised")
		Expect(accepted).To(BeNumerically("<", n), "no execution won: the race was not exercised")
	})
})

// newScene is a fresh namespace, an open market and a customer with a primary wallet
// and payment method: what most specs start from.
func newScene() (string, market, customer) {
	GinkgoHelper()
	ns := newNamespace()
	return ns, newMarket(nil), newCustomer(ns)
}

func setFund(f *investv1.Fund, mutate func(*investv1.Fund)) {
	GinkgoHelper()
	Eventually(func() error {
		fresh := &investv1.Fund{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(f), fresh); err != nil {
			return err
		}
		mutate(fresh)
		return k8s.Update(ctx, fresh)
	}).WithTimeout(envtest.Settle).Should(Succeed())
}

func findCondition(o *investv1.Order, t string) metav1.Condition {
	for _, c := range o.Status.Conditions {
		if c.Type == t {
			return c
		}
	}
	return metav1.Condition{}
}
