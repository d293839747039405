package bank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Reasons of the Events of operators' decisions.
const (
	// ReasonDecisionRecorded: a BankDecision is in the bank ledger and takes effect.
	ReasonDecisionRecorded = "DecisionRecorded"
	// ReasonDecisionRefused: a BankDecision cannot be taken; nothing was recorded.
	ReasonDecisionRefused = "DecisionRefused"
	// ReasonPaymentAssigned: an operator assigned a payment in suspense to the order.
	ReasonPaymentAssigned = "PaymentAssigned"
)

// RuleOperator is the Rule of a row an operator's assignment recorded (reconcile's rules
// name how the ingestion matched; this one, that a person did).
const RuleOperator = "Operator"

// refusedError is a decision that cannot be taken, with the reason the operator reads.
type refusedError struct{ msg string }

func (e *refusedError) Error() string { return e.msg }

func refuse(format string, args ...any) error {
	return &refusedError{msg: fmt.Sprintf(format, args...)}
}

// takeDecisions takes the operators' BankDecisions that have no phase yet: each is checked
// against the ledger and the order it names, recorded in the ledger with what it does
// (ledger.Decisions.Decide: one transaction, once), and its status written. It runs in
// the ingester's rounds, on the leader, so that an assignment and a statement never
// decide on one order at once. A decision recorded before a crash kept its status from
// being written is found in the ledger by its name and only gets its status.
func (g *Ingester) takeDecisions(ctx context.Context) error {
	if g.Decisions == nil {
		return nil
	}
	var list investv1.BankDecisionList
	if err := g.Client.List(ctx, &list); err != nil {
		return fmt.Errorf("list the bank decisions: %w", err)
	}
	for i := range list.Items {
		d := &list.Items[i]
		if d.Status.Phase != "" || !d.DeletionTimestamp.IsZero() {
			continue
		}
		if err := g.takeDecision(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// takeDecision records one decision, or refuses it, and writes its status.
func (g *Ingester) takeDecision(ctx context.Context, d *investv1.BankDecision) error {
	rec, found, err := g.Decisions.Decision(ctx, d.Name)
	if err != nil {
		return fmt.Errorf("read bank decision %s: %w", d.Name, err)
	}
	if found {
		return g.decisionRecorded(ctx, d, rec)
	}
	if d.Spec.Action == investv1.BankDecisionResend {
		return g.resend(ctx, d)
	}
	suspense, row, payout, err := g.plan(ctx, d)
	var refused *refusedError
	if errors.As(err, &refused) {
		return writeDecisionStatus(ctx, g.Client, g.Recorder, d, investv1.BankDecisionStatus{Phase: investv1.BankDecisionRefused, Message: refused.msg,
			Amount: suspense.Amount, Currency: investv1.CurrencyCode(suspense.Currency)}, "Warning", ReasonDecisionRefused)
	}
	if err != nil {
		return err
	}
	rec = ledger.Decision{
		Name: d.Name, UID: string(d.UID), Action: d.Spec.Action, EntryReference: d.Spec.Entry.Reference,
		Transaction: d.Spec.Entry.Transaction, Note: d.Spec.Note, DecidedBy: d.Spec.DecidedBy, DecidedAt: g.now().UTC(),
	}
	if o := d.Spec.Order; o != nil {
		rec.Namespace, rec.OrderID = o.Namespace, o.ID
	}
	err = g.Decisions.Decide(ctx, rec, row, payout)
	var decided *ledger.DecidedError
	switch {
	case errors.As(err, &decided):
		return writeDecisionStatus(ctx, g.Client, g.Recorder, d, investv1.BankDecisionStatus{Phase: investv1.BankDecisionRefused,
			Message: fmt.Sprintf("bank entry %s/%d was decided already by BankDecision %s", rec.EntryReference, rec.Transaction, decided.Decision),
			Amount:  suspense.Amount, Currency: investv1.CurrencyCode(suspense.Currency)}, "Warning", ReasonDecisionRefused)
	case errors.Is(err, ledger.ErrAlreadyRecorded):
		// Another round recorded it a moment ago (a replica that was leader before).
		if rec, _, err = g.Decisions.Decision(ctx, d.Name); err != nil {
			return fmt.Errorf("read bank decision %s: %w", d.Name, err)
		}
	case err != nil:
		return fmt.Errorf("record bank decision %s: %w", d.Name, err)
	}
	decisionsTotal.WithLabelValues(rec.Action).Inc()
	return g.decisionRecorded(ctx, d, rec)
}

// plan checks a decision and returns the suspense row it decides on, and the row or the
// payout instruction it records (an assignment's row, a refund's instruction).
func (g *Ingester) plan(ctx context.Context, d *investv1.BankDecision) (suspense ledger.Row, row *ledger.Row, payout *ledger.Payout, err error) {
	if d.Spec.Entry == nil {
		return ledger.Row{}, nil, nil, refuse("action %s names no bank entry", d.Spec.Action)
	}
	ref, txn := d.Spec.Entry.Reference, d.Spec.Entry.Transaction
	suspense, found, err := g.Decisions.Row(ctx, ref, txn)
	if err != nil {
		return suspense, nil, nil, fmt.Errorf("read bank entry %s/%d: %w", ref, txn, err)
	}
	switch {
	case !found:
		return suspense, nil, nil, refuse("no bank entry %s (transaction %d) is in the bank ledger: `fundsharectl bank entries --open` lists the payments in suspense", ref, txn)
	case suspense.Kind != string(reconcile.Unmatched) && suspense.Kind != string(reconcile.WrongCurrency):
		return suspense, nil, nil, refuse("bank entry %s/%d is %s, not in suspense: only Unmatched and WrongCurrency entries wait for a decision", ref, txn, suspense.Kind)
	case suspense.Decision != "":
		return suspense, nil, nil, refuse("bank entry %s/%d was decided already by BankDecision %s", ref, txn, suspense.Decision)
	}
	switch d.Spec.Action {
	case investv1.BankDecisionAssign:
		row, err = g.assignment(ctx, d, suspense)
		return suspense, row, nil, err
	case investv1.BankDecisionRefund:
		payout, err = g.suspenseRefund(ctx, d, suspense)
		return suspense, nil, payout, err
	}
	return suspense, nil, nil, nil
}

// assignment is the ledger row that ties the suspense payment to the order the decision
// names, decided as reconcile decides a payment quoting the order's reference.
func (g *Ingester) assignment(ctx context.Context, d *investv1.BankDecision, s ledger.Row) (*ledger.Row, error) {
	ref := d.Spec.Order
	if s.CreditDebit != "CRDT" {
		return nil, refuse("bank entry %s/%d is a debit: only a payment that came in can pay an order", s.EntryReference, s.Transaction)
	}
	o := &investv1.Order{}
	if err := g.Client.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.ID}, o); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, refuse("order %s/%s does not exist", ref.Namespace, ref.ID)
		}
		return nil, fmt.Errorf("read order %s/%s: %w", ref.Namespace, ref.ID, err)
	}
	switch {
	case o.Spec.Side != investv1.SideBuy:
		return nil, refuse("order %s/%s is a %s: only a BUY is paid by the customer", ref.Namespace, ref.ID, o.Spec.Side)
	case o.Status.State != investv1.StateAwaitingPayment || o.Status.Settlement.PaymentReceived != nil || !o.DeletionTimestamp.IsZero():
		return nil, refuse("order %s/%s does not wait for a payment (state %s)", ref.Namespace, ref.ID, o.Status.State)
	case string(o.Spec.Currency) != s.Currency:
		return nil, refuse("the payment is in %s and order %s/%s in %s: a payment is never converted; refund it, or settle it outside", s.Currency, ref.Namespace, ref.ID, o.Spec.Currency)
	}
	due := AmountDue(o)
	if due <= 0 {
		return nil, refuse("order %s/%s has no amount due yet (a forward BUY by units before its strike)", ref.Namespace, ref.ID)
	}
	key := ledger.OrderKey{Namespace: o.Namespace, OrderID: o.Name}
	received, err := g.Ledger.Received(ctx, []ledger.OrderKey{key})
	if err != nil {
		return nil, fmt.Errorf("read what arrived for order %s/%s: %w", o.Namespace, o.Name, err)
	}
	before := received[key]
	if before >= due {
		return nil, refuse("order %s/%s is paid in full already (%s received)", ref.Namespace, ref.ID, money.Format(before, s.Currency))
	}
	r := ledger.Row{
		EntryReference: ledger.DecisionEntryReference(d.Name), Rule: RuleOperator,
		CreditDebit: s.CreditDebit, Amount: s.Amount, Currency: s.Currency, BookingDate: s.BookingDate, ValueDate: s.ValueDate,
		CreditorReference: s.CreditorReference, ReferenceValid: s.ReferenceValid, EndToEndID: s.EndToEndID,
		DebtorName: s.DebtorName, DebtorIBAN: s.DebtorIBAN, Namespace: o.Namespace, OrderID: o.Name,
		Due: due, ReceivedBefore: before, Received: before + s.Amount, Pending: true, Decision: d.Name,
	}
	switch {
	case r.Received < due:
		r.Kind, r.Shortfall = string(reconcile.Underpaid), due-r.Received
	case r.Received == due:
		r.Kind = string(reconcile.Matched)
	default:
		r.Kind, r.Excess = string(reconcile.Overpaid), r.Received-due
	}
	return &r, nil
}

// suspenseRefund is the instruction that sends the suspense payment back to the account
// it came from.
func (g *Ingester) suspenseRefund(ctx context.Context, d *investv1.BankDecision, s ledger.Row) (*ledger.Payout, error) {
	if g.Payer == nil {
		return nil, refuse("this installation sends no payouts through the bank (no bank folder for payouts): send the money back by hand and record a decision SettledOutside")
	}
	iban := validation.NormalizeIBAN(s.DebtorIBAN)
	amount := s.Amount - s.Amount%unitsPerCent
	switch {
	case s.CreditDebit != "CRDT":
		return nil, refuse("bank entry %s/%d is a debit: there is nothing to send back; record SettledOutside once it is dealt with", s.EntryReference, s.Transaction)
	case s.Currency != "EUR":
		return nil, refuse("the payment is in %s and SEPA transfers are in euro: send it back outside the service and record SettledOutside", s.Currency)
	case validation.ValidateIBAN(iban) != nil:
		return nil, refuse("the bank gave no valid IBAN of the payer for bank entry %s/%d: send it back outside the service and record SettledOutside", s.EntryReference, s.Transaction)
	case amount <= 0:
		return nil, refuse("the payment of %s is below one cent: nothing a bank can send; record SettledOutside", money.Format(s.Amount, s.Currency))
	}
	name, fundIBAN, err := g.fundAccountOf(ctx, d.Spec.FundID)
	if err != nil {
		return nil, err
	}
	creditor := s.DebtorName
	if creditor == "" {
		creditor = "NOTPROVIDED"
	}
	return &ledger.Payout{
		Purpose: ledger.PurposeSuspenseRefund, Source: ledger.DecisionSource(d.Name), EndToEndID: SourceEndToEndID("FSD", string(d.UID)),
		Amount: amount, Currency: s.Currency, CreditorName: truncateRunes(creditor, 70), CreditorIBAN: iban,
		RemittanceInfo: truncateRunes("Return of your payment, bank reference "+s.EntryReference, 140),
		DebtorName:     truncateRunes(name, 70), DebtorIBAN: fundIBAN, ExecutionDate: day(g.now()), InstructedAt: g.now().UTC(),
	}, nil
}

// fundAccountOf is the bank account a suspense refund leaves: the named fund's, or, when
// none is named, the one account every fund shares.
func (g *Ingester) fundAccountOf(ctx context.Context, fundID string) (name, iban string, err error) {
	var funds investv1.FundList
	if fundID != "" {
		var f investv1.Fund
		if err := g.Client.Get(ctx, types.NamespacedName{Name: fundID}, &f); err != nil {
			if apierrors.IsNotFound(err) {
				return "", "", refuse("fund %s does not exist", fundID)
			}
			return "", "", fmt.Errorf("read fund %s: %w", fundID, err)
		}
		funds.Items = []investv1.Fund{f}
	} else if err := g.Client.List(ctx, &funds); err != nil {
		return "", "", fmt.Errorf("list the funds: %w", err)
	}
	accounts := map[string]string{}
	for _, f := range funds.Items {
		if pd := f.Spec.PaymentDetails; pd != nil {
			accounts[validation.NormalizeIBAN(pd.IBAN)] = pd.AccountHolderName
		}
	}
	switch {
	case len(accounts) == 1:
		for iban, name := range accounts {
			return name, iban, nil
		}
	case fundID != "":
		return "", "", refuse("fund %s has no bank account (spec.paymentDetails)", fundID)
	case len(accounts) == 0:
		return "", "", refuse("no fund has a bank account (spec.paymentDetails) to send the payment back from")
	}
	return "", "", refuse("the funds have %d bank accounts: name the fund whose account received the payment in spec.fundID", len(accounts))
}

// decisionRecorded writes the status of a recorded decision, and an Event on the order an
// assignment pays.
func (g *Ingester) decisionRecorded(ctx context.Context, d *investv1.BankDecision, rec ledger.Decision) error {
	suspense, _, err := g.Decisions.Row(ctx, rec.EntryReference, rec.Transaction)
	if err != nil {
		return fmt.Errorf("read bank entry %s/%d: %w", rec.EntryReference, rec.Transaction, err)
	}
	st := investv1.BankDecisionStatus{
		Phase: investv1.BankDecisionRecorded, RecordedAt: &metav1.Time{Time: rec.DecidedAt.Truncate(time.Second)},
		Amount: suspense.Amount, Currency: investv1.CurrencyCode(suspense.Currency),
	}
	what := money.Format(suspense.Amount, suspense.Currency)
	switch rec.Action {
	case ledger.DecisionAssign:
		assigned, _, err := g.Decisions.Row(ctx, ledger.DecisionEntryReference(rec.Name), 0)
		if err != nil {
			return fmt.Errorf("read the row of bank decision %s: %w", rec.Name, err)
		}
		st.Outcome = assigned.Kind
		st.Message = fmt.Sprintf("%s of bank entry %s/%d assigned to order %s/%s: %s", what, rec.EntryReference, rec.Transaction, rec.Namespace, rec.OrderID, assigned.Kind)
	case ledger.DecisionRefund:
		if g.Payer == nil {
			// Recorded while payouts went through the bank; this process sends none.
			st.Message = fmt.Sprintf("%s of bank entry %s/%d is to be sent back; this installation sends no payouts through the bank", what, rec.EntryReference, rec.Transaction)
			break
		}
		ps, _, err := g.Payer.Payouts.ListPayouts(ctx, ledger.PayoutQuery{Purposes: []ledger.Purpose{ledger.PurposeSuspenseRefund}, EndToEndID: SourceEndToEndID("FSD", rec.UID), Limit: 1})
		if err != nil {
			return fmt.Errorf("read the refund of bank decision %s: %w", rec.Name, err)
		}
		if len(ps) == 1 {
			st.Payout = &investv1.BankDecisionPayout{EndToEndID: ps[0].EndToEndID, Amount: ps[0].Amount, CreditorIBAN: maskIBAN(ps[0].CreditorIBAN), Status: ps[0].Status}
			st.Message = fmt.Sprintf("%s of bank entry %s/%d is sent back to %s in the next credit transfer file", money.Format(ps[0].Amount, ps[0].Currency), rec.EntryReference, rec.Transaction, maskIBAN(ps[0].CreditorIBAN))
		}
	default:
		st.Message = fmt.Sprintf("%s of bank entry %s/%d recorded as settled outside the service", what, rec.EntryReference, rec.Transaction)
	}
	if err := writeDecisionStatus(ctx, g.Client, g.Recorder, d, st, "Normal", ReasonDecisionRecorded); err != nil {
		return err
	}
	if rec.Action == ledger.DecisionAssign {
		o := &investv1.Order{}
		if err := g.Client.Get(ctx, types.NamespacedName{Namespace: rec.Namespace, Name: rec.OrderID}, o); err == nil {
			g.event(o, "Normal", ReasonPaymentAssigned, "an operator assigned %s (bank entry %s/%d) to the order: BankDecision %s by %s: %s",
				what, rec.EntryReference, rec.Transaction, rec.Name, orUnknown(rec.DecidedBy), rec.Note)
		}
	}
	return nil
}

// writeDecisionStatus writes a decision's status (once: a decision with a phase is not
// taken again) and its Event.
func writeDecisionStatus(ctx context.Context, c client.Client, rec events.EventRecorder, d *investv1.BankDecision, st investv1.BankDecisionStatus, kind, reason string) error {
	before := d.DeepCopy()
	st.ObservedGeneration = d.Generation
	d.Status = st
	if err := c.Status().Patch(ctx, d, client.MergeFrom(before)); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("write the status of bank decision %s: %w", d.Name, err)
	}
	if rec != nil {
		rec.Eventf(d, nil, kind, reason, "Decide", "%s", st.Message)
	}
	return nil
}

// refundStatus writes where a decision's transfer stands (the bank's pain.002, its debit,
// its return) on the decision named by the instruction's source: a refund from suspense
// (ledger.DecisionSource) or a transfer sent again (ledger.ResendSource).
func refundStatus(ctx context.Context, c client.Client, rec events.EventRecorder, source, status, reason string) error {
	name, ok := strings.CutPrefix(source, ledger.DecisionSource(""))
	if !ok {
		if name, ok = strings.CutPrefix(source, ledger.ResendSource("")); !ok {
			return nil
		}
	}
	d := &investv1.BankDecision{}
	if err := c.Get(ctx, types.NamespacedName{Name: name}, d); err != nil {
		if apierrors.IsNotFound(err) {
			return nil // the decision object was deleted; the ledger keeps the record
		}
		return fmt.Errorf("read bank decision %s: %w", name, err)
	}
	if d.Status.Payout == nil || payoutRank[status] <= payoutRank[d.Status.Payout.Status] {
		// Written before, or news older than what it says: a pain.002 applied after the
		// debit it preceded (the bank delivers both at once) never undoes PaidOut.
		return nil
	}
	st := d.Status
	st.Payout = d.Status.Payout.DeepCopy()
	st.Payout.Status, st.Payout.Reason = status, truncateRunes(reason, 512)
	switch status {
	case ledger.StatusAccepted:
		st.Message = fmt.Sprintf("the bank accepted the transfer of %s to %s", money.Format(st.Payout.Amount, string(d.Status.Currency)), st.Payout.CreditorIBAN)
	case payoutPaidOut:
		st.Message = fmt.Sprintf("%s was sent back to %s: the bank booked the debit", money.Format(st.Payout.Amount, string(d.Status.Currency)), st.Payout.CreditorIBAN)
	default:
		st.Message = fmt.Sprintf("the transfer of %s to %s is %s: %s; the money is in the fund's account again, and a person sends it back by hand",
			money.Format(st.Payout.Amount, string(d.Status.Currency)), st.Payout.CreditorIBAN, strings.ToLower(status), reason)
	}
	kind := "Normal"
	if status == ledger.StatusRejected || status == payoutReturned {
		kind = "Warning"
	}
	return writeDecisionStatus(ctx, c, rec, d, st, kind, "Refund"+status)
}

// The statuses of a refund decision's transfer after the pain.002 ones.
const (
	payoutPaidOut  = "PaidOut"
	payoutReturned = "Returned"
)

// payoutRank orders what is known of a transfer: it was instructed, the bank accepted it,
// then refused it or booked its debit, then it came back.
var payoutRank = map[string]int{ledger.StatusInstructed: 0, ledger.StatusAccepted: 1, ledger.StatusRejected: 2, payoutPaidOut: 2, payoutReturned: 3}

// SourceEndToEndID is the end-to-end id of a transfer that is not an order's own: prefix
// (three letters: FSX an excess, FSR a payment sent back, FSD an operator's refund) and 32 hexadecimal digits of the SHA-256 of what it sends back (35
// characters, the most an end-to-end id has).
func SourceEndToEndID(prefix, source string) string {
	sum := sha256.Sum256([]byte(source))
	return prefix + hex.EncodeToString(sum[:])[:32]
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown user"
	}
	return s
}

// countSuspense sets the suspense gauges: how many payments wait for a decision, and how
// long the oldest has waited since its booking date (its value date when it has none; an
// entry with neither counts in the number only).
func (g *Ingester) countSuspense(ctx context.Context) error {
	open, oldest := 0, time.Time{}
	q := ledger.Query{Open: true, Limit: 1000}
	for {
		rows, next, err := g.Ledger.Rows(ctx, q)
		if err != nil {
			return fmt.Errorf("count the payments in suspense: %w", err)
		}
		for _, r := range rows {
			open++
			at := r.BookingDate
			if at.IsZero() {
				at = r.ValueDate
			}
			if !at.IsZero() && (oldest.IsZero() || at.Before(oldest)) {
				oldest = at
			}
		}
		if next == "" {
			break
		}
		q.Cursor = next
	}
	suspenseOpen.Set(float64(open))
	age := 0.0
	if !oldest.IsZero() {
		age = max(g.now().Sub(oldest).Seconds(), 0)
	}
	suspenseOldestAge.Set(age)
	return nil
}
