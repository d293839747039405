package lifecycle

import (
	"math"
	"strings"
	"testing"

	"github.com/google/uuid"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// The redemption gate of a dealing date (docs/dealing.md, "The redemption gate").

func TestTheGateLimitIsAShareOfTheOutstandingUnitsRoundedDown(t *testing.T) {
	for _, c := range []struct {
		outstanding int64
		bps         int32
		want        int64
	}{
		{300, 1000, 30},
		{305, 1000, 30}, // 30.5 → 30
		{99, 100, 0},    // 0.99 → 0: nothing is redeemed
		{0, 1000, 0},
		{1_000, 10_000, 1_000},
		{math.MaxInt64, 10_000, math.MaxInt64}, // no overflow in the product
	} {
		if got := GateLimit(c.outstanding, c.bps); got != c.want {
			t.Errorf("GateLimit(%d, %d) = %d, want %d", c.outstanding, c.bps, got, c.want)
		}
	}
}

func TestTheGateFillsSellsProRataRoundedDownAndNeverAboveItsLimit(t *testing.T) {
	g := &investv1.DealingGate{LimitUnits: 30, RequestedUnits: 77}
	var filled int64
	for _, c := range []struct{ asked, want int64 }{{50, 19}, {20, 7}, {7, 2}} {
		got := GateFill(c.asked, g)
		if got != c.want {
			t.Errorf("GateFill(%d) of 30/77 = %d, want %d", c.asked, got, c.want)
		}
		filled += got
	}
	if filled > g.LimitUnits {
		t.Errorf("the fills add up to %d, above the limit %d", filled, g.LimitUnits)
	}
	if got := GateFill(40, &investv1.DealingGate{LimitUnits: 30, RequestedUnits: 30}); got != 40 {
		t.Errorf("a gate asked no more than its limit cuts back: GateFill = %d, want 40", got)
	}
	if got := GateFill(40, nil); got != 40 {
		t.Errorf("no gate cuts back: GateFill = %d, want 40", got)
	}
	if got := GateFill(math.MaxInt64, &investv1.DealingGate{LimitUnits: math.MaxInt64 - 1, RequestedUnits: math.MaxInt64}); got != math.MaxInt64-1 {
		t.Errorf("GateFill overflows: %d", got)
	}
}

func TestTheContractNoteOfAGatedSellDealsTheUnitsFilled(t *testing.T) {
	o := forwardOrder(investv1.SideSell, 50, investv1.StatePlaced)
	s := Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_000_000, SettlementDate: "2026-03-12", At: fwdAfter,
		Gate: &investv1.DealingGate{LimitUnits: 30, RequestedUnits: 77}}
	n, err := ContractNote(o, s)
	if err != nil {
		t.Fatal(err)
	}
	if n.Units != 19 || n.RequestedUnits != 50 || n.GrossAmount != 19*1_000_000 {
		t.Errorf("note = units %d, requested %d, gross %d; want 19, 50, 190,000,000", n.Units, n.RequestedUnits, n.GrossAmount)
	}
	o.Status.Strike = n
	if Units(o) != 19 {
		t.Errorf("Units of a gated SELL = %d, want the 19 filled (what is burned and paid out)", Units(o))
	}

	s.Gate = &investv1.DealingGate{LimitUnits: 0, RequestedUnits: 77}
	n, err = ContractNote(forwardOrder(investv1.SideSell, 50, investv1.StatePlaced), s)
	if err != nil || n.Units != 0 || n.GrossAmount != 0 || n.RequestedUnits != 50 {
		t.Errorf("a SELL the gate fills none of: note %+v, %v", n, err)
	}
}

func TestASellTheGateFilledNoneOfIsCancelledUnderTheCancelPolicy(t *testing.T) {
	o := forwardOrder(investv1.SideSell, 5, investv1.StatePlaced)
	o.Status.Strike = &investv1.OrderContractNote{Dealing: "d", TradeDate: "2026-03-10", NAVPerShare: 1_000_000, RequestedUnits: 5}
	d := Next(o, forwardFacts(fwdAfter))
	if d.Transition == nil || d.Transition.To != investv1.StateCancelled || d.Transition.Reason != ReasonRedemptionNotFilled {
		t.Fatalf("decision = %+v, want CANCELLED (%s)", d, ReasonRedemptionNotFilled)
	}
	if d.Transition.Refund != nil {
		t.Errorf("a SELL owes no refund: %+v", d.Transition.Refund)
	}
}

func TestACarriedForwardSellWaitsInRedemptionGatedForItsStrike(t *testing.T) {
	child := forwardOrder(investv1.SideSell, 31, investv1.StatePlaced)
	child.Spec.CarriedFrom = "0b6f1f0e-8a55-4c2b-9d64-0c7f1e2d3a4b"
	d := Next(child, forwardFacts(fwdBefore))
	if d.Transition == nil || d.Transition.To != investv1.StateRedemptionGated || d.Transition.Reason != ReasonRedemptionCarriedForward {
		t.Fatalf("decision = %+v, want REDEMPTION_GATED (%s)", d, ReasonRedemptionCarriedForward)
	}
	if !strings.Contains(d.Transition.Message, "31 units carried forward") || !strings.Contains(d.Transition.Message, string(child.Spec.CarriedFrom)) {
		t.Errorf("message %q does not say what was carried from where", d.Transition.Message)
	}
	child.Status.State = investv1.StateRedemptionGated
	if w := mustWait(t, Next(child, forwardFacts(fwdAfter)), WaitAwaitingStrike); w == nil {
		t.Fatal("no wait")
	}

	moved := forwardOrder(investv1.SideSell, 5, investv1.StatePlaced)
	moved.Status.Dealing = &investv1.OrderDealing{Date: "2026-03-11", Moves: 1, Reason: investv1.DealingMoveRedemptionGate}
	if d := Next(moved, forwardFacts(fwdAfter)); d.Transition == nil || d.Transition.To != investv1.StateRedemptionGated {
		t.Errorf("a SELL the gate moved on: decision = %+v, want REDEMPTION_GATED", d)
	}
	if Carried(forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment)) {
		t.Error("a BUY is never carried forward")
	}
}

func TestTheIdOfACarriedSellIsDerivedFromItsOrderAndDealing(t *testing.T) {
	a := CarryName("t", "123e4567-e89b-42d3-a456-426614174000", "lu0000deal19-2026-03-10")
	if a != CarryName("t", "123e4567-e89b-42d3-a456-426614174000", "lu0000deal19-2026-03-10") {
		t.Error("the same order and dealing give two ids: a resumed strike would carry twice")
	}
	if a == CarryName("t", "123e4567-e89b-42d3-a456-426614174000", "lu0000deal19-2026-03-11") {
		t.Error("two dealings give one id")
	}
	if len(a) != 36 || strings.ToLower(a) != a || a[14] != '5' || !strings.ContainsRune("89ab", rune(a[19])) {
		t.Errorf("%q is not a lowercase version 5 UUID", a)
	}
	// The same derivation as github.com/google/uuid's NewSHA1 (RFC 9562 5.5).
	if got, want := nameFor("a"), uuid.NewSHA1(uuid.UUID(carrySpace), []byte("a/")).String(); got != want {
		t.Errorf("nameFor = %s, want %s", got, want)
	}

}
