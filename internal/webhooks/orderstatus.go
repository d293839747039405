package webhooks

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/refusal"
)

// The API server calls this webhook only for status writes that change status.settlement
// (the match condition), so the order controller's transitions and conditions never wait
// for it, and a webhook outage stops only the recording of evidence.
// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-order-status,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=orders/status,verbs=update,versions=v1alpha1,name=vorderstatus.invest.fundshare.io,admissionReviewVersions=v1,patch=`{"matchConditions":[{"name":"settlement-evidence-changed","expression":"has(object.status) && has(object.status.settlement) && (!has(oldObject.status) || !has(oldObject.status.settlement) || object.status.settlement != oldObject.status.settlement)"}]}`

// OrderStatusPath is where the order status webhook serves.
const OrderStatusPath = "/validate-invest-fundshare-io-v1alpha1-order-status"

// orderStatusWebhook admits writes of an order's status (the status subresource): the
// settlement evidence they add must apply to the order (lifecycle.CheckEvidence), whoever writes
// it, a settlement agent or a person with kubectl.
type orderStatusWebhook struct{}

func (orderStatusWebhook) ValidateCreate(context.Context, *investv1.Order) (admission.Warnings, error) {
	return nil, nil
}

// ValidateUpdate refuses evidence that does not apply to the order as stored (old): of
// the other side, for a refund it does not owe, for a state it has left, or a completion
// before its start. Each refusal names status.settlement.<field> and its rule.
func (orderStatusWebhook) ValidateUpdate(_ context.Context, old, o *investv1.Order) (admission.Warnings, error) {
	refused := lifecycle.CheckEvidence(old, o.Status.Settlement)
	if len(refused) == 0 {
		return nil, nil
	}
	rules := make([]refusal.FieldRule, len(refused))
	for i, r := range refused {
		rules[i] = refusal.FieldRule{Path: field.NewPath("status", "settlement", r.Field), Code: string(r.Rule), Message: r.Message}
	}
	return nil, refusal.Rules(investv1.GroupVersion.WithKind("Order").GroupKind(), o.Name, rules...)
}

func (orderStatusWebhook) ValidateDelete(context.Context, *investv1.Order) (admission.Warnings, error) {
	return nil, nil
}
