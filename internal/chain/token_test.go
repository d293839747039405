package chain

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

func TestTokenStatesWholeUnitsNameAndSymbol(t *testing.T) {
	c := newTokenChain(t)
	opts := &bind.CallOpts{Context: c.ctx}
	dec, err := bind.Call(c.token, opts, c.tokenABI.PackDecimals(), c.tokenABI.UnpackDecimals)
	if err != nil || dec != 0 {
		t.Fatalf("decimals %d, %v; want 0 (one token is one unit)", dec, err)
	}
	sym, err := bind.Call(c.token, opts, c.tokenABI.PackSymbol(), c.tokenABI.UnpackSymbol)
	if err != nil || sym != "LU0000000001" {
		t.Fatalf("symbol %q, %v", sym, err)
	}
	reg, err := bind.Call(c.token, opts, c.tokenABI.PackIdentityRegistry(), c.tokenABI.UnpackIdentityRegistry)
	if err != nil || reg != c.registryAddr {
		t.Fatalf("identityRegistry %s, %v; want %s", reg.Hex(), err, c.registryAddr.Hex())
	}
	role, err := bind.Call(c.token, opts, c.tokenABI.PackAGENTROLE(), c.tokenABI.UnpackAGENTROLE)
	if err != nil || common.Hash(role) != agentRole {
		t.Fatalf("AGENT_ROLE %x, %v", role, err)
	}
}

func TestMintToARegisteredWalletCreditsExactlyTheUnits(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice)
	r := c.mint(c.alice, 250)
	if got := c.balance(c.alice.Address()); got != 250 {
		t.Fatalf("balanceOf %d, want 250", got)
	}
	if got := c.totalSupply(); got != 250 {
		t.Fatalf("totalSupply %d, want 250", got)
	}
	tr := c.transfers(r)
	if len(tr) != 1 || tr[0].From != (common.Address{}) || tr[0].To != c.alice.Address() || tr[0].Value.Int64() != 250 {
		t.Fatalf("Transfer events %+v, want one from 0x0 to alice of 250", tr)
	}
}

func TestMintToAnUnregisteredWalletRevertsNotVerified(t *testing.T) {
	c := newTokenChain(t)
	r := c.reverts(c.agent, c.token, c.tokenABI.PackMint(c.bob.Address(), big.NewInt(5)), "NotVerified")
	wantArgs(t, r, c.bob.Address())
	if want := "reverted: NotVerified(" + c.bob.Address().Hex() + ")"; r.Error() != want {
		t.Fatalf("error %q, want %q", r.Error(), want)
	}
	if c.totalSupply() != 0 {
		t.Fatal("units issued")
	}
}

func TestTransferToAnUnregisteredWalletReverts(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice)
	c.mint(c.alice, 10)
	r := c.reverts(c.alice, c.token, c.tokenABI.PackTransfer(c.carol.Address(), big.NewInt(3)), "NotVerified")
	wantArgs(t, r, c.carol.Address())
	if c.balance(c.alice.Address()) != 10 || c.balance(c.carol.Address()) != 0 {
		t.Fatal("units moved")
	}
}

func TestTransferBetweenRegisteredWalletsSucceeds(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	c.send(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(4)))
	if c.balance(c.alice.Address()) != 6 || c.balance(c.bob.Address()) != 4 || c.totalSupply() != 10 {
		t.Fatalf("balances %d/%d supply %d, want 6/4 and 10", c.balance(c.alice.Address()), c.balance(c.bob.Address()), c.totalSupply())
	}
}

func TestAWalletRemovedFromTheRegistryCannotSend(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	c.send(c.agent, c.registry, c.registryABI.PackRemoveWallet(c.alice.Address()))
	r := c.reverts(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "NotVerified")
	wantArgs(t, r, c.alice.Address())
	// transferFrom by an approved spender is held to the same rule.
	c.send(c.alice, c.token, c.tokenABI.PackApprove(c.bob.Address(), big.NewInt(5)))
	_ = c.reverts(c.bob, c.token, c.tokenABI.PackTransferFrom(c.alice.Address(), c.bob.Address(), big.NewInt(1)), "NotVerified")
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
			c.send(c.agent, c.registry, c.registryABI.PackRemoveWallet(c.bob.Address()))
		}, 3, false},
		{"sender unregistered", func(c *tokenChain) {
			c.send(c.agent, c.registry, c.registryABI.PackRemoveWallet(c.alice.Address()))
		}, 3, false},
		{"sender frozen", func(c *tokenChain) {
			c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.alice.Address(), true))
		}, 3, false},
		{"receiver frozen", func(c *tokenChain) {
			c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.bob.Address(), true))
		}, 3, false},
		{"paused", func(c *tokenChain) { c.send(c.agent, c.token, c.tokenABI.PackPause()) }, 3, false},
		{"unfrozen again", func(c *tokenChain) {
			c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.bob.Address(), true))
			c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.bob.Address(), false))
		}, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTokenChain(t)
			c.register(c.alice, c.bob)
			c.mint(c.alice, 10)
			tc.setup(c)
			said := c.canTransfer(c.alice.Address(), c.bob.Address(), tc.units)
			if said != tc.ok {
				t.Fatalf("canTransfer %v, want %v", said, tc.ok)
			}
			tx, err := bind.Transact(c.token, TransactOpts(c.ctx, c.alice, c.chainID), c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(tc.units)))
			succeeded := err == nil
			if succeeded {
				succeeded = c.mined(tx).Status == types.ReceiptStatusSuccessful
			}
			if succeeded != said {
				t.Fatalf("canTransfer said %v, the transfer succeeded: %v (%v)", said, succeeded, DecodeError(err))
			}
		})
	}
}

func TestAFrozenWalletCanNeitherSendNorReceive(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	c.mint(c.bob, 10)
	r := c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.alice.Address(), true))
	ev, err := c.tokenABI.UnpackAddressFrozenEvent(r.Logs[0])
	if err != nil || ev.Wallet != c.alice.Address() || !ev.Frozen || ev.Agent != c.agent.Address() {
		t.Fatalf("AddressFrozen event %+v, %v", ev, err)
	}
	wantArgs(t, c.reverts(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	wantArgs(t, c.reverts(c.bob, c.token, c.tokenABI.PackTransfer(c.alice.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	wantArgs(t, c.reverts(c.agent, c.token, c.tokenABI.PackMint(c.alice.Address(), big.NewInt(1)), "WalletFrozen"), c.alice.Address())
	frozen, err := bind.Call(c.token, &bind.CallOpts{Context: c.ctx}, c.tokenABI.PackIsFrozen(c.alice.Address()), c.tokenABI.UnpackIsFrozen)
	if err != nil || !frozen {
		t.Fatalf("isFrozen %v, %v", frozen, err)
	}

	c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(c.alice.Address(), false))
	c.send(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)))
	if c.balance(c.alice.Address()) != 9 || c.balance(c.bob.Address()) != 11 {
		t.Fatal("transfer after unfreezing did not move the unit")
	}
}

// Pause stops holder transfers and mint; burn and forcedTransfer stay open to the agent.
func TestPauseStopsTransfersAndMintButNotTheAgentsRecovery(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	r := c.send(c.agent, c.token, c.tokenABI.PackPause())
	if ev, err := c.tokenABI.UnpackPausedEvent(r.Logs[0]); err != nil || ev.Account != c.agent.Address() {
		t.Fatalf("Paused event %+v, %v", ev, err)
	}
	_ = c.reverts(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)), "EnforcedPause")
	_ = c.reverts(c.agent, c.token, c.tokenABI.PackMint(c.bob.Address(), big.NewInt(1)), "EnforcedPause")
	_ = c.reverts(c.agent, c.token, c.tokenABI.PackBatchMint([]common.Address{c.bob.Address()}, []*big.Int{big.NewInt(1)}), "EnforcedPause")
	_ = c.reverts(c.agent, c.token, c.tokenABI.PackPause(), "EnforcedPause")

	c.send(c.agent, c.token, c.tokenABI.PackBurn(c.alice.Address(), big.NewInt(2)))
	c.send(c.agent, c.token, c.tokenABI.PackForcedTransfer(c.alice.Address(), c.bob.Address(), big.NewInt(3)))
	if c.balance(c.alice.Address()) != 5 || c.balance(c.bob.Address()) != 3 || c.totalSupply() != 8 {
		t.Fatal("burn and forced transfer while paused did not apply")
	}

	r = c.send(c.agent, c.token, c.tokenABI.PackUnpause())
	if _, err := c.tokenABI.UnpackUnpausedEvent(r.Logs[0]); err != nil {
		t.Fatalf("Unpaused event: %v", err)
	}
	c.send(c.alice, c.token, c.tokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)))
	c.mint(c.bob, 1)
	if c.balance(c.alice.Address()) != 4 || c.balance(c.bob.Address()) != 5 {
		t.Fatal("transfer and mint after unpause did not apply")
	}
}

// Key-loss recovery: the holder's old wallet is frozen and removed, a new wallet registered,
// and the agent moves the units without the old key.
func TestForcedTransferMovesUnitsFromALostWalletToANewRegisteredWallet(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice)
	c.mint(c.alice, 40)
	lost, replacement := c.alice.Address(), c.carol.Address()
	c.send(c.agent, c.token, c.tokenABI.PackSetAddressFrozen(lost, true))
	c.send(c.agent, c.registry, c.registryABI.PackRemoveWallet(lost))

	// Not to a wallet that is not registered.
	wantArgs(t, c.reverts(c.agent, c.token, c.tokenABI.PackForcedTransfer(lost, replacement, big.NewInt(40)), "NotVerified"), replacement)
	c.register(c.carol)
	r := c.send(c.agent, c.token, c.tokenABI.PackForcedTransfer(lost, replacement, big.NewInt(40)))

	if c.balance(lost) != 0 || c.balance(replacement) != 40 || c.totalSupply() != 40 {
		t.Fatalf("after recovery lost %d, new %d, supply %d; want 0, 40, 40", c.balance(lost), c.balance(replacement), c.totalSupply())
	}
	tr := c.transfers(r)
	if len(tr) != 1 || tr[0].From != lost || tr[0].To != replacement || tr[0].Value.Int64() != 40 {
		t.Fatalf("Transfer events %+v", tr)
	}
	var forced *struct{ from, to common.Address }
	for _, l := range r.Logs {
		if ev, err := c.tokenABI.UnpackForcedTransferEvent(l); err == nil {
			if ev.Agent != c.agent.Address() || ev.Amount.Int64() != 40 {
				t.Fatalf("ForcedTransfer event %+v", ev)
			}
			forced = &struct{ from, to common.Address }{ev.From, ev.To}
		}
	}
	if forced == nil || forced.from != lost || forced.to != replacement {
		t.Fatalf("ForcedTransfer event %+v", forced)
	}
	// More than the wallet holds is refused.
	_ = c.reverts(c.agent, c.token, c.tokenABI.PackForcedTransfer(lost, replacement, big.NewInt(1)), "ERC20InsufficientBalance")
}

func TestOnlyTheAgentCanMintBurnFreezePauseAndForceTransfers(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	one := big.NewInt(1)
	calls := map[string][]byte{
		"mint":           c.tokenABI.PackMint(c.bob.Address(), one),
		"batchMint":      c.tokenABI.PackBatchMint([]common.Address{c.bob.Address()}, []*big.Int{one}),
		"burn":           c.tokenABI.PackBurn(c.alice.Address(), one),
		"batchBurn":      c.tokenABI.PackBatchBurn([]common.Address{c.alice.Address()}, []*big.Int{one}),
		"freeze":         c.tokenABI.PackSetAddressFrozen(c.bob.Address(), true),
		"pause":          c.tokenABI.PackPause(),
		"forcedTransfer": c.tokenABI.PackForcedTransfer(c.alice.Address(), c.bob.Address(), one),
	}
	for name, calldata := range calls {
		// Neither a holder nor the admin: the admin configures, it does not operate.
		for _, caller := range []*KeySigner{c.alice, c.admin} {
			t.Logf("%s by %s", name, caller.Address().Hex())
			r := c.reverts(caller, c.token, calldata, "AccessControlUnauthorizedAccount")
			wantArgs(t, r, caller.Address(), [32]byte(agentRole))
		}
	}
	// The registry's agent functions likewise.
	for _, caller := range []*KeySigner{c.alice, c.admin} {
		wantArgs(t, c.reverts(caller, c.registry, c.registryABI.PackRegisterWallet(c.carol.Address()), "AccessControlUnauthorizedAccount"), caller.Address(), [32]byte(agentRole))
		wantArgs(t, c.reverts(caller, c.registry, c.registryABI.PackRemoveWallet(c.bob.Address()), "AccessControlUnauthorizedAccount"), caller.Address(), [32]byte(agentRole))
	}
	if c.balance(c.alice.Address()) != 10 || c.totalSupply() != 10 {
		t.Fatal("state changed")
	}
}

func TestOnlyTheAdminCanGrantRolesAndSetTheRegistry(t *testing.T) {
	c := newTokenChain(t)
	// The agent cannot make another agent, nor move the token to another registry.
	wantArgs(t, c.reverts(c.agent, c.token, c.tokenABI.PackGrantRole(agentRole, c.bob.Address()), "AccessControlUnauthorizedAccount"), c.agent.Address(), [32]byte(adminRole))
	wantArgs(t, c.reverts(c.agent, c.token, c.tokenABI.PackSetIdentityRegistry(c.registryAddr), "AccessControlUnauthorizedAccount"), c.agent.Address(), [32]byte(adminRole))
	wantArgs(t, c.reverts(c.agent, c.registry, c.registryABI.PackGrantRole(agentRole, c.bob.Address()), "AccessControlUnauthorizedAccount"), c.agent.Address(), [32]byte(adminRole))

	// The admin grants the agent role; the new agent can mint.
	c.send(c.admin, c.token, c.tokenABI.PackGrantRole(agentRole, c.bob.Address()))
	c.register(c.alice)
	c.send(c.bob, c.token, c.tokenABI.PackMint(c.alice.Address(), big.NewInt(2)))
	// ...and revokes it again.
	c.send(c.admin, c.token, c.tokenABI.PackRevokeRole(agentRole, c.bob.Address()))
	_ = c.reverts(c.bob, c.token, c.tokenABI.PackMint(c.alice.Address(), big.NewInt(2)), "AccessControlUnauthorizedAccount")

	// The admin points the token at a new registry, where alice is not registered.
	next, err := DeployIdentityRegistry(c.ctx, c.client, c.admin, c.chainID, c.admin.Address(), c.agent.Address())
	if err != nil {
		t.Fatal(err)
	}
	c.mined(next.Tx)
	r := c.send(c.admin, c.token, c.tokenABI.PackSetIdentityRegistry(next.Address))
	ev, err := c.tokenABI.UnpackIdentityRegistrySetEvent(r.Logs[0])
	if err != nil || ev.Previous != c.registryAddr || ev.Current != next.Address {
		t.Fatalf("IdentityRegistrySet event %+v, %v", ev, err)
	}
	_ = c.reverts(c.agent, c.token, c.tokenABI.PackMint(c.alice.Address(), big.NewInt(1)), "NotVerified")
	// An address without code is no registry.
	wantArgs(t, c.reverts(c.admin, c.token, c.tokenABI.PackSetIdentityRegistry(c.carol.Address()), "InvalidIdentityRegistry"), c.carol.Address())
}

func TestBatchMintMintsToManyWalletsInOneTransaction(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob, c.carol)
	wallets := []common.Address{c.alice.Address(), c.bob.Address(), c.carol.Address()}
	units := []*big.Int{big.NewInt(5), big.NewInt(7), big.NewInt(11)}
	r := c.send(c.agent, c.token, c.tokenABI.PackBatchMint(wallets, units))
	tr := c.transfers(r)
	if len(tr) != 3 {
		t.Fatalf("%d Transfer events in the batch's receipt, want 3", len(tr))
	}
	for i, w := range wallets {
		if c.balance(w) != units[i].Int64() || tr[i].To != w || tr[i].Value.Cmp(units[i]) != 0 {
			t.Fatalf("wallet %d: balance %d, event %+v; want %s", i, c.balance(w), tr[i], units[i])
		}
	}
	if c.totalSupply() != 23 {
		t.Fatalf("totalSupply %d, want 23", c.totalSupply())
	}
}

func TestBatchMintIsAllOrNothing(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	// carol is not registered: the whole batch reverts, alice and bob get nothing.
	wallets := []common.Address{c.alice.Address(), c.bob.Address(), c.carol.Address()}
	units := []*big.Int{big.NewInt(5), big.NewInt(7), big.NewInt(11)}
	wantArgs(t, c.reverts(c.agent, c.token, c.tokenABI.PackBatchMint(wallets, units), "NotVerified"), c.carol.Address())
	r := c.reverts(c.agent, c.token, c.tokenABI.PackBatchMint(wallets[:2], units), "BatchLengthMismatch")
	wantArgs(t, r, big.NewInt(2), big.NewInt(3))
	if c.totalSupply() != 0 {
		t.Fatal("units issued")
	}
}

func TestBurnReducesBalanceAndTotalSupply(t *testing.T) {
	c := newTokenChain(t)
	c.register(c.alice, c.bob)
	c.mint(c.alice, 10)
	c.mint(c.bob, 6)
	r := c.send(c.agent, c.token, c.tokenABI.PackBurn(c.alice.Address(), big.NewInt(4)))
	if tr := c.transfers(r); len(tr) != 1 || tr[0].From != c.alice.Address() || tr[0].To != (common.Address{}) || tr[0].Value.Int64() != 4 {
		t.Fatalf("Transfer events %+v, want one from alice to 0x0 of 4", tr)
	}
	if c.balance(c.alice.Address()) != 6 || c.totalSupply() != 12 {
		t.Fatalf("balance %d supply %d, want 6 and 12", c.balance(c.alice.Address()), c.totalSupply())
	}
	r2 := c.reverts(c.agent, c.token, c.tokenABI.PackBurn(c.alice.Address(), big.NewInt(7)), "ERC20InsufficientBalance")
	wantArgs(t, r2, c.alice.Address(), big.NewInt(6), big.NewInt(7))

	c.send(c.agent, c.token, c.tokenABI.PackBatchBurn([]common.Address{c.alice.Address(), c.bob.Address()}, []*big.Int{big.NewInt(6), big.NewInt(1)}))
	if c.balance(c.alice.Address()) != 0 || c.balance(c.bob.Address()) != 5 || c.totalSupply() != 5 {
		t.Fatal("batch burn did not apply")
	}
}

func TestRegistryRegistersAndRemovesWalletsWithEvents(t *testing.T) {
	c := newTokenChain(t)
	if c.verified(c.alice.Address()) {
		t.Fatal("verified before registration")
	}
	r := c.send(c.agent, c.registry, c.registryABI.PackRegisterWallet(c.alice.Address()))
	ev, err := c.registryABI.UnpackWalletRegisteredEvent(r.Logs[0])
	if err != nil || ev.Wallet != c.alice.Address() || ev.Agent != c.agent.Address() {
		t.Fatalf("WalletRegistered event %+v, %v", ev, err)
	}
	if !c.verified(c.alice.Address()) {
		t.Fatal("not verified after registration")
	}
	wantArgs(t, c.reverts(c.agent, c.registry, c.registryABI.PackRegisterWallet(c.alice.Address()), "WalletAlreadyRegistered"), c.alice.Address())
	_ = c.reverts(c.agent, c.registry, c.registryABI.PackRegisterWallet(common.Address{}), "ZeroAddress")

	r = c.send(c.agent, c.registry, c.registryABI.PackBatchRegisterWallets([]common.Address{c.bob.Address(), c.carol.Address()}))
	if len(r.Logs) != 2 || !c.verified(c.bob.Address()) || !c.verified(c.carol.Address()) {
		t.Fatalf("batch registration: %d events", len(r.Logs))
	}

	r = c.send(c.agent, c.registry, c.registryABI.PackRemoveWallet(c.alice.Address()))
	rm, err := c.registryABI.UnpackWalletRemovedEvent(r.Logs[0])
	if err != nil || rm.Wallet != c.alice.Address() || rm.Agent != c.agent.Address() {
		t.Fatalf("WalletRemoved event %+v, %v", rm, err)
	}
	if c.verified(c.alice.Address()) {
		t.Fatal("verified after removal")
	}
	wantArgs(t, c.reverts(c.agent, c.registry, c.registryABI.PackRemoveWallet(c.alice.Address()), "WalletNotRegistered"), c.alice.Address())
}

// The later chain agent reports a mined, failed delivery as "reverted: NotVerified(0x…)": a
// receipt carries no reason, so it is read by replaying the transaction.
func TestAMinedRevertIsDecodedFromItsReceipt(t *testing.T) {
	c := newTokenChain(t)
	opts := TransactOpts(c.ctx, c.agent, c.chainID)
	opts.GasLimit = 300_000 // skip the gas estimate, which would refuse to send it
	tx, err := bind.Transact(c.token, opts, c.tokenABI.PackMint(c.bob.Address(), big.NewInt(5)))
	if err != nil {
		t.Fatal(err)
	}
	c.backend.Commit()
	receipt, err := c.client.TransactionReceipt(c.ctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if receipt.Status != types.ReceiptStatusFailed {
		t.Fatal("the mint to an unregistered wallet was mined successfully")
	}
	rev, err := RevertOfReceipt(c.ctx, c.client, tx, receipt)
	if err != nil {
		t.Fatal(err)
	}
	if want := "reverted: NotVerified(" + c.bob.Address().Hex() + ")"; rev.Error() != want {
		t.Fatalf("%q, want %q", rev.Error(), want)
	}
	// The generated bindings decode the same data into a typed error.
	typed, err := c.tokenABI.UnpackError(rev.Data)
	if nv, ok := typed.(*contracts.ShareTokenNotVerified); err != nil || !ok || nv.Wallet != c.bob.Address() {
		t.Fatalf("UnpackError: %#v, %v", typed, err)
	}

	// A successful transaction has no revert to read.
	c.register(c.bob)
	okTx, err := bind.Transact(c.token, TransactOpts(c.ctx, c.agent, c.chainID), c.tokenABI.PackMint(c.bob.Address(), big.NewInt(5)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RevertOfReceipt(c.ctx, c.client, okTx, c.mined(okTx)); err == nil || !strings.Contains(err.Error(), "did not revert") {
		t.Fatalf("RevertOfReceipt of a success: %v", err)
	}
}
