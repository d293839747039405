package settlement

import (
	"context"
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

const (
	timeout  = 30 * time.Second
	interval = 100 * time.Millisecond
)

// newOrder creates an order in ns and returns it as stored.
func newOrder(ns string, side investv1.OrderSide) *investv1.Order {
	o := fixtures.BuyOrder(ns, controlplane.NewID(), fixtures.ISIN, 10)
	o.Spec.Side = side
	Expect(k8s.Create(ctx, o)).To(Succeed())
	return o
}

// moveTo sets the order's state by hand, as the order controller would, appending the
// states to the history; it retries on conflicts with the agent.
func moveTo(o *investv1.Order, states ...investv1.OrderState) {
	Eventually(func(g Gomega) {
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), o)).To(Succeed())
		for _, s := range states {
			o.Status.State = s
			o.Status.History = append(o.Status.History, investv1.OrderTransition{
				State: s, At: metav1.Now(), Reason: "SetByTest",
			})
		}
		g.Expect(k8s.Status().Update(ctx, o)).To(Succeed())
	}, timeout, interval).Should(Succeed())
}

func evidenceOf(o *investv1.Order) func(g Gomega) investv1.SettlementEvidence {
	return func(g Gomega) investv1.SettlementEvidence {
		cur := &investv1.Order{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		return cur.Status.Settlement
	}
}

var _ = Describe("the sandbox settlement agent in a manager", func() {
	It("records each piece of evidence with the moves it unlocks, in one status write and one Event", func() {
		o := newOrder(managedNS, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)

		var ev investv1.SettlementEvidence
		Eventually(func(g Gomega) {
			ev = evidenceOf(o)(g)
			g.Expect(ev.PaymentReceived).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Expect(ev.PaymentReceived.Reference).To(MatchRegexp(`^SBX-PAY-[A-Z2-7]{12}$`))
		Expect(ev.PaymentReceived.TransactionHash).To(BeEmpty())
		Expect(ev.PaymentReceived.RecordedBy).To(Equal("sandbox"))
		Expect(ev.PaymentReceived.At.IsZero()).To(BeFalse())
		cur := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		Expect(cur.Status.State).To(Equal(investv1.StatePaymentReceived), "the move the payment unlocks is in the evidence's write")
		Expect(lifecycle.HistoryStates(cur.Status.History)).To(Equal([]investv1.OrderState{investv1.StateAwaitingPayment, investv1.StatePaymentReceived}))
		Expect(meta.FindStatusCondition(cur.Status.Conditions, lifecycle.ConditionWaiting)).NotTo(BeNil(), "the conditions are written with the move")
		// No fund in this suite has the order's ISIN: what follows is the order controller's
		// to decide, and the agent leaves it there.
		Consistently(evidenceOf(o), 2*time.Second, interval).Should(Equal(investv1.SettlementEvidence{
			PaymentReceived: ev.PaymentReceived,
		}), "nothing but paymentReceived, and it never changes")
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		Expect(cur.Status.State).To(Equal(investv1.StatePaymentReceived))

		moveTo(o, investv1.StateExecuted)
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
			g.Expect(cur.Status.State).To(Equal(investv1.StateCompleted))
		}, timeout, interval).Should(Succeed())
		ev = cur.Status.Settlement
		Expect(ev.DeliveryInitiated.TransactionHash).To(MatchRegexp(`^0x[0-9a-f]{64}$`))
		Expect(ev.DeliveryInitiated.RecordedBy).To(Equal(NoChainTokenName), "the token side is the no-chain sandbox, named as not real")
		Expect(ev.DeliveryCompleted.TransactionHash).To(Equal(ev.DeliveryInitiated.TransactionHash))
		Expect(ev.PaymentSent).To(BeNil())
		Expect(ev.PaymentCompleted).To(BeNil())
		Expect(lifecycle.HistoryStates(cur.Status.History)).To(Equal([]investv1.OrderState{
			investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted,
			investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted, investv1.StateCompleted,
		}))

		By("emitting one Event per write, with the reason of its last move and the evidence in its note")
		Eventually(func(g Gomega) []string {
			list := &eventsv1.EventList{}
			g.Expect(k8s.List(ctx, list, client.InNamespace(managedNS))).To(Succeed())
			var notes []string
			for _, e := range list.Items {
				if e.Regarding.Name == o.Name {
					notes = append(notes, e.Reason+": "+e.Note)
				}
			}
			return notes
		}, timeout, interval).Should(ConsistOf(
			HavePrefix(lifecycle.ReasonPaymentReceived+": sandbox recorded PaymentReceived evidence with reference SBX-PAY-"),
			And(HavePrefix(lifecycle.ReasonDeliveryInitiated+": "+NoChainTokenName+" recorded DeliveryInitiated evidence in transaction 0x"),
				HaveSuffix("EXECUTED → DELIVERY_INITIATED: token transfer submitted in transaction "+ev.DeliveryInitiated.TransactionHash)),
			And(HavePrefix(lifecycle.ReasonSettled+": "+NoChainTokenName+" recorded DeliveryCompleted evidence"),
				ContainSubstring("DELIVERY_INITIATED → DELIVERY_COMPLETED"), HaveSuffix("DELIVERY_COMPLETED → COMPLETED: the order is settled")),
		))
	})

	It("settles the refund of a cancelled paid buy once: refundSent, then refundCompleted with the same reference, immutable", func() {
		o := newOrder(managedNS, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)
		Eventually(func(g Gomega) { g.Expect(evidenceOf(o)(g).PaymentReceived).NotTo(BeNil()) }, timeout, interval).Should(Succeed())
		// The order controller's write: CANCELLED with the refund.
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), o)).To(Succeed())
			o.Status.State = investv1.StateCancelled
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: investv1.StateCancelled, At: metav1.Now(), Reason: "SetByTest"})
			o.Status.Refund = lifecycle.NewRefund(o)
			g.Expect(k8s.Status().Update(ctx, o)).To(Succeed())
		}, timeout, interval).Should(Succeed())
		var ev investv1.SettlementEvidence
		Eventually(func(g Gomega) {
			ev = evidenceOf(o)(g)
			g.Expect(ev.RefundCompleted).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Expect(ev.RefundSent).NotTo(BeNil())
		Expect(ev.RefundSent.Reference).To(MatchRegexp(`^SBX-RFD-[A-Z2-7]{12}$`))
		Expect(ev.RefundCompleted.Reference).To(Equal(ev.RefundSent.Reference))
		Consistently(evidenceOf(o), time.Second, interval).Should(Equal(ev), "settled once, never again")

		By("the API server refusing to rewrite refund evidence or the refund")
		cur := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		cur.Status.Settlement.RefundSent.Reference = "SBX-RFD-REWRITTEN000"
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("recorded evidence is immutable")))
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		cur.Status.Refund.Amount++
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("a refund is immutable once fixed")))
	})

	It("pays back the residual of a delivered forward buy once: residualRefundSent, then residualRefundCompleted with the same reference", func() {
		o := fixtures.BuyOrder(managedNS, controlplane.NewID(), fixtures.ISIN, 1)
		o.Spec.AmountOfUnits, o.Spec.Amount = 0, 10_000_000
		o.Spec.Quote = &investv1.OrderQuote{Amount: 10_000_000, GrossValue: 10_000_000, FeeRate: 150, FeeSource: investv1.FeeSourceDefault, DealingDate: "2026-03-10",
			FundDetails: investv1.OrderFundDetails{ISIN: fixtures.ISIN, FundID: investv1.ObjectID(controlplane.NewID()), ShareClassID: investv1.ObjectID(controlplane.NewID())}}
		Expect(k8s.Create(ctx, o)).To(Succeed())
		note, err := lifecycle.ContractNote(o, lifecycle.Strike{Dealing: "x-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_050_000, SettlementDate: "2026-03-12", At: time.Now()})
		Expect(err).NotTo(HaveOccurred())
		Expect(note.Residual).To(Equal(int64(400_000)))
		// The strike's and the chain agent's writes: priced, delivered.
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), o)).To(Succeed())
			o.Status.Strike = note
			o.Status.Settlement.DeliveryInitiated = &investv1.SettlementRecord{TransactionHash: "0x" + strings.Repeat("ab", 32), At: metav1.Now()}
			o.Status.Settlement.DeliveryCompleted = &investv1.SettlementRecord{TransactionHash: "0x" + strings.Repeat("ab", 32), At: metav1.Now()}
			o.Status.State = investv1.StateDeliveryCompleted
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: investv1.StateDeliveryCompleted, At: metav1.Now(), Reason: "SetByTest"})
			g.Expect(k8s.Status().Update(ctx, o)).To(Succeed())
		}, timeout, interval).Should(Succeed())
		var ev investv1.SettlementEvidence
		Eventually(func(g Gomega) {
			ev = evidenceOf(o)(g)
			g.Expect(ev.ResidualRefundCompleted).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Expect(ev.ResidualRefundSent).NotTo(BeNil())
		Expect(ev.ResidualRefundSent.Reference).To(MatchRegexp(`^SBX-RFD-[A-Z2-7]{12}$`))
		Expect(ev.ResidualRefundCompleted.Reference).To(Equal(ev.ResidualRefundSent.Reference))
		Expect(ev.RefundSent).To(BeNil(), "the residual is not a cancellation's refund")
		Consistently(evidenceOf(o), time.Second, interval).Should(Equal(ev), "settled once, never again")

		By("the API server refusing to rewrite or remove residual evidence")
		for _, change := range []func(*investv1.SettlementEvidence){
			func(e *investv1.SettlementEvidence) { e.ResidualRefundSent.Reference = "SBX-RFD-REWRITTEN000" },
			func(e *investv1.SettlementEvidence) { e.ResidualRefundCompleted = nil },
		} {
			cur := &investv1.Order{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
			change(&cur.Status.Settlement)
			Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("recorded evidence is immutable")))
		}
	})

	It("records payout evidence for an executed sell after its tokens are burned", func() {
		o := newOrder(managedNS, investv1.SideSell)
		moveTo(o, investv1.StatePlaced, investv1.StateExecuted)

		var ev investv1.SettlementEvidence
		Eventually(func(g Gomega) {
			ev = evidenceOf(o)(g)
			g.Expect(ev.PaymentSent).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Expect(ev.TokensBurned).NotTo(BeNil(), "the payout follows the burn")
		Expect(ev.TokensBurned.TransactionHash).To(MatchRegexp(`^0x[0-9a-f]{64}$`))
		Expect(ev.TokensBurned.At.Time).NotTo(BeTemporally(">", ev.PaymentSent.At.Time))
		Expect(ev.PaymentSent.Reference).To(MatchRegexp(`^SBX-OUT-[A-Z2-7]{12}$`))
		Expect(ev.PaymentReceived).To(BeNil())
		Expect(ev.DeliveryInitiated).To(BeNil())

		By("moving the SELL with its payout evidence: PAYMENT_SENT with the payout sent, COMPLETED with its arrival")
		cur := &investv1.Order{}
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
			g.Expect(cur.Status.State).To(Equal(investv1.StateCompleted))
		}, timeout, interval).Should(Succeed())
		Expect(cur.Status.Settlement.PaymentCompleted.Reference).To(Equal(ev.PaymentSent.Reference))
		Expect(lifecycle.HistoryStates(cur.Status.History)).To(Equal([]investv1.OrderState{
			investv1.StatePlaced, investv1.StateExecuted, investv1.StatePaymentSent, investv1.StatePaymentCompleted, investv1.StateCompleted,
		}))
	})

	It("records nothing for orders that wait for no evidence or are being cancelled", func() {
		placed := newOrder(managedNS, investv1.SideBuy)
		moveTo(placed, investv1.StatePlaced)
		cancelling := newOrder(managedNS, investv1.SideBuy)
		cancelling.Spec.CancellationRequested = true
		Expect(k8s.Update(ctx, cancelling)).To(Succeed())
		moveTo(cancelling, investv1.StateAwaitingPayment)
		gatedBuy := newOrder(managedNS, investv1.SideBuy) // a sell-only state on a buy
		moveTo(gatedBuy, investv1.StatePaymentSent)

		for _, o := range []*investv1.Order{placed, cancelling, gatedBuy} {
			Consistently(evidenceOf(o), 2*time.Second, interval).Should(BeZero())
		}
	})
})

var _ = Describe("Reconcile, called directly outside the manager's namespace", func() {
	var ns string
	BeforeEach(func() { ns = env.NewNamespace("settlement-direct") })

	request := func(o *investv1.Order) ctrl.Request {
		return ctrl.Request{NamespacedName: client.ObjectKeyFromObject(o)}
	}

	It("settles the steps of its own side only: a money-side agent leaves an executed buy's delivery to the token side", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted)
		money := &Reconciler{Client: k8s, Agent: &Sandbox{}}
		_, err := money.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(evidenceOf(o)(Default)).To(BeZero())
		tokens := &Reconciler{Client: k8s, Agent: &NoChainTokenSandbox{}, Side: lifecycle.TokenSide}
		_, err = tokens.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(evidenceOf(o)(Default).DeliveryInitiated).NotTo(BeNil())
	})

	It("waits for the delay after the order entered its state", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)
		r := &Reconciler{Client: k8s, Agent: &Sandbox{}, Delay: time.Hour}

		res, err := r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(BeNumerically(">", 59*time.Minute))
		Expect(res.RequeueAfter).To(BeNumerically("<=", time.Hour))
		Expect(evidenceOf(o)(Default)).To(BeZero())

		r.Now = func() time.Time { return time.Now().Add(time.Hour) }
		res, err = r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(res).To(BeZero())
		Expect(evidenceOf(o)(Default).PaymentReceived).NotTo(BeNil())
	})

	It("requeues when the agent is not ready yet", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StatePlaced, investv1.StateAwaitingPayment)
		r := &Reconciler{Client: k8s, Agent: &Sandbox{Delay: time.Hour}}

		res, err := r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(BeNumerically(">", 59*time.Minute))
		Expect(evidenceOf(o)(Default)).To(BeZero())
	})

	It("never overwrites a concurrent writer: a conflict is a requeue, not an error", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)

		// The order controller writes the status between the agent's read and its patch.
		racing := interceptor.NewClient(directWithWatch(), interceptor.Funcs{
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
				cur := &investv1.Order{}
				Expect(c.Get(ctx, client.ObjectKeyFromObject(obj), cur)).To(Succeed())
				meta.SetStatusCondition(&cur.Status.Conditions, metav1.Condition{
					Type: "Waiting", Status: metav1.ConditionTrue, Reason: "AwaitingPaymentEvidence",
				})
				Expect(c.Status().Update(ctx, cur)).To(Succeed())
				return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
			},
		})
		r := &Reconciler{Client: racing, Agent: &Sandbox{}}
		res, err := r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(Equal(patch.ConflictRetry))

		cur := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		Expect(cur.Status.Settlement).To(BeZero())
		Expect(meta.IsStatusConditionTrue(cur.Status.Conditions, "Waiting")).To(BeTrue())

		By("reading fresh, the next reconcile records the evidence and keeps the other write")
		r.Client = k8s
		res, err = r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(res).To(BeZero())
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		Expect(cur.Status.Settlement.PaymentReceived).NotTo(BeNil())
		Expect(meta.IsStatusConditionTrue(cur.Status.Conditions, "Waiting")).To(BeTrue())
		Expect(cur.Status.State).To(Equal(investv1.StatePaymentReceived), "with the move the evidence unlocks")
		Expect(cur.Status.History).To(HaveLen(2))
	})

	It("does not ask the agent again once the evidence is recorded", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)
		r := &Reconciler{Client: k8s, Agent: &Sandbox{}}
		_, err := r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		first := evidenceOf(o)(Default).PaymentReceived
		Expect(first).NotTo(BeNil())

		r.Agent = failingAgent{}
		_, err = r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())
		Expect(evidenceOf(o)(Default).PaymentReceived).To(Equal(first))
	})

	It("returns the agent's failure as an error", func() {
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)
		r := &Reconciler{Client: k8s, Agent: failingAgent{}}
		_, err := r.Reconcile(ctx, request(o))
		Expect(err).To(MatchError(ContainSubstring("bank unavailable")))
		Expect(evidenceOf(o)(Default)).To(BeZero())
	})

	It("is done when the order does not exist", func() {
		r := &Reconciler{Client: k8s, Agent: failingAgent{}}
		res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: controlplane.NewID()}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res).To(BeZero())
	})

	It("is rejected by the API server when evidence would be rewritten", func() {
		// The guarantee Record relies on: the CRD keeps recorded evidence immutable.
		o := newOrder(ns, investv1.SideBuy)
		moveTo(o, investv1.StateAwaitingPayment)
		r := &Reconciler{Client: k8s, Agent: &Sandbox{}}
		_, err := r.Reconcile(ctx, request(o))
		Expect(err).NotTo(HaveOccurred())

		cur := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		cur.Status.Settlement.PaymentReceived.Reference = "SBX-PAY-REWRITTEN000"
		err = k8s.Status().Update(ctx, cur)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
	})
})

// failingAgent stands for an unreachable bank.
type failingAgent struct{}

func (failingAgent) Settle(context.Context, *investv1.Order, lifecycle.Step) (investv1.SettlementRecord, error) {
	return investv1.SettlementRecord{}, errBankUnavailable
}

var errBankUnavailable = errors.New("bank unavailable")

func directWithWatch() client.WithWatch {
	c, err := client.NewWithWatch(env.Config, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	return c
}
