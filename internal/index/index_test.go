package index_test

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// countingReader counts the lists it is asked for, and how many were refused.
type countingReader struct {
	client.Reader
	lists, refused int
}

func (c *countingReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.lists++
	err := c.Reader.List(ctx, list, opts...)
	if apierrors.IsBadRequest(err) {
		c.refused++
	}
	return err
}

func isins(l investv1.ShareClassList) []investv1.ISIN {
	out := make([]investv1.ISIN, 0, len(l.Items))
	for _, sc := range l.Items {
		out = append(out, sc.Spec.ISIN)
	}
	return out
}

// The API server selects share classes by the CRD's selectable field spec.isin, so a class
// the cache has not seen yet, or an ISIN nobody knows, costs it one filtered list.
func TestAShareClassLookupAsksTheAPIServerOnceByTheSelectableISINField(t *testing.T) {
	fund := fixtures.Fund()
	sc, other := fixtures.ShareClass(fund.Name, fixtures.ISIN), fixtures.ShareClass(fund.Name, fixtures.OtherISIN)
	cache := &countingReader{Reader: ctrltest.FakeClient(t, nil)}
	live := &countingReader{Reader: ctrltest.APIServer(t, sc, other)}

	got, err := index.ShareClassesOf(t.Context(), fixtures.ISIN, cache, live)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 1 || got.Items[0].Name != sc.Name {
		t.Fatalf("share classes of %s: %v, want only %s", fixtures.ISIN, isins(got), sc.Name)
	}
	if cache.lists != 1 || live.lists != 1 || live.refused != 0 {
		t.Fatalf("lists: cache %d, API server %d (%d refused); want one each, none refused", cache.lists, live.lists, live.refused)
	}

	live.lists = 0
	got, err = index.ShareClassesOf(t.Context(), "XS0000000000", cache, live)
	if err != nil || len(got.Items) != 0 {
		t.Fatalf("an unknown ISIN: %v, %v; want none and no error", isins(got), err)
	}
	if live.lists != 1 {
		t.Fatalf("an unknown ISIN cost the API server %d lists, want 1", live.lists)
	}
}

// An API server still serving a ShareClass CRD without the selectable field (an upgrade
// under way) refuses the field selector; the lookup then lists the catalogue and picks.
func TestAShareClassLookupListsTheCatalogueFromAnAPIServerWithoutTheSelectableField(t *testing.T) {
	fund := fixtures.Fund()
	sc, other := fixtures.ShareClass(fund.Name, fixtures.ISIN), fixtures.ShareClass(fund.Name, fixtures.OtherISIN)
	live := &countingReader{Reader: ctrltest.APIServerBefore(t, sc, other)}

	got, err := index.ShareClassesOf(t.Context(), fixtures.OtherISIN, ctrltest.FakeClient(t, nil), live)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 1 || got.Items[0].Name != other.Name {
		t.Fatalf("share classes of %s: %v, want only %s", fixtures.OtherISIN, isins(got), other.Name)
	}
	if live.lists != 2 || live.refused != 1 {
		t.Fatalf("API server lists %d (%d refused), want the refused selector and one list of the catalogue", live.lists, live.refused)
	}
}

// The fake API server of the controllers' tests serves the field selectors the CRDs
// declare, and refuses the cache's other indexes as the real one does.
func TestTheFakeAPIServerRefusesAFieldSelectorNoCRDDeclares(t *testing.T) {
	fund := fixtures.Fund()
	live := ctrltest.APIServer(t, fund, fixtures.ShareClass(fund.Name, fixtures.ISIN))
	var classes investv1.ShareClassList
	if err := live.List(t.Context(), &classes, client.MatchingFields{index.ShareClassFund: fund.Name}); !apierrors.IsBadRequest(err) {
		t.Fatalf("share classes by %s: %v, want 400 Bad Request", index.ShareClassFund, err)
	}
	var funds investv1.FundList
	if err := live.List(t.Context(), &funds, client.MatchingFields{"spec.isin": fixtures.ISIN}); !apierrors.IsBadRequest(err) {
		t.Fatalf("funds by spec.isin: %v, want 400 Bad Request", err)
	}
}
