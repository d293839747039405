package secondary_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// randomOrders is n orders of either side, of uneven sizes (1 to 10^6 units, a few of them
// much larger), some placed at the same instant, some carried.
func randomOrders(rng *rand.Rand, n int) []secondary.Order {
	orders := make([]secondary.Order, n)
	for i := range orders {
		side := investv1.SideBuy
		if rng.IntN(2) == 0 {
			side = investv1.SideSell
		}
		units := 1 + rng.Int64N(1_000)
		if rng.IntN(10) == 0 {
			units = 1 + rng.Int64N(1_000_000_000)
		}
		orders[i] = secondary.Order{ID: fmt.Sprintf("o%05d", i), Side: side, Units: units,
			PlacedAt: opening.Add(time.Duration(rng.IntN(n)) * time.Second), WindowsCarried: rng.IntN(4)}
	}
	return orders
}

// checkInvariants checks what holds of every match: each side fills exactly V = min of the
// sides' totals; each fill is at most its request, within one unit of its exact pro rata
// share (floor or floor + 1) and only rounded up ahead of every order with a smaller
// remainder; outcome and fate agree with the fill and the policy; the transfers move every
// order's fill and no more, in at most buys + sells − 1 legs.
func checkInvariants(t *testing.T, p secondary.Policy, orders []secondary.Order, r secondary.Result) {
	t.Helper()
	if len(r.Fills) != len(orders) {
		t.Fatalf("%d fills for %d orders", len(r.Fills), len(orders))
	}
	total := map[investv1.OrderSide]int64{}
	for _, o := range orders {
		total[o.Side] += o.Units
	}
	volume := min(total[investv1.SideBuy], total[investv1.SideSell])
	if r.Published.Volume != volume {
		t.Fatalf("published volume %d, want %d", r.Published.Volume, volume)
	}
	sums := map[investv1.OrderSide]int64{}
	filledOrders := map[investv1.OrderSide]int{}
	// The smallest remainder rounded up and the largest rounded down, per side.
	minUp, maxDown := map[investv1.OrderSide]*big.Int{}, map[investv1.OrderSide]*big.Int{}
	for _, f := range r.Fills {
		sums[f.Side] += f.Filled
		if f.Filled > 0 {
			filledOrders[f.Side]++
		}
		if f.Filled < 0 || f.Filled > f.Requested || f.Remainder != f.Requested-f.Filled {
			t.Fatalf("order %s: %d of %d filled, remainder %d", f.ID, f.Filled, f.Requested, f.Remainder)
		}
		floor, rem := new(big.Int).QuoRem(new(big.Int).Mul(big.NewInt(f.Requested), big.NewInt(volume)), big.NewInt(total[f.Side]), new(big.Int))
		switch up := f.Filled - floor.Int64(); {
		case up == 1 && rem.Sign() > 0:
			if minUp[f.Side] == nil || rem.Cmp(minUp[f.Side]) < 0 {
				minUp[f.Side] = rem
			}
		case up == 0:
			if maxDown[f.Side] == nil || rem.Cmp(maxDown[f.Side]) > 0 {
				maxDown[f.Side] = rem
			}
		default:
			t.Fatalf("order %s: filled %d, its exact share is %s + %s/%d", f.ID, f.Filled, floor, rem, total[f.Side])
		}
		checkDisposition(t, p, orders, f)
	}
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		if sums[side] != volume {
			t.Fatalf("%s fills add up to %d, want %d", side, sums[side], volume)
		}
		if minUp[side] != nil && maxDown[side] != nil && minUp[side].Cmp(maxDown[side]) < 0 {
			t.Fatalf("%s: a remainder of %s got a leftover unit, one of %s did not", side, minUp[side], maxDown[side])
		}
	}
	checkTransfers(t, r, filledOrders[investv1.SideBuy]+filledOrders[investv1.SideSell])
}

func checkDisposition(t *testing.T, p secondary.Policy, orders []secondary.Order, f secondary.Fill) {
	t.Helper()
	var o secondary.Order
	for _, x := range orders {
		if x.ID == f.ID {
			o = x
		}
	}
	var wantFate secondary.Fate
	wantWindows := o.WindowsCarried
	switch {
	case f.Remainder == 0:
	case o.WindowsCarried < p.MaxCarry:
		wantFate, wantWindows = secondary.Carried, o.WindowsCarried+1
	default:
		wantFate = secondary.Cancelled
	}
	wantOutcome := secondary.Partial
	switch f.Filled {
	case f.Requested:
		wantOutcome = secondary.Filled
	case 0:
		wantOutcome = secondary.Unfilled
	}
	if f.Fate != wantFate || f.WindowsCarried != wantWindows || f.Outcome != wantOutcome {
		t.Fatalf("order %s (carried %d, MaxCarry %d): %s, %s, %d; want %s, %s, %d", f.ID, o.WindowsCarried, p.MaxCarry,
			f.Outcome, f.Fate, f.WindowsCarried, wantOutcome, wantFate, wantWindows)
	}
}

func checkTransfers(t *testing.T, r secondary.Result, filledOrders int) {
	t.Helper()
	if filledOrders > 0 && len(r.Transfers) > filledOrders-1 {
		t.Fatalf("%d transfers for %d filled orders", len(r.Transfers), filledOrders)
	}
	moved := map[string]int64{}
	for _, tr := range r.Transfers {
		if tr.Units < 1 {
			t.Fatalf("transfer %+v moves no units", tr)
		}
		moved[tr.SellID] += tr.Units
		moved[tr.BuyID] += tr.Units
	}
	for _, f := range r.Fills {
		if moved[f.ID] != f.Filled {
			t.Fatalf("order %s: transfers move %d units, it filled %d", f.ID, moved[f.ID], f.Filled)
		}
	}
}

func TestMatchInvariantsHoldForRandomWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 26))
	for i := range 2_000 {
		orders := randomOrders(rng, 1+rng.IntN(40))
		p := secondary.Policy{SpreadBps: rng.Int64N(10_001), BuyFeeRate: rng.Int64N(10_001), SellFeeRate: rng.Int64N(10_001), MaxCarry: rng.IntN(4)}
		r, err := secondary.Match(window, p, orders)
		if err != nil {
			t.Fatalf("window %d: %v", i, err)
		}
		checkInvariants(t, p, orders, r)
	}
}

// FuzzMatch decodes orders from bytes (9 a piece: a flag byte, then the units, which may be
// anything an int64 holds) and checks that Match never panics and that, whenever it
// accepts the input, the invariants hold.
func FuzzMatch(f *testing.F) {
	seed := func(units ...int64) []byte {
		var b []byte
		for i, u := range units {
			b = append(b, byte(i))
			b = binary.LittleEndian.AppendUint64(b, uint64(u))
		}
		return b
	}
	f.Add(seed(7, 4, 5, 2, 3), int64(1_050_000), uint16(25), uint16(100), uint16(50), uint8(2))
	f.Add(seed(3e18, 4e18, 3e18, 2, 3e18), int64(1), uint16(0), uint16(0), uint16(0), uint8(0))
	f.Add(seed(-1, 0, 1), int64(0), uint16(20_000), uint16(0), uint16(0), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, nav int64, spread, buyFee, sellFee uint16, maxCarry uint8) {
		var orders []secondary.Order
		for i := 0; i+9 <= len(data) && len(orders) < 200; i += 9 {
			flags := data[i]
			side := investv1.SideBuy
			if flags&1 == 1 {
				side = investv1.SideSell
			}
			if flags&0x80 != 0 {
				side = "HOLD"
			}
			id := fmt.Sprintf("o%d", len(orders))
			if flags&0x40 != 0 {
				id = "dup"
			}
			orders = append(orders, secondary.Order{ID: id, Side: side, Units: int64(binary.LittleEndian.Uint64(data[i+1:])),
				PlacedAt: opening.Add(time.Duration(flags>>1&7) * time.Minute), WindowsCarried: int(flags >> 4 & 3)})
		}
		w := secondary.Window{Date: "2026-03-31", NAVPerShare: nav}
		p := secondary.Policy{SpreadBps: int64(spread), BuyFeeRate: int64(buyFee), SellFeeRate: int64(sellFee), MaxCarry: int(maxCarry % 5)}
		r, err := secondary.Match(w, p, orders)
		if err != nil {
			return
		}
		checkInvariants(t, p, orders, r)
	})
}
