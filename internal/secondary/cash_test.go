package secondary

import (
	"math/rand/v2"
	"testing"
)

// TestASellersNetIsSplitOverItsSwapsExactly: with cash on chain each BUY's swap pays the
// sellers of its units; a SELL paired with several BUYs is paid its net in parts that add
// up to it exactly, each rounded down by its cumulative share, the last the rest.
func TestASellersNetIsSplitOverItsSwapsExactly(t *testing.T) {
	got, err := SplitNet(1000, []int64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{333, 333, 334}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("1000 over 1, 1, 1: got %v, want %v", got, want)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		units := make([]int64, 1+r.IntN(8))
		var total int64
		for i := range units {
			units[i] = 1 + r.Int64N(1_000_000)
			total += units[i]
		}
		price := 1 + r.Int64N(5_000_000)
		gross := total * price
		net := gross - r.Int64N(gross/10+1)
		parts, err := SplitNet(net, units)
		if err != nil {
			t.Fatal(err)
		}
		var sum int64
		for i, p := range parts {
			if p < 0 || p > units[i]*price {
				t.Fatalf("net %d over %v at %d: part %d is %d", net, units, price, i, p)
			}
			sum += p
		}
		if sum != net {
			t.Fatalf("net %d over %v: the parts add up to %d", net, units, sum)
		}
	}
	for _, bad := range [][]int64{nil, {0}, {3, -1}} {
		if _, err := SplitNet(10, bad); err == nil {
			t.Fatalf("units %v: no error", bad)
		}
	}
	if _, err := SplitNet(-1, []int64{1}); err == nil {
		t.Fatal("a negative net: no error")
	}
}
