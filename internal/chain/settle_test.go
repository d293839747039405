package chain_test

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Secondary settlement (delivery versus payment): settleWithRef moves existing units from
// sellers' wallets to a buyer's wallet under the holder-transfer rules, once per reference.

// settlementRef is the reference of a secondary BUY's delivery in these tests.
func settlementRef(name string) [32]byte {
	return chain.EffectRef("Order", "demo", name, "uid-"+name, "settle")
}

// settle is the calldata of settleWithRef: one leg per seller, amounts[i] units from sellers[i].
func (c *tokenChain) settle(ref [32]byte, sellers []common.Address, buyer common.Address, amounts []int64, release uint64) []byte {
	return c.TokenABI.PackSettleWithRef(ref, sellers, buyer, units(amounts...), release)
}

// sellersWithUnits registers alice, bob and carol and gives alice 30 and bob 20 units:
// alice and bob sell, carol buys.
func sellersWithUnits(t *testing.T) *tokenChain {
	t.Helper()
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address(), c.carol.Address())
	c.Mint(c.Token, c.alice.Address(), 30)
	c.Mint(c.Token, c.bob.Address(), 20)
	return c
}

// wantNothingMoved fails unless alice, bob and carol still hold 30, 20 and 0 units and ref
// is unused.
func wantNothingMoved(t *testing.T, c *tokenChain, ref [32]byte) {
	t.Helper()
	if a, b, cc := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()), c.Balance(c.Token, c.carol.Address()); a != 30 || b != 20 || cc != 0 {
		t.Fatalf("balances alice %d, bob %d, carol %d; want 30, 20, 0 (nothing moved)", a, b, cc)
	}
	applied, err := bind.Call(c.token(), &bind.CallOpts{Context: c.Ctx}, c.TokenABI.PackEffectApplied(ref), c.TokenABI.UnpackEffectApplied)
	if err != nil || applied.Sign() != 0 {
		t.Fatalf("effectApplied(ref) = %v, %v; want 0 (the reference is still free)", applied, err)
	}
}

func secondaryTransfers(c *tokenChain, r *types.Receipt) []*contracts.ShareTokenSecondaryTransfer {
	var out []*contracts.ShareTokenSecondaryTransfer
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackSecondaryTransferEvent(l); err == nil {
			out = append(out, ev)
		}
	}
	return out
}

func TestSettleWithRefMovesUnitsFromSellersToTheBuyer(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	sellers, buyer := []common.Address{c.alice.Address(), c.bob.Address()}, c.carol.Address()
	r := c.Send(c.Agent, c.Token, c.settle(ref, sellers, buyer, []int64{10, 15}, 0))

	if a, b, cc := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()), c.Balance(c.Token, buyer); a != 20 || b != 5 || cc != 25 {
		t.Fatalf("balances alice %d, bob %d, carol %d; want 20, 5, 25", a, b, cc)
	}
	if s := c.TotalSupply(c.Token); s != 50 {
		t.Fatalf("totalSupply %d, want 50: nothing minted or burned", s)
	}
	wantBalances(t, c, buyer, 25, 0) // release time 0: unlocked

	// Per leg the ERC-20 Transfer, then SecondaryTransfer naming the reference.
	tr, st := c.TransfersOf(r), secondaryTransfers(c, r)
	if len(tr) != 2 || len(st) != 2 {
		t.Fatalf("%d Transfer and %d SecondaryTransfer events, want 2 and 2", len(tr), len(st))
	}
	for i, want := range []struct {
		from  common.Address
		units int64
	}{{c.alice.Address(), 10}, {c.bob.Address(), 15}} {
		if tr[i].From != want.from || tr[i].To != buyer || tr[i].Units != want.units {
			t.Fatalf("Transfer %d: %+v, want %s to %s of %d", i, tr[i], want.from.Hex(), buyer.Hex(), want.units)
		}
		if st[i].Ref != ref || st[i].From != want.from || st[i].To != buyer || st[i].Units.Int64() != want.units {
			t.Fatalf("SecondaryTransfer %d: %+v, want %s to %s of %d", i, st[i], want.from.Hex(), buyer.Hex(), want.units)
		}
	}
	var transferAt []uint
	for _, l := range r.Logs {
		if _, err := c.TokenABI.UnpackTransferEvent(l); err == nil {
			transferAt = append(transferAt, l.Index)
		}
	}
	for i := range st {
		if st[i].Raw.Index != transferAt[i]+1 {
			t.Fatalf("SecondaryTransfer %d is log %d, its Transfer log %d: want it right after", i, st[i].Raw.Index, transferAt[i])
		}
	}
	if !chain.EffectsApplied(r, c.Token)[common.Hash(ref)] {
		t.Fatal("the settlement's receipt has no EffectApplied of its reference")
	}
}

func TestSettleWithRefRevertsOnAFrozenSeller(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	c.Freeze(c.Token, c.bob.Address(), true)
	calldata := c.settle(ref, []common.Address{c.alice.Address(), c.bob.Address()}, c.carol.Address(), []int64{10, 15}, 0)
	wantArgs(t, c.Reverts(c.Agent, c.Token, calldata, "WalletFrozen"), c.bob.Address())
	wantNothingMoved(t, c, ref)

	// Mined anyway (no gas estimate), the failed settlement reads as the reason.
	opts := chain.TransactOpts(c.Ctx, c.Agent, c.ChainID)
	opts.GasLimit = 500_000
	tx, err := bind.Transact(c.token(), opts, calldata)
	if err != nil {
		t.Fatal(err)
	}
	c.Backend.Commit()
	receipt, err := c.Client.TransactionReceipt(c.Ctx, tx.Hash())
	if err != nil || receipt.Status != types.ReceiptStatusFailed {
		t.Fatalf("receipt %+v, %v; want a failed transaction", receipt, err)
	}
	rev, err := chain.RevertOfReceipt(c.Ctx, c.Client, tx, receipt)
	if err != nil {
		t.Fatal(err)
	}
	if want := "reverted: WalletFrozen(" + c.bob.Address().Hex() + ")"; rev.Error() != want {
		t.Fatalf("%q, want %q", rev.Error(), want)
	}
	wantNothingMoved(t, c, ref)
}

func TestSettleWithRefRevertsOnAFrozenBuyer(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	c.Freeze(c.Token, c.carol.Address(), true)
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.alice.Address()}, c.carol.Address(), []int64{10}, 0), "WalletFrozen")
	wantArgs(t, r, c.carol.Address())
	wantNothingMoved(t, c, ref)
}

func TestSettleWithRefRevertsOnAnUnverifiedWallet(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	// A buyer the registry does not know.
	stranger := c.NewWallet()
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.alice.Address()}, stranger, []int64{10}, 0), "NotVerified"), stranger)
	// A seller removed from the registry (the forced-transfer rules would let its units go; these do not).
	c.Send(c.Agent, c.Registry, c.RegistryABI.PackRemoveWallet(c.bob.Address()))
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.alice.Address(), c.bob.Address()}, c.carol.Address(), []int64{10, 15}, 0), "NotVerified"), c.bob.Address())
	wantNothingMoved(t, c, ref)
}

func TestSettleWithRefMovesUnlockedUnitsOnly(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.carol.Address())
	c.MintLocked(c.Token, c.alice.Address(), 10, c.Now()+3600)
	c.Mint(c.Token, c.alice.Address(), 5)
	wantBalances(t, c, c.alice.Address(), 15, 10)

	// Six units would take one locked unit: refused, naming the locked and requested units.
	r := c.Reverts(c.Agent, c.Token, c.settle(settlementRef("b1"), []common.Address{c.alice.Address()}, c.carol.Address(), []int64{6}, 0), "LockedUnits")
	wantArgs(t, r, c.alice.Address(), big.NewInt(10), big.NewInt(6))
	// The five unlocked units move; the locks stay with the seller.
	c.Send(c.Agent, c.Token, c.settle(settlementRef("b2"), []common.Address{c.alice.Address()}, c.carol.Address(), []int64{5}, 0))
	wantBalances(t, c, c.alice.Address(), 10, 10)
	wantBalances(t, c, c.carol.Address(), 5, 0)
}

func TestSettleWithRefRevertsWhenASellerHoldsTooFew(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.bob.Address()}, c.carol.Address(), []int64{21}, 0), "ERC20InsufficientBalance")
	wantArgs(t, r, c.bob.Address(), big.NewInt(20), big.NewInt(21))
	wantNothingMoved(t, c, ref)
}

func TestSettleWithRefIsAllOrNothing(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	// The first leg alone would succeed; the second asks bob for more than he holds.
	sellers := []common.Address{c.alice.Address(), c.bob.Address()}
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, sellers, c.carol.Address(), []int64{10, 50}, 0), "ERC20InsufficientBalance")
	wantArgs(t, r, c.bob.Address(), big.NewInt(20), big.NewInt(50))
	wantNothingMoved(t, c, ref)
	if n := len(c.Transfers(c.Token)); n != 2 {
		t.Fatalf("%d Transfer events on chain, want the 2 mints", n)
	}
	// The reference was not used: the corrected settlement goes through with it.
	c.Send(c.Agent, c.Token, c.settle(ref, sellers, c.carol.Address(), []int64{10, 20}, 0))
	if got := c.Balance(c.Token, c.carol.Address()); got != 30 {
		t.Fatalf("carol %d, want 30", got)
	}
}

func TestSettleWithRefAppliesARefOnce(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	sellers := []common.Address{c.alice.Address(), c.bob.Address()}
	rc := c.Send(c.Agent, c.Token, c.settle(ref, sellers, c.carol.Address(), []int64{10, 5}, 0))

	// Again, as after a record lost: refused, nothing moved twice.
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, sellers, c.carol.Address(), []int64{10, 5}, 0), chain.EffectAppliedError)
	wantArgs(t, r, ref, rc.BlockNumber)
	if !chain.IsEffectApplied(r) {
		t.Fatal("IsEffectApplied is false for the revert")
	}
	// A reference another effect used is refused too.
	mintRef := chain.EffectRef("Order", "demo", "m", "uid-m", chain.EffectMint)
	mint := c.Send(c.Agent, c.Token, c.TokenABI.PackMintWithRef(mintRef, c.alice.Address(), big.NewInt(1)))
	wantArgs(t, c.Reverts(c.Agent, c.Token, c.settle(mintRef, sellers, c.carol.Address(), []int64{1, 1}, 0), chain.EffectAppliedError), mintRef, mint.BlockNumber)
	_ = c.Reverts(c.Agent, c.Token, c.settle([32]byte{}, sellers, c.carol.Address(), []int64{1, 1}, 0), "ZeroRef")
	if a, b, cc := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()), c.Balance(c.Token, c.carol.Address()); a != 21 || b != 15 || cc != 15 {
		t.Fatalf("balances alice %d, bob %d, carol %d; want 21, 15, 15 (settled once)", a, b, cc)
	}

	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, ref)
	if err != nil || got == nil {
		t.Fatalf("FindEffect = %+v, %v", got, err)
	}
	if got.TxHash != rc.TxHash || got.Block != rc.BlockNumber.Uint64() || got.Units.Int64() != 15 {
		t.Fatalf("FindEffect = tx %s block %d units %s; want %s, %d, 15 (all legs)", got.TxHash.Hex(), got.Block, got.Units, rc.TxHash.Hex(), rc.BlockNumber)
	}
}

func TestSettleWithRefLocksTheUnitsReceived(t *testing.T) {
	c := sellersWithUnits(t)
	c.Mint(c.Token, c.carol.Address(), 5) // the buyer's own unlocked units stay unlocked
	release := c.Now() + 3600
	r := c.Send(c.Agent, c.Token, c.settle(settlementRef("b1"), []common.Address{c.alice.Address(), c.bob.Address()}, c.carol.Address(), []int64{10, 15}, release))
	if ev := lockedEvents(c, r); len(ev) != 1 || ev[0].Holder != c.carol.Address() || ev[0].Amount.Int64() != 25 || ev[0].ReleaseTime != release {
		t.Fatalf("Locked events %+v, want one of 25 units of carol until %d", ev, release)
	}
	wantBalances(t, c, c.carol.Address(), 30, 25)
	wantBalances(t, c, c.alice.Address(), 20, 0)
	_ = c.Reverts(c.carol, c.Token, c.TokenABI.PackTransfer(c.alice.Address(), big.NewInt(6)), "LockedUnits")

	// Unlocked at the release time, with no transaction.
	c.AdvanceTime(time.Duration(release-c.Now()) * time.Second)
	wantBalances(t, c, c.carol.Address(), 30, 0)

	// A release time already reached locks nothing.
	r = c.Send(c.Agent, c.Token, c.settle(settlementRef("b2"), []common.Address{c.alice.Address()}, c.carol.Address(), []int64{1}, c.Now()))
	if ev := lockedEvents(c, r); len(ev) != 0 {
		t.Fatalf("Locked events %+v for a release time already reached", ev)
	}
	wantBalances(t, c, c.carol.Address(), 31, 0)
}

func TestSettleWithRefRevertsWhilePaused(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	calldata := c.settle(ref, []common.Address{c.alice.Address()}, c.carol.Address(), []int64{10}, 0)
	c.Pause(c.Token)
	_ = c.Reverts(c.Agent, c.Token, calldata, "EnforcedPause")
	wantNothingMoved(t, c, ref)
	c.Unpause(c.Token)
	c.Send(c.Agent, c.Token, calldata)
	if got := c.Balance(c.Token, c.carol.Address()); got != 10 {
		t.Fatalf("carol %d after unpause, want 10", got)
	}
}

func TestSettleWithRefRevertsOnMismatchedOrEmptyLegs(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.alice.Address(), c.bob.Address()}, c.carol.Address(), []int64{10}, 0), "BatchLengthMismatch")
	wantArgs(t, r, big.NewInt(2), big.NewInt(1))
	r = c.Reverts(c.Agent, c.Token, c.settle(ref, nil, c.carol.Address(), nil, 0), "EmptySettlement")
	if r.Error() != "reverted: EmptySettlement()" {
		t.Fatalf("%q, want reverted: EmptySettlement()", r.Error())
	}
	wantNothingMoved(t, c, ref)
}

func TestSettleWithRefRevertsWhenASellerIsTheBuyer(t *testing.T) {
	c := sellersWithUnits(t)
	ref := settlementRef("b1")
	r := c.Reverts(c.Agent, c.Token, c.settle(ref, []common.Address{c.bob.Address(), c.alice.Address()}, c.alice.Address(), []int64{5, 5}, 0), "SameWallet")
	wantArgs(t, r, c.alice.Address())
	if a, b := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()); a != 30 || b != 20 {
		t.Fatalf("balances alice %d, bob %d; want 30, 20", a, b)
	}
}

// settlement is one member of batchSettleWithRefs: the BUY ref of buyer, one leg per seller,
// amounts[i] units from sellers[i], locked until release (0: unlocked).
type settlement struct {
	ref     [32]byte
	buyer   common.Address
	release uint64
	sellers []common.Address
	amounts []int64
}

// batchSettle is the calldata of batchSettleWithRefs for ss: one ref, buyer, release time
// and leg count per settlement, their legs flattened in settlement order.
func (c *tokenChain) batchSettle(ss ...settlement) []byte {
	var (
		refs     [][32]byte
		buyers   []common.Address
		releases []uint64
		counts   []*big.Int
		sellers  []common.Address
		amounts  []int64
	)
	for _, s := range ss {
		refs = append(refs, s.ref)
		buyers = append(buyers, s.buyer)
		releases = append(releases, s.release)
		counts = append(counts, big.NewInt(int64(len(s.sellers))))
		sellers = append(sellers, s.sellers...)
		amounts = append(amounts, s.amounts...)
	}
	return c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, counts, sellers, units(amounts...))
}

// settlementEvents are the token's events in r, in order, with wallets and references by
// their names in names (so that the receipts of two chains compare).
func settlementEvents(c *tokenChain, r *types.Receipt, names map[any]string) []string {
	name := func(v any) string {
		if n, ok := names[v]; ok {
			return n
		}
		return fmt.Sprint(v)
	}
	var out []string
	for _, l := range r.Logs {
		if ev, err := c.TokenABI.UnpackTransferEvent(l); err == nil {
			out = append(out, fmt.Sprintf("Transfer(%s, %s, %s)", name(ev.From), name(ev.To), ev.Value))
		} else if ev, err := c.TokenABI.UnpackSecondaryTransferEvent(l); err == nil {
			out = append(out, fmt.Sprintf("SecondaryTransfer(%s, %s, %s, %s)", name(ev.Ref), name(ev.From), name(ev.To), ev.Units))
		} else if ev, err := c.TokenABI.UnpackEffectAppliedEvent(l); err == nil {
			out = append(out, fmt.Sprintf("EffectApplied(%s, %s, %s)", name(ev.Ref), ev.Units, name(ev.Agent)))
		} else if ev, err := c.TokenABI.UnpackEffectSkippedEvent(l); err == nil {
			out = append(out, fmt.Sprintf("EffectSkipped(%s, %s)", name(ev.Ref), ev.AppliedIn))
		} else if ev, err := c.TokenABI.UnpackLockedEvent(l); err == nil {
			out = append(out, fmt.Sprintf("Locked(%s, %s, %d)", name(ev.Holder), ev.Amount, ev.ReleaseTime))
		} else {
			out = append(out, fmt.Sprintf("log %x", l.Topics[0]))
		}
	}
	return out
}

// buyerChain is sellersWithUnits with a fourth registered wallet, dave, that buys, and the
// names of the wallets and of the references b1, b2 and b3 for settlementEvents.
func buyerChain(t *testing.T) (*tokenChain, common.Address, map[any]string) {
	t.Helper()
	c := sellersWithUnits(t)
	dave := c.NewWallet()
	c.Register(dave)
	names := map[any]string{
		c.alice.Address(): "alice", c.bob.Address(): "bob", c.carol.Address(): "carol", dave: "dave",
		c.Agent.Address(): "agent",
	}
	for _, n := range []string{"b1", "b2", "b3"} {
		names[settlementRef(n)] = n
	}
	return c, dave, names
}

func wantEvents(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("events:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestBatchSettleAppliesEverySettlementAsSettleWithRefDoes(t *testing.T) {
	c, dave, names := buyerChain(t)
	release := c.Now() + 3600
	batch := func(c *tokenChain, dave common.Address) []settlement {
		return []settlement{
			{ref: settlementRef("b1"), buyer: c.carol.Address(), sellers: []common.Address{c.alice.Address()}, amounts: []int64{10}},
			{ref: settlementRef("b2"), buyer: dave, release: release, sellers: []common.Address{c.alice.Address(), c.bob.Address()}, amounts: []int64{5, 15}},
			{ref: settlementRef("b3"), buyer: c.alice.Address(), sellers: []common.Address{c.bob.Address()}, amounts: []int64{3}},
		}
	}
	rc := c.Send(c.Agent, c.Token, c.batchSettle(batch(c, dave)...))

	for _, w := range []struct {
		name            string
		wallet          common.Address
		balance, locked int64
	}{{"alice", c.alice.Address(), 18, 0}, {"bob", c.bob.Address(), 2, 0}, {"carol", c.carol.Address(), 10, 0}, {"dave", dave, 20, 20}} {
		if b, l := c.Balance(c.Token, w.wallet), c.Locked(c.Token, w.wallet); b != w.balance || l != w.locked {
			t.Fatalf("%s holds %d units, %d locked; want %d, %d locked", w.name, b, l, w.balance, w.locked)
		}
	}
	if s := c.TotalSupply(c.Token); s != 50 {
		t.Fatalf("totalSupply %d, want 50: nothing minted or burned", s)
	}
	// Per settlement, in batch order: EffectApplied with the units of all its legs, per leg
	// Transfer then SecondaryTransfer, then the buyer's lock.
	wantEvents(t, settlementEvents(c, rc, names), []string{
		"EffectApplied(b1, 10, agent)",
		"Transfer(alice, carol, 10)", "SecondaryTransfer(b1, alice, carol, 10)",
		"EffectApplied(b2, 20, agent)",
		"Transfer(alice, dave, 5)", "SecondaryTransfer(b2, alice, dave, 5)",
		"Transfer(bob, dave, 15)", "SecondaryTransfer(b2, bob, dave, 15)",
		fmt.Sprintf("Locked(dave, 20, %d)", release),
		"EffectApplied(b3, 3, agent)",
		"Transfer(bob, alice, 3)", "SecondaryTransfer(b3, bob, alice, 3)",
	})
	for _, n := range []string{"b1", "b2", "b3"} {
		applied, err := bind.Call(c.token(), &bind.CallOpts{Context: c.Ctx}, c.TokenABI.PackEffectApplied(settlementRef(n)), c.TokenABI.UnpackEffectApplied)
		if err != nil || applied.Cmp(rc.BlockNumber) != 0 {
			t.Fatalf("effectApplied(%s) = %v, %v; want the batch's block %s", n, applied, err, rc.BlockNumber)
		}
	}

	// The same settlements, each sent with settleWithRef on another chain, emit the same events.
	twin, twinDave, twinNames := buyerChain(t)
	var want []string
	for _, s := range batch(twin, twinDave) {
		r := twin.Send(twin.Agent, twin.Token, twin.settle(s.ref, s.sellers, s.buyer, s.amounts, s.release))
		want = append(want, settlementEvents(twin, r, twinNames)...)
	}
	wantEvents(t, settlementEvents(c, rc, names), want)
}

func TestBatchSettleSkipsASettlementWhoseRefWasApplied(t *testing.T) {
	c, _, names := buyerChain(t)
	alice, bob, carol := c.alice.Address(), c.bob.Address(), c.carol.Address()
	first := c.Send(c.Agent, c.Token, c.settle(settlementRef("b1"), []common.Address{alice}, carol, []int64{10}, 0))

	// b1 again, with legs that would fail now (alice holds 20): skipped, legs and all. b2 is
	// applied; b2 once more in the same batch is skipped as applied in this block.
	rc := c.Send(c.Agent, c.Token, c.batchSettle(
		settlement{ref: settlementRef("b1"), buyer: carol, sellers: []common.Address{alice, alice}, amounts: []int64{10, 1000}},
		settlement{ref: settlementRef("b2"), buyer: carol, sellers: []common.Address{bob}, amounts: []int64{5}},
		settlement{ref: settlementRef("b2"), buyer: carol, sellers: []common.Address{bob}, amounts: []int64{5}},
	))
	if a, b, cc := c.Balance(c.Token, alice), c.Balance(c.Token, bob), c.Balance(c.Token, carol); a != 20 || b != 15 || cc != 15 {
		t.Fatalf("balances alice %d, bob %d, carol %d; want 20, 15, 15 (b1 and b2 each moved once)", a, b, cc)
	}
	wantEvents(t, settlementEvents(c, rc, names), []string{
		fmt.Sprintf("EffectSkipped(b1, %s)", first.BlockNumber),
		"EffectApplied(b2, 5, agent)",
		"Transfer(bob, carol, 5)", "SecondaryTransfer(b2, bob, carol, 5)",
		fmt.Sprintf("EffectSkipped(b2, %s)", rc.BlockNumber),
	})
	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, settlementRef("b1"))
	if err != nil || got == nil || got.TxHash != first.TxHash {
		t.Fatalf("FindEffect(b1) = %+v, %v; want the first settlement %s", got, err, first.TxHash.Hex())
	}
}

func TestBatchSettleRevertsWholeOnAFrozenWallet(t *testing.T) {
	c, dave, _ := buyerChain(t)
	c.Freeze(c.Token, dave, true)
	calldata := c.batchSettle(
		settlement{ref: settlementRef("b1"), buyer: c.carol.Address(), sellers: []common.Address{c.alice.Address()}, amounts: []int64{10}},
		settlement{ref: settlementRef("b2"), buyer: dave, sellers: []common.Address{c.bob.Address()}, amounts: []int64{5}},
	)
	wantArgs(t, c.Reverts(c.Agent, c.Token, calldata, "WalletFrozen"), dave)
	// The first settlement, fine on its own, is not applied either.
	wantNothingMoved(t, c, settlementRef("b1"))
	wantNothingMoved(t, c, settlementRef("b2"))
	if d := c.Balance(c.Token, dave); d != 0 {
		t.Fatalf("dave %d, want 0", d)
	}
	// Once dave is unfrozen the same batch goes through.
	c.Freeze(c.Token, dave, false)
	c.Send(c.Agent, c.Token, calldata)
	if cc, d := c.Balance(c.Token, c.carol.Address()), c.Balance(c.Token, dave); cc != 10 || d != 5 {
		t.Fatalf("carol %d, dave %d; want 10, 5", cc, d)
	}
}

func TestBatchSettleRefusesMismatchedArraysAndLegCountsThatDoNotAddUp(t *testing.T) {
	c := sellersWithUnits(t)
	alice, bob, carol := c.alice.Address(), c.bob.Address(), c.carol.Address()
	refs := [][32]byte{settlementRef("b1"), settlementRef("b2")}
	buyers := []common.Address{carol, carol}
	releases := []uint64{0, 0}
	sellers := []common.Address{alice, bob, alice}
	for _, tc := range []struct {
		name     string
		calldata []byte
		want     []any
	}{
		{"one buyer for two refs", c.TokenABI.PackBatchSettleWithRefs(refs, buyers[:1], releases, units(1, 2), sellers, units(1, 1, 1)), []any{big.NewInt(2), big.NewInt(1)}},
		{"one release time for two buyers", c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases[:1], units(1, 2), sellers, units(1, 1, 1)), []any{big.NewInt(2), big.NewInt(1)}},
		{"three leg counts for two buyers", c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, units(1, 1, 1), sellers, units(1, 1, 1)), []any{big.NewInt(2), big.NewInt(3)}},
		{"three sellers, two amounts", c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, units(1, 2), sellers, units(1, 1)), []any{big.NewInt(3), big.NewInt(2)}},
		{"leg counts 1+1 for three legs", c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, units(1, 1), sellers, units(1, 1, 1)), []any{big.NewInt(2), big.NewInt(3)}},
		{"leg counts 2+2 for three legs", c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, units(2, 2), sellers, units(1, 1, 1)), []any{big.NewInt(4), big.NewInt(3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantArgs(t, c.Reverts(c.Agent, c.Token, tc.calldata, "BatchLengthMismatch"), tc.want...)
		})
	}
	wantNothingMoved(t, c, refs[0])
	wantNothingMoved(t, c, refs[1])
	// Counts that add up settle: b1 one leg from alice, b2 two legs.
	c.Send(c.Agent, c.Token, c.TokenABI.PackBatchSettleWithRefs(refs, buyers, releases, units(1, 2), sellers, units(1, 2, 3)))
	if a, b, cc := c.Balance(c.Token, alice), c.Balance(c.Token, bob), c.Balance(c.Token, carol); a != 26 || b != 18 || cc != 6 {
		t.Fatalf("balances alice %d, bob %d, carol %d; want 26, 18, 6", a, b, cc)
	}
}

func TestBatchSettleRefusesAnEmptySettlementAZeroRefAndOtherCallers(t *testing.T) {
	c := sellersWithUnits(t)
	alice, carol := c.alice.Address(), c.carol.Address()
	refs := [][32]byte{settlementRef("b1"), settlementRef("b2")}
	// The leg counts add up (1 + 0 = 1 leg), but the second settlement has none.
	r := c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchSettleWithRefs(refs, []common.Address{carol, carol}, []uint64{0, 0}, units(1, 0), []common.Address{alice}, units(1)), "EmptySettlement")
	if r.Error() != "reverted: EmptySettlement()" {
		t.Fatalf("%q, want reverted: EmptySettlement()", r.Error())
	}
	// No settlement at all is an empty batch, not an error: nothing happens.
	rc := c.Send(c.Agent, c.Token, c.batchSettle())
	if len(rc.Logs) != 0 {
		t.Fatalf("an empty batch emitted %d events", len(rc.Logs))
	}
	_ = c.Reverts(c.Agent, c.Token, c.batchSettle(
		settlement{ref: settlementRef("b1"), buyer: carol, sellers: []common.Address{alice}, amounts: []int64{1}},
		settlement{buyer: carol, sellers: []common.Address{alice}, amounts: []int64{1}},
	), "ZeroRef")
	_ = c.Reverts(c.alice, c.Token, c.batchSettle(
		settlement{ref: settlementRef("b1"), buyer: carol, sellers: []common.Address{alice}, amounts: []int64{1}},
	), "AccessControlUnauthorizedAccount")
	wantNothingMoved(t, c, refs[0])
	wantNothingMoved(t, c, refs[1])
}

func TestBatchSettleLocksTheUnitsReceivedUntilTheReleaseTime(t *testing.T) {
	c, dave, _ := buyerChain(t)
	alice, bob, carol := c.alice.Address(), c.bob.Address(), c.carol.Address()
	c.Mint(c.Token, carol, 5) // the buyer's own unlocked units stay unlocked
	release := c.Now() + 3600
	later := release + 1800
	r := c.Send(c.Agent, c.Token, c.batchSettle(
		settlement{ref: settlementRef("b1"), buyer: carol, release: release, sellers: []common.Address{alice, bob}, amounts: []int64{10, 15}},
		settlement{ref: settlementRef("b2"), buyer: carol, release: later, sellers: []common.Address{alice}, amounts: []int64{2}},
		// A release time already reached locks nothing.
		settlement{ref: settlementRef("b3"), buyer: dave, release: c.Now(), sellers: []common.Address{bob}, amounts: []int64{1}},
	))
	ev := lockedEvents(c, r)
	if len(ev) != 2 || ev[0].Holder != carol || ev[0].Amount.Int64() != 25 || ev[0].ReleaseTime != release ||
		ev[1].Holder != carol || ev[1].Amount.Int64() != 2 || ev[1].ReleaseTime != later {
		t.Fatalf("Locked events %+v, want carol's 25 units until %d and 2 until %d", ev, release, later)
	}
	wantBalances(t, c, carol, 32, 27)
	wantBalances(t, c, dave, 1, 0)
	wantBalances(t, c, alice, 18, 0)
	_ = c.Reverts(c.carol, c.Token, c.TokenABI.PackTransfer(alice, big.NewInt(6)), "LockedUnits")

	// Each lock ends at its own release time, with no transaction.
	c.AdvanceTime(time.Duration(release-c.Now()) * time.Second)
	wantBalances(t, c, carol, 32, 2)
	c.AdvanceTime(time.Duration(later-c.Now()) * time.Second)
	wantBalances(t, c, carol, 32, 0)
}
