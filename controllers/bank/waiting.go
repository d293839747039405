package bank

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/bank/rf"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// waiting returns the BUY orders that wait for a payment into the fund's account iban,
// as reconcile expects them: the amount due, what arrived for them so far (the ledger),
// and the IBANs their accounts registered as payment methods. An order leaves the list
// when it cannot be decided on: no RF reference (placed before references were RF), no
// amount due yet (a forward BUY by units before its strike), or paid in full already
// (its payment is recorded in the ledger and waits to be written on it).
func (g *Ingester) waiting(ctx context.Context, iban string) ([]reconcile.Order, error) {
	var list investv1.OrderList
	if err := g.Client.List(ctx, &list, client.MatchingFields{index.OrderState: string(investv1.StateAwaitingPayment)}); err != nil {
		return nil, fmt.Errorf("list the orders awaiting payment: %w", err)
	}
	iban = validation.NormalizeIBAN(iban)
	var orders []reconcile.Order
	keys := make([]ledger.OrderKey, 0, len(list.Items))
	payers := map[string][]string{} // namespace/accountID → registered IBANs
	for i := range list.Items {
		o := &list.Items[i]
		q := o.Spec.Quote
		if o.Spec.Side != investv1.SideBuy || q == nil || q.PaymentDetails == nil || !o.DeletionTimestamp.IsZero() ||
			o.Status.Settlement.PaymentReceived != nil || validation.NormalizeIBAN(q.PaymentDetails.IBAN) != iban {
			continue
		}
		if _, err := rf.Normalize(q.PaymentDetails.PaymentReference); err != nil {
			continue
		}
		due := AmountDue(o)
		if due <= 0 {
			continue
		}
		acct := o.Namespace + "/" + string(o.Spec.AccountID)
		ibans, seen := payers[acct]
		if !seen {
			var err error
			if ibans, err = g.payerIBANs(ctx, o.Namespace, string(o.Spec.AccountID)); err != nil {
				return nil, err
			}
			payers[acct] = ibans
		}
		ro := reconcile.Order{
			ID: o.Name, Namespace: o.Namespace, Reference: q.PaymentDetails.PaymentReference,
			AmountDue: due, Currency: string(o.Spec.Currency), PayerIBANs: ibans, CutOff: cutOff(o),
		}
		orders = append(orders, ro)
		keys = append(keys, ledger.OrderKey{Namespace: o.Namespace, OrderID: o.Name})
	}
	if len(orders) == 0 {
		return nil, nil
	}
	received, err := g.Ledger.Received(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("read what arrived for the waiting orders: %w", err)
	}
	out := orders[:0]
	for _, o := range orders {
		o.Received = received[ledger.OrderKey{Namespace: o.Namespace, OrderID: o.ID}]
		if o.Received >= o.AmountDue {
			continue // paid in full; the evidence is on its way (ApplyPending)
		}
		out = append(out, o)
	}
	return out, nil
}

// payerIBANs are the valid IBANs an account registered as payment methods.
func (g *Ingester) payerIBANs(ctx context.Context, namespace, accountID string) ([]string, error) {
	var pmds investv1.PaymentMethodDetailsList
	if err := g.Client.List(ctx, &pmds, client.InNamespace(namespace), client.MatchingFields{index.PaymentMethodAccount: accountID}); err != nil {
		return nil, fmt.Errorf("list the payment methods of account %s/%s: %w", namespace, accountID, err)
	}
	var ibans []string
	for _, p := range pmds.Items {
		iban := validation.NormalizeIBAN(p.Spec.IBAN)
		if validation.ValidateIBAN(iban) == nil {
			ibans = append(ibans, iban)
		}
	}
	return ibans, nil
}

// AmountDue is what the customer of a BUY transfers, in money units: the quote's amount,
// or for a forward BUY by units the gross amount of its contract note once struck,
// rounded up to a whole cent, since a bank transfer carries cents (a price with four
// decimals times one unit may not be a whole number of cents); 0 while it is not known.
func AmountDue(o *investv1.Order) int64 {
	if lifecycle.CarriedBuy(o) {
		return 0 // paid with the money its parent carried to it, never by a transfer
	}
	if lifecycle.CashOnChain(o) {
		return 0 // paid by an escrow on chain, never by a bank transfer
	}
	var due int64
	if q := o.Spec.Quote; q != nil && q.Amount > 0 {
		due = q.Amount
	} else if s := o.Status.Strike; s != nil {
		due = s.GrossAmount
	}
	if r := due % unitsPerCent; r != 0 {
		due += unitsPerCent - r
	}
	return due
}

// unitsPerCent is a cent in money units (1 EUR = 10,000).
const unitsPerCent = money.UnitsPerCurrencyUnit / 100

// cutOff is the order's cut-off (its dealing's, once re-dated), zero when it has none.
func cutOff(o *investv1.Order) time.Time {
	if d := o.Status.Dealing; d != nil && !d.CutOff.IsZero() {
		return d.CutOff.Time
	}
	if q := o.Spec.Quote; q != nil && q.CutOff != nil {
		return q.CutOff.Time
	}
	return time.Time{}
}

// maskIBAN hides all of an IBAN but its last four characters, for logs and messages.
func maskIBAN(iban string) string {
	if len(iban) <= 4 {
		return strings.Repeat("*", len(iban))
	}
	return strings.Repeat("*", len(iban)-4) + iban[len(iban)-4:]
}
