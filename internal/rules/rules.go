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
	// msgDateOfBirthRequired names the REST fields; admission answers with kubeMessages'.
	msgDateOfBirthRequired = "date of birth is required (dob_day, dob_month, dob_year or birthdate)"
)

// kubeMessages are the admission wording of the messages whose words name fields: kubectl
// users write the custom resource's fields (dobDay), integrators the REST fields (dob_day).
var kubeMessages = map[string]string{
	msgDateOfBirthRequired: "date of birth is required (dobDay, dobMonth, dobYear)",
}

// AdmissionMessage is msg as admission says it: with the custom resource's field names
// where the REST message names REST fields.
func AdmissionMessage(msg string) string {
	if k, ok := kubeMessages[msg]; ok {
		return k
	}
	return msg
}

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
	"from_wallet_id": "spec.fromWalletID", "to_wallet_id": "spec.toWalletID",
	"url": "spec.url", "event_types": "spec.eventTypes", "description": "spec.description", "enabled": "spec.disabled",
}

// FieldPath is the CRD JSON path of a REST field name.
func FieldPath(restField string) *field.Path {
	if p, ok := specPaths[restField]; ok {
		parts := strings.Split(p, ".")
		return field.NewPath(parts[0], parts[1:]...)
	}
	return field.NewPath("spec", restField)
}

// ToFieldErrors turns messages into an admission field.ErrorList with the CRD's paths and
// the admission wording of each message (AdmissionMessage).
func ToFieldErrors(fe validation.FieldErrors) field.ErrorList {
	var list field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(fe)) {
		for _, msg := range fe[k] {
			list = append(list, field.Invalid(FieldPath(k), field.OmitValueType{}, AdmissionMessage(msg)))
		}
	}
	return list
}

// MaxLength is the longest value, in characters, of every text field by REST name: the
// CRD schema's maxLength (TestMaxLengthsAreTheCRDSchemas compares them with
// config/crd/bases), checked here so that REST callers get one message naming the field
// before anything is written.
var MaxLength = map[string]int{
	"external_id": 128, "country": 2, "city": 100, "line1": 200, "line2": 200, "postal_code": 20,
	"state": 100, "first_name": 100, "last_name": 100, "place_of_birth": 100, "business_name": 200,
	"lei": 20, "tax_id": 64, "tin": 64, "tax_residencies": 200,
	"account_holder_name": 70, "description": 512,
}

// accountText are the account's text fields by REST name.
func accountText(s *investv1.AccountSpec) [][2]string {
	return [][2]string{
		{"external_id", s.ExternalID}, {"country", s.Country}, {"city", s.City}, {"line1", s.Line1},
		{"line2", s.Line2}, {"postal_code", s.PostalCode}, {"state", s.State}, {"first_name", s.FirstName},
		{"last_name", s.LastName}, {"place_of_birth", s.PlaceOfBirth}, {"business_name", s.BusinessName},
		{"lei", s.LEI}, {"tax_id", s.TaxID}, {"tin", s.TIN}, {"tax_residencies", s.TaxResidencies},
	}
}

// Text checks text fields: valid UTF-8 without control characters (validation.ValidateText)
// and at most MaxLength characters. It returns the names of the fields it refused, so
// that the caller skips further checks of those.
func Text(fe *validation.FieldErrors, fields [][2]string) map[string]bool {
	bad := map[string]bool{}
	for _, f := range fields {
		name, v := f[0], f[1]
		err := validation.ValidateText(v)
		if err == nil {
			if max, ok := MaxLength[name]; ok {
				err = validation.ValidateMaxLength(v, max)
			}
		}
		if err != nil {
			fe.AddErr(name, err)
			bad[name] = true
		}
	}
	return bad
}

// Account checks an account as a whole: what its type needs, what the tenant's settings
// add, and the check digits and calendar that the schema cannot see.
func Account(s *investv1.AccountSpec, t TenantSettings, now time.Time) validation.FieldErrors {
	var fe validation.FieldErrors
	badText := Text(&fe, accountText(s))
	blank := func(v string) bool { return strings.TrimSpace(v) == "" }
	require := func(name, v string) {
		if blank(v) {
			fe.Add(name, msgRequired)
		}
	}
	forbid := func(name, v, msg string) {
		if !blank(v) && !badText[name] {
			fe.Add(name, msg)
		}
	}

	switch s.Type {
	case investv1.AccountTypeIndividual:
		require("first_name", s.FirstName)
		require("last_name", s.LastName)
		require("place_of_birth", s.PlaceOfBirth)
		if s.DobDay == 0 || s.DobMonth == 0 || s.DobYear == 0 {
			fe.Add("birthdate", msgDateOfBirthRequired)
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
	if s.LEI != "" && !badText["lei"] {
		fe.AddErr("lei", validation.ValidateLEI(s.LEI))
	}
	if s.Country != "" && !badText["country"] {
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

// WalletRecovery checks a lost-key recovery against the wallets it names, as read from the
// account (nil: no such wallet of the account): both belong to the account, their addresses
// differ, and the replacement is registered in the identity registry.
func WalletRecovery(s *investv1.WalletRecoverySpec, from, to *investv1.Wallet) validation.FieldErrors {
	var fe validation.FieldErrors
	fe.AddErr("account_id", validation.ValidateObjectID(string(s.AccountID)))
	if from == nil {
		fe.Add("from_wallet_id", "must be a wallet of the account")
	}
	switch {
	case to == nil:
		fe.Add("to_wallet_id", "must be a wallet of the account")
	case s.ToWalletID == s.FromWalletID:
		fe.Add("to_wallet_id", "must be another wallet than the lost one")
	case from != nil && strings.EqualFold(from.Spec.WalletAddress, to.Spec.WalletAddress):
		fe.Add("to_wallet_id", "must have another address than the lost wallet (both are "+to.Spec.WalletAddress+")")
	case to.Status.Registration == nil || to.Status.Registration.State != investv1.RegistrationRegistered:
		state := "not registered yet"
		if to.Status.Registration != nil && to.Status.Registration.State != "" {
			state = "registration " + string(to.Status.Registration.State)
		}
		fe.Add("to_wallet_id", "must be registered in the identity registry ("+state+")")
	}
	return fe
}

type ruleError string

func (e ruleError) Error() string { return string(e) }

const errUnsupportedChain = ruleError("must be polygon, the only enabled chain")
