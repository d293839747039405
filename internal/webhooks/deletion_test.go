package webhooks

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// lagging is a reader whose cache has not seen the orders the API server holds: the moment
// right after an order was placed (or completed), when a script deletes what it refers to.
func lagging(t *testing.T, orders ...client.Object) reader {
	t.Helper()
	s := scheme.New()
	withIndexes := func(b *fake.ClientBuilder) *fake.ClientBuilder {
		return b.WithScheme(s).
			WithIndex(&investv1.Order{}, index.OrderAccount, func(o client.Object) []string { return []string{string(o.(*investv1.Order).Spec.AccountID)} }).
			WithIndex(&investv1.Order{}, index.OrderWallet, func(o client.Object) []string { return []string{index.OrderWalletKey(o.(*investv1.Order))} }).
			WithIndex(&investv1.Order{}, index.OrderPaymentMethod, func(o client.Object) []string { return []string{index.OrderPaymentMethodKey(o.(*investv1.Order))} })
	}
	return reader{cache: withIndexes(fake.NewClientBuilder()).Build(), live: withIndexes(fake.NewClientBuilder()).WithObjects(orders...).Build()}
}

func placedOrder(ns, account, wallet, pmd string) *investv1.Order {
	o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "11111111-1111-4111-8111-111111111111"},
		Spec: investv1.OrderSpec{Side: investv1.SideBuy, ISIN: "LU0274208692", AmountOfUnits: 5, AccountID: investv1.ObjectID(account),
			WalletID: investv1.ObjectID(wallet), PaymentMethodDetailsID: investv1.ObjectID(pmd)}}
	o.Status.State = investv1.StatePlaced
	return o
}

// TestDeletionIsRefusedForAnOrderTheCacheHasNotSeenYet: the wallet, payment method details
// and account a live order refers to cannot be deleted even while the cache lags behind
// the order's creation; the API server is asked before a deletion is let through.
func TestDeletionIsRefusedForAnOrderTheCacheHasNotSeenYet(t *testing.T) {
	ctx := context.Background()
	const ns, acct, wallet, pmd = "tenant", "a0000000-0000-4000-8000-000000000001", "b0000000-0000-4000-8000-000000000002", "c0000000-0000-4000-8000-000000000003"
	o := placedOrder(ns, acct, wallet, pmd)
	r := lagging(t, o)

	_, err := (&walletWebhook{r: r}).ValidateDelete(ctx, &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: wallet}})
	if err == nil || !strings.Contains(err.Error(), "it is used by order "+o.Name) {
		t.Errorf("wallet deletion: %v, want a refusal naming order %s", err, o.Name)
	}
	_, err = (&paymentMethodWebhook{r: r}).ValidateDelete(ctx, &investv1.PaymentMethodDetails{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pmd}})
	if err == nil || !strings.Contains(err.Error(), "it is used by order "+o.Name) {
		t.Errorf("payment method details deletion: %v, want a refusal naming order %s", err, o.Name)
	}
	_, err = (&accountWebhook{r: r}).ValidateDelete(ctx, &investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: acct}})
	if err == nil || !strings.Contains(err.Error(), "live order "+o.Name) {
		t.Errorf("account deletion: %v, want a refusal naming live order %s", err, o.Name)
	}

	// Objects no order refers to still go.
	other := "d0000000-0000-4000-8000-000000000004"
	if _, err := (&walletWebhook{r: r}).ValidateDelete(ctx, &investv1.Wallet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: other}}); err != nil {
		t.Errorf("an unused wallet: %v, want it deleted", err)
	}
	if _, err := (&accountWebhook{r: r}).ValidateDelete(ctx, &investv1.Account{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: other}}); err != nil {
		t.Errorf("an account without orders: %v, want it deleted", err)
	}
}
