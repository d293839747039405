package lifecycle

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// outcome of Cancellable, for the table.
type cancelOutcome string

const (
	cancelOK       cancelOutcome = "cancel"
	cancelRefund   cancelOutcome = "cancel with refund"
	refusedPNR     cancelOutcome = "refused: past the point of no return"
	refusedTerm    cancelOutcome = "refused: terminal"
	refusedInvalid cancelOutcome = "refused: invalid state"
	refusedFlight  cancelOutcome = "refused: burn in flight"
)

func outcomeOf(o *investv1.Order) (cancelOutcome, string) {
	ok, refund, reason := Cancellable(o)
	kind := CancelRefusalOf(o)
	if ok != (kind == RefusalNone) {
		return "inconsistent: " + cancelOutcome(kind), reason
	}
	switch {
	case ok && refund:
		return cancelRefund, reason
	case ok:
		return cancelOK, reason
	case kind == RefusalTerminal:
		return refusedTerm, reason
	case kind == RefusalPastPointOfNoReturn:
		return refusedPNR, reason
	case kind == RefusalBurnInFlight:
		return refusedFlight, reason
	}
	return refusedInvalid, reason
}

// TestCancellationHasAPointOfNoReturn is the cancellation table: every side × state.
func TestCancellationHasAPointOfNoReturn(t *testing.T) {
	table := map[investv1.OrderSide]map[investv1.OrderState]cancelOutcome{
		investv1.SideBuy: {
			"":                               cancelOK,
			investv1.StatePlaced:             cancelOK,
			investv1.StateAwaitingPayment:    cancelOK,
			investv1.StatePaymentReceived:    cancelRefund,
			investv1.StateExecuted:           refusedPNR,
			investv1.StateDeliveryInitiated:  refusedPNR,
			investv1.StateDeliveryCompleted:  refusedPNR,
			investv1.StateCompleted:          refusedTerm,
			investv1.StateCancelled:          refusedTerm,
			investv1.StateRedemptionGated:    refusedInvalid,
			investv1.StatePaymentSent:        refusedInvalid,
			investv1.StatePaymentCompleted:   refusedInvalid,
			investv1.OrderState("SOMETHING"): refusedInvalid,
		},
		investv1.SideSell: {
			"":                               cancelOK,
			investv1.StatePlaced:             cancelOK,
			investv1.StateRedemptionGated:    cancelOK,
			investv1.StateExecuted:           cancelOK, // nothing burned or paid yet: see TestASellIsCancellableUntilItsFirstBurnOrPayout
			investv1.StatePaymentSent:        refusedPNR,
			investv1.StatePaymentCompleted:   refusedPNR,
			investv1.StateCompleted:          refusedTerm,
			investv1.StateCancelled:          refusedTerm,
			investv1.StateAwaitingPayment:    refusedInvalid,
			investv1.StatePaymentReceived:    refusedInvalid,
			investv1.StateDeliveryInitiated:  refusedInvalid,
			investv1.StateDeliveryCompleted:  refusedInvalid,
			investv1.OrderState("SOMETHING"): refusedInvalid,
		},
	}
	for side, states := range table {
		for state, want := range states {
			o := &investv1.Order{Spec: investv1.OrderSpec{Side: side}, Status: investv1.OrderStatus{State: state}}
			got, reason := outcomeOf(o)
			if got != want {
				t.Errorf("%s in %q: %s (%q), want %s", side, state, got, reason, want)
			}
			if (got == cancelOK || got == cancelRefund) != (reason == "") {
				t.Errorf("%s in %q: reason %q with outcome %s", side, state, reason, got)
			}
			if shown := string(state); got != cancelOK && got != cancelRefund && shown != "" && !strings.Contains(reason, shown) {
				t.Errorf("%s in %q: reason %q does not name the state", side, state, reason)
			}
		}
	}
	unknown := &investv1.Order{Spec: investv1.OrderSpec{Side: "HOLD"}, Status: investv1.OrderStatus{State: investv1.StatePlaced}}
	if got, _ := outcomeOf(unknown); got != refusedInvalid {
		t.Errorf("unknown side: %s, want %s", got, refusedInvalid)
	}
}

// TestCancellationIsDecidedByTheEvidenceRecorded: evidence recorded ahead of the state
// (the agent won the race with the controller) counts as what has happened outside.
func TestCancellationIsDecidedByTheEvidenceRecorded(t *testing.T) {
	rec := &investv1.SettlementRecord{Reference: "R", TransactionHash: "0x" + strings.Repeat("a", 64), At: metav1.Now()}
	cases := []struct {
		name string
		side investv1.OrderSide
		st   investv1.OrderState
		ev   investv1.SettlementEvidence
		want cancelOutcome
	}{
		{"buy awaiting payment with the payment recorded owes a refund", investv1.SideBuy, investv1.StateAwaitingPayment, investv1.SettlementEvidence{PaymentReceived: rec}, cancelRefund},
		{"buy placed with the payment recorded owes a refund", investv1.SideBuy, investv1.StatePlaced, investv1.SettlementEvidence{PaymentReceived: rec}, cancelRefund},
		{"buy payment received with a delivery recorded is past the point", investv1.SideBuy, investv1.StatePaymentReceived, investv1.SettlementEvidence{PaymentReceived: rec, DeliveryInitiated: rec}, refusedPNR},
		{"buy with a completed delivery recorded is past the point", investv1.SideBuy, investv1.StateAwaitingPayment, investv1.SettlementEvidence{DeliveryCompleted: rec}, refusedPNR},
		{"sell placed with a payout recorded is past the point", investv1.SideSell, investv1.StatePlaced, investv1.SettlementEvidence{PaymentSent: rec}, refusedPNR},
		{"sell gated with a completed payout recorded is past the point", investv1.SideSell, investv1.StateRedemptionGated, investv1.SettlementEvidence{PaymentCompleted: rec}, refusedPNR},
		{"sell placed with the units burned is past the point", investv1.SideSell, investv1.StatePlaced, investv1.SettlementEvidence{TokensBurned: rec}, refusedPNR},
		{"sell ignores buy evidence", investv1.SideSell, investv1.StatePlaced, investv1.SettlementEvidence{PaymentReceived: rec}, cancelOK},
		{"buy ignores sell evidence", investv1.SideBuy, investv1.StatePlaced, investv1.SettlementEvidence{PaymentSent: rec}, cancelOK},
	}
	for _, c := range cases {
		o := &investv1.Order{Spec: investv1.OrderSpec{Side: c.side}, Status: investv1.OrderStatus{State: c.st, Settlement: c.ev}}
		if got, reason := outcomeOf(o); got != c.want {
			t.Errorf("%s: %s (%q), want %s", c.name, got, reason, c.want)
		}
	}
}

// TestASellIsCancellableUntilItsFirstBurnOrPayout: the point of no return of a SELL is
// its first successful burn or its payout, not EXECUTED.
func TestASellIsCancellableUntilItsFirstBurnOrPayout(t *testing.T) {
	rec := &investv1.SettlementRecord{Reference: "R", TransactionHash: "0x" + strings.Repeat("b", 64), At: metav1.Now()}
	hash := "0x" + strings.Repeat("c", 64)
	tx := func(receipt investv1.ChainReceiptStatus) *investv1.OrderChainStatus {
		c := &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{Nonce: 7, Attempts: []investv1.ChainTransactionAttempt{{Hash: hash}}}}
		if receipt != "" {
			c.Transaction.Receipt = &investv1.ChainReceipt{Hash: hash, Status: receipt, BlockNumber: 12}
		}
		return c
	}
	refused := &investv1.OrderChainStatus{Refused: &investv1.ChainRefusal{Reason: "ERC20InsufficientBalance(...)"}}
	cases := []struct {
		name  string
		chain *investv1.OrderChainStatus
		ev    investv1.SettlementEvidence
		want  cancelOutcome
		says  string
	}{
		{"no burn sent yet", nil, investv1.SettlementEvidence{}, cancelOK, ""},
		{"the chain refused the burn before sending it", refused, investv1.SettlementEvidence{}, cancelOK, ""},
		{"the recorded burn is final and reverted", tx(investv1.ChainReceiptReverted), investv1.SettlementEvidence{}, cancelOK, ""},
		{"the recorded burn is not final: in flight", tx(""), investv1.SettlementEvidence{}, refusedFlight, "burn transaction " + hash + " (nonce 7) is in flight"},
		{"the recorded burn is final and succeeded", tx(investv1.ChainReceiptSucceeded), investv1.SettlementEvidence{}, refusedPNR, "burned in transaction " + hash},
		{"tokensBurned recorded without a chain (sandbox)", nil, investv1.SettlementEvidence{TokensBurned: rec}, refusedPNR, "the units are burned"},
		{"a payout recorded, even with a reverted burn", tx(investv1.ChainReceiptReverted), investv1.SettlementEvidence{PaymentSent: rec}, refusedPNR, "the payout is recorded"},
	}
	for _, c := range cases {
		o := &investv1.Order{Spec: investv1.OrderSpec{Side: investv1.SideSell}, Status: investv1.OrderStatus{State: investv1.StateExecuted, Chain: c.chain, Settlement: c.ev}}
		got, reason := outcomeOf(o)
		if got != c.want || !strings.Contains(reason, c.says) {
			t.Errorf("%s: %s (%q), want %s naming %q", c.name, got, reason, c.want, c.says)
		}
		if _, refund, _ := Cancellable(o); refund {
			t.Errorf("%s: a sell is never cancelled with a refund", c.name)
		}
		if got != cancelOK && !strings.Contains(reason, string(investv1.StateExecuted)) {
			t.Errorf("%s: reason %q does not name the state", c.name, reason)
		}
	}
}

func TestNewRefundIsWhatTheCustomerPaidToTheirAccount(t *testing.T) {
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "123e4567-e89b-42d3-a456-426614174000"},
		Spec: investv1.OrderSpec{
			Side: investv1.SideBuy, Currency: "EUR", PaymentMethodDetailsID: "",
			Quote: &investv1.OrderQuote{Amount: 1_005_000, NetAmount: 1_000_000, PaymentMethodDetailsID: "aaaaaaaa-e89b-42d3-a456-426614174000"},
		},
	}
	r := NewRefund(o)
	want := investv1.OrderRefund{Amount: 1_005_000, Currency: "EUR", PaymentMethodDetailsID: "aaaaaaaa-e89b-42d3-a456-426614174000", Reference: "RF-123E4567E89B42D3A456426614174000"}
	if *r != want {
		t.Fatalf("NewRefund = %+v, want %+v", *r, want)
	}
	if len(r.Reference) != 35 {
		t.Errorf("reference %q has %d characters, want 35", r.Reference, len(r.Reference))
	}
	if again := NewRefund(o); *again != *r {
		t.Errorf("NewRefund is not a function of the order: %+v then %+v", *r, *again)
	}
}

func TestRefundStateFollowsTheEvidence(t *testing.T) {
	o := &investv1.Order{Status: investv1.OrderStatus{State: investv1.StateCancelled}}
	if RefundStateOf(o) != "" || RefundOutstanding(o) || !Done(o) {
		t.Fatalf("no refund: state %q outstanding %v done %v", RefundStateOf(o), RefundOutstanding(o), Done(o))
	}
	o.Status.Refund = &investv1.OrderRefund{Amount: 1, Reference: "RF-1"}
	if RefundStateOf(o) != investv1.RefundPending || !RefundOutstanding(o) || Done(o) {
		t.Fatalf("pending: state %q outstanding %v done %v", RefundStateOf(o), RefundOutstanding(o), Done(o))
	}
	o.Status.Settlement.RefundSent = &investv1.SettlementRecord{Reference: "X"}
	if RefundStateOf(o) != investv1.RefundSentState || Done(o) {
		t.Fatalf("sent: state %q done %v", RefundStateOf(o), Done(o))
	}
	o.Status.Settlement.RefundCompleted = &investv1.SettlementRecord{Reference: "X"}
	if RefundStateOf(o) != investv1.RefundCompletedState || RefundOutstanding(o) || !Done(o) {
		t.Fatalf("completed: state %q outstanding %v done %v", RefundStateOf(o), RefundOutstanding(o), Done(o))
	}
}
