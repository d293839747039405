package archivetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
)

// batch returns n orders of tenant-a numbered from first, some cancelled, a few of them
// created in the same second, for PutMany.
func batch(first, n int) []*investv1.Order {
	out := make([]*investv1.Order, n)
	for i := range out {
		var mods []func(*investv1.Order)
		if i%7 == 3 {
			mods = append(mods, Cancelled)
		}
		if i%5 == 1 {
			mods = append(mods, func(o *investv1.Order) { o.Spec.Side = investv1.SideSell })
		}
		out[i] = Order("tenant-a", id(first+i), base.Add(time.Duration((first+i)/3)*time.Second), mods...)
	}
	return out
}

func entries(orders []*investv1.Order, typ investv1.AccountType) []archive.Entry {
	out := make([]archive.Entry, len(orders))
	for i, o := range orders {
		out[i] = archive.Entry{Order: o, AccountType: typ}
	}
	return out
}

// wantNone fails when any of orders is archived.
func wantNone(t *testing.T, s archive.Store, orders ...*investv1.Order) {
	t.Helper()
	for _, o := range orders {
		if _, err := s.Get(ctxOf(t), o.Namespace, o.Name); !errors.Is(err, archive.ErrNotFound) {
			t.Fatalf("order %s/%s of a refused batch: Get answered %v, want ErrNotFound", o.Namespace, o.Name, err)
		}
	}
}

func testPutManyThenRead(t *testing.T, s archive.Store) {
	// More than one statement's worth, with a business account's order among them.
	orders := batch(1, 1234)
	es := entries(orders, investv1.AccountTypeIndividual)
	es[17].AccountType = investv1.AccountTypeBusiness
	if err := s.PutMany(ctxOf(t), es); err != nil {
		t.Fatalf("PutMany of %d orders: %v", len(es), err)
	}
	for i, o := range orders {
		if i%97 == 0 || i == len(orders)-1 {
			equalOrders(t, mustGet(t, s, "tenant-a", o.Name), o)
		}
	}
	if got, want := listAll(t, s, "tenant-a", archive.Filter{}, 500), newestFirst(orders); !slices.Equal(got, want) {
		t.Fatalf("List after PutMany: %d orders, want the %d put, newest first", len(got), len(want))
	}
	// The filters read the columns PutMany wrote, as they read Put's.
	if got := listAll(t, s, "tenant-a", archive.Filter{AccountType: investv1.AccountTypeBusiness}, 10); !slices.Equal(got, []string{orders[17].Name}) {
		t.Fatalf("List of business accounts' orders: got %v, want [%s]", got, orders[17].Name)
	}
	var cancelled, sells []*investv1.Order
	for _, o := range orders {
		if o.Status.State == investv1.StateCancelled {
			cancelled = append(cancelled, o)
		}
		if o.Spec.Side == investv1.SideSell {
			sells = append(sells, o)
		}
	}
	if got := listAll(t, s, "tenant-a", archive.Filter{State: investv1.StateCancelled}, 100); !slices.Equal(got, newestFirst(cancelled)) {
		t.Fatalf("List of cancelled orders after PutMany: %d, want %d", len(got), len(cancelled))
	}
	if got := listAll(t, s, "tenant-a", archive.Filter{Side: investv1.SideSell}, 100); !slices.Equal(got, newestFirst(sells)) {
		t.Fatalf("List of sells after PutMany: %d, want %d", len(got), len(sells))
	}
	completed, err := s.CompletedOrders(ctxOf(t), "tenant-a", string(orders[0].Spec.AccountID), "")
	if err != nil || len(completed) != len(orders)-len(cancelled) {
		t.Fatalf("CompletedOrders after PutMany: %d (%v), want %d", len(completed), err, len(orders)-len(cancelled))
	}
}

func testPutManyIdempotent(t *testing.T, s archive.Store) {
	orders := batch(1, 600)
	// One archived by Put before, one twice in the batch, one as Get returned it.
	mustPut(t, s, orders[550], investv1.AccountTypeIndividual)
	mustPut(t, s, orders[3], investv1.AccountTypeIndividual)
	es := entries(orders, investv1.AccountTypeIndividual)
	es = append(es, archive.Entry{Order: orders[42].DeepCopy(), AccountType: investv1.AccountTypeIndividual})
	es[3].Order = mustGet(t, s, "tenant-a", orders[3].Name)
	if err := s.PutMany(ctxOf(t), es); err != nil {
		t.Fatalf("PutMany with orders archived already: %v", err)
	}
	// The same batch again, e.g. after a crash before its answer: a no-op.
	if err := s.PutMany(ctxOf(t), es); err != nil {
		t.Fatalf("PutMany of an archived batch: %v", err)
	}
	if got, want := listAll(t, s, "tenant-a", archive.Filter{}, 1000), newestFirst(orders); !slices.Equal(got, want) {
		t.Fatalf("List after repeated PutMany: %d records, want the %d orders once each", len(got), len(want))
	}
	equalOrders(t, mustGet(t, s, "tenant-a", orders[550].Name), orders[550])
}

func testPutManyConflict(t *testing.T, s archive.Store) {
	archived := Order("tenant-a", id(9000), base)
	mustPut(t, s, archived, investv1.AccountTypeIndividual)
	changed := archived.DeepCopy()
	changed.Status.History[len(changed.Status.History)-1].Message = "rewritten"
	otherUID := Order("tenant-a", id(9000), base) // a new UID under the archived name

	for name, tc := range map[string]struct {
		bad      archive.Entry
		existing string
	}{
		"the same UID with other content":        {archive.Entry{Order: changed, AccountType: investv1.AccountTypeIndividual}, string(archived.UID)},
		"the same UID with another account type": {archive.Entry{Order: archived, AccountType: investv1.AccountTypeBusiness}, string(archived.UID)},
		"another UID under an archived name":     {archive.Entry{Order: otherUID, AccountType: investv1.AccountTypeIndividual}, string(archived.UID)},
	} {
		t.Run(name, func(t *testing.T) {
			// The conflict comes after a full statement: the rows written before it in
			// the same batch must go too.
			orders := batch(1, 700)
			es := entries(orders, investv1.AccountTypeIndividual)
			es = slices.Insert(es, 650, tc.bad)
			err := s.PutMany(ctxOf(t), es)
			var ce *archive.ConflictError
			if !errors.As(err, &ce) || !errors.Is(err, archive.ErrConflict) {
				t.Fatalf("PutMany with %s: got %v, want a *ConflictError", name, err)
			}
			if ce.ExistingUID != tc.existing || ce.Name != id(9000) {
				t.Fatalf("the conflict names %s (existing %s), want %s (existing %s)", ce.Name, ce.ExistingUID, id(9000), tc.existing)
			}
			wantNone(t, s, orders...)
			equalOrders(t, mustGet(t, s, "tenant-a", archived.Name), archived)
		})
	}
	t.Run("two orders under one name in the batch", func(t *testing.T) {
		orders := batch(1, 10)
		twin := Order("tenant-a", orders[4].Name, base)
		es := append(entries(orders, investv1.AccountTypeIndividual), archive.Entry{Order: twin, AccountType: investv1.AccountTypeIndividual})
		if err := s.PutMany(ctxOf(t), es); !errors.Is(err, archive.ErrConflict) {
			t.Fatalf("PutMany with two UIDs under one name: got %v, want ErrConflict", err)
		}
		wantNone(t, s, orders...)
	})
	t.Run("one order twice with different content in the batch", func(t *testing.T) {
		orders := batch(1, 10)
		twin := orders[4].DeepCopy()
		twin.Spec.AmountOfUnits++
		es := append(entries(orders, investv1.AccountTypeIndividual), archive.Entry{Order: twin, AccountType: investv1.AccountTypeIndividual})
		if err := s.PutMany(ctxOf(t), es); !errors.Is(err, archive.ErrConflict) {
			t.Fatalf("PutMany with one UID in two versions: got %v, want ErrConflict", err)
		}
		wantNone(t, s, orders...)
	})
}

func testPutManyInvalid(t *testing.T, s archive.Store) {
	orders := batch(1, 20)
	live := Order("tenant-a", id(500), base, func(o *investv1.Order) { o.Status.State = investv1.StateAwaitingPayment })
	es := append(entries(orders, investv1.AccountTypeIndividual), archive.Entry{Order: live, AccountType: investv1.AccountTypeIndividual})
	if err := s.PutMany(ctxOf(t), es); !errors.Is(err, archive.ErrInvalid) {
		t.Fatalf("PutMany with a live order: got %v, want ErrInvalid", err)
	}
	es[len(es)-1].Order = nil
	if err := s.PutMany(ctxOf(t), es); !errors.Is(err, archive.ErrInvalid) {
		t.Fatalf("PutMany with a nil order: got %v, want ErrInvalid", err)
	}
	wantNone(t, s, append(orders, live)...)
}

func testPutManyEmpty(t *testing.T, s archive.Store) {
	if err := s.PutMany(ctxOf(t), nil); err != nil {
		t.Fatalf("PutMany of no orders: %v", err)
	}
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil || len(page.Orders) != 0 {
		t.Fatalf("after an empty PutMany: %d orders (%v)", len(page.Orders), err)
	}
}
