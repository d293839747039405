package iso20022

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// addFixtures seeds a fuzz test with every testdata file whose name starts with one of
// the prefixes.
func addFixtures(f *testing.F, prefixes ...string) {
	f.Helper()
	names, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range names {
		for _, p := range prefixes {
			if strings.HasPrefix(n.Name(), p) && strings.HasSuffix(n.Name(), ".xml") {
				b, err := os.ReadFile(filepath.Join("testdata", n.Name()))
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
		}
	}
}

// checkRefusal checks the contract of a refusal: an *Error of one of the kinds, with a
// short valid UTF-8 message.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	kinds := []error{ErrMalformed, ErrUnknownMessage, ErrMissing, ErrDuplicate, ErrAmount, ErrCurrency, ErrInvalid, ErrTotals}
	if !isOneOf(err, kinds) {
		t.Fatalf("error %v is of no known kind", err)
	}
	if msg := err.Error(); !utf8.ValidString(msg) || len(msg) > 600 {
		t.Fatalf("message %q", msg)
	}
}

func isOneOf(err error, kinds []error) bool {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}

// wholeCents checks a parsed amount and its currency.
func wholeCents(t *testing.T, what string, units int64, ccy string) {
	t.Helper()
	if units < 0 || units%unitsPerCent != 0 || validCurrency(ccy) != nil {
		t.Fatalf("%s: amount %d %q", what, units, ccy)
	}
}

func FuzzParseStatements(f *testing.F) {
	addFixtures(f, "camt", "bad_", "duplicate_")
	f.Fuzz(func(t *testing.T, data []byte) {
		statements, err := ParseStatements(data)
		if err != nil {
			if statements != nil {
				t.Fatal("a refused file returned statements")
			}
			checkRefusal(t, err)
			return
		}
		if len(statements) == 0 {
			t.Fatal("a file without statements was accepted")
		}
		for _, s := range statements {
			if s.Kind != KindNotification && s.Kind != KindStatement || s.MessageID == "" || s.CreatedAt.IsZero() ||
				s.CreatedAt.Location() != time.UTC || validation.ValidateIBAN(s.AccountIBAN) != nil {
				t.Fatalf("statement %+v", s)
			}
			for i, e := range s.Entries {
				wholeCents(t, "entry", e.Amount, e.Currency)
				if e.CreditDebit != Credit && e.CreditDebit != Debit || e.Status == "" || e.Reference == "" {
					t.Fatalf("entry %d: %+v", i+1, e)
				}
				if e.Booked() != (e.Status == StatusBooked) {
					t.Fatalf("entry %d: Booked %v with status %q", i+1, e.Booked(), e.Status)
				}
				for _, tx := range e.Transactions {
					wholeCents(t, "transaction", tx.Amount, tx.Currency)
					if len(e.Transactions) == 1 && tx.Amount == 0 && e.Amount != 0 && tx.Currency == "" {
						t.Fatalf("the only transaction lost the entry's amount: %+v", e)
					}
				}
			}
		}
		// Reading is deterministic.
		again, err := ParseStatements(data)
		if err != nil || !reflect.DeepEqual(again, statements) {
			t.Fatalf("a second parse differs: %v", err)
		}
	})
}

func FuzzParsePain001(f *testing.F) {
	addFixtures(f, "pain001_")
	f.Fuzz(func(t *testing.T, data []byte) {
		batches, err := ParsePain001(data)
		if err != nil {
			if batches != nil {
				t.Fatal("a refused file returned batches")
			}
			checkRefusal(t, err)
			return
		}
		for i := range batches {
			b := &batches[i]
			// What is read is what could be written, and it reads back the same.
			if err := b.Validate(); err != nil {
				t.Fatalf("batch %d was read but is not valid: %v", i+1, err)
			}
			out, err := WritePain001(b)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ParsePain001(out)
			if err != nil {
				t.Fatalf("the rewritten batch is refused: %v\n%s", err, out)
			}
			want := *b
			want.CreatedAt = b.CreatedAt.Truncate(time.Second)
			if len(back) != 1 || !reflect.DeepEqual(back[0], want) {
				t.Fatalf("rewritten:\n got %+v\nwant %+v", back, want)
			}
			var sum int64
			for _, tr := range b.Transfers {
				if sum, err = money.Add(sum, tr.Amount); err != nil {
					t.Fatal(err)
				}
			}
			ctrl, _ := formatAmount(sum)
			if !strings.Contains(string(out), "<CtrlSum>"+ctrl+"</CtrlSum>") {
				t.Fatalf("CtrlSum is not %s", ctrl)
			}
		}
	})
}

func FuzzParsePain002(f *testing.F) {
	addFixtures(f, "pain002")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParsePain002(data)
		if err != nil {
			if r != nil {
				t.Fatal("a refused file returned a report")
			}
			checkRefusal(t, err)
			return
		}
		if r.MessageID == "" || r.OriginalMessageID == "" {
			t.Fatalf("report %+v", r)
		}
		for _, tx := range r.Transactions() {
			if tx.OriginalEndToEndID == "" || !validCode(tx.Status) {
				t.Fatalf("transaction %+v", tx)
			}
			// A Verification of Payee result is one of the four, a name comes only with a
			// close match, and a result is never also a reason.
			if tx.VoP != "" && !isVoP(tx.VoP) || tx.VoPName != "" && tx.VoP != VoPCloseMatch ||
				strings.TrimSpace(tx.VoPName) != tx.VoPName || noVoPReason(tx.Reasons) != nil {
				t.Fatalf("transaction %+v", tx)
			}
		}
		out, err := WritePain002(r)
		if err != nil {
			return // the writer holds reports to the schema's lengths, which the parser does not check
		}
		back, err := ParsePain002(out)
		if err != nil {
			t.Fatalf("the rewritten report is refused: %v\n%s", err, out)
		}
		want := *r
		want.CreatedAt = r.CreatedAt.Truncate(time.Second)
		// The writer cuts a long account holder's name to fit AddtlInf.
		want.Payments = append([]PaymentStatus(nil), r.Payments...)
		for i := range want.Payments {
			p := &want.Payments[i]
			p.Transactions = append([]TransactionStatus(nil), p.Transactions...)
			for j := range p.Transactions {
				p.Transactions[j].VoPName = VoPNameAsWritten(p.Transactions[j].VoPName)
			}
		}
		if !reflect.DeepEqual(back, &want) {
			t.Fatalf("rewritten:\n got %+v\nwant %+v", back, &want)
		}
	})
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"12.34", "12.345", "-1", "+.5", "7.", "922337203685477.58", "922337203685477.59", "0.000", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		units, err := parseAmount(s)
		if err != nil {
			if !errors.Is(err, ErrAmount) && !errors.Is(err, ErrMissing) {
				t.Fatalf("parseAmount(%q): %v", s, err)
			}
			return
		}
		out, err := formatAmount(units)
		if err != nil {
			t.Fatalf("parseAmount(%q) = %d, which formatAmount refuses: %v", s, units, err)
		}
		if back, err := parseAmount(out); err != nil || back != units {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, units, out, back, err)
		}
	})
}
