package lifecycle

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Condition types of an order besides Ready. Ready, Reconciling and Stalled follow
// kstatus (sigs.k8s.io/cli-utils/pkg/kstatus), so that kubectl wait, Flux and kpt read
// an order's progress the way they read any resource's.
const (
	// ConditionWaiting is True while the order cannot move on, with the reason.
	ConditionWaiting = "Waiting"
	// ConditionReconciling is True while the order is in flight (the state as reason)
	// or a cancelled order's refund is outstanding (RefundPending).
	ConditionReconciling = "Reconciling"
	// ConditionStalled is True when the order cannot go on without a person.
	ConditionStalled = "Stalled"
	// ConditionCancellationRefused is True when a cancellation was requested past the
	// point of no return: it is not honoured and the order goes on.
	ConditionCancellationRefused = "CancellationRefused"
)

// stalledReasons are the waits that no fact of the outside world ends by itself: an
// operator must look at the order.
var stalledReasons = map[string]bool{
	WaitInvalidState: true, WaitShareClassNotFound: true,
	WaitTokenTransactionRefused: true, WaitTokenTransactionReverted: true, WaitTokenTransactionNonceTaken: true,
	WaitPayoutRejected: true, WaitPayoutReturned: true,
}

// StateReason is a state in CamelCase, e.g. AwaitingPayment for AWAITING_PAYMENT;
// Pending for an order not yet accepted.
func StateReason(s investv1.OrderState) string {
	if s == "" {
		return ReasonPending
	}
	var b strings.Builder
	for _, word := range strings.Split(string(s), "_") {
		if word == "" {
			continue
		}
		b.WriteString(word[:1])
		b.WriteString(strings.ToLower(word[1:]))
	}
	return b.String()
}

// StatusConditions are the kstatus conditions of the order as it is (state, refund and
// evidence already set) when waiting, if set, is why it does not move:
//
//   - in flight: Ready=False and Reconciling=True, with the state as reason
//     (AwaitingPayment, …), Stalled=False; when the wait needs a person (an invalid
//     state, the share class gone): Stalled=True with the wait's reason and
//     Reconciling=False, while Ready keeps the state as its reason;
//   - COMPLETED: Ready=True reason Completed;
//   - CANCELLED: Ready=True reason Cancelled, except while a refund is outstanding:
//     Ready=False and Reconciling=True reason RefundPending.
//
// They are the trio of internal/conditions, as on every kind: all three set, the reason of
// the True one on each (but Ready's, above), the order's generation as observedGeneration.
func StatusConditions(o *investv1.Order, waiting *Wait) []metav1.Condition {
	return statusSummary(o, waiting).Conditions(o.Generation)
}

// statusSummary is the kstatus state of the order, for conditions.Set.
func statusSummary(o *investv1.Order, waiting *Wait) conditions.Summary {
	state := o.Status.State
	switch {
	case state == investv1.StateCompleted:
		return conditions.Summary{State: conditions.Current, Reason: ReasonCompleted, Message: "the order is COMPLETED"}
	case state == investv1.StateCancelled && RefundOutstanding(o) && waiting != nil && stalledReasons[waiting.Reason]:
		return conditions.Summary{State: conditions.Failed, Reason: waiting.Reason, Message: truncate(waiting.Message + "; an operator must look at the order"),
			ReadyReason: ReasonRefundPending, ReadyMessage: truncate("the order is CANCELLED; its refund " + o.Status.Refund.Reference + " is " + string(RefundStateOf(o)))}
	case state == investv1.StateCancelled && RefundOutstanding(o):
		msg := "the order is CANCELLED; its refund " + o.Status.Refund.Reference + " is " + string(RefundStateOf(o))
		return conditions.Summary{State: conditions.InProgress, Reason: ReasonRefundPending, Message: truncate(msg)}
	case state == investv1.StateCancelled:
		msg := "the order is CANCELLED"
		if o.Status.Refund != nil {
			msg += "; its refund " + o.Status.Refund.Reference + " is COMPLETED"
		}
		return conditions.Summary{State: conditions.Current, Reason: ReasonCancelled, Message: truncate(msg)}
	}
	reason := StateReason(state)
	msg := "the order is " + string(state)
	if state == "" {
		msg = "the order is not accepted yet"
	}
	if waiting != nil {
		msg += ": " + waiting.Message
	}
	if waiting != nil && stalledReasons[waiting.Reason] {
		// Ready names the state (the Ready column of kubectl get orders), Stalled why the
		// order stopped.
		return conditions.Summary{State: conditions.Failed, Reason: waiting.Reason, Message: truncate(waiting.Message + "; an operator must look at the order"),
			ReadyReason: reason, ReadyMessage: truncate(msg)}
	}
	return conditions.Summary{State: conditions.InProgress, Reason: reason, Message: truncate(msg)}
}

// SetConditions sets every condition of the order as it is: the kstatus ones, Waiting
// (True with waiting's reason, else False with the reason of the last move, moved) and
// CancellationRefused (True with refused's message when set; removed otherwise only
// when the order is done, so the record of a refusal stays while the order goes on).
func SetConditions(o *investv1.Order, waiting *Wait, moved *Transition, refused string) {
	conditions.Set(&o.Status.Conditions, o.Generation, statusSummary(o, waiting))
	w := metav1.Condition{Type: ConditionWaiting, Status: metav1.ConditionFalse, ObservedGeneration: o.Generation}
	switch {
	case waiting != nil:
		w.Status, w.Reason, w.Message = metav1.ConditionTrue, waiting.Reason, waiting.Message
	case moved != nil:
		w.Reason, w.Message = moved.Reason, moved.Message
	default:
		w.Reason, w.Message = StateReason(o.Status.State), "the order is "+string(o.Status.State)
	}
	meta.SetStatusCondition(&o.Status.Conditions, w)
	if refused != "" {
		meta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{
			Type: ConditionCancellationRefused, Status: metav1.ConditionTrue, Reason: ReasonPastPointOfNoReturn,
			Message: refused, ObservedGeneration: o.Generation,
		})
	}
	o.Status.ObservedGeneration = o.Generation
}

// residualWait is the wait of a delivered BUY for its residual refund to be sent, then to
// arrive.
func residualWait(o *investv1.Order) *Wait {
	if w := PayoutProblem(o, investv1.PurposeResidual); w != nil {
		return w
	}
	n := o.Status.Strike
	amount := money.Format(n.Residual, string(o.Spec.Currency))
	msg := fmt.Sprintf("waiting for the residual %s to be refunded with reference %s", amount, n.ResidualReference)
	if sent := o.Status.Settlement.ResidualRefundSent; sent != nil {
		msg = fmt.Sprintf("waiting for the residual %s (reference %s) to arrive: sent as %s", amount, n.ResidualReference, sent.Reference)
	}
	return &Wait{Reason: WaitAwaitingRefundEvidence, Message: msg}
}

// RefundWait is why a cancelled order with an outstanding refund is not done.
func RefundWait(o *investv1.Order) *Wait {
	if !RefundOutstanding(o) {
		return nil
	}
	if w := PayoutProblem(o, investv1.PurposeRefund); w != nil {
		return w
	}
	msg := "waiting for the refund " + o.Status.Refund.Reference + " to be sent"
	if o.Status.Settlement.RefundSent != nil {
		msg = "waiting for the refund " + o.Status.Refund.Reference + " to arrive"
	}
	return &Wait{Reason: WaitAwaitingRefundEvidence, Message: msg}
}

// PayoutProblem is the Stalled wait of an order whose transfer of purpose (status.payout)
// the bank refused or sent back; nil when there is none. Nothing is sent again by itself:
// an operator decides.
func PayoutProblem(o *investv1.Order, purpose string) *Wait {
	p := o.Status.Payout
	if p == nil || p.Purpose != purpose {
		return nil
	}
	what := map[string]string{investv1.PurposePayout: "payout", investv1.PurposeRefund: "refund", investv1.PurposeResidual: "residual refund"}[purpose]
	why := p.Reason
	if p.Code != "" {
		why = strings.TrimSuffix(p.Code+" "+why, " ")
	}
	if why == "" {
		why = "no reason given"
	}
	amount := money.Format(p.Amount, string(o.Spec.Currency))
	if p.Outcome == investv1.PayoutReturned {
		return &Wait{Reason: WaitPayoutReturned, Message: truncate(fmt.Sprintf(
			"the %s of %s (end-to-end id %s) was sent back by the bank: %s; nothing is sent again", what, amount, p.EndToEndID, why))}
	}
	return &Wait{Reason: WaitPayoutRejected, Message: truncate(fmt.Sprintf(
		"the bank refused the %s of %s (end-to-end id %s, file %s): %s; nothing is sent again", what, amount, p.EndToEndID, p.MessageID, why))}
}
