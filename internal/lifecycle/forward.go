package lifecycle

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Forward pricing (docs/dealing.md). An order of a share class with forward pricing is
// placed for a dealing date (spec.quote.dealingDate, or status.dealing once an unpaid BUY
// was moved), is cancellable until that date's cut-off for its side, and is priced at
// the strike: the NAV of its dealing date, recorded once on the order as its contract
// note (status.strike) by the strike controller. The order controller then moves it to
// EXECUTED, and delivery goes on as for any order.

// Forward reports whether the order was placed for a dealing date (its share class
// prices forward).
func Forward(o *investv1.Order) bool { return o.Spec.Quote != nil && o.Spec.Quote.DealingDate != "" }

// ByAmount reports whether the order is a BUY by amount (money to invest) rather than by
// units.
func ByAmount(o *investv1.Order) bool { return o.Spec.Amount > 0 }

// DealingDate is the dealing date the order deals at now ("" for a latest-priced order).
func DealingDate(o *investv1.Order) string {
	if d := o.Status.Dealing; d != nil {
		return d.Date
	}
	if o.Spec.Quote != nil {
		return o.Spec.Quote.DealingDate
	}
	return ""
}

// CutOff is the cut-off of the order's dealing date for its side (zero for a
// latest-priced order).
func CutOff(o *investv1.Order) time.Time {
	if d := o.Status.Dealing; d != nil {
		return d.CutOff.Time
	}
	if q := o.Spec.Quote; q != nil && q.CutOff != nil {
		return q.CutOff.Time
	}
	return time.Time{}
}

// DealingName is the name of the Dealing object of an ISIN and a dealing date: the ISIN
// in lower case, a dash and the date (lu0000deal19-2026-03-10); an Intraday class's
// dealing point (2026-03-10T12:05) is written in lower case without its colon
// (lu0000deal19-2026-03-10t1205), as names allow.
func DealingName(isin investv1.ISIN, date string) string {
	return strings.ToLower(string(isin)) + "-" + strings.ToLower(strings.ReplaceAll(date, ":", ""))
}

// SplitName splits the name of a Dealing or a MatchingWindow (DealingName, WindowName)
// into its ISIN (upper case) and date (or dealing point, YYYY-MM-DDTHH:MM); false when it
// is not such a name.
func SplitName(name string) (investv1.ISIN, string, bool) {
	const isinLen, dateLen, pointLen = 12, 10, 15 // 2026-03-10, 2026-03-10t1205
	if len(name) < isinLen+1+dateLen || name[isinLen] != '-' {
		return "", "", false
	}
	isin, date := investv1.ISIN(strings.ToUpper(name[:isinLen])), name[isinLen+1:]
	switch {
	case len(date) == dateLen:
		return isin, date, true
	case len(date) == pointLen && date[dateLen] == 't':
		return isin, date[:dateLen] + "T" + date[dateLen+1:dateLen+3] + ":" + date[dateLen+3:], true
	}
	return "", "", false
}

// OrderDealingName is the Dealing the order belongs to now; "" for a latest-priced order.
func OrderDealingName(o *investv1.Order) string {
	if !Forward(o) {
		return ""
	}
	return DealingName(o.Spec.ISIN, DealingDate(o))
}

// Units is the number of units the order deals: the units of its contract note once it is
// priced (a BUY by amount's units, a SELL's units the redemption gate filled), else
// spec.amountOfUnits (0 for a BUY by amount before the strike).
func Units(o *investv1.Order) int64 {
	if o.Status.Strike != nil {
		return o.Status.Strike.Units
	}
	return o.Spec.AmountOfUnits
}

// ReadyForStrike reports whether the strike of the order's dealing prices the order now:
// a forward order not yet priced, not cancelled nor asked to be, that is a BUY by amount
// whose payment was received (PAYMENT_RECEIVED), a BUY by units that is waiting for or has
// its payment (its amount to pay is fixed by the strike), or a SELL whose units are
// reserved and that waits for the strike only (Waiting reason AwaitingStrike).
func ReadyForStrike(o *investv1.Order) bool {
	if !Forward(o) || o.Status.Strike != nil || o.Spec.CancellationRequested || o.Status.State.Terminal() {
		return false
	}
	switch o.Spec.Side {
	case investv1.SideBuy:
		if ByAmount(o) {
			return o.Status.State == investv1.StatePaymentReceived
		}
		return o.Status.State == investv1.StateAwaitingPayment || o.Status.State == investv1.StatePaymentReceived
	case investv1.SideSell:
		if o.Status.State != investv1.StatePlaced && o.Status.State != investv1.StateRedemptionGated {
			return false
		}
		c := meta.FindStatusCondition(o.Status.Conditions, ConditionWaiting)
		return c != nil && c.Status == metav1.ConditionTrue && c.Reason == WaitAwaitingStrike
	}
	return false
}

// Strike is what the strike of one dealing prices its orders with.
type Strike struct {
	// Dealing is the Dealing object's name.
	Dealing string
	// Date is the dealing date (trade date and NAV date).
	Date string
	// NAVPerShare is the NAV of the date, recorded on the Dealing.
	NAVPerShare int64
	// UnitDecimals are the share class's unit decimals.
	UnitDecimals int32
	// SettlementDate is the dealing date plus the settlement period in business days.
	SettlementDate string
	// At is when the order is priced.
	At time.Time
	// Gate is the dealing's redemption gate (nil: none); it fills the SELLs.
	Gate *investv1.DealingGate
	// AntiDilution is the dealing's anti-dilution decision (nil: none): the swung price
	// or the levy of the side that causes the flow.
	AntiDilution *investv1.DealingAntiDilution
}

// ContractNote prices the order at the strike, with integer money (internal/money):
//
//   - a BUY by amount: fee = amount × rate / 10,000 rounded half up, net = amount − fee,
//     units = net ÷ NAV rounded down to the unit decimals, and the residual, net − units ×
//     NAV, is refunded (ResidualReference);
//   - an order by units: gross = units × NAV, fee and net as at placement (money.QuoteUnits,
//     which is money.QuoteOrder for whole units).
//
// The fee rate is the one fixed at placement (spec.quote.feeRate). It is a pure function of
// the order and the strike, so the same strike prices an order the same way every time.
func ContractNote(o *investv1.Order, s Strike) (*investv1.OrderContractNote, error) {
	if o.Spec.Quote == nil {
		return nil, fmt.Errorf("order %s has no quote", o.Name)
	}
	rate := o.Spec.Quote.FeeRate
	price, levyRate, stamp := antiDilutionOf(s.AntiDilution, s.NAVPerShare, o.Spec.Side)
	note := &investv1.OrderContractNote{
		Dealing: s.Dealing, TradeDate: s.Date, NAVDate: s.Date, NAVPerShare: price, FeeRate: rate,
		SettlementDate: s.SettlementDate, StruckAt: metav1.NewTime(s.At.UTC().Truncate(time.Second)), AntiDilution: stamp,
	}
	if o.Spec.Side == investv1.SideBuy && ByAmount(o) {
		q, err := money.QuoteAmount(o.Spec.Amount, price, rate, s.UnitDecimals)
		if err != nil {
			return nil, err
		}
		if levyRate > 0 {
			if q, err = levied(q, levyRate, s.UnitDecimals, stamp); err != nil {
				return nil, err
			}
		}
		note.Units, note.GrossAmount, note.FeeAmount, note.NetAmount = q.Units, q.Gross, q.FeeAmount, q.Net
		note.UnitsValue, note.Residual = q.UnitsValue, q.Residual
		if q.Residual > 0 {
			note.ResidualReference = ResidualReference(o)
		}
		return note, nil
	}
	units := o.Spec.AmountOfUnits
	if o.Spec.Side == investv1.SideSell {
		if units = GateFill(o.Spec.AmountOfUnits, s.Gate); units < o.Spec.AmountOfUnits {
			note.RequestedUnits = o.Spec.AmountOfUnits
		}
		if units == 0 {
			return note, nil // the gate filled nothing: no money moves
		}
	}
	q, err := money.QuoteUnits(units, price, rate, s.UnitDecimals)
	if err != nil {
		return nil, err
	}
	note.Units, note.GrossAmount, note.FeeAmount, note.NetAmount = q.Units, q.Gross, q.FeeAmount, q.Net
	if levyRate > 0 {
		levy, err := money.Fee(q.Gross, levyRate)
		if err != nil {
			return nil, err
		}
		stamp.LevyAmount, note.NetAmount = levy, max(0, q.Net-levy)
	}
	return note, nil
}

// levied is a BUY by amount's quote with the anti-dilution levy taken from its net amount
// before the units are bought: levy = gross × rate / 10,000 rounded half up, net = gross −
// fee − levy, units = net ÷ price rounded down, and the residual what the units do not use.
func levied(q money.AmountQuote, levyRate int64, decimals int32, stamp *investv1.OrderAntiDilution) (money.AmountQuote, error) {
	levy, err := money.Fee(q.Gross, levyRate)
	if err != nil {
		return q, err
	}
	stamp.LevyAmount = levy
	q.Net = max(0, q.Net-levy)
	if q.Units, err = money.UnitsFor(q.Net, q.NAVPerShare, decimals); err != nil {
		return q, err
	}
	if q.UnitsValue, err = money.ValueOfUnits(q.Units, q.NAVPerShare, decimals); err != nil {
		return q, err
	}
	q.Residual = q.Net - q.UnitsValue
	return q, nil
}

// ResidualReference is "RS-" and the order id's hexadecimal digits in upper case: the
// reference of the refund of a BUY by amount's residual cash.
func ResidualReference(o *investv1.Order) string {
	ref := "RS-" + strings.ToUpper(strings.ReplaceAll(o.Name, "-", ""))
	if len(ref) > 35 {
		ref = ref[:35]
	}
	return ref
}

// contractNoteMessage is the EXECUTED history entry (and Event) of a forward order: its
// contract note in words.
func contractNoteMessage(o *investv1.Order) string {
	n := o.Status.Strike
	cur := string(o.Spec.Currency)
	msg := fmt.Sprintf("priced at the strike of dealing date %s: %d units at NAV %s (NAV date %s), gross %s, fee %s, net %s, settlement date %s",
		n.TradeDate, n.Units, money.Format(n.NAVPerShare, cur), n.NAVDate, money.Format(n.GrossAmount, cur),
		money.Format(n.FeeAmount, cur), money.Format(n.NetAmount, cur), n.SettlementDate)
	if n.Residual > 0 {
		msg += fmt.Sprintf("; the residual %s is refunded with reference %s", money.Format(n.Residual, cur), n.ResidualReference)
	}
	if a := n.AntiDilution; a != nil {
		switch a.Method {
		case investv1.SwingPricing:
			msg += fmt.Sprintf("; swing pricing: the NAV %s swung %s by %d basis points for the dealing's net %s",
				money.Format(a.NAV, cur), map[bool]string{true: "up", false: "down"}[a.Direction == investv1.FlowInflow], a.FactorBasisPoints, strings.ToLower(string(a.Direction)))
		case investv1.AntiDilutionLevy:
			msg += fmt.Sprintf("; anti-dilution levy %s (%d basis points) kept by the fund", money.Format(a.LevyAmount, cur), a.FactorBasisPoints)
		}
	}
	if n.RequestedUnits > n.Units {
		msg += fmt.Sprintf("; the redemption gate filled %d of the %d units asked", n.Units, n.RequestedUnits)
		if c := n.CarriedForward; c != nil {
			msg += fmt.Sprintf(": %d are carried forward to the dealing date %s as order %s", c.Units, c.DealingDate, c.Order)
		} else {
			msg += ": the rest is not redeemed"
		}
	}
	return msg
}

// forwardExecute is the move of a forward order that is ready to execute: it waits for the
// strike, is cancelled with a full refund when its amount bought no unit, else executes.
func forwardExecute(o *investv1.Order, reason string) Decision {
	n := o.Status.Strike
	if n == nil {
		return wait(WaitAwaitingStrike, fmt.Sprintf("submitted for dealing on %s: waiting for the NAV of that date (the strike)", DealingDate(o)))
	}
	if n.Units == 0 && o.Spec.Side == investv1.SideSell {
		return move(investv1.StateCancelled, ReasonRedemptionNotFilled, fmt.Sprintf(
			"the redemption gate of dealing date %s filled none of the %d units asked and the share class does not carry them forward: none is redeemed",
			n.TradeDate, o.Spec.AmountOfUnits))
	}
	if n.Units == 0 {
		r := NewRefund(o)
		d := move(investv1.StateCancelled, ReasonCancelledWithRefund, fmt.Sprintf(
			"the amount buys no unit at the NAV %s of %s: the payment is refunded: %s with reference %s",
			money.Format(n.NAVPerShare, string(o.Spec.Currency)), n.NAVDate, money.Format(r.Amount, string(r.Currency)), r.Reference))
		d.Transition.Refund = r
		return d
	}
	if reason == "" {
		reason = ReasonPricedAtStrike
	}
	return move(investv1.StateExecuted, reason, contractNoteMessage(o))
}

// unpaidAtCutOff is the move of a forward BUY by amount whose payment has not arrived at
// its cut-off: the share class's policy moves it to the next dealing date or cancels it.
func unpaidAtCutOff(o *investv1.Order, f Facts) Decision {
	if f.UnpaidPolicy == investv1.UnpaidNextDealingDate && f.NextDealing != nil {
		next := *f.NextDealing
		if o.Status.Dealing != nil {
			next.Moves = o.Status.Dealing.Moves + 1
		} else {
			next.Moves = 1
		}
		next.Reason = investv1.DealingMoveUnpaid
		d := wait(WaitAwaitingPaymentEvidence, fmt.Sprintf(
			"not paid by the cut-off of %s: moved to the dealing date %s; pay by %s", DealingDate(o), next.Date, next.CutOff.UTC().Format(time.RFC3339)))
		d.Redate = &next
		return d
	}
	return move(investv1.StateCancelled, ReasonUnpaidAtCutOff, fmt.Sprintf(
		"not paid by the subscription cut-off %s of dealing date %s: cancelled, as the share class's policy says",
		CutOff(o).UTC().Format(time.RFC3339), DealingDate(o)))
}

// payBy is what a forward BUY waiting for its payment is told.
func payBy(o *investv1.Order) string {
	if CarriedBuy(o) {
		return "waiting for the money carried from order " + string(o.Spec.CarriedFrom) + " to be recorded as its payment (by the matching window)"
	}
	if w := Window(o); w != nil {
		amount := ""
		if q := o.Spec.Quote; q != nil {
			amount = " " + money.Format(q.Amount, string(o.Spec.Currency))
		}
		return fmt.Sprintf("waiting for the customer's payment to be recorded: pay%s by %s, the order deadline of the matching window of %s",
			amount, w.Deadline.UTC().Format(time.RFC3339), w.Date)
	}
	switch {
	case ByAmount(o):
		return fmt.Sprintf("waiting for the customer's payment to be recorded: pay by %s, the cut-off of dealing date %s",
			CutOff(o).UTC().Format(time.RFC3339), DealingDate(o))
	case o.Status.Strike != nil:
		return fmt.Sprintf("waiting for the customer's payment to be recorded: pay %s, the gross amount of the contract note, by the settlement date %s",
			money.Format(o.Status.Strike.GrossAmount, string(o.Spec.Currency)), o.Status.Strike.SettlementDate)
	}
	return fmt.Sprintf("waiting for the strike of dealing date %s: it fixes the amount to pay", DealingDate(o))
}
