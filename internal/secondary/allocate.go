package secondary

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// allocate shares volume units among the orders of one side (sorted by priority) asking
// total units, by the largest-remainder (Hamilton) method: each order gets
// floor(units × volume / total); the leftover units go one each to the largest
// remainders (units × volume mod total, comparable since all share the denominator), ties
// to the earlier order. volume must be at most total.
//
// A leftover unit never lifts a fill above its order's units: the remainders divided by
// total add up to the leftover L, each below 1, so more than L orders have a remainder and
// each of the L chosen ones had floor < its exact share ≤ its units.
func allocate(orders []Order, total, volume int64) []int64 {
	fills := make([]int64, len(orders))
	if volume == 0 {
		return fills
	}
	rems := make([]uint64, len(orders))
	leftover := volume
	for i, o := range orders {
		fills[i], rems[i] = mulDiv(o.Units, volume, total)
		leftover -= fills[i]
	}
	if leftover == 0 {
		return fills
	}
	order := make([]int, len(orders))
	for i := range order {
		order[i] = i
	}
	// Stable: among equal remainders the priority order of orders stands.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rems[b], rems[a]) })
	for _, i := range order[:leftover] {
		fills[i]++
	}
	return fills
}

// mulDiv is a × b ÷ c rounded down and its remainder, for 0 ≤ a ≤ c, 0 ≤ b and c > 0: the
// product is 128 bits, and the quotient is at most b, so it fits.
func mulDiv(a, b, c int64) (q int64, r uint64) {
	hi, lo := bits.Mul64(uint64(a), uint64(b)) //nolint:gosec // a, b >= 0 (callers validate units and volume)
	// a ≤ c and b < 2^63, so a × b < c × 2^64: hi < c and Div64 cannot panic.
	uq, r := bits.Div64(hi, lo, uint64(c)) //nolint:gosec // c > 0
	if uq > math.MaxInt64 {
		panic("secondary: mulDiv called with a > c") // unreachable for validated input
	}
	return int64(uq), r
}

// pair is the delivery-versus-payment legs of the fills: the filled SELLs and BUYs, each
// in priority order, merged like two queues, each step moving the smaller of the two open
// quantities from the SELL at the head of its queue to the BUY at the head of its.
func pair(buys []Order, buyFills []int64, sells []Order, sellFills []int64) []Transfer {
	toBuy, toSell := slices.Clone(buyFills), slices.Clone(sellFills)
	var transfers []Transfer
	i, j := 0, 0
	for {
		for i < len(buys) && toBuy[i] == 0 {
			i++
		}
		for j < len(sells) && toSell[j] == 0 {
			j++
		}
		if i == len(buys) || j == len(sells) {
			return transfers
		}
		units := min(toBuy[i], toSell[j])
		transfers = append(transfers, Transfer{SellID: sells[j].ID, BuyID: buys[i].ID, Units: units})
		toBuy[i] -= units
		toSell[j] -= units
	}
}
