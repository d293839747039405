// Package bank settles the money side of orders from the fund's bank: it ingests the
// statements and notifications the bank delivers (camt.054, camt.053) through a
// connector (internal/bank/connector), decides what every booked transaction means
// (internal/bank/reconcile: the waiting BUY it pays, underpaid, overpaid, or suspense),
// records every decision in the bank ledger (internal/bank/ledger) before doing anything
// about it, and then writes the payments on their orders: the paymentReceived evidence
// and the moves it unlocks (lifecycle.Follow), in one status write.
//
// A file is ingested once: the ledger keys entries by the bank's reference, so a file
// delivered twice, or the day's camt.053 repeating its camt.054s, changes nothing. A
// file that does not parse is refused whole (the connector keeps it with the reason) and
// nothing of it is applied. The ingester runs on the leader only, one file at a time.
package bank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/bank/iso20022"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/bank/reconcile"
)

// RecordedBy names the bank ingestion in the evidence it records.
const RecordedBy = "bank"

// DefaultPollInterval is how often the inbox is looked at when Config leaves it zero.
const DefaultPollInterval = 5 * time.Second

// pendingBatch is how many pending ledger rows one round applies at most.
const pendingBatch = 500

// Ingester claims the connector's inbound files one at a time, decides their entries,
// records the decisions in the ledger and applies them to the orders. It is a manager
// Runnable that runs on the leader.
type Ingester struct {
	// Connector delivers the bank's files.
	Connector connector.Connector
	// Ledger records every file and every decided transaction.
	Ledger ledger.Store
	// Client reads orders, accounts' payment methods (the cache) and writes order status.
	Client client.Client
	// Recorder emits the Events of the payments on their orders.
	Recorder events.EventRecorder
	// PollInterval is how often the inbox is looked at; zero means DefaultPollInterval.
	PollInterval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log is the logger; the zero logger discards.
	Log logr.Logger
	// ApplyWorkers is how many orders the decisions are written on at once; zero means
	// DefaultApplyWorkers.
	ApplyWorkers int
	// Payer sends the money orders owe (pain.001 out, pain.002 and debits in); nil
	// leaves the transfers to another agent and refuses pain.002 reports.
	Payer *Payer
	// Decisions records operators' BankDecisions on payments in suspense; nil leaves
	// them untaken.
	Decisions ledger.Decisions

	// held is a claimed file whose ingestion failed, tried again first. Only the
	// ingester's one goroutine (Start) touches it; rounds too, which counts them for
	// the comparison of the books with the orders (every healPolls rounds).
	held   *connector.Claim
	rounds int
}

// NeedLeaderElection makes the ingester run on the leader only: one consumer of the
// inbox, so Recover at start cannot take a file from a live one.
func (g *Ingester) NeedLeaderElection() bool { return true }

// Start offers again what a previous leader claimed and did not finish, applies the
// decisions a crash left unapplied, then polls the inbox until ctx ends.
func (g *Ingester) Start(ctx context.Context) error {
	log := g.Log.WithName("bank-ingest")
	if n, err := g.Connector.Recover(ctx); err != nil {
		return fmt.Errorf("bank ingestion: recover claimed files: %w", err)
	} else if n > 0 {
		log.Info("offered again files a previous run claimed and did not finish", "files", n)
	}
	t := time.NewTicker(g.interval())
	defer t.Stop()
	for {
		if err := g.Round(ctx); err != nil && ctx.Err() == nil {
			log.Error(err, "bank ingestion round failed; trying again at the next poll")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Round applies what is pending, then ingests every file waiting in the inbox and applies
// its decisions. It returns the first error that stopped it; the files not reached wait
// for the next round, and a file whose ingestion failed (the ledger did not answer) is
// held and ingested first in the next round, before any other file is claimed.
func (g *Ingester) Round(ctx context.Context) error {
	if g.Payer != nil {
		// First, so that a transfer's acceptance (pain.002) is written before its debit
		// when a crash left both pending. The bank's answers still come in when it fails:
		// a payout step that failed is tried again next round.
		if err := g.Payer.Round(ctx); err != nil {
			g.Log.WithName("bank-payout").Error(err, "payout round failed; trying again at the next poll")
		}
	}
	if err := g.takeDecisions(ctx); err != nil {
		// Decisions wait for the next round; statements still come in.
		g.Log.WithName("bank-decide").Error(err, "taking bank decisions failed; trying again at the next poll")
	}
	if err := g.ApplyPending(ctx); err != nil {
		return err
	}
	if g.rounds%healPolls == 0 {
		if err := g.healPayments(ctx); err != nil {
			g.Log.WithName("bank-ingest").Error(err, "comparing the ledger's payments with the orders failed; trying again later")
		}
		if err := g.healPayouts(ctx); err != nil {
			g.Log.WithName("bank-payout").Error(err, "comparing the payouts book with the orders failed; trying again later")
		}
		if err := g.countSuspense(ctx); err != nil {
			g.Log.WithName("bank-decide").Error(err, "counting the payments in suspense failed; trying again later")
		}
	}
	g.rounds++
	for {
		c := g.held
		if c == nil {
			claimed, err := g.Connector.Claim(ctx)
			if errors.Is(err, connector.ErrInboxEmpty) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("claim an inbound file: %w", err)
			}
			c = &claimed
		}
		if err := g.ingest(ctx, *c); err != nil {
			g.held = c
			return err
		}
		g.held = nil
		if err := g.ApplyPending(ctx); err != nil {
			return err
		}
	}
}

// ingest decides one claimed file and records it; a file that does not parse is
// rejected. An error leaves the claim held: Round tries it again first (and after a
// crash, Recover offers it again at the next start); the ledger makes the second
// ingestion change nothing that the first recorded.
func (g *Ingester) ingest(ctx context.Context, c connector.Claim) error {
	log := g.Log.WithName("bank-ingest").WithValues("file", c.Name)
	if mt, derr := iso20022.Detect(c.Data); derr == nil && mt == iso20022.Pain002V10 {
		return g.ingestReport(ctx, c)
	}
	statements, err := iso20022.ParseStatements(c.Data)
	if err != nil {
		filesTotal.WithLabelValues("rejected").Inc()
		log.Info("refused an inbound bank file; nothing of it is applied", "reason", err.Error())
		if rerr := g.Connector.Rejected(ctx, c, err.Error()); rerr != nil {
			return fmt.Errorf("reject %s: %w", c.Name, rerr)
		}
		return nil
	}
	sum := sha256.Sum256(c.Data)
	file := ledger.File{
		ID: c.ID, Name: c.Name, SHA256: hex.EncodeToString(sum[:]),
		DeliveredAt: c.DeliveredAt.UTC(), IngestedAt: g.now().UTC(), Counts: map[string]int{},
	}
	if len(statements) > 0 {
		file.MessageType, file.MessageID = string(statements[0].MessageType), statements[0].MessageID
	}

	// Another ingestion of one of the entries between deciding and recording (a replica
	// that was leader a moment ago) makes Ingest refuse; the second decision sees it.
	var rows []ledger.Row
	for attempt := 1; ; attempt++ {
		rows, err = g.decide(ctx, statements, &file)
		if err != nil {
			var invalid *invalidFileError
			if errors.As(err, &invalid) {
				filesTotal.WithLabelValues("rejected").Inc()
				log.Info("refused an inbound bank file; nothing of it is applied", "reason", invalid.Error())
				if rerr := g.Connector.Rejected(ctx, c, invalid.Error()); rerr != nil {
					return fmt.Errorf("reject %s: %w", c.Name, rerr)
				}
				return nil
			}
			return err
		}
		err = g.Ledger.Ingest(ctx, file, rows)
		if err == nil || !errors.Is(err, ledger.ErrAlreadyRecorded) || attempt == 3 {
			break
		}
		log.Info("an entry of the file was recorded meanwhile; deciding again", "error", err.Error())
	}
	switch {
	case err == nil:
		for kind, n := range file.Counts {
			transactionsTotal.WithLabelValues(kind).Add(float64(n))
		}
	case errors.Is(err, ledger.ErrAlreadyRecorded) && !entryConflict(err):
		// The file itself was recorded before a crash kept it from being finished.
		log.Info("the file was ingested before; finishing it")
	default:
		return fmt.Errorf("record %s in the bank ledger: %w", c.Name, err)
	}
	if err := g.Connector.Processed(ctx, c); err != nil {
		if errors.Is(err, connector.ErrNotClaimed) {
			// Finished or offered again by someone else meanwhile: not ours to hold.
			log.Info("the file was no longer claimed when it was to be finished", "error", err.Error())
			return nil
		}
		return fmt.Errorf("finish %s: %w", c.Name, err)
	}
	filesTotal.WithLabelValues("processed").Inc()
	log.Info("ingested an inbound bank file", "messageType", file.MessageType, "messageID", file.MessageID,
		"outcomes", file.Counts)
	return nil
}

// ingestReport records a pain.002 status report (Payer.report) and finishes its file; a
// report that does not parse is rejected whole.
func (g *Ingester) ingestReport(ctx context.Context, c connector.Claim) error {
	log := g.Log.WithName("bank-ingest").WithValues("file", c.Name)
	reject := func(reason string) error {
		filesTotal.WithLabelValues("rejected").Inc()
		log.Info("refused an inbound bank file; nothing of it is applied", "reason", reason)
		if rerr := g.Connector.Rejected(ctx, c, reason); rerr != nil {
			return fmt.Errorf("reject %s: %w", c.Name, rerr)
		}
		return nil
	}
	if g.Payer == nil {
		return reject("a pain.002 status report, but no payouts are sent through this bank connection")
	}
	sum := sha256.Sum256(c.Data)
	file := ledger.File{
		ID: c.ID, Name: c.Name, SHA256: hex.EncodeToString(sum[:]),
		DeliveredAt: c.DeliveredAt.UTC(), IngestedAt: g.now().UTC(), Counts: map[string]int{},
	}
	_, err := g.Payer.report(ctx, file, c.Data)
	var invalid *invalidFileError
	switch {
	case errors.As(err, &invalid):
		return reject(invalid.Error())
	case errors.Is(err, ledger.ErrAlreadyRecorded):
		log.Info("the report was recorded before; finishing it")
	case err != nil:
		return fmt.Errorf("record %s in the bank ledger: %w", c.Name, err)
	}
	if err := g.Connector.Processed(ctx, c); err != nil {
		if errors.Is(err, connector.ErrNotClaimed) {
			log.Info("the file was no longer claimed when it was to be finished", "error", err.Error())
			return nil
		}
		return fmt.Errorf("finish %s: %w", c.Name, err)
	}
	filesTotal.WithLabelValues("processed").Inc()
	return nil
}

// released are the payouts the fund released and the bank may debit or return, for
// reconcile; none without a Payer.
func (g *Ingester) released(ctx context.Context) ([]reconcile.Payout, error) {
	if g.Payer == nil {
		return nil, nil
	}
	ps, err := g.Payer.Payouts.Released(ctx, g.now().Add(-g.Payer.debitWindow()))
	if err != nil {
		return nil, fmt.Errorf("read the released payouts: %w", err)
	}
	out := make([]reconcile.Payout, len(ps))
	for i, p := range ps {
		out[i] = reconcile.Payout{OrderID: p.OrderID, EndToEndID: p.EndToEndID, Namespace: p.Namespace, Amount: p.Amount, Currency: p.Currency, Debited: p.Debited}
	}
	return out, nil
}

// entryConflict tells Ingest's refusal of an entry (another ingestion recorded it) from
// its refusal of the file (ingested before): only the first names an entry.
func entryConflict(err error) bool {
	var e *ledger.EntryRecordedError
	return errors.As(err, &e)
}

// invalidFileError says the file's content cannot be decided (reconcile refused its
// entries): the file is rejected with it.
type invalidFileError struct{ err error }

func (e *invalidFileError) Error() string { return e.err.Error() }
func (e *invalidFileError) Unwrap() error { return e.err }

// decide decides the statements of a file, each against the BUYs waiting for a payment
// into its account, and returns the ledger rows; file.Counts is filled.
func (g *Ingester) decide(ctx context.Context, statements []iso20022.Statement, file *ledger.File) ([]ledger.Row, error) {
	clear(file.Counts)
	var rows []ledger.Row
	applied := map[string]bool{}
	payouts, err := g.released(ctx)
	if err != nil {
		return nil, err
	}
	for _, st := range statements {
		refs := make([]string, 0, len(st.Entries))
		for _, e := range st.Entries {
			refs = append(refs, e.Reference)
		}
		recorded, err := g.Ledger.Recorded(ctx, refs)
		if err != nil {
			return nil, fmt.Errorf("read the ledger: %w", err)
		}
		for ref := range recorded {
			applied[ref] = true
		}
		orders, err := g.waiting(ctx, st.AccountIBAN)
		if err != nil {
			return nil, err
		}
		outcomes, err := reconcile.Decide(reconcile.Input{Entries: st.Entries, Orders: orders, Payouts: payouts, Applied: applied})
		if err != nil {
			if errors.Is(err, reconcile.ErrInvalidInput) {
				return nil, &invalidFileError{err: fmt.Errorf("statement %s of account %s: %w", st.ID, maskIBAN(st.AccountIBAN), err)}
			}
			return nil, err
		}
		for _, ref := range reconcile.AppliedReferences(outcomes) {
			applied[ref] = true
		}
		for _, o := range outcomes {
			file.Counts[string(o.Kind)]++
			if o.Kind == reconcile.Duplicate || o.Kind == reconcile.Ignored {
				continue
			}
			rows = append(rows, row(file.ID, st.Entries[o.Entry], o))
		}
	}
	return rows, nil
}

// row is the ledger row of an outcome. It is pending when it has an effect on an order
// to write: the payment's evidence (Matched, Overpaid) or the order's Event (Underpaid,
// WrongCurrency).
func row(fileID string, e iso20022.Entry, o reconcile.Outcome) ledger.Row {
	r := ledger.Row{
		FileID: fileID, EntryReference: o.EntryReference, Transaction: o.Transaction,
		Kind: string(o.Kind), Rule: string(o.MatchedBy), Reason: string(o.Reason),
		CreditDebit: string(o.CreditDebit), Amount: o.Amount, Currency: o.Currency,
		BookingDate: e.BookingDate, ValueDate: e.ValueDate,
		CreditorReference: o.Reference, ReferenceValid: o.ReferenceValid,
		Namespace: o.Namespace, OrderID: o.OrderID,
		Due: o.Due, ReceivedBefore: o.ReceivedBefore, Received: o.Received,
		Shortfall: o.Shortfall, Excess: o.Excess, ReturnReason: o.ReturnReason,
	}
	if o.Transaction < len(e.Transactions) {
		t := e.Transactions[o.Transaction]
		r.EndToEndID, r.DebtorName, r.DebtorIBAN = t.EndToEndID, t.DebtorName, t.DebtorIBAN
	}
	switch o.Kind {
	case reconcile.Matched, reconcile.Overpaid, reconcile.Underpaid, reconcile.WrongCurrency:
		r.Pending = o.OrderID != ""
	case reconcile.PaidOut, reconcile.Returned:
		// Also a transfer that names no order (an operator's refund from suspense): its
		// decision learns where it stands.
		r.Pending = o.OrderID != "" || r.EndToEndID != ""
	}
	return r
}

func (g *Ingester) interval() time.Duration {
	if g.PollInterval > 0 {
		return g.PollInterval
	}
	return DefaultPollInterval
}

func (g *Ingester) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// Setup adds the ingester to the manager; it starts with the manager, on the leader.
func Setup(mgr ctrl.Manager, g *Ingester) error {
	switch {
	case g.Connector == nil:
		return errors.New("bank ingestion: no connector")
	case g.Ledger == nil:
		return errors.New("bank ingestion: no ledger (the bank ledger lives in the order archive's SQL database)")
	}
	if g.Client == nil {
		g.Client = mgr.GetClient()
	}
	if g.Recorder == nil {
		g.Recorder = mgr.GetEventRecorder("bank-ingestion")
	}
	if g.Log.GetSink() == nil {
		g.Log = mgr.GetLogger()
	}
	if g.Payer != nil && g.Payer.Ledger == nil {
		g.Payer.Ledger = g.Ledger
	}
	return mgr.Add(g)
}

// The ingester reads orders and payment methods and records payments on orders.
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders;paymentmethoddetails;accounts;shareclasses;funds,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=bankdecisions,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=bankdecisions/status,verbs=get;update;patch
