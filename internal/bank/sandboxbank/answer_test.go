package sandboxbank

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
)

func batch() iso20022.Batch {
	return iso20022.Batch{
		MessageID: "FS20261127100000-ABCDEFGHIJ", CreatedAt: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC),
		DebtorName: "Fund", DebtorIBAN: "LU280019400644750000", RequestedExecutionDate: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC),
		Transfers: []iso20022.Transfer{
			{EndToEndID: "0a1b2c3d4e5f60718293a4b5c6d7e8f9", Amount: 41_997_000, Currency: "EUR", CreditorName: "Jan Jansen", CreditorIBAN: "NL91ABNA0417164300", RemittanceInfo: "Redemption"},
			{EndToEndID: "ffeeddccbbaa99887766554433221100", Amount: 100, Currency: "EUR", CreditorName: "Erika Mustermann", CreditorIBAN: "DE89370400440532013000"},
		},
	}
}

func TestTheAnswerAcceptsEveryTransferAndDebitsEachOnce(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC)
	reportName, report, notifName, notif, err := Answer(batch(), nil, now, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(reportName, "pain002-") || !strings.HasPrefix(notifName, "camt054-") {
		t.Fatalf("names %q, %q", reportName, notifName)
	}
	r, err := iso20022.ParsePain002(report)
	if err != nil {
		t.Fatalf("the report does not parse: %v", err)
	}
	if r.OriginalMessageID != batch().MessageID {
		t.Fatalf("original message id %q", r.OriginalMessageID)
	}
	txs := r.Transactions()
	if len(txs) != 2 || txs[0].Status != "ACCP" || txs[1].Status != "ACCP" || txs[0].OriginalEndToEndID != batch().Transfers[0].EndToEndID {
		t.Fatalf("statuses %+v, want both ACCP in order", txs)
	}
	sts, err := iso20022.ParseStatements(notif)
	if err != nil {
		t.Fatalf("the notification does not parse: %v", err)
	}
	entries := sts[0].Entries
	if sts[0].AccountIBAN != batch().DebtorIBAN || len(entries) != 2 {
		t.Fatalf("account %s, %d entries; want the fund's account debited twice", sts[0].AccountIBAN, len(entries))
	}
	for i, e := range entries {
		tr := batch().Transfers[i]
		if e.CreditDebit != iso20022.Debit || e.Amount != tr.Amount || e.Transactions[0].EndToEndID != tr.EndToEndID ||
			e.Reference != PayoutEntryReference(batch().MessageID, tr.EndToEndID) {
			t.Fatalf("entry %d = %+v, want the debit of transfer %+v", i, e, tr)
		}
	}
}

func TestAnsweringTheSameFileAgainGivesTheSameEntries(t *testing.T) {
	_, _, _, first, err := Answer(batch(), nil, time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC), 1)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, again, err := Answer(batch(), nil, time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC), 2)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := iso20022.ParseStatements(first)
	b, _ := iso20022.ParseStatements(again)
	for i := range a[0].Entries {
		if a[0].Entries[i].Reference != b[0].Entries[i].Reference {
			t.Fatalf("entry %d: %q then %q; the ingestion would debit twice", i, a[0].Entries[i].Reference, b[0].Entries[i].Reference)
		}
	}
	if PayoutEntryReference("A", "BC") == PayoutEntryReference("AB", "C") {
		t.Fatal("message id and end-to-end id are not told apart")
	}
}

func TestARejectedTransferIsReportedWithItsCodeAndNeverDebited(t *testing.T) {
	reject := func(t iso20022.Transfer) string {
		if t.CreditorIBAN == "DE89370400440532013000" {
			return "AC04"
		}
		return ""
	}
	_, report, _, notif, err := Answer(batch(), reject, time.Now(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := iso20022.ParsePain002(report)
	txs := r.Transactions()
	if txs[1].Status != "RJCT" || len(txs[1].Reasons) == 0 || txs[1].Reasons[0].Code != "AC04" {
		t.Fatalf("status of the rejected transfer %+v", txs[1])
	}
	sts, _ := iso20022.ParseStatements(notif)
	if len(sts[0].Entries) != 1 || sts[0].Entries[0].Transactions[0].EndToEndID != batch().Transfers[0].EndToEndID {
		t.Fatalf("entries %+v, want the accepted transfer's debit only", sts[0].Entries)
	}

	all := func(iso20022.Transfer) string { return "AC01" }
	_, _, notifName, notif, err := Answer(batch(), all, time.Now(), 2)
	if err != nil || notifName != "" || notif != nil {
		t.Fatalf("nothing accepted: want no notification, got %q (%v)", notifName, err)
	}
}

func TestAnAnswerToAnEmptyFileIsRefused(t *testing.T) {
	b := batch()
	b.Transfers = nil
	if _, _, _, _, err := Answer(b, nil, time.Now(), 1); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}
