package apiserver

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Primary flags (ARCHITECTURE.md "Primary flags"): the account holds the pointer to its
// primary wallet and its primary payment method details, so "only one primary per
// account" holds by construction and a change is one atomic write of one object.

// primaryField names an account pointer: its JSON name in the spec.
type primaryField string

const (
	primaryWallet        primaryField = "primaryWallet"
	primaryPaymentMethod primaryField = "primaryPaymentMethodDetails"
)

func (f primaryField) of(a *investv1.Account) string {
	if f == primaryWallet {
		return a.Spec.PrimaryWallet
	}
	return a.Spec.PrimaryPaymentMethodDetails
}

// setPrimary points the account at child with one JSON merge patch: atomic, and with
// concurrent requests the last writer wins. a is updated to the answer.
func (s *Server) setPrimary(ctx context.Context, a *investv1.Account, f primaryField, child string) error {
	patch := fmt.Appendf(nil, `{"spec":{%q:%q}}`, string(f), child)
	if err := s.deps.Writer.Patch(ctx, a, client.RawPatch(types.MergePatchType, patch), fieldOwner); err != nil {
		return err
	}
	s.tracker.Written(a)
	return nil
}

// clearPrimary removes the pointer only while it still names child: a JSON Patch whose
// test operation makes the API server refuse it when another request has meanwhile made
// another child primary (or cleared it). Refused that way, there is nothing to clear.
// a is updated to the account as it is afterwards.
func (s *Server) clearPrimary(ctx context.Context, a *investv1.Account, f primaryField, child string) error {
	path := "/spec/" + string(f)
	patch := fmt.Appendf(nil, `[{"op":"test","path":%q,"value":%q},{"op":"remove","path":%q}]`, path, child, path)
	err := s.deps.Writer.Patch(ctx, a, client.RawPatch(types.JSONPatchType, patch), fieldOwner)
	if err == nil {
		s.tracker.Written(a)
		return nil
	}
	// A failed test is a 422 without causes; admission or schema refusals carry causes.
	if !apierrors.IsInvalid(err) || len(statusCauses(err)) > 0 {
		return err
	}
	fresh := &investv1.Account{}
	if gerr := s.deps.APIReader.Get(ctx, client.ObjectKeyFromObject(a), fresh); gerr != nil {
		return gerr
	}
	if f.of(fresh) == child {
		return err // refused for another reason
	}
	*a = *fresh
	return nil
}

// applyPrimary sets or clears the pointer as the request asks (nil: leave it).
func (s *Server) applyPrimary(ctx context.Context, a *investv1.Account, f primaryField, child string, want *bool) error {
	switch {
	case want == nil:
		return nil
	case *want:
		return s.setPrimary(ctx, a, f, child)
	default:
		return s.clearPrimary(ctx, a, f, child)
	}
}

// accountChild reads the object named by the URL parameter param, a child of the
// account in the path; it answers 404 itself (for the account or the child, also when
// the child belongs to another account) and returns nil then.
func accountChild[T any, PT interface {
	*T
	client.Object
}](s *Server, w http.ResponseWriter, r *http.Request, param, resource string, gvk schema.GroupVersionKind, owner func(PT) investv1.ObjectID) (*investv1.Account, PT) {
	accountID, id := chi.URLParam(r, "account_id"), chi.URLParam(r, param)
	a := s.account(w, r, accountID, gvk)
	if a == nil {
		return nil, nil
	}
	obj := PT(new(T))
	err := s.get(r.Context(), tenantOf(r), id, obj)
	switch {
	case apierrors.IsNotFound(err) || err == nil && string(owner(obj)) != accountID:
		writeNotFound(w, resource, id)
		return nil, nil
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return nil, nil
	}
	return a, obj
}

// patchPrimary applies is_primary from a PATCH body to the account's pointer and
// answers the error itself; false means an answer was written.
func (s *Server) patchPrimary(w http.ResponseWriter, r *http.Request, a *investv1.Account, f primaryField, id string, isPrimary *bool) bool {
	err := s.applyPrimary(r.Context(), a, f, id, isPrimary)
	switch {
	case apierrors.IsNotFound(err):
		writeNotFound(w, resAccount, a.Name)
		return false
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return false
	}
	return true
}

// primaryPage keeps the children whose is_primary (the account's pointer equals their
// name) matches the filter, when one is given, and returns the views of one page.
func primaryPage[T any, PT interface {
	*T
	client.Object
}, V any](items []T, pointer string, primary *bool, pg page, view func(PT) V) []V {
	kept := items[:0]
	for i := range items {
		if primary == nil || *primary == (pointer == PT(&items[i]).GetName()) {
			kept = append(kept, items[i])
		}
	}
	out := []V{}
	for _, item := range paginate[T, PT](kept, pg) {
		out = append(out, view(PT(&item)))
	}
	return out
}

// updateChildPrimary is the PATCH of an account's wallet or payment method details: only
// is_primary may change (patchPrimary); refused names the fields that cannot. req is the
// request struct and isPrimary its field.
func updateChildPrimary[T any, P interface {
	*T
	client.Object
}, V any](s *Server, w http.ResponseWriter, r *http.Request, req any, isPrimary **bool, refused map[string]string,
	child func(http.ResponseWriter, *http.Request) (*investv1.Account, P), f primaryField, view func(P, *investv1.Account) V) {
	fe, ok := decodeBody(w, r, req, refused, "application/json", "application/merge-patch+json")
	if !ok {
		return
	}
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	a, obj := child(w, r)
	if obj == nil {
		return
	}
	if s.patchPrimary(w, r, a, f, obj.GetName(), *isPrimary) {
		writeJSON(w, http.StatusOK, view(obj, a))
	}
}

// getChild is the GET of an account's wallet or payment method details.
func getChild[T any, P interface {
	*T
	client.Object
}, V any](w http.ResponseWriter, r *http.Request, child func(http.ResponseWriter, *http.Request) (*investv1.Account, P), view func(P, *investv1.Account) V) {
	if a, obj := child(w, r); obj != nil {
		writeJSON(w, http.StatusOK, view(obj, a))
	}
}
