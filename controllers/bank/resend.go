package bank

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// ReasonPayoutResent: an operator sent an order's rejected or returned transfer again.
const ReasonPayoutResent = "PayoutResent"

// resend takes a Resend decision: the order's transfer that the bank rejected or returned
// (its status.payout) is instructed again, to the customer's account as registered now,
// under a source of its own (ledger.ResendSource of the decision: asked again after a
// crash, it records nothing new), and status.payout is cleared, which ends the stall. It
// is refused while another transfer of the same purpose is on its way, so that two
// decisions never send the money twice.
func (g *Ingester) resend(ctx context.Context, d *investv1.BankDecision) error {
	refused := func(format string, args ...any) error {
		return writeDecisionStatus(ctx, g.Client, g.Recorder, d, investv1.BankDecisionStatus{Phase: investv1.BankDecisionRefused,
			Message: fmt.Sprintf(format, args...)}, "Warning", ReasonDecisionRefused)
	}
	if g.Payer == nil {
		return refused("this installation sends no payouts through the bank: pay by hand and record the evidence (docs/bank.md)")
	}
	ref := d.Spec.Order
	o := &investv1.Order{}
	if err := g.Client.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.ID}, o); err != nil {
		if apierrors.IsNotFound(err) {
			return refused("order %s/%s does not exist", ref.Namespace, ref.ID)
		}
		return fmt.Errorf("read order %s/%s: %w", ref.Namespace, ref.ID, err)
	}
	source := ledger.ResendSource(d.Name)
	ps, _, err := g.Payer.Payouts.ListPayouts(ctx, ledger.PayoutQuery{Namespace: o.Namespace, OrderID: o.Name, Limit: 1000})
	if err != nil {
		return fmt.Errorf("read the transfers of %s/%s: %w", o.Namespace, o.Name, err)
	}
	var mine *ledger.Payout
	for i := range ps {
		if ps[i].Source == source {
			mine = &ps[i] // recorded before a crash kept the rest from being written
		}
	}
	if mine == nil {
		problem := o.Status.Payout
		if problem == nil {
			return refused("order %s/%s has no transfer the bank rejected or returned (status.payout) to send again", ref.Namespace, ref.ID)
		}
		purpose := ledger.Purpose(problem.Purpose)
		returned, err := g.returnedTransfers(ctx, o)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if p.Purpose == purpose && p.Status != ledger.StatusRejected && !returned[p.EndToEndID] {
				return refused("the %s of order %s/%s is on its way already (transfer %s, %s): wait for the bank's answer",
					strings.ToLower(string(purpose)), ref.Namespace, ref.ID, p.EndToEndID, p.Status)
			}
		}
		ins, err := g.Payer.instruction(ctx, o, purpose)
		var np *notPossibleError
		if errors.As(err, &np) {
			return refused("%s", np.Error())
		}
		if err != nil {
			return err
		}
		if ins.Amount == 0 {
			return refused("the %s is below one cent: nothing a bank can send", strings.ToLower(string(purpose)))
		}
		// The account the customer registers as primary now: the one the order named
		// may be the one the bank refused.
		name, iban, err := g.Payer.creditor(ctx, o, purpose, "")
		if err != nil {
			return err
		}
		if iban != "" {
			ins.CreditorName, ins.CreditorIBAN = truncateRunes(name, 70), iban
		}
		ins.Source = source
		ins.EndToEndID = SourceEndToEndID("FSP", o.Namespace+"/"+o.Name+"/"+source)
		if _, err := g.Payer.Payouts.Instruct(ctx, []ledger.Payout{ins}); err != nil {
			return fmt.Errorf("record the transfer of %s/%s again: %w", o.Namespace, o.Name, err)
		}
		ins.Status = ledger.StatusInstructed
		mine = &ins
		payoutsInstructedTotal.Inc()
		decisionsTotal.WithLabelValues(investv1.BankDecisionResend).Inc()
	}
	if problem := o.Status.Payout; problem != nil {
		before := o.DeepCopy()
		o.Status.Payout = nil
		if err := patch.Status(ctx, g.Client, o, before); err != nil {
			if patch.Stale(err) {
				return nil // the next round reads the order afresh; the instruction is recorded
			}
			return fmt.Errorf("end the stall of %s/%s: %w", o.Namespace, o.Name, err)
		}
		g.event(o, "Normal", ReasonPayoutResent, "an operator sent the %s of %s again to %s (was %s: %s): BankDecision %s by %s: %s",
			strings.ToLower(string(mine.Purpose)), money.Format(mine.Amount, mine.Currency), maskIBAN(mine.CreditorIBAN),
			strings.ToLower(problem.Outcome), problem.Reason, d.Name, orUnknown(d.Spec.DecidedBy), d.Spec.Note)
	}
	return writeDecisionStatus(ctx, g.Client, g.Recorder, d, investv1.BankDecisionStatus{
		Phase: investv1.BankDecisionRecorded, RecordedAt: &metav1.Time{Time: g.now().UTC().Truncate(time.Second)},
		Amount: mine.Amount, Currency: investv1.CurrencyCode(mine.Currency),
		Message: fmt.Sprintf("the %s of order %s/%s is sent again to %s in the next credit transfer file",
			strings.ToLower(string(mine.Purpose)), ref.Namespace, ref.ID, maskIBAN(mine.CreditorIBAN)),
		Payout: &investv1.BankDecisionPayout{EndToEndID: mine.EndToEndID, Amount: mine.Amount, CreditorIBAN: maskIBAN(mine.CreditorIBAN), Status: mine.Status},
	}, "Normal", ReasonDecisionRecorded)
}

// returnedTransfers are the end-to-end ids of the order's transfers that came back.
func (g *Ingester) returnedTransfers(ctx context.Context, o *investv1.Order) (map[string]bool, error) {
	rows, _, err := g.Ledger.Rows(ctx, ledger.Query{Namespace: o.Namespace, OrderID: o.Name, Limit: 1000, Kinds: []string{string(reconcile.Returned)}})
	if err != nil {
		return nil, fmt.Errorf("read the returns of %s/%s: %w", o.Namespace, o.Name, err)
	}
	out := map[string]bool{}
	for _, r := range rows {
		out[r.EndToEndID] = true
	}
	return out, nil
}
