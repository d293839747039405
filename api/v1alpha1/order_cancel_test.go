package v1alpha1_test

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
)

func outcomeOf(o *investv1.Order) (cancelOutcome, string) {
	ok, refund, reason := investv1.Cancellable(o)
	kind := investv1.CancelRefusalOf(o)
	if ok != (kind == investv1.RefusalNone) {
		return "inconsistent: " + cancelOutcome(kind), reason
	}
	switch {
	case ok && refund:
		return cancelRefund, reason
	case ok:
		return cancelOK, reason
	case kind == investv1.RefusalTerminal:
		return refusedTerm, reason
	case kind == investv1.RefusalPastPointOfNoReturn:
		return refusedPNR, reason
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
			investv1.StateExecuted:           refusedPNR,
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

func TestNewRefundIsWhatTheCustomerPaidToTheirAccount(t *testing.T) {
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "123e4567-e89b-42d3-a456-426614174000"},
		Spec: investv1.OrderSpec{
			Side: investv1.SideBuy, Currency: "EUR", PaymentMethodDetailsID: "",
			Quote: &investv1.OrderQuote{Amount: 1_005_000, NetAmount: 1_000_000, PaymentMethodDetailsID: "aaaaaaaa-e89b-42d3-a456-426614174000"},
		},
	}
	r := investv1.NewRefund(o)
	want := investv1.OrderRefund{Amount: 1_005_000, Currency: "EUR", PaymentMethodDetailsID: "aaaaaaaa-e89b-42d3-a456-426614174000", Reference: "RF-123E4567E89B42D3A456426614174000"}
	if *r != want {
		t.Fatalf("NewRefund = %+v, want %+v", *r, want)
	}
	if len(r.Reference) != 35 {
		t.Errorf("reference %q has %d characters, want 35", r.Reference, len(r.Reference))
	}
	if again := investv1.NewRefund(o); *again != *r {
		t.Errorf("NewRefund is not a function of the order: %+v then %+v", *r, *again)
	}
}

func TestRefundStateFollowsTheEvidence(t *testing.T) {
	o := &investv1.Order{Status: investv1.OrderStatus{State: investv1.StateCancelled}}
	if o.RefundState() != "" || o.RefundOutstanding() || !o.Done() {
		t.Fatalf("no refund: state %q outstanding %v done %v", o.RefundState(), o.RefundOutstanding(), o.Done())
	}
	o.Status.Refund = &investv1.OrderRefund{Amount: 1, Reference: "RF-1"}
	if o.RefundState() != investv1.RefundPending || !o.RefundOutstanding() || o.Done() {
		t.Fatalf("pending: state %q outstanding %v done %v", o.RefundState(), o.RefundOutstanding(), o.Done())
	}
	o.Status.Settlement.RefundSent = &investv1.SettlementRecord{Reference: "X"}
	if o.RefundState() != investv1.RefundSentState || o.Done() {
		t.Fatalf("sent: state %q done %v", o.RefundState(), o.Done())
	}
	o.Status.Settlement.RefundCompleted = &investv1.SettlementRecord{Reference: "X"}
	if o.RefundState() != investv1.RefundCompletedState || o.RefundOutstanding() || !o.Done() {
		t.Fatalf("completed: state %q outstanding %v done %v", o.RefundState(), o.RefundOutstanding(), o.Done())
	}
}
