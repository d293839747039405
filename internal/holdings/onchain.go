package holdings

import (
	"fmt"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// NotBurnedBy is the units of the account's reservations of isin (leaving out exclude's)
// that are still in the on-chain figure of block: their sell's burn is not recorded as
// mined and successful at or below block (nor, for a SECONDARY SELL, the settlements that
// moved its units: burnedBy). Those units are on chain at block but promised
// to that sell. orders are the account's live orders; a reservation whose order is not
// among them counts in full.
func NotBurnedBy(reservations []investv1.UnitReservation, orders []investv1.Order, isin investv1.ISIN, exclude string, block int64) int64 {
	byName := make(map[string]*investv1.Order, len(orders))
	for i := range orders {
		byName[orders[i].Name] = &orders[i]
	}
	var units int64
	for _, r := range reservations {
		if r.ISIN != isin || string(r.Order) == exclude {
			continue
		}
		if o := byName[string(r.Order)]; o != nil && burnedBy(o, block) {
			continue
		}
		units += r.Units
	}
	return units
}

// MintedAfter is the units of isin the account's live BUYs minted after block: their
// recorded mint is final, succeeded and was mined above block, so the on-chain figure of
// block does not have them yet (a sell right after a buy completes counts them).
func MintedAfter(orders []investv1.Order, isin investv1.ISIN, block int64) int64 {
	var units int64
	for i := range orders {
		o := &orders[i]
		c := o.Status.Chain
		if o.Spec.Side != investv1.SideBuy || o.Spec.ISIN != isin || c == nil || c.Transaction == nil || c.Transaction.Receipt == nil {
			continue
		}
		if rc := c.Transaction.Receipt; rc.Status == investv1.ChainReceiptSucceeded && rc.BlockNumber > block {
			units += lifecycle.Units(o)
		}
	}
	return units
}

// burnedBy says whether the sell's units left the account on chain at or below block:
// its recorded burn was mined there and succeeded, or (a SECONDARY SELL, never burned)
// its unitsDelivered names the block of the last settlement that moved them to the
// buyers.
func burnedBy(o *investv1.Order, block int64) bool {
	if ud := o.Status.Settlement.UnitsDelivered; o.Spec.Market == investv1.MarketSecondary && ud != nil {
		return ud.BlockNumber > 0 && ud.BlockNumber <= block
	}
	c := o.Status.Chain
	if c == nil || c.Transaction == nil || c.Transaction.Receipt == nil {
		return false
	}
	rc := c.Transaction.Receipt
	return rc.Status == investv1.ChainReceiptSucceeded && rc.BlockNumber >= 0 && rc.BlockNumber <= block
}

// TransferredAfter is the net units of isin the account's wallets received (In) less
// those they sent (Out) by holder transfers mined above block: indexed Transfers the
// on-chain figure of block does not have yet (a sell right after a transfer in counts
// them; a move between two wallets of the account nets to zero).
func TransferredAfter(transfers []investv1.Transfer, isin investv1.ISIN, block int64) int64 {
	var units int64
	for i := range transfers {
		t := &transfers[i].Spec
		if t.ISIN != isin || t.BlockNumber <= block {
			continue
		}
		switch t.Direction {
		case investv1.TransferIn:
			units += t.Units
		case investv1.TransferOut:
			units -= t.Units
		}
	}
	return units
}

// OnChainCheck refuses a sell of units of isin beyond what the chain says the account
// holds: its units on chain at the recorded block, plus minted (MintedAfter: final mints
// of its buys above that block), plus transferred (TransferredAfter: holder transfers in
// less out above that block), less reserved (NotBurnedBy: the units of its other sells
// not burned by that block). An account without on-chain figures (no chain configured)
// is not checked here, only against the books (SellCheck).
func OnChainCheck(onChain *investv1.OnChainHoldings, isin investv1.ISIN, units, minted, transferred, reserved int64) (code, message string, ok bool) {
	if onChain == nil {
		return "", "", true
	}
	held := onChain.Units(isin)
	if free := held + minted + transferred - reserved; units > free {
		since := ""
		if minted > 0 {
			since = fmt.Sprintf(" (and %d minted since)", minted)
		}
		switch {
		case transferred > 0:
			since += fmt.Sprintf(" (and %d transferred in since)", transferred)
		case transferred < 0:
			since += fmt.Sprintf(" (and %d transferred out since)", -transferred)
		}
		return CodeInsufficientHoldings, fmt.Sprintf("%d units of %s requested, %d on chain at block %d%s, %d reserved by other sells not burned by then",
			units, isin, held, onChain.Block, since, reserved), false
	}
	return "", "", true
}
