package apiserver

import (
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// POST /v1/accounts/{account_id}/wallets. The wallet's id is derived from the account and
// the address, so a second registration of the address on the account, also a concurrent
// one, collides at the API server and answers 409 "Wallet already registered".
func (s *Server) createWallet(w http.ResponseWriter, r *http.Request) {
	accountID := chi.URLParam(r, "account_id")
	var req WalletCreateRequest
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: createRefused})
	if !ok {
		return
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	address, _ := rules.WalletAddress(investv1.ChainPolygon, *req.WalletAddress) // checked by Validate
	chain := investv1.Chain(*req.Chain)
	spec := investv1.WalletSpec{AccountID: investv1.ObjectID(accountID), Chain: chain, WalletAddress: address}
	if fe := bodyRules(rules.Wallet(&spec)); !fe.Empty() {
		writeValidation(w, fe)
		return
	}

	ctx, ns := r.Context(), tenantOf(r)
	a := s.account(w, r, accountID, gvkWallet)
	if a == nil {
		return
	}
	name := walletName(accountID, address)
	if idem != nil && s.replayWalletByKey(w, r, idem, a) {
		return
	}
	var same investv1.WalletList
	if err := s.deps.Reader.List(ctx, &same, client.InNamespace(ns),
		client.MatchingFields{index.WalletAddress: index.WalletAddressKey(accountID, address)}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	if len(same.Items) > 0 {
		if !wallets.replay(s, w, r, idem, a, name) {
			writeWalletDuplicate(w, accountID, address)
		}
		return
	}
	wal := &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	idem.annotate(wal)
	if err := s.deps.Writer.Create(ctx, wal, fieldOwner); err != nil {
		switch {
		case apierrors.IsAlreadyExists(err) && wallets.replay(s, w, r, idem, a, name):
		case apierrors.IsAlreadyExists(err), hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.walletAddress"):
			writeWalletDuplicate(w, accountID, address)
		case hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.accountID"):
			writeNotFound(w, resAccount, accountID)
		default:
			s.writeAPIError(w, r, err, nil)
		}
		return
	}
	wallets.created(s, w, r, a, wal, req.IsPrimary)
}

// replayWalletByKey answers when a wallet of the tenant already carries the key (a wallet's
// id is derived from its address, so a key reused for another address names another id).
func (s *Server) replayWalletByKey(w http.ResponseWriter, r *http.Request, idem *idempotency, owner *investv1.Account) bool {
	return replayKeyHolder(s, w, r, idem, gvkWallet, &investv1.WalletList{}, wallets.location, wallets.anyView(s, r, owner))
}

func writeWalletDuplicate(w http.ResponseWriter, accountID, address string) {
	writeError(w, http.StatusConflict, msgWalletDuplicate,
		fmt.Sprintf("wallet address %s is already registered for account %s", address, accountID))
}

// GET /v1/accounts/{account_id}/wallets: filters wallet_address (any letter case),
// is_primary; skip, limit.
func (s *Server) listWallets(w http.ResponseWriter, r *http.Request) {
	var list investv1.WalletList
	match := func(accountID string, q *query) client.MatchingFields {
		if address := q.str("wallet_address"); address != "" {
			return client.MatchingFields{index.WalletAddress: index.WalletAddressKey(accountID, address)}
		}
		return client.MatchingFields{index.WalletAccount: accountID}
	}
	if views, ok := wallets.list(s, w, r, []string{"wallet_address"}, match, &list, func() []investv1.Wallet { return list.Items }); ok {
		writeJSON(w, http.StatusOK, WalletList{Data: views})
	}
}

// wallets are the wallets of an account.
var wallets = childKind[investv1.Wallet, *investv1.Wallet, Wallet]{
	param: "wallet_id", resource: resWallet, path: "wallets", gvk: gvkWallet, primary: primaryWallet,
	owner: func(wal *investv1.Wallet) investv1.ObjectID { return wal.Spec.AccountID },
	view:  walletView,
	fixed: []string{"chain", "wallet_address", "account_id"},
}

// GET /v1/accounts/{account_id}/wallets/{wallet_id} (extension).
func (s *Server) getWallet(w http.ResponseWriter, r *http.Request) { wallets.get(s, w, r) }

// PATCH /v1/accounts/{account_id}/wallets/{wallet_id}: is_primary (childKind.update).
func (s *Server) updateWallet(w http.ResponseWriter, r *http.Request) { wallets.update(s, w, r) }
