package lifecycle

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const (
	txHash  = "0x1111111111111111111111111111111111111111111111111111111111111111"
	txHash2 = "0x2222222222222222222222222222222222222222222222222222222222222222"
)

var now = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// Every state of the spec, and "" for a new order.
var allStates = []investv1.OrderState{
	"", investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived,
	investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted, investv1.StatePaymentSent,
	investv1.StatePaymentCompleted, investv1.StateRedemptionGated, investv1.StateExecuted,
	investv1.StateCompleted, investv1.StateCancelled,
}

func record(ref, hash string) *investv1.SettlementRecord {
	return &investv1.SettlementRecord{Reference: ref, TransactionHash: hash, At: metav1.NewTime(now), RecordedBy: "test"}
}

func buyEvidence() investv1.SettlementEvidence {
	return investv1.SettlementEvidence{
		PaymentReceived:   record("SBX-PAY-ABCDEF012345", ""),
		DeliveryInitiated: record("", txHash),
		DeliveryCompleted: record("", txHash),
	}
}

func sellEvidence() investv1.SettlementEvidence {
	return investv1.SettlementEvidence{
		PaymentSent:      record("SBX-OUT-ABCDEF012345", ""),
		PaymentCompleted: record("SBX-OUT-ABCDEF012345", ""),
	}
}

func allEvidence() investv1.SettlementEvidence {
	ev := buyEvidence()
	s := sellEvidence()
	ev.PaymentSent, ev.PaymentCompleted = s.PaymentSent, s.PaymentCompleted
	return ev
}

func newOrder(side investv1.OrderSide, market investv1.Market, state investv1.OrderState) *investv1.Order {
	return &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "123e4567-e89b-42d3-a456-426614174000", Namespace: "tenant"},
		Spec: investv1.OrderSpec{
			Side: side, Market: market, ISIN: "IE00B4L5Y983", AmountOfUnits: 40, Currency: "EUR",
			AccountID: "a", Quote: &investv1.OrderQuote{
				NAVPerShare: 1_000_000, NAVDate: "2026-02-27", GrossValue: 40_000_000, FeeRate: 50,
				FeeAmount: 200_000, FeeSource: investv1.FeeSourceDefault, NetAmount: 39_800_000, Amount: 40_000_000,
				PaymentDetails: &investv1.OrderPaymentDetails{
					AccountHolderName: "Fundshare Feeder Fund I SCSp", IBAN: "GB82WEST12345698765432",
					PaymentReference: "FS-REF-42",
				},
			},
		},
		Status: investv1.OrderStatus{State: state},
	}
}

// openFacts: the fund exists, every market is open, no gate, the sell's units are reserved.
func openFacts() Facts {
	return Facts{
		Now: now, FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true,
		Reservation: ReservationHeld, Priced: true,
	}
}

// describe renders a decision compactly: "" (none), "wait Reason" or "STATE Reason".
func describe(d Decision) string {
	switch {
	case d.Transition != nil && d.Wait != nil:
		return "BOTH"
	case d.Transition != nil:
		return string(d.Transition.To) + " " + d.Transition.Reason
	case d.Wait != nil:
		return "wait " + d.Wait.Reason
	}
	return ""
}

// scenario is one combination of facts and evidence of the table test.
type scenario struct {
	name  string
	setup func(o *investv1.Order, f *Facts)
}

var scenarios = []scenario{
	{"bare", func(o *investv1.Order, f *Facts) { *f = Facts{Now: now} }},
	{"open", func(o *investv1.Order, f *Facts) {}},
	{"openAllEvidence", func(o *investv1.Order, f *Facts) { o.Status.Settlement = allEvidence() }},
	{"closedAllEvidence", func(o *investv1.Order, f *Facts) {
		f.Subscribable, f.Redeemable, f.Tradeable = false, false, false
		o.Status.Settlement = allEvidence()
	}},
	{"gatedAllEvidence", func(o *investv1.Order, f *Facts) {
		f.GateActive, f.GateReason = true, "quarterly liquidity window"
		o.Status.Settlement = allEvidence()
	}},
	{"reservationPendingAllEvidence", func(o *investv1.Order, f *Facts) {
		f.Reservation = ReservationPending
		o.Status.Settlement = allEvidence()
	}},
	{"reservationRefusedAllEvidence", func(o *investv1.Order, f *Facts) {
		f.Reservation, f.ReservationMessage = ReservationRefused, "Insufficient holdings: 40 units requested, 20 available"
		o.Status.Settlement = allEvidence()
	}},
	{"cancelRequested", func(o *investv1.Order, f *Facts) {
		o.Spec.CancellationRequested, o.Spec.CancellationReason = true, "customer changed their mind"
	}},
	{"otherSidesEvidenceOnly", func(o *investv1.Order, f *Facts) {
		if o.Spec.Side == investv1.SideBuy {
			o.Status.Settlement = sellEvidence()
		} else {
			o.Status.Settlement = buyEvidence()
		}
	}},
	{"fundGoneAllEvidence", func(o *investv1.Order, f *Facts) {
		f.FundFound = false
		o.Status.Settlement = allEvidence()
	}},
	// Evidence of a token transfer or a payout is past the point of no return whatever
	// the state: the request is not honoured.
	{"cancelRequestedAllEvidence", func(o *investv1.Order, f *Facts) {
		o.Spec.CancellationRequested, o.Spec.CancellationReason = true, "customer changed their mind"
		o.Status.Settlement = allEvidence()
	}},
}

// Expected decisions, one column per scenario above, in that order.
const (
	cancelled = "CANCELLED CancellationRequested"
	refunded  = "CANCELLED CancelledWithRefund"
	invalid   = "wait InvalidState"
)

var expected = map[investv1.OrderSide]map[investv1.OrderState][]string{
	investv1.SideBuy: {
		"":                              {"CANCELLED NotPriced", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", cancelled, "PLACED Accepted", "CANCELLED ShareClassNotFound", "PLACED Accepted"},
		investv1.StatePlaced:            {"AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", cancelled, "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued", "AWAITING_PAYMENT PaymentInstructionsIssued"},
		investv1.StateAwaitingPayment:   {"wait AwaitingPaymentEvidence", "wait AwaitingPaymentEvidence", "PAYMENT_RECEIVED PaymentReceived", "PAYMENT_RECEIVED PaymentReceived", "PAYMENT_RECEIVED PaymentReceived", "PAYMENT_RECEIVED PaymentReceived", "PAYMENT_RECEIVED PaymentReceived", cancelled, "wait AwaitingPaymentEvidence", "PAYMENT_RECEIVED PaymentReceived", "PAYMENT_RECEIVED PaymentReceived"},
		investv1.StatePaymentReceived:   {"wait ShareClassNotFound", "EXECUTED Executed", "EXECUTED Executed", "wait MarketClosed", "EXECUTED Executed", "EXECUTED Executed", "EXECUTED Executed", refunded, "EXECUTED Executed", "wait ShareClassNotFound", "EXECUTED Executed"},
		investv1.StateExecuted:          {"wait AwaitingDeliveryEvidence", "wait AwaitingDeliveryEvidence", "DELIVERY_INITIATED DeliveryInitiated", "DELIVERY_INITIATED DeliveryInitiated", "DELIVERY_INITIATED DeliveryInitiated", "DELIVERY_INITIATED DeliveryInitiated", "DELIVERY_INITIATED DeliveryInitiated", "wait AwaitingDeliveryEvidence", "wait AwaitingDeliveryEvidence", "DELIVERY_INITIATED DeliveryInitiated", "DELIVERY_INITIATED DeliveryInitiated"},
		investv1.StateDeliveryInitiated: {"wait AwaitingDeliveryEvidence", "wait AwaitingDeliveryEvidence", "DELIVERY_COMPLETED DeliveryCompleted", "DELIVERY_COMPLETED DeliveryCompleted", "DELIVERY_COMPLETED DeliveryCompleted", "DELIVERY_COMPLETED DeliveryCompleted", "DELIVERY_COMPLETED DeliveryCompleted", "wait AwaitingDeliveryEvidence", "wait AwaitingDeliveryEvidence", "DELIVERY_COMPLETED DeliveryCompleted", "DELIVERY_COMPLETED DeliveryCompleted"},
		investv1.StateDeliveryCompleted: {"COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled"},
		investv1.StatePaymentSent:       {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StatePaymentCompleted:  {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StateRedemptionGated:   {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StateCompleted:         {"", "", "", "", "", "", "", "", "", "", ""},
		investv1.StateCancelled:         {"", "", "", "", "", "", "", "", "", "", ""},
	},
	investv1.SideSell: {
		"":                            {"CANCELLED NotPriced", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", "PLACED Accepted", cancelled, "PLACED Accepted", "CANCELLED ShareClassNotFound", "PLACED Accepted"},
		investv1.StatePlaced:          {"wait AwaitingReservation", "EXECUTED Executed", "EXECUTED Executed", "wait MarketClosed", "REDEMPTION_GATED RedemptionGateActive", "wait AwaitingReservation", "CANCELLED InsufficientHoldings", cancelled, "EXECUTED Executed", "wait ShareClassNotFound", "EXECUTED Executed"},
		investv1.StateRedemptionGated: {"wait ShareClassNotFound", "EXECUTED RedemptionGateLifted", "EXECUTED RedemptionGateLifted", "wait MarketClosed", "wait RedemptionGated", "EXECUTED RedemptionGateLifted", "EXECUTED RedemptionGateLifted", cancelled, "EXECUTED RedemptionGateLifted", "wait ShareClassNotFound", "EXECUTED RedemptionGateLifted"},
		// An EXECUTED sell with nothing burned or paid is cancelled on request.
		investv1.StateExecuted:          {"wait AwaitingPayoutEvidence", "wait AwaitingPayoutEvidence", "PAYMENT_SENT PaymentSent", "PAYMENT_SENT PaymentSent", "PAYMENT_SENT PaymentSent", "PAYMENT_SENT PaymentSent", "PAYMENT_SENT PaymentSent", cancelled, "wait AwaitingPayoutEvidence", "PAYMENT_SENT PaymentSent", "PAYMENT_SENT PaymentSent"},
		investv1.StatePaymentSent:       {"wait AwaitingPayoutEvidence", "wait AwaitingPayoutEvidence", "PAYMENT_COMPLETED PaymentCompleted", "PAYMENT_COMPLETED PaymentCompleted", "PAYMENT_COMPLETED PaymentCompleted", "PAYMENT_COMPLETED PaymentCompleted", "PAYMENT_COMPLETED PaymentCompleted", "wait AwaitingPayoutEvidence", "wait AwaitingPayoutEvidence", "PAYMENT_COMPLETED PaymentCompleted", "PAYMENT_COMPLETED PaymentCompleted"},
		investv1.StatePaymentCompleted:  {"COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled", "COMPLETED Settled"},
		investv1.StateAwaitingPayment:   {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StatePaymentReceived:   {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StateDeliveryInitiated: {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StateDeliveryCompleted: {invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid, invalid},
		investv1.StateCompleted:         {"", "", "", "", "", "", "", "", "", "", ""},
		investv1.StateCancelled:         {"", "", "", "", "", "", "", "", "", "", ""},
	},
}

// walkTo is a valid history ending in state, used to check that every transition Next
// proposes extends a valid history; ok is false for states off the side's graph.
func walkTo(side investv1.OrderSide, state investv1.OrderState) ([]investv1.OrderState, bool) {
	if state == "" {
		return nil, true
	}
	if side == investv1.SideSell && state == investv1.StateRedemptionGated {
		return []investv1.OrderState{investv1.StatePlaced, investv1.StateRedemptionGated}, true
	}
	path := Path(side)
	for i, s := range path {
		if s == state {
			return path[:i+1], true
		}
	}
	return nil, false
}

// TestNextTable decides every state × side × scenario and compares with the table above.
func TestNextTable(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		if len(expected[side]) != len(allStates) {
			t.Fatalf("%s: table has %d states, want %d", side, len(expected[side]), len(allStates))
		}
		for _, state := range allStates {
			want, ok := expected[side][state]
			if !ok || len(want) != len(scenarios) {
				t.Fatalf("%s %q: table row missing or has %d columns, want %d", side, state, len(want), len(scenarios))
			}
			for i, sc := range scenarios {
				t.Run(fmt.Sprintf("%s/%s/%s", side, stateName(state), sc.name), func(t *testing.T) {
					o := newOrder(side, investv1.MarketPrimary, state)
					f := openFacts()
					sc.setup(o, &f)
					before := o.DeepCopy()
					d := Next(o, f)
					if got := describe(d); got != want[i] {
						t.Fatalf("Next = %q, want %q (decision %+v)", got, want[i], d)
					}
					if !reflect.DeepEqual(before, o) {
						t.Fatal("Next modified the order")
					}
					checkDecision(t, side, state, d)
				})
			}
		}
	}
}

// checkDecision checks what holds for every decision: messages are present and fit the
// history, and a transition always extends a valid history by one state.
func checkDecision(t *testing.T, side investv1.OrderSide, state investv1.OrderState, d Decision) {
	t.Helper()
	if d.Transition != nil {
		if d.Transition.Message == "" || len(d.Transition.Message) > MaxMessageLength {
			t.Errorf("transition message %q: want 1..%d bytes", d.Transition.Message, MaxMessageLength)
		}
		if h, ok := walkTo(side, state); ok {
			next := append(append([]investv1.OrderState(nil), h...), d.Transition.To)
			if err := ValidHistory(side, next); err != nil {
				t.Errorf("transition %s → %s breaks the history: %v", stateName(state), d.Transition.To, err)
			}
		} else if d.Transition.To != investv1.StateCancelled {
			t.Errorf("state %s is not on the %s graph, yet Next moves it to %s", state, side, d.Transition.To)
		}
	}
	if d.Wait != nil && (d.Wait.Message == "" || len(d.Wait.Message) > MaxMessageLength) {
		t.Errorf("wait message %q: want 1..%d bytes", d.Wait.Message, MaxMessageLength)
	}
}

func stateName(s investv1.OrderState) string {
	if s == "" {
		return "new"
	}
	return string(s)
}

func mustMove(t *testing.T, d Decision, to investv1.OrderState, reason string) *Transition {
	t.Helper()
	if d.Transition == nil || d.Wait != nil || d.Transition.To != to || d.Transition.Reason != reason {
		t.Fatalf("decision %s (%+v), want %s %s", describe(d), d, to, reason)
	}
	return d.Transition
}

func mustWait(t *testing.T, d Decision, reason string) *Wait {
	t.Helper()
	if d.Wait == nil || d.Transition != nil || d.Wait.Reason != reason {
		t.Fatalf("decision %s (%+v), want wait %s", describe(d), d, reason)
	}
	return d.Wait
}

func mustContain(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q does not contain %q", msg, p)
		}
	}
}

// --- One test per rule of the spec's transition table. ---

func TestNewOrderWithoutQuoteIsCancelledNotPriced(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		o := newOrder(side, investv1.MarketPrimary, "")
		o.Spec.Quote = nil
		f := openFacts()
		f.Priced = false
		tr := mustMove(t, Next(o, f), investv1.StateCancelled, ReasonNotPriced)
		mustContain(t, tr.Message, "no quote", "admission webhook")
	}
}

func TestNewOrderForAMissingShareClassIsCancelled(t *testing.T) {
	f := openFacts()
	f.FundFound = false
	tr := mustMove(t, Next(newOrder(investv1.SideBuy, investv1.MarketPrimary, ""), f),
		investv1.StateCancelled, ReasonShareClassNotFound)
	mustContain(t, tr.Message, "IE00B4L5Y983")
}

func TestNewPricedOrderIsPlacedWhateverTheMarket(t *testing.T) {
	f := openFacts()
	f.Subscribable, f.Redeemable, f.Tradeable, f.GateActive = false, false, false, true
	f.Reservation = ReservationPending
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		for _, m := range []investv1.Market{investv1.MarketPrimary, investv1.MarketSecondary} {
			mustMove(t, Next(newOrder(side, m, ""), f), investv1.StatePlaced, ReasonAccepted)
		}
	}
}

func TestBuyPlacedMovesToAwaitingPaymentWithInstructions(t *testing.T) {
	tr := mustMove(t, Next(newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePlaced), openFacts()),
		investv1.StateAwaitingPayment, ReasonPaymentInstructionsIssued)
	mustContain(t, tr.Message, "4000.0000 EUR", "GB82WEST12345698765432", "FS-REF-42")

	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePlaced)
	o.Spec.Quote.PaymentDetails = nil
	mustMove(t, Next(o, openFacts()), investv1.StateAwaitingPayment, ReasonPaymentInstructionsIssued)
}

func TestBuyAwaitingPaymentMovesToPaymentReceivedOnlyOnPaymentEvidence(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	mustWait(t, Next(o, openFacts()), WaitAwaitingPaymentEvidence)

	o.Status.Settlement.PaymentReceived = record("SBX-PAY-0123456789AB", "")
	tr := mustMove(t, Next(o, openFacts()), investv1.StatePaymentReceived, ReasonPaymentReceived)
	mustContain(t, tr.Message, "SBX-PAY-0123456789AB")
}

func TestBuyPaymentReceivedMovesToExecutedOnlyWhileSubscribable(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePaymentReceived)
	f := openFacts()
	f.Subscribable = false
	w := mustWait(t, Next(o, f), WaitMarketClosed)
	mustContain(t, w.Message, "subscribable")

	// Redeemable and tradeable do not matter for a PRIMARY buy.
	f = openFacts()
	f.Redeemable, f.Tradeable = false, false
	mustMove(t, Next(o, f), investv1.StateExecuted, ReasonExecuted)
}

func TestSecondaryOrdersExecuteOnlyWhileTradeable(t *testing.T) {
	closed := openFacts()
	closed.Tradeable = false
	onlyTradeable := Facts{Now: now, FundFound: true, Tradeable: true, Reservation: ReservationHeld, Priced: true}

	buy := newOrder(investv1.SideBuy, investv1.MarketSecondary, investv1.StatePaymentReceived)
	mustContain(t, mustWait(t, Next(buy, closed), WaitMarketClosed).Message, "tradeable")
	mustMove(t, Next(buy, onlyTradeable), investv1.StateExecuted, ReasonExecuted)

	sell := newOrder(investv1.SideSell, investv1.MarketSecondary, investv1.StatePlaced)
	mustContain(t, mustWait(t, Next(sell, closed), WaitMarketClosed).Message, "tradeable")
	mustMove(t, Next(sell, onlyTradeable), investv1.StateExecuted, ReasonExecuted)

	gated := newOrder(investv1.SideSell, investv1.MarketSecondary, investv1.StateRedemptionGated)
	mustWait(t, Next(gated, closed), WaitMarketClosed)
	mustMove(t, Next(gated, onlyTradeable), investv1.StateExecuted, ReasonRedemptionGateLifted)
}

func TestBuyExecutedMovesToDeliveryInitiatedOnlyOnDeliveryEvidence(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateExecuted)
	mustWait(t, Next(o, openFacts()), WaitAwaitingDeliveryEvidence)
	o.Status.Settlement.DeliveryInitiated = record("", txHash)
	tr := mustMove(t, Next(o, openFacts()), investv1.StateDeliveryInitiated, ReasonDeliveryInitiated)
	mustContain(t, tr.Message, txHash)
}

func TestBuyDeliveryInitiatedMovesToDeliveryCompletedOnlyOnFinalityEvidence(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateDeliveryInitiated)
	o.Status.Settlement.DeliveryInitiated = record("", txHash)
	mustWait(t, Next(o, openFacts()), WaitAwaitingDeliveryEvidence)
	o.Status.Settlement.DeliveryCompleted = record("", txHash2)
	tr := mustMove(t, Next(o, openFacts()), investv1.StateDeliveryCompleted, ReasonDeliveryCompleted)
	mustContain(t, tr.Message, txHash2)
}

func TestBuyDeliveryCompletedMovesToCompleted(t *testing.T) {
	f := openFacts()
	f.Subscribable, f.FundFound = false, false // nothing outside matters any more
	mustMove(t, Next(newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateDeliveryCompleted), f),
		investv1.StateCompleted, ReasonSettled)
}

func TestSellPlacedWaitsUntilUnitsAreReserved(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	for _, r := range []ReservationState{ReservationPending, ReservationNotNeeded} {
		f := openFacts()
		f.Reservation = r
		mustWait(t, Next(o, f), WaitAwaitingReservation)
	}
}

func TestSellPlacedWithRefusedReservationIsCancelledForInsufficientHoldings(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	f := openFacts()
	f.Reservation = ReservationRefused
	f.ReservationMessage = "Insufficient holdings: 40 units requested, 20 available"
	tr := mustMove(t, Next(o, f), investv1.StateCancelled, ReasonInsufficientHoldings)
	if tr.Message != f.ReservationMessage {
		t.Errorf("message %q, want %q", tr.Message, f.ReservationMessage)
	}
	// Refusal is final even while the gate is active.
	f.GateActive = true
	mustMove(t, Next(o, f), investv1.StateCancelled, ReasonInsufficientHoldings)
}

func TestSellPlacedWhileRedemptionIsLockedMovesToRedemptionGated(t *testing.T) {
	for _, m := range []investv1.Market{investv1.MarketPrimary, investv1.MarketSecondary} {
		o := newOrder(investv1.SideSell, m, investv1.StatePlaced)
		f := openFacts()
		f.GateActive, f.GateReason = true, "quarterly liquidity window"
		tr := mustMove(t, Next(o, f), investv1.StateRedemptionGated, ReasonRedemptionGateActive)
		mustContain(t, tr.Message, "quarterly liquidity window")

		// The gate is checked before the market: a gated sell waits in REDEMPTION_GATED.
		f.Redeemable, f.Tradeable = false, false
		mustMove(t, Next(o, f), investv1.StateRedemptionGated, ReasonRedemptionGateActive)
	}
}

func TestSellPlacedNotLockedMovesToExecutedOnlyWhileRedeemable(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	f := openFacts()
	f.Subscribable, f.Tradeable = false, false
	mustMove(t, Next(o, f), investv1.StateExecuted, ReasonExecuted)

	f.Redeemable = false // turned false after placement
	mustContain(t, mustWait(t, Next(o, f), WaitMarketClosed).Message, "redeemable")
}

func TestSellRedemptionGatedMovesToExecutedWhenTheGateLifts(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateRedemptionGated)
	f := openFacts()
	f.GateActive, f.GateReason = true, "suspended by the board"
	mustContain(t, mustWait(t, Next(o, f), WaitRedemptionGated).Message, "suspended by the board")

	f.GateActive = false
	mustMove(t, Next(o, f), investv1.StateExecuted, ReasonRedemptionGateLifted)

	f.Redeemable = false // lifted, but the market is closed
	mustWait(t, Next(o, f), WaitMarketClosed)
}

func TestSellExecutedMovesToPaymentSentOnlyOnPayoutEvidence(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	mustWait(t, Next(o, openFacts()), WaitAwaitingPayoutEvidence)
	o.Status.Settlement.PaymentSent = record("SBX-OUT-0123456789AB", "")
	tr := mustMove(t, Next(o, openFacts()), investv1.StatePaymentSent, ReasonPaymentSent)
	mustContain(t, tr.Message, "SBX-OUT-0123456789AB")
}

func TestSellPaymentSentMovesToPaymentCompletedOnlyOnArrivalEvidence(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePaymentSent)
	o.Status.Settlement.PaymentSent = record("SBX-OUT-0123456789AB", "")
	mustWait(t, Next(o, openFacts()), WaitAwaitingPayoutEvidence)
	o.Status.Settlement.PaymentCompleted = record("SBX-OUT-0123456789AB", "")
	mustMove(t, Next(o, openFacts()), investv1.StatePaymentCompleted, ReasonPaymentCompleted)
}

func TestSellPaymentCompletedMovesToCompleted(t *testing.T) {
	f := openFacts()
	f.GateActive, f.Redeemable = true, false // nothing outside matters any more
	mustMove(t, Next(newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePaymentCompleted), f),
		investv1.StateCompleted, ReasonSettled)
}

// TestCancellationRequestFollowsThePointOfNoReturn: before the point of no return a
// requested cancellation is the next move (with a refund for a paid buy); past it the
// order makes the move it would make without the request, and the decision says the
// request is not honoured, naming the state.
func TestCancellationRequestFollowsThePointOfNoReturn(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		for _, state := range allStates {
			if state.Terminal() {
				continue
			}
			o := newOrder(side, investv1.MarketPrimary, state)
			o.Spec.Quote.PaymentMethodDetailsID = "aaaaaaaa-e89b-42d3-a456-426614174000"
			o.Spec.CancellationRequested = true
			ok, refund, _ := Cancellable(o)
			d := Next(o, openFacts())
			switch {
			case ok && refund:
				tr := mustMove(t, d, investv1.StateCancelled, ReasonCancelledWithRefund)
				if tr.Refund == nil || *tr.Refund != *NewRefund(o) {
					t.Errorf("%s %s: refund %+v, want %+v", side, stateName(state), tr.Refund, NewRefund(o))
				}
				mustContain(t, tr.Message, tr.Refund.Reference, "refunded")
			case ok:
				tr := mustMove(t, d, investv1.StateCancelled, ReasonCancellationRequested)
				if tr.Refund != nil {
					t.Errorf("%s %s: refund %+v on a cancellation that owes none", side, stateName(state), tr.Refund)
				}
				o.Spec.CancellationReason = "duplicate order"
				if tr := mustMove(t, Next(o, openFacts()), investv1.StateCancelled, ReasonCancellationRequested); tr.Message != "duplicate order" {
					t.Errorf("%s %s: message %q, want the cancellation reason", side, stateName(state), tr.Message)
				}
			default:
				plain := o.DeepCopy()
				plain.Spec.CancellationRequested = false
				want := Next(plain, openFacts())
				if describe(d) != describe(want) || d.CancellationRefused == "" {
					t.Errorf("%s %s past the point of no return: decision %s refused %q, want %s and a refusal",
						side, stateName(state), describe(d), d.CancellationRefused, describe(want))
				}
				mustContain(t, d.CancellationRefused, string(state))
			}
		}
	}
}

// TestBuyPaidBeforeItsCancellationIsCancelledWithARefund: payment evidence recorded
// before the controller moved the buy out of AWAITING_PAYMENT still owes a refund.
func TestBuyPaidBeforeItsCancellationIsCancelledWithARefund(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	o.Status.Settlement.PaymentReceived = record("SBX-PAY-ABCDEF012345", "")
	o.Spec.CancellationRequested = true
	tr := mustMove(t, Next(o, openFacts()), investv1.StateCancelled, ReasonCancelledWithRefund)
	if tr.Refund == nil || tr.Refund.Amount != o.Spec.Quote.Amount {
		t.Fatalf("refund %+v, want the amount paid %d", tr.Refund, o.Spec.Quote.Amount)
	}
}

// TestCancellationPastThePointOfNoReturnIsNotHonoured: the order goes on to COMPLETED.
func TestCancellationPastThePointOfNoReturnIsNotHonoured(t *testing.T) {
	buy := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateExecuted)
	buy.Status.Settlement = buyEvidence()
	buy.Spec.CancellationRequested = true
	d := mustMoveRefused(t, Next(buy, openFacts()), investv1.StateDeliveryInitiated)
	mustContain(t, d.CancellationRefused, "EXECUTED", "point of no return")

	sell := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePaymentSent)
	sell.Status.Settlement = sellEvidence()
	sell.Spec.CancellationRequested = true
	mustMoveRefused(t, Next(sell, openFacts()), investv1.StatePaymentCompleted)

	// A payout recorded ahead of the state is past the point of no return too.
	early := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	early.Status.Settlement = sellEvidence()
	early.Spec.CancellationRequested = true
	mustMoveRefused(t, Next(early, openFacts()), investv1.StateExecuted)
}

func mustMoveRefused(t *testing.T, d Decision, to investv1.OrderState) Decision {
	t.Helper()
	if d.Transition == nil || d.Transition.To != to || d.CancellationRefused == "" {
		t.Fatalf("decision %s refused %q, want %s and a refusal", describe(d), d.CancellationRefused, to)
	}
	return d
}

func TestCancellationWinsOverEveryOtherMoveBeforeThePointOfNoReturn(t *testing.T) {
	cases := map[string]func(o *investv1.Order, f *Facts){
		"unpriced new order":  func(o *investv1.Order, f *Facts) { o.Status.State, f.Priced = "", false },
		"missing share class": func(o *investv1.Order, f *Facts) { o.Status.State, f.FundFound = "", false },
		"refused reservation": func(o *investv1.Order, f *Facts) { o.Spec.Side, f.Reservation = investv1.SideSell, ReservationRefused },
		"gate active":         func(o *investv1.Order, f *Facts) { o.Spec.Side, f.GateActive = investv1.SideSell, true },
		"gated sell": func(o *investv1.Order, f *Facts) {
			o.Spec.Side, o.Status.State = investv1.SideSell, investv1.StateRedemptionGated
		},
		"buy awaiting payment": func(o *investv1.Order, f *Facts) { o.Status.State = investv1.StateAwaitingPayment },
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePlaced)
			o.Spec.CancellationRequested = true
			f := openFacts()
			setup(o, &f)
			mustMove(t, Next(o, f), investv1.StateCancelled, ReasonCancellationRequested)
		})
	}
}

func TestTerminalOrdersNeverMove(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell, "HOLD"} {
		for _, state := range []investv1.OrderState{investv1.StateCompleted, investv1.StateCancelled} {
			o := newOrder(side, investv1.MarketPrimary, state)
			o.Spec.CancellationRequested = true
			o.Status.Settlement = allEvidence()
			if d := Next(o, Facts{}); d.Transition != nil || d.Wait != nil {
				t.Errorf("%s %s: decision %s, want none", side, state, describe(d))
			}
		}
	}
}

// --- Evidence: out of order, of the other side. ---

func TestOutOfOrderBuyEvidenceIsHeldNotUsedToSkip(t *testing.T) {
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePaymentReceived)
	o.Status.Settlement = investv1.SettlementEvidence{
		PaymentReceived:   record("SBX-PAY-0123456789AB", ""),
		DeliveryCompleted: record("", txHash), // arrived before deliveryInitiated
	}
	f := openFacts()
	f.Subscribable = false
	mustWait(t, Next(o, f), WaitMarketClosed)

	f.Subscribable = true
	mustMove(t, Next(o, f), investv1.StateExecuted, ReasonExecuted)

	o.Status.State = investv1.StateExecuted
	mustWait(t, Next(o, f), WaitAwaitingDeliveryEvidence) // completed is held until initiated

	o.Status.Settlement.DeliveryInitiated = record("", txHash)
	mustMove(t, Next(o, f), investv1.StateDeliveryInitiated, ReasonDeliveryInitiated)
	o.Status.State = investv1.StateDeliveryInitiated
	mustMove(t, Next(o, f), investv1.StateDeliveryCompleted, ReasonDeliveryCompleted)

	// Delivery evidence before payment evidence moves nothing past AWAITING_PAYMENT.
	early := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	early.Status.Settlement = investv1.SettlementEvidence{DeliveryInitiated: record("", txHash), DeliveryCompleted: record("", txHash)}
	mustWait(t, Next(early, f), WaitAwaitingPaymentEvidence)
	early.Status.State = investv1.StatePlaced
	mustMove(t, Next(early, f), investv1.StateAwaitingPayment, ReasonPaymentInstructionsIssued)
}

func TestOutOfOrderSellEvidenceIsHeldNotUsedToSkip(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	o.Status.Settlement.PaymentCompleted = record("SBX-OUT-0123456789AB", "")
	mustWait(t, Next(o, openFacts()), WaitAwaitingPayoutEvidence)

	placed := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	placed.Status.Settlement = sellEvidence()
	mustMove(t, Next(placed, openFacts()), investv1.StateExecuted, ReasonExecuted)
	placed.Status.State = investv1.StateRedemptionGated
	mustMove(t, Next(placed, openFacts()), investv1.StateExecuted, ReasonRedemptionGateLifted)
}

func TestEvidenceOfTheOtherSideIsIgnored(t *testing.T) {
	buy := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateAwaitingPayment)
	buy.Status.Settlement = sellEvidence()
	mustWait(t, Next(buy, openFacts()), WaitAwaitingPaymentEvidence)
	buy.Status.State = investv1.StateExecuted
	mustWait(t, Next(buy, openFacts()), WaitAwaitingDeliveryEvidence)

	sell := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	sell.Status.Settlement = buyEvidence()
	mustWait(t, Next(sell, openFacts()), WaitAwaitingPayoutEvidence)
	sell.Status.State = investv1.StatePaymentSent
	mustWait(t, Next(sell, openFacts()), WaitAwaitingPayoutEvidence)
}

func TestStatesOfTheOtherSideAreReportedNotMoved(t *testing.T) {
	other := map[investv1.OrderSide][]investv1.OrderState{
		investv1.SideBuy: {investv1.StateRedemptionGated, investv1.StatePaymentSent, investv1.StatePaymentCompleted},
		investv1.SideSell: {investv1.StateAwaitingPayment, investv1.StatePaymentReceived,
			investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted},
	}
	for side, states := range other {
		for _, s := range append(states, "BOGUS") {
			o := newOrder(side, investv1.MarketPrimary, s)
			o.Status.Settlement = allEvidence()
			w := mustWait(t, Next(o, openFacts()), WaitInvalidState)
			mustContain(t, w.Message, string(s), string(side))
		}
	}
}

func TestUnknownSideOrMarketIsReportedNotMoved(t *testing.T) {
	o := newOrder("HOLD", investv1.MarketPrimary, investv1.StatePlaced)
	mustWait(t, Next(o, openFacts()), WaitInvalidState)

	o = newOrder(investv1.SideBuy, "OTC", investv1.StatePaymentReceived)
	mustWait(t, Next(o, openFacts()), WaitInvalidState)
}

func TestAcceptedOrderWhoseFundDisappearedWaits(t *testing.T) {
	f := openFacts()
	f.FundFound = false
	mustWait(t, Next(newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StatePaymentReceived), f), WaitShareClassNotFound)
	mustWait(t, Next(newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced), f), WaitShareClassNotFound)
	mustWait(t, Next(newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateRedemptionGated), f), WaitShareClassNotFound)
}

func TestMessagesFitTheHistoryLimit(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StatePlaced)
	f := openFacts()
	f.Reservation, f.ReservationMessage = ReservationRefused, strings.Repeat("€", 1000) // 3000 bytes
	tr := mustMove(t, Next(o, f), investv1.StateCancelled, ReasonInsufficientHoldings)
	if len(tr.Message) > MaxMessageLength || !utf8.ValidString(tr.Message) {
		t.Fatalf("message of %d bytes (valid UTF-8: %v), want at most %d", len(tr.Message), utf8.ValidString(tr.Message), MaxMessageLength)
	}
	if short := "short"; truncate(short) != short {
		t.Fatalf("truncate changed a short message")
	}
}

// --- Walks. ---

// walk iterates Next from a new order, applying each transition like the reconciler
// would, and returns the states entered.
func walk(t *testing.T, o *investv1.Order, facts func(step int) Facts) []investv1.OrderState {
	t.Helper()
	var history []investv1.OrderState
	for step := 0; step < 50; step++ {
		d := Next(o, facts(step))
		if d.Transition == nil {
			if d.Wait != nil {
				continue
			}
			return history
		}
		o.Status.State = d.Transition.To
		o.Status.History = append(o.Status.History, investv1.OrderTransition{
			State: d.Transition.To, At: metav1.NewTime(now), Reason: d.Transition.Reason, Message: d.Transition.Message,
		})
		history = append(history, d.Transition.To)
	}
	t.Fatalf("no terminal state after 50 steps: %v", history)
	return nil
}

func TestWalkWithAllEvidenceFollowsPath(t *testing.T) {
	for _, side := range []investv1.OrderSide{investv1.SideBuy, investv1.SideSell} {
		for _, m := range []investv1.Market{investv1.MarketPrimary, investv1.MarketSecondary} {
			o := newOrder(side, m, "")
			o.Status.Settlement = allEvidence()
			got := walk(t, o, func(int) Facts { return openFacts() })
			if !reflect.DeepEqual(got, Path(side)) {
				t.Errorf("%s %s walked %v, want %v", side, m, got, Path(side))
			}
			if err := ValidHistory(side, HistoryStates(o.Status.History)); err != nil {
				t.Errorf("%s %s: %v", side, m, err)
			}
		}
	}
}

func TestWalkOfAGatedSellTakesTheDetourOnce(t *testing.T) {
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, "")
	o.Status.Settlement = sellEvidence()
	got := walk(t, o, func(step int) Facts {
		f := openFacts()
		f.GateActive = step < 5
		return f
	})
	want := []investv1.OrderState{investv1.StatePlaced, investv1.StateRedemptionGated, investv1.StateExecuted,
		investv1.StatePaymentSent, investv1.StatePaymentCompleted, investv1.StateCompleted}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("walked %v, want %v", got, want)
	}
	if err := ValidHistory(investv1.SideSell, got); err != nil {
		t.Fatal(err)
	}
}

// --- Path and ValidHistory. ---

func TestPath(t *testing.T) {
	buy := Path(investv1.SideBuy)
	if len(buy) != 7 || buy[0] != investv1.StatePlaced || buy[6] != investv1.StateCompleted {
		t.Errorf("buy path %v", buy)
	}
	sell := Path(investv1.SideSell)
	if len(sell) != 5 || sell[1] != investv1.StateExecuted {
		t.Errorf("sell path %v", sell)
	}
	buy[0] = "MUTATED"
	if Path(investv1.SideBuy)[0] != investv1.StatePlaced {
		t.Error("Path returned shared storage")
	}
	if Path("HOLD") != nil {
		t.Error("unknown side has a path")
	}
}

func TestValidHistory(t *testing.T) {
	const (
		P   = investv1.StatePlaced
		AP  = investv1.StateAwaitingPayment
		PR  = investv1.StatePaymentReceived
		EX  = investv1.StateExecuted
		DI  = investv1.StateDeliveryInitiated
		DC  = investv1.StateDeliveryCompleted
		PS  = investv1.StatePaymentSent
		PC  = investv1.StatePaymentCompleted
		RG  = investv1.StateRedemptionGated
		CO  = investv1.StateCompleted
		CA  = investv1.StateCancelled
		buy = investv1.SideBuy
		sel = investv1.SideSell
	)
	type h = []investv1.OrderState
	good := []struct {
		side    investv1.OrderSide
		history h
	}{
		{buy, nil}, {sel, h{}},
		{buy, h{P}}, {buy, h{P, AP, PR}}, {buy, h{P, AP, PR, EX, DI, DC, CO}},
		{sel, h{P, EX, PS, PC, CO}}, {sel, h{P, RG, EX, PS, PC, CO}}, {sel, h{P, RG}},
		{buy, h{CA}}, {sel, h{CA}}, {buy, h{P, CA}}, {buy, h{P, AP, PR, EX, DI, DC, CA}},
		{sel, h{P, RG, CA}}, {sel, h{P, EX, PS, PC, CA}},
	}
	for _, c := range good {
		if err := ValidHistory(c.side, c.history); err != nil {
			t.Errorf("%s %v: %v", c.side, c.history, err)
		}
	}
	bad := []struct {
		name    string
		side    investv1.OrderSide
		history h
	}{
		{"duplicate first", buy, h{P, P}},
		{"duplicate later", buy, h{P, AP, PR, PR, EX}},
		{"duplicate gate", sel, h{P, RG, RG, EX}},
		{"duplicate cancel", buy, h{P, CA, CA}},
		{"skip payment received", buy, h{P, AP, EX}},
		{"skip to executed on a buy", buy, h{P, EX}},
		{"skip delivery initiated", buy, h{P, AP, PR, EX, DC}},
		{"skip payment sent", sel, h{P, EX, PC}},
		{"skip completed step", sel, h{P, EX, PS, CO}},
		{"backwards", buy, h{P, AP, P}},
		{"first not placed", buy, h{AP, PR}},
		{"first is the gate", sel, h{RG, EX}},
		{"gate on a buy", buy, h{P, RG, EX}},
		{"gate after executed", sel, h{P, EX, RG}},
		{"gate then payment", sel, h{P, RG, PS}},
		{"buy states on a sell", sel, h{P, AP}},
		{"sell states on a buy", buy, h{P, AP, PR, EX, PS}},
		{"cancel not last", buy, h{P, CA, AP}},
		{"after completed", sel, h{P, EX, PS, PC, CO, CA}},
		{"unknown state", buy, h{P, "BOGUS"}},
		{"empty state", buy, h{""}},
		{"unknown side", "HOLD", h{P}},
	}
	for _, c := range bad {
		err := ValidHistory(c.side, c.history)
		if err == nil {
			t.Errorf("%s: %s %v accepted", c.name, c.side, c.history)
			continue
		}
		if !errors.Is(err, ErrInvalidHistory) {
			t.Errorf("%s: error %v does not wrap ErrInvalidHistory", c.name, err)
		}
	}
}

func TestHistoryStates(t *testing.T) {
	got := HistoryStates([]investv1.OrderTransition{{State: investv1.StatePlaced}, {State: investv1.StateExecuted}})
	if !reflect.DeepEqual(got, []investv1.OrderState{investv1.StatePlaced, investv1.StateExecuted}) {
		t.Fatalf("HistoryStates = %v", got)
	}
}

func TestReservationStateString(t *testing.T) {
	for r, want := range map[ReservationState]string{
		ReservationNotNeeded: "NotNeeded", ReservationPending: "Pending", ReservationHeld: "Held",
		ReservationRefused: "Refused", 9: "ReservationState(9)",
	} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q", int(r), r.String(), want)
		}
	}
}

func TestATokenTransactionRevertedOrRefusedStallsTheOrderWithTheReason(t *testing.T) {
	reverted := &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{
		Nonce: 3, Attempts: []investv1.ChainTransactionAttempt{{Hash: "0xaa"}},
		Receipt: &investv1.ChainReceipt{Hash: "0xaa", BlockNumber: 7, Status: investv1.ChainReceiptReverted, RevertReason: "EnforcedPause()"},
	}}
	refused := &investv1.OrderChainStatus{Refused: &investv1.ChainRefusal{Reason: "NotVerified(0x00000000000000000000000000000000000000b0)"}}
	for _, tc := range []struct {
		side   investv1.OrderSide
		state  investv1.OrderState
		chain  *investv1.OrderChainStatus
		reason string
		says   string
	}{
		{investv1.SideBuy, investv1.StateExecuted, refused, WaitTokenTransactionRefused, "NotVerified(0x00000000000000000000000000000000000000b0)"},
		{investv1.SideBuy, investv1.StateDeliveryInitiated, reverted, WaitTokenTransactionReverted, "EnforcedPause()"},
		{investv1.SideBuy, investv1.StateExecuted, reverted, WaitTokenTransactionReverted, "not re-sent"},
		{investv1.SideSell, investv1.StateExecuted, refused, WaitTokenTransactionRefused, "burn"},
		{investv1.SideSell, investv1.StateExecuted, reverted, WaitTokenTransactionReverted, "EnforcedPause()"},
	} {
		o := newOrder(tc.side, investv1.MarketPrimary, tc.state)
		o.Status.Chain = tc.chain
		d := Next(o, openFacts())
		if d.Wait == nil || d.Wait.Reason != tc.reason || !strings.Contains(d.Wait.Message, tc.says) {
			t.Errorf("%s %s: %+v, want wait %s saying %q", tc.side, tc.state, d.Wait, tc.reason, tc.says)
			continue
		}
		conds := StatusConditions(o, d.Wait)
		if c := meta.FindStatusCondition(conds, ConditionStalled); c == nil || c.Status != metav1.ConditionTrue || c.Reason != tc.reason {
			t.Errorf("%s %s: Stalled = %+v, want True with reason %s", tc.side, tc.state, c, tc.reason)
		}
	}
	// A sell whose chain agent recorded a burn in flight waits for the burn, not the payout.
	o := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	o.Status.Chain = &investv1.OrderChainStatus{Transaction: &investv1.ChainTransaction{Attempts: []investv1.ChainTransactionAttempt{{Hash: "0xbb"}}}}
	if d := Next(o, openFacts()); d.Wait == nil || d.Wait.Reason != WaitAwaitingBurnEvidence {
		t.Errorf("burn in flight: %+v, want AwaitingBurnEvidence", d.Wait)
	}
}

func TestATokenTransactionWhoseNonceWasTakenByAnUnrecordedTransactionStallsTheOrder(t *testing.T) {
	taken := func() *investv1.OrderChainStatus {
		return &investv1.OrderChainStatus{
			Transaction: &investv1.ChainTransaction{Nonce: 4, Attempts: []investv1.ChainTransactionAttempt{{Hash: "0xaa"}}},
			NonceTaken:  &investv1.ChainNonceTaken{Nonce: 4},
		}
	}
	for _, tc := range []struct {
		side  investv1.OrderSide
		state investv1.OrderState
		what  string
	}{
		{investv1.SideBuy, investv1.StateExecuted, "mint"},
		{investv1.SideBuy, investv1.StateDeliveryInitiated, "mint"},
		{investv1.SideSell, investv1.StateExecuted, "burn"},
	} {
		o := newOrder(tc.side, investv1.MarketPrimary, tc.state)
		o.Status.Chain = taken()
		d := Next(o, openFacts())
		if d.Transition != nil || d.Wait == nil || d.Wait.Reason != WaitTokenTransactionNonceTaken {
			t.Errorf("%s %s: %s, want wait %s", tc.side, tc.state, describe(d), WaitTokenTransactionNonceTaken)
			continue
		}
		mustContain(t, d.Wait.Message, "nonce 4 of the "+tc.what+" transaction",
			"a transaction not recorded here was mined with this nonce: was the agent key used elsewhere?", "Nothing is re-sent")
		conds := StatusConditions(o, d.Wait)
		if c := meta.FindStatusCondition(conds, ConditionStalled); c == nil || c.Status != metav1.ConditionTrue || c.Reason != WaitTokenTransactionNonceTaken {
			t.Errorf("%s %s: Stalled = %+v, want True with reason %s", tc.side, tc.state, c, WaitTokenTransactionNonceTaken)
		}
	}
	// Once the agent cleared it (a recorded attempt was mined after all), the order waits
	// for its evidence again.
	o := newOrder(investv1.SideBuy, investv1.MarketPrimary, investv1.StateDeliveryInitiated)
	o.Status.Chain = taken()
	o.Status.Chain.NonceTaken = nil
	if d := Next(o, openFacts()); d.Wait == nil || d.Wait.Reason != WaitAwaitingDeliveryEvidence {
		t.Errorf("cleared: %s, want %s", describe(d), WaitAwaitingDeliveryEvidence)
	}
}
