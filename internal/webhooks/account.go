package webhooks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/tenant"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-account,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=invest.fundshare.io,resources=accounts,verbs=create;update;delete,versions=v1alpha1,name=vaccount.invest.fundshare.io,admissionReviewVersions=v1

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-account,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=accounts,verbs=create,versions=v1alpha1,name=maccount.invest.fundshare.io,admissionReviewVersions=v1

// AccountFinalizer is investv1.AccountFinalizer.
const AccountFinalizer = investv1.AccountFinalizer

type accountWebhook struct {
	r reader
	// c writes the external id claims.
	c client.Client
}

func (h *accountWebhook) validate(ctx context.Context, a, old *investv1.Account) (admission.Warnings, error) {
	settings, err := tenant.Settings(ctx, h.r.tenant(), a.Namespace)
	if err != nil {
		return nil, err
	}
	var errs field.ErrorList
	if old == nil {
		errs = fromRules(rules.Account(&a.Spec, settings, time.Now()))
	} else {
		errs = fromRules(rules.AccountUpdate(&a.Spec, &old.Spec, settings, time.Now()))
	}
	if a.Spec.ExternalID != "" && (old == nil || old.Spec.ExternalID != a.Spec.ExternalID) {
		var list investv1.AccountList
		if err := h.r.cache.List(ctx, &list, client.InNamespace(a.Namespace), client.MatchingFields{index.AccountExternalID: a.Spec.ExternalID}); err != nil {
			return nil, err
		}
		for _, other := range list.Items {
			if other.Name != a.Name {
				errs = append(errs, field.Duplicate(field.NewPath("spec", "externalID"), a.Spec.ExternalID))
				break
			}
		}
	}
	if len(errs) > 0 || a.Spec.ExternalID == "" || (old != nil && old.Spec.ExternalID == a.Spec.ExternalID) {
		return nil, invalid("Account", a.Name, errs)
	}
	// The cache check above answers most duplicates; the claim makes the API server
	// refuse the rest, also when two accounts with one external id arrive at once.
	if req, err := admission.RequestFromContext(ctx); err == nil && ptr.Deref(req.DryRun, false) {
		return nil, nil
	}
	var claimed errClaimed
	switch err := claimExternalID(ctx, h.c, h.r.live, a, time.Now()); {
	case errors.As(err, &claimed):
		d := field.Duplicate(field.NewPath("spec", "externalID"), a.Spec.ExternalID)
		d.Detail = "already used by account " + claimed.Error()
		return nil, invalid("Account", a.Name, field.ErrorList{d})
	case err != nil:
		return nil, err
	}
	return nil, nil
}

// Default puts the account finalizer on every new account, so that no account is ever
// deleted without the account controller's cascade and its check of what the account
// holds (the controller also adds it to accounts made before this webhook).
func (h *accountWebhook) Default(_ context.Context, a *investv1.Account) error {
	if !slices.Contains(a.Finalizers, AccountFinalizer) {
		a.Finalizers = append(a.Finalizers, AccountFinalizer)
	}
	return nil
}

func (h *accountWebhook) ValidateCreate(ctx context.Context, a *investv1.Account) (admission.Warnings, error) {
	return h.validate(ctx, a, nil)
}

func (h *accountWebhook) ValidateUpdate(ctx context.Context, old, a *investv1.Account) (admission.Warnings, error) {
	if !a.DeletionTimestamp.IsZero() {
		return nil, nil // finalizer removal while deleting
	}
	return h.validate(ctx, a, old)
}

// ValidateDelete refuses to delete an account that holds something: units (from its
// completed orders), units reserved for a sell, or an order that is not terminal. Nothing
// a customer owns may vanish with a kubectl delete; the account finalizer checks the same
// before it removes anything (controllers/account).
func (h *accountWebhook) ValidateDelete(ctx context.Context, a *investv1.Account) (admission.Warnings, error) {
	// Archived orders count (their lots are units the customer owns): live orders first,
	// then the archive (history.Load says why in that order). While the archive
	// cannot be read the deletion is refused with the error.
	now := time.Now()
	hist, err := history.Load(ctx, h.r.cache, h.r.archive, a, now)
	if err != nil {
		return nil, err
	}
	held := holdings.DeletionBlockers(hist.Live, hist.Archived, a.Status.Reservations, now, hist.Transfers...)
	if len(held) == 0 {
		// The cache may lag behind an order placed or completed a moment ago: confirm
		// with the API server before letting the account go.
		confirmed, err := confirmedOrders(ctx, h.r, a.Namespace, func(o *investv1.Order) bool { return o.Spec.AccountID == investv1.ObjectID(a.Name) })
		if err != nil {
			return nil, err
		}
		var archived *holdings.Summary
		if h.r.archive != nil {
			if archived, err = history.ArchivedSummary(ctx, h.r.archive, a, confirmed, hist.LockUps, now); err != nil {
				return nil, err
			}
		}
		held = holdings.DeletionBlockers(confirmed, archived, a.Status.Reservations, now, hist.Transfers...)
	}
	if len(held) > 0 {
		return nil, refusal.Forbidden("accounts", a.Name,
			errors.New(strings.Join(held, "; ")+": an account that holds units or has live orders cannot be deleted; "+
				"sell the units and let every order complete or cancel it first"))
	}
	return nil, nil
}
