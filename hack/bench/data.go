package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/placement"
)

// tenant is an integrator: a namespace with an ApiClient, the plain client secret (the
// cluster holds only its hash), a token once logged in, and its accounts.
type tenant struct {
	ns, clientID, secret, token string
	accounts, wallets           []string // each account's primary wallet beside it
}

// shareClassQuote is what pricing needs of a share class: its latest NAV, fees and fund.
type shareClassQuote struct {
	isin                investv1.ISIN
	nav                 investv1.NAVPrice
	subscriptionFee     int64
	fund                *investv1.Fund
	class               *investv1.ShareClass
	unitsForMinimum     int64
	paymentAccountIBAN  string
	paymentAccountOwner string
}

// dataset is everything the harness created.
type dataset struct {
	tenants  []*tenant
	classes  []shareClassQuote
	measured []accountRef // accounts whose order count stays fixed while the total grows
	others   []accountRef // accounts that receive the bulk of the orders
	sample   []orderRef   // orders for GET /v1/orders/{id}
	ceiling  []client.ObjectKey
	orders   int
	// shift, when set, changes each loaded order's terminal status before it is written
	// (the archive scale run makes orders due for retention at one moment).
	shift func(*investv1.OrderStatus)
}

type accountRef struct {
	tenant *tenant
	id     string
	wallet string
}

type orderRef struct {
	tenant *tenant
	id     string
}

// loadCatalogue applies the sample catalogue of `make run` and reads back what pricing needs.
func loadCatalogue(ctx context.Context, c client.Client) ([]shareClassQuote, error) {
	if err := devdata.ApplyFile(ctx, c, filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml")); err != nil {
		return nil, err
	}
	var classes investv1.ShareClassList
	if err := c.List(ctx, &classes); err != nil {
		return nil, err
	}
	var out []shareClassQuote
	for i := range classes.Items {
		sc := &classes.Items[i]
		if t := sc.Spec.Dealing; t != nil && t.Frequency == investv1.DealingIntraday {
			// A class that deals every few minutes writes on its own clock (its next dealing
			// points, its empty points made and deleted): writes the harness would count as
			// those of the orders it measures. The strike measures a forward class of its own.
			if err := c.Delete(ctx, sc); err != nil {
				return nil, err
			}
			continue
		}
		fund := &investv1.Fund{}
		if err := c.Get(ctx, client.ObjectKey{Name: string(sc.Spec.FeederFundID)}, fund); err != nil {
			return nil, err
		}
		h := &investv1.NAVHistory{}
		if err := c.Get(ctx, client.ObjectKey{Name: strings.ToLower(string(sc.Spec.ISIN))}, h); err != nil {
			return nil, err
		}
		nav := placement.Latest(h)
		if nav == nil || !fund.Spec.Subscribable || sc.Spec.Currency != "EUR" {
			continue
		}
		q := shareClassQuote{
			isin: sc.Spec.ISIN, nav: *nav, subscriptionFee: sc.Spec.SubscriptionFee,
			fund: fund, class: sc,
			unitsForMinimum: (sc.Spec.MinInvestment + nav.NAVPerShare - 1) / nav.NAVPerShare,
		}
		if pd := fund.Spec.PaymentDetails; pd != nil {
			q.paymentAccountIBAN, q.paymentAccountOwner = pd.IBAN, pd.AccountHolderName
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the sample catalogue has no subscribable EUR share class with a NAV")
	}
	return out, nil
}

// createTenants onboards integrators as an operator would (namespace, Secret with the hash
// of the client secret, ApiClient), each with its share of the accounts. Every account has
// a primary wallet and already carries the account controller's finalizer, like accounts
// with a history.
func createTenants(ctx context.Context, c client.Client, tenants, accounts, workers int) ([]*tenant, error) {
	out := make([]*tenant, tenants)
	for i := range out {
		ns := fmt.Sprintf("bench-%02d", i)
		if err := devdata.EnsureNamespace(ctx, c, ns); err != nil {
			return nil, err
		}
		secret, err := clientsecret.New()
		if err != nil {
			return nil, err
		}
		hash, err := clientsecret.Hash(secret)
		if err != nil {
			return nil, err
		}
		if err := c.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "credentials"},
			Data:       map[string][]byte{"hash": []byte(hash)},
		}); err != nil {
			return nil, err
		}
		t := &tenant{ns: ns, clientID: ns + "-client", secret: secret}
		if err := c.Create(ctx, fixtures.ApiClient(ns, t.clientID, "credentials")); err != nil {
			return nil, err
		}
		out[i] = t
	}
	type job struct {
		t         *tenant
		acct, wal string
	}
	var jobs []job
	for i := range accounts {
		t := out[i%tenants]
		j := job{t: t, acct: uuid.NewString(), wal: uuid.NewString()}
		t.accounts = append(t.accounts, j.acct)
		t.wallets = append(t.wallets, j.wal)
		jobs = append(jobs, j)
	}
	err := parallel(ctx, workers, len(jobs), func(i int) error {
		j := jobs[i]
		a := fixtures.IndividualAccount(j.t.ns)
		a.Name = j.acct
		a.Spec.ExternalID = "bench-" + j.acct[:13]
		a.Spec.PrimaryWallet = j.wal
		a.Finalizers = []string{account.Finalizer}
		if err := retry(ctx, func() error { return c.Create(ctx, a) }); err != nil {
			return fmt.Errorf("account: %w", err)
		}
		w := fixtures.Wallet(j.t.ns, j.acct, fixtures.Address)
		w.Name = j.wal
		if err := retry(ctx, func() error { return c.Create(ctx, w) }); err != nil {
			return fmt.Errorf("wallet: %w", err)
		}
		return nil
	})
	return out, err
}

// createCeilingObjects makes the trivial custom resources of the raw write ceiling:
// ApiClients, one per writer, each in a namespace of its own (a namespace holds at most
// one ApiClient), whose status only the ApiClient controller writes, once.
func createCeilingObjects(ctx context.Context, c client.Client, n int) ([]client.ObjectKey, error) {
	keys := make([]client.ObjectKey, n)
	for i := range keys {
		ns := fmt.Sprintf("bench-ceiling-%02d", i)
		if err := devdata.EnsureNamespace(ctx, c, ns); err != nil {
			return nil, err
		}
		ac := fixtures.ApiClient(ns, fmt.Sprintf("ceiling-%02d", i), "unused")
		ac.Name = fmt.Sprintf("ceiling-%02d", i)
		if err := c.Create(ctx, ac); err != nil {
			return nil, err
		}
		keys[i] = client.ObjectKeyFromObject(ac)
	}
	return keys, nil
}

// historicalOrder is a BUY order as it looks after its lifecycle: the quote admission
// would have fixed, and the status the order controller and the sandbox agent would have
// written, computed with their own pure functions (lifecycle.Next, settlement.Sandbox).
// One order in ten was cancelled instead.
// Its lifecycle starts at start (placement), an hour per step.
func historicalOrder(rng *rand.Rand, ns string, acct accountRef, sc shareClassQuote, start time.Time) (*investv1.Order, investv1.OrderStatus, error) {
	units := sc.unitsForMinimum + rng.Int64N(sc.unitsForMinimum*4+1)
	o := fixtures.BuyOrder(ns, acct.id, string(sc.isin), units)
	q, err := money.QuoteOrder(units, sc.nav.NAVPerShare, sc.subscriptionFee)
	if err != nil {
		return nil, investv1.OrderStatus{}, err
	}
	o.Spec.Quote = &investv1.OrderQuote{
		NAVPerShare: sc.nav.NAVPerShare, NAVDate: sc.nav.Date,
		GrossValue: q.Gross, FeeRate: q.FeeRate, FeeAmount: q.FeeAmount, FeeSource: investv1.FeeSourceDefault,
		NetAmount: q.Net, Amount: q.Gross,
		FundDetails: investv1.OrderFundDetails{
			ISIN: sc.isin, FundID: investv1.ObjectID(sc.fund.Name), FundName: sc.fund.Spec.Name,
			ShareClassID: investv1.ObjectID(sc.class.Name), ShareClassName: sc.class.Spec.Name,
		},
		WalletID: investv1.ObjectID(acct.wallet),
	}
	if sc.paymentAccountIBAN != "" {
		o.Spec.Quote.PaymentDetails = &investv1.OrderPaymentDetails{
			AccountHolderName: sc.paymentAccountOwner, IBAN: sc.paymentAccountIBAN,
			PaymentReference: placement.PaymentReference(o.Name),
		}
	}
	if rng.IntN(10) == 0 {
		o.Spec.CancellationRequested, o.Spec.CancellationReason = true, "customer request"
	}

	// Walk the lifecycle on a clock that starts at start, an hour per step.
	clock := start
	tick := func() time.Time { clock = clock.Add(time.Hour); return clock }
	sandbox := settlement.Sides{
		Money: &settlement.Sandbox{Name: "sandbox", Now: func() time.Time { return clock }},
		Token: &settlement.NoChainTokenSandbox{Now: func() time.Time { return clock }},
	}
	facts := lifecycle.Facts{FundFound: true, Subscribable: true, Redeemable: true, Tradeable: true, Priced: true}
	work := o.DeepCopy()
	for range 32 {
		facts.Now = tick()
		d := lifecycle.Next(work, facts)
		if d.Transition != nil {
			applyTransition(work, d.Transition, facts.Now)
			continue
		}
		step, ok := lifecycle.NextStep(work)
		if !ok {
			break
		}
		rec, err := sandbox.Settle(context.Background(), work, step)
		if err != nil {
			return nil, investv1.OrderStatus{}, err
		}
		lifecycle.Record(work, step, rec)
	}
	if !work.Status.State.Terminal() {
		return nil, investv1.OrderStatus{}, fmt.Errorf("simulated order ended in %s", work.Status.State)
	}
	return o, work.Status, nil
}

// applyTransition records one move the way the order reconciler's transition does.
func applyTransition(o *investv1.Order, t *lifecycle.Transition, at time.Time) {
	o.Status.History = append(o.Status.History, investv1.OrderTransition{State: t.To, At: metav1.NewTime(at.UTC()), Reason: t.Reason, Message: t.Message})
	o.Status.State = t.To
	o.Status.ObservedGeneration = o.Generation
	meta.SetStatusCondition(&o.Status.Conditions, metav1.Condition{
		Type: lifecycle.ConditionWaiting, Status: metav1.ConditionFalse, Reason: t.Reason, Message: t.Message, LastTransitionTime: metav1.NewTime(at),
	})
	if t.Refund != nil {
		o.Status.Refund = t.Refund
	}
	for _, c := range lifecycle.StatusConditions(o, nil) {
		c.LastTransitionTime = metav1.NewTime(at)
		meta.SetStatusCondition(&o.Status.Conditions, c)
	}
}

// loadOrders creates n historical orders directly (admission off), spread round-robin
// over accts, each with two writes: the create and its terminal status. It returns the
// rate in orders per second.
//
// Each order's lifecycle starts at life(rng), or up to a year ago when life is nil.
func loadOrders(ctx context.Context, c client.Client, ds *dataset, accts []accountRef, n, workers int, life placedAt, progress func(done int)) (float64, error) {
	if n <= 0 {
		return 0, nil
	}
	if life == nil {
		life = within(time.Now(), 365*24*time.Hour)
	}
	var done atomic.Int64
	var mu sync.Mutex
	sampleEvery := max(1, n/200)
	start := time.Now()
	err := parallel(ctx, workers, n, func(i int) error {
		rng := rand.New(rand.NewPCG(uint64(ds.orders+i), 42))
		acct := accts[i%len(accts)]
		o, status, err := historicalOrder(rng, acct.tenant.ns, acct, ds.classes[i%len(ds.classes)], life(rng))
		if err != nil {
			return err
		}
		if ds.shift != nil {
			ds.shift(&status)
		}
		if err := retry(ctx, func() error { return c.Create(ctx, o) }); err != nil {
			return fmt.Errorf("create order: %w", err)
		}
		o.Status = status
		if err := retry(ctx, func() error { return c.Status().Update(ctx, o) }); err != nil {
			return fmt.Errorf("order status: %w", err)
		}
		if i%sampleEvery == 0 {
			mu.Lock()
			ds.sample = append(ds.sample, orderRef{tenant: acct.tenant, id: o.Name})
			mu.Unlock()
		}
		if d := done.Add(1); progress != nil && d%5000 == 0 {
			progress(int(d))
		}
		return nil
	})
	ds.orders += int(done.Load())
	return float64(done.Load()) / time.Since(start).Seconds(), err
}

// placedAt picks when a historical order was placed.
type placedAt func(rng *rand.Rand) time.Time

// within places orders up to span before end.
func within(end time.Time, span time.Duration) placedAt {
	return func(rng *rand.Rand) time.Time { return end.Add(-time.Duration(rng.Int64N(int64(span)))) }
}

// doneAt moves every time of a simulated terminal status so that the order is done
// (retention.DoneAt: its last transition, or its refund's completion) exactly at t.
func doneAt(st *investv1.OrderStatus, t time.Time) {
	last := time.Time{}
	for _, h := range st.History {
		last = maxTime(last, h.At.Time)
	}
	ev := &st.Settlement
	records := []*investv1.SettlementRecord{ev.PaymentReceived, ev.DeliveryInitiated, ev.DeliveryCompleted, ev.TokensBurned,
		ev.PaymentSent, ev.PaymentCompleted, ev.RefundSent, ev.RefundCompleted}
	if ev.RefundCompleted != nil {
		last = maxTime(last, ev.RefundCompleted.At.Time)
	}
	d := t.Sub(last)
	move := func(m *metav1.Time) { *m = metav1.NewTime(m.Add(d)) }
	for i := range st.History {
		move(&st.History[i].At)
	}
	for i := range st.Conditions {
		move(&st.Conditions[i].LastTransitionTime)
	}
	for _, r := range records {
		if r != nil {
			move(&r.At)
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// parallel runs fn for 0..n-1 on workers goroutines and returns the first error.
func parallel(ctx context.Context, workers, n int, fn func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// retry repeats a write that failed for a passing reason: the API server under load, or
// an admission webhook that was just switched off.
func retry(ctx context.Context, fn func() error) error {
	var err error
	for attempt := range 8 {
		err = fn()
		if err == nil || !(apierrors.IsInternalError(err) || apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) ||
			apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err)) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
	return err
}
