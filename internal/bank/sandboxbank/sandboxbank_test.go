package sandboxbank

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
)

const fundIBAN = "DE89370400440532013000"

var now = time.Date(2026, 3, 2, 23, 30, 15, 500_000_000, time.FixedZone("CET", 3600))

func payments() []Payment {
	return []Payment{
		{
			OrderID: "5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21", Namespace: "demo", Reference: "RF462026000123",
			Amount: 2_500_0000, Currency: "EUR", PayerName: "Marie Dupont", PayerIBAN: "FR1420041010050500013M02606",
		},
		{
			OrderID: "ord-7f3a9c2e", Namespace: "demo", Reference: "rf89 2026 0001 25", // print form
			Amount: 1_000_5000, Currency: "EUR", PayerName: "Jan de Vries & Zonen", PayerIBAN: "NL91ABNA0417164300",
		},
		{
			OrderID: "ord-7f3a9c2e", Namespace: "tenant-b", Reference: "RF18539007547034",
			Amount: 100, Currency: "EUR", PayerName: "Søren Østergaard", PayerIBAN: "DK5000400440116243",
		},
	}
}

func parse(t *testing.T, data []byte) iso20022.Statement {
	t.Helper()
	s, err := iso20022.ParseStatements(data)
	if err != nil {
		t.Fatalf("ParseStatements: %v\n%s", err, data)
	}
	if len(s) != 1 {
		t.Fatalf("%d statements", len(s))
	}
	return s[0]
}

func TestTheFileParsesIntoThePaymentsAsked(t *testing.T) {
	ps := payments()
	name, data, err := Notification(fundIBAN, "EUR", ps, now, 7)
	if err != nil {
		t.Fatal(err)
	}
	if name != "camt054-20260302T223015Z-7.xml" {
		t.Errorf("name %q", name)
	}
	s := parse(t, data)
	if s.Kind != iso20022.KindNotification || s.MessageType != iso20022.Camt054V08 || s.AccountIBAN != fundIBAN || s.Currency != "EUR" ||
		s.MessageID != "SBX-20260302T223015Z-7" || !s.CreatedAt.Equal(time.Date(2026, 3, 2, 22, 30, 15, 0, time.UTC)) {
		t.Errorf("statement %+v", s)
	}
	if len(s.Entries) != len(ps) {
		t.Fatalf("%d entries for %d payments", len(s.Entries), len(ps))
	}
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC) // now's UTC day
	wantE2E := []string{"5f0c3c7e2d9b4f439a550d3c1b7a9e21", "ord-7f3a9c2e", "ord-7f3a9c2e"}
	wantRef := []string{"RF462026000123", "RF892026000125", "RF18539007547034"}
	for i, e := range s.Entries {
		p := ps[i]
		if !e.Booked() || e.CreditDebit != iso20022.Credit || e.Amount != p.Amount || e.Currency != "EUR" || e.Reversal ||
			e.BankTransactionCode != "PMNT/RCDT/ESCT" || !e.BookingDate.Equal(day) || !e.ValueDate.Equal(day) ||
			e.Reference != EntryReference(p.Namespace, p.OrderID) || e.EntryRef != fmt.Sprint(i+1) || len(e.Transactions) != 1 {
			t.Errorf("entry %d: %+v", i+1, e)
			continue
		}
		tx := e.Transactions[0]
		if tx.Amount != p.Amount || tx.Currency != "EUR" || tx.DebtorName != p.PayerName || tx.DebtorIBAN != p.PayerIBAN ||
			tx.CreditorReference != wantRef[i] || tx.EndToEndID != wantE2E[i] || tx.ReturnReason != "" || tx.Unstructured != nil {
			t.Errorf("entry %d transaction: %+v", i+1, tx)
		}
	}
}

func TestTheSamePaymentNotifiedTwiceHasTheSameEntryReference(t *testing.T) {
	ps := payments()
	_, first, err := Notification(fundIBAN, "EUR", ps, now, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Later, after a restart (seq from 1 again), with other payments around it.
	again := []Payment{ps[2], {
		OrderID: "ord-new", Namespace: "demo", Reference: "RF242026000131", Amount: 10_0000, Currency: "EUR",
		PayerName: "Anna Schmidt", PayerIBAN: "AT611904300234573201",
	}}
	_, second, err := Notification(fundIBAN, "EUR", again, now.Add(26*time.Hour), 1)
	if err != nil {
		t.Fatal(err)
	}
	a, b := parse(t, first), parse(t, second)
	if a.Entries[2].Reference != b.Entries[0].Reference {
		t.Fatalf("the same payment has references %q and %q", a.Entries[2].Reference, b.Entries[0].Reference)
	}
	if b.Entries[1].Reference == a.Entries[0].Reference || b.Entries[1].Reference == a.Entries[1].Reference {
		t.Fatalf("a new order has the reference of an earlier one")
	}
	// The same input gives the same bytes.
	_, third, err := Notification(fundIBAN, "EUR", ps, now, 1)
	if err != nil || string(third) != string(first) {
		t.Fatalf("the same notification written twice differs (%v)", err)
	}
}

func TestDifferentOrdersNeverShareAnEntryReference(t *testing.T) {
	// A property over 10,000 order UUIDs (from a seeded source): every order has its own
	// reference, as the ingestion needs to tell their entries apart. The first 500 are
	// also paid in one file, whose entries carry those references.
	src := rand.New(rand.NewPCG(2026, 3))
	random := readerFunc(func(b []byte) (int, error) {
		for j := range b {
			b[j] = byte(src.UintN(256))
		}
		return len(b), nil
	})
	seen := make(map[string]string, 10_000)
	var ps []Payment
	for i := range 10_000 {
		id, err := uuid.NewRandomFromReader(random)
		if err != nil {
			t.Fatal(err)
		}
		ref := EntryReference("demo", id.String())
		if len(ref) != 34 || !strings.HasPrefix(ref, "SBX-PAY-") {
			t.Fatalf("order %s: reference %q", id, ref)
		}
		if other, dup := seen[ref]; dup {
			t.Fatalf("orders %s and %s share reference %s", other, id, ref)
		}
		seen[ref] = id.String()
		if i < 500 {
			ps = append(ps, Payment{
				OrderID: id.String(), Namespace: "demo", Reference: "RF18539007547034", Amount: int64(1+i) * 100, Currency: "EUR",
				PayerName: "Investor", PayerIBAN: "FR1420041010050500013M02606",
			})
		}
	}
	_, data, err := Notification(fundIBAN, "EUR", ps, now, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range parse(t, data).Entries {
		if e.Reference != EntryReference("demo", ps[i].OrderID) {
			t.Fatalf("entry %d has reference %q, not its order's", i+1, e.Reference)
		}
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

func TestTheSameOrderIdInTwoNamespacesIsTwoOrders(t *testing.T) {
	if EntryReference("demo", "ord-1") == EntryReference("tenant-b", "ord-1") {
		t.Fatal("the namespace does not count")
	}
	// Nor can the boundary between namespace and id move.
	if EntryReference("ab", "c") == EntryReference("a", "bc") {
		t.Fatal("the boundary between namespace and id does not count")
	}
	if r := EntryReference("demo", "ord-1"); r != EntryReference("demo", "ord-1") || len(r) != 34 {
		t.Fatalf("reference %q", r)
	}
}

var namePattern = regexp.MustCompile(`^camt054-[0-9]{8}T[0-9]{6}Z-[0-9]{1,14}\.xml$`)

func TestNamesAreUniquePerSeqAndValidConnectorNames(t *testing.T) {
	names := map[string]uint64{}
	msgIDs := map[string]bool{}
	for _, seq := range []uint64{0, 1, 2, 9, 10, 11, 99, 100, 12345, MaxSeq - 1, MaxSeq} {
		name, data, err := Notification(fundIBAN, "EUR", payments()[:1], now, seq)
		if err != nil {
			t.Fatalf("seq %d: %v", seq, err)
		}
		if other, dup := names[name]; dup {
			t.Fatalf("seq %d and %d share the name %s", other, seq, name)
		}
		names[name] = seq
		if !namePattern.MatchString(name) || len(name) > connector.MaxNameLen || !strings.HasSuffix(name, fmt.Sprintf("-%d.xml", seq)) {
			t.Errorf("name %q", name)
		}
		id := parse(t, data).MessageID
		if msgIDs[id] || len(id) > iso20022.MaxIDLen {
			t.Errorf("message id %q repeats or is too long", id)
		}
		msgIDs[id] = true
	}
	// Delivered into the connector's inbox, the file is offered and claimed as it is.
	dir := t.TempDir()
	f, err := connector.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	name, data, err := Notification(fundIBAN, "EUR", payments(), now, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inbox", name), data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := f.Claim(t.Context())
	if err != nil || c.Name != name || !bytes.Equal(c.Data, data) {
		t.Fatalf("the connector offers %q (%v), want %q", c.Name, err, name)
	}
	// Another second with the same seq is another name.
	other, _, err := Notification(fundIBAN, "EUR", payments(), now.Add(time.Second), 3)
	if err != nil || other == name {
		t.Fatalf("names %q and %q (%v)", name, other, err)
	}
}

// refused checks that Notification refuses with an error wrapping ErrInvalid whose
// message contains want.
func refused(t *testing.T, want string, currency string, ps []Payment, seq uint64) {
	t.Helper()
	name, data, err := Notification(fundIBAN, currency, ps, now, seq)
	if name != "" || data != nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Errorf("Notification = %q, %d bytes, %v; want an ErrInvalid about %q", name, len(data), err, want)
	}
}

func TestPaymentsInAnotherCurrencyThanTheAccountsAreRefused(t *testing.T) {
	ps := payments()
	ps[1].Currency = "USD"
	refused(t, `payments[1] (order "ord-7f3a9c2e" in "demo"): currency "USD" is not the account's "EUR"`, "EUR", ps, 1)
	refused(t, `currency "EUR" is not the account's "CHF"`, "CHF", payments(), 1)
}

func TestAnOrderIsPaidOnceInAFile(t *testing.T) {
	ps := payments()
	ps = append(ps, ps[0])
	ps[3].Amount = 1
	refused(t, "payments[3] (order \"5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21\" in \"demo\"): the same order as payments[0]", "EUR", ps, 1)
}

func TestWhatTheFileCannotCarryIsRefused(t *testing.T) {
	refused(t, "no payments", "EUR", nil, 1)
	refused(t, "seq 100000000000000 is above", "EUR", payments(), MaxSeq+1)
	for _, tt := range []struct {
		want   string
		change func(p *Payment)
	}{
		{"no order id", func(p *Payment) { p.OrderID = "" }},
		{"reference: " + rf.ErrInvalid.Error(), func(p *Payment) { p.Reference = "RF472026000123" }},
		{"reference: ", func(p *Payment) { p.Reference = "" }},
		{"no payer name or IBAN", func(p *Payment) { p.PayerName = "" }},
		{"no payer name or IBAN", func(p *Payment) { p.PayerIBAN = "" }},
		{"Entries[2].Transactions[1].DebtorIBAN", func(p *Payment) { p.PayerIBAN = "NL91ABNA0417164301" }},
		{"Entries[2].Transactions[1].DebtorName", func(p *Payment) { p.PayerName = strings.Repeat("n", 71) }},
		{"Entries[2].Amount", func(p *Payment) { p.Amount = 0 }},
		{"Entries[2].Amount", func(p *Payment) { p.Amount = 1 }}, // a hundredth of a cent
	} {
		ps := payments()
		tt.change(&ps[1])
		refused(t, tt.want, "EUR", ps, 1)
	}
	if _, _, err := Notification("DE89370400440532013001", "EUR", payments(), now, 1); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "AccountIBAN") {
		t.Errorf("a wrong fund IBAN: %v", err)
	}
	var e *iso20022.Error
	if _, _, err := Notification(fundIBAN, "EUR", payments(), time.Time{}, 1); !errors.As(err, &e) || e.Path != "CreatedAt" {
		t.Errorf("no time: %v", err)
	}
}

func TestTheEndToEndIdIsTheOrderIdWhenItFits(t *testing.T) {
	for id, want := range map[string]string{
		"ord-7f3a9c2e":                         "ord-7f3a9c2e",
		strings.Repeat("o", 35):                strings.Repeat("o", 35),
		"5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21": "5f0c3c7e2d9b4f439a550d3c1b7a9e21",
		strings.Repeat("o", 36):                "NOTPROVIDED",
		"{5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e}": "NOTPROVIDED", // 36 characters, no UUID
	} {
		if got := EndToEndID(id); got != want {
			t.Errorf("EndToEndID(%q) = %q, want %q", id, got, want)
		}
	}
}
