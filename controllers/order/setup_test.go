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
}

// TestTransitionWrittenIsLogged: a state change is logged at info (verbosity 0) with its
// from, to and reason; the decision itself is the state machine's (lifecycle.Next).
func TestTransitionWrittenIsLogged(t *testing.T) {
	o := fixtures.BuyOrder("t", "acct-1", "LU0000000001", 10) // no quote: cancelled NotPriced
	c := ctrltest.FakeClient(t, []client.Object{o}, &investv1.Order{})
	lines := ctrltest.ReconcileLogged(t, &Reconciler{Client: c, Live: c, Now: time.Now}, o, 0, 1)
	ctrltest.ExpectLogged(t, lines, `"msg"="transition written"`, `"to"="CANCELLED"`, `"reason"="`+lifecycle.ReasonNotPriced+`"`)
}

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := ctrltest.FailingLists(t)
	ctrltest.ExpectSetupRefusesNil(t, &Reconciler{Client: c, Live: c}, "Client", "Live")
}
