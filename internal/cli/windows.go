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

const windowsHelp = `Usage: PROG windows list [--isin ISIN] [--phase PHASE] [-o table|json|yaml] [--kubeconfig F] [--context C]

Lists the matching windows of share classes' secondary markets (cluster-scoped
MatchingWindow objects), by ISIN and date: the phase (Open, Matching, Matched, Settled),
the order deadline and, once matched, the BUY and SELL prices, the volume in units and each
side's fill ratio in basis points (10000 = every unit asked was filled).
`

func runWindows(p *Program, args []string) error {
	if _, err := p.verb("windows", windowsHelp, args, "list"); err != nil {
		return err
	}
	f := p.newFlags("windows list", windowsHelp)
	var k kubeFlags
	k.bind(f, false)
	var o output
	o.bind(f, "table")
	isin := f.String("isin", "", "only this share class's windows")
	phase := f.String("phase", "", "only windows in this phase (Open, Matching, Matched, Settled)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if err := o.validate("windows list"); err != nil {
		return err
	}
	c, err := k.client()
	if err != nil {
		return fmt.Errorf("windows list: %w", err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	var list investv1.MatchingWindowList
	if err := c.List(ctx, &list); err != nil {
		return fmt.Errorf("windows list: %w", err)
	}
	var ws []investv1.MatchingWindow
	for _, w := range list.Items {
		if (*isin == "" || string(w.Spec.ISIN) == *isin) && (*phase == "" || string(w.Status.Phase) == *phase) {
			ws = append(ws, w)
		}
	}
	slices.SortFunc(ws, func(a, b investv1.MatchingWindow) int {
		return cmp.Or(cmp.Compare(a.Spec.ISIN, b.Spec.ISIN), cmp.Compare(a.Spec.Date, b.Spec.Date))
	})
	if o.format != "table" {
		items := make([]runtime.Object, len(ws))
		for i := range ws {
			items[i] = &ws[i]
		}
		return o.list(p.Stdout, "MatchingWindow", items)
	}
	rows := make([]string, 0, len(ws))
	for _, w := range ws {
		deadline, buy, sell, volume, buyFill, sellFill := "-", "-", "-", "-", "-", "-"
		if w.Status.Deadline != nil {
			deadline = w.Status.Deadline.UTC().Format(time.RFC3339)
		}
		if r := w.Status.Result; r != nil {
			buy, sell = money.Format(r.BuyPrice, ""), money.Format(r.SellPrice, "")
			volume = fmt.Sprint(r.VolumeUnits)
			buyFill, sellFill = fmt.Sprint(r.BuyFillBasisPoints), fmt.Sprint(r.SellFillBasisPoints)
		}
		rows = append(rows, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", w.Name, w.Spec.ISIN, w.Spec.Date, deadline,
			cmp.Or(string(w.Status.Phase), "-"), buy, sell, volume, buyFill, sellFill))
	}
	return table(p.Stdout, "NAME\tISIN\tDATE\tDEADLINE\tPHASE\tBUY PRICE\tSELL PRICE\tVOLUME\tBUY FILL\tSELL FILL", rows)
}
