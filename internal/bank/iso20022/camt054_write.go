package iso20022

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Length limits of the camt.054.001.08 elements WriteCamt054 writes, beyond MaxIDLen
// (Max35Text), MaxNameLen and MaxRemittanceLen.
const (
	// MaxEntryInfoLen is the limit of AddtlNtryInf (Max500Text).
	MaxEntryInfoLen = 500
	// MaxReturnInfoLen is the limit of one RtrInf/AddtlInf line (Max105Text).
	MaxReturnInfoLen = 105
)

// Notification is a camt.054.001.08 BankToCustomerDebitCreditNotification for
// WriteCamt054 to write: one report (Ntfctn) on one account. It is what a bank sends,
// so only the sandbox bank and tests write one; the fields are those ParseStatements
// reads into a Statement, and each comes back equal (see WriteCamt054).
type Notification struct {
	// MessageID is GrpHdr/MsgId, unique per file: 1 to 35 characters of text.
	MessageID string
	// CreatedAt is GrpHdr/CreDtTm (and Ntfctn/CreDtTm); it is written in UTC to the
	// second.
	CreatedAt time.Time
	// ID is the report's Ntfctn/Id: 1 to 35 characters of text.
	ID string
	// AccountIBAN is the account reported on (Acct/Id/IBAN), in electronic form.
	AccountIBAN string
	// Currency is the account's currency (Acct/Ccy): three upper-case letters.
	Currency string
	// Entries are the movements, written in this order. A notification may have none.
	Entries []NotificationEntry
}

// NotificationEntry is one movement on the account (Ntry) of a Notification.
type NotificationEntry struct {
	// EntryRef (NtryRef) and AccountServicerRef (AcctSvcrRef) are the bank's references
	// of the entry, each empty or 1 to 35 characters of text; at least one is required,
	// since a reader deduplicates on them (AcctSvcrRef first, see Entry.Reference).
	EntryRef, AccountServicerRef string
	// Amount is in money units (1 EUR = 10,000 units): more than zero, a whole number of
	// cents. CreditDebit gives the direction.
	Amount int64
	// Currency is the amount's currency, three upper-case letters; usually the
	// account's, but a bank may book another.
	Currency string
	// CreditDebit is Credit or Debit.
	CreditDebit CreditDebit
	// Reversal writes RvslInd true: the entry reverses an earlier one.
	Reversal bool
	// Status is Sts: empty means StatusBooked; otherwise a code of 1 to 4 upper-case
	// letters or digits, or "Prtry:" and a proprietary status of 1 to 35 characters.
	Status EntryStatus
	// BookingDate and ValueDate are BookgDt/Dt and ValDt/Dt, the day of the time in its
	// own location (years 1 to 9999); zero leaves the element out (a pending entry has
	// no booking date).
	BookingDate, ValueDate time.Time
	// BankTransactionCode is BkTxCd/Domn as Domain/Family/SubFamily, each a code of 1 to
	// 4 upper-case letters or digits: PMNT/RCDT/ESCT for a received SEPA credit
	// transfer, PMNT/ICDT/ESCT for one sent, PMNT/ICDT/RRTN for one sent and returned.
	// Required: the schema has no entry without one.
	BankTransactionCode string
	// AdditionalInfo is AddtlNtryInf, at most 500 characters; empty leaves it out.
	AdditionalInfo string
	// Transactions are the payments booked in the entry (NtryDtls/TxDtls), at least one.
	// When all are in the entry's currency, their amounts add up to the entry's.
	Transactions []NotificationTransaction
}

// NotificationTransaction is one payment of a NotificationEntry (TxDtls).
type NotificationTransaction struct {
	// EndToEndID is Refs/EndToEndId, the payer's reference: 1 to 35 characters of text,
	// or empty for NOTPROVIDED, the SEPA placeholder (which is what comes back).
	EndToEndID string
	// InstructionID (Refs/InstrId) and AccountServicerRef (Refs/AcctSvcrRef) are
	// optional: empty or 1 to 35 characters of text.
	InstructionID, AccountServicerRef string
	// Amount is in money units: more than zero, a whole number of cents.
	Amount int64
	// Currency is the amount's currency; empty means the entry's.
	Currency string
	// DebtorName and CreditorName (RltdPties/Dbtr/Pty/Nm, Cdtr/Pty/Nm) are optional, at
	// most 70 characters; DebtorIBAN and CreditorIBAN (DbtrAcct, CdtrAcct) optional,
	// valid IBANs in electronic form.
	DebtorName, DebtorIBAN, CreditorName, CreditorIBAN string
	// CreditorReference is RmtInf/Strd/CdtrRefInf/Ref with type SCOR and issuer ISO: an
	// RF reference in electronic form that passes package rf's check; empty leaves it
	// out.
	CreditorReference string
	// Unstructured is RmtInf/Ustrd, one element per line, each 1 to 140 characters.
	Unstructured []string
	// ReturnReason is RtrInf/Rsn for a returned payment: a code of 1 to 4 upper-case
	// letters or digits (AC04, closed account) or "Prtry:" and a proprietary reason of
	// 1 to 35 characters; empty for a transaction that is no return. ReturnInfo is
	// RtrInf/AddtlInf, lines of 1 to 105 characters.
	ReturnReason string
	ReturnInfo   []string
}

// WriteCamt054 writes the notification as a camt.054.001.08 document after checking it:
// the error is an *Error whose Path names the field ("Entries[2].Transactions[1].
// DebtorIBAN", 1-based) and whose kind is ErrMissing, ErrInvalid, ErrAmount, ErrCurrency
// or ErrTotals. Every entry has NtryDtls with its transactions, each with its amount and
// the entry's CdtDbtInd; text fields are refused when ParseStatements would not give
// them back as they are (surrounding white space, control characters, U+FFFE and
// U+FFFF, which XML cannot carry). So ParseStatements reads the output back into a
// Statement whose every field is the input's, except for what is documented on the
// fields: CreatedAt in UTC to the second, dates as midnight UTC of their day, an empty
// Status as BOOK, an empty EndToEndID as NOTPROVIDED, an empty transaction currency as
// the entry's. The same notification always gives the same bytes.
func WriteCamt054(n *Notification) ([]byte, error) {
	if err := n.validate(); err != nil {
		return nil, err
	}
	created := formatDateTime(n.CreatedAt)
	doc := c54Document{Msg: c54Message{
		GrpHdr: c54GroupHeader{MsgID: n.MessageID, CreDtTm: created},
		Ntfctn: c54Notification{
			ID:      n.ID,
			CreDtTm: created,
			Acct:    c54Account{ID: p1AccountID{IBAN: n.AccountIBAN}, Ccy: n.Currency},
			Ntry:    make([]c54Entry, len(n.Entries)),
		},
	}}
	for i := range n.Entries {
		doc.Msg.Ntfctn.Ntry[i] = n.Entries[i].element()
	}
	return marshal(doc)
}

// element is the entry as written; the entry is valid.
func (e *NotificationEntry) element() c54Entry {
	amt, _ := formatAmount(e.Amount) // checked: positive whole cents
	domain, rest, _ := strings.Cut(e.BankTransactionCode, "/")
	family, sub, _ := strings.Cut(rest, "/")
	w := c54Entry{
		NtryRef:      e.EntryRef,
		Amt:          p1CurrencyAmount{Ccy: e.Currency, V: amt},
		CdtDbtInd:    string(e.CreditDebit),
		Sts:          statusElement(e.Status),
		BookgDt:      dateElement(e.BookingDate),
		ValDt:        dateElement(e.ValueDate),
		AcctSvcrRef:  e.AccountServicerRef,
		BkTxCd:       c54BankTxCode{Domn: c54Domain{Cd: domain, Fmly: c54Family{Cd: family, SubFmlyCd: sub}}},
		NtryDtls:     c54EntryDetails{TxDtls: make([]c54Transaction, len(e.Transactions))},
		AddtlNtryInf: e.AdditionalInfo,
	}
	if e.Reversal {
		w.RvslInd = "true"
	}
	for j := range e.Transactions {
		w.NtryDtls.TxDtls[j] = e.Transactions[j].element(e)
	}
	return w
}

// element is the transaction as written; the transaction is valid.
func (t *NotificationTransaction) element(e *NotificationEntry) c54Transaction {
	amt, _ := formatAmount(t.Amount) // checked: positive whole cents
	w := c54Transaction{
		Refs: c54Refs{
			AcctSvcrRef: t.AccountServicerRef,
			InstrID:     t.InstructionID,
			EndToEndID:  firstNonEmpty(t.EndToEndID, notProvided),
		},
		Amt:       p1CurrencyAmount{Ccy: firstNonEmpty(t.Currency, e.Currency), V: amt},
		CdtDbtInd: string(e.CreditDebit),
	}
	if t.DebtorName != "" || t.DebtorIBAN != "" || t.CreditorName != "" || t.CreditorIBAN != "" {
		w.RltdPties = &c54Parties{
			Dbtr: partyElement(t.DebtorName), DbtrAcct: accountElement(t.DebtorIBAN),
			Cdtr: partyElement(t.CreditorName), CdtrAcct: accountElement(t.CreditorIBAN),
		}
	}
	if t.CreditorReference != "" || len(t.Unstructured) > 0 {
		w.RmtInf = &c54Remittance{Ustrd: t.Unstructured}
		if t.CreditorReference != "" {
			w.RmtInf.Strd = &p1Structured{CdtrRefInf: p1CreditorRef{
				Tp:  p1RefType{CdOrPrtry: p1Code{Cd: "SCOR"}, Issr: "ISO"},
				Ref: t.CreditorReference,
			}}
		}
	}
	if t.ReturnReason != "" || len(t.ReturnInfo) > 0 {
		w.RtrInf = &c54Return{AddtlInf: t.ReturnInfo}
		if t.ReturnReason != "" {
			r := codeOrProprietary(t.ReturnReason)
			w.RtrInf.Rsn = &r
		}
	}
	return w
}

// statusElement is Sts: Cd, or Prtry for a proprietary status; BOOK when empty.
func statusElement(s EntryStatus) c54Code {
	if s == "" {
		s = StatusBooked
	}
	return codeOrProprietary(string(s))
}

// codeOrProprietary is a choice of Cd and Prtry: Prtry when s has the proprietary
// prefix.
func codeOrProprietary(s string) c54Code {
	if prtry, ok := strings.CutPrefix(s, proprietaryPrefix); ok {
		return c54Code{Prtry: prtry}
	}
	return c54Code{Cd: s}
}

func dateElement(t time.Time) *p1Date {
	if t.IsZero() {
		return nil
	}
	return &p1Date{Dt: t.Format(time.DateOnly)}
}

func partyElement(name string) *c54Party {
	if name == "" {
		return nil
	}
	return &c54Party{Pty: p1Party{Nm: name}}
}

func accountElement(iban string) *p1Account {
	if iban == "" {
		return nil
	}
	return &p1Account{ID: p1AccountID{IBAN: iban}}
}

// validate checks the notification as WriteCamt054 documents it.
func (n *Notification) validate() error {
	for _, c := range []struct {
		field string
		err   error
	}{
		{"MessageID", validText(n.MessageID, MaxIDLen)},
		{"CreatedAt", validTime(n.CreatedAt.UTC())},
		{"ID", validText(n.ID, MaxIDLen)},
		{"AccountIBAN", validIBAN(n.AccountIBAN)},
		{"Currency", validCurrency(n.Currency)},
	} {
		if c.err != nil {
			return writeError(c.field, c.err)
		}
	}
	for i := range n.Entries {
		if err := n.Entries[i].validate("Entries[" + strconv.Itoa(i+1) + "]."); err != nil {
			return err
		}
	}
	return nil
}

// validate checks an entry; p prefixes the field names of its errors.
func (e *NotificationEntry) validate(p string) error {
	for _, c := range []struct {
		field string
		err   error
	}{
		{"EntryRef", optional(e.EntryRef, MaxIDLen, validText)},
		{"AccountServicerRef", optional(e.AccountServicerRef, MaxIDLen, validText)},
		{"AccountServicerRef", hasReference(e)},
		{"Amount", validPositiveAmount(e.Amount)},
		{"Currency", validCurrency(e.Currency)},
		{"CreditDebit", validCreditDebit(e.CreditDebit)},
		{"Status", optional(string(e.Status), 0, validCodeOrProprietary)},
		{"BookingDate", optionalTime(e.BookingDate)},
		{"ValueDate", optionalTime(e.ValueDate)},
		{"BankTransactionCode", validBankTransactionCode(e.BankTransactionCode)},
		{"AdditionalInfo", optional(e.AdditionalInfo, MaxEntryInfoLen, validText)},
	} {
		if c.err != nil {
			return writeError(p+c.field, c.err)
		}
	}
	if len(e.Transactions) == 0 {
		return writeError(p+"Transactions", detail(ErrMissing, "an entry has at least one transaction"))
	}
	var sum int64
	sameCurrency := true
	for j := range e.Transactions {
		t := &e.Transactions[j]
		if err := t.validate(p + "Transactions[" + strconv.Itoa(j+1) + "]."); err != nil {
			return err
		}
		if t.Currency != "" && t.Currency != e.Currency {
			sameCurrency = false
			continue
		}
		var err error
		if sum, err = money.Add(sum, t.Amount); err != nil {
			return writeError(p+"Transactions", detail(ErrAmount, "the sum of the transactions overflows"))
		}
	}
	if sameCurrency && sum != e.Amount {
		return writeError(p+"Amount", detail(ErrTotals, "the entry's amount is not the sum of its transactions, all in its currency"))
	}
	return nil
}

// validate checks a transaction; p prefixes the field names of its errors.
func (t *NotificationTransaction) validate(p string) error {
	for _, c := range []struct {
		field string
		err   error
	}{
		{"EndToEndID", optional(t.EndToEndID, MaxIDLen, validText)},
		{"InstructionID", optional(t.InstructionID, MaxIDLen, validText)},
		{"AccountServicerRef", optional(t.AccountServicerRef, MaxIDLen, validText)},
		{"Amount", validPositiveAmount(t.Amount)},
		{"Currency", optional(t.Currency, 0, func(s string, _ int) error { return validCurrency(s) })},
		{"DebtorName", optional(t.DebtorName, MaxNameLen, validText)},
		{"DebtorIBAN", optional(t.DebtorIBAN, 0, func(s string, _ int) error { return validIBAN(s) })},
		{"CreditorName", optional(t.CreditorName, MaxNameLen, validText)},
		{"CreditorIBAN", optional(t.CreditorIBAN, 0, func(s string, _ int) error { return validIBAN(s) })},
		{"CreditorReference", optionalReference(t.CreditorReference)},
		{"Unstructured", validLines(t.Unstructured, MaxRemittanceLen)},
		{"ReturnReason", optional(t.ReturnReason, 0, validCodeOrProprietary)},
		{"ReturnInfo", validLines(t.ReturnInfo, MaxReturnInfoLen)},
	} {
		if c.err != nil {
			return writeError(p+c.field, c.err)
		}
	}
	return nil
}

func writeError(field string, err error) error {
	return &Error{Message: Camt054V08, Path: field, Err: err}
}

// validText checks a text element that must come back from ParseStatements as written:
// 1 to max characters of text as validation.ValidateText accepts it, without surrounding
// white space (the parser trims it) and without U+FFFE and U+FFFF (not XML characters:
// encoding/xml would write U+FFFD instead).
func validText(s string, max int) error {
	switch {
	case s == "":
		return ErrMissing
	case strings.TrimSpace(s) != s:
		return detail(ErrInvalid, "text must not start or end with white space")
	}
	if err := validation.ValidateText(s); err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	if strings.ContainsAny(s, "\uFFFE\uFFFF") {
		return detail(ErrInvalid, "U+FFFE and U+FFFF are not characters XML can carry")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return detail(ErrInvalid, "at most %d characters, this has %d", max, n)
	}
	return nil
}

// optional checks s with check when it is not empty.
func optional(s string, max int, check func(string, int) error) error {
	if s == "" {
		return nil
	}
	return check(s, max)
}

// validLines checks lines of text that repeat an element, each 1 to max characters.
func validLines(lines []string, max int) error {
	for i, s := range lines {
		if err := validText(s, max); err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	return nil
}

// hasReference checks that an entry has a reference to deduplicate on.
func hasReference(e *NotificationEntry) error {
	if e.EntryRef == "" && e.AccountServicerRef == "" {
		return detail(ErrMissing, "an entry has an AccountServicerRef or an EntryRef, else it cannot be told from a repeat")
	}
	return nil
}

// validPositiveAmount checks an amount of a camt entry or transaction: more than zero, a
// whole number of cents.
func validPositiveAmount(units int64) error {
	if units <= 0 {
		return detail(ErrAmount, "an amount is more than zero")
	}
	_, err := formatAmount(units)
	return err
}

func validCreditDebit(cd CreditDebit) error {
	if cd != Credit && cd != Debit {
		return detail(ErrInvalid, "CRDT or DBIT")
	}
	return nil
}

// validCodeOrProprietary checks a status or a reason: a code of 1 to 4 upper-case
// letters or digits, or the proprietary prefix and 1 to 35 characters of text.
func validCodeOrProprietary(s string, _ int) error {
	if prtry, ok := strings.CutPrefix(s, proprietaryPrefix); ok {
		if err := validText(prtry, MaxIDLen); err != nil {
			return fmt.Errorf("the proprietary code: %w", err)
		}
		return nil
	}
	if !validCode(s) {
		return detail(ErrInvalid, `a code is 1 to 4 upper-case letters or digits; a proprietary one starts with "Prtry:"`)
	}
	return nil
}

// validTime checks a time the writer must write: not zero, a year of four digits.
func validTime(t time.Time) error {
	if t.IsZero() {
		return ErrMissing
	}
	if y := t.Year(); y < 1 || y > 9999 {
		return detail(ErrInvalid, "the year %d is not within 1 to 9999", y)
	}
	return nil
}

func optionalTime(t time.Time) error {
	if t.IsZero() {
		return nil
	}
	return validTime(t)
}

// validBankTransactionCode checks Domain/Family/SubFamily, each 1 to 4 upper-case
// letters or digits.
func validBankTransactionCode(s string) error {
	if s == "" {
		return detail(ErrMissing, "an entry has a bank transaction code, such as PMNT/RCDT/ESCT")
	}
	parts := strings.Split(s, "/")
	if len(parts) != 3 || !validCode(parts[0]) || !validCode(parts[1]) || !validCode(parts[2]) {
		return detail(ErrInvalid, "a bank transaction code is Domain/Family/SubFamily, each 1 to 4 upper-case letters or digits, such as PMNT/RCDT/ESCT")
	}
	return nil
}

// The camt.054.001.08 elements the writer writes, in schema order. The account, party,
// date and creditor reference elements are pain.001's, which have the same shape.
type (
	c54Document struct {
		XMLName xml.Name   `xml:"urn:iso:std:iso:20022:tech:xsd:camt.054.001.08 Document"`
		Msg     c54Message `xml:"BkToCstmrDbtCdtNtfctn"`
	}
	c54Message struct {
		GrpHdr c54GroupHeader
		Ntfctn c54Notification
	}
	c54GroupHeader struct {
		MsgID   string `xml:"MsgId"`
		CreDtTm string
	}
	c54Notification struct {
		ID      string `xml:"Id"`
		CreDtTm string
		Acct    c54Account
		Ntry    []c54Entry
	}
	c54Account struct {
		ID  p1AccountID `xml:"Id"`
		Ccy string
	}
	c54Entry struct {
		NtryRef      string `xml:",omitempty"`
		Amt          p1CurrencyAmount
		CdtDbtInd    string
		RvslInd      string `xml:",omitempty"`
		Sts          c54Code
		BookgDt      *p1Date `xml:",omitempty"`
		ValDt        *p1Date `xml:",omitempty"`
		AcctSvcrRef  string  `xml:",omitempty"`
		BkTxCd       c54BankTxCode
		NtryDtls     c54EntryDetails
		AddtlNtryInf string `xml:",omitempty"`
	}
	c54Code struct {
		Cd    string `xml:",omitempty"`
		Prtry string `xml:",omitempty"`
	}
	c54BankTxCode struct {
		Domn c54Domain
	}
	c54Domain struct {
		Cd   string
		Fmly c54Family
	}
	c54Family struct {
		Cd        string
		SubFmlyCd string
	}
	c54EntryDetails struct {
		TxDtls []c54Transaction
	}
	c54Transaction struct {
		Refs      c54Refs
		Amt       p1CurrencyAmount
		CdtDbtInd string
		RltdPties *c54Parties    `xml:",omitempty"`
		RmtInf    *c54Remittance `xml:",omitempty"`
		RtrInf    *c54Return     `xml:",omitempty"`
	}
	c54Refs struct {
		AcctSvcrRef string `xml:",omitempty"`
		InstrID     string `xml:"InstrId,omitempty"`
		EndToEndID  string `xml:"EndToEndId"`
	}
	c54Parties struct {
		Dbtr     *c54Party  `xml:",omitempty"`
		DbtrAcct *p1Account `xml:",omitempty"`
		Cdtr     *c54Party  `xml:",omitempty"`
		CdtrAcct *p1Account `xml:",omitempty"`
	}
	c54Party struct {
		Pty p1Party
	}
	c54Remittance struct {
		Ustrd []string      `xml:",omitempty"`
		Strd  *p1Structured `xml:",omitempty"`
	}
	c54Return struct {
		Rsn      *c54Code `xml:",omitempty"`
		AddtlInf []string `xml:",omitempty"`
	}
)
