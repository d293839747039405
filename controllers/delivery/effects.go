package delivery

// Effect references: an order's mint or burn carries a reference the token records
// (internal/chain, EffectRef), derived from the order's identity and UID and the step: what
// an etcd restore keeps. Before the agent signs a first transaction for an order it has no
// record of, it asks the token whether the reference was applied; if so it records the
// transaction that did (its signed bytes rebuilt from the chain) instead of signing a new
// one, and the order goes on with the chain's evidence. A recorded transaction that reverts
// with EffectAlreadyApplied (applied by another transaction meanwhile) records the same
// evidence: never a stall, never a retry with a new nonce.

import (
	"context"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// orderRef is the effect reference of an order's mint (BUY) or burn (SELL). A batch
// member's mint uses the same reference as its own mint would, so a batch formed anew
// after a restore (with another name and UID) cannot mint an order twice either.
func orderRef(o *investv1.Order, step lifecycle.Step) [32]byte {
	if ref, ok := escrowRef(o); ok {
		// Cash on chain: the escrow's reference, which the swap hands to the share token.
		return ref
	}
	if lifecycle.Secondary(o) && (step == lifecycle.StepDeliveryInitiated || step == lifecycle.StepDeliveryCompleted) {
		return chain.EffectRef("Order", o.Namespace, o.Name, string(o.UID), chain.EffectSettle)
	}
	return chain.EffectRef("Order", o.Namespace, o.Name, string(o.UID), effectStep(step))
}

func effectStep(step lifecycle.Step) string {
	if step == lifecycle.StepTokensBurned {
		return chain.EffectBurn
	}
	return chain.EffectMint
}

// lookUp asks the token whether the order's effect was applied. done is false when it was
// not (sign it); otherwise the transaction that applied it is recorded as the order's (with
// status.chain.recovered and a Warning Event), and the order goes on from there.
func (r *Reconciler) lookUp(ctx context.Context, o *investv1.Order, step lifecycle.Step, tok agent.Token, ref [32]byte) (ctrl.Result, bool, error) {
	eff, err := r.Outbox.Applied(ctx, tok.Address, ref)
	if err != nil {
		return ctrl.Result{}, true, fmt.Errorf("look the %s's effect reference up on the token %s: %w", what(step), tok.Address.Hex(), err)
	}
	if eff == nil {
		return ctrl.Result{}, false, nil
	}
	if eff.Foreign {
		res, err := r.refuse(ctx, o, fmt.Sprintf("EffectAppliedByAnotherKey: the token %s says this order's %s was applied by transaction %s in block %d, signed by %s, not by the agent's key: nothing is signed; a person records the evidence",
			tok.Address.Hex(), what(step), eff.TxHash.Hex(), eff.Block, eff.Tx.From))
		return res, true, err
	}
	before := o.DeepCopy()
	st := &investv1.OrderChainStatus{Token: tok.Address.Hex(), Transaction: eff.Tx, Recovered: eff.Evidence(r.now())}
	if old := o.Status.Chain; old != nil {
		st.LockedUntil, st.Batch = old.LockedUntil, old.Batch
	}
	if step == lifecycle.StepDeliveryInitiated {
		if addr, err := r.walletAddress(ctx, o.Namespace, deliveryWallet(o)); err == nil {
			st.Recipient = addr.Hex()
		}
	}
	o.Status.Chain = st
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		res, err := patch.Retry(ctx, err, "record the "+what(step)+" found on chain")
		return res, true, err
	}
	ctrl.LoggerFrom(ctx).Info("the order's effect was already applied on chain; its evidence is recorded from the chain, nothing new is signed",
		"ref", eff.Ref.Hex(), "transactionHash", eff.TxHash.Hex(), "block", eff.Block, "units", st.Recovered.Units)
	r.event(o, corev1.EventTypeWarning, ReasonRecoveredFromChain, "Send",
		"the %s of this order was already applied on chain by transaction %s in block %d (%d units, effect reference %s), although no record said so (the records fell behind the chain: etcd restored from an older snapshot, or a status write lost): the record was recovered from the chain; nothing new is signed",
		what(step), eff.TxHash.Hex(), eff.Block, st.Recovered.Units, eff.Ref.Hex())
	if step == lifecycle.StepDeliveryInitiated {
		res, err := r.record(ctx, o, step, eff.TxHash.Hex(), nil)
		return res, true, err
	}
	return ctrl.Result{RequeueAfter: r.poll()}, true, nil
}

// appliedElsewhere handles the order's own recorded transaction final and reverted with
// EffectAlreadyApplied: another transaction applied the effect (a second signer, a record
// lost between sending and recording). The reverted receipt is recorded with the effect
// found on chain and the step's evidence names the transaction that applied it.
// appliedByAnother reports whether the token (one with effect references) shows the
// order's effect applied by a transaction other than the reverted one in receipt.
func (r *Reconciler) appliedByAnother(ctx context.Context, o *investv1.Order, step lifecycle.Step, receipt *investv1.ChainReceipt) (bool, error) {
	tok := common.HexToAddress(o.Status.Chain.Token)
	refs, err := r.Outbox.EffectRefs(ctx, tok)
	if err != nil || !refs {
		return false, err
	}
	eff, err := r.Outbox.Applied(ctx, tok, orderRef(o, step))
	if err != nil {
		return false, fmt.Errorf("look the %s's effect reference up on the token %s: %w", what(step), tok.Hex(), err)
	}
	return eff != nil && !strings.EqualFold(eff.TxHash.Hex(), receipt.Hash), nil
}

func (r *Reconciler) appliedElsewhere(ctx context.Context, o *investv1.Order, step lifecycle.Step, receipt *investv1.ChainReceipt) (ctrl.Result, error) {
	tok := common.HexToAddress(o.Status.Chain.Token)
	eff, err := r.Outbox.Applied(ctx, tok, orderRef(o, step))
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("look the %s's effect reference up on the token %s: %w", what(step), tok.Hex(), err)
	}
	if eff == nil {
		return ctrl.Result{}, fmt.Errorf("the %s transaction %s reverted with %s, but the token %s shows no transaction applying the effect (the endpoint lags?)",
			what(step), receipt.Hash, chain.EffectAppliedError, tok.Hex())
	}
	before := o.DeepCopy()
	o.Status.Chain.Transaction.Receipt = receipt
	o.Status.Chain.Recovered = eff.Evidence(r.now())
	evidence := lifecycle.Record(o, step, r.evidence(eff.TxHash.Hex()))
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "record the "+what(step)+" found on chain")
	}
	r.event(o, corev1.EventTypeWarning, ReasonRecoveredFromChain, "Track",
		"the %s transaction %s reverted with %s: the effect was applied by transaction %s in block %d (%d units); its evidence is recorded from the chain, nothing is re-sent",
		what(step), receipt.Hash, chain.EffectAppliedError, eff.TxHash.Hex(), eff.Block, o.Status.Chain.Recovered.Units)
	if evidence {
		r.event(o, corev1.EventTypeNormal, lifecycle.EvidenceReason(step), "RecordSettlement",
			"%s recorded %s evidence in transaction %s", Name, step, eff.TxHash.Hex())
	}
	return ctrl.Result{}, nil
}
