package reconcile

import (
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
)

// Kind is what a transaction turned out to be. The package documentation gives the
// rule behind each.
type Kind string

const (
	// Matched: a credit that pays its order's amount due exactly (with what arrived
	// before).
	Matched Kind = "Matched"
	// Underpaid: a credit for an order whose received total stays below the amount due.
	Underpaid Kind = "Underpaid"
	// Overpaid: a credit for an order whose received total exceeds the amount due by
	// Excess, to be refunded.
	Overpaid Kind = "Overpaid"
	// Unmatched: to suspense, for an operator to assign or refund; Reason says why.
	Unmatched Kind = "Unmatched"
	// Returned: a payout or refund of the fund came back.
	Returned Kind = "Returned"
	// PaidOut: the debit of a payout or refund of the fund was booked; the money left.
	PaidOut Kind = "PaidOut"
	// WrongCurrency: a transaction for a known order or payout in another currency than
	// its own; to suspense, never converted.
	WrongCurrency Kind = "WrongCurrency"
	// Duplicate: an entry already applied (by an earlier run or earlier in the input).
	Duplicate Kind = "Duplicate"
	// Ignored: an entry that is not booked moved no money.
	Ignored Kind = "Ignored"
)

// Rule is how a transaction was tied to its order or payout.
type Rule string

const (
	// ByReference: the structured creditor reference is the order's.
	ByReference Rule = "Reference"
	// ByAmountAndPayer: the only waiting order of the amount and currency whose account
	// registered the payer's IBAN.
	ByAmountAndPayer Rule = "AmountAndPayer"
	// ByAmount: the only waiting order of the amount and currency, the payer's IBAN
	// registered for no waiting order.
	ByAmount Rule = "Amount"
	// ByPayer: the only waiting order whose account registered the payer's IBAN.
	ByPayer Rule = "Payer"
	// ByEndToEndID: a payout or refund named by the transaction's EndToEndId.
	ByEndToEndID Rule = "EndToEndID"
)

// Reason says why a transaction is Unmatched.
type Reason string

const (
	// ReasonNoMatch: no usable reference, no order of the amount, no account with the
	// payer's IBAN.
	ReasonNoMatch Reason = "NoMatch"
	// ReasonNoWaitingOrder: a valid reference that no waiting order has (unknown,
	// cancelled or already paid in full).
	ReasonNoWaitingOrder Reason = "NoWaitingOrder"
	// ReasonAmbiguousAmount: several waiting orders have the amount, and the payer's
	// IBAN does not single one out.
	ReasonAmbiguousAmount Reason = "AmbiguousAmount"
	// ReasonAmbiguousPayer: no order has the amount, and the payer's IBAN is registered
	// for accounts with several waiting orders.
	ReasonAmbiguousPayer Reason = "AmbiguousPayer"
	// ReasonPayerConflict: one order has the amount, but the payer's IBAN is registered
	// for other waiting orders' accounts and not for its.
	ReasonPayerConflict Reason = "PayerConflict"
	// ReasonZeroAmount: the transaction's amount is zero.
	ReasonZeroAmount Reason = "ZeroAmount"
	// ReasonEntryTotalMismatch: the entry's transactions do not add up to the entry.
	ReasonEntryTotalMismatch Reason = "EntryTotalMismatch"
	// ReasonDebitReversal: a debit that reverses a credit or returns a payment.
	ReasonDebitReversal Reason = "DebitReversal"
	// ReasonNotAPayout: a debit whose EndToEndId names no released payout.
	ReasonNotAPayout Reason = "NotAPayout"
	// ReasonUnknownReturn: a return or reversal credit whose EndToEndId names no
	// released payout.
	ReasonUnknownReturn Reason = "UnknownReturn"
	// ReasonPayoutAmountMismatch: a debit of another amount than its payout, or a
	// return of more than it.
	ReasonPayoutAmountMismatch Reason = "PayoutAmountMismatch"
	// ReasonPayoutAlreadyDebited: a second debit of one payout.
	ReasonPayoutAlreadyDebited Reason = "PayoutAlreadyDebited"
	// ReasonPayoutAlreadyReturned: a second return of one payout in the input.
	ReasonPayoutAlreadyReturned Reason = "PayoutAlreadyReturned"
)

// Outcome is the decision on one transaction. Amounts are money units.
type Outcome struct {
	Kind Kind
	// Entry is the index of the entry in Input.Entries; Transaction the index of the
	// transaction in the entry (0 for an entry without transaction details).
	Entry, Transaction int
	// EntryReference is the entry's bank reference, the key of deduplication.
	EntryReference string
	// CreditDebit, Amount and Currency are the transaction's.
	CreditDebit iso20022.CreditDebit
	Amount      int64
	Currency    string
	// Reference is the creditor reference of a credit as the payer gave it, empty when
	// none; ReferenceValid says whether it passed its check (only then was it used).
	Reference      string
	ReferenceValid bool
	// MatchedBy is the rule that named the order or payout; empty when none did.
	MatchedBy Rule
	// OrderID and Namespace name the order or payout, when one was named (also for
	// WrongCurrency and for the Unmatched outcomes that name a payout).
	OrderID, Namespace string
	// Due is the order's amount due, or the payout's amount.
	Due int64
	// ReceivedBefore and Received are the order's received totals before and after
	// this transaction (Underpaid, Matched, Overpaid).
	ReceivedBefore, Received int64
	// Shortfall is what is missing (Underpaid: Due − Received), or what the banks kept
	// of a returned payout (Returned: Due − Amount).
	Shortfall int64
	// Excess is what was paid above the amount due, to refund (Overpaid).
	Excess int64
	// CutOff is the order's cut-off, zero when it has none.
	CutOff time.Time
	// ReturnReason is the bank's return reason (an ISO code such as AC04, or "Prtry:"
	// and a proprietary one), for Returned; empty when the bank gave none.
	ReturnReason string
	// Reason says why, for Unmatched.
	Reason Reason
}

// AppliedReferences returns the references of the entries the outcomes apply, each
// once, in order: every entry but the Ignored and the Duplicate ones. The caller
// records them with the outcomes (and passes them as Input.Applied next time), so that
// the same entries are Duplicates from then on.
func AppliedReferences(outcomes []Outcome) []string {
	var refs []string
	seen := map[string]bool{}
	for _, o := range outcomes {
		if o.Kind == Ignored || o.Kind == Duplicate || seen[o.EntryReference] {
			continue
		}
		seen[o.EntryReference] = true
		refs = append(refs, o.EntryReference)
	}
	return refs
}
