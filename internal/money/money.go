// Package money implements the integer money arithmetic of the fund-share
// service. Floating point is never used for money.
//
// Amounts are int64 micro-units: 1 currency unit (for example 1 EUR) is
// UnitsPerCurrencyUnit = 10,000 units, so 12,345,678 units are 1234.5678 EUR.
// NAV per share uses the same scale.
//
// Fee rates are int64 rate units: 100% is RateUnitsPerWhole = 10,000, so
// 0.5% is 50 and 1.5% is 150.
//
// Every operation is overflow-checked and returns ErrOverflow instead of
// wrapping around.
package money

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

const (
	// UnitsPerCurrencyUnit is the number of money units in one currency unit.
	UnitsPerCurrencyUnit = 10_000
	// RateUnitsPerWhole is the fee rate that stands for 100%.
	RateUnitsPerWhole = 10_000
)

var (
	// ErrOverflow is returned when a result does not fit in an int64.
	ErrOverflow = errors.New("amount overflows int64")
	// ErrNegativeAmount is returned by Fee for a negative gross amount.
	ErrNegativeAmount = errors.New("amount must not be negative")
	// ErrRateOutOfRange is returned for a fee rate outside 0..RateUnitsPerWhole.
	ErrRateOutOfRange = errors.New("fee rate must be between 0 and 10000 rate units (0% to 100%)")
	// ErrUnitsTooSmall is returned by QuoteOrder when units < 1.
	ErrUnitsTooSmall = errors.New("units must be at least 1")
	// ErrNAVTooSmall is returned by QuoteOrder when navPerShare < 1.
	ErrNAVTooSmall = errors.New("NAV per share must be at least 1")
	// ErrAmountTooSmall is returned by QuoteAmount when the amount is < 1.
	ErrAmountTooSmall = errors.New("amount must be at least 1")
)

// Add returns a + b, or ErrOverflow.
func Add(a, b int64) (int64, error) {
	s := a + b
	// Overflow happened iff a and b have the same sign and s has the other.
	if (a^s)&(b^s) < 0 {
		return 0, ErrOverflow
	}
	return s, nil
}

// Sub returns a - b, or ErrOverflow.
func Sub(a, b int64) (int64, error) {
	d := a - b
	// Overflow happened iff a and b have different signs and d's sign
	// differs from a's.
	if (a^b)&(a^d) < 0 {
		return 0, ErrOverflow
	}
	return d, nil
}

// Mul returns a × b, or ErrOverflow. It handles negative operands and
// math.MinInt64 exactly (e.g. -1 × MinInt64 overflows, 1 × MinInt64 does not).
func Mul(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	hi, lo := bits.Mul64(absU64(a), absU64(b))
	if hi != 0 {
		return 0, ErrOverflow
	}
	if (a < 0) != (b < 0) {
		if lo > 1<<63 {
			return 0, ErrOverflow
		}
		return int64(-lo), nil //nolint:gosec // lo <= 1<<63 checked above; lo == 1<<63 yields MinInt64
	}
	if lo > math.MaxInt64 {
		return 0, ErrOverflow
	}
	return int64(lo), nil
}

// Fee returns gross × rate / RateUnitsPerWhole rounded half up, i.e. a
// result ending in exactly .5 unit is rounded to the next larger unit (for
// the non-negative values accepted here that is also "half away from zero").
// Examples: Fee(1, 5000) = 1 (0.5 rounds up), Fee(99, 50) = 0 (0.495).
//
// gross must be >= 0 (ErrNegativeAmount) and rate within
// 0..RateUnitsPerWhole (ErrRateOutOfRange). The intermediate product is
// computed in 128 bits, so Fee never overflows for valid inputs: the result
// is at most gross.
func Fee(gross, rate int64) (int64, error) {
	if gross < 0 {
		return 0, ErrNegativeAmount
	}
	if rate < 0 || rate > RateUnitsPerWhole {
		return 0, ErrRateOutOfRange
	}
	hi, lo := bits.Mul64(uint64(gross), uint64(rate))
	var carry uint64
	lo, carry = bits.Add64(lo, RateUnitsPerWhole/2, 0)
	hi += carry
	// gross < 2^63 and rate <= 10^4, so hi <= 5000 < RateUnitsPerWhole and
	// Div64 cannot panic.
	q, _ := bits.Div64(hi, lo, RateUnitsPerWhole)
	if q > math.MaxInt64 {
		return 0, ErrOverflow // unreachable while rate <= RateUnitsPerWhole
	}
	return int64(q), nil
}

// Quote is the breakdown of an order: Gross = Units × NAVPerShare,
// FeeAmount = Fee(Gross, FeeRate) and Net = Gross − FeeAmount.
type Quote struct {
	Units       int64
	NAVPerShare int64
	Gross       int64
	FeeRate     int64
	FeeAmount   int64
	Net         int64
}

// QuoteOrder computes the Quote for an order of units shares at navPerShare
// (money units per share) with the given fee rate. units and navPerShare
// must be at least 1; feeRate must be within 0..RateUnitsPerWhole. It
// returns ErrOverflow when the gross amount does not fit in an int64.
// It is QuoteUnits with whole units (0 decimals).
func QuoteOrder(units, navPerShare, feeRate int64) (Quote, error) {
	return QuoteUnits(units, navPerShare, feeRate, 0)
}

// QuoteUnits is the Quote of units counted in steps of 10^-decimals of a share (a share
// class whose units have decimals): Gross = ValueOfUnits(units, navPerShare, decimals),
// then the fee and the net amount as QuoteOrder. With decimals 0 it is QuoteOrder.
func QuoteUnits(units, navPerShare, feeRate int64, decimals int32) (Quote, error) {
	if units < 1 {
		return Quote{}, ErrUnitsTooSmall
	}
	if navPerShare < 1 {
		return Quote{}, ErrNAVTooSmall
	}
	if feeRate < 0 || feeRate > RateUnitsPerWhole {
		return Quote{}, ErrRateOutOfRange
	}
	gross, err := ValueOfUnits(units, navPerShare, decimals)
	if err != nil {
		return Quote{}, err
	}
	fee, net, err := feeAndNet(gross, feeRate)
	if err != nil {
		return Quote{}, err
	}
	return Quote{
		Units:       units,
		NAVPerShare: navPerShare,
		Gross:       gross,
		FeeRate:     feeRate,
		FeeAmount:   fee,
		Net:         net,
	}, nil
}

// feeAndNet is Fee(gross, rate) and gross − fee.
func feeAndNet(gross, rate int64) (fee, net int64, err error) {
	if fee, err = Fee(gross, rate); err != nil {
		return 0, 0, err
	}
	if net, err = Sub(gross, fee); err != nil {
		return 0, 0, err
	}
	return fee, net, nil
}

// MaxUnitDecimals is the most decimals a share class's units have.
const MaxUnitDecimals = 18

// ErrDecimalsOutOfRange is returned for unit decimals outside 0..MaxUnitDecimals.
var ErrDecimalsOutOfRange = errors.New("unit decimals must be between 0 and 18")

// ValueOfUnits is the money value of units counted in steps of 10^-decimals of a share at
// navPerShare per share: units × navPerShare / 10^decimals, rounded half up (exact with 0
// decimals). ErrOverflow when it does not fit in an int64.
func ValueOfUnits(units, navPerShare int64, decimals int32) (int64, error) {
	if decimals < 0 || decimals > MaxUnitDecimals {
		return 0, ErrDecimalsOutOfRange
	}
	if units < 0 || navPerShare < 0 {
		return 0, ErrNegativeAmount
	}
	p := new(big.Int).Mul(big.NewInt(units), big.NewInt(navPerShare))
	scale := pow10(decimals)
	p.Add(p, new(big.Int).Quo(scale, big.NewInt(2))) // half up (scale is even from 10 on)
	p.Quo(p, scale)
	if !p.IsInt64() {
		return 0, ErrOverflow
	}
	return p.Int64(), nil
}

// UnitsFor is how many units, counted in steps of 10^-decimals of a share, amount buys at
// navPerShare: amount × 10^decimals / navPerShare, rounded down (never more units than
// the money pays for).
func UnitsFor(amount, navPerShare int64, decimals int32) (int64, error) {
	if decimals < 0 || decimals > MaxUnitDecimals {
		return 0, ErrDecimalsOutOfRange
	}
	if amount < 0 {
		return 0, ErrNegativeAmount
	}
	if navPerShare < 1 {
		return 0, ErrNAVTooSmall
	}
	q := new(big.Int).Mul(big.NewInt(amount), pow10(decimals))
	q.Quo(q, big.NewInt(navPerShare)) // both non-negative: truncation is rounding down
	if !q.IsInt64() {
		return 0, ErrOverflow
	}
	return q.Int64(), nil
}

func pow10(decimals int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
}

// AmountQuote is the breakdown of a BUY of Gross money (fees included) at NAVPerShare:
// FeeAmount = Fee(Gross, FeeRate), Net = Gross − FeeAmount, Units = UnitsFor(Net,
// NAVPerShare, decimals) (rounded down), UnitsValue = ValueOfUnits(Units, NAVPerShare,
// decimals) ≤ Net, and Residual = Net − UnitsValue, the cash the units do not use.
type AmountQuote struct {
	Gross       int64
	FeeRate     int64
	FeeAmount   int64
	Net         int64
	NAVPerShare int64
	Units       int64
	UnitsValue  int64
	Residual    int64
}

// QuoteAmount prices a BUY by amount: gross is the money to invest (at least 1),
// navPerShare at least 1, feeRate within 0..RateUnitsPerWhole, decimals the share class's
// unit decimals. Units may be 0 when the net amount buys less than one unit step (the whole
// net amount is then the residual).
func QuoteAmount(gross, navPerShare, feeRate int64, decimals int32) (AmountQuote, error) {
	if gross < 1 {
		return AmountQuote{}, ErrAmountTooSmall
	}
	if navPerShare < 1 {
		return AmountQuote{}, ErrNAVTooSmall
	}
	if feeRate < 0 || feeRate > RateUnitsPerWhole {
		return AmountQuote{}, ErrRateOutOfRange
	}
	fee, net, err := feeAndNet(gross, feeRate)
	if err != nil {
		return AmountQuote{}, err
	}
	units, err := UnitsFor(net, navPerShare, decimals)
	if err != nil {
		return AmountQuote{}, err
	}
	value, err := ValueOfUnits(units, navPerShare, decimals)
	if err != nil {
		return AmountQuote{}, err
	}
	residual, err := Sub(net, value)
	if err != nil {
		return AmountQuote{}, err
	}
	return AmountQuote{Gross: gross, FeeRate: feeRate, FeeAmount: fee, Net: net, NAVPerShare: navPerShare,
		Units: units, UnitsValue: value, Residual: residual}, nil
}

// Format renders amount with all four decimals followed by a space and the
// currency code, for human-readable messages: Format(12345678, "EUR") is
// "1234.5678 EUR" and Format(-5, "EUR") is "-0.0005 EUR". With an empty
// currency only the number is returned. currency is printed as given, so
// pass a validated ISO 4217 code.
func Format(amount int64, currency string) string {
	u := absU64(amount)
	whole, frac := u/UnitsPerCurrencyUnit, u%UnitsPerCurrencyUnit

	buf := make([]byte, 0, 32+len(currency))
	if amount < 0 {
		buf = append(buf, '-')
	}
	buf = strconv.AppendUint(buf, whole, 10)
	buf = append(buf, '.')
	fracDigits := strconv.FormatUint(frac+UnitsPerCurrencyUnit, 10) // "1xxxx"
	buf = append(buf, fracDigits[1:]...)
	if currency != "" {
		buf = append(buf, ' ')
		buf = append(buf, currency...)
	}
	return string(buf)
}

// absU64 returns |a| as a uint64; |MinInt64| = 2^63 is represented exactly.
func absU64(a int64) uint64 {
	if a < 0 {
		return -uint64(a) //nolint:gosec // two's complement: exact for every negative int64, MinInt64 included
	}
	return uint64(a)
}
