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

// The sums read the covering index only, in each of their three parts.
const sumsWrong = "the sums do not read the covering holdings index only"

func TestSQLiteEveryListFilterReadsThroughAnIndexWithoutSorting(t *testing.T) {
	s, err := Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// No ANALYZE: an embedded archive has no statistics, and the store names its indexes.
	checkPlans(t, s, 1000, "", "EXPLAIN QUERY PLAN",
		planRule{require: "USING INDEX archived_orders_", times: 1, forbid: []string{"TEMP B-TREE"}, wrong: "the plan sorts or reads no index of the archive"},
		planRule{require: "USING COVERING INDEX archived_orders_holdings", times: 3, forbid: []string{"SCAN archived_orders\n"}, wrong: sumsWrong})
}

func TestPostgresEveryListFilterReadsThroughAnIndexWithoutSorting(t *testing.T) {
	pg := pgtest.Start(t)
	s, err := Open(context.Background(), pg.NewDatabase(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPlans(t, s, 6000, `ANALYZE archived_orders`, "EXPLAIN",
		planRule{require: "Index", times: 1, forbid: []string{"Sort", "Seq Scan"}, wrong: "the plan sorts or scans the table"},
		planRule{require: "Index Only Scan using archived_orders_holdings", times: 3, forbid: []string{"Seq Scan"}, wrong: sumsWrong})
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
