package apiserver_test

import (
	"reflect"
	"testing"

	"github.com/fundshare/fundshare-operator/apiserver"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

func ptr[T any](v T) *T { return &v }

// checkValidate runs one table of Validate cases: want is the whole field → messages map
// (nil when the request is fine).
func checkValidate(t *testing.T, cases validateCases) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.req.Validate()
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Validate() = %v, want %v", got, tc.want)
			}
		})
	}
}

type validateCases = map[string]struct {
	req  interface{ Validate() validation.FieldErrors }
	want validation.FieldErrors
}

func TestAccountCreateRequestValidate(t *testing.T) {
	checkValidate(t, validateCases{
		"an individual is fine": {&apiserver.AccountCreateRequest{Type: ptr("individual")}, nil},
		"a business is fine":    {&apiserver.AccountCreateRequest{Type: ptr("business")}, nil},
		"type is required":      {&apiserver.AccountCreateRequest{}, validation.FieldErrors{"type": {"is required"}}},
		"type must be individual or business": {&apiserver.AccountCreateRequest{Type: ptr("trust")},
			validation.FieldErrors{"type": {"must be individual or business"}}},
		"dob parts in range are fine": {&apiserver.AccountCreateRequest{Type: ptr("individual"),
			DobDay: ptr(int32(31)), DobMonth: ptr(int32(12)), DobYear: ptr(int32(1900))}, nil},
		"a dob part of 0 is out of range, not absent": {&apiserver.AccountCreateRequest{Type: ptr("individual"),
			DobDay: ptr(int32(0)), DobMonth: ptr(int32(13)), DobYear: ptr(int32(1899))},
			validation.FieldErrors{
				"dob_day":   {"must be between 1 and 31"},
				"dob_month": {"must be between 1 and 12"},
				"dob_year":  {"must be between 1900 and 9999"},
			}},
		"birthdate alone is left to the handler": {&apiserver.AccountCreateRequest{Type: ptr("individual"),
			AccountFields: apiserver.AccountFields{Birthdate: ptr("not a date")}}, nil},
		"birthdate with dob parts is refused": {&apiserver.AccountCreateRequest{Type: ptr("individual"),
			AccountFields: apiserver.AccountFields{Birthdate: ptr("1990-01-02")}, DobYear: ptr(int32(1990))},
			validation.FieldErrors{"birthdate": {"give either birthdate or dob_day, dob_month and dob_year, not both"}}},
	})
}

func TestWalletCreateRequestValidate(t *testing.T) {
	const address = "0x52908400098527886e0f7030069857d2e4169ee7"
	_, badAddress := validation.NormalizeEVMAddress("0x1234")
	if badAddress == nil {
		t.Fatal("0x1234 should not be an EVM address")
	}
	checkValidate(t, validateCases{
		"a polygon address is fine": {&apiserver.WalletCreateRequest{Chain: ptr("polygon"), WalletAddress: ptr(address)}, nil},
		"chain and address are required": {&apiserver.WalletCreateRequest{IsPrimary: ptr(true)},
			validation.FieldErrors{"chain": {"is required"}, "wallet_address": {"is required"}}},
		"chain must be polygon": {&apiserver.WalletCreateRequest{Chain: ptr("ethereum"), WalletAddress: ptr(address)},
			validation.FieldErrors{"chain": {"must be polygon, the only enabled chain"}}},
		"the address must be an EVM address": {&apiserver.WalletCreateRequest{Chain: ptr("polygon"), WalletAddress: ptr("0x1234")},
			validation.FieldErrors{"wallet_address": {badAddress.Error()}}},
	})
}

func TestPaymentMethodDetailsCreateRequestValidate(t *testing.T) {
	checkValidate(t, validateCases{
		"sepa with iban and holder is fine": {&apiserver.PaymentMethodDetailsCreateRequest{Type: ptr("sepa"),
			IBAN: ptr("DE89370400440532013000"), AccountHolderName: ptr("Ada Lovelace")}, nil},
		"type, iban and holder are required": {&apiserver.PaymentMethodDetailsCreateRequest{},
			validation.FieldErrors{"type": {"is required"}, "iban": {"is required"}, "account_holder_name": {"is required"}}},
		"type must be sepa": {&apiserver.PaymentMethodDetailsCreateRequest{Type: ptr("swift"),
			IBAN: ptr("DE89370400440532013000"), AccountHolderName: ptr("Ada Lovelace")},
			validation.FieldErrors{"type": {"must be sepa, the only supported payment method type"}}},
	})
}

func TestOrderCreateRequestValidate(t *testing.T) {
	const id = "0b6f7a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b"
	ok := func() *apiserver.OrderCreateRequest {
		return &apiserver.OrderCreateRequest{Side: ptr("BUY"), Market: ptr("PRIMARY"), ISIN: ptr("us0378331005"),
			AmountOfUnits: ptr(int64(10)), Currency: ptr("EUR"), AccountID: ptr(id)}
	}
	with := func(f func(*apiserver.OrderCreateRequest)) *apiserver.OrderCreateRequest {
		r := ok()
		f(r)
		return r
	}
	checkValidate(t, validateCases{
		"a complete order is fine (ISIN in any letter case)": {ok(), nil},
		"the order's fields are required": {&apiserver.OrderCreateRequest{}, validation.FieldErrors{
			"side": {"is required"}, "market": {"is required"}, "isin": {"is required"},
			"amount_of_units": {"is required"}, "currency": {"is required"}, "account_id": {"is required"},
		}},
		"side must be BUY or SELL": {with(func(r *apiserver.OrderCreateRequest) { r.Side = ptr("buy") }),
			validation.FieldErrors{"side": {"must be one of BUY, SELL"}}},
		"market must be PRIMARY or SECONDARY": {with(func(r *apiserver.OrderCreateRequest) { r.Market = ptr("OTC") }),
			validation.FieldErrors{"market": {"must be one of PRIMARY, SECONDARY"}}},
		"amount_of_units must be at least 1": {with(func(r *apiserver.OrderCreateRequest) { r.AmountOfUnits = ptr(int64(0)) }),
			validation.FieldErrors{"amount_of_units": {"must be between 1 and 1000000000000"}}},
		"currency must be three uppercase letters": {with(func(r *apiserver.OrderCreateRequest) { r.Currency = ptr("eur") }),
			validation.FieldErrors{"currency": {"must be three uppercase letters (^[A-Z]{3}$)"}}},
		"account_id must be a uuid": {with(func(r *apiserver.OrderCreateRequest) { r.AccountID = ptr("acct-1") }),
			validation.FieldErrors{"account_id": {"must be a UUID such as 123e4567-e89b-42d3-a456-426614174000"}}},
	})
}
