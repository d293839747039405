package lifecycle

import (
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Step names one piece of settlement evidence, one field of status.settlement.
type Step string

const (
	// StepPaymentReceived (buy): the customer's payment arrived.
	StepPaymentReceived Step = "PaymentReceived"
	// StepDeliveryInitiated (buy): the token transfer was submitted.
	StepDeliveryInitiated Step = "DeliveryInitiated"
	// StepDeliveryCompleted (buy): the token transfer is final.
	StepDeliveryCompleted Step = "DeliveryCompleted"
	// StepTokensBurned (sell): the units sold were burned and the burn is final; the
	// payout follows it.
	StepTokensBurned Step = "TokensBurned"
	// StepUnitsDelivered (SECONDARY sell): the units sold were transferred to the buyers
	// and every transfer is final; the payout follows it.
	StepUnitsDelivered Step = "UnitsDelivered"
	// StepPaymentSent (sell): the payout was sent.
	StepPaymentSent Step = "PaymentSent"
	// StepPaymentCompleted (sell): the payout arrived.
	StepPaymentCompleted Step = "PaymentCompleted"
	// StepRefundSent (cancelled buy with a refund): the refund was sent to the customer.
	StepRefundSent Step = "RefundSent"
	// StepRefundCompleted (cancelled buy with a refund): the refund arrived.
	StepRefundCompleted Step = "RefundCompleted"
	// StepResidualRefundSent (forward BUY by amount with a residual on its contract note):
	// the residual was sent back to the customer.
	StepResidualRefundSent Step = "ResidualRefundSent"
	// StepResidualRefundCompleted (idem): the residual arrived.
	StepResidualRefundCompleted Step = "ResidualRefundCompleted"
)

// Side is the part of the outside world a step belongs to.
type Side string

const (
	// MoneySide is the fiat steps: payment received, payout sent and completed, refund
	// sent and completed, residual refund sent and completed.
	MoneySide Side = "Money"
	// TokenSide is the token steps: delivery initiated and completed (BUY), tokens burned
	// (SELL).
	TokenSide Side = "Token"
)

// MoneySteps are the steps of the money side.
func MoneySteps() []Step {
	return []Step{StepPaymentReceived, StepPaymentSent, StepPaymentCompleted, StepRefundSent, StepRefundCompleted,
		StepResidualRefundSent, StepResidualRefundCompleted}
}

// Side says which side settles the step.
func (s Step) Side() Side {
	switch s {
	case StepDeliveryInitiated, StepDeliveryCompleted, StepTokensBurned, StepUnitsDelivered:
		return TokenSide
	}
	return MoneySide
}

// NextStep says which evidence the order waits for now: AWAITING_PAYMENT (buy) →
// PaymentReceived, EXECUTED (buy) → DeliveryInitiated, DELIVERY_INITIATED (buy) →
// DeliveryCompleted, EXECUTED (sell) → TokensBurned, then PaymentSent (the payout
// follows the burn), PAYMENT_SENT (sell) →
// PaymentCompleted; a CANCELLED order with a refund (status.refund) → RefundSent, then
// RefundCompleted; DELIVERY_COMPLETED (a forward BUY by amount whose contract note has a
// residual) → ResidualRefundSent, then ResidualRefundCompleted. It is false when that
// evidence is already recorded, when the state needs none, and when a cancellation is
// requested on a live order (no money or tokens move for an order about to be cancelled;
// a refund is fixed by the cancellation itself) — except the residual, owed whatever is
// requested once the units are delivered.
func NextStep(o *investv1.Order) (Step, bool) {
	if o.Status.State == investv1.StateCancelled && o.Status.Refund != nil {
		for _, step := range []Step{StepRefundSent, StepRefundCompleted} {
			if Recorded(o, step) == nil {
				return step, true
			}
		}
		return "", false
	}
	if o.Status.State == investv1.StateDeliveryCompleted && ResidualOwed(o) {
		for _, step := range []Step{StepResidualRefundSent, StepResidualRefundCompleted} {
			if Recorded(o, step) == nil {
				return step, true
			}
		}
		return "", false
	}
	if o.Spec.CancellationRequested {
		return "", false
	}
	var step Step
	switch o.Spec.Side {
	case investv1.SideBuy:
		switch o.Status.State {
		case investv1.StateAwaitingPayment:
			step = StepPaymentReceived
		case investv1.StateExecuted:
			step = StepDeliveryInitiated
		case investv1.StateDeliveryInitiated:
			step = StepDeliveryCompleted
		}
	case investv1.SideSell:
		switch o.Status.State {
		case investv1.StateExecuted:
			step = StepTokensBurned
			if Secondary(o) {
				step = StepUnitsDelivered
			}
			if Recorded(o, step) != nil {
				step = StepPaymentSent
			}
		case investv1.StatePaymentSent:
			step = StepPaymentCompleted
		}
	}
	if step == "" || Recorded(o, step) != nil {
		return "", false
	}
	return step, true
}

// Recorded returns the evidence recorded for the step, or nil.
func Recorded(o *investv1.Order, step Step) *investv1.SettlementRecord {
	if f := field(o, step); f != nil {
		return *f
	}
	return nil
}

// Record sets the field of o.Status.Settlement that holds the step's evidence. Recorded
// evidence is immutable (the CRD rejects a change), so an existing record is kept and
// Record reports false.
func Record(o *investv1.Order, step Step, rec investv1.SettlementRecord) bool {
	f := field(o, step)
	if f == nil || *f != nil {
		return false
	}
	*f = &rec
	return true
}

func field(o *investv1.Order, step Step) **investv1.SettlementRecord {
	ev := &o.Status.Settlement
	switch step {
	case StepPaymentReceived:
		return &ev.PaymentReceived
	case StepDeliveryInitiated:
		return &ev.DeliveryInitiated
	case StepDeliveryCompleted:
		return &ev.DeliveryCompleted
	case StepTokensBurned:
		return &ev.TokensBurned
	case StepUnitsDelivered:
		return &ev.UnitsDelivered
	case StepPaymentSent:
		return &ev.PaymentSent
	case StepPaymentCompleted:
		return &ev.PaymentCompleted
	case StepRefundSent:
		return &ev.RefundSent
	case StepRefundCompleted:
		return &ev.RefundCompleted
	case StepResidualRefundSent:
		return &ev.ResidualRefundSent
	case StepResidualRefundCompleted:
		return &ev.ResidualRefundCompleted
	}
	return nil
}

// ResidualOwed says whether the order is a BUY whose contract note leaves a residual to
// refund (a forward BUY by amount: net − units × NAV).
func ResidualOwed(o *investv1.Order) bool {
	return o.Spec.Side == investv1.SideBuy && o.Status.Strike != nil && o.Status.Strike.Residual > 0
}

// ResidualOutstanding says whether a residual owed has not arrived yet.
func ResidualOutstanding(o *investv1.Order) bool {
	return ResidualOwed(o) && o.Status.Settlement.ResidualRefundCompleted == nil
}

// StartedAt is when the outside world was asked for the step: when the refund (the
// residual) was sent for RefundCompleted (ResidualRefundCompleted), when the order entered
// its current state for every other step.
func StartedAt(o *investv1.Order, step Step) time.Time {
	var sent *investv1.SettlementRecord
	switch step {
	case StepRefundCompleted:
		sent = o.Status.Settlement.RefundSent
	case StepResidualRefundCompleted:
		sent = o.Status.Settlement.ResidualRefundSent
	}
	if sent != nil {
		return sent.At.Time
	}
	return EnteredAt(o)
}

// EnteredAt is when the order entered its current state: the last history entry, or its
// creation when it has no history.
func EnteredAt(o *investv1.Order) time.Time {
	if n := len(o.Status.History); n > 0 {
		return o.Status.History[n-1].At.Time
	}
	return o.CreationTimestamp.Time
}

// ReasonEvidencePrefix begins the reason of the Event emitted for each piece of evidence
// recorded: EvidencePaymentReceived, EvidenceDeliveryInitiated, … (EvidenceReason).
const ReasonEvidencePrefix = "Evidence"

// EvidenceReason is the Event reason for the evidence of step, e.g. EvidencePaymentReceived.
func EvidenceReason(step Step) string {
	return ReasonEvidencePrefix + string(step)
}
