package apiserver

import (
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// An account's children (wallets, payment method details) are read, listed and flagged
// primary the same way; childKind says what differs between the kinds, and its methods
// are the handlers' shared parts.

// childKind describes one kind of an account's children: T the custom resource, V its
// REST view.
type childKind[T any, P interface {
	*T
	client.Object
}, V any] struct {
	// param is the path parameter of a child's id; resource names the kind in a 404;
	// path is the collection under /v1/accounts/{account_id}/.
	param, resource, path string
	// gvk is the kind, for read-your-writes.
	gvk schema.GroupVersionKind
	// primary is the account's pointer to its primary child of the kind.
	primary primaryField
	// owner is the account a child belongs to.
	owner func(P) investv1.ObjectID
	// view is the REST view of a child, is_primary from the account.
	view func(P, *investv1.Account) V
	// fixed are the fields of the view that a PATCH may not change.
	fixed []string
}

// child reads the child named by the URL parameter k.param, of the account in the path;
// it answers 404 itself (for the account or the child, also when the child belongs to
// another account) and returns nil then.
func (k childKind[T, P, V]) child(s *Server, w http.ResponseWriter, r *http.Request) (*investv1.Account, P) {
	accountID, id := chi.URLParam(r, "account_id"), chi.URLParam(r, k.param)
	a := s.account(w, r, accountID, k.gvk)
	if a == nil {
		return nil, nil
	}
	obj := P(new(T))
	err := s.get(r.Context(), tenantOf(r), id, obj)
	switch {
	case apierrors.IsNotFound(err) || err == nil && string(k.owner(obj)) != accountID:
		writeNotFound(w, k.resource, id)
		return nil, nil
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return nil, nil
	}
	return a, obj
}

// get is the GET of one child.
func (k childKind[T, P, V]) get(s *Server, w http.ResponseWriter, r *http.Request) {
	if a, obj := k.child(s, w, r); obj != nil {
		writeJSON(w, http.StatusOK, k.view(obj, a))
	}
}

// update is the PATCH of one child: only is_primary may change (patchPrimary); true
// makes it the account's primary child of its kind (every other one loses the flag in
// the same write), false clears the flag if it has it, null or absent changes nothing.
func (k childKind[T, P, V]) update(s *Server, w http.ResponseWriter, r *http.Request) {
	refused := make(map[string]string, len(k.fixed))
	for _, f := range k.fixed {
		refused[f] = "cannot be changed"
	}
	var req primaryUpdate
	fe, ok := decodeBody(w, r, &req, refused, "application/json", "application/merge-patch+json")
	if !ok {
		return
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	a, obj := k.child(s, w, r)
	if obj == nil {
		return
	}
	if s.patchPrimary(w, r, a, k.primary, obj.GetName(), req.IsPrimary) {
		writeJSON(w, http.StatusOK, k.view(obj, a))
	}
}

// page keeps the children (of account a, as listed) whose is_primary matches the filter,
// when one is given, and returns the views of one page.
func (k childKind[T, P, V]) page(items []T, a *investv1.Account, primary *bool, pg page) []V {
	pointer := k.primary.of(a)
	kept := items[:0]
	for i := range items {
		if primary == nil || *primary == (pointer == P(&items[i]).GetName()) {
			kept = append(kept, items[i])
		}
	}
	return pageViews(kept, pg, func(obj P) V { return k.view(obj, a) })
}

// createRefused are the fields a POST of a child must not carry.
var createRefused = map[string]string{"account_id": "is taken from the path", "id": "is assigned by the service"}

// decodeChildCreate reads a POST of an account's child: the account id of the path, and
// the body into req as decodeCreate does, refusing createRefused.
func decodeChildCreate(w http.ResponseWriter, r *http.Request, req createRequest) (accountID string, idem *idempotency, fe validation.FieldErrors, ok bool) {
	idem, fe, ok = decodeCreate(w, r, req, createSpec{refused: createRefused})
	return chi.URLParam(r, "account_id"), idem, fe, ok
}

// location is where a child is read.
func (k childKind[T, P, V]) location(obj P) string {
	return "/v1/accounts/" + string(k.owner(obj)) + "/" + k.path + "/" + obj.GetName()
}

// anyView is the replayed view of a child, with is_primary as the account has it now.
func (k childKind[T, P, V]) anyView(s *Server, r *http.Request, owner *investv1.Account) func(P) any {
	return func(obj P) any { return k.view(obj, s.fresh(r, owner)) }
}

// replay answers a retry of a request whose child exists under name (replayNamed).
func (k childKind[T, P, V]) replay(s *Server, w http.ResponseWriter, r *http.Request, idem *idempotency, owner *investv1.Account, name string) bool {
	return replayNamed(s, w, r, idem, name, k.location, k.anyView(s, r, owner))
}

// ownerOf is the account a POST of a child of the kind goes to, once the body is read and
// the new child checked by its rules (fe: what they refused): it answers the 422 of fe or
// the 404 of the account itself, and returns nil then.
func (k childKind[T, P, V]) ownerOf(s *Server, w http.ResponseWriter, r *http.Request, accountID string, fe validation.FieldErrors) *investv1.Account {
	if !fe.Empty() {
		writeValidation(w, fe)
		return nil
	}
	return s.account(w, r, accountID, k.gvk)
}

// created answers the POST that created obj, a child of a: it is made the account's
// primary child of its kind first when isPrimary is true (a new child is not primary
// unless asked; false needs no write), then 201 with its view and Location.
func (k childKind[T, P, V]) created(s *Server, w http.ResponseWriter, r *http.Request, a *investv1.Account, obj P, isPrimary *bool) {
	s.tracker.Written(obj)
	if deref(isPrimary) {
		if err := s.setPrimary(r.Context(), a, k.primary, obj.GetName()); err != nil {
			s.writeAPIError(w, r, err, nil)
			return
		}
	}
	w.Header().Set("Location", k.location(obj))
	writeJSON(w, http.StatusCreated, k.view(obj, a))
}

// list is the GET of an account's children of the kind: is_primary, skip, limit, and the
// kind's own filters, from which match makes the cache's field selector (from the
// account id and the parsed query). list receives the children, items reads them out.
// It answers errors itself; false then.
func (k childKind[T, P, V]) list(s *Server, w http.ResponseWriter, r *http.Request, filters []string,
	match func(accountID string, q *query) client.MatchingFields, list client.ObjectList, items func() []T) ([]V, bool) {
	accountID := chi.URLParam(r, "account_id")
	q := parseQuery(r, append(append([]string{"is_primary"}, filters...), pageParams...)...)
	primary := q.boolean("is_primary")
	pg := q.page()
	fields := match(accountID, q)
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return nil, false
	}
	a := s.account(w, r, accountID, k.gvk)
	if a == nil {
		return nil, false
	}
	if err := s.deps.Reader.List(r.Context(), list, client.InNamespace(tenantOf(r)), fields); err != nil {
		s.writeAPIError(w, r, err, nil)
		return nil, false
	}
	return k.page(items(), a, primary, pg), true
}

// Wallets.

// POST /v1/accounts/{account_id}/wallets. The wallet's id is derived from the account and
// the address, so a second registration of the address on the account, also a concurrent
// one, collides at the API server and answers 409 "Wallet already registered".
func (s *Server) createWallet(w http.ResponseWriter, r *http.Request) {
	var req WalletCreateRequest
	accountID, idem, fe, ok := decodeChildCreate(w, r, &req)
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
	a := wallets.ownerOf(s, w, r, accountID, bodyRules(rules.Wallet(&spec)))
	if a == nil {
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
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

// Payment method details.

// POST /v1/accounts/{account_id}/payment-method-details
func (s *Server) createPaymentMethod(w http.ResponseWriter, r *http.Request) {
	var req PaymentMethodDetailsCreateRequest
	accountID, idem, fe, ok := decodeChildCreate(w, r, &req)
	if !ok {
		return
	}
	typ := investv1.PaymentMethodType(deref(req.Type))
	spec := investv1.PaymentMethodDetailsSpec{
		AccountID: investv1.ObjectID(accountID), Type: typ,
		IBAN: validation.NormalizeIBAN(deref(req.IBAN)), AccountHolderName: deref(req.AccountHolderName),
	}
	mergeNew(&fe, bodyRules(rules.PaymentMethodDetails(&spec)))
	a := paymentMethods.ownerOf(s, w, r, accountID, fe)
	if a == nil {
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
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
