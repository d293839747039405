package holdings

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const isin = investv1.ISIN("IE00B4L5Y983")

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func order(name string, side investv1.OrderSide, units int64, state investv1.OrderState, completedAt time.Time) investv1.Order {
	o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}}
	o.Spec = investv1.OrderSpec{Side: side, ISIN: isin, AmountOfUnits: units}
	o.Status.State = state
	if state == investv1.StateCompleted {
		o.Status.History = []investv1.OrderTransition{{State: investv1.StateCompleted, At: metav1.NewTime(completedAt)}}
	}
	return o
}

func lockUp(days int32) func(investv1.ISIN) int32 { return func(investv1.ISIN) int32 { return days } }

func TestHoldingsComeFromCompletedOrdersOnly(t *testing.T) {
	p := Compute(Input{Now: t0.AddDate(0, 1, 0), LockUpDays: lockUp(0), Orders: []investv1.Order{
		order("b1", investv1.SideBuy, 100, investv1.StateCompleted, t0),
		order("b2", investv1.SideBuy, 50, investv1.StateExecuted, t0),
		order("b3", investv1.SideBuy, 70, investv1.StateCancelled, t0),
		order("s1", investv1.SideSell, 30, investv1.StateCompleted, t0.AddDate(0, 0, 1)),
	}})[isin]
	if p.Units != 70 || p.Locked != 0 || p.Reserved != 0 {
		t.Fatalf("got units %d locked %d reserved %d, want 70/0/0", p.Units, p.Locked, p.Reserved)
	}
}

func TestUnitsYoungerThanTheLockUpAreLocked(t *testing.T) {
	orders := []investv1.Order{
		order("old", investv1.SideBuy, 40, investv1.StateCompleted, t0),
		order("new", investv1.SideBuy, 60, investv1.StateCompleted, t0.AddDate(0, 0, 20)),
	}
	now := t0.AddDate(0, 0, 35) // old unlocked after 30 days, new still locked
	p := Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: now})[isin]
	if p.Units != 100 || p.Locked != 60 || p.Redeemable() != 40 {
		t.Fatalf("got units %d locked %d redeemable %d, want 100/60/40", p.Units, p.Locked, p.Redeemable())
	}
	if want := t0.AddDate(0, 0, 50); !p.NextUnlock(now).Equal(want) {
		t.Fatalf("next unlock %v, want %v", p.NextUnlock(now), want)
	}
}

func TestALotUnlocksAtTheReleaseTimeItsMintWroteOnChain(t *testing.T) {
	minted := order("minted", investv1.SideBuy, 60, investv1.StateCompleted, t0)
	// The mint was prepared a minute before completion: the token releases the units at
	// that time plus the lock-up, not at completion plus the lock-up.
	release := metav1.NewTime(t0.Add(-time.Minute).AddDate(0, 0, 30))
	minted.Status.Chain = &investv1.OrderChainStatus{LockedUntil: &release}
	legacy := order("legacy", investv1.SideBuy, 40, investv1.StateCompleted, t0) // nothing recorded
	orders := []investv1.Order{minted, legacy}
	for _, tc := range []struct {
		now            time.Time
		locked, unlock int64
	}{
		{release.Add(-time.Second), 100, 0},
		{release.Time, 40, 60}, // the recorded instant, as block.timestamp >= release
		{t0.AddDate(0, 0, 30).Add(-time.Second), 40, 60},
		{t0.AddDate(0, 0, 30), 0, 100}, // the order without a record: completion + 30 days
	} {
		p := Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: tc.now})[isin]
		if p.Locked != tc.locked || p.Redeemable() != tc.unlock {
			t.Fatalf("at %v: locked %d redeemable %d, want %d/%d", tc.now, p.Locked, p.Redeemable(), tc.locked, tc.unlock)
		}
	}
	if got := Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: t0})[isin].NextUnlock(t0); !got.Equal(release.Time) {
		t.Fatalf("next unlock %v, want the recorded %v", got, release.Time)
	}
}

func TestSellsConsumeTheOldestLotsFirst(t *testing.T) {
	orders := []investv1.Order{
		order("new", investv1.SideBuy, 60, investv1.StateCompleted, t0.AddDate(0, 0, 20)),
		order("old", investv1.SideBuy, 40, investv1.StateCompleted, t0),
		order("sold", investv1.SideSell, 30, investv1.StateCompleted, t0.AddDate(0, 0, 31)),
	}
	p := Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: t0.AddDate(0, 0, 35)})[isin]
	if p.Units != 70 || p.Locked != 60 || len(p.Lots) != 2 || p.Lots[0].Units != 10 {
		t.Fatalf("got units %d locked %d lots %+v", p.Units, p.Locked, p.Lots)
	}
}

func TestReservationsOfLiveSellsAreNotAvailableAgain(t *testing.T) {
	orders := []investv1.Order{
		order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0),
		order("live", investv1.SideSell, 60, investv1.StatePlaced, time.Time{}),
		order("done", investv1.SideSell, 10, investv1.StateCompleted, t0.AddDate(0, 0, 1)),
		order("gone", investv1.SideSell, 20, investv1.StateCancelled, time.Time{}),
	}
	res := []investv1.UnitReservation{
		{Order: "live", ISIN: isin, Units: 60},
		{Order: "done", ISIN: isin, Units: 10},  // already counted as sold
		{Order: "gone", ISIN: isin, Units: 20},  // cancelled: holds nothing
		{Order: "unseen", ISIN: isin, Units: 5}, // not in the cache yet: still holds
	}
	positions := Compute(Input{Orders: orders, Reservations: res, LockUpDays: lockUp(0), Now: t0.AddDate(0, 1, 0)})
	p := positions[isin]
	if p.Units != 90 || p.Reserved != 65 || p.Free() != 25 {
		t.Fatalf("got units %d reserved %d free %d, want 90/65/25", p.Units, p.Reserved, p.Free())
	}
	if code, _, ok := SellCheck(positions, isin, 26); ok || code != CodeInsufficientHoldings {
		t.Fatalf("26 units: got %q ok=%v", code, ok)
	}
	if _, _, ok := SellCheck(positions, isin, 25); !ok {
		t.Fatal("25 units should fit")
	}
	// Checking "live" itself leaves its own reservation out.
	again := Compute(Input{Orders: orders, Reservations: res, LockUpDays: lockUp(0), Now: t0.AddDate(0, 1, 0), Exclude: "live"})
	if _, _, ok := SellCheck(again, isin, 60); !ok {
		t.Fatal("the order's own reservation must not count against it")
	}
}

func TestASellOfLockedUnitsIsRefusedAsSharesLocked(t *testing.T) {
	orders := []investv1.Order{order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0)}
	positions := Compute(Input{Orders: orders, LockUpDays: lockUp(90), Now: t0.AddDate(0, 0, 10)})
	code, msg, ok := SellCheck(positions, isin, 10)
	if ok || code != CodeSharesLocked || msg == "" {
		t.Fatalf("got %q %q ok=%v", code, msg, ok)
	}
	if code, _, _ := SellCheck(positions, isin, 101); code != CodeInsufficientHoldings {
		t.Fatalf("more than held: got %q", code)
	}
	if code, _, _ := SellCheck(positions, "LU0274208692", 1); code != CodeInsufficientHoldings {
		t.Fatalf("nothing held: got %q", code)
	}
}

func TestToStatusIsSortedAndOmitsEmptyPositions(t *testing.T) {
	orders := []investv1.Order{
		order("b", investv1.SideBuy, 5, investv1.StateCompleted, t0),
		order("s", investv1.SideSell, 5, investv1.StateCompleted, t0.AddDate(0, 0, 1)),
	}
	if got := ToStatus(Compute(Input{Orders: orders, Now: t0.AddDate(0, 1, 0)})); len(got) != 0 {
		t.Fatalf("a sold-out position must not show: %+v", got)
	}
}

func withUID(o investv1.Order, uid string) investv1.Order {
	o.UID = types.UID(uid)
	return o
}

// withArchive is the Input of live orders and of archived ones as the archive sums them
// (Summarize, folding before foldBefore), asking about every live order.
func withArchive(live, archived []investv1.Order, foldBefore time.Time) Input {
	var uids []types.UID
	for _, o := range live {
		uids = append(uids, o.UID)
	}
	s := Summarize(archived, foldBefore, uids)
	return Input{Orders: live, Archived: &s}
}

func TestAnArchivedOrderCountsOnceWhetherOrNotItIsStillLive(t *testing.T) {
	buy := withUID(order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0), "u-b")
	sell := withUID(order("s", investv1.SideSell, 30, investv1.StateCompleted, t0.AddDate(0, 0, 1)), "u-s")
	newBuy := withUID(order("n", investv1.SideBuy, 5, investv1.StateCompleted, t0.AddDate(0, 0, 2)), "u-n")
	for _, tc := range []struct {
		name           string
		live, archived []investv1.Order
	}{
		{"all live", []investv1.Order{buy, sell, newBuy}, nil},
		{"archived and still live (written, not yet deleted)", []investv1.Order{buy, sell, newBuy}, []investv1.Order{buy, sell}},
		{"archived and deleted", []investv1.Order{newBuy}, []investv1.Order{buy, sell}},
		{"a lagging cache still shows one deleted", []investv1.Order{sell, newBuy}, []investv1.Order{buy, sell}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Both lots still locked (60 days), so that folding leaves them apart.
			in := withArchive(tc.live, tc.archived, t0.AddDate(-1, 0, 0))
			in.LockUpDays, in.Now = lockUp(60), t0.AddDate(0, 1, 0)
			p := Compute(in)[isin]
			if p.Units != 75 || len(p.Lots) != 2 || p.Lots[0].Units != 70 {
				t.Fatalf("got units %d lots %+v, want 75 in lots of 70 and 5", p.Units, p.Lots)
			}
		})
	}
}

func TestArchivedBuysKeepTheirLockUp(t *testing.T) {
	buy := withUID(order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0), "u-b")
	in := withArchive(nil, []investv1.Order{buy}, t0.AddDate(-1, 0, 0))
	in.LockUpDays, in.Now = lockUp(365), t0.AddDate(0, 4, 0)
	p := Compute(in)[isin]
	if p.Units != 100 || p.Locked != 100 || p.Redeemable() != 0 {
		t.Fatalf("got units %d locked %d, want 100 locked for a year", p.Units, p.Locked)
	}
}

func TestAnArchivedOrderWhoseNameALiveOrderOfAnotherUIDBearsCountsToo(t *testing.T) {
	old := withUID(order("x", investv1.SideBuy, 10, investv1.StateCompleted, t0), "u-old")
	reused := withUID(order("x", investv1.SideBuy, 20, investv1.StateCompleted, t0.AddDate(0, 0, 1)), "u-new")
	in := withArchive([]investv1.Order{reused}, []investv1.Order{old}, t0.AddDate(-1, 0, 0))
	in.Now = t0.AddDate(0, 0, 2)
	if p := Compute(in)[isin]; p.Units != 30 {
		t.Fatalf("got %d units, want both orders' 30", p.Units)
	}
}

// TestTheArchiveSummaryGivesTheHoldingsOfTheWholeHistory: whatever part of an account's
// history is archived (and summed, buys before the cut-off into one lot), and whichever
// archived orders are still live too, the positions are exactly those of the whole
// history computed order by order: every figure and every lot, the folded one included.
func TestTheArchiveSummaryGivesTheHoldingsOfTheWholeHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2026))
	summed := 0
	for n := range 3000 {
		in := randomInput(r)
		maxDays := int32(0)
		for i := range in.Orders {
			in.Orders[i].UID = types.UID("u-" + in.Orders[i].Name)
			maxDays = max(maxDays, in.LockUpDays(in.Orders[i].Spec.ISIN))
		}
		var live, archived []investv1.Order
		for _, o := range in.Orders {
			switch {
			case !o.Status.State.Terminal() || r.IntN(3) == 0:
				live = append(live, o)
			case r.IntN(4) == 0: // archived, not yet deleted
				live, archived = append(live, o), append(archived, o)
			default:
				archived = append(archived, o)
			}
		}
		split := withArchive(live, archived, in.Now.AddDate(0, 0, -int(maxDays)-1))
		split.Archived.Finished = map[string]bool{} // as placement looks up the reservations not live
		for _, o := range archived {
			split.Archived.Finished[o.Name] = true
		}
		split.Reservations, split.LockUpDays, split.Now, split.Exclude = in.Reservations, in.LockUpDays, in.Now, in.Exclude
		for _, a := range split.Archived.ByISIN {
			if len(a.Bought) > 0 && a.Bought[0].CompletedAt.Before(in.Now.AddDate(0, 0, -int(maxDays)-1)) {
				summed++
			}
		}
		want, got := Compute(in), Compute(split)
		if len(got) != len(want) {
			t.Fatalf("case %d: %d positions, want %d", n, len(got), len(want))
		}
		for id, w := range want {
			g := got[id]
			if g == nil || g.Units != w.Units || g.Locked != w.Locked || g.Reserved != w.Reserved ||
				g.Subscribed != w.Subscribed || g.Redeemed != w.Redeemed || g.SecondaryBought != w.SecondaryBought || g.SecondarySold != w.SecondarySold ||
				!slices.EqualFunc(g.Lots, w.Lots, func(a, b Lot) bool {
					return a.Units == b.Units && a.AcquiredAt.Equal(b.AcquiredAt) && a.UnlocksAt.Equal(b.UnlocksAt)
				}) {
				t.Fatalf("case %d %s:\n got %+v\nwant %+v", n, id, g, w)
			}
		}
	}
	if summed < 100 {
		t.Fatalf("only %d positions had summed buys: the cases do not exercise the cut-off", summed)
	}
}

// TestAPortfolioShowsSecondaryTradesApartFromSubscriptionsAndRedemptions: the units of
// completed PRIMARY orders (issued and redeemed by the fund) and of completed SECONDARY
// ones (bought from and sold to other investors in matching windows) are shown apart,
// live and archived alike, and with the transfers they add up to the units held.
func TestAPortfolioShowsSecondaryTradesApartFromSubscriptionsAndRedemptions(t *testing.T) {
	secondary := func(o investv1.Order) investv1.Order { o.Spec.Market = investv1.MarketSecondary; return o }
	orders := []investv1.Order{
		order("sub", investv1.SideBuy, 100, investv1.StateCompleted, t0),
		order("red", investv1.SideSell, 10, investv1.StateCompleted, t0.AddDate(0, 0, 1)),
		secondary(order("bought", investv1.SideBuy, 40, investv1.StateCompleted, t0.AddDate(0, 0, 2))),
		secondary(order("sold", investv1.SideSell, 25, investv1.StateCompleted, t0.AddDate(0, 0, 3))),
		secondary(order("open", investv1.SideBuy, 7, investv1.StateExecuted, t0.AddDate(0, 0, 3))),
		order("old-sub", investv1.SideBuy, 30, investv1.StateCompleted, t0.AddDate(0, 0, -40)),
		secondary(order("old-bought", investv1.SideBuy, 5, investv1.StateCompleted, t0.AddDate(0, 0, -40))),
		secondary(order("old-sold", investv1.SideSell, 3, investv1.StateCompleted, t0.AddDate(0, 0, -39))),
		order("old-red", investv1.SideSell, 2, investv1.StateCompleted, t0.AddDate(0, 0, -38)),
	}
	in := Input{Now: t0.AddDate(0, 0, 10), LockUpDays: lockUp(0), Orders: orders[:5],
		Archived: func() *Summary { s := Summarize(orders[5:], t0.AddDate(0, 0, -20), nil); return &s }(),
		Transfers: []investv1.Transfer{
			{Spec: investv1.TransferSpec{ISIN: isin, Units: 6, Direction: investv1.TransferIn, TransactionHash: "0x1", BlockTime: metav1.NewTime(t0)}},
			{Spec: investv1.TransferSpec{ISIN: isin, Units: 4, Direction: investv1.TransferOut, TransactionHash: "0x2", BlockTime: metav1.NewTime(t0)}},
		}}
	p := Compute(in)[isin]
	if p.Subscribed != 130 || p.Redeemed != 12 || p.SecondaryBought != 45 || p.SecondarySold != 28 {
		t.Fatalf("subscribed %d redeemed %d secondary bought %d sold %d; want 130/12/45/28", p.Subscribed, p.Redeemed, p.SecondaryBought, p.SecondarySold)
	}
	if sum := p.Subscribed - p.Redeemed + p.SecondaryBought - p.SecondarySold + p.TransferredIn - p.TransferredOut; p.Units != 137 || sum != p.Units {
		t.Fatalf("units %d, the figures add up to %d; want 137 both", p.Units, sum)
	}
	h := ToStatus(map[investv1.ISIN]*Position{isin: p})[0]
	if h.SubscribedUnits != 130 || h.RedeemedUnits != 12 || h.SecondaryBoughtUnits != 45 || h.SecondarySoldUnits != 28 {
		t.Fatalf("the account's status: %+v", h)
	}
}

// TestASecondarySellWhoseUnitsLeftByTheBlockHoldsNoneOfTheOnChainFigure: a SECONDARY
// SELL is never burned; its units leave in its buyers' settlements, and its
// unitsDelivered names the block of the last. Until it completes (its payout) its
// reservation stands, but an on-chain figure of that block or later has its units gone
// already: they are not held back from a next SELL a second time.
func TestASecondarySellWhoseUnitsLeftByTheBlockHoldsNoneOfTheOnChainFigure(t *testing.T) {
	delivered := func(name string, block int64) investv1.Order {
		o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.OrderSpec{Side: investv1.SideSell, Market: investv1.MarketSecondary, ISIN: isin}}
		o.Status.State = investv1.StateExecuted
		o.Status.Settlement.UnitsDelivered = &investv1.SettlementRecord{TransactionHash: "0x1", BlockNumber: block, At: metav1.NewTime(t0)}
		return o
	}
	matched := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: "matched"}, Spec: investv1.OrderSpec{Side: investv1.SideSell, Market: investv1.MarketSecondary, ISIN: isin}}
	orders := []investv1.Order{delivered("left-at-9", 9), delivered("left-at-11", 11), delivered("no-chain", 0), matched}
	res := []investv1.UnitReservation{
		{Order: "left-at-9", ISIN: isin, Units: 6}, {Order: "left-at-11", ISIN: isin, Units: 20},
		{Order: "no-chain", ISIN: isin, Units: 300}, {Order: "matched", ISIN: isin, Units: 4000},
	}
	if got, want := NotBurnedBy(res, orders, isin, "", 10), int64(20+300+4000); got != want {
		t.Fatalf("NotBurnedBy = %d, want %d (units left at or below the block count no more; after it, without a block, or not delivered they do)", got, want)
	}
}

// TestASellIsCheckedAgainstTheUnitsOnChain: a sell may claim the units on chain at the
// recorded block less those reserved by other sells not burned by that block; without
// on-chain figures (no chain) it is not checked here.
func TestASellIsCheckedAgainstTheUnitsOnChain(t *testing.T) {
	sell := func(name string, receipt *investv1.ChainReceipt) investv1.Order {
		o := investv1.Order{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.OrderSpec{Side: investv1.SideSell, ISIN: isin}}
		if receipt != nil {
			o.Status.Chain = &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{Receipt: receipt}}
		}
		return o
	}
	orders := []investv1.Order{
		sell("unsent", nil),
		sell("burned-at-9", &investv1.ChainReceipt{Status: investv1.ChainReceiptSucceeded, BlockNumber: 9}),
		sell("burned-at-11", &investv1.ChainReceipt{Status: investv1.ChainReceiptSucceeded, BlockNumber: 11}),
		sell("reverted", &investv1.ChainReceipt{Status: investv1.ChainReceiptReverted, BlockNumber: 5}),
	}
	res := []investv1.UnitReservation{
		{Order: "unsent", ISIN: isin, Units: 1}, {Order: "burned-at-9", ISIN: isin, Units: 10},
		{Order: "burned-at-11", ISIN: isin, Units: 100}, {Order: "reverted", ISIN: isin, Units: 1000},
		{Order: "gone", ISIN: isin, Units: 10000}, {Order: "other-isin", ISIN: "LU0274208692", Units: 100000},
		{Order: "self", ISIN: isin, Units: 1000000},
	}
	if got, want := NotBurnedBy(res, orders, isin, "self", 10), int64(1+100+1000+10000); got != want {
		t.Fatalf("NotBurnedBy = %d, want %d (unsent, burned after the block, reverted and unknown sells count; a burn at or below it does not)", got, want)
	}
	onChain := &investv1.OnChainHoldings{Block: 10, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 453}}}
	if _, _, ok := OnChainCheck(onChain, isin, 400, 0, 0, 53); !ok {
		t.Error("400 of 453 on chain with 53 reserved: refused")
	}
	if _, msg, ok := OnChainCheck(onChain, isin, 410, 5, 0, 53); ok || !strings.Contains(msg, "453 on chain at block 10 (and 5 minted since), 53 reserved") {
		t.Errorf("410 of 453+5 with 53 reserved: %v %q", ok, msg)
	}
	if _, _, ok := OnChainCheck(onChain, isin, 405, 5, 0, 53); !ok {
		t.Error("405 of 453+5 minted since with 53 reserved: refused")
	}
	code, msg, ok := OnChainCheck(onChain, isin, 401, 0, 0, 53)
	if ok || code != CodeInsufficientHoldings || !strings.Contains(msg, "401 units of IE00B4L5Y983 requested, 453 on chain at block 10, 53 reserved by other sells not burned by then") {
		t.Errorf("401 of 453 with 53 reserved: %v %q %q", ok, code, msg)
	}
	if _, msg, ok := OnChainCheck(onChain, "LU0274208692", 1, 0, 0, 0); ok || !strings.Contains(msg, "0 on chain") {
		t.Errorf("an ISIN with nothing on chain: %v %q", ok, msg)
	}
	if _, _, ok := OnChainCheck(nil, isin, 1_000_000, 0, 0, 0); !ok {
		t.Error("no on-chain figures (no chain): refused")
	}
	buy := func(units, block int64, status investv1.ChainReceiptStatus) investv1.Order {
		o := investv1.Order{Spec: investv1.OrderSpec{Side: investv1.SideBuy, ISIN: isin, AmountOfUnits: units}}
		o.Status.Chain = &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{Receipt: &investv1.ChainReceipt{Status: status, BlockNumber: block}}}
		return o
	}
	buys := []investv1.Order{buy(1, 9, investv1.ChainReceiptSucceeded), buy(10, 10, investv1.ChainReceiptSucceeded), buy(100, 11, investv1.ChainReceiptSucceeded),
		buy(1000, 12, investv1.ChainReceiptReverted), {Spec: investv1.OrderSpec{Side: investv1.SideBuy, ISIN: isin, AmountOfUnits: 10000}}}
	if got := MintedAfter(buys, isin, 10); got != 100 {
		t.Errorf("MintedAfter = %d, want 100 (only the final, successful mint above the block)", got)
	}
}

// TestUnitsTransferredOnChainSinceTheOnChainFiguresCountForASell: units a holder transfer
// brought to the account's wallets after the block of its on-chain figures may be sold at
// once (the ledger has not compared since), units sent away after it may not; a move
// between two wallets of the account nets to zero, and transfers at or below the block
// are in the figure already.
func TestUnitsTransferredOnChainSinceTheOnChainFiguresCountForASell(t *testing.T) {
	xfer := func(dir investv1.TransferDirection, units, block int64, of investv1.ISIN) investv1.Transfer {
		return investv1.Transfer{Spec: investv1.TransferSpec{Direction: dir, Units: units, BlockNumber: block, ISIN: of}}
	}
	transfers := []investv1.Transfer{
		xfer(investv1.TransferIn, 1, 9, isin), xfer(investv1.TransferOut, 10, 10, isin), // in the figure of block 10
		xfer(investv1.TransferIn, 400, 11, isin),                                        // since
		xfer(investv1.TransferIn, 7, 12, isin), xfer(investv1.TransferOut, 7, 12, isin), // a move between the account's wallets
		xfer(investv1.TransferIn, 5000, 13, "LU0274208692"), // another ISIN
	}
	if got := TransferredAfter(transfers, isin, 10); got != 400 {
		t.Fatalf("TransferredAfter = %d, want 400", got)
	}
	// The ledger last compared at block 10, when the account held nothing.
	onChain := &investv1.OnChainHoldings{Block: 10}
	if _, msg, ok := OnChainCheck(onChain, isin, 300, 0, TransferredAfter(transfers, isin, 10), 0); !ok {
		t.Errorf("a sell of 300 of 400 units transferred in since the block: refused: %s", msg)
	}
	if _, msg, ok := OnChainCheck(onChain, isin, 401, 0, 400, 0); ok || !strings.Contains(msg, "0 on chain at block 10 (and 400 transferred in since), 0 reserved") {
		t.Errorf("a sell of 401 of 400 transferred in: %v %q", ok, msg)
	}
	// 1000 on chain at block 10, 400 sent away since.
	onChain = &investv1.OnChainHoldings{Block: 10, Holdings: []investv1.OnChainHolding{{ISIN: isin, Units: 1000}}}
	sent := TransferredAfter([]investv1.Transfer{xfer(investv1.TransferOut, 400, 11, isin)}, isin, 10)
	if _, _, ok := OnChainCheck(onChain, isin, 600, 0, sent, 0); !ok {
		t.Error("a sell of the 600 units left after 400 sent away: refused")
	}
	if _, msg, ok := OnChainCheck(onChain, isin, 601, 0, sent, 0); ok || !strings.Contains(msg, "1000 on chain at block 10 (and 400 transferred out since)") {
		t.Errorf("a sell of 601 after 400 of 1000 sent away: %v %q", ok, msg)
	}
}
