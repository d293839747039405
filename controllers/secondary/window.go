// Package secondary is the window controller of the secondary market (docs/secondary.md):
// one MatchingWindow object per ISIN and window date of a share class with a secondary
// market, from Open to Settled, and the matching itself. When a window's order deadline
// passes, the controller draws up the window's book (the orders ready for it, each
// checked again: the fund tradeable, the wallets registered and not frozen, a SELL's units
// held unlocked on chain, a BUY's payment covering at least one unit at the window's
// price), and records it with the NAV and the share class's policy on the window in one
// write. Then it writes each order's fill (internal/secondary.Replay of the recorded book)
// as its contract note, with the moves the lifecycle then makes, several orders at a time;
// carries the orders a window filled none of to the next window, and a SELL's remainder
// after a partial fill as a new SELL; and publishes the window's result.
//
// Exactly once: the fills are a pure function of the recorded book, NAV and policy, which
// the API server keeps immutable; an order's contract note is immutable too and every
// write is guarded by the version of the order it was decided on. A restart in the middle
// writes the rest of the same fills, and no order is matched twice. The transfers that
// settle the fills are the chain agent's (controllers/delivery); it reads them from the
// same book.
package secondary

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=matchingwindows,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=matchingwindows/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch;create
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets;shareclasses;navhistories;funds,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// MaxBook is the most orders one window's book holds (the CRD's status.book maxItems).
const MaxBook = 20_000

// Upcoming is how many of a share class's next windows get a MatchingWindow object ahead
// of their orders, so that kubectl get matchingwindows shows them.
const Upcoming = 3

// Chain answers the checks at matching that only the chain can answer.
type Chain interface {
	// Wallet is the state of address (EIP-55) for the token of isin, as orders in
	// namespace see it.
	Wallet(ctx context.Context, namespace string, isin investv1.ISIN, address string) (secondary.WalletState, error)
}

// Reconciler keeps the MatchingWindow objects and matches them.
type Reconciler struct {
	Client client.Client
	// Live reads from the API server, past the cache: the orders a book is drawn from
	// (none placed before the deadline is missed by a lagging cache), the account whose
	// reservation a partly filled SELL splits. Nil: Client.
	Live     client.Reader
	Recorder events.EventRecorder
	// Chain checks the wallets at matching; nil: the books' checks only (no chain is
	// configured: the no-chain sandbox settles the token side).
	Chain Chain
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// MaxBook is the most orders a book holds; zero: MaxBook (the CRD's limit).
	MaxBook int
}

func (r *Reconciler) maxBook() int {
	if r.MaxBook <= 0 || r.MaxBook > MaxBook {
		return MaxBook
	}
	return r.MaxBook
}

// Reconcile brings one window (named after its ISIN and date) up to date.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	now := r.now()
	w := &investv1.MatchingWindow{}
	err := r.Client.Get(ctx, req.NamespacedName, w)
	switch {
	case apierrors.IsNotFound(err):
		created, err := r.create(ctx, req.Name)
		if err != nil || created == nil {
			return ctrl.Result{}, err
		}
		w = created
	case err != nil:
		return ctrl.Result{}, err
	}
	sc, err := r.shareClass(ctx, w.Spec.ISIN)
	if err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.NAV == nil { // the book, the NAV and the policy are recorded in one write
		if sc == nil || sc.Spec.Secondary == nil {
			return r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) {
				st.Message = fmt.Sprintf("no share class with ISIN %s has a secondary market", w.Spec.ISIN)
			})
		}
		cal, err := secondary.Calendar(sc.Spec.Secondary)
		if err != nil {
			return r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) { st.Message = "no window calendar: " + err.Error() })
		}
		date, err := dealing.ParseDate(w.Spec.Date)
		if err != nil {
			return ctrl.Result{}, reconcile.TerminalError(err)
		}
		dl, err := cal.Dealing(date)
		if err != nil {
			return r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) { st.Message = err.Error() })
		}
		deadline := dl.SubscriptionCutOff
		if now.Before(deadline) {
			res, err := r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) {
				d := metav1.NewTime(deadline.UTC())
				st.Phase, st.Deadline, st.Message = investv1.WindowOpen, &d, ""
			})
			if err != nil || res.RequeueAfter > 0 {
				return res, err
			}
			return ctrl.Result{RequeueAfter: deadline.Sub(now) + time.Second}, nil
		}
		if res, err := r.draw(ctx, w, sc, deadline, now); err != nil || res.RequeueAfter > 0 || w.Status.NAV == nil {
			return res, err
		}
	}
	return r.fillAll(ctx, w, sc, now)
}

// create makes the MatchingWindow name stands for, when its share class has a secondary
// market and its date is a window date; nil when it should not exist.
func (r *Reconciler) create(ctx context.Context, name string) (*investv1.MatchingWindow, error) {
	isin, date, ok := lifecycle.SplitName(name)
	if !ok {
		return nil, nil
	}
	sc, err := r.shareClass(ctx, isin)
	if err != nil || sc == nil || sc.Spec.Secondary == nil {
		return nil, err
	}
	cal, err := secondary.Calendar(sc.Spec.Secondary)
	if err != nil {
		return nil, nil //nolint:nilerr // a market without a calendar has no windows; the share class's admission says why
	}
	d, err := dealing.ParseDate(date)
	if err != nil || !cal.IsDealingDate(d) {
		return nil, nil //nolint:nilerr // not a window date: nothing to create
	}
	obj := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: investv1.MatchingWindowSpec{ISIN: isin, Date: date}}
	if err := r.Client.Create(ctx, obj); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return obj, r.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		}
		return nil, err
	}
	ctrl.LoggerFrom(ctx).Info("matching window created", "isin", isin, "date", date)
	return obj, nil
}

func (r *Reconciler) shareClass(ctx context.Context, isin investv1.ISIN) (*investv1.ShareClass, error) {
	var classes investv1.ShareClassList
	if err := r.Client.List(ctx, &classes, client.MatchingFields{index.ShareClassISIN: string(isin)}); err != nil {
		return nil, err
	}
	if len(classes.Items) == 0 {
		return nil, nil
	}
	return &classes.Items[0], nil
}

// windowNAV is the latest NAV of the ISIN dated on or before the window's date; nil when
// none is published.
func (r *Reconciler) windowNAV(ctx context.Context, w *investv1.MatchingWindow) (*investv1.NAVPrice, error) {
	h := &investv1.NAVHistory{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: strings.ToLower(string(w.Spec.ISIN))}, h); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	var best *investv1.NAVPrice
	for i := range h.Spec.Prices {
		p := &h.Spec.Prices[i]
		if p.NAVPerShare > 0 && p.Date <= w.Spec.Date && (best == nil || p.Date > best.Date) {
			best = p
		}
	}
	return best, nil
}

// windowOrders are the orders that deal in the window now, from the API server (live)
// or the cache, sorted by priority: placement time, then namespace/name.
func (r *Reconciler) windowOrders(ctx context.Context, w *investv1.MatchingWindow, live bool) ([]investv1.Order, error) {
	var list investv1.OrderList
	if live {
		if err := r.live().List(ctx, &list); err != nil {
			return nil, err
		}
		list.Items = slices.DeleteFunc(list.Items, func(o investv1.Order) bool { return lifecycle.OrderWindowName(&o) != w.Name })
	} else if err := r.Client.List(ctx, &list, client.MatchingFields{index.OrderWindow: w.Name}); err != nil {
		return nil, err
	}
	slices.SortFunc(list.Items, func(a, b investv1.Order) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return list.Items, nil
}

// draw draws up the window's book and records it with the NAV and the policy, in one
// write under the optimistic lock, before any fill is written.
func (r *Reconciler) draw(ctx context.Context, w *investv1.MatchingWindow, sc *investv1.ShareClass, deadline, now time.Time) (ctrl.Result, error) {
	nav, err := r.windowNAV(ctx, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	if nav == nil {
		res, err := r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) {
			st.Phase = investv1.WindowOpen
			st.Message = "the order deadline passed: waiting for a NAV of " + string(w.Spec.ISIN) + " dated on or before " + w.Spec.Date
		})
		if err != nil || res.RequeueAfter > 0 {
			return res, err
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	policy := secondary.RecordPolicy(sc.Spec.Secondary)
	buyPrice, _, err := secondary.Prices(nav.NAVPerShare, int64(policy.SpreadBasisPoints))
	if err != nil {
		return ctrl.Result{}, reconcile.TerminalError(err)
	}
	orders, err := r.windowOrders(ctx, w, true)
	if err != nil {
		return ctrl.Result{}, err
	}
	tradeable, err := r.tradeable(ctx, sc)
	if err != nil {
		return ctrl.Result{}, err
	}
	book := []string{}
	var unmatched int32
	leaveOut := func(o *investv1.Order, why string) {
		unmatched++
		r.event(o, corev1.EventTypeWarning, "NotMatched", "Match", "left out of the matching window of %s: %s", w.Spec.Date, why)
	}
	selling := map[string]int64{} // units the book's SELLs take from each wallet
	type candidate struct {
		o     *investv1.Order
		entry secondary.Entry
	}
	var candidates []candidate
	for i := range orders {
		o := &orders[i]
		if !lifecycle.ReadyForMatching(o) {
			continue
		}
		carried, err := r.carriedCount(ctx, o)
		if err != nil {
			return ctrl.Result{}, err
		}
		units, why, err := r.check(ctx, o, tradeable, buyPrice, policy.BuyFeeRate, selling)
		if err != nil {
			return ctrl.Result{}, err
		}
		if why == "" {
			why = cashMismatch(o, sc.Spec.Secondary.CashOnChain)
		}
		if why != "" {
			leaveOut(o, why)
			continue
		}
		candidates = append(candidates, candidate{o, secondary.Entry{Side: o.Spec.Side, Units: units, Carried: carried, Namespace: o.Namespace, Name: o.Name}})
	}
	for _, c := range candidates {
		// On chain a wallet cannot deliver units to itself (the token refuses it:
		// SameWallet): a BUY whose wallet also sells in this window is left out.
		if c.o.Spec.Side == investv1.SideBuy && r.Chain != nil {
			if addr, err := r.walletOf(ctx, c.o); err == nil && selling[addr] > 0 {
				leaveOut(c.o, "its wallet "+addr+" also sells in this window, and a wallet cannot buy its own units")
				continue
			}
		}
		book = append(book, c.entry.String())
	}
	if limit := r.maxBook(); len(book) > limit {
		// The book is one object's status (etcd keeps objects under 1.5 MiB): a window
		// that would hold more is not matched, and says so.
		res, err := r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) {
			st.Message = fmt.Sprintf("%d orders are ready for this window, more than the %d one book holds: it is not matched; an operator must split the market's windows", len(book), limit)
		})
		if err != nil || res.RequeueAfter > 0 {
			return res, err
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	res, _, err := secondary.Replay(w.Spec.Date, nav.NAVPerShare, secondary.PolicyOf(policy), book)
	if err != nil {
		return ctrl.Result{}, reconcile.TerminalError(fmt.Errorf("match window %s: %w", w.Name, err))
	}
	before := w.DeepCopy()
	at := metav1.NewTime(now.UTC().Truncate(time.Second))
	d := metav1.NewTime(deadline.UTC())
	w.Status.Phase, w.Status.Deadline, w.Status.MatchedAt = investv1.WindowMatching, &d, &at
	w.Status.NAV = &investv1.DealingNAV{NAVPerShare: nav.NAVPerShare, Date: nav.Date, RecordedAt: at}
	w.Status.Policy, w.Status.Book, w.Status.Unmatched = policy, book, unmatched
	w.Status.Result = published(res.Published)
	w.Status.Message = ""
	if err := patch.Status(ctx, r.Client, w, before); err != nil {
		return patch.Retry(ctx, err, "record the book of window "+w.Name)
	}
	p := res.Published
	ctrl.LoggerFrom(ctx).Info("matching window booked", "window", w.Name, "buys", p.BuyOrders, "sells", p.SellOrders, "volume", p.Volume, "unmatched", unmatched)
	if r.Recorder != nil {
		r.Recorder.Eventf(w, nil, corev1.EventTypeNormal, "Matched", "Match",
			"%d BUYs asking %d units, %d SELLs asking %d units: %d units matched at %d (buy) and %d (sell) per unit, NAV %d of %s; %d orders left out",
			p.BuyOrders, p.BuyUnits, p.SellOrders, p.SellUnits, p.Volume, p.BuyPrice, p.SellPrice, nav.NAVPerShare, nav.Date, unmatched)
	}
	return ctrl.Result{}, nil
}

func published(p secondary.Published) *investv1.MatchingWindowResult {
	return &investv1.MatchingWindowResult{
		BuyPrice: p.BuyPrice, SellPrice: p.SellPrice, VolumeUnits: p.Volume,
		BuyFillBasisPoints: p.BuyFillBps, SellFillBasisPoints: p.SellFillBps,
		BuyOrders: int32(min(p.BuyOrders, 1<<31-1)), SellOrders: int32(min(p.SellOrders, 1<<31-1)), //nolint:gosec // bounded above
		BuyUnits: p.BuyUnits, SellUnits: p.SellUnits,
	}
}

// tradeable is the share class's fund's tradeable flag now.
func (r *Reconciler) tradeable(ctx context.Context, sc *investv1.ShareClass) (bool, error) {
	fund := &investv1.Fund{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: string(sc.Spec.FeederFundID)}, fund); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	f := lifecycle.Facts{Now: r.now()}
	lifecycle.FundFacts(&f, fund)
	return f.Tradeable, nil
}

// carriedCount is how many windows the order was carried from: status.window's count,
// or for the SELL of an earlier SELL's remainder its parent's count and one.
func (r *Reconciler) carriedCount(ctx context.Context, o *investv1.Order) (int, error) {
	if w := o.Status.Window; w != nil {
		return int(w.Carried), nil
	}
	if o.Spec.CarriedFrom == "" {
		return 0, nil
	}
	parent := &investv1.Order{}
	if err := r.live().Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.CarriedFrom)}, parent); err != nil {
		if apierrors.IsNotFound(err) {
			return 1, nil // archived: it was carried at least once
		}
		return 0, err
	}
	if f := lifecycle.Fill(parent); f != nil {
		return int(f.Carried) + 1, nil
	}
	return 1, nil
}

// check is the checks at matching of one order ready for it: the units it deals in the
// book, or why it is left out ("").
func (r *Reconciler) check(ctx context.Context, o *investv1.Order, tradeable bool, buyPrice, buyFeeRate int64, selling map[string]int64) (int64, string, error) {
	if !tradeable {
		return 0, "the fund is not tradeable", nil
	}
	units := o.Spec.AmountOfUnits
	if o.Spec.Side == investv1.SideBuy {
		paid := o.Spec.Quote.Amount
		u, err := secondary.Affordable(units, paid, buyPrice, buyFeeRate)
		if err != nil {
			return 0, "", reconcile.TerminalError(err)
		}
		if u == 0 {
			return 0, fmt.Sprintf("the payment received covers no unit at the window's price %d and fee", buyPrice), nil
		}
		units = u
	}
	if r.Chain == nil {
		return units, "", nil
	}
	wallet := &investv1.Wallet{}
	key := client.ObjectKey{Namespace: o.Namespace, Name: string(walletID(o))}
	if err := r.Client.Get(ctx, key, wallet); err != nil {
		if apierrors.IsNotFound(err) {
			return 0, "its wallet " + key.Name + " no longer exists", nil
		}
		return 0, "", err
	}
	st, err := r.Chain.Wallet(ctx, o.Namespace, o.Spec.ISIN, wallet.Spec.WalletAddress)
	if err != nil {
		return 0, "", fmt.Errorf("the chain's view of wallet %s: %w", wallet.Spec.WalletAddress, err)
	}
	switch {
	case st.Paused:
		return 0, "the token is paused", nil
	case !st.Verified:
		return 0, "its wallet " + wallet.Spec.WalletAddress + " is not registered in the token's identity registry", nil
	case st.Frozen:
		return 0, "its wallet " + wallet.Spec.WalletAddress + " is frozen", nil
	}
	if o.Spec.Side == investv1.SideSell {
		addr := strings.ToLower(wallet.Spec.WalletAddress)
		if st.Unlocked-selling[addr] < units {
			return 0, fmt.Sprintf("its wallet %s holds %d unlocked units on chain, fewer than the %d it sells (%d already sold from it in this window)",
				wallet.Spec.WalletAddress, st.Unlocked, units, selling[addr]), nil
		}
		selling[addr] += units
	}
	return units, "", nil
}

// walletID is the wallet the order deals from or to: its own choice, else the one
// resolved at placement.
func walletID(o *investv1.Order) investv1.ObjectID {
	if o.Spec.WalletID != "" {
		return o.Spec.WalletID
	}
	return o.Spec.Quote.WalletID
}

// walletOf is the order's wallet address in lower case.
func (r *Reconciler) walletOf(ctx context.Context, o *investv1.Order) (string, error) {
	wallet := &investv1.Wallet{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(walletID(o))}, wallet); err != nil {
		return "", err
	}
	return strings.ToLower(wallet.Spec.WalletAddress), nil
}

// fillWorkers is how many orders of a window are written at once.
const fillWorkers = 8

// fillAll writes the fill of every order of the recorded book that has none, carries
// the orders left out or filled with nothing, and writes the window's progress.
func (r *Reconciler) fillAll(ctx context.Context, w *investv1.MatchingWindow, sc *investv1.ShareClass, now time.Time) (ctrl.Result, error) {
	res, entries, err := secondary.Replay(w.Spec.Date, w.Status.NAV.NAVPerShare, secondary.PolicyOf(w.Status.Policy), w.Status.Book)
	if err != nil {
		return ctrl.Result{}, reconcile.TerminalError(fmt.Errorf("replay window %s: %w", w.Name, err))
	}
	fills := make(map[string]secondary.Fill, len(res.Fills))
	for _, f := range res.Fills {
		fills[f.ID] = f
	}
	orders, err := r.windowOrders(ctx, w, false)
	if err != nil {
		return ctrl.Result{}, err
	}
	var next *investv1.OrderWindow
	nextWindow := func() (*investv1.OrderWindow, error) {
		if next != nil {
			return next, nil
		}
		if sc == nil || sc.Spec.Secondary == nil {
			return nil, nil
		}
		n, err := r.carryTarget(ctx, sc, w)
		if err != nil {
			return nil, err
		}
		next = &n
		return next, nil
	}
	var g errgroup.Group
	g.SetLimit(fillWorkers)
	var failed atomic.Bool
	for i := range orders {
		o := &orders[i]
		if failed.Load() {
			break
		}
		if o.Status.Strike != nil || o.Spec.CancellationRequested || o.Status.State.Terminal() {
			continue
		}
		f, inBook := fills[o.Namespace+"/"+o.Name]
		if !inBook {
			if !lifecycle.ReadyForMatching(o) {
				continue // an unpaid BUY (cancelled at the deadline), a SELL not reserved yet
			}
			// Left out at matching, or ready only after the book was recorded.
			carried, err := r.carriedCount(ctx, o)
			if err != nil {
				return ctrl.Result{}, err
			}
			f = secondary.Fill{ID: o.Namespace + "/" + o.Name, Side: o.Spec.Side, Requested: o.Spec.AmountOfUnits,
				Remainder: o.Spec.AmountOfUnits, Outcome: secondary.Unfilled, Fate: secondary.Cancelled, WindowsCarried: carried}
			if carried < int(w.Status.Policy.CarryWindows) {
				f.Fate, f.WindowsCarried = secondary.Carried, carried+1
			}
		}
		var target *investv1.OrderWindow
		if f.Fate == secondary.Carried {
			if target, err = nextWindow(); err != nil {
				return ctrl.Result{}, err
			}
		}
		e := entries[f.ID]
		g.Go(func() error {
			if err := r.fill(ctx, o, w, f, e, target, now); err != nil {
				failed.Store(true)
				return fmt.Errorf("fill order %s/%s: %w", o.Namespace, o.Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return patch.Retry(ctx, err, "write the fills of window "+w.Name)
	}
	// Each carry on its own: one that fails (a conflict, a refusal) holds back no other.
	var carryErrs []error
	for i := range orders {
		o := &orders[i]
		if n := o.Status.Strike; n != nil && n.CarriedForward != nil && n.Secondary != nil && n.Secondary.Window == w.Name {
			if err := r.carryRemainder(ctx, o, now); err != nil {
				carryErrs = append(carryErrs, fmt.Errorf("order %s/%s: %w", o.Namespace, o.Name, err))
			}
		}
	}
	if err := errors.Join(carryErrs...); err != nil {
		return patch.Retry(ctx, err, "carry the remainders of window "+w.Name)
	}
	return r.writeStatus(ctx, w, func(st *investv1.MatchingWindowStatus) { progress(st, w, orders) })
}

// carryTarget is the window a carried order goes to: the first window after w whose
// book is not recorded yet.
func (r *Reconciler) carryTarget(ctx context.Context, sc *investv1.ShareClass, w *investv1.MatchingWindow) (investv1.OrderWindow, error) {
	cal, err := secondary.Calendar(sc.Spec.Secondary)
	if err != nil {
		return investv1.OrderWindow{}, err
	}
	from, err := dealing.ParseDate(w.Spec.Date)
	if err != nil {
		return investv1.OrderWindow{}, err
	}
	for range 60 {
		next, err := cal.After(dealing.DatePoint(from))
		if err != nil {
			return investv1.OrderWindow{}, err
		}
		nw := &investv1.MatchingWindow{}
		err = r.live().Get(ctx, client.ObjectKey{Name: lifecycle.WindowName(w.Spec.ISIN, next.Date.String())}, nw)
		if apierrors.IsNotFound(err) || err == nil && nw.Status.NAV == nil {
			return secondary.OrderWindow(next), nil
		}
		if err != nil {
			return investv1.OrderWindow{}, err
		}
		from = next.Date
	}
	return investv1.OrderWindow{}, fmt.Errorf("no window after %s is still to be matched", w.Spec.Date)
}

// fill writes one order's outcome under the optimistic lock on the version read: an
// order carried whole to the next window gets status.window (no contract note); every
// other gets its fill as its contract note and, in the same write, the moves the
// lifecycle then makes (EXECUTED, or CANCELLED when nothing was filled).
func (r *Reconciler) fill(ctx context.Context, o *investv1.Order, w *investv1.MatchingWindow, f secondary.Fill, e secondary.Entry, target *investv1.OrderWindow, now time.Time) error {
	before := o.DeepCopy()
	if f.Filled == 0 && f.Fate == secondary.Carried && target != nil {
		moved := *target
		moved.Carried = int32(min(f.WindowsCarried, 1<<31-1)) //nolint:gosec // bounded above
		o.Status.Window = &moved
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return err
		}
		r.event(o, corev1.EventTypeNormal, lifecycle.ReasonCarriedToNextWindow, "Carry",
			"the matching window of %s filled none of the %d units: the order waits for the window of %s (order deadline %s), carried %d of at most %d windows",
			w.Spec.Date, o.Spec.AmountOfUnits, moved.Date, moved.Deadline.UTC().Format(time.RFC3339), moved.Carried, w.Status.Policy.CarryWindows)
		return nil
	}
	note, err := contractNote(o, w, f, e, target)
	if err != nil {
		return reconcile.TerminalError(err)
	}
	o.Status.Strike = note
	facts := lifecycle.Facts{Now: now, Priced: true, FundFound: true, Tradeable: true, Reservation: lifecycle.ReservationNotNeeded}
	if o.Spec.Side == investv1.SideSell {
		facts.Reservation = lifecycle.ReservationHeld
	}
	m := lifecycle.Decide(o, facts)
	lifecycle.Apply(o, m.Steps, m.Wait, m.Refused, metav1.NewTime(now.UTC()))
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return err
	}
	ctrl.LoggerFrom(ctx).Info("order matched", "order", klog.KObj(o), "window", w.Name, "requested", f.Requested, "filled", f.Filled, "state", o.Status.State)
	if r.Recorder != nil && len(m.Steps) > 0 {
		last := m.Steps[len(m.Steps)-1]
		r.Recorder.Eventf(o, nil, lifecycle.MovesEventType(m.Steps), last.Reason, "Transition", "%s", lifecycle.MovesNote(before.Status.State, m.Steps))
	}
	return nil
}

// contractNote is an order's fill as its contract note (see OrderContractNote.Secondary).
func contractNote(o *investv1.Order, w *investv1.MatchingWindow, f secondary.Fill, e secondary.Entry, target *investv1.OrderWindow) (*investv1.OrderContractNote, error) {
	p := w.Status.Policy
	rate := p.BuyFeeRate
	if o.Spec.Side == investv1.SideSell {
		rate = p.SellFeeRate
	}
	price := f.Price
	if price == 0 {
		buy, sell, err := secondary.Prices(w.Status.NAV.NAVPerShare, int64(p.SpreadBasisPoints))
		if err != nil {
			return nil, err
		}
		price = buy
		if o.Spec.Side == investv1.SideSell {
			price = sell
		}
	}
	n := &investv1.OrderContractNote{
		TradeDate: w.Spec.Date, NAVDate: w.Status.NAV.Date, NAVPerShare: price, Units: f.Filled,
		GrossAmount: f.Gross, FeeRate: rate, FeeAmount: f.Fee, SettlementDate: w.Spec.Date, StruckAt: *w.Status.MatchedAt,
		Secondary: &investv1.OrderSecondaryFill{
			Window: w.Name, Outcome: string(f.Outcome), RequestedUnits: o.Spec.AmountOfUnits,
			NAVPerShare: w.Status.NAV.NAVPerShare, SpreadBasisPoints: p.SpreadBasisPoints,
			Carried: int32(min(e.Carried, 1<<31-1)), //nolint:gosec // bounded above
		},
	}
	if f.Filled < o.Spec.AmountOfUnits {
		n.RequestedUnits = o.Spec.AmountOfUnits
	}
	remainder := o.Spec.AmountOfUnits - f.Filled
	if o.Spec.Side == investv1.SideSell {
		n.NetAmount = f.Net
		if remainder > 0 && f.Filled > 0 && f.Fate == secondary.Carried && target != nil {
			n.CarriedForward = &investv1.OrderCarry{
				Order: investv1.ObjectID(lifecycle.CarryName(o.Namespace, o.Name, w.Name)), Units: remainder,
				DealingDate: target.Date, CutOff: target.Deadline,
			}
		} else {
			n.Secondary.RemainderCancelled = remainder
		}
		return n, nil
	}
	// A BUY: it paid its quote's amount; the fill costs gross + fee. The units of the
	// book the pro-rata fill left over are carried with the rest of the money, which pays
	// the carried BUY; without a carry (or for units the payment never covered at this
	// window's price) the rest is refunded as the residual.
	paid := o.Spec.Quote.Amount
	n.NetAmount = f.Gross
	n.Secondary.AmountPaid, n.Secondary.AmountDue = paid, f.ToPay
	n.Secondary.RemainderCancelled = remainder
	if f.Filled == 0 || paid <= f.ToPay {
		return n, nil
	}
	if f.Remainder > 0 && f.Fate == secondary.Carried && target != nil && !lifecycle.CashOnChain(o) {
		// (With cash on chain the swap returns the money the fill did not use to the
		// payer's wallet, so nothing is left to carry: the remainder is cancelled.)
		n.CarriedForward = &investv1.OrderCarry{
			Order: investv1.ObjectID(lifecycle.CarryName(o.Namespace, o.Name, w.Name)), Units: f.Remainder,
			Amount: paid - f.ToPay, DealingDate: target.Date, CutOff: target.Deadline,
		}
		n.Secondary.RemainderCancelled = remainder - f.Remainder
		return n, nil
	}
	n.Residual = paid - f.ToPay
	n.ResidualReference = lifecycle.ResidualReference(o)
	return n, nil
}

// carryRemainder makes a partly filled order's carried remainder true outside the order.
// A SELL's: the account reserves the units filled for it and the remainder for the SELL
// that carries them (one write), and that SELL exists. A BUY's: the BUY that carries
// them exists and its payment, the money carried, is recorded on it. Nothing is done
// twice.
func (r *Reconciler) carryRemainder(ctx context.Context, o *investv1.Order, now time.Time) error {
	n := o.Status.Strike
	carry := n.CarriedForward
	if o.Spec.Side == investv1.SideBuy {
		return r.carryBuy(ctx, o, now)
	}
	if o.Status.State.Terminal() || r.exists(ctx, o.Namespace, string(carry.Order)) {
		return nil
	}
	acct := &investv1.Account{}
	if err := r.live().Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct); err != nil {
		return err
	}
	changed := false
	for i := range acct.Status.Reservations {
		if string(acct.Status.Reservations[i].Order) == o.Name && acct.Status.Reservations[i].Units != n.Units {
			acct.Status.Reservations[i].Units = n.Units
			changed = true
		}
	}
	if !slices.ContainsFunc(acct.Status.Reservations, func(x investv1.UnitReservation) bool { return x.Order == carry.Order }) {
		acct.Status.Reservations = append(acct.Status.Reservations, investv1.UnitReservation{Order: carry.Order, ISIN: o.Spec.ISIN, Units: carry.Units})
		changed = true
	}
	if changed {
		if err := r.Client.Status().Update(ctx, acct); err != nil {
			return err
		}
	}
	child := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(carry.Order), Labels: o.Labels},
		Spec: investv1.OrderSpec{
			Side: investv1.SideSell, Market: o.Spec.Market, ISIN: o.Spec.ISIN, Currency: o.Spec.Currency,
			AmountOfUnits: carry.Units, AccountID: o.Spec.AccountID, SettlementType: o.Spec.SettlementType,
			WalletID: o.Spec.WalletID, PaymentMethodDetailsID: o.Spec.PaymentMethodDetailsID,
			CustomOfferingID: o.Spec.CustomOfferingID, CarriedFrom: investv1.ObjectID(o.Name),
		},
	}
	if err := r.Client.Create(ctx, child); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}
	ctrl.LoggerFrom(ctx).Info("remainder carried to the next window", "order", klog.KObj(o), "carry", klog.KObj(child), "units", carry.Units, "window", carry.DealingDate)
	r.event(o, corev1.EventTypeNormal, lifecycle.ReasonCarriedToNextWindow, "Carry",
		"the matching window filled %d of %d units: %d are carried to the window of %s as order %s",
		n.Units, n.RequestedUnits, carry.Units, carry.DealingDate, carry.Order)
	return nil
}

// carryBuy creates the BUY that deals a partly filled BUY's carried units, and records
// its payment: the money the parent's payment did not use (contract note
// carriedForward.amount), with the parent's id as the reference. The carried BUY takes
// no payment of its own (its quote has no payment instructions, the bank and the sandbox
// never match a transfer to it); between its creation and this record it waits in
// AWAITING_PAYMENT, and a restart records it then. Its evidence is written once: the
// API server keeps it immutable and the write is guarded by the version read.
func (r *Reconciler) carryBuy(ctx context.Context, o *investv1.Order, now time.Time) error {
	carry := o.Status.Strike.CarriedForward
	child := &investv1.Order{}
	key := client.ObjectKey{Namespace: o.Namespace, Name: string(carry.Order)}
	if err := r.Client.Get(ctx, key, child); err == nil && child.Status.Settlement.PaymentReceived != nil {
		return nil // done (the cache is enough: evidence once recorded stays)
	}
	err := r.live().Get(ctx, key, child)
	switch {
	case apierrors.IsNotFound(err):
		if o.Status.State == investv1.StateCancelled {
			return nil // never carried: the parent's payment is refunded whole
		}
		child = &investv1.Order{
			ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(carry.Order), Labels: o.Labels},
			Spec: investv1.OrderSpec{
				Side: investv1.SideBuy, Market: o.Spec.Market, ISIN: o.Spec.ISIN, Currency: o.Spec.Currency,
				AmountOfUnits: carry.Units, AccountID: o.Spec.AccountID, SettlementType: o.Spec.SettlementType,
				WalletID: o.Spec.WalletID, PaymentMethodDetailsID: o.Spec.PaymentMethodDetailsID,
				CustomOfferingID: o.Spec.CustomOfferingID, CarriedFrom: investv1.ObjectID(o.Name),
			},
		}
		if err := r.Client.Create(ctx, child); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		ctrl.LoggerFrom(ctx).Info("remainder carried to the next window", "order", klog.KObj(o), "carry", klog.KObj(child), "units", carry.Units, "amount", carry.Amount, "window", carry.DealingDate)
		r.event(o, corev1.EventTypeNormal, lifecycle.ReasonCarriedToNextWindow, "Carry",
			"the matching window filled %d of %d units: %d are carried to the window of %s as order %s, paid with the %s the payment did not use",
			o.Status.Strike.Units, o.Status.Strike.RequestedUnits, carry.Units, carry.DealingDate, carry.Order,
			money.Format(carry.Amount, string(o.Spec.Currency)))
		if err := r.live().Get(ctx, client.ObjectKeyFromObject(child), child); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if child.Status.Settlement.PaymentReceived != nil || !child.DeletionTimestamp.IsZero() {
		return nil
	}
	before := child.DeepCopy()
	lifecycle.Record(child, lifecycle.StepPaymentReceived, investv1.SettlementRecord{
		Reference: CarriedPaymentPrefix + o.Name, At: metav1.NewTime(now.UTC()), RecordedBy: RecordedBy,
	})
	moves, err := facts.Follow(ctx, r.live(), child, now)
	if err != nil {
		return err
	}
	if err := patch.Status(ctx, r.Client, child, before); err != nil {
		return err
	}
	if r.Recorder != nil {
		recorded := fmt.Sprintf("%s recorded paymentReceived evidence: %s carried from order %s", RecordedBy,
			money.Format(carry.Amount, string(o.Spec.Currency)), o.Name)
		kind, reason, note := lifecycle.EvidenceEvent(lifecycle.StepPaymentReceived, recorded, before.Status.State, moves)
		r.Recorder.Eventf(child, nil, kind, reason, "Record", "%s", note)
	}
	return nil
}

// RecordedBy names the window controller in the evidence it records.
const RecordedBy = "matching-window"

// CarriedPaymentPrefix begins the paymentReceived reference of a carried BUY; the
// parent's id follows.
const CarriedPaymentPrefix = "CARRIED-FROM-"

func (r *Reconciler) exists(ctx context.Context, ns, name string) bool {
	return r.live().Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &investv1.Order{}) == nil
}

// progress is the window's phase and counts from its orders. An order of the book that
// was carried on whole is no longer the window's: it counts as done.
func progress(st *investv1.MatchingWindowStatus, w *investv1.MatchingWindow, orders []investv1.Order) {
	inBook := make(map[string]bool, len(w.Status.Book))
	for _, s := range w.Status.Book {
		if e, err := secondary.ParseEntry(s); err == nil {
			inBook[e.Key()] = true
		}
	}
	var filled, waiting int32
	settled := true
	for i := range orders {
		o := &orders[i]
		if !inBook[o.Namespace+"/"+o.Name] {
			continue
		}
		if o.Status.Strike != nil {
			filled++
		} else {
			waiting++
		}
		if !o.Status.State.Terminal() {
			settled = false
		}
	}
	st.Filled, st.Message = filled, ""
	switch {
	case waiting > 0:
		st.Phase = investv1.WindowMatching
		st.Message = fmt.Sprintf("%d orders of the book wait for their fill", waiting)
	case settled:
		st.Phase = investv1.WindowSettled
	default:
		st.Phase = investv1.WindowMatched
	}
}

// writeStatus applies change to a copy of the window's status and writes it when it
// differs, under the optimistic lock.
func (r *Reconciler) writeStatus(ctx context.Context, w *investv1.MatchingWindow, change func(*investv1.MatchingWindowStatus)) (ctrl.Result, error) {
	before := w.DeepCopy()
	change(&w.Status)
	if equality.Semantic.DeepEqual(before.Status, w.Status) {
		return ctrl.Result{}, nil
	}
	if err := patch.Status(ctx, r.Client, w, before); err != nil {
		return patch.Retry(ctx, err, "write the status of window "+w.Name)
	}
	return ctrl.Result{}, nil
}

func (r *Reconciler) event(o *investv1.Order, typ, reason, action, format string, args ...any) {
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, typ, reason, action, format, args...)
	}
}

func (r *Reconciler) live() client.Reader {
	if r.Live == nil {
		return r.Client
	}
	return r.Live
}

func (r *Reconciler) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

// SetupWithManager watches MatchingWindows, SECONDARY orders (each asks for its window,
// which is created with its first order), NAV histories (a window past its deadline waits
// for a NAV) and share classes (their next windows).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if mgr == nil || r.Client == nil {
		return errors.New("window controller: nil manager or Client")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("matchingwindow").
		For(&investv1.MatchingWindow{}).
		Watches(&investv1.Order{}, handler.EnqueueRequestsFromMapFunc(windowOfOrder)).
		Watches(&investv1.NAVHistory{}, handler.EnqueueRequestsFromMapFunc(r.windowsOfNAV)).
		Watches(&investv1.ShareClass{}, handler.EnqueueRequestsFromMapFunc(r.upcoming)).
		Complete(r)
}

func windowOfOrder(_ context.Context, obj client.Object) []reconcile.Request {
	o, ok := obj.(*investv1.Order)
	if !ok {
		return nil
	}
	var reqs []reconcile.Request
	if name := lifecycle.OrderWindowName(o); name != "" {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: name}})
	}
	if f := lifecycle.Fill(o); f != nil && f.Window != lifecycle.OrderWindowName(o) {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: f.Window}})
	}
	return reqs
}

// windowsOfNAV maps a NAV history to its ISIN's windows that have no book yet.
func (r *Reconciler) windowsOfNAV(ctx context.Context, obj client.Object) []reconcile.Request {
	h, ok := obj.(*investv1.NAVHistory)
	if !ok {
		return nil
	}
	var list investv1.MatchingWindowList
	if err := r.Client.List(ctx, &list, client.MatchingFields{index.WindowISIN: string(h.Spec.ISIN)}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "list the matching windows of an ISIN", "isin", h.Spec.ISIN)
		return nil
	}
	var reqs []reconcile.Request
	for i := range list.Items {
		if list.Items[i].Status.NAV == nil {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
		}
	}
	return reqs
}

// upcoming maps a share class with a secondary market to its next windows.
func (r *Reconciler) upcoming(_ context.Context, obj client.Object) []reconcile.Request {
	sc, ok := obj.(*investv1.ShareClass)
	if !ok || sc.Spec.Secondary == nil {
		return nil
	}
	next, err := dealing.Next(secondary.Terms(sc.Spec.Secondary), r.now(), Upcoming)
	if err != nil {
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(next))
	for _, d := range next {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: lifecycle.WindowName(sc.Spec.ISIN, d.Date.String())}})
	}
	return reqs
}

// cashMismatch is why an order placed under another cash settlement than the market's
// today is left out of its window ("" when they agree): a BUY paid through the bank
// cannot pay a seller on chain, and an escrow cannot pay a bank payout.
func cashMismatch(o *investv1.Order, market *investv1.CashOnChain) string {
	var placed *investv1.CashOnChain
	if lifecycle.CashOnChain(o) {
		placed = &o.Spec.Quote.CashOnChain.CashOnChain
	}
	describe := func(c *investv1.CashOnChain) string {
		if c == nil {
			return "through the bank"
		}
		return "on chain (settlement contract " + c.Settlement + ", cash token " + c.CashToken + ")"
	}
	same := placed == nil && market == nil ||
		placed != nil && market != nil && strings.EqualFold(placed.Settlement, market.Settlement) && strings.EqualFold(placed.CashToken, market.CashToken)
	if same {
		return ""
	}
	return "its cash settles " + describe(placed) + " as placed, the market's today " + describe(market)
}
