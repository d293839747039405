package iso20022

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the output; run go test -update and review the diff.\ngot:\n%s", name, got)
	}
}

// sctBatch is a SEPA credit transfer batch of two payouts: one with an RF reference,
// one with unstructured remittance information.
func sctBatch() *Batch {
	return &Batch{
		MessageID:              "PAYOUT-20260302-1",
		CreatedAt:              time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
		DebtorName:             "Fundshare Feeder Fund SICAV",
		DebtorIBAN:             fundIBAN,
		RequestedExecutionDate: date(2026, 3, 3),
		Transfers: []Transfer{
			{
				EndToEndID: "ord-1b2c3d4e", Amount: eur(100000), Currency: "EUR",
				CreditorName: "Anna Schmidt", CreditorIBAN: "AT611904300234573201",
				CreditorReference: "RF042026000200",
			},
			{
				EndToEndID: "ord-5f6a7b8c", Amount: eur(23456), Currency: "EUR",
				CreditorName: "Pedro García & Hijos <S.L.>", CreditorIBAN: "ES9121000418450200051332",
				RemittanceInfo: "Redemption ord-5f6a7b8c, fund FSF-A",
			},
		},
	}
}

// instBatch is a SEPA Instant batch with the debtor's BIC, booked as one debit.
func instBatch() *Batch {
	b := sctBatch()
	b.MessageID, b.PaymentInfoID = "PAYOUT-20260302-2", "PAYOUT-20260302-2-INST"
	b.DebtorBIC = "COBADEFFXXX"
	b.Instant, b.BatchBooking = true, true
	b.Transfers = b.Transfers[:1]
	b.Transfers[0].Amount = eur(1)
	return b
}

func TestThePain001WriterOutputIsTheGoldenFile(t *testing.T) {
	for name, b := range map[string]*Batch{"pain001_sct.golden.xml": sctBatch(), "pain001_inst.golden.xml": instBatch()} {
		out, err := WritePain001(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden(t, name, out)
	}
}

func TestTheSameBatchAlwaysGivesTheSameBytes(t *testing.T) {
	first, err := WritePain001(sctBatch())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, err := WritePain001(sctBatch())
		if err != nil || !bytes.Equal(again, first) {
			t.Fatalf("the output changed: %v", err)
		}
	}
}

func TestTheControlSumAndNumberOfTransactionsAreTheTransfers(t *testing.T) {
	out, err := WritePain001(sctBatch())
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"<NbOfTxs>2</NbOfTxs>", "<CtrlSum>1234.56</CtrlSum>"} {
		if strings.Count(s, want) != 2 { // GrpHdr and PmtInf
			t.Errorf("%s appears %d times, want 2", want, strings.Count(s, want))
		}
	}
	b := sctBatch()
	b.Transfers[1].Amount = eur(5)
	out, _ = WritePain001(b)
	if !strings.Contains(string(out), "<CtrlSum>1000.05</CtrlSum>") {
		t.Errorf("CtrlSum with 0.05: %s", out)
	}
}

func TestInstantAsksForINSTAndOtherwiseSEPA(t *testing.T) {
	sct, _ := WritePain001(sctBatch())
	inst, _ := WritePain001(instBatch())
	if !strings.Contains(string(sct), "<SvcLvl>\n          <Cd>SEPA</Cd>") || strings.Contains(string(sct), "INST") {
		t.Errorf("SCT:\n%s", sct)
	}
	if !strings.Contains(string(inst), "<LclInstrm>\n          <Cd>INST</Cd>") {
		t.Errorf("Instant:\n%s", inst)
	}
}

func TestAWrittenBatchParsesBackToTheSameBatch(t *testing.T) {
	for _, b := range []*Batch{sctBatch(), instBatch()} {
		out, err := WritePain001(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParsePain001(out)
		if err != nil {
			t.Fatal(err)
		}
		want := *b
		want.PaymentInfoID = b.paymentInfoID()
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
		}
	}
}

// invalidBatch checks that change makes the batch invalid with kind at field, both in
// Validate and in WritePain001 (which then writes nothing).
func invalidBatch(t *testing.T, change func(*Batch), kind error, field string) {
	t.Helper()
	b := sctBatch()
	change(b)
	err := b.Validate()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, kind) || e.Path != field {
		t.Fatalf("Validate = %v, want %v at %s", err, kind, field)
	}
	if out, err := WritePain001(b); out != nil || !errors.Is(err, kind) {
		t.Fatalf("WritePain001 = %d bytes, %v", len(out), err)
	}
}

func TestAnAmountThatIsNotAWholeCentIsNotWritten(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[1].Amount = 1_234_567 }, ErrAmount, "Transfers[2].Amount")
	invalidBatch(t, func(b *Batch) { b.Transfers[1].Amount = 1 }, ErrAmount, "Transfers[2].Amount")
}

func TestATransferOfLessThanACentOrMoreThanTheSEPAMaximumIsNotWritten(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[0].Amount = 0 }, ErrAmount, "Transfers[1].Amount")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].Amount = -eur(1) }, ErrAmount, "Transfers[1].Amount")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].Amount = MaxTransferAmount + eur(1) }, ErrAmount, "Transfers[1].Amount")
	b := sctBatch()
	b.Transfers[0].Amount = MaxTransferAmount
	if err := b.Validate(); err != nil {
		t.Fatalf("999999999.99: %v", err)
	}
}

func TestAnIBANWithWrongCheckDigitsIsNotWritten(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorIBAN = "AT621904300234573201" }, ErrInvalid, "Transfers[1].CreditorIBAN")
	invalidBatch(t, func(b *Batch) { b.DebtorIBAN = "DE89 3704 0044 0532 0130 00" }, ErrInvalid, "DebtorIBAN")
	invalidBatch(t, func(b *Batch) { b.DebtorIBAN = "" }, ErrMissing, "DebtorIBAN")
}

func TestOnlyEuroIsWritten(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[1].Currency = "CHF" }, ErrCurrency, "Transfers[2].Currency")
	invalidBatch(t, func(b *Batch) { b.Transfers[1].Currency = "" }, ErrCurrency, "Transfers[2].Currency")
}

func TestIdentifiersFollowTheSEPARules(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.MessageID = "" }, ErrMissing, "MessageID")
	invalidBatch(t, func(b *Batch) { b.MessageID = strings.Repeat("M", 36) }, ErrInvalid, "MessageID")
	invalidBatch(t, func(b *Batch) { b.PaymentInfoID = "P_1" }, ErrInvalid, "PaymentInfoID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = "" }, ErrMissing, "Transfers[1].EndToEndID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = strings.Repeat("e", 36) }, ErrInvalid, "Transfers[1].EndToEndID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = "ord_1" }, ErrInvalid, "Transfers[1].EndToEndID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = "/ord-1" }, ErrInvalid, "Transfers[1].EndToEndID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = "ord//1" }, ErrInvalid, "Transfers[1].EndToEndID")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].EndToEndID = "ordé" }, ErrInvalid, "Transfers[1].EndToEndID")
	b := sctBatch()
	b.Transfers[0].EndToEndID = strings.Repeat("e", 35)
	b.MessageID = "A-Z a-z 0-9 /-?:().,'+"
	if err := b.Validate(); err != nil {
		t.Fatalf("35 characters and the whole set: %v", err)
	}
}

func TestTwoTransfersWithTheSameEndToEndIDAreNotWritten(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[1].EndToEndID = b.Transfers[0].EndToEndID }, ErrInvalid, "Transfers[2].EndToEndID")
}

func TestNamesAreAtMostSeventyCharacters(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.DebtorName = strings.Repeat("n", 71) }, ErrInvalid, "DebtorName")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorName = strings.Repeat("é", 71) }, ErrInvalid, "Transfers[1].CreditorName")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorName = " " }, ErrMissing, "Transfers[1].CreditorName")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorName = "Anna\nSchmidt" }, ErrInvalid, "Transfers[1].CreditorName")
	b := sctBatch()
	b.Transfers[0].CreditorName = strings.Repeat("é", 70)
	if err := b.Validate(); err != nil {
		t.Fatalf("70 characters: %v", err)
	}
}

func TestRemittanceIsUnstructuredUpTo140OrAnRFReferenceNotBoth(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers[1].RemittanceInfo = strings.Repeat("r", 141) }, ErrInvalid, "Transfers[2].RemittanceInfo")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorReference = "RF05 2026 0002 00" }, ErrInvalid, "Transfers[1].CreditorReference")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].CreditorReference = "RF04 2026 0002 00" }, ErrInvalid, "Transfers[1].CreditorReference")
	invalidBatch(t, func(b *Batch) { b.Transfers[0].RemittanceInfo = "both" }, ErrInvalid, "Transfers[1].CreditorReference")
	b := sctBatch()
	b.Transfers[1].RemittanceInfo = ""
	if err := b.Validate(); err != nil {
		t.Fatalf("no remittance at all: %v", err)
	}
	out, _ := WritePain001(b)
	if strings.Count(string(out), "<RmtInf>") != 1 {
		t.Fatalf("a transfer without remittance has an RmtInf:\n%s", out)
	}
}

func TestTheDebtorBICIsOptionalButMustBeABIC(t *testing.T) {
	for _, bic := range []string{"COBADEFF", "COBADEFFXXX", "DEUTDEDB101"} {
		b := sctBatch()
		b.DebtorBIC = bic
		if err := b.Validate(); err != nil {
			t.Errorf("%s: %v", bic, err)
		}
	}
	for _, bic := range []string{"COBADEF", "cobadeff", "COBA1EFF", "COBAXXFF", "COBADEFFXX"} {
		invalidBatch(t, func(b *Batch) { b.DebtorBIC = bic }, ErrInvalid, "DebtorBIC")
	}
	out, _ := WritePain001(sctBatch())
	if !strings.Contains(string(out), "<Id>NOTPROVIDED</Id>") {
		t.Fatalf("without a BIC the agent is not NOTPROVIDED:\n%s", out)
	}
}

func TestABatchNeedsTransfersDatesAndADebtor(t *testing.T) {
	invalidBatch(t, func(b *Batch) { b.Transfers = nil }, ErrMissing, "Transfers")
	invalidBatch(t, func(b *Batch) { b.CreatedAt = time.Time{} }, ErrMissing, "CreatedAt")
	invalidBatch(t, func(b *Batch) { b.RequestedExecutionDate = time.Time{} }, ErrMissing, "RequestedExecutionDate")
	invalidBatch(t, func(b *Batch) { b.DebtorName = "" }, ErrMissing, "DebtorName")
}

func TestTheCreationTimeIsWrittenInUTCAndTheExecutionDateAsItsOwnDay(t *testing.T) {
	b := sctBatch()
	berlin := time.FixedZone("CET", 3600)
	b.CreatedAt = time.Date(2026, 3, 2, 0, 30, 0, 999, berlin)
	b.RequestedExecutionDate = time.Date(2026, 3, 3, 0, 30, 0, 0, berlin)
	out, _ := WritePain001(b)
	for _, want := range []string{"<CreDtTm>2026-03-01T23:30:00Z</CreDtTm>", "<Dt>2026-03-03</Dt>"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
}

// parseRefused checks that ParsePain001 refuses data with kind at path.
func parseRefused(t *testing.T, data []byte, kind error, path string) {
	t.Helper()
	b, err := ParsePain001(data)
	var e *Error
	if b != nil || !errors.As(err, &e) || !errors.Is(err, kind) || e.Path != path {
		t.Fatalf("ParsePain001 = %v, %v; want %v at %s", b, err, kind, path)
	}
}

const pmtInf = "Document/CstmrCdtTrfInitn/PmtInf[1]"

func TestAPain001WhoseTotalsDoNotMatchIsRefused(t *testing.T) {
	g := "pain001_sct.golden.xml"
	parseRefused(t, mutate(t, g, "<CtrlSum>1234.56</CtrlSum>", "<CtrlSum>1234.57</CtrlSum>"), ErrTotals, "Document/CstmrCdtTrfInitn/GrpHdr/CtrlSum")
	parseRefused(t, mutate(t, g, "<NbOfTxs>2</NbOfTxs>", "<NbOfTxs>3</NbOfTxs>"), ErrTotals, "Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs")
	data := []byte(strings.Replace(string(readFile(t, g)), "<CtrlSum>1234.56</CtrlSum>", "<CtrlSum>1.00</CtrlSum>", 2))
	data = []byte(strings.Replace(string(data), "<CtrlSum>1.00</CtrlSum>", "<CtrlSum>1234.56</CtrlSum>", 1))
	parseRefused(t, data, ErrTotals, pmtInf+"/CtrlSum")
	parseRefused(t, mutate(t, g, "<NbOfTxs>2</NbOfTxs>\n      <CtrlSum>", "<CtrlSum>"), ErrMissing, "Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs")
}

func TestAPain001AmountWithMoreThanTwoDecimalsIsRefused(t *testing.T) {
	data := mutate(t, "pain001_sct.golden.xml", `<InstdAmt Ccy="EUR">234.56</InstdAmt>`, `<InstdAmt Ccy="EUR">234.565</InstdAmt>`)
	parseRefused(t, data, ErrAmount, pmtInf+"/CdtTrfTxInf[2]/Amt/InstdAmt")
}

func TestAPain001ThatBreaksTheSEPARulesIsRefusedWhereItDoes(t *testing.T) {
	g := "pain001_sct.golden.xml"
	tx1 := pmtInf + "/CdtTrfTxInf[1]"
	parseRefused(t, mutate(t, g, "<IBAN>AT611904300234573201</IBAN>", "<IBAN>AT611904300234573202</IBAN>"), ErrInvalid, tx1+"/CdtrAcct/Id/IBAN")
	parseRefused(t, mutate(t, g, `<InstdAmt Ccy="EUR">1000.00`, `<InstdAmt Ccy="USD">1000.00`), ErrCurrency, tx1+"/Amt/InstdAmt/@Ccy")
	parseRefused(t, mutate(t, g, "<EndToEndId>ord-5f6a7b8c</EndToEndId>", "<EndToEndId>ord-1b2c3d4e</EndToEndId>"), ErrInvalid, pmtInf+"/CdtTrfTxInf[2]/PmtId/EndToEndId")
	parseRefused(t, mutate(t, g, "<PmtMtd>TRF</PmtMtd>", "<PmtMtd>CHK</PmtMtd>"), ErrInvalid, pmtInf+"/PmtMtd")
	parseRefused(t, mutate(t, g, "<Cd>SEPA</Cd>", "<Cd>URGP</Cd>"), ErrInvalid, pmtInf+"/PmtTpInf/SvcLvl/Cd")
	parseRefused(t, mutate(t, g, "<Ref>RF042026000200</Ref>", "<Ref>RF052026000200</Ref>"), ErrInvalid, tx1+"/RmtInf/Strd/CdtrRefInf/Ref")
	parseRefused(t, mutate(t, g, "<Nm>Anna Schmidt</Nm>", "<Nm></Nm>"), ErrMissing, tx1+"/Cdtr/Nm")
	parseRefused(t, mutate(t, g, "<Dt>2026-03-03</Dt>", ""), ErrMissing, pmtInf+"/ReqdExctnDt/Dt")
}

func TestAPain001WithSeveralBlocksGivesABatchEach(t *testing.T) {
	s := string(readFile(t, "pain001_sct.golden.xml"))
	start, end := strings.Index(s, "    <PmtInf>"), strings.Index(s, "  </CstmrCdtTrfInitn>")
	block := s[start:end]
	second := strings.NewReplacer("PAYOUT-20260302-1</PmtInfId>", "PAYOUT-20260302-1B</PmtInfId>",
		"ord-1b2c3d4e", "ord-1b2c3d4f", "ord-5f6a7b8c", "ord-5f6a7b8d").Replace(block)
	doc := s[:end] + second + s[end:]
	doc = strings.Replace(doc, "<NbOfTxs>2</NbOfTxs>", "<NbOfTxs>4</NbOfTxs>", 1)
	doc = strings.Replace(doc, "<CtrlSum>1234.56</CtrlSum>", "<CtrlSum>2469.12</CtrlSum>", 1)
	got, err := ParsePain001([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].PaymentInfoID != "PAYOUT-20260302-1B" || got[1].MessageID != "PAYOUT-20260302-1" || got[1].Transfers[0].EndToEndID != "ord-1b2c3d4f" {
		t.Fatalf("batches %+v", got)
	}
	dup := s[:end] + block + s[end:]
	dup = strings.Replace(dup, "<NbOfTxs>2</NbOfTxs>", "<NbOfTxs>4</NbOfTxs>", 1)
	dup = strings.Replace(dup, "<CtrlSum>1234.56</CtrlSum>", "<CtrlSum>2469.12</CtrlSum>", 1)
	parseRefused(t, []byte(dup), ErrInvalid, "Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[1]/PmtId/EndToEndId")
}

func TestAbsentBatchBookingReadsAsTrue(t *testing.T) {
	got, err := ParsePain001(mutate(t, "pain001_sct.golden.xml", "<BtchBookg>false</BtchBookg>", ""))
	if err != nil || !got[0].BatchBooking {
		t.Fatalf("%v, %+v", err, got)
	}
}
