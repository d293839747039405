package secondary

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Order is an order of the window: a BUY or SELL of Units whole units, placed at PlacedAt
// (its priority among ties), carried from WindowsCarried earlier windows.
type Order struct {
	ID             string
	Side           investv1.OrderSide
	Units          int64
	PlacedAt       time.Time
	WindowsCarried int
}

// Policy is the share class's published secondary-market policy.
type Policy struct {
	// SpreadBps is the fund's disclosed spread around the NAV, 0..10,000 basis points.
	SpreadBps int64
	// BuyFeeRate and SellFeeRate are the secondary fee rates (rate units, 100% = 10,000).
	BuyFeeRate, SellFeeRate int64
	// MaxCarry is how many windows an unfilled remainder may be carried; 0 cancels it at
	// once.
	MaxCarry int
}

// Window is one matching window: its date (YYYY-MM-DD) and the NAV per share of that date
// (money units per unit).
type Window struct {
	Date        string
	NAVPerShare int64
}

var (
	// ErrInvalidWindow is returned for a window without a date or a NAV.
	ErrInvalidWindow = errors.New("invalid window")
	// ErrInvalidPolicy is returned for a spread, fee rate or carry limit out of range.
	ErrInvalidPolicy = errors.New("invalid policy")
	// ErrInvalidOrder is returned for an order that cannot be matched; the message names it.
	ErrInvalidOrder = errors.New("invalid order")
)

// validate refuses what Match cannot decide on: a window without a valid date or a NAV of
// at least 1, a spread or fee rate outside 0..10,000, a negative carry limit, and an order
// without an ID, with an ID already seen, a side other than BUY or SELL, fewer than one
// unit or a negative carry count. Orders are checked in input order, so the error names
// the first bad one.
func validate(w Window, p Policy, orders []Order) error {
	if _, err := time.Parse(time.DateOnly, w.Date); err != nil {
		return fmt.Errorf("%w: date %q is not a date YYYY-MM-DD", ErrInvalidWindow, w.Date)
	}
	if w.NAVPerShare < 1 {
		return fmt.Errorf("%w: NAV per share %d: %w", ErrInvalidWindow, w.NAVPerShare, money.ErrNAVTooSmall)
	}
	for _, r := range []struct {
		name string
		v    int64
	}{{"spread", p.SpreadBps}, {"buy fee rate", p.BuyFeeRate}, {"sell fee rate", p.SellFeeRate}} {
		if r.v < 0 || r.v > money.RateUnitsPerWhole {
			return fmt.Errorf("%w: %s %d is not between 0 and 10000", ErrInvalidPolicy, r.name, r.v)
		}
	}
	if p.MaxCarry < 0 {
		return fmt.Errorf("%w: MaxCarry %d is negative", ErrInvalidPolicy, p.MaxCarry)
	}
	seen := make(map[string]struct{}, len(orders))
	for i, o := range orders {
		if err := validateOrder(o); err != nil {
			return fmt.Errorf("%w %q (number %d): %w", ErrInvalidOrder, o.ID, i+1, err)
		}
		if _, dup := seen[o.ID]; dup {
			return fmt.Errorf("%w %q (number %d): the ID is used by an earlier order", ErrInvalidOrder, o.ID, i+1)
		}
		seen[o.ID] = struct{}{}
	}
	return nil
}

// validateOrder is what is wrong with one order, or nil.
func validateOrder(o Order) error {
	switch {
	case o.ID == "":
		return errors.New("no ID")
	case o.Side != investv1.SideBuy && o.Side != investv1.SideSell:
		return fmt.Errorf("side %q is neither BUY nor SELL", o.Side)
	case o.Units < 1:
		return fmt.Errorf("%d units: at least 1 unit is needed", o.Units)
	case o.WindowsCarried < 0:
		return fmt.Errorf("carried from %d windows: the count cannot be negative", o.WindowsCarried)
	}
	return nil
}

// bySide splits orders into BUYs and SELLs, each sorted by priority.
func bySide(orders []Order) (buys, sells []Order) {
	for _, o := range orders {
		if o.Side == investv1.SideBuy {
			buys = append(buys, o)
		} else {
			sells = append(sells, o)
		}
	}
	slices.SortFunc(buys, byPriority)
	slices.SortFunc(sells, byPriority)
	return buys, sells
}

// byPriority orders by PlacedAt, then ID: the earlier order first. IDs are unique, so
// it is a total order and every sort by it gives one answer.
func byPriority(a, b Order) int {
	return cmp.Or(a.PlacedAt.Compare(b.PlacedAt), strings.Compare(a.ID, b.ID))
}
