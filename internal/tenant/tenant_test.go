package tenant

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

func apiClient(name string, tax, lei, kyc bool) investv1.ApiClient {
	ac := fixtures.ApiClient("tenant-a", "client-"+name, "secret-"+name)
	ac.Name = name
	ac.Spec.TaxReporting, ac.Spec.LEIRequired, ac.Spec.KYCDataRequired = tax, lei, kyc
	return *ac
}

// A namespace's tenant settings are those of its ApiClient; none: no requirement; more
// than one: every requirement any of them sets, whatever their order.
func TestTenantSettingsAreThoseOfTheNamespacesApiClient(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clients []investv1.ApiClient
		want    rules.TenantSettings
	}{
		{"no ApiClient: no requirement", nil, rules.TenantSettings{}},
		{"one ApiClient: its settings", []investv1.ApiClient{apiClient("a", true, false, true)}, rules.TenantSettings{TaxReporting: true, KYCDataRequired: true}},
		{"one ApiClient without settings", []investv1.ApiClient{apiClient("a", false, false, false)}, rules.TenantSettings{}},
		{"two: every requirement of either", []investv1.ApiClient{apiClient("a", false, true, false), apiClient("b", true, false, false)}, rules.TenantSettings{TaxReporting: true, LEIRequired: true}},
		{"two, the other order: the same", []investv1.ApiClient{apiClient("b", true, false, false), apiClient("a", false, true, false)}, rules.TenantSettings{TaxReporting: true, LEIRequired: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SettingsOf(tc.clients); got != tc.want {
				t.Fatalf("SettingsOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func fakeReader(objs ...client.Object) client.Reader {
	return fake.NewClientBuilder().WithScheme(scheme.New()).WithObjects(objs...).Build()
}

// Settings reads the namespace's ApiClients from the cache, and from the API server when
// the cache shows none yet.
func TestTenantSettingsReadTheAPIServerWhenTheCacheShowsNoApiClient(t *testing.T) {
	ctx := context.Background()
	ac := apiClient("a", false, true, false)
	other := apiClient("b", true, true, true)
	other.Namespace = "tenant-b"
	got, err := Settings(ctx, Readers{Cache: fakeReader(other.DeepCopy()), Live: fakeReader(ac.DeepCopy(), other.DeepCopy())}, "tenant-a")
	if err != nil {
		t.Fatal(err)
	}
	if want := (rules.TenantSettings{LEIRequired: true}); got != want {
		t.Fatalf("Settings = %+v, want %+v (the live ApiClient of tenant-a only)", got, want)
	}
	got, err = Settings(ctx, Readers{Cache: fakeReader(other.DeepCopy())}, "tenant-a")
	if err != nil || got != (rules.TenantSettings{}) {
		t.Fatalf("without a live reader: %+v %v, want no requirement", got, err)
	}
}

// An account id names an account of the tenant: unknown ids, another tenant's accounts
// and ids that are no account's name are all *AccountNotFoundError; the API server is
// asked when the cache does not show the account.
func TestAccountIsFoundOnlyInItsTenant(t *testing.T) {
	ctx := context.Background()
	cached := fixtures.IndividualAccount("tenant-a")
	fresh := fixtures.IndividualAccount("tenant-a")
	theirs := fixtures.IndividualAccount("tenant-b")
	r := Readers{Cache: fakeReader(cached.DeepCopy(), theirs.DeepCopy()), Live: fakeReader(cached.DeepCopy(), fresh.DeepCopy(), theirs.DeepCopy())}
	for _, id := range []string{cached.Name, fresh.Name} {
		a, err := Account(ctx, r, "tenant-a", id)
		if err != nil || a.Name != id || a.Namespace != "tenant-a" {
			t.Fatalf("Account(%s) = %v, %v", id, a, err)
		}
	}
	for name, id := range map[string]string{
		"unknown":          "6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c",
		"another tenant's": theirs.Name,
		"not a UUID":       "not-a-uuid",
		"upper case":       "6F1D2C3B-4A59-4E68-9D7C-8B9A0F1E2D3C",
		"empty":            "",
	} {
		_, err := Account(ctx, r, "tenant-a", id)
		var nf *AccountNotFoundError
		if !errors.As(err, &nf) || nf.ID != id || !IsAccountNotFound(err) {
			t.Errorf("%s: want *AccountNotFoundError naming %q, got %v", name, id, err)
		}
	}
}

// failingReader fails every read, as an API server that is down.
type failingReader struct{ client.Reader }

func (failingReader) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	return apierrors.NewServiceUnavailable("down")
}

func (failingReader) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return apierrors.NewServiceUnavailable("down")
}

// Read errors are not "not found": the caller answers them as errors (503, 500).
func TestTenantLookupsPassReadErrorsOn(t *testing.T) {
	ctx := context.Background()
	_, err := Account(ctx, Readers{Cache: failingReader{}}, "tenant-a", "6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c")
	if IsAccountNotFound(err) || !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("Account: want the reader's 503, got %v", err)
	}
	_, err = Settings(ctx, Readers{Cache: failingReader{}}, "tenant-a")
	if !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("Settings: want the reader's 503, got %v", err)
	}
}
