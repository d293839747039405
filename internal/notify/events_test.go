package notify

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func orderWithHistory(states ...investv1.OrderState) *investv1.Order {
	o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: "tenant-a", Name: "0f8b6c1e-4a2d-4c3b-9d1e-2a3b4c5d6e7f", UID: "uid-1"}}
	o.Spec.Side, o.Spec.ISIN, o.Spec.AccountID, o.Spec.Currency = investv1.SideBuy, "LU0000000001", "acc-1", "EUR"
	o.Spec.Quote = &investv1.OrderQuote{WalletID: "wal-1", PaymentMethodDetailsID: "pmd-1"}
	for i, s := range states {
		o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: metav1.NewTime(t0.Add(time.Duration(i) * time.Second)), Reason: "R"})
	}
	if len(states) > 0 {
		o.Status.State = states[len(states)-1]
	}
	return o
}

func TestEveryStateAnOrderEnteredIsOneEventInOrder(t *testing.T) {
	o := orderWithHistory(investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived,
		investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted, investv1.StateCompleted)
	evs := OrderEvents(o, t0.Add(-time.Hour))
	want := []EventType{OrderPlaced, OrderPaymentInstructionsReady, OrderPaymentReceived, OrderExecuted,
		OrderDeliveryInitiated, OrderDeliveryCompleted, OrderCompleted}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d", len(evs), len(want))
	}
	ids := map[string]bool{}
	for i, e := range evs {
		if e.Type != want[i] || e.Subject != o.Name || e.Namespace != o.Namespace || !e.OccurredAt.Equal(t0.Add(time.Duration(i)*time.Second)) {
			t.Errorf("event %d = %+v; want %s of %s at +%ds", i, e, want[i], o.Name, i)
		}
		if ids[e.ID] {
			t.Errorf("event id %s twice", e.ID)
		}
		ids[e.ID] = true
		var p struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Data      OrderData `json:"data"`
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if p.Type != string(want[i]) || p.Data.Version != i+1 || p.Data.ID != o.Name || p.Data.WalletID != "wal-1" ||
			p.Data.PaymentMethodDetailsID != "pmd-1" || !p.Timestamp.Equal(e.OccurredAt) {
			t.Errorf("payload %d = %s", i, e.Payload)
		}
	}
}

func TestTheSameCommittedChangeAlwaysHasTheSameEventID(t *testing.T) {
	a := OrderEvents(orderWithHistory(investv1.StatePlaced, investv1.StateAwaitingPayment), time.Time{})
	b := OrderEvents(orderWithHistory(investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived), time.Time{})
	for i := range a {
		if a[i].ID != b[i].ID || string(a[i].Payload) != string(b[i].Payload) {
			t.Errorf("event %d changed when the order moved on: %s %s / %s %s", i, a[i].ID, a[i].Payload, b[i].ID, b[i].Payload)
		}
	}
	if !regexp.MustCompile(`^evt_[a-z2-7]{26}$`).MatchString(a[0].ID) {
		t.Errorf("id %q is not evt_ and 26 base32 characters", a[0].ID)
	}
	other := orderWithHistory(investv1.StatePlaced)
	other.UID = "uid-2"
	if OrderEvents(other, time.Time{})[0].ID == a[0].ID {
		t.Error("two orders' PLACED share an event id")
	}
}

func TestFactsOlderThanTheWindowAreNotEvents(t *testing.T) {
	o := orderWithHistory(investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived)
	evs := OrderEvents(o, t0.Add(time.Second))
	if len(evs) != 2 || evs[0].Type != OrderPaymentInstructionsReady {
		t.Fatalf("events since +1s: %+v", evs)
	}
}

func TestAStalledOrderIsOneEventPerTimeItBecameStalled(t *testing.T) {
	o := orderWithHistory(investv1.StatePlaced, investv1.StateAwaitingPayment)
	o.Status.Conditions = []metav1.Condition{{Type: "Stalled", Status: metav1.ConditionTrue, Reason: "WalletMissing", LastTransitionTime: metav1.NewTime(t0.Add(time.Minute))}}
	evs := OrderEvents(o, time.Time{})
	last := evs[len(evs)-1]
	if last.Type != OrderStalled || !strings.Contains(string(last.Payload), `"reason":"WalletMissing"`) {
		t.Fatalf("last event %+v %s", last, last.Payload)
	}
	o.Status.Conditions[0].LastTransitionTime = metav1.NewTime(t0.Add(time.Hour))
	again := OrderEvents(o, time.Time{})
	if again[len(again)-1].ID == last.ID {
		t.Error("stalled again later has the id of the first time")
	}
	o.Status.Conditions[0].Status = metav1.ConditionFalse
	for _, e := range OrderEvents(o, time.Time{}) {
		if e.Type == OrderStalled {
			t.Error("an order no longer stalled still yields order.stalled")
		}
	}
}

func TestOrderExecutedAtAStrikeCarriesItsContractNote(t *testing.T) {
	o := orderWithHistory(investv1.StatePlaced, investv1.StateExecuted)
	o.Status.Strike = &investv1.OrderContractNote{Dealing: "lu0000deal19-2026-11-30", TradeDate: "2026-11-30", NAVDate: "2026-11-30", NAVPerShare: 1_234_567, Units: 810,
		GrossAmount: 1_000_000_000, FeeAmount: 10_000_000, NetAmount: 990_000_000}
	evs := OrderEvents(o, time.Time{})
	var p struct {
		Data OrderData `json:"data"`
	}
	if err := json.Unmarshal(evs[1].Payload, &p); err != nil {
		t.Fatal(err)
	}
	n := p.Data.ContractNote
	if n == nil || n.Price != 1_234_567 || n.Units != 810 || n.NetAmount != 990_000_000 || n.Currency != "EUR" || n.DealingDate != "2026-11-30" {
		t.Fatalf("order.executed data %+v", p.Data)
	}
	if strings.Contains(string(evs[0].Payload), "contract_note") {
		t.Error("order.placed carries the contract note")
	}
}

func TestPayloadsAreThin(t *testing.T) {
	o := orderWithHistory(investv1.StatePlaced)
	for i := range o.Status.History {
		o.Status.History[i].Message = strings.Repeat("x", 1024)
	}
	for _, e := range OrderEvents(o, time.Time{}) {
		if len(e.Payload) > MaxPayload || strings.Contains(string(e.Payload), "xxxx") {
			t.Errorf("payload of %s is %d bytes or carries the message", e.Type, len(e.Payload))
		}
	}
}

func TestAWalletIsRegisteredOnceWhenItBecomesReady(t *testing.T) {
	w := &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: "tenant-a", Name: "w1", UID: "wu"}}
	if len(WalletEvents(w, time.Time{})) != 0 {
		t.Fatal("a wallet that is not Ready is registered")
	}
	w.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0)}}
	a := WalletEvents(w, time.Time{})
	w.Status.Conditions[0].LastTransitionTime = metav1.NewTime(t0.Add(time.Hour))
	b := WalletEvents(w, time.Time{})
	if len(a) != 1 || a[0].Type != WalletRegistered || a[0].ID != b[0].ID {
		t.Fatalf("wallet events %+v then %+v: want one wallet.registered with one id", a, b)
	}
}

func TestANAVPriceIsPublishedToEveryTenantAndACorrectionIsANewEvent(t *testing.T) {
	h := &investv1.NAVHistory{Spec: investv1.NAVHistorySpec{ISIN: "LU0000000001", Currency: "EUR",
		Prices: []investv1.NAVPrice{{Date: "2026-10-31", NAVPerShare: 1_000_000}, {Date: "2026-11-25", NAVPerShare: 1_010_000}}}}
	evs := NAVEvents(h, t0.Add(-48*time.Hour))
	if len(evs) != 1 || evs[0].Namespace != "" || evs[0].Type != NAVPublished || evs[0].Subject != "LU0000000001" {
		t.Fatalf("events since two days: %+v", evs)
	}
	h.Spec.Prices[1].NAVPerShare = 1_011_000
	if c := NAVEvents(h, t0.Add(-48*time.Hour)); c[0].ID == evs[0].ID {
		t.Error("a corrected price has the id of the price it corrects")
	}
}

func TestAnIntradayNAVIsPublishedToEveryTenantOnceDatedItsDealingPoint(t *testing.T) {
	sc := &investv1.ShareClass{Spec: investv1.ShareClassSpec{ISIN: "LU0000000001", Currency: "EUR", Dealing: &investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingIntraday, IntervalMinutes: 30,
		SubscriptionCutOff: investv1.CutOff{MinutesBefore: 5}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 5}}}}
	nav := int64(1_050_000)
	d := &investv1.Dealing{Spec: investv1.DealingSpec{ISIN: "LU0000000001", Date: "2026-11-26T11:30"}}
	if evs := IntradayNAVEvents(d, sc, t0.Add(-time.Hour)); len(evs) != 0 {
		t.Fatalf("a dealing point without a NAV: %+v", evs)
	}
	d.Spec.NAVPerShare = &nav
	evs := IntradayNAVEvents(d, sc, t0.Add(-time.Hour))
	if len(evs) != 1 || evs[0].Namespace != "" || evs[0].Type != NAVPublished || evs[0].Subject != "LU0000000001" {
		t.Fatalf("events: %+v", evs)
	}
	// 11:30 in Luxembourg (CET, UTC+1) is 10:30 UTC.
	if want := time.Date(2026, 11, 26, 10, 30, 0, 0, time.UTC); !evs[0].OccurredAt.Equal(want) {
		t.Errorf("occurred at %s, want the dealing point %s", evs[0].OccurredAt, want)
	}
	var p struct {
		Data NAVData `json:"data"`
	}
	if err := json.Unmarshal(evs[0].Payload, &p); err != nil {
		t.Fatal(err)
	}
	if want := (NAVData{Object: "nav", ISIN: "LU0000000001", Date: "2026-11-26T11:30", Price: 1_050_000, Currency: "EUR"}); p.Data != want {
		t.Errorf("data %+v, want %+v", p.Data, want)
	}
	if again := IntradayNAVEvents(d.DeepCopy(), sc, t0.Add(-time.Hour)); again[0].ID != evs[0].ID {
		t.Error("the same NAV of the same point has another id")
	}
	if evs := IntradayNAVEvents(d, sc, t0.Add(time.Hour)); len(evs) != 0 {
		t.Errorf("a point before since: %+v", evs)
	}
	dated := &investv1.Dealing{Spec: investv1.DealingSpec{ISIN: "LU0000000001", Date: "2026-11-26", NAVPerShare: &nav}}
	if evs := IntradayNAVEvents(dated, sc, time.Time{}); len(evs) != 0 {
		t.Errorf("a dealing date's NAV is the NAV history's event, not the Dealing's: %+v", evs)
	}
	other := sc.DeepCopy()
	other.Spec.ISIN = "LU0000000002"
	if evs := IntradayNAVEvents(d, other, time.Time{}); len(evs) != 0 {
		t.Errorf("another ISIN's share class: %+v", evs)
	}
	h := &investv1.NAVHistory{Spec: investv1.NAVHistorySpec{ISIN: "LU0000000001", Currency: "EUR",
		Prices: []investv1.NAVPrice{{Date: "2026-11-26", NAVPerShare: 1_050_000}}}}
	if NAVEvents(h, time.Time{})[0].ID == evs[0].ID {
		t.Error("the NAV of a dealing point has the id of the same NAV on its date")
	}
}

func TestAnEndpointSubscribesToItsTenantsAndTheCataloguesEventsOfItsTypes(t *testing.T) {
	ep := Endpoint{UID: "e", Namespace: "a", Types: []EventType{OrderCompleted, NAVPublished}}
	for _, tc := range []struct {
		e    Event
		want bool
	}{
		{Event{Namespace: "a", Type: OrderCompleted}, true},
		{Event{Namespace: "a", Type: OrderPlaced}, false},
		{Event{Namespace: "b", Type: OrderCompleted}, false},
		{Event{Namespace: "", Type: NAVPublished}, true},
	} {
		if got := ep.Subscribes(tc.e); got != tc.want {
			t.Errorf("Subscribes(%+v) = %v", tc.e, got)
		}
	}
	all := Endpoint{UID: "e", Namespace: "a"}
	if !all.Subscribes(Event{Namespace: "a", Type: OrderStalled}) {
		t.Error("an endpoint without types does not receive every type")
	}
}

func TestEveryEventTypeIsKnownDescribedAndInTheCRDEnum(t *testing.T) {
	for _, typ := range Types() {
		if !Known(typ) || Describe(typ) == "" {
			t.Errorf("%s: known %v, description %q", typ, Known(typ), Describe(typ))
		}
	}
	if Known("order.unknown") {
		t.Error("an unknown type is known")
	}
}
