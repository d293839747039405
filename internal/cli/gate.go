package cli

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

const gateHelp = `Usage: PROG gate (--fund ID | --isin ISIN) --reason TEXT [--until RFC3339] [--kubeconfig F] [--context C]

Closes the fund's redemption gate (spec.redemptionGate of the Fund; --isin names the fund of
that share class): while it is closed, sell orders wait in REDEMPTION_GATED and execute when
it lifts. --until lifts it at that time by itself. The reason is shown on gated orders.
`

const ungateHelp = `Usage: PROG ungate (--fund ID | --isin ISIN) [--kubeconfig F] [--context C]

Lifts the fund's redemption gate (removes spec.redemptionGate of the Fund; --isin names the
fund of that share class): gated sell orders execute.
`

// fundFlags picks the fund of a gate command.
type fundFlags struct {
	kubeFlags
	fund, isin string
}

func (ff *fundFlags) bind(f *flags) {
	ff.kubeFlags.bind(f, false)
	f.StringVar(&ff.fund, "fund", "", "the Fund's id (its metadata.name)")
	f.StringVar(&ff.isin, "isin", "", "a share class's ISIN: its fund")
}

func (ff *fundFlags) validate(path string) error {
	if (ff.fund == "") == (ff.isin == "") {
		return usageErrorf("%s: exactly one of --fund and --isin is required", path)
	}
	return nil
}

// fundID is --fund, or the fund of --isin's share class.
func (ff *fundFlags) fundID(ctx context.Context, c client.Client) (string, error) {
	if ff.fund != "" {
		return ff.fund, nil
	}
	sc, err := shareClassByISIN(ctx, c, investv1.ISIN(ff.isin))
	if err != nil {
		return "", err
	}
	return string(sc.Spec.FeederFundID), nil
}

func runGate(p *Program, args []string) error {
	f := p.newFlags("gate", gateHelp)
	var ff fundFlags
	ff.bind(f)
	reason := f.String("reason", "", "why the gate is closed, shown on gated orders (required, at most 256 characters)")
	until := f.String("until", "", "lift the gate at this time by itself (RFC 3339, e.g. 2026-12-01T00:00:00Z)")
	if err := f.parse(args); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if err := ff.validate("gate"); err != nil {
		return err
	}
	if *reason == "" || len(*reason) > 256 {
		return usageErrorf("gate: --reason is required, at most 256 characters")
	}
	gate := investv1.RedemptionGate{Active: true, Reason: *reason}
	if *until != "" {
		t, err := time.Parse(time.RFC3339, *until)
		if err != nil {
			return usageErrorf("gate: --until %q is not an RFC 3339 time", *until)
		}
		gate.Until = &metav1.Time{Time: t}
	}
	return p.setGate("gate", &ff, &gate)
}

func runUngate(p *Program, args []string) error {
	f := p.newFlags("ungate", ungateHelp)
	var ff fundFlags
	ff.bind(f)
	if err := f.parse(args); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if err := ff.validate("ungate"); err != nil {
		return err
	}
	return p.setGate("ungate", &ff, nil)
}

// setGate sets the fund's gate to gate (nil: lifted), on the fund read fresh and written
// with its resourceVersion (a conflict is read again and retried), and says what changed.
func (p *Program) setGate(path string, ff *fundFlags, gate *investv1.RedemptionGate) error {
	c, err := ff.client()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	id, err := ff.fundID(ctx, c)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var msg string
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		fund := &investv1.Fund{}
		if err := c.Get(ctx, client.ObjectKey{Name: id}, fund); err != nil {
			return err
		}
		was := describeGate(fund.Spec.RedemptionGate)
		now := describeGate(gate)
		if was == now {
			msg = fmt.Sprintf("fund/%s (%s) unchanged: redemption gate %s", id, fund.Spec.Name, now)
			return nil
		}
		fund.Spec.RedemptionGate = gate
		if err := c.Update(ctx, fund); err != nil {
			return err
		}
		msg = fmt.Sprintf("fund/%s (%s): redemption gate %s (was %s)", id, fund.Spec.Name, now, was)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	_, err = fmt.Fprintln(p.Stdout, msg)
	return err
}

// describeGate says what a gate does: "open", or "closed: REASON[, until T]".
func describeGate(g *investv1.RedemptionGate) string {
	if g == nil || !g.Active {
		return "open"
	}
	s := fmt.Sprintf("closed: %q", g.Reason)
	if g.Until != nil {
		s += ", until " + g.Until.UTC().Format(time.RFC3339)
	}
	return s
}
