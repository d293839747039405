package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/money"
)

func bankRun(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"bank"}, args...), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// bankBase is when the seeded files were ingested around.
var bankBase = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

// seededFile is one file of the seeded ledger and its rows, as recorded (IDs and file IDs
// filled in).
type seededFile struct {
	file ledger.File
	rows []ledger.Row
}

// seedBank records three files in a new SQLite archive, opened read-write and closed
// again, and returns its DSN and what it recorded. Row IDs 1 to 8, in file order:
//
//	file 1 (oldest): 1 Matched acme/o-a, 2 Matched beta/o-b, 3 Unmatched NoMatch
//	file 2:          4 Underpaid acme/o-c (pending), 5 WrongCurrency acme/o-a
//	file 3 (newest): 6 Overpaid beta/o-d, 7 Unmatched NotAPayout (a debit), 8 Unmatched
//	                 UnknownReturn (a return credit)
func seedBank(t *testing.T) (string, []seededFile) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "archive.db")
	dsn := "sqlite://" + path
	applied := bankBase.Add(time.Minute)
	day := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	credit := func(ref, kind string, amount int64) ledger.Row {
		return ledger.Row{EntryReference: ref, Kind: kind, CreditDebit: "CRDT", Amount: amount, Currency: "EUR",
			BookingDate: day, ValueDate: day, EndToEndID: "NOTPROVIDED", DebtorName: "Jan Jansen", DebtorIBAN: "NL91ABNA0417164300"}
	}
	r1 := credit("MYBANK-1", string(reconcile.Matched), 104_992_900)
	r1.Rule, r1.CreditorReference, r1.ReferenceValid = string(reconcile.ByReference), "RF8610834051056554170873", true
	r1.Namespace, r1.OrderID, r1.Due, r1.Received, r1.AppliedAt = "acme", "o-a", 104_992_900, 104_992_900, applied
	r2 := credit("MYBANK-2", string(reconcile.Matched), 5_000_000)
	r2.Rule, r2.Namespace, r2.OrderID, r2.Due, r2.Received, r2.AppliedAt = string(reconcile.ByAmount), "beta", "o-b", 5_000_000, 5_000_000, applied
	r3 := credit("MYBANK-3", string(reconcile.Unmatched), 1_230_000)
	r3.Reason, r3.CreditorReference = string(reconcile.ReasonNoMatch), "RF00BAD"
	r4 := credit("MYBANK-4", string(reconcile.Underpaid), 400_000)
	r4.Rule, r4.Namespace, r4.OrderID, r4.Pending = string(reconcile.ByPayer), "acme", "o-c", true
	r4.Due, r4.ReceivedBefore, r4.Received, r4.Shortfall = 1_000_000, 100_000, 500_000, 500_000
	r5 := credit("MYBANK-5", string(reconcile.WrongCurrency), 104_992_900)
	r5.Currency, r5.Rule, r5.Namespace, r5.OrderID, r5.Due = "USD", string(reconcile.ByReference), "acme", "o-a", 104_992_900
	r5.CreditorReference, r5.ReferenceValid, r5.Transaction = "RF8610834051056554170873", true, 1
	r6 := credit("MYBANK-6", string(reconcile.Overpaid), 2_100_000)
	r6.Rule, r6.Namespace, r6.OrderID, r6.AppliedAt = string(reconcile.ByPayer), "beta", "o-d", applied
	r6.Due, r6.Received, r6.Excess = 2_000_000, 2_100_000, 100_000
	r7 := ledger.Row{EntryReference: "MYBANK-7", Kind: string(reconcile.Unmatched), Reason: string(reconcile.ReasonNotAPayout),
		CreditDebit: "DBIT", Amount: 750_000, Currency: "EUR", EndToEndID: "E2E-7"}
	r8 := ledger.Row{EntryReference: "MYBANK-8", Kind: string(reconcile.Unmatched), Reason: string(reconcile.ReasonUnknownReturn),
		CreditDebit: "CRDT", Amount: 750_000, Currency: "EUR", EndToEndID: "E2E-8", ReturnReason: "AC04", BookingDate: day}
	files := []seededFile{
		{ledger.File{ID: "20261127T100000.000Z-AAAAAAAA-notification-1.xml", Name: "notification-1.xml", SHA256: strings.Repeat("a", 64),
			MessageType: "camt.054.001.08", MessageID: "MYBANK-NTF-1", DeliveredAt: bankBase.Add(-time.Second), IngestedAt: bankBase,
			Counts: map[string]int{"Matched": 2, "Unmatched": 1}}, []ledger.Row{r1, r2, r3}},
		{ledger.File{ID: "20261127T110000.000Z-BBBBBBBB-statement-1.xml", Name: "statement-1.xml", SHA256: strings.Repeat("b", 64),
			MessageType: "camt.053.001.08", MessageID: "MYBANK-STM-1", DeliveredAt: bankBase.Add(time.Hour - time.Second),
			IngestedAt: bankBase.Add(time.Hour), Counts: map[string]int{"Underpaid": 1, "WrongCurrency": 1, "Duplicate": 3}},
			[]ledger.Row{r4, r5}},
		{ledger.File{ID: "20261127T120000.000Z-CCCCCCCC-notification-2.xml", Name: "notification-2.xml", SHA256: strings.Repeat("c", 64),
			MessageType: "camt.054.001.08", MessageID: "MYBANK-NTF-2", IngestedAt: bankBase.Add(2 * time.Hour),
			Counts: map[string]int{"Overpaid": 1, "Unmatched": 2, "Ignored": 0}}, []ledger.Row{r6, r7, r8}},
	}

	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn, sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	l, ok := sqlstore.Ledger(st)
	if !ok {
		t.Fatal("the SQLite archive has no bank ledger")
	}
	id := int64(0)
	for i, f := range files {
		if err := l.Ingest(ctx, f.file, f.rows); err != nil {
			t.Fatal(err)
		}
		for j := range f.rows {
			id++
			files[i].rows[j].ID, files[i].rows[j].FileID = id, f.file.ID
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dsn, files
}

// tableIDs is the first column of a table's rows (its header left out).
func tableIDs(t *testing.T, out string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("not a table of entries:\n%s", out)
	}
	ids := []string{}
	for _, l := range lines[1:] {
		ids = append(ids, strings.Fields(l)[0])
	}
	return ids
}

// entriesIDs runs "bank entries" with args and returns the IDs it printed.
func entriesIDs(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := bankRun(append([]string{"entries"}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("bank entries %q: code %d, stderr %q", args, code, errOut)
	}
	return tableIDs(t, out)
}

// nextCursor is the cursor "next page: --cursor C" on stderr names, "" when none.
func nextCursor(t *testing.T, stderr string) string {
	t.Helper()
	if stderr == "" {
		return ""
	}
	c, ok := strings.CutPrefix(strings.TrimSpace(stderr), "next page: --cursor ")
	if !ok || strings.Contains(c, "\n") {
		t.Fatalf("stderr is not the next page's cursor: %q", stderr)
	}
	return c
}

func TestBankFilesListsTheFilesNewestFirstWithTheirCounts(t *testing.T) {
	dsn, _ := seedBank(t)
	out, errOut, code := bankRun("files", "--archive-dsn", dsn)
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := [][]string{
		{"INGESTED", "ID", "NAME", "TYPE", "MESSAGE", "ID", "OUTCOMES"},
		{"2026-11-27T12:00:00Z", "20261127T120000.000Z-CCCCCCCC-notification-2.xml", "notification-2.xml", "camt.054.001.08", "MYBANK-NTF-2", "Overpaid=1", "Unmatched=2"},
		{"2026-11-27T11:00:00Z", "20261127T110000.000Z-BBBBBBBB-statement-1.xml", "statement-1.xml", "camt.053.001.08", "MYBANK-STM-1", "Duplicate=3", "Underpaid=1", "WrongCurrency=1"},
		{"2026-11-27T10:00:00Z", "20261127T100000.000Z-AAAAAAAA-notification-1.xml", "notification-1.xml", "camt.054.001.08", "MYBANK-NTF-1", "Matched=2", "Unmatched=1"},
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines:\n%s", len(want), out)
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("line %d: %q, want %q", i, got, w)
		}
	}
}

func TestBankEntriesListsEveryTenantsRowsNewestFirst(t *testing.T) {
	dsn, _ := seedBank(t)
	if got := entriesIDs(t, "--archive-dsn", dsn); !reflect.DeepEqual(got, []string{"8", "7", "6", "5", "4", "3", "2", "1"}) {
		t.Errorf("entries: %q", got)
	}
}

func TestBankEntriesFilterByKind(t *testing.T) {
	dsn, _ := seedBank(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--kind", "Matched"}, []string{"2", "1"}},
		// The suspense: comma-separated, repeated, or in another case, the same.
		{[]string{"--kind", "Unmatched,WrongCurrency"}, []string{"8", "7", "5", "3"}},
		{[]string{"--kind", "Unmatched", "--kind", "WrongCurrency"}, []string{"8", "7", "5", "3"}},
		{[]string{"--kind", "unmatched,wrongcurrency,Unmatched"}, []string{"8", "7", "5", "3"}},
		{[]string{"--kind", "Returned"}, []string{}},
	} {
		if got := entriesIDs(t, append([]string{"--archive-dsn", dsn}, c.args...)...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

func TestBankEntriesFilterByTenant(t *testing.T) {
	dsn, _ := seedBank(t)
	if got := entriesIDs(t, "--archive-dsn", dsn, "-n", "acme"); !reflect.DeepEqual(got, []string{"5", "4", "1"}) {
		t.Errorf("-n acme: %q", got)
	}
	if got := entriesIDs(t, "--archive-dsn", dsn, "--namespace", "beta", "--kind", "Overpaid"); !reflect.DeepEqual(got, []string{"6"}) {
		t.Errorf("--namespace beta --kind Overpaid: %q", got)
	}
	if got := entriesIDs(t, "--archive-dsn", dsn, "-n", "other"); len(got) != 0 {
		t.Errorf("-n other: %q", got)
	}
}

func TestBankEntriesFilterByOrder(t *testing.T) {
	dsn, _ := seedBank(t)
	if got := entriesIDs(t, "--archive-dsn", dsn, "-n", "acme", "--order", "o-a"); !reflect.DeepEqual(got, []string{"5", "1"}) {
		t.Errorf("acme/o-a: %q", got)
	}
	// An order is named within its namespace.
	if got := entriesIDs(t, "--archive-dsn", dsn, "-n", "beta", "--order", "o-a"); len(got) != 0 {
		t.Errorf("beta/o-a: %q", got)
	}
}

func TestBankEntriesFilterByFile(t *testing.T) {
	dsn, files := seedBank(t)
	if got := entriesIDs(t, "--archive-dsn", dsn, "--file", files[1].file.ID); !reflect.DeepEqual(got, []string{"5", "4"}) {
		t.Errorf("file 2: %q", got)
	}
	if got := entriesIDs(t, "--archive-dsn", dsn, "--file", files[0].file.ID, "--kind", "Unmatched"); !reflect.DeepEqual(got, []string{"3"}) {
		t.Errorf("file 1, Unmatched: %q", got)
	}
}

func TestBankPagesWithTheCursorOnStderr(t *testing.T) {
	dsn, _ := seedBank(t)
	var pages [][]string
	cursor := ""
	for range 5 {
		args := []string{"entries", "--archive-dsn", dsn, "--limit", "3"}
		if cursor != "" {
			args = append(args, "--cursor", cursor)
		}
		out, errOut, code := bankRun(args...)
		if code != 0 {
			t.Fatalf("page %d: code %d, stderr %q", len(pages), code, errOut)
		}
		pages = append(pages, tableIDs(t, out))
		if cursor = nextCursor(t, errOut); cursor == "" {
			break
		}
	}
	if want := [][]string{{"8", "7", "6"}, {"5", "4", "3"}, {"2", "1"}}; !reflect.DeepEqual(pages, want) {
		t.Errorf("entries pages %q, want %q", pages, want)
	}

	out, errOut, code := bankRun("files", "--archive-dsn", dsn, "--limit", "2")
	cursor = nextCursor(t, errOut)
	if lines := strings.Split(strings.TrimRight(out, "\n"), "\n"); code != 0 || len(lines) != 3 || cursor == "" {
		t.Fatalf("files, first page: code %d, cursor %q:\n%s", code, cursor, out)
	}
	out, errOut, code = bankRun("files", "--archive-dsn", dsn, "--limit", "2", "--cursor", cursor)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || errOut != "" || len(lines) != 2 || !strings.Contains(lines[1], "notification-1.xml") {
		t.Fatalf("files, last page: code %d, stderr %q:\n%s", code, errOut, out)
	}
}

func TestBankUsageErrorsExitTwo(t *testing.T) {
	dsn, _ := seedBank(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{}, "a subcommand is required"},
		{[]string{"suspense"}, "unknown subcommand"},
		{[]string{"entries"}, "--archive-dsn is required"},
		{[]string{"files"}, "--archive-dsn is required"},
		{[]string{"entries", "--archive-dsn", dsn, "--order", "o-a"}, "--order needs -n"},
		{[]string{"entries", "--archive-dsn", dsn, "--kind", "Suspense"}, "Matched, Underpaid, Overpaid, Unmatched, WrongCurrency, Returned, PaidOut"},
		{[]string{"entries", "--archive-dsn", dsn, "--kind", "Unmatched,Duplicate"}, `"Duplicate": not a kind of the bank ledger`},
		{[]string{"entries", "--archive-dsn", dsn, "-o", "wide"}, "one of table, json, yaml"},
		{[]string{"entries", "--archive-dsn", dsn, "--limit", "0"}, "between 1 and 1000"},
		{[]string{"files", "--archive-dsn", dsn, "--limit", "1001"}, "between 1 and 1000"},
		{[]string{"entries", "--archive-dsn", dsn, "--cursor", "not-a-cursor"}, "cursor"},
		{[]string{"files", "--archive-dsn", dsn, "--cursor", "not-a-cursor"}, "cursor"},
		{[]string{"files", "--archive-dsn", dsn, "--kind", "Matched"}, "unknown flag"},
		{[]string{"entries", "--archive-dsn", dsn, "extra"}, "unexpected arguments"},
		{[]string{"entries", "--archive-dsn", "mysql://x"}, "archive DSN"},
		{[]string{"payouts"}, "--archive-dsn is required"},
		{[]string{"payouts", "--archive-dsn", dsn, "--order", "o-s1"}, "--order needs -n"},
		{[]string{"payouts", "--archive-dsn", dsn, "--status", "Paid"}, "Instructed, Accepted, Rejected"},
		{[]string{"payouts", "--archive-dsn", dsn, "--status", "Rejected,"}, `"": not a status of a payout instruction`},
		{[]string{"payouts", "--archive-dsn", dsn, "--kind", "Matched"}, "unknown flag"},
		{[]string{"entries", "--archive-dsn", dsn, "--status", "Rejected"}, "unknown flag"},
		{[]string{"payouts", "--archive-dsn", dsn, "-o", "wide"}, "one of table, json, yaml"},
		{[]string{"payouts", "--archive-dsn", dsn, "--limit", "1001"}, "between 1 and 1000"},
		{[]string{"payouts", "--archive-dsn", dsn, "--cursor", "not-a-cursor"}, "cursor"},
		{[]string{"payouts", "--archive-dsn", dsn, "extra"}, "unexpected arguments"},
	} {
		stdout, stderr, code := bankRun(c.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "fundsharectl: ") || !strings.Contains(stderr, c.says) ||
			strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: code %d, stdout %q, stderr %q; want 2 and one line saying %q", c.args, code, stdout, stderr, c.says)
		}
	}
}

func TestBankOrderWithoutNamespaceIsAUsageError(t *testing.T) {
	// Refused before the archive is opened: it need not exist.
	_, stderr, code := bankRun("entries", "--archive-dsn", "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), "--order", "o-a")
	if code != 2 || !strings.Contains(stderr, "--order needs -n") {
		t.Errorf("code %d, stderr %q", code, stderr)
	}
}

func TestBankUnknownKindIsAUsageErrorNamingTheKnownKinds(t *testing.T) {
	_, stderr, code := bankRun("entries", "--archive-dsn", "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), "--kind", "Unmatched,Lost")
	if code != 2 || !strings.Contains(stderr, `--kind "Lost"`) {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	for _, k := range bankKinds {
		if !strings.Contains(stderr, k) {
			t.Errorf("the error does not name %s: %q", k, stderr)
		}
	}
}

func TestBankWithoutArchiveDSNIsAUsageError(t *testing.T) {
	for _, verb := range []string{"files", "entries", "payouts"} {
		stdout, stderr, code := bankRun(verb, "-o", "json")
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--archive-dsn is required") {
			t.Errorf("bank %s: code %d, stdout %q, stderr %q", verb, code, stdout, stderr)
		}
	}
}

func TestBankOnAMissingSqlitePathIsAnErrorAndCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	mistyped := filepath.Join(dir, "archiv.db")
	for _, verb := range []string{"files", "entries", "payouts"} {
		stdout, stderr, code := bankRun(verb, "--archive-dsn", "sqlite://"+mistyped)
		if code != 1 || stdout != "" || !strings.Contains(stderr, mistyped) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("bank %s on a missing file: code %d, stdout %q, stderr %q; want 1 and one line naming the path", verb, code, stdout, stderr)
		}
	}
	if _, _, code := bankRun("entries", "--archive-dsn", "sqlite://"+filepath.Join(dir, "nope", "archive.db")); code != 1 {
		t.Errorf("missing directory: code %d", code)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("reading created %s", e.Name())
	}
}

func TestBankReadingTheLedgerWritesNothing(t *testing.T) {
	dsn, _ := seedBank(t)
	path := strings.TrimPrefix(dsn, "sqlite://")
	// A file the reader cannot write (unless root): opening it for writing would fail.
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"files"}, {"entries", "--kind", "Underpaid"}, {"entries", "-n", "acme", "-o", "yaml"}} {
		if _, errOut, code := bankRun(append(args, "--archive-dsn", dsn)...); code != 0 {
			t.Fatalf("bank %q of a read-only file: code %d, %s", args, code, errOut)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("reading changed the database file (%v)", err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("reading wrote %d bytes to the write-ahead log", fi.Size())
	}
	// The pending row is still pending: reading applies nothing.
	out, _, _ := bankRun("entries", "--archive-dsn", dsn, "--kind", "Underpaid")
	if !strings.Contains(out, " yes ") {
		t.Errorf("the Underpaid row is no longer pending:\n%s", out)
	}
}

func TestBankEntriesTableShowsADashForNoOrderAndFormatsAmounts(t *testing.T) {
	dsn, _ := seedBank(t)
	out, _, code := bankRun("entries", "--archive-dsn", dsn)
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := [][]string{
		{"ID", "KIND", "REASON", "AMOUNT", "DIRECTION", "ENTRY", "ORDER", "PENDING", "CREDITOR", "REF", "DECISION"},
		{"8", "Unmatched", "UnknownReturn", "75.0000", "EUR", "CRDT", "MYBANK-8", "-", "no", "-", "-"},
		{"7", "Unmatched", "NotAPayout", "75.0000", "EUR", "DBIT", "MYBANK-7", "-", "no", "-", "-"},
		{"6", "Overpaid", "Payer", "210.0000", "EUR", "CRDT", "MYBANK-6", "beta/o-d", "no", "-", "-"},
		{"5", "WrongCurrency", "Reference", "10499.2900", "USD", "CRDT", "MYBANK-5", "acme/o-a", "no", "RF8610834051056554170873", "-"},
		{"4", "Underpaid", "Payer", "40.0000", "EUR", "CRDT", "MYBANK-4", "acme/o-c", "yes", "-", "-"},
		{"3", "Unmatched", "NoMatch", "123.0000", "EUR", "CRDT", "MYBANK-3", "-", "no", "RF00BAD", "-"},
		{"2", "Matched", "Amount", "500.0000", "EUR", "CRDT", "MYBANK-2", "beta/o-b", "no", "-", "-"},
		{"1", "Matched", "Reference", "10499.2900", "EUR", "CRDT", "MYBANK-1", "acme/o-a", "no", "RF8610834051056554170873", "-"},
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines:\n%s", len(want), out)
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("line %d: %q, want %q", i, got, w)
		}
	}
	// The columns are aligned: every cell of a column starts where its header does.
	if at := strings.Index(lines[0], "ORDER"); lines[1][at:at+2] != "- " || lines[3][at:at+8] != "beta/o-d" {
		t.Errorf("the ORDER column is not aligned:\n%s", out)
	}
}

// rowOf is the ledger.Row a printed bankEntry says, for comparing with what was recorded.
func rowOf(t *testing.T, e bankEntry) ledger.Row {
	t.Helper()
	at := func(s string) time.Time {
		if s == "" {
			return time.Time{}
		}
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !strings.HasSuffix(s, "Z") {
			t.Fatalf("time %q is not RFC 3339 in UTC (%v)", s, err)
		}
		return v
	}
	return ledger.Row{ID: e.ID, FileID: e.FileID, EntryReference: e.EntryReference, Transaction: e.Transaction,
		Kind: e.Kind, Rule: e.Rule, Reason: e.Reason, CreditDebit: e.CreditDebit, Amount: e.Amount, Currency: e.Currency,
		BookingDate: at(e.BookingDate), ValueDate: at(e.ValueDate), CreditorReference: e.CreditorReference,
		ReferenceValid: e.ReferenceValid, EndToEndID: e.EndToEndID, DebtorName: e.DebtorName, DebtorIBAN: e.DebtorIBAN,
		Namespace: e.Namespace, OrderID: e.OrderID, Due: e.Due, ReceivedBefore: e.ReceivedBefore, Received: e.Received,
		Shortfall: e.Shortfall, Excess: e.Excess, ReturnReason: e.ReturnReason, Pending: e.Pending, AppliedAt: at(e.AppliedAt)}
}

func TestBankJSONAndYAMLRoundTripTheFields(t *testing.T) {
	dsn, files := seedBank(t)
	var recorded []ledger.Row // newest first, as printed
	for i := len(files) - 1; i >= 0; i-- {
		for j := len(files[i].rows) - 1; j >= 0; j-- {
			recorded = append(recorded, files[i].rows[j])
		}
	}
	unmarshal := map[string]func([]byte, any) error{
		"json": json.Unmarshal,
		"yaml": func(b []byte, v any) error { return yaml.UnmarshalStrict(b, v) },
	}
	for _, format := range []string{"json", "yaml"} {
		out, errOut, code := bankRun("entries", "--archive-dsn", dsn, "-o", format)
		if code != 0 || errOut != "" {
			t.Fatalf("entries -o %s: code %d, stderr %q", format, code, errOut)
		}
		var entries struct {
			Items []bankEntry `json:"items"`
		}
		if err := unmarshal[format]([]byte(out), &entries); err != nil {
			t.Fatalf("entries -o %s: %v\n%s", format, err, out)
		}
		if len(entries.Items) != len(recorded) {
			t.Fatalf("entries -o %s: %d items, want %d", format, len(entries.Items), len(recorded))
		}
		for i, e := range entries.Items {
			if got := rowOf(t, e); !reflect.DeepEqual(got, recorded[i]) {
				t.Errorf("entries -o %s, item %d:\n got %+v\nwant %+v", format, i, got, recorded[i])
			}
		}
		if got := entries.Items[len(entries.Items)-1].AmountFormatted; got != "10499.2900 EUR" {
			t.Errorf("entries -o %s: amountFormatted %q", format, got)
		}

		out, errOut, code = bankRun("files", "--archive-dsn", dsn, "-o", format)
		if code != 0 || errOut != "" {
			t.Fatalf("files -o %s: code %d, stderr %q", format, code, errOut)
		}
		var fs struct {
			Items []bankFile `json:"items"`
		}
		if err := unmarshal[format]([]byte(out), &fs); err != nil {
			t.Fatalf("files -o %s: %v\n%s", format, err, out)
		}
		if len(fs.Items) != len(files) {
			t.Fatalf("files -o %s: %d items", format, len(fs.Items))
		}
		for i, got := range fs.Items {
			f := files[len(files)-1-i].file
			want := bankFile{ID: f.ID, Name: f.Name, SHA256: f.SHA256, MessageType: f.MessageType, MessageID: f.MessageID,
				IngestedAt: f.IngestedAt.Format(time.RFC3339), Counts: f.Counts}
			if !f.DeliveredAt.IsZero() {
				want.DeliveredAt = f.DeliveredAt.Format(time.RFC3339)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("files -o %s, item %d:\n got %+v\nwant %+v", format, i, got, want)
			}
		}
	}

	// The names are lower camel case; amounts are integers, with the transaction's formatted.
	out, _, _ := bankRun("entries", "--archive-dsn", dsn, "-o", "json", "--kind", "Matched", "-n", "acme")
	for _, s := range []string{`"entryReference": "MYBANK-1"`, `"amount": 104992900`, `"amountFormatted": "10499.2900 EUR"`,
		`"creditorReference": "RF8610834051056554170873"`, `"orderId": "o-a"`, `"appliedAt": "2026-11-27T10:01:00Z"`,
		`"bookingDate": "2026-11-27T00:00:00Z"`, `"debtorIban": "NL91ABNA0417164300"`, `"endToEndId": "NOTPROVIDED"`} {
		if !strings.Contains(out, s) {
			t.Errorf("-o json has no %s:\n%s", s, out)
		}
	}
	// An empty page is an empty list, not null.
	if out, _, code := bankRun("entries", "--archive-dsn", dsn, "-o", "json", "--kind", "Returned"); code != 0 ||
		strings.Join(strings.Fields(out), "") != `{"items":[]}` {
		t.Errorf("an empty page: code %d, %q", code, out)
	}
}

func TestBankHelpSaysTheLedgerIsReadOnlyAndWhatTheKindsMean(t *testing.T) {
	for _, args := range [][]string{{"bank", "--help"}, {"bank", "-h"}, {"help", "bank"}, {"bank", "files", "--help"}, {"bank", "entries", "-h"},
		{"bank", "payouts", "--help"}} {
		stdout, stderr, code := plugin(args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "kubectl fundshare bank entries --open") ||
			!strings.Contains(stdout, "opened read-only") {
			t.Errorf("%q: code %d, stderr %q, stdout:\n%s", args, code, stderr, stdout)
		}
		for _, k := range bankKinds {
			if !strings.Contains(stdout, "\n  "+k+" ") {
				t.Errorf("%q: no line for %s", args, k)
			}
		}
	}
	if stdout, _, _ := plugin("bank", "entries", "--help"); !strings.Contains(stdout, "--kind strings") || !strings.Contains(stdout, "--order") {
		t.Errorf("entries --help lacks its flags:\n%s", stdout)
	}
	if stdout, _, _ := plugin("--help"); !strings.Contains(stdout, "\n  bank ") {
		t.Errorf("the usage does not list bank:\n%s", stdout)
	}
}

func TestBankHelpSaysWhatPayoutsAndTheirStatusesAre(t *testing.T) {
	for _, args := range [][]string{{"bank", "--help"}, {"help", "bank"}, {"bank", "payouts", "-h"}} {
		stdout, stderr, code := plugin(args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%q: code %d, stderr %q", args, code, stderr)
		}
		for _, s := range []string{
			"kubectl fundshare bank payouts --archive-dsn DSN [-o table|json|yaml] [--status S]... [-n NS [--order ID]] [--file MSGID]",
			"kubectl fundshare bank payouts --status Rejected", "the order stalls", "docs/bank.md", "masked",
		} {
			if !strings.Contains(stdout, s) {
				t.Errorf("%q does not say %q:\n%s", args, s, stdout)
			}
		}
		for _, st := range []string{"Instructed", "Accepted", "Rejected"} {
			if !strings.Contains(stdout, "\n  "+st+" ") {
				t.Errorf("%q: no line for %s", args, st)
			}
		}
	}
	stdout, _, _ := plugin("bank", "payouts", "--help")
	for _, s := range []string{"--status strings", "-n, --namespace", "--order", "--file", "--limit", "--cursor", "--archive-dsn"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("payouts --help lacks %s:\n%s", s, stdout)
		}
	}
}

// The IBANs of the seeded payouts: the customers' (personal data, never printed in full)
// and the fund's.
const (
	ibanNL   = "NL91ABNA0417164300"
	ibanDE   = "DE89370400440532013000"
	ibanGB   = "GB29NWBK60161331926819"
	ibanFund = "LU280019400644750000"
)

// seedPayouts records five payout instructions in a new SQLite archive, opened read-write
// and closed again, and returns its DSN and the instructions as recorded, by ID:
//
//	1 acme/o-s1 Payout   10499.2900 EUR to ibanNL, file MSG-1 (released), Accepted
//	2 acme/o-b2 Refund     500.0000 EUR to ibanDE, file MSG-1 (released), Instructed
//	3 beta/o-s3 Payout     210.0000 EUR to ibanGB, file MSG-1 (released), Rejected
//	4 acme/o-b4 Residual     1.2300 EUR to ibanNL, file MSG-2 (not released), Instructed
//	5 beta/o-s5 Payout      75.0000 EUR to ibanDE, in no file, Instructed
func seedPayouts(t *testing.T) (string, map[int64]ledger.Payout) {
	t.Helper()
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "archive.db")
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn, sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	book, ok := sqlstore.Payouts(st)
	if !ok {
		t.Fatal("the SQLite archive has no payouts book")
	}
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	in := func(i int, ns, order string, purpose ledger.Purpose, amount int64, iban string) ledger.Payout {
		return ledger.Payout{Namespace: ns, OrderID: order, Purpose: purpose, EndToEndID: order, Amount: amount, Currency: "EUR",
			CreditorName: "Customer " + order, CreditorIBAN: iban, RemittanceInfo: string(purpose) + " of order " + order,
			DebtorName: "Global Feeder I", DebtorIBAN: ibanFund, ExecutionDate: day,
			InstructedAt: bankBase.Add(time.Duration(i) * time.Minute)}
	}
	if n, err := book.Instruct(ctx, []ledger.Payout{
		in(1, "acme", "o-s1", ledger.PurposePayout, 104_992_900, ibanNL),
		in(2, "acme", "o-b2", ledger.PurposeRefund, 5_000_000, ibanDE),
		in(3, "beta", "o-s3", ledger.PurposePayout, 2_100_000, ibanGB),
		in(4, "acme", "o-b4", ledger.PurposeResidual, 12_300, ibanNL),
		in(5, "beta", "o-s5", ledger.PurposePayout, 750_000, ibanDE),
	}); err != nil || n != 5 {
		t.Fatalf("Instruct: %d, %v", n, err)
	}
	file := func(msgID string, created time.Time) ledger.OutFile {
		return ledger.OutFile{MessageID: msgID, Name: "pain001-" + msgID + ".xml", DebtorIBAN: ibanFund, ExecutionDate: day,
			CreatedAt: created, Data: []byte("<Document><MsgId>" + msgID + "</MsgId></Document>")}
	}
	if err := book.AddFile(ctx, file("MSG-1", bankBase.Add(10*time.Minute)), []int64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := book.AddFile(ctx, file("MSG-2", bankBase.Add(20*time.Minute)), []int64{4}); err != nil {
		t.Fatal(err)
	}
	if err := book.MarkReleased(ctx, "MSG-1", bankBase.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	reported := bankBase.Add(3 * time.Hour)
	if n, err := book.Report(ctx, ledger.File{ID: "20261127T130000.000Z-DDDDDDDD-pain002-1.xml", Name: "pain002-1.xml",
		SHA256: strings.Repeat("d", 64), MessageType: "pain.002.001.10", MessageID: "MYBANK-RPT-1", IngestedAt: reported,
		Counts: map[string]int{"Accepted": 1, "Rejected": 1}}, []ledger.PayoutStatus{
		{OriginalMessageID: "MSG-1", EndToEndID: "o-s1", Status: ledger.StatusAccepted, BankStatus: "ACCP", At: reported},
		{OriginalMessageID: "MSG-1", EndToEndID: "o-s3", Status: ledger.StatusRejected, BankStatus: "RJCT",
			Reason: "AC04: account closed", At: reported},
	}); err != nil || n != 2 {
		t.Fatalf("Report: %d, %v", n, err)
	}
	all, next, err := book.ListPayouts(ctx, ledger.PayoutQuery{Limit: 1000})
	if err != nil || next != "" || len(all) != 5 {
		t.Fatalf("ListPayouts: %d instructions, next %q, %v", len(all), next, err)
	}
	recorded := map[int64]ledger.Payout{}
	for _, p := range all {
		recorded[p.ID] = p
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dsn, recorded
}

// payoutsIDs runs "bank payouts" with args and returns the IDs it printed.
func payoutsIDs(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := bankRun(append([]string{"payouts"}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("bank payouts %q: code %d, stderr %q", args, code, errOut)
	}
	return tableIDs(t, out)
}

func TestBankPayoutsListsInstructionsNewestFirstWithTheirFileAndStatus(t *testing.T) {
	dsn, _ := seedPayouts(t)
	out, errOut, code := bankRun("payouts", "--archive-dsn", dsn)
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	want := [][]string{
		{"ID", "ORDER", "PURPOSE", "AMOUNT", "CREDITOR", "IBAN", "FILE", "RELEASED", "STATUS", "BANK", "STATUS", "REASON", "VOP"},
		{"5", "beta/o-s5", "Payout", "75.0000", "EUR", "******************3000", "-", "-", "Instructed", "-", "-", "-"},
		{"4", "acme/o-b4", "Residual", "1.2300", "EUR", "**************4300", "MSG-2", "-", "Instructed", "-", "-", "-"},
		{"3", "beta/o-s3", "Payout", "210.0000", "EUR", "******************6819", "MSG-1", "2026-11-27T11:00:00Z", "Rejected", "RJCT", "AC04:", "account", "closed", "-"},
		{"2", "acme/o-b2", "Refund", "500.0000", "EUR", "******************3000", "MSG-1", "2026-11-27T11:00:00Z", "Instructed", "-", "-", "-"},
		{"1", "acme/o-s1", "Payout", "10499.2900", "EUR", "**************4300", "MSG-1", "2026-11-27T11:00:00Z", "Accepted", "ACCP", "-", "-"},
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines:\n%s", len(want), out)
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("line %d: %q, want %q", i, got, w)
		}
	}
	// The columns are aligned: every cell of a column starts where its header does.
	for _, col := range []struct{ header, cell string }{{"FILE", "MSG-2"}, {"STATUS", "Instructed"}, {"REASON", "-"}} {
		at := strings.Index(lines[0], col.header)
		if at < 0 || (!strings.HasPrefix(lines[2][at:], col.cell+" ") && lines[2][at:] != col.cell) {
			t.Errorf("the %s column is not aligned:\n%s", col.header, out)
		}
	}
}

func TestBankPayoutsFilterByStatusAndOrder(t *testing.T) {
	dsn, _ := seedPayouts(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--status", "Rejected"}, []string{"3"}},
		// Comma-separated, repeated, or in another case, the same.
		{[]string{"--status", "Accepted,Rejected"}, []string{"3", "1"}},
		{[]string{"--status", "Accepted", "--status", "Rejected"}, []string{"3", "1"}},
		{[]string{"--status", "rejected,ACCEPTED,Rejected"}, []string{"3", "1"}},
		{[]string{"--status", "instructed"}, []string{"5", "4", "2"}},
		{[]string{"-n", "acme"}, []string{"4", "2", "1"}},
		{[]string{"--namespace", "beta", "--status", "Instructed"}, []string{"5"}},
		{[]string{"-n", "acme", "--order", "o-s1"}, []string{"1"}},
		{[]string{"-n", "acme", "--order", "o-s1", "--status", "Rejected"}, []string{}},
		// An order is named within its namespace.
		{[]string{"-n", "beta", "--order", "o-s1"}, []string{}},
		{[]string{"--file", "MSG-1"}, []string{"3", "2", "1"}},
		{[]string{"--file", "MSG-1", "--status", "Instructed"}, []string{"2"}},
		{[]string{"--file", "MSG-2"}, []string{"4"}},
		{[]string{"--file", "MSG-3"}, []string{}},
	} {
		if got := payoutsIDs(t, append([]string{"--archive-dsn", dsn}, c.args...)...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

func TestBankPayoutsNeverPrintsAFullIBAN(t *testing.T) {
	dsn, _ := seedPayouts(t)
	for _, args := range [][]string{{}, {"-o", "json"}, {"-o", "yaml"}, {"--status", "Rejected", "-o", "json"},
		{"-n", "acme", "--order", "o-s1", "-o", "yaml"}, {"--limit", "1"}} {
		out, errOut, code := bankRun(append([]string{"payouts", "--archive-dsn", dsn}, args...)...)
		if code != 0 {
			t.Fatalf("%q: code %d, stderr %q", args, code, errOut)
		}
		for _, iban := range []string{ibanNL, ibanDE, ibanGB, ibanFund} {
			// Neither the IBAN nor any part of it but the last four characters.
			if strings.Contains(out+errOut, iban[:len(iban)-4]) || strings.Contains(out+errOut, iban[:8]) {
				t.Errorf("%q prints the IBAN %s:\n%s%s", args, iban, out, errOut)
			}
		}
		if !strings.Contains(out, "**************4300") && !strings.Contains(out, "******************3000") &&
			!strings.Contains(out, "******************6819") {
			t.Errorf("%q prints no masked IBAN:\n%s", args, out)
		}
	}
	out, _, _ := bankRun("payouts", "--archive-dsn", dsn, "-o", "json", "-n", "acme", "--order", "o-s1")
	if !strings.Contains(out, `"creditorIbanMasked": "**************4300"`) || strings.Contains(out, `"creditorIban"`) {
		t.Errorf("-o json does not print the creditor's IBAN masked under creditorIbanMasked:\n%s", out)
	}
	for in, want := range map[string]string{ibanDE: "******************3000", ibanNL: "**************4300", "NL91": "****", "": ""} {
		if got := maskIBAN(in); got != want {
			t.Errorf("maskIBAN(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBankPayoutsJSONAndYAMLCarryTheFields(t *testing.T) {
	dsn, recorded := seedPayouts(t)
	unmarshal := map[string]func([]byte, any) error{
		"json": json.Unmarshal,
		"yaml": func(b []byte, v any) error { return yaml.UnmarshalStrict(b, v) },
	}
	at := func(s string) time.Time {
		if s == "" {
			return time.Time{}
		}
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !strings.HasSuffix(s, "Z") {
			t.Fatalf("time %q is not RFC 3339 in UTC (%v)", s, err)
		}
		return v
	}
	for _, format := range []string{"json", "yaml"} {
		out, errOut, code := bankRun("payouts", "--archive-dsn", dsn, "-o", format)
		if code != 0 || errOut != "" {
			t.Fatalf("payouts -o %s: code %d, stderr %q", format, code, errOut)
		}
		var payouts struct {
			Items []bankPayout `json:"items"`
		}
		if err := unmarshal[format]([]byte(out), &payouts); err != nil {
			t.Fatalf("payouts -o %s: %v\n%s", format, err, out)
		}
		if len(payouts.Items) != len(recorded) {
			t.Fatalf("payouts -o %s: %d items, want %d", format, len(payouts.Items), len(recorded))
		}
		for i, e := range payouts.Items {
			want, ok := recorded[int64(len(recorded)-i)]
			if !ok || e.ID != want.ID {
				t.Fatalf("payouts -o %s: item %d has ID %d, not newest first", format, i, e.ID)
			}
			got := ledger.Payout{ID: e.ID, Namespace: e.Namespace, OrderID: e.OrderID, Purpose: ledger.Purpose(e.Purpose),
				EndToEndID: e.EndToEndID, Amount: e.Amount, Currency: e.Currency, CreditorName: e.CreditorName,
				RemittanceInfo: e.RemittanceInfo, DebtorName: e.DebtorName, ExecutionDate: at(e.ExecutionDate),
				InstructedAt: at(e.InstructedAt), FileMessageID: e.FileMessageID, ReleasedAt: at(e.ReleasedAt),
				Status: e.Status, BankStatus: e.BankStatus, Reason: e.Reason, StatusAt: at(e.StatusAt), Pending: e.Pending,
				AppliedAt: at(e.AppliedAt)}
			wantIBAN := strings.Repeat("*", len(want.CreditorIBAN)-4) + want.CreditorIBAN[len(want.CreditorIBAN)-4:]
			wantFund := strings.Repeat("*", len(want.DebtorIBAN)-4) + want.DebtorIBAN[len(want.DebtorIBAN)-4:]
			want.CreditorIBAN, want.DebtorIBAN = "", ""
			if !reflect.DeepEqual(got, want) {
				t.Errorf("payouts -o %s, item %d:\n got %+v\nwant %+v", format, i, got, want)
			}
			if e.CreditorIBANMasked != wantIBAN || e.DebtorIBANMasked != wantFund {
				t.Errorf("payouts -o %s, item %d: IBANs %q and %q, want %q and %q", format, i, e.CreditorIBANMasked,
					e.DebtorIBANMasked, wantIBAN, wantFund)
			}
			if wantFormatted := money.Format(want.Amount, want.Currency); e.AmountFormatted != wantFormatted {
				t.Errorf("payouts -o %s, item %d: amountFormatted %q, want %q", format, i, e.AmountFormatted, wantFormatted)
			}
		}
	}

	// The names are lower camel case; amounts are integers, times RFC 3339 in UTC.
	out, _, _ := bankRun("payouts", "--archive-dsn", dsn, "-o", "json", "--status", "Rejected")
	for _, s := range []string{`"id": 3`, `"namespace": "beta"`, `"orderId": "o-s3"`, `"purpose": "Payout"`,
		`"endToEndId": "o-s3"`, `"amount": 2100000`, `"currency": "EUR"`, `"amountFormatted": "210.0000 EUR"`,
		`"creditorIbanMasked": "******************6819"`, `"executionDate": "2026-11-30T00:00:00Z"`,
		`"instructedAt": "2026-11-27T10:03:00Z"`, `"fileMessageId": "MSG-1"`, `"releasedAt": "2026-11-27T11:00:00Z"`,
		`"status": "Rejected"`, `"bankStatus": "RJCT"`, `"reason": "AC04: account closed"`,
		`"statusAt": "2026-11-27T13:00:00Z"`, `"pending": true`} {
		if !strings.Contains(out, s) {
			t.Errorf("-o json has no %s:\n%s", s, out)
		}
	}
	// Empty fields are left out: an instruction in no file, with no status reported.
	out, _, _ = bankRun("payouts", "--archive-dsn", dsn, "-o", "json", "-n", "beta", "--order", "o-s5")
	for _, s := range []string{`"fileMessageId"`, `"releasedAt"`, `"bankStatus"`, `"reason"`, `"statusAt"`, `"appliedAt"`} {
		if strings.Contains(out, s) {
			t.Errorf("-o json of an unfiled instruction has %s:\n%s", s, out)
		}
	}
	// An empty page is an empty list, not null.
	if out, _, code := bankRun("payouts", "--archive-dsn", dsn, "-o", "json", "-n", "other"); code != 0 ||
		strings.Join(strings.Fields(out), "") != `{"items":[]}` {
		t.Errorf("an empty page: code %d, %q", code, out)
	}
}

func TestBankPayoutsPageWithTheCursorOnStderr(t *testing.T) {
	dsn, _ := seedPayouts(t)
	var pages [][]string
	cursor := ""
	for range 5 {
		args := []string{"payouts", "--archive-dsn", dsn, "--limit", "2"}
		if cursor != "" {
			args = append(args, "--cursor", cursor)
		}
		out, errOut, code := bankRun(args...)
		if code != 0 {
			t.Fatalf("page %d: code %d, stderr %q", len(pages), code, errOut)
		}
		pages = append(pages, tableIDs(t, out))
		if cursor = nextCursor(t, errOut); cursor == "" {
			break
		}
	}
	if want := [][]string{{"5", "4"}, {"3", "2"}, {"1"}}; !reflect.DeepEqual(pages, want) {
		t.Errorf("payouts pages %q, want %q", pages, want)
	}
}

func TestBankPayoutsUnknownStatusIsAUsageErrorNamingTheKnownStatuses(t *testing.T) {
	// Refused before the archive is opened: it need not exist.
	_, stderr, code := bankRun("payouts", "--archive-dsn", "sqlite://"+filepath.Join(t.TempDir(), "archive.db"),
		"--status", "Accepted,Paid")
	if code != 2 || !strings.Contains(stderr, `--status "Paid": not a status of a payout instruction`) ||
		strings.Count(stderr, "\n") != 1 {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	for _, s := range []string{"Instructed", "Accepted", "Rejected"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("the error does not name %s: %q", s, stderr)
		}
	}
}

func TestBankPayoutsReadsWithoutWriting(t *testing.T) {
	dsn, _ := seedPayouts(t)
	path := strings.TrimPrefix(dsn, "sqlite://")
	// A file the reader cannot write (unless root): opening it for writing would fail.
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"--status", "Rejected"}, {"-n", "acme", "-o", "yaml"}, {"--file", "MSG-1", "-o", "json"}} {
		if _, errOut, code := bankRun(append([]string{"payouts", "--archive-dsn", dsn}, args...)...); code != 0 {
			t.Fatalf("bank payouts %q of a read-only file: code %d, %s", args, code, errOut)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("reading changed the database file (%v)", err)
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("reading wrote %d bytes to the write-ahead log", fi.Size())
	}
	// The reported statuses' effects are still pending: reading applies nothing.
	out, _, _ := bankRun("payouts", "--archive-dsn", dsn, "--status", "Accepted,Rejected", "-o", "json")
	if strings.Count(out, `"pending": true`) != 2 {
		t.Errorf("the reported instructions are no longer pending:\n%s", out)
	}
}

func TestBankEntriesOpenListsTheSuspenseNoDecisionSettled(t *testing.T) {
	dsn, _ := seedBank(t)
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn, sqlstore.Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := sqlstore.Decisions(st)
	if !ok {
		t.Fatal("the SQLite archive has no decisions book")
	}
	if err := d.Decide(ctx, ledger.Decision{Name: "returned-by-the-bank", UID: "u-1", Action: ledger.DecisionSettledOutside,
		EntryReference: "MYBANK-8", Note: "the bank returned it itself", DecidedAt: bankBase}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if out, _, code := bankRun("entries", "--archive-dsn", dsn); code != 0 || !strings.Contains(out, "returned-by-the-bank") {
		t.Errorf("the table shows no DECISION of the settled entry (code %d):\n%s", code, out)
	}
	out, errOut, code := bankRun("entries", "--archive-dsn", dsn, "--open", "-o", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	var page struct {
		Items []struct {
			Kind, EntryReference string
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range page.Items {
		if it.Kind != "Unmatched" && it.Kind != "WrongCurrency" {
			t.Errorf("--open listed a %s entry, %s", it.Kind, it.EntryReference)
		}
		got = append(got, it.EntryReference)
	}
	if want := []string{"MYBANK-7", "MYBANK-5", "MYBANK-3"}; !slices.Equal(got, want) {
		t.Errorf("--open: %q, want %q", got, want)
	}
}
