package secondary_test

import (
	"reflect"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

func TestABuyDealsOnlyTheUnitsItsPaymentCovers(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		units, paid, price, feeRate int64
		want                        int64
	}{
		{"paid in full", 30, 30_451_500, 1_010_000, 50, 30},
		{"one micro-unit short", 30, 30_451_499, 1_010_000, 50, 29},
		{"the price rose 2%", 30, 30_451_500, 1_030_200, 50, 29},
		{"the price fell", 30, 30_451_500, 900_000, 50, 30},
		{"not one unit", 30, 1_000_000, 1_010_000, 50, 0},
		{"no fee", 7, 7_000_000, 1_000_000, 0, 7},
	} {
		got, err := secondary.Affordable(tc.units, tc.paid, tc.price, tc.feeRate)
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
		if got > 0 {
			g, _ := money.Mul(got, tc.price)
			f, _ := money.Fee(g, tc.feeRate)
			if g+f > tc.paid {
				t.Errorf("%s: %d units cost %d, more than the %d paid", tc.name, got, g+f, tc.paid)
			}
		}
	}
}

func TestABookEntryReadsBackAsWritten(t *testing.T) {
	e := secondary.Entry{Side: investv1.SideSell, Units: 120, Carried: 2, Namespace: "tenant-a", Name: "3f2c0000-0000-4000-8000-000000000001"}
	got, err := secondary.ParseEntry(e.String())
	if err != nil || got != e {
		t.Fatalf("ParseEntry(%q) = %+v, %v", e.String(), got, err)
	}
	for _, bad := range []string{"", "BUY 1 0", "BUY x 0 a/b", "BUY 1 y a/b", "BUY 1 0 ab", "BUY 1 0 /b"} {
		if _, err := secondary.ParseEntry(bad); err == nil {
			t.Errorf("ParseEntry(%q): want an error", bad)
		}
	}
}

// A recorded book replays to the same result every time, and its order is its priority.
func TestAReplayedBookGivesTheSameFillsEveryTime(t *testing.T) {
	book := []string{"SELL 50 0 t/s1", "BUY 30 0 t/b1", "SELL 20 0 t/s2", "SELL 7 1 t/s3"}
	p := secondary.Policy{SpreadBps: 100, BuyFeeRate: 50, SellFeeRate: 25, MaxCarry: 1}
	a, entries, err := secondary.Replay("2026-03-10", 1_000_000, p, book)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := secondary.Replay("2026-03-10", 1_000_000, p, book)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two replays of one book differ")
	}
	if len(entries) != 4 || entries["t/s3"].Carried != 1 {
		t.Errorf("entries %+v", entries)
	}
	fills := map[string]int64{}
	for _, f := range a.Fills {
		fills[f.ID] = f.Filled
	}
	if want := map[string]int64{"t/b1": 30, "t/s1": 19, "t/s2": 8, "t/s3": 3}; !reflect.DeepEqual(fills, want) {
		t.Errorf("fills %v, want %v", fills, want)
	}
	// s3 was carried once already: its remainder is cancelled, the others' carried.
	for _, f := range a.Fills {
		if f.ID == "t/s3" && f.Fate != secondary.Cancelled || f.ID == "t/s1" && f.Fate != secondary.Carried {
			t.Errorf("fill %+v", f)
		}
	}
}

func TestTheWindowOfAnOrderIsTheFirstWhoseDeadlineIsAhead(t *testing.T) {
	m := &investv1.SecondaryMarket{TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingWeekly, Weekday: "Friday",
		OrderDeadline: investv1.CutOff{Time: "15:00", BusinessDaysBefore: 1}}
	// Thursday 5 March 2026 13:59 UTC is 14:59 in Luxembourg: before Thursday's 15:00
	// deadline of Friday's window; a minute later the next Friday's.
	w, err := secondary.WindowFor(m, time.Date(2026, 3, 5, 13, 59, 0, 0, time.UTC))
	if err != nil || w.Date != "2026-03-06" || !w.Deadline.Time.Equal(time.Date(2026, 3, 5, 14, 0, 0, 0, time.UTC)) {
		t.Errorf("before the deadline: %+v %v", w, err)
	}
	w, err = secondary.WindowFor(m, time.Date(2026, 3, 5, 14, 0, 0, 0, time.UTC))
	if err != nil || w.Date != "2026-03-13" {
		t.Errorf("at the deadline: %+v %v", w, err)
	}
}
