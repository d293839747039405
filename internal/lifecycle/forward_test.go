package lifecycle

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// The forward-pricing rules of the lifecycle (docs/dealing.md), table-tested.

var (
	fwdCutOff = time.Date(2026, time.March, 10, 11, 0, 0, 0, time.UTC)
	fwdBefore = fwdCutOff.Add(-time.Minute)
	fwdAfter  = fwdCutOff.Add(time.Minute)
)

// forwardOrder is a forward order for dealing date 2026-03-10 (cut-off 11:00 UTC): a BUY
// by amount 1,000 EUR at a 1.5% fee, or by units when units > 0.
func forwardOrder(side investv1.OrderSide, units int64, state investv1.OrderState) *investv1.Order {
	cut := metav1.NewTime(fwdCutOff)
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "123e4567-e89b-42d3-a456-426614174000", Namespace: "t"},
		Spec: investv1.OrderSpec{Side: side, Market: investv1.MarketPrimary, ISIN: "LU0000DEAL19", Currency: "EUR",
			Quote: &investv1.OrderQuote{FeeRate: 150, FeeSource: investv1.FeeSourceDefault, DealingDate: "2026-03-10", CutOff: &cut,
				PaymentDetails: &investv1.OrderPaymentDetails{AccountHolderName: "Fund", IBAN: "LU280019400644750000", PaymentReference: "FS123"}}},
		Status: investv1.OrderStatus{State: state},
	}
	if units > 0 {
		o.Spec.AmountOfUnits = units
	} else {
		o.Spec.Amount = 10_000_000
		o.Spec.Quote.Amount, o.Spec.Quote.GrossValue = 10_000_000, 10_000_000
	}
	return o
}

func forwardFacts(now time.Time) Facts {
	return Facts{Now: now, FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true, Priced: true, Reservation: ReservationHeld}
}

func TestACancelAfterTheCutOffIsRefusedAsSubmittedForDealing(t *testing.T) {
	for _, c := range []struct {
		name  string
		o     *investv1.Order
		now   time.Time
		want  CancelRefusal
		wantR string
	}{
		{"a BUY before its cut-off", forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment), fwdBefore, RefusalNone, ""},
		{"a BUY at its cut-off", forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment), fwdCutOff, RefusalSubmittedForDealing, "submitted for dealing on 2026-03-10"},
		{"a paid BUY after its cut-off", forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived), fwdAfter, RefusalSubmittedForDealing, "cut-off 2026-03-10T11:00:00Z"},
		{"a SELL after its cut-off", forwardOrder(investv1.SideSell, 5, investv1.StatePlaced), fwdAfter, RefusalSubmittedForDealing, ""},
		{"an executed order stays past the point of no return", forwardOrder(investv1.SideBuy, 0, investv1.StateExecuted), fwdAfter, RefusalPastPointOfNoReturn, ""},
		{"a cancelled order stays terminal", forwardOrder(investv1.SideBuy, 0, investv1.StateCancelled), fwdAfter, RefusalTerminal, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ok, _, reason := CancellableAt(c.o, c.now)
			if got := CancelRefusalAt(c.o, c.now); got != c.want || ok != (c.want == RefusalNone) || !strings.Contains(reason, c.wantR) {
				t.Fatalf("CancellableAt = %v %q, refusal %q; want %q containing %q", ok, reason, got, c.want, c.wantR)
			}
		})
	}
	// Without the clock (the controller honouring a request admitted before the cut-off)
	// an unpriced order is cancellable; a priced one is not.
	o := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	if ok, refund, _ := Cancellable(o); !ok || !refund {
		t.Fatalf("a request admitted before the cut-off is honoured with a refund: %v %v", ok, refund)
	}
	o.Status.Strike = &investv1.OrderContractNote{TradeDate: "2026-03-10", Units: 9}
	if CancelRefusalOf(o) != RefusalPastPointOfNoReturn {
		t.Fatalf("a priced order is past the point of no return: %q", CancelRefusalOf(o))
	}
	// A latest-priced order never meets a cut-off.
	latest := forwardOrder(investv1.SideBuy, 3, investv1.StateAwaitingPayment)
	latest.Spec.Quote.DealingDate, latest.Spec.Quote.CutOff = "", nil
	if ok, _, _ := CancellableAt(latest, fwdAfter); !ok {
		t.Fatal("a latest-priced order is cancellable in AWAITING_PAYMENT at any time")
	}
}

func TestAnUnpaidBuyAtTheCutOffFollowsItsShareClassPolicy(t *testing.T) {
	o := forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment)
	if d := Next(o, forwardFacts(fwdBefore)); d.Wait == nil || d.Wait.Reason != WaitAwaitingPaymentEvidence || !strings.Contains(d.Wait.Message, "pay by 2026-03-10T11:00:00Z") {
		t.Fatalf("before the cut-off it waits, saying pay by: %+v %+v", d.Transition, d.Wait)
	}
	if d := Next(o, forwardFacts(fwdAfter)); d.Transition == nil || d.Transition.To != investv1.StateCancelled || d.Transition.Reason != ReasonUnpaidAtCutOff {
		t.Fatalf("the default policy cancels it: %+v", d)
	}
	f := forwardFacts(fwdAfter)
	f.UnpaidPolicy = investv1.UnpaidNextDealingDate
	f.NextDealing = &investv1.OrderDealing{Date: "2026-03-11", CutOff: metav1.NewTime(fwdCutOff.Add(24 * time.Hour))}
	d := Next(o, f)
	if d.Transition != nil || d.Redate == nil || d.Redate.Date != "2026-03-11" || d.Redate.Moves != 1 || d.Wait == nil {
		t.Fatalf("NextDealingDate moves it: %+v", d)
	}
	o.Status.Dealing = d.Redate
	if DealingDate(o) != "2026-03-11" || !CutOff(o).Equal(fwdCutOff.Add(24*time.Hour)) || OrderDealingName(o) != "lu0000deal19-2026-03-11" {
		t.Fatalf("moved: %s %s %s", DealingDate(o), CutOff(o), OrderDealingName(o))
	}
	if ok, _, _ := CancellableAt(o, fwdAfter); !ok {
		t.Fatal("a moved order is cancellable until its new cut-off")
	}
	// A paid BUY is not touched by the policy.
	paid := forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment)
	paid.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "FS123"}
	if d := Next(paid, forwardFacts(fwdAfter)); d.Transition == nil || d.Transition.To != investv1.StatePaymentReceived {
		t.Fatalf("a paid BUY moves on: %+v", d)
	}
}

func TestAForwardOrderExecutesOnlyWithItsContractNote(t *testing.T) {
	for _, o := range []*investv1.Order{
		forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived),
		forwardOrder(investv1.SideSell, 5, investv1.StatePlaced),
	} {
		d := Next(o, forwardFacts(fwdAfter))
		if d.Wait == nil || d.Wait.Reason != WaitAwaitingStrike {
			t.Fatalf("%s without a contract note waits for the strike: %+v", o.Spec.Side, d)
		}
		note, err := ContractNote(o, Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_050_000, SettlementDate: "2026-03-12", At: fwdAfter})
		if err != nil {
			t.Fatal(err)
		}
		o.Status.Strike = note
		d = Next(o, forwardFacts(fwdAfter))
		if d.Transition == nil || d.Transition.To != investv1.StateExecuted || d.Transition.Reason != ReasonPricedAtStrike ||
			!strings.Contains(d.Transition.Message, "settlement date 2026-03-12") {
			t.Fatalf("%s with its contract note executes: %+v", o.Spec.Side, d)
		}
	}
	// An amount that buys no unit is cancelled and refunded in full.
	small := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	small.Status.Strike = &investv1.OrderContractNote{Units: 0, NAVPerShare: 1_050_000, NAVDate: "2026-03-10"}
	if d := Next(small, forwardFacts(fwdAfter)); d.Transition == nil || d.Transition.To != investv1.StateCancelled || d.Transition.Refund == nil || d.Transition.Refund.Amount != 10_000_000 {
		t.Fatalf("no unit bought: %+v", d.Transition)
	}
}

func TestTheContractNoteOfAnAmountBuyRoundsUnitsDownAndRefundsTheResidual(t *testing.T) {
	o := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	n, err := ContractNote(o, Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_050_000, SettlementDate: "2026-03-12", At: fwdAfter})
	if err != nil {
		t.Fatal(err)
	}
	want := investv1.OrderContractNote{Dealing: "lu0000deal19-2026-03-10", TradeDate: "2026-03-10", NAVDate: "2026-03-10", NAVPerShare: 1_050_000,
		Units: 9, GrossAmount: 10_000_000, FeeRate: 150, FeeAmount: 150_000, NetAmount: 9_850_000, UnitsValue: 9_450_000, Residual: 400_000,
		ResidualReference: "RS-123E4567E89B42D3A456426614174000", SettlementDate: "2026-03-12", StruckAt: metav1.NewTime(fwdAfter)}
	if *n != want {
		t.Fatalf("contract note\n %+v, want\n %+v", *n, want)
	}
	if Units(o) != 0 {
		t.Fatal("no units before the strike")
	}
	o.Status.Strike = n
	if Units(o) != 9 {
		t.Fatalf("units after the strike: %d", Units(o))
	}
	// By units: the placement arithmetic (gross = units × NAV, fee half up).
	u := forwardOrder(investv1.SideSell, 7, investv1.StatePlaced)
	n, err = ContractNote(u, Strike{Date: "2026-03-10", NAVPerShare: 1_234_567, SettlementDate: "2026-03-12", At: fwdAfter})
	if err != nil {
		t.Fatal(err)
	}
	if n.Units != 7 || n.GrossAmount != 8_641_969 || n.FeeAmount != 129_630 || n.NetAmount != 8_512_339 || n.Residual != 0 {
		t.Fatalf("by units: %+v", n)
	}
}

func TestWhichOrdersTheStrikePrices(t *testing.T) {
	sellReady := forwardOrder(investv1.SideSell, 5, investv1.StatePlaced)
	sellReady.Status.Conditions = []metav1.Condition{{Type: ConditionWaiting, Status: metav1.ConditionTrue, Reason: WaitAwaitingStrike}}
	sellReserving := forwardOrder(investv1.SideSell, 5, investv1.StatePlaced)
	cancelling := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	cancelling.Spec.CancellationRequested = true
	priced := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	priced.Status.Strike = &investv1.OrderContractNote{Units: 1}
	latest := forwardOrder(investv1.SideBuy, 3, investv1.StatePaymentReceived)
	latest.Spec.Quote.DealingDate = ""
	for name, c := range map[string]struct {
		o    *investv1.Order
		want bool
	}{
		"a paid BUY by amount":             {forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived), true},
		"an unpaid BUY by amount":          {forwardOrder(investv1.SideBuy, 0, investv1.StateAwaitingPayment), false},
		"an unpaid BUY by units":           {forwardOrder(investv1.SideBuy, 4, investv1.StateAwaitingPayment), true},
		"a SELL waiting for the strike":    {sellReady, true},
		"a SELL whose units are reserving": {sellReserving, false},
		"an order being cancelled":         {cancelling, false},
		"an order already priced":          {priced, false},
		"a latest-priced order":            {latest, false},
	} {
		if got := ReadyForStrike(c.o); got != c.want {
			t.Errorf("%s: ReadyForStrike = %v, want %v", name, got, c.want)
		}
	}
}
