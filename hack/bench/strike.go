package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	eventsv1 "k8s.io/api/events/v1"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// strikeResult is a NAV strike of many paid forward orders of one ISIN and dealing date
// (issue 23's target), beside the raw write ceiling measured in the same run.
type strikeResult struct {
	Orders   int    `json:"orders"`
	Accounts int    `json:"accounts"`
	ISIN     string `json:"isin"`
	Date     string `json:"dealing_date"`
	// Seconds is from the NAV's publication to the last order EXECUTED.
	Seconds      float64 `json:"seconds"`
	Executed     int     `json:"executed"`
	OrdersPerSec float64 `json:"orders_per_s"`
	// Writes are the manager's API writes from the publication until its controllers
	// are idle again (no settlement agent runs: nothing moves an order past EXECUTED);
	// WritesPerOrder leaves out the Dealing's.
	Writes int64 `json:"api_writes"`
	// DealingWrites are the writes of the Dealing (status, Events): once per strike.
	DealingWrites   int64            `json:"dealing_writes"`
	WritesPerOrder  float64          `json:"api_writes_per_order"`
	Requests        map[string]int64 `json:"api_requests_by_kind"`
	RawBefore       float64          `json:"raw_writes_per_s_before"`
	RawAfter        float64          `json:"raw_writes_per_s_after"`
	RawWritesPerSec float64          `json:"raw_writes_per_s"`
	// Ceiling is the raw write rate over the writes per order: the orders per second
	// the API server allows at this many writes each; Figure is ours over it.
	Ceiling float64 `json:"ceiling_orders_per_s"`
	Figure  float64 `json:"figure"`
	LoadPS  float64 `json:"load_orders_per_s"`
	Err     string  `json:"error,omitempty"`
}

// strikeTerms deal every business day in UTC with both cut-offs at midnight starting the
// dealing date: today's dealing date is cut off already, so its NAV strikes at once.
func strikeTerms() *investv1.DealingTerms {
	return &investv1.DealingTerms{
		Pricing: investv1.PricingForward, TimeZone: "UTC", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "00:00"}, RedemptionCutOff: investv1.CutOff{Time: "00:00"},
		SettlementPeriod: 2,
	}
}

// lastCutDealing is the latest dealing date of cal whose cut-offs have passed at now.
func lastCutDealing(cal *dealing.Calendar, now time.Time) (dealing.Dealing, error) {
	today := dealing.LocalDate(now, cal.Location())
	for d := today; d > today-30; d-- {
		if !cal.IsDealingDate(d) {
			continue
		}
		dl, err := cal.Dealing(d)
		if err != nil {
			return dealing.Dealing{}, err
		}
		if !now.Before(dl.LastCutOff()) {
			return dl, nil
		}
	}
	return dealing.Dealing{}, errors.New("no dealing date cut off in the last 30 days")
}

// paidForwardOrder is a BUY by amount of a forward class as admission, the order
// controller and the sandbox money agent leave it before the strike: quoted for its
// dealing date, paid, waiting for the NAV (its status computed with lifecycle.Decide and
// lifecycle.Apply, as the order controller writes it).
func paidForwardOrder(rng *rand.Rand, acct accountRef, sc *investv1.ShareClass, fund *investv1.Fund, dl dealing.Dealing, at time.Time) (*investv1.Order, investv1.OrderStatus, error) {
	amount := (1_000 + rng.Int64N(9_001)) * 10_000 // 1,000 to 10,000 EUR
	o := fixtures.BuyOrder(acct.tenant.ns, acct.id, string(sc.Spec.ISIN), 1)
	o.Spec.AmountOfUnits, o.Spec.Amount = 0, amount
	cutOff := metav1.NewTime(dl.CutOff(investv1.SideBuy).UTC())
	o.Spec.Quote = &investv1.OrderQuote{
		GrossValue: amount, FeeRate: sc.Spec.SubscriptionFee, FeeSource: investv1.FeeSourceDefault, Amount: amount,
		FundDetails: investv1.OrderFundDetails{
			ISIN: sc.Spec.ISIN, FundID: investv1.ObjectID(fund.Name), FundName: fund.Spec.Name,
			ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: sc.Spec.Name,
		},
		WalletID: investv1.ObjectID(acct.wallet), DealingDate: dl.Date.String(), CutOff: &cutOff,
	}
	if p := fund.Spec.PaymentDetails; p != nil {
		o.Spec.Quote.PaymentDetails = &investv1.OrderPaymentDetails{AccountHolderName: p.AccountHolderName, IBAN: p.IBAN, PaymentReference: placement.PaymentReference(o.Name)}
	}
	// Placed and paid before the cut-off; decided at `at` (after it) from then on.
	clock := dl.CutOff(investv1.SideBuy).Add(-time.Hour)
	money := &settlement.Sandbox{Name: "sandbox", Now: func() time.Time { return clock }}
	facts := lifecycle.Facts{FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true, Priced: true, Reservation: lifecycle.ReservationNotNeeded}
	work := o.DeepCopy()
	work.Generation = 1 // what the API server gives the order at its create: the conditions observe it
	for range 8 {
		facts.Now = clock
		m := lifecycle.Decide(work, facts)
		lifecycle.Apply(work, m.Steps, m.Wait, m.Refused, metav1.NewTime(clock.UTC()))
		if len(m.Steps) == 0 {
			lifecycle.SetConditions(work, m.Wait, nil, m.Refused)
		}
		if m.Wait != nil && m.Wait.Reason == lifecycle.WaitAwaitingStrike {
			work.Status.ObservedGeneration = work.Generation
			return o, work.Status, nil
		}
		if step, ok := lifecycle.NextStep(work); ok && step == lifecycle.StepPaymentReceived {
			rec, err := money.Settle(context.Background(), work, step)
			if err != nil {
				return nil, investv1.OrderStatus{}, err
			}
			lifecycle.Record(work, step, rec)
		}
		clock = clock.Add(time.Minute)
		if !clock.Before(dl.CutOff(investv1.SideBuy)) {
			clock = at
		}
	}
	return nil, investv1.OrderStatus{}, fmt.Errorf("the simulated forward order stopped in %s, not waiting for the strike", work.Status.State)
}

// measureStrike loads n paid forward BUYs by amount of a new forward class on the
// accounts (manager stopped, admission off), starts the manager without settlement
// agents, publishes the NAV of their dealing date and times the strike to the last
// EXECUTED, counting the manager's API writes.
func (b *bench) measureStrike(ctx context.Context, n int) (strikeResult, error) {
	accts := append(append([]accountRef{}, b.ds.measured...), b.ds.others...)
	res := strikeResult{Orders: n, Accounts: len(accts)}
	now := time.Now()
	fund := fixtures.Fund()
	body := fmt.Sprintf("XS%09d", now.UnixNano()%1_000_000_000)
	check, err := validation.ISINCheckDigit(body)
	if err != nil {
		return res, err
	}
	isin := body + string(check)
	sc := fixtures.ShareClass(fund.Name, isin)
	sc.Spec.MinInvestment, sc.Spec.SubscriptionFee = 0, 150
	sc.Spec.Dealing = strikeTerms()
	cal, err := dealing.New(sc.Spec.Dealing)
	if err != nil {
		return res, err
	}
	dl, err := lastCutDealing(cal, now)
	if err != nil {
		return res, err
	}
	res.ISIN, res.Date = isin, dl.Date.String()
	nh := fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: (dl.Date - 7).String(), NAVPerShare: 1_000_000})
	if b.op == nil {
		// The webhook measurement leaves the manager stopped, and its admission webhooks
		// still registered: the catalogue goes through admission as an operator's would.
		if err := b.start(ctx, false, variant{}); err != nil {
			return res, err
		}
	}
	for _, obj := range []client.Object{fund, sc, nh} {
		if err := b.c.Create(ctx, obj); err != nil {
			return res, fmt.Errorf("create %T: %w", obj, err)
		}
	}

	b.stop()
	if err := b.hooks.off(ctx); err != nil {
		return res, err
	}
	progress("strike: loading %s paid forward orders of %s for %s on %d accounts (admission off)", thousands(n), isin, res.Date, len(accts))
	start := time.Now()
	var done atomic.Int64
	err = parallel(ctx, b.o.loadWorkers, n, func(i int) error {
		rng := rand.New(rand.NewPCG(uint64(i), 23))
		o, status, err := paidForwardOrder(rng, accts[i%len(accts)], sc, fund, dl, now)
		if err != nil {
			return err
		}
		if err := retry(ctx, func() error { return b.c.Create(ctx, o) }); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		o.Status = status
		if err := retry(ctx, func() error { return b.c.Status().Update(ctx, o) }); err != nil {
			return fmt.Errorf("order status: %w", err)
		}
		if d := done.Add(1); d%2500 == 0 {
			progress("  %s loaded", thousands(int(d)))
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.LoadPS = float64(n) / time.Since(start).Seconds()
	b.ds.orders += n
	if err := b.hooks.on(ctx); err != nil {
		return res, err
	}
	if err := b.start(ctx, false, variant{name: "no settlement agents", noAgents: true}); err != nil {
		return res, err
	}
	if err := waitIdle(ctx, 5*time.Minute); err != nil {
		return res, err
	}

	raw, err := client.New(managerConfig(b.cfg), client.Options{Scheme: controlplane.Scheme()})
	if err != nil {
		return res, err
	}
	progress("raw write ceiling, %d writers", len(b.ds.ceiling))
	if res.RawBefore, err = rawWrites(ctx, raw, b.ds.ceiling, b.o.duration); err != nil {
		return res, err
	}

	inf, err := b.op.mgr.GetCache().GetInformer(ctx, &investv1.Order{})
	if err != nil {
		return res, err
	}
	var mu sync.Mutex
	var last time.Time
	executed := 0
	reg, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := newObj.(*investv1.Order)
			old, ok2 := oldObj.(*investv1.Order)
			if !ok1 || !ok2 || o.Spec.ISIN != investv1.ISIN(isin) || o.Status.State != investv1.StateExecuted || old.Status.State == investv1.StateExecuted {
				return
			}
			mu.Lock()
			executed++
			last = time.Now()
			mu.Unlock()
		},
	})
	if err != nil {
		return res, err
	}
	defer func() { _ = inf.RemoveEventHandler(reg) }()

	progress("strike: publishing the NAV of %s", res.Date)
	endProfile := b.profile(ctx, "strike")
	before := b.counter.snapshot()
	published := time.Now()
	fresh := &investv1.NAVHistory{}
	if err := b.c.Get(ctx, client.ObjectKeyFromObject(nh), fresh); err != nil {
		return res, err
	}
	base := fresh.DeepCopy()
	fresh.Spec.Prices = append(fresh.Spec.Prices, investv1.NAVPrice{Date: res.Date, NAVPerShare: 1_050_000})
	if err := b.c.Patch(ctx, fresh, client.MergeFrom(base)); err != nil {
		return res, err
	}
	deadline := published.Add(10 * time.Minute)
	for {
		mu.Lock()
		res.Executed = executed
		end := last
		mu.Unlock()
		if res.Executed >= n {
			res.Seconds = end.Sub(published).Seconds()
			break
		}
		if time.Now().After(deadline) {
			res.Err = fmt.Sprintf("%d of %d orders EXECUTED after 10 minutes", res.Executed, n)
			res.Seconds = time.Since(published).Seconds()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res.OrdersPerSec = float64(res.Executed) / res.Seconds
	endProfile()
	if err := waitIdle(ctx, 5*time.Minute); err != nil {
		return res, err
	}
	time.Sleep(time.Second) // the Events the recorder still sends
	counts := diffCounts(before, b.counter.snapshot())
	res.Requests, res.Writes = counts, counts.writes()
	// The Dealing's own writes (its status, its Events) are the strike's, once per
	// dealing date, not per order.
	var evs eventsv1.EventList
	if err := b.c.List(ctx, &evs, client.MatchingFields{"regarding.name": lifecycle.DealingName(investv1.ISIN(isin), res.Date)}); err != nil {
		return res, err
	}
	res.DealingWrites = int64(len(evs.Items))
	for k, v := range counts {
		if strings.Contains(k, " dealings") {
			res.DealingWrites += v
		}
	}
	res.WritesPerOrder = float64(res.Writes-res.DealingWrites) / float64(n)
	progress("raw write ceiling again")
	if res.RawAfter, err = rawWrites(ctx, raw, b.ds.ceiling, b.o.duration); err != nil {
		return res, err
	}
	res.RawWritesPerSec = (res.RawBefore + res.RawAfter) / 2
	res.Ceiling = res.RawWritesPerSec / res.WritesPerOrder
	res.Figure = res.OrdersPerSec / res.Ceiling
	return res, nil
}
