package webhooks

import (
	"context"
	"errors"
	"time"

	"k8s.io/utils/ptr"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
)

// +kubebuilder:webhook:path=/mutate-invest-fundshare-io-v1alpha1-wallet,mutating=true,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=wallets,verbs=create;update,versions=v1alpha1,name=mwallet.invest.fundshare.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-wallet,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=invest.fundshare.io,resources=wallets,verbs=create;update;delete,versions=v1alpha1,name=vwallet.invest.fundshare.io,admissionReviewVersions=v1

// WalletDuplicateMessage is the spec's error for an address registered twice on one
// account.
const WalletDuplicateMessage = "Wallet already registered"

type walletWebhook struct {
	r reader
	// c writes the address claims.
	c client.Client
}

// Default stores the address in its canonical EIP-55 form, so that the same address in
// another case is the same address.
func (h *walletWebhook) Default(_ context.Context, w *investv1.Wallet) error {
	if w.Spec.Chain == "" {
		w.Spec.Chain = investv1.ChainPolygon
	}
	if canonical, err := rules.WalletAddress(w.Spec.Chain, w.Spec.WalletAddress); err == nil {
		w.Spec.WalletAddress = canonical
	}
	return nil
}

func (h *walletWebhook) ValidateCreate(ctx context.Context, w *investv1.Wallet) (admission.Warnings, error) {
	errs := fromRules(rules.Wallet(&w.Spec))
	if err := accountExists(ctx, h.r, w.Namespace, w.Spec.AccountID, &errs); err != nil {
		return nil, err
	}
	var list investv1.WalletList
	key := index.WalletAddressKey(string(w.Spec.AccountID), w.Spec.WalletAddress)
	if err := h.r.cache.List(ctx, &list, client.InNamespace(w.Namespace), client.MatchingFields{index.WalletAddress: key}); err != nil {
		return nil, err
	}
	for _, other := range list.Items {
		if other.Name != w.Name {
			d := field.Duplicate(field.NewPath("spec", "walletAddress"), w.Spec.WalletAddress)
			d.Detail = WalletDuplicateMessage + " as wallet " + other.Name
			errs = append(errs, d)
			break
		}
	}
	if len(errs) > 0 {
		return nil, invalid("Wallet", w.Name, errs)
	}
	// The cache check above answers most duplicates; the claim makes the API server
	// refuse the rest, also when registrations arrive at the same instant.
	if req, err := admission.RequestFromContext(ctx); err == nil && ptr.Deref(req.DryRun, false) {
		return nil, nil
	}
	var claimed errClaimed
	switch err := claimAddress(ctx, h.c, h.r.live, w, time.Now()); {
	case errors.As(err, &claimed):
		d := field.Duplicate(field.NewPath("spec", "walletAddress"), w.Spec.WalletAddress)
		d.Detail = WalletDuplicateMessage + " as wallet " + claimed.Error()
		return nil, invalid("Wallet", w.Name, field.ErrorList{d})
	case err != nil:
		return nil, err
	}
	return nil, nil
}

func (h *walletWebhook) ValidateUpdate(context.Context, *investv1.Wallet, *investv1.Wallet) (admission.Warnings, error) {
	return nil, nil // every spec field is immutable (CEL)
}

// ValidateDelete refuses to delete a wallet that a live order delivers to, or that holds
// units on chain (the token is the register: units at an address no Wallet names any more
// would be stranded).
func (h *walletWebhook) ValidateDelete(ctx context.Context, w *investv1.Wallet) (admission.Warnings, error) {
	orders, err := liveOrders(ctx, h.r, w.Namespace, index.OrderWallet, index.OrderWalletKey, w.Name)
	if err != nil {
		return nil, err
	}
	if err := refuseDeletion("wallets", w.Name, orders); err != nil {
		return nil, err
	}
	return nil, h.refuseHolding(ctx, w)
}
