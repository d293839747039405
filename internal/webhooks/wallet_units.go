package webhooks

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/refusal"
)

// refuseHolding refuses the deletion of a wallet whose address holds units of a share
// class's token on the configured chain, unless another Wallet of the same account names
// the same address (the units stay in the account's books). A chain that cannot be read
// refuses too: a deletion that could strand units waits for the answer.
func (h *walletWebhook) refuseHolding(ctx context.Context, w *investv1.Wallet) error {
	if h.r.chain == nil || !common.IsHexAddress(w.Spec.WalletAddress) {
		return nil
	}
	var siblings investv1.WalletList
	if err := h.r.cache.List(ctx, &siblings, client.InNamespace(w.Namespace)); err != nil {
		return err
	}
	for _, o := range siblings.Items {
		if o.Name != w.Name && o.Spec.AccountID == w.Spec.AccountID && o.DeletionTimestamp.IsZero() &&
			strings.EqualFold(o.Spec.WalletAddress, w.Spec.WalletAddress) {
			return nil
		}
	}
	held, err := unitsOnChain(ctx, h.r, common.HexToAddress(w.Spec.WalletAddress))
	if err != nil {
		return refusal.Forbidden("wallets", w.Name, fmt.Errorf("its units on chain cannot be read now (%w); try again", err))
	}
	if len(held) == 0 {
		return nil
	}
	return refusal.Forbidden("wallets", w.Name, fmt.Errorf(
		"the wallet %s holds units on chain: %s; sell them, or have the agent move them to another registered wallet of the account, first",
		w.Spec.WalletAddress, strings.Join(held, ", ")))
}

// unitsOnChain lists, per ISIN, the units addr holds of every share class's token on the
// configured chain ("LU000FSHI012 953 units"), sorted; empty when it holds none.
func unitsOnChain(ctx context.Context, r reader, addr common.Address) ([]string, error) {
	var classes investv1.ShareClassList
	if err := r.cache.List(ctx, &classes); err != nil {
		return nil, err
	}
	tok := contracts.NewShareToken()
	var held []string
	for _, sc := range classes.Items {
		st := sc.Status.Token
		if st == nil || st.ChainID != r.chainID || !common.IsHexAddress(st.Address) {
			continue
		}
		token := common.HexToAddress(st.Address)
		out, err := r.chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: tok.PackBalanceOf(addr)}, nil)
		if err != nil {
			return nil, fmt.Errorf("balanceOf on the token of %s: %w", sc.Spec.ISIN, err)
		}
		units, err := tok.UnpackBalanceOf(out)
		if err != nil {
			return nil, fmt.Errorf("balanceOf on the token of %s: %w", sc.Spec.ISIN, err)
		}
		if units.Cmp(new(big.Int)) > 0 {
			held = append(held, fmt.Sprintf("%s %s units", sc.Spec.ISIN, units))
		}
	}
	sort.Strings(held)
	return held, nil
}
