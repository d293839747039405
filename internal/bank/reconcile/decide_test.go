package reconcile

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
)

// IBANs of the examples of the SWIFT registry: the fund's, and four investors'.
const (
	fundIBAN  = "DE89370400440532013000"
	marieIBAN = "FR1420041010050500013M02606"
	janIBAN   = "NL91ABNA0417164300"
	lucaIBAN  = "IT60X0542811101000000123456"
	annaIBAN  = "AT611904300234573201"
)

func eur(cents int64) int64 { return cents * 100 } // cents to money units

func reference(t testing.TB, payload string) string {
	t.Helper()
	r, err := rf.New(payload)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// broken returns ref with its last digit changed: its check digits no longer match.
func broken(ref string) string {
	last := ref[len(ref)-1]
	return ref[:len(ref)-1] + string('0'+(last-'0'+1)%10)
}

// The waiting orders of the examples: each account's registered IBANs, the reference
// payload is the order's number.
func order(t testing.TB, id string, due int64, ibans ...string) Order {
	return Order{
		ID: id, Namespace: "tenant-a", Reference: reference(t, "2026"+strings.TrimPrefix(id, "o")),
		AmountDue: due, Currency: "EUR", PayerIBANs: ibans,
	}
}

func refOf(t testing.TB, id string) string { return reference(t, "2026"+strings.TrimPrefix(id, "o")) }

var entrySeq int

// credit is a booked credit entry of one transaction in EUR.
func credit(amount int64, payer, ref string) iso20022.Entry {
	return entry(iso20022.Credit, iso20022.Transaction{Amount: amount, Currency: "EUR", DebtorIBAN: payer, CreditorReference: ref})
}

func entry(cd iso20022.CreditDebit, txs ...iso20022.Transaction) iso20022.Entry {
	entrySeq++
	var amount int64
	for _, t := range txs {
		amount += t.Amount
	}
	currency := "EUR"
	if len(txs) > 0 {
		currency = txs[0].Currency
	}
	return iso20022.Entry{
		Reference: fmt.Sprintf("2026030200%03d", entrySeq), Amount: amount, Currency: currency,
		CreditDebit: cd, Status: iso20022.StatusBooked, Transactions: txs,
	}
}

// brief is what the rule tables check of an outcome.
type brief struct {
	Kind      Kind
	Order     string
	By        Rule
	Reason    Reason
	Received  int64
	Shortfall int64
	Excess    int64
}

func briefs(outcomes []Outcome) []brief {
	out := make([]brief, len(outcomes))
	for i, o := range outcomes {
		out[i] = brief{o.Kind, o.OrderID, o.MatchedBy, o.Reason, o.Received, o.Shortfall, o.Excess}
	}
	return out
}

type ruleCase struct {
	name    string
	orders  []Order
	payouts []Payout
	entries []iso20022.Entry
	applied map[string]bool
	want    []brief
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Decide(Input{Entries: c.entries, Orders: c.orders, Payouts: c.payouts, Applied: c.applied})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(briefs(got), c.want) {
				t.Errorf("\n got %+v\nwant %+v", briefs(got), c.want)
			}
		})
	}
}

func TestAPaymentQuotingItsOrdersReferenceMatchesIt(t *testing.T) {
	o1, o2 := order(t, "o1", eur(100000), marieIBAN), order(t, "o2", eur(100000), janIBAN)
	printForm, _ := rf.Format(refOf(t, "o1"))
	runRules(t, []ruleCase{
		{"in electronic form", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), marieIBAN, refOf(t, "o1"))}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}}},
		{"in print form and lower case", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), "", strings.ToLower(printForm))}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}}},
		{"whatever the payer's IBAN says", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), janIBAN, refOf(t, "o1"))}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}}},
		{"whatever the amount says", []Order{o1, order(t, "o3", eur(5000))}, nil,
			[]iso20022.Entry{credit(eur(5000), "", refOf(t, "o1"))}, nil,
			[]brief{{Kind: Underpaid, Order: "o1", By: ByReference, Received: eur(5000), Shortfall: eur(95000)}}},
	})
}

func TestAReferenceThatFailsItsCheckDigitsIsNeverUsed(t *testing.T) {
	o1, o2 := order(t, "o1", eur(100000)), order(t, "o2", eur(20000))
	bad := broken(refOf(t, "o1"))
	if rf.Valid(bad) == nil {
		t.Fatalf("%s is valid", bad)
	}
	runRules(t, []ruleCase{
		{"the amount decides instead, even against the order it nearly names", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(20000), "", bad)}, nil,
			[]brief{{Kind: Matched, Order: "o2", By: ByAmount, Received: eur(20000)}}},
		{"an amount of the order it nearly names matches by amount, not by reference", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), "", bad)}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByAmount, Received: eur(100000)}}},
		{"with nothing else to go by it is unmatched", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(99999), "", bad)}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonNoMatch}}},
		{"a reference that is no RF reference at all falls through the same way", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(20000), "INV-77812", "")}, nil,
			[]brief{{Kind: Matched, Order: "o2", By: ByAmount, Received: eur(20000)}}},
	})
	out, _ := Decide(Input{Orders: []Order{o1, o2}, Entries: []iso20022.Entry{credit(eur(20000), "", bad)}})
	if out[0].Reference != bad || out[0].ReferenceValid {
		t.Errorf("Reference %q, valid %v: the outcome keeps the reference and says it failed", out[0].Reference, out[0].ReferenceValid)
	}
}

func TestAValidReferenceOfNoWaitingOrderGoesToSuspense(t *testing.T) {
	o2 := order(t, "o2", eur(100000), marieIBAN)
	runRules(t, []ruleCase{
		{"never to another order of the same amount and payer", []Order{o2}, nil,
			[]iso20022.Entry{credit(eur(100000), marieIBAN, refOf(t, "o1"))}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonNoWaitingOrder}}},
	})
}

func TestWithoutAReferenceAUniqueAmountAndCurrencyMatches(t *testing.T) {
	orders := []Order{order(t, "o1", eur(100000), marieIBAN), order(t, "o2", eur(50000), janIBAN)}
	runRules(t, []ruleCase{
		{"from the account's registered IBAN", orders, nil,
			[]iso20022.Entry{credit(eur(100000), marieIBAN, "")}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByAmountAndPayer, Received: eur(100000)}}},
		{"from an IBAN no account registered", orders, nil,
			[]iso20022.Entry{credit(eur(100000), lucaIBAN, "")}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByAmount, Received: eur(100000)}}},
		{"with no payer given", orders, nil,
			[]iso20022.Entry{credit(eur(100000), "", "")}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByAmount, Received: eur(100000)}}},
		{"with the payer's IBAN in print form", orders, nil,
			[]iso20022.Entry{credit(eur(50000), "nl91 abna 0417 1643 00", "")}, nil,
			[]brief{{Kind: Matched, Order: "o2", By: ByAmountAndPayer, Received: eur(50000)}}},
	})
}

func TestAnAmbiguousAmountIsUnmatchedUnlessThePayersIBANSinglesOneOut(t *testing.T) {
	o1, o2 := order(t, "o1", eur(100000), marieIBAN), order(t, "o2", eur(100000), janIBAN)
	runRules(t, []ruleCase{
		{"no payer", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), "", "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonAmbiguousAmount}}},
		{"a payer neither account registered", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), lucaIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonAmbiguousAmount}}},
		{"a payer one account registered", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(100000), janIBAN, "")}, nil,
			[]brief{{Kind: Matched, Order: "o2", By: ByAmountAndPayer, Received: eur(100000)}}},
		{"a payer both accounts registered", []Order{o1, order(t, "o2", eur(100000), janIBAN, marieIBAN)}, nil,
			[]iso20022.Entry{credit(eur(100000), marieIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonAmbiguousAmount}}},
		{"two orders of one account", []Order{o1, order(t, "o2", eur(100000), marieIBAN)}, nil,
			[]iso20022.Entry{credit(eur(100000), marieIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonAmbiguousAmount}}},
	})
}

func TestAnAmountMatchContradictedByThePayersIBANIsUnmatched(t *testing.T) {
	// The amount is o1's, but the money comes from the account of o2's investor.
	orders := []Order{order(t, "o1", eur(100000), marieIBAN), order(t, "o2", eur(75000), janIBAN)}
	runRules(t, []ruleCase{
		{"the payer has another waiting order", orders, nil,
			[]iso20022.Entry{credit(eur(100000), janIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonPayerConflict}}},
	})
}

func TestThePayersIBANAloneNamesTheAccountsOnlyWaitingOrder(t *testing.T) {
	o1, o2 := order(t, "o1", eur(100000), marieIBAN), order(t, "o2", eur(50000), janIBAN)
	runRules(t, []ruleCase{
		{"less than due", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(90000), marieIBAN, "")}, nil,
			[]brief{{Kind: Underpaid, Order: "o1", By: ByPayer, Received: eur(90000), Shortfall: eur(10000)}}},
		{"more than due", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(60000), janIBAN, "")}, nil,
			[]brief{{Kind: Overpaid, Order: "o2", By: ByPayer, Received: eur(60000), Excess: eur(10000)}}},
		{"an account with two waiting orders", []Order{o1, order(t, "o3", eur(20000), marieIBAN)}, nil,
			[]iso20022.Entry{credit(eur(90000), marieIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonAmbiguousPayer}}},
		{"a payer no account registered", []Order{o1, o2}, nil,
			[]iso20022.Entry{credit(eur(90000), lucaIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonNoMatch}}},
	})
}

func TestLessThanDueIsUnderpaidWithTheShortfallAndTheCutOff(t *testing.T) {
	o := order(t, "o1", eur(250000))
	o.CutOff = time.Date(2026, 3, 4, 14, 0, 0, 0, time.UTC)
	out, err := Decide(Input{Orders: []Order{o}, Entries: []iso20022.Entry{credit(eur(249999), "", o.Reference)}})
	if err != nil {
		t.Fatal(err)
	}
	got := out[0]
	if got.Kind != Underpaid || got.Shortfall != 100 || got.Received != eur(249999) || got.Due != eur(250000) || !got.CutOff.Equal(o.CutOff) {
		t.Fatalf("%+v", got)
	}
}

func TestMoreThanDueIsOverpaidWithTheExactExcess(t *testing.T) {
	o := order(t, "o1", 12_345_600) // 1,234.56 EUR
	runRules(t, []ruleCase{
		{"one cent too much", []Order{o}, nil,
			[]iso20022.Entry{credit(12_345_700, "", o.Reference)}, nil,
			[]brief{{Kind: Overpaid, Order: "o1", By: ByReference, Received: 12_345_700, Excess: 100}}},
		{"twice the amount", []Order{o}, nil,
			[]iso20022.Entry{credit(24_691_200, "", o.Reference)}, nil,
			[]brief{{Kind: Overpaid, Order: "o1", By: ByReference, Received: 24_691_200, Excess: 12_345_600}}},
	})
}

func TestPartialPaymentsAddUp(t *testing.T) {
	o1 := order(t, "o1", eur(100000), marieIBAN)
	earlier := o1
	earlier.Received = eur(40000)
	ref := o1.Reference
	runRules(t, []ruleCase{
		{"two in one run", []Order{o1}, nil,
			[]iso20022.Entry{credit(eur(40000), "", ref), credit(eur(60000), "", ref)}, nil,
			[]brief{
				{Kind: Underpaid, Order: "o1", By: ByReference, Received: eur(40000), Shortfall: eur(60000)},
				{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)},
			}},
		{"the second in a later run", []Order{earlier}, nil,
			[]iso20022.Entry{credit(eur(60000), "", ref)}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}}},
		{"the second without a reference matches the outstanding amount", []Order{earlier, order(t, "o2", eur(100000))}, nil,
			[]iso20022.Entry{credit(eur(60000), "", "")}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByAmount, Received: eur(100000)}}},
		{"three that end above the amount due", []Order{o1}, nil,
			[]iso20022.Entry{credit(eur(40000), "", ref), credit(eur(40000), marieIBAN, ""), credit(eur(40000), "", ref)}, nil,
			[]brief{
				{Kind: Underpaid, Order: "o1", By: ByReference, Received: eur(40000), Shortfall: eur(60000)},
				{Kind: Underpaid, Order: "o1", By: ByPayer, Received: eur(80000), Shortfall: eur(20000)},
				{Kind: Overpaid, Order: "o1", By: ByReference, Received: eur(120000), Excess: eur(20000)},
			}},
	})
	out, _ := Decide(Input{Orders: []Order{earlier}, Entries: []iso20022.Entry{credit(eur(10000), "", ref)}})
	if out[0].ReceivedBefore != eur(40000) || out[0].Received != eur(50000) {
		t.Errorf("received %d then %d, want 40,000.00 then 50,000.00 EUR in units", out[0].ReceivedBefore, out[0].Received)
	}
}

func TestAPaymentForAnOrderAlreadyPaidInFullIsUnmatched(t *testing.T) {
	o1 := order(t, "o1", eur(100000), marieIBAN)
	again := []brief{{Kind: Unmatched, Reason: ReasonNoWaitingOrder}}
	runRules(t, []ruleCase{
		{"in the same run", []Order{o1}, nil,
			[]iso20022.Entry{credit(eur(100000), "", o1.Reference), credit(eur(100000), "", o1.Reference)}, nil,
			append([]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}}, again...)},
		{"in a later run, where the order no longer waits", nil, nil,
			[]iso20022.Entry{credit(eur(100000), "", o1.Reference)}, nil, again},
		{"without a reference, by amount", []Order{o1}, nil,
			[]iso20022.Entry{credit(eur(100000), "", o1.Reference), credit(eur(100000), marieIBAN, "")}, nil,
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)}, {Kind: Unmatched, Reason: ReasonNoMatch}}},
	})
}

func TestACreditInAnotherCurrencyIsWrongCurrencyAndNeverConverted(t *testing.T) {
	o1 := order(t, "o1", eur(100000), marieIBAN)
	usd := func(amount int64, payer, ref string) iso20022.Entry {
		return entry(iso20022.Credit, iso20022.Transaction{Amount: amount, Currency: "USD", DebtorIBAN: payer, CreditorReference: ref})
	}
	runRules(t, []ruleCase{
		{"named by its reference", []Order{o1}, nil,
			[]iso20022.Entry{usd(eur(100000), "", o1.Reference), credit(eur(100000), "", o1.Reference)}, nil,
			[]brief{
				{Kind: WrongCurrency, Order: "o1", By: ByReference},
				{Kind: Matched, Order: "o1", By: ByReference, Received: eur(100000)},
			}},
		{"named by its payer", []Order{o1}, nil,
			[]iso20022.Entry{usd(eur(110000), marieIBAN, "")}, nil,
			[]brief{{Kind: WrongCurrency, Order: "o1", By: ByPayer}}},
		{"never matched by the number alone", []Order{o1}, nil,
			[]iso20022.Entry{usd(eur(100000), lucaIBAN, "")}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonNoMatch}}},
	})
}

func TestAnEntryWithoutDetailsIsOneTransactionOfTheEntrysAmount(t *testing.T) {
	o1 := order(t, "o1", eur(4590))
	e := entry(iso20022.Credit)
	e.Amount = eur(4590)
	out, err := Decide(Input{Orders: []Order{o1}, Entries: []iso20022.Entry{e}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Kind != Matched || out[0].MatchedBy != ByAmount || out[0].Amount != eur(4590) || out[0].Transaction != 0 {
		t.Fatalf("%+v", out)
	}
}

func TestEveryTransactionOfABatchHasItsOwnOutcome(t *testing.T) {
	orders := []Order{order(t, "o1", eur(1000)), order(t, "o2", eur(2000)), order(t, "o3", eur(3000))}
	e := entry(iso20022.Credit,
		iso20022.Transaction{Amount: eur(1000), Currency: "EUR", CreditorReference: orders[0].Reference},
		iso20022.Transaction{Amount: eur(2500), Currency: "EUR", CreditorReference: orders[1].Reference},
		iso20022.Transaction{Amount: eur(7), Currency: "EUR"},
	)
	out, err := Decide(Input{Orders: orders, Entries: []iso20022.Entry{e}})
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{Kind: Matched, Order: "o1", By: ByReference, Received: eur(1000)},
		{Kind: Overpaid, Order: "o2", By: ByReference, Received: eur(2500), Excess: eur(500)},
		{Kind: Unmatched, Reason: ReasonNoMatch},
	}
	if !reflect.DeepEqual(briefs(out), want) {
		t.Fatalf("\n got %+v\nwant %+v", briefs(out), want)
	}
	for j, o := range out {
		if o.Entry != 0 || o.Transaction != j || o.EntryReference != e.Reference {
			t.Errorf("outcome %d points at entry %d transaction %d (%s)", j, o.Entry, o.Transaction, o.EntryReference)
		}
	}
}

func TestABatchWhoseTransactionsDoNotAddUpIsUnmatched(t *testing.T) {
	orders := []Order{order(t, "o1", eur(1000)), order(t, "o2", eur(2000))}
	e := entry(iso20022.Credit,
		iso20022.Transaction{Amount: eur(1000), Currency: "EUR", CreditorReference: orders[0].Reference},
		iso20022.Transaction{Amount: eur(2000), Currency: "EUR", CreditorReference: orders[1].Reference},
	)
	e.Amount = eur(2000) // the bank booked less than the parts claim
	mismatch := brief{Kind: Unmatched, Reason: ReasonEntryTotalMismatch}
	runRules(t, []ruleCase{{"none of its parts is credited", orders, nil, []iso20022.Entry{e}, nil, []brief{mismatch, mismatch}}})
}

func TestAZeroAmountIsUnmatched(t *testing.T) {
	o1 := order(t, "o1", eur(1000))
	runRules(t, []ruleCase{{"even with the order's reference", []Order{o1}, nil,
		[]iso20022.Entry{credit(0, "", o1.Reference)}, nil, []brief{{Kind: Unmatched, Reason: ReasonZeroAmount}}}})
}

func TestAReturnedPayoutIsIdentifiedByItsEndToEndID(t *testing.T) {
	payout := Payout{OrderID: "ord-7f3a9c2e", Namespace: "tenant-b", Amount: eur(32000), Currency: "EUR"}
	ret := func(tx iso20022.Transaction, code string, reversal bool) iso20022.Entry {
		e := entry(iso20022.Credit, tx)
		e.BankTransactionCode, e.Reversal = code, reversal
		return e
	}
	returned := brief{Kind: Returned, Order: "ord-7f3a9c2e", By: ByEndToEndID}
	runRules(t, []ruleCase{
		{"with a return reason", nil, []Payout{payout},
			[]iso20022.Entry{ret(iso20022.Transaction{EndToEndID: "ord-7f3a9c2e", Amount: eur(32000), Currency: "EUR", ReturnReason: "AC04"}, "PMNT/ICDT/RRTN", false)}, nil,
			[]brief{returned}},
		{"by its bank transaction code alone", nil, []Payout{payout},
			[]iso20022.Entry{ret(iso20022.Transaction{EndToEndID: "ord-7f3a9c2e", Amount: eur(32000), Currency: "EUR"}, "PMNT/ICDT/RRTN", false)}, nil,
			[]brief{returned}},
		{"as a reversal of its debit", nil, []Payout{payout},
			[]iso20022.Entry{ret(iso20022.Transaction{EndToEndID: "ord-7f3a9c2e", Amount: eur(32000), Currency: "EUR"}, "", true)}, nil,
			[]brief{returned}},
		{"less what the banks kept", nil, []Payout{payout},
			[]iso20022.Entry{ret(iso20022.Transaction{EndToEndID: "ord-7f3a9c2e", Amount: eur(31500), Currency: "EUR", ReturnReason: "AC04"}, "", false)}, nil,
			[]brief{{Kind: Returned, Order: "ord-7f3a9c2e", By: ByEndToEndID, Shortfall: eur(500)}}},
	})
	out, _ := Decide(Input{Payouts: []Payout{payout}, Entries: []iso20022.Entry{
		ret(iso20022.Transaction{EndToEndID: "ord-7f3a9c2e", Amount: eur(32000), Currency: "EUR", ReturnReason: "AC04"}, "", false),
	}})
	if out[0].ReturnReason != "AC04" || out[0].Namespace != "tenant-b" || out[0].Due != eur(32000) {
		t.Errorf("%+v: the return carries its reason, the payout's namespace and amount", out[0])
	}
}

func TestAReturnIsNeverTakenForASubscription(t *testing.T) {
	o1 := order(t, "o1", eur(32000), lucaIBAN)
	tx := iso20022.Transaction{EndToEndID: "ord-unknown", Amount: eur(32000), Currency: "EUR", DebtorIBAN: lucaIBAN, CreditorReference: o1.Reference, ReturnReason: "AC04"}
	runRules(t, []ruleCase{{"a return naming no payout is unmatched, whatever its reference", []Order{o1}, nil,
		[]iso20022.Entry{entry(iso20022.Credit, tx)}, nil, []brief{{Kind: Unmatched, Reason: ReasonUnknownReturn}}}})
}

func TestAReturnOfMoreThanThePayoutOrASecondReturnIsUnmatched(t *testing.T) {
	payout := Payout{OrderID: "ord-1", Amount: eur(1000), Currency: "EUR"}
	tx := func(amount int64, currency string) iso20022.Transaction {
		return iso20022.Transaction{EndToEndID: "ord-1", Amount: amount, Currency: currency, ReturnReason: "AC04"}
	}
	named := func(k Kind, r Reason) brief { return brief{Kind: k, Order: "ord-1", By: ByEndToEndID, Reason: r} }
	runRules(t, []ruleCase{
		{"more than the payout", nil, []Payout{payout},
			[]iso20022.Entry{entry(iso20022.Credit, tx(eur(1001), "EUR"))}, nil,
			[]brief{named(Unmatched, ReasonPayoutAmountMismatch)}},
		{"a second return", nil, []Payout{payout},
			[]iso20022.Entry{entry(iso20022.Credit, tx(eur(1000), "EUR")), entry(iso20022.Credit, tx(eur(1000), "EUR"))}, nil,
			[]brief{named(Returned, ""), named(Unmatched, ReasonPayoutAlreadyReturned)}},
		{"in another currency", nil, []Payout{payout},
			[]iso20022.Entry{entry(iso20022.Credit, tx(eur(1000), "CHF"))}, nil,
			[]brief{named(WrongCurrency, "")}},
	})
}

func TestTheDebitOfAPayoutIsPaidOut(t *testing.T) {
	payouts := []Payout{
		{OrderID: "ord-1", Amount: eur(100000), Currency: "EUR"},
		{OrderID: "ord-2", Amount: eur(23456), Currency: "EUR"},
		{OrderID: "ord-3", Amount: eur(500), Currency: "EUR", Debited: true},
	}
	debit := func(id string, amount int64, currency string) iso20022.Transaction {
		return iso20022.Transaction{EndToEndID: id, Amount: amount, Currency: currency}
	}
	named := func(id string, k Kind, r Reason) brief { return brief{Kind: k, Order: id, By: ByEndToEndID, Reason: r} }
	reversal := entry(iso20022.Debit, debit("ord-1", eur(100000), "EUR"))
	reversal.Reversal = true
	runRules(t, []ruleCase{
		{"one transfer of a batch booking each", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("ord-1", eur(100000), "EUR"), debit("ord-2", eur(23456), "EUR"))}, nil,
			[]brief{named("ord-1", PaidOut, ""), named("ord-2", PaidOut, "")}},
		{"the debit of a transfer that pays no order is paid out, named by its end-to-end id", nil,
			append(slices.Clone(payouts), Payout{EndToEndID: "FSD-refund-1", Amount: eur(700), Currency: "EUR"}),
			[]iso20022.Entry{entry(iso20022.Debit, debit("FSD-refund-1", eur(700), "EUR"))}, nil,
			[]brief{{Kind: PaidOut, By: ByEndToEndID}}},
		{"a debit naming no payout is unmatched", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("NOTPROVIDED", eur(100000), "EUR"))}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonNotAPayout}}},
		{"a second debit of one payout is unmatched", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("ord-1", eur(100000), "EUR")), entry(iso20022.Debit, debit("ord-1", eur(100000), "EUR"))}, nil,
			[]brief{named("ord-1", PaidOut, ""), named("ord-1", Unmatched, ReasonPayoutAlreadyDebited)}},
		{"a debit of a payout debited in an earlier run is unmatched", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("ord-3", eur(500), "EUR"))}, nil,
			[]brief{named("ord-3", Unmatched, ReasonPayoutAlreadyDebited)}},
		{"a debit of another amount is unmatched", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("ord-2", eur(23455), "EUR"))}, nil,
			[]brief{named("ord-2", Unmatched, ReasonPayoutAmountMismatch)}},
		{"a debit in another currency", nil, payouts,
			[]iso20022.Entry{entry(iso20022.Debit, debit("ord-2", eur(23456), "USD"))}, nil,
			[]brief{named("ord-2", WrongCurrency, "")}},
		{"a debit that reverses a credit is unmatched", nil, payouts,
			[]iso20022.Entry{reversal}, nil,
			[]brief{{Kind: Unmatched, Reason: ReasonDebitReversal}}},
		{"a payout whose end-to-end id is not its order id is named by the end-to-end id", nil,
			[]Payout{{OrderID: "5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21", EndToEndID: "5f0c3c7e2d9b4f439a550d3c1b7a9e21", Amount: eur(7), Currency: "EUR"}},
			[]iso20022.Entry{entry(iso20022.Debit, debit("5f0c3c7e2d9b4f439a550d3c1b7a9e21", eur(7), "EUR")), entry(iso20022.Debit, debit("5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21", eur(7), "EUR"))}, nil,
			[]brief{named("5f0c3c7e-2d9b-4f43-9a55-0d3c1b7a9e21", PaidOut, ""), {Kind: Unmatched, Reason: ReasonNotAPayout}}},
	})
}

func TestAnEntryAlreadyAppliedIsADuplicate(t *testing.T) {
	o1 := order(t, "o1", eur(1000))
	e := credit(eur(1000), "", o1.Reference)
	batch := entry(iso20022.Credit, iso20022.Transaction{Amount: eur(1), Currency: "EUR"}, iso20022.Transaction{Amount: eur(2), Currency: "EUR"})
	dup := brief{Kind: Duplicate}
	runRules(t, []ruleCase{
		{"by an earlier run", []Order{o1}, nil, []iso20022.Entry{e}, map[string]bool{e.Reference: true}, []brief{dup}},
		{"earlier in the same input", []Order{o1}, nil, []iso20022.Entry{e, e},
			nil, []brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(1000)}, dup}},
		{"every transaction of it", []Order{o1}, nil, []iso20022.Entry{batch}, map[string]bool{batch.Reference: true}, []brief{dup, dup}},
		{"not when Applied says false", []Order{o1}, nil, []iso20022.Entry{e}, map[string]bool{e.Reference: false},
			[]brief{{Kind: Matched, Order: "o1", By: ByReference, Received: eur(1000)}}},
	})
}

func TestEntriesThatAreNotBookedAreIgnored(t *testing.T) {
	o1 := order(t, "o1", eur(1000))
	var entries []iso20022.Entry
	for _, s := range []iso20022.EntryStatus{iso20022.StatusPending, iso20022.StatusInfo, iso20022.StatusFuture, "Prtry:HOLD"} {
		e := credit(eur(1000), "", o1.Reference)
		e.Status, e.Reference = s, "SAME-BOOKING"
		entries = append(entries, e)
	}
	out, err := Decide(Input{Orders: []Order{o1}, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Kind != Ignored {
			t.Errorf("%+v, want Ignored", o)
		}
	}
	if refs := AppliedReferences(out); len(refs) != 0 {
		t.Fatalf("AppliedReferences = %v: an ignored entry is not applied", refs)
	}
	// The same booking comes back booked, and is decided.
	booked := entries[0]
	booked.Status = iso20022.StatusBooked
	out, err = Decide(Input{Orders: []Order{o1}, Entries: []iso20022.Entry{booked}, Applied: map[string]bool{}})
	if err != nil || out[0].Kind != Matched {
		t.Fatalf("%+v, %v", out, err)
	}
}

func TestInconsistentExpectationsAreRefusedWhole(t *testing.T) {
	good := order(t, "o1", eur(1000), marieIBAN)
	with := func(f func(*Order)) Order { o := good; f(&o); return o }
	okEntry := credit(eur(1000), "", good.Reference)
	for _, c := range []struct {
		name    string
		in      Input
		message string
	}{
		{"an order without an id", Input{Orders: []Order{with(func(o *Order) { o.ID = "" })}}, "order 1 has no id"},
		{"an order listed twice", Input{Orders: []Order{good, good}}, `order "o1" is listed twice`},
		{"two orders with one reference", Input{Orders: []Order{good, with(func(o *Order) { o.ID = "o2" })}}, "the same reference"},
		{"a reference that fails its check", Input{Orders: []Order{with(func(o *Order) { o.Reference = broken(o.Reference) })}}, "check digits"},
		{"an amount due of zero", Input{Orders: []Order{with(func(o *Order) { o.AmountDue = 0 })}}, "not positive"},
		{"a currency in lower case", Input{Orders: []Order{with(func(o *Order) { o.Currency = "eur" })}}, "currency"},
		{"received all that is due", Input{Orders: []Order{with(func(o *Order) { o.Received = o.AmountDue })}}, "paid in full"},
		{"received a negative amount", Input{Orders: []Order{with(func(o *Order) { o.Received = -1 })}}, "received -1"},
		{"an invalid registered IBAN", Input{Orders: []Order{with(func(o *Order) { o.PayerIBANs = []string{"DE89370400440532013001"} })}}, "*3001: must be a valid IBAN"},
		{"a payout without an order id or an end-to-end id", Input{Payouts: []Payout{{Amount: 1, Currency: "EUR"}}}, "payout 1 has neither an order id nor an end-to-end id"},
		{"a payout of nothing", Input{Payouts: []Payout{{OrderID: "p", Currency: "EUR"}}}, "not positive"},
		{"a payout listed twice", Input{Payouts: []Payout{{OrderID: "p", Amount: 1, Currency: "EUR"}, {OrderID: "p", Amount: 1, Currency: "EUR"}}}, "listed twice"},
		{"a booked entry without a reference", Input{Orders: []Order{good}, Entries: []iso20022.Entry{func() iso20022.Entry { e := okEntry; e.Reference = ""; return e }()}}, "no reference"},
		{"a booked entry without a direction", Input{Entries: []iso20022.Entry{func() iso20022.Entry { e := okEntry; e.CreditDebit = ""; return e }()}}, "neither CRDT nor DBIT"},
		{"a negative transaction", Input{Entries: []iso20022.Entry{func() iso20022.Entry {
			e := credit(-1, "", "")
			e.Amount = 1
			return e
		}()}}, "negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Decide(c.in)
			if !errors.Is(err, ErrInvalidInput) || out != nil {
				t.Fatalf("Decide = %v, %v; want ErrInvalidInput and nothing", out, err)
			}
			if !strings.Contains(err.Error(), c.message) {
				t.Errorf("error %q does not say %q", err, c.message)
			}
			if strings.Contains(err.Error(), "DE89370400440532013001") {
				t.Errorf("error %q prints a whole IBAN", err)
			}
		})
	}
}

func TestMaskIBANKeepsOnlyTheLastFourCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"DE89370400440532013000": "******************3000",
		"NL91":                   "****",
		"":                       "",
	} {
		if got := maskIBAN(in); got != want {
			t.Errorf("maskIBAN(%q) = %q, want %q", in, got, want)
		}
	}
}
