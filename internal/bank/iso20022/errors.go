package iso20022

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The kinds of error; every error of the parsers and writers is an *Error that wraps
// one of them, so compare with errors.Is.
var (
	// ErrMalformed: the file is not well-formed XML, has content after its root element
	// or a DOCTYPE.
	ErrMalformed = errors.New("not a well-formed XML document")
	// ErrUnknownMessage: the root element is not an ISO 20022 Document of a message type
	// and version this package reads.
	ErrUnknownMessage = errors.New("not a message type and version this package reads")
	// ErrMissing: a required element or attribute is missing or empty.
	ErrMissing = errors.New("required element is missing")
	// ErrDuplicate: an element that may appear once appears more than once.
	ErrDuplicate = errors.New("element appears more than once")
	// ErrAmount: an amount is not a decimal number, is negative, is too large, or (in a
	// file or an input) has more than two decimals.
	ErrAmount = errors.New("invalid amount")
	// ErrCurrency: a currency code is not three upper-case letters, or is not the one
	// required.
	ErrCurrency = errors.New("invalid currency")
	// ErrInvalid: a value is not of its element's type (a date, a code, an IBAN, an
	// identifier, a length limit).
	ErrInvalid = errors.New("invalid value")
	// ErrTotals: a number of transactions or a control sum does not match the
	// transactions.
	ErrTotals = errors.New("totals do not match the transactions")
)

// Error is why a file was refused, or why an input could not be written: where and
// what. The parsers refuse a whole file at its first error and return nothing else.
type Error struct {
	// Message is the message type and version, such as camt.054.001.08; empty when it
	// is not known.
	Message MessageType
	// Path is where: for a parser the element path with 1-based indexes of repeated
	// elements ("Document/BkToCstmrDbtCdtNtfctn/Ntfctn[1]/Ntry[3]/Amt"), for a writer
	// the field of the input ("Transfers[2].CreditorIBAN"). Empty for the whole file.
	Path string
	// Entry is the 1-based index of the camt entry (Ntry) within its statement or
	// notification, 0 when the error is not inside an entry.
	Entry int
	// Err is one of the Err kinds above, wrapped with the detail.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Message != "" {
		b.WriteString(string(e.Message))
		b.WriteString(": ")
	}
	if e.Entry > 0 {
		b.WriteString("entry ")
		b.WriteString(strconv.Itoa(e.Entry))
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// detail wraps kind with a message: "invalid amount: it has 3 decimals, ...".
func detail(kind error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...))
}
