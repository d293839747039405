package outbox

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
)

// Effects found on chain: before an owner signs the first transaction of an effect it has
// no record of, it asks the token whether the effect's reference was applied (Applied);
// if so it records the transaction that applied it (rebuilt from the chain, the same
// signed bytes) instead of signing a new one. The records can fall behind the chain (etcd
// restored from an older snapshot, a status write lost); the chain keeps what happened.

// AppliedEffect is an effect found on chain with the record of the transaction that
// applied it.
type AppliedEffect struct {
	chain.AppliedEffect
	// Tx is the transaction that applied the effect, as the outbox records its own: chain,
	// signer, nonce and the signed bytes (one attempt). Its receipt is left to Track.
	Tx *investv1.ChainTransaction
	// Foreign is set when another key signed it: the outbox cannot track it (its From is
	// not the outbox's signer), and a person records the evidence.
	Foreign bool
}

// Evidence is what an owner records of an effect the chain shows applied: the reference,
// the transaction and block that applied it, the units, and when it was found.
func (e *AppliedEffect) Evidence(now time.Time) *investv1.ChainEffect {
	units := int64(0)
	if e.Units != nil && e.Units.IsInt64() {
		units = e.Units.Int64()
	}
	return &investv1.ChainEffect{
		Ref: e.Ref.Hex(), TransactionHash: e.TxHash.Hex(),
		BlockNumber: int64(e.Block), //nolint:gosec // block numbers are far below 2^63
		Units:       units, At: metav1.NewTime(now.UTC().Truncate(time.Second)),
	}
}

// refSupport caches which tokens have the effect references (their code does not change).
type refSupport struct {
	mu sync.Mutex
	m  map[common.Address]bool
}

// EffectRefs reports whether the token has the effect references (this release's
// ShareToken); the answer is cached per token.
func (o *Outbox) EffectRefs(ctx context.Context, token common.Address) (bool, error) {
	o.refs.mu.Lock()
	v, ok := o.refs.m[token]
	o.refs.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := chain.SupportsEffectRefs(ctx, o.cfg.Backend, token)
	if err != nil {
		return false, err
	}
	o.refs.mu.Lock()
	if o.refs.m == nil {
		o.refs.m = map[common.Address]bool{}
	}
	o.refs.m[token] = v
	o.refs.mu.Unlock()
	return v, nil
}

// Applied looks the effect ref up on the token: nil when it was never applied, else the
// transaction that applied it with its record rebuilt from the chain.
func (o *Outbox) Applied(ctx context.Context, token common.Address, ref [32]byte) (*AppliedEffect, error) {
	found, err := chain.FindEffect(ctx, o.cfg.Backend, token, ref)
	if err != nil || found == nil {
		return nil, err
	}
	rec, foreign, err := o.RecordOf(ctx, found.TxHash)
	if err != nil {
		return nil, err
	}
	return &AppliedEffect{AppliedEffect: *found, Tx: rec, Foreign: foreign}, nil
}

// RecordOf rebuilds the record of a transaction the chain holds: its chain, signer, nonce
// and signed bytes as one attempt (no receipt: Track finds it). foreign is true when the
// signer is not the outbox's.
func (o *Outbox) RecordOf(ctx context.Context, hash common.Hash) (rec *investv1.ChainTransaction, foreign bool, err error) {
	tx, _, err := o.cfg.Backend.TransactionByHash(ctx, hash)
	if err != nil {
		return nil, false, fmt.Errorf("outbox: transaction %s: %w", hash.Hex(), err)
	}
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		return nil, false, fmt.Errorf("outbox: sender of %s: %w", hash.Hex(), err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return nil, false, fmt.Errorf("outbox: encode %s: %w", hash.Hex(), err)
	}
	rec = &investv1.ChainTransaction{
		ChainID: tx.ChainId().Int64(), From: from.Hex(), Nonce: int64(tx.Nonce()), //nolint:gosec // nonces stay far below 2^63
		Attempts: []investv1.ChainTransactionAttempt{{
			Hash: tx.Hash().Hex(), Raw: hexutil.Encode(raw),
			MaxFeePerGas: tx.GasFeeCap().String(), MaxPriorityFeePerGas: tx.GasTipCap().String(),
			Gas:      int64(tx.Gas()), //nolint:gosec // gas limits are far below 2^63
			SignedAt: metav1.NewTime(o.cfg.Now().UTC()),
		}},
	}
	if tx.To() != nil {
		rec.To = tx.To().Hex()
	}
	foreign = rec.ChainID != o.chainID || !strings.EqualFold(rec.From, o.from.Hex())
	return rec, foreign, nil
}

// Receipt is the chain's receipt of a transaction.
func (o *Outbox) Receipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	return o.cfg.Backend.TransactionReceipt(ctx, hash)
}
