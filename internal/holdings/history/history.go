// Package history reads what an account's holdings are computed from: its orders in the
// cluster and in the order archive, and the transfers indexed from the chain, in the order
// that keeps them whole while the retention controller moves orders to the archive. The
// computation itself is internal/holdings (pure); this package does the reads, for the
// account and order controllers, admission and REST alike.
package history

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// Archive reads the orders that the retention controller (controllers/retention) moved out
// of the cluster into the order archive (internal/archive). Archived orders are done
// (terminal, no refund outstanding) and never change again.
type Archive interface {
	// Holdings sums the account's archived COMPLETED orders (archive.Store.Holdings):
	// the cost grows with the account's ISINs and its buys since foldBefore, not with its
	// history. Counted names the UIDs among live that are archived too.
	Holdings(ctx context.Context, namespace, accountID string, foldBefore time.Time, live []types.UID) (holdings.Summary, error)
	// Get returns an archived order (archive.ErrNotFound when there is none).
	Get(ctx context.Context, namespace, id string) (*investv1.Order, error)
}

// ErrArchiveUnavailable says that the order archive could not be read, so the account's
// holdings cannot be known: whatever needs them (a sell's check, the account's status,
// its deletion) refuses to go on rather than decide on part of the history.
var ErrArchiveUnavailable = errors.New("the order archive is unavailable")

// History is what an account's holdings are computed from: its live orders, the summary
// of its archived ones and the share classes' lock-ups.
type History struct {
	// Live are the account's orders in the cluster (as the reader saw them).
	Live []investv1.Order
	// Archived sums the archived ones; nil when there is no archive.
	Archived *holdings.Summary
	// LockUps are the share classes' lock-ups in days, by ISIN.
	LockUps map[investv1.ISIN]int32
	// Transfers are the account's sides of on-chain transfers between holders (by the
	// account label), as the reader saw them.
	Transfers []investv1.Transfer
}

// FoldBefore is the cut-off before which the archive may sum an account's buys into one
// lot: a day more than the longest lock-up before now, so that every buy it sums is
// unlocked whatever its share class (holdings.Summary).
func FoldBefore(lockUps map[investv1.ISIN]int32, now time.Time) time.Time {
	longest := int32(0)
	for _, days := range lockUps {
		longest = max(longest, days)
	}
	return now.AddDate(0, 0, -int(longest)-1)
}

// AccountHistory reads an account's history for its holdings at now: the live orders
// from c (by the account index), its Transfers (by the account label), then the summary of the archived completed ones, asking
// the archive which of the live completed orders it counts already (holdings.Compute then
// counts each once), and which orders named by reservations but not live are archived
// (their reservations hold nothing).
//
// The order of the reads is what makes a lagging cache harmless. The retention controller
// deletes an order from the cluster only after its archive write is durable and read back.
// So an order missing from c's list was either never in the cluster, or its deletion had
// happened when c saw it, which is after its archive write: the archive read that starts
// afterwards finds it (the store answers reads after writes). An order in both counts
// once. Nothing disappears, nothing counts twice. A nil archive means there is none (no
// retention).
func Load(ctx context.Context, c client.Reader, a Archive, acct *investv1.Account, now time.Time) (History, error) {
	var live investv1.OrderList
	if err := c.List(ctx, &live, client.InNamespace(acct.Namespace), client.MatchingFields{index.OrderAccount: acct.Name}); err != nil {
		return History{}, err
	}
	lockUps, err := LockUps(ctx, c)
	if err != nil {
		return History{}, err
	}
	var transfers investv1.TransferList
	if err := c.List(ctx, &transfers, client.InNamespace(acct.Namespace), client.MatchingLabels{investv1.LabelAccount: acct.Name}); err != nil {
		return History{}, err
	}
	h := History{Live: live.Items, LockUps: lockUps, Transfers: transfers.Items}
	if a == nil {
		return h, nil
	}
	h.Archived, err = ArchivedSummary(ctx, a, acct, live.Items, lockUps, now)
	return h, err
}

// ArchivedSummary reads the archive's part of an account's history at now, given its
// live orders (see AccountHistory) and the share classes' lock-ups; errors wrap
// ErrArchiveUnavailable.
//
// The archive sums the buys completed before FoldBefore into one lot, which is right
// while each of them is unlocked on chain. A lock-up shortened after units were minted
// under it leaves a summed buy locked longer (its mint wrote the release time into the
// token): the summed lot's latest release then lies ahead, and the archive is read again
// without summing, so that every lot has its own release, as the chain has it.
func ArchivedSummary(ctx context.Context, a Archive, acct *investv1.Account, live []investv1.Order, lockUps map[investv1.ISIN]int32, now time.Time) (*holdings.Summary, error) {
	foldBefore := FoldBefore(lockUps, now)
	sum, err := archivedSummary(ctx, a, acct, live, foldBefore)
	if err != nil || !foldedLocked(sum, foldBefore, now) {
		return sum, err
	}
	return archivedSummary(ctx, a, acct, live, time.Time{})
}

// foldedLocked reports whether a lot the archive summed (completed before foldBefore) is
// still locked on chain at now.
func foldedLocked(sum *holdings.Summary, foldBefore, now time.Time) bool {
	for _, p := range sum.ByISIN {
		for _, b := range p.Bought {
			if b.CompletedAt.Unix() < foldBefore.Unix() && b.LockedUntil.After(now) {
				return true
			}
		}
	}
	return false
}

func archivedSummary(ctx context.Context, a Archive, acct *investv1.Account, live []investv1.Order, foldBefore time.Time) (*holdings.Summary, error) {
	unavailable := func(err error) error {
		return fmt.Errorf("%w: orders of account %s/%s: %w", ErrArchiveUnavailable, acct.Namespace, acct.Name, err)
	}
	var completed []types.UID
	seen := map[string]bool{}
	for i := range live {
		seen[live[i].Name] = true
		if live[i].Status.State == investv1.StateCompleted && live[i].UID != "" {
			completed = append(completed, live[i].UID)
		}
	}
	sum, err := a.Holdings(ctx, acct.Namespace, acct.Name, foldBefore, completed)
	if err != nil {
		return nil, unavailable(err)
	}
	sum.Finished = map[string]bool{}
	for _, res := range acct.Status.Reservations {
		name := string(res.Order)
		if seen[name] || sum.Finished[name] {
			continue
		}
		switch _, err := a.Get(ctx, acct.Namespace, name); {
		case err == nil:
			sum.Finished[name] = true
		case !errors.Is(err, archive.ErrNotFound):
			return nil, unavailable(err)
		}
	}
	return &sum, nil
}

// Positions computes the account's positions at now from its history, counting its
// reservations and transfers (holdings.Compute).
func (h History) Positions(acct *investv1.Account, now time.Time) map[investv1.ISIN]*holdings.Position {
	return holdings.Compute(holdings.Input{
		Orders: h.Live, Archived: h.Archived, Reservations: acct.Status.Reservations, Now: now, Transfers: h.Transfers,
		LockUpDays: func(isin investv1.ISIN) int32 { return h.LockUps[isin] },
	})
}

// Positions computes an account's holdings at now from its history (Load), live
// and archived. When the archive cannot be read the error wraps ErrArchiveUnavailable and
// there are no positions.
func Positions(ctx context.Context, c client.Reader, a Archive, acct *investv1.Account, now time.Time) (map[investv1.ISIN]*holdings.Position, error) {
	h, err := Load(ctx, c, a, acct, now)
	if err != nil {
		return nil, err
	}
	return h.Positions(acct, now), nil
}

// LockUps reads every share class's lock-up in days by ISIN.
func LockUps(ctx context.Context, c client.Reader) (map[investv1.ISIN]int32, error) {
	var classes investv1.ShareClassList
	if err := c.List(ctx, &classes); err != nil {
		return nil, err
	}
	out := make(map[investv1.ISIN]int32, len(classes.Items))
	for _, sc := range classes.Items {
		out[sc.Spec.ISIN] = sc.Spec.LockUp
	}
	return out, nil
}
