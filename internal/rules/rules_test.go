package rules

import (
	"strings"
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

var now = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

func individual() investv1.AccountSpec {
	return investv1.AccountSpec{
		Type: investv1.AccountTypeIndividual, FirstName: "Erika", LastName: "Mustermann",
		DobDay: 12, DobMonth: 8, DobYear: 1964, PlaceOfBirth: "Berlin",
	}
}

func TestAccountUpdateReportsOnlyWhatTheUpdateBreaks(t *testing.T) {
	kyc := TenantSettings{KYCDataRequired: true, TaxReporting: true}
	old := individual() // created before the tenant required KYC data and tax fields

	if fe := Account(&old, kyc, now); fe.Empty() {
		t.Fatal("the stored account fails the tightened settings: the test needs that")
	}
	edited := old
	edited.PlaceOfBirth = "Hamburg"
	if fe := AccountUpdate(&edited, &old, kyc, now); !fe.Empty() {
		t.Fatalf("an edit that breaks nothing new must pass, got %v", fe)
	}

	broken := old
	broken.LastName = ""
	fe := AccountUpdate(&broken, &old, kyc, now)
	if got := fe["last_name"]; len(got) != 1 || got[0] != msgRequired {
		t.Fatalf("clearing last_name must be refused, got %v", fe)
	}
	if _, ok := fe["city"]; ok {
		t.Fatalf("what the stored account already lacked must not be reported: %v", fe)
	}

	impossible := old
	impossible.DobDay, impossible.DobMonth = 31, 2
	if fe := AccountUpdate(&impossible, &old, kyc, now); len(fe["birthdate"]) != 1 {
		t.Fatalf("an impossible date must be refused on update, got %v", fe)
	}
}

func TestAccountRequirementsByTypeAndSettings(t *testing.T) {
	cases := []struct {
		name     string
		spec     func() investv1.AccountSpec
		settings TenantSettings
		want     []string // fields with messages
	}{
		{"a complete individual", individual, TenantSettings{}, nil},
		{"an individual without names", func() investv1.AccountSpec {
			s := individual()
			s.FirstName, s.LastName = "", " "
			return s
		}, TenantSettings{}, []string{"first_name", "last_name"}},
		{"an individual with a business name", func() investv1.AccountSpec {
			s := individual()
			s.BusinessName = "ACME"
			return s
		}, TenantSettings{}, []string{"business_name"}},
		{"tax reporting needs tin and residencies", individual, TenantSettings{TaxReporting: true}, []string{"tin", "tax_residencies"}},
		{"a business needs its name, and an LEI when required", func() investv1.AccountSpec {
			return investv1.AccountSpec{Type: investv1.AccountTypeBusiness}
		}, TenantSettings{LEIRequired: true}, []string{"business_name", "lei"}},
		{"KYC data needs the address", individual, TenantSettings{KYCDataRequired: true}, []string{"country", "city", "line1", "postal_code"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec()
			fe := Account(&spec, tc.settings, now)
			if len(fe) != len(tc.want) {
				t.Fatalf("got %v, want messages for %v", fe, tc.want)
			}
			for _, f := range tc.want {
				if len(fe[f]) == 0 {
					t.Errorf("no message for %s in %v", f, fe)
				}
			}
		})
	}
}

// TestAdmissionMessagesNameTheCustomResourceFields: kubectl users read the custom
// resource's field names (dobDay), never the REST names (dob_day, birthdate), while the
// REST messages keep naming the REST fields.
func TestAdmissionMessagesNameTheCustomResourceFields(t *testing.T) {
	s := individual()
	s.DobDay, s.DobMonth, s.DobYear = 0, 0, 0
	s.BusinessName, s.TaxID, s.LEI = "Example", "LU1", "5493001KJTIIGC8Y1R12"
	fe := Account(&s, TenantSettings{TaxReporting: true, LEIRequired: true, KYCDataRequired: true}, now)
	if got := fe["birthdate"]; len(got) != 1 || got[0] != "date of birth is required (dob_day, dob_month, dob_year or birthdate)" {
		t.Errorf("REST message for birthdate = %q", got)
	}
	list := ToFieldErrors(fe)
	if len(list) == 0 {
		t.Fatal("no admission errors")
	}
	found := false
	for _, e := range list {
		if e.Field == "spec.dobDay" && e.Detail == "date of birth is required (dobDay, dobMonth, dobYear)" {
			found = true
		}
		for rest := range specPaths {
			if strings.Contains(rest, "_") && strings.Contains(e.Detail, rest) || strings.Contains(e.Detail, "birthdate") {
				t.Errorf("admission message for %s names the REST field %s: %q", e.Field, rest, e.Detail)
			}
		}
	}
	if !found {
		t.Errorf("no admission message names dobDay, dobMonth, dobYear: %v", list)
	}
}

func TestAWalletRecoveryGoesToAnotherRegisteredWalletOfTheSameAccountWithAnotherAddress(t *testing.T) {
	const account = "0b6f7a6e-3a6a-4b1e-9a55-7f6f1f0f6a01"
	wallet := func(id, address string, state investv1.RegistrationState) *investv1.Wallet {
		w := &investv1.Wallet{Spec: investv1.WalletSpec{AccountID: account, WalletAddress: address}}
		w.Name = id
		if state != "" {
			w.Status.Registration = &investv1.WalletRegistration{State: state}
		}
		return w
	}
	lost := wallet("lost", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", investv1.RegistrationRegistered)
	spec := func(to string) *investv1.WalletRecoverySpec {
		return &investv1.WalletRecoverySpec{AccountID: account, FromWalletID: "lost", ToWalletID: investv1.ObjectID(to)}
	}
	for _, tc := range []struct {
		name     string
		from, to *investv1.Wallet
		target   string
		want     string // the message on to_wallet_id, or "" for none
	}{
		{"a registered wallet with another address", lost, wallet("new", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", investv1.RegistrationRegistered), "new", ""},
		{"no such wallet of the account", lost, nil, "new", "must be a wallet of the account"},
		{"the lost wallet itself", lost, lost, "lost", "must be another wallet than the lost one"},
		{"the same address", lost, wallet("new", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", investv1.RegistrationRegistered), "new", "must have another address than the lost wallet"},
		{"not registered yet", lost, wallet("new", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", ""), "new", "must be registered in the identity registry (not registered yet)"},
		{"registration failed", lost, wallet("new", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", investv1.RegistrationFailed), "new", "must be registered in the identity registry (registration Failed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fe := WalletRecovery(spec(tc.target), tc.from, tc.to)
			got := strings.Join(fe["to_wallet_id"], "; ")
			if tc.want == "" && !fe.Empty() || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("errors %v, want to_wallet_id %q", fe, tc.want)
			}
		})
	}
	if fe := WalletRecovery(spec("new"), nil, nil); len(fe["from_wallet_id"]) != 1 {
		t.Fatalf("errors %v, want from_wallet_id named", fe)
	}
}
