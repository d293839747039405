package delivery

// Cash on chain (docs/secondary.md, "Cash on chain"): a SECONDARY market whose share class
// names a settlement contract (spec.secondary.cashOnChain) moves its cash on chain
// too, and the chain agent records every money step of its orders from the chain:
//
//   - a BUY is paid when the settlement contract holds its escrow (escrowOf(reference), at
//     a block with the agent's confirmations): PaymentReceived names the escrow;
//   - a matched BUY is delivered by one swap transaction, recorded before it is broadcast
//     like a mint: the units move from the sellers' wallets to the buyer's (the share
//     token's settleWithRef under the escrow's reference), each seller is paid its share of
//     its SELL's net, everything else the fill costs (the buyer's fee, the spread, the
//     sellers' fees) goes to the fund's fee wallet, and what the fill did not use goes back
//     to the payer: the residual, recorded from the same transaction once it is final;
//   - a SELL's payout is the swaps that took its units: PaymentSent and PaymentCompleted
//     are recorded with its UnitsDelivered;
//   - a paid BUY cancelled before its swap gets its escrow back (refund), recorded before
//     it is broadcast, once.

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/patch"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// escrowLookBack is how many blocks before the confirmed one the agent searches for the
// CashEscrowed event of an escrow, to name its transaction in the payment's evidence.
const escrowLookBack = 50_000

// escrowRef is the escrow reference of a BUY whose cash is on chain; false otherwise.
func escrowRef(o *investv1.Order) ([32]byte, bool) {
	var ref [32]byte
	if !lifecycle.CashOnChain(o) || o.Spec.Side != investv1.SideBuy {
		return ref, false
	}
	b, err := hex.DecodeString(strings.TrimPrefix(o.Spec.Quote.CashOnChain.EscrowReference, "0x"))
	if err != nil || len(b) != len(ref) {
		return ref, false
	}
	copy(ref[:], b)
	return ref, true
}

// escrowOf reads the BUY's escrow at the newest block with the agent's confirmations.
func (r *Reconciler) escrowOf(ctx context.Context, o *investv1.Order) (contracts.EscrowOfOutput, uint64, error) {
	var out contracts.EscrowOfOutput
	rd := r.chainReader()
	if rd == nil {
		return out, 0, errors.New("the chain agent has no chain reader")
	}
	ref, ok := escrowRef(o)
	if !ok {
		return out, 0, fmt.Errorf("the order has no escrow reference")
	}
	head, err := rd.BlockNumber(ctx)
	if err != nil {
		return out, 0, fmt.Errorf("block number: %w", err)
	}
	at := ConfirmedBlock(head, r.Confirmations)
	settlement := common.HexToAddress(o.Spec.Quote.CashOnChain.Settlement)
	dvp := contracts.NewDeliveryVersusPayment()
	data, err := rd.CallContract(ctx, ethereum.CallMsg{To: &settlement, Data: dvp.PackEscrowOf(ref)}, new(big.Int).SetUint64(at))
	if err != nil {
		return out, 0, fmt.Errorf("escrowOf on the settlement contract %s: %w", settlement.Hex(), err)
	}
	if out, err = dvp.UnpackEscrowOf(data); err != nil {
		return out, 0, fmt.Errorf("escrowOf on the settlement contract %s (is it one?): %w", settlement.Hex(), err)
	}
	return out, at, nil
}

// escrowed records a BUY's PaymentReceived once the settlement contract holds its escrow,
// in the cash token of its quote and of at least its amount, at a confirmed block.
func (r *Reconciler) escrowed(ctx context.Context, o *investv1.Order) (ctrl.Result, error) {
	e, at, err := r.escrowOf(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	c := o.Spec.Quote.CashOnChain
	due := o.Spec.Quote.Amount
	switch {
	case e.Payer == (common.Address{}):
		// Not escrowed yet (or not with enough confirmations): look again.
		return ctrl.Result{RequeueAfter: r.poll()}, nil
	case e.Cash != common.HexToAddress(c.CashToken):
		return r.refuse(ctx, o, fmt.Sprintf("EscrowInAnotherToken: the escrow %s holds %s of the token %s, the order is paid in %s: it is not the order's payment; cancelling the order refunds it",
			c.EscrowReference, e.Amount, e.Cash.Hex(), c.CashToken))
	case e.Amount.Cmp(big.NewInt(due)) < 0:
		return r.refuse(ctx, o, fmt.Sprintf("EscrowShort: the escrow %s holds %s, the order's amount is %d: it is not the order's payment; cancelling the order refunds it",
			c.EscrowReference, e.Amount, due))
	}
	rec := investv1.SettlementRecord{Reference: c.EscrowReference, At: metav1.NewTime(r.now().UTC().Truncate(time.Second)), RecordedBy: Name}
	if tx, block := r.escrowTransaction(ctx, o, at); tx != "" {
		rec.TransactionHash, rec.BlockNumber = tx, block
	}
	before := o.DeepCopy()
	if !lifecycle.Record(o, lifecycle.StepPaymentReceived, rec) {
		return ctrl.Result{}, nil
	}
	moves, err := r.follow(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, "record PaymentReceived evidence")
	}
	ctrl.LoggerFrom(ctx).Info("recorded the escrow as the payment", "reference", c.EscrowReference, "amount", e.Amount.String(), "payer", e.Payer.Hex(), "transactionHash", rec.TransactionHash)
	r.evidenceEvent(o, lifecycle.StepPaymentReceived, before.Status.State, moves,
		"%s recorded %s evidence: the settlement contract %s holds the escrow %s of %s from %s%s",
		Name, lifecycle.StepPaymentReceived, c.Settlement, c.EscrowReference, e.Amount, e.Payer.Hex(), inTransaction(rec.TransactionHash))
	return ctrl.Result{}, nil
}

// escrowTransaction is the transaction and block of the BUY's CashEscrowed event, when
// the chain reader can filter logs and the event is at most escrowLookBack blocks before
// at; empty otherwise (the escrow itself is the evidence).
func (r *Reconciler) escrowTransaction(ctx context.Context, o *investv1.Order, at uint64) (string, int64) {
	lf, ok := r.chainReader().(ethereum.LogFilterer)
	if !ok {
		return "", 0
	}
	ref, _ := escrowRef(o)
	from := uint64(0)
	if at > escrowLookBack {
		from = at - escrowLookBack
	}
	logs, err := lf.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(at),
		Addresses: []common.Address{common.HexToAddress(o.Spec.Quote.CashOnChain.Settlement)},
		Topics:    [][]common.Hash{{cashEscrowedTopic}, {common.Hash(ref)}},
	})
	if err != nil || len(logs) == 0 {
		return "", 0
	}
	return logs[0].TxHash.Hex(), int64(logs[0].BlockNumber) //nolint:gosec // a block number fits
}

// cashEscrowedTopic is the settlement contract's CashEscrowed event.
var cashEscrowedTopic = contracts.NewDeliveryVersusPayment().GetABI().Events["CashEscrowed"].ID

func inTransaction(hash string) string {
	if hash == "" {
		return ""
	}
	return " (transaction " + hash + ")"
}

// swap is the call of a matched BUY's delivery versus payment: the settlement contract
// and its swap(ref, share, trade), whose legs are the window's transfers to the BUY.
func (r *Reconciler) swap(ctx context.Context, o *investv1.Order, tok agent.Token, ref [32]byte, buyer common.Address, release uint64) (common.Address, []byte, error) {
	c := o.Spec.Quote.CashOnChain
	legs, err := r.cashLegs(ctx, o)
	if err != nil {
		return common.Address{}, nil, err
	}
	n := o.Status.Strike
	if n == nil {
		return common.Address{}, nil, &settleError{msg: "the order has no fill of a matching window"}
	}
	toPay := n.GrossAmount + n.FeeAmount
	if n.Secondary != nil && n.Secondary.AmountDue > 0 {
		toPay = n.Secondary.AmountDue
	}
	trade := contracts.DeliveryVersusPaymentTrade{
		Buyer: buyer, ReleaseTime: release, FeeTo: common.HexToAddress(c.FeeCollector),
	}
	var sellers int64
	for _, l := range legs {
		trade.Sellers = append(trade.Sellers, l.from)
		trade.Units = append(trade.Units, big.NewInt(l.units))
		trade.SellerCash = append(trade.SellerCash, big.NewInt(l.cash))
		sellers += l.cash
	}
	if sellers > toPay {
		return common.Address{}, nil, &settleError{msg: fmt.Sprintf("the sellers' cash %d is more than the BUY's fill costs (%d)", sellers, toPay)}
	}
	trade.Fee = big.NewInt(toPay - sellers)
	return common.HexToAddress(c.Settlement), contracts.NewDeliveryVersusPayment().PackSwap(ref, tok.Address, trade), nil
}

// cashLeg is one transfer to a BUY settled with cash on chain: the seller's wallet, the
// units, and the seller's cash for them.
type cashLeg struct {
	from  common.Address
	units int64
	cash  int64
}

// cashLegs are a BUY's transfers with the cash each seller is paid for them: its SELL's
// net split over the SELL's transfers in the window's pairing order
// (secondary.SplitNet).
func (r *Reconciler) cashLegs(ctx context.Context, o *investv1.Order) ([]cashLeg, error) {
	from, amounts, sells, err := r.settlementLegs(ctx, o)
	if err != nil {
		return nil, err
	}
	p, err := r.windowPairing(ctx, o)
	if err != nil {
		return nil, err
	}
	buyKey := o.Namespace + "/" + o.Name
	legs := make([]cashLeg, 0, len(from))
	for i, sell := range sells {
		fill, ok := p.fills[sell]
		if !ok {
			return nil, &settleError{msg: "the window's book has no fill of the SELL " + sell}
		}
		var units []int64
		at := -1
		for _, t := range p.byOrder[sell] {
			if t.SellID != sell {
				continue
			}
			if t.BuyID == buyKey && at < 0 {
				at = len(units)
			}
			units = append(units, t.Units)
		}
		if at < 0 {
			return nil, &settleError{msg: "the window pairs the SELL " + sell + " with another BUY"}
		}
		cash, err := secondary.SplitNet(fill.Net, units)
		if err != nil {
			return nil, &settleError{msg: fmt.Sprintf("the SELL %s's payout: %v", sell, err)}
		}
		legs = append(legs, cashLeg{from: from[i], units: amounts[i].Int64(), cash: cash[at]})
	}
	return legs, nil
}

// residualReturned records a BUY's residual as returned: the swap that delivered its
// units, once final, gave the payer back what the fill did not use.
func (r *Reconciler) residualReturned(ctx context.Context, o *investv1.Order) (ctrl.Result, error) {
	done := o.Status.Settlement.DeliveryCompleted
	if done == nil || done.TransactionHash == "" {
		return ctrl.Result{}, nil
	}
	return r.recordPaidBy(ctx, o, []lifecycle.Step{lifecycle.StepResidualRefundSent, lifecycle.StepResidualRefundCompleted}, done.TransactionHash, settledBlock(o),
		"the swap returned the residual of %d to the payer's wallet", o.Status.Strike.Residual)
}

// recordPaidBy records the money steps paid by one final transaction of the settlement
// contract, in one write.
func (r *Reconciler) recordPaidBy(ctx context.Context, o *investv1.Order, steps []lifecycle.Step, hash string, block int64, format string, args ...any) (ctrl.Result, error) {
	return r.recordPaidWith(ctx, o, steps, hash, block, nil, format, args...)
}

// recordPaidWith is recordPaidBy that records the order's transaction's final receipt in
// the same write.
func (r *Reconciler) recordPaidWith(ctx context.Context, o *investv1.Order, steps []lifecycle.Step, hash string, block int64, receipt *investv1.ChainReceipt, format string, args ...any) (ctrl.Result, error) {
	before := o.DeepCopy()
	if receipt != nil {
		o.Status.Chain.Transaction.Receipt = receipt
	}
	// The payment reference of money evidence: a BUY's escrow reference, a SELL's the
	// transaction that paid it.
	reference := hash
	if c := o.Spec.Quote.CashOnChain; c.EscrowReference != "" {
		reference = c.EscrowReference
	}
	rec := investv1.SettlementRecord{Reference: reference, TransactionHash: hash, BlockNumber: block, At: metav1.NewTime(r.now().UTC().Truncate(time.Second)), RecordedBy: Name}
	var recorded []lifecycle.Step
	for _, s := range steps {
		if lifecycle.Record(o, s, rec) {
			recorded = append(recorded, s)
		}
	}
	if len(recorded) == 0 && receipt == nil {
		return ctrl.Result{}, nil
	}
	moves, err := r.follow(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := patch.Status(ctx, r.Client, o, before); err != nil {
		return patch.Retry(ctx, err, fmt.Sprintf("record %v evidence", recorded))
	}
	if len(recorded) == 0 {
		return ctrl.Result{}, nil
	}
	r.evidenceEvent(o, recorded[0], before.Status.State, moves, "%s recorded %v evidence in transaction %s: "+format, append([]any{Name, recorded, hash}, args...)...)
	return ctrl.Result{}, nil
}

// refundEscrow gives a cancelled BUY's escrow back to its payer: the settlement contract's
// refund(ref), recorded in status.chain before it is broadcast and tracked like a mint;
// RefundSent and RefundCompleted are recorded once it is final. An escrow the chain
// already shows closed is never refunded again.
func (r *Reconciler) refundEscrow(ctx context.Context, o *investv1.Order, step lifecycle.Step) (ctrl.Result, error) {
	ref, _ := escrowRef(o)
	c := o.Spec.Quote.CashOnChain
	settlement := common.HexToAddress(c.Settlement)
	if ch := o.Status.Chain; ch != nil && ch.Transaction != nil {
		if ch.Transaction.Receipt != nil {
			if ch.Transaction.Receipt.Status != investv1.ChainReceiptSucceeded {
				return ctrl.Result{}, nil // reverted: Stalled, a person looks
			}
			return r.recordPaidBy(ctx, o, []lifecycle.Step{lifecycle.StepRefundSent, lifecycle.StepRefundCompleted}, ch.Transaction.Receipt.Hash, ch.Transaction.Receipt.BlockNumber,
				"the settlement contract %s returned the escrow %s to its payer", c.Settlement, c.EscrowReference)
		}
		return r.track(ctx, o, step, ch.Transaction)
	}
	e, _, err := r.escrowOf(ctx, o)
	if err != nil {
		return ctrl.Result{}, err
	}
	if e.ClosedIn.Sign() != 0 {
		// Swapped or refunded already (a record lost, or a person refunded it): the chain
		// is the evidence, nothing is signed.
		return r.recordPaidBy(ctx, o, []lifecycle.Step{lifecycle.StepRefundSent, lifecycle.StepRefundCompleted}, "", e.ClosedIn.Int64(),
			"the settlement contract %s shows the escrow %s closed in block %s; nothing new is signed", c.Settlement, c.EscrowReference, e.ClosedIn)
	}
	before := o.DeepCopy()
	rec, err := r.Outbox.Send(ctx, outbox.Call{To: &settlement, Data: contracts.NewDeliveryVersusPayment().PackRefund(ref)}, func(ctx context.Context, tx *investv1.ChainTransaction) error {
		o.Status.Chain = &investv1.OrderChainStatus{Token: settlement.Hex(), Transaction: tx}
		return patch.Status(ctx, r.Client, o, before)
	})
	if rev, isRevert := chain.AsRevert(err); isRevert {
		return r.refuse(ctx, o, rev.Reason())
	}
	if res, stop, err := outbox.Unsent(ctx, rec, err, "the escrow's refund"); stop {
		return res, err
	}
	r.event(o, corev1.EventTypeNormal, ReasonTransactionRecorded, "Record",
		"recorded the escrow's refund transaction %s (nonce %d) on the settlement contract %s before broadcasting", rec.Attempts[0].Hash, rec.Nonce, c.Settlement)
	return ctrl.Result{RequeueAfter: r.poll()}, nil
}
