// Package reconcile decides what each movement on the fund's bank account means: which
// waiting BUY a credit pays, which payout a debit or a return belongs to, and what goes
// to suspense. Decide is a pure function: it reads parsed camt entries (package
// iso20022) and the expectations the caller gathered (waiting BUY orders, released
// payouts and refunds, the entry references already applied) and returns one Outcome
// per transaction. It does no I/O, reads no clock and uses integer money units only
// (1 EUR = 10,000 units), so the same input always gives the same outcomes. Applying
// them (recording a payment on an order, queueing a refund, putting an entry in
// suspense) is the caller's job.
//
// # Entries and transactions
//
// Entries are decided in the order given, and the transactions of an entry in their
// order; an entry without transaction details is one transaction of the entry's amount
// and currency (Outcome.Transaction 0). Every transaction gets exactly one Outcome, in
// input order, so that every euro ends in one visible state.
//
//  1. Not booked. An entry whose status is not BOOK (pending, information, future) moved
//     no money: its transactions are Ignored (reported, not left out) and its reference
//     is not recorded, so that the same entry is decided when it comes back booked.
//  2. Duplicate. A booked entry whose bank reference (iso20022.Entry.Reference) is in
//     Input.Applied, or belongs to an entry earlier in the same input, is a Duplicate,
//     all its transactions alike: ingesting a statement twice, or a camt.054 and the
//     camt.053 that repeats its bookings, changes nothing. After applying outcomes the
//     caller records AppliedReferences(outcomes). The key is the parser's: AcctSvcrRef,
//     else NtryRef. A bank that gives only an NtryRef numbered per report makes it
//     repeat across files; such an account needs a key of its own, which this package
//     does not guess.
//  3. Entry total. When every transaction of an entry is in the entry's currency, their
//     amounts must add up to the entry's; otherwise the entry is inconsistent and every
//     transaction of it is Unmatched (EntryTotalMismatch): crediting the parts of an
//     entry whose parts are wrong could credit money that never arrived.
//  4. Zero. A transaction of amount zero is Unmatched (ZeroAmount).
//
// # Debits: payouts and refunds leaving the account
//
//  5. A booked debit that reverses a credit or returns a payment (RvslInd, return
//     information, or a bank transaction code of sub-family RRTN) takes back money that
//     may already be applied: Unmatched (DebitReversal), for an operator.
//  6. Any other debit is looked up by its EndToEndId among Input.Payouts (the fund
//     writes the order id as EndToEndId): no payout is Unmatched (NotAPayout); a payout
//     already debited (Payout.Debited, or earlier in this input) is Unmatched
//     (PayoutAlreadyDebited: a possible double payment); another currency is
//     WrongCurrency; another amount is Unmatched (PayoutAmountMismatch); otherwise
//     PaidOut (the money left: the payout is completed).
//
// # Returns: payouts and refunds coming back
//
//  7. A booked credit is a return when its transaction carries return information (a
//     return reason), its entry is a reversal (RvslInd) or its bank transaction code's
//     sub-family is RRTN. It is looked up by EndToEndId among Input.Payouts: no payout
//     is Unmatched (UnknownReturn); a payout already returned earlier in this input is
//     Unmatched (PayoutAlreadyReturned); another currency is WrongCurrency; more than
//     the payout is Unmatched (PayoutAmountMismatch); otherwise Returned, with the
//     return reason and the payout's amount (Due; Shortfall is what the banks on the
//     way kept). A return is never taken for a subscription.
//
// # Credits: payments for waiting BUY orders
//
// Every other booked credit is matched against the waiting orders by these rules, in
// this order; the first that decides, decides.
//
//  8. Reference. The transaction's structured creditor reference
//     (RmtInf/Strd/CdtrRefInf/Ref), normalized and checked with package rf. A reference
//     that fails its check is never used, not even to look for a near miss: the
//     transaction falls through to rule 9 as if it had none (Outcome.Reference keeps it,
//     ReferenceValid false). A valid reference decides: the order that has it
//     (ByReference), or, when no waiting order has it (unknown, cancelled, or paid in
//     full already), Unmatched (NoWaitingOrder) and never another order by amount: the
//     payer named an order, and it is not one that waits. References in the free text
//     (RmtInf/Ustrd) are not read.
//  9. Amount and currency, then the payer. The candidates are the waiting orders in the
//     transaction's currency whose outstanding amount (due less received so far) is
//     exactly the transaction's amount. The payer's IBAN (DbtrAcct, normalized) counts
//     for an order when it is one of the IBANs registered as payment methods of the
//     order's account (Order.PayerIBANs). When the payer's IBAN counts for exactly one
//     candidate, that candidate is the order (ByAmountAndPayer), however many there
//     are. Otherwise several candidates are Unmatched (AmbiguousAmount): two orders of
//     the same amount are never told apart by a guess. A single candidate is the order
//     (ByAmount) when the payer's IBAN counts for no waiting order at all (or is not
//     given), and Unmatched (PayerConflict) when it counts for other waiting orders but
//     not this one: the amount points at one investor and the account at another.
//  10. The payer alone. With no candidate by amount: the waiting orders, in any
//     currency, whose account registered the payer's IBAN. Exactly one: that order
//     (ByPayer), whose amount then says Underpaid or Overpaid. Several: Unmatched
//     (AmbiguousPayer). None: Unmatched (NoMatch).
//
// Once an order is chosen (rules 8 to 10):
//
//  11. Currency. A transaction in another currency than the order's is WrongCurrency:
//     it goes to suspense naming the order, and is never converted.
//  12. Amount, cumulative. The order's received total is Order.Received (what earlier
//     runs applied to it) plus what this run applied to it before, plus this
//     transaction. Below the amount due: Underpaid, Shortfall = due − total (the
//     order waits, until its cut-off where it has one, or the policy refunds; the
//     decider only reports, and copies Order.CutOff onto the outcome). Exactly the
//     amount due: Matched. Above: Overpaid, Excess = total − due, the exact amount to
//     refund (never more than this transaction). Two partial payments therefore add
//     up: the first is Underpaid, the second Matched (or Overpaid) with the total. A
//     Matched or Overpaid order stops waiting: a later transaction for it is decided as
//     it would be in a later run, where the caller no longer lists the order.
//
// Decide refuses its whole input (ErrInvalidInput, naming the order, payout or entry)
// when an expectation is inconsistent: an order without an id, a duplicate order id
// or reference, a reference that fails its check, a non-positive amount due, a received
// amount that is negative or not below the amount due, a currency that is not three
// upper-case letters, a registered IBAN that is not valid (shown masked: only its last
// four characters), a payout without an order id or of a non-positive amount, and a
// booked entry without a reference or direction, with a negative amount or with a
// currency that is not three upper-case letters.
//
// Indexes by reference, by (currency, outstanding amount), by (currency, outstanding
// amount, payer IBAN) and by payer IBAN make each transaction a constant number of map
// operations (plus one per registered IBAN of an order whose outstanding amount
// changes): 10,000 entries against 10,000 waiting orders are decided in linear time.
package reconcile
