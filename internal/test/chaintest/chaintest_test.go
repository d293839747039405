package chaintest

import (
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/fundshare/fundshare-operator/internal/chain"
)

// fatalRecorder is a T whose Fatalf records the message and ends the goroutine, as
// testing.T's does, so a test can read how the harness fails.
type fatalRecorder struct {
	*testing.T
	msg string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs f with c's failures recorded instead of failing t, and returns the message
// ("" when f did not fail).
func failure(t *testing.T, c *Chain, f func()) string {
	t.Helper()
	rec := &fatalRecorder{T: t}
	own := c.t
	c.t = rec
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	<-done
	c.t = own
	return rec.msg
}

func hasRole(t *testing.T, c *Chain, contract common.Address, role [32]byte, who common.Address) bool {
	t.Helper()
	return call(c, contract, c.TokenABI.PackHasRole(role, who), c.TokenABI.UnpackHasRole, "hasRole")
}

func TestNewGivesTheAdminTheAgentRoleSoTheTestsActionsLeaveTheAgentsNonces(t *testing.T) {
	c := New(t)
	second := c.DeployToken("Fundshare Global Equity B", "LU0000000002")
	for _, contract := range []common.Address{c.Registry, c.Token, second} {
		if !hasRole(t, c, contract, agentRole, c.Admin.Address()) || !hasRole(t, c, contract, agentRole, c.Agent.Address()) {
			t.Fatalf("%s: the admin and the agent must both hold AGENT_ROLE", contract.Hex())
		}
	}
	w := c.NewWallet()
	c.Register(w)
	c.Mint(c.Token, w, 5)
	c.Freeze(c.Token, w, true)
	c.Freeze(c.Token, w, false)
	c.Pause(c.Token)
	c.Unpause(c.Token)
	if n, err := c.Client.PendingNonceAt(c.Ctx, c.Agent.Address()); err != nil || n != 0 {
		t.Fatalf("the agent's nonce is %d (%v) after the test's own actions, want 0", n, err)
	}
	if c.Balance(c.Token, w) != 5 || c.TotalSupply(c.Token) != 5 || !c.Verified(w) {
		t.Fatal("the test's own actions did not apply")
	}
}

func TestSeparateRolesLeavesTheRolesAsTheDeploymentGrantsThem(t *testing.T) {
	c := New(t, SeparateRoles())
	second := c.DeployToken("Fundshare Global Equity B", "LU0000000002")
	for _, contract := range []common.Address{c.Registry, c.Token, second} {
		if hasRole(t, c, contract, agentRole, c.Admin.Address()) {
			t.Fatalf("%s: the admin holds AGENT_ROLE", contract.Hex())
		}
		if !hasRole(t, c, contract, [32]byte{}, c.Admin.Address()) || !hasRole(t, c, contract, agentRole, c.Agent.Address()) {
			t.Fatalf("%s: the admin must hold DEFAULT_ADMIN_ROLE and the agent AGENT_ROLE", contract.Hex())
		}
	}
	// The test's own agent actions are the agent's.
	w := c.NewWallet()
	c.Register(w)
	r := c.Mint(c.Token, w, 7)
	if tr := c.TransfersOf(r); len(tr) != 1 || tr[0].To != w || tr[0].Units != 7 {
		t.Fatalf("mint's Transfer events %+v", tr)
	}
	if n, err := c.Client.PendingNonceAt(c.Ctx, c.Agent.Address()); err != nil || n != 2 {
		t.Fatalf("the agent's nonce is %d (%v), want 2: register and mint are the agent's", n, err)
	}
}

func TestInvestorsAreFundedAndNotRegistered(t *testing.T) {
	c := New(t)
	inv := c.Investors(3)
	seen := map[common.Address]bool{}
	for _, s := range inv {
		bal, err := c.Client.BalanceAt(c.Ctx, s.Address(), nil)
		if err != nil || bal.Cmp(ether(100)) != 0 {
			t.Fatalf("%s holds %s wei (%v), want 100 ether", s.Address().Hex(), bal, err)
		}
		if c.Verified(s.Address()) {
			t.Fatalf("%s is registered", s.Address().Hex())
		}
		seen[s.Address()] = true
	}
	if len(seen) != 3 {
		t.Fatalf("%d distinct investors, want 3", len(seen))
	}
	// An investor sends transactions of its own.
	c.Register(inv[0].Address(), inv[1].Address())
	c.Mint(c.Token, inv[0].Address(), 3)
	c.Send(inv[0], c.Token, c.TokenABI.PackTransfer(inv[1].Address(), big.NewInt(1)))
	if c.Balance(c.Token, inv[1].Address()) != 1 {
		t.Fatal("the investor's transfer did not apply")
	}
}

func TestMinedNamesTheRevertReasonOfAFailedTransaction(t *testing.T) {
	c := New(t)
	w := c.NewWallet()
	opts := chain.TransactOpts(c.Ctx, c.Admin, c.ChainID)
	opts.GasLimit = 300_000 // skip the gas estimate, which would refuse to send it
	tx, err := bind.Transact(c.bound(c.Token), opts, c.TokenABI.PackMint(w, big.NewInt(5)))
	if err != nil {
		t.Fatal(err)
	}
	msg := failure(t, c, func() { c.Mined(tx) })
	if want := "failed: reverted: NotVerified(" + w.Hex() + ")"; !strings.Contains(msg, want) {
		t.Fatalf("Mined failed with %q, want it to contain %q", msg, want)
	}
}

func TestRevertsFailsUnlessRefusedWithTheNamedError(t *testing.T) {
	c := New(t)
	w := c.NewWallet()
	mint := c.TokenABI.PackMint(w, big.NewInt(1))
	if r := c.Reverts(c.Admin, c.Token, mint, "NotVerified"); r.Name != "NotVerified" || len(r.Args) != 1 {
		t.Fatalf("revert %v", r)
	}
	msg := failure(t, c, func() { _ = c.Reverts(c.Admin, c.Token, mint, "EnforcedPause") })
	if !strings.Contains(msg, "reverted with NotVerified(") || !strings.Contains(msg, "want EnforcedPause") {
		t.Fatalf("another error: %q", msg)
	}
	c.Register(w)
	msg = failure(t, c, func() { _ = c.Reverts(c.Admin, c.Token, mint, "NotVerified") })
	if !strings.Contains(msg, "was accepted, want revert NotVerified") {
		t.Fatalf("an accepted transaction: %q", msg)
	}
}

func TestTransfersOfListsAReceiptsTransferEventsInOrder(t *testing.T) {
	c := New(t)
	a, b := c.NewWallet(), c.NewWallet()
	c.Register(a, b)
	r := c.Send(c.Admin, c.Token, c.TokenABI.PackBatchMint([]common.Address{a, b}, []*big.Int{big.NewInt(5), big.NewInt(7)}))
	got := c.TransfersOf(r)
	if len(got) != 2 || got[0].To != a || got[0].Units != 5 || got[1].To != b || got[1].Units != 7 ||
		got[0].TxHash != r.TxHash || got[0].Block != r.BlockNumber.Uint64() {
		t.Fatalf("TransfersOf %+v", got)
	}
	if all := c.Transfers(c.Token); len(all) != 2 || all[0] != got[0] || all[1] != got[1] {
		t.Fatalf("Transfers %+v, want the receipt's %+v", all, got)
	}
}

func TestAmountsBeyondInt64FailTheTestRatherThanWrap(t *testing.T) {
	c := New(t)
	w := c.NewWallet()
	c.Register(w)
	huge := new(big.Int).Lsh(big.NewInt(1), 63) // one more than the largest int64
	r := c.Send(c.Admin, c.Token, c.TokenABI.PackMint(w, huge))
	for name, read := range map[string]func(){
		"balanceOf":   func() { c.Balance(c.Token, w) },
		"totalSupply": func() { c.TotalSupply(c.Token) },
		"Transfer":    func() { c.TransfersOf(r) },
	} {
		if msg := failure(t, c, read); !strings.Contains(msg, huge.String()+", beyond int64") {
			t.Errorf("%s: %q, want a failure naming %s", name, msg, huge)
		}
	}
}
