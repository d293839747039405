// Package placement prices an order and checks it at placement, for the order admission
// webhook (kubectl) and POST /v1/orders (REST) alike: the account, share class, fund,
// wallet and payment method exist in the tenant and belong to the account; the currency
// is the share class's; a PRIMARY SELL needs a redeemable fund and enough unlocked units;
// the quote comes from the latest NAV with integer money (internal/money).
package placement

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// NotFoundError says that the order names an account or share class that does not exist
// (REST answers 404 "<Resource> not found").
type NotFoundError struct {
	Resource string // "Account" or "Share class"
	ID       string
	Field    string // the REST field that named it
}

func (e *NotFoundError) Error() string { return e.Resource + " not found: " + e.ID }

// RuleError is a business rule refusing the order (REST answers 400).
type RuleError struct {
	Code    string // short: "Insufficient holdings", "Shares locked", "Fund not redeemable"
	Message string
	Field   string // the REST field it is about
}

func (e *RuleError) Error() string { return e.Code + ": " + e.Message }

// CodeNotRedeemable refuses a PRIMARY SELL of a fund that is not redeemable.
const CodeNotRedeemable = "Fund not redeemable"

// Readers are where placement reads: the cache, and the API server for objects the cache
// may not show yet (created a moment ago).
type Readers struct {
	Cache client.Reader
	Live  client.Reader
}

func (r Readers) live() client.Reader {
	if r.Live != nil {
		return r.Live
	}
	return r.Cache
}

func (r Readers) get(ctx context.Context, key client.ObjectKey, obj client.Object) error {
	err := r.Cache.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) && r.Live != nil {
		err = r.Live.Get(ctx, key, obj)
	}
	return err
}

// Result is a priced order, or why it cannot be placed: field errors (422), a not-found
// reference (404) or a business rule (400).
type Result struct {
	Quote    *investv1.OrderQuote
	Fields   validation.FieldErrors
	NotFound *NotFoundError
	Rule     *RuleError
}

// Err folds the refusal into one error, nil when the order can be placed.
func (r Result) Err() error {
	switch {
	case r.NotFound != nil:
		return r.NotFound
	case !r.Fields.Empty():
		return fieldsError(r.Fields)
	case r.Rule != nil:
		return r.Rule
	}
	return nil
}

type fieldsError validation.FieldErrors

func (f fieldsError) Error() string {
	var parts []string
	for k, msgs := range f {
		parts = append(parts, k+": "+strings.Join(msgs, "; "))
	}
	return strings.Join(parts, ", ")
}

// PaymentReference is the reference a buyer quotes in the transfer: unique to the order
// (taken from its UUID), at most 35 characters as SEPA allows.
func PaymentReference(orderName string) string {
	return "FS" + strings.ToUpper(strings.ReplaceAll(orderName, "-", ""))[:16]
}

// Place checks the order and prices it at now. A non-nil error is an internal failure.
func Place(ctx context.Context, r Readers, o *investv1.Order, now time.Time) (Result, error) {
	var res Result
	fe := &res.Fields
	ns := o.Namespace

	// The account is read from the API server: its primary pointers and reservations must
	// be current (a client that just made a wallet primary places an order at once).
	acct := &investv1.Account{}
	if err := r.live().Get(ctx, client.ObjectKey{Namespace: ns, Name: string(o.Spec.AccountID)}, acct); apierrors.IsNotFound(err) {
		res.NotFound = &NotFoundError{Resource: "Account", ID: string(o.Spec.AccountID), Field: "account_id"}
		return res, nil
	} else if err != nil {
		return res, err
	}
	if err := validation.ValidateISIN(string(o.Spec.ISIN)); err != nil {
		fe.AddErr("isin", err)
		return res, nil
	}
	var classes investv1.ShareClassList
	if err := r.Cache.List(ctx, &classes, client.MatchingFields{index.ShareClassISIN: string(o.Spec.ISIN)}); err != nil {
		return res, err
	}
	if len(classes.Items) == 0 {
		res.NotFound = &NotFoundError{Resource: "Share class", ID: string(o.Spec.ISIN), Field: "isin"}
		return res, nil
	}
	sc := &classes.Items[0]
	fund := &investv1.Fund{}
	if err := r.get(ctx, client.ObjectKey{Name: string(sc.Spec.FeederFundID)}, fund); apierrors.IsNotFound(err) {
		res.NotFound = &NotFoundError{Resource: "Share class", ID: string(o.Spec.ISIN), Field: "isin"}
		return res, nil
	} else if err != nil {
		return res, err
	}
	if o.Spec.Currency != sc.Spec.Currency {
		fe.Add("currency", fmt.Sprintf("must be %s, the currency of share class %s", sc.Spec.Currency, sc.Spec.ISIN))
	}

	nav, err := latestNAV(ctx, r, o.Spec.ISIN)
	if err != nil {
		return res, err
	}
	if nav == nil {
		fe.Add("isin", "no NAV price is published for this share class yet")
	}

	rate, source := sc.Spec.SubscriptionFee, investv1.FeeSourceDefault
	if o.Spec.Side == investv1.SideSell {
		rate = sc.Spec.RedemptionFee
	}
	if o.Spec.CustomOfferingID != "" {
		off := &investv1.CustomOffering{}
		err := r.get(ctx, client.ObjectKey{Namespace: ns, Name: string(o.Spec.CustomOfferingID)}, off)
		switch {
		case apierrors.IsNotFound(err):
			fe.Add("custom_offering_id", "no custom offering with this id exists")
		case err != nil:
			return res, err
		case off.Spec.ISIN != o.Spec.ISIN:
			fe.Add("custom_offering_id", fmt.Sprintf("the offering is for ISIN %s, not %s", off.Spec.ISIN, o.Spec.ISIN))
		case off.Spec.ValidFrom != nil && now.Before(off.Spec.ValidFrom.Time), off.Spec.ValidUntil != nil && !now.Before(off.Spec.ValidUntil.Time):
			fe.Add("custom_offering_id", "the offering is not valid now")
		default:
			rate, source = off.Spec.FeeRate, investv1.FeeSourceOffering
		}
	}

	walletID, err := resolveChild(ctx, r, ns, acct, string(o.Spec.WalletID), acct.Spec.PrimaryWallet, &investv1.Wallet{}, "wallet_id", fe)
	if err != nil {
		return res, err
	}
	settlement := o.Spec.SettlementType
	if settlement == "" {
		settlement = investv1.SettlementBearer
	}
	if o.Spec.Side == investv1.SideBuy && settlement == investv1.SettlementBearer && walletID == "" && fe.Empty() {
		fe.Add("wallet_id", "a bearer order needs a recipient wallet: name one or make one of the account's wallets primary")
	}
	pmdID, err := resolveChild(ctx, r, ns, acct, string(o.Spec.PaymentMethodDetailsID), acct.Spec.PrimaryPaymentMethodDetails, &investv1.PaymentMethodDetails{}, "payment_method_details_id", fe)
	if err != nil {
		return res, err
	}
	if !fe.Empty() {
		return res, nil
	}

	q, err := money.QuoteOrder(o.Spec.AmountOfUnits, nav.NAVPerShare, rate)
	if err != nil {
		fe.Add("amount_of_units", "the order value cannot be computed: "+err.Error())
		return res, nil //nolint:nilerr // an overflow is the caller's error, answered as a field error
	}
	if o.Spec.Side == investv1.SideBuy && q.Gross < sc.Spec.MinInvestment {
		fe.Add("amount_of_units", fmt.Sprintf("the order value %s is below the share class's minimum investment %s",
			money.Format(q.Gross, string(sc.Spec.Currency)), money.Format(sc.Spec.MinInvestment, string(sc.Spec.Currency))))
		return res, nil
	}

	if o.Spec.Side == investv1.SideSell {
		if o.Spec.Market == investv1.MarketPrimary && !fund.Spec.Redeemable {
			res.Rule = &RuleError{Code: CodeNotRedeemable, Message: fmt.Sprintf("fund %s does not accept PRIMARY sell orders now", fund.Spec.Name), Field: "market"}
			return res, nil
		}
		positions, err := Positions(ctx, r.Cache, acct, now)
		if err != nil {
			return res, err
		}
		if code, msg, ok := holdings.SellCheck(positions, o.Spec.ISIN, o.Spec.AmountOfUnits); !ok {
			res.Rule = &RuleError{Code: code, Message: msg, Field: "amount_of_units"}
			return res, nil
		}
	}

	res.Quote = &investv1.OrderQuote{
		NAVPerShare: nav.NAVPerShare, NAVDate: nav.Date,
		GrossValue: q.Gross, FeeRate: q.FeeRate, FeeAmount: q.FeeAmount, FeeSource: source,
		NetAmount: q.Net, Amount: q.Gross,
		FundDetails: investv1.OrderFundDetails{
			ISIN: sc.Spec.ISIN, FundID: investv1.ObjectID(fund.Name), FundName: fund.Spec.Name,
			ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: sc.Spec.Name,
		},
		WalletID: investv1.ObjectID(walletID), PaymentMethodDetailsID: investv1.ObjectID(pmdID),
	}
	if o.Spec.Side == investv1.SideBuy && fund.Spec.PaymentDetails != nil {
		res.Quote.PaymentDetails = &investv1.OrderPaymentDetails{
			AccountHolderName: fund.Spec.PaymentDetails.AccountHolderName,
			IBAN:              fund.Spec.PaymentDetails.IBAN,
			PaymentReference:  PaymentReference(o.Name),
		}
	}
	return res, nil
}

// resolveChild returns the wallet or payment method the order uses: the one it names, or
// the account's primary. A named one must exist and belong to the account.
func resolveChild(ctx context.Context, r Readers, ns string, acct *investv1.Account, named, primary string, obj client.Object, restField string, fe *validation.FieldErrors) (string, error) {
	id := named
	if id == "" {
		id = primary
	}
	if id == "" {
		return "", nil
	}
	err := r.get(ctx, client.ObjectKey{Namespace: ns, Name: id}, obj)
	switch {
	case apierrors.IsNotFound(err):
		if named == "" {
			return "", nil // a dangling primary pointer: as if none were set
		}
		fe.Add(restField, "does not exist")
		return "", nil
	case err != nil:
		return "", err
	}
	var owner investv1.ObjectID
	switch c := obj.(type) {
	case *investv1.Wallet:
		owner = c.Spec.AccountID
	case *investv1.PaymentMethodDetails:
		owner = c.Spec.AccountID
	}
	if owner != investv1.ObjectID(acct.Name) {
		if named == "" {
			return "", nil
		}
		fe.Add(restField, "belongs to another account")
		return "", nil
	}
	return id, nil
}

// latestNAV is the newest price of the ISIN, or nil.
func latestNAV(ctx context.Context, r Readers, isin investv1.ISIN) (*investv1.NAVPrice, error) {
	h := &investv1.NAVHistory{}
	err := r.get(ctx, client.ObjectKey{Name: strings.ToLower(string(isin))}, h)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Latest(h), nil
}

// Latest is the newest price of a history, or nil.
func Latest(h *investv1.NAVHistory) *investv1.NAVPrice {
	var latest *investv1.NAVPrice
	for i := range h.Spec.Prices {
		if latest == nil || h.Spec.Prices[i].Date > latest.Date {
			latest = &h.Spec.Prices[i]
		}
	}
	return latest
}

// Positions computes an account's holdings from its orders in the cache.
func Positions(ctx context.Context, c client.Reader, acct *investv1.Account, now time.Time) (map[investv1.ISIN]*holdings.Position, error) {
	var orders investv1.OrderList
	if err := c.List(ctx, &orders, client.InNamespace(acct.Namespace), client.MatchingFields{index.OrderAccount: acct.Name}); err != nil {
		return nil, err
	}
	lockUps, err := LockUps(ctx, c)
	if err != nil {
		return nil, err
	}
	return holdings.Compute(holdings.Input{
		Orders: orders.Items, Reservations: acct.Status.Reservations, Now: now,
		LockUpDays: func(isin investv1.ISIN) int32 { return lockUps[isin] },
	}), nil
}

// LockUps reads every share class's lock-up in days by ISIN.
func LockUps(ctx context.Context, c client.Reader) (map[investv1.ISIN]int32, error) {
	var classes investv1.ShareClassList
	if err := c.List(ctx, &classes); err != nil {
		return nil, err
	}
	out := make(map[investv1.ISIN]int32, len(classes.Items))
	for _, sc := range classes.Items {
		out[sc.Spec.ISIN] = sc.Spec.LockUp
	}
	return out, nil
}

// IsRefusal reports whether err is a refusal of the order rather than an internal error.
func IsRefusal(err error) bool {
	var nf *NotFoundError
	var re *RuleError
	var fe fieldsError
	return errors.As(err, &nf) || errors.As(err, &re) || errors.As(err, &fe)
}
