package chain_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
)

var (
	agentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))
	adminRole = common.Hash{} // OpenZeppelin's DEFAULT_ADMIN_ROLE
)

// tokenChain is the registry and a share token as the deployment helpers leave them: the
// admin and the agent are different keys and the admin is no agent, so role separation is
// observable. alice, bob and carol are investors' wallets, funded with gas money, none
// registered yet.
type tokenChain struct {
	*chaintest.Chain
	alice, bob, carol *chain.KeySigner
}

func newTokenChain(t *testing.T) *tokenChain {
	t.Helper()
	c := chaintest.New(t, chaintest.SeparateRoles())
	w := c.Investors(3)
	return &tokenChain{Chain: c, alice: w[0], bob: w[1], carol: w[2]}
}

// token is the share token, for calls and transactions the chain's helpers do not make.
func (c *tokenChain) token() *bind.BoundContract { return c.TokenABI.Instance(c.Client, c.Token) }

// wantArgs fails unless the revert's arguments are want, compared as its reason prints them.
func wantArgs(t *testing.T, r *chain.RevertError, want ...any) {
	t.Helper()
	if len(r.Args) != len(want) {
		t.Fatalf("%s: %d arguments, want %d", r.Reason(), len(r.Args), len(want))
	}
	for i := range want {
		got, w := chain.FormatArg(r.Args[i]), chain.FormatArg(want[i])
		if got != w {
			t.Fatalf("%s: argument %d is %s, want %s", r.Reason(), i, got, w)
		}
	}
}

func TestTokenStatesWholeUnitsNameAndSymbol(t *testing.T) {
	c := newTokenChain(t)
	opts := &bind.CallOpts{Context: c.Ctx}
	dec, err := bind.Call(c.token(), opts, c.TokenABI.PackDecimals(), c.TokenABI.UnpackDecimals)
	if err != nil || dec != 0 {
		t.Fatalf("decimals %d, %v; want 0 (one token is one unit)", dec, err)
	}
	sym, err := bind.Call(c.token(), opts, c.TokenABI.PackSymbol(), c.TokenABI.UnpackSymbol)
	if err != nil || sym != "LU0000000001" {
		t.Fatalf("symbol %q, %v", sym, err)
	}
	reg, err := bind.Call(c.token(), opts, c.TokenABI.PackIdentityRegistry(), c.TokenABI.UnpackIdentityRegistry)
	if err != nil || reg != c.Registry {
		t.Fatalf("identityRegistry %s, %v; want %s", reg.Hex(), err, c.Registry.Hex())
	}
	role, err := bind.Call(c.token(), opts, c.TokenABI.PackAGENTROLE(), c.TokenABI.UnpackAGENTROLE)
	if err != nil || common.Hash(role) != agentRole {
		t.Fatalf("AGENT_ROLE %x, %v", role, err)
	}
}

func TestMintToARegisteredWalletCreditsExactlyTheUnits(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	r := c.Mint(c.Token, c.alice.Address(), 250)
	if got := c.Balance(c.Token, c.alice.Address()); got != 250 {
		t.Fatalf("balanceOf %d, want 250", got)
	}
	if got := c.TotalSupply(c.Token); got != 250 {
		t.Fatalf("totalSupply %d, want 250", got)
	}
	tr := c.TransfersOf(r)
	if len(tr) != 1 || tr[0].From != (common.Address{}) || tr[0].To != c.alice.Address() || tr[0].Units != 250 {
		t.Fatalf("Transfer events %+v, want one from 0x0 to alice of 250", tr)
	}
}

func TestMintToAnUnregisteredWalletRevertsNotVerified(t *testing.T) {
	c := newTokenChain(t)
	r := c.Reverts(c.Agent, c.Token, c.TokenABI.PackMint(c.bob.Address(), big.NewInt(5)), "NotVerified")
	wantArgs(t, r, c.bob.Address())
	if want := "reverted: NotVerified(" + c.bob.Address().Hex() + ")"; r.Error() != want {
		t.Fatalf("error %q, want %q", r.Error(), want)
	}
	if c.TotalSupply(c.Token) != 0 {
		t.Fatal("units issued")
	}
}

func TestTransferToAnUnregisteredWalletReverts(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	r := c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.carol.Address(), big.NewInt(3)), "NotVerified")
	wantArgs(t, r, c.carol.Address())
	if c.Balance(c.Token, c.alice.Address()) != 10 || c.Balance(c.Token, c.carol.Address()) != 0 {
		t.Fatal("units moved")
	}
}

func TestTransferBetweenRegisteredWalletsSucceeds(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(4)))
	if c.Balance(c.Token, c.alice.Address()) != 6 || c.Balance(c.Token, c.bob.Address()) != 4 || c.TotalSupply(c.Token) != 10 {
		t.Fatalf("balances %d/%d supply %d, want 6/4 and 10", c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()), c.TotalSupply(c.Token))
	}
}

func TestAWalletRemovedFromTheRegistryCannotSend(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.alice.Address()))
	r := c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "NotVerified")
	wantArgs(t, r, c.alice.Address())
	// transferFrom by an approved spender is held to the same rule.
	c.Send(c.alice, c.Token, c.TokenABI.PackApprove(c.bob.Address(), big.NewInt(5)))
	_ = c.Reverts(c.bob, c.Token, c.TokenABI.PackTransferFrom(c.alice.Address(), c.bob.Address(), big.NewInt(1)), "NotVerified")
}

// canTransfer is ERC-3643's compliance check: it must say true exactly when the transfer
// it asks about succeeds. Each case asks, then tries.
func TestCanTransferAgreesWithTransfer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(c *tokenChain)
		units int64
		ok    bool
	}{
		{"both registered", func(*tokenChain) {}, 3, true},
		{"all units", func(*tokenChain) {}, 10, true},
		{"more than held", func(*tokenChain) {}, 11, false},
		{"receiver unregistered", func(c *tokenChain) {
			c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.bob.Address()))
		}, 3, false},
		{"sender unregistered", func(c *tokenChain) {
			c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.alice.Address()))
		}, 3, false},
		{"sender frozen", func(c *tokenChain) {
			c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.alice.Address(), true))
		}, 3, false},
		{"receiver frozen", func(c *tokenChain) {
			c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.bob.Address(), true))
		}, 3, false},
		{"paused", func(c *tokenChain) { c.Send(c.Agent, c.Token, c.TokenABI.PackPause()) }, 3, false},
		{"unfrozen again", func(c *tokenChain) {
			c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.bob.Address(), true))
			c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.bob.Address(), false))
		}, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTokenChain(t)
			c.Register(c.alice.Address(), c.bob.Address())
			c.Mint(c.Token, c.alice.Address(), 10)
			tc.setup(c)
			said := c.CanTransfer(c.Token, c.alice.Address(), c.bob.Address(), tc.units)
			if said != tc.ok {
				t.Fatalf("canTransfer %v, want %v", said, tc.ok)
			}
			tx, err := bind.Transact(c.token(), chain.TransactOpts(c.Ctx, c.alice, c.ChainID), c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(tc.units)))
			succeeded := err == nil
			if succeeded {
				succeeded = c.Mined(tx).Status == types.ReceiptStatusSuccessful
			}
			if succeeded != said {
				t.Fatalf("canTransfer said %v, the transfer succeeded: %v (%v)", said, succeeded, chain.DecodeError(err))
			}
		})
	}
}

func TestAFrozenWalletCanNeitherSendNorReceive(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	c.Mint(c.Token, c.bob.Address(), 10)
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.alice.Address(), true))
	ev, err := c.TokenABI.UnpackAddressFrozenEvent(r.Logs[0])
	if err != nil || ev.Wallet != c.alice.Address() || !ev.Frozen || ev.Agent != c.Agent.Address() {
		t.Fatalf("AddressFrozen event %+v, %v", ev, err)
	}
	wantArgs(t, c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	wantArgs(t, c.Reverts(c.bob, c.Token, c.TokenABI.PackTransfer(c.alice.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackMint(c.alice.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	frozen, err := bind.Call(c.token(), &bind.CallOpts{Context: c.Ctx}, c.TokenABI.PackIsFrozen(c.alice.Address()), c.TokenABI.UnpackIsFrozen)
	if err != nil || !frozen {
		t.Fatalf("isFrozen %v, %v", frozen, err)
	}

	c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(c.alice.Address(), false))
	c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)))
	if c.Balance(c.Token, c.alice.Address()) != 9 || c.Balance(c.Token, c.bob.Address()) != 11 {
		t.Fatal("transfer after unfreezing did not move the unit")
	}
}

// Pause stops holder transfers and mint; burn and forcedTransfer stay open to the agent.
func TestPauseStopsTransfersAndMintButNotTheAgentsRecovery(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackPause())
	if ev, err := c.TokenABI.UnpackPausedEvent(r.Logs[0]); err != nil || ev.Account != c.Agent.Address() {
		t.Fatalf("Paused event %+v, %v", ev, err)
	}
	_ = c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "EnforcedPause")
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackMint(c.bob.Address(), big.NewInt(1)), "EnforcedPause")
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchMint([]common.Address{c.bob.Address()}, []*big.Int{big.NewInt(1)}), "EnforcedPause")
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackPause(), "EnforcedPause")

	c.Send(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(2)))
	c.Send(c.Agent, c.Token, c.TokenABI.PackForcedTransfer(c.alice.Address(), c.bob.Address(), big.NewInt(3)))
	if c.Balance(c.Token, c.alice.Address()) != 5 || c.Balance(c.Token, c.bob.Address()) != 3 || c.TotalSupply(c.Token) != 8 {
		t.Fatal("burn and forced transfer while paused did not apply")
	}

	r = c.Send(c.Agent, c.Token, c.TokenABI.PackUnpause())
	if _, err := c.TokenABI.UnpackUnpausedEvent(r.Logs[0]); err != nil {
		t.Fatalf("Unpaused event: %v", err)
	}
	c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)))
	c.Mint(c.Token, c.bob.Address(), 1)
	if c.Balance(c.Token, c.alice.Address()) != 4 || c.Balance(c.Token, c.bob.Address()) != 5 {
		t.Fatal("transfer and mint after unpause did not apply")
	}
}

// Key-loss recovery: the holder's old wallet is frozen and removed, a new wallet registered,
// and the agent moves the units without the old key.
func TestForcedTransferMovesUnitsFromALostWalletToANewRegisteredWallet(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	c.Mint(c.Token, c.alice.Address(), 40)
	lost, replacement := c.alice.Address(), c.carol.Address()
	c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(lost, true))
	c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(lost))

	// Not to a wallet that is not registered.
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackForcedTransfer(lost, replacement, big.NewInt(40)), "NotVerified"), replacement)
	c.Register(c.carol.Address())
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackForcedTransfer(lost, replacement, big.NewInt(40)))

	if c.Balance(c.Token, lost) != 0 || c.Balance(c.Token, replacement) != 40 || c.TotalSupply(c.Token) != 40 {
		t.Fatalf("after recovery lost %d, new %d, supply %d; want 0, 40, 40", c.Balance(c.Token, lost), c.Balance(c.Token, replacement), c.TotalSupply(c.Token))
	}
	tr := c.TransfersOf(r)
	if len(tr) != 1 || tr[0].From != lost || tr[0].To != replacement || tr[0].Units != 40 {
		t.Fatalf("Transfer events %+v", tr)
	}
	var forced *struct{ from, to common.Address }
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackForcedTransferEvent(l); err == nil {
			if ev.Agent != c.Agent.Address() || ev.Amount.Int64() != 40 {
				t.Fatalf("ForcedTransfer event %+v", ev)
			}
			forced = &struct{ from, to common.Address }{ev.From, ev.To}
		}
	}
	if forced == nil || forced.from != lost || forced.to != replacement {
		t.Fatalf("ForcedTransfer event %+v", forced)
	}
	// More than the wallet holds is refused.
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackForcedTransfer(lost, replacement, big.NewInt(1)), "ERC20InsufficientBalance")
}

func TestOnlyTheAgentCanMintBurnFreezePauseAndForceTransfers(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	one := big.NewInt(1)
	calls := map[string][]byte{
		"mint":           c.TokenABI.PackMint(c.bob.Address(), one),
		"batchMint":      c.TokenABI.PackBatchMint([]common.Address{c.bob.Address()}, []*big.Int{one}),
		"burn":           c.TokenABI.PackBurn(c.alice.Address(), one),
		"batchBurn":      c.TokenABI.PackBatchBurn([]common.Address{c.alice.Address()}, []*big.Int{one}),
		"freeze":         c.TokenABI.PackSetAddressFrozen(c.bob.Address(), true),
		"pause":          c.TokenABI.PackPause(),
		"forcedTransfer": c.TokenABI.PackForcedTransfer(c.alice.Address(), c.bob.Address(), one),
		"settleWithRef":  c.TokenABI.PackSettleWithRef(settlementRef("b1"), []common.Address{c.alice.Address()}, c.bob.Address(), []*big.Int{one}, 0),
	}
	for name, calldata := range calls {
		// Neither a holder nor the admin: the admin configures, it does not operate.
		for _, caller := range []*chain.KeySigner{c.alice, c.Admin} {
			t.Logf("%s by %s", name, caller.Address().Hex())
			r := c.Reverts(caller, c.Token, calldata, "AccessControlUnauthorizedAccount")
			wantArgs(t, r, caller.Address(), [32]byte(agentRole))
		}
	}
	// The registry's agent functions likewise.
	for _, caller := range []*chain.KeySigner{c.alice, c.Admin} {
		wantArgs(t, c.Reverts(caller, c.Registry, c.RegistryABI.PackRegisterWallet(c.carol.Address()), "AccessControlUnauthorizedAccount"), caller.Address(), [32]byte(agentRole))
		wantArgs(t, c.Reverts(caller, c.Registry, c.RegistryABI.PackRemoveWallet(c.bob.Address()), "AccessControlUnauthorizedAccount"), caller.Address(), [32]byte(agentRole))
	}
	if c.Balance(c.Token, c.alice.Address()) != 10 || c.TotalSupply(c.Token) != 10 {
		t.Fatal("state changed")
	}
}

func TestOnlyTheAdminCanGrantRolesAndSetTheRegistry(t *testing.T) {
	c := newTokenChain(t)
	// The agent cannot make another agent, nor move the token to another registry.
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackGrantRole(agentRole, c.bob.Address()), "AccessControlUnauthorizedAccount"), c.Agent.Address(), [32]byte(adminRole))
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackSetIdentityRegistry(c.Registry), "AccessControlUnauthorizedAccount"), c.Agent.Address(), [32]byte(adminRole))
	wantArgs(t, c.Reverts(c.Agent, c.Registry, c.RegistryABI.PackGrantRole(agentRole, c.bob.Address()), "AccessControlUnauthorizedAccount"), c.Agent.Address(), [32]byte(adminRole))

	// The admin grants the agent role; the new agent can mint.
	c.Send(c.Admin, c.Token, c.TokenABI.PackGrantRole(agentRole, c.bob.Address()))
	c.Register(c.alice.Address())
	c.Send(c.bob, c.Token, c.TokenABI.PackMint(c.alice.Address(), big.NewInt(2)))
	// ...and revokes it again.
	c.Send(c.Admin, c.Token, c.TokenABI.PackRevokeRole(agentRole, c.bob.Address()))
	_ = c.Reverts(c.bob, c.Token, c.TokenABI.PackMint(c.alice.Address(), big.NewInt(2)), "AccessControlUnauthorizedAccount")

	// The admin points the token at a new registry, where alice is not registered.
	next, err := chain.DeployIdentityRegistry(c.Ctx, c.Client, c.Admin, c.ChainID, c.Admin.Address(), c.Agent.Address())
	if err != nil {
		t.Fatal(err)
	}
	c.Mined(next.Tx)
	r := c.Send(c.Admin, c.Token, c.TokenABI.PackSetIdentityRegistry(next.Address))
	ev, err := c.TokenABI.UnpackIdentityRegistrySetEvent(r.Logs[0])
	if err != nil || ev.Previous != c.Registry || ev.Current != next.Address {
		t.Fatalf("IdentityRegistrySet event %+v, %v", ev, err)
	}
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackMint(c.alice.Address(), big.NewInt(1)), "NotVerified")
	// An address without code is no registry.
	wantArgs(t, c.Reverts(c.Admin, c.Token, c.TokenABI.PackSetIdentityRegistry(c.carol.Address()), "InvalidIdentityRegistry"), c.carol.Address())
}

func TestBatchMintMintsToManyWalletsInOneTransaction(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address(), c.carol.Address())
	wallets := []common.Address{c.alice.Address(), c.bob.Address(), c.carol.Address()}
	units := []*big.Int{big.NewInt(5), big.NewInt(7), big.NewInt(11)}
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackBatchMint(wallets, units))
	tr := c.TransfersOf(r)
	if len(tr) != 3 {
		t.Fatalf("%d Transfer events in the batch's receipt, want 3", len(tr))
	}
	for i, w := range wallets {
		if c.Balance(c.Token, w) != units[i].Int64() || tr[i].To != w || tr[i].Units != units[i].Int64() {
			t.Fatalf("wallet %d: balance %d, event %+v; want %s", i, c.Balance(c.Token, w), tr[i], units[i])
		}
	}
	if c.TotalSupply(c.Token) != 23 {
		t.Fatalf("totalSupply %d, want 23", c.TotalSupply(c.Token))
	}
}

func TestBatchMintIsAllOrNothing(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	// carol is not registered: the whole batch reverts, alice and bob get nothing.
	wallets := []common.Address{c.alice.Address(), c.bob.Address(), c.carol.Address()}
	units := []*big.Int{big.NewInt(5), big.NewInt(7), big.NewInt(11)}
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchMint(wallets, units), "NotVerified"), c.carol.Address())
	r := c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchMint(wallets[:2], units), "BatchLengthMismatch")
	wantArgs(t, r, big.NewInt(2), big.NewInt(3))
	if c.TotalSupply(c.Token) != 0 {
		t.Fatal("units issued")
	}
}

func TestBurnReducesBalanceAndTotalSupply(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 10)
	c.Mint(c.Token, c.bob.Address(), 6)
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(4)))
	if tr := c.TransfersOf(r); len(tr) != 1 || tr[0].From != c.alice.Address() || tr[0].To != (common.Address{}) || tr[0].Units != 4 {
		t.Fatalf("Transfer events %+v, want one from alice to 0x0 of 4", tr)
	}
	if c.Balance(c.Token, c.alice.Address()) != 6 || c.TotalSupply(c.Token) != 12 {
		t.Fatalf("balance %d supply %d, want 6 and 12", c.Balance(c.Token, c.alice.Address()), c.TotalSupply(c.Token))
	}
	r2 := c.Reverts(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(7)), "ERC20InsufficientBalance")
	wantArgs(t, r2, c.alice.Address(), big.NewInt(6), big.NewInt(7))

	c.Send(c.Agent, c.Token, c.TokenABI.PackBatchBurn([]common.Address{c.alice.Address(), c.bob.Address()}, []*big.Int{big.NewInt(6), big.NewInt(1)}))
	if c.Balance(c.Token, c.alice.Address()) != 0 || c.Balance(c.Token, c.bob.Address()) != 5 || c.TotalSupply(c.Token) != 5 {
		t.Fatal("batch burn did not apply")
	}
}

func TestRegistryRegistersAndRemovesWalletsWithEvents(t *testing.T) {
	c := newTokenChain(t)
	if c.Verified(c.alice.Address()) {
		t.Fatal("verified before registration")
	}
	r := c.Send(c.Agent, c.Registry, c.RegistryABI.PackRegisterWallet(c.alice.Address()))
	ev, err := c.RegistryABI.UnpackWalletRegisteredEvent(r.Logs[0])
	if err != nil || ev.Wallet != c.alice.Address() || ev.Agent != c.Agent.Address() {
		t.Fatalf("WalletRegistered event %+v, %v", ev, err)
	}
	if !c.Verified(c.alice.Address()) {
		t.Fatal("not verified after registration")
	}
	wantArgs(t, c.Reverts(c.Agent, c.Registry, c.RegistryABI.PackRegisterWallet(c.alice.Address()), "WalletAlreadyRegistered"), c.alice.Address())
	_ = c.Reverts(c.Agent, c.Registry, c.RegistryABI.PackRegisterWallet(common.Address{}), "ZeroAddress")

	r = c.Send(c.Agent, c.Registry, c.RegistryABI.PackBatchRegisterWallets([]common.Address{c.bob.Address(), c.carol.Address()}))
	if len(r.Logs) != 2 || !c.Verified(c.bob.Address()) || !c.Verified(c.carol.Address()) {
		t.Fatalf("batch registration: %d events", len(r.Logs))
	}

	r = c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.alice.Address()))
	rm, err := c.RegistryABI.UnpackWalletRemovedEvent(r.Logs[0])
	if err != nil || rm.Wallet != c.alice.Address() || rm.Agent != c.Agent.Address() {
		t.Fatalf("WalletRemoved event %+v, %v", rm, err)
	}
	if c.Verified(c.alice.Address()) {
		t.Fatal("verified after removal")
	}
	wantArgs(t, c.Reverts(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.alice.Address()), "WalletNotRegistered"), c.alice.Address())
}

// The later chain agent reports a mined, failed delivery as "reverted: NotVerified(0x…)": a
// receipt carries no reason, so it is read by replaying the transaction.
func TestAMinedRevertIsDecodedFromItsReceipt(t *testing.T) {
	c := newTokenChain(t)
	opts := chain.TransactOpts(c.Ctx, c.Agent, c.ChainID)
	opts.GasLimit = 300_000 // skip the gas estimate, which would refuse to send it
	tx, err := bind.Transact(c.token(), opts, c.TokenABI.PackMint(c.bob.Address(), big.NewInt(5)))
	if err != nil {
		t.Fatal(err)
	}
	c.Backend.Commit()
	receipt, err := c.Client.TransactionReceipt(c.Ctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if receipt.Status != types.ReceiptStatusFailed {
		t.Fatal("the mint to an unregistered wallet was mined successfully")
	}
	rev, err := chain.RevertOfReceipt(c.Ctx, c.Client, tx, receipt)
	if err != nil {
		t.Fatal(err)
	}
	if want := "reverted: NotVerified(" + c.bob.Address().Hex() + ")"; rev.Error() != want {
		t.Fatalf("%q, want %q", rev.Error(), want)
	}
	// The generated bindings decode the same data into a typed error.
	typed, err := c.TokenABI.UnpackError(rev.Data)
	if nv, ok := typed.(*contracts.ShareTokenNotVerified); err != nil || !ok || nv.Wallet != c.bob.Address() {
		t.Fatalf("UnpackError: %#v, %v", typed, err)
	}

	// A successful transaction has no revert to read.
	c.Register(c.bob.Address())
	okTx, err := bind.Transact(c.token(), chain.TransactOpts(c.Ctx, c.Agent, c.ChainID), c.TokenABI.PackMint(c.bob.Address(), big.NewInt(5)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.RevertOfReceipt(c.Ctx, c.Client, okTx, c.Mined(okTx)); err == nil || !strings.Contains(err.Error(), "did not revert") {
		t.Fatalf("RevertOfReceipt of a success: %v", err)
	}
}
