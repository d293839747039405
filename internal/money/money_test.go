package money

import (
	"math"
	"math/big"
	"testing"
)

const (
	maxI = math.MaxInt64
	minI = math.MinInt64
)

func TestAdd(t *testing.T) {
	tests := []struct {
		a, b, want int64
		err        error
	}{
		{1, 2, 3, nil},
		{-1, -2, -3, nil},
		{maxI, 0, maxI, nil},
		{maxI, minI, -1, nil},
		{maxI - 1, 1, maxI, nil},
		{maxI, 1, 0, ErrOverflow},
		{1, maxI, 0, ErrOverflow},
		{minI, -1, 0, ErrOverflow},
		{minI, minI, 0, ErrOverflow},
		{maxI, maxI, 0, ErrOverflow},
		{minI + 1, -1, minI, nil},
	}
	for _, tt := range tests {
		got, err := Add(tt.a, tt.b)
		if got != tt.want || err != tt.err {
			t.Errorf("Add(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, err, tt.want, tt.err)
		}
	}
}

func TestSub(t *testing.T) {
	tests := []struct {
		a, b, want int64
		err        error
	}{
		{3, 2, 1, nil},
		{2, 3, -1, nil},
		{0, maxI, -maxI, nil},
		{-1, maxI, minI, nil},
		{-2, maxI, 0, ErrOverflow},
		{0, minI, 0, ErrOverflow},
		{-1, minI, maxI, nil},
		{maxI, -1, 0, ErrOverflow},
		{minI, 1, 0, ErrOverflow},
		{minI, minI, 0, nil},
	}
	for _, tt := range tests {
		got, err := Sub(tt.a, tt.b)
		if got != tt.want || err != tt.err {
			t.Errorf("Sub(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, err, tt.want, tt.err)
		}
	}
}

func TestMul(t *testing.T) {
	tests := []struct {
		a, b, want int64
		err        error
	}{
		{0, maxI, 0, nil},
		{minI, 0, 0, nil},
		{6, 7, 42, nil},
		{-6, 7, -42, nil},
		{-6, -7, 42, nil},
		{maxI, 1, maxI, nil},
		{maxI, -1, -maxI, nil},
		{minI, 1, minI, nil},
		{1, minI, minI, nil},
		{minI, -1, 0, ErrOverflow},
		{-1, minI, 0, ErrOverflow},
		{minI, 2, 0, ErrOverflow},
		{minI, minI, 0, ErrOverflow},
		{1 << 32, 1 << 31, 0, ErrOverflow}, // 2^63
		{-(1 << 32), 1 << 31, minI, nil},   // -2^63
		{1 << 32, -(1 << 31), minI, nil},
		{3037000499, 3037000499, 9223372030926249001, nil},
		{3037000500, 3037000500, 0, ErrOverflow},
		{-3037000500, 3037000500, 0, ErrOverflow},
		{maxI, 2, 0, ErrOverflow},
		{1 << 62, 2, 0, ErrOverflow},
		{1 << 62, -2, minI, nil},
	}
	for _, tt := range tests {
		got, err := Mul(tt.a, tt.b)
		if got != tt.want || err != tt.err {
			t.Errorf("Mul(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, err, tt.want, tt.err)
		}
	}
}

func TestFee(t *testing.T) {
	tests := []struct {
		name        string
		gross, rate int64
		want        int64
		err         error
	}{
		{"0.5% of 1 EUR", 10_000, 50, 50, nil},
		{"1.5% of 1234.5678", 12_345_678, 150, 185_185, nil}, // 185185.17
		{"exactly half rounds up", 1, 5000, 1, nil},
		{"just below half rounds down", 1, 4999, 0, nil},
		{"1.5 rounds up to 2", 3, 5000, 2, nil},
		{"2.5 rounds up to 3", 5, 5000, 3, nil},
		{"0.5 from rate 50", 100, 50, 1, nil},
		{"0.495 rounds down", 99, 50, 0, nil},
		{"0.505 rounds up", 101, 50, 1, nil},
		{"x.4999", 14_999, 1, 1, nil},
		{"x.5001", 15_001, 1, 2, nil},
		{"x.5 exactly", 15_000, 1, 2, nil},
		{"zero rate", 12_345_678, 0, 0, nil},
		{"zero gross", 0, 10_000, 0, nil},
		{"100% rate", 12_345_678, 10_000, 12_345_678, nil},
		{"100% of max", maxI, 10_000, maxI, nil},
		{"50% of max (odd, .5 rounds up)", maxI, 5000, 4611686018427387904, nil},
		{"1 rate unit of max", maxI, 1, 922337203685478, nil},                     // 922337203685477.5807
		{"naive product would overflow", 1 << 60, 9999, 1152806212456386291, nil}, // 2^60 - 115292150460684.6976
		{"negative gross", -1, 50, 0, ErrNegativeAmount},
		{"min gross", minI, 50, 0, ErrNegativeAmount},
		{"negative rate", 100, -1, 0, ErrRateOutOfRange},
		{"rate above 100%", 100, 10_001, 0, ErrRateOutOfRange},
		{"huge rate", 100, maxI, 0, ErrRateOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Fee(tt.gross, tt.rate)
			if got != tt.want || err != tt.err {
				t.Fatalf("Fee(%d, %d) = %d, %v; want %d, %v", tt.gross, tt.rate, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestQuoteOrder(t *testing.T) {
	tests := []struct {
		name                string
		units, nav, rate    int64
		gross, fee, netWant int64
		err                 error
	}{
		{"10 shares at 100 EUR, 1.5%", 10, 1_000_000, 150, 10_000_000, 150_000, 9_850_000, nil},
		{"rounding half up", 1, 1, 5000, 1, 1, 0, nil},
		{"rounding down", 3, 33, 50, 99, 0, 99, nil},
		{"zero fee", 7, 123_456, 0, 864_192, 0, 864_192, nil},
		{"100% fee", 7, 123_456, 10_000, 864_192, 864_192, 0, nil},
		{"largest gross", 1, maxI, 50, maxI, 46116860184273879, maxI - 46116860184273879, nil},
		{"gross overflows", maxI, 2, 50, 0, 0, 0, ErrOverflow},
		{"gross overflows at 2^63", 1 << 32, 1 << 31, 0, 0, 0, 0, ErrOverflow},
		{"zero units", 0, 100, 50, 0, 0, 0, ErrUnitsTooSmall},
		{"negative units", -5, 100, 50, 0, 0, 0, ErrUnitsTooSmall},
		{"zero NAV", 5, 0, 50, 0, 0, 0, ErrNAVTooSmall},
		{"negative NAV", 5, -100, 50, 0, 0, 0, ErrNAVTooSmall},
		{"rate too high", 5, 100, 10_001, 0, 0, 0, ErrRateOutOfRange},
		{"negative rate", 5, 100, -1, 0, 0, 0, ErrRateOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := QuoteOrder(tt.units, tt.nav, tt.rate)
			if err != tt.err {
				t.Fatalf("QuoteOrder error = %v, want %v", err, tt.err)
			}
			if err != nil {
				if q != (Quote{}) {
					t.Fatalf("non-zero quote %+v with error", q)
				}
				return
			}
			want := Quote{Units: tt.units, NAVPerShare: tt.nav, Gross: tt.gross, FeeRate: tt.rate, FeeAmount: tt.fee, Net: tt.netWant}
			if q != want {
				t.Fatalf("QuoteOrder = %+v, want %+v", q, want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		amount   int64
		currency string
		want     string
	}{
		{12_345_678, "EUR", "1234.5678 EUR"},
		{0, "EUR", "0.0000 EUR"},
		{5, "EUR", "0.0005 EUR"},
		{10_000, "USD", "1.0000 USD"},
		{1_000_500, "CHF", "100.0500 CHF"},
		{-12_345_678, "EUR", "-1234.5678 EUR"},
		{-5, "EUR", "-0.0005 EUR"},
		{maxI, "EUR", "922337203685477.5807 EUR"},
		{minI, "EUR", "-922337203685477.5808 EUR"},
		{12_345_678, "", "1234.5678"},
	}
	for _, tt := range tests {
		if got := Format(tt.amount, tt.currency); got != tt.want {
			t.Errorf("Format(%d, %q) = %q, want %q", tt.amount, tt.currency, got, tt.want)
		}
	}
}

// bigFee is the reference implementation of Fee with arbitrary precision.
func bigFee(gross, rate int64) *big.Int {
	p := new(big.Int).Mul(big.NewInt(gross), big.NewInt(rate))
	p.Add(p, big.NewInt(RateUnitsPerWhole/2))
	return p.Quo(p, big.NewInt(RateUnitsPerWhole))
}

func FuzzFee(f *testing.F) {
	seeds := [][2]int64{
		{0, 0}, {1, 5000}, {1, 4999}, {99, 50}, {100, 50}, {12_345_678, 150},
		{maxI, 10_000}, {maxI, 5000}, {maxI, 1}, {1 << 60, 9999},
		{-1, 50}, {minI, 0}, {100, -1}, {100, 10_001}, {maxI, maxI},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, gross, rate int64) {
		got, err := Fee(gross, rate)
		switch {
		case gross < 0:
			if err != ErrNegativeAmount {
				t.Fatalf("Fee(%d, %d) error = %v, want ErrNegativeAmount", gross, rate, err)
			}
			return
		case rate < 0 || rate > RateUnitsPerWhole:
			if err != ErrRateOutOfRange {
				t.Fatalf("Fee(%d, %d) error = %v, want ErrRateOutOfRange", gross, rate, err)
			}
			return
		}
		want := bigFee(gross, rate)
		if !want.IsInt64() {
			t.Fatalf("reference fee %v does not fit int64", want)
		}
		if err != nil || got != want.Int64() {
			t.Fatalf("Fee(%d, %d) = %d, %v; want %v", gross, rate, got, err, want)
		}
		if got < 0 || got > gross {
			t.Fatalf("Fee(%d, %d) = %d outside [0, gross]", gross, rate, got)
		}
		// Quote consistency for the same figures when they form a valid order.
		if gross >= 1 {
			q, err := QuoteOrder(1, gross, rate)
			if err != nil || q.FeeAmount != got || q.Net != gross-got || q.Gross != gross {
				t.Fatalf("QuoteOrder(1, %d, %d) = %+v, %v", gross, rate, q, err)
			}
		}
	})
}

func FuzzArithmetic(f *testing.F) {
	for _, s := range [][2]int64{{0, 0}, {maxI, 1}, {minI, -1}, {minI, 1}, {1 << 32, 1 << 31}, {-(1 << 32), 1 << 31}, {3037000500, 3037000500}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b int64) {
		ba, bb := big.NewInt(a), big.NewInt(b)
		check := func(op string, got int64, err error, want *big.Int) {
			if want.IsInt64() {
				if err != nil || got != want.Int64() {
					t.Fatalf("%s(%d, %d) = %d, %v; want %v", op, a, b, got, err, want)
				}
			} else if err != ErrOverflow || got != 0 {
				t.Fatalf("%s(%d, %d) = %d, %v; want ErrOverflow", op, a, b, got, err)
			}
		}
		got, err := Add(a, b)
		check("Add", got, err, new(big.Int).Add(ba, bb))
		got, err = Sub(a, b)
		check("Sub", got, err, new(big.Int).Sub(ba, bb))
		got, err = Mul(a, b)
		check("Mul", got, err, new(big.Int).Mul(ba, bb))
	})
}
