package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
)

// openPayouts opens the archive at dsn with opts, closed when the test ends, and returns
// it with its payouts book.
func openPayouts(t *testing.T, dsn string, opts Options) (archive.Store, ledger.Payouts) {
	t.Helper()
	s, _ := openLedger(t, dsn, opts)
	p, ok := Payouts(s)
	if !ok {
		t.Fatal("the store Open returned has no payouts book")
	}
	return s, p
}

// anInstruction is the instruction of tenant-a's order id.
func anInstruction(id string) ledger.Payout {
	return ledger.Payout{Namespace: "tenant-a", OrderID: id, Purpose: ledger.PurposePayout, EndToEndID: id, Amount: 1_000_000,
		Currency: "EUR", CreditorIBAN: "DE89370400440532013000", DebtorIBAN: "DE02120300000000202051",
		ExecutionDate: time.Date(2026, 4, 2, 0, 0, 0, 0, time.UTC)}
}

func TestPayoutsAreTheStoreOpenReturned(t *testing.T) {
	dsn := sqliteLedgerDSN(t)
	_, p := openPayouts(t, dsn, Options{})
	ctx := context.Background()
	if _, err := p.Instruct(ctx, []ledger.Payout{anInstruction("order-1")}); err != nil {
		t.Fatal(err)
	}
	// Another process on the same file sees it, and a read-only one reads it.
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		_, other := openPayouts(t, dsn, opts)
		if got, err := other.Unfiled(ctx, 10); err != nil || len(got) != 1 || got[0].OrderID != "order-1" {
			t.Fatalf("Unfiled through another store (%+v): %+v, %v", opts, got, err)
		}
	}
	_, readOnly := openPayouts(t, dsn, Options{ReadOnly: true})
	if _, err := readOnly.Instruct(ctx, []ledger.Payout{anInstruction("order-2")}); err == nil {
		t.Fatal("a read-only archive's payouts book recorded an instruction")
	}
	if _, ok := Payouts(otherStore{}); ok {
		t.Fatal("Payouts of another archive.Store answered a payouts book")
	}
}

func TestPayoutsCallsAreMeasuredWithTheirErrors(t *testing.T) {
	_, p := openPayouts(t, sqliteLedgerDSN(t), Options{})
	ctx := context.Background()
	errs := func(op, kind string) float64 { return testutil.ToFloat64(opErrors.WithLabelValues("sqlite", op, kind)) }
	instructs, files := histogramCount(t, "bank_payouts_instruct"), histogramCount(t, "bank_payouts_add_file")
	invalids, conflicts := errs("bank_payouts_instruct", "invalid"), errs("bank_payouts_add_file", "conflict")
	if _, err := p.Instruct(ctx, []ledger.Payout{anInstruction("order-1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Instruct(ctx, []ledger.Payout{{Namespace: "tenant-a"}}); !errors.Is(err, ledger.ErrInvalid) {
		t.Fatalf("Instruct of an instruction without order: %v", err)
	}
	ins, err := p.Unfiled(ctx, 10)
	if err != nil || len(ins) != 1 {
		t.Fatalf("Unfiled: %+v, %v", ins, err)
	}
	f := ledger.OutFile{MessageID: "F1", Name: "f1.xml", DebtorIBAN: "DE02120300000000202051", ExecutionDate: ins[0].ExecutionDate,
		Data: []byte("<Document/>")}
	if err := p.AddFile(ctx, f, []int64{ins[0].ID}); err != nil {
		t.Fatal(err)
	}
	if err := p.AddFile(ctx, f, []int64{ins[0].ID}); !errors.Is(err, ledger.ErrAlreadyRecorded) {
		t.Fatalf("a file recorded twice: %v", err)
	}
	if got := histogramCount(t, "bank_payouts_instruct") - instructs; got != 2 {
		t.Errorf("bank_payouts_instruct latency observed %d times, want 2", got)
	}
	if got := histogramCount(t, "bank_payouts_add_file") - files; got != 2 {
		t.Errorf("bank_payouts_add_file latency observed %d times, want 2", got)
	}
	if got := errs("bank_payouts_instruct", "invalid") - invalids; got != 1 {
		t.Errorf("invalid bank_payouts_instruct calls counted %v, want 1", got)
	}
	if got := errs("bank_payouts_add_file", "conflict") - conflicts; got != 1 {
		t.Errorf("bank_payouts_add_file conflicts counted %v, want 1", got)
	}
}

// instructWhileAnotherWriterInserts has another writer, one that does not take
// bank_payout_lock, insert an instruction after Instruct's check and commit it while
// Instruct waits for it, and returns what Instruct answered and the instructions then.
func instructWhileAnotherWriterInserts(t *testing.T, dsn string, theirs ledger.Payout, mine ...ledger.Payout) (int, []ledger.Payout, error) {
	t.Helper()
	s, p := openPayouts(t, dsn, Options{OpTimeout: time.Minute})
	db := s.(*instrumented).next.(*store).db
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(postgresDialect{}.rebind(insertPayoutsQuery(1)), payoutArgs(nil, theirs, time.Now())...); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		n   int
		err error
	}
	done := make(chan answer, 1)
	go func() {
		n, err := p.Instruct(ctx, mine)
		done <- answer{n, err}
	}()
	waitForALockWait(t, db)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	a := <-done
	all, _, err := p.ListPayouts(ctx, ledger.PayoutQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return a.n, all, a.err
}

// waitForALockWait waits until one session of the database waits for a lock.
func waitForALockWait(t *testing.T, db *sql.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		if err := db.QueryRow(`SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the Instruct never waited for the other writer")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A writer that records an instruction without taking bank_payout_lock, after an
// Instruct's check: Instruct leaves the order out (recorded), or refuses an instruction
// whose end-to-end id it took.
func TestPostgresPayoutsInstructOfAnOrderRecordedAfterItsCheck(t *testing.T) {
	pg := pgtest.Start(t)
	theirs := anInstruction("race")
	theirs.Amount = 7
	t.Run("the same order", func(t *testing.T) {
		n, all, err := instructWhileAnotherWriterInserts(t, pg.NewDatabase(t), theirs, anInstruction("mine"), anInstruction("race"))
		if err != nil || n != 1 {
			t.Fatalf("Instruct of an order recorded meanwhile: %d, %v; want 1 (its own) and no error", n, err)
		}
		// Newest first: the other writer's took its id first.
		if len(all) != 2 || all[0].OrderID != "mine" || all[1].OrderID != "race" || all[1].Amount != 7 {
			t.Fatalf("instructions: %+v, want mine and the other writer's race", all)
		}
	})
	t.Run("another order of the same end-to-end id", func(t *testing.T) {
		other := anInstruction("other")
		other.EndToEndID = "race"
		n, all, err := instructWhileAnotherWriterInserts(t, pg.NewDatabase(t), theirs, anInstruction("mine"), other)
		if !errors.Is(err, ledger.ErrInvalid) {
			t.Fatalf("Instruct of an end-to-end id taken meanwhile: %d, %v; want ErrInvalid", n, err)
		}
		if len(all) != 1 || all[0].OrderID != "race" {
			t.Fatalf("instructions: %+v, want the other writer's only", all)
		}
	})
}
