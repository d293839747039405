// The evidence rule: which settlement evidence applies to an order, the rule that
// admission enforces on every write of status.settlement (by a settlement agent or by a
// person with kubectl), and that the lifecycle's own tests hold the agents to. Like the
// rest of the package it is pure: the order as stored and the evidence written in, no I/O.
//
// The rule follows Next and NextStep: each piece of evidence belongs to one side and
// moves the order out of one state; evidence ahead of the order's state is held there
// until the order gets there, so it is accepted, while evidence for a state the order has
// left, of the other side, out of its order, or for a refund the order does not owe can
// never be used and is refused.

package lifecycle

import (
	"fmt"
	"slices"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// EvidenceRule names why a piece of evidence does not apply.
type EvidenceRule string

// The rules of Check.
const (
	// RuleWrongSide: BUY evidence (paymentReceived, deliveryInitiated, deliveryCompleted)
	// on a SELL, or SELL evidence (tokensBurned, paymentSent, paymentCompleted) on a BUY.
	RuleWrongSide EvidenceRule = "WrongSide"
	// RuleNoRefundOwed: refundSent or refundCompleted on an order without status.refund;
	// residualRefundSent or residualRefundCompleted on one whose contract note has no
	// residual.
	RuleNoRefundOwed EvidenceRule = "NoRefundOwed"
	// RuleStateLeft: evidence for a state the order can no longer reach: any evidence on a
	// COMPLETED order, on a CANCELLED one any but a BUY's late payment and the refund it
	// owes, and on a live order evidence of a state it has left.
	RuleStateLeft EvidenceRule = "StateLeft"
	// RuleOutOfOrder: a completion before its start: deliveryCompleted without
	// deliveryInitiated, paymentCompleted without paymentSent, refundCompleted without
	// refundSent.
	RuleOutOfOrder EvidenceRule = "OutOfOrder"
)

// EvidenceRefusal is one piece of evidence that does not apply, and why.
type EvidenceRefusal struct {
	// Field is the evidence's JSON name in status.settlement, e.g. refundSent.
	Field string
	// Rule is the rule that refuses it.
	Rule EvidenceRule
	// Message says why, naming the order's side and state, e.g. "refund evidence on an
	// order that owes no refund (BUY COMPLETED, no refund due)".
	Message string
}

// piece is one field of status.settlement and where it belongs in the
type piece struct {
	field string
	get   func(*investv1.SettlementEvidence) *investv1.SettlementRecord
	// side is the side whose lifecycle uses it; "" for refunds (status.refund decides).
	side investv1.OrderSide
	// usedIn is the state the evidence moves the order out of (refunds: CANCELLED).
	usedIn investv1.OrderState
	// after is the evidence that must be recorded before it (a completion's start).
	after string
	// what says what the evidence is, for the wrong-side message.
	what string
	// residual: the refund of a contract note's residual, owed only when the note has one.
	residual bool
	// secondary: evidence of a SECONDARY order in a matching window only.
	secondary bool
}

// pieces are status.settlement's fields in the order of the type.
var pieces = []piece{
	{field: "paymentReceived", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentReceived },
		side: investv1.SideBuy, usedIn: investv1.StateAwaitingPayment, what: "the buyer's payment"},
	{field: "deliveryInitiated", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.DeliveryInitiated },
		side: investv1.SideBuy, usedIn: investv1.StateExecuted, what: "the mint of the units bought"},
	{field: "deliveryCompleted", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.DeliveryCompleted },
		side: investv1.SideBuy, usedIn: investv1.StateDeliveryInitiated, after: "deliveryInitiated", what: "the mint of the units bought"},
	{field: "tokensBurned", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.TokensBurned },
		side: investv1.SideSell, usedIn: investv1.StateExecuted, what: "the burn of the units sold"},
	{field: "unitsDelivered", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.UnitsDelivered },
		side: investv1.SideSell, usedIn: investv1.StateExecuted, what: "the transfer of the units sold to the buyers", secondary: true},
	{field: "paymentSent", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentSent },
		side: investv1.SideSell, usedIn: investv1.StateExecuted, what: "the payout of a sale"},
	{field: "paymentCompleted", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.PaymentCompleted },
		side: investv1.SideSell, usedIn: investv1.StatePaymentSent, after: "paymentSent", what: "the payout of a sale"},
	{field: "refundSent", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.RefundSent },
		usedIn: investv1.StateCancelled},
	{field: "refundCompleted", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.RefundCompleted },
		usedIn: investv1.StateCancelled, after: "refundSent"},
	{field: "residualRefundSent", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.ResidualRefundSent },
		side: investv1.SideBuy, usedIn: investv1.StateDeliveryCompleted, what: "the refund of a strike's residual", residual: true},
	{field: "residualRefundCompleted", get: func(e *investv1.SettlementEvidence) *investv1.SettlementRecord { return e.ResidualRefundCompleted },
		side: investv1.SideBuy, usedIn: investv1.StateDeliveryCompleted, after: "residualRefundSent", what: "the refund of a strike's residual", residual: true},
}

// Fields lists status.settlement's fields, in the order of the type.
func EvidenceFields() []string {
	out := make([]string, len(pieces))
	for i, p := range pieces {
		out[i] = p.field
	}
	return out
}

// Record returns the record of field in ev, or nil (also for an unknown field).
func EvidenceRecord(ev *investv1.SettlementEvidence, field string) *investv1.SettlementRecord {
	for _, p := range pieces {
		if p.field == field {
			return p.get(ev)
		}
	}
	return nil
}

// Side is the side whose lifecycle uses field's evidence; "" for the refund evidence,
// which only a BUY cancelled with a refund uses, and for an unknown field.
func EvidenceSide(field string) investv1.OrderSide {
	for _, p := range pieces {
		if p.field == field {
			return p.side
		}
	}
	return ""
}

// Check returns the refusals of the evidence in ev that the stored order o does not
// have yet, in the order of status.settlement's fields; nil when all of it applies.
// Evidence o already has is not judged again (the CRD keeps it immutable). The decision
// is made on o as stored: its side, state and refund, so that a write cannot justify its
// own evidence (e.g. by setting status.refund with refundSent).
func CheckEvidence(o *investv1.Order, ev investv1.SettlementEvidence) []EvidenceRefusal {
	var out []EvidenceRefusal
	for _, p := range pieces {
		if p.get(&o.Status.Settlement) != nil || p.get(&ev) == nil {
			continue
		}
		if rule, msg := judge(o, &ev, p); rule != "" {
			out = append(out, EvidenceRefusal{Field: p.field, Rule: rule, Message: msg})
		}
	}
	return out
}

// judge applies the rules to one new piece of evidence: side, refund, state, order.
func judge(o *investv1.Order, ev *investv1.SettlementEvidence, p piece) (EvidenceRule, string) {
	side, state := o.Spec.Side, o.Status.State
	where := fmt.Sprintf("%s %s", side, shown(state))
	if p.side != "" && p.side != side {
		return RuleWrongSide, fmt.Sprintf("%s evidence on a %s order (%s is %s; %s)",
			p.side, side, p.field, p.what, ownEvidence(side))
	}
	if p.side == "" && o.Status.Refund == nil {
		why := "no refund due"
		switch {
		case side != investv1.SideBuy:
			why = "only a BUY cancelled after its payment arrived is refunded"
		case LatePayment(o):
			why = "its refund is not fixed yet: the order controller fixes status.refund for the late payment first"
		}
		return RuleNoRefundOwed, fmt.Sprintf("refund evidence on an order that owes no refund (%s, %s)", where, why)
	}
	if p.secondary && !Secondary(o) {
		return RuleWrongSide, fmt.Sprintf("%s evidence on an order that is not a SECONDARY order of a matching window (%s: %s is %s)", p.field, where, p.field, p.what)
	}
	if p.residual && !ResidualOwed(o) {
		return RuleNoRefundOwed, fmt.Sprintf("residual refund evidence on an order that owes no residual (%s: only a forward BUY by amount whose contract note has a residual owes one)", where)
	}
	switch state {
	case investv1.StateCompleted:
		return RuleStateLeft, fmt.Sprintf("evidence for a state the order can no longer reach (%s: nothing is settled after completion)", where)
	case investv1.StateCancelled:
		lateBuyPayment := side == investv1.SideBuy && p.field == "paymentReceived"
		if p.side != "" && !lateBuyPayment {
			return RuleStateLeft, fmt.Sprintf("evidence for a state the order can no longer reach (%s: after a cancellation only a BUY's late payment and the refund it owes are recorded)", where)
		}
	default:
		if passed(side, state, p.usedIn) {
			return RuleStateLeft, fmt.Sprintf("evidence for a state the order can no longer reach (%s: %s is used in %s, which the order has left)",
				where, p.field, p.usedIn)
		}
	}
	if p.after != "" && EvidenceRecord(ev, p.after) == nil {
		return RuleOutOfOrder, fmt.Sprintf("evidence out of the lifecycle's order (%s: %s is recorded after %s, which is missing)",
			where, p.field, p.after)
	}
	return "", ""
}

// ownEvidence names the evidence a side's lifecycle uses, for the wrong-side message.
func ownEvidence(side investv1.OrderSide) string {
	switch side {
	case investv1.SideBuy:
		return "a BUY uses paymentReceived, deliveryInitiated and deliveryCompleted"
	case investv1.SideSell:
		return "a SELL uses tokensBurned, paymentSent and paymentCompleted"
	}
	return fmt.Sprintf("the side %q uses none", side)
}

// passed reports whether an order of side in state has left usedIn for good. A state that
// does not belong to the side (an order an operator must look at) passes nothing.
func passed(side investv1.OrderSide, state, usedIn investv1.OrderState) bool {
	path := Path(side)
	if side == investv1.SideSell { // the gated detour lies between PLACED and EXECUTED
		path = slices.Insert(path, slices.Index(path, investv1.StateExecuted), investv1.StateRedemptionGated)
	}
	path = append([]investv1.OrderState{""}, path...) // a new order has passed nothing
	at, use := -1, -1
	for i, s := range path {
		if s == state {
			at = i
		}
		if s == usedIn {
			use = i
		}
	}
	return at >= 0 && use >= 0 && at > use
}

func shown(s investv1.OrderState) investv1.OrderState {
	if s == "" {
		return investv1.StatePlaced
	}
	return s
}
