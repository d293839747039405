package webhooks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/refusal"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-apiclient,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=invest.fundshare.io,resources=apiclients,verbs=create;update;delete,versions=v1alpha1,name=vapiclient.invest.fundshare.io,admissionReviewVersions=v1

// DefaultClaimNamespace holds the cluster-wide claims (client ids) when the operator's
// namespace is not configured; every cluster has it.
const DefaultClaimNamespace = "default"

// apiClientWebhook keeps the two uniqueness rules of API clients, by claims (claims.go),
// so that the API server enforces them on every path and under concurrency:
//   - a client id is held by one ApiClient in the cluster (a token is issued by client id);
//     its claim lives in the operator's namespace;
//   - a namespace holds at most one ApiClient (the namespace is the client's tenant); its
//     claim lives in that namespace.
//
// It also refuses to delete the ApiClient of a namespace that still holds tenant objects:
// they would be orphaned, seen by no one.
type apiClientWebhook struct {
	r reader
	c client.Client
	// claimNamespace holds the client id claims.
	claimNamespace string
}

// ClientIDClaimName is the name of the claim on a client id.
func ClientIDClaimName(clientID string) string { return claimName("apiclient-client-id", clientID) }

// TenantClaimName is the name of the claim on a namespace by its ApiClient.
func TenantClaimName(namespace string) string { return claimName("apiclient-tenant", namespace) }

func (h *apiClientWebhook) validate(ctx context.Context, ac, old *investv1.ApiClient) (admission.Warnings, error) {
	idPath := field.NewPath("spec", "clientID")
	// The cache answers most duplicates at once, with the other client's name.
	var list investv1.ApiClientList
	if err := h.r.cache.List(ctx, &list, client.MatchingFields{index.ApiClientID: ac.Spec.ClientID}); err != nil {
		return nil, err
	}
	for _, other := range list.Items {
		if other.Namespace != ac.Namespace || other.Name != ac.Name {
			d := field.Duplicate(idPath, ac.Spec.ClientID)
			d.Detail = "client id already used by ApiClient " + other.Namespace + "/" + other.Name
			return nil, invalid("ApiClient", ac.Name, field.ErrorList{d})
		}
	}
	if req, err := admission.RequestFromContext(ctx); err == nil && ptr.Deref(req.DryRun, false) {
		return nil, nil
	}
	now := time.Now()
	var claimed errClaimed
	if old == nil {
		err := claim{
			namespace: ac.Namespace, name: TenantClaimName(ac.Namespace), holder: ac.Name,
			labels: map[string]string{"app.kubernetes.io/managed-by": "fundshare-operator"},
			holds: func(ctx context.Context, holder string) (bool, error) {
				other := &investv1.ApiClient{}
				err := h.r.live.Get(ctx, client.ObjectKey{Namespace: ac.Namespace, Name: holder}, other)
				if apierrors.IsNotFound(err) {
					return false, nil
				}
				return err == nil, err
			},
		}.take(ctx, h.c, h.r.live, now)
		switch {
		case errors.As(err, &claimed):
			return nil, refusal.Forbidden("apiclients", ac.Name,
				fmt.Errorf("namespace %s already has ApiClient %s: a tenant's namespace holds exactly one ApiClient; "+
					"create this one in a namespace of its own", ac.Namespace, claimed.Error()))
		case err != nil:
			return nil, err
		}
	}
	if old != nil && old.Spec.ClientID == ac.Spec.ClientID {
		return nil, nil
	}
	holder := ac.Namespace + "/" + ac.Name
	err := claim{
		namespace: h.claimNamespace, name: ClientIDClaimName(ac.Spec.ClientID), holder: holder,
		labels: map[string]string{"app.kubernetes.io/managed-by": "fundshare-operator"},
		holds: func(ctx context.Context, holder string) (bool, error) {
			ns, name, _ := strings.Cut(holder, "/")
			other := &investv1.ApiClient{}
			err := h.r.live.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, other)
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil && other.Spec.ClientID == ac.Spec.ClientID, err
		},
	}.take(ctx, h.c, h.r.live, now)
	switch {
	case errors.As(err, &claimed):
		d := field.Duplicate(idPath, ac.Spec.ClientID)
		d.Detail = "client id already used by ApiClient " + claimed.Error()
		return nil, invalid("ApiClient", ac.Name, field.ErrorList{d})
	case err != nil:
		return nil, err
	}
	return nil, nil
}

func (h *apiClientWebhook) ValidateCreate(ctx context.Context, ac *investv1.ApiClient) (admission.Warnings, error) {
	return h.validate(ctx, ac, nil)
}

func (h *apiClientWebhook) ValidateUpdate(ctx context.Context, old, ac *investv1.ApiClient) (admission.Warnings, error) {
	if !ac.DeletionTimestamp.IsZero() {
		return nil, nil
	}
	return h.validate(ctx, ac, old)
}

// ValidateDelete refuses to delete the ApiClient of a namespace that still holds tenant
// objects. To stop a client's access, disable it (spec.disabled) instead.
func (h *apiClientWebhook) ValidateDelete(ctx context.Context, ac *investv1.ApiClient) (admission.Warnings, error) {
	clients, err := namespaceClients(ctx, h.r, ac.Namespace)
	if err != nil {
		return nil, err
	}
	if len(clients) > 1 {
		return nil, nil // one of several (made before the rule): deleting it mends the tenant
	}
	var held []string
	for _, l := range []struct {
		list client.ObjectList
		kind string
	}{
		{&investv1.AccountList{}, "accounts"}, {&investv1.WalletList{}, "wallets"},
		{&investv1.PaymentMethodDetailsList{}, "paymentmethoddetails"}, {&investv1.OrderList{}, "orders"},
		{&investv1.CustomOfferingList{}, "customofferings"}, {&investv1.WebhookEndpointList{}, "webhookendpoints"},
	} {
		if err := h.r.cache.List(ctx, l.list, client.InNamespace(ac.Namespace)); err != nil {
			return nil, err
		}
		n := meta.LenList(l.list)
		if n == 0 && h.r.live != nil {
			// An object created a moment ago may not be in the cache yet.
			if err := h.r.live.List(ctx, l.list, client.InNamespace(ac.Namespace), client.Limit(1)); err != nil {
				return nil, err
			}
			if meta.LenList(l.list) > 0 {
				held = append(held, l.kind)
			}
			continue
		}
		held = append(held, fmt.Sprintf("%s (%d)", l.kind, n))
	}
	if len(held) == 0 {
		return nil, nil
	}
	return nil, refusal.Forbidden("apiclients", ac.Name,
		fmt.Errorf("namespace %s still holds %s of this tenant: delete them first (accounts that hold units or live orders "+
			"cannot be deleted); to stop the client's access now, set spec.disabled: true", ac.Namespace, strings.Join(held, ", ")))
}
