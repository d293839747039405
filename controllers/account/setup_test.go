package account

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

func TestMapFunctionsLogAFailedList(t *testing.T) {
	acct := &investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: "t", Name: "acct-1"}}
	for name, children := range map[string]handler.MapFunc{
		"wallets":                NewWalletReconciler(ctrltest.FailingLists(t)).children,
		"payment method details": NewPaymentMethodReconciler(ctrltest.FailingLists(t)).children,
	} {
		t.Run(name, func(t *testing.T) { ctrltest.ExpectListFailureLogged(t, children, acct) })
	}
}

// TestCascadeDeleteStepsAreLogged: deleting an account logs each child it deletes, by
// reference, then the release of the account, at info.
func TestCascadeDeleteStepsAreLogged(t *testing.T) {
	acct := fixtures.IndividualAccount("t")
	acct.Finalizers = []string{Finalizer}
	now := metav1.Now()
	acct.DeletionTimestamp = &now
	wallet := fixtures.Wallet("t", acct.Name, "0x52908400098527886E0F7030069857D2E4169EE7")
	c := ctrltest.FakeClient(t, []client.Object{acct, wallet}, &investv1.Account{})
	// The first pass deletes the wallet, the second releases the account.
	lines := ctrltest.ReconcileLogged(t, &Reconciler{Client: c}, acct, 0, 2)
	ctrltest.ExpectLogged(t, lines, `"msg"="deleted a child of the deleted account"`, `"wallet"={"name"="`+wallet.Name+`" "namespace"="t"}`, `"msg"="released the deleted account`)
}

func TestSetupWithManagerRefusesNilDependencies(t *testing.T) {
	c := ctrltest.FailingLists(t)
	for name, r := range map[string]ctrltest.Setupper{
		"account":                &Reconciler{Client: c},
		"wallet":                 NewWalletReconciler(c),
		"payment method details": NewPaymentMethodReconciler(c),
	} {
		t.Run(name, func(t *testing.T) { ctrltest.ExpectSetupRefusesNil(t, r, "Client") })
	}
}
