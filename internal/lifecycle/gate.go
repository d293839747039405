package lifecycle

import (
	"fmt"
	"math/big"
	"time"

	"github.com/google/uuid"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// The redemption gate of a dealing date (docs/dealing.md, "The redemption gate"). When a
// share class has one, the strike draws it up in the same write as the NAV (the Dealing's
// status.redemptionGate): the limit, a share of the class's outstanding units, and the
// units the dealing's SELLs ask. Each SELL is then filled pro rata by size, rounded down
// to the unit (GateFill): a pure function of the order and that record, so a SELL priced
// after a restart gets what it would have got before. The units the gate does not fill
// are carried forward as a new SELL at the next dealing date, or not redeemed, as the
// share class says.

// GateLimit is the most a dealing redeems: outstanding × basis points / 10,000, rounded
// down.
func GateLimit(outstanding int64, basisPoints int32) int64 {
	if outstanding <= 0 || basisPoints <= 0 {
		return 0
	}
	return mulDiv(outstanding, int64(basisPoints), 10_000)
}

// GateFill is the units of a SELL asking requested that the gate fills: all of them when
// the dealing's SELLs ask no more than the limit, else requested × limit ÷ requested in
// total, rounded down to the unit. The rounding leaves at most one unit per SELL of the
// limit unused; those units are part of each SELL's remainder. The fills never add up to
// more than the limit.
func GateFill(requested int64, g *investv1.DealingGate) int64 {
	if requested <= 0 {
		return 0
	}
	if !g.Applied() {
		return requested
	}
	return min(requested, mulDiv(requested, g.LimitUnits, g.RequestedUnits))
}

// mulDiv is a × b ÷ c rounded down, without overflow for any int64 a and b.
func mulDiv(a, b, c int64) int64 {
	if c <= 0 {
		return 0
	}
	p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	return p.Quo(p, big.NewInt(c)).Int64()
}

// Carried reports whether a SELL deals units a redemption gate carried forward: a SELL
// created for an earlier SELL's remainder (spec.carriedFrom), or one the gate filled none
// of and moved to a later dealing date.
func Carried(o *investv1.Order) bool {
	if o.Spec.Side != investv1.SideSell {
		return false
	}
	return o.Spec.CarriedFrom != "" || o.Status.Dealing != nil && o.Status.Dealing.Reason == investv1.DealingMoveRedemptionGate
}

// carriedMessage is the REDEMPTION_GATED history entry of a carried SELL.
func carriedMessage(o *investv1.Order) string {
	if o.Spec.CarriedFrom != "" {
		return fmt.Sprintf("%d units carried forward by the redemption gate from order %s: they deal at the dealing date %s (redemption cut-off %s)",
			o.Spec.AmountOfUnits, o.Spec.CarriedFrom, DealingDate(o), CutOff(o).UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("the redemption gate of its dealing date filled none of its %d units: moved to the dealing date %s",
		o.Spec.AmountOfUnits, DealingDate(o))
}

// CarryName is the id of the SELL that carries forward the remainder of order (in
// namespace ns) from the dealing named dealing: derived from both, so that a strike
// resumed after a crash finds the SELL it created before.
func CarryName(ns, order, dealing string) string {
	return nameFor("carry", ns, order, dealing)
}

// carrySpace is the UUID name space of carried SELLs' ids.
var carrySpace = uuid.MustParse("5b0e7a52-3c1d-4f8e-9a61-2d4c8e0f7b13")

func nameFor(parts ...string) string {
	key := ""
	for _, p := range parts {
		key += p + "/"
	}
	return uuid.NewSHA1(carrySpace, []byte(key)).String()
}
