// Package delivery is the chain agent: the token side of settlement on a real EVM chain.
// For a BUY at EXECUTED it mints the units to the order's wallet, for a SELL at EXECUTED
// it burns them from the holder's wallets, each through the transaction outbox
// (internal/chain/outbox): the signed transaction is recorded in the order's status.chain
// before it is broadcast, the same bytes are broadcast again after a restart, and the
// evidence (deliveryInitiated with the mint's hash, deliveryCompleted once it has the
// configured confirmations, tokensBurned once the burn has them) is recorded as any
// settlement agent records it. A transaction the chain refuses (before sending) or reverts
// is reported on the order (the order controller marks it Stalled) and never re-sent as a
// new transaction.
package delivery

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/lifecycle/facts"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/predicates"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// Name is the agent's name: recordedBy of its evidence, and the controller "settlement-chain".
const Name = "chain"

// Event reasons of the chain agent (besides the settlement evidence events).
const (
	ReasonTransactionRecorded = "TokenTransactionRecorded"
	ReasonTransactionRefused  = "TokenTransactionRefused"
	ReasonTransactionReverted = "TokenTransactionReverted"
	ReasonTransactionReplaced = "TokenTransactionReplaced"
	ReasonNonceTaken          = "TokenTransactionNonceTaken"
	// ReasonRecoveredFromChain: the order's mint or burn was found applied on chain (its
	// effect reference) although no record said so; the chain's evidence is recorded.
	ReasonRecoveredFromChain = "TokenTransactionRecoveredFromChain"
)

// Reconciler is the chain agent.
type Reconciler struct {
	// Client reads orders and wallets from the cache and patches order status.
	Client client.Client
	// Live reads the account's orders uncached when planning a burn.
	Live client.Reader
	// Chain is what a burn plan reads of the chain (balances at the confirmed block, the
	// receipts of other sells' burns); nil: Backend.
	Chain ChainReader
	// Outbox signs, has the order record, and broadcasts.
	Outbox *outbox.Outbox
	// Tokens finds a share class's token.
	Tokens agent.TokenLookup
	// Confirmations a mint or burn needs before it is final (at least 1).
	Confirmations uint64
	// Poll is how often an order waiting for blocks is looked at again; zero means 2s.
	Poll time.Duration
	// RetryRefused is how soon a refused transaction is checked again; zero means 1 minute.
	RetryRefused time.Duration
	// MaxConcurrentReconciles is how many orders are handled at once; zero means 4. The
	// outbox serialises only nonce allocation, signing and recording.
	MaxConcurrentReconciles int
	// Recorder emits Events; nil emits none (SetupWithManager fills it).
	Recorder events.EventRecorder
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// BatchSize is the most BUY orders (of one namespace and share class) minted in one
	// batchMint; 1 or less mints each order on its own (see batch.go).
	BatchSize int
	// BatchWindow is how long the first order of a batch waits for more; zero means
	// DefaultBatchWindow.
	BatchWindow time.Duration
	// InitiateAfter is how long a batch's transaction may take to be final before its
	// members record it and deliveryInitiated ahead of the receipt; zero means
	// DefaultInitiateAfter.
	InitiateAfter time.Duration
	// Backend is the chain, for a batch's pre-flight estimate before anything is created
	// (and the burn plans' reads when Chain is nil); nil: the batch is checked only by the
	// outbox's estimate when it is signed.
	Backend outbox.Backend

	batch    *batchState
	pairings pairingCache // recorded books of matching windows replayed (secondary.go)
	accounts sync.Map     // account key → *sync.Mutex: one burn plan at a time per account
}

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=funds;shareclasses;accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile settles the token step the order waits for.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	o := &investv1.Order{}
	if err := r.Client.Get(ctx, req.NamespacedName, o); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !o.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	step, ok := lifecycle.NextStep(o)
	if !ok || lifecycle.SideOf(o, step) != lifecycle.TokenSide {
		return ctrl.Result{}, nil
	}
	if c := o.Status.Chain; c != nil && c.Batch != "" && c.Recovered == nil {
		// Claimed by a DeliveryBatch: its reconciler mints it in the batch's transaction
		// and records the evidence; it is never minted on its own. (A member whose mint
		// the batch found applied on chain is tracked here, with the transaction that
		// applied it.)
		return ctrl.Result{}, nil
	}
	ctx = ctrl.LoggerInto(ctx, ctrl.LoggerFrom(ctx).WithValues("step", step))
	switch step {
	case lifecycle.StepUnitsDelivered, lifecycle.StepPaymentSent, lifecycle.StepPaymentCompleted:
		// A SELL's units delivered; with cash on chain its payout is in the same swaps.
		return r.unitsDelivered(ctx, o)
	case lifecycle.StepPaymentReceived:
		return r.escrowed(ctx, o)
	case lifecycle.StepResidualRefundSent, lifecycle.StepResidualRefundCompleted:
		return r.residualReturned(ctx, o)
	case lifecycle.StepRefundSent, lifecycle.StepRefundCompleted:
		return r.refundEscrow(ctx, o, step)
	}
	var tx *investv1.ChainTransaction
	if o.Status.Chain != nil {
		tx = o.Status.Chain.Transaction
	}
	if tx == nil {
		if step == lifecycle.StepDeliveryCompleted {
			// Delivery initiated by someone else (by hand, or before a chain was
			// configured): there is no transaction of ours to confirm.
			ctrl.LoggerFrom(ctx).Info("delivery initiated without a recorded chain transaction; not settled by the chain agent")
			return ctrl.Result{}, nil
		}
		if step == lifecycle.StepDeliveryInitiated && r.batching() {
			// A live DeliveryBatch that holds the order sends it and records its evidence.
			if holder, err := r.heldBy(ctx, o); err != nil {
				return ctrl.Result{}, err
			} else if holder != "" {
				return ctrl.Result{RequeueAfter: 2*r.batchWindow() + r.poll()}, nil
			}
		}
		return r.send(ctx, o, step)
	}
	if tx.Receipt != nil {
		// Final: a success recorded its evidence with the receipt; a revert stays (Stalled).
		return ctrl.Result{}, nil
	}
	return r.track(ctx, o, step, tx)
}

// send builds the order's mint or burn and has the outbox record and broadcast it.
func (r *Reconciler) send(ctx context.Context, o *investv1.Order, step lifecycle.Step) (ctrl.Result, error) {
	tok, err := r.Tokens.Token(ctx, o.Namespace, o.Spec.ISIN)
	if err != nil {
		if errors.Is(err, agent.ErrNoToken) {
			return r.refuse(ctx, o, fmt.Sprintf("NoToken: the share class %s has no token on chain %d", o.Spec.ISIN, r.Outbox.ChainID()))
		}
		return ctrl.Result{}, fmt.Errorf("token of %s: %w", o.Spec.ISIN, err)
	}
	if tok.ChainID != r.Outbox.ChainID() {
		return ctrl.Result{}, fmt.Errorf("the token of %s is on chain %d, the agent signs for chain %d", o.Spec.ISIN, tok.ChainID, r.Outbox.ChainID())
	}
	// The effect reference: before anything new is signed, the chain is asked whether the
	// effect was applied already (the records may have fallen behind the chain).
	ref := orderRef(o, step)
	refs, err := r.Outbox.EffectRefs(ctx, tok.Address)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("effect references of the token %s: %w", tok.Address.Hex(), err)
	}
	if refs {
		if res, done, err := r.lookUp(ctx, o, step, tok, ref); done || err != nil {
			return res, err
		}
	} else if behind := r.Outbox.RecordsBehind(); behind != "" {
		return r.refuse(ctx, o, fmt.Sprintf("RecordsBehindChain: %s; the token %s has no effect references, so the agent cannot tell whether this order's %s was applied: nothing is signed for it (docs/tokens.md, When the records fall behind the chain)", behind, tok.Address.Hex(), what(step)))
	}
	abi := contracts.NewShareToken()
	var (
		data      []byte
		recipient string
		burns     []investv1.OrderBurn
		to        = tok.Address // the share token, or the settlement contract of a swap
	)
	switch {
	case step == lifecycle.StepDeliveryInitiated && lifecycle.Secondary(o):
		if !refs {
			return r.refuse(ctx, o, fmt.Sprintf("NoSettlement: the token %s has no effect references, so it has no settleWithRef: a SECONDARY trade cannot be settled on it", tok.Address.Hex()))
		}
		addr, err := r.walletAddress(ctx, o.Namespace, deliveryWallet(o))
		if err != nil {
			return r.refuse(ctx, o, err.Error())
		}
		recipient = addr.Hex()
		if lifecycle.CashOnChain(o) {
			// Delivery versus payment in one transaction: the settlement contract's swap.
			var until *metav1.Time
			if until, err = r.decideLockedUntil(ctx, o, tok); err != nil {
				return patch.Retry(ctx, err, "record the release time of the units' lock-up")
			}
			if to, data, err = r.swap(ctx, o, tok, ref, addr, releaseTime(until)); err != nil {
				var short *settleError
				if errors.As(err, &short) {
					return r.refuse(ctx, o, short.Error())
				}
				return ctrl.Result{}, err
			}
			break
		}
		if r.batching() && r.hold(o, tok) {
			// Settled in a batch settlement, or handed back to be settled on its own.
			return ctrl.Result{RequeueAfter: 2*r.batchWindow() + r.poll()}, nil
		}
		from, amounts, _, err := r.settlementLegs(ctx, o)
		if err != nil {
			var short *settleError
			if errors.As(err, &short) {
				return r.refuse(ctx, o, short.Error())
			}
			return ctrl.Result{}, err
		}
		until, err := r.decideLockedUntil(ctx, o, tok)
		if err != nil {
			return patch.Retry(ctx, err, "record the release time of the units' lock-up")
		}
		data = abi.PackSettleWithRef(ref, from, addr, amounts, releaseTime(until))
	case step == lifecycle.StepDeliveryInitiated:
		if r.batching() && r.hold(o, tok) {
			// The batch former mints it in a batch, or hands it back (wake) to be minted
			// on its own; the requeue is only a safety net.
			return ctrl.Result{RequeueAfter: 2*r.batchWindow() + r.poll()}, nil
		}
		addr, err := r.walletAddress(ctx, o.Namespace, deliveryWallet(o))
		if err != nil {
			return r.refuse(ctx, o, err.Error())
		}
		recipient = addr.Hex()
		until, err := r.decideLockedUntil(ctx, o, tok)
		if err != nil {
			return patch.Retry(ctx, err, "record the release time of the units' lock-up")
		}
		switch {
		case refs && until != nil:
			data = abi.PackMintLockedWithRef(ref, addr, big.NewInt(lifecycle.Units(o)), releaseTime(until))
		case refs:
			data = abi.PackMintWithRef(ref, addr, big.NewInt(lifecycle.Units(o)))
		case until != nil:
			data = abi.PackMintLocked(addr, big.NewInt(lifecycle.Units(o)), releaseTime(until))
		default:
			data = abi.PackMint(addr, big.NewInt(lifecycle.Units(o)))
		}
	case step == lifecycle.StepTokensBurned:
		unlock := r.lockAccount(o)
		defer unlock()
		burns, err = r.planBurns(ctx, o, tok)
		if err != nil {
			var short *shortError
			if errors.As(err, &short) {
				return r.refuse(ctx, o, short.Error())
			}
			return ctrl.Result{}, err
		}
		data = packBurns(abi, burns, ref, refs)
	default:
		return ctrl.Result{}, nil
	}

	before := o.DeepCopy()
	var lockedUntil *metav1.Time
	if o.Status.Chain != nil {
		lockedUntil = o.Status.Chain.LockedUntil
	}
	rec, err := r.Outbox.Send(ctx, outbox.Call{To: &to, Data: data}, func(ctx context.Context, tx *investv1.ChainTransaction) error {
		o.Status.Chain = &investv1.OrderChainStatus{Token: tok.Address.Hex(), Recipient: recipient, Transaction: tx, Burns: burns, LockedUntil: lockedUntil}
		return patch.Status(ctx, r.Client, o, before)
	})
	if rev, isRevert := chain.AsRevert(err); isRevert {
		if refs && chain.IsEffectApplied(rev) {
			// Applied between the look-up and the estimate (another signer, a write lost):
			// the chain's evidence, never a new transaction.
			if res, done, err := r.lookUp(ctx, before, step, tok, ref); done || err != nil {
				return res, err
			}
			return ctrl.Result{}, fmt.Errorf("the token refused the %s with %s, but no transaction applying it was found", what(step), rev.Reason())
		}
		return r.refuse(ctx, o, rev.Reason())
	}
	res, stop, sendErr := outbox.Unsent(ctx, rec, err, string(step))
	if stop {
		return res, sendErr
	}
	r.event(o, corev1.EventTypeNormal, ReasonTransactionRecorded, "Record",
		"recorded %s transaction %s (nonce %d) on token %s before broadcasting", what(step), rec.Attempts[0].Hash, rec.Nonce, tok.Address.Hex())
	if err != nil { // recorded, its broadcast failed (logged): Track broadcasts it again
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	if step == lifecycle.StepDeliveryInitiated {
		return r.record(ctx, o, step, rec.Attempts[0].Hash, nil)
	}
	return ctrl.Result{RequeueAfter: r.poll()}, nil
}

// decideLockedUntil returns the release time of a BUY's units: the one recorded in
// status.chain.lockedUntil, or, for a share class with a lock-up and none recorded yet, now
// plus the lock-up in days (whole seconds), which it records first (optimistic locking) so
// that every later signing, after a crash too, uses the same instant. Nil: minted unlocked.
func (r *Reconciler) decideLockedUntil(ctx context.Context, o *investv1.Order, tok agent.Token) (*metav1.Time, error) {
	if c := o.Status.Chain; c != nil && c.LockedUntil != nil {
		return c.LockedUntil, nil
	}
	if tok.LockUpDays <= 0 {
		return nil, nil
	}
	t := metav1.NewTime(r.now().UTC().Truncate(time.Second).AddDate(0, 0, int(tok.LockUpDays)))
	before := o.DeepCopy()
	if o.Status.Chain == nil {
		o.Status.Chain = &investv1.OrderChainStatus{}
	}
	o.Status.Chain.LockedUntil = &t
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return nil, err
	}
	return &t, nil
}

// releaseTime is a recorded release time as the token compares it with block.timestamp.
func releaseTime(t *metav1.Time) uint64 {
	if t == nil || t.Unix() <= 0 {
		return 0
	}
	return uint64(t.Unix()) //nolint:gosec // positive, checked above
}

// track follows a recorded transaction until it is final, broadcasting it again (same
// bytes) while it is not mined, and replacing it with higher fees when it is stuck.
func (r *Reconciler) track(ctx context.Context, o *investv1.Order, step lifecycle.Step, tx *investv1.ChainTransaction) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	n := len(tx.Attempts)
	obs, cur, err := r.Outbox.Track(ctx, tx, r.Confirmations, func(ctx context.Context, next *investv1.ChainTransaction) error {
		before := o.DeepCopy()
		o.Status.Chain.Transaction = next
		return patch.Status(ctx, r.Client, o, before)
	})
	if cur != nil && len(cur.Attempts) > n {
		last := cur.Attempts[len(cur.Attempts)-1]
		r.event(o, corev1.EventTypeNormal, ReasonTransactionReplaced, "Replace",
			"%s transaction (nonce %d) not mined after %s: replaced by %s with maxFeePerGas %s wei", what(step), cur.Nonce, r.Outbox.StuckAfter(), last.Hash, last.MaxFeePerGas)
	}
	if err != nil {
		if apierrors.IsConflict(err) {
			return ctrl.Result{RequeueAfter: patch.ConflictRetry}, nil
		}
		log.Error(err, "tracking the recorded transaction; trying again", "nonce", tx.Nonce)
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	if obs.State == outbox.NonceTaken {
		// Before the delivery is initiated too: its hash would name a transaction that
		// cannot be mined any more.
		return r.nonceTaken(ctx, o, step, tx.Nonce)
	}
	if o.Status.Chain.NonceTaken != nil {
		// A recorded attempt is pending or mined after all (the node lagged, or a reorg
		// dropped the other transaction).
		before := o.DeepCopy()
		o.Status.Chain.NonceTaken = nil
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return patch.Retry(ctx, err, "clear nonceTaken")
		}
	}
	if step == lifecycle.StepDeliveryInitiated {
		// Recorded and (again) broadcast: the delivery is initiated with the first attempt.
		return r.record(ctx, o, step, tx.Attempts[0].Hash, nil)
	}
	switch obs.State {
	case outbox.Pending, outbox.Mined:
		log.V(1).Info("waiting for confirmations", "state", obs.State, "confirmations", obs.Confirmations)
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	// Final.
	if obs.Receipt.Status == investv1.ChainReceiptReverted {
		// EffectAlreadyApplied, read from the revert; or, when the node gives no reason
		// (re-executing a mined transaction may fail), the token showing the effect
		// applied by another transaction, which is the same fact.
		elsewhere := obs.Revert != nil && chain.IsEffectApplied(obs.Revert)
		if !elsewhere {
			var err error
			if elsewhere, err = r.appliedByAnother(ctx, o, step, obs.Receipt); err != nil {
				return ctrl.Result{}, err
			}
		}
		if elsewhere {
			return r.appliedElsewhere(ctx, o, step, obs.Receipt)
		}
	}
	if obs.Receipt.Status == investv1.ChainReceiptReverted {
		before := o.DeepCopy()
		o.Status.Chain.Transaction.Receipt = obs.Receipt
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return patch.Retry(ctx, err, "record the reverted receipt")
		}
		r.event(o, corev1.EventTypeWarning, ReasonTransactionReverted, "Track",
			"%s transaction %s reverted in block %d: %s; it is not re-sent", what(step), obs.Receipt.Hash, obs.Receipt.BlockNumber, obs.Receipt.RevertReason)
		return ctrl.Result{}, nil
	}
	return r.record(ctx, o, step, obs.Receipt.Hash, obs.Receipt)
}

// record writes the step's evidence (and the final receipt, when given) in one patch.
func (r *Reconciler) record(ctx context.Context, o *investv1.Order, step lifecycle.Step, hash string, receipt *investv1.ChainReceipt) (ctrl.Result, error) {
	if step == lifecycle.StepRefundSent && lifecycle.CashOnChain(o) {
		// The escrow's refund, final: sent and arrived in the same transaction.
		var block int64
		if receipt != nil {
			block = receipt.BlockNumber
		}
		return r.recordPaidWith(ctx, o, []lifecycle.Step{lifecycle.StepRefundSent, lifecycle.StepRefundCompleted}, hash, block, receipt,
			"the settlement contract %s returned the escrow %s to its payer", o.Spec.Quote.CashOnChain.Settlement, o.Spec.Quote.CashOnChain.EscrowReference)
	}
	before := o.DeepCopy()
	rec := investv1.SettlementRecord{TransactionHash: hash, At: metav1.NewTime(r.now().UTC().Truncate(time.Second)), RecordedBy: Name}
	if !lifecycle.Record(o, step, rec) {
		return ctrl.Result{}, nil
	}
	if receipt != nil {
		o.Status.Chain.Transaction.Receipt = receipt
	}
	moves, err := r.follow(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "record "+string(step)+" evidence")
	}
	ctrl.LoggerFrom(ctx).Info("recorded settlement evidence", "transactionHash", hash, "moves", len(moves), "state", o.Status.State)
	r.evidenceEvent(o, step, before.Status.State, moves, "%s recorded %s evidence in transaction %s", Name, step, hash)
	if step == lifecycle.StepDeliveryInitiated {
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	if step == lifecycle.StepDeliveryCompleted {
		r.wakeSells(ctx, o)
	}
	return ctrl.Result{}, nil
}

// refuse records that the chain refuses the order's transaction before anything was sent
// (the order controller reports it as Stalled) and looks again after RetryRefused.
func (r *Reconciler) refuse(ctx context.Context, o *investv1.Order, reason string) (ctrl.Result, error) {
	reason = truncate(reason)
	ctrl.LoggerFrom(ctx).Info("the chain refuses the order's transaction; nothing was sent", "reason", reason)
	if c := o.Status.Chain; c == nil || c.Refused == nil || c.Refused.Reason != reason {
		before := o.DeepCopy()
		if o.Status.Chain == nil {
			o.Status.Chain = &investv1.OrderChainStatus{}
		}
		o.Status.Chain.Refused = &investv1.ChainRefusal{Reason: reason, At: metav1.NewTime(r.now().UTC().Truncate(time.Second))}
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return patch.Retry(ctx, err, "record the refusal")
		}
		r.event(o, corev1.EventTypeWarning, ReasonTransactionRefused, "Send", "the chain refuses the transaction: %s; nothing was sent", reason)
	}
	return ctrl.Result{RequeueAfter: r.retryRefused()}, nil
}

// nonceTaken records that the recorded transaction's nonce was mined by a transaction that
// is none of its attempts (the order controller reports it as Stalled); nothing is re-sent.
// The agent looks again after RetryRefused.
func (r *Reconciler) nonceTaken(ctx context.Context, o *investv1.Order, step lifecycle.Step, nonce int64) (ctrl.Result, error) {
	ctrl.LoggerFrom(ctx).Info("the recorded transaction's nonce was mined by a transaction not recorded here; nothing is re-sent", "nonce", nonce)
	if c := o.Status.Chain; c.NonceTaken == nil || c.NonceTaken.Nonce != nonce {
		before := o.DeepCopy()
		o.Status.Chain.NonceTaken = &investv1.ChainNonceTaken{Nonce: nonce, At: metav1.NewTime(r.now().UTC().Truncate(time.Second))}
		if err := patch.Status(ctx, r.Client, o, before); err != nil {
			return patch.Retry(ctx, err, "record nonceTaken")
		}
		r.event(o, corev1.EventTypeWarning, ReasonNonceTaken, "Track",
			"nonce %d of the %s transaction: a transaction not recorded here was mined with this nonce: was the agent key used elsewhere? Nothing is re-sent", nonce, what(step))
	}
	return ctrl.Result{RequeueAfter: r.retryRefused()}, nil
}

// deliveryWallet is the wallet a BUY delivers to: its own choice, else the one resolved at
// placement.
func deliveryWallet(o *investv1.Order) investv1.ObjectID {
	if o.Spec.WalletID != "" {
		return o.Spec.WalletID
	}
	if o.Spec.Quote != nil {
		return o.Spec.Quote.WalletID
	}
	return ""
}

func (r *Reconciler) walletAddress(ctx context.Context, ns string, id investv1.ObjectID) (common.Address, error) {
	if id == "" {
		return common.Address{}, errors.New("the order names no wallet")
	}
	w := &investv1.Wallet{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: string(id)}, w); err != nil {
		if apierrors.IsNotFound(err) {
			return common.Address{}, fmt.Errorf("wallet %s not found", id)
		}
		return common.Address{}, err
	}
	if !common.IsHexAddress(w.Spec.WalletAddress) {
		return common.Address{}, fmt.Errorf("wallet %s has no valid address", id)
	}
	return common.HexToAddress(w.Spec.WalletAddress), nil
}

func (r *Reconciler) lockAccount(o *investv1.Order) func() {
	m, _ := r.accounts.LoadOrStore(o.Namespace+"/"+string(o.Spec.AccountID), &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// ChainReader is what a burn plan reads of the chain: the head, balances at a block and
// the receipts of other sells' burns.
type ChainReader interface {
	ethereum.BlockNumberReader
	ethereum.ContractCaller
	ethereum.TransactionReader
}

// shortError says the account's wallets hold fewer units on chain than the sell burns.
type shortError struct {
	want, held, burning int64
	block               uint64
}

func (e *shortError) Error() string {
	return fmt.Sprintf("InsufficientTokens: the sell burns %d units, the account's registered wallets hold %d on chain at block %d, %d of them being burned by other sells",
		e.want, e.held, e.block, e.burning)
}

// planBurns decides the wallets a SELL burns from (see BurnPlan) from the chain: the
// balances of the account's registered wallets at the confirmed block (head −
// Confirmations + 1, as the ledger reads them), less what the account's other sells
// (read uncached) recorded burning from them that is not mined by that block. An address
// another account also registered is never burned from.
func (r *Reconciler) planBurns(ctx context.Context, o *investv1.Order, tok agent.Token) ([]investv1.OrderBurn, error) {
	rd := r.chainReader()
	if rd == nil {
		return nil, errors.New("the chain agent has no chain reader")
	}
	var wallets investv1.WalletList
	if err := r.Client.List(ctx, &wallets); err != nil {
		return nil, fmt.Errorf("list wallets: %w", err)
	}
	account := o.Namespace + "/" + string(o.Spec.AccountID)
	head, err := rd.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("block number: %w", err)
	}
	at := ConfirmedBlock(head, r.Confirmations)
	block := new(big.Int).SetUint64(at)
	abi := contracts.NewShareToken()
	in := BurnInput{Units: lifecycle.Units(o), Block: at, First: r.firstWallet(ctx, o)}
	// Registered wallets of the account whose address no other account registered
	// (rules.BurnableWallets: the ledger's on-chain figures, which placement checks a SELL
	// against, count the same wallets).
	for _, w := range rules.BurnableWallets(wallets.Items)[account] {
		if !common.IsHexAddress(w.Spec.WalletAddress) {
			continue
		}
		addr := common.HexToAddress(w.Spec.WalletAddress)
		// The unlocked units: a SELL sells only what its lock-up has released (placement's
		// rule), so it burns only those, and units still locked on chain stay where they are
		// (locks end by time alone, so what is unlocked at the block stays unlocked).
		out, err := rd.CallContract(ctx, ethereum.CallMsg{To: &tok.Address, Data: abi.PackUnlockedBalanceOf(addr)}, block)
		if err != nil {
			return nil, fmt.Errorf("unlockedBalanceOf(%s) at block %d: %w", addr.Hex(), at, chain.DecodeError(err))
		}
		bal, err := abi.UnpackUnlockedBalanceOf(out)
		if err != nil {
			return nil, fmt.Errorf("unlockedBalanceOf(%s): %w", addr.Hex(), err)
		}
		if !bal.IsInt64() {
			return nil, fmt.Errorf("unlockedBalanceOf(%s) = %s does not fit in int64", addr.Hex(), bal)
		}
		in.Wallets = append(in.Wallets, BurnWallet{ID: investv1.ObjectID(w.Name), Address: addr.Hex(), Balance: bal.Int64()})
	}
	burning, err := r.burning(ctx, o, tok, at)
	if err != nil {
		return nil, err
	}
	in.Burning = burning
	return BurnPlan(in)
}

// burning is what the account's other live sells of the token recorded burning and the
// chain has not mined by block at (a burn whose transaction is recorded, not reverted, and
// not mined at or below at), read uncached so that a burn recorded a moment ago counts.
func (r *Reconciler) burning(ctx context.Context, o *investv1.Order, tok agent.Token, at uint64) ([]investv1.OrderBurn, error) {
	reader := r.Live
	if reader == nil {
		reader = r.Client
	}
	opts := []client.ListOption{client.InNamespace(o.Namespace)}
	if reader == r.Client {
		opts = append(opts, client.MatchingFields{index.OrderAccount: string(o.Spec.AccountID)})
	}
	var list investv1.OrderList
	if err := reader.List(ctx, &list, opts...); err != nil {
		return nil, fmt.Errorf("list the account's orders: %w", err)
	}
	var out []investv1.OrderBurn
	for i := range list.Items {
		s := &list.Items[i]
		c := s.Status.Chain
		if s.Name == o.Name || s.Spec.AccountID != o.Spec.AccountID || s.Spec.Side != investv1.SideSell ||
			c == nil || c.Transaction == nil || len(c.Burns) == 0 || !strings.EqualFold(c.Token, tok.Address.Hex()) {
			continue
		}
		mined, err := r.minedBy(ctx, c.Transaction, at)
		if err != nil {
			return nil, err
		}
		if !mined {
			out = append(out, c.Burns...)
		}
	}
	return out, nil
}

// minedBy says whether a recorded transaction is reflected in the balances at block at:
// mined at or below it, or reverted (then it burned nothing, whenever it was mined).
func (r *Reconciler) minedBy(ctx context.Context, tx *investv1.ChainTransaction, at uint64) (bool, error) {
	if rc := tx.Receipt; rc != nil {
		return rc.Status == investv1.ChainReceiptReverted || (rc.BlockNumber >= 0 && uint64(rc.BlockNumber) <= at), nil
	}
	for _, a := range tx.Attempts {
		rc, err := r.chainReader().TransactionReceipt(ctx, common.HexToHash(a.Hash))
		if errors.Is(err, ethereum.NotFound) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("receipt of %s: %w", a.Hash, err)
		}
		// Mined but not final: a revert may still be undone by a reorg, so only a mined
		// success at or below at counts as burned; anything else is still being burned.
		return rc.Status == types.ReceiptStatusSuccessful && rc.BlockNumber != nil && rc.BlockNumber.Uint64() <= at, nil
	}
	return false, nil
}

// firstWallet is the wallet a sell burns from first: the one it names, else the account's
// primary wallet.
func (r *Reconciler) firstWallet(ctx context.Context, o *investv1.Order) investv1.ObjectID {
	if o.Spec.WalletID != "" {
		return o.Spec.WalletID
	}
	acct := &investv1.Account{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.AccountID)}, acct); err == nil && acct.Spec.PrimaryWallet != "" {
		return investv1.ObjectID(acct.Spec.PrimaryWallet)
	}
	if o.Spec.Quote != nil {
		return o.Spec.Quote.WalletID
	}
	return ""
}

func (r *Reconciler) chainReader() ChainReader {
	if r.Chain != nil {
		return r.Chain
	}
	if r.Backend != nil {
		return r.Backend
	}
	return nil
}

// ConfirmedBlock is the newest block whose transactions have confirmations blocks (its
// own included) at head: head − confirmations + 1, or head for one confirmation or none.
func ConfirmedBlock(head, confirmations uint64) uint64 {
	if confirmations > 1 && head+1 >= confirmations {
		return head + 1 - confirmations
	}
	return head
}

// BurnWallet is a wallet a SELL may burn from: a registered wallet of the sell's account
// whose address no other account registered, with its balance of the token at the
// confirmed block.
type BurnWallet struct {
	ID      investv1.ObjectID
	Address string
	Balance int64
}

// BurnInput is what BurnPlan decides from.
type BurnInput struct {
	// Wallets are the account's wallets the sell may burn from.
	Wallets []BurnWallet
	// Burning are the burns other sells of the account recorded that are not mined by Block.
	Burning []investv1.OrderBurn
	// First is the wallet burned from first (the sell's own, else the account's primary).
	First investv1.ObjectID
	// Units the sell burns.
	Units int64
	// Block the balances were read at.
	Block uint64
}

// BurnPlan decides which wallets a SELL burns its units from, from what the chain says:
// each wallet's balance at the confirmed block less what other sells of the account are
// burning from it and the chain has not mined by then. It burns from the first wallet
// (the sell's own, else the account's primary) first, then from the largest remaining
// balance, then by wallet id, so a sell touches as few wallets as possible. It fails with
// an InsufficientTokens error naming the figures when the wallets hold fewer units.
func BurnPlan(in BurnInput) ([]investv1.OrderBurn, error) {
	burning := map[common.Address]int64{}
	var burningTotal int64
	for _, b := range in.Burning {
		burning[common.HexToAddress(b.Address)] += b.Units
	}
	type wallet struct {
		BurnWallet
		free int64
	}
	ws := make([]wallet, 0, len(in.Wallets))
	var held, total int64
	for _, w := range in.Wallets {
		addr := common.HexToAddress(w.Address)
		b := min(burning[addr], w.Balance)
		burningTotal += b
		held += w.Balance
		free := w.Balance - b
		if free > 0 {
			ws = append(ws, wallet{BurnWallet: BurnWallet{ID: w.ID, Address: addr.Hex(), Balance: w.Balance}, free: free})
			total += free
		}
	}
	if total < in.Units {
		return nil, &shortError{want: in.Units, held: held, burning: burningTotal, block: in.Block}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		a, b := ws[i], ws[j]
		if (in.First != "" && a.ID == in.First) != (in.First != "" && b.ID == in.First) {
			return a.ID == in.First
		}
		if a.free != b.free {
			return a.free > b.free
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Address < b.Address
	})
	want := in.Units
	var plan []investv1.OrderBurn
	for _, w := range ws {
		if want == 0 {
			break
		}
		take := min(w.free, want)
		want -= take
		plan = append(plan, investv1.OrderBurn{WalletID: w.ID, Address: w.Address, Units: take})
	}
	return plan, nil
}

func packBurns(abi *contracts.ShareToken, burns []investv1.OrderBurn, ref [32]byte, refs bool) []byte {
	if refs {
		addrs := make([]common.Address, len(burns))
		units := make([]*big.Int, len(burns))
		for i, b := range burns {
			addrs[i], units[i] = common.HexToAddress(b.Address), big.NewInt(b.Units)
		}
		return abi.PackBurnWithRef(ref, addrs, units)
	}
	if len(burns) == 1 {
		return abi.PackBurn(common.HexToAddress(burns[0].Address), big.NewInt(burns[0].Units))
	}
	addrs := make([]common.Address, len(burns))
	units := make([]*big.Int, len(burns))
	for i, b := range burns {
		addrs[i], units[i] = common.HexToAddress(b.Address), big.NewInt(b.Units)
	}
	return abi.PackBatchBurn(addrs, units)
}

func what(step lifecycle.Step) string {
	switch step {
	case lifecycle.StepTokensBurned:
		return "burn"
	case lifecycle.StepUnitsDelivered:
		return "transfer"
	}
	return "mint"
}

func truncate(s string) string {
	if len(s) > 1024 {
		return s[:1021] + "..."
	}
	return s
}

func (r *Reconciler) event(o *investv1.Order, typ, reason, action, format string, args ...any) {
	if r.Recorder != nil {
		r.Recorder.Eventf(o, nil, typ, reason, action, format, args...)
	}
}

// follow applies to o, beside the evidence just recorded in it, the moves that evidence
// unlocks (facts.Follow), so that evidence and moves take one status write.
func (r *Reconciler) follow(ctx context.Context, o *investv1.Order) ([]*lifecycle.Transition, error) {
	return facts.Follow(ctx, r.Client, o, r.now())
}

// evidenceEvent emits the one Event of a write that recorded step's evidence (described by
// format and args) and the moves it unlocked, from state from.
func (r *Reconciler) evidenceEvent(o *investv1.Order, step lifecycle.Step, from investv1.OrderState, moves []*lifecycle.Transition, format string, args ...any) {
	kind, reason, note := lifecycle.EvidenceEvent(step, fmt.Sprintf(format, args...), from, moves)
	r.event(o, kind, reason, "RecordSettlement", "%s", note)
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Reconciler) poll() time.Duration {
	if r.Poll > 0 {
		return r.Poll
	}
	return 2 * time.Second
}

func (r *Reconciler) retryRefused() time.Duration {
	if r.RetryRefused > 0 {
		return r.RetryRefused
	}
	return time.Minute
}

// SetupWithManager registers the controller "settlement-chain" on live Orders.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("chain agent: nil manager")
	case r.Client == nil || r.Outbox == nil || r.Tokens == nil:
		return errors.New("chain agent: Client, Outbox and Tokens must be set")
	}
	if r.Recorder == nil {
		r.Recorder = mgr.GetEventRecorder("settlement-" + Name)
	}
	workers := r.MaxConcurrentReconciles
	if workers <= 0 {
		workers = 4
	}
	b := ctrl.NewControllerManagedBy(mgr).
		For(&investv1.Order{}, builder.WithPredicates(predicates.LiveOrders())).
		Named("settlement-" + Name).
		WithOptions(controller.Options{MaxConcurrentReconciles: workers})
	if r.BatchSize > 1 {
		if err := r.setupBatching(mgr, workers); err != nil {
			return fmt.Errorf("chain agent batches: %w", err)
		}
		b = b.WatchesRawSource(source.Channel(r.batch.wake, &handler.EnqueueRequestForObject{}))
	}
	return b.Complete(r)
}

// OrdersSource is the outbox Source of orders: every order's status.chain.transaction,
// read uncached, 500 orders a page.
func OrdersSource(reader client.Reader) outbox.Source {
	return pagedSource(reader, "orders", func(list *investv1.OrderList) []outbox.Record {
		recs := make([]outbox.Record, 0, len(list.Items))
		for i := range list.Items {
			o := &list.Items[i]
			if c := o.Status.Chain; c != nil && c.Transaction != nil {
				recs = append(recs, outbox.Record{Owner: "Order " + o.Namespace + "/" + o.Name, Object: o, Tx: c.Transaction})
			}
		}
		return recs
	})
}

// pagedSource is an outbox Source that lists every object of a kind, 500 a page, through
// reader (uncached: a record whose write was reported as failed but happened counts), and
// answers the records recs finds in each page.
func pagedSource[L any, PL interface {
	*L
	client.ObjectList
}](reader client.Reader, what string, recs func(PL) []outbox.Record) outbox.Source {
	return outbox.SourceFunc(func(ctx context.Context) ([]outbox.Record, error) {
		var (
			out  []outbox.Record
			cont string
		)
		for {
			list := PL(new(L))
			if err := reader.List(ctx, list, client.Limit(500), client.Continue(cont)); err != nil {
				return nil, fmt.Errorf("list %s: %w", what, err)
			}
			out = append(out, recs(list)...)
			if cont = list.GetContinue(); cont == "" {
				return out, nil
			}
		}
	})
}
