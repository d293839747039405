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
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: createRefused})
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
		if apierrors.IsAlreadyExists(err) && paymentMethods.replay(s, w, r, idem, a, name) {
			return
		}
		if hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.accountID") {
			writeNotFound(w, resAccount, accountID)
			return
		}
		s.writeAPIError(w, r, err, nil)
		return
	}
	paymentMethods.created(s, w, r, a, p, req.IsPrimary)
}

// GET /v1/accounts/{account_id}/payment-method-details (extension): is_primary; skip,
// limit.
func (s *Server) listPaymentMethods(w http.ResponseWriter, r *http.Request) {
	var list investv1.PaymentMethodDetailsList
	match := func(accountID string, _ *query) client.MatchingFields {
		return client.MatchingFields{index.PaymentMethodAccount: accountID}
	}
	if views, ok := paymentMethods.list(s, w, r, nil, match, &list, func() []investv1.PaymentMethodDetails { return list.Items }); ok {
		writeJSON(w, http.StatusOK, PaymentMethodDetailsList{Data: views})
	}
}

// paymentMethods are the payment method details of an account.
var paymentMethods = childKind[investv1.PaymentMethodDetails, *investv1.PaymentMethodDetails, PaymentMethodDetails]{
	param: "payment_method_details_id", resource: resPaymentMethod, path: "payment-method-details", gvk: gvkPaymentMethod,
	primary: primaryPaymentMethod,
	owner:   func(p *investv1.PaymentMethodDetails) investv1.ObjectID { return p.Spec.AccountID },
	view:    paymentMethodView,
	fixed:   []string{"type", "iban", "account_holder_name", "account_id"},
}

// GET /v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}
func (s *Server) getPaymentMethod(w http.ResponseWriter, r *http.Request) {
	paymentMethods.get(s, w, r)
}

// PATCH /v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}:
// is_primary (childKind.update).
func (s *Server) updatePaymentMethod(w http.ResponseWriter, r *http.Request) {
	paymentMethods.update(s, w, r)
}
