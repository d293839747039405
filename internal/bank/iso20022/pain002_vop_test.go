package iso20022

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// wantVoPReport is testdata/pain002_vop.xml as the model.
func wantVoPReport() *StatusReport {
	return &StatusReport{
		MessageID:           "VOP-20261102-0001",
		CreatedAt:           time.Date(2026, 11, 2, 8, 30, 0, 0, time.UTC),
		OriginalMessageID:   "PAYOUT-20261102-1",
		OriginalMessageType: "pain.001.001.09",
		Payments: []PaymentStatus{{
			OriginalPaymentInfoID: "PAYOUT-20261102-1",
			Reasons:               []StatusReason{{Code: "Prtry:NOAP", AdditionalInfo: []string{"Some payees could not be verified"}}},
			Transactions: []TransactionStatus{
				{OriginalEndToEndID: "ord-vop-1", Status: StatusReceived, VoP: VoPMatch},
				{OriginalEndToEndID: "ord-vop-2", Status: StatusAccepted, VoP: VoPCloseMatch, VoPName: "Erika  Mustermann-Gabler"},
				{
					OriginalEndToEndID: "ord-vop-3", OriginalInstructionID: "INSTR-3", Status: StatusRejected, VoP: VoPNoMatch,
					Reasons: []StatusReason{{Code: "BE01", AdditionalInfo: []string{"Payee name does not match the account holder"}}},
				},
				{OriginalEndToEndID: "ord-vop-4", Status: StatusPendingPayment, VoP: VoPNotPossible},
				{OriginalEndToEndID: "ord-vop-5", Status: StatusAcceptedSettlement, Reasons: []StatusReason{{Code: "Prtry:VOP-MTCH"}}},
			},
		}},
	}
}

func parseVoP(t *testing.T, data []byte) []TransactionStatus {
	t.Helper()
	r, err := ParsePain002(data)
	if err != nil {
		t.Fatal(err)
	}
	return r.Transactions()
}

func TestAVoPResultIsTheProprietaryReasonOfATransactionWithAnyStatus(t *testing.T) {
	got, err := ParsePain002(readFile(t, "pain002_vop.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := wantVoPReport(); !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

func TestACloseMatchGivesTheHoldersNameFromItsFirstAdditionalInfoTrimmed(t *testing.T) {
	if tx := parseVoP(t, readFile(t, "pain002_vop.xml"))[1]; tx.VoP != VoPCloseMatch || tx.VoPName != "Erika  Mustermann-Gabler" {
		t.Fatalf("%+v", tx)
	}
	// An empty first AddtlInf is skipped.
	data := mutate(t, "pain002_vop.xml", "<Prtry>CMTC</Prtry>\n          </Rsn>", "<Prtry>CMTC</Prtry>\n          </Rsn><AddtlInf> </AddtlInf>")
	if tx := parseVoP(t, data)[1]; tx.VoPName != "Erika  Mustermann-Gabler" {
		t.Fatalf("%+v", tx)
	}
	// A close match without a name is read without one.
	data = mutate(t, "pain002_vop.xml", "<AddtlInf>\n            Erika  Mustermann-Gabler\n          </AddtlInf>\n          <AddtlInf>Name of the payee is close to the account holder's</AddtlInf>", "")
	if tx := parseVoP(t, data)[1]; tx.VoP != VoPCloseMatch || tx.VoPName != "" || len(tx.Reasons) != 0 {
		t.Fatalf("%+v", tx)
	}
}

func TestOnlyACloseMatchHasAName(t *testing.T) {
	data := mutate(t, "pain002_vop.xml", "<Prtry>NOAP</Prtry>\n          </Rsn>\n        </StsRsnInf>\n      </TxInfAndSts>",
		"<Prtry>NOAP</Prtry>\n          </Rsn><AddtlInf>Payee's bank did not answer</AddtlInf>\n        </StsRsnInf>\n      </TxInfAndSts>")
	if tx := parseVoP(t, data)[3]; tx.VoP != VoPNotPossible || tx.VoPName != "" || len(tx.Reasons) != 0 {
		t.Fatalf("%+v", tx)
	}
}

func TestAnISOReasonAndAVoPResultInOneTransactionAreBothRead(t *testing.T) {
	tx := parseVoP(t, readFile(t, "pain002_vop.xml"))[2]
	if tx.Status != StatusRejected || tx.VoP != VoPNoMatch || len(tx.Reasons) != 1 || tx.Reasons[0].Code != "BE01" {
		t.Fatalf("%+v", tx)
	}
	// A StsRsnInf with both a Cd and a VoP Prtry (which the schema does not allow) gives
	// both: its code stays a reason.
	data := mutate(t, "pain002_vop.xml", "<Prtry>MTCH</Prtry>", "<Cd>NARR</Cd><Prtry>MTCH</Prtry>")
	if tx := parseVoP(t, data)[0]; tx.VoP != VoPMatch || !reflect.DeepEqual(tx.Reasons, []StatusReason{{Code: "NARR"}}) {
		t.Fatalf("%+v", tx)
	}
}

func TestAnUnknownProprietaryReasonIsNotAVoPResult(t *testing.T) {
	for _, prtry := range []string{"VOP-MTCH", "mtch", "MTCHX", "NARR"} {
		data := mutate(t, "pain002_vop.xml", "<Prtry>MTCH</Prtry>", "<Prtry>"+prtry+"</Prtry>")
		if tx := parseVoP(t, data)[0]; tx.VoP != "" || !reflect.DeepEqual(tx.Reasons, []StatusReason{{Code: "Prtry:" + prtry}}) {
			t.Fatalf("%s: %+v", prtry, tx)
		}
	}
	// A code with white space around it is the code (values are trimmed).
	data := mutate(t, "pain002_vop.xml", "<Prtry>MTCH</Prtry>", "<Prtry> MTCH\n</Prtry>")
	if tx := parseVoP(t, data)[0]; tx.VoP != VoPMatch || len(tx.Reasons) != 0 {
		t.Fatalf("%+v", tx)
	}
}

func TestAVoPCodeOfABlockOrTheGroupIsAReasonNotAResult(t *testing.T) {
	r, err := ParsePain002(mutate(t, "pain002_vop.xml", "<OrgnlNbOfTxs>5</OrgnlNbOfTxs>",
		"<OrgnlNbOfTxs>5</OrgnlNbOfTxs><StsRsnInf><Rsn><Prtry>NMTC</Prtry></Rsn></StsRsnInf>"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.GroupReasons, []StatusReason{{Code: "Prtry:NMTC"}}) || r.Payments[0].Reasons[0].Code != "Prtry:NOAP" {
		t.Fatalf("group %+v, block %+v", r.GroupReasons, r.Payments[0].Reasons)
	}
}

func TestTwoDifferentVoPResultsInOneTransactionRefuseTheFile(t *testing.T) {
	const tx1 = "Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[1]"
	const tx2 = "Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[2]"
	second := func(rsn string) []byte {
		return mutate(t, "pain002_vop.xml", "<TxSts>RCVD</TxSts>", "<TxSts>RCVD</TxSts><StsRsnInf><Rsn><Cd>NARR</Cd></Rsn></StsRsnInf>"+rsn)
	}
	// Another code, after the first result.
	pain002Refused(t, mutate(t, "pain002_vop.xml", "<Prtry>MTCH</Prtry>\n          </Rsn>\n        </StsRsnInf>",
		"<Prtry>MTCH</Prtry>\n          </Rsn>\n        </StsRsnInf><StsRsnInf><Rsn><Prtry>NMTC</Prtry></Rsn></StsRsnInf>"),
		ErrDuplicate, tx1+"/StsRsnInf[2]/Rsn/Prtry")
	// Another code before it (the path is the second result's).
	pain002Refused(t, second("<StsRsnInf><Rsn><Prtry>NOAP</Prtry></Rsn></StsRsnInf>"), ErrDuplicate, tx1+"/StsRsnInf[3]/Rsn/Prtry")
	// The same code twice is one result.
	if tx := parseVoP(t, second("<StsRsnInf><Rsn><Prtry>MTCH</Prtry></Rsn></StsRsnInf>"))[0]; tx.VoP != VoPMatch ||
		!reflect.DeepEqual(tx.Reasons, []StatusReason{{Code: "NARR"}}) {
		t.Fatalf("%+v", tx)
	}
	// A close match twice with another name, or once without one, is another result.
	again := func(name string) []byte {
		return mutate(t, "pain002_vop.xml", "<TxSts>ACCP</TxSts>", "<TxSts>ACCP</TxSts><StsRsnInf><Rsn><Prtry>CMTC</Prtry></Rsn>"+name+"</StsRsnInf>")
	}
	pain002Refused(t, again("<AddtlInf>Erika Mustermann</AddtlInf>"), ErrDuplicate, tx2+"/StsRsnInf[2]/AddtlInf")
	pain002Refused(t, again(""), ErrDuplicate, tx2+"/StsRsnInf[2]/AddtlInf")
	if tx := parseVoP(t, again("<AddtlInf> Erika  Mustermann-Gabler</AddtlInf>"))[1]; tx.VoPName != "Erika  Mustermann-Gabler" || len(tx.Reasons) != 0 {
		t.Fatalf("%+v", tx)
	}
}

func TestTheVoPWriterOutputIsTheGoldenFileAndParsesBack(t *testing.T) {
	r := wantVoPReport()
	out, err := WritePain002(r)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "pain002_vop.golden.xml", out)
	back, err := ParsePain002(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, r)
	}
	// The result goes after the transaction's reasons, in a StsRsnInf of its own.
	if !strings.Contains(string(out), "<Cd>BE01</Cd>\n          </Rsn>\n          <AddtlInf>Payee name does not match the account holder</AddtlInf>\n        </StsRsnInf>\n        <StsRsnInf>\n          <Rsn>\n            <Prtry>NMTC</Prtry>") {
		t.Fatalf("the rejection is not written as its reason, then its result:\n%s", out)
	}
}

func TestAVoPNameLongerThanAnAdditionalInfoIsCutToFitTheSchema(t *testing.T) {
	long := strings.Repeat("Ä", 100) + " Holder " + strings.Repeat("x", 32) // 140 characters
	r := wantVoPReport()
	r.Payments[0].Transactions[1].VoPName = long
	out, err := WritePain002(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePain002(out)
	if err != nil {
		t.Fatal(err)
	}
	// 105 characters end in "Holder " plus nothing: the space at the cut is dropped.
	want := strings.Repeat("Ä", 100) + " Hold"
	if got := back.Payments[0].Transactions[1].VoPName; got != want || VoPNameAsWritten(long) != want {
		t.Fatalf("VoPName %q, want %q", got, want)
	}
	if got := VoPNameAsWritten(strings.Repeat("y", 104) + " z"); got != strings.Repeat("y", 104) {
		t.Fatalf("cut at a space: %q", got)
	}
	if VoPNameAsWritten("Erika Mustermann") != "Erika Mustermann" {
		t.Fatal("a short name is changed")
	}
}

func TestTheStatusReportWriterRefusesAVoPItWouldNotReadBack(t *testing.T) {
	const tx = "Payments[1].Transactions[2]."
	for _, tt := range []struct {
		change func(*TransactionStatus)
		field  string
	}{
		{func(t *TransactionStatus) { t.VoP = "MATCH" }, "VoP"},
		{func(t *TransactionStatus) { t.VoP = "mtch" }, "VoP"},
		{func(t *TransactionStatus) { t.VoP = VoPMatch }, "VoPName"}, // a name only with a close match
		{func(t *TransactionStatus) { t.VoP = "" }, "VoPName"},
		{func(t *TransactionStatus) { t.VoPName = " Erika" }, "VoPName"},
		{func(t *TransactionStatus) { t.VoPName = "Erika\tMustermann" }, "VoPName"},
		{func(t *TransactionStatus) { t.Reasons = []StatusReason{{Code: "Prtry:NMTC"}} }, "Reasons"},
	} {
		r := wantVoPReport()
		tt.change(&r.Payments[0].Transactions[1])
		out, err := WritePain002(r)
		var e *Error
		if out != nil || !errors.As(err, &e) || !errors.Is(err, ErrInvalid) || e.Path != tx+tt.field {
			t.Errorf("WritePain002 = %d bytes, %v; want ErrInvalid at %s", len(out), err, tx+tt.field)
		}
	}
	// A VoP code is an ordinary proprietary reason of a block or the group.
	r := wantVoPReport()
	r.GroupReasons = []StatusReason{{Code: "Prtry:MTCH"}}
	if _, err := WritePain002(r); err != nil {
		t.Fatal(err)
	}
}

func TestAReportWithoutVoPIsWrittenAsBefore(t *testing.T) {
	// pain002.golden.xml, unchanged, is the proof; this checks that no StsRsnInf is added.
	out, err := WritePain002(wantStatusReport())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "<Prtry>") {
		t.Fatalf("a report without results has a proprietary reason:\n%s", out)
	}
}
