package notify

import (
	"cmp"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

// MaxPayload is the largest payload an event may have (the thin-payload promise of
// docs/webhooks.md): ids, status and version, never the whole object.
const MaxPayload = 20 << 10

// orderEventTypes maps the state an order entered to its event.
var orderEventTypes = map[investv1.OrderState]EventType{
	investv1.StatePlaced:            OrderPlaced,
	investv1.StateAwaitingPayment:   OrderPaymentInstructionsReady,
	investv1.StatePaymentReceived:   OrderPaymentReceived,
	investv1.StateExecuted:          OrderExecuted,
	investv1.StateDeliveryInitiated: OrderDeliveryInitiated,
	investv1.StateDeliveryCompleted: OrderDeliveryCompleted,
	investv1.StatePaymentSent:       OrderPaymentSent,
	investv1.StatePaymentCompleted:  OrderPaymentCompleted,
	investv1.StateRedemptionGated:   OrderRedemptionGated,
	investv1.StateCompleted:         OrderCompleted,
	investv1.StateCancelled:         OrderCancelled,
}

// Types lists every event type an endpoint may subscribe to, in the order the docs list
// them.
func Types() []EventType {
	return []EventType{
		OrderPlaced, OrderPaymentInstructionsReady, OrderPaymentReceived, OrderExecuted,
		OrderDeliveryInitiated, OrderDeliveryCompleted, OrderPaymentSent, OrderPaymentCompleted,
		OrderRedemptionGated, OrderCompleted, OrderCancelled, OrderStalled,
		WalletRegistered, NAVPublished, WebhookEndpointDisabled,
	}
}

// Known reports whether t is an event type of Types.
func Known(t EventType) bool {
	for _, k := range Types() {
		if k == t {
			return true
		}
	}
	return false
}

// EventID is the id of the event of a fact named by parts (its kind, the object's UID, what
// happened to it): the same fact always has the same id, "evt_" and 26 characters.
func EventID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "evt_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:16]))
}

// payload is the body every endpoint receives.
type payload struct {
	Type      EventType `json:"type"`
	Timestamp string    `json:"timestamp"`
	Data      any       `json:"data"`
}

// OrderData is the data of an order event: the order's ids, the state it entered and the
// version (the position of that state in the order's history, from 1), so a receiver can
// tell an older event from a newer one.
type OrderData struct {
	Object                 string        `json:"object"`
	ID                     string        `json:"id"`
	AccountID              string        `json:"account_id"`
	Side                   string        `json:"side"`
	ISIN                   string        `json:"isin"`
	Status                 string        `json:"status"`
	Reason                 string        `json:"reason,omitempty"`
	Version                int           `json:"version"`
	WalletID               string        `json:"wallet_id,omitempty"`
	PaymentMethodDetailsID string        `json:"payment_method_details_id,omitempty"`
	ContractNote           *ContractNote `json:"contract_note,omitempty"`
}

// ContractNote is the pricing of an order dealt at a strike, as order.executed carries it
// (amounts in micro-units of the currency, as everywhere in the API).
type ContractNote struct {
	DealingDate string `json:"dealing_date"`
	NAVDate     string `json:"nav_date"`
	Price       int64  `json:"price"`
	Units       int64  `json:"units"`
	GrossAmount int64  `json:"gross_amount"`
	FeeAmount   int64  `json:"fee_amount"`
	NetAmount   int64  `json:"net_amount"`
	Currency    string `json:"currency"`
}

// OrderEvents returns the events o's committed status shows, oldest first: one per state
// in its history, and order.stalled while its Stalled condition is True (one per time it
// became so). Events that occurred before since are left out (see Recorder.Window).
func OrderEvents(o *investv1.Order, since time.Time) []Event {
	var out []Event
	for i, h := range o.Status.History {
		t, ok := orderEventTypes[h.State]
		if !ok || h.At.Time.Before(since) {
			continue
		}
		d := orderData(o, string(h.State), h.Reason, i+1)
		if h.State == investv1.StateExecuted && o.Status.Strike != nil {
			n := o.Status.Strike
			d.ContractNote = &ContractNote{DealingDate: n.TradeDate, NAVDate: n.NAVDate, Price: n.NAVPerShare, Units: n.Units,
				GrossAmount: n.GrossAmount, FeeAmount: n.FeeAmount, NetAmount: n.NetAmount, Currency: string(o.Spec.Currency)}
		}
		out = append(out, event(EventID("order", string(o.UID), strconv.Itoa(i), string(h.State)), o.Namespace, t, o.Name, h.At, d))
	}
	if c := meta.FindStatusCondition(o.Status.Conditions, "Stalled"); c != nil && c.Status == metav1.ConditionTrue && !c.LastTransitionTime.Time.Before(since) {
		d := orderData(o, string(o.Status.State), c.Reason, len(o.Status.History))
		out = append(out, event(EventID("order", string(o.UID), "stalled", strconv.FormatInt(c.LastTransitionTime.Unix(), 10)),
			o.Namespace, OrderStalled, o.Name, c.LastTransitionTime, d))
	}
	return out
}

func orderData(o *investv1.Order, status, reason string, version int) OrderData {
	d := OrderData{
		Object: "order", ID: o.Name, AccountID: string(o.Spec.AccountID), Side: string(o.Spec.Side), ISIN: string(o.Spec.ISIN),
		Status: status, Reason: reason, Version: version,
		WalletID: string(o.Spec.WalletID), PaymentMethodDetailsID: string(o.Spec.PaymentMethodDetailsID),
	}
	if q := o.Spec.Quote; q != nil {
		// What placement resolved, when the order named no wallet or bank account itself.
		d.WalletID = cmp.Or(d.WalletID, string(q.WalletID))
		d.PaymentMethodDetailsID = cmp.Or(d.PaymentMethodDetailsID, string(q.PaymentMethodDetailsID))
	}
	return d
}

// WalletData is the data of wallet.registered.
type WalletData struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	AccountID string `json:"account_id"`
	Address   string `json:"address"`
}

// WalletEvents returns wallet.registered once the wallet is Ready (with a chain: its
// address is in the identity registry), at most once per wallet.
func WalletEvents(w *investv1.Wallet, since time.Time) []Event {
	c := meta.FindStatusCondition(w.Status.Conditions, "Ready")
	if c == nil || c.Status != metav1.ConditionTrue || c.LastTransitionTime.Time.Before(since) {
		return nil
	}
	d := WalletData{Object: "wallet", ID: w.Name, AccountID: string(w.Spec.AccountID), Address: w.Spec.WalletAddress}
	return []Event{event(EventID("wallet", string(w.UID), "registered"), w.Namespace, WalletRegistered, w.Name, c.LastTransitionTime, d)}
}

// NAVData is the data of nav.published.
type NAVData struct {
	Object   string `json:"object"`
	ISIN     string `json:"isin"`
	Date     string `json:"date"`
	Price    int64  `json:"price"`
	Currency string `json:"currency"`
}

// NAVEvents returns nav.published for each price of h dated since or later (a price
// occurs at the start of its date, UTC). A corrected price of a date is a new event.
// Catalogue events go to every tenant.
func NAVEvents(h *investv1.NAVHistory, since time.Time) []Event {
	var out []Event
	for _, p := range h.Spec.Prices {
		day, err := time.Parse(time.DateOnly, p.Date)
		if err != nil || day.Before(since.Truncate(24*time.Hour)) {
			continue
		}
		d := NAVData{Object: "nav", ISIN: string(h.Spec.ISIN), Date: p.Date, Price: p.NAVPerShare, Currency: string(h.Spec.Currency)}
		out = append(out, event(EventID("nav", string(h.Spec.ISIN), p.Date, strconv.FormatInt(p.NAVPerShare, 10)), "", NAVPublished,
			string(h.Spec.ISIN), metav1.NewTime(day), d))
	}
	return out
}

// IntradayNAVEvents returns nav.published for the NAV published on an Intraday share
// class's dealing point (the Dealing's spec.navPerShare, set once): its date is the point
// (YYYY-MM-DDTHH:MM in sc's time zone) and it occurs at the point's instant; none before
// since. A dealing date's Dealing has none: its NAV is a price of the NAV history
// (NAVEvents). Catalogue events go to every tenant.
func IntradayNAVEvents(d *investv1.Dealing, sc *investv1.ShareClass, since time.Time) []Event {
	if d.Spec.NAVPerShare == nil || sc == nil || sc.Spec.Dealing == nil || sc.Spec.ISIN != d.Spec.ISIN {
		return nil
	}
	p, err := dealing.ParsePoint(d.Spec.Date)
	if err != nil || !p.Timed() {
		return nil
	}
	cal, err := dealing.New(sc.Spec.Dealing)
	if err != nil {
		return nil
	}
	at := dealing.LocalInstant(p.Date, p.Minute/60, p.Minute%60, cal.Location())
	if at.Before(since) {
		return nil
	}
	price := *d.Spec.NAVPerShare
	data := NAVData{Object: "nav", ISIN: string(d.Spec.ISIN), Date: d.Spec.Date, Price: price, Currency: string(sc.Spec.Currency)}
	return []Event{event(EventID("nav", string(d.Spec.ISIN), d.Spec.Date, strconv.FormatInt(price, 10)), "", NAVPublished,
		string(d.Spec.ISIN), metav1.NewTime(at), data)}
}

// event builds an event with its payload.
func event(id, namespace string, t EventType, subject string, at metav1.Time, data any) Event {
	ts := at.Time.UTC().Truncate(time.Millisecond)
	body, err := json.Marshal(payload{Type: t, Timestamp: ts.Format(time.RFC3339Nano), Data: data})
	if err != nil {
		// The data types above always marshal.
		panic(err)
	}
	return Event{ID: id, Namespace: namespace, Type: t, Subject: subject, OccurredAt: ts, Payload: body}
}

// EndpointData is the data of webhook_endpoint.disabled.
type EndpointData struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// EndpointDisabledEvent is webhook_endpoint.disabled of ep, disabled for reason at at; it
// goes to the tenant's other endpoints (the disabled one receives nothing more).
func EndpointDisabledEvent(ep *investv1.WebhookEndpoint, reason string, at time.Time) Event {
	d := EndpointData{Object: "webhook_endpoint", ID: ep.Name, URL: ep.Spec.URL, Reason: reason}
	return event(EventID("webhookendpoint", string(ep.UID), "disabled", strconv.FormatInt(at.UnixMilli(), 10)),
		ep.Namespace, WebhookEndpointDisabled, ep.Name, metav1.NewTime(at), d)
}
