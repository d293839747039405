// Package token connects the catalogue and the wallets to the token chain: a share class's
// token (deployed or adopted, reported in its status), a wallet's entry in the identity
// registry, and the periodic reconciliation of on-chain balances with account holdings.
package token

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Reader is what reading the chain needs: contract code and calls (go-ethereum's
// ethclient.Client, the simulated backend's client and outbox.Backend implement it).
type Reader interface {
	ethereum.ContractCaller
	ethereum.ChainStateReader
	ethereum.BlockNumberReader
	ethereum.TransactionReader
}

// call runs a read-only call of to at block (nil: latest) and unpacks its result.
func call[T any](ctx context.Context, r Reader, to common.Address, block *big.Int, data []byte, unpack func([]byte) (T, error)) (T, error) {
	var zero T
	out, err := r.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, block)
	if err != nil {
		return zero, chain.DecodeError(err)
	}
	return unpack(out)
}

// AgentRole is the role the operator's key must hold on a token (keccak256("AGENT_ROLE")).
var AgentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))

// Problem is why a token cannot serve a share class: a condition reason and a message.
type Problem struct {
	Reason  string
	Message string
}

func (p *Problem) Error() string { return p.Reason + ": " + p.Message }

// Verifier checks that an address holds a usable ShareToken: this release's code, the
// configured identity registry, and AGENT_ROLE for the operator's key.
type Verifier struct {
	Chain    Reader
	Registry common.Address
	Operator common.Address

	mu         sync.Mutex
	runtime    []byte // the ShareToken's runtime code, computed once
	dvpRuntime []byte // DeliveryVersusPayment's runtime code, computed once
}

// runtimeCode is the code a ShareToken deployment leaves at its address: the creation code
// run with eth_call (nothing is sent). The contract has no immutables, so its runtime code
// does not depend on the constructor's arguments.
func (v *Verifier) runtimeCode(ctx context.Context) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.runtime != nil {
		return v.runtime, nil
	}
	input := contracts.NewShareToken().PackConstructor("verify", "VERIFY", v.Registry, v.Operator, v.Operator)
	data := append(common.FromHex(contracts.ShareTokenMetaData.Bin), input...)
	code, err := v.Chain.CallContract(ctx, ethereum.CallMsg{From: v.Operator, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("compute the ShareToken's runtime code against registry %s: %w", v.Registry.Hex(), err)
	}
	if len(code) == 0 {
		return nil, fmt.Errorf("compute the ShareToken's runtime code: empty result (is %s the identity registry?)", v.Registry.Hex())
	}
	v.runtime = code
	return code, nil
}

// Verify returns a *Problem when addr cannot serve as a share class's token, nil when it
// can, and another error when the chain could not be asked. A paused token is this
// release's ShareToken with every check passed, but not usable for mints: Problem
// ReasonPaused, checked last, so that the token is still recorded as the share class's.
func (v *Verifier) Verify(ctx context.Context, addr common.Address) error {
	code, err := v.Chain.CodeAt(ctx, addr, nil)
	if err != nil {
		return fmt.Errorf("code at %s: %w", addr.Hex(), err)
	}
	if len(code) == 0 {
		return &Problem{ReasonNoContract, fmt.Sprintf("there is no contract at %s on this chain", addr.Hex())}
	}
	want, err := v.runtimeCode(ctx)
	if err != nil {
		return err
	}
	if !bytes.Equal(code, want) {
		return &Problem{ReasonNotAShareToken, fmt.Sprintf("the code at %s is not this release's ShareToken (code hash %s, want %s)",
			addr.Hex(), crypto.Keccak256Hash(code).Hex(), crypto.Keccak256Hash(want).Hex())}
	}
	tok := contracts.NewShareToken()
	reg, err := call(ctx, v.Chain, addr, nil, tok.PackIdentityRegistry(), tok.UnpackIdentityRegistry)
	if err != nil {
		return fmt.Errorf("identityRegistry of %s: %w", addr.Hex(), err)
	}
	if reg != v.Registry {
		return &Problem{ReasonWrongRegistry, fmt.Sprintf("the token at %s uses identity registry %s, the operator is configured with %s", addr.Hex(), reg.Hex(), v.Registry.Hex())}
	}
	ok, err := call(ctx, v.Chain, addr, nil, tok.PackHasRole(AgentRole, v.Operator), tok.UnpackHasRole)
	if err != nil {
		return fmt.Errorf("hasRole on %s: %w", addr.Hex(), err)
	}
	if !ok {
		return &Problem{ReasonNotAgent, fmt.Sprintf("the operator's key %s does not hold AGENT_ROLE on the token at %s: its admin must grantRole(AGENT_ROLE, %s)", v.Operator.Hex(), addr.Hex(), v.Operator.Hex())}
	}
	paused, err := call(ctx, v.Chain, addr, nil, tok.PackPaused(), tok.UnpackPaused)
	if err != nil {
		return fmt.Errorf("paused on %s: %w", addr.Hex(), err)
	}
	if paused {
		return &Problem{ReasonPaused, fmt.Sprintf("the token at %s is paused: mints and holder transfers revert (EnforcedPause) until an agent calls unpause(); burns and forced transfers still apply", addr.Hex())}
	}
	return nil
}
