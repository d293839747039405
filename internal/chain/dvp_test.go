package chain_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Delivery versus payment on chain: a euro settlement token (CashToken) and a contract
// (DeliveryVersusPayment) that swaps share units for the buyer's escrowed euros in one
// transaction. alice (30 units) and bob (20) sell, carol buys with euros she escrowed.

type dvpChain struct {
	*tokenChain
	t               *testing.T
	cash, dvp, fund common.Address
	cashABI         *contracts.CashToken
	dvpABI          *contracts.DeliveryVersusPayment
}

// The figures of the trade: carol escrows 610.0000 EUR for 6 units at 101 EUR and a 0.5%
// fee (609.0300 EUR); alice is paid 396 EUR for 4 units, bob 198 EUR for 2 (99 EUR a
// unit), the fund keeps 15.0300 EUR (the spread and both fees) and 0.9700 EUR goes back.
const (
	escrowed   = 6_100_000
	aliceCash  = 3_960_000
	bobCash    = 1_980_000
	fundFee    = 150_300
	returned   = escrowed - aliceCash - bobCash - fundFee
	carolIssue = 10_000_000
)

func newDvPChain(t *testing.T) *dvpChain {
	t.Helper()
	c := &dvpChain{tokenChain: sellersWithUnits(t), t: t, cashABI: contracts.NewCashToken(), dvpABI: contracts.NewDeliveryVersusPayment()}
	cash, err := chain.DeployCashToken(c.Ctx, c.Client, c.Admin, c.ChainID, "Euro settlement token", "EURS", c.Admin.Address(), c.Admin.Address())
	if err != nil {
		t.Fatal(err)
	}
	c.Mined(cash.Tx)
	dvp, err := chain.DeployDeliveryVersusPayment(c.Ctx, c.Client, c.Admin, c.ChainID, c.Admin.Address(), c.Agent.Address())
	if err != nil {
		t.Fatal(err)
	}
	c.Mined(dvp.Tx)
	c.cash, c.dvp, c.fund = cash.Address, dvp.Address, c.NewWallet()
	// The settlement contract settles the share token's trades as one of its agents.
	c.AsAdmin(c.Token, c.TokenABI.PackGrantRole(agentRole, c.dvp))
	c.AsAdmin(c.cash, c.cashABI.PackMint(c.carol.Address(), big.NewInt(carolIssue)))
	return c
}

// escrow is carol's payment of the BUY ref: she approves the contract and escrows amount.
func (c *dvpChain) escrow(ref [32]byte, amount int64) {
	c.Send(c.carol, c.cash, c.cashABI.PackApprove(c.dvp, big.NewInt(amount)))
	c.Send(c.carol, c.dvp, c.dvpABI.PackEscrow(ref, c.cash, big.NewInt(amount)))
}

// trade is carol's trade: 4 units from alice and 2 from bob, and their cash.
func (c *dvpChain) trade() contracts.DeliveryVersusPaymentTrade {
	return contracts.DeliveryVersusPaymentTrade{
		Sellers: []common.Address{c.alice.Address(), c.bob.Address()}, Units: units(4, 2),
		SellerCash: units(aliceCash, bobCash), Buyer: c.carol.Address(), ReleaseTime: 0,
		Fee: big.NewInt(fundFee), FeeTo: c.fund,
	}
}

func (c *dvpChain) cashOf(w common.Address) int64 {
	c.t.Helper()
	v, err := bind.Call(c.cashABI.Instance(c.Client, c.cash), &bind.CallOpts{Context: c.Ctx}, c.cashABI.PackBalanceOf(w), c.cashABI.UnpackBalanceOf)
	if err != nil {
		c.t.Fatalf("cash balanceOf: %v", err)
	}
	return v.Int64()
}

func (c *dvpChain) escrowOf(ref [32]byte) contracts.EscrowOfOutput {
	c.t.Helper()
	v, err := bind.Call(c.dvpABI.Instance(c.Client, c.dvp), &bind.CallOpts{Context: c.Ctx}, c.dvpABI.PackEscrowOf(ref), c.dvpABI.UnpackEscrowOf)
	if err != nil {
		c.t.Fatalf("escrowOf: %v", err)
	}
	return v
}

func TestTheCashTokenCountsMoneyUnits(t *testing.T) {
	c := newDvPChain(t)
	dec, err := bind.Call(c.cashABI.Instance(c.Client, c.cash), &bind.CallOpts{Context: c.Ctx}, c.cashABI.PackDecimals(), c.cashABI.UnpackDecimals)
	if err != nil || dec != 4 {
		t.Fatalf("decimals %d, %v; want 4 (10,000 units a euro, the operator's money units)", dec, err)
	}
	if got := c.cashOf(c.carol.Address()); got != carolIssue {
		t.Fatalf("carol holds %d, want the %d issued", got, carolIssue)
	}
	wantArgs(t, c.Reverts(c.carol, c.cash, c.cashABI.PackMint(c.carol.Address(), big.NewInt(1)), "AccessControlUnauthorizedAccount"),
		c.carol.Address(), crypto.Keccak256Hash([]byte("ISSUER_ROLE")))
}

func TestASwapMovesTheUnitsAndPaysTheSellersInOneTransactionAndLeavesTheSupplyAlone(t *testing.T) {
	c := newDvPChain(t)
	ref := settlementRef("buy-1")
	c.escrow(ref, escrowed)
	if got := c.cashOf(c.dvp); got != escrowed {
		t.Fatalf("the contract holds %d, want the %d escrowed", got, escrowed)
	}
	supply := c.TotalSupply(c.Token)
	r := c.Send(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, c.trade()))
	t.Logf("a swap of two legs: %d gas", r.GasUsed)

	for _, b := range []struct {
		name       string
		wallet     common.Address
		units, eur int64
	}{
		{"alice", c.alice.Address(), 26, aliceCash},
		{"bob", c.bob.Address(), 18, bobCash},
		{"carol", c.carol.Address(), 6, carolIssue - escrowed + returned},
		{"the fund", c.fund, 0, fundFee},
		{"the contract", c.dvp, 0, 0},
	} {
		if u, e := c.Balance(c.Token, b.wallet), c.cashOf(b.wallet); u != b.units || e != b.eur {
			t.Errorf("%s holds %d units and %d cash, want %d and %d", b.name, u, e, b.units, b.eur)
		}
	}
	if got := c.TotalSupply(c.Token); got != supply {
		t.Errorf("totalSupply %d after the swap, want %d: a secondary trade mints and burns nothing", got, supply)
	}
	if legs := secondaryTransfers(c.tokenChain, r); len(legs) != 2 {
		t.Errorf("%d SecondaryTransfer events in the swap, want 2 (one per seller)", len(legs))
	}
	var swapped *contracts.DeliveryVersusPaymentSwapped
	for _, l := range r.Logs {
		if ev, err := c.dvpABI.UnpackSwappedEvent(l); err == nil {
			swapped = ev
		}
	}
	if swapped == nil || swapped.Units.Int64() != 6 || swapped.PaidToSellers.Int64() != aliceCash+bobCash || swapped.Fee.Int64() != fundFee || swapped.Returned.Int64() != returned {
		t.Errorf("Swapped event %+v", swapped)
	}
	if e := c.escrowOf(ref); e.ClosedIn.Uint64() != r.BlockNumber.Uint64() {
		t.Errorf("escrow closed in block %v, want the swap's %v", e.ClosedIn, r.BlockNumber)
	}
	// Exactly once: the escrow is closed (and the share token would refuse the ref too).
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, c.trade()), "EscrowClosed"), ref, r.BlockNumber)
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackRefund(ref), "EscrowClosed"), ref, r.BlockNumber)
}

func TestASwapToAFrozenWalletRevertsBothLegsAndTheEscrowIsRefundedOnce(t *testing.T) {
	c := newDvPChain(t)
	ref := settlementRef("buy-frozen")
	c.escrow(ref, escrowed)
	c.Freeze(c.Token, c.carol.Address(), true)
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, c.trade()), "WalletFrozen"), c.carol.Address())
	wantNothingMoved(t, c.tokenChain, ref)
	if got := c.cashOf(c.dvp); got != escrowed {
		t.Fatalf("the contract holds %d after the reverted swap, want the %d escrowed", got, escrowed)
	}
	if a, b := c.cashOf(c.alice.Address()), c.cashOf(c.bob.Address()); a != 0 || b != 0 {
		t.Fatalf("sellers were paid %d and %d by a swap that reverted", a, b)
	}
	if e := c.escrowOf(ref); e.ClosedIn.Sign() != 0 || e.Amount.Int64() != escrowed || e.Payer != c.carol.Address() {
		t.Fatalf("escrow after the reverted swap %+v, want still held for carol", e)
	}
	refund := c.Send(c.Agent, c.dvp, c.dvpABI.PackRefund(ref))
	if got := c.cashOf(c.carol.Address()); got != carolIssue {
		t.Fatalf("carol holds %d after the refund, want all %d back", got, carolIssue)
	}
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackRefund(ref), "EscrowClosed"), ref, refund.BlockNumber)
}

func TestAnEscrowIsTakenOnceAndASwapPaysNoMoreThanItAndOnlyTheAgentSwaps(t *testing.T) {
	c := newDvPChain(t)
	ref := settlementRef("buy-rules")
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, c.trade()), "NotEscrowed"), ref)
	c.escrow(ref, escrowed)
	c.Send(c.carol, c.cash, c.cashABI.PackApprove(c.dvp, big.NewInt(1)))
	wantArgs(t, c.Reverts(c.carol, c.dvp, c.dvpABI.PackEscrow(ref, c.cash, big.NewInt(1)), "AlreadyEscrowed"), ref)
	wantArgs(t, c.Reverts(c.carol, c.dvp, c.dvpABI.PackSwap(ref, c.Token, c.trade()), "AccessControlUnauthorizedAccount"), c.carol.Address(), agentRole)
	greedy := c.trade()
	greedy.Fee = big.NewInt(escrowed) // more than the escrow leaves
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, greedy), "CashExceedsEscrow"),
		ref, big.NewInt(escrowed+aliceCash+bobCash), big.NewInt(escrowed))
	short := c.trade()
	short.SellerCash = units(aliceCash)
	wantArgs(t, c.Reverts(c.Agent, c.dvp, c.dvpABI.PackSwap(ref, c.Token, short), "LengthMismatch"), big.NewInt(2), big.NewInt(1))
	wantNothingMoved(t, c.tokenChain, ref)
}
