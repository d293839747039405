package token_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
)

// TestTheUnitsOnChainAreThoseOfTheAccountsOwnRegisteredWallets: an account's on-chain
// units count only its Registered wallets, and never an address another account also
// registered (a SELL never burns there).
func TestTheUnitsOnChainAreThoseOfTheAccountsOwnRegisteredWallets(t *testing.T) {
	a1, a2, shared, pending := common.HexToAddress("0x01"), common.HexToAddress("0x02"), common.HexToAddress("0x03"), common.HexToAddress("0x04")
	wallet := func(ns, account string, addr common.Address, state investv1.RegistrationState) investv1.Wallet {
		w := investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: account + addr.Hex()}, Spec: investv1.WalletSpec{AccountID: investv1.ObjectID(account), WalletAddress: addr.Hex()}}
		if state != "" {
			w.Status.Registration = &investv1.WalletRegistration{State: state}
		}
		return w
	}
	burnable := BurnableWallets([]investv1.Wallet{
		wallet("t1", "acct", a1, investv1.RegistrationRegistered),
		wallet("t1", "acct", a2, investv1.RegistrationRegistered),
		wallet("t1", "acct", shared, investv1.RegistrationRegistered),
		wallet("t2", "other", shared, investv1.RegistrationRegistered), // another tenant's account registered it too
		wallet("t1", "acct", pending, investv1.RegistrationPending),
	})
	if got := burnable["t1/acct"]; len(got) != 2 || got[0] != a1 || got[1] != a2 {
		t.Fatalf("burnable wallets of t1/acct: %v, want %s and %s", got, a1.Hex(), a2.Hex())
	}
	if got := burnable["t2/other"]; len(got) != 0 {
		t.Fatalf("burnable wallets of t2/other: %v, want none (shared)", got)
	}
	token := common.HexToAddress("0xaa")
	balances := map[common.Address]map[common.Address]*big.Int{token: {a1: big.NewInt(3), a2: big.NewInt(4), shared: big.NewInt(100), pending: big.NewInt(1000)}}
	got := OnChainOf(burnable["t1/acct"], map[string]common.Address{"IE00B4L5Y983": token, "LU0274208692": common.HexToAddress("0xbb")}, balances, 42)
	want := investv1.OnChainHoldings{Block: 42, Holdings: []investv1.OnChainHolding{{ISIN: "IE00B4L5Y983", Units: 7}}}
	if got.Block != want.Block || len(got.Holdings) != 1 || got.Holdings[0] != want.Holdings[0] {
		t.Fatalf("OnChainOf = %+v, want %+v", got, want)
	}
}
