package iso20022

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"time"

	"github.com/fundshare/fundshare-operator/internal/money"
)

// Batch is a SEPA credit transfer order to the fund's bank: one pain.001.001.09 file
// with one payment information block (PmtInf), paid from one account on one day.
type Batch struct {
	// MessageID is GrpHdr/MsgId, unique per file: banks refuse a repeated one, which is
	// what makes resending the same file safe. A SEPA identifier (see validID): at most
	// 35 characters.
	MessageID string
	// PaymentInfoID is PmtInf/PmtInfId, the id pain.002 reports refer to; empty means
	// MessageID.
	PaymentInfoID string
	// CreatedAt is GrpHdr/CreDtTm; it is written in UTC to the second.
	CreatedAt time.Time
	// DebtorName (at most 70 characters) and DebtorIBAN are the paying account's; it is
	// also the initiating party.
	DebtorName, DebtorIBAN string
	// DebtorBIC is the paying bank's BIC, optional (SEPA needs none within the EEA);
	// without it the file says NOTPROVIDED.
	DebtorBIC string
	// RequestedExecutionDate is the day the bank is to pay, the date of the time in its
	// own location.
	RequestedExecutionDate time.Time
	// Instant asks for SEPA Instant Credit Transfers (LclInstrm/Cd INST), otherwise
	// SEPA Credit Transfers (SvcLvl/Cd SEPA is written in both cases).
	Instant bool
	// BatchBooking asks the bank to book the whole block as one debit (BtchBookg true).
	// The default, false, books each transfer on its own, so that the statement has one
	// entry per transfer to match.
	BatchBooking bool
	Transfers    []Transfer
}

// Transfer is one credit transfer of a Batch (CdtTrfTxInf).
type Transfer struct {
	// EndToEndID is the order id: it travels to the creditor and comes back in pain.002
	// and camt files. A SEPA identifier, at most 35 characters, unique in the batch.
	EndToEndID string
	// Amount in money units (1 EUR = 10,000 units): at least a cent, a whole number of
	// cents, at most 999,999,999.99 EUR.
	Amount int64
	// Currency must be EUR.
	Currency string
	// CreditorName (at most 70 characters) and CreditorIBAN are the payee's.
	CreditorName, CreditorIBAN string
	// RemittanceInfo is the unstructured remittance information (at most 140
	// characters); CreditorReference a structured RF reference in electronic form. At
	// most one of them: SEPA carries one or the other.
	RemittanceInfo, CreditorReference string
}

// paymentInfoID is PmtInfId: PaymentInfoID or, when empty, MessageID.
func (b *Batch) paymentInfoID() string {
	if b.PaymentInfoID != "" {
		return b.PaymentInfoID
	}
	return b.MessageID
}

// Validate checks the batch as WritePain001 does; the error is an *Error whose Path
// names the field ("Transfers[2].CreditorIBAN", 1-based).
func (b *Batch) Validate() error {
	_, err := b.validate()
	return err
}

// validate checks the batch and returns its control sum in money units.
func (b *Batch) validate() (int64, error) {
	f := func(field string, err error) error {
		if err == nil {
			return nil
		}
		return &Error{Message: Pain001V09, Path: field, Err: err}
	}
	for _, c := range []struct {
		field string
		err   error
	}{
		{"MessageID", validID(b.MessageID)},
		{"PaymentInfoID", validID(b.paymentInfoID())},
		{"CreatedAt", nonZero(b.CreatedAt)},
		{"DebtorName", validName(b.DebtorName)},
		{"DebtorIBAN", validIBAN(b.DebtorIBAN)},
		{"DebtorBIC", optionalBIC(b.DebtorBIC)},
		{"RequestedExecutionDate", nonZero(b.RequestedExecutionDate)},
	} {
		if err := f(c.field, c.err); err != nil {
			return 0, err
		}
	}
	if len(b.Transfers) == 0 {
		return 0, f("Transfers", detail(ErrMissing, "a batch has at least one transfer"))
	}
	seen := make(map[string]int, len(b.Transfers))
	var sum int64
	for i := range b.Transfers {
		t := &b.Transfers[i]
		p := "Transfers[" + strconv.Itoa(i+1) + "]."
		if err := f(p+"EndToEndID", validID(t.EndToEndID)); err != nil {
			return 0, err
		}
		if first, dup := seen[t.EndToEndID]; dup {
			return 0, f(p+"EndToEndID", detail(ErrInvalid, "transfer %d has the same EndToEndID: reports could not tell them apart", first))
		}
		seen[t.EndToEndID] = i + 1
		if err := f(p+"Amount", validTransferAmount(t.Amount)); err != nil {
			return 0, err
		}
		if t.Currency != Euro {
			return 0, f(p+"Currency", detail(ErrCurrency, "SEPA credit transfers are in EUR"))
		}
		for _, c := range []struct {
			field string
			err   error
		}{
			{"CreditorName", validName(t.CreditorName)},
			{"CreditorIBAN", validIBAN(t.CreditorIBAN)},
			{"RemittanceInfo", validRemittance(t.RemittanceInfo)},
			{"CreditorReference", optionalReference(t.CreditorReference)},
		} {
			if err := f(p+c.field, c.err); err != nil {
				return 0, err
			}
		}
		if t.RemittanceInfo != "" && t.CreditorReference != "" {
			return 0, f(p+"CreditorReference", detail(ErrInvalid, "a SEPA transfer carries either RemittanceInfo or CreditorReference, not both"))
		}
		var err error
		if sum, err = money.Add(sum, t.Amount); err != nil {
			return 0, f(p+"Amount", detail(ErrAmount, "the control sum overflows"))
		}
	}
	return sum, nil
}

func nonZero(t time.Time) error {
	if t.IsZero() {
		return ErrMissing
	}
	return nil
}

func optionalBIC(s string) error {
	if s == "" {
		return nil
	}
	return validBIC(s)
}

func optionalReference(s string) error {
	if s == "" {
		return nil
	}
	return validCreditorReference(s)
}

// WritePain001 writes the batch as a pain.001.001.09 CustomerCreditTransferInitiation
// after checking it (see Validate): NbOfTxs and CtrlSum (a decimal with two places) in
// GrpHdr and PmtInf, ChrgBr SLEV (each side pays its own bank, the SEPA rule). The
// same batch always gives the same bytes.
func WritePain001(b *Batch) ([]byte, error) {
	sum, err := b.validate()
	if err != nil {
		return nil, err
	}
	ctrl, _ := formatAmount(sum) // whole cents: every amount is
	n := strconv.Itoa(len(b.Transfers))
	doc := p1Document{Initn: p1Initiation{
		GrpHdr: p1GroupHeader{
			MsgID:    b.MessageID,
			CreDtTm:  formatDateTime(b.CreatedAt),
			NbOfTxs:  n,
			CtrlSum:  ctrl,
			InitgPty: p1Party{Nm: b.DebtorName},
		},
		PmtInf: p1PaymentInfo{
			PmtInfID:    b.paymentInfoID(),
			PmtMtd:      "TRF",
			BtchBookg:   strconv.FormatBool(b.BatchBooking),
			NbOfTxs:     n,
			CtrlSum:     ctrl,
			PmtTpInf:    p1PaymentType{SvcLvl: p1Code{Cd: "SEPA"}},
			ReqdExctnDt: p1Date{Dt: b.RequestedExecutionDate.Format(time.DateOnly)},
			Dbtr:        p1Party{Nm: b.DebtorName},
			DbtrAcct:    p1Account{ID: p1AccountID{IBAN: b.DebtorIBAN}},
			DbtrAgt:     agent(b.DebtorBIC),
			ChrgBr:      "SLEV",
			CdtTrfTxInf: make([]p1Transfer, len(b.Transfers)),
		},
	}}
	if b.Instant {
		doc.Initn.PmtInf.PmtTpInf.LclInstrm = &p1Code{Cd: "INST"}
	}
	for i, t := range b.Transfers {
		amt, _ := formatAmount(t.Amount)
		tx := p1Transfer{
			PmtID:    p1PaymentID{EndToEndID: t.EndToEndID},
			Amt:      p1Amount{InstdAmt: p1CurrencyAmount{Ccy: t.Currency, V: amt}},
			Cdtr:     p1Party{Nm: t.CreditorName},
			CdtrAcct: p1Account{ID: p1AccountID{IBAN: t.CreditorIBAN}},
		}
		switch {
		case t.CreditorReference != "":
			tx.RmtInf = &p1Remittance{Strd: &p1Structured{CdtrRefInf: p1CreditorRef{
				Tp:  p1RefType{CdOrPrtry: p1Code{Cd: "SCOR"}, Issr: "ISO"},
				Ref: t.CreditorReference,
			}}}
		case t.RemittanceInfo != "":
			tx.RmtInf = &p1Remittance{Ustrd: t.RemittanceInfo}
		}
		doc.Initn.PmtInf.CdtTrfTxInf[i] = tx
	}
	return marshal(doc)
}

// agent is DbtrAgt: the BIC, or Othr/Id NOTPROVIDED as the EPC guidelines ask when
// there is none.
func agent(bic string) p1Agent {
	if bic == "" {
		return p1Agent{FinInstnID: p1FinInstn{Othr: &p1Other{ID: notProvided}}}
	}
	return p1Agent{FinInstnID: p1FinInstn{BICFI: bic}}
}

// formatDateTime writes an xs:dateTime in UTC to the second.
func formatDateTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// marshal writes a document with the XML declaration, indented by two spaces.
func marshal(doc any) ([]byte, error) {
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the document: %w", err)
	}
	buf := make([]byte, 0, len(xml.Header)+len(out)+1)
	buf = append(buf, xml.Header...)
	buf = append(buf, out...)
	return append(buf, '\n'), nil
}

// The pain.001.001.09 elements the writer writes, in schema order.
type (
	p1Document struct {
		XMLName xml.Name     `xml:"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09 Document"`
		Initn   p1Initiation `xml:"CstmrCdtTrfInitn"`
	}
	p1Initiation struct {
		GrpHdr p1GroupHeader
		PmtInf p1PaymentInfo
	}
	p1GroupHeader struct {
		MsgID    string `xml:"MsgId"`
		CreDtTm  string
		NbOfTxs  string
		CtrlSum  string
		InitgPty p1Party
	}
	p1Party struct {
		Nm string
	}
	p1PaymentInfo struct {
		PmtInfID    string `xml:"PmtInfId"`
		PmtMtd      string
		BtchBookg   string
		NbOfTxs     string
		CtrlSum     string
		PmtTpInf    p1PaymentType
		ReqdExctnDt p1Date
		Dbtr        p1Party
		DbtrAcct    p1Account
		DbtrAgt     p1Agent
		ChrgBr      string
		CdtTrfTxInf []p1Transfer
	}
	p1PaymentType struct {
		SvcLvl    p1Code
		LclInstrm *p1Code
	}
	p1Code struct {
		Cd string
	}
	p1Date struct {
		Dt string
	}
	p1Account struct {
		ID p1AccountID `xml:"Id"`
	}
	p1AccountID struct {
		IBAN string
	}
	p1Agent struct {
		FinInstnID p1FinInstn `xml:"FinInstnId"`
	}
	p1FinInstn struct {
		BICFI string   `xml:",omitempty"`
		Othr  *p1Other `xml:",omitempty"`
	}
	p1Other struct {
		ID string `xml:"Id"`
	}
	p1Transfer struct {
		PmtID    p1PaymentID `xml:"PmtId"`
		Amt      p1Amount
		Cdtr     p1Party
		CdtrAcct p1Account
		RmtInf   *p1Remittance `xml:",omitempty"`
	}
	p1PaymentID struct {
		EndToEndID string `xml:"EndToEndId"`
	}
	p1Amount struct {
		InstdAmt p1CurrencyAmount
	}
	p1CurrencyAmount struct {
		Ccy string `xml:"Ccy,attr"`
		V   string `xml:",chardata"`
	}
	p1Remittance struct {
		Ustrd string        `xml:",omitempty"`
		Strd  *p1Structured `xml:",omitempty"`
	}
	p1Structured struct {
		CdtrRefInf p1CreditorRef
	}
	p1CreditorRef struct {
		Tp  p1RefType
		Ref string
	}
	p1RefType struct {
		CdOrPrtry p1Code
		Issr      string
	}
)
