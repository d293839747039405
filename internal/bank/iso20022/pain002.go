package iso20022

import (
	"encoding/xml"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Common payment statuses (ISO external code set ExternalPaymentTransactionStatus1Code
// and ExternalPaymentGroupStatus1Code). The lists are open: any code of 1 to 4
// upper-case letters or digits is read.
const (
	StatusReceived           = "RCVD" // received, not yet checked
	StatusAcceptedTechnical  = "ACTC" // syntax and technical checks passed
	StatusAccepted           = "ACCP" // customer profile checks passed
	StatusAcceptedSettlement = "ACSP" // settlement in process
	StatusAcceptedCompleted  = "ACSC" // settled on the debtor's account
	StatusAcceptedCredited   = "ACCC" // settled on the creditor's account
	StatusPendingPayment     = "PDNG" // pending further checks
	StatusRejected           = "RJCT" // rejected: the money does not move
	StatusPartiallyAccepted  = "PART" // group only: some transactions were rejected
)

// MaxAdditionalInfoLen is the length limit of one AddtlInf line of a status reason.
const MaxAdditionalInfoLen = 105

// Verification of Payee results (Regulation (EU) 2024/886, the EPC VoP scheme): whether
// the name of a transfer's payee is the name of the holder of the account it is paid
// to, as the payer's bank reports it per transfer in a pain.002 (TransactionStatus.VoP).
// The result is advisory: a bank may execute a transfer whatever the result, or reject
// it (RJCT) for VoPNoMatch.
const (
	// VoPMatch (MTCH): the payee's name is the account holder's.
	VoPMatch = "MTCH"
	// VoPCloseMatch (CMTC): the payee's name is close to the account holder's; the bank
	// gives the holder's actual name (TransactionStatus.VoPName).
	VoPCloseMatch = "CMTC"
	// VoPNoMatch (NMTC): the payee's name is not the account holder's.
	VoPNoMatch = "NMTC"
	// VoPNotPossible (NOAP): the verification could not be made (the payee's bank did not
	// answer, or the account is of a kind it does not verify).
	VoPNotPossible = "NOAP"
)

// isVoP reports whether a proprietary reason is a Verification of Payee result.
func isVoP(prtry string) bool {
	switch prtry {
	case VoPMatch, VoPCloseMatch, VoPNoMatch, VoPNotPossible:
		return true
	}
	return false
}

// StatusReport is a pain.002.001.10 CustomerPaymentStatusReport: the bank's answer to
// a pain.001. A group status alone (GroupStatus RJCT and no Payments, typically) is
// about every transfer of the original message.
type StatusReport struct {
	MessageID string
	CreatedAt time.Time
	// OriginalMessageID is the MsgId of the pain.001 reported on; OriginalMessageType
	// its type (OrgnlMsgNmId), pain.001.001.09 when empty on writing.
	OriginalMessageID   string
	OriginalMessageType string
	// GroupStatus is GrpSts, empty when the report gives none.
	GroupStatus  string
	GroupReasons []StatusReason
	Payments     []PaymentStatus
}

// PaymentStatus is the status of one payment information block (OrgnlPmtInfAndSts).
type PaymentStatus struct {
	OriginalPaymentInfoID string
	// Status is PmtInfSts, empty when the report gives none.
	Status       string
	Reasons      []StatusReason
	Transactions []TransactionStatus
}

// TransactionStatus is the status of one transfer (TxInfAndSts).
type TransactionStatus struct {
	// OriginalEndToEndID is the EndToEndId of the transfer, the order id; required
	// here, since a status that names no transfer cannot be applied.
	OriginalEndToEndID    string
	OriginalInstructionID string
	// Status is TxSts; a report that gives none for a transaction gives it for the
	// block (PmtInfSts) or the group (GrpSts), and the parser fills it in from there
	// (but not PART, which does not say which transactions failed).
	Status string
	// Reasons are the transaction's StsRsnInf, except the one that carries its
	// Verification of Payee result (VoP).
	Reasons []StatusReason
	// VoP is the Verification of Payee result the bank reports for the transfer
	// (VoPMatch, VoPCloseMatch, VoPNoMatch or VoPNotPossible), "" when it reports none.
	// It comes with any Status: RCVD or PDNG (verified, not yet executed), ACCP and the
	// like (executed, the result being advisory) or RJCT (refused, typically for
	// VoPNoMatch). See ParsePain002 for how it is read.
	VoP string
	// VoPName is the account holder's name that the bank gives with VoPCloseMatch, ""
	// with the other results or when the bank gives none.
	VoPName string
}

// StatusReason is a StsRsnInf: Code is Rsn/Cd (an ISO external status reason such as
// AC04, closed account, or AM04, insufficient funds), or "Prtry:" and Rsn/Prtry, or
// empty when the bank gives only AdditionalInfo.
type StatusReason struct {
	Code           string
	AdditionalInfo []string
}

// Transactions returns the statuses of all transactions, block after block.
func (r *StatusReport) Transactions() []TransactionStatus {
	var out []TransactionStatus
	for _, p := range r.Payments {
		out = append(out, p.Transactions...)
	}
	return out
}

// ParsePain002 reads a pain.002.001.10 CustomerPaymentStatusReport. Statuses and reason
// codes must be codes of 1 to 4 upper-case letters or digits; each transaction must
// name its OrgnlEndToEndId and have a status, its own or its block's or group's. Any
// error refuses the whole file; it is an *Error with the element path.
//
// Verification of Payee results are read as follows; this is our reading of how banks
// report the results of a bulk file (Nordea's bulk VoP and the German DK's profile
// answer in a pain.002.001.10 this way), and banks' profiles differ in details, so this
// is the one place to adapt to a bank's. A StsRsnInf of a transaction (TxInfAndSts)
// whose Rsn/Prtry is exactly MTCH, CMTC, NMTC or NOAP carries the transaction's result
// (TransactionStatus.VoP), whatever its TxSts. With CMTC, the first non-empty AddtlInf
// of that StsRsnInf, trimmed, is the account holder's name (VoPName; its length is not
// checked, as no AddtlInf's is); no other AddtlInf of a result's StsRsnInf is read.
// Such a StsRsnInf is not one of the transaction's Reasons, unless it also has a
// Rsn/Cd (which the schema does not allow), whose code stays a reason as any other. A
// transaction may have ISO reasons (Rsn/Cd) in other StsRsnInf: both are read. Any
// other Prtry is a proprietary reason ("Prtry:" and the value, in Reasons), as is a
// result's code in the StsRsnInf of a block or of the group: results are per
// transaction. A transaction whose StsRsnInf give two different results (another code,
// or another name with CMTC) refuses the file (ErrDuplicate, at the second one); the
// same result twice is read once.
func ParsePain002(data []byte) (*StatusReport, error) {
	var doc p2In
	m, err := decode(data, []MessageType{Pain002V10}, &doc)
	if err != nil {
		return nil, err
	}
	if doc.Rpt == nil {
		return nil, at{msg: m, path: "Document"}.fail("CstmrPmtStsRpt", ErrMissing)
	}
	return doc.Rpt.report(at{msg: m, path: "Document/CstmrPmtStsRpt"})
}

type p2In struct {
	Rpt *p2InReport `xml:"CstmrPmtStsRpt"`
}

type p2InReport struct {
	GrpHdr struct {
		MsgID   text `xml:"MsgId"`
		CreDtTm text
	}
	OrgnlGrpInfAndSts struct {
		OrgnlMsgID   text `xml:"OrgnlMsgId"`
		OrgnlMsgNmID text `xml:"OrgnlMsgNmId"`
		GrpSts       text
		StsRsnInf    []p2InReason
	}
	OrgnlPmtInfAndSts []struct {
		OrgnlPmtInfID text `xml:"OrgnlPmtInfId"`
		PmtInfSts     text
		StsRsnInf     []p2InReason
		TxInfAndSts   []struct {
			OrgnlInstrID    text `xml:"OrgnlInstrId"`
			OrgnlEndToEndID text `xml:"OrgnlEndToEndId"`
			TxSts           text
			StsRsnInf       []p2InReason
		}
	}
}

type p2InReason struct {
	Rsn struct {
		Cd    text
		Prtry text
	}
	AddtlInf []string
}

func (in *p2InReport) report(a at) (*StatusReport, error) {
	r := &StatusReport{}
	var err error
	if r.MessageID, err = a.required("GrpHdr/MsgId", in.GrpHdr.MsgID); err != nil {
		return nil, err
	}
	created, err := a.required("GrpHdr/CreDtTm", in.GrpHdr.CreDtTm)
	if err != nil {
		return nil, err
	}
	if r.CreatedAt, err = a.dateTime("GrpHdr/CreDtTm", created); err != nil {
		return nil, err
	}
	g := in.OrgnlGrpInfAndSts
	ga := a.in("OrgnlGrpInfAndSts", -1)
	if r.OriginalMessageID, err = ga.required("OrgnlMsgId", g.OrgnlMsgID); err != nil {
		return nil, err
	}
	if r.OriginalMessageType, err = ga.required("OrgnlMsgNmId", g.OrgnlMsgNmID); err != nil {
		return nil, err
	}
	if r.GroupStatus, err = statusCode(ga, "GrpSts", g.GrpSts); err != nil {
		return nil, err
	}
	if r.GroupReasons, err = reasons(ga, g.StsRsnInf); err != nil {
		return nil, err
	}
	for i, p := range in.OrgnlPmtInfAndSts {
		pa := a.in("OrgnlPmtInfAndSts", i)
		ps := PaymentStatus{}
		if ps.OriginalPaymentInfoID, err = pa.required("OrgnlPmtInfId", p.OrgnlPmtInfID); err != nil {
			return nil, err
		}
		if ps.Status, err = statusCode(pa, "PmtInfSts", p.PmtInfSts); err != nil {
			return nil, err
		}
		if ps.Reasons, err = reasons(pa, p.StsRsnInf); err != nil {
			return nil, err
		}
		inherited := firstNonEmpty(ps.Status, r.GroupStatus)
		if inherited == StatusPartiallyAccepted {
			inherited = "" // says only that some transactions failed, not which
		}
		for j, t := range p.TxInfAndSts {
			ta := pa.in("TxInfAndSts", j)
			ts := TransactionStatus{}
			if ts.OriginalEndToEndID, err = ta.required("OrgnlEndToEndId", t.OrgnlEndToEndID); err != nil {
				return nil, err
			}
			if ts.OriginalInstructionID, err = ta.optional("OrgnlInstrId", t.OrgnlInstrID); err != nil {
				return nil, err
			}
			if ts.Status, err = statusCode(ta, "TxSts", t.TxSts); err != nil {
				return nil, err
			}
			if ts.Status == "" {
				if inherited == "" {
					return nil, ta.fail("TxSts", detail(ErrMissing, "neither the transaction nor its block or group has a status that applies to it"))
				}
				ts.Status = inherited
			}
			if ts.Reasons, ts.VoP, ts.VoPName, err = transactionReasons(ta, t.StsRsnInf); err != nil {
				return nil, err
			}
			ps.Transactions = append(ps.Transactions, ts)
		}
		r.Payments = append(r.Payments, ps)
	}
	return r, nil
}

func statusCode(a at, leaf string, t text) (string, error) {
	v, err := a.optional(leaf, t)
	if err != nil || v == "" {
		return "", err
	}
	if !validCode(v) {
		return "", a.fail(leaf, detail(ErrInvalid, "a status is 1 to 4 upper-case letters or digits"))
	}
	return v, nil
}

// reasons reads the StsRsnInf of the group or of a block.
func reasons(a at, in []p2InReason) ([]StatusReason, error) {
	var out []StatusReason
	for i, r := range in {
		sr, _, err := reason(a.in("StsRsnInf", i), r)
		if err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, nil
}

// transactionReasons reads the StsRsnInf of a transaction: its reasons and its
// Verification of Payee result and name (see ParsePain002).
func transactionReasons(a at, in []p2InReason) (out []StatusReason, vop, name string, err error) {
	var first int // 1-based index of the StsRsnInf that gave the result
	for i, r := range in {
		ra := a.in("StsRsnInf", i)
		sr, prtry, err := reason(ra, r)
		if err != nil {
			return nil, "", "", err
		}
		if isVoP(prtry) {
			n := ""
			if prtry == VoPCloseMatch {
				if info := trimAll(r.AddtlInf); len(info) > 0 {
					n = info[0]
				}
			}
			switch {
			case first == 0:
				first, vop, name = i+1, prtry, n
			case prtry != vop:
				return nil, "", "", ra.fail("Rsn/Prtry", detail(ErrDuplicate,
					"a second Verification of Payee result, %s; StsRsnInf[%d] gave %s", prtry, first, vop))
			case n != name:
				return nil, "", "", ra.fail("AddtlInf", detail(ErrDuplicate,
					"a second account holder's name with %s, other than StsRsnInf[%d]'s", prtry, first))
			}
			if sr.Code == proprietaryPrefix+prtry {
				continue // the result is not a reason
			}
		}
		out = append(out, sr)
	}
	return out, vop, name, nil
}

// reason reads one StsRsnInf; prtry is its Rsn/Prtry.
func reason(ra at, r p2InReason) (sr StatusReason, prtry string, err error) {
	cd, err := statusCode(ra, "Rsn/Cd", r.Rsn.Cd)
	if err != nil {
		return StatusReason{}, "", err
	}
	if prtry, err = ra.optional("Rsn/Prtry", r.Rsn.Prtry); err != nil {
		return StatusReason{}, "", err
	}
	if cd == "" && prtry != "" {
		cd = proprietaryPrefix + prtry
	}
	return StatusReason{Code: cd, AdditionalInfo: trimAll(r.AddtlInf)}, prtry, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// WritePain002 writes the report as a pain.002.001.10 CustomerPaymentStatusReport, the
// sandbox bank's answer to a pain.001. It checks what ParsePain002 checks, plus the
// schema's limits: identifiers of 1 to 35 characters of text, AddtlInf of at most 105.
// The creation time is written in UTC to the second. The same report always gives the
// same bytes.
//
// A transaction's Verification of Payee result is written as ParsePain002 reads it: a
// StsRsnInf after its Reasons, with Rsn/Prtry the result and, for VoPCloseMatch, the
// VoPName as AddtlInf. VoP must be one of the four results or empty; VoPName is text
// without surrounding white space and only comes with VoPCloseMatch; a transaction's
// Reasons must not hold a result ("Prtry:MTCH" and the like), which would read back as
// its VoP. A VoPName longer than MaxAdditionalInfoLen is cut to fit AddtlInf (see
// VoPNameAsWritten), so it reads back cut; anything else reads back as written.
func WritePain002(r *StatusReport) ([]byte, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	doc := p2Document{Rpt: p2Report{
		GrpHdr: p2GroupHeader{MsgID: r.MessageID, CreDtTm: formatDateTime(r.CreatedAt)},
		OrgnlGrpInfAndSts: p2OriginalGroup{
			OrgnlMsgID:   r.OriginalMessageID,
			OrgnlMsgNmID: firstNonEmpty(r.OriginalMessageType, string(Pain001V09)),
			GrpSts:       r.GroupStatus,
			StsRsnInf:    writeReasons(r.GroupReasons),
		},
	}}
	for _, p := range r.Payments {
		op := p2OriginalPayment{OrgnlPmtInfID: p.OriginalPaymentInfoID, PmtInfSts: p.Status, StsRsnInf: writeReasons(p.Reasons)}
		for _, t := range p.Transactions {
			op.TxInfAndSts = append(op.TxInfAndSts, p2Transaction{
				OrgnlInstrID:    t.OriginalInstructionID,
				OrgnlEndToEndID: t.OriginalEndToEndID,
				TxSts:           t.Status,
				StsRsnInf:       writeVoP(writeReasons(t.Reasons), t.VoP, t.VoPName),
			})
		}
		doc.Rpt.OrgnlPmtInfAndSts = append(doc.Rpt.OrgnlPmtInfAndSts, op)
	}
	return marshal(doc)
}

func (r *StatusReport) validate() error {
	f := func(field string, err error) error {
		if err == nil {
			return nil
		}
		return &Error{Message: Pain002V10, Path: field, Err: err}
	}
	for _, c := range []struct {
		field string
		err   error
	}{
		{"MessageID", validMax35(r.MessageID)},
		{"CreatedAt", nonZero(r.CreatedAt)},
		{"OriginalMessageID", validMax35(r.OriginalMessageID)},
		{"OriginalMessageType", optionalMaxLen(r.OriginalMessageType, MaxIDLen)},
		{"GroupStatus", optionalCode(r.GroupStatus)},
	} {
		if err := f(c.field, c.err); err != nil {
			return err
		}
	}
	if err := f("GroupReasons", validReasons(r.GroupReasons)); err != nil {
		return err
	}
	for i, p := range r.Payments {
		pf := "Payments[" + strconv.Itoa(i+1) + "]."
		if err := f(pf+"OriginalPaymentInfoID", validMax35(p.OriginalPaymentInfoID)); err != nil {
			return err
		}
		if err := f(pf+"Status", optionalCode(p.Status)); err != nil {
			return err
		}
		if err := f(pf+"Reasons", validReasons(p.Reasons)); err != nil {
			return err
		}
		for j, t := range p.Transactions {
			tf := pf + "Transactions[" + strconv.Itoa(j+1) + "]."
			if err := f(tf+"OriginalEndToEndID", validMax35(t.OriginalEndToEndID)); err != nil {
				return err
			}
			if t.OriginalInstructionID != "" {
				if err := f(tf+"OriginalInstructionID", validMax35(t.OriginalInstructionID)); err != nil {
					return err
				}
			}
			if t.Status == "" {
				return f(tf+"Status", ErrMissing)
			}
			if err := f(tf+"Status", optionalCode(t.Status)); err != nil {
				return err
			}
			if err := f(tf+"Reasons", validReasons(t.Reasons)); err != nil {
				return err
			}
			if err := f(tf+"Reasons", noVoPReason(t.Reasons)); err != nil {
				return err
			}
			if err := f(tf+"VoP", validVoP(t.VoP)); err != nil {
				return err
			}
			if err := f(tf+"VoPName", validVoPName(t.VoP, t.VoPName)); err != nil {
				return err
			}
		}
	}
	return nil
}

func validVoP(s string) error {
	if s != "" && !isVoP(s) {
		return detail(ErrInvalid, "a Verification of Payee result is %s, %s, %s or %s", VoPMatch, VoPCloseMatch, VoPNoMatch, VoPNotPossible)
	}
	return nil
}

func validVoPName(vop, name string) error {
	if name == "" {
		return nil
	}
	if vop != VoPCloseMatch {
		return detail(ErrInvalid, "an account holder's name comes only with the result %s", VoPCloseMatch)
	}
	return validText(VoPNameAsWritten(name), MaxAdditionalInfoLen)
}

// noVoPReason checks that a transaction's reasons hold no Verification of Payee
// result, which belongs in its VoP.
func noVoPReason(rs []StatusReason) error {
	for i, r := range rs {
		if prtry, ok := strings.CutPrefix(r.Code, proprietaryPrefix); ok && isVoP(prtry) {
			return detail(ErrInvalid, "reason %d: %s is a Verification of Payee result: set VoP", i+1, prtry)
		}
	}
	return nil
}

// VoPNameAsWritten is the account holder's name as WritePain002 writes it, and as it
// reads back: the name goes in an AddtlInf, which is Max105Text in pain.002.001.10
// (names themselves have up to 140 characters in ISO 20022, 70 in SEPA), so a longer
// name is cut to its first MaxAdditionalInfoLen characters, without the white space at
// the cut (ParsePain002 trims it). The cut keeps the report valid against the schema;
// a name cut short still tells the payer whose account it is.
func VoPNameAsWritten(name string) string {
	if utf8.RuneCountInString(name) <= MaxAdditionalInfoLen {
		return name
	}
	runes := []rune(name)
	return strings.TrimRightFunc(string(runes[:MaxAdditionalInfoLen]), unicode.IsSpace)
}

// writeVoP appends the StsRsnInf of a Verification of Payee result, if any.
func writeVoP(rs []p2Reason, vop, name string) []p2Reason {
	if vop == "" {
		return rs
	}
	w := p2Reason{Rsn: &p2ReasonCode{Prtry: vop}}
	if name != "" {
		w.AddtlInf = []string{VoPNameAsWritten(name)}
	}
	return append(rs, w)
}

// validMax35 checks an identifier of a report (Max35Text): 1 to 35 characters of text.
// A report repeats the ids it was given, so it does not hold them to the SEPA set.
func validMax35(s string) error {
	if s == "" {
		return ErrMissing
	}
	if err := optionalMaxLen(s, MaxIDLen); err != nil {
		return err
	}
	if err := validation.ValidateText(s); err != nil {
		return detail(ErrInvalid, "%s", err.Error())
	}
	return nil
}

func optionalCode(s string) error {
	if s != "" && !validCode(s) {
		return detail(ErrInvalid, "a status or reason is 1 to 4 upper-case letters or digits")
	}
	return nil
}

func optionalMaxLen(s string, n int) error {
	if utf8.RuneCountInString(s) > n {
		return detail(ErrInvalid, "at most %d characters", n)
	}
	return nil
}

func validReasons(rs []StatusReason) error {
	for i, r := range rs {
		if prtry, ok := strings.CutPrefix(r.Code, proprietaryPrefix); ok {
			if prtry == "" || utf8.RuneCountInString(prtry) > MaxIDLen {
				return detail(ErrInvalid, "reason %d: a proprietary reason has 1 to %d characters", i+1, MaxIDLen)
			}
		} else if r.Code != "" && !validCode(r.Code) {
			return detail(ErrInvalid, "reason %d: a reason code is 1 to 4 upper-case letters or digits", i+1)
		}
		for _, s := range r.AdditionalInfo {
			if utf8.RuneCountInString(s) > MaxAdditionalInfoLen || strings.TrimSpace(s) != s || s == "" {
				return detail(ErrInvalid, "reason %d: additional information is 1 to %d characters without surrounding spaces", i+1, MaxAdditionalInfoLen)
			}
		}
	}
	return nil
}

func writeReasons(rs []StatusReason) []p2Reason {
	var out []p2Reason
	for _, r := range rs {
		w := p2Reason{AddtlInf: r.AdditionalInfo}
		if prtry, ok := strings.CutPrefix(r.Code, proprietaryPrefix); ok {
			w.Rsn = &p2ReasonCode{Prtry: prtry}
		} else if r.Code != "" {
			w.Rsn = &p2ReasonCode{Cd: r.Code}
		}
		out = append(out, w)
	}
	return out
}

// The pain.002.001.10 elements the writer writes, in schema order.
type (
	p2Document struct {
		XMLName xml.Name `xml:"urn:iso:std:iso:20022:tech:xsd:pain.002.001.10 Document"`
		Rpt     p2Report `xml:"CstmrPmtStsRpt"`
	}
	p2Report struct {
		GrpHdr            p2GroupHeader
		OrgnlGrpInfAndSts p2OriginalGroup
		OrgnlPmtInfAndSts []p2OriginalPayment
	}
	p2GroupHeader struct {
		MsgID   string `xml:"MsgId"`
		CreDtTm string
	}
	p2OriginalGroup struct {
		OrgnlMsgID   string     `xml:"OrgnlMsgId"`
		OrgnlMsgNmID string     `xml:"OrgnlMsgNmId"`
		GrpSts       string     `xml:",omitempty"`
		StsRsnInf    []p2Reason `xml:",omitempty"`
	}
	p2OriginalPayment struct {
		OrgnlPmtInfID string          `xml:"OrgnlPmtInfId"`
		PmtInfSts     string          `xml:",omitempty"`
		StsRsnInf     []p2Reason      `xml:",omitempty"`
		TxInfAndSts   []p2Transaction `xml:",omitempty"`
	}
	p2Transaction struct {
		OrgnlInstrID    string     `xml:"OrgnlInstrId,omitempty"`
		OrgnlEndToEndID string     `xml:"OrgnlEndToEndId"`
		TxSts           string     `xml:",omitempty"`
		StsRsnInf       []p2Reason `xml:",omitempty"`
	}
	p2Reason struct {
		Rsn      *p2ReasonCode `xml:",omitempty"`
		AddtlInf []string      `xml:",omitempty"`
	}
	p2ReasonCode struct {
		Cd    string `xml:",omitempty"`
		Prtry string `xml:",omitempty"`
	}
)
