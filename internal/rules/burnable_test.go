package rules

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// TestASellBurnsOnlyFromTheAccountsOwnRegisteredWallets: Registered wallets, one per
// address whatever its letter case, never one being deleted, and never an address another
// account registered too.
func TestASellBurnsOnlyFromTheAccountsOwnRegisteredWallets(t *testing.T) {
	wallet := func(ns, account, name, addr string, state investv1.RegistrationState) investv1.Wallet {
		w := investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: investv1.WalletSpec{AccountID: investv1.ObjectID(account), WalletAddress: addr}}
		if state != "" {
			w.Status.Registration = &investv1.WalletRegistration{State: state}
		}
		return w
	}
	deleting := wallet("t1", "acct", "w5", "0x0000000000000000000000000000000000000005", investv1.RegistrationRegistered)
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	got := BurnableWallets([]investv1.Wallet{
		wallet("t1", "acct", "w1", "0x00000000000000000000000000000000000000aA", investv1.RegistrationRegistered),
		wallet("t1", "acct", "w1-again", "0x00000000000000000000000000000000000000AA", investv1.RegistrationRegistered),
		wallet("t1", "acct", "w2", "0x0000000000000000000000000000000000000002", investv1.RegistrationPending),
		wallet("t1", "acct", "w3", "0x0000000000000000000000000000000000000003", investv1.RegistrationRegistered),
		wallet("t2", "other", "x3", "0x0000000000000000000000000000000000000003", investv1.RegistrationRegistered),
		wallet("t1", "acct", "w4", "0x0000000000000000000000000000000000000004", ""),
		deleting,
	})
	if ws := got["t1/acct"]; len(ws) != 1 || ws[0].Name != "w1" {
		t.Fatalf("burnable wallets of t1/acct: %v, want only w1", names(ws))
	}
	if ws := got["t2/other"]; len(ws) != 0 {
		t.Fatalf("burnable wallets of t2/other: %v, want none (the address is shared)", names(ws))
	}
}

func names(ws []*investv1.Wallet) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Name)
	}
	return out
}
