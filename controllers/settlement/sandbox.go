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

// Sandbox is the built-in Agent of the local dev run: every step succeeds after Delay,
// with well-formed, random evidence, so orders walk their whole lifecycle without a bank
// or a chain.
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

// Settle returns the evidence of the step: payment references SBX-PAY-/SBX-OUT-/SBX-RFD- followed
// by 12 random base32 characters, transaction hashes 0x and 64 random hex digits. The
// evidence of a completion repeats that of its start (the same transfer or payout).
func (s *Sandbox) Settle(ctx context.Context, o *investv1.Order, step Step) (investv1.SettlementRecord, error) {
	if err := ctx.Err(); err != nil {
		return investv1.SettlementRecord{}, err
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	t := now()
	if left := s.Delay - t.Sub(StartedAt(o, step)); left > 0 {
		return investv1.SettlementRecord{}, &NotReadyError{Step: step, RetryAfter: left}
	}
	name := s.Name
	if name == "" {
		name = "sandbox"
	}
	rec := investv1.SettlementRecord{At: metav1.NewTime(t.UTC().Truncate(time.Second)), RecordedBy: name}
	var err error
	switch step {
	case StepPaymentReceived:
		rec.Reference, err = reference(SandboxPaymentPrefix)
	case StepDeliveryInitiated:
		rec.TransactionHash, err = transactionHash()
	case StepDeliveryCompleted:
		if prev := o.Status.Settlement.DeliveryInitiated; prev != nil && prev.TransactionHash != "" {
			rec.TransactionHash = prev.TransactionHash
		} else {
			rec.TransactionHash, err = transactionHash()
		}
	case StepPaymentSent:
		rec.Reference, err = reference(SandboxPayoutPrefix)
	case StepPaymentCompleted:
		if prev := o.Status.Settlement.PaymentSent; prev != nil && prev.Reference != "" {
			rec.Reference = prev.Reference
		} else {
			rec.Reference, err = reference(SandboxPayoutPrefix)
		}
	case StepRefundSent:
		rec.Reference, err = reference(SandboxRefundPrefix)
	case StepRefundCompleted:
		if prev := o.Status.Settlement.RefundSent; prev != nil && prev.Reference != "" {
			rec.Reference = prev.Reference
		} else {
			rec.Reference, err = reference(SandboxRefundPrefix)
		}
	default:
		return investv1.SettlementRecord{}, fmt.Errorf("sandbox: unknown settlement step %q", step)
	}
	if err != nil {
		return investv1.SettlementRecord{}, fmt.Errorf("sandbox: %s: %w", step, err)
	}
	return rec, nil
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
