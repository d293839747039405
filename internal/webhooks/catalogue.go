package webhooks

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-shareclass,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=shareclasses,verbs=create;update,versions=v1alpha1,name=vshareclass.invest.fundshare.io,admissionReviewVersions=v1

type shareClassWebhook struct{ r reader }

// validate checks the ISIN's check digit and that no other share class has the ISIN.
func (h *shareClassWebhook) validate(ctx context.Context, sc *investv1.ShareClass) (admission.Warnings, error) {
	var errs field.ErrorList
	isin := field.NewPath("spec", "isin")
	if err := validation.ValidateISIN(string(sc.Spec.ISIN)); err != nil {
		errs = append(errs, field.Invalid(isin, sc.Spec.ISIN, err.Error()))
	}
	var list investv1.ShareClassList
	if err := h.r.cache.List(ctx, &list, client.MatchingFields{index.ShareClassISIN: string(sc.Spec.ISIN)}); err != nil {
		return nil, err
	}
	for _, other := range list.Items {
		if other.Name != sc.Name {
			errs = append(errs, field.Duplicate(isin, sc.Spec.ISIN))
			break
		}
	}
	return nil, invalid("ShareClass", sc.Name, errs)
}

func (h *shareClassWebhook) ValidateCreate(ctx context.Context, sc *investv1.ShareClass) (admission.Warnings, error) {
	return h.validate(ctx, sc)
}

func (h *shareClassWebhook) ValidateUpdate(ctx context.Context, _, sc *investv1.ShareClass) (admission.Warnings, error) {
	return h.validate(ctx, sc)
}

func (h *shareClassWebhook) ValidateDelete(context.Context, *investv1.ShareClass) (admission.Warnings, error) {
	return nil, nil
}
