// Package sandboxbank is the pure core of the sandbox bank of the local development run:
// it writes the camt.054 credit notifications a real bank would send for the payments
// the sandbox pretends investors made, so that BUY orders are paid through the same
// ingestion (parse, deduplicate, reconcile) as in production. It does no I/O and reads
// no clock: the caller puts the file into the bank connector's inbox.
package sandboxbank

import (
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Payment is a payment an investor made for a BUY order, as the sandbox pretends it.
type Payment struct {
	// OrderID is the order's id (its metadata.name) and Namespace its namespace; together
	// they make the entry's bank reference (see EntryReference).
	OrderID, Namespace string
	// Reference is the order's RF creditor reference, which the investor copied into the
	// transfer; any form rf.Normalize accepts, written in electronic form.
	Reference string
	// Amount is what was paid, in money units (1 EUR = 10,000 units): more than zero, a
	// whole number of cents.
	Amount int64
	// Currency must be the fund account's.
	Currency string
	// PayerName (at most 70 characters) and PayerIBAN (electronic form) are the paying
	// account's, the debtor of the transfer.
	PayerName, PayerIBAN string
}

// ErrInvalid is wrapped by every error of Notification. An error about a field of the
// file is also an *iso20022.Error whose Path names it; its Entries[i] is payments[i-1].
var ErrInvalid = errors.New("sandboxbank: invalid notification input")

// MaxSeq is the largest seq Notification accepts: the message id, which holds it in
// decimal, has at most 35 characters.
const MaxSeq = 99_999_999_999_999

const (
	// timestampLayout is the UTC time in file names and message ids, the bank
	// connector's own layout.
	timestampLayout = "20060102T150405Z"
	// msgIDPrefix starts the sandbox's message ids, so that they
	// are never taken for a real bank's.
	msgIDPrefix = "SBX"
	// entryRefPrefix starts the sandbox's entry references: a sandbox payment.
	entryRefPrefix = "SBX-PAY-"
	// bankTransactionCode is a received SEPA credit transfer.
	bankTransactionCode = "PMNT/RCDT/ESCT"
	// entryRefDomain separates the hash of entry references from any other use of the
	// same input.
	entryRefDomain = "fundshare sandbox bank entry v1"
)

// Notification writes one camt.054.001.08 file that credits the fund's account
// (fundIBAN, in currency) with one booked entry per payment, in the order given, each
// with one transaction: the payer as debtor, the RF reference in RmtInf/Strd, the
// order id as EndToEndId (see EndToEndID), PMNT/RCDT/ESCT, booked and valued on now's
// UTC day. The entry's AcctSvcrRef, the reference the ingestion deduplicates on, is
// EntryReference of the order: notifying the same payment again gives the same entry,
// which the ingestion then ignores, so the sandbox can notify again after a crash
// without paying an order twice. An order is therefore paid at most once by the
// sandbox; its payments in one call must name distinct orders.
//
// name is camt054-<now in UTC, to the second>-<seq>.xml, unique for each (now, seq)
// and a valid bank connector file name; the message id is SBX-<the same timestamp and
// seq>. seq is at most MaxSeq. Payments in another currency than the account's are
// refused, as is an empty list of payments. Every error wraps ErrInvalid. The same
// input always gives the same name and bytes.
func Notification(fundIBAN, currency string, payments []Payment, now time.Time, seq uint64) (name string, data []byte, err error) {
	if len(payments) == 0 {
		return "", nil, fmt.Errorf("%w: no payments: a notification has at least one entry", ErrInvalid)
	}
	if seq > MaxSeq {
		return "", nil, fmt.Errorf("%w: seq %d is above %d", ErrInvalid, seq, MaxSeq)
	}
	stamp := now.UTC().Format(timestampLayout) + "-" + strconv.FormatUint(seq, 10)
	y, m, d := now.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	n := &iso20022.Notification{
		MessageID:   msgIDPrefix + "-" + stamp,
		CreatedAt:   now,
		ID:          msgIDPrefix + "-" + stamp,
		AccountIBAN: fundIBAN,
		Currency:    currency,
		Entries:     make([]iso20022.NotificationEntry, len(payments)),
	}
	seen := make(map[string]int, len(payments))
	for i, p := range payments {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: payments[%d] (order %q in %q): %s", ErrInvalid, i, p.OrderID, p.Namespace, fmt.Sprintf(format, args...))
		}
		if p.OrderID == "" {
			return "", nil, bad("no order id")
		}
		ref := EntryReference(p.Namespace, p.OrderID)
		if first, dup := seen[ref]; dup {
			return "", nil, bad("the same order as payments[%d]: the sandbox pays an order once", first)
		}
		seen[ref] = i
		if p.Currency != currency {
			return "", nil, bad("currency %q is not the account's %q", p.Currency, currency)
		}
		creditorRef, err := rf.Normalize(p.Reference)
		if err != nil {
			return "", nil, bad("reference: %v", err)
		}
		// A SEPA credit transfer always names its payer.
		if p.PayerName == "" || p.PayerIBAN == "" {
			return "", nil, bad("no payer name or IBAN: a credit transfer names its payer")
		}
		n.Entries[i] = iso20022.NotificationEntry{
			EntryRef:            strconv.Itoa(i + 1),
			AccountServicerRef:  ref,
			Amount:              p.Amount,
			Currency:            currency,
			CreditDebit:         iso20022.Credit,
			Status:              iso20022.StatusBooked,
			BookingDate:         day,
			ValueDate:           day,
			BankTransactionCode: bankTransactionCode,
			Transactions: []iso20022.NotificationTransaction{{
				EndToEndID:        EndToEndID(p.OrderID),
				Amount:            p.Amount,
				Currency:          currency,
				DebtorName:        p.PayerName,
				DebtorIBAN:        p.PayerIBAN,
				CreditorReference: creditorRef,
			}},
		}
	}
	data, err = iso20022.WriteCamt054(n)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return "camt054-" + stamp + ".xml", data, nil
}

// EntryReference is the bank reference (AcctSvcrRef) of the sandbox's entry for the
// order: "SBX-PAY-" and 26 base32 characters (130 bits) of a SHA-256 of the namespace
// and order id, 34 characters, the shape of the sandbox's payment references before the
// bank ingestion (docs and guides read them alike). The same order always has the same
// reference, and two orders never share one in practice.
func EntryReference(namespace, orderID string) string {
	// Length-prefixed, so that ("a", "bc") is not ("ab", "c").
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d:%s%d:%s", entryRefDomain, len(namespace), namespace, len(orderID), orderID))
	return entryRefPrefix + base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:17])[:26]
}

// EndToEndID is the EndToEndId the sandbox writes for an order: the order id when it
// fits the element's 35 characters; for an order id that is a UUID (36 characters), its
// 32 hex digits; otherwise NOTPROVIDED, the SEPA placeholder of a payer who gave none
// (the ingestion matches credits by RF reference, not by EndToEndId).
func EndToEndID(orderID string) string {
	if id := iso20022.CompactID(orderID); id != "" {
		return id
	}
	return "NOTPROVIDED"
}

// payoutRefPrefix starts the sandbox's entry references of the debits of payouts.
const payoutRefPrefix = "SBX-OUT-"

// Answer is what the sandbox bank sends back for a pain.001 the fund released: a
// pain.002.001.10 status report that accepts every transfer (ACCP) except those reject
// names a reason code for (RJCT with that code), and a camt.054.001.08 that debits the
// fund's account with one booked entry per accepted transfer (PMNT/ICDT/ESCT, the
// transfer's EndToEndId, the creditor), booked and valued on now's UTC day; no
// notification when nothing was accepted (notifName empty). Entry references are
// "SBX-OUT-" and 26 base32 characters of a SHA-256 of the file's message id and the
// EndToEndId, so answering the same file again gives the same entries, which the
// ingestion takes for duplicates. reject may be nil. Names are pain002-/camt054- and the
// UTC time and seq, as Notification's; errors wrap ErrInvalid.
//
// Answer performs no Verification of Payee and reports no result: it is Bank{}.Answer.
func Answer(b iso20022.Batch, reject func(iso20022.Transfer) string, now time.Time, seq uint64) (reportName string, report []byte, notifName string, notif []byte, err error) {
	return Bank{}.Answer(b, reject, now, seq)
}

// Bank is how the sandbox bank answers beyond Answer's defaults: its Verification of
// Payee (Regulation (EU) 2024/886, the EPC VoP scheme). The zero Bank answers as Answer.
type Bank struct {
	// Holders, when not nil, makes the sandbox verify the payee of every transfer: it
	// maps an account's IBAN (any form validation.NormalizeIBAN reads) to the name of
	// the account's holder at the bank, and the report gives each transfer the result of
	// MatchName for its creditor name and the holder's name (with the holder's name for
	// a close match). An IBAN that is not in Holders is a match: the sandbox knows no
	// better, and a real bank that holds the account always has a name. An empty name,
	// or two IBANs that are the same account, are ErrInvalid. When Holders is nil no
	// result is reported at all, and the files are byte for byte those of Answer.
	Holders map[string]string
	// RejectNoMatch makes a transfer whose result is no match (VoPNoMatch) rejected: RJCT
	// with NoMatchReasonCode and the result, and no debit. Without it such a transfer is
	// executed like the others (ACCP with the result, and debited): under the EPC rules
	// the result is advisory, the payer having been warned and confirmed the payment. A
	// close match is always executed. A code that reject returns prevails.
	RejectNoMatch bool
}

// NoMatchReasonCode is the ISO status reason of a transfer the sandbox rejects for no
// match (Bank.RejectNoMatch): BE01, inconsistent with end customer (the creditor's
// identification is not consistent with the account). The report gives the result
// (VoPNoMatch) too.
const NoMatchReasonCode = "BE01"

// noMatchInfo is the AddtlInf of a rejection for no match (at most 105 characters).
const noMatchInfo = "payee name does not match the account holder (Verification of Payee)"

// Answer is the package's Answer (see it) with the Verification of Payee of b.
func (bank Bank) Answer(b iso20022.Batch, reject func(iso20022.Transfer) string, now time.Time, seq uint64) (reportName string, report []byte, notifName string, notif []byte, err error) {
	if seq > MaxSeq {
		return "", nil, "", nil, fmt.Errorf("%w: seq %d is above %d", ErrInvalid, seq, MaxSeq)
	}
	if len(b.Transfers) == 0 {
		return "", nil, "", nil, fmt.Errorf("%w: the pain.001 %s has no transfers", ErrInvalid, b.MessageID)
	}
	holders, err := bank.holders()
	if err != nil {
		return "", nil, "", nil, err
	}
	stamp := now.UTC().Format(timestampLayout) + "-" + strconv.FormatUint(seq, 10)
	y, m, d := now.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	pmtInf := b.PaymentInfoID
	if pmtInf == "" {
		pmtInf = b.MessageID
	}
	status := iso20022.PaymentStatus{OriginalPaymentInfoID: pmtInf}
	n := &iso20022.Notification{
		MessageID: msgIDPrefix + "-" + stamp, CreatedAt: now, ID: msgIDPrefix + "-" + stamp,
		AccountIBAN: b.DebtorIBAN, Currency: "EUR",
	}
	for _, t := range b.Transfers {
		ts := iso20022.TransactionStatus{OriginalEndToEndID: t.EndToEndID}
		if holders != nil {
			ts.VoP, ts.VoPName = verify(holders, t)
		}
		if code := rejectCode(reject, t); code != "" {
			ts.Status = "RJCT"
			ts.Reasons = []iso20022.StatusReason{{Code: code, AdditionalInfo: []string{"rejected by the sandbox bank"}}}
			status.Transactions = append(status.Transactions, ts)
			continue
		}
		if ts.VoP == iso20022.VoPNoMatch && bank.RejectNoMatch {
			ts.Status = "RJCT"
			ts.Reasons = []iso20022.StatusReason{{Code: NoMatchReasonCode, AdditionalInfo: []string{noMatchInfo}}}
			status.Transactions = append(status.Transactions, ts)
			continue
		}
		ts.Status = "ACCP"
		status.Transactions = append(status.Transactions, ts)
		n.Entries = append(n.Entries, iso20022.NotificationEntry{
			EntryRef: strconv.Itoa(len(n.Entries) + 1), AccountServicerRef: PayoutEntryReference(b.MessageID, t.EndToEndID),
			Amount: t.Amount, Currency: t.Currency, CreditDebit: iso20022.Debit, Status: iso20022.StatusBooked,
			BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/ESCT",
			Transactions: []iso20022.NotificationTransaction{{
				EndToEndID: t.EndToEndID, Amount: t.Amount, Currency: t.Currency,
				CreditorName: t.CreditorName, CreditorIBAN: t.CreditorIBAN, Unstructured: unstructured(t.RemittanceInfo),
			}},
		})
	}
	r := &iso20022.StatusReport{
		MessageID: msgIDPrefix + "-" + stamp, CreatedAt: now, OriginalMessageID: b.MessageID,
		Payments: []iso20022.PaymentStatus{status},
	}
	if report, err = iso20022.WritePain002(r); err != nil {
		return "", nil, "", nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	reportName = "pain002-" + stamp + ".xml"
	if len(n.Entries) == 0 {
		return reportName, report, "", nil, nil
	}
	if notif, err = iso20022.WriteCamt054(n); err != nil {
		return "", nil, "", nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return reportName, report, "camt054-" + stamp + ".xml", notif, nil
}

// holders is Holders by normalized IBAN, with trimmed names; nil when Holders is.
func (bank Bank) holders() (map[string]string, error) {
	if bank.Holders == nil {
		return nil, nil
	}
	out := make(map[string]string, len(bank.Holders))
	for iban, name := range bank.Holders {
		key := validation.NormalizeIBAN(iban)
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("%w: Holders[%q]: no account holder's name", ErrInvalid, iban)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%w: Holders: %s is there twice, in two forms", ErrInvalid, key)
		}
		out[key] = name
	}
	return out, nil
}

// verify is the Verification of Payee of a transfer: the result, and the holder's name
// with a close match.
func verify(holders map[string]string, t iso20022.Transfer) (result, holderName string) {
	holder, ok := holders[validation.NormalizeIBAN(t.CreditorIBAN)]
	if !ok {
		return iso20022.VoPMatch, ""
	}
	result = MatchName(t.CreditorName, holder)
	if result == iso20022.VoPCloseMatch {
		return result, holder
	}
	return result, ""
}

func rejectCode(reject func(iso20022.Transfer) string, t iso20022.Transfer) string {
	if reject == nil {
		return ""
	}
	return reject(t)
}

func unstructured(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// PayoutEntryReference is the bank reference of the sandbox's debit of a transfer: the
// same file and EndToEndId always give the same reference.
func PayoutEntryReference(messageID, endToEndID string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s payout\x00%d:%s%d:%s", entryRefDomain, len(messageID), messageID, len(endToEndID), endToEndID))
	return payoutRefPrefix + base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:17])[:26]
}
