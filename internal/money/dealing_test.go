package money

import (
	"errors"
	"math"
	"testing"
)

// The arithmetic of the forward strike (docs/dealing.md): a BUY by amount gets its units
// rounded down and the rest of its net amount back; an order by units is valued at the
// NAV, as at placement.

func TestAnAmountBuyGetsUnitsRoundedDownAndTheResidualRefunded(t *testing.T) {
	cases := []struct {
		name                      string
		gross, nav, rate          int64
		decimals                  int32
		fee, net, units, value, r int64
	}{
		// 1,000 EUR at 1.5% fee: 15 EUR fee, 985 EUR net; NAV 105.0000: 9.380952… units.
		{"whole units: 9 units, 40 EUR back", 10_000_000, 1_050_000, 150, 0, 150_000, 9_850_000, 9, 9_450_000, 400_000},
		// The same with 6 decimals: 9.380952 units (rounded down), worth 984.99996 EUR,
		// 984.9999|6 rounded half up to 985.0000: nothing back.
		{"six decimals: 9.380952 units", 10_000_000, 1_050_000, 150, 6, 150_000, 9_850_000, 9_380_952, 9_850_000, 0},
		// 3 decimals: 9.380 units worth 984.9000 EUR; 0.1000 EUR back.
		{"three decimals: 9.380 units", 10_000_000, 1_050_000, 150, 3, 150_000, 9_850_000, 9_380, 9_849_000, 1_000},
		{"no fee, an exact fit: nothing back", 2_100_000, 1_050_000, 0, 0, 0, 2_100_000, 2, 2_100_000, 0},
		// fee 0.5 units rounds half up: 1 × 5000 / 10000 = 0.5 → 1.
		{"the fee rounds half up", 1, 1, 5000, 0, 1, 0, 0, 0, 0},
		{"less than one unit: all of it back", 999_999, 1_000_000, 0, 0, 0, 999_999, 0, 0, 999_999},
		{"a fee of 100%: nothing is bought", 5_000_000, 1_000_000, 10_000, 2, 5_000_000, 0, 0, 0, 0},
		// 2 decimals: 1.00 EUR net at NAV 3.0000 → 0.33 units worth 0.9900 EUR; 0.0100 back.
		{"two decimals round down, not to nearest", 10_000, 30_000, 0, 2, 0, 10_000, 33, 9_900, 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := QuoteAmount(c.gross, c.nav, c.rate, c.decimals)
			if err != nil {
				t.Fatal(err)
			}
			want := AmountQuote{Gross: c.gross, FeeRate: c.rate, FeeAmount: c.fee, Net: c.net, NAVPerShare: c.nav,
				Units: c.units, UnitsValue: c.value, Residual: c.r}
			if q != want {
				t.Fatalf("QuoteAmount(%d, %d, %d, %d) =\n %+v, want\n %+v", c.gross, c.nav, c.rate, c.decimals, q, want)
			}
			if q.FeeAmount+q.UnitsValue+q.Residual != q.Gross {
				t.Fatalf("fee + units value + residual = %d, not the gross %d", q.FeeAmount+q.UnitsValue+q.Residual, q.Gross)
			}
		})
	}
}

func TestAnAmountQuoteRefusesWhatCannotBePriced(t *testing.T) {
	for name, c := range map[string]struct {
		gross, nav, rate int64
		decimals         int32
		want             error
	}{
		"no amount":              {0, 1, 0, 0, ErrAmountTooSmall},
		"no NAV":                 {1, 0, 0, 0, ErrNAVTooSmall},
		"a rate above 100%":      {1, 1, 10_001, 0, ErrRateOutOfRange},
		"19 decimals":            {1, 1, 0, 19, ErrDecimalsOutOfRange},
		"more units than int64s": {math.MaxInt64, 1, 0, 18, ErrOverflow},
	} {
		if _, err := QuoteAmount(c.gross, c.nav, c.rate, c.decimals); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

func TestAnOrderByUnitsIsValuedAsAtPlacement(t *testing.T) {
	// With whole units QuoteUnits is QuoteOrder, the placement arithmetic, for every case.
	for _, c := range []struct{ units, nav, rate int64 }{{1, 1, 0}, {7, 1_234_567, 150}, {100, 1_050_000, 5000}, {3, 333_333, 33}} {
		a, errA := QuoteOrder(c.units, c.nav, c.rate)
		b, errB := QuoteUnits(c.units, c.nav, c.rate, 0)
		if a != b || !errors.Is(errA, errB) {
			t.Fatalf("QuoteUnits(%v, 0) = %+v, %v; QuoteOrder = %+v, %v", c, b, errB, a, errA)
		}
	}
	// 1.234567 units (6 decimals) at 105.0000: 129.629535 EUR → 129.6295 (half up of 129.62953…).
	q, err := QuoteUnits(1_234_567, 1_050_000, 100, 6)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Quote{Units: 1_234_567, NAVPerShare: 1_050_000, Gross: 1_296_295, FeeRate: 100, FeeAmount: 12_963, Net: 1_283_332}); q != want {
		t.Fatalf("QuoteUnits = %+v, want %+v", q, want)
	}
	if _, err := QuoteUnits(math.MaxInt64, 2, 0, 0); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow: %v", err)
	}
}
