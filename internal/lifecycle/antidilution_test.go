package lifecycle

import (
	"strings"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Anti-dilution at the strike (docs/dealing.md, "Anti-dilution").

func TestSwingPricingMovesTheNAVByItsFactorOnlyAboveTheThreshold(t *testing.T) {
	swing := &investv1.AntiDilution{Method: investv1.SwingPricing, ThresholdBasisPoints: 500, FactorBasisPoints: 150}
	// 1,000 units at 100 EUR: a class worth 100,000 EUR; the threshold is 5% = 5,000 EUR.
	for _, c := range []struct {
		name          string
		in, out       int64
		wantApplied   bool
		wantDirection investv1.FlowDirection
		wantPrice     int64
	}{
		{"a net inflow above the threshold swings up", 80_000_000, 20_000_000, true, investv1.FlowInflow, 1_015_000},
		{"a net outflow above the threshold swings down", 0, 60_000_000, true, investv1.FlowOutflow, 985_000},
		{"a net flow at the threshold does not swing", 50_000_000, 0, false, investv1.FlowInflow, 1_000_000},
		{"no net flow does not swing", 30_000_000, 30_000_000, false, investv1.FlowNone, 1_000_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			ad, err := DrawAntiDilution(swing, c.in, c.out, 1_000, 1_000_000, 0)
			if err != nil {
				t.Fatal(err)
			}
			if ad.Applied != c.wantApplied || ad.Direction != c.wantDirection || ad.NAVPerShare != c.wantPrice {
				t.Errorf("decision = applied %v, %s, price %d; want %v, %s, %d", ad.Applied, ad.Direction, ad.NAVPerShare, c.wantApplied, c.wantDirection, c.wantPrice)
			}
			if ad.ClassValue != 1_000_000_000 {
				t.Errorf("class value = %d, want 100,000 EUR", ad.ClassValue)
			}
		})
	}
	// The swing rounds half up: 1.0001 EUR × 1.5% = 0.0150015 EUR → 0.0150 EUR.
	ad, err := DrawAntiDilution(&investv1.AntiDilution{Method: investv1.SwingPricing, FactorBasisPoints: 150}, 1, 0, 1, 10_001, 0)
	if err != nil || ad.NAVPerShare != 10_001+150 {
		t.Errorf("swung price = %d (%v), want 10,151", ad.NAVPerShare, err)
	}
}

func TestEveryOrderOfASwungDealingIsDealtAtTheSwungPriceAndSaysSo(t *testing.T) {
	ad := &investv1.DealingAntiDilution{Method: investv1.SwingPricing, FactorBasisPoints: 150, Direction: investv1.FlowInflow, Applied: true, NAVPerShare: 1_065_750}
	s := Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_050_000, SettlementDate: "2026-03-12", At: fwdAfter, AntiDilution: ad}
	buy := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived) // 1,000 EUR at 1.5%
	n, err := ContractNote(buy, s)
	if err != nil {
		t.Fatal(err)
	}
	// net 985 EUR ÷ 106.575 = 9.24…: 9 units worth 959.175 EUR; 25.825 EUR back.
	if n.NAVPerShare != 1_065_750 || n.Units != 9 || n.UnitsValue != 9_591_750 || n.Residual != 258_250 {
		t.Errorf("note = price %d, units %d, value %d, residual %d", n.NAVPerShare, n.Units, n.UnitsValue, n.Residual)
	}
	if n.AntiDilution == nil || n.AntiDilution.NAV != 1_050_000 || n.AntiDilution.Method != investv1.SwingPricing {
		t.Errorf("the note does not stamp the swing: %+v", n.AntiDilution)
	}
	sell := forwardOrder(investv1.SideSell, 10, investv1.StatePlaced)
	n, err = ContractNote(sell, s)
	if err != nil || n.NAVPerShare != 1_065_750 || n.GrossAmount != 10_657_500 || n.AntiDilution == nil {
		t.Errorf("a SELL of a swung dealing: %+v, %v", n, err)
	}
	buy.Status.Strike = n
	if msg := contractNoteMessage(buy); !strings.Contains(msg, "swing pricing: the NAV 105.0000 EUR swung up by 150 basis points") {
		t.Errorf("message %q", msg)
	}
	s.AntiDilution = &investv1.DealingAntiDilution{Method: investv1.SwingPricing, FactorBasisPoints: 150, Direction: investv1.FlowInflow, NAVPerShare: 1_050_000}
	if n, _ := ContractNote(sell, s); n.NAVPerShare != 1_050_000 || n.AntiDilution != nil {
		t.Errorf("a decision not applied changed the note: %+v", n)
	}
}

func TestTheAntiDilutionLevyIsChargedToTheSideThatCausesTheFlow(t *testing.T) {
	s := Strike{Dealing: "lu0000deal19-2026-03-10", Date: "2026-03-10", NAVPerShare: 1_000_000, SettlementDate: "2026-03-12", At: fwdAfter,
		AntiDilution: &investv1.DealingAntiDilution{Method: investv1.AntiDilutionLevy, FactorBasisPoints: 200, Direction: investv1.FlowOutflow, Applied: true, NAVPerShare: 1_000_000}}
	sell := forwardOrder(investv1.SideSell, 10, investv1.StatePlaced) // gross 1,000 EUR, fee 1.5%
	n, err := ContractNote(sell, s)
	if err != nil {
		t.Fatal(err)
	}
	// fee 15 EUR, levy 2% = 20 EUR: the payout is 965 EUR, at the NAV.
	if n.NAVPerShare != 1_000_000 || n.FeeAmount != 150_000 || n.AntiDilution == nil || n.AntiDilution.LevyAmount != 200_000 || n.NetAmount != 9_650_000 {
		t.Errorf("SELL under a levy on a net outflow: %+v (%+v)", n, n.AntiDilution)
	}
	buy := forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived)
	if n, _ := ContractNote(buy, s); n.AntiDilution != nil || n.NetAmount != 9_850_000 {
		t.Errorf("a BUY on a net outflow paid the levy: %+v", n)
	}

	s.AntiDilution.Direction = investv1.FlowInflow
	n, err = ContractNote(buy, s)
	if err != nil {
		t.Fatal(err)
	}
	// 1,000 EUR: fee 15, levy 20, net 965 EUR: 9 units (900 EUR), 65 EUR back.
	if n.AntiDilution == nil || n.AntiDilution.LevyAmount != 200_000 || n.NetAmount != 9_650_000 || n.Units != 9 || n.Residual != 650_000 {
		t.Errorf("BUY by amount under a levy on a net inflow: %+v (%+v)", n, n.AntiDilution)
	}
	buy.Status.Strike = n
	if msg := contractNoteMessage(buy); !strings.Contains(msg, "anti-dilution levy 20.0000 EUR (200 basis points) kept by the fund") {
		t.Errorf("message %q", msg)
	}
}

func TestTheFlowOfAGatedSellIsWhatTheGateFills(t *testing.T) {
	sell := forwardOrder(investv1.SideSell, 50, investv1.StatePlaced)
	in, out, err := Flow(sell, 1_000_000, 0, &investv1.DealingGate{LimitUnits: 30, RequestedUnits: 77})
	if err != nil || in != 0 || out != 19*1_000_000 {
		t.Errorf("Flow = %d in, %d out (%v); want 0, 190,000,000", in, out, err)
	}
	in, out, _ = Flow(forwardOrder(investv1.SideBuy, 0, investv1.StatePaymentReceived), 1_000_000, 0, nil)
	if in != 10_000_000 || out != 0 {
		t.Errorf("a BUY by amount brings in its amount: %d, %d", in, out)
	}
}
