package iso20022

import (
	"encoding/xml"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Kind is what a camt message reports.
type Kind string

const (
	// KindNotification is a camt.054 BankToCustomerDebitCreditNotification: entries
	// reported as they are booked (or announced), during the day.
	KindNotification Kind = "camt.054"
	// KindStatement is a camt.053 BankToCustomerStatement: the booked entries of a
	// period, usually the day, with balances (which this package does not read).
	KindStatement Kind = "camt.053"
)

// CreditDebit says whether an entry added money to the account or took it away.
type CreditDebit string

const (
	// Credit (CRDT): money came in.
	Credit CreditDebit = "CRDT"
	// Debit (DBIT): money went out.
	Debit CreditDebit = "DBIT"
)

// EntryStatus is the status of an entry: a code of ISO 20022's external code list
// (BOOK, PDNG, INFO, FUTR), or "Prtry:" followed by a bank's proprietary status.
type EntryStatus string

const (
	// StatusBooked: the entry is on the account. Only booked entries move money.
	StatusBooked EntryStatus = "BOOK"
	// StatusPending: the entry is announced but not booked yet; it may still change or
	// disappear.
	StatusPending EntryStatus = "PDNG"
	// StatusInfo: the entry is for information only and will not be booked.
	StatusInfo EntryStatus = "INFO"
	// StatusFuture: the entry is to be booked on a later date.
	StatusFuture EntryStatus = "FUTR"
)

// proprietaryPrefix prefixes a proprietary status or reason, so that it can never be
// taken for a code of the list.
const proprietaryPrefix = "Prtry:"

// Statement is one account's report in a camt.054 notification or a camt.053
// statement. A file may hold the reports of several accounts; each becomes a Statement
// that repeats the file's message header.
type Statement struct {
	Kind Kind
	// MessageType is the type and version the file declared, such as camt.054.001.08.
	MessageType MessageType
	// MessageID is the file's GrpHdr/MsgId, the same for all its Statements.
	MessageID string
	// CreatedAt is the file's GrpHdr/CreDtTm, in UTC.
	CreatedAt time.Time
	// ID is the report's own identification (Ntfctn/Id or Stmt/Id).
	ID string
	// AccountIBAN is the account reported on (Acct/Id/IBAN), checked as an IBAN.
	AccountIBAN string
	// Currency is the account's currency (Acct/Ccy) or, when the file does not give it,
	// the currency of all the entries if they have only one; else empty.
	Currency string
	Entries  []Entry
}

// Entry is one movement on the account (Ntry). An entry may carry several transactions
// (a batch booking) or none (a bank that gives no details).
type Entry struct {
	// Reference is the bank's unique reference of the entry, the key to deduplicate on:
	// AcctSvcrRef, else NtryRef. AcctSvcrRef is preferred because it identifies the
	// booking across reports (the same booking appears in the day's camt.054 and again
	// in its camt.053), where NtryRef is in many banks' files a sequence number unique
	// only within its report. An entry with neither refuses the file.
	Reference string
	// EntryRef and AccountServicerRef are NtryRef and AcctSvcrRef as given, may be empty.
	EntryRef, AccountServicerRef string
	// Amount is in money units (1 EUR = 10,000 units), never negative: CreditDebit
	// gives the direction.
	Amount      int64
	Currency    string
	CreditDebit CreditDebit
	Status      EntryStatus
	// BookingDate and ValueDate are midnight UTC of the day (or the exact time, in UTC,
	// when the file gives one); zero when absent.
	BookingDate, ValueDate time.Time
	// Reversal is RvslInd: the entry reverses an earlier one (a credit that undoes a
	// debit or the other way round).
	Reversal bool
	// BankTransactionCode is BkTxCd as Domain/Family/SubFamily ("PMNT/RCDT/ESCT" is a
	// received SEPA credit transfer, "PMNT/ICDT/RRTN" a returned one), or the
	// proprietary code when the bank gives only that; empty when absent.
	BankTransactionCode string
	// AdditionalInfo is AddtlNtryInf.
	AdditionalInfo string
	Transactions   []Transaction
}

// Booked reports whether the entry is booked (Status BOOK): the only entries that moved
// money. Consumers ignore the others.
func (e Entry) Booked() bool { return e.Status == StatusBooked }

// Transaction is one payment within an entry (NtryDtls/TxDtls).
type Transaction struct {
	// EndToEndID is the payer's reference that travels with the payment; for a payout
	// this package wrote it is the order id. "NOTPROVIDED" is the SEPA placeholder.
	EndToEndID string
	// InstructionID is Refs/InstrId; AccountServicerRef is Refs/AcctSvcrRef.
	InstructionID, AccountServicerRef string
	// CreditorReference is RmtInf/Strd/CdtrRefInf/Ref as given (an RF reference when the
	// payer used one; check it with package rf), the first when there are several.
	CreditorReference string
	// Unstructured is RmtInf/Ustrd, the free text of the payment.
	Unstructured []string
	// Amount and Currency: TxDtls/Amt, else AmtDtls/TxAmt/Amt, else AmtDtls/InstdAmt/Amt,
	// else (for the only transaction of an entry) the entry's amount.
	Amount   int64
	Currency string
	// The parties, as given (not checked: they are the other side's data).
	DebtorName, DebtorIBAN, CreditorName, CreditorIBAN string
	// ReturnReason is RtrInf/Rsn/Cd (an ISO external return reason such as AC04, closed
	// account) or, prefixed by "Prtry:", the proprietary reason; empty when the
	// transaction is no return. ReturnInfo is RtrInf/AddtlInf.
	ReturnReason string
	ReturnInfo   []string
}

// camtTypes are the types ParseStatements reads.
var camtTypes = []MessageType{Camt054V08, Camt054V02, Camt053V08, Camt053V02}

// ParseStatements reads a camt.054 (.001.08 or .001.02) or camt.053 (.001.08 or
// .001.02) file, detected from its namespace, into one Statement per account report.
// Any error refuses the whole file: nothing is returned with it. The error is an
// *Error that says where (element path and entry) and what.
func ParseStatements(data []byte) ([]Statement, error) {
	var doc camtDocument
	m, err := decode(data, camtTypes, &doc)
	if err != nil {
		return nil, err
	}
	return doc.statements(m)
}

type camtDocument struct {
	Notification *camtMessage `xml:"BkToCstmrDbtCdtNtfctn"`
	Statement    *camtMessage `xml:"BkToCstmrStmt"`
}

type camtMessage struct {
	GrpHdr struct {
		MsgID   text `xml:"MsgId"`
		CreDtTm text
	}
	Ntfctn []camtReport
	Stmt   []camtReport
}

type camtReport struct {
	ID   text `xml:"Id"`
	Acct struct {
		ID struct {
			IBAN text
		} `xml:"Id"`
		Ccy text
	}
	Ntry []camtEntry
}

type camtEntry struct {
	NtryRef     text
	Amt         amountElem
	CdtDbtInd   text
	RvslInd     text
	Sts         entryStatusElem
	BookgDt     dateChoice
	ValDt       dateChoice
	AcctSvcrRef text
	BkTxCd      struct {
		Domn struct {
			Cd   text
			Fmly struct {
				Cd        text
				SubFmlyCd text
			}
		}
		Prtry struct {
			Cd text
		}
	}
	NtryDtls []struct {
		TxDtls []camtTransaction
	}
	AddtlNtryInf text
}

// entryStatusElem is Sts in both versions: .02 has the code as text, .08 a choice of
// Cd and Prtry. n counts its occurrences, as text does.
type entryStatusElem struct {
	n         int
	v         string
	cd, prtry text
}

func (s *entryStatusElem) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	s.n++
	var x struct {
		V     string `xml:",chardata"`
		Cd    text
		Prtry text
	}
	if err := d.DecodeElement(&x, &start); err != nil {
		return err
	}
	s.v, s.cd, s.prtry = strings.TrimSpace(x.V), x.Cd, x.Prtry
	return nil
}

type dateChoice struct {
	Dt   text
	DtTm text
}

type camtTransaction struct {
	Refs struct {
		AcctSvcrRef text
		InstrID     text `xml:"InstrId"`
		EndToEndID  text `xml:"EndToEndId"`
	}
	Amt     amountElem
	AmtDtls struct {
		InstdAmt struct{ Amt amountElem }
		TxAmt    struct{ Amt amountElem }
	}
	RltdPties struct {
		Dbtr     party
		DbtrAcct account
		Cdtr     party
		CdtrAcct account
	}
	RmtInf struct {
		Ustrd []string
		Strd  []struct {
			CdtrRefInf struct {
				Ref text
			}
		}
	}
	RtrInf struct {
		Rsn struct {
			Cd    text
			Prtry text
		}
		AddtlInf []string
	}
}

// party is a party's name in both versions: .02 has Nm, .08 Pty/Nm.
type party struct {
	Nm  text
	Pty struct {
		Nm text
	}
}

type account struct {
	ID struct {
		IBAN text
	} `xml:"Id"`
}

func (doc *camtDocument) statements(m MessageType) ([]Statement, error) {
	kind, msg, name, reportName := KindNotification, doc.Notification, "BkToCstmrDbtCdtNtfctn", "Ntfctn"
	if m == Camt053V08 || m == Camt053V02 {
		kind, msg, name, reportName = KindStatement, doc.Statement, "BkToCstmrStmt", "Stmt"
	}
	if msg == nil {
		return nil, at{msg: m, path: "Document"}.fail(name, ErrMissing)
	}
	reports := msg.Ntfctn
	if kind == KindStatement {
		reports = msg.Stmt
	}
	a := at{msg: m, path: "Document/" + name}
	id, err := a.required("GrpHdr/MsgId", msg.GrpHdr.MsgID)
	if err != nil {
		return nil, err
	}
	created, err := a.required("GrpHdr/CreDtTm", msg.GrpHdr.CreDtTm)
	if err != nil {
		return nil, err
	}
	createdAt, err := a.dateTime("GrpHdr/CreDtTm", created)
	if err != nil {
		return nil, err
	}
	if len(reports) == 0 {
		return nil, a.fail(reportName, detail(ErrMissing, "the file reports on no account"))
	}
	out := make([]Statement, len(reports))
	for i := range reports {
		s, err := reports[i].statement(m, a.in(reportName, i))
		if err != nil {
			return nil, err
		}
		s.Kind, s.MessageType, s.MessageID, s.CreatedAt = kind, m, id, createdAt
		out[i] = s
	}
	return out, nil
}

func (r *camtReport) statement(m MessageType, a at) (Statement, error) {
	var s Statement
	var err error
	if s.ID, err = a.required("Id", r.ID); err != nil {
		return s, err
	}
	if s.AccountIBAN, err = a.required("Acct/Id/IBAN", r.Acct.ID.IBAN); err != nil {
		return s, err
	}
	if err := validation.ValidateIBAN(s.AccountIBAN); err != nil {
		return s, a.fail("Acct/Id/IBAN", detail(ErrInvalid, "%s", err.Error()))
	}
	if s.Currency, err = a.optional("Acct/Ccy", r.Acct.Ccy); err != nil {
		return s, err
	}
	if s.Currency != "" {
		if err := validCurrency(s.Currency); err != nil {
			return s, a.fail("Acct/Ccy", err)
		}
	}
	s.Entries = make([]Entry, len(r.Ntry))
	for j := range r.Ntry {
		ea := a.in("Ntry", j)
		ea.entry = j + 1
		if s.Entries[j], err = r.Ntry[j].entry(m, ea); err != nil {
			return Statement{}, err
		}
	}
	if s.Currency == "" {
		s.Currency = commonCurrency(s.Entries)
	}
	return s, nil
}

// commonCurrency is the currency of all the entries, or "" when there are none or they
// differ.
func commonCurrency(entries []Entry) string {
	if len(entries) == 0 {
		return ""
	}
	for _, e := range entries[1:] {
		if e.Currency != entries[0].Currency {
			return ""
		}
	}
	return entries[0].Currency
}

func (n *camtEntry) entry(m MessageType, a at) (Entry, error) {
	var e Entry
	var err error
	if e.Amount, e.Currency, err = a.amount("Amt", n.Amt, true); err != nil {
		return e, err
	}
	if e.CreditDebit, err = creditDebit(a, n.CdtDbtInd); err != nil {
		return e, err
	}
	if e.Status, err = n.Sts.status(m, a); err != nil {
		return e, err
	}
	if e.EntryRef, err = a.optional("NtryRef", n.NtryRef); err != nil {
		return e, err
	}
	if e.AccountServicerRef, err = a.optional("AcctSvcrRef", n.AcctSvcrRef); err != nil {
		return e, err
	}
	e.Reference = e.AccountServicerRef
	if e.Reference == "" {
		e.Reference = e.EntryRef
	}
	if e.Reference == "" {
		return e, a.fail("AcctSvcrRef", detail(ErrMissing, "the entry has neither AcctSvcrRef nor NtryRef, so it cannot be told from a repeat"))
	}
	if e.Reversal, err = reversal(a, n.RvslInd); err != nil {
		return e, err
	}
	if e.BookingDate, err = n.BookgDt.read(a, "BookgDt/Dt", "BookgDt/DtTm"); err != nil {
		return e, err
	}
	if e.ValueDate, err = n.ValDt.read(a, "ValDt/Dt", "ValDt/DtTm"); err != nil {
		return e, err
	}
	if e.BankTransactionCode, err = n.bankTransactionCode(a); err != nil {
		return e, err
	}
	if e.AdditionalInfo, err = a.optional("AddtlNtryInf", n.AddtlNtryInf); err != nil {
		return e, err
	}
	return e, n.transactions(a, &e)
}

func creditDebit(a at, t text) (CreditDebit, error) {
	v, err := a.required("CdtDbtInd", t)
	if err != nil {
		return "", err
	}
	switch cd := CreditDebit(v); cd {
	case Credit, Debit:
		return cd, nil
	}
	return "", a.fail("CdtDbtInd", detail(ErrInvalid, "not CRDT or DBIT"))
}

func reversal(a at, t text) (bool, error) {
	if err := a.once("RvslInd", t.n); err != nil || t.n == 0 {
		return false, err
	}
	return a.boolean("RvslInd", t.v)
}

// status reads Sts: the code as text in .001.02, Sts/Cd or Sts/Prtry in .001.08.
func (s *entryStatusElem) status(m MessageType, a at) (EntryStatus, error) {
	if err := a.once("Sts", s.n); err != nil {
		return "", err
	}
	if s.n == 0 {
		return "", a.fail("Sts", ErrMissing)
	}
	if m == Camt054V02 || m == Camt053V02 {
		if s.v == "" {
			return "", a.fail("Sts", ErrMissing)
		}
		return code(a, "Sts", s.v)
	}
	cd, err := a.optional("Sts/Cd", s.cd)
	if err != nil {
		return "", err
	}
	prtry, err := a.optional("Sts/Prtry", s.prtry)
	if err != nil {
		return "", err
	}
	switch {
	case cd != "":
		return code(a, "Sts/Cd", cd)
	case prtry != "":
		return EntryStatus(proprietaryPrefix + prtry), nil
	}
	return "", a.fail("Sts/Cd", ErrMissing)
}

// code checks an external code: 1 to 4 upper-case letters or digits.
func code(a at, leaf, v string) (EntryStatus, error) {
	if !validCode(v) {
		return "", a.fail(leaf, detail(ErrInvalid, "a code is 1 to 4 upper-case letters or digits"))
	}
	return EntryStatus(v), nil
}

func validCode(v string) bool {
	if len(v) < 1 || len(v) > 4 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isUpperLetter(v[i]) && (v[i] < '0' || v[i] > '9') {
			return false
		}
	}
	return true
}

// read returns the day (Dt) or the time (DtTm) of a date choice, zero when absent.
func (c dateChoice) read(a at, dtLeaf, dtTmLeaf string) (time.Time, error) {
	dt, err := a.optional(dtLeaf, c.Dt)
	if err != nil {
		return time.Time{}, err
	}
	dtTm, err := a.optional(dtTmLeaf, c.DtTm)
	if err != nil {
		return time.Time{}, err
	}
	switch {
	case dt != "":
		return a.date(dtLeaf, dt)
	case dtTm != "":
		return a.dateTime(dtTmLeaf, dtTm)
	}
	return time.Time{}, nil
}

func (n *camtEntry) bankTransactionCode(a at) (string, error) {
	d := n.BkTxCd.Domn
	for _, f := range []struct {
		leaf string
		t    text
	}{{"BkTxCd/Domn/Cd", d.Cd}, {"BkTxCd/Domn/Fmly/Cd", d.Fmly.Cd}, {"BkTxCd/Domn/Fmly/SubFmlyCd", d.Fmly.SubFmlyCd}, {"BkTxCd/Prtry/Cd", n.BkTxCd.Prtry.Cd}} {
		if err := a.once(f.leaf, f.t.n); err != nil {
			return "", err
		}
	}
	if d.Cd.v != "" {
		return d.Cd.v + "/" + d.Fmly.Cd.v + "/" + d.Fmly.SubFmlyCd.v, nil
	}
	return n.BkTxCd.Prtry.Cd.v, nil
}

// transactions reads the entry's transactions into e.
func (n *camtEntry) transactions(a at, e *Entry) error {
	count := 0
	for _, d := range n.NtryDtls {
		count += len(d.TxDtls)
	}
	if count == 0 {
		return nil
	}
	e.Transactions = make([]Transaction, 0, count)
	for i := range n.NtryDtls {
		da := a.in("NtryDtls", i)
		for j := range n.NtryDtls[i].TxDtls {
			tx, err := n.NtryDtls[i].TxDtls[j].transaction(da.in("TxDtls", j), e, count)
			if err != nil {
				return err
			}
			e.Transactions = append(e.Transactions, tx)
		}
	}
	return nil
}

func (t *camtTransaction) transaction(a at, e *Entry, count int) (Transaction, error) {
	var tx Transaction
	var err error
	for _, f := range []struct {
		leaf string
		t    text
		dst  *string
	}{
		{"Refs/EndToEndId", t.Refs.EndToEndID, &tx.EndToEndID},
		{"Refs/InstrId", t.Refs.InstrID, &tx.InstructionID},
		{"Refs/AcctSvcrRef", t.Refs.AcctSvcrRef, &tx.AccountServicerRef},
		{"RltdPties/Dbtr/Nm", t.RltdPties.Dbtr.Nm, &tx.DebtorName},
		{"RltdPties/Dbtr/Pty/Nm", t.RltdPties.Dbtr.Pty.Nm, &tx.DebtorName},
		{"RltdPties/DbtrAcct/Id/IBAN", t.RltdPties.DbtrAcct.ID.IBAN, &tx.DebtorIBAN},
		{"RltdPties/Cdtr/Nm", t.RltdPties.Cdtr.Nm, &tx.CreditorName},
		{"RltdPties/Cdtr/Pty/Nm", t.RltdPties.Cdtr.Pty.Nm, &tx.CreditorName},
		{"RltdPties/CdtrAcct/Id/IBAN", t.RltdPties.CdtrAcct.ID.IBAN, &tx.CreditorIBAN},
	} {
		v, err := a.optional(f.leaf, f.t)
		if err != nil {
			return tx, err
		}
		if v != "" {
			*f.dst = v
		}
	}
	if tx.Amount, tx.Currency, err = t.amount(a, e, count); err != nil {
		return tx, err
	}
	for i, s := range t.RmtInf.Strd {
		ref, err := a.in("RmtInf/Strd", i).optional("CdtrRefInf/Ref", s.CdtrRefInf.Ref)
		if err != nil {
			return tx, err
		}
		if tx.CreditorReference == "" {
			tx.CreditorReference = ref
		}
	}
	tx.Unstructured = trimAll(t.RmtInf.Ustrd)
	if tx.ReturnReason, err = t.returnReason(a); err != nil {
		return tx, err
	}
	tx.ReturnInfo = trimAll(t.RtrInf.AddtlInf)
	return tx, nil
}

// amount is the transaction's amount: TxDtls/Amt, AmtDtls/TxAmt/Amt or
// AmtDtls/InstdAmt/Amt, whichever comes first, else the entry's when the transaction is
// its only one. In a batch, a transaction without an amount refuses the file: the
// entry's amount cannot be shared out.
func (t *camtTransaction) amount(a at, e *Entry, count int) (int64, string, error) {
	for _, c := range []struct {
		leaf string
		e    amountElem
	}{{"Amt", t.Amt}, {"AmtDtls/TxAmt/Amt", t.AmtDtls.TxAmt.Amt}, {"AmtDtls/InstdAmt/Amt", t.AmtDtls.InstdAmt.Amt}} {
		units, ccy, err := a.amount(c.leaf, c.e, false)
		if err != nil || ccy != "" {
			return units, ccy, err
		}
	}
	if count > 1 {
		return 0, "", a.fail("Amt", detail(ErrMissing, "a transaction of a batch of %d has no amount", count))
	}
	return e.Amount, e.Currency, nil
}

func (t *camtTransaction) returnReason(a at) (string, error) {
	cd, err := a.optional("RtrInf/Rsn/Cd", t.RtrInf.Rsn.Cd)
	if err != nil {
		return "", err
	}
	prtry, err := a.optional("RtrInf/Rsn/Prtry", t.RtrInf.Rsn.Prtry)
	if err != nil {
		return "", err
	}
	if cd != "" {
		if !validCode(cd) {
			return "", a.fail("RtrInf/Rsn/Cd", detail(ErrInvalid, "a code is 1 to 4 upper-case letters or digits"))
		}
		return cd, nil
	}
	if prtry != "" {
		return proprietaryPrefix + prtry, nil
	}
	return "", nil
}

// trimAll trims each string and drops the empty ones; nil when none is left.
func trimAll(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
