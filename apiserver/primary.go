package apiserver

import (
	"context"
	"fmt"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

// patchPrimary applies is_primary from a PATCH body to the account's pointer and
// answers the error itself; false means an answer was written.
func (s *Server) patchPrimary(w http.ResponseWriter, r *http.Request, a *investv1.Account, f primaryField, id string, isPrimary *bool) bool {
	err := s.applyPrimary(r.Context(), a, f, id, isPrimary)
	return !s.readFailed(w, r, err, nil, resAccount, a.Name)
}
