package delivery

// The secondary market's delivery versus payment (docs/secondary.md): a SECONDARY BUY,
// once its window matched it (EXECUTED, paid before), is delivered by the transfers of its
// units from the wallets of the SELLs its fill was paired with, in one settleWithRef
// transaction that carries the BUY's effect reference; it is recorded in the BUY's
// status.chain before it is broadcast, like a mint, under the same outbox rules. A
// SECONDARY SELL is never burned: once every BUY it delivers to has its transfer final,
// the agent records unitsDelivered on it, and its payout follows.

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=matchingwindows,verbs=get;list;watch

// pairing is the transfers of the window that matched o that involve o: the recorded
// book replayed, once per window version (pairings).
func (r *Reconciler) pairing(ctx context.Context, o *investv1.Order) ([]secondary.Transfer, error) {
	p, err := r.windowPairing(ctx, o)
	if err != nil {
		return nil, err
	}
	return p.byOrder[o.Namespace+"/"+o.Name], nil
}

// windowPairing is the replayed book of the window that matched o.
func (r *Reconciler) windowPairing(ctx context.Context, o *investv1.Order) (*windowPairing, error) {
	f := lifecycle.Fill(o)
	if f == nil {
		return nil, &settleError{msg: "the order has no fill of a matching window"}
	}
	w := &investv1.MatchingWindow{}
	// Not deep-copied: a window's book of 10,000 entries is some 600 KB, read here for
	// every order it settles; w is only read.
	if err := r.Client.Get(ctx, client.ObjectKey{Name: f.Window}, w, client.UnsafeDisableDeepCopy); err != nil {
		return nil, fmt.Errorf("matching window %s: %w", f.Window, err)
	}
	if w.Status.NAV == nil || w.Status.Policy == nil {
		return nil, &settleError{msg: "the matching window " + f.Window + " has no recorded book"}
	}
	p, err := r.pairings.of(w)
	if err != nil {
		return nil, &settleError{msg: fmt.Sprintf("the book of matching window %s cannot be replayed: %v", f.Window, err)}
	}
	return p, nil
}

// windowPairing is a recorded book replayed: the transfers of each order (namespace/name),
// BUY or SELL, in the window's pairing order.
type windowPairing struct {
	version string
	byOrder map[string][]secondary.Transfer
	// fills are the window's fills by order (namespace/name).
	fills map[string]secondary.Fill
}

// pairingCache keeps the replays of the windows being settled: a window's book is recorded
// once and immutable (its CRD says so), so a replay holds as long as the window's
// resourceVersion; every order of a window of 10,000 replaying its 10,000 entries was
// the settlement's largest cost of CPU.
type pairingCache struct {
	mu      sync.Mutex
	windows map[string]*windowPairing
}

// maxPairings is how many windows' replays are kept.
const maxPairings = 16

func (c *pairingCache) of(w *investv1.MatchingWindow) (*windowPairing, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.windows[w.Name]; p != nil && p.version == w.ResourceVersion && w.ResourceVersion != "" {
		return p, nil
	}
	res, _, err := secondary.Replay(w.Spec.Date, w.Status.NAV.NAVPerShare, secondary.PolicyOf(w.Status.Policy), w.Status.Book)
	if err != nil {
		return nil, err
	}
	p := &windowPairing{version: w.ResourceVersion, byOrder: map[string][]secondary.Transfer{}, fills: make(map[string]secondary.Fill, len(res.Fills))}
	for _, f := range res.Fills {
		p.fills[f.ID] = f
	}
	for _, t := range res.Transfers {
		p.byOrder[t.BuyID] = append(p.byOrder[t.BuyID], t)
		p.byOrder[t.SellID] = append(p.byOrder[t.SellID], t)
	}
	if c.windows == nil {
		c.windows = map[string]*windowPairing{}
	}
	if len(c.windows) >= maxPairings {
		for k := range c.windows { // any one: settlements of more windows at once are rare
			delete(c.windows, k)
			break
		}
	}
	c.windows[w.Name] = p
	return p, nil
}

// settlementLegs are a SECONDARY BUY's transfers: each seller's wallet address, its units
// and its SELL (namespace/name), in the window's pairing order. The units add up to the
// BUY's fill.
func (r *Reconciler) settlementLegs(ctx context.Context, o *investv1.Order) ([]common.Address, []*big.Int, []string, error) {
	transfers, err := r.pairing(ctx, o)
	if err != nil {
		return nil, nil, nil, err
	}
	key := o.Namespace + "/" + o.Name
	var (
		from    []common.Address
		amounts []*big.Int
		sells   []string
		total   int64
	)
	for _, t := range transfers {
		if t.BuyID != key {
			continue
		}
		sell, err := r.orderOf(ctx, t.SellID)
		if err != nil {
			return nil, nil, nil, err
		}
		addr, err := r.walletAddress(ctx, sell.Namespace, deliveryWallet(sell))
		if err != nil {
			return nil, nil, nil, &settleError{msg: fmt.Sprintf("the seller of %d units (order %s): %v", t.Units, sell.Name, err)}
		}
		from = append(from, addr)
		amounts = append(amounts, big.NewInt(t.Units))
		sells = append(sells, t.SellID)
		total += t.Units
	}
	if total != lifecycle.Units(o) {
		return nil, nil, nil, &settleError{msg: fmt.Sprintf("the window's transfers to this order add up to %d units, its fill is %d", total, lifecycle.Units(o))}
	}
	return from, amounts, sells, nil
}

// orderOf reads the order named namespace/name (a book entry's key).
func (r *Reconciler) orderOf(ctx context.Context, key string) (*investv1.Order, error) {
	e, err := secondary.ParseEntry("BUY 1 0 " + key)
	if err != nil {
		return nil, err
	}
	o := &investv1.Order{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: e.Namespace, Name: e.Name}, o); err != nil {
		return nil, fmt.Errorf("order %s: %w", key, err)
	}
	return o, nil
}

// unitsDelivered records a SECONDARY SELL's unitsDelivered once every BUY its units go to
// has its transfer final (deliveryCompleted), naming the last of those transactions.
func (r *Reconciler) unitsDelivered(ctx context.Context, o *investv1.Order) (ctrl.Result, error) {
	transfers, err := r.pairing(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	key := o.Namespace + "/" + o.Name
	var (
		last      *investv1.SettlementRecord
		lastBlock int64 // last's block; 0 when not known (no chain)
	)
	for _, t := range transfers {
		if t.SellID != key {
			continue
		}
		buy, err := r.orderOf(ctx, t.BuyID)
		if err != nil {
			return ctrl.Result{}, err
		}
		done := buy.Status.Settlement.DeliveryCompleted
		if done == nil || done.TransactionHash == "" {
			// That BUY's transfer is not final yet: its completion wakes this SELL
			// (wakeSells); the requeue is a safety net.
			return ctrl.Result{RequeueAfter: 5 * r.poll()}, nil
		}
		block := settledBlock(buy)
		if last == nil || block > lastBlock || block == lastBlock && done.At.After(last.At.Time) {
			last, lastBlock = done, block
		}
	}
	if last == nil {
		return ctrl.Result{}, fmt.Errorf("the window pairs no BUY with the SELL %s", key)
	}
	if lifecycle.CashOnChain(o) {
		// The swaps that took the units paid the seller in the same transactions.
		return r.recordPaidBy(ctx, o, []lifecycle.Step{lifecycle.StepUnitsDelivered, lifecycle.StepPaymentSent, lifecycle.StepPaymentCompleted}, last.TransactionHash, lastBlock,
			"the units sold are in the buyers' wallets and the swaps paid the seller %d in the cash token %s (last transaction %s)",
			netOf(o), o.Spec.Quote.CashOnChain.CashToken, last.TransactionHash)
	}
	before := o.DeepCopy()
	rec := investv1.SettlementRecord{TransactionHash: last.TransactionHash, BlockNumber: lastBlock, At: metav1.NewTime(r.now().UTC().Truncate(time.Second)), RecordedBy: Name}
	if !lifecycle.Record(o, lifecycle.StepUnitsDelivered, rec) {
		return ctrl.Result{}, nil
	}
	moves, err := r.follow(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "record UnitsDelivered evidence")
	}
	r.evidenceEvent(o, lifecycle.StepUnitsDelivered, before.Status.State, moves, "%s recorded %s evidence: the units sold are in the buyers' wallets (last transaction %s)", Name, lifecycle.StepUnitsDelivered, last.TransactionHash)
	return ctrl.Result{}, nil
}

// wakeSells has the SELLs whose units a SECONDARY BUY received looked at again, once the
// BUY's transfer is final (their unitsDelivered may be due).
func (r *Reconciler) wakeSells(ctx context.Context, buy *investv1.Order) {
	if r.batch == nil || !lifecycle.Secondary(buy) {
		return
	}
	transfers, err := r.pairing(ctx, buy)
	if err != nil {
		return // the SELLs' own requeue looks again
	}
	key := buy.Namespace + "/" + buy.Name
	for _, t := range transfers {
		if t.BuyID != key {
			continue
		}
		e, err := secondary.ParseEntry("SELL 1 0 " + t.SellID)
		if err != nil {
			continue
		}
		o := &investv1.Order{}
		o.Namespace, o.Name = e.Namespace, e.Name
		select {
		case r.batch.wake <- event.GenericEvent{Object: o}:
		default: // the SELL's own requeue looks again
		}
	}
}

// settleError is why a SECONDARY BUY's transfers cannot be built from its window: the
// chain agent refuses it (Stalled) and looks again.
type settleError struct{ msg string }

func (e *settleError) Error() string { return "NoSettlement: " + e.msg }

// WalletChecker answers the window controller's checks at matching from the chain: the
// token's pause, a wallet's freeze, its registration and its unlocked units, at the head.
type WalletChecker struct {
	Chain  ethereum.ContractCaller
	Tokens agent.TokenLookup
}

// Wallet is the state of address for the token of isin.
func (c WalletChecker) Wallet(ctx context.Context, namespace string, isin investv1.ISIN, address string) (secondary.WalletState, error) {
	var st secondary.WalletState
	tok, err := c.Tokens.Token(ctx, namespace, isin)
	if err != nil {
		return st, err
	}
	abi := contracts.NewShareToken()
	wallet := common.HexToAddress(address)
	call := func(to common.Address, data []byte) ([]byte, error) {
		return c.Chain.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	}
	out, err := call(tok.Address, abi.PackPaused())
	if err != nil {
		return st, err
	}
	if st.Paused, err = abi.UnpackPaused(out); err != nil {
		return st, err
	}
	if out, err = call(tok.Address, abi.PackIsFrozen(wallet)); err != nil {
		return st, err
	}
	if st.Frozen, err = abi.UnpackIsFrozen(out); err != nil {
		return st, err
	}
	if out, err = call(tok.Address, abi.PackUnlockedBalanceOf(wallet)); err != nil {
		return st, err
	}
	unlocked, err := abi.UnpackUnlockedBalanceOf(out)
	if err != nil {
		return st, err
	}
	if !unlocked.IsInt64() {
		return st, fmt.Errorf("wallet %s holds more unlocked units than an int64 counts", address)
	}
	st.Unlocked = unlocked.Int64()
	if out, err = call(tok.Address, abi.PackIdentityRegistry()); err != nil {
		return st, err
	}
	registry, err := abi.UnpackIdentityRegistry(out)
	if err != nil {
		return st, err
	}
	reg := contracts.NewIdentityRegistry()
	if out, err = call(registry, reg.PackIsVerified(wallet)); err != nil {
		return st, err
	}
	st.Verified, err = reg.UnpackIsVerified(out)
	return st, err
}

// settledBlock is the block of the transaction that moved a SECONDARY BUY's units: its
// recorded receipt's, or the block the chain showed its effect applied in (recovered); 0
// when neither is recorded (the no-chain sandbox).
func settledBlock(buy *investv1.Order) int64 {
	c := buy.Status.Chain
	switch {
	case c == nil:
		return 0
	case c.Recovered != nil:
		return c.Recovered.BlockNumber
	case c.Transaction != nil && c.Transaction.Receipt != nil && c.Transaction.Receipt.Status == investv1.ChainReceiptSucceeded:
		return c.Transaction.Receipt.BlockNumber
	}
	return 0
}

// netOf is a matched order's net on its contract note (0 without one).
func netOf(o *investv1.Order) int64 {
	if o.Status.Strike == nil {
		return 0
	}
	return o.Status.Strike.NetAmount
}
