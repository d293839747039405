// Package settlement connects orders to the outside world. The steps split into two sides:
// the money side (the customer's payment, the payout, refunds: a bank; today the built-in
// Sandbox) and the token side (the delivery of a BUY's tokens, the burn of a SELL's: the
// chain agent of controllers/delivery when a chain is configured; NoChainTokenSandbox,
// which is not real, otherwise). An Agent settles the steps of its side and the Reconciler
// records the evidence on the order, where the order controller advances the lifecycle on
// it.
package settlement

import (
	"context"
	"fmt"
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
	// StepPaymentSent (sell): the payout was sent.
	StepPaymentSent Step = "PaymentSent"
	// StepPaymentCompleted (sell): the payout arrived.
	StepPaymentCompleted Step = "PaymentCompleted"
	// StepRefundSent (cancelled buy with a refund): the refund was sent to the customer.
	StepRefundSent Step = "RefundSent"
	// StepRefundCompleted (cancelled buy with a refund): the refund arrived.
	StepRefundCompleted Step = "RefundCompleted"
)

// Side is the part of the outside world a step belongs to.
type Side string

const (
	// MoneySide is the fiat steps: payment received, payout sent and completed, refund
	// sent and completed.
	MoneySide Side = "Money"
	// TokenSide is the token steps: delivery initiated and completed (BUY), tokens burned
	// (SELL).
	TokenSide Side = "Token"
)

// Side says which side settles the step.
func (s Step) Side() Side {
	switch s {
	case StepDeliveryInitiated, StepDeliveryCompleted, StepTokensBurned:
		return TokenSide
	}
	return MoneySide
}

// Agent settles orders with the outside world and reports evidence. The Reconciler asks
// NextStep which evidence an order waits for and calls Settle for it.
type Agent interface {
	// Settle performs the step for the order (or looks up whether the outside world has
	// done it) and returns the evidence: a reference and/or a transaction hash, and the
	// time. It returns a *NotReadyError when the outside world has nothing to report yet.
	//
	// Settle must be idempotent per order UID and step: when the Reconciler loses the
	// race to write the evidence (a conflict) it calls Settle again for the same step, and
	// a bank or chain integration must then return the first outcome, not pay twice.
	Settle(ctx context.Context, o *investv1.Order, step Step) (investv1.SettlementRecord, error)
}

// NotReadyError says the outside world has no evidence for the step yet, e.g. the
// customer's transfer has not arrived; the caller asks again after RetryAfter.
type NotReadyError struct {
	// Step is the evidence asked for.
	Step Step
	// RetryAfter is when asking again makes sense.
	RetryAfter time.Duration
}

// Error describes the wait.
func (e *NotReadyError) Error() string {
	return fmt.Sprintf("%s evidence not available yet, retry in %s", e.Step, e.RetryAfter)
}

// NextStep says which evidence the order waits for now: AWAITING_PAYMENT (buy) →
// PaymentReceived, EXECUTED (buy) → DeliveryInitiated, DELIVERY_INITIATED (buy) →
// DeliveryCompleted, EXECUTED (sell) → TokensBurned, then PaymentSent (the payout
// follows the burn), PAYMENT_SENT (sell) →
// PaymentCompleted; a CANCELLED order with a refund (status.refund) → RefundSent, then
// RefundCompleted. It is false when that evidence is already recorded, when the state
// needs none, and when a cancellation is requested on a live order (no money or tokens
// move for an order about to be cancelled; a refund is fixed by the cancellation itself).
func NextStep(o *investv1.Order) (Step, bool) {
	if o.Status.State == investv1.StateCancelled && o.Status.Refund != nil {
		for _, step := range []Step{StepRefundSent, StepRefundCompleted} {
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
	case StepPaymentSent:
		return &ev.PaymentSent
	case StepPaymentCompleted:
		return &ev.PaymentCompleted
	case StepRefundSent:
		return &ev.RefundSent
	case StepRefundCompleted:
		return &ev.RefundCompleted
	}
	return nil
}

// StartedAt is when the outside world was asked for the step: when the refund was sent
// for RefundCompleted, when the order entered its current state for every other step.
func StartedAt(o *investv1.Order, step Step) time.Time {
	if step == StepRefundCompleted {
		if sent := o.Status.Settlement.RefundSent; sent != nil {
			return sent.At.Time
		}
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

// Sides is an Agent that hands each step to the agent of its side; a side without an
// agent refuses its steps. Reconcilers run one side each (Reconciler.Side); Sides is for
// code that walks a whole lifecycle in one place (simulations, benchmarks).
type Sides struct {
	Money, Token Agent
}

// Settle implements Agent.
func (s Sides) Settle(ctx context.Context, o *investv1.Order, step Step) (investv1.SettlementRecord, error) {
	a := s.Money
	if step.Side() == TokenSide {
		a = s.Token
	}
	if a == nil {
		return investv1.SettlementRecord{}, fmt.Errorf("no agent settles the %s side (step %s)", step.Side(), step)
	}
	return a.Settle(ctx, o, step)
}
