// Package chaintest starts a real EVM for tests (go-ethereum's simulated backend) with the
// identity registry and one share token deployed: the operator's agent key (Agent, used
// only by the code under test, so its nonces are the code's own), and an admin key that
// also holds the agent role, for the test's own compliance actions (register, pause,
// freeze) without touching the agent's nonces. Blocks are mined when the test commits.
package chaintest

import (
	"context"
	"encoding/hex"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// T is the part of testing.TB (and Ginkgo's GinkgoT()) the harness uses.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Chain is a simulated chain with the registry and a token.
type Chain struct {
	t       T
	Ctx     context.Context
	Backend *simulated.Backend
	Client  simulated.Client
	ChainID *big.Int

	// Agent is the operator's key (AGENT_ROLE on registry and token); Admin holds the admin
	// and agent roles and signs the test's own actions.
	Agent, Admin *chain.KeySigner

	Registry, Token common.Address
	RegistryABI     *contracts.IdentityRegistry
	TokenABI        *contracts.ShareToken
}

// New starts the chain; it is closed when the test ends.
func New(t T) *Chain {
	t.Helper()
	c := &Chain{t: t, Ctx: context.Background(), Agent: NewSigner(t), Admin: NewSigner(t)}
	eth := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	c.Backend = simulated.NewBackend(types.GenesisAlloc{
		c.Agent.Address(): {Balance: new(big.Int).Mul(eth, big.NewInt(1000))},
		c.Admin.Address(): {Balance: new(big.Int).Mul(eth, big.NewInt(1000))},
	})
	t.Cleanup(func() { _ = c.Backend.Close() })
	c.Client = c.Backend.Client()
	id, err := chain.VerifyChainID(c.Ctx, c.Client, chain.NetworkLocal, 0)
	if err != nil {
		t.Fatalf("simulated backend: %v", err)
	}
	c.ChainID = id
	c.RegistryABI, c.TokenABI = contracts.NewIdentityRegistry(), contracts.NewShareToken()

	reg, err := chain.DeployIdentityRegistry(c.Ctx, c.Client, c.Admin, id, c.Admin.Address(), c.Agent.Address())
	if err != nil {
		t.Fatalf("deploy registry: %v", err)
	}
	c.Mined(reg.Tx)
	c.Registry = reg.Address
	c.Token = c.DeployToken("Fundshare Global Equity A", "LU0000000001")
	role := crypto.Keccak256Hash([]byte("AGENT_ROLE"))
	c.AsAdmin(c.Registry, c.RegistryABI.PackGrantRole(role, c.Admin.Address()))
	c.AsAdmin(c.Token, c.TokenABI.PackGrantRole(role, c.Admin.Address()))
	return c
}

// DeployToken deploys another share token on the registry (admin and agent as above).
func (c *Chain) DeployToken(name, symbol string) common.Address {
	c.t.Helper()
	tok, err := chain.DeployShareToken(c.Ctx, c.Client, c.Admin, c.ChainID, chain.ShareTokenParams{
		Name: name, Symbol: symbol, IdentityRegistry: c.Registry, Admin: c.Admin.Address(), Agent: c.Agent.Address(),
	})
	if err != nil {
		c.t.Fatalf("deploy token: %v", err)
	}
	c.Mined(tok.Tx)
	if c.Token != (common.Address{}) {
		c.AsAdmin(tok.Address, c.TokenABI.PackGrantRole(crypto.Keccak256Hash([]byte("AGENT_ROLE")), c.Admin.Address()))
	}
	return tok.Address
}

// NewSigner is a fresh random key.
func NewSigner(t T) *chain.KeySigner {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatalf("key: %v", err)
	}
	s, err := chain.NewKeySigner(hex.EncodeToString(crypto.FromECDSA(k)))
	if err != nil {
		t.Fatalf("signer: %v", err)
	}
	return s
}

// Mined commits a block and fails unless tx succeeded in it.
func (c *Chain) Mined(tx *types.Transaction) *types.Receipt {
	c.t.Helper()
	c.Backend.Commit()
	r, err := c.Client.TransactionReceipt(c.Ctx, tx.Hash())
	if err != nil {
		c.t.Fatalf("receipt of %s: %v", tx.Hash().Hex(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("transaction %s failed", tx.Hash().Hex())
	}
	return r
}

// AsAdmin sends calldata to a contract signed by the admin and mines it; it must succeed.
func (c *Chain) AsAdmin(to common.Address, calldata []byte) {
	c.t.Helper()
	inst := c.TokenABI.Instance(c.Client, to) // any ABI: the calldata is already packed
	tx, err := bind.Transact(inst, chain.TransactOpts(c.Ctx, c.Admin, c.ChainID), calldata)
	if err != nil {
		c.t.Fatalf("admin transaction: %v", chain.DecodeError(err))
	}
	c.Mined(tx)
}

// Register puts wallets in the identity registry.
func (c *Chain) Register(wallets ...common.Address) {
	c.t.Helper()
	for _, w := range wallets {
		c.AsAdmin(c.Registry, c.RegistryABI.PackRegisterWallet(w))
	}
}

// Pause pauses token.
func (c *Chain) Pause(token common.Address) { c.t.Helper(); c.AsAdmin(token, c.TokenABI.PackPause()) }

// Unpause unpauses token.
func (c *Chain) Unpause(token common.Address) {
	c.t.Helper()
	c.AsAdmin(token, c.TokenABI.PackUnpause())
}

// Freeze freezes (or unfreezes) a wallet on token.
func (c *Chain) Freeze(token, wallet common.Address, frozen bool) {
	c.t.Helper()
	c.AsAdmin(token, c.TokenABI.PackSetAddressFrozen(wallet, frozen))
}

// Balance is balanceOf(wallet) on token at the head.
func (c *Chain) Balance(token, wallet common.Address) int64 {
	c.t.Helper()
	inst := c.TokenABI.Instance(c.Client, token)
	b, err := bind.Call(inst, &bind.CallOpts{Context: c.Ctx}, c.TokenABI.PackBalanceOf(wallet), c.TokenABI.UnpackBalanceOf)
	if err != nil {
		c.t.Fatalf("balanceOf: %v", err)
	}
	return b.Int64()
}

// Transfer is one Transfer event of the canonical chain.
type Transfer struct {
	From, To common.Address
	Units    int64
	TxHash   common.Hash
	Block    uint64
}

// Transfers lists token's Transfer events on the canonical chain, oldest first.
func (c *Chain) Transfers(token common.Address) []Transfer {
	c.t.Helper()
	logs, err := c.Client.FilterLogs(c.Ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{token}})
	if err != nil {
		c.t.Fatalf("filter logs: %v", err)
	}
	var out []Transfer
	for i := range logs {
		ev, err := c.TokenABI.UnpackTransferEvent(&logs[i])
		if err != nil {
			continue
		}
		out = append(out, Transfer{From: ev.From, To: ev.To, Units: ev.Value.Int64(), TxHash: logs[i].TxHash, Block: logs[i].BlockNumber})
	}
	return out
}

// Mints lists token's mints (Transfer events from the zero address) to wallet.
func (c *Chain) Mints(token, wallet common.Address) []Transfer {
	c.t.Helper()
	var out []Transfer
	for _, tr := range c.Transfers(token) {
		if tr.From == (common.Address{}) && tr.To == wallet {
			out = append(out, tr)
		}
	}
	return out
}

// Burns lists token's burns (Transfer events to the zero address) from wallet.
func (c *Chain) Burns(token, wallet common.Address) []Transfer {
	c.t.Helper()
	var out []Transfer
	for _, tr := range c.Transfers(token) {
		if tr.To == (common.Address{}) && tr.From == wallet {
			out = append(out, tr)
		}
	}
	return out
}

// Commit mines n blocks.
func (c *Chain) Commit(n int) {
	for range n {
		c.Backend.Commit()
	}
}

// Head is the latest block number.
func (c *Chain) Head() uint64 {
	c.t.Helper()
	n, err := c.Client.BlockNumber(c.Ctx)
	if err != nil {
		c.t.Fatalf("block number: %v", err)
	}
	return n
}

// NewWallet is the address of a fresh key (no gas needed: wallets only receive).
func (c *Chain) NewWallet() common.Address {
	c.t.Helper()
	return NewSigner(c.t).Address()
}
