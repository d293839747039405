package apiserver

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
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
