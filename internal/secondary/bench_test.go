package secondary_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// BenchmarkMatchTenThousandOrders is one window of 5,000 BUYs and 5,000 SELLs of uneven
// sizes (the SELL side larger, so it is filled pro rata with leftover units to place).
func BenchmarkMatchTenThousandOrders(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	orders := make([]secondary.Order, 0, 10_000)
	for i := range 10_000 {
		side, units := investv1.SideBuy, 1+rng.Int64N(10_000)
		if i%2 == 1 {
			side, units = investv1.SideSell, 1+rng.Int64N(25_000)
		}
		orders = append(orders, secondary.Order{ID: fmt.Sprintf("order-%05d", i), Side: side, Units: units,
			PlacedAt: opening.Add(time.Duration(rng.IntN(86_400)) * time.Second)})
	}
	p := secondary.Policy{SpreadBps: 50, BuyFeeRate: 100, SellFeeRate: 100, MaxCarry: 3}
	for b.Loop() {
		if _, err := secondary.Match(window, p, orders); err != nil {
			b.Fatal(err)
		}
	}
}
