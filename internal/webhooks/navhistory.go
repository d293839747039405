package webhooks

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/money"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-navhistory,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=navhistories,verbs=update,versions=v1alpha1,name=vnavhistory.invest.fundshare.io,admissionReviewVersions=v1

// navHistoryWebhook refuses a NAV corrected after its strike: a price whose date is the
// dealing date of a struck Dealing (its NAV recorded) cannot change or go, so a
// correction is never applied silently to orders already priced (docs/dealing.md, "A NAV
// corrected after the strike").
type navHistoryWebhook struct{ r reader }

func (h *navHistoryWebhook) ValidateCreate(context.Context, *investv1.NAVHistory) (admission.Warnings, error) {
	return nil, nil
}

// ValidateUpdate names every changed or removed price of a struck dealing date.
func (h *navHistoryWebhook) ValidateUpdate(ctx context.Context, old, nh *investv1.NAVHistory) (admission.Warnings, error) {
	now := make(map[string]int, len(nh.Spec.Prices))
	for i, p := range nh.Spec.Prices {
		now[p.Date] = i
	}
	var errs field.ErrorList
	for _, p := range old.Spec.Prices {
		i, kept := now[p.Date]
		if kept && nh.Spec.Prices[i].NAVPerShare == p.NAVPerShare {
			continue
		}
		d := &investv1.Dealing{}
		err := h.r.live.Get(ctx, client.ObjectKey{Name: lifecycle.DealingName(old.Spec.ISIN, p.Date)}, d)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, err
		case d.Status.NAV == nil:
			continue
		}
		path := field.NewPath("spec", "prices")
		if kept {
			path = path.Index(i).Child("navPerShare")
		}
		errs = append(errs, field.Forbidden(path, fmt.Sprintf(
			"the NAV of %s was struck at %s (Dealing %s, %d orders priced at it): a struck NAV is not changed. "+
				"Keep the price as struck and settle the correction outside the operator with the investors of the dealing's contract notes "+
				"(kubectl get dealing %s; docs/dealing.md, \"A NAV corrected after the strike\")",
			p.Date, money.Format(d.Status.NAV.NAVPerShare, string(old.Spec.Currency)), d.Name, d.Status.Priced, d.Name)))
	}
	return nil, invalid("NAVHistory", nh.Name, errs)
}

func (h *navHistoryWebhook) ValidateDelete(context.Context, *investv1.NAVHistory) (admission.Warnings, error) {
	return nil, nil
}
