package apiserver

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=walletrecoveries,verbs=get;list;watch;create

const resRecovery = "Wallet recovery"

// POST /v1/accounts/{account_id}/wallets/{wallet_id}/recovery: a lost-key recovery of the
// wallet to another registered wallet of the account (a WalletRecovery named by the lost
// wallet's id). 202 with its view; a retry with the same target answers the same recovery,
// another target 409.
func (s *Server) createWalletRecovery(w http.ResponseWriter, r *http.Request) {
	var req WalletRecoveryRequest
	fe, ok := decodeBody(w, r, &req, nil)
	if !ok {
		return
	}
	if req.ToWalletID == nil || *req.ToWalletID == "" {
		fe.Add("to_wallet_id", "is required")
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	_, lost := wallets.child(s, w, r)
	if lost == nil {
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
	to := &investv1.Wallet{}
	switch err := s.get(ctx, ns, *req.ToWalletID, to); {
	case apierrors.IsNotFound(err) || errors.Is(err, errNoSuchID) || err == nil && to.Spec.AccountID != lost.Spec.AccountID:
		to = nil
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return
	}
	spec := investv1.WalletRecoverySpec{AccountID: lost.Spec.AccountID, FromWalletID: investv1.ObjectID(lost.Name), ToWalletID: investv1.ObjectID(*req.ToWalletID)}
	if fe := rules.WalletRecovery(&spec, lost, to); !fe.Empty() {
		delete(fe, "from_wallet_id") // the path's wallet exists (child answered 404 otherwise)
		writeValidation(w, fe)
		return
	}
	rec := &investv1.WalletRecovery{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: lost.Name}, Spec: spec}
	err := s.deps.Writer.Create(ctx, rec, fieldOwner)
	if apierrors.IsAlreadyExists(err) {
		if err := s.deps.APIReader.Get(ctx, client.ObjectKeyFromObject(rec), rec); err != nil {
			s.writeAPIError(w, r, err, nil)
			return
		}
		if rec.Spec.ToWalletID != spec.ToWalletID {
			writeError(w, http.StatusConflict, "Wallet recovery already requested",
				"the wallet "+lost.Name+" is already being recovered to the wallet "+string(rec.Spec.ToWalletID))
			return
		}
		err = nil
	}
	if err != nil {
		s.writeAPIError(w, r, err, map[string]string{"spec.toWalletID": "to_wallet_id", "spec.fromWalletID": "wallet_id", "spec.accountID": "account_id"})
		return
	}
	w.Header().Set("Location", "/v1/accounts/"+string(lost.Spec.AccountID)+"/wallets/"+lost.Name+"/recovery")
	writeJSON(w, http.StatusAccepted, recoveryView(rec))
}

// GET /v1/accounts/{account_id}/wallets/{wallet_id}/recovery: the wallet's recovery.
func (s *Server) getWalletRecovery(w http.ResponseWriter, r *http.Request) {
	_, lost := wallets.child(s, w, r)
	if lost == nil {
		return
	}
	rec := &investv1.WalletRecovery{}
	err := s.deps.APIReader.Get(r.Context(), client.ObjectKey{Namespace: tenantOf(r), Name: lost.Name}, rec)
	if s.readFailed(w, r, err, nil, resRecovery, chi.URLParam(r, "wallet_id")) {
		return
	}
	writeJSON(w, http.StatusOK, recoveryView(rec))
}

func recoveryView(rec *investv1.WalletRecovery) WalletRecovery {
	v := WalletRecovery{
		ID: rec.Name, AccountID: string(rec.Spec.AccountID), FromWalletID: string(rec.Spec.FromWalletID), ToWalletID: string(rec.Spec.ToWalletID),
		Status: "PENDING", Tokens: []WalletRecoveryToken{}, Created: rec.CreationTimestamp.UTC().Format(time.RFC3339),
	}
	if rec.Status.Phase != "" {
		v.Status = strings.ToUpper(string(rec.Status.Phase))
	}
	if c := meta.FindStatusCondition(rec.Status.Conditions, "Stalled"); c != nil && c.Status == metav1.ConditionTrue {
		v.Message = &c.Message
	} else if c := meta.FindStatusCondition(rec.Status.Conditions, "Ready"); c != nil {
		v.Message = &c.Message
	}
	for _, t := range rec.Status.Tokens {
		tv := WalletRecoveryToken{ISIN: string(t.ISIN), TokenAddress: t.Token, Units: t.Units, LockedUnits: t.Locked, Status: "PENDING"}
		if t.Transaction != nil {
			tv.TransactionHash = t.Transaction.Attempts[len(t.Transaction.Attempts)-1].Hash
			if rc := t.Transaction.Receipt; rc != nil {
				tv.TransactionHash = rc.Hash
				tv.Status = "SUCCEEDED"
				if rc.Status != investv1.ChainReceiptSucceeded {
					tv.Status = "REVERTED"
				}
			}
		}
		v.Tokens = append(v.Tokens, tv)
	}
	if rec.Status.CompletedAt != nil {
		at := rec.Status.CompletedAt.UTC().Format(time.RFC3339)
		v.CompletedAt = &at
	}
	return v
}
