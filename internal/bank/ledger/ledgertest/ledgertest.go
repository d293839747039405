// Package ledgertest is the conformance suite of ledger.Store: every implementation runs
// Run from its tests, so that the bank ledger on SQLite and on PostgreSQL behave alike.
// Each rule is a subtest named after it, on a fresh database. Test-only: import it from
// _test.go files.
package ledgertest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// Open opens a store on one test's database. Each call opens another store on the same
// database, as another process (a manager replica) would; Open closes what it opened when
// the test ends (t.Cleanup).
type Open func(t *testing.T) ledger.Store

// NewDatabase creates an empty database for one test and returns how to open stores on
// it.
type NewDatabase func(t *testing.T) Open

// Run runs the conformance suite, each rule a subtest on a fresh database.
func Run(t *testing.T, newDatabase NewDatabase) {
	t.Helper()
	rules := []struct {
		name string
		test func(t *testing.T, s ledger.Store, open Open)
	}{
		{"IngestRecordsAFileAndItsRowsAllOrNothing", testIngestAllOrNothing},
		{"AFileIngestedTwiceIsRecordedOnce", testFileIngestedTwice},
		{"AnEntryRecordedByAnotherFileRefusesTheWholeIngest", testEntryOfAnotherFile},
		{"RecordedNamesOnlyRecordedReferences", testRecorded},
		{"ReceivedIsTheLastReceiptOfEachOrder", testReceived},
		{"PendingRowsComeOldestFirstUntilDone", testPendingUntilDone},
		{"DoneTwiceChangesNothing", testDoneTwice},
		{"RowsPageNewestFirstAndFilter", testRowsPaging},
		{"FilesPageNewestFirst", testFilesPaging},
		{"InvalidInputWritesNothing", testInvalid},
		{"TwoIngestsOfOneEntryAtOnceRecordItOnce", testConcurrentIngests},
		{"ARowAndAFileKeepEveryField", testRoundTrip},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			open := newDatabase(t)
			r.test(t, open(t), open)
		})
	}
}

// The outcome kinds, as the ledger stores them.
var (
	matched       = string(reconcile.Matched)
	underpaid     = string(reconcile.Underpaid)
	overpaid      = string(reconcile.Overpaid)
	unmatched     = string(reconcile.Unmatched)
	returned      = string(reconcile.Returned)
	paidOut       = string(reconcile.PaidOut)
	wrongCurrency = string(reconcile.WrongCurrency)
)

// base is the time the suite's files were delivered around.
var base = time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// file is a camt.054 file with id, ingested at at.
func file(id string, at time.Time) ledger.File {
	return ledger.File{
		ID: id, Name: id + ".xml", SHA256: strings.Repeat("ab", 32), MessageType: "camt.054.001.08",
		MessageID: "MSG-" + id, DeliveredAt: at.Add(-time.Minute), IngestedAt: at,
		Counts: map[string]int{matched: 1},
	}
}

// row is transaction 0 of entry ref, of kind, changed by the options.
func row(ref, kind string, opts ...func(*ledger.Row)) ledger.Row {
	r := ledger.Row{EntryReference: ref, Kind: kind, CreditDebit: "CRDT", Amount: 1_000_000, Currency: "EUR"}
	for _, o := range opts {
		o(&r)
	}
	return r
}

// forOrder names the order namespace/id, with received the total arrived for it.
func forOrder(namespace, id string, received int64) func(*ledger.Row) {
	return func(r *ledger.Row) { r.Namespace, r.OrderID, r.Received = namespace, id, received }
}

// txn makes the row transaction n of its entry.
func txn(n int) func(*ledger.Row) { return func(r *ledger.Row) { r.Transaction = n } }

// pending marks the row's effect on its order as still to be written.
func pending(r *ledger.Row) { r.Pending = true }

func ingest(t *testing.T, s ledger.Store, f ledger.File, rows ...ledger.Row) {
	t.Helper()
	if err := s.Ingest(ctxOf(t), f, rows); err != nil {
		t.Fatalf("Ingest of file %s with %d rows: %v", f.ID, len(rows), err)
	}
}

// pageRows pages through the rows q selects with pages of q.Limit, calling between each
// page (when not nil), and returns them with every page checked against the limit.
func pageRows(t *testing.T, s ledger.Store, q ledger.Query, between func()) []ledger.Row {
	t.Helper()
	return pageAll(t, "Rows", q.Limit, func(cursor string) ([]ledger.Row, string, error) {
		q.Cursor = cursor
		return s.Rows(ctxOf(t), q)
	}, between)
}

// pageAll pages through what list (a listing method called name) returns from the first
// page on, with pages of limit (0: 100), calling between each page (when not nil), with
// every page checked against the limit.
func pageAll[T any](t *testing.T, name string, limit int, list func(cursor string) ([]T, string, error), between func()) []T {
	t.Helper()
	limit = orDefault(limit, 100)
	var all []T
	cursor := ""
	for range 100_000 {
		page, next, err := list(cursor)
		if err != nil {
			t.Fatalf("%s (cursor %q): %v", name, cursor, err)
		}
		if len(page) > limit || (next != "" && len(page) != limit) {
			t.Fatalf("%s: a page of limit %d has %d items (next %q)", name, limit, len(page), next)
		}
		all = append(all, page...)
		if next == "" {
			return all
		}
		cursor = next
		if between != nil {
			between()
		}
	}
	t.Fatalf("the pages of %s never end", name)
	return nil
}

// orDefault is v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// allRows is every row q's filters select, newest first.
func allRows(t *testing.T, s ledger.Store, q ledger.Query) []ledger.Row {
	t.Helper()
	q.Limit, q.Cursor = 1000, ""
	return pageRows(t, s, q, nil)
}

// allFiles is every file, newest first.
func allFiles(t *testing.T, s ledger.Store) []ledger.File {
	t.Helper()
	var all []ledger.File
	cursor := ""
	for {
		page, next, err := s.Files(ctxOf(t), 1000, cursor)
		if err != nil {
			t.Fatalf("Files: %v", err)
		}
		all = append(all, page...)
		if next == "" {
			return all
		}
		cursor = next
	}
}

func fileIDs(files []ledger.File) []string {
	out := make([]string, 0, len(files))
	for _, f := range files {
		out = append(out, f.ID)
	}
	return out
}

// keys is "reference/transaction" of each row, in order.
func keys(rows []ledger.Row) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%s/%d", r.EntryReference, r.Transaction))
	}
	return out
}

func rowIDs(rows []ledger.Row) []int64 {
	out := make([]int64, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

func recorded(t *testing.T, s ledger.Store, refs ...string) map[string]bool {
	t.Helper()
	got, err := s.Recorded(ctxOf(t), refs)
	if err != nil {
		t.Fatalf("Recorded: %v", err)
	}
	return got
}

func expectNothingRecorded(t *testing.T, s ledger.Store, refs ...string) {
	t.Helper()
	if got := recorded(t, s, refs...); len(got) != 0 {
		t.Fatalf("Recorded(%v) = %v, want none of them", refs, got)
	}
}

func expectFiles(t *testing.T, s ledger.Store, want ...string) {
	t.Helper()
	if got := fileIDs(allFiles(t, s)); !slices.Equal(got, want) {
		t.Fatalf("files newest first: %v, want %v", got, want)
	}
}

// expectRefused checks that err is an *EntryRecordedError (so ErrAlreadyRecorded) naming
// the entry: the caller tells it from a file ingested before by its type.
func expectRefused(t *testing.T, err error, entry string) {
	t.Helper()
	if !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("Ingest of an entry recorded already: %v, want ErrAlreadyRecorded", err)
	}
	var named *ledger.EntryRecordedError
	if !errors.As(err, &named) || named.EntryReference != entry {
		t.Fatalf("the refusal %q is not an *EntryRecordedError naming the entry %s", err, entry)
	}
}

func testIngestAllOrNothing(t *testing.T, s ledger.Store, _ Open) {
	f1 := file("file-1", base)
	ingest(t, s, f1, row("E1", matched), row("E2", unmatched), row("E2", unmatched, txn(1)))
	expectFiles(t, s, f1.ID)
	rows := allRows(t, s, ledger.Query{FileID: f1.ID})
	slices.Reverse(rows)
	if got, want := keys(rows), []string{"E1/0", "E2/0", "E2/1"}; !slices.Equal(got, want) {
		t.Fatalf("the rows of %s oldest first: %v, want them in the order given, %v", f1.ID, got, want)
	}
	for i, r := range rows {
		if r.FileID != f1.ID {
			t.Fatalf("row %s came in file %q, want %s", keys(rows)[i], r.FileID, f1.ID)
		}
		if i > 0 && r.ID <= rows[i-1].ID {
			t.Fatalf("row ids %v do not increase in the order the rows were given", rowIDs(rows))
		}
	}
	// A file whose last row is recorded already, and one whose last row is invalid:
	// nothing of either is written, not even the rows before.
	if err := s.Ingest(ctxOf(t), file("file-2", base.Add(time.Hour)), []ledger.Row{row("E3", matched), row("E4", matched),
		row("E1", matched)}); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("Ingest with a recorded entry: %v, want ErrAlreadyRecorded", err)
	}
	if err := s.Ingest(ctxOf(t), file("file-3", base.Add(time.Hour)), []ledger.Row{row("E5", matched),
		row("E6", "")}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("Ingest with a row without kind: %v, want ErrInvalid", err)
	}
	expectFiles(t, s, f1.ID)
	expectNothingRecorded(t, s, "E3", "E4", "E5", "E6")
	if got := allRows(t, s, ledger.Query{}); len(got) != 3 {
		t.Fatalf("refused ingests left rows: %v", keys(got))
	}
	// Refused, the file can be ingested once its rows are decided again; its rows come
	// after the first file's. A file without rows (all duplicates) is recorded too.
	f2 := file("file-2", base.Add(time.Hour))
	ingest(t, s, f2, row("E3", matched), row("E4", matched))
	f4 := file("file-4", base.Add(2*time.Hour))
	ingest(t, s, f4)
	expectFiles(t, s, f4.ID, f2.ID, f1.ID)
	all := allRows(t, s, ledger.Query{})
	if got, want := keys(all), []string{"E4/0", "E3/0", "E2/1", "E2/0", "E1/0"}; !slices.Equal(got, want) {
		t.Fatalf("all rows newest first: %v, want %v", got, want)
	}
	if got := recorded(t, s, "E1", "E2", "E3", "E4", "E5"); !maps.Equal(got, map[string]bool{"E1": true, "E2": true, "E3": true, "E4": true}) {
		t.Fatalf("Recorded: %v", got)
	}
}

func testFileIngestedTwice(t *testing.T, s ledger.Store, _ Open) {
	f := file("file-1", base)
	ingest(t, s, f, row("E1", matched), row("E2", matched))
	// After a crash the file is ingested again, its rows decided again (the entries are
	// duplicates now, or other ones): nothing of it is recorded.
	again := f
	again.Name, again.IngestedAt = "renamed.xml", base.Add(time.Hour)
	for _, rows := range [][]ledger.Row{nil, {row("E3", matched)}, {row("E1", matched)}} {
		var entry *ledger.EntryRecordedError
		if err := s.Ingest(ctxOf(t), again, rows); !errors.Is(err, ledger.ErrAlreadyRecorded) || errors.As(err, &entry) {
			t.Fatalf("Ingest of file %s again with %d rows: %v, want ErrAlreadyRecorded for the file, not an entry's refusal", f.ID, len(rows), err)
		}
	}
	files := allFiles(t, s)
	if len(files) != 1 || files[0].Name != f.Name || !files[0].IngestedAt.Equal(f.IngestedAt) {
		t.Fatalf("files after the second ingest: %+v, want only the first ingest's", files)
	}
	expectNothingRecorded(t, s, "E3")
	if got := keys(allRows(t, s, ledger.Query{})); !slices.Equal(got, []string{"E2/0", "E1/0"}) {
		t.Fatalf("rows after the second ingest: %v", got)
	}
}

func testEntryOfAnotherFile(t *testing.T, s ledger.Store, _ Open) {
	ingest(t, s, file("camt054", base), row("E1", matched), row("E1", matched, txn(1)))
	// The statement repeats the notification's entry among new ones.
	err := s.Ingest(ctxOf(t), file("camt053", base.Add(time.Hour)),
		[]ledger.Row{row("E9", unmatched), row("E1", matched, txn(1)), row("E8", unmatched)})
	expectRefused(t, err, "E1")
	expectFiles(t, s, "camt054")
	if got := allRows(t, s, ledger.Query{FileID: "camt053"}); len(got) != 0 {
		t.Fatalf("the refused file has rows: %v", keys(got))
	}
	expectNothingRecorded(t, s, "E9", "E8")
	if got := allRows(t, s, ledger.Query{}); len(got) != 2 {
		t.Fatalf("rows after the refusal: %v, want the first file's two", keys(got))
	}
	// A row is keyed by its entry and transaction: another transaction of the entry is
	// another row.
	ingest(t, s, file("other", base.Add(2*time.Hour)), row("E1", matched, txn(2)))
	if got := keys(allRows(t, s, ledger.Query{})); !slices.Equal(got, []string{"E1/2", "E1/1", "E1/0"}) {
		t.Fatalf("rows: %v", got)
	}
}

func testRecorded(t *testing.T, s ledger.Store, _ Open) {
	const n = 1200 // more than one query's worth of keys
	var rows []ledger.Row
	var refs []string
	want := map[string]bool{}
	for i := range n {
		ref := fmt.Sprintf("E%05d", i)
		rows = append(rows, row(ref, unmatched))
		if i%7 == 0 {
			rows = append(rows, row(ref, unmatched, txn(1)))
		}
		refs = append(refs, ref, "X"+ref) // every other one unknown
		want[ref] = true
	}
	ingest(t, s, file("big", base), rows...)
	refs = append(refs, "E00001", "E00001", "")
	if got := recorded(t, s, refs...); !maps.Equal(got, want) {
		t.Fatalf("Recorded of %d references: %d answered, want the %d recorded", len(refs), len(got), len(want))
	}
	expectNothingRecorded(t, s)
	expectNothingRecorded(t, s, "unknown", "e00001")
	if got := recorded(t, s, "E00007"); !maps.Equal(got, map[string]bool{"E00007": true}) {
		t.Fatalf("Recorded of an entry with two transactions: %v", got)
	}
}

func testReceived(t *testing.T, s ledger.Store, _ Open) {
	a, b, c := ledger.OrderKey{Namespace: "tenant-a", OrderID: "order-a"}, ledger.OrderKey{Namespace: "tenant-a", OrderID: "order-b"},
		ledger.OrderKey{Namespace: "tenant-a", OrderID: "order-c"}
	otherA := ledger.OrderKey{Namespace: "tenant-b", OrderID: "order-a"} // same id, other tenant
	twice := ledger.OrderKey{Namespace: "tenant-a", OrderID: "order-d"}  // paid in two parts in one file
	over, payout := ledger.OrderKey{Namespace: "tenant-b", OrderID: "order-o"}, ledger.OrderKey{Namespace: "tenant-b", OrderID: "payout-p"}
	of := func(k ledger.OrderKey, received int64) func(*ledger.Row) {
		return forOrder(k.Namespace, k.OrderID, received)
	}
	ingest(t, s, file("file-1", base),
		row("E01", underpaid, of(a, 30)),
		row("E02", underpaid, of(b, 40)),
		row("E03", unmatched, of(c, 999)),
		row("E04", matched, of(otherA, 70)),
		row("E05", underpaid, of(over, 10)),
		row("E06", paidOut, of(payout, 0)),
	)
	ingest(t, s, file("file-2", base.Add(time.Hour)),
		row("E11", matched, of(a, 100)),
		row("E12", wrongCurrency, of(b, 555)),
		row("E13", unmatched, of(b, 777)),
		row("E14", overpaid, of(over, 120)),
		row("E15", returned, of(payout, 5)),
		row("E16", wrongCurrency, of(c, 888)),
		row("E17", underpaid, of(twice, 20)),
		row("E18", underpaid, of(twice, 50)),
		row("E19", unmatched, of(twice, 0)),
	)
	// Many orders of a third tenant, more than one query's worth.
	want := map[ledger.OrderKey]int64{a: 100, b: 40, otherA: 70, over: 120, twice: 50}
	var many []ledger.Row
	for i := range 1100 {
		k := ledger.OrderKey{Namespace: "tenant-c", OrderID: fmt.Sprintf("order-%04d", i)}
		many = append(many, row(fmt.Sprintf("M%04d", i), underpaid, of(k, int64(i+1))))
		want[k] = int64(i + 1)
	}
	ingest(t, s, file("file-3", base.Add(2*time.Hour)), many...)
	ask := []ledger.OrderKey{a, b, c, otherA, over, payout, twice, a, {Namespace: "tenant-a", OrderID: "unknown"},
		{Namespace: "tenant-z", OrderID: "order-a"}}
	for k := range want {
		ask = append(ask, k)
	}
	got, err := s.Received(ctxOf(t), ask)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("Received of %v: %d, want %d", k, got[k], v)
			}
		}
		for k, v := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("Received answered %v: %d, which has no receipt", k, v)
			}
		}
		t.FailNow()
	}
	if got, err := s.Received(ctxOf(t), nil); err != nil || len(got) != 0 {
		t.Fatalf("Received of no orders: %v, %v", got, err)
	}
}

// expectPending checks the pending rows (limit rows at most) by their keys.
func expectPending(t *testing.T, s ledger.Store, limit int, want ...string) []ledger.Row {
	t.Helper()
	got, err := s.Pending(ctxOf(t), limit)
	if err != nil {
		t.Fatalf("Pending(%d): %v", limit, err)
	}
	if k := keys(got); !slices.Equal(k, want) {
		t.Fatalf("Pending(%d): %v, want %v", limit, k, want)
	}
	for _, r := range got {
		if !r.Pending || !r.AppliedAt.IsZero() {
			t.Fatalf("a pending row %s says pending %t, applied at %s", keys([]ledger.Row{r})[0], r.Pending, r.AppliedAt)
		}
	}
	return got
}

// rowOf is the row of entry ref (transaction 0), by Rows.
func rowOf(t *testing.T, s ledger.Store, ref string) ledger.Row {
	t.Helper()
	for _, r := range allRows(t, s, ledger.Query{}) {
		if r.EntryReference == ref && r.Transaction == 0 {
			return r
		}
	}
	t.Fatalf("no row of entry %s", ref)
	return ledger.Row{}
}

// expectApplied checks that the row of entry ref is not pending and applied at at (zero:
// never).
func expectApplied(t *testing.T, s ledger.Store, ref string, at time.Time) {
	t.Helper()
	r := rowOf(t, s, ref)
	if r.Pending || !r.AppliedAt.Equal(at) {
		t.Fatalf("row of %s: pending %t, applied at %s; want done at %s", ref, r.Pending, r.AppliedAt, at)
	}
}

func testPendingUntilDone(t *testing.T, s ledger.Store, _ Open) {
	o := forOrder("tenant-a", "order-a", 10)
	ingest(t, s, file("file-1", base), row("P0", underpaid, o, pending), row("N1", unmatched), row("P2", underpaid, o, pending),
		row("P3", matched, o, pending))
	ingest(t, s, file("file-2", base.Add(time.Hour)), row("P4", overpaid, o, pending), row("N5", paidOut))
	expectPending(t, s, 2, "P0/0", "P2/0")
	first := expectPending(t, s, 1000, "P0/0", "P2/0", "P3/0", "P4/0")
	t1 := base.Add(2 * time.Hour)
	if err := s.Done(ctxOf(t), []int64{first[0].ID, first[1].ID}, t1); err != nil {
		t.Fatal(err)
	}
	expectPending(t, s, 2, "P3/0", "P4/0")
	expectApplied(t, s, "P0", t1)
	expectApplied(t, s, "P2", t1)
	t2 := t1.Add(time.Minute)
	if err := s.Done(ctxOf(t), []int64{first[3].ID, first[2].ID}, t2); err != nil {
		t.Fatal(err)
	}
	expectPending(t, s, 1000)
	expectApplied(t, s, "P3", t2)
	expectApplied(t, s, "P4", t2)
	// Rows without an effect to write were never pending and are never applied.
	expectApplied(t, s, "N1", time.Time{})
	expectApplied(t, s, "N5", time.Time{})
}

func testDoneTwice(t *testing.T, s ledger.Store, _ Open) {
	o := forOrder("tenant-a", "order-a", 10)
	ingest(t, s, file("file-1", base), row("P0", underpaid, o, pending), row("P1", matched, o, pending), row("N2", unmatched))
	rows := expectPending(t, s, 10, "P0/0", "P1/0")
	p0, p1 := rows[0].ID, rows[1].ID
	n2 := rowOf(t, s, "N2").ID
	t1, t2, t3 := base.Add(time.Hour), base.Add(2*time.Hour), base.Add(3*time.Hour)
	for _, call := range []struct {
		ids []int64
		at  time.Time
	}{
		{[]int64{p0}, t1},
		{[]int64{p0, p1, p1}, t2},      // p0 done already
		{[]int64{p1, p0}, t3},          // both done already
		{[]int64{n2, 1 << 40, -1}, t3}, // never pending, and unknown
		{nil, t3},
	} {
		if err := s.Done(ctxOf(t), call.ids, call.at); err != nil {
			t.Fatalf("Done(%v, %s): %v", call.ids, call.at, err)
		}
	}
	expectPending(t, s, 10)
	expectApplied(t, s, "P0", t1)
	expectApplied(t, s, "P1", t2)
	expectApplied(t, s, "N2", time.Time{})
}

func testRowsPaging(t *testing.T, s ledger.Store, _ Open) {
	kinds := []string{matched, underpaid, unmatched, overpaid, wrongCurrency}
	var files []ledger.File
	for fi, spec := range []struct {
		namespace string
		n         int
	}{{"tenant-a", 120}, {"tenant-b", 60}, {"tenant-a", 30}} {
		f := file(fmt.Sprintf("file-%d", fi), base.Add(time.Duration(fi)*time.Hour))
		var rows []ledger.Row
		for i := range spec.n {
			rows = append(rows, row(fmt.Sprintf("F%d-E%03d", fi, i), kinds[i%len(kinds)],
				forOrder(spec.namespace, fmt.Sprintf("order-%d", i%4), int64(i))))
		}
		ingest(t, s, f, rows...)
		files = append(files, f)
	}
	all := allRows(t, s, ledger.Query{})
	if len(all) != 210 {
		t.Fatalf("all rows: %d, want 210", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID >= all[i-1].ID {
			t.Fatalf("rows are not newest first: id %d after %d", all[i].ID, all[i-1].ID)
		}
	}
	// The default page is 100 rows.
	page, next, err := s.Rows(ctxOf(t), ledger.Query{})
	if err != nil || len(page) != 100 || next == "" || page[0].ID != all[0].ID {
		t.Fatalf("the first default page: %d rows, next %q, %v; want 100 rows and a cursor", len(page), next, err)
	}
	// Pages of 7, with rows ingested while paging (newer): the pages still cover the
	// rows as they were, each once.
	added := 0
	paged := pageRows(t, s, ledger.Query{Limit: 7}, func() {
		added++
		ingest(t, s, file(fmt.Sprintf("later-%d", added), base.Add(24*time.Hour)), row(fmt.Sprintf("L%d", added), returned))
	})
	if got, want := rowIDs(paged), rowIDs(all); !slices.Equal(got, want) {
		t.Fatalf("pages of 7 with rows ingested meanwhile: %d rows, want the %d there were", len(got), len(want))
	}
	filters := []struct {
		q    ledger.Query
		keep func(r ledger.Row) bool
	}{
		{ledger.Query{Kinds: []string{unmatched}}, func(r ledger.Row) bool { return r.Kind == unmatched }},
		{ledger.Query{Kinds: []string{matched, overpaid}}, func(r ledger.Row) bool { return r.Kind == matched || r.Kind == overpaid }},
		{ledger.Query{Namespace: "tenant-b"}, func(r ledger.Row) bool { return r.Namespace == "tenant-b" }},
		{ledger.Query{Namespace: "tenant-a", OrderID: "order-2"}, func(r ledger.Row) bool {
			return r.Namespace == "tenant-a" && r.OrderID == "order-2"
		}},
		{ledger.Query{FileID: files[2].ID}, func(r ledger.Row) bool { return r.FileID == files[2].ID }},
		{ledger.Query{Namespace: "tenant-a", FileID: files[0].ID, Kinds: []string{underpaid, wrongCurrency}}, func(r ledger.Row) bool {
			return r.Namespace == "tenant-a" && r.FileID == files[0].ID && (r.Kind == underpaid || r.Kind == wrongCurrency)
		}},
		{ledger.Query{Namespace: "tenant-c"}, func(ledger.Row) bool { return false }},
		{ledger.Query{Kinds: []string{paidOut}}, func(ledger.Row) bool { return false }},
	}
	for _, f := range filters {
		var want []int64
		for _, r := range all {
			if f.keep(r) {
				want = append(want, r.ID)
			}
		}
		q := f.q
		q.Limit = 9
		if got := rowIDs(pageRows(t, s, q, nil)); !slices.Equal(got, want) {
			t.Fatalf("Rows(%+v) in pages of 9: %d rows %v, want %d %v", f.q, len(got), got, len(want), want)
		}
	}
}

func testFilesPaging(t *testing.T, s ledger.Store, _ Open) {
	// Ingested out of order, three in one millisecond, two in another.
	at := []struct {
		id     string
		offset time.Duration
	}{{"f-d", 2 * time.Second}, {"f-a", 0}, {"f-g", 3 * time.Second}, {"f-c", time.Second}, {"f-f", 2 * time.Second},
		{"f-b", time.Second}, {"f-e", 2 * time.Second}}
	for _, a := range at {
		ingest(t, s, file(a.id, base.Add(a.offset)))
	}
	want := []string{"f-g", "f-f", "f-e", "f-d", "f-c", "f-b", "f-a"}
	expectFiles(t, s, want...)
	got, next, err := s.Files(ctxOf(t), 0, "")
	if err != nil || next != "" || !slices.Equal(fileIDs(got), want) {
		t.Fatalf("Files of the default limit: %v, next %q, %v; want all of %v", fileIDs(got), next, err, want)
	}
	// Pages of 2, with files ingested while paging (newer, and one in the very
	// millisecond of the newest): the pages still cover the files as they were.
	var paged []string
	cursor := ""
	for n := 0; ; n++ {
		page, next, err := s.Files(ctxOf(t), 2, cursor)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 2 || (next != "" && len(page) != 2) {
			t.Fatalf("a page of 2 has %d files (next %q)", len(page), next)
		}
		paged = append(paged, fileIDs(page)...)
		if next == "" {
			break
		}
		cursor = next
		ingest(t, s, file(fmt.Sprintf("f-z%d", n), base.Add(time.Duration(n+4)*time.Second)))
		ingest(t, s, file(fmt.Sprintf("f-0%d", n), base.Add(3*time.Second)))
	}
	if !slices.Equal(paged, want) {
		t.Fatalf("files in pages of 2 with files ingested meanwhile: %v, want %v", paged, want)
	}
}

func testInvalid(t *testing.T, s ledger.Store, _ Open) {
	o := forOrder("tenant-a", "order-a", 10)
	ingest(t, s, file("ok", base), row("OK1", underpaid, o, pending), row("OK2", unmatched))
	_, rowCursor, err := s.Rows(ctxOf(t), ledger.Query{Limit: 1})
	if err != nil || rowCursor == "" {
		t.Fatalf("a page of one of two rows: cursor %q, %v", rowCursor, err)
	}
	ingest(t, s, file("ok-2", base.Add(time.Hour)))
	_, fileCursor, err := s.Files(ctxOf(t), 1, "")
	if err != nil || fileCursor == "" {
		t.Fatalf("a page of one of two files: cursor %q, %v", fileCursor, err)
	}
	ctx := ctxOf(t)
	n := 0
	// ingestWith ingests a new file of a valid new row and r.
	ingestWith := func(r ledger.Row) func() error {
		return func() error {
			n++
			return s.Ingest(ctx, file(fmt.Sprintf("bad-%d", n), base.Add(2*time.Hour)), []ledger.Row{row(fmt.Sprintf("NEW%d", n), matched), r})
		}
	}
	applied := base.Add(time.Hour)
	calls := map[string]func() error{
		"Ingest of a file without id": func() error {
			f := file("", base)
			return s.Ingest(ctx, f, []ledger.Row{row("NEW-A", matched)})
		},
		"Ingest of a row without entry reference": ingestWith(row("", matched)),
		"Ingest of a negative transaction":        ingestWith(row("NEW-B", matched, txn(-1))),
		"Ingest of a row without kind":            ingestWith(row("NEW-C", "")),
		"Ingest of a pending row without order":   ingestWith(row("NEW-D", underpaid, pending)),
		"Ingest of a pending row applied already": ingestWith(row("NEW-E", underpaid, o, pending, func(r *ledger.Row) { r.AppliedAt = applied })),
		"Ingest of a row of another file":         ingestWith(row("NEW-F", matched, func(r *ledger.Row) { r.FileID = "ok" })),
		"Ingest of a decision's entry reference":  ingestWith(row(ledger.DecisionEntryReference("NEW-H"), matched)),
		"Ingest of a row naming a decision":       ingestWith(row("NEW-I", unmatched, func(r *ledger.Row) { r.Decision = "d-1" })),
		"Ingest of one transaction twice": func() error {
			return s.Ingest(ctx, file("bad-twice", base), []ledger.Row{row("NEW-G", matched), row("NEW-G", unmatched)})
		},
		"Pending of limit 0":    func() error { _, err := s.Pending(ctx, 0); return err },
		"Pending of limit -1":   func() error { _, err := s.Pending(ctx, -1); return err },
		"Pending of limit 1001": func() error { _, err := s.Pending(ctx, 1001); return err },
		"Done without time":     func() error { return s.Done(ctx, []int64{1, 2, 3}, time.Time{}) },
		"Rows of limit -1":      func() error { _, _, err := s.Rows(ctx, ledger.Query{Limit: -1}); return err },
		"Rows of limit 1001":    func() error { _, _, err := s.Rows(ctx, ledger.Query{Limit: 1001}); return err },
		"Rows of a bad cursor":  func() error { _, _, err := s.Rows(ctx, ledger.Query{Cursor: "not a cursor"}); return err },
		"Rows of a made-up cursor": func() error {
			_, _, err := s.Rows(ctx, ledger.Query{Cursor: "bm90LWEtY3Vyc29y"})
			return err
		},
		"Rows of a cursor of Files": func() error { _, _, err := s.Rows(ctx, ledger.Query{Cursor: fileCursor}); return err },
		"Rows of an order without namespace": func() error {
			_, _, err := s.Rows(ctx, ledger.Query{OrderID: "order-a"})
			return err
		},
		"Files of limit -1":         func() error { _, _, err := s.Files(ctx, -1, ""); return err },
		"Files of limit 1001":       func() error { _, _, err := s.Files(ctx, 1001, ""); return err },
		"Files of a bad cursor":     func() error { _, _, err := s.Files(ctx, 10, "not a cursor"); return err },
		"Files of a made-up cursor": func() error { _, _, err := s.Files(ctx, 10, "bm90LWEtY3Vyc29y"); return err },
		"Files of a cursor of Rows": func() error { _, _, err := s.Files(ctx, 10, rowCursor); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ledger.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// Nothing of it was written.
	expectFiles(t, s, "ok-2", "ok")
	if got := keys(allRows(t, s, ledger.Query{})); !slices.Equal(got, []string{"OK2/0", "OK1/0"}) {
		t.Fatalf("rows after the invalid calls: %v", got)
	}
	expectNothingRecorded(t, s, "NEW1", "NEW2", "NEW3", "NEW4", "NEW5", "NEW6", "NEW7", "NEW8", "NEW-A", "NEW-B", "NEW-C", "NEW-D",
		"NEW-E", "NEW-F", "NEW-G", ledger.DecisionEntryReference("NEW-H"), "NEW-I")
	expectPending(t, s, 10, "OK1/0")
}

func testConcurrentIngests(t *testing.T, s ledger.Store, open Open) {
	stores := []ledger.Store{s, open(t)} // two replicas
	const contenders = 4
	for r := range 5 {
		shared := fmt.Sprintf("SHARED-%d", r)
		errs := make([]error, contenders)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range contenders {
			rows := []ledger.Row{row(fmt.Sprintf("OWN-%d-%d", r, g), unmatched), row(shared, matched), row(shared, matched, txn(1))}
			if g%2 == 1 {
				slices.Reverse(rows) // the entry's rows in the other order
			}
			f := file(fmt.Sprintf("round-%d-%d", r, g), base.Add(time.Duration(r)*time.Hour))
			wg.Go(func() {
				<-start
				errs[g] = stores[g%len(stores)].Ingest(ctxOf(t), f, rows)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for g, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: ingests %d and %d both recorded entry %s", r, winner, g, shared)
			case err == nil:
				winner = g
			default:
				expectRefused(t, err, shared)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no ingest recorded entry %s: %v", r, shared, errs)
		}
		for g := range contenders {
			id := fmt.Sprintf("round-%d-%d", r, g)
			want := 0
			if g == winner {
				want = 3
			}
			if got := allRows(t, s, ledger.Query{FileID: id}); len(got) != want {
				t.Fatalf("round %d: file %s has %d rows, want %d (ingest %d won)", r, id, len(got), want, winner)
			}
			own := fmt.Sprintf("OWN-%d-%d", r, g)
			if got := recorded(t, stores[1], own); got[own] != (g == winner) {
				t.Fatalf("round %d: entry %s recorded %t, want %t", r, own, got[own], g == winner)
			}
		}
	}
	files := allFiles(t, stores[1])
	if len(files) != 5 {
		t.Fatalf("files after 5 rounds: %v, want one a round", fileIDs(files))
	}
}

// expectTime checks that got is want, in UTC.
func expectTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) || (!got.IsZero() && got.Location() != time.UTC) {
		t.Fatalf("%s: %s, want %s in UTC", what, got, want)
	}
}

func testRoundTrip(t *testing.T, s ledger.Store, _ Open) {
	cest := time.FixedZone("CEST", 2*60*60)
	f := ledger.File{
		ID: "claim-7f3a", Name: "CAMT054_20260401_0900.xml", SHA256: strings.Repeat("0123456789abcdef", 4),
		MessageType: "camt.054.001.08", MessageID: "NOTIF-2026-04-01-0042",
		DeliveredAt: time.Date(2026, 4, 1, 11, 0, 1, 234_000_000, cest), IngestedAt: time.Date(2026, 4, 1, 11, 0, 2, 5_000_000, cest),
		Counts: map[string]int{matched: 2, unmatched: 1, string(reconcile.Duplicate): 3, string(reconcile.Ignored): 1},
	}
	rf := "RF18539007547034" // a structured creditor reference (ISO 11649)
	full := ledger.Row{
		EntryReference: "2026040112345678", Transaction: 3, Kind: overpaid, Rule: string(reconcile.ByReference),
		Reason: "", CreditDebit: "CRDT", Amount: 1_250_000_000, Currency: "EUR",
		BookingDate: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), ValueDate: time.Date(2026, 4, 2, 0, 0, 0, 0, cest),
		CreditorReference: rf, ReferenceValid: true, EndToEndID: "E2E-ÄÖÜ-42",
		DebtorName: "Müller & Söhne GmbH", DebtorIBAN: "DE89370400440532013000", Namespace: "tenant-a", OrderID: "order-1",
		Due: 1_000_000_000, ReceivedBefore: 200_000_000, Received: 1_250_000_000, Shortfall: 0, Excess: 250_000_000,
		ReturnReason: "AC04", AppliedAt: time.Date(2026, 4, 1, 11, 0, 3, 999_000_000, cest),
	}
	pendingRow := full
	pendingRow.Transaction, pendingRow.Kind, pendingRow.Pending, pendingRow.AppliedAt = 4, underpaid, true, time.Time{}
	pendingRow.Amount, pendingRow.Received, pendingRow.Shortfall, pendingRow.Excess = 1, 200_000_001, 799_999_999, 0
	unmatchedRow := ledger.Row{EntryReference: "2026040199999999", Kind: unmatched, Reason: string(reconcile.ReasonNoMatch),
		CreditDebit: "DBIT", Amount: -5, Currency: "USD"}
	ingest(t, s, f, full, pendingRow, unmatchedRow)

	files := allFiles(t, s)
	if len(files) != 1 {
		t.Fatalf("files: %v", fileIDs(files))
	}
	got := files[0]
	expectTime(t, "DeliveredAt", got.DeliveredAt, f.DeliveredAt)
	expectTime(t, "IngestedAt", got.IngestedAt, f.IngestedAt)
	if !maps.Equal(got.Counts, f.Counts) {
		t.Fatalf("Counts: %v, want %v", got.Counts, f.Counts)
	}
	got.DeliveredAt, got.IngestedAt, got.Counts = f.DeliveredAt, f.IngestedAt, f.Counts
	if !reflect.DeepEqual(got, f) {
		t.Fatalf("the file read back:\n got %+v\nwant %+v", got, f)
	}

	rows := allRows(t, s, ledger.Query{FileID: f.ID})
	slices.Reverse(rows)
	if len(rows) != 3 {
		t.Fatalf("rows of the file: %v", keys(rows))
	}
	pend := expectPending(t, s, 10, fmt.Sprintf("%s/4", pendingRow.EntryReference))
	if !reflect.DeepEqual(pend[0], rows[1]) {
		t.Fatalf("Pending and Rows read the row differently:\n%+v\n%+v", pend[0], rows[1])
	}
	for i, want := range []ledger.Row{full, pendingRow, unmatchedRow} {
		r := rows[i]
		if r.ID <= 0 || (i > 0 && r.ID <= rows[i-1].ID) {
			t.Fatalf("row %d has id %d", i, r.ID)
		}
		expectTime(t, "BookingDate", r.BookingDate, want.BookingDate)
		expectTime(t, "ValueDate", r.ValueDate, want.ValueDate)
		expectTime(t, "AppliedAt", r.AppliedAt, want.AppliedAt)
		want.ID, want.FileID = r.ID, f.ID
		want.BookingDate, want.ValueDate, want.AppliedAt = r.BookingDate, r.ValueDate, r.AppliedAt
		if !reflect.DeepEqual(r, want) {
			t.Fatalf("row %d read back:\n got %+v\nwant %+v", i, r, want)
		}
	}

	// A file without its ingestion time is recorded with the time of its Ingest, and one
	// without counts or delivery time has none.
	before := time.Now()
	ingest(t, s, ledger.File{ID: "bare"})
	after := time.Now()
	var bare ledger.File
	for _, f := range allFiles(t, s) {
		if f.ID == "bare" {
			bare = f
		}
	}
	if bare.ID != "bare" || bare.IngestedAt.Before(before.Truncate(time.Millisecond)) || bare.IngestedAt.After(after) ||
		!bare.DeliveredAt.IsZero() || len(bare.Counts) != 0 {
		t.Fatalf("a bare file read back as %+v, want ingested between %s and %s", bare, before, after)
	}
}
