package webhooks

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-walletrecovery,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=walletrecoveries,verbs=create,versions=v1alpha1,name=vwalletrecovery.invest.fundshare.io,admissionReviewVersions=v1

// walletRecoveryWebhook admits a lost-key recovery only between two wallets of its account
// with different addresses, to a registered replacement (rules.WalletRecovery, which REST
// checks too). The spec is immutable (CRD rule), so only creation is checked.
type walletRecoveryWebhook struct{ r reader }

func (h *walletRecoveryWebhook) ValidateCreate(ctx context.Context, rec *investv1.WalletRecovery) (admission.Warnings, error) {
	from, err := h.wallet(ctx, rec.Namespace, rec.Spec.AccountID, rec.Spec.FromWalletID)
	if err != nil {
		return nil, err
	}
	to, err := h.wallet(ctx, rec.Namespace, rec.Spec.AccountID, rec.Spec.ToWalletID)
	if err != nil {
		return nil, err
	}
	errs := fromRules(rules.WalletRecovery(&rec.Spec, from, to))
	if err := accountExists(ctx, h.r, rec.Namespace, rec.Spec.AccountID, &errs); err != nil {
		return nil, err
	}
	return nil, invalid("WalletRecovery", rec.Name, errs)
}

func (h *walletRecoveryWebhook) ValidateUpdate(context.Context, *investv1.WalletRecovery, *investv1.WalletRecovery) (admission.Warnings, error) {
	return nil, nil
}

func (h *walletRecoveryWebhook) ValidateDelete(context.Context, *investv1.WalletRecovery) (admission.Warnings, error) {
	return nil, nil
}

// wallet reads the wallet id of account in namespace (the API server when the cache has
// not seen it yet); nil when there is none.
func (h *walletRecoveryWebhook) wallet(ctx context.Context, namespace string, account, id investv1.ObjectID) (*investv1.Wallet, error) {
	if id == "" {
		return nil, nil
	}
	w := &investv1.Wallet{}
	key := client.ObjectKey{Namespace: namespace, Name: string(id)}
	err := h.r.cache.Get(ctx, key, w)
	if apierrors.IsNotFound(err) {
		err = h.r.live.Get(ctx, key, w)
	}
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	if w.Spec.AccountID != account || !w.DeletionTimestamp.IsZero() {
		return nil, nil
	}
	return w, nil
}
