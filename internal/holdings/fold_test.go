package holdings

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// lot builds a Lot acquired a days after t0 and unlocking u days after t0.
func lot(units int64, a, u int) Lot {
	return Lot{Units: units, AcquiredAt: t0.AddDate(0, 0, a), UnlocksAt: t0.AddDate(0, 0, u)}
}

func TestUnlockedLotsFoldIntoOneSoAnAccountIsBoundedByItsLockUpWindow(t *testing.T) {
	// One buy a day for 1,000 days under a 30-day lock-up, one sell a month: the
	// account's history grows, its lots do not.
	var orders []investv1.Order
	var bought, sold int64
	for d := range 1000 {
		orders = append(orders, order(fmt.Sprintf("b%d", d), investv1.SideBuy, 10, investv1.StateCompleted, t0.AddDate(0, 0, d)))
		bought += 10
		if d%30 == 29 {
			orders = append(orders, order(fmt.Sprintf("s%d", d), investv1.SideSell, 100, investv1.StateCompleted, t0.AddDate(0, 0, d).Add(time.Hour)))
			sold += 100
		}
	}
	now := t0.AddDate(0, 0, 999).Add(2 * time.Hour)
	p := Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: now})[isin]
	// Days 970..999 are locked (unlocking after now): 30 lots, plus one for the rest.
	if len(p.Lots) != 31 {
		t.Fatalf("got %d lots, want 30 locked and 1 folded", len(p.Lots))
	}
	if p.Units != bought-sold || p.Locked != 300 {
		t.Fatalf("got units %d locked %d, want %d and 300", p.Units, p.Locked, bought-sold)
	}
	folded := p.Lots[0]
	if folded.Units != p.Units-p.Locked || folded.UnlocksAt.After(now) {
		t.Fatalf("folded lot %+v: want the %d unlocked units, unlocked by %v", folded, p.Units-p.Locked, now)
	}
	// The unlocked units were bought last on day 969, and unlocked last on day 999.
	if want := t0.AddDate(0, 0, 969); !folded.AcquiredAt.Equal(want) {
		t.Fatalf("folded AcquiredAt %v, want the latest acquisition folded, %v", folded.AcquiredAt, want)
	}
	if want := t0.AddDate(0, 0, 999); !folded.UnlocksAt.Equal(want) {
		t.Fatalf("folded UnlocksAt %v, want the latest unlock folded, %v", folded.UnlocksAt, want)
	}
	if st := ToStatus(map[investv1.ISIN]*Position{isin: p}); len(st) != 1 || len(st[0].Lots) != 31 {
		t.Fatalf("status: %+v", st)
	}

	now = t0.AddDate(0, 0, 5000) // long after: everything unlocked, one lot
	p = Compute(Input{Orders: orders, LockUpDays: lockUp(30), Now: now})[isin]
	if len(p.Lots) != 1 || p.Lots[0].Units != bought-sold || p.Locked != 0 {
		t.Fatalf("got lots %+v locked %d, want one lot of %d", p.Lots, p.Locked, bought-sold)
	}
}

func TestFoldUnlockedRules(t *testing.T) {
	now := t0.AddDate(0, 0, 100)
	for _, tc := range []struct {
		name string
		in   []Lot
		want []Lot
	}{
		{"no lots", nil, nil},
		{"only locked lots stay as they are", []Lot{lot(1, 80, 110), lot(2, 90, 120)}, []Lot{lot(1, 80, 110), lot(2, 90, 120)}},
		{"one unlocked lot stays as it is", []Lot{lot(5, 10, 40), lot(2, 90, 120)}, []Lot{lot(5, 10, 40), lot(2, 90, 120)}},
		{"unlocked lots sum, latest acquisition and latest unlock", []Lot{lot(5, 10, 40), lot(7, 20, 50), lot(3, 60, 90), lot(2, 90, 120)},
			[]Lot{lot(15, 60, 90), lot(2, 90, 120)}},
		{"a lot unlocking exactly now is unlocked (as Locked counts it) and folds", []Lot{lot(5, 10, 40), lot(7, 70, 100)},
			[]Lot{lot(12, 70, 100)}},
		{"a lock-up shortened later: the folded lot sorts by its latest acquisition", []Lot{lot(4, 10, 200), lot(6, 50, 60), lot(1, 70, 80)},
			[]Lot{lot(4, 10, 200), lot(7, 70, 80)}},
		{"same acquisition: the folded lot comes first", []Lot{lot(4, 10, 200), lot(6, 10, 20), lot(1, 10, 30)},
			[]Lot{lot(7, 10, 30), lot(4, 10, 200)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := foldUnlocked(slices.Clone(tc.in), now)
			if !slices.EqualFunc(got, tc.want, func(a, b Lot) bool {
				return a.Units == b.Units && a.AcquiredAt.Equal(b.AcquiredAt) && a.UnlocksAt.Equal(b.UnlocksAt)
			}) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// randomInput is an account's orders and reservations over two ISINs with random
// lock-ups, states, completion times and sizes (sells may oversell, as a corrupt history
// could).
func randomInput(r *rand.Rand) Input {
	isins := []investv1.ISIN{isin, "LU0274208692"}
	states := []investv1.OrderState{investv1.StateCompleted, investv1.StateCompleted, investv1.StateCompleted, investv1.StatePlaced, investv1.StateCancelled, investv1.StateExecuted}
	days := map[investv1.ISIN]int32{isins[0]: int32(r.IntN(91)), isins[1]: int32(r.IntN(3) * 7)}
	var in Input
	in.LockUpDays = func(i investv1.ISIN) int32 { return days[i] }
	in.Now = t0.AddDate(0, 0, r.IntN(200)).Add(time.Duration(r.IntN(86400)) * time.Second)
	for i := range r.IntN(60) {
		side := investv1.SideBuy
		if r.IntN(3) == 0 {
			side = investv1.SideSell
		}
		state := states[r.IntN(len(states))]
		o := order(fmt.Sprintf("o%d", i), side, 1+r.Int64N(100), state, t0.AddDate(0, 0, r.IntN(200)).Add(time.Duration(r.IntN(86400))*time.Second))
		o.Spec.ISIN = isins[r.IntN(2)]
		if r.IntN(3) == 0 {
			o.Spec.Market = investv1.MarketSecondary
		}
		if state == investv1.StateCompleted && r.IntN(4) == 0 {
			o.Status.History = nil // no history: completed at creation
			o.CreationTimestamp = metav1.NewTime(t0.AddDate(0, 0, r.IntN(200)))
		}
		in.Orders = append(in.Orders, o)
		if side == investv1.SideSell && r.IntN(2) == 0 {
			in.Reservations = append(in.Reservations, investv1.UnitReservation{Order: investv1.ObjectID(o.Name), ISIN: o.Spec.ISIN, Units: o.Spec.AmountOfUnits})
		}
	}
	if r.IntN(4) == 0 {
		in.Reservations = append(in.Reservations, investv1.UnitReservation{Order: "unseen", ISIN: isins[r.IntN(2)], Units: 1 + r.Int64N(20)})
	}
	if len(in.Orders) > 0 && r.IntN(3) == 0 {
		in.Exclude = in.Orders[r.IntN(len(in.Orders))].Name
	}
	return in
}

func TestFoldingChangesNoFigureASellCheckReads(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2026))
	folds := 0
	for n := range 3000 {
		in := randomInput(r)
		folded, unfolded := Compute(in), computeLots(in)
		if len(folded) != len(unfolded) {
			t.Fatalf("case %d: %d positions folded, %d not", n, len(folded), len(unfolded))
		}
		for id, u := range unfolded {
			f := folded[id]
			if f == nil {
				t.Fatalf("case %d: %s lost by folding", n, id)
			}
			if f.Units != u.Units || f.Locked != u.Locked || f.Reserved != u.Reserved || f.Free() != u.Free() || f.Redeemable() != u.Redeemable() {
				t.Fatalf("case %d %s: folded %d/%d/%d, unfolded %d/%d/%d (units/locked/reserved)", n, id, f.Units, f.Locked, f.Reserved, u.Units, u.Locked, u.Reserved)
			}
			if !f.NextUnlock(in.Now).Equal(u.NextUnlock(in.Now)) {
				t.Fatalf("case %d %s: next unlock %v folded, %v not", n, id, f.NextUnlock(in.Now), u.NextUnlock(in.Now))
			}
			var sum int64
			for _, l := range f.Lots {
				sum += l.Units
			}
			if sum != f.Units {
				t.Fatalf("case %d %s: lots sum to %d, units %d", n, id, sum, f.Units)
			}
			locked := func(lots []Lot) []Lot {
				return slices.DeleteFunc(slices.Clone(lots), func(l Lot) bool { return !l.UnlocksAt.After(in.Now) })
			}
			if !slices.Equal(locked(f.Lots), locked(u.Lots)) {
				t.Fatalf("case %d %s: locked lots %+v folded, %+v not", n, id, locked(f.Lots), locked(u.Lots))
			}
			if len(f.Lots) < len(u.Lots) {
				folds++
			}
			for units := int64(0); units <= u.Units+1; units++ {
				fc, fm, fok := SellCheck(folded, id, units)
				uc, um, uok := SellCheck(unfolded, id, units)
				if fc != uc || fm != um || fok != uok {
					t.Fatalf("case %d %s, sell of %d: folded %q %q %v, unfolded %q %q %v", n, id, units, fc, fm, fok, uc, um, uok)
				}
			}
		}
		fs, us := ToStatus(folded), ToStatus(unfolded)
		if len(fs) != len(us) {
			t.Fatalf("case %d: status has %d holdings folded, %d not", n, len(fs), len(us))
		}
		for i := range fs {
			if fs[i].ISIN != us[i].ISIN || fs[i].Units != us[i].Units || fs[i].LockedUnits != us[i].LockedUnits || fs[i].ReservedUnits != us[i].ReservedUnits {
				t.Fatalf("case %d: status %+v folded, %+v not", n, fs[i], us[i])
			}
		}
	}
	if folds < 100 {
		t.Fatalf("only %d positions folded anything: the cases do not exercise folding", folds)
	}
}
