package apiserver

import (
	"maps"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// The functions here turn custom resources into the JSON shapes of types.go. is_primary
// is always computed from the owning account's pointer, never from the child's status
// (which a controller fills later), so a list read with one account can show at most one
// primary.

func created(m metav1.Object) string {
	return m.GetCreationTimestamp().UTC().Format(time.RFC3339)
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt32(n int32) *int32 {
	if n == 0 {
		return nil
	}
	return &n
}

func accountView(a *investv1.Account) Account {
	s := &a.Spec
	return Account{
		ID: a.Name, ExternalID: optString(s.ExternalID), Type: string(s.Type),
		Country: optString(s.Country), City: optString(s.City), Line1: optString(s.Line1),
		Line2: optString(s.Line2), PostalCode: optString(s.PostalCode), State: optString(s.State),
		FirstName: optString(s.FirstName), LastName: optString(s.LastName),
		DobDay: optInt32(s.DobDay), DobMonth: optInt32(s.DobMonth), DobYear: optInt32(s.DobYear),
		PlaceOfBirth: optString(s.PlaceOfBirth), BusinessName: optString(s.BusinessName),
		LEI: optString(s.LEI), TaxID: optString(s.TaxID), TIN: optString(s.TIN),
		TaxResidencies: optString(s.TaxResidencies), Created: created(a),
	}
}

func walletView(w *investv1.Wallet, owner *investv1.Account) Wallet {
	chain := w.Spec.Chain
	if chain == "" {
		chain = investv1.ChainPolygon
	}
	return Wallet{
		ID: w.Name, AccountID: string(w.Spec.AccountID), Chain: string(chain),
		WalletAddress: w.Spec.WalletAddress,
		IsPrimary:     owner != nil && owner.Spec.PrimaryWallet != "" && owner.Spec.PrimaryWallet == w.Name,
		Created:       created(w),
	}
}

func paymentMethodView(p *investv1.PaymentMethodDetails, owner *investv1.Account) PaymentMethodDetails {
	typ := p.Spec.Type
	if typ == "" {
		typ = investv1.PaymentMethodSEPA
	}
	return PaymentMethodDetails{
		ID: p.Name, AccountID: string(p.Spec.AccountID), Type: string(typ), IBAN: p.Spec.IBAN,
		AccountHolderName: p.Spec.AccountHolderName,
		IsPrimary: owner != nil && owner.Spec.PrimaryPaymentMethodDetails != "" &&
			owner.Spec.PrimaryPaymentMethodDetails == p.Name,
		Created: created(p),
	}
}

func fundView(f *investv1.Fund) Fund {
	s := &f.Spec
	out := Fund{
		ID: f.Name, Name: s.Name, Abbreviation: s.Abbreviation, Description: s.Description,
		TargetFundName: s.TargetFundName, TargetFundVolume: s.TargetFundVolume,
		TargetFundJurisdiction: s.TargetFundJurisdiction, RiskScore: s.RiskScore,
		FeederFundVolume: s.FeederFundVolume, FeederFundLocation: s.FeederFundLocation,
		NAVFrequency: s.NAVFrequency, Strategy: s.Strategy, BaseCurrency: string(s.BaseCurrency),
		DistributionStrategy: s.DistributionStrategy, Documents: make([]FundDocument, 0, len(s.Documents)),
		Created: created(f), Subscribable: s.Subscribable, Redeemable: s.Redeemable, Tradeable: s.Tradeable,
	}
	if d := s.RecommendedHoldingDuration; d != nil {
		if d.Type == intstr.Int {
			out.RecommendedHoldingDuration = d.IntVal
		} else {
			out.RecommendedHoldingDuration = d.StrVal
		}
	}
	if p := s.PaymentDetails; p != nil {
		typ := p.Type
		if typ == "" {
			typ = "SEPA"
		}
		out.PaymentDetails = &FundPaymentDetails{Type: typ, AccountHolderName: p.AccountHolderName, IBAN: p.IBAN}
	}
	for _, d := range s.Documents {
		out.Documents = append(out.Documents, FundDocument{ID: d.ID, URL: d.URL, Type: d.Type})
	}
	if g := s.RedemptionGate; g != nil {
		gate := &RedemptionGate{Active: g.Active, Reason: optString(g.Reason)}
		if g.Until != nil {
			until := g.Until.UTC().Format(time.RFC3339)
			gate.Until = &until
		}
		out.RedemptionGate = gate
	}
	return out
}

func shareClassView(c *investv1.ShareClass, now time.Time) ShareClass {
	s := &c.Spec
	return ShareClass{
		ID: c.Name, Name: s.Name, Abbreviation: s.Abbreviation, ManagementFee: s.ManagementFee,
		AdministrationFee: s.AdministrationFee, ServicingFee: s.ServicingFee,
		SubscriptionFee: s.SubscriptionFee, RedemptionFee: s.RedemptionFee, DepositaryFee: s.DepositaryFee,
		TargetReturnNet: s.TargetReturnNet, MinInvestment: s.MinInvestment, LockUp: s.LockUp,
		RedemptionWindow: s.RedemptionWindow, FeederFundID: string(s.FeederFundID), Created: created(c),
		ISIN: string(s.ISIN), Currency: string(s.Currency), Dealing: dealingView(s.Dealing, now),
		SecondaryMarket: secondaryMarketView(s.Secondary, now),
	}
}

// priceView writes the day of a price as a date-time at midnight UTC, the spec's type.
func priceView(p investv1.NAVPrice, currency string) AssetPrice {
	date := p.Date
	if t, err := time.Parse(time.DateOnly, p.Date); err == nil {
		date = t.UTC().Format(time.RFC3339)
	}
	return AssetPrice{NAVPerShare: p.NAVPerShare, Date: date, Currency: currency,
		ChangePercentage: p.ChangePercentage, Volume: p.Volume}
}

func optInt64(n int64) *int64 { return &n }

func timestamp(t metav1.Time) string { return t.UTC().Format(time.RFC3339) }

// orderStatus is the order's lifecycle status: PLACED until the controller writes one.
func orderStatus(o *investv1.Order) string {
	if o.Status.State == "" {
		return string(investv1.StatePlaced)
	}
	return string(o.Status.State)
}

// settlementTransactionHash is the token transfer's transaction: the one mined, recorded
// with the delivery's completion, else the one broadcast when it was initiated (they differ
// only when a stuck transaction was replaced with a higher fee).
func settlementTransactionHash(o *investv1.Order) *string {
	ev := &o.Status.Settlement
	for _, rec := range []*investv1.SettlementRecord{ev.DeliveryCompleted, ev.DeliveryInitiated} {
		if rec != nil && rec.TransactionHash != "" {
			return optString(rec.TransactionHash)
		}
	}
	return nil
}

// paymentTransactionReference is the customer's payment of a BUY or the payout of a SELL.
func paymentTransactionReference(o *investv1.Order) *string {
	rec := o.Status.Settlement.PaymentReceived
	if o.Spec.Side == investv1.SideSell {
		rec = o.Status.Settlement.PaymentSent
	}
	if rec == nil {
		return nil
	}
	return optString(rec.Reference)
}

// placedWalletID is the order's recipient wallet as placement resolved it (the quote's:
// the one the client named, else the account's primary, also for an order created with
// kubectl that names none), else the one its spec names (an order that was never quoted);
// "" when neither. Unlike the wallet index (index.OrderWalletKey) it stays on terminal
// and archived orders: it says what the order was placed with, not what it still holds.
func placedWalletID(o *investv1.Order) string {
	if q := o.Spec.Quote; q != nil && q.WalletID != "" {
		return string(q.WalletID)
	}
	return string(o.Spec.WalletID)
}

// placedPaymentMethodID is placedWalletID for the customer's payment method details.
func placedPaymentMethodID(o *investv1.Order) string {
	if q := o.Spec.Quote; q != nil && q.PaymentMethodDetailsID != "" {
		return string(q.PaymentMethodDetailsID)
	}
	return string(o.Spec.PaymentMethodDetailsID)
}

func orderListItemView(o *investv1.Order) OrderListItem {
	item := OrderListItem{
		ID: o.Name, Side: string(o.Spec.Side), Market: string(o.Spec.Market), Status: orderStatus(o),
		Currency: string(o.Spec.Currency), ISIN: string(o.Spec.ISIN),
		AccountID: string(o.Spec.AccountID), Created: created(o),
		SettlementTransactionHash:   settlementTransactionHash(o),
		PaymentTransactionReference: paymentTransactionReference(o),
		CustomOfferingID:            optString(string(o.Spec.CustomOfferingID)),
		WalletID:                    optString(placedWalletID(o)),
		PaymentMethodDetailsID:      optString(placedPaymentMethodID(o)),
	}
	if units := lifecycle.Units(o); units > 0 {
		item.AmountOfUnits = &units
	}
	if q := o.Spec.Quote; q != nil {
		item.Value = q.GrossValue
	}
	if lifecycle.Forward(o) {
		item.DealingDate = optString(lifecycle.DealingDate(o))
		item.Confirmation = present(confirmationView(o))
		item.CarriedFrom = optString(string(o.Spec.CarriedFrom))
		if n := o.Status.Strike; n != nil {
			item.Value = n.GrossAmount
		}
	}
	if lifecycle.Secondary(o) {
		// A SECONDARY order of a share class's secondary market: its matching window, and
		// its contract note (null until the window matched it) with the window's fill.
		item.MatchingWindow = orderWindowView(o)
		item.Confirmation = present(confirmationView(o))
		item.CarriedFrom = optString(string(o.Spec.CarriedFrom))
		if n := o.Status.Strike; n != nil {
			item.Value = n.GrossAmount
		}
	}
	return item
}

// confirmationView is a forward or SECONDARY order's contract note; nil before the strike
// (the match).
func confirmationView(o *investv1.Order) *OrderConfirmation {
	n := o.Status.Strike
	if n == nil {
		return nil
	}
	c := &OrderConfirmation{
		Dealing: n.Dealing, TradeDate: n.TradeDate, NAVDate: n.NAVDate, Price: n.NAVPerShare, Units: n.Units,
		GrossAmount: n.GrossAmount, FeeRate: n.FeeRate, FeeAmount: n.FeeAmount, NetAmount: n.NetAmount,
		Currency: string(o.Spec.Currency), SettlementDate: n.SettlementDate, StruckAt: timestamp(n.StruckAt),
	}
	if lifecycle.ByAmount(o) {
		c.UnitsValue, c.ResidualAmount = optInt64(n.UnitsValue), optInt64(n.Residual)
		c.ResidualReference = optString(n.ResidualReference)
	}
	if n.Secondary != nil && n.Residual > 0 {
		// A SECONDARY BUY paid more than its fill costs: the rest is refunded.
		c.ResidualAmount, c.ResidualReference = optInt64(n.Residual), optString(n.ResidualReference)
	}
	if lifecycle.ResidualOwed(o) {
		status := "PENDING"
		switch ev := o.Status.Settlement; {
		case ev.ResidualRefundCompleted != nil:
			status = "COMPLETED"
		case ev.ResidualRefundSent != nil:
			status = "SENT"
		}
		c.ResidualRefundStatus = &status
	}
	if n.RequestedUnits > 0 {
		c.RequestedUnits = optInt64(n.RequestedUnits)
	}
	if a := n.AntiDilution; a != nil {
		c.AntiDilution = &OrderAntiDilution{Method: upperSnake(string(a.Method)), FactorBasisPoints: a.FactorBasisPoints,
			Direction: upperSnake(string(a.Direction)), NAV: a.NAV}
		if a.Method == investv1.AntiDilutionLevy {
			c.AntiDilution.LevyAmount = optInt64(a.LevyAmount)
		}
	}
	if f := n.CarriedForward; f != nil {
		c.CarriedForward = &OrderCarriedForward{OrderID: string(f.Order), Units: f.Units, DealingDate: f.DealingDate, CutOff: timestamp(f.CutOff)}
		if o.Spec.Side == investv1.SideBuy {
			c.CarriedForward.Amount = optInt64(f.Amount)
		}
	}
	c.Fill = fillView(o, n)
	return c
}

// orderView is the full order. An order without a quote (created while admission was
// off; the controller cancels it) shows null money fields.
func orderView(o *investv1.Order) Order {
	settlement := o.Spec.SettlementType
	if settlement == "" {
		settlement = investv1.SettlementBearer
	}
	out := Order{
		OrderListItem: orderListItemView(o), CreatedAt: created(o), Amount: optInt64(0),
		FundDetails:           OrderFundDetails{ISIN: string(o.Spec.ISIN)},
		SettlementType:        string(settlement),
		CancellationRequested: o.Spec.CancellationRequested,
		History:               make([]OrderHistoryEntry, 0, len(o.Status.History)),
	}
	if q := o.Spec.Quote; q != nil {
		source := string(q.FeeSource)
		out.Amount = optInt64(q.Amount)
		feeAmount, netAmount, grossValue := optInt64(q.FeeAmount), optInt64(q.NetAmount), optInt64(q.GrossValue)
		if lifecycle.Forward(o) {
			// Until the strike a forward order has no price: its fee and net amount are
			// null, and so are its amount and gross value unless it is a BUY by amount.
			out.CutOff = optString(lifecycle.CutOff(o).UTC().Format(time.RFC3339))
			feeAmount, netAmount, grossValue = nil, nil, nil
			if q.Amount == 0 {
				out.Amount = nil
			} else {
				grossValue = optInt64(q.GrossValue)
			}
			if n := o.Status.Strike; n != nil {
				out.Amount, feeAmount, netAmount, grossValue = optInt64(n.GrossAmount), optInt64(n.FeeAmount), optInt64(n.NetAmount), optInt64(n.GrossAmount)
			}
		}
		if n := o.Status.Strike; n != nil && n.Secondary != nil {
			// Matched: the window's price. A BUY's amount is what its fill costs (gross +
			// fee; the rest of its payment is the residual), a SELL's its gross.
			out.Amount, feeAmount, netAmount, grossValue = optInt64(n.GrossAmount), optInt64(n.FeeAmount), optInt64(n.NetAmount), optInt64(n.GrossAmount)
			if o.Spec.Side == investv1.SideBuy {
				out.Amount = optInt64(n.Secondary.AmountDue)
			}
		}
		if o.Spec.Side == investv1.SideSell {
			out.RedemptionFeeAmount, out.RedemptionFee = feeAmount, optInt64(q.FeeRate)
		} else {
			out.SubscriptionFeeAmount, out.SubscriptionFee = feeAmount, optInt64(q.FeeRate)
		}
		out.FeeSource = optString(source)
		out.NetAmount, out.GrossValue = netAmount, grossValue
		f := q.FundDetails
		if f.ISIN != "" {
			out.FundDetails.ISIN = string(f.ISIN)
		}
		out.FundDetails.FundID, out.FundDetails.FundName = optString(string(f.FundID)), optString(f.FundName)
		out.FundDetails.ShareClassID, out.FundDetails.ShareClassName = optString(string(f.ShareClassID)), optString(f.ShareClassName)
		if p := q.PaymentDetails; p != nil && o.Spec.Side == investv1.SideBuy {
			out.PaymentDetails = &OrderPaymentDetails{AccountHolderName: p.AccountHolderName, IBAN: p.IBAN, PaymentReference: p.PaymentReference}
		}
		if c := q.CashOnChain; c != nil {
			out.CashOnChain = &OrderCashOnChain{CashOnChain: CashOnChain{Settlement: c.Settlement, CashToken: c.CashToken, FeeCollector: c.FeeCollector}}
			if o.Spec.Side == investv1.SideBuy {
				out.CashOnChain.EscrowReference, out.CashOnChain.EscrowAmount = optString(c.EscrowReference), optInt64(q.Amount)
			}
		}
	}
	if r := o.Status.Refund; r != nil {
		out.Refund = &OrderRefund{
			Amount: r.Amount, Currency: string(r.Currency), PaymentMethodDetailsID: optString(string(r.PaymentMethodDetailsID)),
			Reference: r.Reference, Status: string(lifecycle.RefundStateOf(o)),
		}
		if sent := o.Status.Settlement.RefundSent; sent != nil {
			out.Refund.SentReference, out.Refund.SentAt = optString(sent.Reference), optString(timestamp(sent.At))
		}
		if done := o.Status.Settlement.RefundCompleted; done != nil {
			out.Refund.CompletedAt = optString(timestamp(done.At))
		}
	}
	for _, h := range o.Status.History {
		out.History = append(out.History, OrderHistoryEntry{
			Status: string(h.State), At: timestamp(h.At), Reason: h.Reason, Message: optString(h.Message),
		})
	}
	return out
}

// portfolioView lists the positions by ISIN; names and currencies come from the share
// classes (by ISIN), when they still exist.
func portfolioView(accountID string, positions map[investv1.ISIN]*holdings.Position, classes map[investv1.ISIN]*investv1.ShareClass) Portfolio {
	out := Portfolio{AccountID: accountID, Positions: []PortfolioPosition{}}
	for _, isin := range slices.Sorted(maps.Keys(positions)) {
		p := positions[isin]
		if p.Units == 0 && p.Reserved == 0 && p.TransferredIn == 0 && p.TransferredOut == 0 {
			continue
		}
		pos := PortfolioPosition{
			ISIN: string(isin), Units: p.Units, Redeemable: p.Redeemable(), Locked: p.Locked, Reserved: p.Reserved,
			TransferredInUnits: p.TransferredIn, TransferredOutUnits: p.TransferredOut,
			SubscribedUnits: p.Subscribed, RedeemedUnits: p.Redeemed, SecondaryBoughtUnits: p.SecondaryBought, SecondarySoldUnits: p.SecondarySold,
			Lots: make([]PortfolioLot, 0, len(p.Lots)),
		}
		if c := classes[isin]; c != nil {
			pos.ShareClassName, pos.Currency = optString(c.Spec.Name), optString(string(c.Spec.Currency))
		}
		for _, l := range p.Lots {
			pos.Lots = append(pos.Lots, PortfolioLot{
				Units: l.Units, AcquiredAt: l.AcquiredAt.UTC().Format(time.RFC3339), UnlocksAt: l.UnlocksAt.UTC().Format(time.RFC3339),
			})
		}
		out.Positions = append(out.Positions, pos)
	}
	return out
}
