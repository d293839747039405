package apiserver

import (
	"net/http/httptest"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// Each filter of GET /v1/orders keeps exactly the orders with that value; filters given
// together must all hold; no filter keeps every order.
func TestOrderFiltersKeepOnlyMatchingOrders(t *testing.T) {
	const acct, other = "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b", "6f1d2c3b-4a59-4e68-9d7c-8b9a0f1e2d3c"
	o := &investv1.Order{
		ObjectMeta: metav1.ObjectMeta{Name: "o"},
		Spec: investv1.OrderSpec{Side: investv1.SideBuy, Market: investv1.MarketPrimary, ISIN: "LU0000000001",
			Currency: "EUR", AccountID: acct},
		Status: investv1.OrderStatus{State: investv1.StateAwaitingPayment},
	}
	for _, tc := range []struct {
		query string
		keep  bool
	}{
		{"", true},
		{"side=BUY", true}, {"side=SELL", false},
		{"market=PRIMARY", true}, {"market=SECONDARY", false},
		{"order_status=AWAITING_PAYMENT", true}, {"order_status=PLACED", false},
		{"account_id=" + acct, true}, {"account_id=" + other, false},
		{"currency=EUR", true}, {"currency=USD", false},
		{"isin=lu0000000001", true}, {"isin=LU0000000002", false},
		{"side=BUY&currency=EUR&isin=LU0000000001", true}, {"side=BUY&currency=USD", false},
	} {
		q := parseQuery(httptest.NewRequest("GET", "/v1/orders?"+tc.query, nil),
			"side", "market", "order_status", "account_type", "account_id", "currency", "isin")
		f := orderFilterOf(q)
		if !q.fe.Empty() {
			t.Fatalf("%s: %v", tc.query, q.fe)
		}
		if got := f.matches(o); got != tc.keep {
			t.Errorf("?%s: matches = %v, want %v", tc.query, got, tc.keep)
		}
	}
	// account_type keeps the orders of the accounts of that type (ordersFor reads them).
	f := orderFilter{accountType: "business", ofType: map[string]bool{other: true}}
	if f.matches(o) {
		t.Error("account_type: an order of an account of another type kept")
	}
	f.ofType[acct] = true
	if !f.matches(o) {
		t.Error("account_type: an order of an account of the type dropped")
	}
}
