package placement

import (
	"encoding/hex"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/dealing"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/money"
	"github.com/fundshare/fundshare-operator/internal/secondary"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Decide prices the order of in or says why it cannot be placed. It reads nothing but in.
//
// The rules, in the order they are checked: the account exists (404); the ISIN is valid
// (422); a share class has the ISIN and its fund exists (404); then, reported together
// (422): the currency is the share class's, a NAV is published, a named custom offering
// exists, is for the ISIN and is valid now, a named wallet or payment method exists and
// belongs to the account (a dangling or foreign primary counts as none), a BEARER BUY has
// a recipient wallet; then the order value fits (422) and a BUY reaches the minimum
// investment (422); then a PRIMARY SELL needs a redeemable fund and a SELL enough held,
// unreserved and unlocked units (400).
func Decide(in Input) Result {
	var res Result
	fe := &res.Fields
	o := in.Order

	if in.Account == nil {
		res.NotFound = &NotFoundError{Resource: "Account", ID: string(o.Spec.AccountID), Field: "account_id"}
		return res
	}
	if err := validation.ValidateISIN(string(o.Spec.ISIN)); err != nil {
		fe.AddErr("isin", err)
		return res
	}
	if in.ShareClass == nil || in.Fund == nil {
		res.NotFound = &NotFoundError{Resource: "Share class", ID: string(o.Spec.ISIN), Field: "isin"}
		return res
	}
	sc, fund := in.ShareClass, in.Fund

	if o.Spec.Currency != sc.Spec.Currency {
		fe.Add("currency", fmt.Sprintf("must be %s, the currency of share class %s", sc.Spec.Currency, sc.Spec.ISIN))
	}
	onSecondary := o.Spec.Market == investv1.MarketSecondary
	if onSecondary && sc.Spec.Secondary == nil {
		fe.Add("market", fmt.Sprintf("share class %s has no secondary market: a SECONDARY order is matched with other investors' orders in a matching window, and the share class publishes none", sc.Spec.ISIN))
	}
	// A SECONDARY order is matched in units at the window's price, whatever the primary
	// market's pricing.
	forward := Forward(sc) && !onSecondary
	if forward || o.Spec.Amount != 0 {
		for k, msgs := range CheckQuantity(o.Spec.Side, forward, o.Spec.Amount != 0, o.Spec.AmountOfUnits != 0) {
			for _, m := range msgs {
				fe.Add(k, m)
			}
		}
	}
	// A forward order reads no NAV: it is priced at the strike, at its dealing date's.
	var nav *investv1.NAVPrice
	var dl dealing.Dealing
	var window investv1.OrderWindow
	if onSecondary && sc.Spec.Secondary != nil {
		var err error
		if window, err = secondary.WindowFor(sc.Spec.Secondary, in.Now); err != nil {
			fe.Add("isin", "the share class's secondary market has no matching window for the order: "+err.Error())
		}
	}
	switch {
	case forward:
		var err error
		if dl, err = dealing.DealingDateFor(sc.Spec.Dealing, o.Spec.Side, in.Now); err != nil {
			fe.Add("isin", "the share class's dealing calendar has no dealing date for the order: "+err.Error())
		}
	case in.NAVHistory != nil:
		nav = Latest(in.NAVHistory)
	}
	if nav == nil && !forward {
		fe.Add("isin", "no NAV price is published for this share class yet")
	}
	rate, source := feeRate(in, fe)

	walletID := child(in.Account, string(o.Spec.WalletID), in.Account.Spec.PrimaryWallet, walletOwner(in.Wallet), "wallet_id", fe)
	settlement := o.Spec.SettlementType
	if settlement == "" {
		settlement = investv1.SettlementBearer
	}
	if o.Spec.Side == investv1.SideBuy && settlement == investv1.SettlementBearer && walletID == "" && fe.Empty() {
		fe.Add("wallet_id", "a bearer order needs a recipient wallet: name one or make one of the account's wallets primary")
	}
	pmdID := child(in.Account, string(o.Spec.PaymentMethodDetailsID), in.Account.Spec.PrimaryPaymentMethodDetails, pmdOwner(in.PaymentMethodDetails), "payment_method_details_id", fe)
	if !fe.Empty() {
		return res
	}

	var q money.Quote
	switch {
	case onSecondary:
		var err error
		source = investv1.FeeSourceDefault
		if q, _, err = secondaryQuote(o, sc.Spec.Secondary, nav.NAVPerShare); err != nil {
			fe.Add("amount_of_units", "the order value cannot be computed: "+err.Error())
			return res
		}
		if o.Spec.Side == investv1.SideBuy && q.Gross < sc.Spec.MinInvestment {
			fe.Add("amount_of_units", fmt.Sprintf("the order value %s is below the share class's minimum investment %s",
				money.Format(q.Gross, string(sc.Spec.Currency)), money.Format(sc.Spec.MinInvestment, string(sc.Spec.Currency))))
			return res
		}
	case forward:
		// The price is the strike's: a BUY by amount is checked against the minimum
		// investment by its amount; an order by units has no value before the strike.
		q = money.Quote{Units: o.Spec.AmountOfUnits, FeeRate: rate}
		if o.Spec.Amount != 0 {
			q.Gross = o.Spec.Amount
			if o.Spec.Amount < sc.Spec.MinInvestment {
				fe.Add("amount", fmt.Sprintf("the amount %s is below the share class's minimum investment %s",
					money.Format(o.Spec.Amount, string(sc.Spec.Currency)), money.Format(sc.Spec.MinInvestment, string(sc.Spec.Currency))))
				return res
			}
		}
	default:
		var err error
		if q, err = money.QuoteOrder(o.Spec.AmountOfUnits, nav.NAVPerShare, rate); err != nil {
			fe.Add("amount_of_units", "the order value cannot be computed: "+err.Error())
			return res
		}
		if o.Spec.Side == investv1.SideBuy && q.Gross < sc.Spec.MinInvestment {
			fe.Add("amount_of_units", fmt.Sprintf("the order value %s is below the share class's minimum investment %s",
				money.Format(q.Gross, string(sc.Spec.Currency)), money.Format(sc.Spec.MinInvestment, string(sc.Spec.Currency))))
			return res
		}
	}

	if onSecondary && !fund.Spec.Tradeable {
		res.Rule = &RuleError{Code: CodeNotTradeable, Message: fmt.Sprintf("fund %s does not accept SECONDARY orders now", fund.Spec.Name), Field: "market"}
		return res
	}
	if o.Spec.Side == investv1.SideSell {
		if o.Spec.Market == investv1.MarketPrimary && !fund.Spec.Redeemable {
			res.Rule = &RuleError{Code: CodeNotRedeemable, Message: fmt.Sprintf("fund %s does not accept PRIMARY sell orders now", fund.Spec.Name), Field: "market"}
			return res
		}
		if code, msg, ok := holdings.SellCheck(in.Positions, o.Spec.ISIN, o.Spec.AmountOfUnits); !ok {
			res.Rule = &RuleError{Code: code, Message: msg, Field: "amount_of_units"}
			return res
		}
		if code, msg, ok := holdings.OnChainCheck(in.Account.Status.OnChain, o.Spec.ISIN, o.Spec.AmountOfUnits, in.OnChainMinted, in.OnChainTransferred, in.OnChainReserved); !ok {
			res.Rule = &RuleError{Code: code, Message: msg, Field: "amount_of_units"}
			return res
		}
	}

	res.Quote = &investv1.OrderQuote{
		GrossValue: q.Gross, FeeRate: q.FeeRate, FeeAmount: q.FeeAmount, FeeSource: source,
		NetAmount: q.Net, Amount: q.Gross,
		FundDetails: investv1.OrderFundDetails{
			ISIN: sc.Spec.ISIN, FundID: investv1.ObjectID(fund.Name), FundName: fund.Spec.Name,
			ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: sc.Spec.Name,
		},
		WalletID: investv1.ObjectID(walletID), PaymentMethodDetailsID: investv1.ObjectID(pmdID),
	}
	if onSecondary {
		res.Quote.Window = &window
		if o.Spec.Side == investv1.SideBuy {
			// The buyer pays the units at the price of placement and the fee; the window's
			// fill costs what it costs and the rest is refunded.
			res.Quote.Amount, res.Quote.NetAmount = q.Gross+q.FeeAmount, q.Gross // both checked in secondaryQuote
		}
	}
	if forward {
		cutOff := metav1.NewTime(dl.CutOff(o.Spec.Side).UTC())
		res.Quote.DealingDate, res.Quote.CutOff = dl.String(), &cutOff
	} else {
		res.Quote.NAVPerShare, res.Quote.NAVDate = nav.NAVPerShare, nav.Date
	}
	if onSecondary && sc.Spec.Secondary.CashOnChain != nil {
		// Cash on chain: the buyer escrows its amount at the settlement contract, the
		// seller is paid by the swaps; no bank transfer is asked for.
		res.Quote.CashOnChain = &investv1.OrderCashOnChain{CashOnChain: *sc.Spec.Secondary.CashOnChain}
		if o.Spec.Side == investv1.SideBuy {
			res.Quote.CashOnChain.EscrowReference = EscrowReference(o.Namespace, o.Name)
		}
		return res
	}
	if o.Spec.Side == investv1.SideBuy && fund.Spec.PaymentDetails != nil {
		res.Quote.PaymentDetails = &investv1.OrderPaymentDetails{
			AccountHolderName: fund.Spec.PaymentDetails.AccountHolderName,
			IBAN:              fund.Spec.PaymentDetails.IBAN,
			PaymentReference:  PaymentReference(o.Name),
		}
	}
	return res
}

// secondaryQuote prices a SECONDARY order at placement: its units at the latest NAV with
// the market's spread (a BUY's price above the NAV, a SELL's below), the side's secondary
// fee on the gross. The window fixes the price the order deals at; a BUY pays this
// quote's gross and fee, and what its fill does not use is refunded.
func secondaryQuote(o *investv1.Order, m *investv1.SecondaryMarket, nav int64) (money.Quote, int64, error) {
	buy, sell, err := secondary.Prices(nav, int64(m.SpreadBasisPoints))
	if err != nil {
		return money.Quote{}, 0, err
	}
	price, rate := buy, m.BuyFeeRate
	if o.Spec.Side == investv1.SideSell {
		price, rate = sell, m.SellFeeRate
	}
	q, err := money.QuoteOrder(o.Spec.AmountOfUnits, price, rate)
	if err != nil {
		return q, rate, err
	}
	if _, err := money.Add(q.Gross, q.FeeAmount); err != nil {
		return q, rate, err
	}
	return q, rate, nil
}

// feeRate is the share class's subscription (BUY) or redemption (SELL) fee, or the fee of
// the custom offering the order names when that offering exists, is for the order's ISIN
// and is valid now; a named offering that is not is a field error.
func feeRate(in Input, fe *validation.FieldErrors) (int64, investv1.FeeSource) {
	o, sc := in.Order, in.ShareClass
	rate, source := sc.Spec.SubscriptionFee, investv1.FeeSourceDefault
	if o.Spec.Side == investv1.SideSell {
		rate = sc.Spec.RedemptionFee
	}
	if o.Spec.CustomOfferingID == "" {
		return rate, source
	}
	off := in.CustomOffering
	switch {
	case off == nil:
		fe.Add("custom_offering_id", "no custom offering with this id exists")
	case off.Spec.ISIN != o.Spec.ISIN:
		fe.Add("custom_offering_id", fmt.Sprintf("the offering is for ISIN %s, not %s", off.Spec.ISIN, o.Spec.ISIN))
	case off.OfferingStatus(in.Now) == investv1.OfferingDeactivated:
		fe.Add("custom_offering_id", "the offering is deactivated")
	case off.OfferingStatus(in.Now) != investv1.OfferingActive:
		fe.Add("custom_offering_id", "the offering is not valid now")
	default:
		return off.FeeRateFor(o.Spec.Side), investv1.FeeSourceOffering
	}
	return rate, source
}

// child is the id of the wallet or payment method the order uses: the one it names, or
// the account's primary. A named one must exist and belong to the account; a primary
// pointer that dangles or points at another account's object counts as none. owner is
// the object's account, nil when it was not found.
func child(acct *investv1.Account, named, primary string, owner *investv1.ObjectID, restField string, fe *validation.FieldErrors) string {
	id := childID(named, primary)
	switch {
	case id == "":
		return ""
	case owner == nil:
		if named != "" {
			fe.Add(restField, "does not exist")
		}
		return ""
	case *owner != investv1.ObjectID(acct.Name):
		if named != "" {
			fe.Add(restField, "belongs to another account")
		}
		return ""
	}
	return id
}

func walletOwner(w *investv1.Wallet) *investv1.ObjectID {
	if w == nil {
		return nil
	}
	return &w.Spec.AccountID
}

func pmdOwner(p *investv1.PaymentMethodDetails) *investv1.ObjectID {
	if p == nil {
		return nil
	}
	return &p.Spec.AccountID
}

// Forward reports whether the share class prices forward: its orders are placed for a
// dealing date and priced at the strike.
func Forward(sc *investv1.ShareClass) bool {
	return sc.Spec.Dealing != nil && sc.Spec.Dealing.Pricing == investv1.PricingForward
}

// Messages of the quantity rule (CheckQuantity).
const (
	msgExactlyOne   = "give exactly one of amount (the money to invest) and amount_of_units"
	msgNotBoth      = "give either amount or amount_of_units, not both"
	msgSellInUnits  = "a SELL is given in units: give amount_of_units, not amount"
	msgLatestAmount = "is accepted only for share classes with forward pricing; give amount_of_units"
	msgRequired     = "is required"
)

// CheckQuantity is the rule of an order's quantity (ISO 20022 setr.010: an amount or a
// number of units, never both), for REST and admission alike, with REST field names: a
// BUY of a forward-priced share class gives exactly one of amount and amount_of_units
// (both or neither name both fields); every SELL, and every order of a latest-priced
// share class, gives amount_of_units and no amount.
func CheckQuantity(side investv1.OrderSide, forward, hasAmount, hasUnits bool) validation.FieldErrors {
	var fe validation.FieldErrors
	switch {
	case !forward:
		if hasAmount {
			fe.Add("amount", msgLatestAmount)
		}
		if !hasUnits {
			fe.Add("amount_of_units", msgRequired)
		}
	case side == investv1.SideSell:
		if hasAmount {
			fe.Add("amount", msgSellInUnits)
		}
		if !hasUnits {
			fe.Add("amount_of_units", msgRequired)
		}
	case hasAmount && hasUnits:
		fe.Add("amount", msgNotBoth)
		fe.Add("amount_of_units", msgNotBoth)
	case !hasAmount && !hasUnits:
		fe.Add("amount", msgExactlyOne)
		fe.Add("amount_of_units", msgExactlyOne)
	}
	return fe
}

// EscrowReference is the reference under which the buyer of a SECONDARY BUY settled with
// cash on chain escrows its amount, 0x and 64 lower-case hexadecimal digits: the order's
// effect reference for the escrow (its namespace and name; the UID is not known at
// placement). The swap that settles the BUY carries the same reference to the share token.
func EscrowReference(namespace, name string) string {
	ref := chain.EffectRef("Order", namespace, name, "", chain.EffectEscrow)
	return "0x" + hex.EncodeToString(ref[:])
}
