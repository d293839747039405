// Package outbox sends the operator's transactions on the token chain exactly once: one
// signer serves many owners (orders, wallets, share classes), nonces are allocated without
// gaps or reuse across restarts and leader changes, and every signed transaction is recorded
// durably by its owner (in the owner's status, as an investv1.ChainTransaction) BEFORE it is
// broadcast. After a restart the recorded transaction is broadcast again as the same bytes,
// never rebuilt; a stuck one is replaced with the same nonce and higher EIP-1559 fees, the
// replacement recorded before it is broadcast too. Whichever recorded attempt is mined is
// the one.
//
// Usage (see OUTBOX.md in the repository's docs for the full contract):
//
//	ob, _ := outbox.New(outbox.Config{Backend: client, Signer: signer, ChainID: id})
//	ob.AddSource(ordersSource) // every kind of owner that records transactions
//	mgr.Add(ob)                // Start syncs the next nonce when this replica leads
//	rec, err := ob.Send(ctx, outbox.Call{To: &token, Data: calldata}, writeToStatus)
//	obs, err := ob.Track(ctx, rec, confirmations, writeToStatus) // until obs.State == Final
package outbox

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
)

// Backend is the JSON-RPC endpoint: go-ethereum's ethclient.Client and the simulated
// backend's client both implement it.
type Backend interface {
	ethereum.ChainIDReader
	ethereum.ChainReader
	ethereum.ChainStateReader
	ethereum.PendingStateReader
	ethereum.GasEstimator
	ethereum.GasPricer1559
	ethereum.TransactionReader
	ethereum.TransactionSender
	ethereum.ContractCaller
	ethereum.BlockNumberReader
}

// Record is one recorded transaction and the owner whose status holds it.
type Record struct {
	// Owner names the owner for logs and the outbox's health, e.g. "Order demo/6e7f…".
	Owner string
	// Object is the owner itself, for Events about it; nil when there is none to name.
	Object runtime.Object
	// Tx is the recorded transaction.
	Tx *investv1.ChainTransaction
}

// Source lists the transactions one kind of owner (orders, delivery batches, wallets,
// share classes) has recorded: every durable record, whatever its state (unconfirmed,
// mined, reverted). The outbox keeps those of its signer and chain. A Source must read the
// API server directly (not a cache that may lag behind a write), so that a record whose
// write was reported as failed but happened is seen.
type Source interface {
	Records(ctx context.Context) ([]Record, error)
}

// SourceFunc adapts a function to Source.
type SourceFunc func(ctx context.Context) ([]Record, error)

// Records implements Source.
func (f SourceFunc) Records(ctx context.Context) ([]Record, error) { return f(ctx) }

// HighestNonce is the highest nonce among the recorded transactions of from on chainID
// (nil entries are skipped).
func HighestNonce(from common.Address, chainID int64, txs ...*investv1.ChainTransaction) (int64, bool) {
	var best int64
	found := false
	for _, t := range txs {
		if !signedBy(t, from, chainID) {
			continue
		}
		if !found || t.Nonce > best {
			best, found = t.Nonce, true
		}
	}
	return best, found
}

func signedBy(t *investv1.ChainTransaction, from common.Address, chainID int64) bool {
	return t != nil && len(t.Attempts) > 0 && t.ChainID == chainID && strings.EqualFold(t.From, from.Hex())
}

// Fees are the EIP-1559 fee caps of a new transaction.
type Fees struct {
	// Tip is the priority fee per gas (maxPriorityFeePerGas).
	Tip *big.Int
	// Cap is the fee cap per gas (maxFeePerGas).
	Cap *big.Int
}

// FeePolicy gives the fees of a new transaction; DefaultFees is used when none is set.
type FeePolicy func(ctx context.Context, b Backend) (Fees, error)

// DefaultFees tips what the node suggests and caps at twice the latest base fee plus the
// tip, which survives six full blocks of base-fee growth.
func DefaultFees(ctx context.Context, b Backend) (Fees, error) {
	tip, err := b.SuggestGasTipCap(ctx)
	if err != nil {
		return Fees{}, fmt.Errorf("suggest tip: %w", err)
	}
	head, err := b.HeaderByNumber(ctx, nil)
	if err != nil {
		return Fees{}, fmt.Errorf("latest header: %w", err)
	}
	base := head.BaseFee
	if base == nil {
		base = new(big.Int)
	}
	return Fees{Tip: tip, Cap: new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(2)), tip)}, nil
}

// Config configures an Outbox.
type Config struct {
	// Backend is the chain's JSON-RPC endpoint.
	Backend Backend
	// Signer signs every transaction; its address is the sender.
	Signer chain.Signer
	// ChainID is the verified chain id (chain.VerifyChainID).
	ChainID *big.Int
	// Fees prices new transactions; nil means DefaultFees.
	Fees FeePolicy
	// StuckAfter is how long an unmined attempt waits before Track replaces it with higher
	// fees; zero means 3 minutes.
	StuckAfter time.Duration
	// GasMargin is added to the gas estimate, in percent; zero means 25.
	GasMargin uint64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives one line per broadcast and replacement (never key material).
	Log logr.Logger
	// HealInterval is how often the signer's nonce on chain is compared with what was seen
	// final, and how often Heal runs while the chain is behind; zero means 5 seconds.
	HealInterval time.Duration
	// ScanInterval is how often Heal compares the chain with every record even when the
	// nonce looks right; zero means 2 minutes.
	ScanInterval time.Duration
	// Notify receives what a person should see (Events); nil drops it (it is logged too).
	Notify func(Notice)
	// Marks keeps the reservation mark beside the records (marks.go): with it the outbox
	// detects records behind the chain (health RecordsBehind); nil: no detection.
	Marks Marks
	// ReserveAhead is how many nonces one write of the mark reserves; zero means
	// DefaultReserveAhead. A restore is detected once the chain has more transactions
	// than the restored mark reserved.
	ReserveAhead uint64
}

// Outbox allocates nonces, signs, has the owner record, and broadcasts. It is a manager
// Runnable that needs leader election: Start syncs the next nonce when this replica becomes
// the leader, and Send waits for that.
type Outbox struct {
	cfg     Config
	from    common.Address
	chainID int64

	mu      sync.Mutex // held across allocation, signing and recording
	sources []Source
	next    uint64
	synced  bool // next is valid: set by Sync, cleared by an ambiguous record
	ready   chan struct{}
	once    sync.Once
	healing map[uint64]bool // nonces broadcast again since the chain fell behind
	mark    Mark            // the reservation mark as last loaded or saved

	hmu     sync.Mutex // guards health and final
	health  Health
	changes chan struct{} // a value after each change of Health().State
	final   uint64        // one more than the highest nonce recorded or seen final

	refs refSupport // which tokens have effect references
}

// New returns an Outbox; it sends nothing until Start (or Sync) has run.
func New(cfg Config) (*Outbox, error) {
	switch {
	case cfg.Backend == nil:
		return nil, errors.New("outbox: Backend must be set")
	case cfg.Signer == nil:
		return nil, errors.New("outbox: Signer must be set")
	case cfg.ChainID == nil || cfg.ChainID.Sign() <= 0 || !cfg.ChainID.IsInt64():
		return nil, errors.New("outbox: ChainID must be set")
	}
	if cfg.Fees == nil {
		cfg.Fees = DefaultFees
	}
	if cfg.StuckAfter <= 0 {
		cfg.StuckAfter = 3 * time.Minute
	}
	if cfg.GasMargin == 0 {
		cfg.GasMargin = 25
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HealInterval <= 0 {
		cfg.HealInterval = 5 * time.Second
	}
	if cfg.ScanInterval <= 0 {
		cfg.ScanInterval = 2 * time.Minute
	}
	if cfg.ReserveAhead == 0 {
		cfg.ReserveAhead = DefaultReserveAhead
	}
	return &Outbox{
		cfg: cfg, from: cfg.Signer.Address(), chainID: cfg.ChainID.Int64(),
		ready: make(chan struct{}), changes: make(chan struct{}, 1),
	}, nil
}

// From is the signer's address, the sender of every transaction.
func (o *Outbox) From() common.Address { return o.from }

// ChainID is the chain every transaction is signed for.
func (o *Outbox) ChainID() int64 { return o.chainID }

// AddSource adds a kind of owner to the startup scan. Call it before Start.
func (o *Outbox) AddSource(s Source) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sources = append(o.sources, s)
	o.synced = false
}

// NeedLeaderElection makes the manager start the outbox on the leader only.
func (o *Outbox) NeedLeaderElection() bool { return true }

// Start compares the chain with the records (Heal) and syncs the next nonce, retrying
// each until it succeeds, then lets Send allocate and keeps comparing (HealInterval,
// ScanInterval); it returns when ctx ends.
func (o *Outbox) Start(ctx context.Context) error {
	for _, step := range []struct {
		what string
		run  func(context.Context) error
	}{
		{"compare the chain with the recorded transactions", func(ctx context.Context) error { _, err := o.Heal(ctx); return err }},
		{"sync the next nonce", o.Sync},
	} {
		for {
			err := step.run(ctx)
			if err == nil {
				break
			}
			o.cfg.Log.Error(err, step.what+"; retrying")
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(2 * time.Second):
			}
		}
	}
	o.watch(ctx)
	return nil
}

// Sync sets the next nonce to max(the chain's pending nonce of the signer, the highest
// nonce any Source has recorded + 1).
func (o *Outbox) Sync(ctx context.Context) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.syncLocked(ctx); err != nil {
		return err
	}
	o.once.Do(func() { close(o.ready) })
	return nil
}

func (o *Outbox) syncLocked(ctx context.Context) error {
	pending, err := o.cfg.Backend.PendingNonceAt(ctx, o.from)
	if err != nil {
		return fmt.Errorf("outbox: pending nonce: %w", err)
	}
	next := pending
	recs, err := o.recordsLocked(ctx)
	if err != nil {
		return err
	}
	txs := make([]*investv1.ChainTransaction, len(recs))
	for i := range recs {
		txs[i] = recs[i].Tx
	}
	if n, found := HighestNonce(o.from, o.chainID, txs...); found && n >= 0 && uint64(n)+1 > next {
		next = uint64(n) + 1
	}
	o.next, o.synced = next, true
	o.cfg.Log.V(1).Info("next nonce synced", "from", o.from.Hex(), "nonce", next, "chainPending", pending)
	return nil
}

// Call is a transaction to send.
type Call struct {
	// To is the contract called; nil creates a contract from Data.
	To *common.Address
	// Data is the calldata (or the creation code and constructor arguments).
	Data []byte
	// Value is the wei sent along; nil means none.
	Value *big.Int
	// Gas is the gas limit; zero estimates it (and the estimate is the pre-flight check).
	Gas uint64
}

// RecordFunc writes the transaction durably into its owner's status (with optimistic
// locking) and returns nil only when it is written. It returns an error wrapped with
// NotRecorded (or a Kubernetes conflict, invalid, not-found or forbidden error) when the
// write certainly did not happen; any other error is taken as "may have happened".
type RecordFunc func(ctx context.Context, tx *investv1.ChainTransaction) error

// errNotRecorded marks a record error that certainly did not write.
var errNotRecorded = errors.New("not recorded")

// NotRecorded wraps err to say the record certainly was not written.
func NotRecorded(err error) error { return fmt.Errorf("%w: %w", errNotRecorded, err) }

// ErrNotSynced is returned by Send before the outbox knows the next nonce.
var ErrNotSynced = errors.New("outbox: next nonce not synced yet (not the leader, or not started)")

func definitelyNotWritten(err error) bool {
	return errors.Is(err, errNotRecorded) || apierrors.IsConflict(err) || apierrors.IsInvalid(err) ||
		apierrors.IsNotFound(err) || apierrors.IsForbidden(err) || apierrors.IsBadRequest(err)
}

// Send checks the call (a gas estimate that reverts returns the decoded *chain.RevertError
// and nothing is signed), then under the outbox's lock allocates the next nonce, signs,
// and calls record; only when record returns nil is the transaction broadcast. A record
// that certainly failed frees the nonce; one that may have happened makes the next
// allocation sync from the Sources first. The recorded transaction is returned even when
// the broadcast fails (Track broadcasts it again).
func (o *Outbox) Send(ctx context.Context, call Call, record RecordFunc) (*investv1.ChainTransaction, error) {
	select {
	case <-o.ready:
	default:
		return nil, ErrNotSynced
	}
	gas := call.Gas
	if gas == 0 {
		est, err := o.cfg.Backend.EstimateGas(ctx, ethereum.CallMsg{From: o.from, To: call.To, Data: call.Data, Value: call.Value})
		if err != nil {
			return nil, chain.DecodeError(err)
		}
		gas = est + est*o.cfg.GasMargin/100
	}
	fees, err := o.cfg.Fees(ctx, o.cfg.Backend)
	if err != nil {
		return nil, err
	}

	o.mu.Lock()
	if err := o.signing(); err != nil {
		o.mu.Unlock()
		return nil, err
	}
	if !o.synced {
		if err := o.syncLocked(ctx); err != nil {
			o.mu.Unlock()
			return nil, err
		}
	}
	nonce := o.next
	if err := o.reserveLocked(ctx, nonce); err != nil {
		o.mu.Unlock()
		return nil, err
	}
	signed, att, err := o.sign(ctx, nonce, call, gas, fees)
	if err != nil {
		o.mu.Unlock()
		return nil, err
	}
	rec := &investv1.ChainTransaction{
		ChainID: o.chainID, From: o.from.Hex(), Nonce: int64(nonce), //nolint:gosec // nonces stay far below 2^63
		Attempts: []investv1.ChainTransactionAttempt{att},
	}
	if call.To != nil {
		rec.To = call.To.Hex()
	}
	if err := record(ctx, rec.DeepCopy()); err != nil {
		if !definitelyNotWritten(err) {
			o.synced = false // it may be recorded: count it before the next allocation
		}
		o.mu.Unlock()
		return nil, fmt.Errorf("record transaction (nonce %d): %w", nonce, err)
	}
	o.next = nonce + 1
	o.mu.Unlock()

	o.cfg.Log.Info("broadcasting", "hash", signed.Hash().Hex(), "nonce", nonce, "to", rec.To)
	if err := o.send(ctx, signed); err != nil {
		return rec, fmt.Errorf("broadcast %s: %w", signed.Hash().Hex(), err)
	}
	return rec, nil
}

func (o *Outbox) sign(ctx context.Context, nonce uint64, call Call, gas uint64, fees Fees) (*types.Transaction, investv1.ChainTransactionAttempt, error) {
	if fees.Tip == nil || fees.Cap == nil || fees.Tip.Sign() < 0 || fees.Cap.Cmp(fees.Tip) < 0 {
		return nil, investv1.ChainTransactionAttempt{}, fmt.Errorf("outbox: invalid fees tip=%v cap=%v", fees.Tip, fees.Cap)
	}
	value := call.Value
	if value == nil {
		value = new(big.Int)
	}
	unsigned := types.NewTx(&types.DynamicFeeTx{
		ChainID: o.cfg.ChainID, Nonce: nonce, GasTipCap: fees.Tip, GasFeeCap: fees.Cap,
		Gas: gas, To: call.To, Value: value, Data: call.Data,
	})
	signed, err := o.cfg.Signer.SignTx(ctx, unsigned, o.cfg.ChainID)
	if err != nil {
		return nil, investv1.ChainTransactionAttempt{}, fmt.Errorf("sign: %w", err)
	}
	raw, err := signed.MarshalBinary()
	if err != nil {
		return nil, investv1.ChainTransactionAttempt{}, fmt.Errorf("encode: %w", err)
	}
	return signed, investv1.ChainTransactionAttempt{
		Hash: signed.Hash().Hex(), Raw: hexutil.Encode(raw),
		MaxFeePerGas: fees.Cap.String(), MaxPriorityFeePerGas: fees.Tip.String(),
		Gas:      int64(gas), //nolint:gosec // gas limits are far below 2^63
		SignedAt: metav1.NewTime(o.cfg.Now().UTC()),
	}, nil
}

// Decode returns the signed transaction an attempt recorded.
func Decode(att investv1.ChainTransactionAttempt) (*types.Transaction, error) {
	raw, err := hexutil.Decode(att.Raw)
	if err != nil {
		return nil, fmt.Errorf("attempt %s: raw: %w", att.Hash, err)
	}
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(raw); err != nil {
		return nil, fmt.Errorf("attempt %s: decode: %w", att.Hash, err)
	}
	if tx.Hash().Hex() != common.HexToHash(att.Hash).Hex() {
		return nil, fmt.Errorf("attempt %s: the raw bytes hash to %s", att.Hash, tx.Hash().Hex())
	}
	return tx, nil
}

// benign are node answers to a broadcast that mean the transaction (or one with its nonce)
// is already known, pooled or mined: nothing to do.
var benign = []string{"already known", "known transaction", "nonce too low", "replacement transaction underpriced", "already imported"}

func (o *Outbox) send(ctx context.Context, tx *types.Transaction) error {
	err := o.cfg.Backend.SendTransaction(ctx, tx)
	if err == nil {
		return nil
	}
	msg := strings.ToLower(err.Error())
	for _, b := range benign {
		if strings.Contains(msg, b) {
			return nil
		}
	}
	return err
}

// Broadcast sends every recorded attempt again, as the recorded bytes (a node that knows
// it, or has mined its nonce, answers harmlessly). It is the recovery after a crash between
// recording and broadcasting, and after a reorg dropped a mined attempt.
func (o *Outbox) Broadcast(ctx context.Context, rec *investv1.ChainTransaction) error {
	if err := o.mine(rec); err != nil {
		return err
	}
	var errs []error
	for _, att := range rec.Attempts {
		tx, err := Decode(att)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := o.send(ctx, tx); err != nil {
			errs = append(errs, fmt.Errorf("broadcast %s: %w", att.Hash, err))
		}
	}
	// One attempt accepted is enough: the others share its nonce.
	if len(errs) == len(rec.Attempts) && len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

// mine refuses records of another signer or chain.
func (o *Outbox) mine(rec *investv1.ChainTransaction) error {
	if rec == nil || len(rec.Attempts) == 0 {
		return errors.New("outbox: no recorded transaction")
	}
	if rec.ChainID != o.chainID || !strings.EqualFold(rec.From, o.from.Hex()) {
		return fmt.Errorf("outbox: transaction of %s on chain %d is not this signer's (%s on chain %d)", rec.From, rec.ChainID, o.from.Hex(), o.chainID)
	}
	return nil
}

// Replace signs a new attempt with the recorded nonce and fees at least 12.5% above the
// last attempt's (and at least what the fee policy asks now), has record append it, and
// broadcasts it once recorded. It returns the updated record.
func (o *Outbox) Replace(ctx context.Context, rec *investv1.ChainTransaction, record RecordFunc) (*investv1.ChainTransaction, error) {
	if err := o.mine(rec); err != nil {
		return nil, err
	}
	if len(rec.Attempts) >= maxAttempts {
		return nil, fmt.Errorf("outbox: nonce %d already has %d attempts", rec.Nonce, len(rec.Attempts))
	}
	last := rec.Attempts[len(rec.Attempts)-1]
	prev, err := Decode(last)
	if err != nil {
		return nil, err
	}
	want, err := o.cfg.Fees(ctx, o.cfg.Backend)
	if err != nil {
		return nil, err
	}
	fees := Fees{Tip: bigMax(bump(prev.GasTipCap()), want.Tip), Cap: bigMax(bump(prev.GasFeeCap()), want.Cap)}
	if fees.Cap.Cmp(fees.Tip) < 0 {
		fees.Cap = new(big.Int).Set(fees.Tip)
	}
	call := Call{To: prev.To(), Data: prev.Data(), Value: prev.Value(), Gas: prev.Gas()}
	signed, att, err := o.sign(ctx, prev.Nonce(), call, prev.Gas(), fees)
	if err != nil {
		return nil, err
	}
	next := rec.DeepCopy()
	next.Attempts = append(next.Attempts, att)
	if err := record(ctx, next.DeepCopy()); err != nil {
		return nil, fmt.Errorf("record replacement of nonce %d: %w", rec.Nonce, err)
	}
	o.cfg.Log.Info("replacing a stuck transaction", "nonce", rec.Nonce, "previous", last.Hash, "hash", att.Hash,
		"maxFeePerGas", att.MaxFeePerGas, "maxPriorityFeePerGas", att.MaxPriorityFeePerGas)
	if err := o.send(ctx, signed); err != nil {
		return next, fmt.Errorf("broadcast replacement %s: %w", att.Hash, err)
	}
	return next, nil
}

const maxAttempts = 16

// bump is x + x/8 + 1: above the 10% a node requires of a replacement.
func bump(x *big.Int) *big.Int {
	b := new(big.Int).Rsh(x, 3)
	return b.Add(b, x).Add(b, big.NewInt(1))
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return new(big.Int).Set(b)
}

// State is where a recorded transaction stands on the chain.
type State int

const (
	// Pending: no attempt is mined (yet, or any more after a reorg).
	Pending State = iota
	// Mined: an attempt is in a block with fewer than the wanted confirmations.
	Mined
	// Final: an attempt is in a block with the wanted confirmations; Receipt is set.
	Final
	// NonceTaken: the chain has mined the nonce, but none of the recorded attempts. Someone
	// else signed with the key (or the node lags): a person must look; nothing is re-sent.
	NonceTaken
)

// String names the state.
func (s State) String() string {
	switch s {
	case Pending:
		return "Pending"
	case Mined:
		return "Mined"
	case Final:
		return "Final"
	case NonceTaken:
		return "NonceTaken"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Observation is what Check saw.
type Observation struct {
	State State
	// Hash is the mined attempt (Mined, Final).
	Hash common.Hash
	// BlockNumber and Confirmations of the mined attempt (its block counts as one).
	BlockNumber, Confirmations uint64
	// Succeeded is the mined attempt's receipt status.
	Succeeded bool
	// Revert is the decoded reason of a reverted attempt (Final and not Succeeded), when it
	// could be replayed.
	Revert *chain.RevertError
	// Receipt is what to record once Final.
	Receipt *investv1.ChainReceipt
}

// Check looks up every attempt's receipt; the one mined is the transaction. An attempt
// mined with at least confirmations blocks (minimum 1) is Final, with Receipt filled
// (and the revert decoded when it failed).
func (o *Outbox) Check(ctx context.Context, rec *investv1.ChainTransaction, confirmations uint64) (Observation, error) {
	if err := o.mine(rec); err != nil {
		return Observation{}, err
	}
	confirmations = max(confirmations, 1)
	head, err := o.cfg.Backend.BlockNumber(ctx)
	if err != nil {
		return Observation{}, fmt.Errorf("block number: %w", err)
	}
	for _, att := range rec.Attempts {
		r, err := o.cfg.Backend.TransactionReceipt(ctx, common.HexToHash(att.Hash))
		if errors.Is(err, ethereum.NotFound) {
			continue
		}
		if err != nil {
			return Observation{}, fmt.Errorf("receipt of %s: %w", att.Hash, err)
		}
		if r.BlockNumber == nil || r.BlockNumber.Uint64() > head {
			continue // a block beyond the head we read: look again later
		}
		obs := Observation{
			State: Mined, Hash: r.TxHash, BlockNumber: r.BlockNumber.Uint64(),
			Confirmations: head - r.BlockNumber.Uint64() + 1, Succeeded: r.Status == types.ReceiptStatusSuccessful,
		}
		if obs.Confirmations < confirmations {
			return obs, nil
		}
		obs.State = Final
		o.sawFinal(uint64(rec.Nonce)) //nolint:gosec // recorded nonces are not negative (CRD minimum)
		obs.Receipt = &investv1.ChainReceipt{
			Hash: att.Hash, BlockNumber: int64(obs.BlockNumber), BlockHash: r.BlockHash.Hex(), //nolint:gosec // block numbers are far below 2^63
			Status: investv1.ChainReceiptSucceeded, Confirmations: int64(obs.Confirmations), //nolint:gosec // idem
			At: metav1.NewTime(o.cfg.Now().UTC()),
		}
		if !obs.Succeeded {
			obs.Receipt.Status = investv1.ChainReceiptReverted
			obs.Receipt.RevertReason = "no reason could be read"
			if tx, derr := Decode(att); derr == nil {
				if rev, rerr := chain.RevertOfReceipt(ctx, o.cfg.Backend, tx, r); rerr == nil {
					obs.Revert = rev
					obs.Receipt.RevertReason = truncate(rev.Reason())
				}
			}
		}
		return obs, nil
	}
	// The nonce at the head read above, not at the latest block: a block mined since then
	// may hold this very transaction (its receipt skipped above as beyond the head), and
	// would make it look taken by another.
	atHead, err := o.cfg.Backend.NonceAt(ctx, o.from, new(big.Int).SetUint64(head))
	if err != nil {
		return Observation{}, fmt.Errorf("nonce: %w", err)
	}
	if atHead > uint64(rec.Nonce) { //nolint:gosec // recorded nonces are not negative (CRD minimum)
		return Observation{State: NonceTaken}, nil
	}
	return Observation{State: Pending}, nil
}

func truncate(s string) string {
	if len(s) > 1024 {
		return s[:1021] + "..."
	}
	return s
}

// Track is what an owner calls on every reconcile of a recorded transaction: it checks the
// chain; while no attempt is mined it broadcasts the recorded attempts again (a crash may
// have come between recording and broadcasting, a reorg may have dropped the block), and
// once the last attempt has waited StuckAfter it replaces it (record is called with the
// appended attempt first). While the chain is behind the records (Health not InSync), a
// last attempt that no block would include now is replaced at once: after a rollback the
// chain is back at a block whose base fee may be far above the one the transaction was
// priced at, and the transactions above it wait for it. No block includes it when its fee
// cap is below the base fee, and none when the tip it still pays above the base fee
// (min(tip, cap − base fee)) is below the tip the fee policy asks now: block producers
// skip transactions under their minimum tip (geth's miner.gasprice, Polygon's 25 gwei),
// so a cap a few wei above the base fee waits as long as a cap below it. The owner records
// obs.Receipt when obs.State is Final.
func (o *Outbox) Track(ctx context.Context, rec *investv1.ChainTransaction, confirmations uint64, record RecordFunc) (Observation, *investv1.ChainTransaction, error) {
	obs, err := o.Check(ctx, rec, confirmations)
	if err != nil || obs.State != Pending {
		return obs, rec, err
	}
	last := rec.Attempts[len(rec.Attempts)-1]
	stuck := o.cfg.Now().Sub(last.SignedAt.Time) >= o.cfg.StuckAfter
	if !stuck && o.Health().State != InSync {
		if stuck, err = o.underpriced(ctx, last); err != nil {
			return obs, rec, err
		}
	}
	if stuck && len(rec.Attempts) < maxAttempts {
		next, err := o.Replace(ctx, rec, record)
		if next != nil {
			rec = next
		}
		if err != nil {
			return obs, rec, err
		}
	}
	return obs, rec, o.Broadcast(ctx, rec)
}

// underpriced reports whether no block would include att now: its fee cap is below the
// latest block's base fee, or the tip it pays above that base fee is below the tip the fee
// policy asks for a new transaction (what block producers take at least).
func (o *Outbox) underpriced(ctx context.Context, att investv1.ChainTransactionAttempt) (bool, error) {
	tx, err := Decode(att)
	if err != nil {
		return false, err
	}
	head, err := o.cfg.Backend.HeaderByNumber(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("latest header: %w", err)
	}
	if head.BaseFee == nil {
		return false, nil
	}
	if tx.GasFeeCap().Cmp(head.BaseFee) < 0 {
		return true, nil
	}
	want, err := o.cfg.Fees(ctx, o.cfg.Backend)
	if err != nil {
		return false, err
	}
	return EffectiveTip(tx, head.BaseFee).Cmp(want.Tip) < 0, nil
}

// EffectiveTip is what tx pays its block's producer per gas at baseFee: its tip, or what
// its fee cap leaves above the base fee when that is less (EIP-1559).
func EffectiveTip(tx *types.Transaction, baseFee *big.Int) *big.Int {
	left := new(big.Int).Sub(tx.GasFeeCap(), baseFee)
	if left.Cmp(tx.GasTipCap()) < 0 {
		return left
	}
	return new(big.Int).Set(tx.GasTipCap())
}

// StuckAfter is the configured wait before a replacement.
func (o *Outbox) StuckAfter() time.Duration { return o.cfg.StuckAfter }
