package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fundshare/fundshare-operator/internal/refusal"

	"github.com/fundshare/fundshare-operator/internal/tenant"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-tenancy,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=accounts;wallets;paymentmethoddetails;orders;customofferings;webhookendpoints,verbs=create,versions=v1alpha1,name=vtenancy.invest.fundshare.io,admissionReviewVersions=v1

// TenancyPath is where the tenancy webhook serves.
const TenancyPath = "/validate-invest-fundshare-io-v1alpha1-tenancy"

// A namespace is a tenant when it holds exactly one ApiClient: REST calls with that
// client's token are confined to it. Tenant objects (accounts, wallets, payment method
// details, orders, custom offerings, webhook endpoints) anywhere else would be seen by no one, so admission
// refuses to create them there.

// TenantResources are the resources that live only in a tenant's namespace.
var TenantResources = []string{"accounts", "wallets", "paymentmethoddetails", "orders", "customofferings", "webhookendpoints"}

// tenancyDecision is the pure rule: given the names of the ApiClients of a namespace, may
// a tenant object be created there, and if not, why.
func tenancyDecision(namespace string, clients []string) error {
	switch len(clients) {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("namespace %s is not a tenant: it has no ApiClient. Create the tenant's ApiClient "+
			"in this namespace first (fundsharectl tenant prints it; with GitOps, apply it before the tenant's objects)", namespace)
	default:
		return fmt.Errorf("namespace %s has %d ApiClients (%s): a tenant has exactly one; delete all but one",
			namespace, len(clients), strings.Join(clients, ", "))
	}
}

// namespaceClients lists the names of the namespace's ApiClients that are not being
// deleted (tenant.APIClients: the cache, and the API server when the cache shows none
// yet, as when GitOps applies an ApiClient and the first account in one go).
func namespaceClients(ctx context.Context, r reader, namespace string) ([]string, error) {
	clients, err := tenant.APIClients(ctx, r.tenant(), namespace)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(clients))
	for i := range clients {
		if clients[i].DeletionTimestamp.IsZero() {
			names = append(names, clients[i].Name)
		}
	}
	return names, nil
}

// tenancyWebhook refuses tenant objects outside a tenant's namespace. It serves every
// tenant kind at one path, so the rule is written once (the kinds' own webhooks check
// their fields).
type tenancyWebhook struct{ r reader }

func (h *tenancyWebhook) Handle(ctx context.Context, req admission.Request) admission.Response {
	if req.Operation != admissionv1.Create {
		return admission.Allowed("")
	}
	clients, err := namespaceClients(ctx, h.r, req.Namespace)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	if err := tenancyDecision(req.Namespace, clients); err != nil {
		return admission.Response{AdmissionResponse: admissionv1.AdmissionResponse{
			Allowed: false,
			Result:  &refusal.Forbidden(req.Resource.Resource, req.Name, err).ErrStatus,
		}}
	}
	return admission.Allowed("")
}
