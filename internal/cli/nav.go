package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/money"
)

const navHelp = `Usage: PROG nav publish --isin ISIN --date YYYY-MM-DD --nav MICROS [--kubeconfig F] [--context C]

Appends the NAV per share of one date to the share class's NAVHistory (named after the ISIN
in lower case; created with the share class's currency when the class has none yet). The
NAV is in micro-units of the currency (1 EUR = 10000); the change against the previous
date's price is computed. Publishing the same price again changes nothing; a different
price for a date that already has one is refused: a NAV struck for a dealing is never
changed (admission refuses it too), and a correction before the strike is an edit of the
NAVHistory that a person makes on purpose (kubectl edit navhistory NAME).
`

// runNAV runs "nav publish".
func runNAV(p *Program, args []string) error {
	if _, err := p.verb("nav", navHelp, args, "publish"); err != nil {
		return err
	}
	f := p.newFlags("nav publish", navHelp)
	var k kubeFlags
	k.bind(f, false)
	isin := f.String("isin", "", "the share class's ISIN (required)")
	date := f.String("date", "", "the date of the price, YYYY-MM-DD (required)")
	nav := f.Int64("nav", 0, "the NAV per share in micro-units of the currency (required, above 0)")
	if err := f.parse(args[1:]); err != nil {
		return err
	}
	if err := f.args(0); err != nil {
		return err
	}
	if *isin == "" || *date == "" || *nav <= 0 {
		return usageErrorf("nav publish: --isin, --date and --nav (above 0) are required")
	}
	if _, err := time.Parse(time.DateOnly, *date); err != nil {
		return usageErrorf("nav publish: --date %q is not a date YYYY-MM-DD", *date)
	}
	c, err := k.client()
	if err != nil {
		return fmt.Errorf("nav publish: %w", err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	msg, err := publishNAV(ctx, c, investv1.ISIN(*isin), investv1.NAVPrice{Date: *date, NAVPerShare: *nav})
	if err != nil {
		return fmt.Errorf("nav publish: %w", err)
	}
	_, err = fmt.Fprintln(p.Stdout, msg)
	return err
}

// publishNAV appends price to the ISIN's NAVHistory, read fresh and written with its
// resourceVersion (a conflict is read again and retried), and says what changed.
func publishNAV(ctx context.Context, c client.Client, isin investv1.ISIN, price investv1.NAVPrice) (string, error) {
	name := strings.ToLower(string(isin))
	var msg string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		h := &investv1.NAVHistory{}
		err := c.Get(ctx, client.ObjectKey{Name: name}, h)
		if apierrors.IsNotFound(err) {
			sc, err := shareClassByISIN(ctx, c, isin)
			if err != nil {
				return err
			}
			h = &investv1.NAVHistory{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec:       investv1.NAVHistorySpec{ISIN: isin, Currency: sc.Spec.Currency, Prices: []investv1.NAVPrice{price}},
			}
			if err := c.Create(ctx, h); err != nil {
				return err
			}
			msg = fmt.Sprintf("navhistory/%s created: NAV of %s is %s", name, price.Date, money.Format(price.NAVPerShare, string(h.Spec.Currency)))
			return nil
		}
		if err != nil {
			return err
		}
		cur := string(h.Spec.Currency)
		i, found := slices.BinarySearchFunc(sortedPrices(h), price.Date, func(p investv1.NAVPrice, d string) int { return strings.Compare(p.Date, d) })
		if found {
			old := h.Spec.Prices[i]
			if old.NAVPerShare == price.NAVPerShare {
				msg = fmt.Sprintf("navhistory/%s unchanged: NAV of %s is already %s", name, price.Date, money.Format(price.NAVPerShare, cur))
				return nil
			}
			return fmt.Errorf("navhistory/%s already holds NAV %s for %s; refusing to change it to %s "+
				"(a struck NAV is never changed; a correction before the strike: kubectl edit navhistory %s)",
				name, money.Format(old.NAVPerShare, cur), price.Date, money.Format(price.NAVPerShare, cur), name)
		}
		change := ""
		if i > 0 {
			prev := h.Spec.Prices[i-1]
			price.ChangePercentage = (price.NAVPerShare - prev.NAVPerShare) * 10000 / prev.NAVPerShare
			change = fmt.Sprintf(" (%+.2f%% on %s)", float64(price.ChangePercentage)/100, prev.Date)
		}
		h.Spec.Prices = slices.Insert(h.Spec.Prices, i, price)
		if err := c.Update(ctx, h); err != nil {
			return err
		}
		msg = fmt.Sprintf("navhistory/%s: NAV of %s published: %s%s", name, price.Date, money.Format(price.NAVPerShare, cur), change)
		return nil
	})
	return msg, err
}

// sortedPrices sorts h's prices by date (the list is a map keyed by date, so its order
// carries no meaning) and returns them.
func sortedPrices(h *investv1.NAVHistory) []investv1.NAVPrice {
	slices.SortFunc(h.Spec.Prices, func(a, b investv1.NAVPrice) int { return strings.Compare(a.Date, b.Date) })
	return h.Spec.Prices
}

// shareClassByISIN finds the share class of an ISIN (ISINs are unique across classes).
func shareClassByISIN(ctx context.Context, c client.Client, isin investv1.ISIN) (*investv1.ShareClass, error) {
	var list investv1.ShareClassList
	if err := c.List(ctx, &list); err != nil {
		return nil, err
	}
	for i := range list.Items {
		if list.Items[i].Spec.ISIN == isin {
			return &list.Items[i], nil
		}
	}
	return nil, fmt.Errorf("no share class has ISIN %s", isin)
}
