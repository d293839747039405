package secondary

import (
	"fmt"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Outcome is how much of an order a window filled.
type Outcome string

const (
	// Filled: every unit the order asked.
	Filled Outcome = "Filled"
	// Partial: some of its units; the remainder is carried or cancelled (Fate).
	Partial Outcome = "Partial"
	// Unfilled: none of its units (the other side was empty or the order was too small
	// to get a unit of its side's pro rata share).
	Unfilled Outcome = "Unfilled"
)

// Fate is what becomes of the units of an order a window did not fill.
type Fate string

const (
	// NoRemainder: the order was filled whole; nothing is left.
	NoRemainder Fate = ""
	// Carried: the remainder is an order of the next window, carried once more.
	Carried Fate = "Carried"
	// Cancelled: the remainder is not carried (the policy carries none, or the order has
	// been carried MaxCarry windows already) and is cancelled.
	Cancelled Fate = "Cancelled"
)

// Fill is what a window decided for one order.
type Fill struct {
	ID   string
	Side investv1.OrderSide
	// Requested is the units the order asked, Filled those it deals, Remainder the rest.
	Requested, Filled, Remainder int64
	Outcome                      Outcome
	// Fate is what becomes of the Remainder; WindowsCarried is the carried remainder's
	// count (the order's + 1) when Carried, else the order's own.
	Fate           Fate
	WindowsCarried int
	// Price is the side's price per unit, Gross = Filled × Price, Fee = Gross × the side's
	// fee rate / 10,000 rounded half up (money units).
	Price, Gross, Fee int64
	// Net is what a SELL is paid (Gross − Fee); 0 for a BUY.
	Net int64
	// ToPay is what a BUY pays (Gross + Fee); 0 for a SELL.
	ToPay int64
}

// Transfer is one delivery-versus-payment leg: Units move from the SELL SellID to the BUY
// BuyID, against payment at the window's prices.
type Transfer struct {
	SellID, BuyID string
	Units         int64
}

// Published is the window's result as published: nothing in it names an order, an account
// or a counterparty.
type Published struct {
	Date                  string
	NAVPerShare           int64
	SpreadBps             int64
	BuyPrice, SellPrice   int64
	Volume                int64
	BuyFillBps            int64
	SellFillBps           int64
	BuyOrders, SellOrders int
	BuyUnits, SellUnits   int64
}

// Result is a matched window: a Fill for every order (BUYs then SELLs, each in priority
// order), the Transfers that settle them and what is published.
type Result struct {
	Fills     []Fill
	Transfers []Transfer
	Published Published
}

// Match matches the orders of window w under policy p (the rules are in the package
// documentation). It refuses input it cannot match (see validate) and returns
// money.ErrOverflow, naming the order, when an amount does not fit in an int64.
func Match(w Window, p Policy, orders []Order) (Result, error) {
	if err := validate(w, p, orders); err != nil {
		return Result{}, err
	}
	buys, sells := bySide(orders)
	buyUnits, err := sum(buys, investv1.SideBuy)
	if err != nil {
		return Result{}, err
	}
	sellUnits, err := sum(sells, investv1.SideSell)
	if err != nil {
		return Result{}, err
	}
	buyPrice, sellPrice, err := prices(w.NAVPerShare, p.SpreadBps)
	if err != nil {
		return Result{}, err
	}
	volume := min(buyUnits, sellUnits)
	buyFills := allocate(buys, buyUnits, volume)
	sellFills := allocate(sells, sellUnits, volume)

	fills := make([]Fill, 0, len(orders))
	for i, o := range buys {
		f, err := settle(o, buyFills[i], buyPrice, p.BuyFeeRate, p.MaxCarry)
		if err != nil {
			return Result{}, err
		}
		fills = append(fills, f)
	}
	for i, o := range sells {
		f, err := settle(o, sellFills[i], sellPrice, p.SellFeeRate, p.MaxCarry)
		if err != nil {
			return Result{}, err
		}
		fills = append(fills, f)
	}
	return Result{
		Fills:     fills,
		Transfers: pair(buys, buyFills, sells, sellFills),
		Published: Published{
			Date: w.Date, NAVPerShare: w.NAVPerShare, SpreadBps: p.SpreadBps,
			BuyPrice: buyPrice, SellPrice: sellPrice, Volume: volume,
			BuyFillBps: fillBps(volume, buyUnits), SellFillBps: fillBps(volume, sellUnits),
			BuyOrders: len(buys), SellOrders: len(sells), BuyUnits: buyUnits, SellUnits: sellUnits,
		},
	}, nil
}

// sum is the units a side asks in total, or money.ErrOverflow: the side's total is the
// denominator of its pro rata shares, so it must be exact.
func sum(side []Order, name investv1.OrderSide) (int64, error) {
	var total int64
	for _, o := range side {
		t, err := money.Add(total, o.Units)
		if err != nil {
			return 0, fmt.Errorf("the %s orders ask more units in total than an int64 holds (at order %q): %w", name, o.ID, err)
		}
		total = t
	}
	return total, nil
}

// prices are the window's BUY and SELL prices per unit: NAV × (10,000 ± spread) / 10,000
// rounded half up. The BUY price is NAV + Fee(NAV, spread), which is that rounding exactly
// because NAV is a whole number of money units.
func prices(nav, spreadBps int64) (buy, sell int64, err error) {
	markup, err := money.Fee(nav, spreadBps)
	if err != nil {
		return 0, 0, fmt.Errorf("the spread of the buy price: %w", err)
	}
	if buy, err = money.Add(nav, markup); err != nil {
		return 0, 0, fmt.Errorf("the buy price (NAV %d plus a spread of %d basis points): %w", nav, spreadBps, err)
	}
	if sell, err = money.Fee(nav, money.RateUnitsPerWhole-spreadBps); err != nil {
		return 0, 0, fmt.Errorf("the sell price: %w", err)
	}
	return buy, sell, nil
}

// settle is the Fill of order o filled units at price with the side's fee rate.
func settle(o Order, filled, price, feeRate int64, maxCarry int) (Fill, error) {
	f := Fill{
		ID: o.ID, Side: o.Side, Requested: o.Units, Filled: filled, Remainder: o.Units - filled,
		Outcome: outcome(o.Units, filled), WindowsCarried: o.WindowsCarried, Price: price,
	}
	if f.Remainder > 0 {
		f.Fate = Cancelled
		if o.WindowsCarried < maxCarry {
			f.Fate, f.WindowsCarried = Carried, o.WindowsCarried+1
		}
	}
	if filled == 0 {
		return f, nil
	}
	var err error
	if f.Gross, err = money.Mul(filled, price); err != nil {
		return Fill{}, fmt.Errorf("order %q: %d units at %d: %w", o.ID, filled, price, err)
	}
	if f.Fee, err = money.Fee(f.Gross, feeRate); err != nil {
		return Fill{}, fmt.Errorf("order %q: the fee: %w", o.ID, err)
	}
	if o.Side == investv1.SideBuy {
		f.ToPay, err = money.Add(f.Gross, f.Fee)
	} else {
		f.Net, err = money.Sub(f.Gross, f.Fee)
	}
	if err != nil {
		return Fill{}, fmt.Errorf("order %q: gross %d and fee %d: %w", o.ID, f.Gross, f.Fee, err)
	}
	return f, nil
}

func outcome(requested, filled int64) Outcome {
	switch filled {
	case requested:
		return Filled
	case 0:
		return Unfilled
	default:
		return Partial
	}
}

// fillBps is the share of a side's units filled, in basis points rounded down; 0 for a
// side that asked nothing.
func fillBps(volume, total int64) int64 {
	if total == 0 {
		return 0
	}
	q, _ := mulDiv(volume, money.RateUnitsPerWhole, total)
	return q
}
