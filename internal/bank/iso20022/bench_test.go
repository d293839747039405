package iso20022

import (
	"fmt"
	"strings"
	"testing"
)

// bigNotification is a camt.054.001.08 of n booked credits, each with one transaction
// carrying an RF reference, the shape of a day of subscriptions.
func bigNotification(n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>NTF-BENCH</MsgId><CreDtTm>2026-03-02T18:30:00+01:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>NTF-BENCH-1</Id>
      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
`)
	for i := range n {
		amount := fmt.Sprintf("%d.%02d", 100+i%5000, i%100)
		fmt.Fprintf(&b, `      <Ntry>
        <NtryRef>%d</NtryRef>
        <Amt Ccy="EUR">%s</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-03-02</Dt></BookgDt>
        <ValDt><Dt>2026-03-02</Dt></ValDt>
        <AcctSvcrRef>20260302%08d</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>E2E-%d</EndToEndId></Refs>
          <Amt Ccy="EUR">%s</Amt>
          <RltdPties>
            <Dbtr><Pty><Nm>Investor %d</Nm></Pty></Dbtr>
            <DbtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></DbtrAcct>
          </RltdPties>
          <RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry><Issr>ISO</Issr></Tp><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>
`, i+1, amount, i, i, amount, i)
	}
	b.WriteString("    </Ntfctn>\n  </BkToCstmrDbtCdtNtfctn>\n</Document>\n")
	return []byte(b.String())
}

// bigBatch is a batch of n payouts.
func bigBatch(n int) *Batch {
	b := sctBatch()
	b.Transfers = make([]Transfer, n)
	for i := range b.Transfers {
		b.Transfers[i] = Transfer{
			EndToEndID: fmt.Sprintf("ord-%08d", i), Amount: int64(100+i%5000)*10_000 + int64(i%100)*100, Currency: "EUR",
			CreditorName: fmt.Sprintf("Investor %d", i), CreditorIBAN: "AT611904300234573201",
			RemittanceInfo: fmt.Sprintf("Redemption ord-%08d", i),
		}
	}
	return b
}

// BenchmarkParseNotification10000 parses a camt.054 of 10,000 entries; the budget of a
// whole ingestion is 30 s.
func BenchmarkParseNotification10000(b *testing.B) {
	data := bigNotification(10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := ParseStatements(data)
		if err != nil || len(s[0].Entries) != 10_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkWritePain001With10000Transfers writes a pain.001 of 10,000 transfers; the
// budget is 5 s.
func BenchmarkWritePain001With10000Transfers(b *testing.B) {
	batch := bigBatch(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WritePain001(batch); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTheBenchmarksTenThousandEntriesAndTransfersAreWhatTheyClaim(t *testing.T) {
	// The benchmarks' inputs are what they claim. How long they take is the benchmarks'
	// business (make bench), never a unit test's: a timed test failed on a loaded machine.
	data := bigNotification(10_000)
	s, err := ParseStatements(data)
	if err != nil || len(s[0].Entries) != 10_000 || s[0].Entries[9_999].Transactions[0].EndToEndID != "E2E-9999" {
		t.Fatalf("%v", err)
	}
	out, err := WritePain001(bigBatch(10_000))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePain001(out)
	if err != nil || len(back[0].Transfers) != 10_000 {
		t.Fatal(err)
	}
}
