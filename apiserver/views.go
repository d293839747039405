package apiserver

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
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

func shareClassView(c *investv1.ShareClass) ShareClass {
	s := &c.Spec
	return ShareClass{
		ID: c.Name, Name: s.Name, Abbreviation: s.Abbreviation, ManagementFee: s.ManagementFee,
		AdministrationFee: s.AdministrationFee, ServicingFee: s.ServicingFee,
		SubscriptionFee: s.SubscriptionFee, RedemptionFee: s.RedemptionFee, DepositaryFee: s.DepositaryFee,
		TargetReturnNet: s.TargetReturnNet, MinInvestment: s.MinInvestment, LockUp: s.LockUp,
		RedemptionWindow: s.RedemptionWindow, FeederFundID: string(s.FeederFundID), Created: created(c),
		ISIN: string(s.ISIN), Currency: string(s.Currency),
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
