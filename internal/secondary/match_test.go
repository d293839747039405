package secondary_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

var (
	opening = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	// 105.0000 EUR per unit.
	window = secondary.Window{Date: "2026-03-31", NAVPerShare: 1_050_000}
)

// buy and sell are orders placed minute minutes after opening.
func buy(id string, units int64, minute int) secondary.Order {
	return secondary.Order{ID: id, Side: investv1.SideBuy, Units: units, PlacedAt: opening.Add(time.Duration(minute) * time.Minute)}
}

func sell(id string, units int64, minute int) secondary.Order {
	return secondary.Order{ID: id, Side: investv1.SideSell, Units: units, PlacedAt: opening.Add(time.Duration(minute) * time.Minute)}
}

func match(t *testing.T, p secondary.Policy, orders ...secondary.Order) secondary.Result {
	t.Helper()
	r, err := secondary.Match(window, p, orders)
	if err != nil {
		t.Fatalf("Match: %v", err)
	}
	return r
}

// filled is each order's fill by ID.
func filled(r secondary.Result) map[string]int64 {
	m := make(map[string]int64, len(r.Fills))
	for _, f := range r.Fills {
		m[f.ID] = f.Filled
	}
	return m
}

func fillOf(t *testing.T, r secondary.Result, id string) secondary.Fill {
	t.Helper()
	for _, f := range r.Fills {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no fill for order %q", id)
	return secondary.Fill{}
}

func TestTheLargerSideIsFilledProRataInWholeUnits(t *testing.T) {
	for _, c := range []struct {
		name   string
		orders []secondary.Order
		want   map[string]int64
	}{
		// V = 50 of 100 SELL units: 60 × 50/100 = 30, 30 × 50/100 = 15, 10 × 50/100 = 5.
		{"exact shares", []secondary.Order{sell("s1", 60, 0), sell("s2", 30, 1), sell("s3", 10, 2), buy("b1", 50, 3)},
			map[string]int64{"s1": 30, "s2": 15, "s3": 5, "b1": 50}},
		// V = 10 of 15: 7 × 10/15 = 4.67 → 4 (remainder 70 mod 15 = 10), 5 × 10/15 = 3.33 → 3
		// (50 mod 15 = 5), 3 × 10/15 = 2 (0). 9 given, the leftover unit to s1 (remainder 10).
		{"one leftover unit", []secondary.Order{sell("s1", 7, 0), sell("s2", 5, 1), sell("s3", 3, 2), buy("b1", 4, 3), buy("b2", 6, 4)},
			map[string]int64{"s1": 5, "s2": 3, "s3": 2, "b1": 4, "b2": 6}},
		// BUYs larger: V = 4 of 9: 3 × 4/9 = 1.33 → 1 each (remainder 3 each); the leftover
		// unit to the earliest, b2 (minute 1).
		{"the BUY side larger", []secondary.Order{buy("b1", 3, 2), buy("b2", 3, 1), buy("b3", 3, 3), sell("s1", 4, 0)},
			map[string]int64{"b1": 1, "b2": 2, "b3": 1, "s1": 4}},
		// V = 10 of 100: 0.1 → 0 (remainder 10), 0.1 → 0 (10), 9.8 → 9 (980 mod 100 = 80):
		// the leftover unit to s3. The two small SELLs get nothing.
		{"too small for a unit", []secondary.Order{sell("s1", 1, 0), sell("s2", 1, 1), sell("s3", 98, 2), buy("b1", 10, 3)},
			map[string]int64{"s1": 0, "s2": 0, "s3": 10, "b1": 10}},
		{"equal sides: everyone whole", []secondary.Order{buy("b1", 5, 0), buy("b2", 5, 1), sell("s1", 10, 2)},
			map[string]int64{"b1": 5, "b2": 5, "s1": 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := filled(match(t, secondary.Policy{}, c.orders...)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("fills %v, want %v", got, c.want)
			}
		})
	}
}

func TestLeftoverUnitsGoByLargestRemainderThenEarlierOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		orders []secondary.Order
		want   map[string]int64
	}{
		// V = 2 of 3: 1 × 2/3 = 0 each, remainder 2 each: the two leftover units to the two
		// earliest, sc (minute 1) and sa (minute 2).
		{"equal remainders: the earlier order", []secondary.Order{sell("sa", 1, 2), sell("sb", 1, 3), sell("sc", 1, 1), buy("b", 2, 0)},
			map[string]int64{"sa": 1, "sb": 0, "sc": 1, "b": 2}},
		// The same, all placed at once: by ID, sa and sb.
		{"equal remainders and times: the smaller ID", []secondary.Order{sell("sb", 1, 1), sell("sc", 1, 1), sell("sa", 1, 1), buy("b", 2, 0)},
			map[string]int64{"sa": 1, "sb": 1, "sc": 0, "b": 2}},
		// V = 2 of 3: early 2 × 2/3 = 1.33 → 1 (remainder 1), late 1 × 2/3 = 0.67 → 0
		// (remainder 2): the leftover unit to the larger remainder although it was later
		// (largest-order-first would give 2 and 0).
		{"a larger remainder beats an earlier order", []secondary.Order{sell("early", 2, 0), sell("late", 1, 5), buy("b", 2, 1)},
			map[string]int64{"early": 1, "late": 1, "b": 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := filled(match(t, secondary.Policy{}, c.orders...)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("fills %v, want %v", got, c.want)
			}
		})
	}
}

func TestEachSideFillsExactlyTheMatchedVolume(t *testing.T) {
	for _, c := range []struct {
		name   string
		orders []secondary.Order
		volume int64
	}{
		{"more SELLs", []secondary.Order{sell("s1", 7, 0), sell("s2", 11, 1), sell("s3", 13, 2), buy("b1", 17, 3)}, 17},
		{"more BUYs", []secondary.Order{buy("b1", 1, 0), buy("b2", 999, 1), buy("b3", 3, 2), sell("s1", 500, 3), sell("s2", 1, 4)}, 501},
		{"equal", []secondary.Order{buy("b1", 9, 0), sell("s1", 4, 1), sell("s2", 5, 2)}, 9},
		{"no BUYs", []secondary.Order{sell("s1", 9, 0)}, 0},
		{"no orders", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := match(t, secondary.Policy{}, c.orders...)
			var sides [2]int64
			for _, f := range r.Fills {
				if f.Side == investv1.SideBuy {
					sides[0] += f.Filled
				} else {
					sides[1] += f.Filled
				}
			}
			if sides[0] != c.volume || sides[1] != c.volume || r.Published.Volume != c.volume {
				t.Fatalf("BUYs fill %d, SELLs %d, published %d: want %d each", sides[0], sides[1], r.Published.Volume, c.volume)
			}
		})
	}
}

func TestTransfersConserveEveryOrdersFill(t *testing.T) {
	// Both queues in priority order (b1, b2; s1, s2, s3), all filled: s1's 3 units to b1,
	// which still needs 1; s2 gives b1 that 1 and b2 its other 4; s3's 2 complete b2. Four
	// legs = 2 BUYs + 3 SELLs − 1.
	r := match(t, secondary.Policy{}, buy("b2", 6, 2), sell("s3", 2, 3), buy("b1", 4, 1), sell("s1", 3, 1), sell("s2", 5, 2))
	want := []secondary.Transfer{{"s1", "b1", 3}, {"s2", "b1", 1}, {"s2", "b2", 4}, {"s3", "b2", 2}}
	if !reflect.DeepEqual(r.Transfers, want) {
		t.Fatalf("transfers %v, want %v", r.Transfers, want)
	}
	// SELLs that fill nothing have no leg: V = 2 of 12 SELL units: sa 10 × 2/12 = 1
	// (remainder 8), sb and sc 1 × 2/12 = 0 (remainder 2 each): the leftover unit to sa,
	// which delivers both units, one to each BUY.
	r = match(t, secondary.Policy{}, sell("sa", 10, 0), sell("sb", 1, 1), sell("sc", 1, 2), buy("x", 1, 3), buy("y", 1, 4))
	want = []secondary.Transfer{{"sa", "x", 1}, {"sa", "y", 1}}
	if !reflect.DeepEqual(r.Transfers, want) {
		t.Fatalf("transfers %v, want %v", r.Transfers, want)
	}
	moved := map[string]int64{}
	for _, tr := range r.Transfers {
		moved[tr.SellID] += tr.Units
		moved[tr.BuyID] += tr.Units
	}
	for _, f := range r.Fills {
		if moved[f.ID] != f.Filled {
			t.Errorf("order %s: transfers move %d units, it filled %d", f.ID, moved[f.ID], f.Filled)
		}
	}
}

func TestARemainderIsCarriedAtMostMaxCarryWindows(t *testing.T) {
	carried := func(o secondary.Order, n int) secondary.Order { o.WindowsCarried = n; return o }
	// Four SELLs of 10 and a BUY of 20: each SELL fills 5 and leaves 5.
	orders := []secondary.Order{carried(sell("s0", 10, 0), 0), carried(sell("s1", 10, 1), 1), carried(sell("s2", 10, 2), 2),
		carried(sell("s3", 10, 3), 3), buy("b", 20, 4)}
	for _, c := range []struct {
		maxCarry int
		fate     map[string]secondary.Fate
		windows  map[string]int
	}{
		{2, map[string]secondary.Fate{"s0": secondary.Carried, "s1": secondary.Carried, "s2": secondary.Cancelled, "s3": secondary.Cancelled, "b": secondary.NoRemainder},
			map[string]int{"s0": 1, "s1": 2, "s2": 2, "s3": 3, "b": 0}},
		{0, map[string]secondary.Fate{"s0": secondary.Cancelled, "s1": secondary.Cancelled, "s2": secondary.Cancelled, "s3": secondary.Cancelled, "b": secondary.NoRemainder},
			map[string]int{"s0": 0, "s1": 1, "s2": 2, "s3": 3, "b": 0}},
	} {
		t.Run(fmt.Sprintf("MaxCarry %d", c.maxCarry), func(t *testing.T) {
			r := match(t, secondary.Policy{MaxCarry: c.maxCarry}, orders...)
			for _, f := range r.Fills {
				wantOutcome := secondary.Partial
				if f.ID == "b" {
					wantOutcome = secondary.Filled
				}
				if f.Fate != c.fate[f.ID] || f.WindowsCarried != c.windows[f.ID] || f.Outcome != wantOutcome {
					t.Errorf("order %s: %s, remainder %s after %d windows; want %s, %s after %d", f.ID, f.Outcome, f.Fate, f.WindowsCarried,
						wantOutcome, c.fate[f.ID], c.windows[f.ID])
				}
			}
		})
	}
}

func TestAnEmptySideMatchesNothing(t *testing.T) {
	r := match(t, secondary.Policy{MaxCarry: 1}, sell("s1", 5, 0), secondary.Order{ID: "s2", Side: investv1.SideSell, Units: 7, WindowsCarried: 1})
	if len(r.Transfers) != 0 || r.Published.Volume != 0 || r.Published.SellFillBps != 0 || r.Published.BuyFillBps != 0 {
		t.Fatalf("transfers %v, published %+v: want nothing matched", r.Transfers, r.Published)
	}
	for id, fate := range map[string]secondary.Fate{"s1": secondary.Carried, "s2": secondary.Cancelled} {
		f := fillOf(t, r, id)
		if f.Outcome != secondary.Unfilled || f.Remainder != f.Requested || f.Fate != fate || f.Gross != 0 || f.Net != 0 {
			t.Errorf("order %s: %+v, want Unfilled and %s, no money", id, f, fate)
		}
	}
}

func TestPublishedResultsNameNoOrder(t *testing.T) {
	// The fields of Published, all of them: a field added later must be reviewed here.
	want := []string{"Date string", "NAVPerShare int64", "SpreadBps int64", "BuyPrice int64", "SellPrice int64", "Volume int64",
		"BuyFillBps int64", "SellFillBps int64", "BuyOrders int", "SellOrders int", "BuyUnits int64", "SellUnits int64"}
	typ := reflect.TypeFor[secondary.Published]()
	var got []string
	for i := range typ.NumField() {
		got = append(got, typ.Field(i).Name+" "+typ.Field(i).Type.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Published has %v, want only %v", got, want)
	}
	// V = 10 of 15 SELL units: 10 × 10,000 / 15 = 6,666.67 → 6,666 basis points.
	r := match(t, secondary.Policy{}, sell("seller-alice", 7, 0), sell("seller-bob", 5, 1), sell("seller-carol", 3, 2), buy("buyer-dave", 10, 3))
	p := r.Published
	wantP := secondary.Published{Date: "2026-03-31", NAVPerShare: 1_050_000, BuyPrice: 1_050_000, SellPrice: 1_050_000, Volume: 10,
		BuyFillBps: 10_000, SellFillBps: 6_666, BuyOrders: 1, SellOrders: 3, BuyUnits: 10, SellUnits: 15}
	if p != wantP {
		t.Fatalf("published %+v, want %+v", p, wantP)
	}
	text := fmt.Sprintf("%+v", p)
	for _, f := range r.Fills {
		if strings.Contains(text, f.ID) {
			t.Errorf("published %s names order %s", text, f.ID)
		}
	}
}

func TestSpreadAndFeesAreRoundedHalfUpPerOrder(t *testing.T) {
	w := secondary.Window{Date: "2026-03-31", NAVPerShare: 10_001} // 1.0001 EUR
	p := secondary.Policy{SpreadBps: 5_000, BuyFeeRate: 2_500, SellFeeRate: 5_000}
	r, err := secondary.Match(w, p, []secondary.Order{buy("b1", 1, 0), buy("b2", 1, 1), buy("b3", 1, 2), sell("s1", 3, 3)})
	if err != nil {
		t.Fatal(err)
	}
	// BUY price 10,001 × 15,000 / 10,000 = 15,001.5 → 15,002; SELL price 10,001 × 5,000 /
	// 10,000 = 5,000.5 → 5,001.
	if r.Published.BuyPrice != 15_002 || r.Published.SellPrice != 5_001 {
		t.Fatalf("prices %d and %d, want 15002 and 5001", r.Published.BuyPrice, r.Published.SellPrice)
	}
	want := []secondary.Fill{
		// Each BUY: 1 × 15,002 = 15,002; fee 25%: 3,750.5 → 3,751; pays 18,753. The three
		// fees, 11,253, are one more than the fee of their total (25% of 45,006 = 11,251.5
		// → 11,252): fees are rounded per order, each order's as if it were alone.
		{ID: "b1", Side: investv1.SideBuy, Requested: 1, Filled: 1, Outcome: secondary.Filled, Price: 15_002, Gross: 15_002, Fee: 3_751, ToPay: 18_753},
		{ID: "b2", Side: investv1.SideBuy, Requested: 1, Filled: 1, Outcome: secondary.Filled, Price: 15_002, Gross: 15_002, Fee: 3_751, ToPay: 18_753},
		{ID: "b3", Side: investv1.SideBuy, Requested: 1, Filled: 1, Outcome: secondary.Filled, Price: 15_002, Gross: 15_002, Fee: 3_751, ToPay: 18_753},
		// 3 × 5,001 = 15,003; fee 50%: 7,501.5 → 7,502; paid 7,501.
		{ID: "s1", Side: investv1.SideSell, Requested: 3, Filled: 3, Outcome: secondary.Filled, Price: 5_001, Gross: 15_003, Fee: 7_502, Net: 7_501},
	}
	if !reflect.DeepEqual(r.Fills, want) {
		t.Fatalf("fills\n %+v, want\n %+v", r.Fills, want)
	}
}

func TestOrdersLargeEnoughToOverflowAProductStillMatchExactly(t *testing.T) {
	w := secondary.Window{Date: "2026-03-31", NAVPerShare: 1}
	// 3 × 3·10^18 SELL units (9·10^18 < MaxInt64) and a BUY of 4·10^18: 3·10^18 × 4·10^18
	// overflows an int64 many times over. Each SELL: 4·10^18 / 3 = 1,333,333,333,333,333,333
	// (remainder equal for all); 3 of those are 4·10^18 − 1: the leftover unit to s1.
	const third = 1_333_333_333_333_333_333
	r, err := secondary.Match(w, secondary.Policy{}, []secondary.Order{sell("s2", 3e18, 1), sell("s1", 3e18, 0), sell("s3", 3e18, 2), buy("b", 4e18, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filled(r), map[string]int64{"s1": third + 1, "s2": third, "s3": third, "b": 4e18}; !reflect.DeepEqual(got, want) {
		t.Fatalf("fills %v, want %v", got, want)
	}
	if r.Published.SellFillBps != 4_444 { // 4/9 = 0.4444…
		t.Fatalf("SELL fill %d bps, want 4444", r.Published.SellFillBps)
	}
	// What does not fit is refused, naming the order: 4·10^18 units at 3 money units.
	w.NAVPerShare = 3
	if _, err := secondary.Match(w, secondary.Policy{}, []secondary.Order{sell("s", 4e18, 0), buy("big-buyer", 4e18, 1)}); !errors.Is(err, money.ErrOverflow) ||
		!strings.Contains(err.Error(), "big-buyer") {
		t.Fatalf("err %v, want an overflow naming big-buyer", err)
	}
	// Neither does a side total.
	if _, err := secondary.Match(window, secondary.Policy{}, []secondary.Order{sell("s1", math.MaxInt64/2+1, 0), sell("s2", math.MaxInt64/2+1, 1)}); !errors.Is(err, money.ErrOverflow) ||
		!strings.Contains(err.Error(), "s2") {
		t.Fatalf("err %v, want an overflow naming s2", err)
	}
}

func TestMatchingIsDeterministicWhateverTheInputOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	orders := randomOrders(rng, 300)
	p := secondary.Policy{SpreadBps: 25, BuyFeeRate: 100, SellFeeRate: 50, MaxCarry: 2}
	want, err := secondary.Match(window, p, orders)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		rng.Shuffle(len(orders), func(i, j int) { orders[i], orders[j] = orders[j], orders[i] })
		got, err := secondary.Match(window, p, orders)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatal("a shuffled input gives another result")
		}
	}
}

func TestMatchRefusesWhatItCannotMatchNamingTheOrder(t *testing.T) {
	ok := []secondary.Order{buy("b", 1, 0)}
	for _, c := range []struct {
		name   string
		w      secondary.Window
		p      secondary.Policy
		orders []secondary.Order
		want   error
		names  string
	}{
		{"no date", secondary.Window{NAVPerShare: 1}, secondary.Policy{}, ok, secondary.ErrInvalidWindow, "date"},
		{"no NAV", secondary.Window{Date: "2026-03-31"}, secondary.Policy{}, ok, money.ErrNAVTooSmall, "NAV"},
		{"a spread above 100%", window, secondary.Policy{SpreadBps: 10_001}, ok, secondary.ErrInvalidPolicy, "spread"},
		{"a negative fee rate", window, secondary.Policy{SellFeeRate: -1}, ok, secondary.ErrInvalidPolicy, "sell fee rate"},
		{"a negative carry limit", window, secondary.Policy{MaxCarry: -1}, ok, secondary.ErrInvalidPolicy, "MaxCarry"},
		{"no units", window, secondary.Policy{}, []secondary.Order{buy("b", 1, 0), sell("zero", 0, 1)}, secondary.ErrInvalidOrder, `"zero" (number 2)`},
		{"an unknown side", window, secondary.Policy{}, []secondary.Order{{ID: "hold", Side: "HOLD", Units: 1}}, secondary.ErrInvalidOrder, `"hold"`},
		{"no ID", window, secondary.Policy{}, []secondary.Order{buy("", 1, 0)}, secondary.ErrInvalidOrder, "no ID"},
		{"a duplicate ID", window, secondary.Policy{}, []secondary.Order{buy("twice", 1, 0), sell("twice", 1, 1)}, secondary.ErrInvalidOrder, `"twice" (number 2)`},
		{"a negative carry count", window, secondary.Policy{}, []secondary.Order{{ID: "c", Side: investv1.SideSell, Units: 1, WindowsCarried: -1}}, secondary.ErrInvalidOrder, `"c"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := secondary.Match(c.w, c.p, c.orders)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.names) {
				t.Fatalf("err %v, want %v naming %s", err, c.want, c.names)
			}
		})
	}
}
