package iso20022

import (
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Limits of SEPA credit transfers (EPC SCT rulebook and its pain.001 implementation
// guidelines) that the writers check, so that a bank does not refuse the file.
const (
	// MaxIDLen is the length limit of MsgId, PmtInfId and EndToEndId.
	MaxIDLen = 35
	// MaxNameLen is the SEPA limit of a debtor's or creditor's name (ISO allows 140).
	MaxNameLen = 70
	// MaxRemittanceLen is the limit of the unstructured remittance information.
	MaxRemittanceLen = 140
	// MaxTransferAmount is the largest amount of one SEPA credit transfer,
	// 999,999,999.99 EUR, in money units.
	MaxTransferAmount int64 = 99_999_999_999 * unitsPerCent
	// Euro is the currency of SEPA credit transfers.
	Euro = "EUR"
	// notProvided is the SEPA placeholder for an identifier that is not given.
	notProvided = "NOTPROVIDED"
)

// validID checks a SEPA identifier (MsgId, PmtInfId, EndToEndId, InstrId): 1 to 35
// characters of the set the EPC allows in references (letters A-Z a-z, digits and
// / - ? : ( ) . , ' + and space), neither starting nor ending with "/" and without
// "//". The German banks' schema enforces the set; the EPC rulebook the slashes.
func validID(s string) error {
	switch {
	case s == "":
		return ErrMissing
	case len(s) > MaxIDLen:
		return detail(ErrInvalid, "an identifier has at most %d characters, this one %d", MaxIDLen, len(s))
	case s[0] == '/' || s[len(s)-1] == '/' || strings.Contains(s, "//"):
		return detail(ErrInvalid, `an identifier must not start or end with "/" nor contain "//"`)
	}
	for i := 0; i < len(s); i++ {
		if !isIDChar(s[i]) {
			return detail(ErrInvalid, "character %d is not allowed in a SEPA identifier (letters, digits and /-?:().,'+ and space)", i+1)
		}
	}
	return nil
}

func isIDChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("/-?:().,'+ ", c) >= 0
}

// validName checks a debtor's or creditor's name: not blank, at most 70 characters,
// text as validation.ValidateAccountHolderName accepts it (no control characters).
// Characters outside the basic Latin set are allowed: the EPC schema accepts them and
// banks convert what they cannot carry.
func validName(s string) error {
	if strings.TrimSpace(s) == "" {
		return ErrMissing
	}
	if err := validation.ValidateAccountHolderName(s); err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	return nil
}

// validIBAN checks an IBAN in electronic form (upper case, no spaces).
func validIBAN(s string) error {
	if s == "" {
		return ErrMissing
	}
	if err := validation.ValidateIBAN(s); err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	return nil
}

// validBIC checks a BIC (ISO 9362): 4 letters or digits for the institution, the
// country code, 2 letters or digits for the location and optionally 3 for the branch,
// the pattern of the schemas' BICFIDec2014Identifier, upper case.
func validBIC(s string) error {
	if len(s) != 8 && len(s) != 11 {
		return detail(ErrInvalid, "a BIC has 8 or 11 characters, this one %d", len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := isUpperLetter(c)
		digit := c >= '0' && c <= '9'
		if (!letter && !digit) || (i >= 4 && i < 6 && !letter) {
			return detail(ErrInvalid, "a BIC is upper-case letters and digits, with the country code in characters 5 and 6")
		}
	}
	if err := validation.ValidateCountryCode(s[4:6]); err != nil {
		return detail(ErrInvalid, "characters 5 and 6 of a BIC %s", err.Error())
	}
	return nil
}

// validRemittance checks unstructured remittance information: at most 140 characters
// of text without control characters.
func validRemittance(s string) error {
	if n := utf8.RuneCountInString(s); n > MaxRemittanceLen {
		return detail(ErrInvalid, "remittance information has at most %d characters, this one %d", MaxRemittanceLen, n)
	}
	if err := validation.ValidateText(s); err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	return nil
}

// validCreditorReference checks a structured creditor reference: an ISO 11649 RF
// reference in electronic form, the only kind the EPC allows with issuer ISO.
func validCreditorReference(s string) error {
	n, err := rf.Normalize(s)
	if err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	if n != s {
		return detail(ErrInvalid, "an RF reference must be in electronic form (upper case, no spaces)")
	}
	return nil
}

// validTransferAmount checks the amount of one SEPA credit transfer: at least a cent,
// at most MaxTransferAmount, a whole number of cents.
func validTransferAmount(units int64) error {
	switch {
	case units < unitsPerCent:
		return detail(ErrAmount, "a credit transfer is at least 0.01")
	case units > MaxTransferAmount:
		return detail(ErrAmount, "a SEPA credit transfer is at most 999999999.99")
	case units%unitsPerCent != 0:
		return detail(ErrAmount, "the amount has more than %d decimals", MaxDecimals)
	}
	return nil
}

// CompactID is an id as an ISO 20022 identifier of at most MaxIDLen characters (an
// EndToEndId): the id itself when it fits, the 32 hexadecimal digits of a UUID's simple
// form for a UUID in its 36-character form (order ids are), "" otherwise.
func CompactID(id string) string {
	if utf8.RuneCountInString(id) <= MaxIDLen {
		return id
	}
	if _, err := uuid.Parse(id); err == nil && len(id) == 36 {
		return strings.ReplaceAll(id, "-", "")
	}
	return ""
}
