package secondary

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Terms are the dealing terms whose calendar is the secondary market's: its dates are the
// windows' and both cut-offs its order deadline.
func Terms(m *investv1.SecondaryMarket) *investv1.DealingTerms {
	return &investv1.DealingTerms{
		Pricing: investv1.PricingLatest, TimeZone: m.TimeZone, Frequency: m.Frequency, Weekday: m.Weekday,
		DayRule: m.DayRule, DayOfMonth: m.DayOfMonth, MonthOfQuarter: m.MonthOfQuarter,
		BusinessDays: m.BusinessDays, Holidays: m.Holidays,
		SubscriptionCutOff: m.OrderDeadline, RedemptionCutOff: m.OrderDeadline,
	}
}

// Calendar is the calendar of the market's windows.
func Calendar(m *investv1.SecondaryMarket) (*dealing.Calendar, error) {
	return dealing.New(Terms(m))
}

// WindowFor is the window an order received at receivedAt deals in: the first window
// whose order deadline is still ahead.
func WindowFor(m *investv1.SecondaryMarket, receivedAt time.Time) (investv1.OrderWindow, error) {
	c, err := Calendar(m)
	if err != nil {
		return investv1.OrderWindow{}, err
	}
	dl, err := c.DealingDateFor(investv1.SideBuy, receivedAt)
	if err != nil {
		return investv1.OrderWindow{}, err
	}
	return OrderWindow(dl), nil
}

// OrderWindow is a window of the calendar as an order names it.
func OrderWindow(dl dealing.Dealing) investv1.OrderWindow {
	return investv1.OrderWindow{Date: dl.Date.String(), Deadline: metav1Time(dl.SubscriptionCutOff)}
}

// PolicyOf is the Match policy of a recorded window policy.
func PolicyOf(p *investv1.MatchingPolicy) Policy {
	return Policy{SpreadBps: int64(p.SpreadBasisPoints), BuyFeeRate: p.BuyFeeRate, SellFeeRate: p.SellFeeRate, MaxCarry: int(p.CarryWindows)}
}

// RecordPolicy is the policy a window records from the share class's terms.
func RecordPolicy(m *investv1.SecondaryMarket) *investv1.MatchingPolicy {
	return &investv1.MatchingPolicy{SpreadBasisPoints: m.SpreadBasisPoints, BuyFeeRate: m.BuyFeeRate, SellFeeRate: m.SellFeeRate, CarryWindows: m.CarryWindows}
}

// Prices are the BUY and SELL prices per unit of a NAV with a spread (the rule of Match).
func Prices(nav, spreadBps int64) (buy, sell int64, err error) { return prices(nav, spreadBps) }

// Affordable is the most whole units, at most units, that paid covers at price with the
// fee rate: the largest u with u × price + Fee(u × price, rate) ≤ paid. A BUY deals only
// what it paid for.
func Affordable(units, paid, price, feeRate int64) (int64, error) {
	if price < 1 {
		return 0, fmt.Errorf("price %d: %w", price, money.ErrNAVTooSmall)
	}
	cost := func(u int64) (int64, error) {
		g, err := money.Mul(u, price)
		if err != nil {
			return 0, err
		}
		f, err := money.Fee(g, feeRate)
		if err != nil {
			return 0, err
		}
		return money.Add(g, f)
	}
	c, err := cost(units)
	if err == nil && c <= paid {
		return units, nil
	}
	// Binary search on [0, units): cost is non-decreasing in u.
	lo, hi := int64(0), units
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		c, err := cost(mid)
		if err != nil && !errors.Is(err, money.ErrOverflow) {
			return 0, err
		}
		if err == nil && c <= paid {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}

// Entry is one order of a window's recorded book.
type Entry struct {
	Side      investv1.OrderSide
	Units     int64
	Carried   int
	Namespace string
	Name      string
}

// Key is the entry's order as namespace/name.
func (e Entry) Key() string { return e.Namespace + "/" + e.Name }

// String is the entry as the book records it: "SIDE UNITS CARRIED NAMESPACE/NAME".
func (e Entry) String() string {
	return fmt.Sprintf("%s %d %d %s/%s", e.Side, e.Units, e.Carried, e.Namespace, e.Name)
}

// ParseEntry reads a book entry.
func ParseEntry(s string) (Entry, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return Entry{}, fmt.Errorf("book entry %q: want SIDE UNITS CARRIED NAMESPACE/NAME", s)
	}
	e := Entry{Side: investv1.OrderSide(f[0])}
	var err error
	if e.Units, err = strconv.ParseInt(f[1], 10, 64); err != nil {
		return Entry{}, fmt.Errorf("book entry %q: units: %w", s, err)
	}
	if e.Carried, err = strconv.Atoi(f[2]); err != nil {
		return Entry{}, fmt.Errorf("book entry %q: carried: %w", s, err)
	}
	var ok bool
	if e.Namespace, e.Name, ok = strings.Cut(f[3], "/"); !ok || e.Namespace == "" || e.Name == "" {
		return Entry{}, fmt.Errorf("book entry %q: the order is not NAMESPACE/NAME", s)
	}
	return e, nil
}

// bookEpoch is the synthetic placement time of the first entry: a recorded book is in
// priority order, so its positions are its priorities.
var bookEpoch = time.Unix(0, 0).UTC()

// Replay matches a recorded book: the orders in the book's order (its priority), the
// window's NAV and the recorded policy. The same book always gives the same Result, so
// the window controller writes it and the chain agent reads its transfers from it. IDs of
// the fills and transfers are the entries' Keys.
func Replay(date string, nav int64, p Policy, book []string) (Result, map[string]Entry, error) {
	orders := make([]Order, 0, len(book))
	entries := make(map[string]Entry, len(book))
	for i, s := range book {
		e, err := ParseEntry(s)
		if err != nil {
			return Result{}, nil, err
		}
		entries[e.Key()] = e
		orders = append(orders, Order{ID: e.Key(), Side: e.Side, Units: e.Units, PlacedAt: bookEpoch.Add(time.Duration(i) * time.Nanosecond), WindowsCarried: e.Carried})
	}
	res, err := Match(Window{Date: date, NAVPerShare: nav}, p, orders)
	return res, entries, err
}

func metav1Time(t time.Time) metav1.Time { return metav1.NewTime(t.UTC()) }

// WalletState is what the chain says of a wallet for a share class's token, for the
// checks at matching.
type WalletState struct {
	// Verified: the identity registry lists the wallet.
	Verified bool
	// Frozen: the token freezes the wallet.
	Frozen bool
	// Unlocked units the wallet may transfer now.
	Unlocked int64
	// Paused: the token is paused (no holder transfer moves).
	Paused bool
}
