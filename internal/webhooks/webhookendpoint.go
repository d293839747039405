package webhooks

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-webhookendpoint,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=webhookendpoints,verbs=create;update,versions=v1alpha1,name=vwebhookendpoint.invest.fundshare.io,admissionReviewVersions=v1

// webhookEndpointWebhook checks a webhook endpoint by the rule REST applies
// (rules.WebhookEndpoint): kubectl users get the same messages.
type webhookEndpointWebhook struct{ r reader }

func (h *webhookEndpointWebhook) ValidateCreate(_ context.Context, e *investv1.WebhookEndpoint) (admission.Warnings, error) {
	return nil, invalid("WebhookEndpoint", e.Name, fromRules(rules.WebhookEndpoint(&e.Spec, h.r.egress)))
}

func (h *webhookEndpointWebhook) ValidateUpdate(_ context.Context, _, e *investv1.WebhookEndpoint) (admission.Warnings, error) {
	return nil, invalid("WebhookEndpoint", e.Name, fromRules(rules.WebhookEndpoint(&e.Spec, h.r.egress)))
}

func (h *webhookEndpointWebhook) ValidateDelete(context.Context, *investv1.WebhookEndpoint) (admission.Warnings, error) {
	return nil, nil
}
