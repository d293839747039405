package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// The secondary market in REST (docs/rest-api.md): a share class's secondary_market, its
// published matching windows (never their book), and a SECONDARY order's matching window
// and fill.

// secondaryISIN is a valid ISIN with the 11 characters given.
func secondaryISIN(t *testing.T, first11 string) string {
	t.Helper()
	d, err := validation.ISINCheckDigit(first11)
	if err != nil {
		t.Fatal(err)
	}
	return first11 + string(d)
}

// secondaryMarket is a weekly market on Fridays, orders until 12:00 Luxembourg time the
// business day before.
func secondaryMarket() *investv1.SecondaryMarket {
	return &investv1.SecondaryMarket{
		TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingWeekly, Weekday: "Friday",
		Holidays: []string{"2026-12-25"}, OrderDeadline: investv1.CutOff{Time: "12:00", BusinessDaysBefore: 1},
		SpreadBasisPoints: 50, BuyFeeRate: 100, SellFeeRate: 75, CarryWindows: 2,
	}
}

func utc(y int, m time.Month, d, h, mi int) *metav1.Time {
	t := metav1.NewTime(time.Date(y, m, d, h, mi, 0, 0, time.UTC))
	return &t
}

// window is a MatchingWindow of isin on date in phase (none: not opened yet).
func window(isin, date string, phase investv1.MatchingWindowPhase) *investv1.MatchingWindow {
	w := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: strings.ToLower(isin) + "-" + date},
		Spec: investv1.MatchingWindowSpec{ISIN: investv1.ISIN(isin), Date: date}}
	if phase != "" {
		d, _ := time.Parse(time.DateOnly, date)
		w.Status.Phase, w.Status.Deadline = phase, utc(d.Year(), d.Month(), d.Day()-1, 11, 0)
	}
	return w
}

// matched gives w the status of a matched window: its NAV, policy, book and result.
func matched(w *investv1.MatchingWindow, phase investv1.MatchingWindowPhase) *investv1.MatchingWindow {
	w.Status.Phase = phase
	w.Status.NAV = &investv1.DealingNAV{NAVPerShare: 1_000_000, Date: "2026-03-05", RecordedAt: *utc(2026, 3, 5, 11, 0)}
	w.Status.Policy = &investv1.MatchingPolicy{SpreadBasisPoints: 50, BuyFeeRate: 100, SellFeeRate: 75, CarryWindows: 2}
	w.Status.Book = []string{"BUY 120 0 tenant-a/3f2c0000-0000-4000-8000-000000000001", "SELL 80 1 tenant-b/3f2c0000-0000-4000-8000-000000000002"}
	w.Status.Unmatched, w.Status.Filled, w.Status.MatchedAt = 1, 2, utc(2026, 3, 5, 11, 0)
	w.Status.Result = &investv1.MatchingWindowResult{BuyPrice: 1_005_000, SellPrice: 995_000, VolumeUnits: 80,
		BuyFillBasisPoints: 6666, SellFillBasisPoints: 10_000, BuyOrders: 1, SellOrders: 1, BuyUnits: 120, SellUnits: 80}
	w.Status.Message = "tenant-a/3f2c0000-0000-4000-8000-000000000001 waits"
	return w
}

// get answers a GET of path with a tenant's token, and its body as JSON.
func get(t *testing.T, s *Server, token, path string) (int, map[string]any, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("%s: %d %s", path, w.Code, w.Body)
	}
	return w.Code, body, w.Body.String()
}

func TestMatchingWindowsAreListedNewestFirstWithTheirResultAndNeverTheirBook(t *testing.T) {
	isin, other := secondaryISIN(t, "LU0000SECM1"), secondaryISIN(t, "LU0000SECM2")
	sc := fixtures.ShareClass("123e4567-e89b-42d3-a456-426614174000", isin)
	sc.Spec.Secondary = secondaryMarket()
	objs := []client.Object{sc,
		matched(window(isin, "2026-03-06", investv1.WindowOpen), investv1.WindowSettled),
		window(isin, "2026-03-20", investv1.WindowOpen),
		matched(window(isin, "2026-03-13", investv1.WindowOpen), investv1.WindowMatched),
		window(isin, "2026-03-27", ""),                   // not opened yet: not listed
		window(other, "2026-03-30", investv1.WindowOpen), // another share class's
	}
	s, _, token := newTestServer(t, objs...)
	doc := loadOpenAPI(t, s)
	bearer := token("tenant-a")

	code, body, raw := get(t, s, bearer, "/v1/share-classes/"+strings.ToLower(isin)+"/matching-windows")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, raw)
	}
	validateAgainst(t, doc, "MatchingWindowList", body)
	data, _ := body["data"].([]any)
	var dates []string
	for _, d := range data {
		dates = append(dates, d.(map[string]any)["date"].(string))
	}
	if !slices.Equal(dates, []string{"2026-03-20", "2026-03-13", "2026-03-06"}) {
		t.Fatalf("dates %v, want the opened windows of %s newest first", dates, isin)
	}
	settled := data[2].(map[string]any)
	want := map[string]any{
		"date": "2026-03-06", "order_deadline": "2026-03-05T11:00:00Z", "phase": "SETTLED",
		"nav_per_share": 1_000_000.0, "nav_date": "2026-03-05", "buy_price": 1_005_000.0, "sell_price": 995_000.0,
		"volume_units": 80.0, "buy_fill_ratio": 6666.0, "sell_fill_ratio": 10_000.0, "buy_orders": 1.0, "sell_orders": 1.0,
		"buy_units": 120.0, "sell_units": 80.0, "matched_at": "2026-03-05T11:00:00Z",
	}
	if !reflect.DeepEqual(settled, want) {
		t.Fatalf("settled window\n%v\nwant\n%v", settled, want)
	}
	if data[1].(map[string]any)["phase"] != "MATCHED" {
		t.Errorf("matched window %v", data[1])
	}
	open := data[0].(map[string]any)
	if open["phase"] != "OPEN" || open["order_deadline"] != "2026-03-19T11:00:00Z" {
		t.Errorf("open window %v", open)
	}
	for _, k := range []string{"nav_per_share", "nav_date", "buy_price", "sell_price", "volume_units", "buy_fill_ratio", "sell_fill_ratio",
		"buy_orders", "sell_orders", "buy_units", "sell_units", "matched_at"} {
		if v, ok := open[k]; !ok || v != nil {
			t.Errorf("open window: %s = %v (present %v), want null", k, v, ok)
		}
	}
	// Published without naming counterparties: no order, namespace or book.
	for _, leak := range []string{"tenant-a", "tenant-b", "3f2c0000", "book", "policy", "unmatched", "message"} {
		if strings.Contains(raw, leak) {
			t.Errorf("the answer shows %q:\n%s", leak, raw)
		}
	}

	// skip and limit page through the windows, newest first.
	_, body, _ = get(t, s, bearer, "/v1/share-classes/"+isin+"/matching-windows?skip=1&limit=1")
	if page := body["data"].([]any); len(page) != 1 || page[0].(map[string]any)["date"] != "2026-03-13" {
		t.Errorf("skip=1&limit=1: %v", body)
	}
	// A share class without windows: an empty list.
	none := fixtures.ShareClass("123e4567-e89b-42d3-a456-426614174000", secondaryISIN(t, "LU0000SECM3"))
	s2, _, token2 := newTestServer(t, none)
	if code, body, raw := get(t, s2, token2("tenant-a"), "/v1/share-classes/"+string(none.Spec.ISIN)+"/matching-windows"); code != http.StatusOK || !reflect.DeepEqual(body, map[string]any{"data": []any{}}) {
		t.Errorf("no windows: %d %s", code, raw)
	}
}

func TestMatchingWindowsOfAnUnknownOrInvalidISIN(t *testing.T) {
	s, _, token := newTestServer(t)
	bearer := token("tenant-a")
	unknown := secondaryISIN(t, "LU0000SECM4")
	code, body, raw := get(t, s, bearer, "/v1/share-classes/"+unknown+"/matching-windows")
	if code != http.StatusNotFound || body["error"] != "Share class not found" || !strings.Contains(body["details"].(string), unknown) {
		t.Errorf("unknown ISIN: %d %s", code, raw)
	}
	for _, bad := range []string{"not-an-isin", unknown[:11] + string('0'+(unknown[11]-'0'+1)%10), "LU0000SECM"} {
		code, body, raw := get(t, s, bearer, "/v1/share-classes/"+bad+"/matching-windows")
		details, _ := body["details"].(map[string]any)
		if code != http.StatusUnprocessableEntity || body["error"] != "Validation error" || details["isin"] == nil {
			t.Errorf("%s: %d %s", bad, code, raw)
		}
	}
	for query, param := range map[string]string{"limit=0": "limit", "skip=-1": "skip", "colour=red": "colour"} {
		code, body, raw := get(t, s, bearer, "/v1/share-classes/"+unknown+"/matching-windows?"+query)
		if details, _ := body["details"].(map[string]any); code != http.StatusUnprocessableEntity || details[param] == nil {
			t.Errorf("?%s: %d %s", query, code, raw)
		}
	}
}

func TestAShareClassShowsItsSecondaryMarketWithItsNextWindows(t *testing.T) {
	isin := secondaryISIN(t, "LU0000SECM5")
	sc := fixtures.ShareClass("123e4567-e89b-42d3-a456-426614174000", isin)
	sc.Spec.Secondary = secondaryMarket()
	plain := fixtures.ShareClass("123e4567-e89b-42d3-a456-426614174000", secondaryISIN(t, "LU0000SECM6"))
	plain.Spec.Abbreviation = "P-EUR"
	s, _, token := newTestServer(t, sc, plain)
	s.deps.Now = func() time.Time { return time.Date(2026, 3, 10, 8, 0, 0, 0, time.UTC) } // a Tuesday
	doc := loadOpenAPI(t, s)
	bearer := token("tenant-a")

	code, body, raw := get(t, s, bearer, "/v1/share-classes/"+isin)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, raw)
	}
	validateAgainst(t, doc, "ShareClass", body)
	want := map[string]any{
		"time_zone": "Europe/Luxembourg", "frequency": "WEEKLY", "weekday": "FRIDAY", "day_rule": nil, "day_of_month": nil, "month_of_quarter": nil,
		"business_days": []any{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"}, "holidays": []any{"2026-12-25"},
		"order_deadline":      map[string]any{"time": "12:00", "business_days_before": 1.0},
		"spread_basis_points": 50.0, "buy_fee_rate": 100.0, "sell_fee_rate": 75.0, "carry_windows": 2.0,
		// Fridays; orders until Thursday 12:00 in Luxembourg (CET, UTC+1, until 29 March).
		"next_windows": []any{
			map[string]any{"date": "2026-03-13", "order_deadline": "2026-03-12T11:00:00Z"},
			map[string]any{"date": "2026-03-20", "order_deadline": "2026-03-19T11:00:00Z"},
			map[string]any{"date": "2026-03-27", "order_deadline": "2026-03-26T11:00:00Z"},
		},
	}
	if !reflect.DeepEqual(body["secondary_market"], want) {
		t.Fatalf("secondary_market\n%v\nwant\n%v", body["secondary_market"], want)
	}

	// The list shows the same object; a share class without a secondary market has none.
	_, list, _ := get(t, s, bearer, "/v1/share-classes")
	validateAgainst(t, doc, "ShareClassList", list)
	for _, c := range list["data"].([]any) {
		c := c.(map[string]any)
		switch c["isin"] {
		case isin:
			if !reflect.DeepEqual(c["secondary_market"], want) {
				t.Errorf("listed secondary_market %v", c["secondary_market"])
			}
		default:
			if _, ok := c["secondary_market"]; ok {
				t.Errorf("a share class without a secondary market shows %v", c["secondary_market"])
			}
		}
	}
	if _, plainBody, _ := get(t, s, bearer, "/v1/share-classes/"+string(plain.Spec.ISIN)); plainBody["secondary_market"] != nil || plainBody["isin"] != string(plain.Spec.ISIN) {
		t.Errorf("without a secondary market: %v", plainBody)
	} else if _, ok := plainBody["secondary_market"]; ok {
		t.Error("secondary_market is present without a secondary market")
	}
}

// secondaryOrder is a SECONDARY order of the window of 2026-03-13, placed at the prices
// of a NAV of 1.0000 with a 50 bp spread: BUY 1.0050, SELL 0.9950 per unit.
func secondaryOrder(side investv1.OrderSide, units int64) *investv1.Order {
	o := viewOrder(side, units, 0, false)
	o.Spec.Market = investv1.MarketSecondary
	q := o.Spec.Quote
	q.NAVPerShare, q.NAVDate = 1_000_000, "2026-03-09"
	q.Window = &investv1.OrderWindow{Date: "2026-03-13", Deadline: *utc(2026, 3, 12, 11, 0)}
	price, rate := int64(1_005_000), int64(100)
	if side == investv1.SideSell {
		price, rate = 995_000, 75
	}
	q.FeeRate, q.GrossValue = rate, units*price
	q.FeeAmount = q.GrossValue * rate / 10_000
	q.Amount, q.NetAmount = q.GrossValue+q.FeeAmount, q.GrossValue
	if side == investv1.SideSell {
		q.Amount, q.NetAmount = q.GrossValue, q.GrossValue-q.FeeAmount
		o.Status.State = investv1.StatePlaced
	}
	return o
}

func TestASecondaryOrderShowsItsMatchingWindowThenItsFill(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)

	// Before the window matched it: its window, and a null confirmation.
	o := secondaryOrder(investv1.SideBuy, 100)
	before := asJSON(t, orderView(o))
	validateAgainst(t, doc, "Order", before)
	wantWindow := map[string]any{"date": "2026-03-13", "order_deadline": "2026-03-12T11:00:00Z", "carried": 0.0}
	if !reflect.DeepEqual(before["matching_window"], wantWindow) {
		t.Errorf("matching_window %v", before["matching_window"])
	}
	if v, ok := before["confirmation"]; !ok || v != nil {
		t.Errorf("confirmation before the match = %v (present %v), want null", v, ok)
	}
	for _, f := range []string{"dealing_date", "cut_off"} {
		if _, ok := before[f]; ok {
			t.Errorf("a SECONDARY order shows %s", f)
		}
	}
	item := asJSON(t, orderListItemView(o))
	validateAgainst(t, doc, "OrderListItem", item)
	if !reflect.DeepEqual(item["matching_window"], wantWindow) {
		t.Errorf("list item matching_window %v", item["matching_window"])
	}

	// Carried once: the window it waits for now.
	o.Status.Window = &investv1.OrderWindow{Date: "2026-03-20", Deadline: *utc(2026, 3, 19, 11, 0), Carried: 1}
	if got := asJSON(t, orderView(o))["matching_window"]; !reflect.DeepEqual(got, map[string]any{"date": "2026-03-20", "order_deadline": "2026-03-19T11:00:00Z", "carried": 1.0}) {
		t.Errorf("carried: matching_window %v", got)
	}

	// Filled in part: 60 of 100 units at the BUY price; the rest of its payment refunded.
	paid := o.Spec.Quote.Amount // 100 × 1.0050 + 1% = 101.5050 EUR
	o.Status.State = investv1.StateExecuted
	o.Status.Strike = &investv1.OrderContractNote{TradeDate: "2026-03-20", NAVDate: "2026-03-19", NAVPerShare: 1_005_000, Units: 60,
		GrossAmount: 60_300_000, FeeRate: 100, FeeAmount: 603_000, NetAmount: 60_300_000, SettlementDate: "2026-03-20",
		StruckAt: *utc(2026, 3, 19, 11, 0), RequestedUnits: 100, Residual: paid - 60_903_000, ResidualReference: "RS-123E4567E89B42D3A456426614174000",
		Secondary: &investv1.OrderSecondaryFill{Window: "lu0000secm19-2026-03-20", Outcome: investv1.FillPartial, RequestedUnits: 100,
			NAVPerShare: 1_000_000, SpreadBasisPoints: 50, AmountPaid: paid, AmountDue: 60_903_000, Carried: 1, RemainderCancelled: 40}}
	after := asJSON(t, orderView(o))
	validateAgainst(t, doc, "Order", after)
	c, _ := after["confirmation"].(map[string]any)
	if c == nil {
		t.Fatalf("no confirmation: %v", after)
	}
	wantFill := map[string]any{"window": "2026-03-20", "outcome": "PARTIAL", "units_requested": 100.0, "units_filled": 60.0,
		"nav_per_share": 1_000_000.0, "spread_basis_points": 50.0, "amount_paid": float64(paid), "amount_due": 60_903_000.0,
		"remainder_cancelled": 40.0, "carried_to_order": nil}
	if !reflect.DeepEqual(c["fill"], wantFill) {
		t.Errorf("fill\n%v\nwant\n%v", c["fill"], wantFill)
	}
	if c["price"] != 1_005_000.0 || c["units"] != 60.0 || c["requested_units"] != 100.0 || c["dealing"] != "" ||
		c["residual_amount"] != float64(paid-60_903_000) || c["residual_reference"] != "RS-123E4567E89B42D3A456426614174000" ||
		c["residual_refund_status"] != "PENDING" || c["units_value"] != nil {
		t.Errorf("confirmation %v", c)
	}
	if after["amount_of_units"] != 60.0 {
		t.Errorf("amount_of_units %v, want the units filled", after["amount_of_units"])
	}
	validateAgainst(t, doc, "OrderListItem", asJSON(t, orderListItemView(o)))

	// A SELL filled in part whose remainder is carried to the next window.
	sell := secondaryOrder(investv1.SideSell, 80)
	sell.Status.State = investv1.StateExecuted
	carry := "5b0e7a52-3c1d-5f8e-9a61-2d4c8e0f7b13"
	sell.Status.Strike = &investv1.OrderContractNote{TradeDate: "2026-03-13", NAVDate: "2026-03-12", NAVPerShare: 995_000, Units: 50,
		GrossAmount: 49_750_000, FeeRate: 75, FeeAmount: 373_125, NetAmount: 49_376_875, SettlementDate: "2026-03-13",
		StruckAt: *utc(2026, 3, 12, 11, 0), RequestedUnits: 80,
		CarriedForward: &investv1.OrderCarry{Order: investv1.ObjectID(carry), Units: 30, DealingDate: "2026-03-20", CutOff: *utc(2026, 3, 19, 11, 0)},
		Secondary: &investv1.OrderSecondaryFill{Window: "lu0000secm19-2026-03-13", Outcome: investv1.FillPartial, RequestedUnits: 80,
			NAVPerShare: 1_000_000, SpreadBasisPoints: 50}}
	got := asJSON(t, orderView(sell))
	validateAgainst(t, doc, "Order", got)
	fill := got["confirmation"].(map[string]any)["fill"].(map[string]any)
	if fill["carried_to_order"] != carry || fill["amount_paid"] != nil || fill["amount_due"] != nil || fill["remainder_cancelled"] != 0.0 || fill["units_filled"] != 50.0 {
		t.Errorf("SELL fill %v", fill)
	}
	if cf := got["confirmation"].(map[string]any)["carried_forward"].(map[string]any); cf["order_id"] != carry || cf["dealing_date"] != "2026-03-20" {
		t.Errorf("carried_forward %v", cf)
	}
	// The carried remainder names the SELL it came from.
	rest := secondaryOrder(investv1.SideSell, 30)
	rest.Spec.CarriedFrom = investv1.ObjectID(sell.Name)
	if v := asJSON(t, orderListItemView(rest)); v["carried_from"] != sell.Name {
		t.Errorf("carried remainder: carried_from %v", v["carried_from"])
	}
	if cf := got["confirmation"].(map[string]any)["carried_forward"].(map[string]any); cf["amount"] != nil {
		t.Errorf("a SELL's carried_forward carries no money: %v", cf)
	}

	// A BUY filled in part whose remainder is carried with the money its payment did not
	// use: no residual, the carried BUY's amount is that money.
	buy := secondaryOrder(investv1.SideBuy, 100)
	buy.Status.State = investv1.StateExecuted
	buyPaid := buy.Spec.Quote.Amount
	buy.Status.Strike = &investv1.OrderContractNote{TradeDate: "2026-03-20", NAVDate: "2026-03-19", NAVPerShare: 1_005_000, Units: 60,
		GrossAmount: 60_300_000, FeeRate: 100, FeeAmount: 603_000, NetAmount: 60_300_000, SettlementDate: "2026-03-20",
		StruckAt: *utc(2026, 3, 19, 11, 0), RequestedUnits: 100,
		CarriedForward: &investv1.OrderCarry{Order: investv1.ObjectID(carry), Units: 40, Amount: buyPaid - 60_903_000, DealingDate: "2026-03-27", CutOff: *utc(2026, 3, 26, 11, 0)},
		Secondary: &investv1.OrderSecondaryFill{Window: "lu0000secm19-2026-03-20", Outcome: investv1.FillPartial, RequestedUnits: 100,
			NAVPerShare: 1_000_000, SpreadBasisPoints: 50, AmountPaid: buyPaid, AmountDue: 60_903_000}}
	got = asJSON(t, orderView(buy))
	validateAgainst(t, doc, "Order", got)
	bc := got["confirmation"].(map[string]any)
	if cf := bc["carried_forward"].(map[string]any); cf["order_id"] != carry || cf["units"] != 40.0 || cf["amount"] != float64(buyPaid-60_903_000) {
		t.Errorf("BUY carried_forward %v, want 40 units and the %d its payment did not use", cf, buyPaid-60_903_000)
	}
	if bc["residual_amount"] != nil || bc["fill"].(map[string]any)["carried_to_order"] != carry || bc["fill"].(map[string]any)["remainder_cancelled"] != 0.0 {
		t.Errorf("BUY confirmation %v", bc)
	}
	child := secondaryOrder(investv1.SideBuy, 40)
	child.Spec.CarriedFrom, child.Spec.Quote.Amount, child.Spec.Quote.PaymentDetails = investv1.ObjectID(buy.Name), buyPaid-60_903_000, nil
	cv := asJSON(t, orderView(child))
	validateAgainst(t, doc, "Order", cv)
	if cv["carried_from"] != buy.Name || cv["amount"] != float64(buyPaid-60_903_000) {
		t.Errorf("the carried BUY: carried_from %v amount %v", cv["carried_from"], cv["amount"])
	}
}

func TestAForwardConfirmationHasANullFillAndOtherOrdersNoWindow(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)
	o := viewOrder(investv1.SideSell, 5, 0, true)
	o.Status.Strike = &investv1.OrderContractNote{Dealing: "lu0000deal19-2026-03-10", TradeDate: "2026-03-10", NAVDate: "2026-03-10", NAVPerShare: 1_050_000,
		Units: 5, GrossAmount: 5_250_000, FeeRate: 150, FeeAmount: 78_750, NetAmount: 5_171_250, SettlementDate: "2026-03-12", StruckAt: *utc(2026, 3, 11, 9, 0)}
	got := asJSON(t, orderView(o))
	validateAgainst(t, doc, "Order", got)
	if c := got["confirmation"].(map[string]any); c["fill"] != nil {
		t.Errorf("a forward confirmation's fill: %v", c["fill"])
	} else if _, ok := c["fill"]; !ok {
		t.Error("a forward confirmation has no fill key (its optional fields are null, never absent)")
	}
	if _, ok := got["matching_window"]; ok {
		t.Error("a forward order shows matching_window")
	}
	// A SECONDARY order placed without a window (before share classes had secondary
	// markets) answers as a latest-priced order always did.
	old := viewOrder(investv1.SideBuy, 3, 0, false)
	old.Spec.Market = investv1.MarketSecondary
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range asJSON(t, orderView(old)) {
			if !yield(k) {
				return
			}
		}
	})
	want := slices.Clone(latestOrderFields)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Fatalf("a SECONDARY order without a window:\n %v\nwant\n %v", keys, want)
	}
}

// TestAnOrderWithCashOnChainShowsItsEscrowInsteadOfBankDetails: a SECONDARY order of a
// market whose cash is on chain shows cash_on_chain (a BUY its escrow reference and
// amount) and no payment_details; the market shows its contracts; other orders and
// markets show no cash_on_chain at all.
func TestAnOrderWithCashOnChainShowsItsEscrowInsteadOfBankDetails(t *testing.T) {
	cash := investv1.CashOnChain{Settlement: "0x1111111111111111111111111111111111111111",
		CashToken: "0x2222222222222222222222222222222222222222", FeeCollector: "0x3333333333333333333333333333333333333333"}
	buy := fixtures.BuyOrder("tenant-a", controlplaneID, "LU0274208692", 40)
	buy.Spec.Market = investv1.MarketSecondary
	buy.Spec.Quote = &investv1.OrderQuote{Amount: 40_602_000, GrossValue: 40_400_000,
		CashOnChain: &investv1.OrderCashOnChain{CashOnChain: cash, EscrowReference: "0x" + strings.Repeat("ab", 32)}}
	body, err := json.Marshal(orderView(buy))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"settlement": cash.Settlement, "cash_token": cash.CashToken, "fee_collector": cash.FeeCollector,
		"escrow_reference": "0x" + strings.Repeat("ab", 32), "escrow_amount": float64(40_602_000)}
	if !reflect.DeepEqual(got["cash_on_chain"], want) || got["payment_details"] != nil {
		t.Errorf("BUY: cash_on_chain %v, payment_details %v; want %v and null", got["cash_on_chain"], got["payment_details"], want)
	}
	sell := buy.DeepCopy()
	sell.Spec.Side = investv1.SideSell
	sell.Spec.Quote.CashOnChain.EscrowReference = ""
	if v := orderView(sell).CashOnChain; v == nil || v.EscrowReference != nil || v.EscrowAmount != nil || v.Settlement != cash.Settlement {
		t.Errorf("SELL: cash_on_chain %+v, want the contracts without an escrow", v)
	}
	buy.Spec.Quote.CashOnChain = nil
	if body, _ := json.Marshal(orderView(buy)); strings.Contains(string(body), "cash_on_chain") {
		t.Errorf("an order whose cash moves through the bank shows cash_on_chain: %s", body)
	}
	m := secondaryMarket()
	if v := secondaryMarketView(m, time.Now()); v.CashOnChain != nil {
		t.Errorf("a market through the bank: cash_on_chain %+v", v.CashOnChain)
	}
	m.CashOnChain = &cash
	if v := secondaryMarketView(m, time.Now()); v.CashOnChain == nil || *v.CashOnChain != (CashOnChain{Settlement: cash.Settlement, CashToken: cash.CashToken, FeeCollector: cash.FeeCollector}) {
		t.Errorf("a market with cash on chain: %+v", v.CashOnChain)
	}
}

const controlplaneID = "11111111-1111-4111-8111-111111111111"
