package webhooks

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// ClaimName is the name of the claim on an address of an account.
func ClaimName(accountID, address string) string {
	return claimName("wallet-address", accountID+"/"+validation.EVMAddressKey(address))
}

// claimAddress takes the claim on w's address for w. A wallet's address is immutable, so
// a wallet holds its claim as long as it exists.
func claimAddress(ctx context.Context, c client.Client, live client.Reader, w *investv1.Wallet, now time.Time) error {
	return claim{
		namespace: w.Namespace, name: ClaimName(string(w.Spec.AccountID), w.Spec.WalletAddress), holder: w.Name,
		labels: map[string]string{LabelAccount: string(w.Spec.AccountID), "app.kubernetes.io/managed-by": "fundshare-operator"},
		holds: func(ctx context.Context, holder string) (bool, error) {
			err := live.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: holder}, &investv1.Wallet{})
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil, err
		},
	}.take(ctx, c, live, now)
}

// ExternalIDClaimName is the name of the claim on an external id in a tenant.
func ExternalIDClaimName(namespace, externalID string) string {
	return claimName("account-external-id", namespace+"/"+externalID)
}

// claimExternalID takes the claim on a's external id for a. An account holds it while it
// exists and still has that external id.
func claimExternalID(ctx context.Context, c client.Client, live client.Reader, a *investv1.Account, now time.Time) error {
	return claim{
		namespace: a.Namespace, name: ExternalIDClaimName(a.Namespace, a.Spec.ExternalID), holder: a.Name,
		labels: map[string]string{LabelAccount: a.Name, "app.kubernetes.io/managed-by": "fundshare-operator"},
		holds: func(ctx context.Context, holder string) (bool, error) {
			other := &investv1.Account{}
			err := live.Get(ctx, client.ObjectKey{Namespace: a.Namespace, Name: holder}, other)
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return err == nil && other.Spec.ExternalID == a.Spec.ExternalID, err
		},
	}.take(ctx, c, live, now)
}
