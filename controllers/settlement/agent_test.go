package settlement

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

var (
	hashRE    = regexp.MustCompile(`^0x[0-9a-f]{64}$`)
	paymentRE = regexp.MustCompile(`^SBX-PAY-[A-Z2-7]{12}$`)
	payoutRE  = regexp.MustCompile(`^SBX-OUT-[A-Z2-7]{12}$`)
	t0        = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
)

func order(side investv1.OrderSide, state investv1.OrderState) *investv1.Order {
	o := &investv1.Order{Spec: investv1.OrderSpec{Side: side, Market: investv1.MarketPrimary}}
	o.Status.State = state
	if state != "" {
		o.Status.History = []investv1.OrderTransition{{State: state, At: metav1.NewTime(t0), Reason: "Test"}}
	}
	return o
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
			o := order(side, state)
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
			c := order(side, state)
			c.Spec.CancellationRequested = true
			if step, ok := NextStep(c); ok {
				t.Errorf("%s %q cancelling: NextStep = %q", side, state, step)
			}
		}
	}
	if step, ok := NextStep(order("HOLD", investv1.StateExecuted)); ok {
		t.Errorf("unknown side: NextStep = %q", step)
	}
}

func TestNextStepIgnoresEvidenceOfOtherSteps(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateExecuted)
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

func TestSandboxEvidenceIsWellFormed(t *testing.T) {
	sb := &Sandbox{Name: "sbx-test", Now: func() time.Time { return t0.Add(time.Minute) }}
	tokens := &NoChainTokenSandbox{Now: func() time.Time { return t0.Add(time.Minute) }}
	ctx := context.Background()
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		buy := order(investv1.SideBuy, investv1.StateAwaitingPayment)
		pay, err := sb.Settle(ctx, buy, StepPaymentReceived)
		if err != nil || !paymentRE.MatchString(pay.Reference) || pay.TransactionHash != "" {
			t.Fatalf("PaymentReceived = %+v, %v", pay, err)
		}
		if seen[pay.Reference] {
			t.Fatalf("reference %s repeated", pay.Reference)
		}
		seen[pay.Reference] = true
		if pay.RecordedBy != "sbx-test" || !pay.At.Time.Equal(t0.Add(time.Minute)) {
			t.Fatalf("PaymentReceived recordedBy %q at %v", pay.RecordedBy, pay.At)
		}

		di, err := tokens.Settle(ctx, buy, StepDeliveryInitiated)
		if err != nil || !hashRE.MatchString(di.TransactionHash) || di.Reference != "" {
			t.Fatalf("DeliveryInitiated = %+v, %v", di, err)
		}
		if seen[di.TransactionHash] {
			t.Fatalf("hash %s repeated", di.TransactionHash)
		}
		seen[di.TransactionHash] = true
		buy.Status.Settlement.DeliveryInitiated = &di
		dc, err := tokens.Settle(ctx, buy, StepDeliveryCompleted)
		if err != nil || dc.TransactionHash != di.TransactionHash {
			t.Fatalf("DeliveryCompleted = %+v, %v; want the hash of the initiated transfer", dc, err)
		}

		sell := order(investv1.SideSell, investv1.StateExecuted)
		ps, err := sb.Settle(ctx, sell, StepPaymentSent)
		if err != nil || !payoutRE.MatchString(ps.Reference) || ps.TransactionHash != "" {
			t.Fatalf("PaymentSent = %+v, %v", ps, err)
		}
		sell.Status.Settlement.PaymentSent = &ps
		pc, err := sb.Settle(ctx, sell, StepPaymentCompleted)
		if err != nil || pc.Reference != ps.Reference {
			t.Fatalf("PaymentCompleted = %+v, %v; want the payout's reference", pc, err)
		}
	}
	// Completions without their start still get well-formed evidence.
	if dc, _ := tokens.Settle(ctx, order(investv1.SideBuy, investv1.StateDeliveryInitiated), StepDeliveryCompleted); !hashRE.MatchString(dc.TransactionHash) {
		t.Errorf("DeliveryCompleted alone = %+v", dc)
	}
	if pc, _ := sb.Settle(ctx, order(investv1.SideSell, investv1.StatePaymentSent), StepPaymentCompleted); !payoutRE.MatchString(pc.Reference) {
		t.Errorf("PaymentCompleted alone = %+v", pc)
	}
	if _, err := sb.Settle(ctx, order(investv1.SideBuy, investv1.StateExecuted), "Bogus"); err == nil {
		t.Error("unknown step settled")
	}
	if rec, _ := (&Sandbox{}).Settle(ctx, order(investv1.SideBuy, investv1.StateAwaitingPayment), StepPaymentReceived); rec.RecordedBy != "sandbox" {
		t.Errorf("default recordedBy %q", rec.RecordedBy)
	}
}

func TestStepsSplitIntoTheMoneySideAndTheTokenSide(t *testing.T) {
	want := map[Step]Side{
		StepPaymentReceived: MoneySide, StepPaymentSent: MoneySide, StepPaymentCompleted: MoneySide,
		StepRefundSent: MoneySide, StepRefundCompleted: MoneySide,
		StepDeliveryInitiated: TokenSide, StepDeliveryCompleted: TokenSide, StepTokensBurned: TokenSide,
	}
	ctx := context.Background()
	sb := &Sandbox{Now: func() time.Time { return t0.Add(time.Hour) }}
	tokens := &NoChainTokenSandbox{Now: func() time.Time { return t0.Add(time.Hour) }}
	for step, side := range want {
		if step.Side() != side {
			t.Errorf("%s is on the %s side, want %s", step, step.Side(), side)
		}
		o := order(investv1.SideBuy, investv1.StateExecuted)
		_, moneyErr := sb.Settle(ctx, o, step)
		_, tokenErr := tokens.Settle(ctx, o, step)
		if (moneyErr == nil) != (side == MoneySide) || (tokenErr == nil) != (side == TokenSide) {
			t.Errorf("%s: sandbox error %v, no-chain token sandbox error %v: each settles its own side only", step, moneyErr, tokenErr)
		}
		if got, err := (Sides{Money: sb, Token: tokens}).Settle(ctx, o, step); err != nil || got.RecordedBy == "" {
			t.Errorf("Sides.Settle(%s) = %+v, %v", step, got, err)
		}
	}
	if rec, _ := tokens.Settle(ctx, order(investv1.SideSell, investv1.StateExecuted), StepTokensBurned); rec.RecordedBy != NoChainTokenName || !hashRE.MatchString(rec.TransactionHash) {
		t.Errorf("no-chain TokensBurned = %+v: want an invented hash recorded by %s", rec, NoChainTokenName)
	}
}

func TestASellIsPaidOutOnlyAfterItsTokensAreBurned(t *testing.T) {
	o := order(investv1.SideSell, investv1.StateExecuted)
	if step, _ := NextStep(o); step != StepTokensBurned {
		t.Fatalf("EXECUTED sell: NextStep = %q, want TokensBurned before any payout", step)
	}
	Record(o, StepTokensBurned, investv1.SettlementRecord{TransactionHash: "0x" + strings.Repeat("ab", 32), At: metav1.NewTime(t0)})
	if step, ok := NextStep(o); !ok || step != StepPaymentSent {
		t.Fatalf("burned sell: NextStep = %q, %v; want PaymentSent", step, ok)
	}
}

func TestSandboxIsNotReadyBeforeItsDelay(t *testing.T) {
	now := t0.Add(20 * time.Second)
	sb := &Sandbox{Delay: time.Minute, Now: func() time.Time { return now }}
	o := order(investv1.SideBuy, investv1.StateAwaitingPayment)
	_, err := sb.Settle(context.Background(), o, StepPaymentReceived)
	var nr *NotReadyError
	if !errors.As(err, &nr) || nr.RetryAfter != 40*time.Second || nr.Step != StepPaymentReceived || nr.Error() == "" {
		t.Fatalf("Settle before the delay: %v, want NotReadyError retrying in 40s", err)
	}
	now = t0.Add(time.Minute)
	if _, err := sb.Settle(context.Background(), o, StepPaymentReceived); err != nil {
		t.Fatalf("Settle after the delay: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sb.Settle(ctx, o, StepPaymentReceived); !errors.Is(err, context.Canceled) {
		t.Fatalf("Settle with a cancelled context: %v", err)
	}
}

func TestEnteredAt(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateExecuted)
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

// TestARefundIsSettledSentThenCompletedOnce: a cancelled buy with a refund asks for
// RefundSent, then RefundCompleted, then nothing; a cancelled order without a refund asks
// for nothing.
func TestARefundIsSettledSentThenCompletedOnce(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateCancelled)
	o.Spec.CancellationRequested = true
	if step, ok := NextStep(o); ok {
		t.Fatalf("cancelled without a refund: NextStep = %q", step)
	}
	o.Status.Refund = &investv1.OrderRefund{Amount: 100, Currency: "EUR", Reference: "RF-1"}
	step, ok := NextStep(o)
	if !ok || step != StepRefundSent {
		t.Fatalf("refund owed: NextStep = %q, %v; want RefundSent", step, ok)
	}
	sb := &Sandbox{Now: func() time.Time { return t0.Add(time.Hour) }}
	sent, err := sb.Settle(context.Background(), o, StepRefundSent)
	if err != nil || !strings.HasPrefix(sent.Reference, SandboxRefundPrefix) {
		t.Fatalf("Settle(RefundSent) = %+v, %v", sent, err)
	}
	if !Record(o, StepRefundSent, sent) || Record(o, StepRefundSent, sent) {
		t.Fatal("RefundSent is recorded once")
	}
	if step, ok := NextStep(o); !ok || step != StepRefundCompleted {
		t.Fatalf("refund sent: NextStep = %q, %v; want RefundCompleted", step, ok)
	}
	done, err := sb.Settle(context.Background(), o, StepRefundCompleted)
	if err != nil || done.Reference != sent.Reference {
		t.Fatalf("Settle(RefundCompleted) = %+v, %v; want the reference %s", done, err, sent.Reference)
	}
	Record(o, StepRefundCompleted, done)
	if step, ok := NextStep(o); ok {
		t.Fatalf("refund completed: NextStep = %q", step)
	}
}

// TestARefundCompletesNoSoonerThanTheDelayAfterItWasSent.
func TestARefundCompletesNoSoonerThanTheDelayAfterItWasSent(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateCancelled)
	o.Status.Refund = &investv1.OrderRefund{Amount: 100, Currency: "EUR", Reference: "RF-1"}
	sentAt := t0.Add(10 * time.Minute)
	o.Status.Settlement.RefundSent = &investv1.SettlementRecord{Reference: "SBX-RFD-X", At: metav1.NewTime(sentAt)}
	if got := StartedAt(o, StepRefundCompleted); !got.Equal(sentAt) {
		t.Fatalf("StartedAt(RefundCompleted) = %s, want %s", got, sentAt)
	}
	sb := &Sandbox{Delay: time.Minute, Now: func() time.Time { return sentAt.Add(30 * time.Second) }}
	var notReady *NotReadyError
	if _, err := sb.Settle(context.Background(), o, StepRefundCompleted); !errors.As(err, &notReady) {
		t.Fatalf("Settle before the delay = %v, want NotReadyError", err)
	}
}
