package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
	"github.com/fundshare/fundshare-operator/internal/archive/pgtest"
	"github.com/fundshare/fundshare-operator/internal/bank/ledger"
)

// planFilters are the List requests whose plans are checked: no filter, each filter of
// GET /v1/orders alone, combinations, each with and without a cursor.
var planFilters = []archive.Filter{
	{}, {Side: investv1.SideSell}, {Market: investv1.MarketSecondary}, {State: investv1.StateCancelled},
	{AccountType: investv1.AccountTypeBusiness}, {AccountID: "aaaaaaaa-0000-4000-8000-000000000007"},
	{Currency: "USD"}, {ISIN: "IE00B4L5Y983"},
	{AccountID: "aaaaaaaa-0000-4000-8000-000000000007", ISIN: "IE00B4L5Y983", Side: investv1.SideBuy},
	{State: investv1.StateCompleted, Currency: "EUR", Market: investv1.MarketPrimary},
}

// seed archives n orders of many accounts, ISINs, sides, markets, currencies and states
// into two namespaces.
func seed(t *testing.T, s archive.Store, n int) {
	t.Helper()
	isins := []investv1.ISIN{"LU0000000001", "IE00B4L5Y983", "DE0005140008", "US0378331005"}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < n; i += 8 {
				ns := "tenant-a"
				if i%5 == 0 {
					ns = "tenant-b"
				}
				o := archivetest.Order(ns, fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i), time.Unix(1_760_000_000+int64(i/3), 0),
					func(o *investv1.Order) {
						o.Spec.AccountID = investv1.ObjectID(fmt.Sprintf("aaaaaaaa-0000-4000-8000-%012x", i%97))
						o.Spec.ISIN = isins[i%4]
						if i%2 == 0 {
							o.Spec.Side = investv1.SideSell
						}
						if i%3 == 0 {
							o.Spec.Market = investv1.MarketSecondary
						}
						if i%11 == 0 {
							o.Spec.Currency = "USD"
						}
						if i%7 == 0 {
							archivetest.Cancelled(o)
						}
					})
				typ := investv1.AccountTypeIndividual
				if i%97%4 == 0 {
					typ = investv1.AccountTypeBusiness
				}
				if err := s.Put(context.Background(), o, typ); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// plans returns the plan text of every checked List and CompletedOrders query.
func plans(t *testing.T, s archive.Store, explain string) map[string]string {
	t.Helper()
	st := s.(*instrumented).next.(*store)
	out := map[string]string{}
	run := func(name, query string, args []any) {
		rows, err := st.db.QueryContext(context.Background(), st.dia.rebind(explain+" "+query), args...)
		if err != nil {
			t.Fatalf("explain %s: %v", name, err)
		}
		defer func() { _ = rows.Close() }()
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		out[name] = strings.Join(lines, "\n")
	}
	cursor := archive.EncodeCursor(archive.Position{Created: time.Unix(1_760_000_300, 0), ID: "80000000"})
	until := archive.Position{Created: time.Unix(1_760_000_100, 0), ID: "20000000"}
	for _, f := range planFilters {
		for _, cur := range []string{"", cursor} {
			q, args, err := listQuery(st.dia, "tenant-a", archive.Query{Filter: f, Limit: 100, Cursor: cur})
			if err != nil {
				t.Fatal(err)
			}
			run(fmt.Sprintf("List %+v cursor=%v", f, cur != ""), q, args)
			q, args, err = listQuery(st.dia, "tenant-a", archive.Query{Filter: f, Limit: 100, Cursor: cur, Until: &until})
			if err != nil {
				t.Fatal(err)
			}
			run(fmt.Sprintf("List %+v cursor=%v until", f, cur != ""), q, args)
		}
	}
	q, args := completedQuery(st.dia, "tenant-a", "aaaaaaaa-0000-4000-8000-000000000007", "")
	run("CompletedOrders", q, args)
	q, args = completedQuery(st.dia, "tenant-a", "aaaaaaaa-0000-4000-8000-000000000007", "IE00B4L5Y983")
	run("CompletedOrders of an ISIN", q, args)
	run("Holdings", holdingsQuery(st.dia), holdingsArgs("tenant-a", "aaaaaaaa-0000-4000-8000-000000000007", time.Unix(1_760_000_500, 0)))
	return out
}

// holdingsPlan takes the Holdings plan out of plans: it groups and orders its few result
// rows (a sort is right there); what matters is that it reads index entries only.
func holdingsPlan(plans map[string]string) string {
	plan := plans["Holdings"]
	delete(plans, "Holdings")
	return plan
}

// planRule is what a plan must show: require at least times, none of forbid; wrong says
// what is wrong otherwise.
type planRule struct {
	require string
	times   int
	forbid  []string
	wrong   string
}

func (r planRule) check(plan string) string {
	if strings.Count(plan, r.require) < r.times {
		return r.wrong
	}
	for _, f := range r.forbid {
		if strings.Contains(plan, f) {
			return r.wrong
		}
	}
	return ""
}

// checkPlans seeds n orders, has the planner's statistics brought up to date (analyze;
// "": none, as in an embedded archive that was never analyzed),
// and checks every List and CompletedOrders plan by list and the Holdings plan by sums.
func checkPlans(t *testing.T, s archive.Store, n int, analyze, explain string, list, sums planRule) {
	t.Helper()
	defer func() { _ = s.Close() }()
	seed(t, s, n)
	if analyze != "" {
		if _, err := s.(*instrumented).next.(*store).db.Exec(analyze); err != nil {
			t.Fatal(err)
		}
	}
	all := plans(t, s, explain)
	plan := holdingsPlan(all)
	t.Logf("Holdings:\n%s", plan)
	if wrong := sums.check(plan); wrong != "" {
		t.Errorf("Holdings: %s:\n%s", wrong, plan)
	}
	for name, plan := range all {
		if wrong := list.check(plan); wrong != "" {
			t.Errorf("%s: %s:\n%s", name, wrong, plan)
		}
	}
}

// The sums read the covering index only, in each of their four parts.
const sumsWrong = "the sums do not read the covering holdings index only"

func TestSQLiteEveryListFilterReadsThroughAnIndexWithoutSorting(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// No ANALYZE: an embedded archive has no statistics, and the store names its indexes.
	checkPlans(t, s, 1000, "", "EXPLAIN QUERY PLAN",
		planRule{require: "USING INDEX archived_orders_", times: 1, forbid: []string{"TEMP B-TREE"}, wrong: "the plan sorts or reads no index of the archive"},
		planRule{require: "USING COVERING INDEX archived_orders_holdings", times: 4, forbid: []string{"SCAN archived_orders\n"}, wrong: sumsWrong})
}

func TestPostgresEveryListFilterReadsThroughAnIndexWithoutSorting(t *testing.T) {
	pg := pgtest.Start(t)
	s, err := Open(context.Background(), pg.NewDatabase(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPlans(t, s, 6000, `ANALYZE archived_orders`, "EXPLAIN",
		planRule{require: "Index", times: 1, forbid: []string{"Sort", "Seq Scan"}, wrong: "the plan sorts or scans the table"},
		planRule{require: "Index Only Scan using archived_orders_holdings", times: 4, forbid: []string{"Seq Scan"}, wrong: sumsWrong})
}

// TestSQLiteReadsACombinedFilterThroughItsMostSelectiveIndexWithoutStatistics: without
// statistics SQLite's planner read an account's page of one ISIN's buys through the side
// index (every buy of the tenant: 0.86 s at 1,000,000 orders); the store names the
// account's index.
func TestSQLiteReadsACombinedFilterThroughItsMostSelectiveIndexWithoutStatistics(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	seed(t, s, 200)
	st := s.(*instrumented).next.(*store)
	f := archive.Filter{AccountID: "aaaaaaaa-0000-4000-8000-000000000007", ISIN: "IE00B4L5Y983", Side: investv1.SideBuy}
	q, args, err := listQuery(st.dia, "tenant-a", archive.Query{Filter: f, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var plan strings.Builder
	rows, err := st.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if !strings.Contains(plan.String(), "USING INDEX archived_orders_account ") {
		t.Fatalf("the page of an account, an ISIN and a side is not read through the account's index:\n%s", plan.String())
	}
}

// explainer returns a function that records in out the plan text of a query, by name,
// with explain (EXPLAIN QUERY PLAN, EXPLAIN): the last column of each line.
func explainer(t *testing.T, s archive.Store, explain string, out map[string]string) func(name, query string, args []any) {
	t.Helper()
	st := s.(*instrumented).next.(*store)
	return func(name, query string, args []any) {
		rows, err := st.db.QueryContext(context.Background(), st.dia.rebind(explain+" "+query), args...)
		if err != nil {
			t.Fatalf("explain %s: %v", name, err)
		}
		defer func() { _ = rows.Close() }()
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(vals[len(vals)-1]))
		}
		out[name] = strings.Join(lines, "\n")
	}
}

// payoutPlans returns the plan text of every query of the payouts book whose plan is
// checked, by name, with explain (EXPLAIN QUERY PLAN, EXPLAIN).
func payoutPlans(t *testing.T, s archive.Store, explain string) map[string]string {
	t.Helper()
	out := map[string]string{}
	run := explainer(t, s, explain, out)
	cursor := encodePayoutCursor(500)
	for _, q := range []ledger.PayoutQuery{
		{}, {Statuses: []string{ledger.StatusRejected}}, {Namespace: "tenant-b"}, {Namespace: "tenant-a", OrderID: "order-0007"},
		{FileMessageID: "F03"}, {Namespace: "tenant-b", Statuses: []string{ledger.StatusRejected}},
		{Purposes: []ledger.Purpose{ledger.PurposeExcess}},
		{Namespace: "tenant-b", Purposes: []ledger.Purpose{ledger.PurposeRefund, ledger.PurposeExcess}},
		{EndToEndID: "E00007"}, {Namespace: "tenant-a", EndToEndID: "E00007"},
	} {
		for _, cur := range []string{"", cursor} {
			q.Limit, q.Cursor = 100, cur
			query, args, _, err := payoutsQuery(q)
			if err != nil {
				t.Fatal(err)
			}
			run(fmt.Sprintf("ListPayouts %+v", q), query, args)
		}
	}
	run("Unfiled", unfiledQuery, []any{100})
	run("PendingPayouts", pendingPayoutsQuery, []any{100})
	run("Unreleased", unreleasedQuery, nil)
	run("Report", reportQuery(2), []any{"F01", "E00001", "Accepted", "ACCP", "", 1, "MTCH", "", "F01", "E00002", "Rejected", "RJCT",
		"x", 2, "", ""})
	run("Instruct's keys", recordedKeysQuery(2), []any{"tenant-a", "order-0001", "Payout", "", "tenant-a", "order-0002", "Excess",
		"entry/CR-1/0"})
	run("Instruct's end-to-end ids", endToEndQuery(2), []any{"E00001", "E00002"})
	q, args := releasedQuery(time.Unix(1_760_000_000, 0))
	run("Released", q, args)
	return out
}

// seedPayouts records n instructions of two tenants (each order has two purposes, a
// payout and a refund or, one in five, an excess sent back), files all but the last 50
// in files of 100, releases all files but the last, has the bank accept every tenth and
// reject every fiftieth, and records a debit for every other released one and a return
// for every hundredth.
func seedPayouts(t *testing.T, s archive.Store, n int) {
	t.Helper()
	ctx := context.Background()
	p, _ := Payouts(s)
	l, _ := Ledger(s)
	var ps []ledger.Payout
	for i := range n {
		in := anInstruction(fmt.Sprintf("order-%04d", i/2))
		in.EndToEndID = fmt.Sprintf("E%05d", i)
		switch {
		case i%10 == 9:
			in.Purpose, in.Source = ledger.PurposeExcess, ledger.RowSource(fmt.Sprintf("CR-%05d", i), 0)
		case i%2 == 1:
			in.Purpose = ledger.PurposeRefund
		}
		if i%5 == 0 {
			in.Namespace = "tenant-b"
		}
		ps = append(ps, in)
	}
	if _, err := p.Instruct(ctx, ps); err != nil {
		t.Fatal(err)
	}
	unfiled, err := p.Unfiled(ctx, maxUnfiledLimit)
	if err != nil {
		t.Fatal(err)
	}
	var sts []ledger.PayoutStatus
	var rows []ledger.Row
	for f := 0; (f+1)*100 <= len(unfiled)-50; f++ {
		part := unfiled[f*100 : (f+1)*100]
		ids := make([]int64, 0, len(part))
		for _, in := range part {
			ids = append(ids, in.ID)
		}
		msgID := fmt.Sprintf("F%02d", f)
		if err := p.AddFile(ctx, ledger.OutFile{MessageID: msgID, Name: msgID + ".xml", DebtorIBAN: part[0].DebtorIBAN,
			ExecutionDate: part[0].ExecutionDate, Data: []byte(msgID)}, ids); err != nil {
			t.Fatal(err)
		}
		if (f+2)*100 > len(unfiled)-50 {
			continue // the last file stays unreleased
		}
		if err := p.MarkReleased(ctx, msgID, time.Unix(1_760_000_000, 0)); err != nil {
			t.Fatal(err)
		}
		for i, in := range part {
			switch {
			case i%50 == 0:
				sts = append(sts, ledger.PayoutStatus{OriginalMessageID: msgID, EndToEndID: in.EndToEndID, Status: ledger.StatusRejected})
			case i%10 == 0:
				sts = append(sts, ledger.PayoutStatus{OriginalMessageID: msgID, EndToEndID: in.EndToEndID, Status: ledger.StatusAccepted})
			}
			kind := ""
			switch {
			case i%100 == 1:
				kind = "Returned"
			case i%2 == 1:
				kind = "PaidOut"
			}
			if kind != "" {
				rows = append(rows, ledger.Row{EntryReference: "D-" + in.EndToEndID, Kind: kind, CreditDebit: "DBIT", Amount: in.Amount,
					Currency: "EUR", EndToEndID: in.EndToEndID, Namespace: in.Namespace, OrderID: in.OrderID})
			}
		}
	}
	if _, err := p.Report(ctx, ledger.File{ID: "pain002"}, sts); err != nil {
		t.Fatal(err)
	}
	if err := l.Ingest(ctx, ledger.File{ID: "camt"}, rows); err != nil {
		t.Fatal(err)
	}
}

// sqlitePayoutIndexes are the indexes SQLite (without statistics) must read each payouts
// query through; the ListPayouts of no filter reads the table in id order.
var sqlitePayoutIndexes = map[string]string{
	"Unfiled":                   "SEARCH p USING INDEX bank_payouts_file (file_message_id=?)",
	"PendingPayouts":            "SCAN p USING INDEX bank_payouts_pending",
	"Unreleased":                "SCAN bank_out_files USING INDEX bank_out_files_unreleased",
	"Report":                    "SEARCH p USING INDEX sqlite_autoindex_bank_payouts_2 (end_to_end_id=?)",
	"Instruct's keys":           "SEARCH p USING COVERING INDEX sqlite_autoindex_bank_payouts_1 (namespace=? AND order_id=? AND purpose=? AND source=?)",
	"Instruct's end-to-end ids": "SEARCH p USING INDEX sqlite_autoindex_bank_payouts_2 (end_to_end_id=?)",
}

func TestSQLitePayoutsQueriesReadThroughTheirIndexes(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	// No ANALYZE, as in an embedded archive: the plans do not depend on the data.
	noFilter := fmt.Sprintf("ListPayouts %+v", ledger.PayoutQuery{Limit: 100})
	for name, plan := range payoutPlans(t, s, "EXPLAIN QUERY PLAN") {
		want, listed := sqlitePayoutIndexes[name]
		switch {
		case strings.Contains(plan, "TEMP B-TREE"):
			t.Errorf("%s sorts:\n%s", name, plan)
		case name == "Released":
			// It reads every instruction in a file, in id order, and each one's debits
			// and returns through the partial indexes of their transfer (3 subqueries),
			// never the rows of a kind or of an order.
			if strings.Count(plan, "bank_rows_paid_out (end_to_end_id=?)") != 2 ||
				strings.Count(plan, "bank_rows_returned (end_to_end_id=?)") != 1 ||
				strings.Contains(plan, "bank_rows_kind") || strings.Contains(plan, "bank_rows_order") {
				t.Errorf("Released does not read each instruction's debits and returns through their end-to-end id:\n%s", plan)
			}
		case listed && !strings.Contains(plan, want):
			t.Errorf("%s does not read through %q:\n%s", name, want, plan)
		case !listed && name != noFilter && !strings.Contains(plan, "SEARCH p USING "):
			t.Errorf("%s does not search an index of the instructions:\n%s", name, plan)
		}
	}
}

func TestPostgresPayoutsQueriesReadThroughTheirIndexes(t *testing.T) {
	pg := pgtest.Start(t)
	s, err := Open(context.Background(), pg.NewDatabase(t), Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	seedPayouts(t, s, 4000)
	if _, err := s.(*instrumented).next.(*store).db.Exec(`ANALYZE bank_payouts, bank_out_files, bank_rows, bank_files`); err != nil {
		t.Fatal(err)
	}
	// The server chooses by its statistics: it may sort a page of a few rows, or scan
	// the few files (Unreleased); it must not scan the instructions, but for Released,
	// which reads every instruction in a file.
	for name, plan := range payoutPlans(t, s, "EXPLAIN") {
		if name == "Released" || name == "Unreleased" {
			t.Logf("%s:\n%s", name, plan)
			continue
		}
		if !strings.Contains(plan, "Index") || strings.Contains(plan, "Seq Scan on bank_payouts") {
			t.Errorf("%s scans the instructions:\n%s", name, plan)
		}
	}
}

// decisionPlans returns the plan text of the queries of Query.Open and of the decisions
// book, by name, with explain.
func decisionPlans(t *testing.T, s archive.Store, explain string) map[string]string {
	t.Helper()
	out := map[string]string{}
	run := explainer(t, s, explain, out)
	for _, q := range []ledger.Query{{Open: true}, {Open: true, Cursor: encodeRowCursor(15_000)}, {Open: true, Namespace: "tenant-1"}} {
		q.Limit = 100
		query, args, _, err := rowsQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		run(fmt.Sprintf("Rows %+v", q), query, args)
	}
	run("Decide's name", decisionKnownQuery, []any{"d-1"})
	run("Decision", decisionQuery, []any{"d-1"})
	run("Decide's row", rowQuery, []any{"E-000007", 1})
	run("Decide's settlement", settleQuery, []any{"d-1", "E-000007", 1})
	return out
}

// sqliteDecisionIndexes are the indexes SQLite (without statistics) must read each query
// of decisionPlans through, by the start of its name.
var sqliteDecisionIndexes = map[string]string{
	"Rows {Kinds:[] Namespace: ": "bank_rows_open",
	"Decide's name":              "sqlite_autoindex_bank_decisions_1 (name=?)",
	"Decision":                   "sqlite_autoindex_bank_decisions_1 (name=?)",
	"Decide's row":               "sqlite_autoindex_bank_rows_1 (entry_reference=? AND txn=?)",
	"Decide's settlement":        "sqlite_autoindex_bank_rows_1 (entry_reference=? AND txn=?)",
}

func TestSQLiteDecisionsQueriesReadThroughTheirIndexes(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	// No ANALYZE, as in an embedded archive: the plans do not depend on the data.
	for name, plan := range decisionPlans(t, s, "EXPLAIN QUERY PLAN") {
		want := "USING "
		for prefix, index := range sqliteDecisionIndexes {
			if strings.HasPrefix(name, prefix) {
				want = index
			}
		}
		if strings.Contains(plan, "TEMP B-TREE") || !strings.Contains(plan, want) {
			t.Errorf("%s sorts or does not read through %q:\n%s", name, want, plan)
		}
	}
}

func TestPostgresDecisionsQueriesReadThroughTheirIndexes(t *testing.T) {
	pg := pgtest.Start(t)
	s, err := Open(context.Background(), pg.NewDatabase(t), Options{OpTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	// A ledger of 20,000 rows, a fifth of them in suspense, all but a few decided.
	l, _ := Ledger(s)
	if err := l.Ingest(context.Background(), ledger.File{ID: "statement"}, manyRows("E", 20_000)); err != nil {
		t.Fatal(err)
	}
	db := s.(*instrumented).next.(*store).db
	for _, q := range []string{
		`UPDATE bank_rows SET decision = 'd-' || id WHERE kind = 'Unmatched' AND id % 200 <> 1`,
		`INSERT INTO bank_decisions (name, uid, action, entry_reference, txn, namespace, order_id, note, decided_by, decided_unix_ms)
			SELECT decision, '', 'SettledOutside', entry_reference, txn, '', '', '', '', 0 FROM bank_rows WHERE decision <> ''`,
		`ANALYZE bank_rows, bank_decisions`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for name, plan := range decisionPlans(t, s, "EXPLAIN") {
		open := strings.HasPrefix(name, "Rows {Kinds:[] Namespace: ")
		if strings.Contains(plan, "Seq Scan") || (open && !strings.Contains(plan, "bank_rows_open")) || !strings.Contains(plan, "Index") {
			t.Errorf("%s scans a table or does not read the open rows through bank_rows_open:\n%s", name, plan)
		}
	}
}
