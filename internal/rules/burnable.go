package rules

import (
	"strings"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// BurnableWallets are, per account ("namespace/name"), the wallets a SELL of the account
// may burn from: its Wallets the identity registry verifies (Registered, not being
// deleted) whose address no other account also registered a Wallet for (the token counts
// an address once, so units there are not the account's alone). One wallet per address, in
// the order given. The chain agent's burn plan and the ledger's on-chain figures both use
// it, so placement checks a SELL against exactly the wallets its burn may use.
func BurnableWallets(wallets []investv1.Wallet) map[string][]*investv1.Wallet {
	owners := map[string]map[string]bool{}
	for i := range wallets {
		w := &wallets[i]
		addr := strings.ToLower(w.Spec.WalletAddress)
		if owners[addr] == nil {
			owners[addr] = map[string]bool{}
		}
		owners[addr][w.Namespace+"/"+string(w.Spec.AccountID)] = true
	}
	out := map[string][]*investv1.Wallet{}
	seen := map[string]bool{}
	for i := range wallets {
		w := &wallets[i]
		reg := w.Status.Registration
		addr := strings.ToLower(w.Spec.WalletAddress)
		if addr == "" || !w.DeletionTimestamp.IsZero() || reg == nil || reg.State != investv1.RegistrationRegistered {
			continue
		}
		key := w.Namespace + "/" + string(w.Spec.AccountID)
		if len(owners[addr]) == 1 && !seen[key+" "+addr] {
			seen[key+" "+addr] = true
			out[key] = append(out[key], w)
		}
	}
	return out
}
