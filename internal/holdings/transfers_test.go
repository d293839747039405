package holdings

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// transfer is one side of a transfer event of its own (a transaction hash of its own).
func transfer(dir investv1.TransferDirection, units int64, at time.Time) investv1.Transfer {
	transfers++
	return investv1.Transfer{Spec: investv1.TransferSpec{ISIN: isin, Units: units, Direction: dir, BlockTime: metav1.NewTime(at),
		TransactionHash: fmt.Sprintf("0x%064x", transfers)}}
}

var transfers int

// ownMove is both sides of one transfer event between two wallets of the account.
func ownMove(units int64, at time.Time) []investv1.Transfer {
	out, in := transfer(investv1.TransferOut, units, at), transfer(investv1.TransferIn, units, at)
	in.Spec.TransactionHash = out.Spec.TransactionHash
	return []investv1.Transfer{out, in}
}

// TestHoldingsFollowTheToken: units per ISIN = completed buys - completed sells + transfers
// in - transfers out; units received by transfer are unlocked; units transferred out leave
// the unlocked units first, oldest first.
func TestHoldingsFollowTheToken(t *testing.T) {
	now := t0.AddDate(0, 0, 40)
	for _, tc := range []struct {
		name                    string
		orders                  []investv1.Order
		transfers               []investv1.Transfer
		units, locked, in, outU int64
		redeemable              int64
		lots                    []Lot // after folding
	}{
		{name: "no transfers: the orders alone",
			orders: []investv1.Order{order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0)},
			units:  100, redeemable: 100, lots: []Lot{{Units: 100, AcquiredAt: t0, UnlocksAt: t0.AddDate(0, 0, 30)}}},
		{name: "units received by transfer are unlocked",
			transfers: []investv1.Transfer{transfer(investv1.TransferIn, 25, now.Add(-time.Hour))},
			units:     25, in: 25, redeemable: 25, lots: []Lot{{Units: 25, AcquiredAt: now.Add(-time.Hour), UnlocksAt: now.Add(-time.Hour)}}},
		{name: "a transfer out moves units from the books",
			orders:    []investv1.Order{order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0)},
			transfers: []investv1.Transfer{transfer(investv1.TransferOut, 40, t0.AddDate(0, 0, 35))},
			units:     60, outU: 40, redeemable: 60, lots: []Lot{{Units: 60, AcquiredAt: t0, UnlocksAt: t0.AddDate(0, 0, 30)}}},
		{name: "buys - sells + in - out",
			orders: []investv1.Order{order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0),
				order("s", investv1.SideSell, 30, investv1.StateCompleted, t0.AddDate(0, 0, 31))},
			transfers: []investv1.Transfer{transfer(investv1.TransferIn, 7, t0.AddDate(0, 0, 32)), transfer(investv1.TransferOut, 20, t0.AddDate(0, 0, 33))},
			units:     57, in: 7, outU: 20, redeemable: 57, lots: []Lot{{Units: 57, AcquiredAt: t0.AddDate(0, 0, 32), UnlocksAt: t0.AddDate(0, 0, 32)}}},
		{name: "units transferred out come from the unlocked units, not the older locked ones",
			orders: []investv1.Order{order("locked", investv1.SideBuy, 50, investv1.StateCompleted, t0.AddDate(0, 0, 30))},
			transfers: []investv1.Transfer{transfer(investv1.TransferIn, 30, t0.AddDate(0, 0, 35)),
				transfer(investv1.TransferOut, 20, t0.AddDate(0, 0, 36))},
			units: 60, locked: 50, in: 30, outU: 20, redeemable: 10,
			lots: []Lot{{Units: 50, AcquiredAt: t0.AddDate(0, 0, 30), UnlocksAt: t0.AddDate(0, 0, 60)}, {Units: 10, AcquiredAt: t0.AddDate(0, 0, 35), UnlocksAt: t0.AddDate(0, 0, 35)}}},
		{name: "more out than unlocked: the books follow the chain into the locked units",
			orders:    []investv1.Order{order("locked", investv1.SideBuy, 50, investv1.StateCompleted, t0.AddDate(0, 0, 30))},
			transfers: []investv1.Transfer{transfer(investv1.TransferOut, 20, t0.AddDate(0, 0, 36))},
			units:     30, locked: 30, outU: 20,
			lots: []Lot{{Units: 30, AcquiredAt: t0.AddDate(0, 0, 30), UnlocksAt: t0.AddDate(0, 0, 60)}}},
		{name: "a transfer between two wallets of the account nets to zero",
			orders:    []investv1.Order{order("b", investv1.SideBuy, 100, investv1.StateCompleted, t0)},
			transfers: ownMove(100, t0.AddDate(0, 0, 35)),
			units:     100, in: 100, outU: 100, redeemable: 100, lots: []Lot{{Units: 100, AcquiredAt: t0, UnlocksAt: t0.AddDate(0, 0, 30)}}},
		{name: "a move between the account's own wallets (a lost-key recovery) keeps the units' lock",
			orders:    []investv1.Order{order("locked", investv1.SideBuy, 50, investv1.StateCompleted, t0.AddDate(0, 0, 30))},
			transfers: ownMove(50, t0.AddDate(0, 0, 35)),
			units:     50, locked: 50, in: 50, outU: 50, redeemable: 0,
			lots: []Lot{{Units: 50, AcquiredAt: t0.AddDate(0, 0, 30), UnlocksAt: t0.AddDate(0, 0, 60)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Compute(Input{Orders: tc.orders, Transfers: tc.transfers, LockUpDays: lockUp(30), Now: now})[isin]
			if p == nil {
				t.Fatal("no position")
			}
			if p.Units != tc.units || p.Locked != tc.locked || p.TransferredIn != tc.in || p.TransferredOut != tc.outU || p.Redeemable() != tc.redeemable {
				t.Fatalf("got units %d locked %d in %d out %d redeemable %d, want %d/%d/%d/%d/%d",
					p.Units, p.Locked, p.TransferredIn, p.TransferredOut, p.Redeemable(), tc.units, tc.locked, tc.in, tc.outU, tc.redeemable)
			}
			if len(p.Lots) != len(tc.lots) {
				t.Fatalf("lots %+v, want %+v", p.Lots, tc.lots)
			}
			for i, l := range p.Lots {
				if w := tc.lots[i]; l.Units != w.Units || !l.AcquiredAt.Equal(w.AcquiredAt) || !l.UnlocksAt.Equal(w.UnlocksAt) {
					t.Fatalf("lot %d %+v, want %+v", i, l, w)
				}
			}
			st := ToStatus(map[investv1.ISIN]*Position{isin: p})
			if len(st) != 1 || st[0].TransferredInUnits != tc.in || st[0].TransferredOutUnits != tc.outU || st[0].Units != tc.units {
				t.Fatalf("status %+v", st)
			}
		})
	}
}

func TestAnAccountThatTransferredEverythingOutShowsItsTransfers(t *testing.T) {
	p := Compute(Input{Now: t0, Transfers: []investv1.Transfer{transfer(investv1.TransferIn, 5, t0), transfer(investv1.TransferOut, 5, t0)}})
	st := ToStatus(p)
	if len(st) != 1 || st[0].Units != 0 || st[0].TransferredInUnits != 5 || st[0].TransferredOutUnits != 5 {
		t.Fatalf("status %+v", st)
	}
}

// TestUnitsReceivedInABlockDatedAheadOfTheClockAreUnlocked: a block's time is its
// producer's clock; units received in a block dated ahead of the operator's clock can be
// sold at once, and read as unlocked.
func TestUnitsReceivedInABlockDatedAheadOfTheClockAreUnlocked(t *testing.T) {
	now := t0.AddDate(0, 0, 40)
	positions := Compute(Input{
		Transfers:  []investv1.Transfer{transfer(investv1.TransferIn, 25, now.Add(30*time.Second))},
		LockUpDays: lockUp(90), Now: now,
	})
	p := positions[isin]
	if p == nil || p.Units != 25 || p.Locked != 0 {
		t.Fatalf("position: %+v", p)
	}
	if code, msg, ok := SellCheck(positions, isin, 25); !ok {
		t.Fatalf("a SELL of the received units: %s %s", code, msg)
	}
}
