// Package index names every field index of the manager's cache and registers them in one
// place, so that the manager, the REST facade and the tests use the same ones. Reads by
// index answer from the informer cache without scanning a namespace.
package index

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Index names. Each is a field path the cache can filter on with client.MatchingFields.
const (
	// AccountExternalID indexes accounts by spec.externalID.
	AccountExternalID = "spec.externalID"
	// AccountType indexes accounts by spec.type.
	AccountType = "spec.type"
	// WalletAccount indexes wallets by spec.accountID.
	WalletAccount = "wallet.spec.accountID"
	// WalletAddress indexes wallets by "<accountID>/<lowercase address>".
	WalletAddress = "wallet.accountAddress"
	// PaymentMethodAccount indexes payment method details by spec.accountID.
	PaymentMethodAccount = "pmd.spec.accountID"
	// OrderAccount indexes orders by spec.accountID.
	OrderAccount = "order.spec.accountID"
	// OrderISIN indexes orders by spec.isin.
	OrderISIN = "order.spec.isin"
	// OrderState indexes orders by status.state (PLACED when still empty).
	OrderState = "order.status.state"
	// OrderWallet indexes live orders by the recipient wallet they refer to.
	OrderWallet = "order.wallet"
	// OrderPaymentMethod indexes live orders by the payment method details they refer to.
	OrderPaymentMethod = "order.paymentMethodDetails"
	// OrderDealing indexes forward-priced orders by the Dealing they deal at now
	// (lifecycle.OrderDealingName: the ISIN in lower case and the dealing date).
	OrderDealing = "order.dealing"
	// OrderWindow indexes SECONDARY orders by the MatchingWindow they deal in now
	// (lifecycle.OrderWindowName).
	OrderWindow = "order.window"
	// BatchMember indexes live DeliveryBatches by the orders they hold (BatchHolds).
	BatchMember = "deliverybatch.member"
	// WindowISIN indexes MatchingWindow objects by spec.isin.
	WindowISIN = "matchingwindow.spec.isin"
	// DealingISIN indexes Dealing objects by spec.isin.
	DealingISIN = "dealing.spec.isin"
	// ShareClassISIN indexes share classes by spec.isin. It is named after the
	// ShareClass CRD's selectable field, so that one field selector reads the cache and
	// the API server alike (ShareClassesOf).
	ShareClassISIN = "spec.isin"
	// ShareClassFund indexes share classes by spec.feederFundID.
	ShareClassFund = "shareclass.spec.feederFundID"
	// ApiClientID indexes API clients by spec.clientID (across namespaces).
	ApiClientID = "apiclient.spec.clientID"
	// CustomOfferingISIN indexes offerings by spec.isin.
	CustomOfferingISIN = "offering.spec.isin"
	// IdempotencyKey indexes accounts, wallets, payment method details and orders created
	// through REST with an Idempotency-Key header by that key (their
	// AnnotationIdempotencyKey annotation).
	IdempotencyKey = "metadata.annotations.idempotencyKey"
)

// AnnotationIdempotencyKey holds the Idempotency-Key of the REST request that created an
// object.
const AnnotationIdempotencyKey = "invest.fundshare.io/idempotency-key"

func idempotencyKey(o client.Object) []string {
	return one(o.GetAnnotations()[AnnotationIdempotencyKey])
}

// WalletAddressKey is the WalletAddress index value of an address on an account.
func WalletAddressKey(accountID, address string) string {
	return accountID + "/" + validation.EVMAddressKey(address)
}

// OrderStateKey is the OrderState index value of an order.
func OrderStateKey(o *investv1.Order) string {
	if o.Status.State == "" {
		return string(investv1.StatePlaced)
	}
	return string(o.Status.State)
}

// OrderWalletKey is the wallet a live order refers to: its own choice or the one resolved
// at placement. Terminal orders are left out: the index answers "may this wallet be
// deleted?", and they hold nothing.
func OrderWalletKey(o *investv1.Order) string {
	if o.Status.State.Terminal() {
		return ""
	}
	if o.Spec.WalletID != "" {
		return string(o.Spec.WalletID)
	}
	if o.Spec.Quote != nil {
		return string(o.Spec.Quote.WalletID)
	}
	return ""
}

// OrderPaymentMethodKey is the payment method details a live order refers to (terminal
// orders are left out, as for wallets, except a cancelled order whose refund is still
// outstanding: the refund goes to that account).
func OrderPaymentMethodKey(o *investv1.Order) string {
	if o.Status.State.Terminal() {
		if lifecycle.RefundOutstanding(o) {
			return string(o.Status.Refund.PaymentMethodDetailsID)
		}
		return ""
	}
	if o.Spec.PaymentMethodDetailsID != "" {
		return string(o.Spec.PaymentMethodDetailsID)
	}
	if o.Spec.Quote != nil {
		return string(o.Spec.Quote.PaymentMethodDetailsID)
	}
	return ""
}

// FieldIndexer is what a manager's cache offers (mgr.GetFieldIndexer()).
type FieldIndexer = client.FieldIndexer

func one(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// BatchHolds are the member orders a DeliveryBatch holds: none once it is abandoned; those
// its transaction includes once one is recorded; every candidate before that. An order a
// batch holds is minted (or settled) by that batch and by nothing else.
func BatchHolds(b *investv1.DeliveryBatch) []string {
	switch {
	case b.Status.Abandoned != nil:
		return nil
	case b.Status.Transaction != nil:
		return b.Status.Included
	}
	out := make([]string, len(b.Spec.Members))
	for i, m := range b.Spec.Members {
		out[i] = m.Order
	}
	return out
}

// Register adds every index to the indexer.
func Register(ctx context.Context, fi FieldIndexer) error {
	type entry struct {
		obj   client.Object
		field string
		fn    client.IndexerFunc
	}
	entries := []entry{
		{&investv1.Account{}, AccountExternalID, func(o client.Object) []string { return one(o.(*investv1.Account).Spec.ExternalID) }},
		{&investv1.Account{}, AccountType, func(o client.Object) []string { return one(string(o.(*investv1.Account).Spec.Type)) }},
		{&investv1.Wallet{}, WalletAccount, func(o client.Object) []string { return one(string(o.(*investv1.Wallet).Spec.AccountID)) }},
		{&investv1.Wallet{}, WalletAddress, func(o client.Object) []string {
			w := o.(*investv1.Wallet)
			return one(WalletAddressKey(string(w.Spec.AccountID), w.Spec.WalletAddress))
		}},
		{&investv1.PaymentMethodDetails{}, PaymentMethodAccount, func(o client.Object) []string {
			return one(string(o.(*investv1.PaymentMethodDetails).Spec.AccountID))
		}},
		{&investv1.Order{}, OrderAccount, func(o client.Object) []string { return one(string(o.(*investv1.Order).Spec.AccountID)) }},
		{&investv1.Order{}, OrderISIN, func(o client.Object) []string { return one(string(o.(*investv1.Order).Spec.ISIN)) }},
		{&investv1.Order{}, OrderState, func(o client.Object) []string { return one(OrderStateKey(o.(*investv1.Order))) }},
		{&investv1.Order{}, OrderDealing, func(o client.Object) []string { return one(lifecycle.OrderDealingName(o.(*investv1.Order))) }},
		{&investv1.Order{}, OrderWindow, func(o client.Object) []string { return one(lifecycle.OrderWindowName(o.(*investv1.Order))) }},
		{&investv1.DeliveryBatch{}, BatchMember, func(o client.Object) []string { return BatchHolds(o.(*investv1.DeliveryBatch)) }},
		{&investv1.MatchingWindow{}, WindowISIN, func(o client.Object) []string { return one(string(o.(*investv1.MatchingWindow).Spec.ISIN)) }},
		{&investv1.Dealing{}, DealingISIN, func(o client.Object) []string { return one(string(o.(*investv1.Dealing).Spec.ISIN)) }},
		{&investv1.Order{}, OrderWallet, func(o client.Object) []string { return one(OrderWalletKey(o.(*investv1.Order))) }},
		{&investv1.Order{}, OrderPaymentMethod, func(o client.Object) []string { return one(OrderPaymentMethodKey(o.(*investv1.Order))) }},
		{&investv1.ShareClass{}, ShareClassISIN, func(o client.Object) []string { return one(string(o.(*investv1.ShareClass).Spec.ISIN)) }},
		{&investv1.ShareClass{}, ShareClassFund, func(o client.Object) []string {
			return one(string(o.(*investv1.ShareClass).Spec.FeederFundID))
		}},
		{&investv1.ApiClient{}, ApiClientID, func(o client.Object) []string { return one(o.(*investv1.ApiClient).Spec.ClientID) }},
		{&investv1.CustomOffering{}, CustomOfferingISIN, func(o client.Object) []string {
			return one(string(o.(*investv1.CustomOffering).Spec.ISIN))
		}},
		{&investv1.Account{}, IdempotencyKey, idempotencyKey},
		{&investv1.Wallet{}, IdempotencyKey, idempotencyKey},
		{&investv1.PaymentMethodDetails{}, IdempotencyKey, idempotencyKey},
		{&investv1.Order{}, IdempotencyKey, idempotencyKey},
	}
	for _, e := range entries {
		if err := fi.IndexField(ctx, e.obj, e.field, e.fn); err != nil {
			return fmt.Errorf("index %s: %w", e.field, err)
		}
	}
	return nil
}

// ShareClassesOf lists the share classes of isin from the first of readers that has any
// (nil readers are skipped): typically the cache, then the API server for a class made a
// moment ago that the cache has not seen yet. Both answer the same field selector: the
// cache through its ISIN index, the API server through the CRD's selectable field
// spec.isin, so a lookup of an ISIN nobody knows costs the API server one filtered list.
// An API server whose ShareClass CRD predates the selectable field (an upgrade under way)
// answers 400 Bad Request; then the whole catalogue (small) is listed and picked by ISIN.
func ShareClassesOf(ctx context.Context, isin investv1.ISIN, readers ...client.Reader) (investv1.ShareClassList, error) {
	var classes investv1.ShareClassList
	for _, c := range readers {
		if c == nil {
			continue
		}
		err := c.List(ctx, &classes, client.MatchingFields{ShareClassISIN: string(isin)})
		if apierrors.IsBadRequest(err) {
			if err = c.List(ctx, &classes); err == nil {
				classes.Items = slices.DeleteFunc(classes.Items, func(sc investv1.ShareClass) bool { return sc.Spec.ISIN != isin })
			}
		}
		if err != nil || len(classes.Items) > 0 {
			return classes, err
		}
	}
	return classes, nil
}
