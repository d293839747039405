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
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: map[string]string{"account_id": "is taken from the path", "id": "is assigned by the service"}})
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
		if !s.replayWallet(w, r, idem, a, name) {
			writeWalletDuplicate(w, accountID, address)
		}
		return
	}
	wal := &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	idem.annotate(wal)
	if err := s.deps.Writer.Create(ctx, wal, fieldOwner); err != nil {
		switch {
		case apierrors.IsAlreadyExists(err) && s.replayWallet(w, r, idem, a, name):
		case apierrors.IsAlreadyExists(err), hasCause(err, metav1.CauseTypeFieldValueDuplicate, "spec.walletAddress"):
			writeWalletDuplicate(w, accountID, address)
		case hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.accountID"):
			writeNotFound(w, resAccount, accountID)
		default:
			s.writeAPIError(w, r, err, nil)
		}
		return
	}
	s.tracker.Written(wal)
	// A new registration is not primary unless asked; is_primary false needs no write.
	if deref(req.IsPrimary) {
		if err := s.setPrimary(ctx, a, primaryWallet, wal.Name); err != nil {
			s.writeAPIError(w, r, err, nil)
			return
		}
	}
	w.Header().Set("Location", "/v1/accounts/"+accountID+"/wallets/"+wal.Name)
	writeJSON(w, http.StatusCreated, walletView(wal, a))
}

// replayWallet answers a retry of a request whose wallet exists under name (replayNamed).
func (s *Server) replayWallet(w http.ResponseWriter, r *http.Request, idem *idempotency, owner *investv1.Account, name string) bool {
	return replayNamed(s, w, r, idem, name, walletLocation, s.walletAny(r, owner))
}

// replayWalletByKey answers when a wallet of the tenant already carries the key (a wallet's
// id is derived from its address, so a key reused for another address names another id).
func (s *Server) replayWalletByKey(w http.ResponseWriter, r *http.Request, idem *idempotency, owner *investv1.Account) bool {
	return replayKeyHolder(s, w, r, idem, gvkWallet, &investv1.WalletList{}, walletLocation, s.walletAny(r, owner))
}

// walletAny is the replayed view of a wallet, with is_primary as the account has it now.
func (s *Server) walletAny(r *http.Request, owner *investv1.Account) func(*investv1.Wallet) any {
	return func(wal *investv1.Wallet) any { return walletView(wal, s.fresh(r, owner)) }
}

func walletLocation(wal *investv1.Wallet) string {
	return "/v1/accounts/" + string(wal.Spec.AccountID) + "/wallets/" + wal.Name
}

func writeWalletDuplicate(w http.ResponseWriter, accountID, address string) {
	writeError(w, http.StatusConflict, msgWalletDuplicate,
		fmt.Sprintf("wallet address %s is already registered for account %s", address, accountID))
}

// GET /v1/accounts/{account_id}/wallets: filters wallet_address (any letter case),
// is_primary; skip, limit.
func (s *Server) listWallets(w http.ResponseWriter, r *http.Request) {
	accountID := chi.URLParam(r, "account_id")
	q := parseQuery(r, append([]string{"wallet_address", "is_primary"}, pageParams...)...)
	address := q.str("wallet_address")
	primary := q.boolean("is_primary")
	p := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	a := s.account(w, r, accountID, gvkWallet)
	if a == nil {
		return
	}
	match := client.MatchingFields{index.WalletAccount: accountID}
	if address != "" {
		match = client.MatchingFields{index.WalletAddress: index.WalletAddressKey(accountID, address)}
	}
	var list investv1.WalletList
	if err := s.deps.Reader.List(r.Context(), &list, client.InNamespace(tenantOf(r)), match); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, WalletList{Data: primaryPage(list.Items, a.Spec.PrimaryWallet, primary, p,
		func(wal *investv1.Wallet) Wallet { return walletView(wal, a) })})
}

// wallet reads a wallet of the account; it answers 404 itself and returns nil when the
// account or the wallet does not exist in the tenant.
func (s *Server) wallet(w http.ResponseWriter, r *http.Request) (*investv1.Account, *investv1.Wallet) {
	return accountChild(s, w, r, "wallet_id", resWallet, gvkWallet,
		func(wal *investv1.Wallet) investv1.ObjectID { return wal.Spec.AccountID })
}

// GET /v1/accounts/{account_id}/wallets/{wallet_id} (extension).
func (s *Server) getWallet(w http.ResponseWriter, r *http.Request) {
	getChild(w, r, s.wallet, walletView)
}

// PATCH /v1/accounts/{account_id}/wallets/{wallet_id}: is_primary true makes this the
// account's primary wallet (every other one loses the flag in the same write), false
// clears it if this one is primary, null or absent changes nothing.
func (s *Server) updateWallet(w http.ResponseWriter, r *http.Request) {
	var req WalletUpdateRequest
	updateChildPrimary(s, w, r, &req, &req.IsPrimary, map[string]string{
		"chain": "cannot be changed", "wallet_address": "cannot be changed", "account_id": "cannot be changed",
	}, s.wallet, primaryWallet, walletView)
}
