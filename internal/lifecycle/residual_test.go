package lifecycle

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// deliveredAmountBuy is a forward BUY by amount priced at 105 EUR (9 units, 40 EUR
// residual) and delivered.
func deliveredAmountBuy(t *testing.T) *investv1.Order {
	t.Helper()
	o := forwardOrder(investv1.SideBuy, 0, investv1.StateDeliveryCompleted)
	n, err := ContractNote(o, Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_050_000, SettlementDate: "2026-03-12", At: fwdAfter})
	if err != nil {
		t.Fatal(err)
	}
	o.Status.Strike = n
	o.Status.Settlement = buyEvidence()
	return o
}

func TestADeliveredBuyIsCompletedOnlyOnceItsResidualIsRefunded(t *testing.T) {
	o := deliveredAmountBuy(t)
	at := metav1.NewTime(fwdAfter)
	steps := []string{}
	for range 4 {
		d := Next(o, forwardFacts(fwdAfter))
		if d.Transition != nil {
			steps = append(steps, string(d.Transition.To))
			break
		}
		if d.Wait == nil || d.Wait.Reason != WaitAwaitingRefundEvidence || !strings.Contains(d.Wait.Message, "40.0000 EUR") || !strings.Contains(d.Wait.Message, o.Status.Strike.ResidualReference) {
			t.Fatalf("wait %+v; want the residual 40.0000 EUR awaited under its reference", d.Wait)
		}
		step, ok := NextStep(o)
		if !ok {
			t.Fatal("the residual is awaited, yet no step is next")
		}
		steps = append(steps, string(step))
		Record(o, step, investv1.SettlementRecord{Reference: "SBX-RFD-1", At: at})
	}
	want := []string{string(StepResidualRefundSent), string(StepResidualRefundCompleted), string(investv1.StateCompleted)}
	if strings.Join(steps, " ") != strings.Join(want, " ") {
		t.Fatalf("steps %v, want %v", steps, want)
	}
	if StepResidualRefundSent.Side() != MoneySide || StepResidualRefundCompleted.Side() != MoneySide {
		t.Fatal("the residual is refunded by the money side")
	}
}

func TestTheResidualIsRefundedEvenWhenACancellationWasRequestedTooLate(t *testing.T) {
	o := deliveredAmountBuy(t)
	o.Spec.CancellationRequested = true
	if step, ok := NextStep(o); !ok || step != StepResidualRefundSent {
		t.Fatalf("next step %q %v; want the residual refund", step, ok)
	}
}

func TestABuyWithoutResidualIsCompletedAtDelivery(t *testing.T) {
	o := deliveredAmountBuy(t)
	o.Status.Strike.Residual, o.Status.Strike.ResidualReference = 0, ""
	if _, ok := NextStep(o); ok {
		t.Fatal("a step is next without a residual")
	}
	if d := Next(o, forwardFacts(fwdAfter)); d.Transition == nil || d.Transition.To != investv1.StateCompleted {
		t.Fatalf("decision %+v; want COMPLETED", d)
	}
}

func TestResidualRefundEvidenceIsRefusedWhereNoResidualIsOwedOrOutOfOrder(t *testing.T) {
	rec := &investv1.SettlementRecord{Reference: "R", At: metav1.NewTime(fwdAfter)}
	none := deliveredAmountBuy(t)
	none.Status.Strike.Residual = 0
	got := CheckEvidence(none, investv1.SettlementEvidence{ResidualRefundSent: rec})
	if len(got) != 1 || got[0].Rule != RuleNoRefundOwed || got[0].Field != "residualRefundSent" {
		t.Fatalf("no residual: %+v", got)
	}
	owed := deliveredAmountBuy(t)
	got = CheckEvidence(owed, investv1.SettlementEvidence{ResidualRefundCompleted: rec})
	if len(got) != 1 || got[0].Rule != RuleOutOfOrder {
		t.Fatalf("completed before sent: %+v", got)
	}
	sell := forwardOrder(investv1.SideSell, 7, investv1.StateExecuted)
	got = CheckEvidence(sell, investv1.SettlementEvidence{ResidualRefundSent: rec})
	if len(got) != 1 || got[0].Rule != RuleWrongSide {
		t.Fatalf("on a SELL: %+v", got)
	}
	if got = CheckEvidence(owed, investv1.SettlementEvidence{ResidualRefundSent: rec, ResidualRefundCompleted: rec}); len(got) != 0 {
		t.Fatalf("sent and completed in one write: %+v", got)
	}
}
