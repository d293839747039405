package lifecycle

import (
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func rec() *investv1.SettlementRecord {
	return &investv1.SettlementRecord{Reference: "REF-1", At: metav1.NewTime(time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC))}
}

// order is a stored order of side in state with the evidence named recorded.
func evOrder(side investv1.OrderSide, state investv1.OrderState, recorded ...string) *investv1.Order {
	o := &investv1.Order{Spec: investv1.OrderSpec{Side: side}, Status: investv1.OrderStatus{State: state}}
	o.Status.Settlement = with(investv1.SettlementEvidence{}, recorded...)
	return o
}

func refundFixed(o *investv1.Order) *investv1.Order {
	o.Status.Refund = &investv1.OrderRefund{Amount: 1, Currency: "EUR", Reference: "RF-1"}
	return o
}

// with is ev with the evidence named added.
func with(ev investv1.SettlementEvidence, fields ...string) investv1.SettlementEvidence {
	for _, f := range fields {
		r := rec()
		switch f {
		case "paymentReceived":
			ev.PaymentReceived = r
		case "deliveryInitiated":
			ev.DeliveryInitiated = r
		case "deliveryCompleted":
			ev.DeliveryCompleted = r
		case "tokensBurned":
			ev.TokensBurned = r
		case "unitsDelivered":
			ev.UnitsDelivered = r
		case "paymentSent":
			ev.PaymentSent = r
		case "paymentCompleted":
			ev.PaymentCompleted = r
		case "refundSent":
			ev.RefundSent = r
		case "refundCompleted":
			ev.RefundCompleted = r
		case "residualRefundSent":
			ev.ResidualRefundSent = r
		case "residualRefundCompleted":
			ev.ResidualRefundCompleted = r
		default:
			panic("unknown evidence " + f)
		}
	}
	return ev
}

var buyAll = []string{"paymentReceived", "deliveryInitiated", "deliveryCompleted"}

func TestCheckRefusesEvidenceThatDoesNotApplyNamingTheRule(t *testing.T) {
	tests := []struct {
		name  string
		order *investv1.Order
		add   []string
		want  []EvidenceRefusal // Message checked only where set
	}{
		// What the lifecycle uses is accepted, also ahead of the order's state (held).
		{name: "accepts a BUY's payment in AWAITING_PAYMENT", order: evOrder(investv1.SideBuy, investv1.StateAwaitingPayment), add: []string{"paymentReceived"}},
		{name: "accepts a BUY's payment before the order is accepted (held)", order: evOrder(investv1.SideBuy, ""), add: []string{"paymentReceived"}},
		{name: "accepts a BUY's delivery in EXECUTED", order: evOrder(investv1.SideBuy, investv1.StateExecuted, "paymentReceived"), add: []string{"deliveryInitiated"}},
		{name: "accepts a BUY's delivery started and completed in one write", order: evOrder(investv1.SideBuy, investv1.StateExecuted, "paymentReceived"), add: []string{"deliveryInitiated", "deliveryCompleted"}},
		{name: "accepts a BUY's delivery completed in DELIVERY_INITIATED", order: evOrder(investv1.SideBuy, investv1.StateDeliveryInitiated, "paymentReceived", "deliveryInitiated"), add: []string{"deliveryCompleted"}},
		{name: "accepts a SELL's burn in EXECUTED", order: evOrder(investv1.SideSell, investv1.StateExecuted), add: []string{"tokensBurned"}},
		{name: "accepts a SELL's payout in EXECUTED", order: evOrder(investv1.SideSell, investv1.StateExecuted, "tokensBurned"), add: []string{"paymentSent"}},
		{name: "accepts a SELL's payout while REDEMPTION_GATED (held)", order: evOrder(investv1.SideSell, investv1.StateRedemptionGated), add: []string{"paymentSent"}},
		{name: "accepts a SELL's payout completed in PAYMENT_SENT", order: evOrder(investv1.SideSell, investv1.StatePaymentSent, "tokensBurned", "paymentSent"), add: []string{"paymentCompleted"}},
		{name: "accepts a late payment on a cancelled BUY", order: evOrder(investv1.SideBuy, investv1.StateCancelled), add: []string{"paymentReceived"}},
		{name: "accepts the refund a cancelled BUY owes", order: refundFixed(evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived")), add: []string{"refundSent"}},
		{name: "accepts the refund sent and completed in one write", order: refundFixed(evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived")), add: []string{"refundSent", "refundCompleted"}},
		{name: "accepts the refund completed after it was sent", order: refundFixed(evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived", "refundSent")), add: []string{"refundCompleted"}},
		{name: "does not judge evidence already recorded", order: evOrder(investv1.SideSell, investv1.StateCompleted, "paymentReceived"), add: []string{"paymentReceived"}},

		// NoRefundOwed
		{name: "refuses refund evidence on an order that owes no refund", order: evOrder(investv1.SideBuy, investv1.StateCompleted, buyAll...), add: []string{"refundSent"},
			want: []EvidenceRefusal{{Field: "refundSent", Rule: RuleNoRefundOwed, Message: "refund evidence on an order that owes no refund (BUY COMPLETED, no refund due)"}}},
		{name: "refuses refund evidence on a BUY cancelled before its payment", order: evOrder(investv1.SideBuy, investv1.StateCancelled), add: []string{"refundSent"},
			want: []EvidenceRefusal{{Field: "refundSent", Rule: RuleNoRefundOwed, Message: "refund evidence on an order that owes no refund (BUY CANCELLED, no refund due)"}}},
		{name: "refuses refund evidence on a live BUY", order: evOrder(investv1.SideBuy, investv1.StatePaymentReceived, "paymentReceived"), add: []string{"refundSent", "refundCompleted"},
			want: []EvidenceRefusal{{Field: "refundSent", Rule: RuleNoRefundOwed}, {Field: "refundCompleted", Rule: RuleNoRefundOwed}}},
		{name: "refuses refund evidence on a SELL", order: evOrder(investv1.SideSell, investv1.StateCancelled), add: []string{"refundSent"},
			want: []EvidenceRefusal{{Field: "refundSent", Rule: RuleNoRefundOwed, Message: "refund evidence on an order that owes no refund (SELL CANCELLED, only a BUY cancelled after its payment arrived is refunded)"}}},
		{name: "refuses refund evidence for a late payment before its refund is fixed", order: evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived"), add: []string{"refundSent"},
			want: []EvidenceRefusal{{Field: "refundSent", Rule: RuleNoRefundOwed, Message: "refund evidence on an order that owes no refund (BUY CANCELLED, its refund is not fixed yet: the order controller fixes status.refund for the late payment first)"}}},

		// WrongSide
		{name: "refuses token evidence of a BUY on a SELL", order: evOrder(investv1.SideSell, investv1.StateExecuted), add: []string{"deliveryInitiated"},
			want: []EvidenceRefusal{{Field: "deliveryInitiated", Rule: RuleWrongSide, Message: "BUY evidence on a SELL order (deliveryInitiated is the mint of the units bought; a SELL uses tokensBurned, paymentSent and paymentCompleted)"}}},
		{name: "refuses token evidence of a SELL on a BUY", order: evOrder(investv1.SideBuy, investv1.StateExecuted, "paymentReceived"), add: []string{"tokensBurned"},
			want: []EvidenceRefusal{{Field: "tokensBurned", Rule: RuleWrongSide, Message: "SELL evidence on a BUY order (tokensBurned is the burn of the units sold; a BUY uses paymentReceived, deliveryInitiated and deliveryCompleted)"}}},
		{name: "refuses a payout on a BUY", order: evOrder(investv1.SideBuy, investv1.StateAwaitingPayment), add: []string{"paymentSent", "paymentCompleted"},
			want: []EvidenceRefusal{{Field: "paymentSent", Rule: RuleWrongSide}, {Field: "paymentCompleted", Rule: RuleWrongSide}}},
		{name: "refuses a buyer's payment on a SELL", order: evOrder(investv1.SideSell, investv1.StatePlaced), add: []string{"paymentReceived"},
			want: []EvidenceRefusal{{Field: "paymentReceived", Rule: RuleWrongSide}}},
		{name: "refuses the other side's evidence on a terminal order as the other side's", order: evOrder(investv1.SideBuy, investv1.StateCompleted, buyAll...), add: []string{"tokensBurned"},
			want: []EvidenceRefusal{{Field: "tokensBurned", Rule: RuleWrongSide}}},

		// StateLeft
		{name: "refuses evidence on a COMPLETED order", order: evOrder(investv1.SideSell, investv1.StateCompleted, "paymentSent", "paymentCompleted"), add: []string{"tokensBurned"},
			want: []EvidenceRefusal{{Field: "tokensBurned", Rule: RuleStateLeft, Message: "evidence for a state the order can no longer reach (SELL COMPLETED: nothing is settled after completion)"}}},
		{name: "refuses a delivery on a cancelled BUY", order: evOrder(investv1.SideBuy, investv1.StateCancelled), add: []string{"deliveryInitiated"},
			want: []EvidenceRefusal{{Field: "deliveryInitiated", Rule: RuleStateLeft, Message: "evidence for a state the order can no longer reach (BUY CANCELLED: after a cancellation only a BUY's late payment and the refund it owes are recorded)"}}},
		{name: "refuses a delivery on a BUY cancelled with a refund", order: refundFixed(evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived")), add: []string{"deliveryInitiated", "refundSent"},
			want: []EvidenceRefusal{{Field: "deliveryInitiated", Rule: RuleStateLeft}}},
		{name: "refuses a payout on a cancelled SELL", order: evOrder(investv1.SideSell, investv1.StateCancelled), add: []string{"tokensBurned", "paymentSent"},
			want: []EvidenceRefusal{{Field: "tokensBurned", Rule: RuleStateLeft}, {Field: "paymentSent", Rule: RuleStateLeft}}},
		{name: "refuses a SELL's burn after the order left EXECUTED", order: evOrder(investv1.SideSell, investv1.StatePaymentSent, "paymentSent"), add: []string{"tokensBurned"},
			want: []EvidenceRefusal{{Field: "tokensBurned", Rule: RuleStateLeft, Message: "evidence for a state the order can no longer reach (SELL PAYMENT_SENT: tokensBurned is used in EXECUTED, which the order has left)"}}},

		// OutOfOrder
		{name: "refuses a delivery completed before it was initiated", order: evOrder(investv1.SideBuy, investv1.StateExecuted, "paymentReceived"), add: []string{"deliveryCompleted"},
			want: []EvidenceRefusal{{Field: "deliveryCompleted", Rule: RuleOutOfOrder, Message: "evidence out of the lifecycle's order (BUY EXECUTED: deliveryCompleted is recorded after deliveryInitiated, which is missing)"}}},
		{name: "refuses a payout completed before it was sent", order: evOrder(investv1.SideSell, investv1.StateExecuted, "tokensBurned"), add: []string{"paymentCompleted"},
			want: []EvidenceRefusal{{Field: "paymentCompleted", Rule: RuleOutOfOrder}}},
		{name: "refuses a refund completed before it was sent", order: refundFixed(evOrder(investv1.SideBuy, investv1.StateCancelled, "paymentReceived")), add: []string{"refundCompleted"},
			want: []EvidenceRefusal{{Field: "refundCompleted", Rule: RuleOutOfOrder}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckEvidence(tt.order, with(*tt.order.Status.Settlement.DeepCopy(), tt.add...))
			if len(got) != len(tt.want) {
				t.Fatalf("Check = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				w := tt.want[i]
				if w.Message == "" {
					w.Message = got[i].Message
				}
				if !reflect.DeepEqual(got[i], w) {
					t.Errorf("refusal %d = %+v, want %+v", i, got[i], w)
				}
			}
		})
	}
}

// Every field of the type is one of the rule's pieces, so a new kind of evidence cannot
// slip past admission unjudged.
func TestCheckKnowsEveryFieldOfTheSettlementEvidence(t *testing.T) {
	typ := reflect.TypeFor[investv1.SettlementEvidence]()
	var want []string
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		want = append(want, name)
	}
	if got := EvidenceFields(); !reflect.DeepEqual(got, want) {
		t.Fatalf("EvidenceFields() = %v, status.settlement has %v", got, want)
	}
	for _, f := range want {
		ev := with(investv1.SettlementEvidence{}, f)
		if EvidenceRecord(&ev, f) == nil {
			t.Errorf("Record(%s) does not read the field", f)
		}
	}
	if EvidenceSide("tokensBurned") != investv1.SideSell || EvidenceSide("paymentReceived") != investv1.SideBuy || EvidenceSide("refundSent") != "" {
		t.Error("Side names the wrong side")
	}
}
