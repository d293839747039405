package history_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
)

// TestAnArchivedBuyIsLockedUntilTheReleaseItsMintWroteOnChain: archived buys keep the lock
// the chain has, not their completion plus the share class's lock-up of today, also when
// the lock-up was shortened after a buy the archive would sum was minted under the longer
// one (then the archive is read without summing). On a real (SQLite) archive.
func TestAnArchivedBuyIsLockedUntilTheReleaseItsMintWroteOnChain(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	now := time.Now().UTC().Truncate(time.Second)
	const isin = investv1.ISIN("LU0000000001")
	buy := func(id string, completed time.Time, units int64, lockedUntil time.Time) *investv1.Order {
		return archivetest.Order("tenant-a", id, completed.Add(-time.Hour), func(o *investv1.Order) {
			o.Spec.AmountOfUnits = units
			o.Status.History[len(o.Status.History)-1].At = metav1.NewTime(completed)
			if !lockedUntil.IsZero() {
				until := metav1.NewTime(lockedUntil)
				o.Status.Chain = &investv1.OrderChainStatus{LockedUntil: &until}
			}
		})
	}
	days := func(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }
	orders := []*investv1.Order{
		// Minted under a lock-up of 410 days, since shortened to 30: still locked on chain.
		buy("00000000-0000-4000-8000-000000000001", now.Add(-days(400)), 7, now.Add(days(10))),
		// Long unlocked.
		buy("00000000-0000-4000-8000-000000000002", now.Add(-days(300)), 11, time.Time{}),
		// Within the lock-up: the chain releases it 5 days before completion + 30 days.
		buy("00000000-0000-4000-8000-000000000003", now.Add(-days(5)), 13, now.Add(days(20))),
	}
	for _, o := range orders {
		if err := s.Put(ctx, o, investv1.AccountTypeIndividual); err != nil {
			t.Fatal(err)
		}
	}
	acct := &investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: "tenant-a", Name: string(orders[0].Spec.AccountID)}}
	lockUps := map[investv1.ISIN]int32{isin: 30}
	sum, err := history.ArchivedSummary(ctx, s, acct, nil, lockUps, now)
	if err != nil {
		t.Fatal(err)
	}
	p := history.History{Archived: sum, LockUps: lockUps}.Positions(acct, now)[isin]
	if p == nil || p.Units != 31 {
		t.Fatalf("position %+v, want 31 units", p)
	}
	if p.Locked != 7+13 {
		t.Fatalf("%d units locked, want 20: 7 still locked on chain after the lock-up was shortened, 13 within it", p.Locked)
	}
	var releases []time.Time
	for _, l := range p.Lots {
		if l.UnlocksAt.After(now) {
			releases = append(releases, l.UnlocksAt)
		}
	}
	if len(releases) != 2 || !releases[0].Equal(now.Add(days(10))) || !releases[1].Equal(now.Add(days(20))) {
		t.Fatalf("locked lots release at %v, want the chain's %s and %s", releases, now.Add(days(10)), now.Add(days(20)))
	}
}
