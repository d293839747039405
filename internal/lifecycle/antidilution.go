package lifecycle

import (
	"math/big"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Anti-dilution (docs/dealing.md, "Anti-dilution"): when a dealing date's net flow passes
// the share class's threshold, the strike either deals every order at the NAV swung by
// the factor (swing pricing: up on a net inflow, down on a net outflow) or charges the
// orders of the side that causes the flow a levy that the fund keeps. The decision is
// drawn up once, with the NAV, from the dealing's orders (DrawAntiDilution) and stamped
// on each contract note it touches.

// Flow is what one order brings in (a BUY) or takes out (a SELL) at the NAV.
func Flow(o *investv1.Order, nav int64, decimals int32, gate *investv1.DealingGate) (in, out int64, err error) {
	switch {
	case o.Spec.Side == investv1.SideBuy && ByAmount(o):
		return o.Spec.Amount, 0, nil
	case o.Spec.Side == investv1.SideBuy:
		v, err := money.ValueOfUnits(o.Spec.AmountOfUnits, nav, decimals)
		return v, 0, err
	default:
		v, err := money.ValueOfUnits(GateFill(o.Spec.AmountOfUnits, gate), nav, decimals)
		return 0, v, err
	}
}

// DrawAntiDilution is the dealing's anti-dilution decision under terms: subscriptions and
// redemptions are the money its orders bring in and take out at nav, outstanding the
// class's units. The method applies when |subscriptions − redemptions| × 10,000 is above
// threshold × the class's value (outstanding × nav); a threshold of 0 applies it to any
// net flow. Swing pricing moves the price by nav × factor / 10,000, rounded half up.
func DrawAntiDilution(terms *investv1.AntiDilution, subscriptions, redemptions, outstanding, nav int64, decimals int32) (*investv1.DealingAntiDilution, error) {
	classValue, err := money.ValueOfUnits(outstanding, nav, decimals)
	if err != nil {
		return nil, err
	}
	ad := &investv1.DealingAntiDilution{
		Method: terms.Method, ThresholdBasisPoints: terms.ThresholdBasisPoints, FactorBasisPoints: terms.FactorBasisPoints,
		Subscriptions: subscriptions, Redemptions: redemptions, ClassValue: classValue, Direction: investv1.FlowNone, NAVPerShare: nav,
	}
	net := new(big.Int).Sub(big.NewInt(subscriptions), big.NewInt(redemptions))
	switch net.Sign() {
	case 1:
		ad.Direction = investv1.FlowInflow
	case -1:
		ad.Direction = investv1.FlowOutflow
	default:
		return ad, nil
	}
	lhs := new(big.Int).Mul(new(big.Int).Abs(net), big.NewInt(10_000))
	rhs := new(big.Int).Mul(big.NewInt(classValue), big.NewInt(int64(terms.ThresholdBasisPoints)))
	if lhs.Cmp(rhs) <= 0 {
		return ad, nil
	}
	ad.Applied = true
	if terms.Method == investv1.SwingPricing {
		swing, err := money.Fee(nav, int64(terms.FactorBasisPoints))
		if err != nil {
			return nil, err
		}
		if ad.Direction == investv1.FlowInflow {
			if ad.NAVPerShare, err = money.Add(nav, swing); err != nil {
				return nil, err
			}
		} else {
			ad.NAVPerShare = max(1, nav-swing)
		}
	}
	return ad, nil
}

// dilutes reports whether an order of side is on the side that causes the flow.
func dilutes(side investv1.OrderSide, d investv1.FlowDirection) bool {
	return side == investv1.SideBuy && d == investv1.FlowInflow || side == investv1.SideSell && d == investv1.FlowOutflow
}

// antiDilutionOf is what the decision does to an order of side: the price it is dealt at,
// the levy rate it pays, and the stamp for its contract note (nil: nothing).
func antiDilutionOf(ad *investv1.DealingAntiDilution, nav int64, side investv1.OrderSide) (price, levyRate int64, stamp *investv1.OrderAntiDilution) {
	if ad == nil || !ad.Applied {
		return nav, 0, nil
	}
	stamp = &investv1.OrderAntiDilution{Method: ad.Method, FactorBasisPoints: ad.FactorBasisPoints, Direction: ad.Direction, NAV: nav}
	switch ad.Method {
	case investv1.SwingPricing:
		return ad.NAVPerShare, 0, stamp
	case investv1.AntiDilutionLevy:
		if dilutes(side, ad.Direction) {
			return nav, int64(ad.FactorBasisPoints), stamp
		}
	}
	return nav, 0, nil
}
