package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Effect references: every mint, burn and wallet recovery the agent signs on a ShareToken
// carries a bytes32 reference derived from the record it belongs to (EffectRef). The
// token refuses a second use of a reference (EffectAlreadyApplied) and keeps the block it
// was applied in (effectApplied(ref)), so an effect whose record was lost (etcd restored
// from an older snapshot, a status write lost) is found on chain instead of being
// applied twice.

// Steps of an effect reference.
const (
	// EffectMint is a BUY's mint (on its own or as a member of a batch).
	EffectMint = "mint"
	// EffectBurn is a SELL's burn (one wallet or several, one effect).
	EffectBurn = "burn"
	// EffectSettle is a SECONDARY BUY's delivery: the transfers of its units from its
	// sellers' wallets (settleWithRef, one effect).
	EffectSettle = "settle"
	// EffectEscrow is a SECONDARY BUY settled with cash on chain: the reference of its
	// escrow at the settlement contract and of the swap that settles it (the UID is not
	// part of it: the buyer is told the reference at placement, before the order has one).
	EffectEscrow = "escrow"
	// EffectRecoverWallet is a lost-key recovery's forced transfer on one token; the step is
	// EffectRecoverWallet + ":" + the token's ISIN.
	EffectRecoverWallet = "recoverWallet"
)

// EffectAppliedError is the token's custom error for a reference used before.
const EffectAppliedError = "EffectAlreadyApplied"

// EffectAppliedTopic is the topic of the token's EffectApplied(bytes32 indexed ref,
// uint256 units, address agent) event.
var EffectAppliedTopic = crypto.Keccak256Hash([]byte("EffectApplied(bytes32,uint256,address)"))

// EffectRef is the reference of one effect of the record that owns it: keccak256 over a
// version tag and the owner's kind, namespace, name and UID and the step, each ended by a
// NUL byte (none of them may contain one). It uses only what an etcd restore keeps: the
// object's identity and UID (an object restored from a snapshot keeps its UID), never a
// nonce, a hash or a DeliveryBatch (a batch may be formed anew after a restore: a batch
// member's mint uses its order's reference).
func EffectRef(kind, namespace, name, uid, step string) [32]byte {
	var b strings.Builder
	for _, s := range []string{"fundshare.io/effect/v1", kind, namespace, name, uid, step} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return crypto.Keccak256Hash([]byte(b.String()))
}

// EffectReader is what looking an effect up needs: calls, blocks and receipts.
type EffectReader interface {
	ethereum.ContractCaller
	ethereum.ChainReader
	ethereum.TransactionReader
}

// AppliedEffect is an effect the token applied: the transaction and block that did.
type AppliedEffect struct {
	Ref       common.Hash
	Block     uint64
	BlockHash common.Hash
	TxHash    common.Hash
	// Units the effect minted, burned or moved (the event's).
	Units *big.Int
}

// SupportsEffectRefs reports whether the token at addr has the effect references (a
// ShareToken of this release answers effectApplied; an older one reverts).
func SupportsEffectRefs(ctx context.Context, r ethereum.ContractCaller, token common.Address) (bool, error) {
	tok := contracts.NewShareToken()
	out, err := r.CallContract(ctx, ethereum.CallMsg{To: &token, Data: tok.PackEffectApplied([32]byte{})}, nil)
	if err != nil {
		if _, isRevert := AsRevert(DecodeError(err)); isRevert {
			return false, nil
		}
		return false, fmt.Errorf("effectApplied on %s: %w", token.Hex(), err)
	}
	_, err = tok.UnpackEffectApplied(out)
	return err == nil, nil
}

// FindEffect looks ref up on the token at the latest block: nil when it was never applied,
// else the transaction that applied it (found by its EffectApplied event in the block the
// token names).
func FindEffect(ctx context.Context, r EffectReader, token common.Address, ref [32]byte) (*AppliedEffect, error) {
	tok := contracts.NewShareToken()
	out, err := r.CallContract(ctx, ethereum.CallMsg{To: &token, Data: tok.PackEffectApplied(ref)}, nil)
	if err != nil {
		return nil, fmt.Errorf("effectApplied(%s) on %s: %w", common.Hash(ref).Hex(), token.Hex(), DecodeError(err))
	}
	n, err := tok.UnpackEffectApplied(out)
	if err != nil {
		return nil, fmt.Errorf("effectApplied(%s) on %s: %w", common.Hash(ref).Hex(), token.Hex(), err)
	}
	if n.Sign() == 0 {
		return nil, nil
	}
	if !n.IsUint64() {
		return nil, fmt.Errorf("effectApplied(%s) on %s: block %s", common.Hash(ref).Hex(), token.Hex(), n)
	}
	return effectInBlock(ctx, r, token, ref, n.Uint64())
}

// effectInBlock finds the EffectApplied event of ref in block n: with eth_getLogs where the
// endpoint has it, else from the receipts of the block's transactions to the token.
func effectInBlock(ctx context.Context, r EffectReader, token common.Address, ref [32]byte, n uint64) (*AppliedEffect, error) {
	block := new(big.Int).SetUint64(n)
	var logs []types.Log
	if lf, ok := r.(ethereum.LogFilterer); ok {
		got, err := lf.FilterLogs(ctx, ethereum.FilterQuery{
			FromBlock: block, ToBlock: block, Addresses: []common.Address{token},
			Topics: [][]common.Hash{{EffectAppliedTopic}, {common.Hash(ref)}},
		})
		if err != nil {
			return nil, fmt.Errorf("logs of block %d: %w", n, err)
		}
		logs = got
	} else {
		b, err := r.BlockByNumber(ctx, block)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", n, err)
		}
		for _, tx := range b.Transactions() {
			if tx.To() == nil || *tx.To() != token {
				continue
			}
			rc, err := r.TransactionReceipt(ctx, tx.Hash())
			if err != nil {
				return nil, fmt.Errorf("receipt of %s: %w", tx.Hash().Hex(), err)
			}
			for _, l := range rc.Logs {
				logs = append(logs, *l)
			}
		}
	}
	tok := contracts.NewShareToken()
	for i := range logs {
		l := &logs[i]
		if l.Address != token || len(l.Topics) < 2 || l.Topics[0] != EffectAppliedTopic || l.Topics[1] != common.Hash(ref) || l.Removed {
			continue
		}
		ev, err := tok.UnpackEffectAppliedEvent(l)
		if err != nil {
			return nil, fmt.Errorf("EffectApplied in %s: %w", l.TxHash.Hex(), err)
		}
		return &AppliedEffect{Ref: common.Hash(ref), Block: l.BlockNumber, BlockHash: l.BlockHash, TxHash: l.TxHash, Units: ev.Units}, nil
	}
	return nil, fmt.Errorf("the token %s says %s was applied in block %d, but no EffectApplied event of it is in that block (the endpoint lags?)", token.Hex(), common.Hash(ref).Hex(), n)
}

// EffectsApplied are the references a mined transaction applied (its EffectApplied
// events on token).
func EffectsApplied(rc *types.Receipt, token common.Address) map[common.Hash]bool {
	out := map[common.Hash]bool{}
	if rc == nil {
		return out
	}
	for _, l := range rc.Logs {
		if l.Address == token && len(l.Topics) >= 2 && l.Topics[0] == EffectAppliedTopic {
			out[l.Topics[1]] = true
		}
	}
	return out
}

// IsEffectApplied reports whether err is the token's EffectAlreadyApplied revert.
func IsEffectApplied(err error) bool {
	var rev *RevertError
	return errors.As(err, &rev) && rev.Name == EffectAppliedError
}
