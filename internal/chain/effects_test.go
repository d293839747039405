package chain_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

func units(ns ...int64) []*big.Int {
	out := make([]*big.Int, len(ns))
	for i, n := range ns {
		out[i] = big.NewInt(n)
	}
	return out
}

func TestAnEffectReferenceIsDerivedFromTheOwnerAndTheStepOnly(t *testing.T) {
	base := chain.EffectRef("Order", "demo", "6e7f", "uid-1", chain.EffectMint)
	if base != chain.EffectRef("Order", "demo", "6e7f", "uid-1", chain.EffectMint) {
		t.Fatal("the same owner and step gave two references")
	}
	for i, other := range [][32]byte{
		chain.EffectRef("DeliveryBatch", "demo", "6e7f", "uid-1", chain.EffectMint),
		chain.EffectRef("Order", "demo2", "6e7f", "uid-1", chain.EffectMint),
		chain.EffectRef("Order", "demo", "6e7e", "uid-1", chain.EffectMint),
		chain.EffectRef("Order", "demo", "6e7f", "uid-2", chain.EffectMint),
		chain.EffectRef("Order", "demo", "6e7f", "uid-1", chain.EffectBurn),
		chain.EffectRef("Order", "demo", "6e7fuid-1", "", chain.EffectMint), // no ambiguity across fields
	} {
		if other == base {
			t.Fatalf("reference %d equals the base reference", i)
		}
	}
	md, err := contracts.ShareTokenMetaData.ParseABI()
	if err != nil {
		t.Fatal(err)
	}
	if id := md.Events["EffectApplied"].ID; id != chain.EffectAppliedTopic {
		t.Fatalf("EffectAppliedTopic %s, the ABI's %s", chain.EffectAppliedTopic.Hex(), id.Hex())
	}
}

func TestAMintWithAReferenceIsAppliedOnceAndFoundOnChain(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address())
	ref := chain.EffectRef("Order", "demo", "a", "uid-a", chain.EffectMint)
	if ok, err := chain.SupportsEffectRefs(c.Ctx, c.Client, c.Token); err != nil || !ok {
		t.Fatalf("SupportsEffectRefs = %v, %v; want true", ok, err)
	}
	if ok, err := chain.SupportsEffectRefs(c.Ctx, c.Client, c.Registry); err != nil || ok {
		t.Fatalf("SupportsEffectRefs(registry) = %v, %v; want false", ok, err)
	}
	if got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, ref); err != nil || got != nil {
		t.Fatalf("FindEffect before the mint = %+v, %v; want nothing", got, err)
	}
	rc := c.Send(c.Agent, c.Token, c.TokenABI.PackMintWithRef(ref, c.alice.Address(), big.NewInt(40)))
	if !chain.EffectsApplied(rc, c.Token)[common.Hash(ref)] {
		t.Fatal("the mint's receipt has no EffectApplied of its reference")
	}
	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, ref)
	if err != nil || got == nil {
		t.Fatalf("FindEffect = %+v, %v", got, err)
	}
	if got.TxHash != rc.TxHash || got.Block != rc.BlockNumber.Uint64() || got.Units.Int64() != 40 {
		t.Fatalf("FindEffect = tx %s block %d units %s; want %s, %d, 40", got.TxHash.Hex(), got.Block, got.Units, rc.TxHash.Hex(), rc.BlockNumber)
	}
	// Again, as after a record lost: refused, nothing minted.
	r := c.Reverts(c.Agent, c.Token, c.TokenABI.PackMintWithRef(ref, c.alice.Address(), big.NewInt(40)), chain.EffectAppliedError)
	wantArgs(t, r, ref, rc.BlockNumber)
	if !chain.IsEffectApplied(r) {
		t.Fatal("IsEffectApplied is false for the revert")
	}
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackMintLockedWithRef(ref, c.alice.Address(), big.NewInt(40), c.Now()+3600), chain.EffectAppliedError)
	if b := c.Balance(c.Token, c.alice.Address()); b != 40 {
		t.Fatalf("balance %d, want 40", b)
	}
	if n := len(c.Mints(c.Token, c.alice.Address())); n != 1 {
		t.Fatalf("%d mints, want 1", n)
	}
	// Only the agent applies effects.
	_ = c.Reverts(c.alice, c.Token, c.TokenABI.PackMintWithRef(chain.EffectRef("Order", "demo", "b", "uid-b", chain.EffectMint), c.alice.Address(), big.NewInt(1)), "AccessControlUnauthorizedAccount")
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackMintWithRef([32]byte{}, c.alice.Address(), big.NewInt(1)), "ZeroRef")
}

func TestABatchOfMintsSkipsAMemberWhoseReferenceWasUsedAndMintsTheOthers(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	refA := chain.EffectRef("Order", "demo", "a", "uid-a", chain.EffectMint)
	refB := chain.EffectRef("Order", "demo", "b", "uid-b", chain.EffectMint)
	first := c.Send(c.Agent, c.Token, c.TokenABI.PackMintWithRef(refA, c.alice.Address(), big.NewInt(5)))
	release := c.Now() + 3600
	rc := c.Send(c.Agent, c.Token, c.TokenABI.PackBatchMintWithRefs([][32]byte{refA, refB},
		[]common.Address{c.alice.Address(), c.bob.Address()}, units(5, 7), []uint64{0, release}))
	if a, b := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()); a != 5 || b != 7 {
		t.Fatalf("balances alice %d bob %d, want 5 and 7 (alice's second mint skipped)", a, b)
	}
	if l := c.Locked(c.Token, c.bob.Address()); l != 7 {
		t.Fatalf("bob's locked units %d, want 7", l)
	}
	applied := chain.EffectsApplied(rc, c.Token)
	if applied[common.Hash(refA)] || !applied[common.Hash(refB)] {
		t.Fatalf("the batch applied %v; want only bob's reference", applied)
	}
	skipped := 0
	for _, l := range rc.Logs {
		if ev, err := c.TokenABI.UnpackEffectSkippedEvent(l); err == nil {
			skipped++
			if ev.Ref != refA || ev.AppliedIn.Cmp(first.BlockNumber) != 0 {
				t.Fatalf("EffectSkipped(%x, %s), want alice's reference and block %s", ev.Ref, ev.AppliedIn, first.BlockNumber)
			}
		}
	}
	if skipped != 1 {
		t.Fatalf("%d EffectSkipped events, want 1", skipped)
	}
	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, refA)
	if err != nil || got == nil || got.TxHash != first.TxHash {
		t.Fatalf("FindEffect(alice) = %+v, %v; want the first mint %s", got, err, first.TxHash.Hex())
	}
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackBatchMintWithRefs([][32]byte{refA}, []common.Address{c.alice.Address(), c.bob.Address()}, units(1, 1), []uint64{0, 0}), "BatchLengthMismatch")
}

func TestABurnWithAReferenceIsAppliedOnce(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.Mint(c.Token, c.alice.Address(), 30)
	c.Mint(c.Token, c.bob.Address(), 30)
	ref := chain.EffectRef("Order", "demo", "s", "uid-s", chain.EffectBurn)
	rc := c.Send(c.Agent, c.Token, c.TokenABI.PackBurnWithRef(ref, []common.Address{c.alice.Address(), c.bob.Address()}, units(10, 5)))
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackBurnWithRef(ref, []common.Address{c.alice.Address()}, units(10)), chain.EffectAppliedError)
	if a, b := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()); a != 20 || b != 25 {
		t.Fatalf("balances %d and %d, want 20 and 25 (burned once)", a, b)
	}
	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, ref)
	if err != nil || got == nil || got.TxHash != rc.TxHash || got.Units.Int64() != 15 {
		t.Fatalf("FindEffect = %+v, %v; want %s with 15 units", got, err, rc.TxHash.Hex())
	}
}

func TestAWalletRecoveryWithAReferenceIsAppliedOnce(t *testing.T) {
	c := newTokenChain(t)
	c.Register(c.alice.Address(), c.bob.Address())
	c.MintLocked(c.Token, c.alice.Address(), 12, c.Now()+3600)
	c.Mint(c.Token, c.alice.Address(), 8)
	ref := chain.EffectRef("WalletRecovery", "demo", "w", "uid-w", chain.EffectRecoverWallet+":LU0000000001")
	c.Send(c.Agent, c.Token, c.TokenABI.PackRecoverWalletWithRef(ref, c.alice.Address(), c.bob.Address()))
	// Units minted to the lost wallet since are not moved by the same recovery again.
	c.Mint(c.Token, c.alice.Address(), 3)
	_ = c.Reverts(c.Agent, c.Token, c.TokenABI.PackRecoverWalletWithRef(ref, c.alice.Address(), c.bob.Address()), chain.EffectAppliedError)
	if a, b, l := c.Balance(c.Token, c.alice.Address()), c.Balance(c.Token, c.bob.Address()), c.Locked(c.Token, c.bob.Address()); a != 3 || b != 20 || l != 12 {
		t.Fatalf("alice %d, bob %d (locked %d); want 3, 20 (12)", a, b, l)
	}
	got, err := chain.FindEffect(c.Ctx, c.Client, c.Token, ref)
	if err != nil || got == nil || got.Units.Int64() != 20 {
		t.Fatalf("FindEffect = %+v, %v; want 20 units", got, err)
	}
}
