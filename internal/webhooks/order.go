package webhooks

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/refusal"
)

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-order,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=orders,verbs=create,versions=v1alpha1,name=morder.invest.fundshare.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-order,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=orders,verbs=create;update;delete,versions=v1alpha1,name=vorder.invest.fundshare.io,admissionReviewVersions=v1

// orderPaths maps placement's REST field names to the Order's JSON paths.
var orderPaths = map[string]*field.Path{
	"account_id":                field.NewPath("spec", "accountID"),
	"isin":                      field.NewPath("spec", "isin"),
	"currency":                  field.NewPath("spec", "currency"),
	"amount_of_units":           field.NewPath("spec", "amountOfUnits"),
	"amount":                    field.NewPath("spec", "amount"),
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
	if o.Spec.CarriedFrom != "" {
		return h.carried(ctx, o)
	}
	res, err := placement.Place(ctx, placement.Readers{Cache: h.r.cache, Live: h.r.live, Archive: h.r.archive}, o, h.now())
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
		return refusal.Rule(investv1.GroupVersion.WithKind("Order").GroupKind(), o.Name, orderPaths[res.Rule.Field], res.Rule.Code, res.Rule.Message)
	}
	if len(errs) > 0 {
		return invalid("Order", o.Name, errs)
	}
	o.Spec.Quote = res.Quote
	return nil
}

// carried admits the order that deals the remainder of a gated SELL or of a SECONDARY
// order filled in part (spec.carriedFrom), which the strike and window controllers
// create: only when the order it names carries exactly this order's units forward to it,
// on the same side, with the same account, share class, wallet and bank account. It is
// not placed again (a SELL's units are already reserved, a BUY's money already paid); it
// takes the quote of the order it came from, at the dealing date or window its contract
// note names, and a BUY's amount is the money carried with the units.
func (h *orderWebhook) carried(ctx context.Context, o *investv1.Order) error {
	path := field.NewPath("spec", "carriedFrom")
	parent := &investv1.Order{}
	if err := h.r.live.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: string(o.Spec.CarriedFrom)}, parent); err != nil {
		if apierrors.IsNotFound(err) {
			return invalid("Order", o.Name, field.ErrorList{field.NotFound(path, o.Spec.CarriedFrom)})
		}
		return err
	}
	var c *investv1.OrderCarry
	if parent.Status.Strike != nil {
		c = parent.Status.Strike.CarriedForward
	}
	same := c != nil && string(c.Order) == o.Name && c.Units == o.Spec.AmountOfUnits && parent.Spec.Quote != nil &&
		o.Spec.Side == parent.Spec.Side && (o.Spec.Side == investv1.SideSell || c.Amount > 0 && parent.Spec.Quote.Window != nil) &&
		o.Spec.Market == parent.Spec.Market && o.Spec.ISIN == parent.Spec.ISIN &&
		o.Spec.Currency == parent.Spec.Currency && o.Spec.AccountID == parent.Spec.AccountID &&
		o.Spec.WalletID == parent.Spec.WalletID && o.Spec.PaymentMethodDetailsID == parent.Spec.PaymentMethodDetailsID &&
		o.Spec.CustomOfferingID == parent.Spec.CustomOfferingID && o.Spec.Amount == 0
	if !same {
		return invalid("Order", o.Name, field.ErrorList{field.Invalid(path, o.Spec.CarriedFrom,
			"only the strike and window controllers create a carried-forward order: the contract note of order "+string(o.Spec.CarriedFrom)+
				" carries no units forward to this order with these units, account, share class, wallet and bank account")})
	}
	q := parent.Spec.Quote.DeepCopy()
	if q.Window != nil {
		// A SECONDARY order's remainder deals in the window the parent's fill names; a
		// BUY's is paid with the money carried with it.
		q.Window = &investv1.OrderWindow{Date: c.DealingDate, Deadline: c.CutOff}
		if o.Spec.Side == investv1.SideBuy {
			q.Amount, q.PaymentDetails = c.Amount, nil // paid by the parent: no payment to ask for
		}
	} else {
		q.DealingDate, q.CutOff = c.DealingDate, c.CutOff.DeepCopy()
	}
	o.Spec.Quote = q
	return nil
}

func (h *orderWebhook) ValidateCreate(_ context.Context, o *investv1.Order) (admission.Warnings, error) {
	if o.Spec.Quote == nil {
		return nil, invalid("Order", o.Name, field.ErrorList{field.Required(field.NewPath("spec", "quote"), "set by the order admission webhook at placement")})
	}
	return nil, nil
}

// ValidateUpdate refuses a cancellation request past the point of no return
// (lifecycle.CancellableAt: a terminal order, a BUY from EXECUTED on, a SELL from EXECUTED
// on, a forward order past its cut-off): nothing changes and the caller learns the state. old is the order as stored, its
// status included, so the decision is made on the current state; a concurrent status
// write makes the API server retry the update, and admission with it.
func (h *orderWebhook) ValidateUpdate(_ context.Context, old, o *investv1.Order) (admission.Warnings, error) {
	if o.Spec.CancellationRequested && !old.Spec.CancellationRequested {
		if ok, _, reason := lifecycle.CancellableAt(old, h.now()); !ok {
			return nil, refusal.NotCancellable(old, reason)
		}
	}
	return nil, nil
}

// ValidateDelete keeps a live order and its history: only terminal orders that owe no
// refund may be deleted.
func (h *orderWebhook) ValidateDelete(_ context.Context, o *investv1.Order) (admission.Warnings, error) {
	if lifecycle.Done(o) {
		return nil, nil
	}
	if o.Status.State.Terminal() {
		return nil, refusal.Forbidden("orders", o.Name,
			fmt.Errorf("the order is %s but its refund %s is %s: it may be deleted once the refund is completed", o.Status.State, o.Status.Refund.Reference, lifecycle.RefundStateOf(o)))
	}
	return nil, refusal.Forbidden("orders", o.Name,
		fmt.Errorf("the order is %s: only COMPLETED or CANCELLED orders may be deleted; request a cancellation first", stateOf(o)))
}
