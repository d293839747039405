package lifecycle

import (
	"slices"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// withEvidence is a copy of o with the evidence field recorded.
func withEvidence(o *investv1.Order, field string) *investv1.Order {
	c := o.DeepCopy()
	r := record("REF-1", txHash)
	ev := &c.Status.Settlement
	for _, p := range []struct {
		name string
		to   **investv1.SettlementRecord
	}{
		{"paymentReceived", &ev.PaymentReceived}, {"deliveryInitiated", &ev.DeliveryInitiated},
		{"deliveryCompleted", &ev.DeliveryCompleted}, {"tokensBurned", &ev.TokensBurned}, {"unitsDelivered", &ev.UnitsDelivered},
		{"paymentSent", &ev.PaymentSent}, {"paymentCompleted", &ev.PaymentCompleted},
		{"refundSent", &ev.RefundSent}, {"refundCompleted", &ev.RefundCompleted},
		{"residualRefundSent", &ev.ResidualRefundSent}, {"residualRefundCompleted", &ev.ResidualRefundCompleted},
	} {
		if p.name == field {
			*p.to = r
			return c
		}
	}
	panic("unknown evidence " + field)
}

func apply(o *investv1.Order, t *Transition) {
	o.Status.State = t.To
	if t.Refund != nil {
		o.Status.Refund = t.Refund
	}
}

// TestAdmissionFollowsTheStateMachine walks each side's lifecycle with Next (a SELL also
// through REDEMPTION_GATED): in every state the evidence Next waits for is the evidence
// admission accepts (CheckEvidence on the stored order), evidence of the other side,
// which Next ignores, is refused, and once COMPLETED nothing more is accepted. So the
// rule of admission is the state machine's, not a parallel one.
func TestAdmissionFollowsTheStateMachine(t *testing.T) {
	for _, walk := range []struct {
		side  investv1.OrderSide
		gated bool
	}{{investv1.SideBuy, false}, {investv1.SideSell, false}, {investv1.SideSell, true}} {
		o := newOrder(walk.side, investv1.MarketPrimary, "")
		var own, other []string
		for _, f := range EvidenceFields() {
			switch EvidenceSide(f) {
			case walk.side:
				own = append(own, f)
			case "":
			default:
				other = append(other, f)
			}
		}
		for steps := 0; !o.Status.State.Terminal(); steps++ {
			if steps > 20 {
				t.Fatalf("%s: the walk does not end: %s", walk.side, o.Status.State)
			}
			f := openFacts()
			f.GateActive = walk.gated && (o.Status.State == "" || o.Status.State == investv1.StatePlaced)
			d := Next(o, f)
			for _, x := range other {
				if got := Next(withEvidence(o, x), f); describe(got) != describe(d) {
					t.Errorf("%s %s: %s changes the decision (%s → %s): the state machine uses it", walk.side, o.Status.State, x, describe(d), describe(got))
				}
				if refused := CheckEvidence(o, withEvidence(o, x).Status.Settlement); len(refused) != 1 || refused[0].Rule != RuleWrongSide {
					t.Errorf("%s %s: %s of the other side: admission answers %+v, want WrongSide", walk.side, o.Status.State, x, refused)
				}
			}
			if d.Transition != nil {
				apply(o, d.Transition)
				continue
			}
			moved := false
			for _, x := range own {
				if EvidenceRecord(&o.Status.Settlement, x) != nil {
					continue
				}
				w := withEvidence(o, x)
				if nd := Next(w, f); nd.Transition != nil {
					if refused := CheckEvidence(o, w.Status.Settlement); len(refused) > 0 {
						t.Errorf("%s %s: Next moves on %s, admission refuses it: %+v", walk.side, o.Status.State, x, refused)
					}
					o = w
					apply(o, nd.Transition)
					moved = true
					break
				}
			}
			if !moved {
				t.Fatalf("%s %s: no evidence moves the order (%s)", walk.side, o.Status.State, describe(d))
			}
		}
		if o.Status.State != investv1.StateCompleted {
			t.Fatalf("%s: the walk ended %s", walk.side, o.Status.State)
		}
		for _, x := range append(slices.Clone(own), "refundSent", "refundCompleted") {
			if EvidenceRecord(&o.Status.Settlement, x) != nil {
				continue
			}
			if refused := CheckEvidence(o, withEvidence(o, x).Status.Settlement); len(refused) != 1 {
				t.Errorf("%s COMPLETED: %s is accepted", walk.side, x)
			}
		}
	}
}

// TestAdmissionAcceptsWhatACancellationLeavesToSettle: a BUY that Next cancels after its
// payment owes a refund, and admission accepts its refund evidence and nothing else of the
// BUY's; a BUY that Next cancels before its payment accepts the late payment (which the
// controller refunds) but no delivery and no refund.
func TestAdmissionAcceptsWhatACancellationLeavesToSettle(t *testing.T) {
	paid := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePaymentReceived)
	paid.Status.Settlement.PaymentReceived = record("SEPA-1", "")
	paid.Spec.CancellationRequested = true
	d := Next(paid, openFacts())
	if d.Transition == nil || d.Transition.To != investv1.StateCancelled || d.Transition.Refund == nil {
		t.Fatalf("Next = %s, want CANCELLED with a refund", describe(d))
	}
	apply(paid, d.Transition)
	if refused := CheckEvidence(paid, withEvidence(paid, "refundSent").Status.Settlement); len(refused) > 0 {
		t.Errorf("refundSent of the refund Next fixed is refused: %+v", refused)
	}
	for _, x := range []string{"deliveryInitiated", "deliveryCompleted"} {
		if refused := CheckEvidence(paid, withEvidence(paid, x).Status.Settlement); len(refused) != 1 || refused[0].Rule != RuleStateLeft {
			t.Errorf("%s on a cancelled BUY: %+v, want StateLeft", x, refused)
		}
	}

	unpaid := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	unpaid.Spec.CancellationRequested = true
	d = Next(unpaid, openFacts())
	if d.Transition == nil || d.Transition.To != investv1.StateCancelled || d.Transition.Refund != nil {
		t.Fatalf("Next = %s, want CANCELLED without a refund", describe(d))
	}
	apply(unpaid, d.Transition)
	if refused := CheckEvidence(unpaid, withEvidence(unpaid, "paymentReceived").Status.Settlement); len(refused) > 0 {
		t.Errorf("a late payment is refused: %+v", refused)
	}
	for x, rule := range map[string]EvidenceRule{"deliveryInitiated": RuleStateLeft, "refundSent": RuleNoRefundOwed} {
		if refused := CheckEvidence(unpaid, withEvidence(unpaid, x).Status.Settlement); len(refused) != 1 || refused[0].Rule != rule {
			t.Errorf("%s on a BUY cancelled before its payment: %+v, want %s", x, refused, rule)
		}
	}
}
