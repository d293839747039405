package webhooks

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-account,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=invest.fundshare.io,resources=accounts,verbs=create;update;delete,versions=v1alpha1,name=vaccount.invest.fundshare.io,admissionReviewVersions=v1

type accountWebhook struct {
	r reader
	// c writes the external id claims.
	c client.Client
}

func (h *accountWebhook) validate(ctx context.Context, a, old *investv1.Account) (admission.Warnings, error) {
	settings, err := tenantSettings(ctx, h.r, a.Namespace)
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

func (h *accountWebhook) ValidateCreate(ctx context.Context, a *investv1.Account) (admission.Warnings, error) {
	return h.validate(ctx, a, nil)
}

func (h *accountWebhook) ValidateUpdate(ctx context.Context, old, a *investv1.Account) (admission.Warnings, error) {
	if !a.DeletionTimestamp.IsZero() {
		return nil, nil // finalizer removal while deleting
	}
	return h.validate(ctx, a, old)
}

// ValidateDelete refuses to delete an account while one of its orders is not terminal.
func (h *accountWebhook) ValidateDelete(ctx context.Context, a *investv1.Account) (admission.Warnings, error) {
	orders, err := liveOrders(ctx, h.r, a.Namespace, index.OrderAccount, a.Name)
	if err != nil {
		return nil, err
	}
	return nil, refuseDeletion("accounts", a.Name, orders)
}
