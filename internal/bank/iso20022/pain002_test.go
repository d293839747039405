package iso20022

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func wantStatusReport() *StatusReport {
	return &StatusReport{
		MessageID:           "STS-20260303-0007",
		CreatedAt:           time.Date(2026, 3, 3, 7, 12, 45, 250e6, time.UTC),
		OriginalMessageID:   "PAYOUT-20260302-1",
		OriginalMessageType: "pain.001.001.09",
		GroupStatus:         StatusPartiallyAccepted,
		Payments: []PaymentStatus{
			{
				OriginalPaymentInfoID: "PAYOUT-20260302-1",
				Status:                StatusPartiallyAccepted,
				Transactions: []TransactionStatus{
					{OriginalEndToEndID: "ord-1b2c3d4e", Status: StatusAcceptedCompleted},
					{
						OriginalEndToEndID: "ord-5f6a7b8c", OriginalInstructionID: "INSTR-2", Status: StatusRejected,
						Reasons: []StatusReason{{Code: "AC04", AdditionalInfo: []string{"Account closed", "Ask the investor for a new IBAN"}}},
					},
				},
			},
			{
				OriginalPaymentInfoID: "PAYOUT-20260302-1B",
				Status:                StatusAccepted,
				Transactions:          []TransactionStatus{{OriginalEndToEndID: "ord-9d0e1f2a", Status: StatusAccepted}},
			},
		},
	}
}

func TestAStatusReportReadsAsTheModel(t *testing.T) {
	got, err := ParsePain002(readFile(t, "pain002_v10.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := wantStatusReport(); !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
	var ids []string
	for _, tx := range got.Transactions() {
		ids = append(ids, tx.OriginalEndToEndID+"="+tx.Status)
	}
	if want := []string{"ord-1b2c3d4e=ACSC", "ord-5f6a7b8c=RJCT", "ord-9d0e1f2a=ACCP"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("Transactions() = %v", ids)
	}
}

func TestThePain002WriterOutputIsTheGoldenFileAndParsesBack(t *testing.T) {
	r := wantStatusReport()
	r.Payments[0].Transactions[1].Reasons = append(r.Payments[0].Transactions[1].Reasons,
		StatusReason{Code: "Prtry:BANK-42"}, StatusReason{AdditionalInfo: []string{"no code, only text"}})
	r.GroupReasons = []StatusReason{{Code: "NARR", AdditionalInfo: []string{"1 of 3 rejected"}}}
	out, err := WritePain002(r)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "pain002.golden.xml", out)
	back, err := ParsePain002(out)
	if err != nil {
		t.Fatal(err)
	}
	r.CreatedAt = r.CreatedAt.Truncate(time.Second) // written to the second
	if !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, r)
	}
}

func TestAGroupStatusAloneIsARejectionOfTheWholeMessage(t *testing.T) {
	r := &StatusReport{
		MessageID: "STS-1", CreatedAt: time.Date(2026, 3, 3, 8, 0, 0, 0, time.UTC),
		OriginalMessageID: "PAYOUT-20260302-1", GroupStatus: StatusRejected,
		GroupReasons: []StatusReason{{Code: "DU01"}}, // duplicate message id
	}
	out, err := WritePain002(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePain002(out)
	if err != nil {
		t.Fatal(err)
	}
	r.OriginalMessageType = string(Pain001V09) // the default written
	if !reflect.DeepEqual(back, r) || len(back.Transactions()) != 0 {
		t.Fatalf("%+v", back)
	}
}

func pain002Refused(t *testing.T, data []byte, kind error, path string) {
	t.Helper()
	r, err := ParsePain002(data)
	var e *Error
	if r != nil || !errors.As(err, &e) || !errors.Is(err, kind) || e.Path != path {
		t.Fatalf("ParsePain002 = %v, %v; want %v at %s", r, err, kind, path)
	}
}

func TestATransactionStatusMustNameTheTransferAndHaveAStatus(t *testing.T) {
	const tx = "Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[1]"
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<OrgnlEndToEndId>ord-1b2c3d4e</OrgnlEndToEndId>", ""), ErrMissing, tx+"/OrgnlEndToEndId")
	// Its block and group say only PART: which transactions failed is not said.
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<TxSts>ACSC</TxSts>", ""), ErrMissing, tx+"/TxSts")
	// Without the block's status, the group's applies.
	data := mutate(t, "pain002_v10.xml", "<PmtInfSts>ACCP</PmtInfSts>", "")
	data = []byte(strings.Replace(string(data), "<GrpSts>PART</GrpSts>", "<GrpSts>ACTC</GrpSts>", 1))
	data = []byte(strings.Replace(string(data), "<PmtInfSts>PART</PmtInfSts>", "", 1))
	r, err := ParsePain002(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Payments[1].Transactions[0].Status; got != StatusAcceptedTechnical {
		t.Fatalf("inherited status %q", got)
	}
}

func TestStatusAndReasonCodesMustBeCodes(t *testing.T) {
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<TxSts>RJCT</TxSts>", "<TxSts>rejected</TxSts>"), ErrInvalid,
		"Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/TxSts")
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<Cd>AC04</Cd>", "<Cd>AC-04</Cd>"), ErrInvalid,
		"Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/StsRsnInf[1]/Rsn/Cd")
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<GrpSts>PART</GrpSts>", "<GrpSts>PARTIAL</GrpSts>"), ErrInvalid,
		"Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/GrpSts")
}

func TestAStatusReportNeedsItsOriginalMessage(t *testing.T) {
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<OrgnlMsgId>PAYOUT-20260302-1</OrgnlMsgId>", ""), ErrMissing,
		"Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/OrgnlMsgId")
	pain002Refused(t, mutate(t, "pain002_v10.xml", "<MsgId>STS-20260303-0007</MsgId>", ""), ErrMissing,
		"Document/CstmrPmtStsRpt/GrpHdr/MsgId")
}

func TestTheStatusReportWriterRefusesWhatTheParserWouldRefuse(t *testing.T) {
	for _, tt := range []struct {
		change func(*StatusReport)
		kind   error
		field  string
	}{
		{func(r *StatusReport) { r.MessageID = "" }, ErrMissing, "MessageID"},
		{func(r *StatusReport) { r.CreatedAt = time.Time{} }, ErrMissing, "CreatedAt"},
		{func(r *StatusReport) { r.OriginalMessageID = strings.Repeat("x", 36) }, ErrInvalid, "OriginalMessageID"},
		{func(r *StatusReport) { r.GroupStatus = "part" }, ErrInvalid, "GroupStatus"},
		{func(r *StatusReport) { r.Payments[0].OriginalPaymentInfoID = "" }, ErrMissing, "Payments[1].OriginalPaymentInfoID"},
		{func(r *StatusReport) { r.Payments[1].Transactions[0].Status = "" }, ErrMissing, "Payments[2].Transactions[1].Status"},
		{func(r *StatusReport) { r.Payments[1].Transactions[0].OriginalEndToEndID = "" }, ErrMissing, "Payments[2].Transactions[1].OriginalEndToEndID"},
		{func(r *StatusReport) { r.Payments[0].Transactions[1].Reasons[0].Code = "AC_4" }, ErrInvalid, "Payments[1].Transactions[2].Reasons"},
		{func(r *StatusReport) {
			r.Payments[0].Transactions[1].Reasons[0].AdditionalInfo = []string{strings.Repeat("i", 106)}
		}, ErrInvalid, "Payments[1].Transactions[2].Reasons"},
	} {
		r := wantStatusReport()
		tt.change(r)
		out, err := WritePain002(r)
		var e *Error
		if out != nil || !errors.As(err, &e) || !errors.Is(err, tt.kind) || e.Path != tt.field {
			t.Errorf("WritePain002 = %d bytes, %v; want %v at %s", len(out), err, tt.kind, tt.field)
		}
	}
}
