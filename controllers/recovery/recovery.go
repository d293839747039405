// Package recovery is lost-key recovery: the chain agent's controller of WalletRecovery.
// For every share class token in which the lost wallet holds units it signs the token's
// agent-only recoverWallet(lost, replacement) (a forced transfer of the whole balance with
// every lock-up) through the transaction outbox: recorded in the WalletRecovery's status
// before it is broadcast, tracked to final, never signed twice after a crash (the
// WalletRecovery kind is an outbox Source, so the heal loop rebroadcasts its records).
// Once every transaction is final the recovery is Completed; a revert stalls it with the
// reason and nothing is re-sent.
//
// It imports no other controller package: the tokens come from the ShareClasses' status.
package recovery

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Name is the controller's name, also the Events' reporting controller.
const Name = "wallet-recovery"

// Condition types and reasons, and Event reasons.
const (
	TypeReady   = "Ready"
	TypeStalled = "Stalled"

	ReasonRecovering        = "Recovering"
	ReasonRecovered         = "Recovered"
	ReasonRecoveryStarted   = "WalletRecoveryStarted"
	ReasonRecoveryCompleted = "WalletRecoveryCompleted"
	ReasonTransactionRecord = "WalletRecoveryTransactionRecorded"
	ReasonReverted          = "TransactionReverted"
	ReasonRefused           = "TransactionRefused"
	ReasonNonceTaken        = "NonceTaken"
	ReasonWalletMissing     = "WalletMissing"
	// ReasonRecordsBehind: the records are behind the chain and the token has no effect
	// references (or another key applied the effect): a person decides.
	ReasonRecordsBehind = "RecordsBehindChain"
	// ReasonRecoveredFromChain: a token's recovery was found applied on chain and its
	// record rebuilt from the chain.
	ReasonRecoveredFromChain = "RecoveredFromChain"
)

// Outbox is what the controller needs of the transaction outbox.
type Outbox interface {
	Send(ctx context.Context, call outbox.Call, record outbox.RecordFunc) (*investv1.ChainTransaction, error)
	Track(ctx context.Context, rec *investv1.ChainTransaction, confirmations uint64, record outbox.RecordFunc) (outbox.Observation, *investv1.ChainTransaction, error)
	ChainID() int64
	// EffectRefs, Applied and Receipt look a recovery's effect reference up on chain;
	// RecordsBehind says whether the records are behind the chain.
	EffectRefs(ctx context.Context, token common.Address) (bool, error)
	Applied(ctx context.Context, token common.Address, ref [32]byte) (*outbox.AppliedEffect, error)
	Receipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
	RecordsBehind() string
}

// Reconciler drives WalletRecoveries.
type Reconciler struct {
	Client client.Client
	// Chain reads balances (eth_call).
	Chain ethereum.ContractCaller
	// Outbox signs, has the recovery record, and broadcasts.
	Outbox Outbox
	// Confirmations a recoverWallet needs before it is final (at least 1).
	Confirmations uint64
	// Poll is how often a recovery waiting for blocks is looked at again; zero means 2s.
	Poll time.Duration
	// Recorder emits Events; nil emits none.
	Recorder events.EventRecorder
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Source lists for the outbox the transactions WalletRecoveries have recorded, read from
// the API server (r must not be a cache).
func Source(r client.Reader) outbox.Source {
	return outbox.SourceFunc(func(ctx context.Context) ([]outbox.Record, error) {
		var list investv1.WalletRecoveryList
		if err := r.List(ctx, &list); err != nil {
			return nil, err
		}
		var recs []outbox.Record
		for i := range list.Items {
			w := &list.Items[i]
			for _, t := range w.Status.Tokens {
				if t.Transaction != nil {
					recs = append(recs, outbox.Record{Owner: "WalletRecovery " + w.Namespace + "/" + w.Name, Object: w, Tx: t.Transaction})
				}
			}
		}
		return recs, nil
	})
}

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=walletrecoveries,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=walletrecoveries/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile moves a recovery one step on: start (record the addresses), then per token
// track the recorded transaction or sign the next one, then complete.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	rec := &investv1.WalletRecovery{}
	if err := r.Client.Get(ctx, req.NamespacedName, rec); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !rec.DeletionTimestamp.IsZero() || rec.Status.Phase == investv1.RecoveryCompleted || rec.Status.Phase == investv1.RecoveryFailed {
		return ctrl.Result{}, nil
	}
	if rec.Status.From == "" || rec.Status.To == "" {
		return r.start(ctx, rec)
	}
	from, to := common.HexToAddress(rec.Status.From), common.HexToAddress(rec.Status.To)
	// Recorded transactions first, in the order signed: each is tracked to final.
	for i := range rec.Status.Tokens {
		t := &rec.Status.Tokens[i]
		if t.Transaction.Receipt == nil {
			return r.track(ctx, rec, i)
		}
		if t.Transaction.Receipt.Status != investv1.ChainReceiptSucceeded && t.Recovered == nil {
			return r.stall(ctx, rec, ReasonReverted, fmt.Sprintf("recoverWallet on token %s (%s) %s reverted: %s; nothing is re-sent, a person decides",
				t.Token, t.ISIN, t.Transaction.Receipt.Hash, t.Transaction.Receipt.RevertReason))
		}
	}
	// Then the next token in which the lost wallet still holds units.
	tokens, err := r.tokens(ctx)
	if err != nil {
		return ctrl.Result{}, err
	}
	done := map[common.Address]bool{}
	for _, t := range rec.Status.Tokens {
		done[common.HexToAddress(t.Token)] = true
	}
	for _, tk := range tokens {
		if done[tk.address] {
			continue
		}
		refs, err := r.Outbox.EffectRefs(ctx, tk.address)
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("effect references of the token %s: %w", tk.address.Hex(), err)
		}
		if refs {
			// Before anything new is signed: the chain may show this recovery applied
			// already although no record says so (the records fell behind the chain).
			eff, err := r.Outbox.Applied(ctx, tk.address, recoveryRef(rec, tk.isin))
			if err != nil {
				return ctrl.Result{}, fmt.Errorf("look the recovery on %s up on chain: %w", tk.address.Hex(), err)
			}
			if eff != nil {
				return r.recovered(ctx, rec, tk, eff)
			}
		} else if behind := r.Outbox.RecordsBehind(); behind != "" {
			if perr := r.setStalled(ctx, rec, ReasonRecordsBehind, fmt.Sprintf("%s; the token %s (%s) has no effect references, so the agent cannot tell whether this recovery was applied on it: nothing is signed for it (docs/tokens.md, When the records fall behind the chain)", behind, tk.address.Hex(), tk.isin)); perr != nil {
				return patch.Retry(ctx, perr, "record the refusal")
			}
			return ctrl.Result{RequeueAfter: time.Minute}, nil
		}
		units, err := r.balance(ctx, tk.address, from)
		if err != nil {
			return ctrl.Result{}, err
		}
		if units.Sign() == 0 {
			continue
		}
		return r.send(ctx, rec, tk, from, to, units, refs)
	}
	return r.complete(ctx, rec)
}

// start resolves both wallets, records their addresses (immutable from then on), and says
// so on the Wallet and the Account.
func (r *Reconciler) start(ctx context.Context, rec *investv1.WalletRecovery) (ctrl.Result, error) {
	lost, err := r.wallet(ctx, rec, rec.Spec.FromWalletID)
	if err != nil || lost == nil {
		return r.missing(ctx, rec, rec.Spec.FromWalletID, err)
	}
	repl, err := r.wallet(ctx, rec, rec.Spec.ToWalletID)
	if err != nil || repl == nil {
		return r.missing(ctx, rec, rec.Spec.ToWalletID, err)
	}
	before := rec.DeepCopy()
	rec.Status.From = common.HexToAddress(lost.Spec.WalletAddress).Hex()
	rec.Status.To = common.HexToAddress(repl.Spec.WalletAddress).Hex()
	rec.Status.Phase = investv1.RecoveryRecovering
	r.recovering(rec)
	if err := r.patch(ctx, rec, before); err != nil {
		return patch.Retry(ctx, err, "record the recovery's wallets")
	}
	msg := fmt.Sprintf("lost-key recovery %s started: every unit of wallet %s (%s) moves to wallet %s (%s) with its lock-ups", rec.Name, lost.Name, rec.Status.From, repl.Name, rec.Status.To)
	r.event(lost, corev1.EventTypeWarning, ReasonRecoveryStarted, msg)
	r.event(r.account(ctx, rec), corev1.EventTypeNormal, ReasonRecoveryStarted, msg)
	return ctrl.Result{RequeueAfter: 10 * time.Millisecond}, nil
}

// send has the outbox sign recoverWallet(from, to) on the token, record it in the status
// (appended to status.tokens) and broadcast it.
func (r *Reconciler) send(ctx context.Context, rec *investv1.WalletRecovery, tk token, from, to common.Address, units *big.Int, refs bool) (ctrl.Result, error) {
	locked, err := r.locked(ctx, tk.address, from)
	if err != nil {
		return ctrl.Result{}, err
	}
	data := contracts.NewShareToken().PackRecoverWallet(from, to)
	if refs {
		data = contracts.NewShareToken().PackRecoverWalletWithRef(recoveryRef(rec, tk.isin), from, to)
	}
	before := rec.DeepCopy()
	tx, err := r.Outbox.Send(ctx, outbox.Call{To: &tk.address, Data: data},
		func(ctx context.Context, tx *investv1.ChainTransaction) error {
			rec.Status.Tokens = append(rec.Status.Tokens, investv1.WalletRecoveryToken{
				ISIN: tk.isin, Token: tk.address.Hex(), Units: units.Int64(), Locked: locked.Int64(), Transaction: tx,
			})
			r.recovering(rec) // a refusal before this one is over
			return r.patch(ctx, rec, before)
		})
	if rev, isRevert := chain.AsRevert(err); isRevert && refs && chain.IsEffectApplied(rev) {
		// Applied meanwhile (another signer, a write lost): the next look finds it.
		return ctrl.Result{RequeueAfter: 10 * time.Millisecond}, nil
	}
	if rev, isRevert := chain.AsRevert(err); isRevert {
		// Nothing was signed (the estimate reverted): say why and look again later.
		if perr := r.setStalled(ctx, rec, ReasonRefused,
			fmt.Sprintf("recoverWallet on token %s (%s) would revert: %s; checked again", tk.address.Hex(), tk.isin, rev.Reason())); perr != nil {
			return patch.Retry(ctx, perr, "record the refusal")
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	if res, stop, err := outbox.Unsent(ctx, tx, err, "recoverWallet on "+tk.address.Hex()); stop {
		return res, err
	}
	r.event(rec, corev1.EventTypeNormal, ReasonTransactionRecord,
		fmt.Sprintf("recorded recoverWallet %s (nonce %d) on token %s (%s, %s units) before broadcasting", tx.Attempts[0].Hash, tx.Nonce, tk.address.Hex(), tk.isin, units))
	return ctrl.Result{RequeueAfter: r.poll()}, nil
}

// track follows the recorded transaction of status.tokens[i] until it is final.
func (r *Reconciler) track(ctx context.Context, rec *investv1.WalletRecovery, i int) (ctrl.Result, error) {
	obs, _, err := r.Outbox.Track(ctx, rec.Status.Tokens[i].Transaction, r.Confirmations, func(ctx context.Context, next *investv1.ChainTransaction) error {
		before := rec.DeepCopy()
		rec.Status.Tokens[i].Transaction = next
		return r.patch(ctx, rec, before)
	})
	if err != nil {
		if patch.Stale(err) {
			return patch.Retry(ctx, err, "record the recoverWallet's attempt")
		}
		ctrl.LoggerFrom(ctx).Error(err, "tracking the recorded recoverWallet; trying again")
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	switch obs.State {
	case outbox.Final:
	case outbox.NonceTaken:
		t := rec.Status.Tokens[i]
		if perr := r.setStalled(ctx, rec, ReasonNonceTaken,
			fmt.Sprintf("nonce %d of recoverWallet on %s was mined by a transaction not recorded here: was the agent key used elsewhere? Nothing is re-sent", t.Transaction.Nonce, t.Token)); perr != nil {
			return patch.Retry(ctx, perr, "record the taken nonce")
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	default:
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	}
	before := rec.DeepCopy()
	rec.Status.Tokens[i].Transaction.Receipt = obs.Receipt
	if obs.Revert != nil && chain.IsEffectApplied(obs.Revert) {
		// Another transaction applied this recovery on the token: its evidence, no stall.
		t := rec.Status.Tokens[i]
		eff, err := r.Outbox.Applied(ctx, common.HexToAddress(t.Token), recoveryRef(rec, t.ISIN))
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("recoverWallet %s reverted with %s; look the transaction that applied it up: %w", obs.Receipt.Hash, chain.EffectAppliedError, err)
		}
		if eff == nil {
			return ctrl.Result{}, fmt.Errorf("recoverWallet %s reverted with %s, but the transaction that applied it is not found", obs.Receipt.Hash, chain.EffectAppliedError)
		}
		rec.Status.Tokens[i].Recovered = eff.Evidence(r.now())
	}
	if err := r.patch(ctx, rec, before); err != nil {
		return patch.Retry(ctx, err, "record the receipt")
	}
	return ctrl.Result{RequeueAfter: 10 * time.Millisecond}, nil
}

// complete marks the recovery Completed, once every token's balance of the lost wallet is
// zero and every recorded transaction is final.
func (r *Reconciler) complete(ctx context.Context, rec *investv1.WalletRecovery) (ctrl.Result, error) {
	before := rec.DeepCopy()
	now := metav1.NewTime(r.now().UTC().Truncate(time.Second))
	rec.Status.Phase = investv1.RecoveryCompleted
	rec.Status.CompletedAt = &now
	var moved []string
	for _, t := range rec.Status.Tokens {
		moved = append(moved, fmt.Sprintf("%d units of %s (%d locked) in %s", t.Units, t.ISIN, t.Locked, t.Transaction.Receipt.Hash))
	}
	what := "the lost wallet held no units"
	if len(moved) > 0 {
		what = "moved " + strings.Join(moved, ", ")
	}
	msg := fmt.Sprintf("lost-key recovery %s completed: %s from %s to %s; the lost wallet can be deleted", rec.Name, what, rec.Status.From, rec.Status.To)
	conditions.Ready(&rec.Status.Conditions, rec.Generation, ReasonRecovered, msg)
	rec.Status.ObservedGeneration = rec.Generation
	if err := r.patch(ctx, rec, before); err != nil {
		return patch.Retry(ctx, err, "record the completion")
	}
	if lost, err := r.wallet(ctx, rec, rec.Spec.FromWalletID); err == nil && lost != nil {
		r.event(lost, corev1.EventTypeNormal, ReasonRecoveryCompleted, msg)
	}
	r.event(r.account(ctx, rec), corev1.EventTypeNormal, ReasonRecoveryCompleted, msg)
	r.event(rec, corev1.EventTypeNormal, ReasonRecoveryCompleted, msg)
	return ctrl.Result{}, nil
}

// stall records a final failure: phase Failed, Stalled with the reason.
func (r *Reconciler) stall(ctx context.Context, rec *investv1.WalletRecovery, reason, msg string) (ctrl.Result, error) {
	before := rec.DeepCopy()
	rec.Status.Phase = investv1.RecoveryFailed
	conditions.Stalled(&rec.Status.Conditions, rec.Generation, reason, msg)
	rec.Status.ObservedGeneration = rec.Generation
	if err := r.patch(ctx, rec, before); err != nil {
		return patch.Retry(ctx, err, "record the failure")
	}
	r.event(rec, corev1.EventTypeWarning, reason, msg)
	r.event(r.account(ctx, rec), corev1.EventTypeWarning, reason, msg)
	return ctrl.Result{}, nil
}

// missing stalls a recovery (not final: looked at again) whose wallet cannot be read.
func (r *Reconciler) missing(ctx context.Context, rec *investv1.WalletRecovery, id investv1.ObjectID, err error) (ctrl.Result, error) {
	if err != nil {
		return ctrl.Result{}, err
	}
	if perr := r.setStalled(ctx, rec, ReasonWalletMissing,
		fmt.Sprintf("wallet %s of account %s does not exist in namespace %s", id, rec.Spec.AccountID, rec.Namespace)); perr != nil {
		return patch.Retry(ctx, perr, "record the missing wallet")
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil
}

// recovering sets the kstatus trio of a recovery on its way (Reconciling, Recovering).
func (r *Reconciler) recovering(rec *investv1.WalletRecovery) {
	conditions.Reconciling(&rec.Status.Conditions, rec.Generation, ReasonRecovering, "moving every unit of "+rec.Status.From+" to "+rec.Status.To)
	rec.Status.ObservedGeneration = rec.Generation
}

// setStalled writes, when it changes, the kstatus trio of a recovery that waits for a
// person (Stalled with reason and msg); the recovery is looked at again.
func (r *Reconciler) setStalled(ctx context.Context, rec *investv1.WalletRecovery, reason, msg string) error {
	before := rec.DeepCopy()
	if !conditions.Stalled(&rec.Status.Conditions, rec.Generation, reason, msg) {
		return nil
	}
	rec.Status.ObservedGeneration = rec.Generation
	return r.patch(ctx, rec, before)
}

func (r *Reconciler) patch(ctx context.Context, rec, before *investv1.WalletRecovery) error {
	return patch.Status(ctx, r.Client, rec, before)
}

// wallet reads a wallet of the recovery's account; nil when there is none.
func (r *Reconciler) wallet(ctx context.Context, rec *investv1.WalletRecovery, id investv1.ObjectID) (*investv1.Wallet, error) {
	w := &investv1.Wallet{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: rec.Namespace, Name: string(id)}, w); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	if w.Spec.AccountID != rec.Spec.AccountID || !common.IsHexAddress(w.Spec.WalletAddress) {
		return nil, nil
	}
	return w, nil
}

// account is the recovery's Account, or nil.
func (r *Reconciler) account(ctx context.Context, rec *investv1.WalletRecovery) runtime.Object {
	a := &investv1.Account{}
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: rec.Namespace, Name: string(rec.Spec.AccountID)}, a); err != nil {
		return nil
	}
	return a
}

type token struct {
	isin    investv1.ISIN
	address common.Address
}

// tokens are the share classes' tokens on the outbox's chain, by ISIN.
func (r *Reconciler) tokens(ctx context.Context) ([]token, error) {
	var list investv1.ShareClassList
	if err := r.Client.List(ctx, &list); err != nil {
		return nil, err
	}
	seen := map[common.Address]bool{}
	var out []token
	for _, sc := range list.Items {
		t := sc.Status.Token
		if t == nil || !common.IsHexAddress(t.Address) || t.ChainID != r.Outbox.ChainID() {
			continue
		}
		a := common.HexToAddress(t.Address)
		if !seen[a] {
			seen[a] = true
			out = append(out, token{isin: sc.Spec.ISIN, address: a})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].isin < out[j].isin })
	return out, nil
}

func (r *Reconciler) balance(ctx context.Context, tok, holder common.Address) (*big.Int, error) {
	abi := contracts.NewShareToken()
	return r.call(ctx, tok, abi.PackBalanceOf(holder), abi.UnpackBalanceOf, "balanceOf")
}

func (r *Reconciler) locked(ctx context.Context, tok, holder common.Address) (*big.Int, error) {
	abi := contracts.NewShareToken()
	return r.call(ctx, tok, abi.PackLockedBalanceOf(holder), abi.UnpackLockedBalanceOf, "lockedBalanceOf")
}

func (r *Reconciler) call(ctx context.Context, tok common.Address, data []byte, unpack func([]byte) (*big.Int, error), what string) (*big.Int, error) {
	out, err := r.Chain.CallContract(ctx, ethereum.CallMsg{To: &tok, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", what, tok.Hex(), chain.DecodeError(err))
	}
	if len(out) == 0 {
		// No code at the address (a share class's token of another deployment): it holds nothing.
		return new(big.Int), nil
	}
	v, err := unpack(out)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", what, tok.Hex(), err)
	}
	if !v.IsInt64() {
		return nil, fmt.Errorf("%s on %s is %s, beyond int64", what, tok.Hex(), v)
	}
	return v, nil
}

func (r *Reconciler) event(obj runtime.Object, typ, reason, msg string) {
	if r.Recorder != nil && obj != nil {
		r.Recorder.Eventf(obj, nil, typ, reason, "Recover", "%s", msg)
	}
}

func (r *Reconciler) poll() time.Duration {
	if r.Poll > 0 {
		return r.Poll
	}
	return 2 * time.Second
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Config connects the controller to the chain agent's outbox.
type Config struct {
	Outbox        *outbox.Outbox
	Chain         ethereum.ContractCaller
	Confirmations uint64
}

// Setup adds the WalletRecovery controller to mgr and the recoveries' records to the
// outbox's sources (so its heal loop rebroadcasts them).
func Setup(mgr ctrl.Manager, c Config) error {
	if c.Outbox == nil || c.Chain == nil {
		return errors.New("recovery: Outbox and Chain must be set")
	}
	c.Outbox.AddSource(Source(mgr.GetAPIReader()))
	r := &Reconciler{
		Client: mgr.GetClient(), Chain: c.Chain, Outbox: c.Outbox, Confirmations: max(c.Confirmations, 1),
		Recorder: mgr.GetEventRecorder(Name),
	}
	return r.SetupWithManager(mgr)
}

// SetupWithManager watches WalletRecoveries.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.Client == nil || r.Chain == nil || r.Outbox == nil {
		return errors.New("recovery: Client, Chain and Outbox must be set")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named(Name).
		For(&investv1.WalletRecovery{}).
		Complete(r)
}

// recoveryRef is the effect reference of a recovery's forced transfer on one share class's
// token: the WalletRecovery's identity and UID (kept by an etcd restore) and the ISIN.
func recoveryRef(rec *investv1.WalletRecovery, isin investv1.ISIN) [32]byte {
	return chain.EffectRef("WalletRecovery", rec.Namespace, rec.Name, string(rec.UID), chain.EffectRecoverWallet+":"+string(isin))
}

// recovered records a token's recovery that the chain shows applied although no record
// said so: the transaction that applied it (rebuilt from the chain) with the units and
// locked units its WalletRecovered event moved, tracked to final like one signed here.
func (r *Reconciler) recovered(ctx context.Context, rec *investv1.WalletRecovery, tk token, eff *outbox.AppliedEffect) (ctrl.Result, error) {
	if eff.Foreign {
		if perr := r.setStalled(ctx, rec, ReasonRecordsBehind, fmt.Sprintf("the recovery on %s (%s) was applied by transaction %s, signed by %s, not the agent's key: a person records the evidence",
			tk.address.Hex(), tk.isin, eff.TxHash.Hex(), eff.Tx.From)); perr != nil {
			return patch.Retry(ctx, perr, "record the refusal")
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	var locked int64
	if rc, err := r.Outbox.Receipt(ctx, eff.TxHash); err == nil {
		abi := contracts.NewShareToken()
		for _, l := range rc.Logs {
			if ev, err := abi.UnpackWalletRecoveredEvent(l); err == nil && l.Address == tk.address && ev.Locked.IsInt64() {
				locked = ev.Locked.Int64()
			}
		}
	}
	before := rec.DeepCopy()
	e := eff.Evidence(r.now())
	rec.Status.Tokens = append(rec.Status.Tokens, investv1.WalletRecoveryToken{
		ISIN: tk.isin, Token: tk.address.Hex(), Units: e.Units, Locked: locked, Transaction: eff.Tx, Recovered: e,
	})
	r.recovering(rec)
	if err := r.patch(ctx, rec, before); err != nil {
		return patch.Retry(ctx, err, "record the recovery found on chain")
	}
	msg := fmt.Sprintf("recoverWallet on token %s (%s) was already applied on chain by transaction %s in block %d (%d units), although no record said so (the records fell behind the chain: etcd restored from an older snapshot, or a status write lost): the record was recovered from the chain; nothing new is signed",
		tk.address.Hex(), tk.isin, eff.TxHash.Hex(), eff.Block, e.Units)
	ctrl.LoggerFrom(ctx).Info(msg)
	r.event(rec, corev1.EventTypeWarning, ReasonRecoveredFromChain, msg)
	return ctrl.Result{RequeueAfter: 10 * time.Millisecond}, nil
}
