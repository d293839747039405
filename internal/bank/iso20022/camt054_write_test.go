package iso20022

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// dayOfCredits is the golden notification: a day of the fund's account as a bank
// reports it. 1 a SEPA credit with an RF reference, 2 a credit with only unstructured
// remittance, 3 a pending credit, 4 a payout returned by the creditor's bank (AC04),
// 5 a reversal of a card fee, 6 two payouts booked as one debit, 7 two subscriptions of
// one investor booked as one credit.
func dayOfCredits() *Notification {
	day := date(2026, 3, 2)
	return &Notification{
		MessageID:   "NTF-20260302-0001",
		CreatedAt:   time.Date(2026, 3, 2, 18, 30, 0, 0, time.FixedZone("CET", 3600)),
		ID:          "NTF-20260302-0001-1",
		AccountIBAN: fundIBAN,
		Currency:    "EUR",
		Entries: []NotificationEntry{
			{
				EntryRef: "1", AccountServicerRef: "2026030200001",
				Amount: eur(250000), Currency: "EUR", CreditDebit: Credit, Status: StatusBooked,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []NotificationTransaction{{
					EndToEndID: "INV-77812", AccountServicerRef: "2026030200001-1", Amount: eur(250000), Currency: "EUR",
					DebtorName: "Marie Dupont", DebtorIBAN: "FR1420041010050500013M02606",
					CreditorName: "Fundshare Feeder Fund SICAV", CreditorIBAN: fundIBAN,
					CreditorReference: "RF462026000123",
				}},
			},
			{
				EntryRef: "2", AccountServicerRef: "2026030200002",
				Amount: eur(100050), Currency: "EUR", CreditDebit: Credit,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []NotificationTransaction{{
					Amount: eur(100050), DebtorName: "Jan de Vries & Zonen <B.V.>", DebtorIBAN: "NL91ABNA0417164300",
					Unstructured: []string{"Subscription RF19 2026 0001 24", "thank you, 'merci'"},
				}},
			},
			{
				EntryRef: "3", AccountServicerRef: "2026030200003",
				Amount: eur(75000), Currency: "EUR", CreditDebit: Credit, Status: StatusPending,
				ValueDate: date(2026, 3, 3), BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []NotificationTransaction{{
					EndToEndID: "E2E-PENDING-1", Amount: eur(75000), Currency: "EUR", CreditorReference: "RF892026000125",
				}},
			},
			{
				EntryRef: "4", AccountServicerRef: "2026030200004",
				Amount: eur(32000), Currency: "EUR", CreditDebit: Credit,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/RRTN",
				Transactions: []NotificationTransaction{{
					EndToEndID: "ord-7f3a9c2e", InstructionID: "PAYOUT-20260227-1", Amount: eur(32000), Currency: "EUR",
					DebtorName: "Fundshare Feeder Fund SICAV", DebtorIBAN: fundIBAN,
					CreditorName: "Luca Bianchi", CreditorIBAN: "IT60X0542811101000000123456",
					ReturnReason: "AC04", ReturnInfo: []string{"Account closed"},
				}},
			},
			{
				EntryRef: "5", AccountServicerRef: "2026030200005",
				Amount: eur(4590), Currency: "EUR", CreditDebit: Credit, Reversal: true,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/CCRD/RIMB",
				AdditionalInfo: "Reversal of a card fee",
				Transactions:   []NotificationTransaction{{Amount: eur(4590), Unstructured: []string{"Card fee 02/2026"}}},
			},
			{
				EntryRef: "6", AccountServicerRef: "2026030200006",
				Amount: eur(123456), Currency: "EUR", CreditDebit: Debit,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/ICDT/ESCT",
				Transactions: []NotificationTransaction{
					{
						EndToEndID: "ord-1b2c3d4e", Amount: eur(100000), Currency: "EUR",
						CreditorName: "Anna Schmidt", CreditorIBAN: "AT611904300234573201",
						Unstructured: []string{"Redemption ord-1b2c3d4e"},
					},
					{
						EndToEndID: "ord-5f6a7b8c", Amount: eur(23456), Currency: "EUR",
						CreditorName: "Pedro García", CreditorIBAN: "ES9121000418450200051332",
						Unstructured: []string{"Redemption ord-5f6a7b8c"},
					},
				},
			},
			{
				EntryRef: "7", AccountServicerRef: "2026030200007",
				Amount: eur(150000), Currency: "EUR", CreditDebit: Credit,
				BookingDate: day, ValueDate: day, BankTransactionCode: "PMNT/RCDT/ESCT",
				Transactions: []NotificationTransaction{
					{
						EndToEndID: "20260302-4471", AccountServicerRef: "2026030200007-1", Amount: eur(100000), Currency: "EUR",
						DebtorName: "Søren Østergaard", DebtorIBAN: "DK5000400440116243", CreditorReference: "RF18539007547034",
					},
					{
						EndToEndID: "20260302-4472", AccountServicerRef: "2026030200007-2", Amount: eur(50000), Currency: "EUR",
						DebtorName: "Søren Østergaard", DebtorIBAN: "DK5000400440116243", CreditorReference: "RF242026000131",
					},
				},
			},
		},
	}
}

// statementOf is what ParseStatements reads from WriteCamt054(n): the notification's
// fields, with the conversions WriteCamt054 documents.
func statementOf(n *Notification) Statement {
	s := Statement{
		Kind: KindNotification, MessageType: Camt054V08, MessageID: n.MessageID,
		CreatedAt: n.CreatedAt.UTC().Truncate(time.Second), ID: n.ID,
		AccountIBAN: n.AccountIBAN, Currency: n.Currency,
		Entries: make([]Entry, len(n.Entries)),
	}
	day := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	lines := func(ss []string) []string {
		if len(ss) == 0 {
			return nil
		}
		return ss
	}
	for i, e := range n.Entries {
		w := Entry{
			Reference: or(e.AccountServicerRef, e.EntryRef), EntryRef: e.EntryRef, AccountServicerRef: e.AccountServicerRef,
			Amount: e.Amount, Currency: e.Currency, CreditDebit: e.CreditDebit, Status: EntryStatus(or(string(e.Status), "BOOK")),
			BookingDate: day(e.BookingDate), ValueDate: day(e.ValueDate), Reversal: e.Reversal,
			BankTransactionCode: e.BankTransactionCode, AdditionalInfo: e.AdditionalInfo,
		}
		for _, t := range e.Transactions {
			w.Transactions = append(w.Transactions, Transaction{
				EndToEndID: or(t.EndToEndID, "NOTPROVIDED"), InstructionID: t.InstructionID, AccountServicerRef: t.AccountServicerRef,
				CreditorReference: t.CreditorReference, Unstructured: lines(t.Unstructured),
				Amount: t.Amount, Currency: or(t.Currency, e.Currency),
				DebtorName: t.DebtorName, DebtorIBAN: t.DebtorIBAN, CreditorName: t.CreditorName, CreditorIBAN: t.CreditorIBAN,
				ReturnReason: t.ReturnReason, ReturnInfo: lines(t.ReturnInfo),
			})
		}
		s.Entries[i] = w
	}
	return s
}

// writeAndParse writes n, parses the output and checks that it reads as
// statementOf(n).
func writeAndParse(n *Notification) ([]byte, error) {
	out, err := WriteCamt054(n)
	if err != nil {
		return nil, fmt.Errorf("WriteCamt054: %w", err)
	}
	m, err := Detect(out)
	if err != nil {
		return out, fmt.Errorf("Detect: %w", err)
	}
	if m != Camt054V08 {
		return out, fmt.Errorf("Detect = %q", m)
	}
	got, err := ParseStatements(out)
	if err != nil {
		return out, fmt.Errorf("ParseStatements of the output: %w\n%s", err, out)
	}
	if want := []Statement{statementOf(n)}; !reflect.DeepEqual(got, want) {
		return out, fmt.Errorf("round trip:\n got %+v\nwant %+v\n%s", got, want, out)
	}
	return out, nil
}

// roundTrip is writeAndParse, failing t on an error.
func roundTrip(t *testing.T, n *Notification) []byte {
	t.Helper()
	out, err := writeAndParse(n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTheCamt054WriterOutputIsTheGoldenFileAndParsesBack(t *testing.T) {
	out := roundTrip(t, dayOfCredits())
	golden(t, "camt054_write.golden.xml", out)
}

func TestTheCamt054WriterFillsInWhatItDocuments(t *testing.T) {
	// Literal expectations, independent of statementOf: an empty status is BOOK, an
	// empty EndToEndID NOTPROVIDED, an empty transaction currency the entry's; the
	// creation time is UTC to the second and dates are midnight UTC of their day.
	berlin := time.FixedZone("CEST", 2*3600)
	n := &Notification{
		MessageID: "M", CreatedAt: time.Date(2026, 6, 30, 23, 59, 59, 999_999_999, berlin), ID: "N",
		AccountIBAN: fundIBAN, Currency: "EUR",
		Entries: []NotificationEntry{{
			EntryRef: "1", Amount: eur(1), Currency: "EUR", CreditDebit: Credit,
			BookingDate: time.Date(2026, 7, 1, 0, 30, 0, 0, berlin), BankTransactionCode: "PMNT/RCDT/ESCT",
			Transactions: []NotificationTransaction{{Amount: eur(1)}},
		}},
	}
	out, err := WriteCamt054(n)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseStatements(out)
	if err != nil {
		t.Fatal(err)
	}
	e := s[0].Entries[0]
	tx := e.Transactions[0]
	if !s[0].CreatedAt.Equal(time.Date(2026, 6, 30, 21, 59, 59, 0, time.UTC)) || s[0].CreatedAt.Location() != time.UTC {
		t.Errorf("CreatedAt = %v", s[0].CreatedAt)
	}
	if e.Status != StatusBooked || e.Reference != "1" || !e.BookingDate.Equal(date(2026, 7, 1)) || !e.ValueDate.IsZero() {
		t.Errorf("entry %+v", e)
	}
	if tx.EndToEndID != "NOTPROVIDED" || tx.Currency != "EUR" || tx.Amount != 100 {
		t.Errorf("transaction %+v", tx)
	}
	for _, absent := range []string{"<ValDt>", "<RltdPties>", "<RmtInf>", "<RtrInf>", "<RvslInd>", "<AddtlNtryInf>", "<InstrId>", "<AcctSvcrRef>"} {
		if strings.Contains(string(out), absent) {
			t.Errorf("output has %s, which nothing asked for:\n%s", absent, out)
		}
	}
}

func TestTheCamt054WriterWritesTheSameBytesForTheSameNotification(t *testing.T) {
	a, err := WriteCamt054(dayOfCredits())
	if err != nil {
		t.Fatal(err)
	}
	b, err := WriteCamt054(dayOfCredits())
	if err != nil || string(a) != string(b) {
		t.Fatalf("two writes differ (%v)", err)
	}
}

func TestANotificationWithoutEntriesRoundTrips(t *testing.T) {
	n := dayOfCredits()
	n.Entries = nil
	roundTrip(t, n)
}

// gen makes random valid notifications.
type gen struct{ r *rand.Rand }

// alphabet has what a bank file carries: letters, digits, punctuation, XML's special
// characters, accented letters, a CJK character, an emoji and a no-break space.
var alphabet = []rune("abcXYZ019 -/.,:?()+'\"<>&;éÉßøŁ€中😀\u00a0")

// text is 1 to max characters (at most 40) of the alphabet, not starting or ending with
// white space.
func (g gen) text(max int) string {
	n := 1 + g.r.IntN(min(max, 40))
	rs := make([]rune, n)
	for i := range rs {
		rs[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	for _, i := range []int{0, n - 1} {
		if rs[i] == ' ' || rs[i] == '\u00a0' {
			rs[i] = 'x'
		}
	}
	return string(rs)
}

func (g gen) maybe(p float64, f func() string) string {
	if g.r.Float64() < p {
		return f()
	}
	return ""
}

func (g gen) lines(max int) []string {
	var out []string
	for range g.r.IntN(3) {
		out = append(out, g.text(max))
	}
	return out
}

var ibanLengths = map[string]int{"DE": 22, "FR": 27, "NL": 18, "AT": 20, "ES": 24, "IT": 27, "BE": 16, "LU": 20}

func (g gen) iban() string {
	countries := []string{"DE", "FR", "NL", "AT", "ES", "IT", "BE", "LU"}
	c := countries[g.r.IntN(len(countries))]
	const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	bban := make([]byte, ibanLengths[c]-4)
	for i := range bban {
		bban[i] = chars[g.r.IntN(len(chars))]
	}
	return fmt.Sprintf("%s%02d%s", c, 98-validation.Mod97(string(bban), c+"00"), bban)
}

func (g gen) reference() string {
	const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	p := make([]byte, 1+g.r.IntN(rf.MaxPayloadLen))
	for i := range p {
		p[i] = chars[g.r.IntN(len(chars))]
	}
	ref, err := rf.New(string(p))
	if err != nil {
		panic(err)
	}
	return ref
}

func (g gen) code() string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 1+g.r.IntN(4))
	for i := range b {
		b[i] = chars[g.r.IntN(len(chars))]
	}
	return string(b)
}

func (g gen) codeOrProprietary(codes ...string) string {
	switch g.r.IntN(3) {
	case 0:
		return codes[g.r.IntN(len(codes))]
	case 1:
		return g.code()
	}
	return "Prtry:" + g.text(MaxIDLen)
}

func (g gen) day() time.Time {
	switch g.r.IntN(10) {
	case 0:
		return time.Time{}
	case 1:
		return time.Date(1+g.r.IntN(9999), time.Month(1+g.r.IntN(12)), 1+g.r.IntN(28), 0, 0, 0, 0, time.UTC)
	}
	zone := time.FixedZone("", (g.r.IntN(27)-12)*3600)
	return time.Date(2000+g.r.IntN(100), time.Month(1+g.r.IntN(12)), 1+g.r.IntN(31), g.r.IntN(24), g.r.IntN(60), 0, 0, zone)
}

// cents is an amount of 0.01 to 10,000,000.00 (or, rarely, up to what an int64 of units
// holds, split across n transactions).
func (g gen) cents(n int) int64 {
	if g.r.IntN(50) == 0 {
		return (1 + g.r.Int64N(math.MaxInt64/unitsPerCent/int64(n))) * unitsPerCent
	}
	return (1 + g.r.Int64N(1_000_000_000)) * unitsPerCent
}

func (g gen) notification() *Notification {
	n := &Notification{
		MessageID: g.text(MaxIDLen),
		CreatedAt: time.Date(2+g.r.IntN(9997), time.Month(1+g.r.IntN(12)), 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60),
			g.r.IntN(1e9), time.FixedZone("", (g.r.IntN(27)-12)*3600)),
		ID:          g.text(MaxIDLen),
		AccountIBAN: g.iban(),
		Currency:    []string{"EUR", "EUR", "CHF"}[g.r.IntN(3)],
	}
	for range g.r.IntN(5) {
		n.Entries = append(n.Entries, g.entry(n.Currency))
	}
	return n
}

func (g gen) entry(account string) NotificationEntry {
	e := NotificationEntry{
		EntryRef:            g.maybe(0.7, func() string { return g.text(MaxIDLen) }),
		AccountServicerRef:  g.maybe(0.7, func() string { return g.text(MaxIDLen) }),
		Currency:            account,
		CreditDebit:         []CreditDebit{Credit, Debit}[g.r.IntN(2)],
		Reversal:            g.r.IntN(10) == 0,
		Status:              EntryStatus(g.maybe(0.5, func() string { return g.codeOrProprietary("BOOK", "PDNG", "INFO", "FUTR") })),
		BookingDate:         g.day(),
		ValueDate:           g.day(),
		BankTransactionCode: g.code() + "/" + g.code() + "/" + g.code(),
		AdditionalInfo:      g.maybe(0.2, func() string { return g.text(MaxEntryInfoLen) }),
	}
	if e.EntryRef == "" && e.AccountServicerRef == "" {
		e.EntryRef = g.text(MaxIDLen)
	}
	if g.r.IntN(10) == 0 {
		e.Currency = "USD"
	}
	count := 1 + g.r.IntN(3)
	foreign := false
	for range count {
		t := NotificationTransaction{
			EndToEndID:         g.maybe(0.8, func() string { return g.text(MaxIDLen) }),
			InstructionID:      g.maybe(0.2, func() string { return g.text(MaxIDLen) }),
			AccountServicerRef: g.maybe(0.2, func() string { return g.text(MaxIDLen) }),
			Amount:             g.cents(count),
			Currency:           []string{"", e.Currency, e.Currency, "GBP"}[g.r.IntN(4)],
			DebtorName:         g.maybe(0.6, func() string { return g.text(MaxNameLen) }),
			DebtorIBAN:         g.maybe(0.6, g.iban),
			CreditorName:       g.maybe(0.4, func() string { return g.text(MaxNameLen) }),
			CreditorIBAN:       g.maybe(0.4, g.iban),
			CreditorReference:  g.maybe(0.5, g.reference),
			Unstructured:       g.lines(MaxRemittanceLen),
			ReturnReason:       g.maybe(0.1, func() string { return g.codeOrProprietary("AC04", "AM04", "MD07") }),
			ReturnInfo:         g.lines(MaxReturnInfoLen),
		}
		if t.Currency != "" && t.Currency != e.Currency {
			foreign = true
		} else {
			e.Amount += t.Amount
		}
		e.Transactions = append(e.Transactions, t)
	}
	if foreign {
		e.Amount = g.cents(1)
	}
	return e
}

func TestRandomNotificationsRoundTripThroughTheParser(t *testing.T) {
	// A property over 3,000 seeded random notifications: whatever valid notification is
	// written, ParseStatements gives back every field (see statementOf).
	g := gen{rand.New(rand.NewPCG(20260302, 54))}
	entries := 0
	for i := range 3000 {
		n := g.notification()
		entries += len(n.Entries)
		if _, err := writeAndParse(n); err != nil {
			t.Fatalf("notification %d of the seeded sequence, %+v: %v", i, n, err)
		}
	}
	if entries < 4000 {
		t.Fatalf("only %d entries generated", entries)
	}
}

// FuzzWriteCamt054 sets text fields to anything: the writer either refuses the
// notification with an *Error that names the field, or the parser gives the text back
// as it was.
func FuzzWriteCamt054(f *testing.F) {
	for _, s := range []string{"Anna", " padded", "tab\there", "\uFFFE", "\uFFFF", "\u00a0nbsp", "a\u2028b", "<&>'\"", "]]>", "\xff", strings.Repeat("é", 71)} {
		f.Add(s, "ok", "E2E-1")
		f.Add("Anna", s, "E2E-1")
		f.Add("Anna", "ok", s)
	}
	f.Fuzz(func(t *testing.T, name, line, id string) {
		n := dayOfCredits()
		tx := &n.Entries[0].Transactions[0]
		tx.DebtorName, tx.Unstructured, tx.EndToEndID = name, []string{line}, id
		n.Entries[3].Transactions[0].ReturnReason = "Prtry:" + id
		n.Entries[4].AdditionalInfo = line
		out, err := WriteCamt054(n)
		if err != nil {
			checkRefusal(t, err)
			var e *Error
			if !errors.As(err, &e) || e.Path == "" || e.Message != Camt054V08 || out != nil {
				t.Fatalf("refusal %v names no field", err)
			}
			return
		}
		got, err := ParseStatements(out)
		if err != nil {
			t.Fatalf("written, then refused: %v", err)
		}
		if want := []Statement{statementOf(n)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip of %q, %q, %q:\n got %+v\nwant %+v", name, line, id, got, want)
		}
	})
}

// writeRefused checks that change makes WriteCamt054 refuse dayOfCredits with an error of
// kind at field, and that dayOfCredits without the change is written.
func writeRefused(t *testing.T, kind error, field string, change func(n *Notification)) {
	t.Helper()
	if _, err := WriteCamt054(dayOfCredits()); err != nil {
		t.Fatalf("the unchanged notification: %v", err)
	}
	n := dayOfCredits()
	change(n)
	out, err := WriteCamt054(n)
	var e *Error
	if out != nil || !errors.As(err, &e) || !errors.Is(err, kind) || e.Path != field || e.Message != Camt054V08 {
		t.Errorf("WriteCamt054 = %d bytes, %v; want %v at %s", len(out), err, kind, field)
	}
}

func TestIdentifiersAreOneTo35CharactersOfText(t *testing.T) {
	long := strings.Repeat("x", 36)
	writeRefused(t, ErrMissing, "MessageID", func(n *Notification) { n.MessageID = "" })
	writeRefused(t, ErrInvalid, "MessageID", func(n *Notification) { n.MessageID = long })
	writeRefused(t, ErrMissing, "ID", func(n *Notification) { n.ID = "" })
	writeRefused(t, ErrInvalid, "ID", func(n *Notification) { n.ID = "NTF\n1" })
	writeRefused(t, ErrInvalid, "Entries[1].EntryRef", func(n *Notification) { n.Entries[0].EntryRef = long })
	writeRefused(t, ErrInvalid, "Entries[2].AccountServicerRef", func(n *Notification) { n.Entries[1].AccountServicerRef = long })
	writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].EndToEndID", func(n *Notification) { n.Entries[0].Transactions[0].EndToEndID = long })
	writeRefused(t, ErrInvalid, "Entries[4].Transactions[1].InstructionID", func(n *Notification) { n.Entries[3].Transactions[0].InstructionID = long })
	writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].AccountServicerRef", func(n *Notification) { n.Entries[0].Transactions[0].AccountServicerRef = long })
	// 35 characters are characters, not bytes.
	n := dayOfCredits()
	n.MessageID = strings.Repeat("é", 35)
	roundTrip(t, n)
}

func TestTextMustComeBackAsWritten(t *testing.T) {
	// The parser trims white space, and XML cannot carry U+FFFE and U+FFFF nor control
	// characters: such text is refused rather than changed.
	for _, bad := range []string{" Marie", "Marie\u00a0", "Ma\x00rie", "Ma\u202erie", "Marie\uFFFE", "Marie\uFFFF", "Ma\xffrie"} {
		writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].DebtorName", func(n *Notification) { n.Entries[0].Transactions[0].DebtorName = bad })
	}
	writeRefused(t, ErrInvalid, "MessageID", func(n *Notification) { n.MessageID = "NTF-1 " })
	writeRefused(t, ErrInvalid, "Entries[5].AdditionalInfo", func(n *Notification) { n.Entries[4].AdditionalInfo = "\tfee" })
}

func TestTheCreationTimeIsRequiredWithAFourDigitYear(t *testing.T) {
	writeRefused(t, ErrMissing, "CreatedAt", func(n *Notification) { n.CreatedAt = time.Time{} })
	writeRefused(t, ErrInvalid, "CreatedAt", func(n *Notification) { n.CreatedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) })
	writeRefused(t, ErrInvalid, "CreatedAt", func(n *Notification) { n.CreatedAt = time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC) })
}

func TestDatesHaveAFourDigitYear(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[1].BookingDate", func(n *Notification) { n.Entries[0].BookingDate = date(12026, 3, 2) })
	writeRefused(t, ErrInvalid, "Entries[2].ValueDate", func(n *Notification) { n.Entries[1].ValueDate = date(-1, 3, 2) })
}

func TestTheAccountIBANMustBeValid(t *testing.T) {
	writeRefused(t, ErrMissing, "AccountIBAN", func(n *Notification) { n.AccountIBAN = "" })
	writeRefused(t, ErrInvalid, "AccountIBAN", func(n *Notification) { n.AccountIBAN = "DE89370400440532013001" })
	writeRefused(t, ErrInvalid, "AccountIBAN", func(n *Notification) { n.AccountIBAN = "DE89 3704 0044 0532 0130 00" })
}

func TestPartyIBANsMustBeValid(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].DebtorIBAN", func(n *Notification) {
		n.Entries[0].Transactions[0].DebtorIBAN = "FR1420041010050500013M02607"
	})
	writeRefused(t, ErrInvalid, "Entries[6].Transactions[2].CreditorIBAN", func(n *Notification) {
		n.Entries[5].Transactions[1].CreditorIBAN = "es9121000418450200051332"
	})
}

func TestCurrenciesAreThreeUpperCaseLetters(t *testing.T) {
	writeRefused(t, ErrCurrency, "Currency", func(n *Notification) { n.Currency = "" })
	writeRefused(t, ErrCurrency, "Currency", func(n *Notification) { n.Currency = "eur" })
	writeRefused(t, ErrCurrency, "Entries[1].Currency", func(n *Notification) { n.Entries[0].Currency = "EURO" })
	writeRefused(t, ErrCurrency, "Entries[7].Transactions[1].Currency", func(n *Notification) { n.Entries[6].Transactions[0].Currency = "US$" })
}

func TestAnEntryHasAReferenceToDeduplicateOn(t *testing.T) {
	writeRefused(t, ErrMissing, "Entries[3].AccountServicerRef", func(n *Notification) {
		n.Entries[2].EntryRef, n.Entries[2].AccountServicerRef = "", ""
	})
	// Either one is enough.
	n := dayOfCredits()
	n.Entries[0].EntryRef, n.Entries[1].AccountServicerRef = "", ""
	roundTrip(t, n)
}

func TestAmountsArePositiveWholeCents(t *testing.T) {
	writeRefused(t, ErrAmount, "Entries[1].Amount", func(n *Notification) {
		n.Entries[0].Amount, n.Entries[0].Transactions[0].Amount = 0, 0
	})
	writeRefused(t, ErrAmount, "Entries[1].Amount", func(n *Notification) {
		n.Entries[0].Amount, n.Entries[0].Transactions[0].Amount = -eur(100), -eur(100)
	})
	writeRefused(t, ErrAmount, "Entries[2].Amount", func(n *Notification) {
		n.Entries[1].Amount, n.Entries[1].Transactions[0].Amount = eur(100)+1, eur(100)+1
	})
	writeRefused(t, ErrAmount, "Entries[7].Transactions[1].Amount", func(n *Notification) { n.Entries[6].Transactions[0].Amount = 0 })
	writeRefused(t, ErrAmount, "Entries[7].Transactions[1].Amount", func(n *Notification) { n.Entries[6].Transactions[0].Amount = 50 })
}

func TestAnEntryIsTheSumOfItsTransactionsInItsCurrency(t *testing.T) {
	writeRefused(t, ErrTotals, "Entries[6].Amount", func(n *Notification) { n.Entries[5].Amount += eur(1) })
	writeRefused(t, ErrTotals, "Entries[6].Amount", func(n *Notification) {
		n.Entries[5].Transactions[1].Currency = "" // the entry's
		n.Entries[5].Transactions[1].Amount += eur(1)
	})
	writeRefused(t, ErrAmount, "Entries[6].Transactions", func(n *Notification) {
		big := int64(math.MaxInt64/unitsPerCent) * unitsPerCent
		n.Entries[5].Amount = big
		n.Entries[5].Transactions[0].Amount, n.Entries[5].Transactions[1].Amount = big, big
	})
	// A transaction in another currency leaves the sum unchecked: the entry's amount is
	// the converted one.
	n := dayOfCredits()
	n.Entries[6].Transactions[1].Currency = "USD"
	n.Entries[6].Amount = eur(146296)
	roundTrip(t, n)
}

func TestAnEntryIsACreditOrADebit(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[1].CreditDebit", func(n *Notification) { n.Entries[0].CreditDebit = "" })
	writeRefused(t, ErrInvalid, "Entries[1].CreditDebit", func(n *Notification) { n.Entries[0].CreditDebit = "crdt" })
}

func TestAStatusIsACodeOrProprietary(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[1].Status", func(n *Notification) { n.Entries[0].Status = "BOOKED" })
	writeRefused(t, ErrInvalid, "Entries[1].Status", func(n *Notification) { n.Entries[0].Status = "book" })
	writeRefused(t, ErrMissing, "Entries[1].Status", func(n *Notification) { n.Entries[0].Status = "Prtry:" })
	writeRefused(t, ErrInvalid, "Entries[1].Status", func(n *Notification) { n.Entries[0].Status = EntryStatus("Prtry:" + strings.Repeat("P", 36)) })
	n := dayOfCredits()
	n.Entries[0].Status, n.Entries[1].Status = "Prtry:BOOKED-FX", StatusInfo
	roundTrip(t, n)
}

func TestTheBankTransactionCodeIsDomainFamilyAndSubFamily(t *testing.T) {
	writeRefused(t, ErrMissing, "Entries[1].BankTransactionCode", func(n *Notification) { n.Entries[0].BankTransactionCode = "" })
	for _, bad := range []string{"PMNT/RCDT", "PMNT/RCDT/ESCT/X", "PMNT//ESCT", "pmnt/rcdt/esct", "PAYMT/RCDT/ESCT", "NTRF"} {
		writeRefused(t, ErrInvalid, "Entries[1].BankTransactionCode", func(n *Notification) { n.Entries[0].BankTransactionCode = bad })
	}
}

func TestAnEntryHasAtLeastOneTransaction(t *testing.T) {
	writeRefused(t, ErrMissing, "Entries[5].Transactions", func(n *Notification) { n.Entries[4].Transactions = nil })
}

func TestNamesAreAtMost70Characters(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].DebtorName", func(n *Notification) {
		n.Entries[0].Transactions[0].DebtorName = strings.Repeat("ü", 71)
	})
	writeRefused(t, ErrInvalid, "Entries[4].Transactions[1].CreditorName", func(n *Notification) {
		n.Entries[3].Transactions[0].CreditorName = strings.Repeat("L", 71)
	})
	n := dayOfCredits()
	n.Entries[0].Transactions[0].DebtorName = strings.Repeat("ü", 70)
	roundTrip(t, n)
}

func TestACreditorReferenceMustPassTheRFCheck(t *testing.T) {
	for _, bad := range []string{"RF472026000123", "RF46 2026 0001 23", "rf462026000123", "2026000123", "RF"} {
		writeRefused(t, ErrInvalid, "Entries[1].Transactions[1].CreditorReference", func(n *Notification) {
			n.Entries[0].Transactions[0].CreditorReference = bad
		})
	}
}

func TestUnstructuredLinesAreOneTo140Characters(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[2].Transactions[1].Unstructured", func(n *Notification) {
		n.Entries[1].Transactions[0].Unstructured = []string{"ok", strings.Repeat("u", 141)}
	})
	writeRefused(t, ErrMissing, "Entries[2].Transactions[1].Unstructured", func(n *Notification) {
		n.Entries[1].Transactions[0].Unstructured = []string{"ok", ""}
	})
	n := dayOfCredits()
	n.Entries[1].Transactions[0].Unstructured = []string{strings.Repeat("€", 140)}
	roundTrip(t, n)
}

func TestAReturnReasonIsACodeOrProprietaryWithLinesOfAtMost105Characters(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[4].Transactions[1].ReturnReason", func(n *Notification) { n.Entries[3].Transactions[0].ReturnReason = "AC-04" })
	writeRefused(t, ErrInvalid, "Entries[4].Transactions[1].ReturnInfo", func(n *Notification) {
		n.Entries[3].Transactions[0].ReturnInfo = []string{strings.Repeat("i", 106)}
	})
	n := dayOfCredits()
	n.Entries[3].Transactions[0].ReturnReason = "Prtry:BANK RETURN 17"
	roundTrip(t, n)
}

func TestAdditionalEntryInfoIsAtMost500Characters(t *testing.T) {
	writeRefused(t, ErrInvalid, "Entries[5].AdditionalInfo", func(n *Notification) { n.Entries[4].AdditionalInfo = strings.Repeat("a", 501) })
	n := dayOfCredits()
	n.Entries[4].AdditionalInfo = strings.Repeat("a", 500)
	roundTrip(t, n)
}

// manyCredits is a notification of n booked credits with an RF reference each.
func manyCredits(n int) *Notification {
	ntf := dayOfCredits()
	ntf.Entries = make([]NotificationEntry, n)
	for i := range ntf.Entries {
		amount := int64(100+i%5000)*money.UnitsPerCurrencyUnit + int64(i%100)*unitsPerCent
		ntf.Entries[i] = NotificationEntry{
			EntryRef: fmt.Sprint(i + 1), AccountServicerRef: fmt.Sprintf("20260302%08d", i),
			Amount: amount, Currency: "EUR", CreditDebit: Credit,
			BookingDate: date(2026, 3, 2), ValueDate: date(2026, 3, 2), BankTransactionCode: "PMNT/RCDT/ESCT",
			Transactions: []NotificationTransaction{{
				EndToEndID: fmt.Sprintf("E2E-%d", i), Amount: amount, Currency: "EUR",
				DebtorName: fmt.Sprintf("Investor %d", i), DebtorIBAN: "FR1420041010050500013M02606",
				CreditorReference: "RF18539007547034",
			}},
		}
	}
	return ntf
}

// BenchmarkWriteCamt054With10000Entries writes a camt.054 of 10,000 booked credits, the
// shape of a busy day of subscriptions.
func BenchmarkWriteCamt054With10000Entries(b *testing.B) {
	n := manyCredits(10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteCamt054(n); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTheBenchmarksNotificationIsValid(t *testing.T) {
	// The benchmark's input is what it claims: 10,000 entries the writer accepts. (That
	// the output reads back is the round-trip tests' business.)
	n := manyCredits(10_000)
	if err := n.validate(); err != nil || len(n.Entries) != 10_000 {
		t.Fatalf("%d entries: %v", len(n.Entries), err)
	}
}
