package webhooks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/placement"
)

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-order,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=orders,verbs=create,versions=v1alpha1,name=morder.invest.fundshare.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-order,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=orders,verbs=create;update;delete,versions=v1alpha1,name=vorder.invest.fundshare.io,admissionReviewVersions=v1

// orderPaths maps placement's REST field names to the Order's JSON paths.
var orderPaths = map[string]*field.Path{
	"account_id":                field.NewPath("spec", "accountID"),
	"isin":                      field.NewPath("spec", "isin"),
	"currency":                  field.NewPath("spec", "currency"),
	"amount_of_units":           field.NewPath("spec", "amountOfUnits"),
	"market":                    field.NewPath("spec", "market"),
	"wallet_id":                 field.NewPath("spec", "walletID"),
	"payment_method_details_id": field.NewPath("spec", "paymentMethodDetailsID"),
	"custom_offering_id":        field.NewPath("spec", "customOfferingID"),
}

type orderWebhook struct {
	r   reader
	now func() time.Time
}

// Default places the order: it checks the placement rules and fixes the quote from the
// latest NAV. A value of spec.quote supplied by the client is replaced. Refusals are
// answered here, with field paths, so kubectl users read what REST users read.
func (h *orderWebhook) Default(ctx context.Context, o *investv1.Order) error {
	res, err := placement.Place(ctx, placement.Readers{Cache: h.r.cache, Live: h.r.live}, o, h.now())
	if err != nil {
		return err
	}
	var errs field.ErrorList
	switch {
	case res.NotFound != nil:
		errs = append(errs, field.NotFound(orderPaths[res.NotFound.Field], res.NotFound.ID))
	case !res.Fields.Empty():
		for _, k := range slices.Sorted(maps.Keys(res.Fields)) {
			for _, msg := range res.Fields[k] {
				errs = append(errs, field.Invalid(orderPaths[k], field.OmitValueType{}, msg))
			}
		}
	case res.Rule != nil:
		errs = append(errs, field.Forbidden(orderPaths[res.Rule.Field], res.Rule.Code+": "+res.Rule.Message))
	}
	if len(errs) > 0 {
		return invalid("Order", o.Name, errs)
	}
	o.Spec.Quote = res.Quote
	return nil
}

func (h *orderWebhook) ValidateCreate(_ context.Context, o *investv1.Order) (admission.Warnings, error) {
	if o.Spec.Quote == nil {
		return nil, invalid("Order", o.Name, field.ErrorList{field.Required(field.NewPath("spec", "quote"), "set by the order admission webhook at placement")})
	}
	return nil, nil
}

// ValidateUpdate refuses a cancellation request on a terminal order: nothing changes and
// the caller learns the state.
func (h *orderWebhook) ValidateUpdate(_ context.Context, old, o *investv1.Order) (admission.Warnings, error) {
	if o.Spec.CancellationRequested && !old.Spec.CancellationRequested && old.Status.State.Terminal() {
		return nil, TerminalOrderError(old)
	}
	return nil, nil
}

// ValidateDelete keeps a live order and its history: only terminal orders may be deleted.
func (h *orderWebhook) ValidateDelete(_ context.Context, o *investv1.Order) (admission.Warnings, error) {
	if o.Status.State.Terminal() {
		return nil, nil
	}
	return nil, apierrors.NewForbidden(schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "orders"}, o.Name,
		fmt.Errorf("the order is %s: only COMPLETED or CANCELLED orders may be deleted; request a cancellation first", stateOf(o)))
}

// TerminalOrderError is the refusal to cancel a terminal order (REST answers 409).
func TerminalOrderError(o *investv1.Order) error {
	return apierrors.NewConflict(schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "orders"}, o.Name,
		fmt.Errorf("the order is %s, a terminal state: it cannot be cancelled", o.Status.State))
}

// IsTerminalOrderError reports whether err is TerminalOrderError's refusal, also after a
// round trip through the API server.
func IsTerminalOrderError(err error) bool {
	var status apierrors.APIStatus
	return errors.As(err, &status) && apierrors.IsConflict(err) && strings.Contains(status.Status().Message, "a terminal state: it cannot be cancelled")
}
