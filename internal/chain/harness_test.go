package chain

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

var (
	agentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))
	adminRole = common.Hash{} // OpenZeppelin's DEFAULT_ADMIN_ROLE
)

// tokenChain is a real EVM (go-ethereum's simulated backend, blocks mined on Commit) with the
// identity registry and one share token deployed by the helpers under test. The admin and the
// agent are different keys, so role separation is observable.
type tokenChain struct {
	t       *testing.T
	ctx     context.Context
	backend *simulated.Backend
	client  simulated.Client
	chainID *big.Int

	admin, agent *KeySigner
	// Wallets of investors; funded with gas money, none registered yet.
	alice, bob, carol *KeySigner

	registryAddr, tokenAddr common.Address
	registryABI             *contracts.IdentityRegistry
	tokenABI                *contracts.ShareToken
	registry, token         *bind.BoundContract
}

func newTokenChain(t *testing.T) *tokenChain {
	t.Helper()
	c := &tokenChain{t: t, ctx: context.Background()}
	c.admin, c.agent = newTestSigner(t), newTestSigner(t)
	c.alice, c.bob, c.carol = newTestSigner(t), newTestSigner(t), newTestSigner(t)
	eth := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	alloc := types.GenesisAlloc{}
	for _, s := range []*KeySigner{c.admin, c.agent, c.alice, c.bob, c.carol} {
		alloc[s.Address()] = types.Account{Balance: new(big.Int).Mul(eth, big.NewInt(100))}
	}
	c.backend = simulated.NewBackend(alloc)
	t.Cleanup(func() { _ = c.backend.Close() })
	c.client = c.backend.Client()

	id, err := VerifyChainID(c.ctx, c.client, NetworkLocal, 0)
	if err != nil {
		t.Fatalf("simulated backend: %v", err)
	}
	c.chainID = id

	reg, err := DeployIdentityRegistry(c.ctx, c.client, c.admin, c.chainID, c.admin.Address(), c.agent.Address())
	if err != nil {
		t.Fatalf("deploy registry: %v", err)
	}
	c.mined(reg.Tx)
	tok, err := DeployShareToken(c.ctx, c.client, c.admin, c.chainID, ShareTokenParams{
		Name: "Fundshare Global Equity A", Symbol: "LU0000000001",
		IdentityRegistry: reg.Address, Admin: c.admin.Address(), Agent: c.agent.Address(),
	})
	if err != nil {
		t.Fatalf("deploy token: %v", err)
	}
	c.mined(tok.Tx)
	c.registryAddr, c.tokenAddr = reg.Address, tok.Address
	c.registryABI, c.tokenABI = contracts.NewIdentityRegistry(), contracts.NewShareToken()
	c.registry = c.registryABI.Instance(c.client, reg.Address)
	c.token = c.tokenABI.Instance(c.client, tok.Address)
	return c
}

// mined commits a block and returns tx's receipt, failing the test unless it succeeded.
func (c *tokenChain) mined(tx *types.Transaction) *types.Receipt {
	c.t.Helper()
	c.backend.Commit()
	r, err := c.client.TransactionReceipt(c.ctx, tx.Hash())
	if err != nil {
		c.t.Fatalf("receipt of %s: %v", tx.Hash().Hex(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		rev, rerr := RevertOfReceipt(c.ctx, c.client, tx, r)
		c.t.Fatalf("transaction %s failed: %v %v", tx.Hash().Hex(), rev, rerr)
	}
	return r
}

// send signs calldata as from, sends it to the contract and mines it; it must succeed.
func (c *tokenChain) send(from Signer, to *bind.BoundContract, calldata []byte) *types.Receipt {
	c.t.Helper()
	tx, err := bind.Transact(to, TransactOpts(c.ctx, from, c.chainID), calldata)
	if err != nil {
		c.t.Fatalf("send: %v", DecodeError(err))
	}
	return c.mined(tx)
}

// reverts sends calldata as from and expects the node to refuse it with the named error (the
// gas estimate runs the call and reverts, so nothing is mined); it returns the decoded revert.
func (c *tokenChain) reverts(from Signer, to *bind.BoundContract, calldata []byte, wantError string) *RevertError {
	c.t.Helper()
	tx, err := bind.Transact(to, TransactOpts(c.ctx, from, c.chainID), calldata)
	if err == nil {
		c.backend.Commit()
		c.t.Fatalf("transaction %s was accepted, want revert %s", tx.Hash().Hex(), wantError)
	}
	r, ok := AsRevert(err)
	if !ok {
		c.t.Fatalf("error %v is no revert, want %s", err, wantError)
	}
	if r.Name != wantError {
		c.t.Fatalf("reverted with %s, want %s", r.Reason(), wantError)
	}
	return r
}

func (c *tokenChain) register(wallets ...*KeySigner) {
	c.t.Helper()
	for _, w := range wallets {
		c.send(c.agent, c.registry, c.registryABI.PackRegisterWallet(w.Address()))
	}
}

func (c *tokenChain) mint(to *KeySigner, units int64) *types.Receipt {
	c.t.Helper()
	return c.send(c.agent, c.token, c.tokenABI.PackMint(to.Address(), big.NewInt(units)))
}

func (c *tokenChain) balance(w common.Address) int64 {
	c.t.Helper()
	b, err := bind.Call(c.token, &bind.CallOpts{Context: c.ctx}, c.tokenABI.PackBalanceOf(w), c.tokenABI.UnpackBalanceOf)
	if err != nil {
		c.t.Fatalf("balanceOf: %v", err)
	}
	return b.Int64()
}

func (c *tokenChain) totalSupply() int64 {
	c.t.Helper()
	s, err := bind.Call(c.token, &bind.CallOpts{Context: c.ctx}, c.tokenABI.PackTotalSupply(), c.tokenABI.UnpackTotalSupply)
	if err != nil {
		c.t.Fatalf("totalSupply: %v", err)
	}
	return s.Int64()
}

func (c *tokenChain) canTransfer(from, to common.Address, units int64) bool {
	c.t.Helper()
	ok, err := bind.Call(c.token, &bind.CallOpts{Context: c.ctx}, c.tokenABI.PackCanTransfer(from, to, big.NewInt(units)), c.tokenABI.UnpackCanTransfer)
	if err != nil {
		c.t.Fatalf("canTransfer: %v", err)
	}
	return ok
}

func (c *tokenChain) verified(w common.Address) bool {
	c.t.Helper()
	ok, err := bind.Call(c.registry, &bind.CallOpts{Context: c.ctx}, c.registryABI.PackIsVerified(w), c.registryABI.UnpackIsVerified)
	if err != nil {
		c.t.Fatalf("isVerified: %v", err)
	}
	return ok
}

// transfers returns the Transfer events of a receipt, in order.
func (c *tokenChain) transfers(r *types.Receipt) []*contracts.ShareTokenTransfer {
	c.t.Helper()
	var out []*contracts.ShareTokenTransfer
	for _, l := range r.Logs {
		if ev, err := c.tokenABI.UnpackTransferEvent(l); err == nil {
			out = append(out, ev)
		}
	}
	return out
}

func wantArgs(t *testing.T, r *RevertError, want ...any) {
	t.Helper()
	if len(r.Args) != len(want) {
		t.Fatalf("%s: %d arguments, want %d", r.Reason(), len(r.Args), len(want))
	}
	for i := range want {
		got, w := formatArg(r.Args[i]), formatArg(want[i])
		if got != w {
			t.Fatalf("%s: argument %d is %s, want %s", r.Reason(), i, got, w)
		}
	}
}
