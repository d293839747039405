package apiserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// GET /v1/accounts/{account_id}/transfers (extension): the account's sides of on-chain
// transfers between holders, as the transfer indexer recorded them (Transfer objects of the
// tenant's namespace, by the account label), newest first (block number, then log index,
// descending); skip and limit page through them. Each names this account's wallet and only
// the counterparty's address.
func (s *Server) listTransfers(w http.ResponseWriter, r *http.Request) {
	accountID := chi.URLParam(r, "account_id")
	q := parseQuery(r, pageParams...)
	pg := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	if a := s.account(w, r, accountID); a == nil {
		return
	}
	var list investv1.TransferList
	if err := s.deps.Reader.List(r.Context(), &list, client.InNamespace(tenantOf(r)), client.MatchingLabels{investv1.LabelAccount: accountID}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	items := slices.DeleteFunc(list.Items, func(t investv1.Transfer) bool { return string(t.Spec.AccountID) != accountID })
	slices.SortStableFunc(items, func(a, b investv1.Transfer) int {
		switch {
		case a.Spec.BlockNumber != b.Spec.BlockNumber:
			return compareDesc(a.Spec.BlockNumber, b.Spec.BlockNumber)
		case a.Spec.LogIndex != b.Spec.LogIndex:
			return compareDesc(a.Spec.LogIndex, b.Spec.LogIndex)
		}
		return strings.Compare(a.Name, b.Name)
	})
	out := TransferList{Data: []Transfer{}}
	if pg.skip < len(items) {
		items = items[pg.skip:]
		for i := range items[:min(len(items), pg.limit)] {
			out.Data = append(out.Data, transferView(&items[i]))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func compareDesc(a, b int64) int {
	if a > b {
		return -1
	}
	return 1
}

// transferView is a Transfer as REST shows it.
func transferView(t *investv1.Transfer) Transfer {
	return Transfer{
		ID: t.Name, ISIN: string(t.Spec.ISIN), Units: t.Spec.Units, Direction: strings.ToUpper(string(t.Spec.Direction)),
		WalletID: string(t.Spec.WalletID), WalletAddress: t.Spec.WalletAddress, CounterpartyAddress: t.Spec.CounterpartyAddress,
		TransactionHash: t.Spec.TransactionHash, BlockNumber: t.Spec.BlockNumber,
		Timestamp: t.Spec.BlockTime.UTC().Format(time.RFC3339),
	}
}
