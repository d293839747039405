package bank_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// BenchmarkPayoutFile10000 is issue 27's pain.001 target: 10,000 recorded payout
// instructions written into a pain.001 file, the file recorded in the ledger (SQLite) with
// its bytes, and released into the folder connector's outbox, ≤ 5 s on this machine; then
// the same step again, which must release nothing new. Run by make bench.
func BenchmarkPayoutFile10000(b *testing.B) {
	const n = 10_000
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ctx := context.Background()
		dir := b.TempDir()
		st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		books, _ := sqlstore.Payouts(st)
		if err := os.MkdirAll(filepath.Join(dir, "bank"), 0o750); err != nil {
			b.Fatal(err)
		}
		folder, err := connector.OpenFolder(filepath.Join(dir, "bank"))
		if err != nil {
			b.Fatal(err)
		}
		day := time.Now().UTC().Truncate(24 * time.Hour)
		ins := make([]ledger.Payout, n)
		for j := range ins {
			id := fmt.Sprintf("%08x-0000-4000-8000-%012x", j, j)
			ins[j] = ledger.Payout{
				Namespace: "bench", OrderID: id, Purpose: ledger.PurposePayout, EndToEndID: bank.EndToEndID(id),
				Amount: int64(1_000_000 + j*100), Currency: "EUR", CreditorName: "Erika Mustermann", CreditorIBAN: fixtures.IBAN,
				RemittanceInfo: "Redemption, order " + id, DebtorName: fixtures.FundHolder, DebtorIBAN: fixtures.FundIBAN,
				ExecutionDate: day, InstructedAt: time.Now().UTC(),
			}
		}
		if _, err := books.Instruct(ctx, ins); err != nil {
			b.Fatal(err)
		}
		p := &bank.Payer{Payouts: books, Connector: folder, Log: logr.Discard()}

		b.StartTimer()
		start := time.Now()
		if err := p.FileAndRelease(ctx); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		b.StopTimer()

		files := outboxFiles(b, filepath.Join(dir, "bank", "outbox"))
		transfers := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			batches, err := iso20022.ParsePain001(data)
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			for _, bt := range batches {
				transfers += len(bt.Transfers)
			}
		}
		again := time.Now()
		if err := p.FileAndRelease(ctx); err != nil {
			b.Fatal(err)
		}
		repeat := len(outboxFiles(b, filepath.Join(dir, "bank", "outbox"))) - len(files)
		verdict := "PASS"
		if took > 5*time.Second || transfers != n || repeat != 0 {
			verdict = "MISS"
		}
		b.Logf("| pain.001 of %d payouts recorded and released | %d file(s), %d transfers | %.2f s | again: %d new files in %s | target ≤ 5 s | %s |",
			n, len(files), transfers, took.Seconds(), repeat, time.Since(again).Round(time.Millisecond), verdict)
		b.ReportMetric(took.Seconds(), "s/file")
		_ = folder.Close()
		_ = st.Close()
	}
}

func outboxFiles(b *testing.B, dir string) []string {
	b.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "pain001-") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}
