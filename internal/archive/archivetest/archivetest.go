// Package archivetest is the conformance suite of archive.Store: every implementation runs
// Run from its tests, so that the embedded store of make run and the PostgreSQL store of
// production behave alike. Test-only: import it from _test.go files.
package archivetest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
)

// NewStore returns an empty store for one test; the test closes it (Run registers the
// Close with t.Cleanup).
type NewStore func(t *testing.T) archive.Store

// Run runs the conformance suite, each rule a subtest on a fresh store.
func Run(t *testing.T, newStore NewStore) {
	t.Helper()
	rules := []struct {
		name string
		test func(t *testing.T, s archive.Store)
	}{
		{"PutThenGetReturnsTheOrderAsPut", testPutThenGet},
		{"PutDropsManagedFields", testPutDropsManagedFields},
		{"PutOfTheSameContentIsANoOp", testPutIdempotent},
		{"PutOfAnOrderAsGetReturnedItIsANoOp", testPutRoundTrip},
		{"PutOfTheSameUIDWithOtherContentIsAConflict", testPutConflictContent},
		{"PutOfTheSameUIDWithAnotherAccountTypeIsAConflict", testPutConflictAccountType},
		{"PutOfAnotherUIDUnderAnArchivedNameIsAConflict", testPutConflictName},
		{"PutRefusesAnOrderThatCannotBeArchived", testPutInvalid},
		{"ConcurrentPutsOfOneUIDLeaveOneRecord", testConcurrentPuts},
		{"ConcurrentPutsOfOneUIDWithDifferentContentLetOneWin", testConcurrentConflictingPuts},
		{"PutManyArchivesEveryOrderAsPutWould", testPutManyThenRead},
		{"PutManyOfArchivedOrdersIsANoOp", testPutManyIdempotent},
		{"PutManyWithAConflictWritesNothing", testPutManyConflict},
		{"PutManyWithAnInvalidOrderWritesNothing", testPutManyInvalid},
		{"PutManyOfNothingIsANoOp", testPutManyEmpty},
		{"GetOfAnUnknownOrderIsNotFound", testGetNotFound},
		{"EveryReadIsScopedByNamespace", testTenancy},
		{"ListIsNewestFirstWithTiesByIDDescending", testListOrder},
		{"ListAnswersEveryFilterAndCombination", testListFilters},
		{"ListPagesCoverEveryOrderExactlyOnce", testListPages},
		{"ListPagesAtTheLimitBoundaries", testListLargePages},
		{"ListPagingIsStableAcrossConcurrentInserts", testListStableUnderInserts},
		{"ListRefusesABadLimitOrCursor", testListInvalid},
		{"ListFromABuiltCursorStartsAfterThatPosition", testListBuiltCursor},
		{"ListUntilEndsAtThatPosition", testListUntil},
		{"UnicodeInFieldsIsKeptAndOrderedByBytes", testUnicode},
		{"CompletedOrdersAreTheAccountsCompletedOnesOldestFirst", testCompletedOrders},
		{"HoldingsAreTheSummaryOfTheAccountsArchivedOrders", testHoldings},
		{"HoldingsCountEachOrderOnceWhileOrdersAreArchived", testHoldingsConsistent},
		{"PingAnswers", testPing},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			s := newStore(t)
			t.Cleanup(func() { _ = s.Close() })
			r.test(t, s)
		})
	}
}

// base is the creation time of the orders of the suite.
var base = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// Order returns a COMPLETED buy order of namespace/name created at created, with the
// history, quote and settlement evidence of a real one; mods change it.
func Order(namespace, name string, created time.Time, mods ...func(*investv1.Order)) *investv1.Order {
	ts := func(d time.Duration) metav1.Time { return metav1.NewTime(created.Add(d)) }
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, UID: types.UID(uuid.NewString()), ResourceVersion: "4711", Generation: 1,
			CreationTimestamp: metav1.NewTime(created), Labels: map[string]string{"team": "treasury"},
		},
		Spec: investv1.OrderSpec{
			Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: "LU0000000001", AmountOfUnits: 25,
			Currency: "EUR", AccountID: "11111111-1111-4111-8111-111111111111", SettlementType: investv1.SettlementBearer,
			Quote: &investv1.OrderQuote{
				NAVPerShare: 1_234_500, NAVDate: "2026-02-27", GrossValue: 30_862_500, FeeRate: 150, FeeAmount: 462_938,
				FeeSource: investv1.FeeSourceDefault, NetAmount: 30_399_562, Amount: 30_862_500,
				FundDetails: investv1.OrderFundDetails{ISIN: "LU0000000001", FundID: "22222222-2222-4222-8222-222222222222",
					FundName: "Feeder Fund", ShareClassID: "33333333-3333-4333-8333-333333333333", ShareClassName: "A EUR"},
				PaymentDetails: &investv1.OrderPaymentDetails{AccountHolderName: "Fund", IBAN: "DE89370400440532013000",
					PaymentReference: "FS-0001"},
				WalletID: "44444444-4444-4444-8444-444444444444", PaymentMethodDetailsID: "55555555-5555-4555-8555-555555555555",
			},
		},
		Status: investv1.OrderStatus{
			ObservedGeneration: 1, State: investv1.StateCompleted,
			History: []investv1.OrderTransition{
				{State: investv1.StatePlaced, At: ts(0), Reason: "Placed"},
				{State: investv1.StateAwaitingPayment, At: ts(time.Second), Reason: "AwaitingPayment"},
				{State: investv1.StatePaymentReceived, At: ts(time.Minute), Reason: "PaymentReceived"},
				{State: investv1.StateDeliveryInitiated, At: ts(2 * time.Minute), Reason: "DeliveryInitiated"},
				{State: investv1.StateDeliveryCompleted, At: ts(3 * time.Minute), Reason: "DeliveryCompleted"},
				{State: investv1.StateCompleted, At: ts(4 * time.Minute), Reason: "Completed"},
			},
			Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, ObservedGeneration: 1,
				LastTransitionTime: ts(4 * time.Minute), Reason: "Completed", Message: "the order is complete"}},
			Settlement: investv1.SettlementEvidence{
				PaymentReceived: &investv1.SettlementRecord{Reference: "FS-0001", At: ts(time.Minute), RecordedBy: "sandbox"},
				DeliveryInitiated: &investv1.SettlementRecord{TransactionHash: "0x" + fmt.Sprintf("%064x", 42),
					At: ts(2 * time.Minute), RecordedBy: "sandbox"},
				DeliveryCompleted: &investv1.SettlementRecord{At: ts(3 * time.Minute), RecordedBy: "sandbox"},
			},
		},
	}
	for _, m := range mods {
		m(o)
	}
	return o
}

// Cancelled makes an order CANCELLED (its last history entry).
func Cancelled(o *investv1.Order) {
	o.Status.State = investv1.StateCancelled
	o.Status.History = append(o.Status.History[:2:2], investv1.OrderTransition{
		State: investv1.StateCancelled, At: metav1.NewTime(o.CreationTimestamp.Add(90 * time.Second)), Reason: "CancellationRequested"})
}

// id returns a lowercase UUID whose first bytes are n, so ids sort as n does.
func id(n int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n) }

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustPut(t *testing.T, s archive.Store, o *investv1.Order, typ investv1.AccountType) {
	t.Helper()
	if err := s.Put(ctxOf(t), o, typ); err != nil {
		t.Fatalf("Put %s/%s: %v", o.Namespace, o.Name, err)
	}
}

// stored is what Get returns for an order Put: the same order with apiVersion and kind
// set and without managedFields.
func stored(o *investv1.Order) *investv1.Order {
	cp := o.DeepCopy()
	cp.ManagedFields = nil
	cp.APIVersion, cp.Kind = investv1.GroupVersion.String(), "Order"
	return cp
}

func mustGet(t *testing.T, s archive.Store, ns, name string) *investv1.Order {
	t.Helper()
	o, err := s.Get(ctxOf(t), ns, name)
	if err != nil {
		t.Fatalf("Get %s/%s: %v", ns, name, err)
	}
	return o
}

func equalOrders(t *testing.T, got, want *investv1.Order) {
	t.Helper()
	// Compared as JSON: times decode in the local zone, and the JSON is what an API
	// client reads.
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(stored(want))
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Fatalf("the archived order differs from the one Put:\n got  %s\n want %s", g, w)
	}
}

func testPutThenGet(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	equalOrders(t, mustGet(t, s, "tenant-a", id(1)), o)
	c := Order("tenant-a", id(2), base, Cancelled, func(o *investv1.Order) {
		o.Spec.CancellationRequested, o.Spec.CancellationReason = true, "changed my mind"
		o.Status.Refund = &investv1.OrderRefund{Amount: 30_862_500, Currency: "EUR", Reference: "RF-0002"}
		o.Status.Settlement.RefundSent = &investv1.SettlementRecord{Reference: "RF-0002", At: metav1.NewTime(base.Add(time.Hour))}
		o.Status.Settlement.RefundCompleted = &investv1.SettlementRecord{At: metav1.NewTime(base.Add(2 * time.Hour))}
	})
	mustPut(t, s, c, investv1.AccountTypeBusiness)
	equalOrders(t, mustGet(t, s, "tenant-a", id(2)), c)
}

func testPutDropsManagedFields(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base, func(o *investv1.Order) {
		o.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "fundshare-operator", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "invest.fundshare.io/v1alpha1", FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)}}
	})
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	got := mustGet(t, s, "tenant-a", id(1))
	if len(got.ManagedFields) != 0 {
		t.Fatalf("managedFields kept: %v", got.ManagedFields)
	}
	equalOrders(t, got, o)
	// The same order with other managedFields is the same content.
	o.ManagedFields[0].Manager = "kubectl"
	mustPut(t, s, o, investv1.AccountTypeIndividual)
}

func testPutIdempotent(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	for range 3 {
		mustPut(t, s, o, investv1.AccountTypeIndividual)
	}
	// A fresh copy with equal content (as a retention controller re-reads it) too.
	mustPut(t, s, o.DeepCopy(), investv1.AccountTypeIndividual)
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Orders) != 1 {
		t.Fatalf("after four Puts of one order, List has %d orders, want 1", len(page.Orders))
	}
}

func testPutRoundTrip(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base.Add(123*time.Millisecond), func(o *investv1.Order) {
		o.Annotations = map[string]string{"fundshare.io/idempotency-key": "k-1"}
	})
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	got := mustGet(t, s, "tenant-a", id(1))
	// What Get returned (times decoded in the local zone, apiVersion and kind set) is the
	// same content: a copy tool or a retry that re-archives it is a no-op.
	mustPut(t, s, got, investv1.AccountTypeIndividual)
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil || len(page.Orders) != 1 {
		t.Fatalf("List: %d orders (%v), want 1", len(page.Orders), err)
	}
	mustPut(t, s, &page.Orders[0], investv1.AccountTypeIndividual)
}

func wantConflict(t *testing.T, err error, o *investv1.Order, existingUID string) {
	t.Helper()
	if !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("Put: got %v, want ErrConflict", err)
	}
	var ce *archive.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Put: %v is not a *ConflictError", err)
	}
	if ce.UID != string(o.UID) || ce.Namespace != o.Namespace || ce.Name != o.Name || ce.ExistingUID != existingUID || ce.Reason == "" {
		t.Fatalf("ConflictError %+v does not name uid %s, %s/%s, existing uid %s", ce, o.UID, o.Namespace, o.Name, existingUID)
	}
}

func testPutConflictContent(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	changed := o.DeepCopy()
	changed.Labels["team"] = "risk"
	wantConflict(t, s.Put(ctxOf(t), changed, investv1.AccountTypeIndividual), changed, string(o.UID))
	changed = o.DeepCopy()
	changed.Spec.AmountOfUnits++
	wantConflict(t, s.Put(ctxOf(t), changed, investv1.AccountTypeIndividual), changed, string(o.UID))
	equalOrders(t, mustGet(t, s, "tenant-a", id(1)), o)
}

func testPutConflictAccountType(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	wantConflict(t, s.Put(ctxOf(t), o, investv1.AccountTypeBusiness), o, string(o.UID))
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10, Filter: archive.Filter{AccountType: investv1.AccountTypeIndividual}})
	if err != nil || len(page.Orders) != 1 {
		t.Fatalf("the order is no longer listed as individual: %v, %d orders", err, len(page.Orders))
	}
}

func testPutConflictName(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	again := Order("tenant-a", id(1), base.Add(time.Hour)) // a new UID
	wantConflict(t, s.Put(ctxOf(t), again, investv1.AccountTypeIndividual), again, string(o.UID))
	equalOrders(t, mustGet(t, s, "tenant-a", id(1)), o)
	// The same name in another namespace is another order.
	mustPut(t, s, Order("tenant-b", id(1), base), investv1.AccountTypeIndividual)
}

func testPutInvalid(t *testing.T, s archive.Store) {
	for name, o := range map[string]*investv1.Order{
		"live":         Order("tenant-a", id(1), base, func(o *investv1.Order) { o.Status.State = investv1.StateAwaitingPayment }),
		"not accepted": Order("tenant-a", id(2), base, func(o *investv1.Order) { o.Status.State = "" }),
		"no uid":       Order("tenant-a", id(3), base, func(o *investv1.Order) { o.UID = "" }),
		"no namespace": Order("", id(4), base),
		"no name":      Order("tenant-a", "", base),
		"no created":   Order("tenant-a", id(5), base, func(o *investv1.Order) { o.CreationTimestamp = metav1.Time{} }),
		"nil":          nil,
	} {
		if err := s.Put(ctxOf(t), o, investv1.AccountTypeIndividual); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("Put of an order %s: got %v, want ErrInvalid", name, err)
		}
	}
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil || len(page.Orders) != 0 {
		t.Fatalf("refused orders were archived: %v, %d orders", err, len(page.Orders))
	}
}

func testConcurrentPuts(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { errs <- s.Put(ctxOf(t), o.DeepCopy(), investv1.AccountTypeIndividual) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a concurrent Put of one order: %v", err)
		}
	}
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil || len(page.Orders) != 1 {
		t.Fatalf("concurrent Puts left %d records (%v), want 1", len(page.Orders), err)
	}
	equalOrders(t, &page.Orders[0], o)
}

func testConcurrentConflictingPuts(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base)
	versions := make([]*investv1.Order, 8)
	for i := range versions {
		versions[i] = o.DeepCopy()
		versions[i].Labels["version"] = fmt.Sprint(i)
	}
	errs := make([]error, len(versions))
	var wg sync.WaitGroup
	for i := range versions {
		wg.Go(func() { errs[i] = s.Put(ctxOf(t), versions[i], investv1.AccountTypeIndividual) })
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won >= 0:
			t.Fatalf("two different versions were both accepted: %d and %d", won, i)
		case err == nil:
			won = i
		case !errors.Is(err, archive.ErrConflict):
			t.Fatalf("version %d: got %v, want nil or ErrConflict", i, err)
		}
	}
	if won < 0 {
		t.Fatal("no version was archived")
	}
	equalOrders(t, mustGet(t, s, "tenant-a", id(1)), versions[won])
}

func testGetNotFound(t *testing.T, s archive.Store) {
	mustPut(t, s, Order("tenant-a", id(1), base), investv1.AccountTypeIndividual)
	for _, name := range []string{id(2), "", "not-a-uuid", "ünïcødé"} {
		if _, err := s.Get(ctxOf(t), "tenant-a", name); !errors.Is(err, archive.ErrNotFound) {
			t.Errorf("Get %q: got %v, want ErrNotFound", name, err)
		}
	}
}

func testTenancy(t *testing.T, s archive.Store) {
	a := Order("tenant-a", id(1), base)
	mustPut(t, s, a, investv1.AccountTypeIndividual)
	mustPut(t, s, Order("tenant-ab", id(2), base), investv1.AccountTypeIndividual)
	if _, err := s.Get(ctxOf(t), "tenant-b", id(1)); !errors.Is(err, archive.ErrNotFound) {
		t.Fatalf("tenant-b reads tenant-a's order: %v", err)
	}
	for _, ns := range []string{"tenant-b", "tenant", "TENANT-A", "tenant-a%", "%"} {
		page, err := s.List(ctxOf(t), ns, archive.Query{Limit: 10})
		if err != nil || len(page.Orders) != 0 {
			t.Fatalf("List of %q: %d orders (%v), want none", ns, len(page.Orders), err)
		}
		page, err = s.List(ctxOf(t), ns, archive.Query{Limit: 10, Filter: archive.Filter{AccountID: a.Spec.AccountID}})
		if err != nil || len(page.Orders) != 0 {
			t.Fatalf("List of %q by account: %d orders (%v), want none", ns, len(page.Orders), err)
		}
		got, err := s.CompletedOrders(ctxOf(t), ns, string(a.Spec.AccountID), "")
		if err != nil || len(got) != 0 {
			t.Fatalf("CompletedOrders of %q: %d orders (%v), want none", ns, len(got), err)
		}
	}
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10})
	if err != nil || len(page.Orders) != 1 || page.Orders[0].Name != id(1) {
		t.Fatalf("tenant-a lists %v (%v), want only its own order", names(page.Orders), err)
	}
	// A cursor of one tenant's page leads nowhere into another's.
	first, err := s.List(ctxOf(t), "tenant-ab", archive.Query{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	cur := archive.EncodeCursor(archive.Position{Created: base.Add(time.Hour), ID: "z"})
	page, err = s.List(ctxOf(t), "tenant-b", archive.Query{Limit: 10, Cursor: cur})
	if err != nil || len(page.Orders) != 0 || first.Next != "" {
		t.Fatalf("tenant-b with a cursor lists %v (%v)", names(page.Orders), err)
	}
}

func names(orders []investv1.Order) []string {
	out := make([]string, len(orders))
	for i := range orders {
		out[i] = orders[i].Name
	}
	return out
}

// newestFirst sorts as List must: created descending, then id descending by bytes.
func newestFirst(orders []*investv1.Order) []string {
	sorted := slices.Clone(orders)
	slices.SortFunc(sorted, func(a, b *investv1.Order) int {
		if c := cmp.Compare(b.CreationTimestamp.Unix(), a.CreationTimestamp.Unix()); c != 0 {
			return c
		}
		return cmp.Compare(b.Name, a.Name)
	})
	out := make([]string, len(sorted))
	for i, o := range sorted {
		out[i] = o.Name
	}
	return out
}

// listAll walks every page of a query with limit and returns the names in order.
func listAll(t *testing.T, s archive.Store, ns string, f archive.Filter, limit int) []string {
	t.Helper()
	var out []string
	q := archive.Query{Filter: f, Limit: limit}
	for pages := 0; ; pages++ {
		if pages > 10_000 {
			t.Fatal("List never ends")
		}
		page, err := s.List(ctxOf(t), ns, q)
		if err != nil {
			t.Fatalf("List %+v: %v", q, err)
		}
		if len(page.Orders) > limit {
			t.Fatalf("List returned %d orders for limit %d", len(page.Orders), limit)
		}
		if page.Next != "" && len(page.Orders) != limit {
			t.Fatalf("a page of %d orders (limit %d) that is not the last", len(page.Orders), limit)
		}
		out = append(out, names(page.Orders)...)
		if page.Next == "" {
			return out
		}
		q.Cursor = page.Next
	}
}

func testListOrder(t *testing.T, s archive.Store) {
	var all []*investv1.Order
	// Put in an order unrelated to the answer: ties in one second, ids out of order.
	for i, n := range []int{7, 3, 9, 1, 4, 8, 2, 6, 5, 10} {
		created := base.Add(time.Duration(n%3) * time.Second)
		if i%4 == 0 {
			created = created.Add(700 * time.Millisecond) // sub-second parts do not count
		}
		o := Order("tenant-a", id(n*1000003%65536), created)
		mustPut(t, s, o, investv1.AccountTypeIndividual)
		all = append(all, o)
	}
	want := newestFirst(all)
	for _, limit := range []int{1, 3, 10, 1000} {
		if got := listAll(t, s, "tenant-a", archive.Filter{}, limit); !slices.Equal(got, want) {
			t.Fatalf("limit %d: got %v, want %v", limit, got, want)
		}
	}
}

// filterable are orders that differ in every filtered column.
func filterable(t *testing.T, s archive.Store) ([]*investv1.Order, map[string]investv1.AccountType) {
	accounts := []investv1.ObjectID{"aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002",
		"aaaaaaaa-0000-4000-8000-000000000003"}
	types := map[investv1.ObjectID]investv1.AccountType{accounts[0]: investv1.AccountTypeIndividual,
		accounts[1]: investv1.AccountTypeBusiness, accounts[2]: investv1.AccountTypeIndividual}
	isins := []investv1.ISIN{"LU0000000001", "IE00B4L5Y983", "DE0005140008"}
	typeOf := map[string]investv1.AccountType{}
	var all []*investv1.Order
	for i := range 60 {
		o := Order("tenant-a", id(i+1), base.Add(time.Duration(i/4)*time.Second), func(o *investv1.Order) {
			o.Spec.AccountID = accounts[i%3]
			o.Spec.ISIN = isins[(i/3)%3]
			if i%2 == 1 {
				o.Spec.Side = investv1.SideSell
			}
			if i%5 == 0 {
				o.Spec.Market = investv1.MarketSecondary
			}
			if i%7 == 0 {
				o.Spec.Currency = "USD"
			}
			if i%4 == 3 {
				Cancelled(o)
			}
		})
		mustPut(t, s, o, types[o.Spec.AccountID])
		typeOf[o.Name] = types[o.Spec.AccountID]
		all = append(all, o)
	}
	// Noise in another namespace that matches every filter.
	for i := range 5 {
		mustPut(t, s, Order("tenant-b", id(100+i), base), investv1.AccountTypeIndividual)
	}
	return all, typeOf
}

func matches(o *investv1.Order, typ investv1.AccountType, f archive.Filter) bool {
	return (f.Side == "" || o.Spec.Side == f.Side) && (f.Market == "" || o.Spec.Market == f.Market) &&
		(f.State == "" || o.Status.State == f.State) && (f.AccountType == "" || typ == f.AccountType) &&
		(f.AccountID == "" || o.Spec.AccountID == f.AccountID) && (f.Currency == "" || o.Spec.Currency == f.Currency) &&
		(f.ISIN == "" || o.Spec.ISIN == f.ISIN)
}

func testListFilters(t *testing.T, s archive.Store) {
	all, typeOf := filterable(t, s)
	filters := []archive.Filter{
		{},
		{Side: investv1.SideBuy}, {Side: investv1.SideSell},
		{Market: investv1.MarketPrimary}, {Market: investv1.MarketSecondary},
		{State: investv1.StateCompleted}, {State: investv1.StateCancelled}, {State: investv1.StatePlaced},
		{AccountType: investv1.AccountTypeIndividual}, {AccountType: investv1.AccountTypeBusiness},
		{AccountID: "aaaaaaaa-0000-4000-8000-000000000002"}, {AccountID: "bbbbbbbb-0000-4000-8000-000000000000"},
		{Currency: "USD"}, {Currency: "EUR"}, {Currency: "CHF"},
		{ISIN: "IE00B4L5Y983"}, {ISIN: "XS0000000000"},
		{Side: investv1.SideSell, ISIN: "DE0005140008"},
		{AccountID: "aaaaaaaa-0000-4000-8000-000000000001", State: investv1.StateCompleted, Side: investv1.SideBuy},
		{AccountType: investv1.AccountTypeIndividual, Market: investv1.MarketSecondary, Currency: "EUR"},
		{Side: investv1.SideBuy, Market: investv1.MarketPrimary, State: investv1.StateCompleted, AccountType: investv1.AccountTypeBusiness,
			AccountID: "aaaaaaaa-0000-4000-8000-000000000002", Currency: "EUR", ISIN: "LU0000000001"},
	}
	for _, f := range filters {
		var want []*investv1.Order
		for _, o := range all {
			if matches(o, typeOf[o.Name], f) {
				want = append(want, o)
			}
		}
		for _, limit := range []int{4, 100} {
			if got := listAll(t, s, "tenant-a", f, limit); !slices.Equal(got, newestFirst(want)) {
				t.Errorf("filter %+v, limit %d:\n got  %v\n want %v", f, limit, got, newestFirst(want))
			}
		}
	}
}

func testListPages(t *testing.T, s archive.Store) {
	var all []*investv1.Order
	for i := range 23 {
		o := Order("tenant-a", id(i), base.Add(time.Duration(i%5)*time.Second))
		mustPut(t, s, o, investv1.AccountTypeIndividual)
		all = append(all, o)
	}
	want := newestFirst(all)
	for _, limit := range []int{1, 2, 5, 22, 23, 24} {
		got := listAll(t, s, "tenant-a", archive.Filter{}, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("limit %d: got %v, want %v", limit, got, want)
		}
	}
	// A full last page has no next page.
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 23})
	if err != nil || len(page.Orders) != 23 || page.Next != "" {
		t.Fatalf("a page of exactly every order: %d orders, next %q, %v", len(page.Orders), page.Next, err)
	}
	// An empty namespace is one empty page.
	page, err = s.List(ctxOf(t), "tenant-empty", archive.Query{Limit: 1})
	if err != nil || len(page.Orders) != 0 || page.Next != "" {
		t.Fatalf("an empty namespace: %d orders, next %q, %v", len(page.Orders), page.Next, err)
	}
}

func testListLargePages(t *testing.T, s archive.Store) {
	n := 2*archive.MaxLimit + 1
	all := make([]*investv1.Order, 0, n)
	for i := range n {
		o := Order("tenant-a", id(i), base.Add(time.Duration(i/50)*time.Second))
		all = append(all, o)
	}
	putAll(t, s, all)
	want := newestFirst(all)
	var got []string
	q := archive.Query{Limit: archive.MaxLimit}
	for _, size := range []int{archive.MaxLimit, archive.MaxLimit, 1} {
		page, err := s.List(ctxOf(t), "tenant-a", q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Orders) != size {
			t.Fatalf("a page of %d orders, want %d", len(page.Orders), size)
		}
		got = append(got, names(page.Orders)...)
		q.Cursor = page.Next
	}
	if q.Cursor != "" {
		t.Fatal("the last page has a next page")
	}
	if !slices.Equal(got, want) {
		t.Fatal("the pages of MaxLimit orders are not the orders newest first")
	}
	if _, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: archive.MaxLimit + 1}); !errors.Is(err, archive.ErrInvalid) {
		t.Fatalf("a limit above MaxLimit: got %v, want ErrInvalid", err)
	}
}

// putAll archives orders from a few goroutines (faster on a database that syncs every
// commit).
func putAll(t *testing.T, s archive.Store, orders []*investv1.Order) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(orders))
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(orders); i += 8 {
				if err := s.Put(ctxOf(t), orders[i], investv1.AccountTypeIndividual); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func testListStableUnderInserts(t *testing.T, s archive.Store) {
	var existing []*investv1.Order
	for i := range 40 {
		o := Order("tenant-a", id(1000+i), base.Add(time.Duration(i/3)*time.Second))
		mustPut(t, s, o, investv1.AccountTypeIndividual)
		existing = append(existing, o)
	}
	want := newestFirst(existing)
	var got []string
	var prev *investv1.Order
	q := archive.Query{Limit: 3}
	var stop chan struct{}
	var inserted chan *investv1.Order
	var wg sync.WaitGroup
	for {
		page, err := s.List(ctxOf(t), "tenant-a", q)
		if err != nil {
			t.Fatal(err)
		}
		if stop == nil {
			stop, inserted = startInserts(t, s, &wg)
		}
		for i := range page.Orders {
			o := &page.Orders[i]
			if prev != nil && !(archive.Position{Created: prev.CreationTimestamp.Time, ID: prev.Name}).After(o.CreationTimestamp.Time, o.Name) {
				t.Fatalf("%s listed after %s: not newest first", o.Name, prev.Name)
			}
			prev = o
		}
		got = append(got, names(page.Orders)...)
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(inserted)
	seen := map[string]int{}
	for _, n := range got {
		seen[n]++
		if seen[n] > 1 {
			t.Fatalf("%s listed twice", n)
		}
	}
	for _, n := range want {
		if seen[n] != 1 {
			t.Fatalf("%s, archived before paging started, was skipped", n)
		}
	}
	for o := range inserted {
		if o.CreationTimestamp.After(base.Add(time.Minute)) && seen[o.Name] > 0 {
			t.Fatalf("%s, newer than the first page, appeared on a later page", o.Name)
		}
	}
}

// startInserts archives orders until stop is closed, while pages are walked: newer than
// all (not on the later pages), in the same seconds as the walked ones with ids on both
// sides of the cursor, and older than all.
func startInserts(t *testing.T, s archive.Store, wg *sync.WaitGroup) (chan struct{}, chan *investv1.Order) {
	stop := make(chan struct{})
	inserted := make(chan *investv1.Order, 1000)
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			var created time.Time
			switch i % 3 {
			case 0:
				created = base.Add(time.Hour)
			case 1:
				created = base.Add(time.Duration(i%13) * time.Second)
			default:
				created = base.Add(-time.Hour)
			}
			o := Order("tenant-a", id(5000+i), created)
			if i%2 == 1 {
				o.Name = id(i) // below the walked ids
			}
			if err := s.Put(ctxOf(t), o, investv1.AccountTypeIndividual); err != nil {
				t.Errorf("concurrent Put: %v", err)
				return
			}
			inserted <- o
			if i >= 200 {
				return
			}
		}
	})
	return stop, inserted
}

func testListInvalid(t *testing.T, s archive.Store) {
	mustPut(t, s, Order("tenant-a", id(1), base), investv1.AccountTypeIndividual)
	for _, limit := range []int{0, -1, archive.MaxLimit + 1} {
		if _, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: limit}); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("limit %d: got %v, want ErrInvalid", limit, err)
		}
	}
	for _, cur := range []string{"x", "!!!", "YTEuMTIzLg", "YjEuMTIzLmFi", "YTEuYWJjLmFi"} {
		if _, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 1, Cursor: cur}); !errors.Is(err, archive.ErrInvalid) {
			t.Errorf("cursor %q: got %v, want ErrInvalid", cur, err)
		}
	}
}

func testListBuiltCursor(t *testing.T, s archive.Store) {
	for i := range 9 {
		mustPut(t, s, Order("tenant-a", id(i), base.Add(time.Duration(i/3)*time.Second)), investv1.AccountTypeIndividual)
	}
	// After (base+1s, id(4)): id(3) in the same second, then the older ones.
	cur := archive.EncodeCursor(archive.Position{Created: base.Add(time.Second + 500*time.Millisecond), ID: id(4)})
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 100, Cursor: cur})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{id(3), id(2), id(1), id(0)}; !slices.Equal(names(page.Orders), want) {
		t.Fatalf("after (1s, %s): got %v, want %v", id(4), names(page.Orders), want)
	}
	// A position between archived orders (a live order's) works as well.
	cur = archive.EncodeCursor(archive.Position{Created: base.Add(2 * time.Second), ID: id(6) + "5"})
	page, err = s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 2, Cursor: cur})
	if err != nil || !slices.Equal(names(page.Orders), []string{id(6), id(5)}) || page.Next == "" {
		t.Fatalf("after a position between orders: %v, next %q, %v", names(page.Orders), page.Next, err)
	}
}

func testListUntil(t *testing.T, s archive.Store) {
	for i := range 9 {
		mustPut(t, s, Order("tenant-a", id(i), base.Add(time.Duration(i/3)*time.Second)), investv1.AccountTypeIndividual)
	}
	until := &archive.Position{Created: base.Add(time.Second), ID: id(4)}
	// Newest first down to (1s, id(4)), exclusive: id(8) .. id(5), paged two at a time.
	var got []string
	q := archive.Query{Limit: 2, Until: until}
	for pages := 0; ; pages++ {
		page, err := s.List(ctxOf(t), "tenant-a", q)
		if err != nil || pages > 5 {
			t.Fatalf("page %d: %v", pages, err)
		}
		got = append(got, names(page.Orders)...)
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	if want := []string{id(8), id(7), id(6), id(5)}; !slices.Equal(got, want) {
		t.Fatalf("until (1s, %s): got %v, want %v", id(4), got, want)
	}
	// A full page that ends exactly at the bound has no next page.
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 4, Until: until})
	if err != nil || len(page.Orders) != 4 || page.Next != "" {
		t.Fatalf("a page ending at the bound: %v, next %q, %v", names(page.Orders), page.Next, err)
	}
	// With a filter, and with a bound newer than every order: nothing.
	page, err = s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10, Until: until, Filter: archive.Filter{ISIN: "LU0000000001"}})
	if err != nil || len(page.Orders) != 4 {
		t.Fatalf("until with a filter: %v, %v", names(page.Orders), err)
	}
	page, err = s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 10, Until: &archive.Position{Created: base.Add(time.Hour), ID: id(0)}})
	if err != nil || len(page.Orders) != 0 || page.Next != "" {
		t.Fatalf("until a position newer than every order: %v, next %q, %v", names(page.Orders), page.Next, err)
	}
}

func testUnicode(t *testing.T, s archive.Store) {
	o := Order("tenant-a", id(1), base, func(o *investv1.Order) {
		o.Labels["note"] = "x"
		o.Annotations = map[string]string{"note": "Zürich → 東京 ✓ 🚀 \"quoted\" 'single' \\ back\x00slash\ttab"}
		o.Spec.Quote.FundDetails.FundName = "Fonds für Ökologie — 持続可能 🌱"
		o.Spec.Quote.PaymentDetails.AccountHolderName = "Müller & Søn ÆØÅ"
		o.Status.History[len(o.Status.History)-1].Message = "ünïcødé message: ∑ ∞ ≠ 🙂"
	})
	mustPut(t, s, o, investv1.AccountTypeIndividual)
	equalOrders(t, mustGet(t, s, "tenant-a", id(1)), o)
	mustPut(t, s, o, investv1.AccountTypeIndividual) // still the same content
	// ids compare by bytes (as Go compares strings): upper case before lower case, ASCII
	// before multi-byte letters, no locale rules.
	var tied []*investv1.Order
	for _, name := range []string{"a-b", "ab", "B", "b", "é", "z", "Ω", "東京", "a b", "a"} {
		o := Order("tenant-u", name, base)
		mustPut(t, s, o, investv1.AccountTypeIndividual)
		tied = append(tied, o)
		equalOrders(t, mustGet(t, s, "tenant-u", name), o)
	}
	if got, want := listAll(t, s, "tenant-u", archive.Filter{}, 3), newestFirst(tied); !slices.Equal(got, want) {
		t.Fatalf("ids of one second: got %q, want %q (byte order, descending)", got, want)
	}
	page, err := s.List(ctxOf(t), "tenant-a", archive.Query{Limit: 5, Filter: archive.Filter{ISIN: "ÜS0000000000", Currency: "€UR"}})
	if err != nil || len(page.Orders) != 0 {
		t.Fatalf("a unicode filter value: %d orders, %v", len(page.Orders), err)
	}
}

func testCompletedOrders(t *testing.T, s archive.Store) {
	acct := investv1.ObjectID("cccccccc-0000-4000-8000-000000000001")
	other := investv1.ObjectID("cccccccc-0000-4000-8000-000000000002")
	at := func(d time.Duration) func(*investv1.Order) {
		return func(o *investv1.Order) {
			o.Spec.AccountID = acct
			o.Status.History[len(o.Status.History)-1].At = metav1.NewTime(base.Add(d))
		}
	}
	sell := func(o *investv1.Order) { o.Spec.Side = investv1.SideSell }
	isin2 := func(o *investv1.Order) { o.Spec.ISIN = "IE00B4L5Y983" }
	// Created in one order, completed in another: the answer is by completion.
	buy1 := Order("tenant-a", id(1), base, at(10*time.Hour))
	buy2 := Order("tenant-a", id(2), base.Add(time.Minute), at(2*time.Hour), isin2)
	sell1 := Order("tenant-a", id(3), base.Add(2*time.Minute), at(5*time.Hour), sell)
	cancelled := Order("tenant-a", id(4), base.Add(3*time.Minute), at(time.Hour), Cancelled)
	othersBuy := Order("tenant-a", id(5), base, func(o *investv1.Order) { o.Spec.AccountID = other })
	elsewhere := Order("tenant-b", id(6), base, at(time.Hour))
	for _, o := range []*investv1.Order{buy1, buy2, sell1, cancelled, othersBuy, elsewhere} {
		mustPut(t, s, o, investv1.AccountTypeIndividual)
	}
	got, err := s.CompletedOrders(ctxOf(t), "tenant-a", string(acct), "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{id(2), id(3), id(1)}; !slices.Equal(names(got), want) {
		t.Fatalf("CompletedOrders: got %v, want %v (completed, oldest completion first)", names(got), want)
	}
	equalOrders(t, &got[1], sell1)
	got, err = s.CompletedOrders(ctxOf(t), "tenant-a", string(acct), "LU0000000001")
	if err != nil || !slices.Equal(names(got), []string{id(3), id(1)}) {
		t.Fatalf("CompletedOrders of one ISIN: got %v (%v), want [%s %s]", names(got), err, id(3), id(1))
	}
	got, err = s.CompletedOrders(ctxOf(t), "tenant-a", "dddddddd-0000-4000-8000-000000000000", "")
	if err != nil || len(got) != 0 {
		t.Fatalf("CompletedOrders of an account without archived orders: %v (%v)", names(got), err)
	}
}

func testPing(t *testing.T, s archive.Store) {
	if err := s.Ping(ctxOf(t)); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}
