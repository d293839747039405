package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// A forward-priced order in REST (docs/rest-api.md): its dealing date and cut-off, null
// price, units and fees until the strike, then its confirmation; a latest-priced order
// answers with exactly the fields it always had.

func viewOrder(side investv1.OrderSide, units, amount int64, forward bool) *investv1.Order {
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "123e4567-e89b-42d3-a456-426614174000", CreationTimestamp: metav1.NewTime(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))},
		Spec: investv1.OrderSpec{Side: side, Market: investv1.MarketPrimary, ISIN: "LU0000DEAL19", Currency: "EUR", AmountOfUnits: units, Amount: amount,
			AccountID: "123e4567-e89b-42d3-a456-426614174001",
			Quote: &investv1.OrderQuote{FeeRate: 150, FeeSource: investv1.FeeSourceDefault, Amount: amount, GrossValue: amount,
				FundDetails: investv1.OrderFundDetails{ISIN: "LU0000DEAL19"}}},
		Status: investv1.OrderStatus{State: investv1.StatePaymentReceived},
	}
	if forward {
		cut := metav1.NewTime(time.Date(2026, 3, 10, 11, 0, 0, 0, time.UTC))
		o.Spec.Quote.DealingDate, o.Spec.Quote.CutOff = "2026-03-10", &cut
	} else {
		o.Spec.Quote.NAVPerShare, o.Spec.Quote.NAVDate = 1_050_000, "2026-03-09"
		o.Spec.Quote.GrossValue, o.Spec.Quote.Amount = units*1_050_000, units*1_050_000
	}
	return o
}

func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func validateAgainst(t *testing.T, doc *openapi3.T, schema string, v map[string]any) {
	t.Helper()
	if err := doc.Components.Schemas[schema].Value.VisitJSON(v); err != nil {
		t.Fatalf("%s does not match the document: %v\n%v", schema, err, v)
	}
}

func TestAForwardOrderShowsNullPriceUnitsAndFeesUntilTheStrikeThenItsConfirmation(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)

	o := viewOrder(investv1.SideBuy, 0, 10_000_000, true)
	before := asJSON(t, orderView(o))
	validateAgainst(t, doc, "Order", before)
	for _, f := range []string{"amount_of_units", "subscription_fee_amount", "net_amount", "confirmation"} {
		if v, ok := before[f]; !ok || v != nil {
			t.Errorf("before the strike %s = %v (present %v), want null", f, v, ok)
		}
	}
	if before["dealing_date"] != "2026-03-10" || before["cut_off"] != "2026-03-10T11:00:00Z" || before["amount"] != 10_000_000.0 {
		t.Errorf("dealing date, cut-off, amount: %v %v %v", before["dealing_date"], before["cut_off"], before["amount"])
	}
	item := asJSON(t, orderListItemView(o))
	validateAgainst(t, doc, "OrderListItem", item)
	if v, ok := item["confirmation"]; !ok || v != nil {
		t.Errorf("list item confirmation = %v (present %v), want null", v, ok)
	}

	o.Status.Strike = &investv1.OrderContractNote{Dealing: "lu0000deal19-2026-03-10", TradeDate: "2026-03-10", NAVDate: "2026-03-10", NAVPerShare: 1_050_000,
		Units: 9, GrossAmount: 10_000_000, FeeRate: 150, FeeAmount: 150_000, NetAmount: 9_850_000, UnitsValue: 9_450_000, Residual: 400_000,
		ResidualReference: "RS-123E4567E89B42D3A456426614174000", SettlementDate: "2026-03-12", StruckAt: metav1.NewTime(time.Date(2026, 3, 11, 9, 0, 0, 0, time.UTC))}
	o.Status.State = investv1.StateExecuted
	after := asJSON(t, orderView(o))
	validateAgainst(t, doc, "Order", after)
	c, _ := after["confirmation"].(map[string]any)
	if c == nil || c["price"] != 1_050_000.0 || c["units"] != 9.0 || c["residual_amount"] != 400_000.0 || c["settlement_date"] != "2026-03-12" || c["trade_date"] != "2026-03-10" {
		t.Fatalf("confirmation %v", after["confirmation"])
	}
	if after["amount_of_units"] != 9.0 || after["subscription_fee_amount"] != 150_000.0 || after["net_amount"] != 9_850_000.0 || after["value"] != 10_000_000.0 {
		t.Fatalf("after the strike: %v", after)
	}
	validateAgainst(t, doc, "OrderListItem", asJSON(t, orderListItemView(o)))

	// The residual is PENDING until the money side sends it back, then SENT, then COMPLETED.
	for _, step := range []struct {
		rec  func(*investv1.SettlementEvidence)
		want string
	}{
		{func(*investv1.SettlementEvidence) {}, "PENDING"},
		{func(e *investv1.SettlementEvidence) {
			e.ResidualRefundSent = &investv1.SettlementRecord{Reference: "SBX-RFD-1"}
		}, "SENT"},
		{func(e *investv1.SettlementEvidence) {
			e.ResidualRefundCompleted = &investv1.SettlementRecord{Reference: "SBX-RFD-1"}
		}, "COMPLETED"},
	} {
		step.rec(&o.Status.Settlement)
		v := asJSON(t, orderView(o))
		validateAgainst(t, doc, "Order", v)
		if c, _ := v["confirmation"].(map[string]any); c == nil || c["residual_refund_status"] != step.want {
			t.Fatalf("residual_refund_status %v, want %s", v["confirmation"], step.want)
		}
	}

	// A SELL by units: no amount and no value before the strike.
	sell := asJSON(t, orderView(viewOrder(investv1.SideSell, 5, 0, true)))
	validateAgainst(t, doc, "Order", sell)
	if sell["amount"] != nil || sell["amount_of_units"] != 5.0 || sell["redemption_fee_amount"] != nil || sell["gross_value"] != nil {
		t.Fatalf("a SELL before the strike: %v", sell)
	}
}

// The fields of an order before forward pricing existed: a latest-priced order has these
// and no other.
var latestOrderFields = []string{
	"id", "side", "market", "status", "amount_of_units", "value", "currency", "isin", "account_id", "created",
	"settlement_transaction_hash", "payment_transaction_reference", "custom_offering_id", "created_at", "amount",
	"fund_details", "subscription_fee_amount", "subscription_fee", "redemption_fee_amount", "redemption_fee",
	"fee_source", "net_amount", "gross_value", "payment_details", "settlement_type", "wallet_id",
	"payment_method_details_id", "cancellation_requested", "refund", "history",
}

func TestALatestPricedShareClassAnswersExactlyAsBefore(t *testing.T) {
	s, _, _ := newTestServer(t)
	doc := loadOpenAPI(t, s)
	got := asJSON(t, orderView(viewOrder(investv1.SideBuy, 3, 0, false)))
	validateAgainst(t, doc, "Order", got)
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := slices.Clone(latestOrderFields)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Fatalf("a latest-priced order's fields:\n %v\nwant\n %v", keys, want)
	}
	if got["amount_of_units"] != 3.0 || got["amount"] != 3_150_000.0 || got["value"] != 3_150_000.0 {
		t.Fatalf("latest order: %v", got)
	}
	// An order without a quote (admission bypassed) still answers amount 0.
	bare := viewOrder(investv1.SideBuy, 3, 0, false)
	bare.Spec.Quote = nil
	if v := asJSON(t, orderView(bare))["amount"]; v != 0.0 {
		t.Fatalf("an unquoted order's amount: %v", v)
	}
}

func TestTheQuantityRuleNamesTheFields(t *testing.T) {
	req := &OrderCreateRequest{Side: new("BUY"), Market: new("PRIMARY"), ISIN: new("LU0000DEAL19"), Currency: new("EUR"), AccountID: new("123e4567-e89b-42d3-a456-426614174000")}
	// Without amount and without units: the request's own check says amount_of_units is required, as always.
	if fe := req.Validate(); len(fe) != 1 || fe["amount_of_units"][0] != "is required" {
		t.Fatalf("neither: %v", fe)
	}
	req.Amount = new(int64(0))
	if fe := req.Validate(); fe["amount"] == nil || fe["amount_of_units"] != nil {
		t.Fatalf("an amount of 0: %v", fe)
	}
}

func TestACancelAfterTheCutOffAnswers409OrderSubmittedForDealing(t *testing.T) {
	o := viewOrder(investv1.SideBuy, 0, 10_000_000, true)
	cut := o.Spec.Quote.CutOff.Time
	if step, _ := decideCancelAt(o, cut.Add(-time.Second)); step != cancelRequest {
		t.Fatalf("before the cut-off: %v", step)
	}
	step, reason := decideCancelAt(o, cut)
	if step != cancelRefuse {
		t.Fatalf("at the cut-off: %v", step)
	}
	w := httptest.NewRecorder()
	writeNotCancellable(w, o, reason, cut)
	var body ErrorResponse
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusConflict || body.Error != "Order submitted for dealing" || !strings.Contains(fmt.Sprint(body.Details), "submitted for dealing on 2026-03-10") {
		t.Fatalf("%d %+v", w.Code, body)
	}
}
