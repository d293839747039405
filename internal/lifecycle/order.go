package lifecycle

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// NeedsReconcile reports whether the controllers have anything left to do on the order:
// it is not terminal, or it owes a refund, or it has a refund whose completion is not yet
// reported in its conditions. The order controller and every settlement agent watch only
// such orders (internal/predicates.LiveOrders).
func NeedsReconcile(o *investv1.Order) bool {
	if !o.Status.State.Terminal() || LatePayment(o) {
		return true
	}
	return o.Status.Refund != nil && (RefundOutstanding(o) || !ReadyReported(o))
}

// LatePayment reports whether a cancelled buy has the customer's payment recorded but no
// refund: the payment arrived after the cancellation (evidence recorded by hand, without
// the optimistic lock the settlement agent uses). The money is owed back all the same.
func LatePayment(o *investv1.Order) bool {
	return o.Status.State == investv1.StateCancelled && o.Spec.Side == investv1.SideBuy &&
		o.Status.Settlement.PaymentReceived != nil && o.Status.Refund == nil
}

// ReadyReported reports whether the order's conditions already say it is done (Ready=True
// of its generation): nothing is left to write on a terminal order.
func ReadyReported(o *investv1.Order) bool {
	c := meta.FindStatusCondition(o.Status.Conditions, investv1.ConditionReady)
	return c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == o.Generation
}

// RefundStateOf says where the order's refund stands; "" when it has none.
func RefundStateOf(o *investv1.Order) investv1.RefundState {
	switch {
	case o.Status.Refund == nil:
		return ""
	case o.Status.Settlement.RefundCompleted != nil:
		return investv1.RefundCompletedState
	case o.Status.Settlement.RefundSent != nil:
		return investv1.RefundSentState
	}
	return investv1.RefundPending
}

// RefundOutstanding reports whether the order owes a refund not yet completed: such an
// order is CANCELLED but not done, and is still reconciled and settled.
func RefundOutstanding(o *investv1.Order) bool {
	return o.Status.Refund != nil && o.Status.Settlement.RefundCompleted == nil
}

// Done reports whether nothing will ever move the order again: a terminal state and no
// refund outstanding.
func Done(o *investv1.Order) bool { return o.Status.State.Terminal() && !RefundOutstanding(o) }
