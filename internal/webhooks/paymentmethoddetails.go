package webhooks

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-paymentmethoddetails,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=paymentmethoddetails,verbs=create;update,versions=v1alpha1,name=mpaymentmethoddetails.invest.fundshare.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-paymentmethoddetails,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=paymentmethoddetails,verbs=create;update;delete,versions=v1alpha1,name=vpaymentmethoddetails.invest.fundshare.io,admissionReviewVersions=v1

type paymentMethodWebhook struct{ r reader }

// Default removes spaces from the IBAN and upper-cases it, so that kubectl users may
// write it as printed on a bank statement.
func (h *paymentMethodWebhook) Default(_ context.Context, p *investv1.PaymentMethodDetails) error {
	if p.Spec.Type == "" {
		p.Spec.Type = investv1.PaymentMethodSEPA
	}
	p.Spec.IBAN = validation.NormalizeIBAN(p.Spec.IBAN)
	return nil
}

func (h *paymentMethodWebhook) ValidateCreate(ctx context.Context, p *investv1.PaymentMethodDetails) (admission.Warnings, error) {
	errs := fromRules(rules.PaymentMethodDetails(&p.Spec))
	if err := accountExists(ctx, h.r, p.Namespace, p.Spec.AccountID, &errs); err != nil {
		return nil, err
	}
	return nil, invalid("PaymentMethodDetails", p.Name, errs)
}

func (h *paymentMethodWebhook) ValidateUpdate(_ context.Context, _, p *investv1.PaymentMethodDetails) (admission.Warnings, error) {
	return nil, invalid("PaymentMethodDetails", p.Name, fromRules(rules.PaymentMethodDetails(&p.Spec)))
}

// ValidateDelete refuses to delete a bank account that a live order pays from.
func (h *paymentMethodWebhook) ValidateDelete(ctx context.Context, p *investv1.PaymentMethodDetails) (admission.Warnings, error) {
	orders, err := liveOrders(ctx, h.r, p.Namespace, index.OrderPaymentMethod, index.OrderPaymentMethodKey, p.Name)
	if err != nil {
		return nil, err
	}
	return nil, refuseDeletion("paymentmethoddetails", p.Name, orders)
}
