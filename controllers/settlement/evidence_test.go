package settlement

import (
	"fmt"
	"slices"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// TestEveryStepAnAgentIsAskedForIsAdmitted: whatever the order the lifecycle can produce
// (side, state, with or without a refund, a residual or a cancellation request, any evidence already
// recorded, also ahead of the state), the step
// NextStep asks an agent for is evidence that admission lets it record (lifecycle.CheckEvidence,
// decided on the order as the agent read it: the agents patch with its resourceVersion).
// So the agents never meet the refusal in normal operation.
func TestEveryStepAnAgentIsAskedForIsAdmitted(t *testing.T) {
	states := []investv1.OrderState{"", investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived,
		investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted, investv1.StateRedemptionGated,
		investv1.StatePaymentSent, investv1.StatePaymentCompleted, investv1.StateCompleted, investv1.StateCancelled}
	fields := lifecycle.EvidenceFields()
	unitsDelivered := slices.Index(fields, "unitsDelivered")
	asked := map[lifecycle.Step]bool{}
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		for _, state := range states {
			for _, refund := range []bool{false, true} {
				for _, cancelling := range []bool{false, true} {
					for mask := range 1 << len(fields) {
						for _, onWindow := range []bool{false, true} {
							// unitsDelivered belongs to a SECONDARY SELL only, and a
							// SECONDARY BUY settles with a PRIMARY one's evidence: the
							// rest is unreachable or walked already.
							if !onWindow && mask&(1<<unitsDelivered) != 0 || onWindow && side == investv1.SideBuy {
								continue
							}
							for _, residual := range []bool{false, true} {
								o := order(side, state)
								if onWindow {
									// A SECONDARY order of a matching window: a SELL's units are
									// delivered to its buyers instead of burned.
									o.Spec.Market = investv1.MarketSecondary
									o.Spec.Quote = &investv1.OrderQuote{Window: &investv1.OrderWindow{Date: "2026-03-10"}}
								}
								o.Spec.CancellationRequested = cancelling
								if refund {
									o.Status.Refund = &investv1.OrderRefund{Amount: 1, Currency: "EUR", Reference: "RF-1"}
								}
								if residual {
									o.Status.Strike = &investv1.OrderContractNote{Units: 1, Residual: 100, ResidualReference: "RS-1"}
								}
								var recorded []string
								for i, f := range fields {
									if mask&(1<<i) != 0 {
										lifecycle.Record(o, stepOf(t, f), investv1.SettlementRecord{Reference: "R", TransactionHash: txHash})
										recorded = append(recorded, f)
									}
								}
								if !reachable(o) {
									continue
								}
								step, ok := lifecycle.NextStep(o)
								if !ok {
									continue
								}
								asked[step] = true
								written := o.DeepCopy()
								lifecycle.Record(written, step, investv1.SettlementRecord{Reference: "R", TransactionHash: txHash})
								if refused := lifecycle.CheckEvidence(o, written.Status.Settlement); len(refused) > 0 {
									t.Errorf("%s %s refund=%v cancelling=%v residual=%v secondary=%v recorded=%v: NextStep asks for %s, admission refuses it: %+v",
										side, state, refund, cancelling, residual, onWindow, recorded, step, refused)
								}
							}
						}
					}
				}
			}
		}
	}
	for _, f := range fields {
		if s := stepOf(t, f); !asked[s] {
			t.Errorf("NextStep never asked for %s: the walk above does not cover it", s)
		}
	}
}

// reachable reports whether the lifecycle can produce o: the evidence that moved it out
// of each state it has left is recorded (lifecycle.Next moves on nothing else), a refund is
// fixed only on a cancelled BUY whose payment was recorded, and refund evidence exists only
// with a refund. A state of the other side's lifecycle is not reachable.
func reachable(o *investv1.Order) bool {
	ev := o.Status.Settlement
	needs := map[investv1.OrderSide]map[investv1.OrderState][]*investv1.SettlementRecord{
		investv1.SideBuy: {
			"": nil, investv1.StatePlaced: nil, investv1.StateAwaitingPayment: nil, investv1.StateCancelled: nil,
			investv1.StatePaymentReceived:   {ev.PaymentReceived},
			investv1.StateExecuted:          {ev.PaymentReceived},
			investv1.StateDeliveryInitiated: {ev.PaymentReceived, ev.DeliveryInitiated},
			investv1.StateDeliveryCompleted: {ev.PaymentReceived, ev.DeliveryInitiated, ev.DeliveryCompleted},
			investv1.StateCompleted:         {ev.PaymentReceived, ev.DeliveryInitiated, ev.DeliveryCompleted},
		},
		investv1.SideSell: {
			"": nil, investv1.StatePlaced: nil, investv1.StateRedemptionGated: nil, investv1.StateExecuted: nil, investv1.StateCancelled: nil,
			investv1.StatePaymentSent:      {ev.PaymentSent},
			investv1.StatePaymentCompleted: {ev.PaymentSent, ev.PaymentCompleted},
			investv1.StateCompleted:        {ev.PaymentSent, ev.PaymentCompleted},
		},
	}[o.Spec.Side]
	// A SECONDARY order is never burned, and only a SECONDARY SELL's units are delivered
	// (before its payout).
	if lifecycle.Secondary(o) && ev.TokensBurned != nil || !lifecycle.Secondary(o) && ev.UnitsDelivered != nil {
		return false
	}
	if lifecycle.Secondary(o) && o.Spec.Side == investv1.SideSell && ev.PaymentSent != nil && ev.UnitsDelivered == nil {
		return false
	}
	need, ok := needs[o.Status.State]
	if !ok {
		return false
	}
	for _, r := range need {
		if r == nil {
			return false
		}
	}
	if o.Status.Refund != nil && (o.Spec.Side != investv1.SideBuy || o.Status.State != investv1.StateCancelled || ev.PaymentReceived == nil) {
		return false
	}
	// Residual evidence only with a residual; a BUY with one is COMPLETED only once it arrived.
	if !lifecycle.ResidualOwed(o) && (ev.ResidualRefundSent != nil || ev.ResidualRefundCompleted != nil) {
		return false
	}
	if lifecycle.ResidualOwed(o) && o.Status.State == investv1.StateCompleted && ev.ResidualRefundCompleted == nil {
		return false
	}
	return o.Status.Refund != nil || (ev.RefundSent == nil && ev.RefundCompleted == nil)
}

const txHash = "0x1111111111111111111111111111111111111111111111111111111111111111"

// stepOf is the Step whose evidence is status.settlement's field f.
func stepOf(t *testing.T, f string) lifecycle.Step {
	t.Helper()
	for _, s := range []lifecycle.Step{lifecycle.StepPaymentReceived, lifecycle.StepDeliveryInitiated, lifecycle.StepDeliveryCompleted, lifecycle.StepTokensBurned, lifecycle.StepUnitsDelivered,
		lifecycle.StepPaymentSent, lifecycle.StepPaymentCompleted, lifecycle.StepRefundSent, lifecycle.StepRefundCompleted,
		lifecycle.StepResidualRefundSent, lifecycle.StepResidualRefundCompleted} {
		o := &investv1.Order{}
		lifecycle.Record(o, s, investv1.SettlementRecord{})
		if lifecycle.EvidenceRecord(&o.Status.Settlement, f) != nil {
			return s
		}
	}
	t.Fatalf("no step records %s", f)
	panic(fmt.Sprintf("unreachable: %s", f))
}
