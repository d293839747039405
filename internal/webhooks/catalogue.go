package webhooks

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// +kubebuilder:webhook:path=/validate-invest-fundshare-io-v1alpha1-shareclass,mutating=false,failurePolicy=fail,sideEffects=None,groups=invest.fundshare.io,resources=shareclasses,verbs=create;update,versions=v1alpha1,name=vshareclass.invest.fundshare.io,admissionReviewVersions=v1

type shareClassWebhook struct{ r reader }

// validate checks the ISIN's check digit, that no other share class has the ISIN, and the
// dealing terms (their time zone).
func (h *shareClassWebhook) validate(ctx context.Context, sc *investv1.ShareClass) (admission.Warnings, error) {
	var errs field.ErrorList
	isin := field.NewPath("spec", "isin")
	if err := validation.ValidateISIN(string(sc.Spec.ISIN)); err != nil {
		errs = append(errs, field.Invalid(isin, sc.Spec.ISIN, err.Error()))
	}
	var list investv1.ShareClassList
	if err := h.r.cache.List(ctx, &list, client.MatchingFields{index.ShareClassISIN: string(sc.Spec.ISIN)}); err != nil {
		return nil, err
	}
	for _, other := range list.Items {
		if other.Name != sc.Name {
			errs = append(errs, field.Duplicate(isin, sc.Spec.ISIN))
			break
		}
	}
	if sc.Spec.Dealing != nil {
		// The schema checks the form of the terms; the time zone needs the IANA database.
		errs = append(errs, dealing.Validate(sc.Spec.Dealing, field.NewPath("spec", "dealing"))...)
	}
	if m := sc.Spec.Secondary; m != nil && m.CashOnChain != nil {
		errs = append(errs, validateCashOnChain(m.CashOnChain, field.NewPath("spec", "secondary", "cashOnChain"))...)
	}
	if tok := sc.Spec.Token; tok != nil && tok.Mode == investv1.TokenModeAdopt {
		tokErrs, err := h.validateTokenAddress(ctx, sc)
		if err != nil {
			return nil, err
		}
		errs = append(errs, tokErrs...)
	}
	return nil, invalid("ShareClass", sc.Name, errs)
}

// validateTokenAddress checks the EIP-55 checksum of an adopted token's address, and that no
// other share class adopts it: one token carries one share class's units.
func (h *shareClassWebhook) validateTokenAddress(ctx context.Context, sc *investv1.ShareClass) (field.ErrorList, error) {
	path := field.NewPath("spec", "token", "address")
	addr, err := validation.NormalizeEVMAddress(sc.Spec.Token.Address)
	if err != nil {
		return field.ErrorList{field.Invalid(path, sc.Spec.Token.Address, err.Error())}, nil
	}
	if addr == "0x0000000000000000000000000000000000000000" {
		return field.ErrorList{field.Invalid(path, sc.Spec.Token.Address, "must not be the zero address")}, nil
	}
	var all investv1.ShareClassList
	if err := h.r.cache.List(ctx, &all); err != nil {
		return nil, err
	}
	for _, other := range all.Items {
		if other.Name == sc.Name {
			continue
		}
		for _, used := range []string{tokenSpecAddress(&other), tokenStatusAddress(&other)} {
			if used != "" && strings.EqualFold(used, addr) {
				d := field.Duplicate(path, sc.Spec.Token.Address)
				d.Detail = "the token of share class " + string(other.Spec.ISIN) + " (" + other.Name + ")"
				return field.ErrorList{d}, nil
			}
		}
	}
	return nil, nil
}

// validateCashOnChain checks the addresses of a secondary market's cash leg: each with a
// valid EIP-55 checksum where it has mixed case, none the zero address, and the settlement
// contract and the cash token two different contracts.
func validateCashOnChain(c *investv1.CashOnChain, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	norm := map[string]string{}
	for _, a := range []struct{ name, value string }{{"settlement", c.Settlement}, {"cashToken", c.CashToken}, {"feeCollector", c.FeeCollector}} {
		addr, err := validation.NormalizeEVMAddress(a.value)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(path.Child(a.name), a.value, err.Error()))
		case addr == "0x0000000000000000000000000000000000000000":
			errs = append(errs, field.Invalid(path.Child(a.name), a.value, "must not be the zero address"))
		default:
			norm[a.name] = addr
		}
	}
	if s, t := norm["settlement"], norm["cashToken"]; s != "" && strings.EqualFold(s, t) {
		errs = append(errs, field.Invalid(path.Child("cashToken"), c.CashToken, "must not be the settlement contract"))
	}
	return errs
}

func tokenSpecAddress(sc *investv1.ShareClass) string {
	if sc.Spec.Token == nil {
		return ""
	}
	return sc.Spec.Token.Address
}

func tokenStatusAddress(sc *investv1.ShareClass) string {
	if sc.Status.Token == nil {
		return ""
	}
	return sc.Status.Token.Address
}

func (h *shareClassWebhook) ValidateCreate(ctx context.Context, sc *investv1.ShareClass) (admission.Warnings, error) {
	return h.validate(ctx, sc)
}

func (h *shareClassWebhook) ValidateUpdate(ctx context.Context, _, sc *investv1.ShareClass) (admission.Warnings, error) {
	return h.validate(ctx, sc)
}

func (h *shareClassWebhook) ValidateDelete(context.Context, *investv1.ShareClass) (admission.Warnings, error) {
	return nil, nil
}
