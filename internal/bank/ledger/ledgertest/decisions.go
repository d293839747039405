package ledgertest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
)

// RunDecisions runs the conformance suite of ledger.Decisions, each rule a subtest on a
// fresh database. Its books must have all three of Ledger, Payouts and Decisions.
func RunDecisions(t *testing.T, newDatabase NewBooksDatabase) {
	t.Helper()
	rules := []struct {
		name string
		test func(t *testing.T, b Books, open OpenBooks)
	}{
		{"AnAssignmentRecordsItsRowAndItsDecisionAtOnce", testAssign},
		{"ARefundRecordsItsInstructionAndASettlementNothingMore", testRefundAndSettlement},
		{"DecidingTwiceUnderOneNameRecordsOnce", testDecideTwice},
		{"ASecondDecisionOnARowIsRefusedNamingTheFirst", testDecidedRow},
		{"InvalidDecisionsWriteNothing", testDecisionsInvalid},
		{"OpenListsTheSuspenseRowsNoDecisionSettled", testOpen},
		{"TwoReplicasDecidingOneRowAtOnceRecordOne", testConcurrentDecide},
		{"ADecisionKeepsEveryField", testDecisionRoundTrip},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			open := newDatabase(t)
			r.test(t, open(t), open)
		})
	}
}

// decidedAt is when the suite's decisions are made.
var decidedAt = base.Add(24 * time.Hour)

// decision is the decision name of action on transaction 0 of entry ref, changed by the
// options.
func decision(name, action, ref string, opts ...func(*ledger.Decision)) ledger.Decision {
	d := ledger.Decision{Name: name, UID: "uid-" + name, Action: action, EntryReference: ref, Note: "checked with the payer",
		DecidedBy: "operator@example.com", DecidedAt: decidedAt}
	for _, o := range opts {
		o(&d)
	}
	return d
}

// assignment is the decision name to assign entry ref to tenant-a's order id.
func assignment(name, ref, id string) ledger.Decision {
	return decision(name, ledger.DecisionAssign, ref, func(d *ledger.Decision) { d.Namespace, d.OrderID = "tenant-a", id })
}

// assignedRow is the row an assignment to tenant-a's order id records: a receipt that
// brings what arrived for the order to received, pending.
func assignedRow(id string, received int64) *ledger.Row {
	r := row("", matched, forOrder("tenant-a", id, received), pending, func(r *ledger.Row) {
		r.EntryReference, r.Rule, r.DebtorName, r.DebtorIBAN = "", "", "Payer", customerIBAN
	})
	return &r
}

// suspenseRefund is the instruction that sends back the payment decision name refunds.
func suspenseRefund(name string, opts ...func(*ledger.Payout)) ledger.Payout {
	p := instruction("", "", ledger.PurposeSuspenseRefund, append([]func(*ledger.Payout){from(ledger.DecisionSource(name)),
		endToEnd("SR-" + name)}, opts...)...)
	p.RemittanceInfo = "Refund of a payment we could not match"
	return p
}

// refundOf is a pointer to suspenseRefund(name).
func refundOf(name string) *ledger.Payout {
	p := suspenseRefund(name)
	return &p
}

func decide(t *testing.T, d ledger.Decisions, dec ledger.Decision, r *ledger.Row, p *ledger.Payout) {
	t.Helper()
	if err := d.Decide(ctxOf(t), dec, r, p); err != nil {
		t.Fatalf("Decide %s (%s of %s/%d): %v", dec.Name, dec.Action, dec.EntryReference, dec.Transaction, err)
	}
}

// decisionOf is the decision recorded under name, and whether one is.
func decisionOf(t *testing.T, d ledger.Decisions, name string) (ledger.Decision, bool) {
	t.Helper()
	got, ok, err := d.Decision(ctxOf(t), name)
	if err != nil {
		t.Fatalf("Decision %s: %v", name, err)
	}
	return got, ok
}

// keyedRow is the row of (ref, transaction), by Decisions.Row, and whether one is.
func keyedRow(t *testing.T, d ledger.Decisions, ref string, transaction int) (ledger.Row, bool) {
	t.Helper()
	got, ok, err := d.Row(ctxOf(t), ref, transaction)
	if err != nil {
		t.Fatalf("Row %s/%d: %v", ref, transaction, err)
	}
	return got, ok
}

// expectDecidedBy checks that the row of entry ref (transaction 0) names the decision
// name ("": none).
func expectDecidedBy(t *testing.T, d ledger.Decisions, ref, name string) {
	t.Helper()
	r, ok := keyedRow(t, d, ref, 0)
	if !ok {
		t.Fatalf("no row of entry %s", ref)
	}
	if r.Decision != name {
		t.Fatalf("row %s names the decision %q, want %q", ref, r.Decision, name)
	}
}

// expectNoDecision checks that nothing is recorded under name: no decision, no row.
func expectNoDecision(t *testing.T, d ledger.Decisions, name string) {
	t.Helper()
	if got, ok := decisionOf(t, d, name); ok {
		t.Fatalf("a decision is recorded under %s: %+v", name, got)
	}
	if got, ok := keyedRow(t, d, ledger.DecisionEntryReference(name), 0); ok {
		t.Fatalf("decision %s has a row: %+v", name, got)
	}
}

// expectDecided checks that err is a *DecidedError naming the decision name, so
// ErrInvalid.
func expectDecided(t *testing.T, what string, err error, name string) {
	t.Helper()
	var decided *ledger.DecidedError
	if !errors.As(err, &decided) || decided.Decision != name || !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("%s: %v, want a *DecidedError naming %s (ErrInvalid)", what, err, name)
	}
}

func testAssign(t *testing.T, b Books, _ OpenBooks) {
	l, d := b.Ledger, b.Decisions
	order := ledger.OrderKey{Namespace: "tenant-a", OrderID: "order-a"}
	// order-a has received 100 of its due; a payment without its reference waits in
	// suspense.
	ingest(t, l, file("camt-1", base), row("M1", underpaid, forOrder("tenant-a", "order-a", 100), pending),
		row("S1", unmatched, func(r *ledger.Row) { r.Amount, r.DebtorName = 300, "Payer" }))
	before := rowOf(t, l, "M1")
	dec := assignment("assign-1", "S1", "order-a")
	decide(t, d, dec, assignedRow("order-a", 400), nil)

	got, ok := decisionOf(t, d, "assign-1")
	if !ok || !reflect.DeepEqual(got, dec) {
		t.Fatalf("the decision read back: %+v (found %t), want %+v", got, ok, dec)
	}
	expectDecidedBy(t, d, "S1", "assign-1")
	ref := ledger.DecisionEntryReference("assign-1")
	r, ok := keyedRow(t, d, ref, 0)
	if !ok {
		t.Fatalf("the assignment recorded no row of %s", ref)
	}
	want := *assignedRow("order-a", 400)
	want.ID, want.EntryReference, want.Decision = r.ID, ref, "assign-1"
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("the assignment's row:\n got %+v\nwant %+v", r, want)
	}
	if r.ID <= before.ID || r.FileID != "" {
		t.Fatalf("the assignment's row has id %d (the ingested row %d) and file %q; want a later id and no file", r.ID, before.ID, r.FileID)
	}
	// It is the ledger's like an ingested row: pending in order, counted for its order,
	// listed with the order's rows, and no file's.
	pend := expectPending(t, l, 10, "M1/0", ref+"/0")
	if !reflect.DeepEqual(pend[1], r) {
		t.Fatalf("Pending and Row read the assignment's row differently:\n%+v\n%+v", pend[1], r)
	}
	if got, err := l.Received(ctxOf(t), []ledger.OrderKey{order}); err != nil || got[order] != 400 {
		t.Fatalf("Received of order-a after the assignment: %v, %v; want 400", got, err)
	}
	if got := keys(allRows(t, l, ledger.Query{Namespace: "tenant-a", OrderID: "order-a"})); !slices.Equal(got, []string{ref + "/0", "M1/0"}) {
		t.Fatalf("the rows of order-a: %v", got)
	}
	if got := keys(allRows(t, l, ledger.Query{FileID: "camt-1"})); !slices.Equal(got, []string{"S1/0", "M1/0"}) {
		t.Fatalf("the rows of camt-1: %v", got)
	}
	if got := recorded(t, l, ref); !got[ref] {
		t.Fatalf("Recorded of the assignment's entry: %v", got)
	}
	if err := l.Done(ctxOf(t), []int64{r.ID}, decidedAt); err != nil {
		t.Fatal(err)
	}
	expectPending(t, l, 10, "M1/0")
	// A row ingested later comes after it.
	ingest(t, l, file("camt-2", base.Add(48*time.Hour)), row("M2", underpaid, forOrder("tenant-a", "order-a", 700)))
	if got, err := l.Received(ctxOf(t), []ledger.OrderKey{order}); err != nil || got[order] != 700 {
		t.Fatalf("Received of order-a after a later receipt: %v, %v; want 700", got, err)
	}
	// Nothing else was recorded.
	if got, ok := decisionOf(t, d, "unknown"); ok {
		t.Fatalf("Decision of an unknown name: %+v", got)
	}
	if got, ok := keyedRow(t, d, "S1", 1); ok {
		t.Fatalf("Row of an unknown transaction: %+v", got)
	}
	if got := allPayouts(t, b.Payouts, ledger.PayoutQuery{}); len(got) != 0 {
		t.Fatalf("an assignment instructed %v", transfers(got))
	}
}

func testRefundAndSettlement(t *testing.T, b Books, _ OpenBooks) {
	l, d, p := b.Ledger, b.Decisions, b.Payouts
	ingest(t, l, file("camt-1", base), row("S1", unmatched), row("S2", wrongCurrency, func(r *ledger.Row) { r.Currency = "USD" }))
	decide(t, d, decision("refund-1", ledger.DecisionRefund, "S1"), nil, refundOf("refund-1"))
	expectDecidedBy(t, d, "S1", "refund-1")
	if got, ok := decisionOf(t, d, "refund-1"); !ok || got.Action != ledger.DecisionRefund || got.EntryReference != "S1" {
		t.Fatalf("the refund read back: %+v (found %t)", got, ok)
	}
	// The instruction, as Instruct records one: in no file yet, of no order.
	unfiled := expectUnfiled(t, p, 10, "")
	want := suspenseRefund("refund-1")
	want.ID, want.Status = unfiled[0].ID, instructed
	if !reflect.DeepEqual(unfiled[0], want) {
		t.Fatalf("the refund's instruction:\n got %+v\nwant %+v", unfiled[0], want)
	}
	if _, ok := keyedRow(t, d, ledger.DecisionEntryReference("refund-1"), 0); ok {
		t.Fatal("a refund recorded a row")
	}
	// It leaves as any instruction does.
	addFile(t, p, "F1", base.Add(time.Hour), unfiled...)
	release(t, p, "F1", base.Add(2*time.Hour))
	if got, err := p.Released(ctxOf(t), time.Time{}); err != nil || !slices.Equal(transfers(got), []string{"SR-refund-1"}) {
		t.Fatalf("Released: %v, %v; want the refund's", transfers(got), err)
	}

	// A payment settled outside the service: the decision, and nothing more.
	decide(t, d, decision("settled-1", ledger.DecisionSettledOutside, "S2"), nil, nil)
	expectDecidedBy(t, d, "S2", "settled-1")
	if got, ok := decisionOf(t, d, "settled-1"); !ok || got.Action != ledger.DecisionSettledOutside {
		t.Fatalf("the settlement read back: %+v (found %t)", got, ok)
	}
	if got := allPayouts(t, p, ledger.PayoutQuery{}); len(got) != 1 {
		t.Fatalf("instructions after a settlement: %v, want the refund's only", transfers(got))
	}
	if got := keys(allRows(t, l, ledger.Query{})); !slices.Equal(got, []string{"S2/0", "S1/0"}) {
		t.Fatalf("rows after a refund and a settlement: %v, want the two ingested", got)
	}
	expectPending(t, l, 10)
}

func testDecideTwice(t *testing.T, b Books, _ OpenBooks) {
	l, d, p := b.Ledger, b.Decisions, b.Payouts
	ingest(t, l, file("camt-1", base), row("S1", unmatched), row("S2", unmatched))
	first := assignment("d-1", "S1", "order-a")
	decide(t, d, first, assignedRow("order-a", 300), nil)
	r, _ := keyedRow(t, d, ledger.DecisionEntryReference("d-1"), 0)
	// Asked again after a crash, as it was or otherwise: nothing is written.
	for what, call := range map[string]struct {
		d ledger.Decision
		r *ledger.Row
		p *ledger.Payout
	}{
		"the same decision":                        {first, assignedRow("order-a", 300), nil},
		"the same name with another row":           {first, assignedRow("order-a", 999), nil},
		"the same name on another entry":           {assignment("d-1", "S2", "order-b"), assignedRow("order-b", 300), nil},
		"the same name refunding another entry":    {decision("d-1", ledger.DecisionRefund, "S2"), nil, refundOf("d-1")},
		"the same name settling the decided entry": {decision("d-1", ledger.DecisionSettledOutside, "S1"), nil, nil},
	} {
		if err := d.Decide(ctxOf(t), call.d, call.r, call.p); !errors.Is(err, ledger.ErrAlreadyRecorded) {
			t.Fatalf("Decide of %s: %v, want ErrAlreadyRecorded", what, err)
		}
	}
	if got, _ := decisionOf(t, d, "d-1"); !reflect.DeepEqual(got, first) {
		t.Fatalf("the decision after it was asked again: %+v, want the first %+v", got, first)
	}
	if again, _ := keyedRow(t, d, ledger.DecisionEntryReference("d-1"), 0); !reflect.DeepEqual(again, r) {
		t.Fatalf("the assignment's row after it was asked again:\n got %+v\nwant %+v", again, r)
	}
	expectDecidedBy(t, d, "S1", "d-1")
	expectDecidedBy(t, d, "S2", "")
	if got := keys(allRows(t, l, ledger.Query{})); len(got) != 3 {
		t.Fatalf("rows after the decision was asked again: %v, want the two ingested and the assignment's", got)
	}
	if got := allPayouts(t, p, ledger.PayoutQuery{}); len(got) != 0 {
		t.Fatalf("instructions after the decision was asked again: %v", transfers(got))
	}
}

func testDecidedRow(t *testing.T, b Books, _ OpenBooks) {
	l, d, p := b.Ledger, b.Decisions, b.Payouts
	ingest(t, l, file("camt-1", base), row("S1", unmatched))
	decide(t, d, decision("settled-1", ledger.DecisionSettledOutside, "S1"), nil, nil)
	expectDecided(t, "an assignment of a settled row", d.Decide(ctxOf(t), assignment("assign-2", "S1", "order-a"),
		assignedRow("order-a", 300), nil), "settled-1")
	expectDecided(t, "a refund of a settled row", d.Decide(ctxOf(t), decision("refund-2", ledger.DecisionRefund, "S1"), nil,
		refundOf("refund-2")), "settled-1")
	expectDecided(t, "a second settlement of a settled row", d.Decide(ctxOf(t),
		decision("settled-2", ledger.DecisionSettledOutside, "S1"), nil, nil), "settled-1")
	for _, name := range []string{"assign-2", "refund-2", "settled-2"} {
		expectNoDecision(t, d, name)
	}
	expectDecidedBy(t, d, "S1", "settled-1")
	if got := allPayouts(t, p, ledger.PayoutQuery{}); len(got) != 0 {
		t.Fatalf("instructions after the refused decisions: %v", transfers(got))
	}
	expectPending(t, l, 10)
}

func testDecisionsInvalid(t *testing.T, b Books, _ OpenBooks) {
	l, d, p := b.Ledger, b.Decisions, b.Payouts
	ingest(t, l, file("camt", base), row("S1", unmatched), row("S2", wrongCurrency),
		row("M1", matched, forOrder("tenant-a", "order-a", 100)), row("P1", paidOut, transfer("order-x")))
	decide(t, d, assignment("ok", "S2", "order-a"), assignedRow("order-a", 200), nil)
	instruct(t, p, payout("held"))
	ctx := ctxOf(t)
	withRow := func(change func(*ledger.Row)) *ledger.Row {
		r := assignedRow("order-a", 300)
		change(r)
		return r
	}
	withPayout := func(change func(*ledger.Payout)) *ledger.Payout {
		r := refundOf("bad")
		change(r)
		return r
	}
	refund := decision("bad", ledger.DecisionRefund, "S1")
	settle := func(ref string, opts ...func(*ledger.Decision)) ledger.Decision {
		return decision("bad", ledger.DecisionSettledOutside, ref, opts...)
	}
	calls := map[string]struct {
		d ledger.Decision
		r *ledger.Row
		p *ledger.Payout
	}{
		"a decision on a matched row":                  {assignment("bad", "M1", "order-a"), assignedRow("order-a", 300), nil},
		"a decision on a paid-out row":                 {settle("P1"), nil, nil},
		"a decision on an unknown entry":               {settle("S9"), nil, nil},
		"a decision on an unknown transaction":         {settle("S1", func(d *ledger.Decision) { d.Transaction = 1 }), nil, nil},
		"a decision on an assignment's row":            {settle(ledger.DecisionEntryReference("ok")), nil, nil},
		"a decision without name":                      {settle("S1", func(d *ledger.Decision) { d.Name = "" }), nil, nil},
		"a decision without entry":                     {settle(""), nil, nil},
		"a decision on a negative transaction":         {settle("S1", func(d *ledger.Decision) { d.Transaction = -1 }), nil, nil},
		"a decision of an unknown action":              {decision("bad", "Forget", "S1"), nil, nil},
		"an assignment without row":                    {assignment("bad", "S1", "order-a"), nil, nil},
		"an assignment without order":                  {decision("bad", ledger.DecisionAssign, "S1"), assignedRow("order-a", 300), nil},
		"an assignment with a payout":                  {assignment("bad", "S1", "order-a"), assignedRow("order-a", 300), refundOf("bad")},
		"a refund without payout":                      {refund, nil, nil},
		"a refund with a row":                          {refund, assignedRow("order-a", 300), refundOf("bad")},
		"a refund naming an order":                     {assignment("bad", "S1", "order-a"), nil, refundOf("bad")},
		"a settlement with a row":                      {settle("S1"), assignedRow("order-a", 300), nil},
		"a settlement with a payout":                   {settle("S1"), nil, refundOf("bad")},
		"an assignment's row in a file":                {assignment("bad", "S1", "order-a"), withRow(func(r *ledger.Row) { r.FileID = "camt" }), nil},
		"an assignment's row of a bank's entry":        {assignment("bad", "S1", "order-a"), withRow(func(r *ledger.Row) { r.EntryReference = "S7" }), nil},
		"an assignment's row of another transaction":   {assignment("bad", "S1", "order-a"), withRow(txn(1)), nil},
		"an assignment's row of another decision":      {assignment("bad", "S1", "order-a"), withRow(func(r *ledger.Row) { r.Decision = "ok" }), nil},
		"an assignment's row of another order":         {assignment("bad", "S1", "order-a"), assignedRow("order-b", 300), nil},
		"an assignment's row without kind":             {assignment("bad", "S1", "order-a"), withRow(func(r *ledger.Row) { r.Kind = "" }), nil},
		"a refund's payout of another purpose":         {refund, nil, withPayout(func(p *ledger.Payout) { p.Purpose = ledger.PurposeRefund })},
		"a refund's payout of another source":          {refund, nil, withPayout(from(ledger.DecisionSource("ok")))},
		"a refund's payout without creditor IBAN":      {refund, nil, withPayout(func(p *ledger.Payout) { p.CreditorIBAN = "" })},
		"a refund's payout of another's end-to-end id": {refund, nil, withPayout(endToEnd("held"))},
		"a refund's payout with a status":              {refund, nil, withPayout(func(p *ledger.Payout) { p.Status = accepted })},
	}
	for what, call := range calls {
		err := d.Decide(ctx, call.d, call.r, call.p)
		var decided *ledger.DecidedError
		if !errors.Is(err, ledger.ErrInvalid) || errors.As(err, &decided) {
			t.Errorf("Decide of %s: %v, want ErrInvalid (no *DecidedError)", what, err)
		}
	}
	// Nothing of it was written.
	expectNoDecision(t, d, "bad")
	expectDecidedBy(t, d, "S1", "")
	expectDecidedBy(t, d, "M1", "")
	if got := keys(allRows(t, l, ledger.Query{})); len(got) != 5 {
		t.Fatalf("rows after the invalid decisions: %v, want the four ingested and ok's", got)
	}
	if got := allPayouts(t, p, ledger.PayoutQuery{}); !slices.Equal(transfers(got), []string{"held"}) {
		t.Fatalf("instructions after the invalid decisions: %v, want held only", transfers(got))
	}
}

func testOpen(t *testing.T, b Books, _ OpenBooks) {
	l, d := b.Ledger, b.Decisions
	kinds := []string{unmatched, wrongCurrency, matched, underpaid, paidOut, returned, overpaid}
	for fi := range 2 {
		var rows []ledger.Row
		for i := range 70 {
			rows = append(rows, row(fmt.Sprintf("F%d-E%02d", fi, i), kinds[i%len(kinds)], forOrder(fmt.Sprintf("tenant-%d", i%2),
				fmt.Sprintf("order-%d", i), int64(i))))
		}
		ingest(t, l, file(fmt.Sprintf("camt-%d", fi), base.Add(time.Duration(fi)*time.Hour)), rows...)
	}
	open := func(all []ledger.Row) []int64 {
		var out []int64
		for _, r := range all {
			if (r.Kind == unmatched || r.Kind == wrongCurrency) && r.Decision == "" {
				out = append(out, r.ID)
			}
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		all := allRows(t, l, ledger.Query{})
		want := open(all)
		if got := rowIDs(pageRows(t, l, ledger.Query{Open: true, Limit: 4}, nil)); !slices.Equal(got, want) {
			t.Fatalf("%s: the open rows in pages of 4: %v, want %v", when, got, want)
		}
		var wantWrong []int64
		for _, r := range all {
			if r.Kind == wrongCurrency && r.Decision == "" && r.FileID == "camt-1" {
				wantWrong = append(wantWrong, r.ID)
			}
		}
		q := ledger.Query{Open: true, Kinds: []string{wrongCurrency, matched}, FileID: "camt-1", Limit: 3}
		if got := rowIDs(pageRows(t, l, q, nil)); !slices.Equal(got, wantWrong) {
			t.Fatalf("%s: the open rows of camt-1 in another currency: %v, want %v", when, got, wantWrong)
		}
	}
	check("before any decision")
	// Every third suspense row decided, by each action in turn.
	n := 0
	for _, r := range allRows(t, l, ledger.Query{Kinds: []string{unmatched, wrongCurrency}}) {
		n++
		if n%3 != 0 {
			continue
		}
		name := fmt.Sprintf("d-%d", n)
		switch n % 9 {
		case 0:
			decide(t, d, decision(name, ledger.DecisionSettledOutside, r.EntryReference), nil, nil)
		case 3:
			decide(t, d, decision(name, ledger.DecisionRefund, r.EntryReference), nil, refundOf(name))
		default:
			decide(t, d, assignment(name, r.EntryReference, "order-z"), assignedRow("order-z", int64(n)), nil)
		}
	}
	check("after some decisions")
	for _, r := range allRows(t, l, ledger.Query{Open: true}) {
		if r.Decision != "" {
			t.Fatalf("an open row names the decision %q", r.Decision)
		}
		decide(t, d, decision("last-"+r.EntryReference, ledger.DecisionSettledOutside, r.EntryReference), nil, nil)
	}
	if got := allRows(t, l, ledger.Query{Open: true}); len(got) != 0 {
		t.Fatalf("open rows after every one was decided: %v", keys(got))
	}
	check("after every decision")
}

func testConcurrentDecide(t *testing.T, b Books, open OpenBooks) {
	other := open(t)
	replicas := []ledger.Decisions{b.Decisions, other.Decisions}
	const contenders = 4
	refunds, assignments := 0, 0
	for r := range 4 {
		ref := fmt.Sprintf("S-%d", r)
		ingest(t, b.Ledger, file(fmt.Sprintf("camt-%d", r), base.Add(time.Duration(r)*time.Hour)), row(ref, unmatched))
		// Each contender's decision, one action in turn, and what Decide answered it.
		type contender struct {
			name, action string
			err          error
		}
		cs := make([]contender, contenders)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g := range cs {
			c := &cs[g]
			c.name, c.action = fmt.Sprintf("d-%d-%d", r, g), []string{ledger.DecisionAssign, ledger.DecisionRefund,
				ledger.DecisionSettledOutside}[(r+g)%3]
			dec, assigned, refunded := decision(c.name, c.action, ref), (*ledger.Row)(nil), (*ledger.Payout)(nil)
			switch c.action {
			case ledger.DecisionAssign:
				dec, assigned = assignment(c.name, ref, "order-a"), assignedRow("order-a", int64(100*(r+1)))
			case ledger.DecisionRefund:
				refunded = refundOf(c.name)
			}
			replica := replicas[g%len(replicas)]
			wg.Go(func() {
				<-start
				c.err = replica.Decide(ctxOf(t), dec, assigned, refunded)
			})
		}
		close(start)
		wg.Wait()
		var winner *contender
		for i := range cs {
			c := &cs[i]
			switch {
			case c.err == nil && winner != nil:
				t.Fatalf("round %d: decisions %s and %s both settled %s", r, winner.name, c.name, ref)
			case c.err == nil:
				winner = c
			}
		}
		if winner == nil {
			t.Fatalf("round %d: no decision settled %s: %+v", r, ref, cs)
		}
		for _, c := range cs {
			if c.name != winner.name {
				expectDecided(t, fmt.Sprintf("round %d: the decision %s that lost", r, c.name), c.err, winner.name)
				expectNoDecision(t, replicas[1], c.name)
			}
		}
		expectDecidedBy(t, replicas[1], ref, winner.name)
		if got, ok := decisionOf(t, replicas[0], winner.name); !ok || got.EntryReference != ref || got.Action != winner.action {
			t.Fatalf("round %d: the winner %s read back as %+v (found %t)", r, winner.name, got, ok)
		}
		switch winner.action {
		case ledger.DecisionAssign:
			assignments++
		case ledger.DecisionRefund:
			refunds++
		}
		if got := allPayouts(t, other.Payouts, ledger.PayoutQuery{}); len(got) != refunds {
			t.Fatalf("round %d: %d instructions, want the %d of the refunds that won", r, len(got), refunds)
		}
		if got := allRows(t, other.Ledger, ledger.Query{Namespace: "tenant-a", OrderID: "order-a"}); len(got) != assignments {
			t.Fatalf("round %d: %d rows of order-a, want the %d of the assignments that won", r, len(got), assignments)
		}
	}
	// One decision asked by both replicas at once (a retry racing the first attempt):
	// one records it, the other finds it recorded.
	ingest(t, b.Ledger, file("camt-same", base.Add(9*time.Hour)), row("S-same", unmatched))
	errs := make([]error, len(replicas))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, rep := range replicas {
		wg.Go(func() {
			<-start
			errs[i] = rep.Decide(ctxOf(t), assignment("same", "S-same", "order-b"), assignedRow("order-b", 300), nil)
		})
	}
	close(start)
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || (!errors.Is(errs[0], ledger.ErrAlreadyRecorded) && !errors.Is(errs[1], ledger.ErrAlreadyRecorded)) {
		t.Fatalf("one decision by two replicas at once: %v and %v, want one recorded and ErrAlreadyRecorded", errs[0], errs[1])
	}
	if got := keys(allRows(t, b.Ledger, ledger.Query{Namespace: "tenant-a", OrderID: "order-b"})); !slices.Equal(got, []string{"decision/same/0"}) {
		t.Fatalf("rows of tenant-a/order-b: %v, want the assignment's once", got)
	}
	expectDecidedBy(t, replicas[0], "S-same", "same")
}

func testDecisionRoundTrip(t *testing.T, b Books, _ OpenBooks) {
	l, d := b.Ledger, b.Decisions
	cest := time.FixedZone("CEST", 2*60*60)
	ingest(t, l, file("camt", base), row("2026040112345678", wrongCurrency, txn(3)), row("S2", unmatched))
	full := ledger.Decision{
		Name: "bd-0190a0b1", UID: "9b2f8c1e-7d3a-4e5f-8a6b-1c2d3e4f5a6b", Action: ledger.DecisionAssign,
		EntryReference: "2026040112345678", Transaction: 3, Namespace: "tenant-ä", OrderID: "0190a0b1-7c1d-7e2f-8a3b-4c5d6e7f8091",
		Note: "Zahlung von Müller & Söhne, Referenz vertippt: „RF18 5390…“", DecidedBy: "system:serviceaccount:ops:jörg",
		DecidedAt: time.Date(2026, 4, 1, 11, 0, 2, 5_000_000, cest),
	}
	r := row("", overpaid, forOrder(full.Namespace, full.OrderID, 1_250_000_000), pending, func(r *ledger.Row) {
		r.Rule, r.Currency, r.Amount, r.Due, r.Excess = "Decision", "USD", 1_250_000_000, 1_000_000_000, 250_000_000
		r.BookingDate, r.ValueDate = time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)
		r.CreditorReference, r.EndToEndID, r.DebtorName, r.DebtorIBAN = "RF18539007547034", "E2E-ÄÖÜ", "Müller & Söhne GmbH", customerIBAN
	})
	decide(t, d, full, &r, nil)
	got, ok := decisionOf(t, d, full.Name)
	if !ok {
		t.Fatal("the decision is not recorded")
	}
	expectTime(t, "DecidedAt", got.DecidedAt, full.DecidedAt)
	got.DecidedAt = full.DecidedAt
	if !reflect.DeepEqual(got, full) {
		t.Fatalf("the decision read back:\n got %+v\nwant %+v", got, full)
	}
	gotRow, _ := keyedRow(t, d, ledger.DecisionEntryReference(full.Name), 0)
	expectTime(t, "BookingDate", gotRow.BookingDate, r.BookingDate)
	expectTime(t, "ValueDate", gotRow.ValueDate, r.ValueDate)
	want := r
	want.ID, want.EntryReference, want.Decision = gotRow.ID, ledger.DecisionEntryReference(full.Name), full.Name
	if !reflect.DeepEqual(gotRow, want) {
		t.Fatalf("the assignment's row read back:\n got %+v\nwant %+v", gotRow, want)
	}
	suspense, ok := keyedRow(t, d, full.EntryReference, 3)
	if !ok || suspense.EntryReference != full.EntryReference || suspense.Transaction != 3 || suspense.Decision != full.Name ||
		suspense.Kind != wrongCurrency || suspense.FileID != "camt" {
		t.Fatalf("the suspense row read back as %+v", suspense)
	}
	// A decision without its time is recorded at the time of its Decide.
	before := time.Now()
	decide(t, d, decision("bare", ledger.DecisionSettledOutside, "S2", func(d *ledger.Decision) {
		d.DecidedAt, d.UID, d.Note, d.DecidedBy = time.Time{}, "", "", ""
	}), nil, nil)
	after := time.Now()
	bare, _ := decisionOf(t, d, "bare")
	if bare.DecidedAt.Before(before.Truncate(time.Millisecond)) || bare.DecidedAt.After(after) || bare.DecidedAt.Location() != time.UTC ||
		bare.UID != "" || bare.Note != "" || bare.DecidedBy != "" {
		t.Fatalf("a bare decision read back as %+v, want decided between %s and %s", bare, before, after)
	}
}
