package token

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/metricset"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// The reconciliation's metrics, on the controller-runtime registry (served at /metrics).
var (
	ledgerAccountsOutOfSync = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "fundshare_ledger_accounts_out_of_sync",
		Help: "Accounts whose on-chain balances differ from their holdings at the last reconciliation.",
	})
	ledgerMismatchedUnits = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "fundshare_ledger_mismatched_units",
		Help: "Sum over accounts of |on-chain units - ledger units| per ISIN at the last reconciliation.",
	}, []string{"isin"})
	ledgerRuns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fundshare_ledger_reconciliations_total",
		Help: "Reconciliations of on-chain balances with holdings, by outcome (ok, error).",
	}, []string{"outcome"})
)

func init() {
	metricset.MustRegister(ledgerAccountsOutOfSync, ledgerMismatchedUnits, ledgerRuns)
}

// LedgerAccount is what the comparison needs of one account.
type LedgerAccount struct {
	// Key is namespace/name.
	Key string
	// Holdings are the ledger's units per ISIN.
	Holdings map[string]int64
	// Wallets are the addresses of the account's Wallets.
	Wallets []common.Address
	// Settling are, per ISIN, the units of live orders past execution (not in Holdings yet)
	// that the chain holds by the compared block: + a BUY whose mint, - a SELL whose burn
	// was mined and succeeded at or below it. What is minted or burned later is not on
	// chain at that block, so every ISIN is compared in every round, deliveries in flight
	// or not. Transfers the holdings count above the compared block are taken back here.
	Settling map[string]int64
	// NotComparable are the ISINs whose holdings cannot be compared at the block, and why:
	// the share class's transfers are not indexed up to it, or the account's status does not
	// count its indexed transfers yet. They are reported as not compared, never as in sync.
	NotComparable map[string]string
}

// Mismatch is one ISIN whose units differ.
type Mismatch struct {
	ISIN   string
	Chain  *big.Int
	Ledger int64
}

// LedgerResult is the comparison's outcome for one account.
type LedgerResult struct {
	// Mismatches, sorted by ISIN; empty when in sync.
	Mismatches []Mismatch
	// SharedWith are the other accounts whose wallets share an address with this one's: the
	// registry and the token count an address once, so their units are compared together.
	SharedWith []string
	// Compared ISINs, sorted.
	Compared []string
	// Settling is the number of units of orders in flight the comparison counted.
	Settling int64
	// NotCompared are the ISINs left out, each with why ("ISIN: reason"), sorted.
	NotCompared []string
}

// InSync says whether no ISIN differs.
func (r LedgerResult) InSync() bool { return len(r.Mismatches) == 0 }

// Complete says whether every ISIN was compared.
func (r LedgerResult) Complete() bool { return len(r.NotCompared) == 0 }

// Message is the condition's message: the numbers of every mismatch.
func (r LedgerResult) Message() string {
	var b strings.Builder
	if r.InSync() {
		fmt.Fprintf(&b, "on-chain balances equal the holdings for %d ISIN(s)", len(r.Compared))
	} else {
		for i, m := range r.Mismatches {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "ISIN %s: chain %s units, ledger %d", m.ISIN, m.Chain, m.Ledger)
		}
	}
	if r.Settling != 0 && r.InSync() {
		fmt.Fprintf(&b, " (counting %d unit(s) of orders settling on chain)", r.Settling)
	}
	if len(r.NotCompared) > 0 {
		fmt.Fprintf(&b, "; not yet comparable: %s", strings.Join(r.NotCompared, "; "))
	}
	if len(r.SharedWith) > 0 {
		fmt.Fprintf(&b, " (wallet address shared with %s: units compared together)", strings.Join(r.SharedWith, ", "))
	}
	return b.String()
}

// CompareLedger compares, for every ISIN with a token, the units the accounts' wallets hold
// on chain (balances[token][wallet]) with the holdings. Accounts whose wallets share an
// address form one group, compared as a whole. It is pure: the caller reads the chain.
func CompareLedger(accounts []LedgerAccount, tokens map[string]common.Address, balances map[common.Address]map[common.Address]*big.Int) map[string]LedgerResult {
	// Union-find of accounts over shared addresses.
	parent := make([]int, len(accounts))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	owner := map[common.Address]int{}
	for i, a := range accounts {
		for _, w := range a.Wallets {
			if j, ok := owner[w]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[w] = i
			}
		}
	}
	groups := map[int][]int{}
	for i := range accounts {
		groups[find(i)] = append(groups[find(i)], i)
	}
	isins := make([]string, 0, len(tokens))
	for isin := range tokens {
		isins = append(isins, isin)
	}
	sort.Strings(isins)

	out := make(map[string]LedgerResult, len(accounts))
	for _, members := range groups {
		var res LedgerResult
		addrs := map[common.Address]bool{}
		for _, i := range members {
			for _, w := range accounts[i].Wallets {
				addrs[w] = true
			}
		}
		for _, isin := range isins {
			var why []string
			for _, i := range members {
				if w := accounts[i].NotComparable[isin]; w != "" {
					why = append(why, w)
				}
			}
			if len(why) > 0 {
				slices.Sort(why)
				res.NotCompared = append(res.NotCompared, "ISIN "+isin+": "+strings.Join(slices.Compact(why), ", "))
				continue
			}
			var ledger int64
			for _, i := range members {
				ledger += accounts[i].Holdings[isin] + accounts[i].Settling[isin]
				res.Settling += abs(accounts[i].Settling[isin])
			}
			res.Compared = append(res.Compared, isin)
			onChain := new(big.Int)
			for w := range addrs {
				if b := balances[tokens[isin]][w]; b != nil {
					onChain.Add(onChain, b)
				}
			}
			if onChain.Cmp(big.NewInt(ledger)) != 0 {
				res.Mismatches = append(res.Mismatches, Mismatch{ISIN: isin, Chain: onChain, Ledger: ledger})
			}
		}
		for _, i := range members {
			r := res
			r.SharedWith = nil
			for _, j := range members {
				if j != i {
					r.SharedWith = append(r.SharedWith, accounts[j].Key)
				}
			}
			slices.Sort(r.SharedWith)
			out[accounts[i].Key] = r
		}
	}
	return out
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// LedgerReconciler compares every account's on-chain balances with its holdings every
// Interval, on the leader only, at a confirmed block: Confirmations below the head, or the
// lowest transfer cursor just below it (transfersBlock), as holdings count the transfers
// indexed up to the cursor. An ISIN that cannot be compared at that block (transfers not
// indexed up to it, or not yet counted in the account's status) sets LedgerInSync=Unknown
// (reason NotComparable) with the reason, unless another ISIN mismatches. A mismatch sets LedgerInSync=False (reason BalanceMismatch,
// the numbers in the message) on the Account, emits a Warning Event and shows in the
// fundshare_ledger_* metrics; back in sync sets it True again.
type LedgerReconciler struct {
	Client   client.Client
	Chain    Reader
	Interval time.Duration
	// Confirmations: balances are read at the block Confirmations-1 below the head (the
	// newest block whose transactions the agent calls final); zero or one: the head.
	Confirmations uint64
	Recorder      events.EventRecorder
	Log           logr.Logger
}

// NeedLeaderElection: one replica reconciles.
func (r *LedgerReconciler) NeedLeaderElection() bool { return true }

// Start runs a round every Interval until ctx ends; a failed round is logged and retried
// at the next tick.
func (r *LedgerReconciler) Start(ctx context.Context) error {
	t := time.NewTicker(r.Interval)
	defer t.Stop()
	for {
		if err := r.Round(ctx); err != nil && ctx.Err() == nil {
			r.Log.Error(err, "ledger reconciliation")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Round reconciles once.
func (r *LedgerReconciler) Round(ctx context.Context) (err error) {
	defer func() {
		outcome := "ok"
		if err != nil {
			outcome = "error"
		}
		ledgerRuns.WithLabelValues(outcome).Inc()
	}()
	var classes investv1.ShareClassList
	if err := r.Client.List(ctx, &classes); err != nil {
		return err
	}
	tokens := map[string]common.Address{}
	cursors := map[string]*investv1.TransferCursor{}
	for _, sc := range classes.Items {
		if tokenReady(&sc) {
			tokens[string(sc.Spec.ISIN)] = common.HexToAddress(sc.Status.Token.Address)
			if c := sc.Status.Transfers; c != nil && common.HexToAddress(c.Token) == tokens[string(sc.Spec.ISIN)] {
				cursors[string(sc.Spec.ISIN)] = c
			}
		}
	}
	var accts investv1.AccountList
	if err := r.Client.List(ctx, &accts); err != nil {
		return err
	}
	var wallets investv1.WalletList
	if err := r.Client.List(ctx, &wallets); err != nil {
		return err
	}
	var orders investv1.OrderList
	if err := r.Client.List(ctx, &orders); err != nil {
		return err
	}
	byKey := map[string]*LedgerAccount{}
	inputs := make([]LedgerAccount, 0, len(accts.Items))
	for _, a := range accts.Items {
		la := LedgerAccount{Key: a.Namespace + "/" + a.Name, Holdings: map[string]int64{}, Settling: map[string]int64{}, NotComparable: map[string]string{}}
		for _, h := range a.Status.Holdings {
			la.Holdings[string(h.ISIN)] = h.Units
		}
		inputs = append(inputs, la)
	}
	for i := range inputs {
		byKey[inputs[i].Key] = &inputs[i]
	}
	for _, w := range wallets.Items {
		if la := byKey[w.Namespace+"/"+string(w.Spec.AccountID)]; la != nil && common.IsHexAddress(w.Spec.WalletAddress) {
			la.Wallets = append(la.Wallets, common.HexToAddress(w.Spec.WalletAddress))
		}
	}
	burnable := BurnableWallets(wallets.Items)
	// Every balance at one confirmed block, so that the round sees one state of the chain
	// that a shallow reorganisation does not change.
	head, err := r.Chain.BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("block number: %w", err)
	}
	at := head
	if r.Confirmations > 1 && head+1 >= r.Confirmations {
		at = head + 1 - r.Confirmations
	}
	at = transfersBlock(at, cursors)
	block := new(big.Int).SetUint64(at)
	if err := r.countTransfers(ctx, accts.Items, byKey, tokens, cursors, at); err != nil {
		return err
	}
	settling := map[string]bool{}
	for i := range orders.Items {
		o := &orders.Items[i]
		la := byKey[o.Namespace+"/"+string(o.Spec.AccountID)]
		if la == nil || !pastExecution(o.Status.State) {
			continue
		}
		settling[la.Key] = true
		units, err := r.settledBy(ctx, o, at)
		if err != nil {
			return err
		}
		la.Settling[string(o.Spec.ISIN)] += units
	}
	tok := contracts.NewShareToken()
	balances := map[common.Address]map[common.Address]*big.Int{}
	for _, addr := range tokens {
		balances[addr] = map[common.Address]*big.Int{}
		for _, la := range inputs {
			for _, w := range la.Wallets {
				if _, done := balances[addr][w]; done {
					continue
				}
				b, err := call(ctx, r.Chain, addr, block, tok.PackBalanceOf(w), tok.UnpackBalanceOf)
				if err != nil {
					return fmt.Errorf("balanceOf(%s) on %s: %w", w.Hex(), addr.Hex(), err)
				}
				balances[addr][w] = b
			}
		}
	}

	results := CompareLedger(inputs, tokens, balances)
	outOfSync := 0
	units := map[string]*big.Int{}
	for isin := range tokens {
		units[isin] = new(big.Int)
	}
	var errs []error
	for i := range accts.Items {
		a := &accts.Items[i]
		res := results[a.Namespace+"/"+a.Name]
		if !res.InSync() {
			outOfSync++
			// Shared groups report the same mismatch on each member: count it once.
			if len(res.SharedWith) == 0 || a.Namespace+"/"+a.Name < res.SharedWith[0] {
				for _, m := range res.Mismatches {
					units[m.ISIN].Add(units[m.ISIN], new(big.Int).Abs(new(big.Int).Sub(m.Chain, big.NewInt(m.Ledger))))
				}
			}
		}
		key := a.Namespace + "/" + a.Name
		onChain := OnChainOf(burnable[key], tokens, balances, at)
		if err := r.record(ctx, a, res, onChain, settling[key]); err != nil {
			errs = append(errs, err)
		}
	}
	ledgerAccountsOutOfSync.Set(float64(outOfSync))
	ledgerMismatchedUnits.Reset()
	for isin, u := range units {
		f, _ := new(big.Float).SetInt(u).Float64()
		ledgerMismatchedUnits.WithLabelValues(isin).Set(f)
	}
	return errors.Join(errs...)
}

// BurnableWallets are, per account ("namespace/name"), the addresses a SELL of the
// account may burn from: those of rules.BurnableWallets, the rule the chain agent's burn
// plan uses too.
func BurnableWallets(wallets []investv1.Wallet) map[string][]common.Address {
	out := map[string][]common.Address{}
	for key, ws := range rules.BurnableWallets(wallets) {
		for _, w := range ws {
			if common.IsHexAddress(w.Spec.WalletAddress) {
				out[key] = append(out[key], common.HexToAddress(w.Spec.WalletAddress))
			}
		}
	}
	return out
}

// OnChainOf is an account's status.onChain: the units of each ISIN's token its burnable
// wallets hold at block (balances[token][wallet]), sorted by ISIN, ISINs with none left
// out.
func OnChainOf(wallets []common.Address, tokens map[string]common.Address, balances map[common.Address]map[common.Address]*big.Int, block uint64) *investv1.OnChainHoldings {
	out := &investv1.OnChainHoldings{Block: int64(block)} //nolint:gosec // block numbers stay far below 2^63
	for isin, tok := range tokens {
		sum := new(big.Int)
		for _, w := range wallets {
			if b := balances[tok][w]; b != nil {
				sum.Add(sum, b)
			}
		}
		if sum.Sign() > 0 && sum.IsInt64() {
			out.Holdings = append(out.Holdings, investv1.OnChainHolding{ISIN: investv1.ISIN(isin), Units: sum.Int64()})
		}
	}
	sort.Slice(out.Holdings, func(i, j int) bool { return out.Holdings[i].ISIN < out.Holdings[j].ISIN })
	return out
}

// onChainChanged says whether status.onChain must be written: the units differ, or the
// account has orders settling on chain and the block moved (their burns and mints are
// compared with that block at placement).
func onChainChanged(old, cur *investv1.OnChainHoldings, settling bool) bool {
	if old == nil || !slices.Equal(old.Holdings, cur.Holdings) {
		return true
	}
	return settling && old.Block != cur.Block
}

// record sets LedgerInSync and status.onChain on the account when they change, with a
// Warning Event when a mismatch appears or its numbers change.
func (r *LedgerReconciler) record(ctx context.Context, a *investv1.Account, res LedgerResult, onChain *investv1.OnChainHoldings, settling bool) error {
	cond := metav1.Condition{Type: TypeLedgerInSync, Status: metav1.ConditionTrue, Reason: ReasonBalancesMatch,
		Message: res.Message(), ObservedGeneration: a.Generation}
	switch {
	case !res.InSync():
		cond.Status, cond.Reason = metav1.ConditionFalse, ReasonBalanceMismatch
	case !res.Complete():
		cond.Status, cond.Reason = metav1.ConditionUnknown, ReasonNotComparable
	}
	old := meta.FindStatusCondition(a.Status.Conditions, TypeLedgerInSync)
	condSame := old != nil && old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message && old.ObservedGeneration == cond.ObservedGeneration
	if condSame && !onChainChanged(a.Status.OnChain, onChain, settling) {
		return nil
	}
	before := a.DeepCopy()
	meta.SetStatusCondition(&a.Status.Conditions, cond)
	a.Status.OnChain = onChain
	if err := patch.Status(ctx, r.Client, a, before); err != nil {
		if patch.Stale(err) {
			return nil // the next round sees the new version
		}
		return fmt.Errorf("account %s/%s: %w", a.Namespace, a.Name, err)
	}
	if condSame {
		return nil // only the units on chain changed
	}
	if !res.InSync() && r.Recorder != nil {
		r.Recorder.Eventf(a, nil, corev1.EventTypeWarning, ReasonBalanceMismatch, "ReconcileLedger", "%s", cond.Message)
	}
	r.Log.Info("ledger", "account", a.Namespace+"/"+a.Name, "inSync", res.InSync(), "message", cond.Message)
	return nil
}

// transferLag is how far below the confirmed block the ledger reads balances so that the
// transfer cursors cover the compared block: a few blocks on a live chain, within what a
// full node keeps of past state. A cursor further behind leaves its ISIN not comparable.
const transferLag = 64

// transfersBlock is the block the ledger compares at: the confirmed block, or the lowest
// transfer cursor below it within transferLag, so that every ISIN whose transfers are
// indexed up to a recent block is comparable (holdings count transfers up to the cursor).
func transfersBlock(confirmed uint64, cursors map[string]*investv1.TransferCursor) uint64 {
	at := confirmed
	for _, c := range cursors {
		if n := uint64(max(c.IndexedBlock, 0)); n < at && confirmed-n <= transferLag {
			at = n
		}
	}
	return at
}

// countTransfers makes the holdings comparable at block at with the account's transfers
// (Transfer objects, which Account holdings count): an ISIN whose cursor is below at is not
// comparable, nor one whose account status does not count every indexed transfer yet; a
// transfer above at (indexed, not on chain at that block) is taken back in Settling.
func (r *LedgerReconciler) countTransfers(ctx context.Context, accts []investv1.Account, byKey map[string]*LedgerAccount,
	tokens map[string]common.Address, cursors map[string]*investv1.TransferCursor, at uint64) error {
	var transfers investv1.TransferList
	if err := r.Client.List(ctx, &transfers); err != nil {
		return err
	}
	type sums struct{ in, out int64 }
	counted := map[string]map[string]*sums{} // account key → ISIN → units
	for _, t := range transfers.Items {
		key := t.Namespace + "/" + string(t.Spec.AccountID)
		la := byKey[key]
		isin := string(t.Spec.ISIN)
		if la == nil || tokens[isin] == (common.Address{}) {
			continue
		}
		if counted[key] == nil {
			counted[key] = map[string]*sums{}
		}
		if counted[key][isin] == nil {
			counted[key][isin] = &sums{}
		}
		units := t.Spec.Units
		if t.Spec.Direction == investv1.TransferOut {
			counted[key][isin].out += units
			units = -units
		} else {
			counted[key][isin].in += units
		}
		if uint64(max(t.Spec.BlockNumber, 0)) > at {
			la.Settling[isin] -= units
		}
	}
	for i := range accts {
		a := &accts[i]
		key := a.Namespace + "/" + a.Name
		la := byKey[key]
		status := map[string]sums{}
		for _, h := range a.Status.Holdings {
			status[string(h.ISIN)] = sums{in: h.TransferredInUnits, out: h.TransferredOutUnits}
		}
		for isin := range tokens {
			c := cursors[isin]
			switch {
			case c == nil:
				la.NotComparable[isin] = "its transfers are not indexed yet"
			case uint64(max(c.IndexedBlock, 0)) < at:
				la.NotComparable[isin] = fmt.Sprintf("transfers indexed to block %d, balances read at block %d", c.IndexedBlock, at)
			}
			var want sums
			if s := counted[key][isin]; s != nil {
				want = *s
			}
			if status[isin] != want && la.NotComparable[isin] == "" {
				la.NotComparable[isin] = fmt.Sprintf("the holdings count %d unit(s) in and %d out by transfer, the indexed Transfers %d and %d",
					status[isin].in, status[isin].out, want.in, want.out)
			}
		}
	}
	return nil
}

// settledBy is what a live order past execution has changed on chain by block at: the
// units of a BUY whose mint, minus those of a SELL whose burn, was mined at or below at and
// succeeded; zero when its transaction is not there (not sent, not mined, mined later,
// reverted). A recorded receipt is taken as recorded; otherwise the attempts' receipts are
// read.
func (r *LedgerReconciler) settledBy(ctx context.Context, o *investv1.Order, at uint64) (int64, error) {
	if o.Spec.Side == investv1.SideSell && lifecycle.Secondary(o) {
		return r.deliveredBy(ctx, o, at)
	}
	if o.Status.Chain == nil || o.Status.Chain.Transaction == nil {
		return 0, nil
	}
	tx := o.Status.Chain.Transaction
	mined, ok := false, false
	if rc := tx.Receipt; rc != nil {
		mined = rc.BlockNumber >= 0 && uint64(rc.BlockNumber) <= at
		ok = rc.Status == investv1.ChainReceiptSucceeded
	} else {
		for _, a := range tx.Attempts {
			rc, err := r.Chain.TransactionReceipt(ctx, common.HexToHash(a.Hash))
			if errors.Is(err, ethereum.NotFound) {
				continue
			}
			if err != nil {
				return 0, fmt.Errorf("receipt of %s: %w", a.Hash, err)
			}
			mined = rc.BlockNumber != nil && rc.BlockNumber.Uint64() <= at
			ok = rc.Status == types.ReceiptStatusSuccessful
			break
		}
	}
	if !mined || !ok {
		return 0, nil
	}
	if o.Spec.Side == investv1.SideSell {
		return -lifecycle.Units(o), nil
	}
	return lifecycle.Units(o), nil
}

// deliveredBy is what a SECONDARY SELL has changed on chain by block at: minus the units
// of each leg of its window whose BUY's transfer (settleWithRef) was mined at or below at
// and succeeded. The SELL has no transaction of its own: its units leave with its BUYs'.
func (r *LedgerReconciler) deliveredBy(ctx context.Context, o *investv1.Order, at uint64) (int64, error) {
	f := lifecycle.Fill(o)
	if f == nil || o.Status.Strike.Units == 0 {
		return 0, nil
	}
	w := &investv1.MatchingWindow{}
	if err := r.Client.Get(ctx, client.ObjectKey{Name: f.Window}, w); err != nil {
		return 0, fmt.Errorf("matching window %s of order %s/%s: %w", f.Window, o.Namespace, o.Name, err)
	}
	if w.Status.NAV == nil || w.Status.Policy == nil {
		return 0, nil
	}
	res, entries, err := secondary.Replay(w.Spec.Date, w.Status.NAV.NAVPerShare, secondary.PolicyOf(w.Status.Policy), w.Status.Book)
	if err != nil {
		return 0, fmt.Errorf("replay the book of window %s: %w", w.Name, err)
	}
	key := o.Namespace + "/" + o.Name
	var units int64
	for _, t := range res.Transfers {
		if t.SellID != key {
			continue
		}
		e := entries[t.BuyID]
		buy := &investv1.Order{}
		if err := r.Client.Get(ctx, client.ObjectKey{Namespace: e.Namespace, Name: e.Name}, buy); err != nil {
			if apierrors.IsNotFound(err) {
				units += t.Units // archived: completed, so its transfer is on chain
				continue
			}
			return 0, err
		}
		moved, err := r.settledBy(ctx, buy, at)
		if err != nil {
			return 0, err
		}
		if moved > 0 {
			units += t.Units
		}
	}
	return -units, nil
}

// pastExecution says whether a live order's tokens may be moving: from execution until it
// is terminal.
func pastExecution(s investv1.OrderState) bool {
	switch s {
	case investv1.StateExecuted, investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted,
		investv1.StatePaymentSent, investv1.StatePaymentCompleted:
		return true
	}
	return false
}

// tokenReady says whether a share class has a token the operator uses: recorded in status
// and TokenReady=True, or paused (TokenReady=False, Paused): a paused token is still the
// share class's; its balances count, burns and forced transfers apply, and a mint reverts
// with EnforcedPause, which the order then reports.
func tokenReady(sc *investv1.ShareClass) bool {
	if sc.Status.Token == nil || sc.Status.Token.Address == "" {
		return false
	}
	c := meta.FindStatusCondition(sc.Status.Conditions, TypeTokenReady)
	return c != nil && (c.Status == metav1.ConditionTrue || c.Reason == ReasonPaused)
}
