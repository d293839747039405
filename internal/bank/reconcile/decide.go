package reconcile

import (
	"strings"

	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Decide returns one Outcome per transaction of in.Entries, in input order, by the
// rules of the package documentation. It returns an error wrapping ErrInvalidInput,
// and no outcomes, when the input is inconsistent.
func Decide(in Input) ([]Outcome, error) {
	b, err := newBook(in)
	if err != nil {
		return nil, err
	}
	n := 0
	for i := range in.Entries {
		e := &in.Entries[i]
		if e.Booked() {
			if err := validateEntry(i, e); err != nil {
				return nil, err
			}
		}
		n += max(1, len(e.Transactions))
	}
	out := make([]Outcome, 0, n)
	seen := make(map[string]bool, len(in.Entries))
	for i := range in.Entries {
		e := &in.Entries[i]
		txs := e.Transactions
		if len(txs) == 0 {
			txs = []iso20022.Transaction{{Amount: e.Amount, Currency: e.Currency}}
		}
		switch {
		case !e.Booked():
			out = appendAll(out, i, e, txs, Outcome{Kind: Ignored})
		case in.Applied[e.Reference] || seen[e.Reference]:
			out = appendAll(out, i, e, txs, Outcome{Kind: Duplicate})
		case !addsUp(e, txs):
			seen[e.Reference] = true
			out = appendAll(out, i, e, txs, Outcome{Kind: Unmatched, Reason: ReasonEntryTotalMismatch})
		default:
			seen[e.Reference] = true
			for j := range txs {
				o, err := b.decide(e, &txs[j])
				if err != nil {
					return nil, err
				}
				out = append(out, withTransaction(o, i, j, e, &txs[j]))
			}
		}
	}
	return out, nil
}

// appendAll appends the same decision for every transaction of an entry.
func appendAll(out []Outcome, i int, e *iso20022.Entry, txs []iso20022.Transaction, o Outcome) []Outcome {
	for j := range txs {
		out = append(out, withTransaction(o, i, j, e, &txs[j]))
	}
	return out
}

// withTransaction fills in where the outcome comes from.
func withTransaction(o Outcome, i, j int, e *iso20022.Entry, t *iso20022.Transaction) Outcome {
	o.Entry, o.Transaction, o.EntryReference = i, j, e.Reference
	o.CreditDebit, o.Amount, o.Currency = e.CreditDebit, t.Amount, t.Currency
	if e.CreditDebit == iso20022.Credit {
		o.Reference = strings.TrimSpace(t.CreditorReference)
		o.ReferenceValid = o.Reference != "" && rf.Valid(o.Reference) == nil
	}
	return o
}

// addsUp reports whether the transactions add up to the entry. Transactions in another
// currency than the entry's (an instructed amount in the payer's currency) cannot be
// added, and the check is then left to the currency rules.
func addsUp(e *iso20022.Entry, txs []iso20022.Transaction) bool {
	var sum int64
	for _, t := range txs {
		if t.Currency != e.Currency {
			return true
		}
		var err error
		if sum, err = money.Add(sum, t.Amount); err != nil {
			return false
		}
	}
	return sum == e.Amount
}

// waiting is an order that waits for money, as Decide tracks it.
type waiting struct {
	order    Order
	ref      string   // normalized
	ibans    []string // normalized, each once
	received int64
}

func (w *waiting) outstanding() int64 { return w.order.AmountDue - w.received }

type amountKey struct {
	currency string
	amount   int64
}

type amountPayerKey struct {
	amountKey
	iban string
}

// set is a set of waiting orders. Decide only ever takes the element of a set of one,
// so the order of iteration never shows.
type set map[*waiting]struct{}

func (s set) only() *waiting {
	for w := range s {
		return w
	}
	return nil
}

type payoutState struct {
	payout            Payout
	debited, returned bool
}

// book is the expectations, indexed.
type book struct {
	byRef         map[string]*waiting
	byAmount      map[amountKey]set
	byAmountPayer map[amountPayerKey]set
	byPayer       map[string]set
	payouts       map[string]*payoutState
}

func newBook(in Input) (*book, error) {
	b := &book{
		byRef:         make(map[string]*waiting, len(in.Orders)),
		byAmount:      make(map[amountKey]set, len(in.Orders)),
		byAmountPayer: make(map[amountPayerKey]set, len(in.Orders)),
		byPayer:       make(map[string]set, len(in.Orders)),
		payouts:       make(map[string]*payoutState, len(in.Payouts)),
	}
	ids := make(map[string]bool, len(in.Orders))
	for i, o := range in.Orders {
		ref, ibans, err := validateOrder(i, o)
		if err != nil {
			return nil, err
		}
		if ids[o.ID] {
			return nil, invalid("order %q is listed twice", o.ID)
		}
		ids[o.ID] = true
		if other, dup := b.byRef[ref]; dup {
			return nil, invalid("orders %q and %q have the same reference", other.order.ID, o.ID)
		}
		w := &waiting{order: o, ref: ref, ibans: ibans, received: o.Received}
		b.byRef[ref] = w
		b.index(w)
		for _, iban := range ibans {
			add(b.byPayer, iban, w)
		}
	}
	for i, p := range in.Payouts {
		if err := validatePayout(i, p); err != nil {
			return nil, err
		}
		e2e := p.EndToEndID
		if e2e == "" {
			e2e = p.OrderID
		}
		if _, dup := b.payouts[e2e]; dup {
			return nil, invalid("payout %q is listed twice", e2e)
		}
		b.payouts[e2e] = &payoutState{payout: p, debited: p.Debited}
	}
	return b, nil
}

func add[K comparable](m map[K]set, k K, w *waiting) {
	s := m[k]
	if s == nil {
		s = set{}
		m[k] = s
	}
	s[w] = struct{}{}
}

func remove[K comparable](m map[K]set, k K, w *waiting) {
	if s := m[k]; s != nil {
		delete(s, w)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}

// index adds w under its outstanding amount; unindex removes it.
func (b *book) index(w *waiting) {
	k := amountKey{w.order.Currency, w.outstanding()}
	add(b.byAmount, k, w)
	for _, iban := range w.ibans {
		add(b.byAmountPayer, amountPayerKey{k, iban}, w)
	}
}

func (b *book) unindex(w *waiting) {
	k := amountKey{w.order.Currency, w.outstanding()}
	remove(b.byAmount, k, w)
	for _, iban := range w.ibans {
		remove(b.byAmountPayer, amountPayerKey{k, iban}, w)
	}
}

// paid removes an order paid in full, already unindexed, from the other indexes: it
// no longer waits.
func (b *book) paid(w *waiting) {
	delete(b.byRef, w.ref)
	for _, iban := range w.ibans {
		remove(b.byPayer, iban, w)
	}
}

// decide decides one transaction of a booked entry that is neither a duplicate nor
// inconsistent (rules 4 to 12).
func (b *book) decide(e *iso20022.Entry, t *iso20022.Transaction) (Outcome, error) {
	switch {
	case t.Amount == 0:
		return Outcome{Kind: Unmatched, Reason: ReasonZeroAmount}, nil
	case e.CreditDebit == iso20022.Debit:
		return b.debit(e, t), nil
	case isReturn(e, t):
		return b.returned(t), nil
	}
	return b.credit(t)
}

func isReturn(e *iso20022.Entry, t *iso20022.Transaction) bool {
	return t.ReturnReason != "" || len(t.ReturnInfo) > 0 || e.Reversal || strings.HasSuffix(e.BankTransactionCode, "/RRTN")
}

// debit decides a debit (rules 5 and 6).
func (b *book) debit(e *iso20022.Entry, t *iso20022.Transaction) Outcome {
	if isReturn(e, t) {
		return Outcome{Kind: Unmatched, Reason: ReasonDebitReversal}
	}
	p := b.payouts[t.EndToEndID]
	if p == nil {
		return Outcome{Kind: Unmatched, Reason: ReasonNotAPayout}
	}
	o := p.outcome()
	switch {
	case p.debited:
		o.Kind, o.Reason = Unmatched, ReasonPayoutAlreadyDebited
	case t.Currency != p.payout.Currency:
		o.Kind = WrongCurrency
	case t.Amount != p.payout.Amount:
		o.Kind, o.Reason = Unmatched, ReasonPayoutAmountMismatch
	default:
		o.Kind = PaidOut
		p.debited = true
	}
	return o
}

// returned decides a return credit (rule 7).
func (b *book) returned(t *iso20022.Transaction) Outcome {
	p := b.payouts[t.EndToEndID]
	if p == nil {
		return Outcome{Kind: Unmatched, Reason: ReasonUnknownReturn, ReturnReason: t.ReturnReason}
	}
	o := p.outcome()
	o.ReturnReason = t.ReturnReason
	switch {
	case p.returned:
		o.Kind, o.Reason = Unmatched, ReasonPayoutAlreadyReturned
	case t.Currency != p.payout.Currency:
		o.Kind = WrongCurrency
	case t.Amount > p.payout.Amount:
		o.Kind, o.Reason = Unmatched, ReasonPayoutAmountMismatch
	default:
		o.Kind, o.Shortfall = Returned, p.payout.Amount-t.Amount
		p.returned = true
	}
	return o
}

func (p *payoutState) outcome() Outcome {
	return Outcome{MatchedBy: ByEndToEndID, OrderID: p.payout.OrderID, Namespace: p.payout.Namespace, Due: p.payout.Amount}
}

// credit matches a payment to a waiting order (rules 8 to 10).
func (b *book) credit(t *iso20022.Transaction) (Outcome, error) {
	if ref := strings.TrimSpace(t.CreditorReference); ref != "" {
		if norm, err := rf.Normalize(ref); err == nil {
			w := b.byRef[norm]
			if w == nil {
				return Outcome{Kind: Unmatched, Reason: ReasonNoWaitingOrder}, nil
			}
			return b.apply(w, ByReference, t)
		}
		// A reference that fails its check is not used: fall through.
	}
	payer := validation.NormalizeIBAN(t.DebtorIBAN)
	var byPayer set
	if payer != "" {
		byPayer = b.byPayer[payer]
	}
	k := amountKey{t.Currency, t.Amount}
	if candidates := b.byAmount[k]; len(candidates) > 0 {
		var confirmed set
		if payer != "" {
			confirmed = b.byAmountPayer[amountPayerKey{k, payer}]
		}
		switch {
		case len(confirmed) == 1:
			return b.apply(confirmed.only(), ByAmountAndPayer, t)
		case len(candidates) > 1:
			return Outcome{Kind: Unmatched, Reason: ReasonAmbiguousAmount}, nil
		case len(byPayer) == 0:
			return b.apply(candidates.only(), ByAmount, t)
		default:
			return Outcome{Kind: Unmatched, Reason: ReasonPayerConflict}, nil
		}
	}
	switch len(byPayer) {
	case 0:
		return Outcome{Kind: Unmatched, Reason: ReasonNoMatch}, nil
	case 1:
		return b.apply(byPayer.only(), ByPayer, t)
	}
	return Outcome{Kind: Unmatched, Reason: ReasonAmbiguousPayer}, nil
}

// apply applies a payment to the order chosen for it (rules 11 and 12).
func (b *book) apply(w *waiting, by Rule, t *iso20022.Transaction) (Outcome, error) {
	o := Outcome{
		MatchedBy: by, OrderID: w.order.ID, Namespace: w.order.Namespace, Due: w.order.AmountDue,
		CutOff: w.order.CutOff,
	}
	if t.Currency != w.order.Currency {
		o.Kind = WrongCurrency
		return o, nil
	}
	total, err := money.Add(w.received, t.Amount)
	if err != nil {
		return Outcome{}, invalid("order %q: the payments received overflow: %v", w.order.ID, err)
	}
	o.ReceivedBefore, o.Received = w.received, total
	b.unindex(w)
	w.received = total
	switch due := w.order.AmountDue; {
	case total < due:
		o.Kind, o.Shortfall = Underpaid, due-total
		b.index(w)
	case total == due:
		o.Kind = Matched
		b.paid(w)
	default:
		o.Kind, o.Excess = Overpaid, total-due
		b.paid(w)
	}
	return o, nil
}
