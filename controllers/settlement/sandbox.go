package settlement

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Reference prefixes of the sandbox, so sandbox money is never mistaken for real money.
const (
	// SandboxPaymentPrefix starts the reference of a payment the sandbox received.
	SandboxPaymentPrefix = "SBX-PAY-"
	// SandboxPayoutPrefix starts the reference of a payout the sandbox sent.
	SandboxPayoutPrefix = "SBX-OUT-"
	// SandboxRefundPrefix starts the reference of a refund the sandbox sent.
	SandboxRefundPrefix = "SBX-RFD-"
)

// Sandbox is the built-in money-side Agent of the local dev run: every fiat step
// (payment received, payout sent and completed, refund and residual refund sent and
// completed) succeeds after
// Delay with well-formed, random references, so orders walk their lifecycle without a
// bank. It settles no token step: those belong to the chain agent (controllers/delivery)
// or, where no chain is configured, to NoChainTokenSandbox.
type Sandbox struct {
	// Delay is how long the simulated outside world takes: Settle reports NotReadyError
	// until the order has been in its state that long.
	Delay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Name is recorded as recordedBy; empty means "sandbox".
	Name string
}

var _ Agent = (*Sandbox)(nil)

// Settle returns the evidence of a money step: references SBX-PAY-/SBX-OUT-/SBX-RFD-
// followed by 12 random base32 characters; the evidence of a completion repeats that of
// its start (the same payout or refund). A token step is refused.
func (s *Sandbox) Settle(ctx context.Context, o *investv1.Order, step lifecycle.Step) (investv1.SettlementRecord, error) {
	if step.Side() != lifecycle.MoneySide {
		return investv1.SettlementRecord{}, fmt.Errorf("sandbox: %s is a token step; the sandbox settles money only", step)
	}
	rec, err := sandboxRecord(ctx, o, step, s.Delay, s.Now, s.Name, "sandbox")
	if err != nil {
		return rec, err
	}
	switch step {
	case lifecycle.StepPaymentReceived:
		rec.Reference, err = reference(SandboxPaymentPrefix)
	case lifecycle.StepPaymentSent:
		rec.Reference, err = reference(SandboxPayoutPrefix)
	case lifecycle.StepPaymentCompleted:
		rec.Reference, err = sameReference(o.Status.Settlement.PaymentSent, SandboxPayoutPrefix)
	case lifecycle.StepRefundSent, lifecycle.StepResidualRefundSent:
		rec.Reference, err = reference(SandboxRefundPrefix)
	case lifecycle.StepRefundCompleted:
		rec.Reference, err = sameReference(o.Status.Settlement.RefundSent, SandboxRefundPrefix)
	case lifecycle.StepResidualRefundCompleted:
		rec.Reference, err = sameReference(o.Status.Settlement.ResidualRefundSent, SandboxRefundPrefix)
	default:
		return investv1.SettlementRecord{}, fmt.Errorf("sandbox: unknown settlement step %q", step)
	}
	if err != nil {
		return investv1.SettlementRecord{}, fmt.Errorf("sandbox: %s: %w", step, err)
	}
	return rec, nil
}

// NoChainTokenName is what NoChainTokenSandbox records as recordedBy by default: its
// transaction hashes name no transaction on any chain.
const NoChainTokenName = "sandbox-no-chain-not-real"

// NoChainTokenSandbox is NOT a token delivery: it invents transaction hashes for the token
// steps (delivery initiated and completed, tokens burned) that no chain has ever seen. It
// exists for the tests of other packages and for a run where no chain is configured, so
// that orders still walk their lifecycle; the manager runs it only when no chain is
// configured, and the chain agent (controllers/delivery) otherwise.
type NoChainTokenSandbox struct {
	// Delay is how long each step takes, as for Sandbox.
	Delay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Name is recorded as recordedBy; empty means NoChainTokenName.
	Name string
}

var _ Agent = (*NoChainTokenSandbox)(nil)

// Settle returns invented evidence of a token step: a transaction hash of 0x and 64 random
// hex digits; DeliveryCompleted repeats DeliveryInitiated's hash. A money step is refused.
func (s *NoChainTokenSandbox) Settle(ctx context.Context, o *investv1.Order, step lifecycle.Step) (investv1.SettlementRecord, error) {
	if step.Side() != lifecycle.TokenSide {
		return investv1.SettlementRecord{}, fmt.Errorf("no-chain token sandbox: %s is a money step", step)
	}
	rec, err := sandboxRecord(ctx, o, step, s.Delay, s.Now, s.Name, NoChainTokenName)
	if err != nil {
		return rec, err
	}
	if prev := o.Status.Settlement.DeliveryInitiated; step == lifecycle.StepDeliveryCompleted && prev != nil && prev.TransactionHash != "" {
		rec.TransactionHash = prev.TransactionHash
		return rec, nil
	}
	if rec.TransactionHash, err = transactionHash(); err != nil {
		return investv1.SettlementRecord{}, fmt.Errorf("no-chain token sandbox: %s: %w", step, err)
	}
	return rec, nil
}

// sandboxRecord checks the context and the delay and returns the record's time and name.
func sandboxRecord(ctx context.Context, o *investv1.Order, step lifecycle.Step, delay time.Duration, clock func() time.Time, name, def string) (investv1.SettlementRecord, error) {
	if err := ctx.Err(); err != nil {
		return investv1.SettlementRecord{}, err
	}
	if clock == nil {
		clock = time.Now
	}
	t := clock()
	if left := delay - t.Sub(lifecycle.StartedAt(o, step)); left > 0 {
		return investv1.SettlementRecord{}, &NotReadyError{Step: step, RetryAfter: left}
	}
	if name == "" {
		name = def
	}
	return investv1.SettlementRecord{At: metav1.NewTime(t.UTC().Truncate(time.Second)), RecordedBy: name}, nil
}

// sameReference is the reference of sent, the start a completion repeats; a new one of
// prefix when none was recorded.
func sameReference(sent *investv1.SettlementRecord, prefix string) (string, error) {
	if sent != nil && sent.Reference != "" {
		return sent.Reference, nil
	}
	return reference(prefix)
}

// reference is prefix and 12 characters of the base32 alphabet (A–Z, 2–7) from 60 random bits.
func reference(prefix string) (string, error) {
	var b [8]byte // 64 bits; base32 of 8 bytes is 13 characters before padding
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return prefix + base32.StdEncoding.EncodeToString(b[:])[:12], nil
}

// transactionHash is 0x and 64 lowercase hexadecimal digits from 32 random bytes.
func transactionHash() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "0x" + hex.EncodeToString(b[:]), nil
}
