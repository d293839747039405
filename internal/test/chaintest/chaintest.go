// Package chaintest starts a real EVM for tests (go-ethereum's simulated backend) with the
// identity registry and one share token deployed: the operator's agent key (Agent, used
// only by the code under test, so its nonces are the code's own), and an admin key that
// also holds the agent role, for the test's own compliance actions (register, pause,
// freeze, mint) without touching the agent's nonces. Blocks are mined when the test commits.
//
// Tests of the contracts themselves start the chain with SeparateRoles, which leaves the
// roles exactly as the deployment helpers grant them.
package chaintest

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// T is the part of testing.TB (and Ginkgo's GinkgoT()) the harness uses.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// agentRole is the role of the keys that mint, burn, freeze, pause and register wallets.
var agentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))

// Chain is a simulated chain with the registry and a token.
type Chain struct {
	t       T
	Ctx     context.Context
	Backend *simulated.Backend
	Client  simulated.Client
	ChainID *big.Int

	// Agent is the operator's key (AGENT_ROLE on registry and token); Admin holds the admin
	// and agent roles and signs the test's own actions (with SeparateRoles, the admin role
	// only).
	Agent, Admin *chain.KeySigner

	Registry, Token common.Address
	RegistryABI     *contracts.IdentityRegistry
	TokenABI        *contracts.ShareToken

	// RPCURL is the chain's JSON-RPC endpoint over HTTP (ServeRPC); empty without one.
	RPCURL string

	// separate is SeparateRoles: the admin is not granted the agent role.
	separate bool
	// rpcPort is ServeRPC's port, 0 without it.
	rpcPort int
}

// Option changes how New sets up the chain.
type Option func(*Chain)

// SeparateRoles leaves the roles as the deployment helpers grant them: the admin holds only
// the admin role and the agent only the agent role, so role separation is observable, as in
// tests of the contracts' access control. The test's own agent actions (Register, Mint,
// Pause, Unpause, Freeze) are then signed by the agent, which moves the agent's nonces: not
// for tests of code that signs as the agent.
func SeparateRoles() Option { return func(c *Chain) { c.separate = true } }

// WithAgent makes s the operator's agent key instead of a fresh one: a test that hands the
// key to code which loads it as production does (the signer Secret) creates it first.
func WithAgent(s *chain.KeySigner) Option { return func(c *Chain) { c.Agent = s } }

// ServeRPC serves the chain's JSON-RPC (eth, net, web3) over HTTP on 127.0.0.1:port, at
// RPCURL, besides the in-process Client: for code that dials an endpoint as production
// does (the manager's chain agent and webhooks, app.Setup). The test still mines, forks and
// rolls back through Backend.
func ServeRPC(port int) Option { return func(c *Chain) { c.rpcPort = port } }

// New starts the chain; it is closed when the test ends.
func New(t T, opts ...Option) *Chain {
	t.Helper()
	c := &Chain{t: t, Ctx: context.Background(), Agent: NewSigner(t), Admin: NewSigner(t)}
	for _, o := range opts {
		o(c)
	}
	var nodeOpts []func(*node.Config, *ethconfig.Config)
	if c.rpcPort != 0 {
		nodeOpts = append(nodeOpts, func(n *node.Config, _ *ethconfig.Config) {
			n.HTTPHost, n.HTTPPort, n.HTTPModules = "127.0.0.1", c.rpcPort, []string{"eth", "net", "web3"}
		})
		c.RPCURL = fmt.Sprintf("http://127.0.0.1:%d", c.rpcPort)
	}
	c.Backend = simulated.NewBackend(types.GenesisAlloc{
		c.Agent.Address(): {Balance: ether(1000)},
		c.Admin.Address(): {Balance: ether(1000)},
	}, nodeOpts...)
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
	if !c.separate {
		c.AsAdmin(c.Registry, c.RegistryABI.PackGrantRole(agentRole, c.Admin.Address()))
	}
	c.Token = c.DeployToken("Fundshare Global Equity A", "LU0000000001")
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
	if !c.separate {
		c.AsAdmin(tok.Address, c.TokenABI.PackGrantRole(agentRole, c.Admin.Address()))
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

// Investors are n fresh keys, each funded with 100 ether of gas money by the admin (the
// transfers are mined before it returns), none of them registered: wallets that send
// transactions of their own, where NewWallet's only receive.
func (c *Chain) Investors(n int) []*chain.KeySigner {
	c.t.Helper()
	nonce, err := c.Client.PendingNonceAt(c.Ctx, c.Admin.Address())
	if err != nil {
		c.t.Fatalf("admin nonce: %v", err)
	}
	head, err := c.Client.HeaderByNumber(c.Ctx, nil)
	if err != nil {
		c.t.Fatalf("head: %v", err)
	}
	tip, err := c.Client.SuggestGasTipCap(c.Ctx)
	if err != nil {
		c.t.Fatalf("gas tip: %v", err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	out := make([]*chain.KeySigner, n)
	txs := make([]*types.Transaction, n)
	for i := range out {
		out[i] = NewSigner(c.t)
		to := out[i].Address()
		// Numbered here, one after the other, rather than each asking the node.
		tx, err := c.Admin.SignTx(c.Ctx, types.NewTx(&types.DynamicFeeTx{
			ChainID: c.ChainID, Nonce: nonce + uint64(i), GasTipCap: tip, GasFeeCap: feeCap,
			Gas: params.TxGas, To: &to, Value: ether(100),
		}), c.ChainID)
		if err == nil {
			err = c.Client.SendTransaction(c.Ctx, tx)
		}
		if err != nil {
			c.t.Fatalf("fund investor %s: %v", to.Hex(), err)
		}
		txs[i] = tx
	}
	c.mined(txs...)
	return out
}

// Mined mines until tx is in a block and fails unless it succeeded there; the failure names
// the decoded revert reason.
func (c *Chain) Mined(tx *types.Transaction) *types.Receipt {
	c.t.Helper()
	return c.mined(tx)[0]
}

// minedWithin bounds how long mined commits blocks waiting for a transaction, every
// minedRetry.
const (
	minedWithin = 10 * time.Second
	minedRetry  = 5 * time.Millisecond
)

// mined commits a block and reads the receipts of txs, committing again while one is not
// there yet: the node's pool may take a sent transaction in a moment after SendTransaction
// returns (seen with several transactions of one sender), so the first block may lack it.
// It fails unless every transaction succeeded.
func (c *Chain) mined(txs ...*types.Transaction) []*types.Receipt {
	c.t.Helper()
	receipts := make([]*types.Receipt, len(txs))
	deadline := time.Now().Add(minedWithin)
	for missing, round := len(txs), 0; missing > 0; round++ {
		if round > 0 {
			time.Sleep(minedRetry) // give the pool its moment rather than mine empty blocks flat out
		}
		c.Backend.Commit()
		for i, tx := range txs {
			if receipts[i] != nil {
				continue
			}
			r, err := c.Client.TransactionReceipt(c.Ctx, tx.Hash())
			switch {
			case errors.Is(err, ethereum.NotFound) && time.Now().Before(deadline):
				continue
			case err != nil:
				c.t.Fatalf("receipt of %s: %v", tx.Hash().Hex(), err)
			}
			receipts[i], missing = r, missing-1
		}
	}
	for i, tx := range txs {
		if r := receipts[i]; r.Status != types.ReceiptStatusSuccessful {
			rev, err := chain.RevertOfReceipt(c.Ctx, c.Client, tx, r)
			if err != nil {
				c.t.Fatalf("transaction %s failed (reason unknown: %v)", tx.Hash().Hex(), err)
			}
			c.t.Fatalf("transaction %s failed: %v", tx.Hash().Hex(), rev)
		}
	}
	return receipts
}

// Send signs calldata as from, sends it to the contract at to and mines it; it must succeed.
func (c *Chain) Send(from chain.Signer, to common.Address, calldata []byte) *types.Receipt {
	c.t.Helper()
	tx, err := bind.Transact(c.bound(to), chain.TransactOpts(c.Ctx, from, c.ChainID), calldata)
	if err != nil {
		c.t.Fatalf("send: %v", chain.DecodeError(err))
	}
	return c.Mined(tx)
}

// Reverts sends calldata as from to the contract at to and expects the node to refuse it
// with the named error (the gas estimate runs the call and reverts, so nothing is mined);
// it returns the decoded revert, whose Args the test checks.
func (c *Chain) Reverts(from chain.Signer, to common.Address, calldata []byte, wantError string) *chain.RevertError {
	c.t.Helper()
	tx, err := bind.Transact(c.bound(to), chain.TransactOpts(c.Ctx, from, c.ChainID), calldata)
	if err == nil {
		c.Backend.Commit()
		c.t.Fatalf("transaction %s was accepted, want revert %s", tx.Hash().Hex(), wantError)
	}
	r, ok := chain.AsRevert(err)
	if !ok {
		c.t.Fatalf("error %v is no revert, want %s", err, wantError)
	}
	if r.Name != wantError {
		c.t.Fatalf("reverted with %s, want %s", r.Reason(), wantError)
	}
	return r
}

// bound is the contract at addr, for calldata that is already packed (any ABI will do).
func (c *Chain) bound(addr common.Address) *bind.BoundContract {
	return c.TokenABI.Instance(c.Client, addr)
}

// AsAdmin sends calldata to a contract signed by the admin and mines it; it must succeed.
func (c *Chain) AsAdmin(to common.Address, calldata []byte) {
	c.t.Helper()
	c.Send(c.Admin, to, calldata)
}

// asAgent sends an agent action of the test's own: signed by the admin, or with
// SeparateRoles (where the admin is no agent) by the agent.
func (c *Chain) asAgent(to common.Address, calldata []byte) *types.Receipt {
	c.t.Helper()
	if c.separate {
		return c.Send(c.Agent, to, calldata)
	}
	return c.Send(c.Admin, to, calldata)
}

// Register puts wallets in the identity registry.
func (c *Chain) Register(wallets ...common.Address) {
	c.t.Helper()
	for _, w := range wallets {
		c.asAgent(c.Registry, c.RegistryABI.PackRegisterWallet(w))
	}
}

// Mint issues units of token to wallet (which must be registered) and returns the receipt.
func (c *Chain) Mint(token, wallet common.Address, units int64) *types.Receipt {
	c.t.Helper()
	return c.asAgent(token, c.TokenABI.PackMint(wallet, big.NewInt(units)))
}

// MintLocked issues units to wallet locked until release (seconds since the epoch), as the agent.
func (c *Chain) MintLocked(token, wallet common.Address, units int64, release uint64) *types.Receipt {
	c.t.Helper()
	return c.asAgent(token, c.TokenABI.PackMintLocked(wallet, big.NewInt(units), release))
}

// Pause pauses token.
func (c *Chain) Pause(token common.Address) { c.t.Helper(); c.asAgent(token, c.TokenABI.PackPause()) }

// Unpause unpauses token.
func (c *Chain) Unpause(token common.Address) {
	c.t.Helper()
	c.asAgent(token, c.TokenABI.PackUnpause())
}

// Freeze freezes (or unfreezes) a wallet on token.
func (c *Chain) Freeze(token, wallet common.Address, frozen bool) {
	c.t.Helper()
	c.asAgent(token, c.TokenABI.PackSetAddressFrozen(wallet, frozen))
}

// call runs a view function of the contract at to on the head and unpacks its result.
func call[R any](c *Chain, to common.Address, calldata []byte, unpack func([]byte) (R, error), what string) R {
	c.t.Helper()
	v, err := bind.Call(c.bound(to), &bind.CallOpts{Context: c.Ctx}, calldata, unpack)
	if err != nil {
		c.t.Fatalf("%s: %v", what, chain.DecodeError(err))
	}
	return v
}

// units is v as an int64; a value out of range fails the test rather than wrapping.
func (c *Chain) units(v *big.Int, what string) int64 {
	c.t.Helper()
	if !v.IsInt64() {
		c.t.Fatalf("%s is %s, beyond int64", what, v)
	}
	return v.Int64()
}

// Balance is balanceOf(wallet) on token at the head.
func (c *Chain) Balance(token, wallet common.Address) int64 {
	c.t.Helper()
	return c.units(call(c, token, c.TokenABI.PackBalanceOf(wallet), c.TokenABI.UnpackBalanceOf, "balanceOf"), "balanceOf")
}

// TotalSupply is token's totalSupply() at the head.
func (c *Chain) TotalSupply(token common.Address) int64 {
	c.t.Helper()
	return c.units(call(c, token, c.TokenABI.PackTotalSupply(), c.TokenABI.UnpackTotalSupply, "totalSupply"), "totalSupply")
}

// Locked is the token's lockedBalanceOf(wallet) at the head.
func (c *Chain) Locked(token, wallet common.Address) int64 {
	c.t.Helper()
	return c.units(call(c, token, c.TokenABI.PackLockedBalanceOf(wallet), c.TokenABI.UnpackLockedBalanceOf, "lockedBalanceOf"), "lockedBalanceOf")
}

// Unlocked is the token's unlockedBalanceOf(wallet) at the head.
func (c *Chain) Unlocked(token, wallet common.Address) int64 {
	c.t.Helper()
	return c.units(call(c, token, c.TokenABI.PackUnlockedBalanceOf(wallet), c.TokenABI.UnpackUnlockedBalanceOf, "unlockedBalanceOf"), "unlockedBalanceOf")
}

// CanTransfer is token's compliance answer (ERC-3643 canTransfer) at the head: whether a
// transfer of units from one wallet to another would succeed.
func (c *Chain) CanTransfer(token, from, to common.Address, units int64) bool {
	c.t.Helper()
	return call(c, token, c.TokenABI.PackCanTransfer(from, to, big.NewInt(units)), c.TokenABI.UnpackCanTransfer, "canTransfer")
}

// Verified is the identity registry's isVerified(wallet) at the head.
func (c *Chain) Verified(wallet common.Address) bool {
	c.t.Helper()
	return call(c, c.Registry, c.RegistryABI.PackIsVerified(wallet), c.RegistryABI.UnpackIsVerified, "isVerified")
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
	return c.transfers(logs)
}

// TransfersOf lists the Transfer events in a receipt, in the order they were emitted.
func (c *Chain) TransfersOf(r *types.Receipt) []Transfer {
	c.t.Helper()
	logs := make([]types.Log, len(r.Logs))
	for i, l := range r.Logs {
		logs[i] = *l
	}
	return c.transfers(logs)
}

// transfers decodes the logs that are Transfer events.
func (c *Chain) transfers(logs []types.Log) []Transfer {
	c.t.Helper()
	var out []Transfer
	for i := range logs {
		ev, err := c.TokenABI.UnpackTransferEvent(&logs[i])
		if err != nil {
			continue
		}
		out = append(out, Transfer{From: ev.From, To: ev.To, Units: c.units(ev.Value, "Transfer value"), TxHash: logs[i].TxHash, Block: logs[i].BlockNumber})
	}
	return out
}

// Mints lists token's mints (Transfer events from the zero address) to wallet.
func (c *Chain) Mints(token, wallet common.Address) []Transfer {
	c.t.Helper()
	return c.transfersBetween(token, common.Address{}, wallet)
}

// Burns lists token's burns (Transfer events to the zero address) from wallet.
func (c *Chain) Burns(token, wallet common.Address) []Transfer {
	c.t.Helper()
	return c.transfersBetween(token, wallet, common.Address{})
}

// transfersBetween lists token's Transfer events from one address to another, oldest first.
func (c *Chain) transfersBetween(token, from, to common.Address) []Transfer {
	c.t.Helper()
	var out []Transfer
	for _, tr := range c.Transfers(token) {
		if tr.From == from && tr.To == to {
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

// Mine commits a block every period until stop is called (stop waits for the last
// commit, and may be called more than once): a chain whose blocks come while the agent
// works, as a live one does.
func (c *Chain) Mine(period time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				c.Backend.Commit()
			}
		}
	})
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

// Now is the head block's timestamp (seconds since the epoch): the contracts' block.timestamp.
func (c *Chain) Now() uint64 {
	c.t.Helper()
	h, err := c.Client.HeaderByNumber(c.Ctx, nil)
	if err != nil {
		c.t.Fatalf("head: %v", err)
	}
	return h.Time
}

// AdvanceTime mines one block whose timestamp is the head's plus d (the pool must be empty):
// the contracts' clock jumps forward without any transaction.
func (c *Chain) AdvanceTime(d time.Duration) {
	c.t.Helper()
	if err := c.Backend.AdjustTime(d); err != nil {
		c.t.Fatalf("adjust time: %v", err)
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

// ether is n ether in wei.
func ether(n int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))
}
