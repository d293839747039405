package iso20022

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// MessageType is an ISO 20022 message type and version, the last part of its XML
// namespace: camt.054.001.08 is urn:iso:std:iso:20022:tech:xsd:camt.054.001.08.
type MessageType string

// The message types and versions this package reads or writes.
const (
	Camt054V08 MessageType = "camt.054.001.08"
	Camt054V02 MessageType = "camt.054.001.02"
	Camt053V08 MessageType = "camt.053.001.08"
	Camt053V02 MessageType = "camt.053.001.02"
	Pain001V09 MessageType = "pain.001.001.09"
	Pain002V10 MessageType = "pain.002.001.10"
)

const namespacePrefix = "urn:iso:std:iso:20022:tech:xsd:"

// Namespace is the XML namespace of the message type's Document element.
func (m MessageType) Namespace() string { return namespacePrefix + string(m) }

var knownTypes = []MessageType{Camt054V08, Camt054V02, Camt053V08, Camt053V02, Pain001V09, Pain002V10}

// Detect returns the message type of a file, read from the namespace of its root
// element, which must be a Document of a type and version this package knows. Only
// the start of the file is read.
func Detect(data []byte) (MessageType, error) {
	d := newDecoder(data)
	_, m, err := root(d, knownTypes)
	return m, err
}

func newDecoder(data []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	return d
}

// decode reads a whole file whose root must be a Document of one of the types in
// want into v, and returns the type. Any content after the root element other than
// white space, comments and processing instructions is refused, as is a DOCTYPE: a bank
// file has no use for one, and refusing it keeps entity tricks out.
func decode(data []byte, want []MessageType, v any) (MessageType, error) {
	d := newDecoder(data)
	start, m, err := root(d, want)
	if err != nil {
		return m, err
	}
	if err := d.DecodeElement(v, &start); err != nil {
		return m, malformed(m, err)
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return m, nil
		}
		if err != nil {
			return m, malformed(m, err)
		}
		if !ignorable(tok) {
			return m, &Error{Message: m, Err: detail(ErrMalformed, "there is content after the root element")}
		}
	}
}

// root reads up to the root element and returns it with its message type.
func root(d *xml.Decoder, want []MessageType) (xml.StartElement, MessageType, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return xml.StartElement{}, "", &Error{Err: detail(ErrMalformed, "the file has no root element")}
			}
			return xml.StartElement{}, "", malformed("", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			m, err := messageType(t, want)
			return t, m, err
		case xml.Directive:
			return xml.StartElement{}, "", &Error{Err: detail(ErrMalformed, "a DOCTYPE or other <!...> directive is not allowed")}
		default:
			if !ignorable(tok) {
				return xml.StartElement{}, "", &Error{Err: detail(ErrMalformed, "there is text before the root element")}
			}
		}
	}
}

// messageType checks the root element: a Document in the namespace of one of want.
func messageType(start xml.StartElement, want []MessageType) (MessageType, error) {
	if start.Name.Local != "Document" {
		return "", &Error{Path: start.Name.Local, Err: detail(ErrUnknownMessage, "the root element must be Document")}
	}
	ns := start.Name.Space
	m := MessageType(strings.TrimPrefix(ns, namespacePrefix))
	for _, w := range want {
		if m == w {
			return m, nil
		}
	}
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = string(w)
	}
	if ns == "" {
		return "", &Error{Path: "Document", Err: detail(ErrUnknownMessage, "the Document has no namespace; want one of %s", strings.Join(names, ", "))}
	}
	return "", &Error{Path: "Document", Err: detail(ErrUnknownMessage, "namespace %q; want one of %s", clip(ns, 80), strings.Join(names, ", "))}
}

func ignorable(tok xml.Token) bool {
	switch t := tok.(type) {
	case xml.Comment, xml.ProcInst:
		return true
	case xml.CharData:
		return len(bytes.TrimSpace(t)) == 0
	}
	return false
}

// malformed is the error of a file that encoding/xml could not read; its message has
// the line.
func malformed(m MessageType, err error) error {
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return &Error{Message: m, Err: detail(ErrMalformed, "line %d: %s", syntax.Line, printable(syntax.Msg))}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Message: m, Err: detail(ErrMalformed, "the file ends inside an element")}
	}
	return &Error{Message: m, Err: detail(ErrMalformed, "%s", printable(err.Error()))}
}

// clip shortens s to at most n bytes, for echoing file content in a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// printable makes a message of encoding/xml, which may quote bytes of the file, valid
// UTF-8 and short.
func printable(s string) string {
	return strings.ToValidUTF8(clip(s, 200), "\ufffd")
}

// text is a simple element that may appear at most once: n counts its occurrences, so
// a missing element, an empty one and a repeated one can be told apart (encoding/xml
// alone keeps the last of repeated elements, silently). The value is trimmed of
// surrounding white space.
type text struct {
	v string
	n int
}

func (t *text) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	t.n++
	var s string
	if err := d.DecodeElement(&s, &start); err != nil {
		return err
	}
	t.v = strings.TrimSpace(s)
	return nil
}

// amountElem is an amount element with its Ccy attribute, counted like text.
type amountElem struct {
	ccy, v string
	n      int
}

func (a *amountElem) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	a.n++
	var x struct {
		Ccy string `xml:"Ccy,attr"`
		V   string `xml:",chardata"`
	}
	if err := d.DecodeElement(&x, &start); err != nil {
		return err
	}
	a.ccy, a.v = strings.TrimSpace(x.Ccy), strings.TrimSpace(x.V)
	return nil
}

// at is where a parser is: the message type, the element path so far and the 1-based
// index of the entry, for the errors it returns.
type at struct {
	msg   MessageType
	path  string
	entry int
}

// in is the path of a child element; i is its 0-based index, or -1 when it does not
// repeat.
func (a at) in(name string, i int) at {
	if i < 0 {
		a.path += "/" + name
	} else {
		a.path += "/" + name + "[" + strconv.Itoa(i+1) + "]"
	}
	return a
}

// fail is the error err at the element leaf below a (leaf may be empty or a path such
// as "Sts/Cd").
func (a at) fail(leaf string, err error) error {
	p := a.path
	if leaf != "" {
		p += "/" + leaf
	}
	return &Error{Message: a.msg, Path: p, Entry: a.entry, Err: err}
}

// once checks that the element leaf appears at most once.
func (a at) once(leaf string, n int) error {
	if n > 1 {
		return a.fail(leaf, detail(ErrDuplicate, "it appears %d times, at most once is allowed", n))
	}
	return nil
}

// optional returns the value of an element that may be absent.
func (a at) optional(leaf string, t text) (string, error) {
	return t.v, a.once(leaf, t.n)
}

// required returns the value of an element that must be present and not empty.
func (a at) required(leaf string, t text) (string, error) {
	if err := a.once(leaf, t.n); err != nil {
		return "", err
	}
	if t.v == "" {
		return "", a.fail(leaf, ErrMissing)
	}
	return t.v, nil
}

// amount reads an amount element and its currency. A missing element is an error
// when required, else (0, "", nil).
func (a at) amount(leaf string, e amountElem, required bool) (int64, string, error) {
	if err := a.once(leaf, e.n); err != nil {
		return 0, "", err
	}
	if e.n == 0 {
		if required {
			return 0, "", a.fail(leaf, ErrMissing)
		}
		return 0, "", nil
	}
	units, err := parseAmount(e.v)
	if err != nil {
		return 0, "", a.fail(leaf, err)
	}
	if e.ccy == "" {
		return 0, "", a.fail(leaf+"/@Ccy", detail(ErrMissing, "the Ccy attribute is missing"))
	}
	if err := validCurrency(e.ccy); err != nil {
		return 0, "", a.fail(leaf+"/@Ccy", err)
	}
	return units, e.ccy, nil
}

// dateTime reads an xs:dateTime and returns it in UTC. A time without a UTC offset is
// taken as UTC: ISO 20022 calls it local time without saying where, and banks that
// omit the offset are rare in SEPA files.
func (a at) dateTime(leaf, s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, a.fail(leaf, detail(ErrInvalid, "not a date and time of the form 2006-01-02T15:04:05"))
}

// date reads an xs:date ("2006-01-02", possibly with an offset, which is dropped: a
// booking date is a calendar day). It returns midnight UTC of the day.
func (a at) date(leaf, s string) (time.Time, error) {
	if len(s) >= 10 {
		if t, err := time.Parse(time.DateOnly, s[:10]); err == nil && validZone(s[10:]) {
			return t, nil
		}
	}
	return time.Time{}, a.fail(leaf, detail(ErrInvalid, "not a date of the form 2006-01-02"))
}

// validZone reports whether s is empty, "Z" or an offset "+hh:mm" / "-hh:mm".
func validZone(s string) bool {
	if s == "" || s == "Z" {
		return true
	}
	_, err := time.Parse("-07:00", s)
	return err == nil && len(s) == 6
}

// boolean reads an xs:boolean: true, false, 1 or 0.
func (a at) boolean(leaf, s string) (bool, error) {
	switch s {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, a.fail(leaf, detail(ErrInvalid, "not a boolean (true, false, 1 or 0)"))
}
