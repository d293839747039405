package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Rule: every text field of an account refuses control characters and invalid UTF-8,
// with a message naming only that field (kubectl through admission, REST before writing).
func TestAccountTextFieldsRefuseControlCharacters(t *testing.T) {
	for _, f := range accountText(&investv1.AccountSpec{}) {
		name := f[0]
		for _, bad := range []string{"A\x00", "A\tB", "A\nB", "A\x7f", "A\u0085", "A\xff", "A\ufffd"} {
			s := individual()
			setText(t, &s, name, bad)
			fe := Account(&s, TenantSettings{}, now)
			if len(fe[name]) != 1 {
				t.Fatalf("%s = %q: messages %v", name, bad, fe)
			}
			if want := validation.ValidateText(bad).Error(); fe[name][0] != want {
				t.Fatalf("%s = %q: %q, want %q", name, bad, fe[name][0], want)
			}
		}
	}
}

// Rule: a too-long field is refused with one message naming only that field.
func TestAccountTooLongFieldNamesOnlyThatField(t *testing.T) {
	for _, f := range accountText(&investv1.AccountSpec{}) {
		name := f[0]
		s := individual()
		if name == "country" || name == "lei" {
			setText(t, &s, name, strings.Repeat("A", MaxLength[name]+1))
		} else {
			setText(t, &s, name, strings.Repeat("\u00e9", MaxLength[name]+1))
		}
		fe := Account(&s, TenantSettings{}, now)
		want := validation.FieldErrors{name: {validation.ValidateMaxLength(strings.Repeat("a", MaxLength[name]+1), MaxLength[name]).Error()}}
		if !reflect.DeepEqual(fe, want) {
			t.Fatalf("%s too long: %v, want %v", name, fe, want)
		}
		setText(t, &s, name, strings.Repeat("\u00e9", MaxLength[name]))
		if fe := Account(&s, TenantSettings{}, now); len(fe[name]) > 0 && strings.Contains(fe[name][0], "at most") {
			t.Fatalf("%s at the limit refused: %v", name, fe)
		}
	}
}

// The REST limits are the CRD schema's: every MaxLength entry equals the maxLength of
// the field in config/crd/bases, and every text field of an account has one.
func TestMaxLengthsAreTheCRDSchemas(t *testing.T) {
	specs := map[string]apiextensionsv1.JSONSchemaProps{
		"account": crdSpec(t, "invest.fundshare.io_accounts.yaml"),
		"pmd":     crdSpec(t, "invest.fundshare.io_paymentmethoddetails.yaml"),
		"webhook": crdSpec(t, "invest.fundshare.io_webhookendpoints.yaml"),
	}
	for name, max := range MaxLength {
		path := FieldPath(name).String()
		prop := strings.TrimPrefix(path, "spec.")
		found := false
		for _, spec := range specs {
			if p, ok := spec.Properties[prop]; ok {
				found = true
				if p.MaxLength == nil || int(*p.MaxLength) != max {
					t.Errorf("%s: MaxLength %d, CRD %s maxLength %v", name, max, path, p.MaxLength)
				}
			}
		}
		if !found {
			t.Errorf("%s: no CRD field %s", name, path)
		}
	}
	for _, f := range accountText(&investv1.AccountSpec{}) {
		if _, ok := MaxLength[f[0]]; !ok {
			t.Errorf("text field %s has no MaxLength", f[0])
		}
	}
}

func crdSpec(t *testing.T, file string) apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "bases", file))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	return crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
}

// setText sets the account's text field with the REST name name.
func setText(t *testing.T, s *investv1.AccountSpec, name, v string) {
	t.Helper()
	fields := map[string]*string{
		"external_id": &s.ExternalID, "country": &s.Country, "city": &s.City, "line1": &s.Line1,
		"line2": &s.Line2, "postal_code": &s.PostalCode, "state": &s.State, "first_name": &s.FirstName,
		"last_name": &s.LastName, "place_of_birth": &s.PlaceOfBirth, "business_name": &s.BusinessName,
		"lei": &s.LEI, "tax_id": &s.TaxID, "tin": &s.TIN, "tax_residencies": &s.TaxResidencies,
	}
	p, ok := fields[name]
	if !ok {
		t.Fatalf("no text field %s", name)
	}
	*p = v
}
