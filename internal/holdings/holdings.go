// Package holdings computes what an account owns per ISIN from its orders, as a pure
// function: units come from completed buys (one lot per order, locked for the share
// class's lock-up in days after completion), completed sells consume the oldest lots
// first, and units reserved for live sells are not available again. After the sells are
// consumed, the lots that have unlocked fold into one lot per ISIN, so that a position
// (and the account's status) is bounded by the buys within the lock-up window, not by the
// account's history. The orders are the
// account's live ones and its archived ones (Merge counts each once). The account
// controller writes the result into the account's status, placement checks sells with it,
// and the order controller reserves units against it.
package holdings

import (
	"fmt"
	"sort"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Lot is a number of units bought by one order.
type Lot struct {
	Units      int64
	AcquiredAt time.Time
	UnlocksAt  time.Time
}

// Position is what an account owns of one ISIN.
type Position struct {
	ISIN investv1.ISIN
	// Units owned (bought minus sold).
	Units int64
	// Locked units are younger than the lock-up.
	Locked int64
	// Reserved units are promised to live sell orders.
	Reserved int64
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
		if l.UnlocksAt.After(now) && (next.IsZero() || l.UnlocksAt.Before(next)) {
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

// Compute returns the positions by ISIN, the unlocked lots of each folded into one.
func Compute(in Input) map[investv1.ISIN]*Position {
	positions := computeLots(in)
	for _, p := range positions {
		p.Lots = foldUnlocked(p.Lots, in.Now)
	}
	return positions
}

// foldUnlocked replaces the lots whose lock-up has ended (UnlocksAt not after now) by one
// lot: their units summed, AcquiredAt the oldest acquisition folded, UnlocksAt the latest
// unlock folded (not after now). Locked lots stay as they are, and the result stays oldest
// first. It runs after the sells consumed the oldest lots (FIFO), so it changes no figure:
// units, locked units and the next unlock only read the locked lots and the sum.
func foldUnlocked(lots []Lot, now time.Time) []Lot {
	var folded Lot
	n := 0
	out := make([]Lot, 0, len(lots))
	for _, l := range lots {
		if l.UnlocksAt.After(now) {
			out = append(out, l)
			continue
		}
		if n == 0 || l.AcquiredAt.Before(folded.AcquiredAt) {
			folded.AcquiredAt = l.AcquiredAt
		}
		if n == 0 || l.UnlocksAt.After(folded.UnlocksAt) {
			folded.UnlocksAt = l.UnlocksAt
		}
		folded.Units += l.Units
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

// computeLots is Compute before folding: one lot per completed buy left after the sells.
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
	sold := map[investv1.ISIN]int64{}
	state := map[string]investv1.OrderState{}
	for i := range in.Orders {
		o := &in.Orders[i]
		state[o.Name] = o.Status.State
		if o.Status.State != investv1.StateCompleted {
			continue
		}
		switch o.Spec.Side {
		case investv1.SideBuy:
			at := CompletedAt(o)
			days := int32(0)
			if in.LockUpDays != nil {
				days = in.LockUpDays(o.Spec.ISIN)
			}
			p := pos(o.Spec.ISIN)
			p.Lots = append(p.Lots, Lot{Units: o.Spec.AmountOfUnits, AcquiredAt: at, UnlocksAt: at.AddDate(0, 0, int(days))})
		case investv1.SideSell:
			sold[o.Spec.ISIN] += o.Spec.AmountOfUnits
			pos(o.Spec.ISIN)
		}
	}
	for isin, p := range positions {
		sort.SliceStable(p.Lots, func(i, j int) bool { return p.Lots[i].AcquiredAt.Before(p.Lots[j].AcquiredAt) })
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
		p.Lots = lots
		for _, l := range lots {
			p.Units += l.Units
			if l.UnlocksAt.After(in.Now) {
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
		pos(r.ISIN).Reserved += r.Units
	}
	return positions
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
		if p.Units == 0 && p.Reserved == 0 {
			continue
		}
		h := investv1.Holding{ISIN: p.ISIN, Units: p.Units, LockedUnits: p.Locked, ReservedUnits: p.Reserved}
		for _, l := range p.Lots {
			h.Lots = append(h.Lots, investv1.HoldingLot{Units: l.Units, AcquiredAt: metaTime(l.AcquiredAt), UnlocksAt: metaTime(l.UnlocksAt)})
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ISIN < out[j].ISIN })
	return out
}

// Merge joins an account's live orders with its archived ones (internal/archive) into the
// one list Compute takes. An order is in both while the retention controller has written
// it to the archive and not yet deleted it from the cluster, or while a cache still shows
// an order that was deleted: it counts once, by UID (the live copy wins; both are the same
// terminal order). An archived order whose name a live order with another UID now bears is
// kept too: they are two orders.
func Merge(live, archived []investv1.Order) []investv1.Order {
	if len(archived) == 0 {
		return live
	}
	seen := make(map[string]bool, len(live))
	for i := range live {
		seen[orderKey(&live[i])] = true
	}
	out := make([]investv1.Order, 0, len(live)+len(archived))
	out = append(out, live...)
	for i := range archived {
		if !seen[orderKey(&archived[i])] {
			seen[orderKey(&archived[i])] = true
			out = append(out, archived[i])
		}
	}
	return out
}

// orderKey identifies an order across the cluster and the archive: its UID, or its
// namespace and name when it has none (orders built by hand in tests).
func orderKey(o *investv1.Order) string {
	if o.UID != "" {
		return "uid:" + string(o.UID)
	}
	return "name:" + o.Namespace + "/" + o.Name
}
