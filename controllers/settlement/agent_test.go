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
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
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

func TestSandboxEvidenceIsWellFormed(t *testing.T) {
	sb := &Sandbox{Name: "sbx-test", Now: func() time.Time { return t0.Add(time.Minute) }}
	tokens := &NoChainTokenSandbox{Now: func() time.Time { return t0.Add(time.Minute) }}
	ctx := context.Background()
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		buy := order(investv1.SideBuy, investv1.StateAwaitingPayment)
		pay, err := sb.Settle(ctx, buy, lifecycle.StepPaymentReceived)
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

		di, err := tokens.Settle(ctx, buy, lifecycle.StepDeliveryInitiated)
		if err != nil || !hashRE.MatchString(di.TransactionHash) || di.Reference != "" {
			t.Fatalf("DeliveryInitiated = %+v, %v", di, err)
		}
		if seen[di.TransactionHash] {
			t.Fatalf("hash %s repeated", di.TransactionHash)
		}
		seen[di.TransactionHash] = true
		buy.Status.Settlement.DeliveryInitiated = &di
		dc, err := tokens.Settle(ctx, buy, lifecycle.StepDeliveryCompleted)
		if err != nil || dc.TransactionHash != di.TransactionHash {
			t.Fatalf("DeliveryCompleted = %+v, %v; want the hash of the initiated transfer", dc, err)
		}

		sell := order(investv1.SideSell, investv1.StateExecuted)
		ps, err := sb.Settle(ctx, sell, lifecycle.StepPaymentSent)
		if err != nil || !payoutRE.MatchString(ps.Reference) || ps.TransactionHash != "" {
			t.Fatalf("PaymentSent = %+v, %v", ps, err)
		}
		sell.Status.Settlement.PaymentSent = &ps
		pc, err := sb.Settle(ctx, sell, lifecycle.StepPaymentCompleted)
		if err != nil || pc.Reference != ps.Reference {
			t.Fatalf("PaymentCompleted = %+v, %v; want the payout's reference", pc, err)
		}
	}
	// Completions without their start still get well-formed evidence.
	if dc, _ := tokens.Settle(ctx, order(investv1.SideBuy, investv1.StateDeliveryInitiated), lifecycle.StepDeliveryCompleted); !hashRE.MatchString(dc.TransactionHash) {
		t.Errorf("DeliveryCompleted alone = %+v", dc)
	}
	if pc, _ := sb.Settle(ctx, order(investv1.SideSell, investv1.StatePaymentSent), lifecycle.StepPaymentCompleted); !payoutRE.MatchString(pc.Reference) {
		t.Errorf("PaymentCompleted alone = %+v", pc)
	}
	if _, err := sb.Settle(ctx, order(investv1.SideBuy, investv1.StateExecuted), "Bogus"); err == nil {
		t.Error("unknown step settled")
	}
	if rec, _ := (&Sandbox{}).Settle(ctx, order(investv1.SideBuy, investv1.StateAwaitingPayment), lifecycle.StepPaymentReceived); rec.RecordedBy != "sandbox" {
		t.Errorf("default recordedBy %q", rec.RecordedBy)
	}
}

func TestStepsSplitIntoTheMoneySideAndTheTokenSide(t *testing.T) {
	want := map[lifecycle.Step]lifecycle.Side{
		lifecycle.StepPaymentReceived: lifecycle.MoneySide, lifecycle.StepPaymentSent: lifecycle.MoneySide, lifecycle.StepPaymentCompleted: lifecycle.MoneySide,
		lifecycle.StepRefundSent: lifecycle.MoneySide, lifecycle.StepRefundCompleted: lifecycle.MoneySide,
		lifecycle.StepDeliveryInitiated: lifecycle.TokenSide, lifecycle.StepDeliveryCompleted: lifecycle.TokenSide, lifecycle.StepTokensBurned: lifecycle.TokenSide,
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
		if (moneyErr == nil) != (side == lifecycle.MoneySide) || (tokenErr == nil) != (side == lifecycle.TokenSide) {
			t.Errorf("%s: sandbox error %v, no-chain token sandbox error %v: each settles its own side only", step, moneyErr, tokenErr)
		}
		if got, err := (Sides{Money: sb, Token: tokens}).Settle(ctx, o, step); err != nil || got.RecordedBy == "" {
			t.Errorf("Sides.Settle(%s) = %+v, %v", step, got, err)
		}
	}
	if rec, _ := tokens.Settle(ctx, order(investv1.SideSell, investv1.StateExecuted), lifecycle.StepTokensBurned); rec.RecordedBy != NoChainTokenName || !hashRE.MatchString(rec.TransactionHash) {
		t.Errorf("no-chain TokensBurned = %+v: want an invented hash recorded by %s", rec, NoChainTokenName)
	}
}

func TestSandboxIsNotReadyBeforeItsDelay(t *testing.T) {
	now := t0.Add(20 * time.Second)
	sb := &Sandbox{Delay: time.Minute, Now: func() time.Time { return now }}
	o := order(investv1.SideBuy, investv1.StateAwaitingPayment)
	_, err := sb.Settle(context.Background(), o, lifecycle.StepPaymentReceived)
	var nr *NotReadyError
	if !errors.As(err, &nr) || nr.RetryAfter != 40*time.Second || nr.Step != lifecycle.StepPaymentReceived || nr.Error() == "" {
		t.Fatalf("Settle before the delay: %v, want NotReadyError retrying in 40s", err)
	}
	now = t0.Add(time.Minute)
	if _, err := sb.Settle(context.Background(), o, lifecycle.StepPaymentReceived); err != nil {
		t.Fatalf("Settle after the delay: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sb.Settle(ctx, o, lifecycle.StepPaymentReceived); !errors.Is(err, context.Canceled) {
		t.Fatalf("Settle with a cancelled context: %v", err)
	}
}

// TestARefundIsSettledSentThenCompletedOnce: a cancelled buy with a refund asks for
// RefundSent, then RefundCompleted, then nothing; a cancelled order without a refund asks
// for nothing.
func TestARefundIsSettledSentThenCompletedOnce(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateCancelled)
	o.Spec.CancellationRequested = true
	if step, ok := lifecycle.NextStep(o); ok {
		t.Fatalf("cancelled without a refund: NextStep = %q", step)
	}
	o.Status.Refund = &investv1.OrderRefund{Amount: 100, Currency: "EUR", Reference: "RF-1"}
	step, ok := lifecycle.NextStep(o)
	if !ok || step != lifecycle.StepRefundSent {
		t.Fatalf("refund owed: NextStep = %q, %v; want RefundSent", step, ok)
	}
	sb := &Sandbox{Now: func() time.Time { return t0.Add(time.Hour) }}
	sent, err := sb.Settle(context.Background(), o, lifecycle.StepRefundSent)
	if err != nil || !strings.HasPrefix(sent.Reference, SandboxRefundPrefix) {
		t.Fatalf("Settle(RefundSent) = %+v, %v", sent, err)
	}
	if !lifecycle.Record(o, lifecycle.StepRefundSent, sent) || lifecycle.Record(o, lifecycle.StepRefundSent, sent) {
		t.Fatal("RefundSent is recorded once")
	}
	if step, ok := lifecycle.NextStep(o); !ok || step != lifecycle.StepRefundCompleted {
		t.Fatalf("refund sent: NextStep = %q, %v; want RefundCompleted", step, ok)
	}
	done, err := sb.Settle(context.Background(), o, lifecycle.StepRefundCompleted)
	if err != nil || done.Reference != sent.Reference {
		t.Fatalf("Settle(RefundCompleted) = %+v, %v; want the reference %s", done, err, sent.Reference)
	}
	lifecycle.Record(o, lifecycle.StepRefundCompleted, done)
	if step, ok := lifecycle.NextStep(o); ok {
		t.Fatalf("refund completed: NextStep = %q", step)
	}
}

// TestARefundCompletesNoSoonerThanTheDelayAfterItWasSent.
func TestARefundCompletesNoSoonerThanTheDelayAfterItWasSent(t *testing.T) {
	o := order(investv1.SideBuy, investv1.StateCancelled)
	o.Status.Refund = &investv1.OrderRefund{Amount: 100, Currency: "EUR", Reference: "RF-1"}
	sentAt := t0.Add(10 * time.Minute)
	o.Status.Settlement.RefundSent = &investv1.SettlementRecord{Reference: "SBX-RFD-X", At: metav1.NewTime(sentAt)}
	if got := lifecycle.StartedAt(o, lifecycle.StepRefundCompleted); !got.Equal(sentAt) {
		t.Fatalf("StartedAt(RefundCompleted) = %s, want %s", got, sentAt)
	}
	sb := &Sandbox{Delay: time.Minute, Now: func() time.Time { return sentAt.Add(30 * time.Second) }}
	var notReady *NotReadyError
	if _, err := sb.Settle(context.Background(), o, lifecycle.StepRefundCompleted); !errors.As(err, &notReady) {
		t.Fatalf("Settle before the delay = %v, want NotReadyError", err)
	}
}
