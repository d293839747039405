package iso20022

import (
	"errors"
	"math"
	"testing"
)

func TestAFileAmountOfTwelveThirtyFourIs123400Units(t *testing.T) {
	for in, want := range map[string]int64{
		"12.34": 123_400, "12.3": 123_000, "12": 120_000, "0.01": 100, "0": 0, "0.00": 0,
		"+5": 50_000, "7.": 70_000, ".50": 5_000, " 12.34\n": 123_400, "0012.34": 123_400,
		"999999999.99": 9_999_999_999_900, "-0.00": 0,
		"922337203685477.58": 9_223_372_036_854_775_800, // the largest whole-cent int64
	} {
		got, err := parseAmount(in)
		if err != nil || got != want {
			t.Errorf("parseAmount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestTrailingZerosAreNotDecimalsOfTheValue(t *testing.T) {
	for in, want := range map[string]int64{"12.340": 123_400, "12.30000": 123_000, "1.000000000": 10_000} {
		if got, err := parseAmount(in); err != nil || got != want {
			t.Errorf("parseAmount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestAnAmountWithMoreThanTwoDecimalsIsRefused(t *testing.T) {
	for _, in := range []string{"12.345", "0.001", "12.34500001", "0.00001"} {
		if _, err := parseAmount(in); !errors.Is(err, ErrAmount) {
			t.Errorf("parseAmount(%q) = %v, want ErrAmount", in, err)
		}
	}
}

func TestANegativeAmountIsRefused(t *testing.T) {
	for _, in := range []string{"-12.34", "-0.01", "-1"} {
		if _, err := parseAmount(in); !errors.Is(err, ErrAmount) {
			t.Errorf("parseAmount(%q) = %v, want ErrAmount", in, err)
		}
	}
}

func TestAnAmountThatIsNotADecimalNumberOrTooLargeIsRefused(t *testing.T) {
	for _, in := range []string{".", "1.2.3", "1,50", "1e3", "0x10", "--1", "+-1", "12 34", "NaN", "٣", "922337203685477.59", "99999999999999999999"} {
		if _, err := parseAmount(in); !errors.Is(err, ErrAmount) {
			t.Errorf("parseAmount(%q) = %v, want ErrAmount", in, err)
		}
	}
	if _, err := parseAmount("  "); !errors.Is(err, ErrMissing) {
		t.Errorf("blank: %v", err)
	}
}

func TestAnAmountIsWrittenWithTwoDecimalsAndOnlyInWholeCents(t *testing.T) {
	for units, want := range map[int64]string{0: "0.00", 100: "0.01", 123_400: "12.34", 9_999_999_999_900: "999999999.99"} {
		if got, err := formatAmount(units); err != nil || got != want {
			t.Errorf("formatAmount(%d) = %q, %v; want %q", units, got, err, want)
		}
	}
	for _, units := range []int64{1, 99, 123_456, -100, math.MinInt64, math.MaxInt64} {
		if got, err := formatAmount(units); !errors.Is(err, ErrAmount) {
			t.Errorf("formatAmount(%d) = %q, %v; want ErrAmount", units, got, err)
		}
	}
}

func TestAWrittenAmountReadsBackToTheSameUnits(t *testing.T) {
	for _, units := range []int64{0, 100, 12_300, 9_223_372_036_854_775_800} {
		s, err := formatAmount(units)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := parseAmount(s); err != nil || back != units {
			t.Errorf("%d -> %q -> %d, %v", units, s, back, err)
		}
	}
}
