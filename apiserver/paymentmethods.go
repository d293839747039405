package apiserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// POST /v1/accounts/{account_id}/payment-method-details
func (s *Server) createPaymentMethod(w http.ResponseWriter, r *http.Request) {
	accountID := chi.URLParam(r, "account_id")
	var req PaymentMethodDetailsCreateRequest
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: map[string]string{"account_id": "is taken from the path", "id": "is assigned by the service"}})
	if !ok {
		return
	}
	typ := investv1.PaymentMethodType(deref(req.Type))
	spec := investv1.PaymentMethodDetailsSpec{
		AccountID: investv1.ObjectID(accountID), Type: typ,
		IBAN: validation.NormalizeIBAN(deref(req.IBAN)), AccountHolderName: deref(req.AccountHolderName),
	}
	mergeNew(&fe, bodyRules(rules.PaymentMethodDetails(&spec)))
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}

	ctx, ns := r.Context(), tenantOf(r)
	a := s.account(w, r, accountID, gvkPaymentMethod)
	if a == nil {
		return
	}
	name := newID()
	if idem != nil {
		name = idem.name(ns, gvkPaymentMethod)
	}
	p := &investv1.PaymentMethodDetails{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	idem.annotate(p)
	if err := s.deps.Writer.Create(ctx, p, fieldOwner); err != nil {
		if apierrors.IsAlreadyExists(err) && s.replayPaymentMethod(w, r, idem, a, name) {
			return
		}
		if hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.accountID") {
			writeNotFound(w, resAccount, accountID)
			return
		}
		s.writeAPIError(w, r, err, nil)
		return
	}
	s.tracker.Written(p)
	// A new registration is not primary unless asked; is_primary false needs no write.
	if deref(req.IsPrimary) {
		if err := s.setPrimary(ctx, a, primaryPaymentMethod, p.Name); err != nil {
			s.writeAPIError(w, r, err, nil)
			return
		}
	}
	w.Header().Set("Location", paymentMethodLocation(accountID, p.Name))
	writeJSON(w, http.StatusCreated, paymentMethodView(p, a))
}

// replayPaymentMethod answers a retry of a request whose payment method details exist
// under name (replayNamed).
func (s *Server) replayPaymentMethod(w http.ResponseWriter, r *http.Request, idem *idempotency, owner *investv1.Account, name string) bool {
	return replayNamed(s, w, r, idem, name,
		func(p *investv1.PaymentMethodDetails) string {
			return paymentMethodLocation(string(p.Spec.AccountID), p.Name)
		},
		func(p *investv1.PaymentMethodDetails) any { return paymentMethodView(p, s.fresh(r, owner)) })
}

func paymentMethodLocation(accountID, id string) string {
	return "/v1/accounts/" + accountID + "/payment-method-details/" + id
}

// GET /v1/accounts/{account_id}/payment-method-details (extension): skip, limit.
func (s *Server) listPaymentMethods(w http.ResponseWriter, r *http.Request) {
	accountID := chi.URLParam(r, "account_id")
	q := parseQuery(r, append([]string{"is_primary"}, pageParams...)...)
	primary := q.boolean("is_primary")
	pg := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	a := s.account(w, r, accountID, gvkPaymentMethod)
	if a == nil {
		return
	}
	var list investv1.PaymentMethodDetailsList
	if err := s.deps.Reader.List(r.Context(), &list, client.InNamespace(tenantOf(r)),
		client.MatchingFields{index.PaymentMethodAccount: accountID}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, PaymentMethodDetailsList{Data: primaryPage(list.Items, a.Spec.PrimaryPaymentMethodDetails, primary, pg,
		func(p *investv1.PaymentMethodDetails) PaymentMethodDetails { return paymentMethodView(p, a) })})
}

// paymentMethod reads payment method details of the account; it answers 404 itself and
// returns nil when the account or the details do not exist in the tenant.
func (s *Server) paymentMethod(w http.ResponseWriter, r *http.Request) (*investv1.Account, *investv1.PaymentMethodDetails) {
	return accountChild(s, w, r, "payment_method_details_id", resPaymentMethod, gvkPaymentMethod,
		func(p *investv1.PaymentMethodDetails) investv1.ObjectID { return p.Spec.AccountID })
}

// GET /v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}
func (s *Server) getPaymentMethod(w http.ResponseWriter, r *http.Request) {
	getChild(w, r, s.paymentMethod, paymentMethodView)
}

// PATCH /v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}:
// is_primary as for wallets.
func (s *Server) updatePaymentMethod(w http.ResponseWriter, r *http.Request) {
	var req PaymentMethodDetailsUpdateRequest
	updateChildPrimary(s, w, r, &req, &req.IsPrimary, map[string]string{
		"type": "cannot be changed", "iban": "cannot be changed", "account_holder_name": "cannot be changed",
		"account_id": "cannot be changed",
	}, s.paymentMethod, primaryPaymentMethod, paymentMethodView)
}
