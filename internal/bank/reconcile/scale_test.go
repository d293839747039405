package reconcile

import (
	"fmt"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// germanIBAN makes the valid German IBAN of account number n.
func germanIBAN(n int) string {
	bban := fmt.Sprintf("37040044%010d", n)
	return fmt.Sprintf("DE%02d%s", 98-validation.Mod97(bban, "DE00"), bban)
}

// aDayOfSubscriptions is n waiting BUYs of n investors, each with an account IBAN of its
// own and an amount shared with a hundred others, and the n credits that pay them, in
// reverse order: a third quote the reference, a third quote none, a third quote one
// whose check digits fail; the last two thirds are told apart by the payer's IBAN.
func aDayOfSubscriptions(t testing.TB, n int) Input {
	in := Input{Orders: make([]Order, n), Entries: make([]iso20022.Entry, n), Applied: map[string]bool{}}
	for i := range n {
		o := Order{
			ID: fmt.Sprintf("o%08d", i), Namespace: "tenant", Reference: reference(t, fmt.Sprintf("2026%08d", i)),
			AmountDue: eur(int64(10000 + i%(n/100+1))), Currency: "EUR", PayerIBANs: []string{germanIBAN(i)},
		}
		in.Orders[i] = o
		tx := iso20022.Transaction{Amount: o.AmountDue, Currency: "EUR", DebtorIBAN: o.PayerIBANs[0]}
		switch i % 3 {
		case 0:
			tx.CreditorReference = o.Reference
		case 2:
			tx.CreditorReference = broken(o.Reference)
		}
		in.Entries[n-1-i] = iso20022.Entry{
			Reference: fmt.Sprintf("20260302%08d", i), Amount: tx.Amount, Currency: "EUR",
			CreditDebit: iso20022.Credit, Status: iso20022.StatusBooked, Transactions: []iso20022.Transaction{tx},
		}
	}
	return in
}

func TestTenThousandEntriesMatchTenThousandWaitingOrders(t *testing.T) {
	in := aDayOfSubscriptions(t, 10_000)
	out, err := Decide(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 10_000 {
		t.Fatalf("%d outcomes", len(out))
	}
	matched := map[string]bool{}
	for _, o := range out {
		if o.Kind != Matched || matched[o.OrderID] {
			t.Fatalf("%+v", o)
		}
		matched[o.OrderID] = true
		want := fmt.Sprintf("o%08d", 10_000-1-o.Entry)
		if o.OrderID != want {
			t.Fatalf("entry %d paid %s, want %s", o.Entry, o.OrderID, want)
		}
	}
}

// BenchmarkDecide10000 decides 10,000 credits against 10,000 waiting orders.
func BenchmarkDecide10000(b *testing.B) {
	in := aDayOfSubscriptions(b, 10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decide(in); err != nil {
			b.Fatal(err)
		}
	}
}
