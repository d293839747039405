package apiserver

import (
	"fmt"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// The request types' own checks: what a body can be told without reading anything.
// The handlers add the checks that need the tenant's settings or the clock.

// dobParts are the date-of-birth parts of an account request with their ranges.
func (req *AccountCreateRequest) dobParts() []dobPart {
	return []dobPart{{"dob_day", req.DobDay, 1, 31}, {"dob_month", req.DobMonth, 1, 12}, {"dob_year", req.DobYear, 1900, 9999}}
}

type dobPart struct {
	name     string
	v        *int32
	min, max int32
}

// dobOutOfRange reports whether a date-of-birth part was sent out of its range.
func (req *AccountCreateRequest) dobOutOfRange() bool {
	for _, p := range req.dobParts() {
		if p.outOfRange() {
			return true
		}
	}
	return false
}

func (p dobPart) outOfRange() bool { return p.v != nil && (*p.v < p.min || *p.v > p.max) }

// Validate checks type, the date-of-birth parts as sent (0 is out of range, not absent:
// the spec stores 0 for "not given") and that birthdate does not come with them.
func (req *AccountCreateRequest) Validate() validation.FieldErrors {
	var fe validation.FieldErrors
	required(&fe, "type", req.Type)
	for _, p := range req.dobParts() {
		if p.outOfRange() {
			fe.Add(p.name, fmt.Sprintf("must be between %d and %d", p.min, p.max))
		}
	}
	if t := investv1.AccountType(deref(req.Type)); req.Type != nil && t != investv1.AccountTypeIndividual && t != investv1.AccountTypeBusiness {
		fe.Add("type", "must be individual or business")
	}
	if req.Birthdate != nil && req.hasDobParts() {
		fe.Add("birthdate", "give either birthdate or dob_day, dob_month and dob_year, not both")
	}
	return fe
}

func (req *AccountCreateRequest) hasDobParts() bool {
	return req.DobDay != nil || req.DobMonth != nil || req.DobYear != nil
}

// Validate checks chain (polygon only) and the wallet address's format.
func (req *WalletCreateRequest) Validate() validation.FieldErrors {
	var fe validation.FieldErrors
	required(&fe, "chain", req.Chain)
	required(&fe, "wallet_address", req.WalletAddress)
	if req.Chain != nil && investv1.Chain(*req.Chain) != investv1.ChainPolygon {
		fe.Add("chain", "must be polygon, the only enabled chain")
	}
	if req.WalletAddress != nil {
		_, err := rules.WalletAddress(investv1.ChainPolygon, *req.WalletAddress)
		fe.AddErr("wallet_address", err)
	}
	return fe
}

// Validate checks the required fields and the type (sepa only); the IBAN and the
// holder's name are checked by rules.PaymentMethodDetails, as in admission.
func (req *PaymentMethodDetailsCreateRequest) Validate() validation.FieldErrors {
	var fe validation.FieldErrors
	required(&fe, "type", req.Type)
	required(&fe, "iban", req.IBAN)
	required(&fe, "account_holder_name", req.AccountHolderName)
	if req.Type != nil && investv1.PaymentMethodType(*req.Type) != investv1.PaymentMethodSEPA {
		fe.Add("type", "must be sepa, the only supported payment method type")
	}
	return fe
}

// Validate checks the order's own fields (orderSpec).
func (req *OrderCreateRequest) Validate() validation.FieldErrors {
	_, fe := orderSpec(req)
	return fe
}
