package iso20022

import (
	"strconv"
	"strings"

	"github.com/fundshare/fundshare-operator/internal/money"
)

// MaxDecimals is the most decimals an amount of a bank file has: the cent. Euro
// amounts in SEPA files have two (the EPC and German DK schemas restrict them so), and
// an amount that claims more precision than the cent means the file is not what this
// package thinks it is, so the file is refused rather than rounded.
const MaxDecimals = 2

// unitsPerCent is the number of money units in a cent.
const unitsPerCent = money.UnitsPerCurrencyUnit / 100

// parseAmount reads the text of an amount element, an xs:decimal ("12.34", "+5", "7.",
// ".50"), into money units. Trailing zeros of the fraction are not decimals of the
// value ("12.340" is 12.34). It refuses negative values, more than MaxDecimals decimals
// and values that do not fit in an int64 of units.
func parseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, detail(ErrMissing, "the amount is empty")
	}
	negative := false
	switch s[0] {
	case '-':
		negative = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || !allDigits(whole) || !allDigits(frac) {
		return 0, detail(ErrAmount, "it is not a decimal number")
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > MaxDecimals {
		return 0, detail(ErrAmount, "it has %d decimals, at most %d are allowed", len(frac), MaxDecimals)
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 18 {
		return 0, errAmountTooLarge
	}
	var units int64
	if whole != "" {
		w, _ := strconv.ParseInt(whole, 10, 64) // at most 18 digits: fits
		var err error
		if units, err = money.Mul(w, money.UnitsPerCurrencyUnit); err != nil {
			return 0, errAmountTooLarge
		}
	}
	cents := 0
	for i := range MaxDecimals {
		cents *= 10
		if i < len(frac) {
			cents += int(frac[i] - '0')
		}
	}
	units, err := money.Add(units, int64(cents)*unitsPerCent)
	if err != nil {
		return 0, errAmountTooLarge
	}
	if negative && units != 0 {
		return 0, detail(ErrAmount, "it is negative")
	}
	return units, nil
}

var errAmountTooLarge = detail(ErrAmount, "it is too large")

// formatAmount writes units as a decimal with exactly two places ("12.34"), the form
// of a SEPA amount. units must not be negative and must be a whole number of cents.
func formatAmount(units int64) (string, error) {
	if units < 0 {
		return "", detail(ErrAmount, "it is negative")
	}
	if units%unitsPerCent != 0 {
		return "", detail(ErrAmount, "%s is not a whole number of cents", money.Format(units, ""))
	}
	s := money.Format(units, "") // four decimals, the last two 0
	return s[:len(s)-2], nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validCurrency checks that s is three upper-case letters, the pattern of ISO 20022's
// currency codes. Whether the code is an active ISO 4217 code is not checked: a
// statement may report a withdrawn currency.
func validCurrency(s string) error {
	if len(s) != 3 || !isUpperLetter(s[0]) || !isUpperLetter(s[1]) || !isUpperLetter(s[2]) {
		return detail(ErrCurrency, "a currency is three upper-case letters")
	}
	return nil
}

func isUpperLetter(c byte) bool { return c >= 'A' && c <= 'Z' }
