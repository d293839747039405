package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
)

// archiveUsage describes `fundsharectl orders`.
const archiveUsage = `Usage:
  fundsharectl orders get  --archive-dsn DSN --namespace NS ORDER_ID
  fundsharectl orders list --archive-dsn DSN --namespace NS [--account ID] [--state S] [--limit N] [--cursor C]

Reads orders that the retention controller moved out of the cluster into the order archive
(kubectl shows only the orders still in the cluster). "get" prints one archived order as
YAML, as "kubectl get order -o yaml" printed it; "list" prints a tenant's archived orders,
newest first, and on stderr the --cursor of the next page when there is one.

Flags:
`

// runOrders runs `fundsharectl orders get|list`.
func runOrders(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "get" && args[0] != "list") {
		fmt.Fprint(stderr, archiveUsage)
		return 2
	}
	verb := args[0]
	fs := flag.NewFlagSet("orders "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := archive.BindDSNFlag(fs, "")
	ns := fs.String("namespace", "", "the tenant's namespace (required)")
	account := fs.String("account", "", "list: only this account's orders")
	state := fs.String("state", "", "list: only orders in this state (COMPLETED or CANCELLED)")
	limit := fs.Int("limit", 100, "list: at most this many orders (1 to 1000)")
	cursor := fs.String("cursor", "", "list: continue after a previous page (the cursor it printed)")
	fs.Usage = func() {
		fmt.Fprint(stderr, archiveUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	wantArgs := 0
	if verb == "get" {
		wantArgs = 1
	}
	switch {
	case *dsn == "" || *ns == "":
		fmt.Fprintf(stderr, "fundsharectl orders %s: --archive-dsn and --namespace are required\n", verb)
		return 2
	case fs.NArg() != wantArgs:
		fmt.Fprintf(stderr, "fundsharectl orders %s: expected %d argument(s), got %q\n", verb, wantArgs, fs.Args())
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := sqlstore.Open(ctx, *dsn, sqlstore.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "fundsharectl orders: open the order archive:", err)
		return 1
	}
	defer st.Close()

	if verb == "get" {
		o, err := st.Get(ctx, *ns, fs.Arg(0))
		switch {
		case errors.Is(err, archive.ErrNotFound):
			fmt.Fprintf(stderr, "fundsharectl orders get: order %s is not in the archive of namespace %s\n", fs.Arg(0), *ns)
			return 1
		case err != nil:
			fmt.Fprintln(stderr, "fundsharectl orders get:", err)
			return 1
		}
		o.SetGroupVersionKind(investv1.GroupVersion.WithKind("Order"))
		out, err := yaml.Marshal(o)
		if err != nil {
			fmt.Fprintln(stderr, "fundsharectl orders get:", err)
			return 1
		}
		_, _ = stdout.Write(out)
		return 0
	}

	page, err := st.List(ctx, *ns, archive.Query{
		Filter: archive.Filter{AccountID: investv1.ObjectID(*account), State: investv1.OrderState(*state)},
		Limit:  *limit, Cursor: *cursor,
	})
	if err != nil {
		fmt.Fprintln(stderr, "fundsharectl orders list:", err)
		if errors.Is(err, archive.ErrInvalid) {
			return 2
		}
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSIDE\tMARKET\tISIN\tUNITS\tSTATE\tACCOUNT\tCREATED")
	for _, o := range page.Orders {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", o.Name, o.Spec.Side, o.Spec.Market, o.Spec.ISIN,
			o.Spec.AmountOfUnits, o.Status.State, o.Spec.AccountID, o.CreationTimestamp.UTC().Format(time.RFC3339))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(stderr, "fundsharectl orders list:", err)
		return 1
	}
	if page.Next != "" {
		fmt.Fprintln(stderr, "next page: --cursor", page.Next)
	}
	return 0
}
