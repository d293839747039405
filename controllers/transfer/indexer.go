// Package transfer indexes the share tokens' holder-to-holder transfers into the books:
// per share class with a token, it reads the ERC-20 Transfer events of confirmed blocks
// (eth_getLogs in bounded ranges), attributes each side to an account by its wallets'
// addresses and records it as a Transfer object (an Out in the sender account's namespace,
// an In in the receiver's), then moves the share class's cursor (status.transfers: block
// number and hash). Mints and burns are the orders' and are skipped; so are the legs of a
// secondary settlement (settleWithRef: a Transfer with its SecondaryTransfer in the same
// transaction), which deliver orders. A cursor whose block the chain no longer has (a
// reorganisation deeper than the confirmations, a chain rolled back) is walked back to the
// newest block the chain and the records agree on; the Transfers above it are deleted and
// read again. Only standard JSON-RPC is used (eth_blockNumber, eth_getBlockByNumber,
// eth_getLogs), so it runs the same against the simulated backend, `make run`'s local chain
// and Polygon.
package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=transfers,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// TransferEvent is the topic of ERC-20 Transfer(address indexed from, address indexed to,
// uint256 value).
var TransferEvent = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// SecondaryTransferEvent is the topic of the share token's SecondaryTransfer(bytes32 indexed
// ref, address indexed from, address indexed to, uint256 units): one leg of a secondary
// settlement, emitted right after the leg's Transfer.
var SecondaryTransferEvent = crypto.Keccak256Hash([]byte("SecondaryTransfer(bytes32,address,address,uint256)"))

// DefaultRange is how many blocks one eth_getLogs asks for (Polygon's public endpoints
// refuse much wider ranges).
const DefaultRange = 2000

// Reasons of the indexer's Events.
const (
	// ReasonUnattributed: a side of a transfer matched no Wallet (a deleted wallet, or an
	// address never registered here): the books have no entry for it.
	ReasonUnattributed = "TransferUnattributed"
	// ReasonReorganised: the chain no longer has the cursor's block; the Transfers above the
	// common block were removed and are read again.
	ReasonReorganised = "TransfersReorganised"
)

// hasToken says whether the share class has a token to index: TokenReady (controllers/token),
// or a token its admin paused (holder transfers revert while paused, and the index must
// not fall behind the blocks meanwhile).
func hasToken(sc *investv1.ShareClass) bool {
	if sc.Status.Token == nil || !common.IsHexAddress(sc.Status.Token.Address) {
		return false
	}
	c := meta.FindStatusCondition(sc.Status.Conditions, investv1.ConditionTokenReady)
	return c != nil && (c.Status == metav1.ConditionTrue || c.Reason == investv1.ReasonTokenPaused)
}

var indexed = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "fundshare_transfers_indexed_total",
	Help: "Transfer objects the transfer indexer created (one per account side), by direction.",
}, []string{"direction"})

func init() { metricset.MustRegister(indexed) }

// Chain is the JSON-RPC the indexer reads: eth_blockNumber, eth_getBlockByNumber and
// eth_getLogs. ethclient.Client and the simulated backend's client are one.
type Chain interface {
	ethereum.BlockNumberReader
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	ethereum.LogFilterer
}

// Indexer records the tokens' transfers between holders as Transfer objects. It is a
// leader-elected manager.Runnable; Round is one pass over every share class.
type Indexer struct {
	// Client reads wallets and Transfers (the cache) and writes Transfers and the cursor.
	Client client.Client
	// Live reads the share classes (the API server): the cursor must be the one written last.
	Live client.Reader
	// Chain is the token chain.
	Chain Chain
	// Confirmations a block needs to be indexed (the token controllers' value; at least 1).
	Confirmations uint64
	// Range is the number of blocks per eth_getLogs; zero: DefaultRange.
	Range uint64
	// Interval between rounds; zero: two seconds.
	Interval time.Duration
	Recorder events.EventRecorder
	Log      logr.Logger
	// BeforeCursor, when set, runs after a range's Transfers exist and before the cursor
	// moves past it; an error ends the round there (tests stop the indexer at that point).
	BeforeCursor func(sc *investv1.ShareClass, to uint64) error
}

// NeedLeaderElection: one replica indexes.
func (x *Indexer) NeedLeaderElection() bool { return true }

// Start runs a round every Interval until ctx ends; a failed round is logged and retried.
func (x *Indexer) Start(ctx context.Context) error {
	interval := x.Interval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := x.Round(ctx); err != nil && ctx.Err() == nil {
			x.Log.Error(err, "transfer indexing")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Confirmed is the newest block with the given confirmations at head (its own included).
func Confirmed(head, confirmations uint64) uint64 {
	if confirmations > 1 {
		if head+1 < confirmations {
			return 0
		}
		return head + 1 - confirmations
	}
	return head
}

// Round indexes every share class with a usable token up to the confirmed block.
func (x *Indexer) Round(ctx context.Context) error {
	head, err := x.Chain.BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("block number: %w", err)
	}
	confirmed := Confirmed(head, x.Confirmations)
	var classes investv1.ShareClassList
	if err := x.Live.List(ctx, &classes); err != nil {
		return err
	}
	var errs []error
	for i := range classes.Items {
		sc := &classes.Items[i]
		if !hasToken(sc) {
			continue
		}
		if err := x.index(ctx, sc, confirmed); err != nil {
			errs = append(errs, fmt.Errorf("share class %s (%s): %w", sc.Name, sc.Spec.ISIN, err))
		}
	}
	return errors.Join(errs...)
}

// index brings one share class's Transfers up to confirmed.
func (x *Indexer) index(ctx context.Context, sc *investv1.ShareClass, confirmed uint64) error {
	token := common.HexToAddress(sc.Status.Token.Address)
	headers := map[uint64]*types.Header{}
	headerAt := func(n uint64) (*types.Header, error) {
		if h, ok := headers[n]; ok {
			return h, nil
		}
		h, err := x.Chain.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if errors.Is(err, ethereum.NotFound) || err == nil && h == nil {
			return nil, nil // the chain is not that high (any more)
		}
		if err != nil {
			return nil, fmt.Errorf("header %d: %w", n, err)
		}
		headers[n] = h
		return h, nil
	}
	hashAt := func(n uint64) (common.Hash, bool, error) {
		h, err := headerAt(n)
		if err != nil || h == nil {
			return common.Hash{}, false, err
		}
		return h.Hash(), true, nil
	}
	same := func(n uint64, hash string) (bool, error) {
		h, ok, err := hashAt(n)
		return ok && strings.EqualFold(h.Hex(), hash), err
	}

	var recorded []investv1.Transfer
	var list investv1.TransferList
	if err := x.Client.List(ctx, &list, client.MatchingLabels{investv1.LabelISIN: string(sc.Spec.ISIN)}); err != nil {
		return err
	}
	for _, t := range list.Items {
		if common.HexToAddress(t.Spec.Token) == token {
			recorded = append(recorded, t)
		}
	}

	// The cursor: where the records end, if the chain still has that block.
	start := startBlock(sc)
	next := start
	cur := sc.Status.Transfers
	if cur != nil && common.HexToAddress(cur.Token) != token {
		cur = nil // another token: start over for this one
	}
	if cur != nil {
		ok, err := same(u64(cur.IndexedBlock), cur.IndexedBlockHash)
		if err != nil {
			return err
		}
		if ok {
			next = u64(cur.IndexedBlock) + 1
		} else {
			base, found, err := x.commonBlock(recorded, u64(cur.IndexedBlock), same)
			if err != nil {
				return err
			}
			removed, err := x.removeAbove(ctx, recorded, base, found)
			if err != nil {
				return err
			}
			msg := fmt.Sprintf("the chain no longer has block %d (%s) of the transfer cursor: %d Transfer(s) above the common block removed, read again from there",
				cur.IndexedBlock, cur.IndexedBlockHash, removed)
			x.event(sc, corev1.EventTypeWarning, ReasonReorganised, msg)
			x.Log.Info("transfers reorganised", "shareClass", sc.Name, "isin", sc.Spec.ISIN, "cursor", cur.IndexedBlock, "common", base, "found", found, "removed", removed)
			var to *investv1.TransferCursor
			if found {
				h, ok, err := hashAt(base)
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("header %d: gone while walking back", base)
				}
				to = &investv1.TransferCursor{IndexedBlock: i64(base), IndexedBlockHash: h.Hex(), Token: token.Hex()}
				next = base + 1
			}
			if err := x.setCursor(ctx, sc, to); err != nil {
				return err
			}
			recorded = slices.DeleteFunc(recorded, func(t investv1.Transfer) bool { return !found || u64(t.Spec.BlockNumber) > base })
		}
	}
	// Transfers above the cursor were written by a round that ended before its cursor
	// write: keep those whose block the chain still has, remove the others (their event may
	// come back in another block, under another log index).
	for _, t := range recorded {
		if u64(t.Spec.BlockNumber) < next {
			continue
		}
		ok, err := same(u64(t.Spec.BlockNumber), t.Spec.BlockHash)
		if err != nil {
			return err
		}
		if !ok {
			if err := x.Client.Delete(ctx, &t); client.IgnoreNotFound(err) != nil {
				return err
			}
		}
	}

	if next > confirmed {
		return nil
	}
	wallets, err := x.wallets(ctx)
	if err != nil {
		return err
	}
	width := x.Range
	if width == 0 {
		width = DefaultRange
	}
	for from := next; from <= confirmed; from += width {
		to := min(from+width-1, confirmed)
		if err := x.indexRange(ctx, sc, token, wallets, from, to, headerAt); err != nil {
			return err
		}
		if x.BeforeCursor != nil {
			if err := x.BeforeCursor(sc, to); err != nil {
				return err
			}
		}
		h, ok, err := hashAt(to)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("header %d: gone", to)
		}
		if err := x.setCursor(ctx, sc, &investv1.TransferCursor{IndexedBlock: i64(to), IndexedBlockHash: h.Hex(), Token: token.Hex()}); err != nil {
			return err
		}
	}
	return nil
}

// startBlock is where a token's transfers begin: its deployment's block when recorded, an
// adopted token's spec.token.fromBlock when set, else block 0.
func startBlock(sc *investv1.ShareClass) uint64 {
	if d := sc.Status.Token.Deployment; d != nil && d.Receipt != nil && d.Receipt.BlockNumber > 0 {
		return u64(d.Receipt.BlockNumber)
	}
	if t := sc.Spec.Token; t != nil && t.Mode == investv1.TokenModeAdopt && t.FromBlock != nil && *t.FromBlock > 0 {
		return u64(*t.FromBlock)
	}
	return 0
}

// commonBlock walks back from the cursor to the newest block the records and the chain
// agree on: the newest recorded Transfer at or below the cursor whose block hash the chain
// still has at its height (a block hash commits to every block before it). found is false
// when none agrees: everything is read again from the token's start.
func (x *Indexer) commonBlock(recorded []investv1.Transfer, cursor uint64, same func(uint64, string) (bool, error)) (uint64, bool, error) {
	byBlock := map[uint64]string{}
	for _, t := range recorded {
		if n := u64(t.Spec.BlockNumber); n <= cursor {
			byBlock[n] = t.Spec.BlockHash
		}
	}
	blocks := slices.Sorted(func(yield func(uint64) bool) {
		for n := range byBlock {
			if !yield(n) {
				return
			}
		}
	})
	for i := len(blocks) - 1; i >= 0; i-- {
		ok, err := same(blocks[i], byBlock[blocks[i]])
		if err != nil {
			return 0, false, err
		}
		if ok {
			return blocks[i], true, nil
		}
	}
	return 0, false, nil
}

// removeAbove deletes the recorded Transfers above block base (all of them when not
// found).
func (x *Indexer) removeAbove(ctx context.Context, recorded []investv1.Transfer, base uint64, found bool) (int, error) {
	n := 0
	for i := range recorded {
		if found && u64(recorded[i].Spec.BlockNumber) <= base {
			continue
		}
		if err := x.Client.Delete(ctx, &recorded[i]); client.IgnoreNotFound(err) != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// setCursor writes the share class's cursor (nil: nothing indexed).
func (x *Indexer) setCursor(ctx context.Context, sc *investv1.ShareClass, c *investv1.TransferCursor) error {
	before := sc.DeepCopy()
	sc.Status.Transfers = c
	return x.Client.Status().Patch(ctx, sc, client.MergeFrom(before))
}

// wallet is the Wallet an address is attributed to.
type wallet struct {
	namespace, name, account, address string
}

// wallets maps lowercase addresses to Wallets. An address registered by several accounts
// (the registry counts it once) goes to the oldest Wallet, so that a transfer is counted
// once; the ledger compares such accounts together.
func (x *Indexer) wallets(ctx context.Context) (map[string]wallet, error) {
	var list investv1.WalletList
	if err := x.Client.List(ctx, &list); err != nil {
		return nil, err
	}
	slices.SortFunc(list.Items, func(a, b investv1.Wallet) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	out := map[string]wallet{}
	for _, w := range list.Items {
		key := strings.ToLower(w.Spec.WalletAddress)
		if _, taken := out[key]; !taken {
			out[key] = wallet{namespace: w.Namespace, name: w.Name, account: string(w.Spec.AccountID), address: common.HexToAddress(w.Spec.WalletAddress).Hex()}
		}
	}
	return out, nil
}

// indexRange reads the token's Transfer events of blocks from..to and records each side
// that belongs to an account, except the secondary settlements' legs.
func (x *Indexer) indexRange(ctx context.Context, sc *investv1.ShareClass, token common.Address, wallets map[string]wallet,
	from, to uint64, headerAt func(uint64) (*types.Header, error)) error {
	logs, err := x.Chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(to),
		Addresses: []common.Address{token}, Topics: [][]common.Hash{{TransferEvent, SecondaryTransferEvent}},
	})
	if err != nil {
		return fmt.Errorf("eth_getLogs %d..%d: %w", from, to, err)
	}
	settled := settlementLegs(logs, token)
	for i, l := range logs {
		if !isTransferLog(&l, token) || settled[i] {
			continue // not a Transfer, or a secondary settlement's leg: an order's, counted through the orders
		}
		src, dst := common.BytesToAddress(l.Topics[1].Bytes()), common.BytesToAddress(l.Topics[2].Bytes())
		value := new(big.Int).SetBytes(l.Data)
		if src == (common.Address{}) || dst == (common.Address{}) || value.Sign() == 0 {
			continue // a mint or a burn: an order's
		}
		if !value.IsInt64() {
			return fmt.Errorf("transfer %s/%d: %s units do not fit the books", l.TxHash.Hex(), l.Index, value)
		}
		h, err := headerAt(l.BlockNumber)
		if err != nil {
			return err
		}
		if h == nil || h.Hash() != l.BlockHash {
			return fmt.Errorf("block %d changed while its logs were read", l.BlockNumber)
		}
		at := metav1.NewTime(time.Unix(i64(h.Time), 0).UTC())
		for _, side := range []struct {
			dir         investv1.TransferDirection
			own, others common.Address
		}{{investv1.TransferOut, src, dst}, {investv1.TransferIn, dst, src}} {
			w, ok := wallets[strings.ToLower(side.own.Hex())]
			if !ok {
				msg := fmt.Sprintf("transfer %s (log %d, block %d) of %s units: %s matches no Wallet, so no account's books record this side (%s)",
					l.TxHash.Hex(), l.Index, l.BlockNumber, value, side.own.Hex(), side.dir)
				x.event(sc, corev1.EventTypeWarning, ReasonUnattributed, msg)
				x.Log.Info("transfer side unattributed", "isin", sc.Spec.ISIN, "tx", l.TxHash.Hex(), "log", l.Index, "address", side.own.Hex(), "direction", side.dir)
				continue
			}
			t := &investv1.Transfer{
				ObjectMeta: metav1.ObjectMeta{
					Namespace: w.namespace, Name: Name(l.TxHash, l.Index, side.dir),
					Labels: map[string]string{investv1.LabelAccount: w.account, investv1.LabelISIN: string(sc.Spec.ISIN)},
				},
				Spec: investv1.TransferSpec{
					AccountID: investv1.ObjectID(w.account), ISIN: sc.Spec.ISIN, Units: value.Int64(), Direction: side.dir,
					WalletID: investv1.ObjectID(w.name), WalletAddress: w.address, CounterpartyAddress: side.others.Hex(),
					Token: token.Hex(), TransactionHash: l.TxHash.Hex(), LogIndex: i64(uint64(l.Index)),
					BlockNumber: i64(l.BlockNumber), BlockHash: l.BlockHash.Hex(), BlockTime: at,
				},
			}
			switch err := x.Client.Create(ctx, t); {
			case apierrors.IsAlreadyExists(err):
				// Recorded by a round that ended before its cursor write: exactly once.
			case err != nil:
				return fmt.Errorf("transfer %s/%s: %w", t.Namespace, t.Name, err)
			default:
				indexed.WithLabelValues(string(side.dir)).Inc()
				x.Log.V(1).Info("transfer recorded", "transfer", t.Namespace+"/"+t.Name, "units", t.Spec.Units, "block", l.BlockNumber)
			}
		}
	}
	return nil
}

// settlementLegs marks the Transfer logs (by their index in logs) that are legs of a
// secondary settlement: for each SecondaryTransfer of the token, the Transfer of the same
// transaction with the same from, to and units that comes nearest before it and is not
// taken yet (the token emits a leg's Transfer right before its SecondaryTransfer). Each
// SecondaryTransfer takes one Transfer; a Transfer none takes is a holder's.
func settlementLegs(logs []types.Log, token common.Address) map[int]bool {
	type txKey struct{ block, tx common.Hash }
	transfers := map[txKey][]int{}
	for i := range logs {
		if isTransferLog(&logs[i], token) {
			k := txKey{logs[i].BlockHash, logs[i].TxHash}
			transfers[k] = append(transfers[k], i)
		}
	}
	legs := map[int]bool{}
	for j := range logs {
		s := &logs[j]
		if s.Removed || s.Address != token || len(s.Topics) != 4 || s.Topics[0] != SecondaryTransferEvent || len(s.Data) != 32 {
			continue
		}
		taken, at := -1, uint(0) // the Transfer taken so far (in logs) and its log index
		for _, i := range transfers[txKey{s.BlockHash, s.TxHash}] {
			t := &logs[i]
			if legs[i] || t.Index >= s.Index || t.Topics[1] != s.Topics[2] || t.Topics[2] != s.Topics[3] || !bytes.Equal(t.Data, s.Data) {
				continue
			}
			if taken < 0 || t.Index > at {
				taken, at = i, t.Index
			}
		}
		if taken >= 0 {
			legs[taken] = true
		}
	}
	return legs
}

// isTransferLog says whether l is an ERC-20 Transfer of the token still on the chain.
func isTransferLog(l *types.Log, token common.Address) bool {
	return !l.Removed && l.Address == token && len(l.Topics) == 3 && l.Topics[0] == TransferEvent && len(l.Data) == 32
}

// Name is a Transfer's name: the transaction hash, the log index and the direction, so
// that recording an event twice is AlreadyExists.
func Name(tx common.Hash, logIndex uint, dir investv1.TransferDirection) string {
	return fmt.Sprintf("%s-%d-%s", strings.TrimPrefix(strings.ToLower(tx.Hex()), "0x"), logIndex, strings.ToLower(string(dir)))
}

func (x *Indexer) event(sc *investv1.ShareClass, kind, reason, msg string) {
	if x.Recorder != nil {
		x.Recorder.Eventf(sc, nil, kind, reason, "IndexTransfers", "%s", msg)
	}
}

// u64 is a recorded block number (not negative: the CRD's minimum) as the chain counts it.
func u64(n int64) uint64 { return uint64(max(n, 0)) }

// i64 is a chain number as the CRDs record it (block numbers, times and log indexes stay far
// below 2^63).
func i64(n uint64) int64 { return int64(min(n, math.MaxInt64)) }
