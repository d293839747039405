package lifecycle

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func stepOrder(side investv1.OrderSide, state investv1.OrderState) *investv1.Order {
	o := &investv1.Order{Spec: investv1.OrderSpec{Side: side, Market: investv1.MarketPrimary}}
	o.Status.State = state
	if state != "" {
		o.Status.History = []investv1.OrderTransition{{State: state, At: metav1.NewTime(t0), Reason: "Test"}}
	}
	return o
}

func TestStepsSplitIntoTheMoneySideAndTheTokenSide(t *testing.T) {
	want := map[Step]Side{
		StepPaymentReceived: MoneySide, StepPaymentSent: MoneySide, StepPaymentCompleted: MoneySide,
		StepRefundSent: MoneySide, StepRefundCompleted: MoneySide,
		StepDeliveryInitiated: TokenSide, StepDeliveryCompleted: TokenSide, StepTokensBurned: TokenSide,
	}
	for step, side := range want {
		if step.Side() != side {
			t.Errorf("%s is on the %s side, want %s", step, step.Side(), side)
		}
	}
}

func TestNextStep(t *testing.T) {
	states := []investv1.OrderState{"", investv1.StatePlaced, investv1.StateAwaitingPayment,
		investv1.StatePaymentReceived, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted,
		investv1.StatePaymentSent, investv1.StatePaymentCompleted, investv1.StateRedemptionGated,
		investv1.StateExecuted, investv1.StateCompleted, investv1.StateCancelled}
	want := map[investv1.OrderSide]map[investv1.OrderState]Step{
		investv1.SideBuy: {
			investv1.StateAwaitingPayment:   StepPaymentReceived,
			investv1.StateExecuted:          StepDeliveryInitiated,
			investv1.StateDeliveryInitiated: StepDeliveryCompleted,
		},
		investv1.SideSell: {
			investv1.StateExecuted:    StepTokensBurned,
			investv1.StatePaymentSent: StepPaymentCompleted,
		},
	}
	for side, steps := range want {
		for _, state := range states {
			o := stepOrder(side, state)
			step, ok := NextStep(o)
			w, wantOK := steps[state]
			if ok != wantOK || step != w {
				t.Errorf("%s %q: NextStep = %q, %v; want %q, %v", side, state, step, ok, w, wantOK)
			}
			if !wantOK {
				continue
			}
			// Recorded evidence is not asked for again.
			Record(o, w, investv1.SettlementRecord{Reference: "R", At: metav1.NewTime(t0)})
			if step, ok := NextStep(o); ok && step == w {
				t.Errorf("%s %q with evidence: NextStep = %q", side, state, step)
			}
			// Nor is anything asked for an order about to be cancelled.
			c := stepOrder(side, state)
			c.Spec.CancellationRequested = true
			if step, ok := NextStep(c); ok {
				t.Errorf("%s %q cancelling: NextStep = %q", side, state, step)
			}
		}
	}
	if step, ok := NextStep(stepOrder("HOLD", investv1.StateExecuted)); ok {
		t.Errorf("unknown side: NextStep = %q", step)
	}
}

func TestNextStepIgnoresEvidenceOfOtherSteps(t *testing.T) {
	o := stepOrder(investv1.SideBuy, investv1.StateExecuted)
	o.Status.Settlement.DeliveryCompleted = &investv1.SettlementRecord{At: metav1.NewTime(t0)} // ahead of its time
	if step, ok := NextStep(o); !ok || step != StepDeliveryInitiated {
		t.Fatalf("NextStep = %q, %v; want DeliveryInitiated", step, ok)
	}
}

func TestRecordSetsTheStepsFieldOnce(t *testing.T) {
	fields := map[Step]func(e *investv1.SettlementEvidence) *investv1.SettlementRecord{
		StepPaymentReceived:   func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentReceived },
		StepDeliveryInitiated: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.DeliveryInitiated },
		StepDeliveryCompleted: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.DeliveryCompleted },
		StepPaymentSent:       func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentSent },
		StepPaymentCompleted:  func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentCompleted },
	}
	for step, get := range fields {
		o := &investv1.Order{}
		first := investv1.SettlementRecord{Reference: "first", At: metav1.NewTime(t0)}
		if !Record(o, step, first) {
			t.Errorf("%s: first Record refused", step)
		}
		if Record(o, step, investv1.SettlementRecord{Reference: "second"}) {
			t.Errorf("%s: second Record accepted", step)
		}
		got := get(&o.Status.Settlement)
		if got == nil || got.Reference != "first" {
			t.Errorf("%s: field holds %+v, want the first record", step, got)
		}
		if Recorded(o, step) != got {
			t.Errorf("%s: Recorded does not return the field", step)
		}
		set := 0
		for _, g := range fields {
			if g(&o.Status.Settlement) != nil {
				set++
			}
		}
		if set != 1 {
			t.Errorf("%s: %d fields set, want 1", step, set)
		}
	}
	if Record(&investv1.Order{}, "Bogus", investv1.SettlementRecord{}) || Recorded(&investv1.Order{}, "Bogus") != nil {
		t.Error("unknown step recorded")
	}
}

func TestASellIsPaidOutOnlyAfterItsTokensAreBurned(t *testing.T) {
	o := stepOrder(investv1.SideSell, investv1.StateExecuted)
	if step, _ := NextStep(o); step != StepTokensBurned {
		t.Fatalf("EXECUTED sell: NextStep = %q, want TokensBurned before any payout", step)
	}
	Record(o, StepTokensBurned, investv1.SettlementRecord{TransactionHash: "0x" + strings.Repeat("ab", 32), At: metav1.NewTime(t0)})
	if step, ok := NextStep(o); !ok || step != StepPaymentSent {
		t.Fatalf("burned sell: NextStep = %q, %v; want PaymentSent", step, ok)
	}
}

func TestEnteredAt(t *testing.T) {
	o := stepOrder(investv1.SideBuy, investv1.StateExecuted)
	o.Status.History = append([]investv1.OrderTransition{{State: investv1.StatePlaced, At: metav1.NewTime(t0.Add(-time.Hour))}}, o.Status.History...)
	if !EnteredAt(o).Equal(t0) {
		t.Errorf("EnteredAt = %v, want the last entry %v", EnteredAt(o), t0)
	}
	o.Status.History = nil
	o.CreationTimestamp = metav1.NewTime(t0.Add(-2 * time.Hour))
	if !EnteredAt(o).Equal(t0.Add(-2 * time.Hour)) {
		t.Errorf("EnteredAt without history = %v, want the creation time", EnteredAt(o))
	}
}
