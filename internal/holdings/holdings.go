// Package holdings computes what an account owns per ISIN from its orders, as a pure
// function: units come from completed buys (one lot per order, locked until the release
// time its mint wrote on chain, status.chain.lockedUntil, or else for the share class's
// lock-up in days after completion), completed sells consume the oldest lots
// first, and units reserved for live sells are not available again. After the sells are
// consumed, the lots that have unlocked fold into one lot per ISIN, so that a position
// (and the account's status) is bounded by the buys within the lock-up window, not by the
// account's history. The orders are the account's live ones; its archived ones come as a
// Summary (internal/archive sums them in the database, so that reading an account's
// history costs a few rows per ISIN and one per buy within the lock-up window, not every
// order ever placed). The account controller writes the result into the account's status,
// placement checks sells with it, and the order controller reserves units against it.
//
// Holdings follow the token: the account's on-chain transfers between holders (Transfer
// objects, written by the transfer indexer) count too. Units received by transfer are a
// lot acquired at the block's time and already unlocked; units transferred out leave the
// unlocked lots first (oldest first), after the sells, then the locked ones. So units per
// ISIN = completed buys - completed sells + transfers in - transfers out.
package holdings

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Lot is a number of units bought by one order.
type Lot struct {
	Units      int64
	AcquiredAt time.Time
	UnlocksAt  time.Time
	// Received units came by a holder transfer: the sender could move them, so they are
	// unlocked, whatever the block's time says (a block is dated by its producer's clock,
	// which may run ahead of ours).
	Received bool
}

// locked says whether the lot's units are locked at now.
func (l Lot) locked(now time.Time) bool { return !l.Received && l.UnlocksAt.After(now) }

// Position is what an account owns of one ISIN.
type Position struct {
	ISIN investv1.ISIN
	// Units owned (bought minus sold).
	Units int64
	// Locked units are younger than the lock-up.
	Locked int64
	// Reserved units are promised to live sell orders.
	Reserved int64
	// TransferredIn and TransferredOut are the units the account's wallets received from
	// and sent to other holders on chain (counted in Units).
	TransferredIn, TransferredOut int64
	// Subscribed and Redeemed are the units of the completed PRIMARY BUYs and SELLs
	// (issued by the fund and redeemed by it); SecondaryBought and SecondarySold those of
	// the completed SECONDARY BUYs and SELLs (moved from and to other investors in
	// matching windows). Units = Subscribed − Redeemed + SecondaryBought − SecondarySold
	// + TransferredIn − TransferredOut.
	Subscribed, Redeemed, SecondaryBought, SecondarySold int64
	// Lots that make up Units, oldest first: one per completed buy that is still locked,
	// and at most one for every unit past its lock-up (see foldUnlocked).
	Lots []Lot
}

// Free is what a new sell may still claim in total.
func (p Position) Free() int64 { return max(0, p.Units-p.Reserved) }

// Redeemable is what a new sell may claim now: unlocked and not reserved. Reservations
// were checked against unlocked units, so they consume unlocked units first.
func (p Position) Redeemable() int64 { return max(0, p.Units-p.Locked-p.Reserved) }

// NextUnlock is the earliest time a locked lot unlocks, or zero.
func (p Position) NextUnlock(now time.Time) time.Time {
	var next time.Time
	for _, l := range p.Lots {
		if l.locked(now) && (next.IsZero() || l.UnlocksAt.Before(next)) {
			next = l.UnlocksAt
		}
	}
	return next
}

// Input is everything the computation needs.
type Input struct {
	// Orders are the account's orders.
	Orders []investv1.Order
	// Reservations are the account's unit reservations (from its status).
	Reservations []investv1.UnitReservation
	// LockUpDays gives the lock-up of a share class by ISIN.
	LockUpDays func(investv1.ISIN) int32
	// Now is the time of the computation.
	Now time.Time
	// Exclude is an order whose own reservation is left out (when checking that order).
	Exclude string
	// Archived is what the account's archived orders add; nil when there is no archive.
	// A live order it counts already (Summary.Counted) is left out of Orders.
	Archived *Summary
	// Transfers are the account's sides of on-chain transfers between holders.
	Transfers []investv1.Transfer
}

// Summary is what an account's archived COMPLETED orders add to its holdings, by ISIN:
// the units they sold, and the units they bought as lots dated by completion. Buys that
// completed before a cut-off older than every share class's lock-up may come summed into
// one lot dated by the latest of them: they are unlocked whatever the lock-up, so the
// figures and the folded lot (foldUnlocked) come out as from the single buys.
type Summary struct {
	// ByISIN is the archived history per ISIN.
	ByISIN map[investv1.ISIN]ArchivedPosition
	// Counted are the UIDs, among the live orders the caller asked about, that the summary
	// counts already: archived and not yet deleted from the cluster (or deleted and still
	// in a lagging cache). Compute leaves their live copies out, so each order counts once.
	Counted map[types.UID]bool
	// Finished names archived orders (archived orders are finished) that reservations
	// name while the caller does not see them live: such a reservation holds nothing (an
	// archived sell is counted in Sold). The caller looks them up (placement does);
	// a reservation of an order neither live nor named here still holds its units.
	Finished map[string]bool
}

// ArchivedPosition is the archived history of one ISIN.
type ArchivedPosition struct {
	// Sold is the units of the archived completed sells.
	Sold int64
	// Bought are the archived completed buys: units and completion time.
	Bought []Bought
	// SecondarySold and SecondaryBought are the units of the SECONDARY orders among them
	// (counted in Sold and Bought too), so that a portfolio shows the trades between
	// investors apart from subscriptions and redemptions.
	SecondarySold, SecondaryBought int64
}

// Bought is a number of units bought, when the buy completed, and the release time its
// mint wrote on chain (status.chain.lockedUntil; zero when none was recorded). For the
// buys the archive sums into one lot, CompletedAt is the latest completion and
// LockedUntil the latest release among them.
type Bought struct {
	Units       int64
	CompletedAt time.Time
	LockedUntil time.Time
}

// CompletedAt is when an order entered COMPLETED (its last history entry).
func CompletedAt(o *investv1.Order) time.Time {
	for i := len(o.Status.History) - 1; i >= 0; i-- {
		if o.Status.History[i].State == investv1.StateCompleted {
			return o.Status.History[i].At.Time
		}
	}
	return o.CreationTimestamp.Time
}

// LockedUntil is the release time the order's mint wrote into the token
// (status.chain.lockedUntil), or zero when none was recorded (no lock-up, sandbox mode, or
// minted before lock-ups were written on chain): then the lot unlocks at completion plus
// the lock-up. The holder can move on chain exactly the units the books call unlocked.
func LockedUntil(o *investv1.Order) time.Time {
	if c := o.Status.Chain; c != nil && c.LockedUntil != nil {
		return c.LockedUntil.Time
	}
	return time.Time{}
}

// Compute returns the positions by ISIN, the unlocked lots of each folded into one.
func Compute(in Input) map[investv1.ISIN]*Position {
	positions := computeLots(in)
	for _, p := range positions {
		p.Lots = foldUnlocked(p.Lots, in.Now)
	}
	return positions
}

// foldUnlocked replaces the lots whose lock-up has ended (UnlocksAt not after now) by one
// lot: their units summed, AcquiredAt the latest acquisition folded, UnlocksAt the latest
// unlock folded (not after now). Locked lots stay as they are, and the result stays oldest
// first. It runs after the sells consumed the oldest lots (FIFO), so it changes no figure:
// units, locked units and the next unlock only read the locked lots and the sum. The
// latest acquisition (not the oldest) is what makes the fold independent of how the
// history was summed: FIFO consumes the newest unlocked lot last, so while any unlocked
// unit is left, the newest unlocked buy is among the lots folded, whether the older buys
// came one by one or summed (Summary).
func foldUnlocked(lots []Lot, now time.Time) []Lot {
	var folded Lot
	n := 0
	out := make([]Lot, 0, len(lots))
	for _, l := range lots {
		if l.locked(now) {
			out = append(out, l)
			continue
		}
		if n == 0 || l.AcquiredAt.After(folded.AcquiredAt) {
			folded.AcquiredAt = l.AcquiredAt
		}
		if n == 0 || l.UnlocksAt.After(folded.UnlocksAt) {
			folded.UnlocksAt = l.UnlocksAt
		}
		folded.Units += l.Units
		folded.Received = folded.Received || l.Received // unlocked whatever its time says
		n++
	}
	if n == 0 {
		return lots
	}
	out = append(out, folded)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.AcquiredAt.Before(b.AcquiredAt) || a.AcquiredAt.Equal(b.AcquiredAt) && a.UnlocksAt.Before(b.UnlocksAt)
	})
	return out
}

// computeLots is Compute before folding: one lot per completed buy left after the sells
// (an archived summed lot counting as one).
func computeLots(in Input) map[investv1.ISIN]*Position {
	positions := map[investv1.ISIN]*Position{}
	pos := func(isin investv1.ISIN) *Position {
		p, ok := positions[isin]
		if !ok {
			p = &Position{ISIN: isin}
			positions[isin] = p
		}
		return p
	}
	lot := func(isin investv1.ISIN, units int64, at time.Time) Lot {
		days := int32(0)
		if in.LockUpDays != nil {
			days = in.LockUpDays(isin)
		}
		return Lot{Units: units, AcquiredAt: at, UnlocksAt: at.AddDate(0, 0, int(days))}
	}
	sold := map[investv1.ISIN]int64{}
	out := map[investv1.ISIN]int64{}
	// A move between two wallets of the account itself (both sides of one Transfer event
	// are the account's: a holder's own move, or a lost-key recovery, which carries the
	// locks with the units) changes no lot: the units keep their age and their lock.
	type event struct {
		tx    string
		index int64
	}
	sides := map[event]int{}
	for i := range in.Transfers {
		t := &in.Transfers[i].Spec
		sides[event{strings.ToLower(t.TransactionHash), t.LogIndex}]++
	}
	for i := range in.Transfers {
		t := &in.Transfers[i].Spec
		p := pos(t.ISIN)
		own := sides[event{strings.ToLower(t.TransactionHash), t.LogIndex}] > 1
		switch t.Direction {
		case investv1.TransferIn:
			p.TransferredIn += t.Units
			if !own {
				// Received units are unlocked: the sender could move them, so they were.
				// A block is dated by its producer's clock, which may run ahead of ours (a
				// local chain seals blocks ahead of the wall clock): the lot is never locked
				// for that difference.
				p.Lots = append(p.Lots, Lot{Units: t.Units, AcquiredAt: t.BlockTime.Time, UnlocksAt: t.BlockTime.Time, Received: true})
			}
		case investv1.TransferOut:
			p.TransferredOut += t.Units
			if !own {
				out[t.ISIN] += t.Units
			}
		}
	}
	state := map[string]investv1.OrderState{}
	for i := range in.Orders {
		o := &in.Orders[i]
		state[o.Name] = o.Status.State
		if o.Status.State != investv1.StateCompleted || in.Archived != nil && o.UID != "" && in.Archived.Counted[o.UID] {
			continue
		}
		pos(o.Spec.ISIN).count(o.Spec.Side, o.Spec.Market, lifecycle.Units(o))
		switch o.Spec.Side {
		case investv1.SideBuy:
			p := pos(o.Spec.ISIN)
			l := lot(o.Spec.ISIN, lifecycle.Units(o), CompletedAt(o))
			if until := LockedUntil(o); !until.IsZero() {
				l.UnlocksAt = until
			}
			p.Lots = append(p.Lots, l)
		case investv1.SideSell:
			sold[o.Spec.ISIN] += lifecycle.Units(o)
			pos(o.Spec.ISIN)
		}
	}
	if in.Archived != nil {
		for isin, a := range in.Archived.ByISIN {
			p := pos(isin)
			sold[isin] += a.Sold
			p.Redeemed += a.Sold - a.SecondarySold
			p.SecondarySold += a.SecondarySold
			p.SecondaryBought += a.SecondaryBought
			p.Subscribed -= a.SecondaryBought // Bought holds the secondary buys too
			for _, b := range a.Bought {
				p.Subscribed += b.Units
				l := lot(isin, b.Units, b.CompletedAt)
				if !b.LockedUntil.IsZero() {
					l.UnlocksAt = b.LockedUntil
				}
				p.Lots = append(p.Lots, l)
			}
		}
	}
	for isin, p := range positions {
		// Oldest first; lots acquired in the same second by size, so that the result does
		// not depend on the order in which the orders were listed.
		sort.SliceStable(p.Lots, func(i, j int) bool {
			a, b := p.Lots[i], p.Lots[j]
			return a.AcquiredAt.Before(b.AcquiredAt) || a.AcquiredAt.Equal(b.AcquiredAt) && a.Units < b.Units
		})
		remaining := sold[isin]
		lots := p.Lots[:0]
		for _, l := range p.Lots {
			take := min(l.Units, remaining)
			remaining -= take
			l.Units -= take
			if l.Units > 0 {
				lots = append(lots, l)
			}
		}
		p.Lots = transferOut(lots, out[isin], in.Now)
		for _, l := range p.Lots {
			p.Units += l.Units
			if l.locked(in.Now) {
				p.Locked += l.Units
			}
		}
	}
	for _, r := range in.Reservations {
		if string(r.Order) == in.Exclude {
			continue
		}
		// A completed sell is already counted as sold; a cancelled one holds nothing. An
		// order the caller does not see yet still holds its units (the cache may lag).
		if s := state[string(r.Order)]; s == investv1.StateCompleted || s == investv1.StateCancelled {
			continue
		}
		if _, live := state[string(r.Order)]; !live && in.Archived != nil && in.Archived.Finished[string(r.Order)] {
			continue
		}
		pos(r.ISIN).Reserved += r.Units
	}
	return positions
}

// count adds a completed order's units to the figure of its side and market.
func (p *Position) count(side investv1.OrderSide, market investv1.Market, units int64) {
	switch {
	case side == investv1.SideBuy && market == investv1.MarketSecondary:
		p.SecondaryBought += units
	case side == investv1.SideBuy:
		p.Subscribed += units
	case market == investv1.MarketSecondary:
		p.SecondarySold += units
	default:
		p.Redeemed += units
	}
}

// transferOut takes units transferred out of lots (oldest first): from the unlocked lots
// first, as only those can move on chain, then from the locked ones (the books follow the
// chain whatever it allowed). Lots left empty are dropped.
func transferOut(lots []Lot, units int64, now time.Time) []Lot {
	for _, unlockedOnly := range []bool{true, false} {
		for i := range lots {
			if units == 0 {
				break
			}
			if unlockedOnly && lots[i].locked(now) {
				continue
			}
			take := min(lots[i].Units, units)
			lots[i].Units -= take
			units -= take
		}
	}
	kept := lots[:0]
	for _, l := range lots {
		if l.Units > 0 {
			kept = append(kept, l)
		}
	}
	return kept
}

// SellCheck says whether a sell of units of isin fits the positions, and why not. Code is
// "Insufficient holdings" or "Shares locked", the messages REST and admission show.
func SellCheck(positions map[investv1.ISIN]*Position, isin investv1.ISIN, units int64) (code, message string, ok bool) {
	p := positions[isin]
	if p == nil {
		p = &Position{ISIN: isin}
	}
	switch {
	case units > p.Free():
		return CodeInsufficientHoldings, fmt.Sprintf("%d units of %s requested, %d held and not reserved", units, isin, p.Free()), false
	case units > p.Redeemable():
		return CodeSharesLocked, fmt.Sprintf("%d units of %s requested, %d redeemable now (%d locked until their lock-up ends)", units, isin, p.Redeemable(), p.Locked), false
	}
	return "", "", true
}

// Codes of refused sells.
const (
	CodeInsufficientHoldings = "Insufficient holdings"
	CodeSharesLocked         = "Shares locked"
)

// ToStatus converts positions to the account's status form, sorted by ISIN.
func ToStatus(positions map[investv1.ISIN]*Position) []investv1.Holding {
	out := make([]investv1.Holding, 0, len(positions))
	for _, p := range positions {
		if p.Units == 0 && p.Reserved == 0 && p.TransferredIn == 0 && p.TransferredOut == 0 {
			continue
		}
		h := investv1.Holding{ISIN: p.ISIN, Units: p.Units, LockedUnits: p.Locked, ReservedUnits: p.Reserved,
			TransferredInUnits: p.TransferredIn, TransferredOutUnits: p.TransferredOut,
			SubscribedUnits: p.Subscribed, RedeemedUnits: p.Redeemed, SecondaryBoughtUnits: p.SecondaryBought, SecondarySoldUnits: p.SecondarySold}
		for _, l := range p.Lots {
			h.Lots = append(h.Lots, investv1.HoldingLot{Units: l.Units, AcquiredAt: metaTime(l.AcquiredAt), UnlocksAt: metaTime(l.UnlocksAt)})
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ISIN < out[j].ISIN })
	return out
}

// Summarize is the Summary of an account's archived orders, as the archive computes it in
// its database (internal/archive: the stores are tested against this function): the
// completed sells' units summed by ISIN, the completed buys that completed before
// foldBefore (in whole seconds) summed by ISIN into one lot dated by the latest of them,
// and the later buys one lot each, oldest first (then fewest units first, then earliest
// release). Each lot carries the release time its mint wrote on chain (LockedUntil), the
// summed one the latest of its buys'. Cancelled and live orders add nothing. Counted
// names the orders among live (UIDs) that are in archived.
//
// foldBefore must be older than every share class's lock-up (history.FoldBefore), so
// that every summed buy is unlocked whatever its lock-up; history.ArchivedSummary checks
// the summed lot's LockedUntil and sums nothing when a lock-up shortened since left a
// summed buy locked on chain.
func Summarize(archived []investv1.Order, foldBefore time.Time, live []types.UID) Summary {
	s := Summary{ByISIN: map[investv1.ISIN]ArchivedPosition{}, Counted: map[types.UID]bool{}}
	asked := map[types.UID]bool{}
	for _, uid := range live {
		asked[uid] = true
	}
	folded := map[investv1.ISIN]*Bought{}
	for i := range archived {
		o := &archived[i]
		if asked[o.UID] {
			s.Counted[o.UID] = true
		}
		if o.Status.State != investv1.StateCompleted {
			continue
		}
		a := s.ByISIN[o.Spec.ISIN]
		at := CompletedAt(o).UTC().Truncate(time.Second)
		if o.Spec.Market == investv1.MarketSecondary {
			if o.Spec.Side == investv1.SideSell {
				a.SecondarySold += lifecycle.Units(o)
			} else {
				a.SecondaryBought += lifecycle.Units(o)
			}
		}
		switch {
		case o.Spec.Side == investv1.SideSell:
			a.Sold += lifecycle.Units(o)
		case at.Unix() < foldBefore.Unix():
			f := folded[o.Spec.ISIN]
			if f == nil {
				f = &Bought{}
				folded[o.Spec.ISIN] = f
			}
			f.Units += lifecycle.Units(o)
			if at.After(f.CompletedAt) {
				f.CompletedAt = at
			}
			if until := archivedLockedUntil(o); until.After(f.LockedUntil) {
				f.LockedUntil = until
			}
		default:
			a.Bought = append(a.Bought, Bought{Units: lifecycle.Units(o), CompletedAt: at, LockedUntil: archivedLockedUntil(o)})
		}
		s.ByISIN[o.Spec.ISIN] = a
	}
	for isin, a := range s.ByISIN {
		if f := folded[isin]; f != nil {
			a.Bought = append([]Bought{*f}, a.Bought...)
		}
		sort.SliceStable(a.Bought, func(i, j int) bool {
			x, y := a.Bought[i], a.Bought[j]
			if !x.CompletedAt.Equal(y.CompletedAt) {
				return x.CompletedAt.Before(y.CompletedAt)
			}
			if x.Units != y.Units {
				return x.Units < y.Units
			}
			return x.LockedUntil.Before(y.LockedUntil)
		})
		s.ByISIN[isin] = a
	}
	return s
}

// archivedLockedUntil is LockedUntil in whole seconds, as the archive stores it.
func archivedLockedUntil(o *investv1.Order) time.Time {
	until := LockedUntil(o)
	if until.IsZero() {
		return until
	}
	return until.UTC().Truncate(time.Second)
}
