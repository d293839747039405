package apiserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/secondary"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// The secondary market in REST: a share class's secondary_market (its terms and next
// windows, computed from the terms as the dealing object's next dates are), the
// published matching windows of a share class, and a SECONDARY order's matching window
// and fill.

// nextWindows is how many matching windows a share class shows.
const nextWindows = dealing.NextCount

// secondaryMarketView is the secondary_market object of a share class at instant now; nil
// (the field is left out) for a share class without a secondary market.
func secondaryMarketView(m *investv1.SecondaryMarket, now time.Time) *ShareClassSecondaryMarket {
	if m == nil {
		return nil
	}
	out := &ShareClassSecondaryMarket{
		TimeZone: m.TimeZone, Frequency: upperSnake(string(m.Frequency)),
		BusinessDays: []string{}, Holidays: append([]string{}, m.Holidays...),
		OrderDeadline:     WindowDeadline{Time: m.OrderDeadline.Time, BusinessDaysBefore: m.OrderDeadline.BusinessDaysBefore},
		SpreadBasisPoints: m.SpreadBasisPoints, BuyFeeRate: m.BuyFeeRate, SellFeeRate: m.SellFeeRate,
		CarryWindows: m.CarryWindows, NextWindows: []SecondaryMarketWindow{},
	}
	if c := m.CashOnChain; c != nil {
		out.CashOnChain = &CashOnChain{Settlement: c.Settlement, CashToken: c.CashToken, FeeCollector: c.FeeCollector}
	}
	if m.Weekday != "" {
		out.Weekday = optString(upperSnake(string(m.Weekday)))
	}
	if m.DayRule != "" {
		out.DayRule = optString(upperSnake(string(m.DayRule)))
	}
	if m.DayOfMonth != 0 {
		out.DayOfMonth = &m.DayOfMonth
	}
	if m.Frequency == investv1.DealingQuarterly {
		q := m.MonthOfQuarter
		if q == 0 {
			q = 3
		}
		out.MonthOfQuarter = &q
	}
	business := m.BusinessDays
	if len(business) == 0 {
		business = []investv1.Weekday{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	}
	for _, d := range business {
		out.BusinessDays = append(out.BusinessDays, upperSnake(string(d)))
	}
	// Terms admission refused (an unknown time zone) have no calendar: an empty list.
	if next, err := dealing.Next(secondary.Terms(m), now, nextWindows); err == nil {
		for _, d := range next {
			out.NextWindows = append(out.NextWindows, SecondaryMarketWindow{Date: d.Date.String(), OrderDeadline: instant(d.SubscriptionCutOff)})
		}
	}
	return out
}

// GET /v1/share-classes/{isin}/matching-windows (extension): the published matching
// windows of the share class of the ISIN (any letter case; 422 when it is not an ISIN,
// 404 when no share class has it), newest date first, from the cache (index.WindowISIN);
// skip, limit. A window the window controller has not opened yet (no phase) is left out.
// The window's book (its orders) is never shown.
func (s *Server) listMatchingWindows(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r, pageParams...)
	p := q.page()
	if err := validation.ValidateISIN(strings.ToUpper(chi.URLParam(r, "isin"))); err != nil {
		q.fe.AddErr("isin", err)
	}
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	c := s.shareClass(w, r)
	if c == nil {
		return
	}
	var list investv1.MatchingWindowList
	if err := s.deps.Reader.List(r.Context(), &list, client.MatchingFields{index.WindowISIN: string(c.Spec.ISIN)}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	items := slices.DeleteFunc(list.Items, func(mw investv1.MatchingWindow) bool {
		return mw.Spec.ISIN != c.Spec.ISIN || mw.Status.Phase == "" || mw.Status.Deadline == nil
	})
	// Dates are YYYY-MM-DD, so text order is time order.
	slices.SortStableFunc(items, func(a, b investv1.MatchingWindow) int {
		if d := strings.Compare(b.Spec.Date, a.Spec.Date); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	out := MatchingWindowList{Data: []MatchingWindow{}}
	if p.skip < len(items) {
		items = items[p.skip:]
		for i := range items[:min(len(items), p.limit)] {
			out.Data = append(out.Data, matchingWindowView(&items[i]))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// matchingWindowView is what a window publishes: its date, deadline and phase, and once
// matched its NAV, prices, volume and fill ratios. Never its book.
func matchingWindowView(mw *investv1.MatchingWindow) MatchingWindow {
	st := &mw.Status
	v := MatchingWindow{Date: mw.Spec.Date, Phase: upperSnake(string(st.Phase))}
	if st.Deadline != nil {
		v.OrderDeadline = timestamp(*st.Deadline)
	}
	if n := st.NAV; n != nil {
		v.NAVPerShare, v.NAVDate = optInt64(n.NAVPerShare), optString(n.Date)
	}
	if res := st.Result; res != nil {
		v.BuyPrice, v.SellPrice, v.VolumeUnits = optInt64(res.BuyPrice), optInt64(res.SellPrice), optInt64(res.VolumeUnits)
		v.BuyFillRatio, v.SellFillRatio = optInt64(res.BuyFillBasisPoints), optInt64(res.SellFillBasisPoints)
		buyOrders, sellOrders := res.BuyOrders, res.SellOrders
		v.BuyOrders, v.SellOrders = &buyOrders, &sellOrders
		v.BuyUnits, v.SellUnits = optInt64(res.BuyUnits), optInt64(res.SellUnits)
	}
	if t := st.MatchedAt; t != nil {
		v.MatchedAt = optString(timestamp(*t))
	}
	return v
}

// orderWindowView is a SECONDARY order's matching window now (nil for any other order).
func orderWindowView(o *investv1.Order) *OrderMatchingWindow {
	mw := lifecycle.Window(o)
	if mw == nil {
		return nil
	}
	return &OrderMatchingWindow{Date: mw.Date, OrderDeadline: timestamp(mw.Deadline), Carried: mw.Carried}
}

// fillView is the fill of a SECONDARY order's contract note; nil for a forward note.
func fillView(o *investv1.Order, n *investv1.OrderContractNote) *OrderFill {
	f := n.Secondary
	if f == nil {
		return nil
	}
	v := &OrderFill{
		Window: n.TradeDate, Outcome: upperSnake(f.Outcome), UnitsRequested: f.RequestedUnits, UnitsFilled: n.Units,
		NAVPerShare: f.NAVPerShare, SpreadBasisPoints: f.SpreadBasisPoints, RemainderCancelled: f.RemainderCancelled,
	}
	if o.Spec.Side == investv1.SideBuy {
		v.AmountPaid, v.AmountDue = optInt64(f.AmountPaid), optInt64(f.AmountDue)
	}
	if c := n.CarriedForward; c != nil {
		v.CarriedToOrder = optString(string(c.Order))
	}
	return v
}
