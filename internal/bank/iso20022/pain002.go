package iso20022

import (
	"encoding/xml"
	"strconv"
	"strings"
	"time"
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
	Status  string
	Reasons []StatusReason
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
			if ts.Reasons, err = reasons(ta, t.StsRsnInf); err != nil {
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

func reasons(a at, in []p2InReason) ([]StatusReason, error) {
	var out []StatusReason
	for i, r := range in {
		ra := a.in("StsRsnInf", i)
		cd, err := statusCode(ra, "Rsn/Cd", r.Rsn.Cd)
		if err != nil {
			return nil, err
		}
		prtry, err := ra.optional("Rsn/Prtry", r.Rsn.Prtry)
		if err != nil {
			return nil, err
		}
		if cd == "" && prtry != "" {
			cd = proprietaryPrefix + prtry
		}
		out = append(out, StatusReason{Code: cd, AdditionalInfo: trimAll(r.AddtlInf)})
	}
	return out, nil
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
				StsRsnInf:       writeReasons(t.Reasons),
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
		}
	}
	return nil
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
