package chain_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Lock-ups on chain: units minted with a release time cannot be moved by the holder before it.

// wantBalances fails unless wallet holds balance units of which locked are locked, and the
// views agree with each other (locked <= balance, unlocked = balance - locked).
func wantBalances(t *testing.T, c *tokenChain, wallet common.Address, balance, locked int64) {
	t.Helper()
	b, l, u := c.Balance(c.Token, wallet), c.Locked(c.Token, wallet), c.Unlocked(c.Token, wallet)
	if b != balance || l != locked || u != balance-locked {
		t.Fatalf("%s: balance %d, locked %d, unlocked %d; want %d, %d, %d", wallet.Hex(), b, l, u, balance, locked, balance-locked)
	}
}

func lockedEvents(c *tokenChain, r *types.Receipt) []*contracts.ShareTokenLocked {
	var out []*contracts.ShareTokenLocked
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackLockedEvent(l); err == nil {
			out = append(out, ev)
		}
	}
	return out
}

func TestAHolderCannotTransferLockedUnits(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	release := c.Now() + 3600
	r := c.MintLocked(c.Token, c.alice.Address(), 10, release)
	if ev := lockedEvents(c, r); len(ev) != 1 || ev[0].Holder != c.alice.Address() || ev[0].Amount.Int64() != 10 || ev[0].ReleaseTime != release {
		t.Fatalf("Locked events %+v, want one of 10 units of alice until %d", ev, release)
	}
	c.Mint(c.Token, c.alice.Address(), 5)
	wantBalances(t, c, c.alice.Address(), 15, 10)

	// Six units would take one locked unit: refused, naming the locked and requested units.
	wantArgs(t, c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(6)), "LockedUnits"),
		c.alice.Address(), big.NewInt(10), big.NewInt(6))
	// transferFrom by an approved spender likewise.
	c.Send(c.alice, c.Token, c.TokenABI.PackApprove(c.bob.Address(), big.NewInt(15)))
	wantArgs(t, c.Reverts(c.bob, c.Token, c.TokenABI.PackTransferFrom(c.alice.Address(), c.bob.Address(), big.NewInt(15)), "LockedUnits"),
		c.alice.Address(), big.NewInt(10), big.NewInt(15))
	// canTransfer agrees.
	if c.CanTransfer(c.Token, c.alice.Address(), c.bob.Address(), 6) || !c.CanTransfer(c.Token, c.alice.Address(), c.bob.Address(), 5) {
		t.Fatal("canTransfer disagrees with the lock")
	}
	// The unlocked units move; more than the balance is still ERC-20's error.
	c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(5)))
	wantBalances(t, c, c.alice.Address(), 10, 10)
	wantBalances(t, c, c.bob.Address(), 5, 0)
	_ = c.Reverts(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(11)), "ERC20InsufficientBalance")
	if c.CanTransfer(c.Token, c.alice.Address(), c.bob.Address(), 1) {
		t.Fatal("canTransfer says a locked unit can move")
	}
}

func TestLockedUnitsUnlockAtTheirReleaseTimeWithoutATransaction(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	release := c.Now() + 3600
	c.MintLocked(c.Token, c.alice.Address(), 10, release)
	nonce, err := c.Client.NonceAt(c.Ctx, c.Agent.Address(), nil)
	if err != nil {
		t.Fatal(err)
	}

	// One second before the release time: still locked.
	c.AdvanceTime(time.Duration(release-c.Now()-1) * time.Second)
	if c.Now() != release-1 {
		t.Fatalf("head time %d, want %d", c.Now(), release-1)
	}
	wantBalances(t, c, c.alice.Address(), 10, 10)
	// At the release time: unlocked, with no transaction of the agent in between.
	c.AdvanceTime(time.Second)
	wantBalances(t, c, c.alice.Address(), 10, 0)
	if after, err := c.Client.NonceAt(c.Ctx, c.Agent.Address(), nil); err != nil || after != nonce {
		t.Fatalf("agent nonce %d (%v), want %d: the unlock needed a transaction", after, err, nonce)
	}
	if !c.CanTransfer(c.Token, c.alice.Address(), c.bob.Address(), 10) {
		t.Fatal("canTransfer refuses unlocked units")
	}
	c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(10)))
	wantBalances(t, c, c.bob.Address(), 10, 0)
}

func TestAMintWithAReleaseTimeAlreadyReachedIsUnlocked(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	r := c.MintLocked(c.Token, c.alice.Address(), 7, c.Now())
	if ev := lockedEvents(c, r); len(ev) != 0 {
		t.Fatalf("Locked events %+v for a release time already reached", ev)
	}
	wantBalances(t, c, c.alice.Address(), 7, 0)
}

func TestBatchMintLockedLocksEachWalletsUnitsUntilItsOwnReleaseTime(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address(), c.carol.Address())
	now := c.Now()
	wallets := []common.Address{c.alice.Address(), c.bob.Address(), c.carol.Address()}
	units := []*big.Int{big.NewInt(5), big.NewInt(7), big.NewInt(11)}
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackBatchMintLocked(wallets, units, []uint64{now + 100, now + 200, 0}))
	if len(c.TransfersOf(r)) != 3 || len(lockedEvents(c, r)) != 2 {
		t.Fatalf("%d Transfer and %d Locked events, want 3 and 2", len(c.TransfersOf(r)), len(lockedEvents(c, r)))
	}
	wantBalances(t, c, c.alice.Address(), 5, 5)
	wantBalances(t, c, c.bob.Address(), 7, 7)
	wantBalances(t, c, c.carol.Address(), 11, 0)
	c.AdvanceTime(time.Duration(now+150-c.Now()) * time.Second)
	wantBalances(t, c, c.alice.Address(), 5, 0)
	wantBalances(t, c, c.bob.Address(), 7, 7)
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchMintLocked(wallets, units, []uint64{1, 2}), "BatchLengthMismatch"), big.NewInt(3), big.NewInt(2))
}

func TestABurnTakesUnlockedUnitsFirst(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	now := c.Now()
	c.MintLocked(c.Token, c.alice.Address(), 6, now+1000)
	c.MintLocked(c.Token, c.alice.Address(), 4, now+2000)
	c.Mint(c.Token, c.alice.Address(), 5)
	wantBalances(t, c, c.alice.Address(), 15, 10)

	// Three of the five unlocked units; the locks stay.
	c.Send(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(3)))
	wantBalances(t, c, c.alice.Address(), 12, 10)
	// Two unlocked, then three locked ones, from the most recently written lock (now+2000).
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(5)))
	wantBalances(t, c, c.alice.Address(), 7, 7)
	var removed []*contracts.ShareTokenLockRemoved
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackLockRemovedEvent(l); err == nil {
			removed = append(removed, ev)
		}
	}
	if len(removed) != 1 || removed[0].Amount.Int64() != 3 || removed[0].ReleaseTime != now+2000 {
		t.Fatalf("LockRemoved events %+v, want 3 units of the lock until %d", removed, now+2000)
	}
	// Past the first release time, the six of the first lock are free, one of the second remains.
	c.AdvanceTime(time.Duration(now+1000-c.Now()) * time.Second)
	wantBalances(t, c, c.alice.Address(), 7, 1)
	// A batch burn of everything leaves no lock behind (locked <= balance).
	c.Send(c.Agent, c.Token, c.TokenABI.PackBatchBurn([]common.Address{c.alice.Address()}, []*big.Int{big.NewInt(7)}))
	wantBalances(t, c, c.alice.Address(), 0, 0)
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackBurn(c.alice.Address(), big.NewInt(1)), "ERC20InsufficientBalance")
}

func TestAForcedTransferCarriesTheLocks(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address(), c.carol.Address())
	now := c.Now()
	c.Mint(c.Token, c.alice.Address(), 4)
	c.MintLocked(c.Token, c.alice.Address(), 6, now+1000)
	c.MintLocked(c.Token, c.alice.Address(), 5, now+2000)

	// Eight units: the four unlocked, then four of the most recent lock (now+2000), which
	// stay locked at bob until the same time.
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackForcedTransfer(c.alice.Address(), c.bob.Address(), big.NewInt(8)))
	wantBalances(t, c, c.alice.Address(), 7, 7)
	wantBalances(t, c, c.bob.Address(), 8, 4)
	if ev := lockedEvents(c, r); len(ev) != 1 || ev[0].Holder != c.bob.Address() || ev[0].Amount.Int64() != 4 || ev[0].ReleaseTime != now+2000 {
		t.Fatalf("Locked events %+v, want 4 units of bob until %d", ev, now+2000)
	}
	wantArgs(t, c.Reverts(c.bob, c.Token, c.TokenABI.PackTransfer(c.carol.Address(), big.NewInt(5)), "LockedUnits"),
		c.bob.Address(), big.NewInt(4), big.NewInt(5))

	c.AdvanceTime(time.Duration(now+1000-c.Now()) * time.Second)
	wantBalances(t, c, c.alice.Address(), 7, 1)
	wantBalances(t, c, c.bob.Address(), 8, 4)
	c.AdvanceTime(time.Duration(now+2000-c.Now()) * time.Second)
	wantBalances(t, c, c.alice.Address(), 7, 0)
	wantBalances(t, c, c.bob.Address(), 8, 0)
	c.Send(c.bob, c.Token, c.TokenABI.PackTransfer(c.carol.Address(), big.NewInt(8)))
}

func TestRecoverWalletMovesTheWholeBalanceAndEveryLock(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address(), c.carol.Address())
	lost, replacement := c.alice.Address(), c.carol.Address()
	now := c.Now()
	c.Mint(c.Token, lost, 3)
	c.MintLocked(c.Token, lost, 6, now+1000)
	c.MintLocked(c.Token, lost, 5, now+2000)
	c.MintLocked(c.Token, replacement, 2, now+2000) // the replacement's own lock merges with the carried one
	// The lost key is frozen and leaves the registry first; recovery still works.
	c.Send(c.Agent, c.Token, c.TokenABI.PackSetAddressFrozen(lost, true))
	c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(lost))

	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackRecoverWallet(lost, lost), "SameWallet"), lost)
	stranger := c.NewWallet()
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackRecoverWallet(lost, stranger), "NotVerified"), stranger)
	r := c.Send(c.Agent, c.Token, c.TokenABI.PackRecoverWallet(lost, replacement))
	wantBalances(t, c, lost, 0, 0)
	wantBalances(t, c, replacement, 16, 13)

	var forced, recovered int
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackForcedTransferEvent(l); err == nil {
			forced++
			if ev.From != lost || ev.To != replacement || ev.Amount.Int64() != 14 || ev.Agent != c.Agent.Address() {
				t.Fatalf("ForcedTransfer event %+v", ev)
			}
		}
		if ev, err := c.TokenABI.UnpackWalletRecoveredEvent(l); err == nil {
			recovered++
			if ev.Lost != lost || ev.Replacement != replacement || ev.Amount.Int64() != 14 || ev.Locked.Int64() != 11 || ev.Agent != c.Agent.Address() {
				t.Fatalf("WalletRecovered event %+v", ev)
			}
		}
	}
	if forced != 1 || recovered != 1 {
		t.Fatalf("%d ForcedTransfer and %d WalletRecovered events, want one each", forced, recovered)
	}
	if tr := c.TransfersOf(r); len(tr) != 1 || tr[0].From != lost || tr[0].To != replacement || tr[0].Units != 14 {
		t.Fatalf("Transfer events %+v", tr)
	}
	// Every lock came along with its own release time.
	c.AdvanceTime(time.Duration(now+1000-c.Now()) * time.Second)
	wantBalances(t, c, replacement, 16, 7)
	c.AdvanceTime(time.Duration(now+2000-c.Now()) * time.Second)
	wantBalances(t, c, replacement, 16, 0)
	// Only the agent recovers.
	wantArgs(t, c.Reverts(c.bob, c.Token, c.TokenABI.PackRecoverWallet(replacement, c.bob.Address()), "AccessControlUnauthorizedAccount"), c.bob.Address(), [32]byte(agentRole))
}

func TestAHoldersLocksAreBoundedAndExpiredOnesArePruned(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	maxLocks, err := bind.Call(c.token(), &bind.CallOpts{Context: c.Ctx}, c.TokenABI.PackMAXLOCKS(), c.TokenABI.UnpackMAXLOCKS)
	if err != nil || maxLocks.Int64() != 64 {
		t.Fatalf("MAX_LOCKS %s, %v; want 64", maxLocks, err)
	}
	max := int(maxLocks.Int64())
	now := c.Now()
	wallets := make([]common.Address, max)
	units := make([]*big.Int, max)
	releases := make([]uint64, max)
	for i := range wallets {
		wallets[i], units[i], releases[i] = c.alice.Address(), big.NewInt(1), now+100+uint64(i)
	}
	c.Send(c.Agent, c.Token, c.TokenABI.PackBatchMintLocked(wallets, units, releases))
	wantBalances(t, c, c.alice.Address(), int64(max), int64(max))
	// The same release time shares an entry; a new one beyond the cap is refused.
	c.MintLocked(c.Token, c.alice.Address(), 1, now+100)
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.TokenABI.PackMintLocked(c.alice.Address(), big.NewInt(1), now+5000), "TooManyLocks"),
		c.alice.Address(), big.NewInt(int64(max)))
	// Once some expire, writing the holder's locks prunes them and makes room.
	c.AdvanceTime(time.Duration(now+110-c.Now()) * time.Second)
	c.MintLocked(c.Token, c.alice.Address(), 1, now+5000)
	expired := int64(c.Now()-(now+100)) + 1 + 1 // releases now+100..head, and the merged unit
	wantBalances(t, c, c.alice.Address(), int64(max)+2, int64(max)+2-expired)

	// The worst cases, for docs/tokens.md: a holder transfer reading a full set of locks, and
	// a recovery carrying one.
	c.Register(c.bob.Address(), c.carol.Address())
	r := c.Send(c.alice, c.Token, c.TokenABI.PackTransfer(c.bob.Address(), big.NewInt(1)))
	t.Logf("holder transfer with %d live locks: %d gas", c.Locked(c.Token, c.alice.Address()), r.GasUsed)
	r = c.Send(c.Agent, c.Token, c.TokenABI.PackRecoverWallet(c.alice.Address(), c.carol.Address()))
	t.Logf("recoverWallet carrying %d locks: %d gas", len(lockedEvents(c, r)), r.GasUsed)
	wantBalances(t, c, c.alice.Address(), 0, 0)
}
