package lifecycle

import (
	"crypto/sha1" //nolint:gosec // name-based UUIDs (version 5) are SHA-1 by definition
	"encoding/hex"
	"fmt"
	"math/big"
	"time"

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
var carrySpace = [16]byte{0x5b, 0x0e, 0x7a, 0x52, 0x3c, 0x1d, 0x4f, 0x8e, 0x9a, 0x61, 0x2d, 0x4c, 0x8e, 0x0f, 0x7b, 0x13}

// nameFor is the name-based (version 5, SHA-1) UUID of the parts in carrySpace (RFC 9562
// 5.5), in lower case: the same parts always give the same id.
func nameFor(parts ...string) string {
	h := sha1.New() //nolint:gosec // RFC 9562 version 5 ids are SHA-1 by definition; not a security use
	h.Write(carrySpace[:])
	for _, p := range parts {
		h.Write([]byte(p + "/"))
	}
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	x := hex.EncodeToString(u[:])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}
