package bank

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Reasons of the Events of payouts.
const (
	// ReasonPayoutInstructed: the transfer of the order's money was recorded for the
	// next pain.001 file.
	ReasonPayoutInstructed = "PayoutInstructed"
	// ReasonPayoutRejected: the bank refused the transfer (pain.002 RJCT).
	ReasonPayoutRejected = "PayoutRejected"
	// ReasonPayoutReturned: the transfer was booked and came back.
	ReasonPayoutReturned = "PayoutReturned"
	// ReasonPayoutNotPossible: the order's money cannot be sent by SEPA credit transfer
	// (not in euro, no payment method, no fund account): it waits for an operator.
	ReasonPayoutNotPossible = "PayoutNotPossible"
	// ReasonSentBack: money the order does not use (an overpayment's excess, a payment
	// for a cancelled order) is sent back to the account it came from, or was.
	ReasonSentBack = "PaymentSentBack"
	// ReasonPayeeVerification: the bank verified the payee of a transfer (Verification
	// of Payee) and the name is not, or not exactly, the account holder's.
	ReasonPayeeVerification = "PayeeVerification"
)

// lifecyclePurpose says the transfer is a step of its order's lifecycle (its sent and
// completed evidence); the others send back money the order does not use, beside it.
func lifecyclePurpose(p ledger.Purpose) bool {
	return p == ledger.PurposePayout || p == ledger.PurposeRefund || p == ledger.PurposeResidual
}

// byEndToEnd is the instruction of an end-to-end id; nil when the book has none.
func (p *Payer) byEndToEnd(ctx context.Context, e2e string) (*ledger.Payout, error) {
	if e2e == "" {
		return nil, nil
	}
	ps, _, err := p.Payouts.ListPayouts(ctx, ledger.PayoutQuery{EndToEndID: e2e, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("read the payout of end-to-end id %s: %w", e2e, err)
	}
	if len(ps) == 0 {
		return nil, nil
	}
	return &ps[0], nil
}

// sendBack records the transfer that sends a payment of a ledger row, or its excess,
// back to the account it came from (PurposeExcess: r.Excess; PurposeReturn: r.Amount),
// from the fund's account the order was to be paid into. Asking again records nothing
// (the instruction's key is the order, the purpose and the row). Money that cannot go by
// SEPA credit transfer gets a PayoutNotPossible Event and stays in the ledger for a
// person. It reports done: false only when the ledger or the API server did not answer.
func (p *Payer) sendBack(ctx context.Context, o *investv1.Order, r ledger.Row, purpose ledger.Purpose) (bool, error) {
	amount := r.Amount
	what := "payment"
	if purpose == ledger.PurposeExcess {
		amount, what = r.Excess, "excess of the payment"
	}
	amount -= amount % unitsPerCent
	if amount <= 0 {
		return true, nil
	}
	source := ledger.RowSource(r.EntryReference, r.Transaction)
	ins := ledger.Payout{
		Namespace: o.Namespace, OrderID: o.Name, Purpose: purpose, Source: source,
		EndToEndID: SourceEndToEndID(map[ledger.Purpose]string{ledger.PurposeExcess: "FSX", ledger.PurposeReturn: "FSR"}[purpose], o.Namespace+"/"+o.Name+"/"+source),
		Amount:     amount, Currency: r.Currency, ExecutionDate: day(p.now()), InstructedAt: p.now().UTC(),
		RemittanceInfo: truncateRunes(fmt.Sprintf("Return of the %s %s for order %s", what, r.EntryReference, o.Name), 140),
	}
	notPossible := func(why string) (bool, error) {
		if p.warnOnce(string(o.UID) + "/" + source) {
			p.event(o, "Warning", ReasonPayoutNotPossible, "the %s of %s (bank entry %s) cannot be sent back by SEPA credit transfer: %s; it waits in the bank ledger for a person",
				what, money.Format(amount, r.Currency), r.EntryReference, why)
		}
		return true, nil
	}
	if r.Currency != "EUR" {
		return notPossible("SEPA transfers are in euro, the payment is in " + r.Currency)
	}
	if iban := validation.NormalizeIBAN(r.DebtorIBAN); validation.ValidateIBAN(iban) == nil {
		ins.CreditorName, ins.CreditorIBAN = r.DebtorName, iban
		if ins.CreditorName == "" {
			ins.CreditorName = "NOTPROVIDED"
		}
	} else {
		// The bank gave no account of the payer: the customer's registered one.
		name, iban, err := p.creditor(ctx, o, purpose, o.Spec.PaymentMethodDetailsID)
		if err != nil {
			return false, err
		}
		if iban == "" {
			return notPossible("the bank gave no account of the payer and the customer registered none")
		}
		ins.CreditorName, ins.CreditorIBAN = name, iban
	}
	ins.CreditorName = truncateRunes(ins.CreditorName, 70)
	name, iban, err := p.fundAccount(ctx, o)
	var np *notPossibleError
	if errors.As(err, &np) {
		return notPossible(np.Error())
	}
	if err != nil {
		return false, err
	}
	ins.DebtorName, ins.DebtorIBAN = truncateRunes(name, 70), iban
	n, err := p.Payouts.Instruct(ctx, []ledger.Payout{ins})
	if err != nil {
		return false, fmt.Errorf("record the return of %s to its payer: %w", r.EntryReference, err)
	}
	if n > 0 {
		sentBackTotal.WithLabelValues(string(purpose)).Inc()
		p.event(o, "Normal", ReasonSentBack, "the %s of %s (bank entry %s) is sent back to %s in the next credit transfer file",
			what, money.Format(amount, r.Currency), r.EntryReference, maskIBAN(ins.CreditorIBAN))
	}
	return true, nil
}

// sentBack says an instruction sends the payment of row r of order o back to its payer.
func (p *Payer) sentBack(ctx context.Context, o *investv1.Order, r ledger.Row) (bool, error) {
	ps, _, err := p.Payouts.ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name, Purposes: []ledger.Purpose{ledger.PurposeReturn}})
	if err != nil {
		return false, fmt.Errorf("read the returns of %s/%s: %w", o.Namespace, o.Name, err)
	}
	return slices.ContainsFunc(ps, func(in ledger.Payout) bool { return in.Source == ledger.RowSource(r.EntryReference, r.Transaction) }), nil
}

// returnUnused sends back what arrived for cancelled BUYs that were never paid in full:
// the parts a customer paid before the order was cancelled at its cut-off or by the
// customer (a payment that arrives after is sent back when it is written). An order is
// looked at once per process; asking the ledger again after a restart records nothing
// new.
func (p *Payer) returnUnused(ctx context.Context) error {
	if p.Ledger == nil {
		return nil
	}
	var list investv1.OrderList
	if err := p.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(investv1.StateCancelled)}); err != nil {
		return fmt.Errorf("list the cancelled orders: %w", err)
	}
	var keys []ledger.OrderKey
	orders := map[ledger.OrderKey]*investv1.Order{}
	for i := range list.Items {
		o := &list.Items[i]
		if o.Spec.Side != investv1.SideBuy || o.Status.Settlement.PaymentReceived != nil || p.returned[string(o.UID)] {
			continue
		}
		k := ledger.OrderKey{Namespace: o.Namespace, OrderID: o.Name}
		keys, orders[k] = append(keys, k), o
	}
	if len(keys) == 0 {
		return nil
	}
	received, err := p.Ledger.Received(ctx, keys)
	if err != nil {
		return fmt.Errorf("read what arrived for the cancelled orders: %w", err)
	}
	for _, k := range keys {
		o := orders[k]
		if received[k] > 0 {
			rows, _, err := p.Ledger.Rows(ctx, ledger.Query{Namespace: k.Namespace, OrderID: k.OrderID, Limit: 1000,
				Kinds: []string{string(reconcile.Matched), string(reconcile.Overpaid), string(reconcile.Underpaid)}})
			if err != nil {
				return fmt.Errorf("read the payments of %s/%s: %w", k.Namespace, k.OrderID, err)
			}
			for _, r := range rows {
				if r.Pending {
					continue // written by the ingestion, which sends it back then
				}
				if ok, err := p.sendBack(ctx, o, r, ledger.PurposeReturn); err != nil || !ok {
					return err
				}
			}
		}
		p.returned[string(o.UID)] = true
	}
	return nil
}

// DefaultDebitWindow is how long after a payout's debit was booked a second debit naming
// it is still recognised as one (and sent to suspense as a possible double payment).
const DefaultDebitWindow = 35 * 24 * time.Hour

// maxTransfersPerFile bounds a pain.001 file: banks take files of tens of thousands of
// transfers; 10,000 keeps a file some 6 MB.
const maxTransfersPerFile = 10_000

// NoTransferReference is the reference recorded as the evidence of a residual or refund
// below one cent: there is nothing a bank can transfer, so nothing is sent.
const NoTransferReference = "NO-TRANSFER-BELOW-ONE-CENT"

// Payer sends the money orders owe their customers through the bank: SELL proceeds
// (paymentSent, paymentCompleted), refunds of cancelled BUYs (refundSent,
// refundCompleted) and the residuals of forward BUYs by amount. Each round it
//
//  1. writes on their orders what the bank reported (ledger.Payouts.PendingPayouts):
//     accepted → the sent evidence; rejected → status.payout, and the order stalls;
//  2. records an instruction for every order whose next step is a transfer (ledger
//     Instruct: keyed by order and purpose, so never twice);
//  3. collects the instructions in no file into pain.001.001.09 files, one per fund
//     account and execution date, recorded with their bytes before they leave;
//  4. releases the recorded files through the connector, under their message id: after
//     a crash the same bytes go under the same name, which the connector and the bank
//     take for the same file.
//
// The bank's answers come back through the inbox: the Ingester reads pain.002 reports
// (Payer.report) and the camt debits of the payouts (reconcile's PaidOut), which record
// the completed evidence. The Payer runs inside the Ingester's rounds, on the leader.
type Payer struct {
	// Payouts is the book of instructions and outbound files.
	Payouts ledger.Payouts
	// Ledger is the bank ledger: the account a customer paid from, where a payout has no
	// payment method details to go to. Setup fills it with the Ingester's.
	Ledger ledger.Store
	// Connector releases the files.
	Connector connector.Connector
	// Client reads orders, funds and payment methods (the cache) and writes order status.
	Client client.Client
	// Recorder emits the payouts' Events on their orders.
	Recorder events.EventRecorder
	// Instant asks for SEPA Instant Credit Transfers.
	Instant bool
	// DebitWindow is how long a booked debit of a payout is remembered; zero means
	// DefaultDebitWindow.
	DebitWindow time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log is the logger.
	Log logr.Logger

	mu sync.Mutex
	// instructed are the orders (UID and purpose) instructed by this process, which
	// Instruct need not be asked about again; returned the cancelled orders whose
	// payments returnUnused sent back.
	instructed, returned map[string]bool
	// warned are the transfers a PayoutNotPossible Event was emitted for; warnMu guards
	// it, as the ingestion's workers send payments back beside the rounds.
	warnMu sync.Mutex
	warned map[string]bool
}

// warnOnce says whether the Event of key is still to be emitted, and notes it is.
func (p *Payer) warnOnce(key string) bool {
	p.warnMu.Lock()
	defer p.warnMu.Unlock()
	if p.warned == nil {
		p.warned = map[string]bool{}
	}
	if p.warned[key] {
		return false
	}
	p.warned[key] = true
	return true
}

// Round writes what the bank reported, instructs, files and releases. It returns the
// first error that stopped it: a step it did not reach waits for the next round.
func (p *Payer) Round(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.applyPending(ctx); err != nil {
		return err
	}
	if err := p.instruct(ctx); err != nil {
		return err
	}
	return p.fileAndRelease(ctx)
}

// FileAndRelease collects the recorded instructions in no file into pain.001 files,
// records them, and releases every recorded file not released yet: steps 3 and 4 of a
// Round, for a caller that records instructions itself (a benchmark).
func (p *Payer) FileAndRelease(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fileAndRelease(ctx)
}

func (p *Payer) fileAndRelease(ctx context.Context) error {
	if err := p.file(ctx); err != nil {
		return err
	}
	return p.release(ctx)
}

// payoutStep is the step of purpose's transfer being sent, and of it arriving.
func payoutSteps(purpose ledger.Purpose) (sent, completed lifecycle.Step) {
	switch purpose {
	case ledger.PurposeRefund:
		return lifecycle.StepRefundSent, lifecycle.StepRefundCompleted
	case ledger.PurposeResidual:
		return lifecycle.StepResidualRefundSent, lifecycle.StepResidualRefundCompleted
	}
	return lifecycle.StepPaymentSent, lifecycle.StepPaymentCompleted
}

// purposeOf is the purpose of the transfer the order's next step is, false when its next
// step is none.
func purposeOf(o *investv1.Order) (ledger.Purpose, bool) {
	step, ok := lifecycle.NextStep(o)
	if !ok || lifecycle.SideOf(o, step) != lifecycle.MoneySide {
		// Cash on chain: the settlement contract pays it, the chain agent records it.
		return "", false
	}
	switch step {
	case lifecycle.StepPaymentSent:
		return ledger.PurposePayout, true
	case lifecycle.StepRefundSent:
		return ledger.PurposeRefund, true
	case lifecycle.StepResidualRefundSent:
		return ledger.PurposeResidual, true
	}
	return "", false
}

// purposeOfDebit is the purpose of the order's transfer that a booked debit or return
// names: the instruction's, or, for one the book does not know (a debit of a transfer sent
// before the book existed), its refund, its residual, or a SELL's proceeds.
func purposeOfDebit(o *investv1.Order, payout *ledger.Payout) ledger.Purpose {
	if payout != nil {
		return payout.Purpose
	}
	switch {
	case o.Status.Refund != nil:
		return ledger.PurposeRefund
	case o.Spec.Side == investv1.SideSell:
		return ledger.PurposePayout
	}
	return ledger.PurposeResidual
}

// instruct records an instruction for every order whose next step is a transfer.
func (p *Payer) instruct(ctx context.Context) error {
	if p.instructed == nil {
		p.instructed, p.returned = map[string]bool{}, map[string]bool{}
	}
	var batch []ledger.Payout
	var orders []*investv1.Order
	for _, state := range []investv1.OrderState{investv1.StateExecuted, investv1.StateCancelled, investv1.StateDeliveryCompleted} {
		var list investv1.OrderList
		if err := p.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(state)}); err != nil {
			return fmt.Errorf("list the %s orders: %w", state, err)
		}
		for i := range list.Items {
			o := &list.Items[i]
			purpose, ok := purposeOf(o)
			if !ok || !o.DeletionTimestamp.IsZero() || o.Status.Payout != nil || p.instructed[key(o, purpose)] {
				continue
			}
			ins, err := p.instruction(ctx, o, purpose)
			var np *notPossibleError
			switch {
			case errors.As(err, &np):
				if p.warnOnce(key(o, purpose)) {
					p.event(o, "Warning", ReasonPayoutNotPossible, "%s", np.Error())
				}
				continue
			case err != nil:
				return err
			}
			if ins.Amount == 0 {
				if err := p.nothingToSend(ctx, o, purpose); err != nil {
					return err
				}
				continue
			}
			batch = append(batch, ins)
			orders = append(orders, o)
		}
	}
	if err := p.returnUnused(ctx); err != nil {
		return err
	}
	if len(batch) == 0 {
		return nil
	}
	n, err := p.Payouts.Instruct(ctx, batch)
	if err != nil {
		return fmt.Errorf("record %d payout instructions: %w", len(batch), err)
	}
	for i, o := range orders {
		p.instructed[key(o, batch[i].Purpose)] = true
	}
	if n > 0 {
		payoutsInstructedTotal.Add(float64(n))
		p.Log.WithName("bank-payout").Info("recorded payout instructions", "new", n, "asked", len(batch))
	}
	return nil
}

func key(o *investv1.Order, purpose ledger.Purpose) string {
	return string(o.UID) + "/" + string(purpose)
}

// notPossibleError says an order's money cannot be sent by SEPA credit transfer.
type notPossibleError struct{ msg string }

func (e *notPossibleError) Error() string { return e.msg }

// instruction is the transfer the order owes for purpose, with Amount 0 when what it
// owes is below one cent.
func (p *Payer) instruction(ctx context.Context, o *investv1.Order, purpose ledger.Purpose) (ledger.Payout, error) {
	var amount int64
	currency := string(o.Spec.Currency)
	pmdID, remittance := o.Spec.PaymentMethodDetailsID, ""
	if q := o.Spec.Quote; q != nil && q.PaymentMethodDetailsID != "" {
		pmdID = q.PaymentMethodDetailsID
	}
	switch purpose {
	case ledger.PurposePayout:
		if s := o.Status.Strike; s != nil {
			amount = s.NetAmount
		} else if q := o.Spec.Quote; q != nil {
			amount = q.NetAmount
		}
		remittance = fmt.Sprintf("Redemption of %d units of %s, order %s", o.Spec.AmountOfUnits, o.Spec.ISIN, o.Name)
		if s := o.Status.Strike; s != nil && s.Units > 0 {
			remittance = fmt.Sprintf("Redemption of %d units of %s, order %s", s.Units, o.Spec.ISIN, o.Name)
		}
	case ledger.PurposeRefund:
		r := o.Status.Refund
		amount, currency = r.Amount, string(r.Currency)
		if r.PaymentMethodDetailsID != "" {
			pmdID = r.PaymentMethodDetailsID
		}
		remittance = "Refund " + r.Reference + " of order " + o.Name
	case ledger.PurposeResidual:
		amount = o.Status.Strike.Residual
		remittance = "Residual " + o.Status.Strike.ResidualReference + " of order " + o.Name
	}
	amount -= amount % unitsPerCent // what a bank can send: whole cents, never more than owed
	ins := ledger.Payout{
		Namespace: o.Namespace, OrderID: o.Name, Purpose: purpose, EndToEndID: EndToEndID(o.Name),
		Amount: amount, Currency: currency, RemittanceInfo: truncateRunes(remittance, 140),
		ExecutionDate: day(p.now()), InstructedAt: p.now().UTC(),
	}
	if amount == 0 {
		return ins, nil
	}
	cannot := func(format string, args ...any) error {
		return &notPossibleError{msg: fmt.Sprintf("the %s of %s cannot be sent by SEPA credit transfer: %s; it waits for an operator",
			strings.ToLower(string(purpose)), money.Format(amount, currency), fmt.Sprintf(format, args...))}
	}
	if currency != "EUR" {
		return ins, cannot("SEPA transfers are in euro, the order is in %s", currency)
	}
	if ins.EndToEndID == "" {
		return ins, cannot("the order id %q does not fit an end-to-end id (at most %d characters, or a UUID)", o.Name, iso20022.MaxIDLen)
	}
	creditorName, creditorIBAN, err := p.creditor(ctx, o, purpose, pmdID)
	if err != nil {
		return ins, err
	}
	if creditorIBAN == "" {
		return ins, cannot("the customer has no bank account to pay to: no payment method details on the order or the account, and no payment received from one")
	}
	ins.CreditorName, ins.CreditorIBAN = truncateRunes(creditorName, 70), creditorIBAN
	name, iban, err := p.fundAccount(ctx, o)
	if err != nil {
		return ins, err
	}
	ins.DebtorName, ins.DebtorIBAN = truncateRunes(name, 70), iban
	return ins, nil
}

// creditor is the customer's bank account the money goes to, in this order: the payment
// method details the order names (the refund's, else the quote's, else the spec's); the
// account's primary payment method details now; the account the customer paid from (the
// payer of this order's payment, for a refund or a residual; of the account's latest paid
// BUY, for a SELL), as the bank ledger recorded it. "" when there is none.
func (p *Payer) creditor(ctx context.Context, o *investv1.Order, purpose ledger.Purpose, pmdID investv1.ObjectID) (name, iban string, err error) {
	ids := []investv1.ObjectID{pmdID}
	var acct investv1.Account
	if err := p.Client.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, &acct); err == nil {
		ids = append(ids, investv1.ObjectID(acct.Spec.PrimaryPaymentMethodDetails))
	} else if !apierrors.IsNotFound(err) {
		return "", "", fmt.Errorf("read the account of %s/%s: %w", o.Namespace, o.Name, err)
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		var pmd investv1.PaymentMethodDetails
		err := p.Client.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: string(id)}, &pmd)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("read the payment method of %s/%s: %w", o.Namespace, o.Name, err)
		}
		if iban := validation.NormalizeIBAN(pmd.Spec.IBAN); validation.ValidateIBAN(iban) == nil {
			return pmd.Spec.AccountHolderName, iban, nil
		}
	}
	if p.Ledger == nil {
		return "", "", nil
	}
	paid := []string{o.Name}
	if purpose != ledger.PurposePayout && lifecycle.CarriedBuy(o) {
		// A carried BUY was paid by the orders it was carried from: their payer.
		if paid, err = p.carriedFrom(ctx, o); err != nil {
			return "", "", err
		}
	}
	if purpose == ledger.PurposePayout {
		if paid, err = p.paidBuys(ctx, o); err != nil {
			return "", "", err
		}
	}
	for _, id := range paid {
		rows, _, err := p.Ledger.Rows(ctx, ledger.Query{Namespace: o.Namespace, OrderID: id, Limit: 20,
			Kinds: []string{string(reconcile.Matched), string(reconcile.Overpaid), string(reconcile.Underpaid)}})
		if err != nil {
			return "", "", fmt.Errorf("read the payments of %s/%s: %w", o.Namespace, id, err)
		}
		for _, r := range rows {
			if iban := validation.NormalizeIBAN(r.DebtorIBAN); validation.ValidateIBAN(iban) == nil {
				name := r.DebtorName
				if name == "" {
					name = "NOTPROVIDED"
				}
				return name, iban, nil
			}
		}
	}
	return "", "", nil
}

// carriedFrom is a carried BUY and the BUYs it was carried from, itself first, as far
// back as they are in the cluster (at most maxCarryChain).
func (p *Payer) carriedFrom(ctx context.Context, o *investv1.Order) ([]string, error) {
	ids := []string{o.Name}
	for from := o.Spec.CarriedFrom; from != "" && len(ids) < maxCarryChain; {
		ids = append(ids, string(from))
		var parent investv1.Order
		err := p.Client.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: string(from)}, &parent)
		if apierrors.IsNotFound(err) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read order %s/%s, which %s was carried from: %w", o.Namespace, from, o.Name, err)
		}
		from = parent.Spec.CarriedFrom
	}
	return ids, nil
}

// maxCarryChain bounds the walk from a carried BUY to the BUY that was paid.
const maxCarryChain = 32

// paidBuys are the account's BUYs with a payment received, newest first.
func (p *Payer) paidBuys(ctx context.Context, o *investv1.Order) ([]string, error) {
	var list investv1.OrderList
	if err := p.Client.List(ctx, &list, client.InNamespace(o.Namespace), client.MatchingFields{index.OrderAccount: string(o.Spec.AccountID)}); err != nil {
		return nil, fmt.Errorf("list the orders of account %s/%s: %w", o.Namespace, o.Spec.AccountID, err)
	}
	buys := slices.DeleteFunc(list.Items, func(b investv1.Order) bool {
		return b.Spec.Side != investv1.SideBuy || b.Status.Settlement.PaymentReceived == nil
	})
	slices.SortFunc(buys, func(a, b investv1.Order) int {
		return b.Status.Settlement.PaymentReceived.At.Compare(a.Status.Settlement.PaymentReceived.At.Time)
	})
	ids := make([]string, len(buys))
	for i := range buys {
		ids[i] = buys[i].Name
	}
	return ids, nil
}

// fundAccount is the fund's bank account the money leaves: the fund's payment details,
// else (a fund changed since) those the order's quote named.
func (p *Payer) fundAccount(ctx context.Context, o *investv1.Order) (name, iban string, err error) {
	q := o.Spec.Quote
	if q != nil && q.FundDetails.FundID != "" {
		var fund investv1.Fund
		err := p.Client.Get(ctx, types.NamespacedName{Name: string(q.FundDetails.FundID)}, &fund)
		switch {
		case err == nil && fund.Spec.PaymentDetails != nil:
			return fund.Spec.PaymentDetails.AccountHolderName, validation.NormalizeIBAN(fund.Spec.PaymentDetails.IBAN), nil
		case err != nil && !apierrors.IsNotFound(err):
			return "", "", fmt.Errorf("read the fund of %s/%s: %w", o.Namespace, o.Name, err)
		}
	}
	if q != nil && q.PaymentDetails != nil {
		return q.PaymentDetails.AccountHolderName, validation.NormalizeIBAN(q.PaymentDetails.IBAN), nil
	}
	return "", "", &notPossibleError{msg: "the fund has no bank account (spec.paymentDetails) to pay from; the transfer waits for an operator"}
}

// nothingToSend records the sent and completed evidence of a transfer below one cent:
// no bank can send it, and nothing is owed that a bank could pay.
func (p *Payer) nothingToSend(ctx context.Context, o *investv1.Order, purpose ledger.Purpose) error {
	sent, completed := payoutSteps(purpose)
	before := o.DeepCopy()
	rec := investv1.SettlementRecord{Reference: NoTransferReference, At: metav1.NewTime(p.now().UTC().Truncate(time.Second)), RecordedBy: RecordedBy}
	lifecycle.Record(o, sent, rec)
	lifecycle.Record(o, completed, rec)
	if err := patch.Status(ctx, p.Client, o, before); err != nil {
		if patch.Stale(err) {
			return nil
		}
		return fmt.Errorf("record that nothing is sent for %s/%s: %w", o.Namespace, o.Name, err)
	}
	p.event(o, "Normal", ReasonPayoutInstructed, "the %s is below one cent: nothing is sent (reference %s)", strings.ToLower(string(purpose)), NoTransferReference)
	return nil
}

// file collects the instructions in no file into pain.001 files, one per fund account
// and execution date (at most maxTransfersPerFile transfers each), and records each file
// with its instructions before it is released.
func (p *Payer) file(ctx context.Context) error {
	for {
		unfiled, err := p.Payouts.Unfiled(ctx, maxTransfersPerFile)
		if err != nil {
			return fmt.Errorf("read the unfiled payout instructions: %w", err)
		}
		if len(unfiled) == 0 {
			return nil
		}
		type group struct {
			iban string
			date time.Time
		}
		groups := map[group][]ledger.Payout{}
		for _, ins := range unfiled {
			g := group{ins.DebtorIBAN, ins.ExecutionDate.UTC()}
			groups[g] = append(groups[g], ins)
		}
		keys := make([]group, 0, len(groups))
		for g := range groups {
			keys = append(keys, g)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i].iban < keys[j].iban || keys[i].iban == keys[j].iban && keys[i].date.Before(keys[j].date)
		})
		for _, g := range keys {
			if err := p.fileOne(ctx, groups[g]); err != nil {
				return err
			}
		}
		if len(unfiled) < maxTransfersPerFile {
			return nil
		}
	}
}

// fileOne writes and records one pain.001 of instructions of one account and date.
func (p *Payer) fileOne(ctx context.Context, ins []ledger.Payout) error {
	now := p.now().UTC()
	msgID, err := messageID(now)
	if err != nil {
		return err
	}
	b := &iso20022.Batch{
		MessageID: msgID, CreatedAt: now, DebtorName: ins[0].DebtorName, DebtorIBAN: ins[0].DebtorIBAN,
		RequestedExecutionDate: ins[0].ExecutionDate, Instant: p.Instant,
	}
	ids := make([]int64, len(ins))
	for i, in := range ins {
		ids[i] = in.ID
		b.Transfers = append(b.Transfers, iso20022.Transfer{
			EndToEndID: in.EndToEndID, Amount: in.Amount, Currency: in.Currency,
			CreditorName: in.CreditorName, CreditorIBAN: in.CreditorIBAN, RemittanceInfo: in.RemittanceInfo,
		})
	}
	data, err := iso20022.WritePain001(b)
	if err != nil {
		return fmt.Errorf("write the pain.001 of %d transfers: %w", len(ins), err)
	}
	sum := sha256.Sum256(data)
	f := ledger.OutFile{
		MessageID: msgID, Name: "pain001-" + msgID + ".xml", DebtorIBAN: b.DebtorIBAN, ExecutionDate: b.RequestedExecutionDate,
		CreatedAt: now, SHA256: hex.EncodeToString(sum[:]), Transfers: len(ins), Data: data,
	}
	if err := p.Payouts.AddFile(ctx, f, ids); err != nil {
		if errors.Is(err, ledger.ErrAlreadyRecorded) {
			return nil // another replica filed them a moment ago; the next round reads afresh
		}
		return fmt.Errorf("record the pain.001 %s: %w", msgID, err)
	}
	p.Log.WithName("bank-payout").Info("recorded a pain.001 file", "messageID", msgID, "transfers", len(ins),
		"total", money.Format(total(ins), ins[0].Currency))
	return nil
}

// EndToEndID is the end-to-end id of the transfers of an order (iso20022.CompactID of
// its id: a UUID's 32 hexadecimal digits); "" for an id that fits no end-to-end id.
func EndToEndID(orderID string) string { return iso20022.CompactID(orderID) }

func total(ins []ledger.Payout) int64 {
	var t int64
	for _, in := range ins {
		t += in.Amount
	}
	return t
}

// messageID is FS, the time to the second, and 10 random base32 characters: 27
// characters, unique per file.
func messageID(now time.Time) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "FS" + now.Format("20060102150405") + "-" + base32.StdEncoding.EncodeToString(b[:])[:10], nil
}

// release hands the recorded files to the connector and records their release.
func (p *Payer) release(ctx context.Context) error {
	files, err := p.Payouts.Unreleased(ctx)
	if err != nil {
		return fmt.Errorf("read the unreleased pain.001 files: %w", err)
	}
	for _, f := range files {
		again, err := p.Connector.Release(ctx, f.Name, f.Data)
		if err != nil {
			return fmt.Errorf("release %s: %w", f.Name, err)
		}
		if err := p.Payouts.MarkReleased(ctx, f.MessageID, p.now().UTC()); err != nil {
			return fmt.Errorf("record the release of %s: %w", f.Name, err)
		}
		outFilesTotal.Inc()
		p.Log.WithName("bank-payout").Info("released a pain.001 file to the bank", "file", f.Name, "transfers", f.Transfers,
			"releasedBefore", again)
	}
	return nil
}

// applyPending writes on their orders the statuses the bank reported.
func (p *Payer) applyPending(ctx context.Context) error {
	for {
		pending, err := p.Payouts.PendingPayouts(ctx, pendingBatch)
		if err != nil {
			return fmt.Errorf("read the pending payout statuses: %w", err)
		}
		if len(pending) == 0 {
			return nil
		}
		var done []int64
		var firstErr error
		for _, ins := range pending {
			ok, err := p.applyStatus(ctx, ins)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			if ok {
				done = append(done, ins.ID)
			}
		}
		if len(done) > 0 {
			if err := p.Payouts.PayoutsDone(ctx, done, p.now().UTC()); err != nil {
				return fmt.Errorf("mark payout statuses applied: %w", err)
			}
		}
		if firstErr != nil {
			applyErrorsTotal.Inc()
			p.Log.WithName("bank-payout").Error(firstErr, "could not write payout statuses on their orders; they stay pending", "pending", len(pending)-len(done))
			return nil
		}
		if len(done) < len(pending) {
			return nil
		}
	}
}

// applyStatus writes one reported status on its order: Accepted records the sent
// evidence with the moves it unlocks; Rejected records status.payout (the order stalls).
// A transfer that is not a lifecycle step (money sent back beside the order) gets an
// Event instead, and an operator's refund from suspense its BankDecision's status. A
// Verification of Payee result other than a match is a Warning Event.
func (p *Payer) applyStatus(ctx context.Context, ins ledger.Payout) (bool, error) {
	if ins.OrderID == "" {
		if ins.Status == ledger.StatusInstructed {
			return true, nil
		}
		reason := ins.Reason
		if ins.VoPResult != "" && ins.VoPResult != ledger.VoPMatch {
			reason = strings.TrimSpace(reason + " " + describeVoP(ins))
		}
		return true, refundStatus(ctx, p.Client, p.Recorder, ins.Source, ins.Status, reason)
	}
	o := &investv1.Order{}
	if err := p.Client.Get(ctx, types.NamespacedName{Namespace: ins.Namespace, Name: ins.OrderID}, o); err != nil {
		if apierrors.IsNotFound(err) {
			p.Log.WithName("bank-payout").Info("the order of a payout status is gone; the status stays in the ledger", "order", ins.Namespace+"/"+ins.OrderID)
			return true, nil
		}
		return false, err
	}
	if ins.VoPResult != "" && ins.VoPResult != ledger.VoPMatch && p.warnOnce("vop/"+ins.EndToEndID+"/"+ins.VoPResult) {
		p.event(o, "Warning", ReasonPayeeVerification, "%s", describeVoP(ins))
	}
	if !lifecyclePurpose(ins.Purpose) {
		switch ins.Status {
		case ledger.StatusAccepted:
			p.event(o, "Normal", ReasonSentBack, "the bank accepted the transfer of %s sent back to %s (%s, %s)",
				money.Format(ins.Amount, ins.Currency), maskIBAN(ins.CreditorIBAN), strings.ToLower(string(ins.Purpose)), ins.BankStatus)
		case ledger.StatusRejected:
			payoutsRejectedTotal.Inc()
			p.event(o, "Warning", ReasonPayoutRejected, "the bank refused the transfer of %s sent back to %s (%s): %s; the money stays in the fund's account, and a person sends it back by hand",
				money.Format(ins.Amount, ins.Currency), maskIBAN(ins.CreditorIBAN), strings.ToLower(string(ins.Purpose)), ins.Reason)
		}
		return true, nil
	}
	if ins.Source != "" && ins.Status != ledger.StatusInstructed {
		// Sent again as an operator decided: the decision follows it too.
		if err := refundStatus(ctx, p.Client, p.Recorder, ins.Source, ins.Status, ins.Reason); err != nil {
			return false, err
		}
	}
	switch ins.Status {
	case ledger.StatusAccepted:
		sent, _ := payoutSteps(ins.Purpose)
		return p.recordEvidence(ctx, o, ins.StatusAt, []lifecycle.Step{sent}, ins.FileMessageID+"/"+ins.EndToEndID,
			fmt.Sprintf("the bank accepted the transfer of %s (%s)", money.Format(ins.Amount, ins.Currency), ins.BankStatus))
	case ledger.StatusRejected:
		return p.recordProblem(ctx, o, investv1.OrderPayout{
			Purpose: string(ins.Purpose), EndToEndID: ins.EndToEndID, MessageID: ins.FileMessageID, Amount: ins.Amount,
			Outcome: investv1.PayoutRejected, Code: reasonCode(ins.Reason), Reason: truncateRunes(reasonText(ins.Reason), 512),
			At: metav1.NewTime(ins.StatusAt.UTC().Truncate(time.Second)),
		})
	}
	return true, nil
}

// describeVoP says what the bank's Verification of Payee found for a transfer.
func describeVoP(ins ledger.Payout) string {
	to := fmt.Sprintf("the transfer of %s to %s (%q)", money.Format(ins.Amount, ins.Currency), maskIBAN(ins.CreditorIBAN), ins.CreditorName)
	switch ins.VoPResult {
	case ledger.VoPCloseMatch:
		return fmt.Sprintf("Verification of Payee: close match for %s: the bank has the account holder as %q", to, ins.VoPName)
	case ledger.VoPNoMatch:
		return fmt.Sprintf("Verification of Payee: no match for %s: the name is not the account holder's", to)
	case ledger.VoPNotPossible:
		return fmt.Sprintf("Verification of Payee: not possible for %s: the payee's bank could not verify the name", to)
	}
	return fmt.Sprintf("Verification of Payee: %s for %s", ins.VoPResult, to)
}

// recordEvidence records the steps' evidence (those not recorded yet) with the moves they
// unlock, in one status write, and the Event.
func (p *Payer) recordEvidence(ctx context.Context, o *investv1.Order, at time.Time, steps []lifecycle.Step, reference, what string) (bool, error) {
	if at.IsZero() {
		at = p.now()
	}
	before := o.DeepCopy()
	rec := investv1.SettlementRecord{Reference: reference, At: metav1.NewTime(at.UTC().Truncate(time.Second)), RecordedBy: RecordedBy}
	var recorded []lifecycle.Step
	for _, s := range steps {
		if lifecycle.Record(o, s, rec) {
			recorded = append(recorded, s)
		}
	}
	if len(recorded) == 0 {
		return true, nil // written before
	}
	moves, err := facts.Follow(ctx, p.Client, o, p.now())
	if err != nil {
		return false, err
	}
	if err := patch.Status(ctx, p.Client, o, before); err != nil {
		if patch.Stale(err) {
			return false, nil
		}
		return false, fmt.Errorf("record %v of %s/%s: %w", recorded, o.Namespace, o.Name, err)
	}
	last := recorded[len(recorded)-1]
	note := fmt.Sprintf("%s recorded %s evidence with reference %s: %s", RecordedBy, last, reference, what)
	kind, reason, msg := lifecycle.EvidenceEvent(last, note, before.Status.State, moves)
	p.event(o, kind, reason, "%s", msg)
	return true, nil
}

// recordProblem records a refused or returned transfer on the order (status.payout): the
// order stalls until an operator decides.
func (p *Payer) recordProblem(ctx context.Context, o *investv1.Order, problem investv1.OrderPayout) (bool, error) {
	if cur := o.Status.Payout; cur != nil && cur.Purpose == problem.Purpose && cur.Outcome == problem.Outcome {
		return true, nil // written before
	}
	before := o.DeepCopy()
	o.Status.Payout = &problem
	if err := patch.Status(ctx, p.Client, o, before); err != nil {
		if patch.Stale(err) {
			return false, nil
		}
		return false, fmt.Errorf("record the %s payout of %s/%s: %w", strings.ToLower(problem.Outcome), o.Namespace, o.Name, err)
	}
	reason := ReasonPayoutRejected
	if problem.Outcome == investv1.PayoutReturned {
		reason = ReasonPayoutReturned
		payoutsReturnedTotal.Inc()
	} else {
		payoutsRejectedTotal.Inc()
	}
	w := lifecycle.PayoutProblem(o, problem.Purpose)
	p.event(o, "Warning", reason, "%s", w.Message)
	return true, nil
}

// reasonCode is the ISO code of a reported reason "CODE: text" ("" when it has none);
// reasonText the rest.
func reasonCode(r string) string {
	code, _, ok := strings.Cut(r, ":")
	if !ok || code == "" || len(code) > 35 || strings.ContainsAny(code, " ") {
		return ""
	}
	return code
}

func reasonText(r string) string {
	if code := reasonCode(r); code != "" {
		return strings.TrimSpace(strings.TrimPrefix(r, code+":"))
	}
	return r
}

// report records a pain.002 status report: the statuses with an effect (accepted,
// rejected) on the instructions of the original file, applied on their orders by the next
// applyPending. It returns the number of transfer statuses the report gave.
func (p *Payer) report(ctx context.Context, file ledger.File, data []byte) (int, error) {
	r, err := iso20022.ParsePain002(data)
	if err != nil {
		return 0, &invalidFileError{err: err}
	}
	file.MessageType, file.MessageID = string(iso20022.Pain002V10), r.MessageID
	var statuses []ledger.PayoutStatus
	txs := r.Transactions()
	for _, t := range txs {
		status := ""
		switch t.Status {
		case "ACCP", "ACTC", "ACSP", "ACSC", "ACWC", "ACCC":
			status = ledger.StatusAccepted
		case "RJCT":
			status = ledger.StatusRejected
		default:
			file.Counts["Status"+t.Status]++
			if t.VoP == "" {
				continue
			}
			// Verified, not decided yet (RCVD, PDNG): the result alone is recorded.
			status = ledger.StatusInstructed
		}
		file.Counts[status]++
		if t.VoP != "" {
			file.Counts["VoP"+t.VoP]++
			vopResultsTotal.WithLabelValues(t.VoP).Inc()
		}
		statuses = append(statuses, ledger.PayoutStatus{
			OriginalMessageID: r.OriginalMessageID, EndToEndID: t.OriginalEndToEndID,
			Status: status, BankStatus: t.Status, Reason: describeReasons(t.Reasons), At: r.CreatedAt.UTC(),
			VoPResult: t.VoP, VoPName: t.VoPName,
		})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n, err := p.Payouts.Report(ctx, file, statuses)
	if err != nil {
		return 0, err
	}
	p.Log.WithName("bank-payout").Info("recorded a payment status report", "originalMessageID", r.OriginalMessageID,
		"statuses", len(txs), "changed", n)
	return len(txs), nil
}

// describeReasons is "CODE: text" of the first reason (codes of the others appended).
func describeReasons(rs []iso20022.StatusReason) string {
	var parts []string
	for _, r := range rs {
		s := strings.TrimPrefix(r.Code, "Prtry:")
		if len(r.AdditionalInfo) > 0 {
			s += ": " + strings.Join(r.AdditionalInfo, " ")
		}
		parts = append(parts, s)
	}
	return truncateRunes(strings.Join(parts, "; "), 512)
}

func (p *Payer) event(o *investv1.Order, kind, reason, format string, args ...any) {
	if p.Recorder != nil {
		p.Recorder.Eventf(o, nil, kind, reason, "Payout", format, args...)
	}
}

func (p *Payer) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Payer) debitWindow() time.Duration {
	if p.DebitWindow > 0 {
		return p.DebitWindow
	}
	return DefaultDebitWindow
}

// day is t's UTC date at midnight.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
