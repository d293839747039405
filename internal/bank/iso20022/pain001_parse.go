package iso20022

import (
	"strconv"
	"time"

	"github.com/fundshare/fundshare-operator/internal/money"
)

// ParsePain001 reads a pain.001.001.09 CustomerCreditTransferInitiation into one Batch
// per payment information block, each with the file's MessageID and CreatedAt: what
// the sandbox bank reads to know what it is asked to pay. It checks what a SEPA bank
// checks and WritePain001 writes: every rule of Validate, NbOfTxs and CtrlSum of the
// group header and of each block against the transfers, PmtMtd TRF, a SEPA service
// level and no local instrument but INST. An absent BtchBookg reads as true, the usual
// agreement with banks. Any error refuses the whole file; it is an *Error with the
// element path.
func ParsePain001(data []byte) ([]Batch, error) {
	var doc p1In
	m, err := decode(data, []MessageType{Pain001V09}, &doc)
	if err != nil {
		return nil, err
	}
	if doc.Initn == nil {
		return nil, at{msg: m, path: "Document"}.fail("CstmrCdtTrfInitn", ErrMissing)
	}
	return doc.Initn.batches(at{msg: m, path: "Document/CstmrCdtTrfInitn"})
}

type p1In struct {
	Initn *p1InInitiation `xml:"CstmrCdtTrfInitn"`
}

type p1InInitiation struct {
	GrpHdr struct {
		MsgID   text `xml:"MsgId"`
		CreDtTm text
		NbOfTxs text
		CtrlSum text
	}
	PmtInf []p1InPaymentInfo
}

type p1InPaymentInfo struct {
	PmtInfID  text `xml:"PmtInfId"`
	PmtMtd    text
	BtchBookg text
	NbOfTxs   text
	CtrlSum   text
	PmtTpInf  struct {
		SvcLvl    struct{ Cd text }
		LclInstrm struct{ Cd text }
	}
	ReqdExctnDt dateChoice
	Dbtr        struct{ Nm text }
	DbtrAcct    account
	DbtrAgt     struct {
		FinInstnID struct {
			BICFI text // else Othr/Id NOTPROVIDED, which reads as no BIC
		} `xml:"FinInstnId"`
	}
	CdtTrfTxInf []p1InTransfer
}

type p1InTransfer struct {
	PmtID struct {
		EndToEndID text `xml:"EndToEndId"`
	} `xml:"PmtId"`
	Amt struct {
		InstdAmt amountElem
	}
	Cdtr     struct{ Nm text }
	CdtrAcct account
	RmtInf   struct {
		Ustrd text
		Strd  struct {
			CdtrRefInf struct {
				Ref text
			}
		}
	}
}

func (in *p1InInitiation) batches(a at) ([]Batch, error) {
	id, err := a.required("GrpHdr/MsgId", in.GrpHdr.MsgID)
	if err != nil {
		return nil, err
	}
	if err := check(a, "GrpHdr/MsgId", validID(id)); err != nil {
		return nil, err
	}
	created, err := a.required("GrpHdr/CreDtTm", in.GrpHdr.CreDtTm)
	if err != nil {
		return nil, err
	}
	createdAt, err := a.dateTime("GrpHdr/CreDtTm", created)
	if err != nil {
		return nil, err
	}
	if len(in.PmtInf) == 0 {
		return nil, a.fail("PmtInf", ErrMissing)
	}
	out := make([]Batch, len(in.PmtInf))
	seen := map[string]string{}
	count, sum := 0, int64(0)
	for i := range in.PmtInf {
		pa := a.in("PmtInf", i)
		b, err := in.PmtInf[i].batch(pa, seen)
		if err != nil {
			return nil, err
		}
		b.MessageID, b.CreatedAt = id, createdAt
		bsum, err := totals(pa, in.PmtInf[i].NbOfTxs, in.PmtInf[i].CtrlSum, b.Transfers, false)
		if err != nil {
			return nil, err
		}
		count += len(b.Transfers)
		if sum, err = money.Add(sum, bsum); err != nil {
			return nil, pa.fail("CtrlSum", detail(ErrAmount, "the control sum overflows"))
		}
		out[i] = b
	}
	all := make([]Transfer, 0, count)
	for _, b := range out {
		all = append(all, b.Transfers...)
	}
	if _, err := totals(a.in("GrpHdr", -1), in.GrpHdr.NbOfTxs, in.GrpHdr.CtrlSum, all, true); err != nil {
		return nil, err
	}
	return out, nil
}

// totals checks NbOfTxs and CtrlSum against the transfers and returns their sum.
// NbOfTxs is required in the group header; CtrlSum is optional (ISO makes it so), but
// when present it must match to the cent.
func totals(a at, nbOfTxs, ctrlSum text, ts []Transfer, required bool) (int64, error) {
	var sum int64
	for _, t := range ts {
		var err error
		if sum, err = money.Add(sum, t.Amount); err != nil {
			return 0, a.fail("CtrlSum", detail(ErrAmount, "the control sum overflows"))
		}
	}
	n, err := a.optional("NbOfTxs", nbOfTxs)
	if err != nil {
		return 0, err
	}
	if n == "" && required {
		return 0, a.fail("NbOfTxs", ErrMissing)
	}
	if n != "" {
		if !allDigits(n) || len(n) > 15 {
			return 0, a.fail("NbOfTxs", detail(ErrInvalid, "not a number of at most 15 digits"))
		}
		if v, err := strconv.Atoi(n); err != nil || v != len(ts) {
			return 0, a.fail("NbOfTxs", detail(ErrTotals, "it says %s transactions, there are %d", n, len(ts)))
		}
	}
	c, err := a.optional("CtrlSum", ctrlSum)
	if err != nil || c == "" {
		return sum, err
	}
	want, err := parseAmount(c)
	if err != nil {
		return 0, a.fail("CtrlSum", err)
	}
	if want != sum {
		got, _ := formatAmount(sum)
		return 0, a.fail("CtrlSum", detail(ErrTotals, "the transactions add up to %s", got))
	}
	return sum, nil
}

func (p *p1InPaymentInfo) batch(a at, seen map[string]string) (Batch, error) {
	var b Batch
	var err error
	if b.PaymentInfoID, err = a.required("PmtInfId", p.PmtInfID); err != nil {
		return b, err
	}
	if err := check(a, "PmtInfId", validID(b.PaymentInfoID)); err != nil {
		return b, err
	}
	if mtd, err := a.required("PmtMtd", p.PmtMtd); err != nil || mtd != "TRF" {
		return b, firstErr(err, a.fail("PmtMtd", detail(ErrInvalid, "a credit transfer has PmtMtd TRF")))
	}
	if b.BatchBooking, err = batchBooking(a, p.BtchBookg); err != nil {
		return b, err
	}
	if b.Instant, err = p.instant(a); err != nil {
		return b, err
	}
	if b.RequestedExecutionDate, err = p.ReqdExctnDt.read(a, "ReqdExctnDt/Dt", "ReqdExctnDt/DtTm"); err != nil {
		return b, err
	}
	if b.RequestedExecutionDate.IsZero() {
		return b, a.fail("ReqdExctnDt/Dt", ErrMissing)
	}
	b.RequestedExecutionDate = day(b.RequestedExecutionDate)
	if b.DebtorName, err = a.checked("Dbtr/Nm", p.Dbtr.Nm, validName); err != nil {
		return b, err
	}
	if b.DebtorIBAN, err = a.checked("DbtrAcct/Id/IBAN", p.DbtrAcct.ID.IBAN, validIBAN); err != nil {
		return b, err
	}
	if b.DebtorBIC, err = a.checked("DbtrAgt/FinInstnId/BICFI", p.DbtrAgt.FinInstnID.BICFI, optionalBIC); err != nil {
		return b, err
	}
	if len(p.CdtTrfTxInf) == 0 {
		return b, a.fail("CdtTrfTxInf", ErrMissing)
	}
	b.Transfers = make([]Transfer, len(p.CdtTrfTxInf))
	for i := range p.CdtTrfTxInf {
		ta := a.in("CdtTrfTxInf", i)
		if b.Transfers[i], err = p.CdtTrfTxInf[i].transfer(ta); err != nil {
			return b, err
		}
		id := b.Transfers[i].EndToEndID
		if where, dup := seen[id]; dup {
			return b, ta.fail("PmtId/EndToEndId", detail(ErrInvalid, "%s has the same EndToEndId: reports could not tell them apart", where))
		}
		seen[id] = ta.path
	}
	return b, nil
}

func batchBooking(a at, t text) (bool, error) {
	if err := a.once("BtchBookg", t.n); err != nil || t.n == 0 {
		return true, err
	}
	return a.boolean("BtchBookg", t.v)
}

// instant reads PmtTpInf: SvcLvl/Cd, when given, must be SEPA; LclInstrm/Cd, when
// given, INST (SEPA Instant).
func (p *p1InPaymentInfo) instant(a at) (bool, error) {
	svc, err := a.optional("PmtTpInf/SvcLvl/Cd", p.PmtTpInf.SvcLvl.Cd)
	if err != nil {
		return false, err
	}
	if svc != "" && svc != "SEPA" {
		return false, a.fail("PmtTpInf/SvcLvl/Cd", detail(ErrInvalid, "only SEPA credit transfers are read (service level SEPA)"))
	}
	lcl, err := a.optional("PmtTpInf/LclInstrm/Cd", p.PmtTpInf.LclInstrm.Cd)
	if err != nil {
		return false, err
	}
	if lcl != "" && lcl != "INST" {
		return false, a.fail("PmtTpInf/LclInstrm/Cd", detail(ErrInvalid, "the only local instrument read is INST (SEPA Instant)"))
	}
	return lcl == "INST", nil
}

func (t *p1InTransfer) transfer(a at) (Transfer, error) {
	var tr Transfer
	var err error
	if tr.EndToEndID, err = a.checked("PmtId/EndToEndId", t.PmtID.EndToEndID, validID); err != nil {
		return tr, err
	}
	if tr.Amount, tr.Currency, err = a.amount("Amt/InstdAmt", t.Amt.InstdAmt, true); err != nil {
		return tr, err
	}
	if err := check(a, "Amt/InstdAmt", validTransferAmount(tr.Amount)); err != nil {
		return tr, err
	}
	if tr.Currency != Euro {
		return tr, a.fail("Amt/InstdAmt/@Ccy", detail(ErrCurrency, "SEPA credit transfers are in EUR"))
	}
	if tr.CreditorName, err = a.checked("Cdtr/Nm", t.Cdtr.Nm, validName); err != nil {
		return tr, err
	}
	if tr.CreditorIBAN, err = a.checked("CdtrAcct/Id/IBAN", t.CdtrAcct.ID.IBAN, validIBAN); err != nil {
		return tr, err
	}
	if tr.RemittanceInfo, err = a.checked("RmtInf/Ustrd", t.RmtInf.Ustrd, validRemittance); err != nil {
		return tr, err
	}
	if tr.CreditorReference, err = a.checked("RmtInf/Strd/CdtrRefInf/Ref", t.RmtInf.Strd.CdtrRefInf.Ref, optionalReference); err != nil {
		return tr, err
	}
	if tr.RemittanceInfo != "" && tr.CreditorReference != "" {
		return tr, a.fail("RmtInf", detail(ErrInvalid, "a SEPA transfer carries either Ustrd or Strd, not both"))
	}
	return tr, nil
}

// checked returns the value of an element that may appear at most once after
// checking it with valid (which decides whether an empty value is allowed).
func (a at) checked(leaf string, t text, valid func(string) error) (string, error) {
	v, err := a.optional(leaf, t)
	if err != nil {
		return "", err
	}
	return v, check(a, leaf, valid(v))
}

// check places err, if any, at leaf.
func check(a at, leaf string, err error) error {
	if err == nil {
		return nil
	}
	return a.fail(leaf, err)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// day is midnight UTC of t's date as it reads in t's location.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
