package archivetest

import (
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings"
)

// holdingsAccount is the account whose holdings the rules below sum.
const holdingsAccount = investv1.ObjectID("eeeeeeee-0000-4000-8000-000000000001")

// history is a random history of holdingsAccount (buys and sells of two ISINs, some
// cancelled, completed over 400 days), with orders of another account and of another
// tenant that must not count.
func history(seed uint64, n int) []*investv1.Order {
	r := rand.New(rand.NewPCG(seed, 7)) //nolint:gosec // a seeded, reproducible test history, not a secret
	var out []*investv1.Order
	for i := range n {
		completed := base.Add(time.Duration(r.IntN(400*24)) * time.Hour)
		ns, acct := "tenant-a", holdingsAccount
		switch r.IntN(20) {
		case 0:
			ns = "tenant-b"
		case 1:
			acct = "eeeeeeee-0000-4000-8000-000000000002"
		}
		out = append(out, Order(ns, id(1000+i), base.Add(time.Duration(i)*time.Second), func(o *investv1.Order) {
			o.Spec.AccountID = acct
			o.Spec.AmountOfUnits = int64(1 + r.IntN(500))
			if r.IntN(3) == 0 {
				o.Spec.Side = investv1.SideSell
			}
			if r.IntN(2) == 0 {
				o.Spec.ISIN = "IE00B4L5Y983"
			}
			if r.IntN(4) == 0 {
				o.Spec.Market = investv1.MarketSecondary
			}
			o.Status.History[len(o.Status.History)-1].At = metav1.NewTime(completed)
			if r.IntN(3) == 0 {
				// The lock its mint wrote on chain: about the lock-up after delivery,
				// in fractions of a second as the API server may return them.
				until := metav1.NewTime(completed.Add(time.Duration(r.IntN(90*24))*time.Hour + 250*time.Millisecond))
				o.Status.Chain = &investv1.OrderChainStatus{LockedUntil: &until}
			}
			if r.IntN(8) == 0 {
				Cancelled(o)
			}
		}))
	}
	return out
}

// summarize is holdings.Summarize of the orders of tenant-a's holdingsAccount.
func summarize(orders []*investv1.Order, foldBefore time.Time, live []types.UID) holdings.Summary {
	var mine []investv1.Order
	for _, o := range orders {
		if o.Namespace == "tenant-a" && o.Spec.AccountID == holdingsAccount {
			mine = append(mine, *o)
		}
	}
	return holdings.Summarize(mine, foldBefore, live)
}

// testHoldings: Holdings answers exactly holdings.Summarize of the account's archived
// orders, at every cut-off (before all, between, after all), scoped by namespace and
// account, and names the live UIDs of the account that are archived (more than one
// lookup's worth).
func testHoldings(t *testing.T, s archive.Store) {
	orders := history(1, 300)
	putAll(t, s, orders)
	var live []types.UID
	for i, o := range orders {
		if i%2 == 0 {
			live = append(live, o.UID)
		}
	}
	for i := range 700 { // UIDs never archived: a live order still in the cluster
		live = append(live, types.UID(id(5000+i)))
	}
	for _, cut := range []time.Time{base.Add(-time.Hour), base.AddDate(0, 0, 100), base.AddDate(0, 0, 200).Add(30 * time.Minute), base.AddDate(2, 0, 0)} {
		got, err := s.Holdings(ctxOf(t), "tenant-a", string(holdingsAccount), cut, live)
		if err != nil {
			t.Fatalf("Holdings before %s: %v", cut, err)
		}
		want := summarize(orders, cut, live)
		if !reflect.DeepEqual(got.Counted, want.Counted) {
			t.Fatalf("Holdings before %s: %d live UIDs counted, want %d", cut, len(got.Counted), len(want.Counted))
		}
		for isin, w := range want.ByISIN {
			if g := got.ByISIN[isin]; !reflect.DeepEqual(g, w) {
				t.Fatalf("Holdings before %s of %s:\n got %+v\nwant %+v", cut, isin, g, w)
			}
		}
		if len(got.ByISIN) != len(want.ByISIN) {
			t.Fatalf("Holdings before %s: %d ISINs, want %d", cut, len(got.ByISIN), len(want.ByISIN))
		}
	}
	got, err := s.Holdings(ctxOf(t), "tenant-c", string(holdingsAccount), base, live)
	if err != nil || len(got.ByISIN) != 0 || len(got.Counted) != 0 {
		t.Fatalf("Holdings of a tenant without orders: %+v, %v", got, err)
	}
}

// testHoldingsConsistent: while orders are archived one by one, every Holdings answer
// counts each order exactly once, either in its sums (and then Counted, so its live copy
// is left out) or not at all (and then the caller counts its live copy): the sums and the
// lookups are one snapshot.
func testHoldingsConsistent(t *testing.T, s archive.Store) {
	orders := history(2, 150)
	var live []types.UID
	var total int64
	for _, o := range orders {
		o.Namespace, o.Spec.AccountID, o.Spec.Side = "tenant-a", holdingsAccount, investv1.SideBuy
		o.Status.State = investv1.StateCompleted
		o.Status.History[len(o.Status.History)-1].State = investv1.StateCompleted
		live = append(live, o.UID)
		total += o.Spec.AmountOfUnits
	}
	units := map[types.UID]int64{}
	for _, o := range orders {
		units[o.UID] = o.Spec.AmountOfUnits
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		for _, o := range orders {
			if err := s.Put(ctxOf(t), o, investv1.AccountTypeIndividual); err != nil {
				t.Errorf("Put: %v", err)
				return
			}
		}
	})
	for reads := 0; ; reads++ {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Fatal("no read overlapped the archiving")
			}
			return
		default:
		}
		got, err := s.Holdings(ctxOf(t), "tenant-a", string(holdingsAccount), base.AddDate(0, 0, 200), live)
		if err != nil {
			t.Fatalf("Holdings: %v", err)
		}
		var counted int64
		for _, p := range got.ByISIN {
			for _, b := range p.Bought {
				counted += b.Units
			}
		}
		for uid, u := range units {
			if !got.Counted[uid] {
				counted += u // the caller's live copy
			}
		}
		if counted != total {
			t.Fatalf("read %d: %d units counted, want %d: an order counted twice or not at all", reads, counted, total)
		}
	}
}
