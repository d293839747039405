package token

// The cash leg of a secondary market with cash on chain (docs/secondary.md, Cash on chain):
// the share class's settlement contract must be this release's DeliveryVersusPayment, with
// the operator's key its agent and itself an agent of the share token, and the cash token
// must count in money units. SettlementReady says whether it is so. For a token the
// operator deployed (it holds the token's admin role) the operator grants the settlement
// contract AGENT_ROLE itself, recorded in status.token.settlementGrant before it is
// broadcast and never sent twice.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// moneyDecimals are the decimals of a cash token whose unit is the operator's money unit.
const moneyDecimals = 4

// settlementRuntime is DeliveryVersusPayment's runtime code: its creation code run with
// eth_call. Its constructor's arguments are stored as roles, not immutables, so the
// runtime code does not depend on them.
func (v *Verifier) settlementRuntime(ctx context.Context) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.dvpRuntime != nil {
		return v.dvpRuntime, nil
	}
	data := append(common.FromHex(contracts.DeliveryVersusPaymentMetaData.Bin), contracts.NewDeliveryVersusPayment().PackConstructor(v.Operator, v.Operator)...)
	code, err := v.Chain.CallContract(ctx, ethereum.CallMsg{From: v.Operator, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("compute DeliveryVersusPayment's runtime code: %w", err)
	}
	if len(code) == 0 {
		return nil, errors.New("compute DeliveryVersusPayment's runtime code: empty result")
	}
	v.dvpRuntime = code
	return code, nil
}

// VerifySettlement returns a *Problem when the cash leg c cannot settle the trades of the
// token at token, nil when it can, another error when the chain could not be asked.
// grantable says the one thing missing is the settlement contract's AGENT_ROLE on the
// token, and the operator's key is the token's admin (it can grant it).
func (v *Verifier) VerifySettlement(ctx context.Context, token common.Address, c *investv1.CashOnChain) (grantable bool, err error) {
	settlement := common.HexToAddress(c.Settlement)
	code, err := v.Chain.CodeAt(ctx, settlement, nil)
	if err != nil {
		return false, fmt.Errorf("code at %s: %w", settlement.Hex(), err)
	}
	want, err := v.settlementRuntime(ctx)
	if err != nil {
		return false, err
	}
	if !bytes.Equal(code, want) {
		return false, &Problem{ReasonNotASettlementContract, fmt.Sprintf("the code at %s is not this release's DeliveryVersusPayment (code hash %s, want %s)",
			settlement.Hex(), crypto.Keccak256Hash(code).Hex(), crypto.Keccak256Hash(want).Hex())}
	}
	dvp := contracts.NewDeliveryVersusPayment()
	ours, err := call(ctx, v.Chain, settlement, nil, dvp.PackHasRole(AgentRole, v.Operator), dvp.UnpackHasRole)
	if err != nil {
		return false, fmt.Errorf("hasRole on %s: %w", settlement.Hex(), err)
	}
	if !ours {
		return false, &Problem{ReasonSettlementNotOurs, fmt.Sprintf("the operator's key %s is not an agent of the settlement contract %s: its admin must grantRole(AGENT_ROLE, %s)",
			v.Operator.Hex(), settlement.Hex(), v.Operator.Hex())}
	}
	cash := contracts.NewCashToken()
	decimals, err := call(ctx, v.Chain, common.HexToAddress(c.CashToken), nil, cash.PackDecimals(), cash.UnpackDecimals)
	if err != nil || decimals != moneyDecimals {
		what := fmt.Sprintf("decimals() is %d", decimals)
		if err != nil {
			what = "decimals() cannot be read: " + chain.DecodeError(err).Error()
		}
		return false, &Problem{ReasonCashTokenUnits, fmt.Sprintf("the cash token %s does not count in money units (%d decimals, 10,000 a currency unit): %s", c.CashToken, moneyDecimals, what)}
	}
	tok := contracts.NewShareToken()
	agent, err := call(ctx, v.Chain, token, nil, tok.PackHasRole(AgentRole, settlement), tok.UnpackHasRole)
	if err != nil {
		return false, fmt.Errorf("hasRole on %s: %w", token.Hex(), err)
	}
	if agent {
		return false, nil
	}
	admin, err := call(ctx, v.Chain, token, nil, tok.PackHasRole(common.Hash{}, v.Operator), tok.UnpackHasRole)
	if err != nil {
		return false, fmt.Errorf("hasRole on %s: %w", token.Hex(), err)
	}
	return admin, &Problem{ReasonSettlementNotAgent, fmt.Sprintf("the settlement contract %s is not an agent of the token at %s: the token's admin must grantRole(AGENT_ROLE, %s)",
		settlement.Hex(), token.Hex(), settlement.Hex())}
}

// settlementReady sets SettlementReady on a share class whose token at addr is usable:
// removed without cash on chain; for a token the operator deployed and administers, the
// missing grant is sent (recorded first) and tracked until final. It returns how soon to
// look again (0: the usual recheck).
func (r *ShareClassReconciler) settlementReady(ctx context.Context, sc *investv1.ShareClass, addr common.Address) (time.Duration, error) {
	var c *investv1.CashOnChain
	if m := sc.Spec.Secondary; m != nil {
		c = m.CashOnChain
	}
	if c == nil {
		return 0, r.setSettlementCondition(ctx, sc, nil)
	}
	if g := sc.Status.Token.SettlementGrant; g != nil && g.Receipt == nil {
		return r.trackGrant(ctx, sc, g)
	}
	grantable, err := r.Verifier.VerifySettlement(ctx, addr, c)
	var p *Problem
	switch {
	case err == nil:
		return 0, r.setSettlementCondition(ctx, sc, nil)
	case !errors.As(err, &p):
		return 0, err
	case grantable && sc.Spec.Token.Mode == investv1.TokenModeDeploy && r.Deployer != nil && r.Outbox != nil:
		if g := sc.Status.Token.SettlementGrant; g != nil && g.Receipt != nil && g.Receipt.Status == investv1.ChainReceiptSucceeded &&
			grantedTo(g) == common.HexToAddress(c.Settlement) {
			// Granted, and the role is gone again (revoked by the admin): not granted twice.
			p.Message += fmt.Sprintf("; the operator granted it in transaction %s, and the role was revoked since", g.Receipt.Hash)
			return 0, r.setSettlementCondition(ctx, sc, p)
		}
		return r.grant(ctx, sc, addr, common.HexToAddress(c.Settlement))
	}
	return 0, r.setSettlementCondition(ctx, sc, p)
}

// grantedTo is the account a recorded grantRole(AGENT_ROLE, account) names (its second
// argument); zero when the record cannot be read.
func grantedTo(g *investv1.ChainTransaction) common.Address {
	if len(g.Attempts) == 0 {
		return common.Address{}
	}
	tx, err := outbox.Decode(g.Attempts[0])
	if err != nil || len(tx.Data()) != 4+2*32 {
		return common.Address{}
	}
	return common.BytesToAddress(tx.Data()[4+32:])
}

// grant sends grantRole(AGENT_ROLE, settlement) on the token the operator deployed,
// recorded in status.token.settlementGrant before it is broadcast.
func (r *ShareClassReconciler) grant(ctx context.Context, sc *investv1.ShareClass, token, settlement common.Address) (time.Duration, error) {
	data := contracts.NewShareToken().PackGrantRole(AgentRole, settlement)
	_, err := r.Outbox.Send(ctx, outbox.Call{To: &token, Data: data}, r.recordGrant(sc))
	if rv, ok := chain.AsRevert(err); ok {
		return 0, r.setSettlementCondition(ctx, sc, &Problem{ReasonSettlementNotAgent, "the operator's grant of AGENT_ROLE to the settlement contract would revert: " + rv.Reason()})
	}
	if outbox.MustWait(err) || err == nil {
		return pollWhilePending, r.setSettlementCondition(ctx, sc, &Problem{ReasonGranting,
			fmt.Sprintf("granting the settlement contract %s AGENT_ROLE on the token %s", settlement.Hex(), token.Hex())})
	}
	return pollWhilePending, err
}

// trackGrant follows the recorded grant until it is final.
func (r *ShareClassReconciler) trackGrant(ctx context.Context, sc *investv1.ShareClass, g *investv1.ChainTransaction) (time.Duration, error) {
	obs, _, err := r.Outbox.Track(ctx, g, r.Confirmations, r.recordGrant(sc))
	if err != nil {
		return 0, err
	}
	switch obs.State {
	case outbox.NonceTaken:
		return 0, r.setSettlementCondition(ctx, sc, &Problem{ReasonNonceTaken, nonceTakenMessage(g.Nonce, "grant to the settlement contract")})
	case outbox.Final:
		before := sc.DeepCopy()
		sc.Status.Token.SettlementGrant.Receipt = obs.Receipt
		if err := r.Client.Status().Patch(ctx, sc, client.MergeFrom(before)); err != nil {
			return 0, err
		}
		if obs.Receipt.Status != investv1.ChainReceiptSucceeded {
			return 0, r.setSettlementCondition(ctx, sc, &Problem{ReasonSettlementNotAgent,
				fmt.Sprintf("the operator's grant %s of AGENT_ROLE to the settlement contract reverted: %s", obs.Receipt.Hash, obs.Receipt.RevertReason)})
		}
		return time.Millisecond, nil // verify again: the role is on chain now
	}
	return pollWhilePending, nil
}

// recordGrant writes the grant (first attempt or a replacement) into status.token: a merge
// patch of that field alone, without the optimistic lock. Once the token exists the
// transfer indexer moves status.transfers with every block, so a write under the lock
// loses the race to it over and over; this controller is the only writer of the grant.
func (r *ShareClassReconciler) recordGrant(sc *investv1.ShareClass) outbox.RecordFunc {
	return func(ctx context.Context, tx *investv1.ChainTransaction) error {
		before := sc.DeepCopy()
		sc.Status.Token.SettlementGrant = tx.DeepCopy()
		return r.Client.Status().Patch(ctx, sc, client.MergeFrom(before))
	}
}

// setSettlementCondition sets SettlementReady from p (nil: ready), or removes it from a
// share class without cash on chain; it writes only when something changed.
func (r *ShareClassReconciler) setSettlementCondition(ctx context.Context, sc *investv1.ShareClass, p *Problem) error {
	before := sc.DeepCopy()
	gen := sc.Generation
	switch {
	case sc.Spec.Secondary == nil || sc.Spec.Secondary.CashOnChain == nil:
		meta.RemoveStatusCondition(&sc.Status.Conditions, TypeSettlementReady)
	case p == nil:
		meta.SetStatusCondition(&sc.Status.Conditions, metav1.Condition{Type: TypeSettlementReady, Status: metav1.ConditionTrue, Reason: ReasonSettlementReady, ObservedGeneration: gen,
			Message: fmt.Sprintf("the settlement contract %s swaps the token's units against %s", sc.Spec.Secondary.CashOnChain.Settlement, sc.Spec.Secondary.CashOnChain.CashToken)})
	default:
		meta.SetStatusCondition(&sc.Status.Conditions, metav1.Condition{Type: TypeSettlementReady, Status: metav1.ConditionFalse, Reason: p.Reason, Message: p.Message, ObservedGeneration: gen})
	}
	if equalStatus(before, sc) {
		return nil
	}
	// A merge patch of what changed, as setStatus writes the conditions.
	if err := r.Client.Status().Patch(ctx, sc, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("share class %s status: %w", sc.Name, err)
	}
	return nil
}
