// Package settlement connects orders to the outside world. The steps split into two sides:
// the money side (the customer's payment, the payout, refunds: a bank; today the built-in
// Sandbox) and the token side (the delivery of a BUY's tokens, the burn of a SELL's: the
// chain agent of controllers/delivery when a chain is configured; NoChainTokenSandbox,
// which is not real, otherwise). An Agent settles the steps of its side and the Reconciler
// records the evidence on the order with the moves it unlocks (lifecycle.Follow); the order
// controller decides the rest.
package settlement

import (
	"context"
	"fmt"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Agent settles orders with the outside world and reports evidence. The Reconciler asks
// NextStep which evidence an order waits for and calls Settle for it.
type Agent interface {
	// Settle performs the step for the order (or looks up whether the outside world has
	// done it) and returns the evidence: a reference and/or a transaction hash, and the
	// time. It returns a *NotReadyError when the outside world has nothing to report yet.
	//
	// Settle must be idempotent per order UID and step: when the Reconciler loses the
	// race to write the evidence (a conflict) it calls Settle again for the same step, and
	// a bank or chain integration must then return the first outcome, not pay twice. It
	// is called for several orders at once (the Reconciler's workers), never for one
	// order twice at once.
	Settle(ctx context.Context, o *investv1.Order, step lifecycle.Step) (investv1.SettlementRecord, error)
}

// NotReadyError says the outside world has no evidence for the step yet, e.g. the
// customer's transfer has not arrived; the caller asks again after RetryAfter.
type NotReadyError struct {
	// Step is the evidence asked for.
	Step lifecycle.Step
	// RetryAfter is when asking again makes sense.
	RetryAfter time.Duration
}

// Error describes the wait.
func (e *NotReadyError) Error() string {
	return fmt.Sprintf("%s evidence not available yet, retry in %s", e.Step, e.RetryAfter)
}

// Sides is an Agent that hands each step to the agent of its side; a side without an
// agent refuses its steps. Reconcilers run one side each (Reconciler.Side); Sides is for
// code that walks a whole lifecycle in one place (simulations, benchmarks).
type Sides struct {
	Money, Token Agent
}

// Settle implements Agent.
func (s Sides) Settle(ctx context.Context, o *investv1.Order, step lifecycle.Step) (investv1.SettlementRecord, error) {
	a := s.Money
	if step.Side() == lifecycle.TokenSide {
		a = s.Token
	}
	if a == nil {
		return investv1.SettlementRecord{}, fmt.Errorf("no agent settles the %s side (step %s)", step.Side(), step)
	}
	return a.Settle(ctx, o, step)
}
