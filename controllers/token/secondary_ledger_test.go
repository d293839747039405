package token_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// A SECONDARY SELL has no transaction of its own: its units leave the seller's wallet
// with its buyers' transfers. The ledger comparison counts, for the seller's account, the
// units of each leg whose BUY's settleWithRef was mined at or below the compared block
// (a BUY already archived moved its units), so that the seller's holdings, which keep the
// units until the SELL completes, are not reported out of sync.
func TestASecondarySellCountsTheUnitsItsBuyersTransfersMovedByTheBlock(t *testing.T) {
	const ns, date = "tenant", "2026-03-10"
	at := metav1.Now()
	window := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: "xs0000000001-" + date},
		Spec: investv1.MatchingWindowSpec{ISIN: "XS0000000001", Date: date},
		Status: investv1.MatchingWindowStatus{NAV: &investv1.DealingNAV{NAVPerShare: 1_000_000, Date: date, RecordedAt: at},
			Policy: &investv1.MatchingPolicy{}, Book: []string{"SELL 4 0 tenant/sell", "BUY 3 0 tenant/buy-1", "BUY 1 0 tenant/buy-2", "BUY 2 0 tenant/buy-3"}}}
	order := func(name string, side investv1.OrderSide, units int64, mined int64) *investv1.Order {
		o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: investv1.OrderSpec{Side: side, Market: investv1.MarketSecondary, ISIN: "XS0000000001", AmountOfUnits: units,
				Quote: &investv1.OrderQuote{Window: &investv1.OrderWindow{Date: date}}},
			Status: investv1.OrderStatus{State: investv1.StateExecuted, Strike: &investv1.OrderContractNote{Units: units,
				Secondary: &investv1.OrderSecondaryFill{Window: window.Name, RequestedUnits: units}}}}
		if mined > 0 {
			o.Status.Chain = &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{
				Receipt: &investv1.ChainReceipt{BlockNumber: mined, Status: investv1.ChainReceiptSucceeded}}}
		}
		return o
	}
	// The window pairs the SELL's 4 units with BUYs asking 3, 1 and 2 (6): 3 × 4 / 6 = 2,
	// 1 × 4 / 6 = 0 remainder 4, 2 × 4 / 6 = 1 remainder 2, the unit left over to buy-2:
	// legs of 2 (buy-1, mined at block 10), 1 (buy-2, at 20) and 1 (buy-3, archived).
	sell := order("sell", investv1.SideSell, 4, 0)
	buy1, buy2 := order("buy-1", investv1.SideBuy, 3, 10), order("buy-2", investv1.SideBuy, 1, 20)
	objs := []client.Object{window, sell, buy1, buy2} // buy-3 is archived
	r := &LedgerReconciler{Client: ctrltest.FakeClient(t, objs, window, sell, buy1, buy2)}
	legs := map[uint64]int64{}
	for _, block := range []uint64{5, 10, 20} {
		units, err := r.SettledBy(context.Background(), sell, block)
		if err != nil {
			t.Fatal(err)
		}
		legs[block] = units
	}
	if want := map[uint64]int64{5: -1, 10: -3, 20: -4}; legs[5] != want[5] || legs[10] != want[10] || legs[20] != want[20] {
		t.Fatalf("units the SELL's legs moved by block 5, 10 and 20: %v, want %v", legs, want)
	}
}
