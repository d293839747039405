package sqlstore

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

func TestDecisionsAreTheStoreOpenReturned(t *testing.T) {
	dsn := sqliteLedgerDSN(t)
	s, l := openLedger(t, dsn, Options{})
	d, ok := Decisions(s)
	if !ok {
		t.Fatal("the store Open returned has no decisions book")
	}
	ctx := context.Background()
	if err := l.Ingest(ctx, ledger.File{ID: "camt"}, []ledger.Row{{EntryReference: "E1", Kind: string(reconcile.Unmatched)}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Decide(ctx, ledger.Decision{Name: "d-1", Action: ledger.DecisionSettledOutside, EntryReference: "E1"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	// Another process on the same file sees it, and a read-only one reads it.
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		other, _ := openLedger(t, dsn, opts)
		od, _ := Decisions(other)
		if got, ok, err := od.Decision(ctx, "d-1"); err != nil || !ok || got.EntryReference != "E1" {
			t.Fatalf("Decision through another store (%+v): %+v (found %t), %v", opts, got, ok, err)
		}
		if r, ok, err := od.Row(ctx, "E1", 0); err != nil || !ok || r.Decision != "d-1" {
			t.Fatalf("Row through another store (%+v): %+v (found %t), %v", opts, r, ok, err)
		}
	}
	readOnly, _ := openLedger(t, dsn, Options{ReadOnly: true})
	rd, _ := Decisions(readOnly)
	if err := rd.Decide(ctx, ledger.Decision{Name: "d-2", Action: ledger.DecisionSettledOutside, EntryReference: "E1"}, nil, nil); err == nil {
		t.Fatal("a read-only archive's decisions book recorded a decision")
	}
	if _, ok := Decisions(otherStore{}); ok {
		t.Fatal("Decisions of another archive.Store answered a decisions book")
	}
}

func TestDecisionsCallsAreMeasuredWithTheirErrors(t *testing.T) {
	s, l := openLedger(t, sqliteLedgerDSN(t), Options{})
	d, _ := Decisions(s)
	ctx := context.Background()
	errs := func(op, kind string) float64 { return testutil.ToFloat64(opErrors.WithLabelValues("sqlite", op, kind)) }
	decides, reads := histogramCount(t, "bank_decisions_decide"), histogramCount(t, "bank_decisions_decision")
	conflicts, invalids := errs("bank_decisions_decide", "conflict"), errs("bank_decisions_decide", "invalid")
	notFound := errs("bank_decisions_decision", "internal")
	if err := l.Ingest(ctx, ledger.File{ID: "camt"}, []ledger.Row{{EntryReference: "E1", Kind: string(reconcile.Unmatched)}}); err != nil {
		t.Fatal(err)
	}
	settle := func(name string) error {
		return d.Decide(ctx, ledger.Decision{Name: name, Action: ledger.DecisionSettledOutside, EntryReference: "E1"}, nil, nil)
	}
	if err := settle("d-1"); err != nil {
		t.Fatal(err)
	}
	if err := settle("d-1"); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("a decision recorded twice: %v", err)
	}
	var decided *ledger.DecidedError
	if err := settle("d-2"); !errors.As(err, &decided) {
		t.Fatalf("a second decision on a row: %v", err)
	}
	if _, ok, err := d.Decision(ctx, "unknown"); ok || err != nil {
		t.Fatalf("Decision of an unknown name: %t, %v", ok, err)
	}
	if got := histogramCount(t, "bank_decisions_decide") - decides; got != 3 {
		t.Errorf("bank_decisions_decide latency observed %d times, want 3", got)
	}
	if got := histogramCount(t, "bank_decisions_decision") - reads; got != 1 {
		t.Errorf("bank_decisions_decision latency observed %d times, want 1", got)
	}
	if got := errs("bank_decisions_decide", "conflict") - conflicts; got != 1 {
		t.Errorf("bank_decisions_decide conflicts counted %v, want 1", got)
	}
	if got := errs("bank_decisions_decide", "invalid") - invalids; got != 1 {
		t.Errorf("invalid bank_decisions_decide calls counted %v, want 1 (the decided row)", got)
	}
	if got := errs("bank_decisions_decision", "internal") - notFound; got != 0 {
		t.Errorf("a decision not found counted as an error")
	}
}
