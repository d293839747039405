package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NeedsReconcile reports whether the controllers have anything left to do on the order:
// it is not terminal, or it owes a refund, or it has a refund whose completion is not yet
// reported in its conditions. The order controller and every settlement agent watch only
// such orders (internal/predicates.LiveOrders).
func (o *Order) NeedsReconcile() bool {
	if !o.Status.State.Terminal() || o.LatePayment() {
		return true
	}
	return o.Status.Refund != nil && (o.RefundOutstanding() || !o.ReadyReported())
}

// LatePayment reports whether a cancelled buy has the customer's payment recorded but no
// refund: the payment arrived after the cancellation (evidence recorded by hand, without
// the optimistic lock the settlement agent uses). The money is owed back all the same.
func (o *Order) LatePayment() bool {
	return o.Status.State == StateCancelled && o.Spec.Side == SideBuy &&
		o.Status.Settlement.PaymentReceived != nil && o.Status.Refund == nil
}

// ReadyReported reports whether the order's conditions already say it is done (Ready=True
// of its generation): nothing is left to write on a terminal order.
func (o *Order) ReadyReported() bool {
	c := meta.FindStatusCondition(o.Status.Conditions, ConditionReady)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == o.Generation
}
