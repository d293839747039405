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
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/index"
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
		if payout != nil && payout.Source != "" {
			if err := refundStatus(ctx, g.Client, g.Recorder, payout.Source, payoutPaidOut, ""); err != nil {
				return false, err
			}
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
		if payout != nil && payout.Source != "" {
			if err := refundStatus(ctx, g.Client, g.Recorder, payout.Source, payoutReturned, strings.TrimPrefix(r.ReturnReason, "Prtry:")); err != nil {
				return false, err
			}
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

// healPolls is how often, in polls, the ingestion compares the ledger with the orders
// (healPayments): every 12 polls, a minute at the default poll interval.
const healPolls = 12

// healPayments writes again the payments the ledger recorded as written on their orders
// that the orders do not have: an order that waits for a payment while the ledger holds
// its payment in full, none of it pending. That is what an etcd restored from a backup
// taken before the payment was written leaves (the ledger, in the archive's database, is
// not restored with it), or a status write that a person undid. The ledger is the book of
// what the bank said: its rows are written on the orders again, once each (recordPayment
// leaves an order that has its evidence alone). It runs every healPolls rounds and at
// start, on the leader.
func (g *Ingester) healPayments(ctx context.Context) error {
	var list investv1.OrderList
	if err := g.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(investv1.StateAwaitingPayment)}); err != nil {
		return fmt.Errorf("list the orders awaiting payment: %w", err)
	}
	var keys []ledger.OrderKey
	orders := map[ledger.OrderKey]*investv1.Order{}
	for i := range list.Items {
		o := &list.Items[i]
		if o.Spec.Side != investv1.SideBuy || o.Status.Settlement.PaymentReceived != nil || !o.DeletionTimestamp.IsZero() || AmountDue(o) <= 0 {
			continue
		}
		k := ledger.OrderKey{Namespace: o.Namespace, OrderID: o.Name}
		keys, orders[k] = append(keys, k), o
	}
	if len(keys) == 0 {
		return nil
	}
	received, err := g.Ledger.Received(ctx, keys)
	if err != nil {
		return fmt.Errorf("read what arrived for the waiting orders: %w", err)
	}
	for _, k := range keys {
		o := orders[k]
		if received[k] < AmountDue(o) {
			continue
		}
		rows, _, err := g.Ledger.Rows(ctx, ledger.Query{Namespace: k.Namespace, OrderID: k.OrderID, Limit: 100,
			Kinds: []string{string(reconcile.Matched), string(reconcile.Overpaid)}})
		if err != nil {
			return fmt.Errorf("read the payments of %s/%s: %w", k.Namespace, k.OrderID, err)
		}
		if len(rows) == 0 || rows[0].Pending {
			continue // its payment is still to be written: ApplyPending's
		}
		r := rows[0] // newest first: the payment that completed it
		if g.Payer != nil {
			// A payment sent back (the order was cancelled before it was written, and the
			// restore brought the order back to before its cancellation) pays nothing.
			back, err := g.Payer.sentBack(ctx, o, r)
			if err != nil {
				return err
			}
			if back {
				if g.Payer.warnOnce("healed-back/" + string(o.UID)) {
					g.event(o, "Warning", ReasonPaymentNotWaiting, "the bank ledger holds a payment of %s (bank entry %s) for the order that was sent back to its payer: it is not written on the order; a person decides",
						money.Format(r.Amount, r.Currency), r.EntryReference)
				}
				continue
			}
		}
		done, err := g.recordPayment(ctx, o, r)
		if err != nil {
			return err
		}
		if done {
			paymentsHealedTotal.Inc()
			g.Log.WithName("bank-ingest").Info("wrote again a payment the bank ledger holds and its order had lost (an etcd restored from an older backup?)",
				"order", k.Namespace+"/"+k.OrderID, "entry", r.EntryReference)
		}
	}
	return nil
}

// healPayouts writes again what the bank said of the transfers of orders whose next step
// is still that transfer: its acceptance or rejection (the pain.002 the book holds), its
// debit or its return (the ledger's rows naming its end-to-end id). An order restored
// from an older etcd backup forgets them; the books do not. Like healPayments, it writes
// only what the books hold as written already (pending statuses and rows are
// ApplyPending's), once each.
func (g *Ingester) healPayouts(ctx context.Context) error {
	if g.Payer == nil {
		return nil
	}
	for _, state := range []investv1.OrderState{investv1.StateExecuted, investv1.StateCancelled, investv1.StateDeliveryCompleted} {
		var list investv1.OrderList
		if err := g.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(state)}); err != nil {
			return fmt.Errorf("list the %s orders: %w", state, err)
		}
		for i := range list.Items {
			o := &list.Items[i]
			purpose, ok := purposeOf(o)
			if !ok || o.Status.Payout != nil || !o.DeletionTimestamp.IsZero() {
				continue
			}
			if err := g.healPayout(ctx, o, purpose); err != nil {
				return err
			}
		}
	}
	return nil
}

// healPayout writes again on o what the books hold of its transfer for purpose.
func (g *Ingester) healPayout(ctx context.Context, o *investv1.Order, purpose ledger.Purpose) error {
	ps, _, err := g.Payer.Payouts.ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name, Purposes: []ledger.Purpose{purpose}})
	if err != nil {
		return fmt.Errorf("read the transfers of %s/%s: %w", o.Namespace, o.Name, err)
	}
	// The newest transfer of the purpose only: one an operator sent again supersedes the
	// one the bank rejected or returned.
	for _, ins := range ps[:min(len(ps), 1)] {
		if ins.Pending || ins.Status == ledger.StatusInstructed && ins.ReleasedAt.IsZero() {
			continue
		}
		rows, _, err := g.Ledger.Rows(ctx, ledger.Query{Namespace: o.Namespace, OrderID: o.Name, Limit: 100,
			Kinds: []string{string(reconcile.PaidOut), string(reconcile.Returned)}})
		if err != nil {
			return fmt.Errorf("read the debits of %s/%s: %w", o.Namespace, o.Name, err)
		}
		for _, r := range rows {
			if r.EndToEndID == ins.EndToEndID && !r.Pending {
				if done, err := g.apply(ctx, r); err != nil || done {
					if done {
						payoutsHealedTotal.Inc()
						g.Log.WithName("bank-payout").Info("wrote again the debit or return of a transfer its order had lost (an etcd restored from an older backup?)",
							"order", o.Namespace+"/"+o.Name, "entry", r.EntryReference)
					}
					return err
				}
			}
		}
		if ins.Status == ledger.StatusAccepted || ins.Status == ledger.StatusRejected {
			done, err := g.Payer.applyStatus(ctx, ins)
			if done && err == nil {
				payoutsHealedTotal.Inc()
				g.Log.WithName("bank-payout").Info("wrote again the bank's status of a transfer its order had lost (an etcd restored from an older backup?)",
					"order", o.Namespace+"/"+o.Name, "status", ins.Status)
			}
			return err
		}
	}
	return nil
}
