// Package rules holds the spec's rules for whole objects, shared by the admission webhooks
// (kubectl users) and the REST facade (integrators), so that both read the same messages.
// Messages are keyed by the spec's REST field names (snake_case); FieldPath maps a key to
// the custom resource's JSON path for admission answers.
package rules

import (
	"maps"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// TenantSettings are the caller's settings that add requirements to accounts (from the
// tenant's ApiClient).
type TenantSettings struct {
	TaxReporting    bool
	LEIRequired     bool
	KYCDataRequired bool
}

// SettingsOf reads the settings of an ApiClient; nil means no extra requirements.
func SettingsOf(ac *investv1.ApiClient) TenantSettings {
	if ac == nil {
		return TenantSettings{}
	}
	return TenantSettings{TaxReporting: ac.Spec.TaxReporting, LEIRequired: ac.Spec.LEIRequired, KYCDataRequired: ac.Spec.KYCDataRequired}
}

const (
	msgRequired       = "is required"
	msgIndividualOnly = "is only for individual accounts"
	msgBusinessOnly   = "is only for business accounts"
)

// specPaths maps the REST field names to the CRD's JSON paths.
var specPaths = map[string]string{
	"external_id": "spec.externalID", "type": "spec.type", "country": "spec.country", "city": "spec.city",
	"line1": "spec.line1", "line2": "spec.line2", "postal_code": "spec.postalCode", "state": "spec.state",
	"first_name": "spec.firstName", "last_name": "spec.lastName", "dob_day": "spec.dobDay",
	"dob_month": "spec.dobMonth", "dob_year": "spec.dobYear", "birthdate": "spec.dobDay",
	"place_of_birth": "spec.placeOfBirth", "business_name": "spec.businessName", "lei": "spec.lei",
	"tax_id": "spec.taxID", "tin": "spec.tin", "tax_residencies": "spec.taxResidencies",
	"chain": "spec.chain", "wallet_address": "spec.walletAddress", "account_id": "spec.accountID",
	"iban": "spec.iban", "account_holder_name": "spec.accountHolderName",
}

// FieldPath is the CRD JSON path of a REST field name.
func FieldPath(restField string) *field.Path {
	if p, ok := specPaths[restField]; ok {
		parts := strings.Split(p, ".")
		return field.NewPath(parts[0], parts[1:]...)
	}
	return field.NewPath("spec", restField)
}

// ToFieldErrors turns messages into an admission field.ErrorList with the CRD's paths.
func ToFieldErrors(fe validation.FieldErrors) field.ErrorList {
	var list field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(fe)) {
		for _, msg := range fe[k] {
			list = append(list, field.Invalid(FieldPath(k), field.OmitValueType{}, msg))
		}
	}
	return list
}

// Account checks an account as a whole: what its type needs, what the tenant's settings
// add, and the check digits and calendar that the schema cannot see.
func Account(s *investv1.AccountSpec, t TenantSettings, now time.Time) validation.FieldErrors {
	var fe validation.FieldErrors
	blank := func(v string) bool { return strings.TrimSpace(v) == "" }
	require := func(name, v string) {
		if blank(v) {
			fe.Add(name, msgRequired)
		}
	}
	forbid := func(name, v, msg string) {
		if !blank(v) {
			fe.Add(name, msg)
		}
	}

	switch s.Type {
	case investv1.AccountTypeIndividual:
		require("first_name", s.FirstName)
		require("last_name", s.LastName)
		require("place_of_birth", s.PlaceOfBirth)
		if s.DobDay == 0 || s.DobMonth == 0 || s.DobYear == 0 {
			fe.Add("birthdate", "date of birth is required (dob_day, dob_month, dob_year or birthdate)")
		} else {
			fe.AddErr("birthdate", validation.ValidateDateOfBirth(int(s.DobDay), int(s.DobMonth), int(s.DobYear), now))
		}
		forbid("business_name", s.BusinessName, msgBusinessOnly)
		forbid("lei", s.LEI, msgBusinessOnly)
		forbid("tax_id", s.TaxID, msgBusinessOnly)
		if t.TaxReporting {
			require("tin", s.TIN)
			require("tax_residencies", s.TaxResidencies)
		}
	case investv1.AccountTypeBusiness:
		require("business_name", s.BusinessName)
		for name, v := range map[string]string{"first_name": s.FirstName, "last_name": s.LastName, "place_of_birth": s.PlaceOfBirth, "tin": s.TIN} {
			forbid(name, v, msgIndividualOnly)
		}
		if s.DobDay != 0 || s.DobMonth != 0 || s.DobYear != 0 {
			fe.Add("birthdate", msgIndividualOnly)
		}
		if t.LEIRequired {
			require("lei", s.LEI)
		}
		if t.TaxReporting {
			require("tax_id", s.TaxID)
			require("tax_residencies", s.TaxResidencies)
		}
	default:
		fe.Add("type", "must be individual or business")
	}
	if s.LEI != "" {
		fe.AddErr("lei", validation.ValidateLEI(s.LEI))
	}
	if s.Country != "" {
		fe.AddErr("country", validation.ValidateCountryCode(s.Country))
	}
	if t.KYCDataRequired {
		require("country", s.Country)
		require("city", s.City)
		require("line1", s.Line1)
		require("postal_code", s.PostalCode)
	}
	return fe
}

// AccountUpdate checks an updated account but reports only what the update breaks: a
// tenant that tightens its settings (tax reporting, LEI, KYC data) must not lock its
// existing accounts, so a label, a finalizer or a new primary wallet is still accepted,
// while a change that breaks a rule is refused. Admission and REST PATCH both use it.
func AccountUpdate(s, old *investv1.AccountSpec, t TenantSettings, now time.Time) validation.FieldErrors {
	errs := Account(s, t, now)
	had := Account(old, t, now)
	var out validation.FieldErrors
	for field, msgs := range errs {
		for _, msg := range msgs {
			if !slices.Contains(had[field], msg) {
				out.Add(field, msg)
			}
		}
	}
	return out
}

// ApplyBirthdate sets the three date-of-birth fields from an ISO date (YYYY-MM-DD), the
// form the update request accepts.
func ApplyBirthdate(s *investv1.AccountSpec, birthdate string, now time.Time) error {
	d, err := validation.ParseBirthdate(birthdate, now)
	if err != nil {
		return err
	}
	s.DobDay, s.DobMonth, s.DobYear = int32(d.Day()), int32(d.Month()), int32(d.Year()) //nolint:gosec // ParseBirthdate reads a four-digit year
	return nil
}

// WalletAddress returns the canonical (EIP-55) form of an address on a chain.
func WalletAddress(chain investv1.Chain, address string) (string, error) {
	if chain != "" && chain != investv1.ChainPolygon {
		return "", errUnsupportedChain
	}
	return validation.NormalizeEVMAddress(address)
}

// Wallet checks a wallet registration; the address must already be canonical.
func Wallet(s *investv1.WalletSpec) validation.FieldErrors {
	var fe validation.FieldErrors
	if s.Chain != "" && s.Chain != investv1.ChainPolygon {
		fe.Add("chain", errUnsupportedChain.Error())
	}
	canonical, err := validation.NormalizeEVMAddress(s.WalletAddress)
	switch {
	case err != nil:
		fe.AddErr("wallet_address", err)
	case canonical != s.WalletAddress:
		fe.Add("wallet_address", "must be stored in its EIP-55 form "+canonical)
	}
	fe.AddErr("account_id", validation.ValidateObjectID(string(s.AccountID)))
	return fe
}

// PaymentMethodDetails checks a bank account; the IBAN must already be normalized.
func PaymentMethodDetails(s *investv1.PaymentMethodDetailsSpec) validation.FieldErrors {
	var fe validation.FieldErrors
	if s.Type != "" && s.Type != investv1.PaymentMethodSEPA {
		fe.Add("type", "must be sepa, the only supported payment method type")
	}
	fe.AddErr("iban", validation.ValidateIBAN(s.IBAN))
	fe.AddErr("account_holder_name", validation.ValidateAccountHolderName(s.AccountHolderName))
	fe.AddErr("account_id", validation.ValidateObjectID(string(s.AccountID)))
	return fe
}

type ruleError string

func (e ruleError) Error() string { return string(e) }

const errUnsupportedChain = ruleError("must be polygon, the only enabled chain")
