package reconcile

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
)

// entriesOf parses camt files of package iso20022's test data and returns their entries,
// file after file.
func entriesOf(t *testing.T, files ...string) []iso20022.Entry {
	t.Helper()
	var entries []iso20022.Entry
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", "iso20022", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		statements, err := iso20022.ParseStatements(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, s := range statements {
			entries = append(entries, s.Entries...)
		}
	}
	return entries
}

// fixtureExpectations are what the fund expects on the day of camt054_v08.xml: Marie's
// BUY (she quotes its reference), Jan's BUY (he writes the reference into the free text
// only) beside another investor's BUY of the same amount, and three payouts.
func fixtureExpectations(t *testing.T) ([]Order, []Payout) {
	janRef := reference(t, "2026000124")
	if printed, _ := rf.Format(janRef); printed != "RF19 2026 0001 24" {
		t.Fatalf("Jan's reference prints as %s, not as in the fixture's free text", printed)
	}
	orders := []Order{
		{ID: "o-marie", Namespace: "tenant-a", Reference: "RF462026000123", AmountDue: eur(250000), Currency: "EUR", PayerIBANs: []string{marieIBAN}},
		{ID: "o-jan", Namespace: "tenant-a", Reference: janRef, AmountDue: eur(100050), Currency: "EUR", PayerIBANs: []string{janIBAN}},
		{ID: "o-anna", Namespace: "tenant-b", Reference: reference(t, "2026000125"), AmountDue: eur(100050), Currency: "EUR", PayerIBANs: []string{annaIBAN}},
	}
	payouts := []Payout{
		{OrderID: "ord-7f3a9c2e", Namespace: "tenant-b", Amount: eur(32000), Currency: "EUR", Debited: true},
		{OrderID: "ord-1b2c3d4e", Namespace: "tenant-a", Amount: eur(100000), Currency: "EUR"},
		{OrderID: "ord-5f6a7b8c", Namespace: "tenant-a", Amount: eur(23456), Currency: "EUR"},
	}
	return orders, payouts
}

func TestTheFixtureNotificationAndItsStatementReconcile(t *testing.T) {
	orders, payouts := fixtureExpectations(t)
	entries := entriesOf(t, "camt054_v08.xml", "camt053_v08.xml")
	out, err := Decide(Input{Entries: entries, Orders: orders, Payouts: payouts})
	if err != nil {
		t.Fatal(err)
	}
	dup := brief{Kind: Duplicate}
	want := []brief{
		// camt.054
		{Kind: Matched, Order: "o-marie", By: ByReference, Received: eur(250000)},
		{Kind: Matched, Order: "o-jan", By: ByAmountAndPayer, Received: eur(100050)}, // the free-text reference is not read
		{Kind: Ignored},
		{Kind: Returned, Order: "ord-7f3a9c2e", By: ByEndToEndID},
		{Kind: Unmatched, Reason: ReasonUnknownReturn}, // the reversal of a card fee
		{Kind: PaidOut, Order: "ord-1b2c3d4e", By: ByEndToEndID},
		{Kind: PaidOut, Order: "ord-5f6a7b8c", By: ByEndToEndID},
		// camt.053: the same bookings again, and another account's fee
		dup, dup, dup, dup, dup,
		{Kind: Unmatched, Reason: ReasonNotAPayout},
	}
	if !reflect.DeepEqual(briefs(out), want) {
		t.Fatalf("\n got %+v\nwant %+v", briefs(out), want)
	}
	if out[3].ReturnReason != "AC04" {
		t.Errorf("the return's reason is %q, want AC04", out[3].ReturnReason)
	}
	if out[1].Reference != "" {
		t.Errorf("Jan's outcome has reference %q: only the structured reference counts", out[1].Reference)
	}

	// Ingesting both files again changes nothing.
	applied := map[string]bool{}
	for _, r := range AppliedReferences(out) {
		applied[r] = true
	}
	again, err := Decide(Input{Entries: entries, Orders: orders[2:], Payouts: payouts, Applied: applied})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range again {
		if o.Kind != Duplicate && !(o.Kind == Ignored && !entries[o.Entry].Booked()) {
			t.Errorf("again: %+v", o)
		}
	}
}

func TestIngestingTheSameStatementTwiceYieldsOnlyDuplicates(t *testing.T) {
	orders, payouts := fixtureExpectations(t)
	statement := entriesOf(t, "camt053_v08.xml")
	first, err := Decide(Input{Entries: statement, Orders: orders, Payouts: payouts})
	if err != nil {
		t.Fatal(err)
	}
	refs := AppliedReferences(first)
	if len(refs) != len(statement) {
		t.Fatalf("AppliedReferences = %v, want the %d entries", refs, len(statement))
	}
	applied := map[string]bool{}
	for _, r := range refs {
		applied[r] = true
	}
	for name, in := range map[string]Input{
		"in a second run":                   {Entries: statement, Orders: orders, Payouts: payouts, Applied: applied},
		"twice in one run, the second time": {Entries: append(append([]iso20022.Entry{}, statement...), statement...), Orders: orders, Payouts: payouts},
	} {
		out, err := Decide(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Applied) == 0 {
			out = out[len(first):]
		}
		if len(out) != len(first) {
			t.Fatalf("%s: %d outcomes, want %d", name, len(out), len(first))
		}
		for _, o := range out {
			if o.Kind != Duplicate {
				t.Errorf("%s: %+v, want Duplicate", name, o)
			}
		}
	}
}
