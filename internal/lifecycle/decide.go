package lifecycle

import (
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// Facts are everything outside the order that the decision depends on, gathered by the
// reconciler, so that Next itself reads nothing but its arguments.
type Facts struct {
	// Now is the time of the decision; the reconciler stamps the transition with it.
	Now time.Time
	// FundFound: the share class and its fund exist.
	FundFound bool
	// Subscribable is the fund's flag: PRIMARY buys execute only while true.
	Subscribable bool
	// Redeemable is the fund's flag: PRIMARY sells execute only while true.
	Redeemable bool
	// Tradeable is the fund's flag: SECONDARY orders execute only while true.
	Tradeable bool
	// GateActive: the fund's redemption gate is active now (the caller has already
	// evaluated its until-time).
	GateActive bool
	// GateReason is the gate's reason, shown on gated orders.
	GateReason string
	// Reservation says, for SELL orders, whether units are reserved for this order.
	Reservation ReservationState
	// ReservationMessage says why a reservation was refused, e.g. "Insufficient holdings:
	// 40 units requested, 20 available".
	ReservationMessage string
	// Priced: spec.quote is present (admission computed it).
	Priced bool
	// UnpaidPolicy (forward pricing) is the share class's policy for a BUY by amount not
	// paid at its cut-off; "" is Cancel.
	UnpaidPolicy investv1.UnpaidPolicy
	// NextDealing (forward pricing, a BUY by amount past its cut-off) is the dealing date
	// after the order's, with its subscription cut-off: where NextDealingDate moves it.
	NextDealing *investv1.OrderDealing
}

// ReservationState says whether the units a SELL order sells are reserved for it. A sell
// never executes without a reservation, so that holdings cannot go negative.
type ReservationState int

const (
	// ReservationNotNeeded is the state of buy orders, which reserve nothing. On a sell it
	// is treated like ReservationPending.
	ReservationNotNeeded ReservationState = iota
	// ReservationPending: the reconciler has not yet reserved units for the sell.
	ReservationPending
	// ReservationHeld: the sell's units are reserved until the order is terminal.
	ReservationHeld
	// ReservationRefused: the account does not hold enough unlocked units.
	ReservationRefused
)

// String names the reservation state for messages and test output.
func (r ReservationState) String() string {
	switch r {
	case ReservationNotNeeded:
		return "NotNeeded"
	case ReservationPending:
		return "Pending"
	case ReservationHeld:
		return "Held"
	case ReservationRefused:
		return "Refused"
	}
	return fmt.Sprintf("ReservationState(%d)", int(r))
}

// Transition is one move of the lifecycle: the state to enter and why.
type Transition struct {
	// To is the state entered.
	To investv1.OrderState
	// Reason is CamelCase, for the history entry, the event and the conditions.
	Reason string
	// Message is a human-readable explanation, at most MaxMessageLength bytes.
	Message string
	// Refund, on a move to CANCELLED, is the refund the cancellation owes the customer.
	Refund *investv1.OrderRefund
}

// Wait says why a non-terminal order does not move now; the reconciler reports it in the
// Waiting condition.
type Wait struct {
	// Reason is CamelCase, e.g. AwaitingPaymentEvidence, MarketClosed.
	Reason string
	// Message is a human-readable explanation, at most MaxMessageLength bytes.
	Message string
}

// Decision is the outcome of Next: exactly one of Transition and Wait is set, or neither
// for a terminal order.
type Decision struct {
	// Transition, when set, is the one state change to write now.
	Transition *Transition
	// Wait, when set, is why the order stays where it is.
	Wait *Wait
	// CancellationRefused, when set, says why the cancellation requested on the order is
	// not honoured: it was requested past the point of no return, so the order goes on
	// (Transition or Wait as if none had been requested).
	CancellationRefused string
	// Redate, set beside a Wait, moves a forward order to another dealing date
	// (status.dealing): an unpaid BUY by amount at its cut-off, when its share class's
	// policy says NextDealingDate.
	Redate *investv1.OrderDealing
}

// MaxMessageLength is the longest message Next returns: the history entry's limit.
const MaxMessageLength = 1024

// Next decides the one move the order makes now, given the facts. It never skips a state:
// evidence recorded ahead of the order's state is held until the order gets there, and
// evidence of the other side is ignored.
func Next(o *investv1.Order, f Facts) Decision {
	state := o.Status.State
	if state.Terminal() {
		return Decision{}
	}
	if o.Spec.CancellationRequested {
		ok, refund, why := Cancellable(o)
		if ok {
			msg := "cancellation requested"
			if o.Spec.CancellationReason != "" {
				msg = o.Spec.CancellationReason
			}
			if !refund {
				return move(investv1.StateCancelled, ReasonCancellationRequested, msg)
			}
			r := NewRefund(o)
			d := move(investv1.StateCancelled, ReasonCancelledWithRefund, fmt.Sprintf("%s; the payment received is refunded: %s to payment method details %s with reference %s",
				msg, money.Format(r.Amount, string(r.Currency)), quoted(string(r.PaymentMethodDetailsID)), r.Reference))
			d.Transition.Refund = r
			return d
		}
		// Past the point of no return: the request is not honoured, the order goes on.
		d := next(o, f)
		d.CancellationRefused = truncate("cancellation requested but not honoured: " + why)
		return d
	}
	return next(o, f)
}

func next(o *investv1.Order, f Facts) Decision {
	state := o.Status.State
	if state == "" {
		switch {
		case !f.Priced:
			return move(investv1.StateCancelled, ReasonNotPriced,
				"the order has no quote: it was created without the admission webhook")
		case !f.FundFound:
			return move(investv1.StateCancelled, ReasonShareClassNotFound,
				fmt.Sprintf("no share class with ISIN %s and a fund exists", o.Spec.ISIN))
		}
		return move(investv1.StatePlaced, ReasonAccepted, "the order was accepted")
	}
	switch o.Spec.Side {
	case investv1.SideBuy:
		return nextBuy(o, f)
	case investv1.SideSell:
		return nextSell(o, f)
	}
	return wait(WaitInvalidState, fmt.Sprintf("the order has an unknown side %q", o.Spec.Side))
}

func nextBuy(o *investv1.Order, f Facts) Decision {
	ev := o.Status.Settlement
	switch o.Status.State {
	case investv1.StatePlaced:
		return move(investv1.StateAwaitingPayment, ReasonPaymentInstructionsIssued, paymentInstructions(o))
	case investv1.StateAwaitingPayment:
		if ev.PaymentReceived == nil {
			if Secondary(o) {
				if UnpaidAtDeadline(o, f.Now) {
					w := Window(o)
					return move(investv1.StateCancelled, ReasonUnpaidAtDeadline, fmt.Sprintf(
						"not paid by the order deadline %s of the matching window of %s: cancelled", w.Deadline.UTC().Format(time.RFC3339), w.Date))
				}
				return wait(WaitAwaitingPaymentEvidence, payBy(o))
			}
			if Forward(o) {
				if ByAmount(o) && !f.Now.Before(CutOff(o)) {
					return unpaidAtCutOff(o, f)
				}
				return wait(WaitAwaitingPaymentEvidence, payBy(o))
			}
			return wait(WaitAwaitingPaymentEvidence, "waiting for the customer's payment to be recorded")
		}
		return move(investv1.StatePaymentReceived, ReasonPaymentReceived,
			"payment received with reference "+quoted(ev.PaymentReceived.Reference))
	case investv1.StatePaymentReceived:
		if !f.FundFound {
			return fundMissing(o)
		}
		if Secondary(o) {
			// The window checked the market when it matched; a fill is executed as written.
			return secondaryExecute(o)
		}
		if d, closed := marketClosed(o, f); closed {
			return d
		}
		if Forward(o) {
			return forwardExecute(o, "")
		}
		return move(investv1.StateExecuted, ReasonExecuted,
			fmt.Sprintf("executed on the %s market", o.Spec.Market))
	case investv1.StateExecuted:
		if ev.DeliveryInitiated == nil {
			if w := chainProblem(o, mintOrTransfer(o)); w != nil {
				return Decision{Wait: w}
			}
			return wait(WaitAwaitingDeliveryEvidence, "waiting for the token transfer to be submitted")
		}
		return move(investv1.StateDeliveryInitiated, ReasonDeliveryInitiated,
			"token transfer submitted in transaction "+quoted(ev.DeliveryInitiated.TransactionHash))
	case investv1.StateDeliveryInitiated:
		if ev.DeliveryCompleted == nil {
			if w := chainProblem(o, mintOrTransfer(o)); w != nil {
				return Decision{Wait: w}
			}
			return wait(WaitAwaitingDeliveryEvidence, "waiting for the token transfer to be final")
		}
		msg := "token transfer is final"
		if h := ev.DeliveryCompleted.TransactionHash; h != "" {
			msg += " in transaction " + h
		}
		return move(investv1.StateDeliveryCompleted, ReasonDeliveryCompleted, msg)
	case investv1.StateDeliveryCompleted:
		if ResidualOutstanding(o) {
			return Decision{Wait: residualWait(o)}
		}
		return move(investv1.StateCompleted, ReasonSettled, "the order is settled")
	}
	return invalidState(o)
}

func nextSell(o *investv1.Order, f Facts) Decision {
	ev := o.Status.Settlement
	switch o.Status.State {
	case investv1.StatePlaced:
		switch f.Reservation {
		case ReservationRefused:
			msg := f.ReservationMessage
			if msg == "" {
				msg = "insufficient holdings"
			}
			return move(investv1.StateCancelled, ReasonInsufficientHoldings, msg)
		case ReservationHeld:
		default:
			return wait(WaitAwaitingReservation, "waiting for the units to be reserved")
		}
		if !f.FundFound {
			return fundMissing(o)
		}
		if Secondary(o) {
			return secondaryExecute(o)
		}
		if f.GateActive {
			return move(investv1.StateRedemptionGated, ReasonRedemptionGateActive, gateMessage(f))
		}
		if Forward(o) && Carried(o) && o.Status.Strike == nil {
			return move(investv1.StateRedemptionGated, ReasonRedemptionCarriedForward, carriedMessage(o))
		}
		if d, closed := marketClosed(o, f); closed {
			return d
		}
		if Forward(o) {
			return forwardExecute(o, "")
		}
		return move(investv1.StateExecuted, ReasonExecuted,
			fmt.Sprintf("executed on the %s market", o.Spec.Market))
	case investv1.StateRedemptionGated:
		if !f.FundFound {
			return fundMissing(o)
		}
		if f.GateActive {
			return wait(WaitRedemptionGated, gateMessage(f))
		}
		if d, closed := marketClosed(o, f); closed {
			return d
		}
		if Forward(o) {
			if Carried(o) {
				return forwardExecute(o, "") // priced at its dealing date's strike
			}
			return forwardExecute(o, ReasonRedemptionGateLifted)
		}
		return move(investv1.StateExecuted, ReasonRedemptionGateLifted,
			fmt.Sprintf("the redemption gate lifted; executed on the %s market", o.Spec.Market))
	case investv1.StateExecuted:
		if ev.PaymentSent == nil && Secondary(o) && ev.UnitsDelivered == nil {
			return unitsDeliveredWait(o)
		}
		if ev.PaymentSent == nil {
			if w := chainProblem(o, "burn"); w != nil {
				return Decision{Wait: w}
			}
			if ev.TokensBurned == nil && o.Status.Chain != nil {
				return wait(WaitAwaitingBurnEvidence, "waiting for the units sold to be burned")
			}
			if w := PayoutProblem(o, investv1.PurposePayout); w != nil {
				return Decision{Wait: w}
			}
			return wait(WaitAwaitingPayoutEvidence, "waiting for the payout to be sent")
		}
		return move(investv1.StatePaymentSent, ReasonPaymentSent,
			"payout sent with reference "+quoted(ev.PaymentSent.Reference))
	case investv1.StatePaymentSent:
		if ev.PaymentCompleted == nil {
			if w := PayoutProblem(o, investv1.PurposePayout); w != nil {
				return Decision{Wait: w}
			}
			return wait(WaitAwaitingPayoutEvidence, "waiting for the payout to arrive")
		}
		msg := "payout arrived"
		if r := ev.PaymentCompleted.Reference; r != "" {
			msg += " with reference " + r
		}
		return move(investv1.StatePaymentCompleted, ReasonPaymentCompleted, msg)
	case investv1.StatePaymentCompleted:
		return move(investv1.StateCompleted, ReasonSettled, "the order is settled")
	}
	return invalidState(o)
}

// chainProblem is the Stalled wait of an order whose token transaction (what: mint or
// burn) the chain refused before it was sent, that was mined and reverted, or whose nonce
// a transaction not recorded here took; nil otherwise. A transaction that reverted because
// the effect was already applied (status.chain.recovered: the chain's evidence is
// recorded) is no problem.
func chainProblem(o *investv1.Order, what string) *Wait {
	c := o.Status.Chain
	if c == nil {
		return nil
	}
	if t := c.Transaction; t != nil && t.Receipt != nil && t.Receipt.Status == investv1.ChainReceiptReverted && c.Recovered == nil {
		return &Wait{Reason: WaitTokenTransactionReverted, Message: truncate(fmt.Sprintf(
			"the %s transaction %s reverted in block %d: %s; it is not re-sent", what, t.Receipt.Hash, t.Receipt.BlockNumber, t.Receipt.RevertReason))}
	}
	if t := c.Transaction; t != nil && t.Receipt == nil && c.NonceTaken != nil {
		return &Wait{Reason: WaitTokenTransactionNonceTaken, Message: truncate(fmt.Sprintf(
			"nonce %d of the %s transaction: a transaction not recorded here was mined with this nonce: was the agent key used elsewhere? Nothing is re-sent", c.NonceTaken.Nonce, what))}
	}
	if c.Transaction == nil && c.Refused != nil {
		return &Wait{Reason: WaitTokenTransactionRefused, Message: truncate(fmt.Sprintf(
			"the chain refuses the %s: %s; nothing was sent", what, c.Refused.Reason))}
	}
	return nil
}

// mintOrTransfer names a BUY's token transaction: a mint, or a Secondary BUY's transfer
// from its sellers.
func mintOrTransfer(o *investv1.Order) string {
	if Secondary(o) {
		return "transfer"
	}
	return "mint"
}

// marketClosed returns a MarketClosed wait when the flag the order needs is false (or an
// InvalidState wait for an unknown market).
func marketClosed(o *investv1.Order, f Facts) (Decision, bool) {
	var open bool
	var flag string
	switch {
	case o.Spec.Market == investv1.MarketSecondary:
		open, flag = f.Tradeable, "tradeable"
	case o.Spec.Market == investv1.MarketPrimary && o.Spec.Side == investv1.SideBuy:
		open, flag = f.Subscribable, "subscribable"
	case o.Spec.Market == investv1.MarketPrimary && o.Spec.Side == investv1.SideSell:
		open, flag = f.Redeemable, "redeemable"
	default:
		return wait(WaitInvalidState, fmt.Sprintf("the order has an unknown market %q", o.Spec.Market)), true
	}
	if open {
		return Decision{}, false
	}
	return wait(WaitMarketClosed, fmt.Sprintf(
		"the fund is not %s: %s %s orders execute only while it is", flag, o.Spec.Market, o.Spec.Side)), true
}

func fundMissing(o *investv1.Order) Decision {
	return wait(WaitShareClassNotFound,
		fmt.Sprintf("no share class with ISIN %s and a fund exists, so the market is unknown", o.Spec.ISIN))
}

func gateMessage(f Facts) string {
	if f.GateReason == "" {
		return "the fund's redemption gate is active"
	}
	return "the fund's redemption gate is active: " + f.GateReason
}

func paymentInstructions(o *investv1.Order) string {
	q := o.Spec.Quote
	if CarriedBuy(o) && q != nil {
		return fmt.Sprintf("no payment is asked for: the order is paid with the %s carried from order %s",
			money.Format(q.Amount, string(o.Spec.Currency)), o.Spec.CarriedFrom)
	}
	if CashOnChain(o) && o.Spec.Side == investv1.SideBuy {
		msg := fmt.Sprintf("escrow %s units of the cash token %s at the settlement contract %s under reference %s",
			strconv.FormatInt(q.Amount, 10), q.CashOnChain.CashToken, q.CashOnChain.Settlement, q.CashOnChain.EscrowReference)
		if w := Window(o); w != nil {
			msg += fmt.Sprintf(" by %s, the order deadline of the matching window of %s", w.Deadline.UTC().Format(time.RFC3339), w.Date)
		}
		return msg
	}
	if q == nil || q.PaymentDetails == nil {
		return "payment instructions issued"
	}
	pd := q.PaymentDetails
	if w := Window(o); w != nil {
		return fmt.Sprintf("transfer %s to %s (%s) quoting reference %s by %s, the order deadline of the matching window of %s",
			money.Format(q.Amount, string(o.Spec.Currency)), pd.IBAN, pd.AccountHolderName, pd.PaymentReference,
			w.Deadline.UTC().Format(time.RFC3339), w.Date)
	}
	if Forward(o) {
		if !ByAmount(o) {
			return fmt.Sprintf("the strike of dealing date %s fixes the amount to pay: transfer it to %s (%s) quoting reference %s",
				DealingDate(o), pd.IBAN, pd.AccountHolderName, pd.PaymentReference)
		}
		return fmt.Sprintf("transfer %s to %s (%s) quoting reference %s by %s, the cut-off of dealing date %s",
			money.Format(q.Amount, string(o.Spec.Currency)), pd.IBAN, pd.AccountHolderName, pd.PaymentReference,
			CutOff(o).UTC().Format(time.RFC3339), DealingDate(o))
	}
	return fmt.Sprintf("transfer %s to %s (%s) quoting reference %s",
		money.Format(q.Amount, string(o.Spec.Currency)), pd.IBAN, pd.AccountHolderName, pd.PaymentReference)
}

func invalidState(o *investv1.Order) Decision {
	return wait(WaitInvalidState, fmt.Sprintf("state %q does not belong to a %s order", o.Status.State, o.Spec.Side))
}

func quoted(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func move(to investv1.OrderState, reason, msg string) Decision {
	return Decision{Transition: &Transition{To: to, Reason: reason, Message: truncate(msg)}}
}

func wait(reason, msg string) Decision {
	return Decision{Wait: &Wait{Reason: reason, Message: truncate(msg)}}
}

// truncate keeps messages within the history entry's limit without splitting a rune.
func truncate(s string) string {
	if len(s) <= MaxMessageLength {
		return s
	}
	cut := MaxMessageLength - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

var (
	buyPath = []investv1.OrderState{
		investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived,
		investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted,
		investv1.StateCompleted,
	}
	sellPath = []investv1.OrderState{
		investv1.StatePlaced, investv1.StateExecuted, investv1.StatePaymentSent,
		investv1.StatePaymentCompleted, investv1.StateCompleted,
	}
)

// Path is the happy path of a side from PLACED to COMPLETED (REDEMPTION_GATED, a detour,
// is omitted for sells), or nil for an unknown side. Callers get a fresh copy.
func Path(side investv1.OrderSide) []investv1.OrderState {
	switch side {
	case investv1.SideBuy:
		return append([]investv1.OrderState(nil), buyPath...)
	case investv1.SideSell:
		return append([]investv1.OrderState(nil), sellPath...)
	}
	return nil
}

// HistoryStates lists the states of a status history, for ValidHistory.
func HistoryStates(h []investv1.OrderTransition) []investv1.OrderState {
	out := make([]investv1.OrderState, len(h))
	for i, t := range h {
		out[i] = t.State
	}
	return out
}

// ErrInvalidHistory is wrapped by every error of ValidHistory.
var ErrInvalidHistory = errors.New("invalid order history")

// ValidHistory checks that a history is a walk along the side's path that enters every
// state once, skips none, takes the REDEMPTION_GATED detour (sells) only between PLACED
// and EXECUTED, and ends with CANCELLED if it contains it. An empty history (an order not
// yet accepted) is valid. It is what "each transition exactly once, also across restarts"
// means, so tests check restarts with it.
func ValidHistory(side investv1.OrderSide, history []investv1.OrderState) error {
	path := Path(side)
	if path == nil {
		return fmt.Errorf("%w: unknown side %q", ErrInvalidHistory, side)
	}
	seen := make(map[investv1.OrderState]int, len(history))
	var prev investv1.OrderState // "" before the first entry: the new order
	for i, s := range history {
		if j, dup := seen[s]; dup {
			return fmt.Errorf("%w: %s entered twice (entries %d and %d)", ErrInvalidHistory, s, j, i)
		}
		seen[s] = i
		if prev.Terminal() {
			return fmt.Errorf("%w: entry %d (%s) follows the terminal state %s", ErrInvalidHistory, i, s, prev)
		}
		if !successor(side, path, prev, s) {
			if prev == "" {
				return fmt.Errorf("%w: the first entry is %s, want %s or %s",
					ErrInvalidHistory, s, investv1.StatePlaced, investv1.StateCancelled)
			}
			return fmt.Errorf("%w: entry %d: %s does not follow %s on a %s order",
				ErrInvalidHistory, i, s, prev, side)
		}
		prev = s
	}
	return nil
}

// successor reports whether next may directly follow prev ("" is the new order).
func successor(side investv1.OrderSide, path []investv1.OrderState, prev, next investv1.OrderState) bool {
	if next == investv1.StateCancelled {
		return !prev.Terminal()
	}
	if side == investv1.SideSell {
		if prev == investv1.StatePlaced && next == investv1.StateRedemptionGated {
			return true
		}
		if prev == investv1.StateRedemptionGated {
			return next == investv1.StateExecuted
		}
	}
	if prev == "" {
		return next == investv1.StatePlaced
	}
	for i := 0; i+1 < len(path); i++ {
		if path[i] == prev {
			return path[i+1] == next
		}
	}
	return false
}
