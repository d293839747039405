package cli

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

// ordersHelp describes "orders".
const ordersHelp = `Usage:
  PROG orders get  --archive-dsn DSN [-n NS] [-o yaml|json|table] ORDER_ID
  PROG orders list --archive-dsn DSN [-n NS] [-o table|json|yaml] [--account ID] [--state S] [--limit N] [--cursor C]

Reads orders that the retention controller moved out of the cluster into the order archive
(kubectl shows only the orders still in the cluster). "get" prints one archived order, by
default as YAML, as "kubectl get order -o yaml" printed it; "list" prints a tenant's archived
orders, newest first, and on stderr the --cursor of the next page when there is one.

The archive is opened read-only: a SQLite file that does not exist is an error, never a new
empty archive. -n defaults to the kubeconfig context's namespace (the cluster is not
contacted).
`

// runOrders runs "orders get|list".
func runOrders(p *Program, args []string) error {
	verb, err := p.verb("orders", ordersHelp, args, "get", "list")
	if err != nil {
		return err
	}
	path := "orders " + verb
	f := p.newFlags(path, ordersHelp)
	gofs := flag.NewFlagSet(path, flag.ContinueOnError)
	dsn := archive.BindDSNFlag(gofs, "")
	f.AddGoFlagSet(gofs)
	var k kubeFlags
	k.bind(f, true)
	var o output
	if verb == "get" {
		o.bind(f, "yaml")
	} else {
		o.bind(f, "table")
	}
	account := f.String("account", "", "list: only this account's orders")
	state := f.String("state", "", "list: only orders in this state (COMPLETED or CANCELLED)")
	limit := f.Int("limit", 100, "list: at most this many orders (1 to 1000)")
	cursor := f.String("cursor", "", "list: continue after a previous page (the cursor it printed)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := o.validate(path); err != nil {
		return err
	}
	ns, nsErr := k.ns()
	if *dsn == "" || nsErr != nil {
		return usageErrorf("%s: --archive-dsn and --namespace are required (the namespace defaults to the kubeconfig context's)", path)
	}
	wantArgs := 0
	if verb == "get" {
		wantArgs = 1
	}
	if err := f.args(wantArgs); err != nil {
		return err
	}
	ctx, cancel := commandContext()
	defer cancel()
	st, err := sqlstore.Open(ctx, *dsn, sqlstore.Options{ReadOnly: true})
	if err != nil {
		if errors.Is(err, archive.ErrInvalid) {
			return usageErrorf("%s: %v", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	defer func() { _ = st.Close() }()

	if verb == "get" {
		ord, err := st.Get(ctx, ns, f.Arg(0))
		switch {
		case errors.Is(err, archive.ErrNotFound):
			return fmt.Errorf("%s: order %s is not in the archive of namespace %s", path, f.Arg(0), ns)
		case err != nil:
			return fmt.Errorf("%s: %w", path, err)
		}
		if o.format == "table" {
			return orderTable(p, []investv1.Order{*ord})
		}
		return o.object(p.Stdout, "Order", ord)
	}

	page, err := st.List(ctx, ns, archive.Query{
		Filter: archive.Filter{AccountID: investv1.ObjectID(*account), State: investv1.OrderState(*state)},
		Limit:  *limit, Cursor: *cursor,
	})
	if err != nil {
		if errors.Is(err, archive.ErrInvalid) {
			return usageErrorf("%s: %v", path, err)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if o.format == "table" {
		err = orderTable(p, page.Orders)
	} else {
		items := make([]runtime.Object, len(page.Orders))
		for i := range page.Orders {
			items[i] = &page.Orders[i]
		}
		err = o.list(p.Stdout, "Order", items)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if page.Next != "" {
		fmt.Fprintln(p.Stderr, "next page: --cursor", page.Next)
	}
	return nil
}

func orderTable(p *Program, orders []investv1.Order) error {
	rows := make([]string, 0, len(orders))
	for _, o := range orders {
		rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s", o.Name, o.Spec.Side, o.Spec.Market, o.Spec.ISIN,
			o.Spec.AmountOfUnits, o.Status.State, o.Spec.AccountID, o.CreationTimestamp.UTC().Format(time.RFC3339)))
	}
	return table(p.Stdout, "ID\tSIDE\tMARKET\tISIN\tUNITS\tSTATE\tACCOUNT\tCREATED", rows)
}
