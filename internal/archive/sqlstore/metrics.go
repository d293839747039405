package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/types"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/metricset"
	"github.com/fundshare/fundshare-operator/internal/notify"
)

var (
	opDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "fundshare_archive_operation_duration_seconds",
		Help: "Latency of order archive store calls, by backend and operation (put, put_many, get, list, completed_orders, holdings, ping, " +
			"and the webhook store's webhook_record, webhook_pending, webhook_attempted, webhook_attempts, webhook_replay, webhook_event, " +
			"webhook_forget, webhook_prune, the bank ledger's bank_ingest, bank_recorded, bank_received, bank_pending, bank_done, " +
			"bank_rows, bank_files, and the payouts book's bank_payouts_instruct, bank_payouts_unfiled, bank_payouts_add_file, " +
			"bank_payouts_unreleased, bank_payouts_mark_released, bank_payouts_report, bank_payouts_released, bank_payouts_pending, " +
			"bank_payouts_done, bank_payouts_list, and the decisions book's bank_decisions_decide, bank_decisions_decision, " +
			"bank_decisions_row).",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"backend", "operation"})
	opErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_archive_operation_errors_total",
		Help: "Order archive store calls that failed, by backend, operation and error: unavailable, conflict (a bank file or " +
			"entry recorded already included), invalid or internal (a not-found answer of get or webhook_event is not an error).",
	}, []string{"backend", "operation", "error"})
)

func init() { metricset.MustRegister(opDuration, opErrors) }

// errorKind is the error label of a failed call; "" for success and for not found.
func errorKind(err error) string {
	switch {
	case err == nil, errors.Is(err, archive.ErrNotFound), errors.Is(err, notify.ErrNotFound):
		return ""
	case errors.Is(err, archive.ErrUnavailable), errors.Is(err, notify.ErrUnavailable), errors.Is(err, ledger.ErrUnavailable):
		return "unavailable"
	case errors.Is(err, archive.ErrConflict), errors.Is(err, ledger.ErrAlreadyRecorded):
		return "conflict"
	case errors.Is(err, archive.ErrInvalid), errors.Is(err, notify.ErrInvalid), errors.Is(err, ledger.ErrInvalid):
		return "invalid"
	}
	return "internal"
}

// instrumented measures every call of a store, of its archive.Store, its notify.Store and
// (through measuredLedger, measuredPayouts and measuredDecisions) its ledger.Store,
// ledger.Payouts and ledger.Decisions.
type instrumented struct {
	next      archive.Store
	hooks     notify.Store
	bank      ledger.Store
	payouts   ledger.Payouts
	decisions ledger.Decisions
	backend   string
}

func instrument(s *store, backend string) *instrumented {
	return &instrumented{next: s, hooks: s, bank: bankLedger{s: s}, payouts: bankPayouts{s: s}, decisions: bankDecisions{s: s},
		backend: backend}
}

func (m *instrumented) observe(op string, start time.Time, err error) {
	opDuration.WithLabelValues(m.backend, op).Observe(time.Since(start).Seconds())
	if kind := errorKind(err); kind != "" {
		opErrors.WithLabelValues(m.backend, op, kind).Inc()
	}
}

func (m *instrumented) Put(ctx context.Context, o *investv1.Order, t investv1.AccountType) (err error) {
	defer func(start time.Time) { m.observe("put", start, err) }(time.Now())
	return m.next.Put(ctx, o, t)
}

func (m *instrumented) PutMany(ctx context.Context, entries []archive.Entry) (err error) {
	defer func(start time.Time) { m.observe("put_many", start, err) }(time.Now())
	return m.next.PutMany(ctx, entries)
}

func (m *instrumented) Get(ctx context.Context, namespace, id string) (o *investv1.Order, err error) {
	defer func(start time.Time) { m.observe("get", start, err) }(time.Now())
	return m.next.Get(ctx, namespace, id)
}

func (m *instrumented) List(ctx context.Context, namespace string, q archive.Query) (p archive.Page, err error) {
	defer func(start time.Time) { m.observe("list", start, err) }(time.Now())
	return m.next.List(ctx, namespace, q)
}

func (m *instrumented) CompletedOrders(ctx context.Context, namespace, accountID string, isin investv1.ISIN) (o []investv1.Order, err error) {
	defer func(start time.Time) { m.observe("completed_orders", start, err) }(time.Now())
	return m.next.CompletedOrders(ctx, namespace, accountID, isin)
}

func (m *instrumented) Holdings(ctx context.Context, namespace, accountID string, foldBefore time.Time, live []types.UID) (h holdings.Summary, err error) {
	defer func(start time.Time) { m.observe("holdings", start, err) }(time.Now())
	return m.next.Holdings(ctx, namespace, accountID, foldBefore, live)
}

func (m *instrumented) Ping(ctx context.Context) (err error) {
	defer func(start time.Time) { m.observe("ping", start, err) }(time.Now())
	return m.next.Ping(ctx)
}

func (m *instrumented) Close() error { return m.next.Close() }

func (m *instrumented) Record(ctx context.Context, events []notify.Event, endpoints []notify.Endpoint) (n int, err error) {
	defer func(start time.Time) { m.observe("webhook_record", start, err) }(time.Now())
	return m.hooks.Record(ctx, events, endpoints)
}

func (m *instrumented) Pending(ctx context.Context, endpointUID string, limit int) (d []notify.Delivery, err error) {
	defer func(start time.Time) { m.observe("webhook_pending", start, err) }(time.Now())
	return m.hooks.Pending(ctx, endpointUID, limit)
}

func (m *instrumented) Attempted(ctx context.Context, attempts ...notify.Attempt) (err error) {
	defer func(start time.Time) { m.observe("webhook_attempted", start, err) }(time.Now())
	return m.hooks.Attempted(ctx, attempts...)
}

func (m *instrumented) Attempts(ctx context.Context, endpointUID string, q notify.AttemptQuery) (a []notify.Attempt, next string, err error) {
	defer func(start time.Time) { m.observe("webhook_attempts", start, err) }(time.Now())
	return m.hooks.Attempts(ctx, endpointUID, q)
}

func (m *instrumented) Replay(ctx context.Context, ep notify.Endpoint, q notify.ReplayQuery) (n int, err error) {
	defer func(start time.Time) { m.observe("webhook_replay", start, err) }(time.Now())
	return m.hooks.Replay(ctx, ep, q)
}

func (m *instrumented) Event(ctx context.Context, namespace, id string) (e notify.Event, err error) {
	defer func(start time.Time) { m.observe("webhook_event", start, err) }(time.Now())
	return m.hooks.Event(ctx, namespace, id)
}

func (m *instrumented) Forget(ctx context.Context, endpointUID string) (err error) {
	defer func(start time.Time) { m.observe("webhook_forget", start, err) }(time.Now())
	return m.hooks.Forget(ctx, endpointUID)
}

func (m *instrumented) Prune(ctx context.Context, before time.Time) (n int, err error) {
	defer func(start time.Time) { m.observe("webhook_prune", start, err) }(time.Now())
	return m.hooks.Prune(ctx, before)
}

// measuredLedger measures every call of a store's ledger.Store. It is not a method set of
// instrumented, whose Pending is notify.Store's.
type measuredLedger struct{ m *instrumented }

func (l measuredLedger) Ingest(ctx context.Context, f ledger.File, rows []ledger.Row) (err error) {
	defer func(start time.Time) { l.m.observe("bank_ingest", start, err) }(time.Now())
	return l.m.bank.Ingest(ctx, f, rows)
}

func (l measuredLedger) Recorded(ctx context.Context, entryRefs []string) (r map[string]bool, err error) {
	defer func(start time.Time) { l.m.observe("bank_recorded", start, err) }(time.Now())
	return l.m.bank.Recorded(ctx, entryRefs)
}

func (l measuredLedger) Received(ctx context.Context, orders []ledger.OrderKey) (r map[ledger.OrderKey]int64, err error) {
	defer func(start time.Time) { l.m.observe("bank_received", start, err) }(time.Now())
	return l.m.bank.Received(ctx, orders)
}

func (l measuredLedger) Pending(ctx context.Context, limit int) (rows []ledger.Row, err error) {
	defer func(start time.Time) { l.m.observe("bank_pending", start, err) }(time.Now())
	return l.m.bank.Pending(ctx, limit)
}

func (l measuredLedger) Done(ctx context.Context, ids []int64, at time.Time) (err error) {
	defer func(start time.Time) { l.m.observe("bank_done", start, err) }(time.Now())
	return l.m.bank.Done(ctx, ids, at)
}

func (l measuredLedger) Rows(ctx context.Context, q ledger.Query) (rows []ledger.Row, next string, err error) {
	defer func(start time.Time) { l.m.observe("bank_rows", start, err) }(time.Now())
	return l.m.bank.Rows(ctx, q)
}

func (l measuredLedger) Files(ctx context.Context, limit int, cursor string) (files []ledger.File, next string, err error) {
	defer func(start time.Time) { l.m.observe("bank_files", start, err) }(time.Now())
	return l.m.bank.Files(ctx, limit, cursor)
}

// measuredPayouts measures every call of a store's ledger.Payouts.
type measuredPayouts struct{ m *instrumented }

func (p measuredPayouts) Instruct(ctx context.Context, ps []ledger.Payout) (n int, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_instruct", start, err) }(time.Now())
	return p.m.payouts.Instruct(ctx, ps)
}

func (p measuredPayouts) Unfiled(ctx context.Context, limit int) (ps []ledger.Payout, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_unfiled", start, err) }(time.Now())
	return p.m.payouts.Unfiled(ctx, limit)
}

func (p measuredPayouts) AddFile(ctx context.Context, f ledger.OutFile, ids []int64) (err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_add_file", start, err) }(time.Now())
	return p.m.payouts.AddFile(ctx, f, ids)
}

func (p measuredPayouts) Unreleased(ctx context.Context) (files []ledger.OutFile, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_unreleased", start, err) }(time.Now())
	return p.m.payouts.Unreleased(ctx)
}

func (p measuredPayouts) MarkReleased(ctx context.Context, messageID string, at time.Time) (err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_mark_released", start, err) }(time.Now())
	return p.m.payouts.MarkReleased(ctx, messageID, at)
}

func (p measuredPayouts) Report(ctx context.Context, f ledger.File, statuses []ledger.PayoutStatus) (n int, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_report", start, err) }(time.Now())
	return p.m.payouts.Report(ctx, f, statuses)
}

func (p measuredPayouts) Released(ctx context.Context, since time.Time) (ps []ledger.Payout, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_released", start, err) }(time.Now())
	return p.m.payouts.Released(ctx, since)
}

func (p measuredPayouts) PendingPayouts(ctx context.Context, limit int) (ps []ledger.Payout, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_pending", start, err) }(time.Now())
	return p.m.payouts.PendingPayouts(ctx, limit)
}

func (p measuredPayouts) PayoutsDone(ctx context.Context, ids []int64, at time.Time) (err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_done", start, err) }(time.Now())
	return p.m.payouts.PayoutsDone(ctx, ids, at)
}

func (p measuredPayouts) ListPayouts(ctx context.Context, q ledger.PayoutQuery) (ps []ledger.Payout, next string, err error) {
	defer func(start time.Time) { p.m.observe("bank_payouts_list", start, err) }(time.Now())
	return p.m.payouts.ListPayouts(ctx, q)
}

// measuredDecisions measures every call of a store's ledger.Decisions. A decision or row
// not found is no error, as archive's not found is not.
type measuredDecisions struct{ m *instrumented }

func (d measuredDecisions) Decide(ctx context.Context, dec ledger.Decision, row *ledger.Row, payout *ledger.Payout) (err error) {
	defer func(start time.Time) { d.m.observe("bank_decisions_decide", start, err) }(time.Now())
	return d.m.decisions.Decide(ctx, dec, row, payout)
}

func (d measuredDecisions) Decision(ctx context.Context, name string) (dec ledger.Decision, found bool, err error) {
	defer func(start time.Time) { d.m.observe("bank_decisions_decision", start, err) }(time.Now())
	return d.m.decisions.Decision(ctx, name)
}

func (d measuredDecisions) Row(ctx context.Context, entryReference string, transaction int) (r ledger.Row, found bool, err error) {
	defer func(start time.Time) { d.m.observe("bank_decisions_row", start, err) }(time.Now())
	return d.m.decisions.Row(ctx, entryReference, transaction)
}
