package crash

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/devdata"
)

// TestMakeRunHoldingsFollowAHolderTransferAndTheNextSellCompletes: against `make run`, two
// accounts of the demo tenant with a registered wallet each (keys the test holds); A buys
// 1,000 units, then the holder (A's key) sends an ERC-20 transfer(B's wallet, 400) on the
// local chain. One Transfer per side appears, REST lists each account's side with the
// counterparty's address only, both Account statuses and portfolios follow (A 600, B 400),
// a SELL by B of 300 of the units it received completes (burned from B's wallet), a SELL
// of A's remaining 600 completes, and then for both accounts the chain (balanceOf) = the
// Account status = the portfolio, with LedgerInSync True. The ledger compares every 20 s
// here (1 min in `make run`), and the transfer is sent only after it has recorded both
// accounts' on-chain figures since the BUY, as it has in a `make run` that ran a while:
// B's SELL, placed seconds after the transfer, is then usually checked against figures
// from before the transfer (the log says which).
func TestMakeRunHoldingsFollowAHolderTransferAndTheNextSellCompletes(t *testing.T) {
	r := startRun(t, "--ledger-reconcile-interval", "20s")
	api, c := r.api(), r.kubeClient()
	a, b := api.newAccount("holder-a"), api.newAccount("holder-b")
	waitRegistered(t, c, a.walletID, b.walletID)
	token := r.tokenAddress(c)

	step := time.Now()
	api.waitOrder(api.place(a, "BUY", 1000), "COMPLETED")
	t.Logf("A's BUY of 1000 completed in %s", time.Since(step).Round(time.Millisecond))
	if got := r.balanceOf(token, a.wallet); got != 1000 {
		t.Fatalf("balanceOf(A) after the BUY: %d, want 1000", got)
	}

	step = time.Now()
	waitOnChain(t, c, a, 1000)
	waitOnChain(t, c, b, 0)
	t.Logf("the ledger recorded both accounts' on-chain figures in %s", time.Since(step).Round(time.Millisecond))

	// The holder, not the operator, moves 400 units on chain.
	step = time.Now()
	r.sendGas(a.wallet)
	hash := r.holderTransfer(a.key, token, b.wallet, 400)
	t.Logf("holder transfer %s mined in %s", hash.Hex(), time.Since(step).Round(time.Millisecond))

	step = time.Now()
	eventually(t, 2*time.Minute, func() (bool, string) {
		out, in := transferSide(t, c, a.id, hash), transferSide(t, c, b.id, hash)
		ok := out != nil && in != nil &&
			out.Spec.Direction == investv1.TransferOut && out.Spec.Units == 400 && sameAddress(out.Spec.WalletAddress, a.wallet) && sameAddress(out.Spec.CounterpartyAddress, b.wallet) &&
			in.Spec.Direction == investv1.TransferIn && in.Spec.Units == 400 && sameAddress(in.Spec.WalletAddress, b.wallet) && sameAddress(in.Spec.CounterpartyAddress, a.wallet)
		return ok, fmt.Sprintf("Transfers of %s: A's side %+v, B's side %+v", hash.Hex(), specOf(out), specOf(in))
	})
	t.Logf("both Transfer objects recorded in %s", time.Since(step).Round(time.Millisecond))

	// Each tenant's view: its own side, the counterparty by address only.
	api.checkTransferSide(a, b, hash, "OUT")
	api.checkTransferSide(b, a, hash, "IN")

	step = time.Now()
	api.waitBooks(c, a, 600, 0, 400)
	api.waitBooks(c, b, 400, 400, 0)
	t.Logf("Account statuses and portfolios followed in %s", time.Since(step).Round(time.Millisecond))

	// B sells units it received by transfer: burned from B's wallet.
	var acctB investv1.Account
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: b.id}, &acctB); err != nil {
		t.Fatal(err)
	}
	t.Logf("B's on-chain figures when it sells: block %d, %d units (the transfer: block %d)", acctB.Status.OnChain.Block, acctB.Status.OnChain.Units(isin), transferSide(t, c, b.id, hash).Spec.BlockNumber)
	step = time.Now()
	sellB := api.place(b, "SELL", 300)
	api.waitOrder(sellB, "COMPLETED")
	checkBurns(t, c, sellB, b.wallet, 300)
	t.Logf("B's SELL of 300 completed in %s", time.Since(step).Round(time.Millisecond))

	step = time.Now()
	sellA := api.place(a, "SELL", 600)
	api.waitOrder(sellA, "COMPLETED")
	checkBurns(t, c, sellA, a.wallet, 600)
	t.Logf("A's SELL of 600 completed in %s", time.Since(step).Round(time.Millisecond))

	r.waitChainEqualsBooks(c, api, token, a, 0)
	r.waitChainEqualsBooks(c, api, token, b, 100)
	waitLedgerInSync(t, c, a, b)
}

// TestMakeRunLostKeyRecoveryEndToEnd: against `make run`, an account with two registered
// wallets buys 1,000 units into the first (its primary); the tenant asks over REST to
// recover the first wallet to the second. The recovery completes, the chain shows every
// unit at the new wallet and none at the lost one, the portfolio is unchanged, the lost
// Wallet can then be deleted, and a SELL completes, burned from the new wallet.
func TestMakeRunLostKeyRecoveryEndToEnd(t *testing.T) {
	r := startRun(t)
	api, c := r.api(), r.kubeClient()
	acct := api.newAccount("recovery")
	lost := acct.walletID
	newKey, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	newAddr := crypto.PubkeyToAddress(newKey.PublicKey)
	w := api.must(http.MethodPost, "/v1/accounts/"+acct.id+"/wallets", map[string]any{"chain": "polygon", "wallet_address": newAddr.Hex()}, http.StatusCreated)
	replacement := w["id"].(string)
	waitRegistered(t, c, lost, replacement)
	token := r.tokenAddress(c)

	step := time.Now()
	buy := api.place(acct, "BUY", 1000)
	api.waitOrder(buy, "COMPLETED")
	if o := getOrder(t, c, buy); o.Status.Chain == nil || !sameAddress(o.Status.Chain.Recipient, acct.wallet) {
		t.Fatalf("the BUY was not minted to the primary wallet %s: %+v", acct.wallet.Hex(), o.Status.Chain)
	}
	t.Logf("BUY of 1000 into the primary wallet completed in %s", time.Since(step).Round(time.Millisecond))
	if got := r.balanceOf(token, acct.wallet); got != 1000 {
		t.Fatalf("balanceOf(lost) after the BUY: %d, want 1000", got)
	}
	api.waitBooks(c, acct, 1000, 0, 0)

	step = time.Now()
	path := "/v1/accounts/" + acct.id + "/wallets/" + lost + "/recovery"
	api.must(http.MethodPost, path, map[string]any{"to_wallet_id": replacement}, http.StatusAccepted)
	eventually(t, 2*time.Minute, func() (bool, string) {
		out := api.must(http.MethodGet, path, nil, http.StatusOK)
		if out["status"] == "FAILED" {
			t.Fatalf("the recovery failed: %v", out)
		}
		return out["status"] == "COMPLETED", fmt.Sprintf("recovery %v", out)
	})
	t.Logf("recovery COMPLETED in %s", time.Since(step).Round(time.Millisecond))
	if got := r.balanceOf(token, acct.wallet); got != 0 {
		t.Errorf("balanceOf(lost) after the recovery: %d, want 0", got)
	}
	if got := r.balanceOf(token, newAddr); got != 1000 {
		t.Errorf("balanceOf(new) after the recovery: %d, want 1000", got)
	}
	// The recovery's on-chain move is indexed as both sides of a move between two wallets
	// of the account: 1000 in and 1000 out, the units unchanged.
	api.waitBooks(c, acct, 1000, 1000, 1000)

	// The lost wallet holds nothing on chain: its deletion is admitted, and it goes.
	api.must(http.MethodPatch, "/v1/accounts/"+acct.id+"/wallets/"+replacement, map[string]any{"is_primary": true}, http.StatusOK)
	step = time.Now()
	if err := c.Delete(context.Background(), &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: devdata.DemoNamespace, Name: lost}}); err != nil {
		t.Fatalf("delete the lost wallet after its recovery: %v", err)
	}
	eventually(t, time.Minute, func() (bool, string) {
		var w investv1.Wallet
		err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: lost}, &w)
		return apierrors.IsNotFound(err), fmt.Sprintf("lost wallet: %v, registration %+v", err, w.Status.Registration)
	})
	t.Logf("lost wallet deleted (removed from the registry) in %s", time.Since(step).Round(time.Millisecond))

	step = time.Now()
	sell := api.place(acct, "SELL", 1000)
	api.waitOrder(sell, "COMPLETED")
	checkBurns(t, c, sell, newAddr, 1000)
	t.Logf("SELL of 1000 from the new wallet completed in %s", time.Since(step).Round(time.Millisecond))
	acct.wallet = newAddr
	r.waitChainEqualsBooks(c, api, token, acct, 0)
}

// ---- polling ----

// eventually asks cond every 250 ms until it holds; after within, the test fails with
// cond's last description.
func eventually(t *testing.T, within time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok, last := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, last)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// ---- orders, wallets, transfers ----

// place places an order of units of the sample class for acct over REST and returns its id.
func (a *restAPI) place(acct *account, side string, units int64) string {
	a.t.Helper()
	out := a.must(http.MethodPost, "/v1/orders", map[string]any{"side": side, "market": "PRIMARY", "isin": isin,
		"amount_of_units": units, "currency": "EUR", "account_id": acct.id}, http.StatusCreated)
	return out["id"].(string)
}

// waitOrder waits until REST shows the order in state; a cancelled order fails at once.
func (a *restAPI) waitOrder(id, state string) {
	a.t.Helper()
	eventually(a.t, 2*time.Minute, func() (bool, string) {
		out := a.must(http.MethodGet, "/v1/orders/"+id, nil, http.StatusOK)
		if out["status"] == "CANCELLED" && state != "CANCELLED" {
			a.t.Fatalf("order %s was cancelled: %v", id, out)
		}
		return out["status"] == state, fmt.Sprintf("order %s: %v", id, out)
	})
}

func getOrder(t *testing.T, c client.Client, id string) *investv1.Order {
	t.Helper()
	var o investv1.Order
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: id}, &o); err != nil {
		t.Fatal(err)
	}
	return &o
}

// checkBurns checks that the SELL burned all its units from wallet.
func checkBurns(t *testing.T, c client.Client, id string, wallet common.Address, units int64) {
	t.Helper()
	o := getOrder(t, c, id)
	if o.Status.Chain == nil || len(o.Status.Chain.Burns) != 1 || !sameAddress(o.Status.Chain.Burns[0].Address, wallet) || o.Status.Chain.Burns[0].Units != units {
		t.Fatalf("SELL %s: burns %+v, want %d units from %s", id, o.Status.Chain, units, wallet.Hex())
	}
}

// waitRegistered waits until each Wallet is Registered in the chain's identity registry.
func waitRegistered(t *testing.T, c client.Client, ids ...string) {
	t.Helper()
	for _, id := range ids {
		eventually(t, time.Minute, func() (bool, string) {
			var w investv1.Wallet
			if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: id}, &w); err != nil {
				return false, err.Error()
			}
			reg := w.Status.Registration
			return reg != nil && reg.State == investv1.RegistrationRegistered, fmt.Sprintf("wallet %s: registration %+v", id, reg)
		})
	}
}

// transferSide is the account's Transfer of the transaction, or nil.
func transferSide(t *testing.T, c client.Client, accountID string, hash common.Hash) *investv1.Transfer {
	t.Helper()
	var l investv1.TransferList
	if err := c.List(context.Background(), &l, client.InNamespace(devdata.DemoNamespace), client.MatchingLabels{investv1.LabelAccount: accountID}); err != nil {
		t.Fatal(err)
	}
	var found *investv1.Transfer
	for i := range l.Items {
		if strings.EqualFold(l.Items[i].Spec.TransactionHash, hash.Hex()) {
			if found != nil {
				t.Fatalf("account %s has two Transfers of %s", accountID, hash.Hex())
			}
			found = &l.Items[i]
		}
	}
	return found
}

func specOf(x *investv1.Transfer) any {
	if x == nil {
		return nil
	}
	return x.Spec
}

// checkTransferSide checks what REST lists for acct: its one side of the transfer, with
// the counterparty's address and nothing of the other account.
func (a *restAPI) checkTransferSide(acct, other *account, hash common.Hash, direction string) {
	a.t.Helper()
	path := "/v1/accounts/" + acct.id + "/transfers"
	out := a.must(http.MethodGet, path, nil, http.StatusOK)
	raw, _ := json.Marshal(out)
	data, _ := out["data"].([]any)
	if len(data) != 1 {
		a.t.Fatalf("GET %s: %d transfers, want 1: %s", path, len(data), raw)
	}
	x := data[0].(map[string]any)
	if x["direction"] != direction || x["units"] != float64(400) || x["isin"] != isin || !strings.EqualFold(x["transaction_hash"].(string), hash.Hex()) ||
		x["wallet_id"] != acct.walletID || !sameAddress(x["wallet_address"].(string), acct.wallet) || !sameAddress(x["counterparty_address"].(string), other.wallet) {
		a.t.Fatalf("GET %s: %s, want %s 400 %s from wallet %s to/from %s", path, raw, direction, isin, acct.walletID, other.wallet.Hex())
	}
	for _, secret := range []string{other.id, other.walletID} {
		if strings.Contains(string(raw), secret) {
			a.t.Fatalf("GET %s names the other account's id or wallet id %s: %s", path, secret, raw)
		}
	}
}

// waitBooks waits until the Account status and the REST portfolio both show units of the
// sample class, the portfolio with the units transferred in and out.
func (a *restAPI) waitBooks(c client.Client, acct *account, units, in, out int64) {
	a.t.Helper()
	eventually(a.t, time.Minute, func() (bool, string) {
		status := statusUnits(a.t, c, acct.id)
		pos := a.position(acct.id)
		got := [4]int64{status, int64(num(pos["units"])), int64(num(pos["transferred_in_units"])), int64(num(pos["transferred_out_units"]))}
		return got == [4]int64{units, units, in, out}, fmt.Sprintf("account %s: Account status %d units, portfolio position %v; want %d units, %d in, %d out", acct.name, status, pos, units, in, out)
	})
}

func (a *restAPI) position(accountID string) map[string]any {
	out := a.must(http.MethodGet, "/v1/accounts/"+accountID+"/portfolio", nil, http.StatusOK)
	positions, _ := out["positions"].([]any)
	for _, p := range positions {
		if m := p.(map[string]any); m["isin"] == isin {
			return m
		}
	}
	return map[string]any{}
}

func num(v any) float64 { f, _ := v.(float64); return f }

// waitChainEqualsBooks waits until balanceOf the account's wallet = its Account status =
// its portfolio = units, then checks that its LedgerInSync is not False.
func (r *run) waitChainEqualsBooks(c client.Client, api *restAPI, token common.Address, acct *account, units int64) {
	r.t.Helper()
	eventually(r.t, time.Minute, func() (bool, string) {
		chain, status, portfolio := r.balanceOf(token, acct.wallet), statusUnits(r.t, c, acct.id), api.portfolioUnits(acct.id)
		return chain == units && status == units && portfolio == units,
			fmt.Sprintf("account %s: chain %d, Account status %d, portfolio %d, want %d", acct.name, chain, status, portfolio, units)
	})
	var a investv1.Account
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: acct.id}, &a); err != nil {
		r.t.Fatal(err)
	}
	cond := meta.FindStatusCondition(a.Status.Conditions, "LedgerInSync")
	if cond != nil && cond.Status == metav1.ConditionFalse {
		r.t.Errorf("account %s: LedgerInSync False: %s", acct.name, cond.Message)
	}
	r.t.Logf("account %s: chain = Account status = portfolio = %d units; LedgerInSync %+v", acct.name, units, condSummary(cond))
}

// waitOnChain waits until the ledger recorded acct's status.onChain with units of the
// sample class.
func waitOnChain(t *testing.T, c client.Client, acct *account, units int64) {
	t.Helper()
	eventually(t, time.Minute, func() (bool, string) {
		var a investv1.Account
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: acct.id}, &a); err != nil {
			return false, err.Error()
		}
		oc := a.Status.OnChain
		return oc != nil && oc.Units(isin) == units, fmt.Sprintf("account %s: status.onChain %+v, want %d units", acct.name, oc, units)
	})
}

// waitLedgerInSync waits until each account's LedgerInSync is True.
func waitLedgerInSync(t *testing.T, c client.Client, accts ...*account) {
	t.Helper()
	for _, acct := range accts {
		eventually(t, time.Minute, func() (bool, string) {
			var a investv1.Account
			if err := c.Get(context.Background(), client.ObjectKey{Namespace: devdata.DemoNamespace, Name: acct.id}, &a); err != nil {
				return false, err.Error()
			}
			cond := meta.FindStatusCondition(a.Status.Conditions, "LedgerInSync")
			return cond != nil && cond.Status == metav1.ConditionTrue, fmt.Sprintf("account %s: LedgerInSync %s", acct.name, condSummary(cond))
		})
	}
}

func condSummary(c *metav1.Condition) string {
	if c == nil {
		return "not set yet"
	}
	return string(c.Status) + " " + c.Reason + ": " + c.Message
}

func sameAddress(s string, addr common.Address) bool {
	return common.IsHexAddress(s) && common.HexToAddress(s) == addr
}

// ---- the chain, as a holder ----

func (r *run) eth() *ethclient.Client {
	ec, err := ethclient.Dial("http://127.0.0.1:" + strconv.Itoa(r.chainPort))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(ec.Close)
	return ec
}

// sendGas sends 1 ether to addr from the local chain's admin key (.local/chain/admin.key,
// funded at genesis and signing nothing after the deployments), so that the holder can pay
// for a transaction. The operator's key is never used: its nonces are the outbox's.
func (r *run) sendGas(to common.Address) {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.local, "chain", "admin.key"))
	if err != nil {
		r.t.Fatal(err)
	}
	admin, err := crypto.HexToECDSA(strings.TrimSpace(string(data)))
	if err != nil {
		r.t.Fatal("the local chain's admin key is not a key")
	}
	ether := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	r.sign(admin, to, ether, nil)
	ec := r.eth()
	if bal, err := ec.BalanceAt(context.Background(), to, nil); err != nil || bal.Cmp(ether) != 0 {
		r.t.Fatalf("balance of %s after the gas: %v %v", to.Hex(), bal, err)
	}
}

// holderTransfer signs and sends, as the holder of key, transfer(to, units) on token and
// waits until it is mined and succeeded.
func (r *run) holderTransfer(key *ecdsa.PrivateKey, token, to common.Address, units int64) common.Hash {
	r.t.Helper()
	return r.sign(key, token, nil, contracts.NewShareToken().PackTransfer(to, big.NewInt(units)))
}

// sign sends an EIP-1559 transaction from key and waits for its successful receipt.
func (r *run) sign(key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte) common.Hash {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ec := r.eth()
	from := crypto.PubkeyToAddress(key.PublicKey)
	chainID, err := ec.ChainID(ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	nonce, err := ec.PendingNonceAt(ctx, from)
	if err != nil {
		r.t.Fatal(err)
	}
	tip, err := ec.SuggestGasTipCap(ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	head, err := ec.HeaderByNumber(ctx, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	gas, err := ec.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Value: value, Data: data})
	if err != nil {
		r.t.Fatalf("estimate the transaction of %s to %s: %v", from.Hex(), to.Hex(), err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := ec.SendTransaction(ctx, tx); err != nil {
		r.t.Fatal(err)
	}
	for {
		rc, err := ec.TransactionReceipt(ctx, tx.Hash())
		switch {
		case err == nil && rc.Status == types.ReceiptStatusSuccessful:
			return tx.Hash()
		case err == nil:
			r.t.Fatalf("transaction %s from %s reverted", tx.Hash().Hex(), from.Hex())
		case !errors.Is(err, ethereum.NotFound):
			r.t.Fatalf("receipt of %s: %v", tx.Hash().Hex(), err)
		}
		select {
		case <-ctx.Done():
			r.t.Fatalf("transaction %s not mined within a minute", tx.Hash().Hex())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
