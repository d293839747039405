package cli

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

const dealingsHelp = `Usage: PROG dealings list [--isin ISIN] [--phase PHASE] [-o table|json|yaml] [--kubeconfig F] [--context C]

Lists the dealings of forward-priced share classes (cluster-scoped Dealing objects), by ISIN
and date: the phase (Open, CutOff, Struck, Settled), the subscription cut-off, the NAV
struck, the orders and how many are priced.
`

func runDealings(p *Program, args []string) error {
	if _, err := p.verb("dealings", dealingsHelp, args, "list"); err != nil {
		return err
	}
	f := p.newFlags("dealings list", dealingsHelp)
	var k kubeFlags
	k.bind(f, false)
	var o output
	o.bind(f, "table")
	isin := f.String("isin", "", "only this share class's dealings")
	phase := f.String("phase", "", "only dealings in this phase (Open, CutOff, Struck, Settled)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if err := o.validate("dealings list"); err != nil {
		return err
	}
	c, err := k.client()
	if err != nil {
		return fmt.Errorf("dealings list: %w", err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	var list investv1.DealingList
	if err := c.List(ctx, &list); err != nil {
		return fmt.Errorf("dealings list: %w", err)
	}
	var ds []investv1.Dealing
	for _, d := range list.Items {
		if (*isin == "" || string(d.Spec.ISIN) == *isin) && (*phase == "" || string(d.Status.Phase) == *phase) {
			ds = append(ds, d)
		}
	}
	slices.SortFunc(ds, func(a, b investv1.Dealing) int {
		return cmp.Or(cmp.Compare(a.Spec.ISIN, b.Spec.ISIN), cmp.Compare(a.Spec.Date, b.Spec.Date))
	})
	if o.format != "table" {
		items := make([]runtime.Object, len(ds))
		for i := range ds {
			items[i] = &ds[i]
		}
		return o.list(p.Stdout, "Dealing", items)
	}
	rows := make([]string, 0, len(ds))
	for _, d := range ds {
		cutOff, nav := "-", "-"
		if d.Status.SubscriptionCutOff != nil {
			cutOff = d.Status.SubscriptionCutOff.UTC().Format(time.RFC3339)
		}
		if d.Status.NAV != nil {
			nav = money.Format(d.Status.NAV.NAVPerShare, "")
		}
		rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d", d.Name, d.Spec.ISIN, d.Spec.Date, cmp.Or(string(d.Status.Phase), "-"),
			cutOff, nav, d.Status.Orders, d.Status.Priced))
	}
	return table(p.Stdout, "NAME\tISIN\tDATE\tPHASE\tSUBSCRIPTION CUT-OFF\tNAV\tORDERS\tPRICED", rows)
}
