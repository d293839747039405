package reconcile

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Order is a BUY waiting for its payment.
type Order struct {
	// ID is the order's id (its metadata.name).
	ID string
	// Namespace is the order's namespace: its tenant.
	Namespace string
	// Reference is the order's RF creditor reference as issued by rf.New (any form
	// rf.Normalize accepts).
	Reference string
	// AmountDue is what the investor must pay, in money units; more than zero.
	AmountDue int64
	// Currency is the currency of AmountDue, such as EUR.
	Currency string
	// Received is what earlier runs applied to the order (the Received of its last
	// Underpaid outcome), in money units; 0 when nothing arrived yet, always below
	// AmountDue (an order paid in full no longer waits).
	Received int64
	// PayerIBANs are the IBANs of the payment methods registered for the order's
	// account, in any form validation.NormalizeIBAN accepts.
	PayerIBANs []string
	// CutOff is the order's cut-off, zero when it has none. The decider does not use
	// it; it copies it onto the order's outcomes for the caller's underpayment policy.
	CutOff time.Time
}

// Payout is a payout (SELL) or refund (BUY) the fund released in a pain.001, whose
// EndToEndId is the order id. List those released and not yet returned.
type Payout struct {
	// OrderID is the order paid out, the transfer's EndToEndId unless EndToEndID says
	// otherwise; empty for a transfer that pays no order (an operator's refund from
	// suspense), which EndToEndID then names.
	OrderID string
	// EndToEndID is the transfer's EndToEndId when it is not OrderID (an order id too
	// long for the element's 35 characters, such as a UUID written without hyphens).
	EndToEndID string
	// Namespace is the order's namespace.
	Namespace string
	// Amount is the amount transferred, in money units; more than zero.
	Amount int64
	// Currency is the transfer's currency.
	Currency string
	// Debited says the account's debit of the payout was already booked (an earlier
	// PaidOut): another debit naming it is a possible double payment.
	Debited bool
}

// Input is everything Decide reads.
type Input struct {
	// Entries are the entries of the parsed statements and notifications, in the order
	// they are to be decided (file by file, as the files came).
	Entries []iso20022.Entry
	// Orders are the waiting BUY orders.
	Orders []Order
	// Payouts are the payouts and refunds released and not returned.
	Payouts []Payout
	// Applied holds the bank references (iso20022.Entry.Reference) of entries already
	// applied by earlier runs; true means applied.
	Applied map[string]bool
}

// ErrInvalidInput is wrapped by Decide's errors: the expectations or entries are
// inconsistent, and nothing is decided.
var ErrInvalidInput = errors.New("invalid reconciliation input")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidInput, fmt.Sprintf(format, args...))
}

// maskIBAN hides all of an IBAN but its last four characters, for error messages.
func maskIBAN(iban string) string {
	r := []rune(iban)
	if len(r) <= 4 {
		return strings.Repeat("*", len(r))
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}

func validCurrency(c string) bool {
	return len(c) == 3 && isUpper(c[0]) && isUpper(c[1]) && isUpper(c[2])
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// validateOrder checks an order and returns its normalized reference and IBANs (each
// once).
func validateOrder(i int, o Order) (ref string, ibans []string, err error) {
	if o.ID == "" {
		return "", nil, invalid("order %d has no id", i+1)
	}
	bad := func(format string, args ...any) error {
		return invalid("order %q: %s", o.ID, fmt.Sprintf(format, args...))
	}
	if ref, err = rf.Normalize(o.Reference); err != nil {
		return "", nil, bad("reference: %v", err)
	}
	switch {
	case o.AmountDue <= 0:
		return "", nil, bad("amount due %d is not positive", o.AmountDue)
	case !validCurrency(o.Currency):
		return "", nil, bad("currency %q is not three upper-case letters", o.Currency)
	case o.Received < 0 || o.Received >= o.AmountDue:
		return "", nil, bad("received %d is not between 0 and the amount due %d (an order paid in full does not wait)", o.Received, o.AmountDue)
	}
	seen := make(map[string]bool, len(o.PayerIBANs))
	for _, raw := range o.PayerIBANs {
		iban := validation.NormalizeIBAN(raw)
		if err := validation.ValidateIBAN(iban); err != nil {
			return "", nil, bad("payment method IBAN %s: %v", maskIBAN(iban), err)
		}
		if !seen[iban] {
			seen[iban] = true
			ibans = append(ibans, iban)
		}
	}
	return ref, ibans, nil
}

func validatePayout(i int, p Payout) error {
	switch {
	case p.OrderID == "" && p.EndToEndID == "":
		return invalid("payout %d has neither an order id nor an end-to-end id", i+1)
	case p.Amount <= 0:
		return invalid("payout %q: amount %d is not positive", p.OrderID, p.Amount)
	case !validCurrency(p.Currency):
		return invalid("payout %q: currency %q is not three upper-case letters", p.OrderID, p.Currency)
	}
	return nil
}

// validateEntry checks what Decide relies on in a booked entry. The parser guarantees
// all of it; entries built by hand may not.
func validateEntry(i int, e *iso20022.Entry) error {
	bad := func(format string, args ...any) error {
		return invalid("entry %d (reference %q): %s", i+1, e.Reference, fmt.Sprintf(format, args...))
	}
	switch {
	case e.Reference == "":
		return invalid("booked entry %d has no reference: it could not be told from a repeat", i+1)
	case e.CreditDebit != iso20022.Credit && e.CreditDebit != iso20022.Debit:
		return bad("direction %q is neither CRDT nor DBIT", e.CreditDebit)
	case e.Amount < 0:
		return bad("amount %d is negative", e.Amount)
	case !validCurrency(e.Currency):
		return bad("currency %q is not three upper-case letters", e.Currency)
	}
	for j, t := range e.Transactions {
		if t.Amount < 0 {
			return bad("transaction %d: amount %d is negative", j+1, t.Amount)
		}
		if !validCurrency(t.Currency) {
			return bad("transaction %d: currency %q is not three upper-case letters", j+1, t.Currency)
		}
	}
	return nil
}
