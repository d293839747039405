package bank

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Reasons of the Events the ingestion emits on orders, besides the evidence's own.
const (
	// ReasonPaymentShort: a payment arrived that leaves part of the amount due unpaid.
	ReasonPaymentShort = "PaymentShort"
	// ReasonPaymentExcess: the payments exceed the amount due; the excess is refunded.
	ReasonPaymentExcess = "PaymentExcess"
	// ReasonPaymentWrongCurrency: a payment for the order in another currency, held in
	// suspense and never converted.
	ReasonPaymentWrongCurrency = "PaymentWrongCurrency"
	// ReasonPaymentNotWaiting: a payment decided for the order arrived after it stopped
	// waiting (cancelled meanwhile); it stays in the ledger for an operator.
	ReasonPaymentNotWaiting = "PaymentForOrderNotWaiting"
)

// ApplyPending writes on their orders the decisions the ledger holds as pending, oldest
// first, and marks them done. Orders are independent, so ApplyWorkers write at once; the
// decisions of one order are written in their order by one worker. A decision whose
// write loses a race (the order changed since the cache read it) stays pending for the
// next round; so does one whose write failed (logged and counted, never returned: the
// inbox goes on). It returns an error only when the ledger does not answer.
func (g *Ingester) ApplyPending(ctx context.Context) error {
	for {
		rows, err := g.Ledger.Pending(ctx, pendingBatch)
		if err != nil {
			return fmt.Errorf("read the pending bank decisions: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		done, firstErr := g.applyAll(ctx, rows)
		if len(done) > 0 {
			if err := g.Ledger.Done(ctx, done, g.now().UTC()); err != nil {
				return fmt.Errorf("mark bank decisions applied: %w", err)
			}
		}
		if firstErr != nil {
			// An order that cannot be written now (the API server refused or did not
			// answer) keeps its decision pending; it must not hold up the inbox.
			applyErrorsTotal.Inc()
			g.Log.WithName("bank-ingest").Error(firstErr, "could not write bank decisions on their orders; they stay pending and are tried again next round",
				"pending", len(rows)-len(done))
			return nil
		}
		if len(done) < len(rows) {
			return nil // lost races: the next round reads the orders fresh
		}
	}
}

// DefaultApplyWorkers is how many orders ApplyPending writes at once when
// Ingester.ApplyWorkers is zero.
const DefaultApplyWorkers = 16

// applyAll applies rows, grouped by order, on ApplyWorkers goroutines, and returns the
// IDs of the rows done and the first error.
func (g *Ingester) applyAll(ctx context.Context, rows []ledger.Row) ([]int64, error) {
	var groups [][]ledger.Row
	index := map[ledger.OrderKey]int{}
	for _, r := range rows {
		k := ledger.OrderKey{Namespace: r.Namespace, OrderID: r.OrderID}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	var (
		mu       sync.Mutex
		done     = make([]int64, 0, len(rows))
		firstErr error
		next     = make(chan []ledger.Row)
		wg       sync.WaitGroup
	)
	workers := g.ApplyWorkers
	if workers <= 0 {
		workers = DefaultApplyWorkers
	}
	for range min(workers, len(groups)) {
		wg.Go(func() {
			for group := range next {
				for _, r := range group {
					ok, err := g.apply(ctx, r)
					mu.Lock()
					if err != nil && firstErr == nil {
						firstErr = err
					}
					if ok {
						done = append(done, r.ID)
					}
					mu.Unlock()
					if !ok {
						break // the order's later decisions wait for this one
					}
				}
			}
		})
	}
	for _, group := range groups {
		next <- group
	}
	close(next)
	wg.Wait()
	return done, firstErr
}

// apply writes one decision on its order; done reports that nothing is left to write
// (written now or before, or the order is gone).
func (g *Ingester) apply(ctx context.Context, r ledger.Row) (done bool, err error) {
	var payout *ledger.Payout
	if k := reconcile.Kind(r.Kind); (k == reconcile.PaidOut || k == reconcile.Returned) && g.Payer != nil {
		if payout, err = g.Payer.byEndToEnd(ctx, r.EndToEndID); err != nil {
			return false, err
		}
		if r.OrderID == "" || payout != nil && payout.OrderID == "" {
			return g.applyToDecision(ctx, r, payout)
		}
	}
	if r.OrderID == "" {
		return true, nil
	}
	o := &investv1.Order{}
	if err := g.Client.Get(ctx, types.NamespacedName{Namespace: r.Namespace, Name: r.OrderID}, o); err != nil {
		if apierrors.IsNotFound(err) {
			g.Log.WithName("bank-ingest").Info("the order of a bank decision is gone; the decision stays in the ledger",
				"order", r.Namespace+"/"+r.OrderID, "entry", r.EntryReference, "kind", r.Kind)
			return true, nil
		}
		return false, err
	}
	switch reconcile.Kind(r.Kind) {
	case reconcile.Underpaid:
		g.event(o, "Warning", ReasonPaymentShort, "received %s of %s due (bank entry %s); %s still to pay",
			money.Format(r.Received, r.Currency), money.Format(r.Due, r.Currency), r.EntryReference, money.Format(r.Shortfall, r.Currency))
		if !waitsForPayment(o) && g.Payer != nil {
			// Cancelled before this part arrived: it goes back at once.
			return g.Payer.sendBack(ctx, o, r, ledger.PurposeReturn)
		}
		return true, nil
	case reconcile.WrongCurrency:
		g.event(o, "Warning", ReasonPaymentWrongCurrency, "a payment of %s for the order (bank entry %s) is not in its currency %s: held in suspense, never converted",
			money.Format(r.Amount, r.Currency), r.EntryReference, o.Spec.Currency)
		return true, nil
	case reconcile.Matched, reconcile.Overpaid:
		return g.recordPayment(ctx, o, r)
	case reconcile.PaidOut:
		if g.Payer == nil {
			return true, nil
		}
		if payout != nil && !lifecyclePurpose(payout.Purpose) {
			g.Payer.event(o, "Normal", ReasonSentBack, "the bank booked the debit of %s sent back to %s (%s, bank entry %s)",
				money.Format(r.Amount, r.Currency), maskIBAN(payout.CreditorIBAN), strings.ToLower(string(payout.Purpose)), r.EntryReference)
			return true, nil
		}
		sent, completed := payoutSteps(purposeOfDebit(o, payout))
		// The debit proves the transfer was sent too, should its acceptance not have
		// been reported (a bank that sends no pain.002 for instant transfers).
		return g.Payer.recordEvidence(ctx, o, time.Time{}, []lifecycle.Step{sent, completed}, r.EntryReference,
			fmt.Sprintf("the bank booked the debit of %s (bank entry %s)", money.Format(r.Amount, r.Currency), r.EntryReference))
	case reconcile.Returned:
		if g.Payer == nil {
			return true, nil
		}
		if payout != nil && !lifecyclePurpose(payout.Purpose) {
			payoutsReturnedTotal.Inc()
			g.Payer.event(o, "Warning", ReasonPayoutReturned, "%s sent back to %s (%s) came back (bank entry %s, %s): the money is in the fund's account again, and a person sends it back by hand",
				money.Format(r.Amount, r.Currency), maskIBAN(payout.CreditorIBAN), strings.ToLower(string(payout.Purpose)), r.EntryReference, r.ReturnReason)
			return true, nil
		}
		return g.Payer.recordProblem(ctx, o, investv1.OrderPayout{
			Purpose: string(purposeOfDebit(o, payout)), EndToEndID: r.EndToEndID, Amount: r.Due,
			Outcome: investv1.PayoutReturned, Code: strings.TrimPrefix(r.ReturnReason, "Prtry:"),
			Reason: fmt.Sprintf("%s came back (bank entry %s)", money.Format(r.Amount, r.Currency), r.EntryReference),
			At:     metav1.NewTime(g.now().UTC().Truncate(time.Second)),
		})
	}
	return true, nil
}

// applyToDecision writes the debit or the return of a transfer that names no order (an
// operator's refund from suspense) on its BankDecision.
func (g *Ingester) applyToDecision(ctx context.Context, r ledger.Row, payout *ledger.Payout) (bool, error) {
	if payout == nil {
		return true, nil
	}
	status := payoutPaidOut
	if reconcile.Kind(r.Kind) == reconcile.Returned {
		status = payoutReturned
		payoutsReturnedTotal.Inc()
	}
	if err := refundStatus(ctx, g.Client, g.Recorder, payout.Source, status, strings.TrimPrefix(r.ReturnReason, "Prtry:")); err != nil {
		return false, err
	}
	return true, nil
}

// waitsForPayment says the order still takes a payment.
func waitsForPayment(o *investv1.Order) bool {
	return o.Status.State == investv1.StateAwaitingPayment && o.DeletionTimestamp.IsZero()
}

// recordPayment records the paymentReceived evidence of a paid order with the moves it
// unlocks, in one status write, and its Events.
func (g *Ingester) recordPayment(ctx context.Context, o *investv1.Order, r ledger.Row) (bool, error) {
	if o.Status.Settlement.PaymentReceived != nil {
		return g.sendExcess(ctx, o, r) // written before (a crash between the write and Done)
	}
	if !waitsForPayment(o) {
		paymentsNotWaitingTotal.Inc()
		g.event(o, "Warning", ReasonPaymentNotWaiting, "a payment of %s (bank entry %s) arrived for the order after it stopped waiting (state %s): it is sent back to the account it came from",
			money.Format(r.Amount, r.Currency), r.EntryReference, o.Status.State)
		if g.Payer == nil {
			return true, nil
		}
		return g.Payer.sendBack(ctx, o, r, ledger.PurposeReturn)
	}
	before := o.DeepCopy()
	rec := investv1.SettlementRecord{Reference: r.EntryReference, At: metav1.NewTime(g.now()), RecordedBy: RecordedBy}
	lifecycle.Record(o, lifecycle.StepPaymentReceived, rec)
	moves, err := facts.Follow(ctx, g.Client, o, g.now())
	if err != nil {
		return false, err
	}
	if err := patch.Status(ctx, g.Client, o, before); err != nil {
		if patch.Stale(err) {
			return false, nil
		}
		return false, fmt.Errorf("record the payment of %s/%s: %w", o.Namespace, o.Name, err)
	}
	recorded := fmt.Sprintf("%s recorded paymentReceived evidence: bank entry %s, %s received", RecordedBy, r.EntryReference, money.Format(r.Received, r.Currency))
	kind, reason, note := lifecycle.EvidenceEvent(lifecycle.StepPaymentReceived, recorded, before.Status.State, moves)
	g.event(o, kind, reason, "%s", note)
	if reconcile.Kind(r.Kind) == reconcile.Overpaid {
		g.event(o, "Warning", ReasonPaymentExcess, "received %s, %s above the %s due (bank entry %s): the excess is sent back to the account it came from",
			money.Format(r.Received, r.Currency), money.Format(r.Excess, r.Currency), money.Format(r.Due, r.Currency), r.EntryReference)
	}
	return g.sendExcess(ctx, o, r)
}

// sendExcess records the transfer of an overpaid order's excess (nothing for the other
// kinds). The payment is written on the order first: the excess is what the order does
// not use once it is paid.
func (g *Ingester) sendExcess(ctx context.Context, o *investv1.Order, r ledger.Row) (bool, error) {
	if reconcile.Kind(r.Kind) != reconcile.Overpaid || g.Payer == nil {
		return true, nil
	}
	return g.Payer.sendBack(ctx, o, r, ledger.PurposeExcess)
}

func (g *Ingester) event(o *investv1.Order, kind, reason, format string, args ...any) {
	if g.Recorder != nil {
		g.Recorder.Eventf(o, nil, kind, reason, "RecordPayment", format, args...)
	}
}
