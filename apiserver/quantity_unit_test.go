package apiserver

import (
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// TestAnAmountOrderForAForwardClassTheCacheHasNotSeenYetIsNotRefused: the quantity rule
// asks the API server about an ISIN the cache does not know (a class made a moment ago),
// so an amount BUY of a new forward-priced class is not refused as if the class priced at
// the latest NAV.
func TestAnAmountOrderForAForwardClassTheCacheHasNotSeenYetIsNotRefused(t *testing.T) {
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, "LU0274208692")
	sc.Spec.Dealing = &investv1.DealingTerms{Pricing: investv1.PricingForward}
	cache := ctrltest.FakeClient(t, nil)
	side, isin, amount := "BUY", "lu0274208692", int64(10_000_000)
	req := &OrderCreateRequest{Side: &side, ISIN: &isin, Amount: &amount}

	s := &Server{deps: Deps{Reader: cache, APIReader: ctrltest.APIServer(t, fund, sc)}}
	if fe := s.quantityRule(t.Context(), req, nil); !fe.Empty() {
		t.Fatalf("refused: %v; want an amount BUY of a forward class accepted", fe)
	}
	// A class nobody has is not forward-priced: amount is refused, as before.
	s = &Server{deps: Deps{Reader: cache, APIReader: ctrltest.APIServer(t)}}
	if fe := s.quantityRule(t.Context(), req, nil); fe.Empty() {
		t.Fatal("an amount BUY of an unknown ISIN passed the quantity rule")
	}
}
