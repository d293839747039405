package lifecycle

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// onWindow is newOrder as a SECONDARY order of the window of 2026-03-03 whose order
// deadline is an hour after now.
func onWindow(side investv1.OrderSide, state investv1.OrderState) *investv1.Order {
	o := newOrder(side, investv1.MarketSecondary, state)
	o.Spec.Quote.Window = &investv1.OrderWindow{Date: "2026-03-03", Deadline: metav1.NewTime(now.Add(time.Hour))}
	return o
}

// filled gives o the fill of its window: units of its 40.
func filled(o *investv1.Order, units int64) *investv1.Order {
	o.Status.Strike = &investv1.OrderContractNote{TradeDate: "2026-03-03", NAVDate: "2026-03-03", NAVPerShare: 1_010_000, Units: units,
		GrossAmount: units * 1_010_000, SettlementDate: "2026-03-03",
		Secondary: &investv1.OrderSecondaryFill{Window: "ie00b4l5y983-2026-03-03", Outcome: investv1.FillPartial, RequestedUnits: 40, NAVPerShare: 1_000_000}}
	return o
}

func TestASecondaryOrderWaitsForItsMatchingWindow(t *testing.T) {
	for _, o := range []*investv1.Order{onWindow(investv1.SideBuy, investv1.StatePaymentReceived), onWindow(investv1.SideSell, investv1.StatePlaced)} {
		d := Next(o, openFacts())
		if describe(d) != "wait "+WaitAwaitingMatching {
			t.Errorf("%s %s: %s, want wait %s", o.Spec.Side, o.Status.State, describe(d), WaitAwaitingMatching)
		}
		if !strings.Contains(d.Wait.Message, "the matching window of 2026-03-03") {
			t.Errorf("the wait names the window: %q", d.Wait.Message)
		}
	}
	// Not even a closed market moves it: the window checks the market when it matches.
	f := openFacts()
	f.Tradeable = false
	if d := Next(onWindow(investv1.SideBuy, investv1.StatePaymentReceived), f); describe(d) != "wait "+WaitAwaitingMatching {
		t.Errorf("a closed market: %s", describe(d))
	}
}

func TestAMatchedSecondaryOrderExecutesWithItsFill(t *testing.T) {
	for _, o := range []*investv1.Order{filled(onWindow(investv1.SideBuy, investv1.StatePaymentReceived), 30), filled(onWindow(investv1.SideSell, investv1.StatePlaced), 30)} {
		d := Next(o, openFacts())
		if describe(d) != "EXECUTED "+ReasonMatched {
			t.Fatalf("%s: %s, want EXECUTED Matched", o.Spec.Side, describe(d))
		}
		if !strings.Contains(d.Transition.Message, "30 of 40 units") {
			t.Errorf("the move says what was filled: %q", d.Transition.Message)
		}
		if Units(o) != 30 {
			t.Errorf("the order deals its fill: %d units", Units(o))
		}
	}
}

func TestASecondaryOrderFilledWithNothingIsCancelledABuyWithItsRefund(t *testing.T) {
	buy := filled(onWindow(investv1.SideBuy, investv1.StatePaymentReceived), 0)
	d := Next(buy, openFacts())
	if describe(d) != "CANCELLED "+ReasonCancelledWithRefund || d.Transition.Refund == nil || d.Transition.Refund.Amount != buy.Spec.Quote.Amount {
		t.Errorf("an unfilled BUY: %s %+v, want CANCELLED with its payment refunded", describe(d), d.Transition)
	}
	sell := filled(onWindow(investv1.SideSell, investv1.StatePlaced), 0)
	if d := Next(sell, openFacts()); describe(d) != "CANCELLED "+ReasonNotMatched || d.Transition.Refund != nil {
		t.Errorf("an unfilled SELL: %s, want CANCELLED NotMatched without refund", describe(d))
	}
}

func TestAnUnpaidSecondaryBuyIsCancelledAtTheDeadline(t *testing.T) {
	o := onWindow(investv1.SideBuy, investv1.StateAwaitingPayment)
	if d := Next(o, openFacts()); describe(d) != "wait "+WaitAwaitingPaymentEvidence || !strings.Contains(d.Wait.Message, "the order deadline of the matching window of 2026-03-03") {
		t.Errorf("before the deadline: %s", describe(d))
	}
	f := openFacts()
	f.Now = now.Add(time.Hour)
	if d := Next(o, f); describe(d) != "CANCELLED "+ReasonUnpaidAtDeadline {
		t.Errorf("at the deadline: %s, want CANCELLED UnpaidAtDeadline", describe(d))
	}
}

func TestASecondarySellIsPaidOnlyAfterItsUnitsAreDelivered(t *testing.T) {
	o := filled(onWindow(investv1.SideSell, investv1.StateExecuted), 30)
	if step, ok := NextStep(o); !ok || step != StepUnitsDelivered {
		t.Fatalf("an EXECUTED SECONDARY SELL waits for %s, want %s (never a burn)", step, StepUnitsDelivered)
	}
	if d := Next(o, openFacts()); describe(d) != "wait "+WaitAwaitingUnitsDelivered {
		t.Errorf("before its units are delivered: %s", describe(d))
	}
	Record(o, StepUnitsDelivered, investv1.SettlementRecord{TransactionHash: "0x01"})
	if step, ok := NextStep(o); !ok || step != StepPaymentSent {
		t.Errorf("after: %s, want %s", step, StepPaymentSent)
	}
	if d := Next(o, openFacts()); describe(d) != "wait "+WaitAwaitingPayoutEvidence {
		t.Errorf("after its units are delivered: %s", describe(d))
	}
	if ok, _, _ := Cancellable(o); ok {
		t.Error("a matched SELL cannot be cancelled")
	}
}

func TestASecondaryBuyIsDeliveredByATransferNamedSo(t *testing.T) {
	o := filled(onWindow(investv1.SideBuy, investv1.StateExecuted), 30)
	if step, ok := NextStep(o); !ok || step != StepDeliveryInitiated {
		t.Fatalf("an EXECUTED SECONDARY BUY waits for %s", step)
	}
	o.Status.Chain = &investv1.OrderChainStatus{Refused: &investv1.ChainRefusal{Reason: "WalletFrozen(0x1)"}}
	if d := Next(o, openFacts()); d.Wait == nil || !strings.Contains(d.Wait.Message, "the chain refuses the transfer") {
		t.Errorf("a refused transfer is named a transfer, not a mint: %+v", d.Wait)
	}
}

func TestASecondaryOrderIsCancellableUntilItsDeadline(t *testing.T) {
	o := onWindow(investv1.SideBuy, investv1.StatePaymentReceived)
	if ok, refund, why := CancellableAt(o, now); !ok || !refund {
		t.Errorf("before the deadline: %v %v %q, want cancellable with a refund", ok, refund, why)
	}
	ok, _, why := CancellableAt(o, now.Add(time.Hour))
	if ok || CancelRefusalAt(o, now.Add(time.Hour)) != RefusalSubmittedForDealing || !strings.Contains(why, "submitted for matching in the window of 2026-03-03") {
		t.Errorf("at the deadline: %v %q, want refused as submitted for matching", ok, why)
	}
}

func TestUnitsDeliveredIsEvidenceOfASecondarySellOnly(t *testing.T) {
	primary := newOrder(investv1.SideSell, investv1.MarketPrimary, investv1.StateExecuted)
	ev := primary.Status.Settlement
	ev.UnitsDelivered = &investv1.SettlementRecord{TransactionHash: "0x01"}
	if refused := CheckEvidence(primary, ev); len(refused) != 1 || refused[0].Rule != RuleWrongSide {
		t.Errorf("unitsDelivered on a PRIMARY SELL: %+v, want refused", refused)
	}
	secondary := filled(onWindow(investv1.SideSell, investv1.StateExecuted), 30)
	if refused := CheckEvidence(secondary, ev); len(refused) != 0 {
		t.Errorf("unitsDelivered on an EXECUTED SECONDARY SELL: %+v, want accepted", refused)
	}
}

func TestADealingOrWindowNameSplitsIntoItsISINAndDate(t *testing.T) {
	name := WindowName("LU0000SCND27", "2026-03-10")
	if isin, date, ok := SplitName(name); !ok || isin != "LU0000SCND27" || date != "2026-03-10" || name != DealingName(isin, date) {
		t.Errorf("SplitName(%q) = %s %s %v", name, isin, date, ok)
	}
	point := DealingName("LU0000FWRD24", "2026-03-10T12:05")
	if point != "lu0000fwrd24-2026-03-10t1205" {
		t.Errorf("the Dealing of a dealing point is named %q, want lu0000fwrd24-2026-03-10t1205", point)
	}
	if isin, date, ok := SplitName(point); !ok || isin != "LU0000FWRD24" || date != "2026-03-10T12:05" {
		t.Errorf("SplitName(%q) = %s %s %v", point, isin, date, ok)
	}
	for _, bad := range []string{"", "lu0000scnd27", "lu0000scnd27_2026-03-10", "lu0000scnd2-2026-03-10x", "lu0000fwrd24-2026-03-10x1205", "lu0000fwrd24-2026-03-10t12055"} {
		if _, _, ok := SplitName(bad); ok {
			t.Errorf("SplitName(%q): want false", bad)
		}
	}
}

// carried is o as the BUY a window carried from order "parent-1", paid with its money.
func carried(o *investv1.Order) *investv1.Order {
	o.Spec.CarriedFrom = "parent-1"
	o.Spec.Quote.PaymentDetails = nil
	return o
}

func TestACarriedBuyIsNeverCancelledUnpaidAtTheDeadline(t *testing.T) {
	o := carried(onWindow(investv1.SideBuy, investv1.StateAwaitingPayment))
	f := openFacts()
	f.Now = o.Spec.Quote.Window.Deadline.Add(time.Minute)
	d := Next(o, f)
	if describe(d) != "wait "+WaitAwaitingPaymentEvidence {
		t.Fatalf("past the deadline with its carried money not recorded yet: %s, want a wait (the money is recorded late, never lost)", describe(d))
	}
	if !strings.Contains(d.Wait.Message, "carried from order parent-1") {
		t.Errorf("the wait names the order the money comes from: %q", d.Wait.Message)
	}
	placed := carried(onWindow(investv1.SideBuy, investv1.StatePlaced))
	if d := Next(placed, openFacts()); d.Transition == nil || !strings.Contains(d.Transition.Message, "no payment is asked for") {
		t.Errorf("a carried BUY asks for no payment: %s", describe(d))
	}
}

func TestACarriedBuyIsNotCancellableUntilItsCarriedMoneyIsRecorded(t *testing.T) {
	o := carried(onWindow(investv1.SideBuy, investv1.StateAwaitingPayment))
	if ok, _, reason := CancellableAt(o, now); ok || CancelRefusalAt(o, now) != RefusalCarryInFlight {
		t.Fatalf("cancellable with its money in flight (%q): nothing would refund it", reason)
	}
	Record(o, StepPaymentReceived, investv1.SettlementRecord{Reference: "CARRIED-FROM-parent-1", At: metav1.NewTime(now)})
	if ok, refund, reason := CancellableAt(o, now); !ok || !refund {
		t.Errorf("with its money recorded, cancellable with a refund: ok %v refund %v (%q)", ok, refund, reason)
	}
}

// TestABuyWithCashOnChainIsAskedForItsEscrow: a SECONDARY BUY whose cash is on chain is
// told to escrow its amount at the settlement contract under its reference, by the
// window's deadline; its money steps are the chain agent's, never the bank's.
func TestABuyWithCashOnChainIsAskedForItsEscrow(t *testing.T) {
	o := onWindow(investv1.SideBuy, investv1.StatePlaced)
	o.Spec.Quote.Amount = 5_050_125
	o.Spec.Quote.CashOnChain = &investv1.OrderCashOnChain{CashOnChain: investv1.CashOnChain{
		Settlement: "0x1111111111111111111111111111111111111111", CashToken: "0x2222222222222222222222222222222222222222"},
		EscrowReference: "0x" + strings.Repeat("ab", 32)}
	d := Next(o, openFacts())
	if d.Transition == nil {
		t.Fatalf("placed: %s", describe(d))
	}
	want := "escrow 5050125 units of the cash token 0x2222222222222222222222222222222222222222 at the settlement contract 0x1111111111111111111111111111111111111111 under reference 0x" + strings.Repeat("ab", 32) + " by "
	if !strings.HasPrefix(d.Transition.Message, want) {
		t.Errorf("payment instructions %q, want them to start %q", d.Transition.Message, want)
	}
	for _, step := range MoneySteps() {
		if SideOf(o, step) != TokenSide {
			t.Errorf("%s of an order with cash on chain is settled by the %s side", step, SideOf(o, step))
		}
	}
	o.Spec.Quote.CashOnChain = nil
	if SideOf(o, StepPaymentReceived) != MoneySide {
		t.Error("a bank-paid order's payment is the money side's")
	}
}
