package order_test

import (
	"encoding/json"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// patchEvidence records one piece of evidence as `kubectl patch --subresource=status
// --type=merge` does: no resourceVersion, onto whatever the order is now.
func patchEvidence(o *investv1.Order, field string, rec investv1.SettlementRecord) error {
	GinkgoHelper()
	if rec.At.IsZero() {
		rec.At = nowTime()
	}
	body, err := json.Marshal(map[string]any{"status": map[string]any{"settlement": map[string]any{field: rec}}})
	Expect(err).NotTo(HaveOccurred())
	return k8s.Status().Patch(ctx, get(o), client.RawPatch(types.MergePatchType, body))
}

// refusedBy matches admission's refusal of status.settlement.<field> by rule, with the
// words kubectl users read.
func refusedBy(field string, rule lifecycle.EvidenceRule, message string) OmegaMatcher {
	return And(
		WithTransform(apierrors.IsInvalid, BeTrue()),
		WithTransform(func(err error) string { code, _, _ := refusal.RuleOf(err); return code }, Equal(string(rule))),
		contains(fmt.Sprintf("status.settlement.%s: Forbidden: %s: %s", field, rule, message)),
	)
}

var _ = Describe("Settlement evidence admission", func() {
	var (
		m market
		c customer
	)
	BeforeEach(func() { _, m, c = newScene() })

	// executedSell is a SELL of units bought by a settled BUY, in EXECUTED.
	executedSell := func() *investv1.Order {
		GinkgoHelper()
		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 10)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		settleBuy(buy)
		sell := c.order(investv1.SideSell, investv1.MarketPrimary, m.isin, 4)
		Eventually(func() error { return k8s.Create(ctx, sell.DeepCopy()) }).WithTimeout(envtest.Settle).Should(Succeed())
		waitState(sell, investv1.StateExecuted)
		return sell
	}

	It("refuses refund evidence on an order that owes no refund", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 2)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		settleBuy(o)

		err := patchEvidence(o, "refundSent", investv1.SettlementRecord{Reference: "OUTSIDER-1", RecordedBy: "outsider"})
		Expect(err).To(refusedBy("refundSent", lifecycle.RuleNoRefundOwed,
			"refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)"))
		Expect(get(o).Status.Settlement.RefundSent).To(BeNil(), "the refused evidence was stored")
	})

	It("refuses token evidence of the other side: a mint on a SELL, a burn on a BUY", func() {
		sell := executedSell()
		err := patchEvidence(sell, "deliveryInitiated", investv1.SettlementRecord{TransactionHash: txHash})
		Expect(err).To(refusedBy("deliveryInitiated", lifecycle.RuleWrongSide,
			"BUY evidence on a SELL order (deliveryInitiated is the mint of the units bought; a SELL uses tokensBurned, paymentSent and paymentCompleted)"))

		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		waitState(buy, investv1.StateAwaitingPayment)
		err = patchEvidence(buy, "tokensBurned", investv1.SettlementRecord{TransactionHash: txHash})
		Expect(err).To(refusedBy("tokensBurned", lifecycle.RuleWrongSide,
			"SELL evidence on a BUY order (tokensBurned is the burn of the units sold; a BUY uses paymentReceived, deliveryInitiated and deliveryCompleted)"))
		Expect(get(sell).Status.Settlement.DeliveryInitiated).To(BeNil())
		Expect(get(buy).Status.Settlement.TokensBurned).To(BeNil())
	})

	It("refuses money evidence of the other side: a buyer's payment on a SELL, a payout on a BUY", func() {
		sell := executedSell()
		Expect(patchEvidence(sell, "paymentReceived", investv1.SettlementRecord{Reference: "SEPA-X"})).
			To(refusedBy("paymentReceived", lifecycle.RuleWrongSide, "BUY evidence on a SELL order (paymentReceived is the buyer's payment;"))

		buy := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, buy)).To(Succeed())
		waitState(buy, investv1.StateAwaitingPayment)
		Expect(patchEvidence(buy, "paymentSent", investv1.SettlementRecord{Reference: "PAYOUT-X"})).
			To(refusedBy("paymentSent", lifecycle.RuleWrongSide, "SELL evidence on a BUY order (paymentSent is the payout of a sale;"))
		Consistently(stateOf(buy)).WithTimeout(time.Second).Should(Equal(investv1.StateAwaitingPayment))
	})

	It("refuses evidence for a state a COMPLETED order can no longer reach", func() {
		sell := executedSell()
		record(sell, lifecycle.StepPaymentSent, investv1.SettlementRecord{Reference: "PAYOUT-1"})
		waitState(sell, investv1.StatePaymentSent)
		record(sell, lifecycle.StepPaymentCompleted, investv1.SettlementRecord{Reference: "PAYOUT-1"})
		waitState(sell, investv1.StateCompleted)

		Expect(patchEvidence(sell, "tokensBurned", investv1.SettlementRecord{TransactionHash: txHash})).
			To(refusedBy("tokensBurned", lifecycle.RuleStateLeft,
				"evidence for a state the order can no longer reach (SELL COMPLETED: nothing is settled after completion)"))
	})

	It("refuses evidence on a CANCELLED BUY but its late payment and the refund that payment is owed", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		Expect(cancel(o, true)).To(Succeed())
		waitState(o, investv1.StateCancelled)

		Expect(patchEvidence(o, "deliveryInitiated", investv1.SettlementRecord{TransactionHash: txHash})).
			To(refusedBy("deliveryInitiated", lifecycle.RuleStateLeft,
				"evidence for a state the order can no longer reach (BUY CANCELLED: after a cancellation only a BUY's late payment and the refund it owes are recorded)"))
		Expect(patchEvidence(o, "refundSent", investv1.SettlementRecord{Reference: "REFUND-1"})).
			To(refusedBy("refundSent", lifecycle.RuleNoRefundOwed, "refund evidence on an order that owes no refund (BUY CANCELLED, no refund due)"))

		// The payment arrives late: it is recorded, the controller fixes the refund, and
		// the refund is settled.
		Expect(patchEvidence(o, "paymentReceived", investv1.SettlementRecord{Reference: "SEPA-LATE"})).To(Succeed())
		Eventually(func() *investv1.OrderRefund { return get(o).Status.Refund }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
		Expect(patchEvidence(o, "refundSent", investv1.SettlementRecord{Reference: "REFUND-1"})).To(Succeed())
		Expect(patchEvidence(o, "refundCompleted", investv1.SettlementRecord{Reference: "REFUND-1"})).To(Succeed())
		Eventually(func() bool { return done(o) }).WithTimeout(envtest.Settle).Should(BeTrue())
	})

	It("refuses a completion recorded before its start", func() {
		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 1)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		waitState(o, investv1.StateAwaitingPayment)
		record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-1"})
		waitState(o, investv1.StateExecuted)

		Expect(patchEvidence(o, "deliveryCompleted", investv1.SettlementRecord{TransactionHash: txHash})).
			To(refusedBy("deliveryCompleted", lifecycle.RuleOutOfOrder,
				"evidence out of the lifecycle's order (BUY EXECUTED: deliveryCompleted is recorded after deliveryInitiated, which is missing)"))
		// Both in one write, start and completion, are in order.
		both := []byte(fmt.Sprintf(`{"status":{"settlement":{"deliveryInitiated":{"transactionHash":%q,"at":%q},"deliveryCompleted":{"transactionHash":%q,"at":%q}}}}`,
			txHash, nowTime().Format(time.RFC3339), txHash, nowTime().Format(time.RFC3339)))
		Expect(k8s.Status().Patch(ctx, get(o), client.RawPatch(types.MergePatchType, both))).To(Succeed())
		waitState(o, investv1.StateCompleted)
	})
})
