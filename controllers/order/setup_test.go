package order

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func TestMapFunctionLogsAFailedList(t *testing.T) {
	r := &Reconciler{Client: ctrltest.FailingLists(t)}
	fund := &investv1.Fund{ObjectMeta: metav1.ObjectMeta{Name: "fund-1"}}
	ctrltest.ExpectListFailureLogged(t, r.ordersOfFund, fund)
	ctrltest.ExpectListFailureLogged(t, r.ordersOfShareClass, fixtures.ShareClass("fund-1", "LU0274208692"))
}

// TestAShareClassTheCacheShowsLateWakesTheOrdersWaitingForIt: an order that waited for its
// share class (ShareClassNotFound: the cache showed the fund first, or nothing) is woken
// when the class arrives; a done order of the ISIN, and another ISIN's, are not.
func TestAShareClassTheCacheShowsLateWakesTheOrdersWaitingForIt(t *testing.T) {
	waiting := fixtures.BuyOrder("t", "acct-1", "LU0274208692", 10)
	waiting.Name, waiting.Status.State = "waiting", investv1.StatePaymentReceived
	done := fixtures.BuyOrder("t", "acct-1", "LU0274208692", 10)
	done.Name, done.Status.State = "done", investv1.StateCompleted
	other := fixtures.BuyOrder("t", "acct-1", "IE00B4L5Y983", 10)
	other.Name, other.Status.State = "other", investv1.StatePaymentReceived
	c := ctrltest.FakeClient(t, []client.Object{waiting, done, other})
	r := &Reconciler{Client: c, Live: c}
	reqs := r.ordersOfShareClass(t.Context(), fixtures.ShareClass("fund-1", "LU0274208692"))
	if len(reqs) != 1 || reqs[0].Name != "waiting" || reqs[0].Namespace != "t" {
		t.Fatalf("requests %v, want only t/waiting", reqs)
	}
}

// TestTransitionWrittenIsLogged: a state change is logged at info (verbosity 0) with its
// from, to and reason; the decision itself is the state machine's (lifecycle.Next).
func TestTransitionWrittenIsLogged(t *testing.T) {
	o := fixtures.BuyOrder("t", "acct-1", "LU0000000001", 10) // no quote: cancelled NotPriced
	c := ctrltest.FakeClient(t, []client.Object{o}, &investv1.Order{})
	lines := ctrltest.ReconcileLogged(t, &Reconciler{Client: c, Live: c, Now: time.Now}, o, 0, 1)
	ctrltest.ExpectLogged(t, lines, `"msg"="transition written"`, `"to"="CANCELLED"`, `"reason"="`+lifecycle.ReasonNotPriced+`"`)
}

// TestANewOrderIsNotCancelledForAShareClassItsCacheHasNotSeenYet: a priced order whose
// share class and fund the cache does not hold yet (made just before it; CI saw one
// cancelled so, ShareClassNotFound) is placed when the API server has them, and cancelled
// only when the API server has none either.
func TestANewOrderIsNotCancelledForAShareClassItsCacheHasNotSeenYet(t *testing.T) {
	fund := fixtures.Fund()
	sc := fixtures.ShareClass(fund.Name, "LU0000000001")
	order := func() *investv1.Order {
		o := fixtures.BuyOrder("t", "acct-1", "LU0000000001", 10)
		o.Spec.Quote = &investv1.OrderQuote{WalletID: "wal-1", PaymentMethodDetailsID: "pmd-1"}
		return o
	}
	for _, tc := range []struct {
		name    string
		live    []client.Object
		want    investv1.OrderState
		wantWhy string
	}{
		{"the API server has them", []client.Object{fund, sc}, investv1.StatePlaced, lifecycle.ReasonAccepted},
		{"the API server has none either", nil, investv1.StateCancelled, lifecycle.ReasonShareClassNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := order()
			cache := ctrltest.FakeClient(t, []client.Object{o}, &investv1.Order{})
			live := ctrltest.FakeClient(t, append([]client.Object{o.DeepCopy()}, tc.live...), &investv1.Order{})
			ctrltest.ReconcileLogged(t, &Reconciler{Client: cache, Live: live, Now: time.Now}, o, 0, 1)
			got := &investv1.Order{}
			if err := cache.Get(t.Context(), client.ObjectKeyFromObject(o), got); err != nil {
				t.Fatal(err)
			}
			if len(got.Status.History) == 0 || got.Status.History[0].State != tc.want || got.Status.History[0].Reason != tc.wantWhy {
				t.Errorf("history %+v; want it to start %s (%s)", got.Status.History, tc.want, tc.wantWhy)
			}
		})
	}
}

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := ctrltest.FailingLists(t)
	ctrltest.ExpectSetupRefusesNil(t, &Reconciler{Client: c, Live: c}, "Client", "Live")
}
