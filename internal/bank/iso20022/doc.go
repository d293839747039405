// Package iso20022 reads and writes the ISO 20022 bank files of the fund's euro
// account: what the bank says happened (camt statements, pain.002 status reports) and
// what the fund asks it to pay (pain.001 credit transfers). It is a pure file layer: no
// I/O, no state, no Kubernetes; the controllers that fetch, send and match files are
// elsewhere.
//
// Messages and versions:
//
//   - camt.054.001.08 and camt.054.001.02 (BankToCustomerDebitCreditNotification) and
//     camt.053.001.08 and camt.053.001.02 (BankToCustomerStatement): ParseStatements
//     reads them into Statements of Entries of Transactions. Balances and the many
//     elements the model has no field for are not read.
//   - pain.001.001.09 (CustomerCreditTransferInitiation): WritePain001 writes a SEPA
//     (or SEPA Instant) credit transfer Batch; ParsePain001 reads one back, as the
//     sandbox bank will.
//   - pain.002.001.10 (CustomerPaymentStatusReport): ParsePain002 reads the bank's
//     status of each transfer, with its Verification of Payee result (VoPMatch,
//     VoPCloseMatch and the holder's name, VoPNoMatch, VoPNotPossible) when the bank
//     reports one; WritePain002 writes one, for the sandbox bank. How a result is read
//     from a report is our reading of the banks' bulk profiles: ParsePain002 says it.
//
// The type and version of a file come from the namespace of its root Document element
// (Detect); nothing is guessed from element names.
//
// Money is int64 money units as in package money: 1 EUR = 10,000 units. Bank files
// carry at most two decimals, so 12.34 EUR in a file is 123,400 units.
//
// What is refused, and why: a parser refuses the whole file at its first error and
// returns nothing else, so that a consumer never books half a file; the error is an
// *Error that names the element path, the entry and what is wrong. A file is refused
// when it is not well-formed XML (or has a DOCTYPE, or content after its root), when
// its namespace is not one listed above, when an element the model needs is missing or
// repeated, when an amount is negative, not a decimal number or has more than two
// decimals (the schemas allow five, but a euro account that reports fractions of a
// cent is not one this package understands, and rounding money silently is worse than
// stopping), when a currency is not three upper-case letters, when a date, code or
// boolean is not of its type, when the account is not a valid IBAN, when an entry has
// neither AcctSvcrRef nor NtryRef (it could not be deduplicated), and when a
// transaction of a pain.002 has two different Verification of Payee results (which one
// holds cannot be known). Entries that are not booked (PDNG, INFO, FUTR, proprietary)
// are returned, marked by their Status: consumers use Entry.Booked. Repeated entries
// are returned as they are: deduplicating on Entry.Reference is the consumer's job,
// since the same booking also comes back in later files.
//
// The parsers are not schema validators: unknown elements are ignored, and the order
// of elements is not checked. The writers check their input against the SEPA rules
// that banks enforce (IBANs, identifier characters and lengths, name and remittance
// lengths, amounts of whole cents from 0.01 to 999,999,999.99 EUR, EUR only) and write
// the same bytes for the same input. README.md says how the fixtures and the writers'
// output were checked against the schemas.
package iso20022
