package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// FundPaymentDetails is the fund's bank account, to which buyers transfer money.
type FundPaymentDetails struct {
	// Type of the payment method; `SEPA` is the value seen.
	// +kubebuilder:validation:Enum=SEPA
	// +kubebuilder:default=SEPA
	// +optional
	Type string `json:"type,omitempty"`
	// AccountHolderName is the name on the fund's bank account.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=70
	AccountHolderName string `json:"accountHolderName"`
	// IBAN of the fund's bank account.
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`
	// +kubebuilder:validation:MaxLength=34
	IBAN string `json:"iban"`
}

// FundDocument is a document of the fund, e.g. its feeder fund prospectus.
type FundDocument struct {
	// ID of the document.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	ID string `json:"id"`
	// URL of the document.
	// +kubebuilder:validation:Pattern=`^https?://`
	// +kubebuilder:validation:MaxLength=2048
	URL string `json:"url"`
	// Type of the document; `FEEDER_FUND` is the value seen.
	// +kubebuilder:validation:Enum=FEEDER_FUND;TARGET_FUND;KID;FACTSHEET;ANNUAL_REPORT;OTHER
	Type string `json:"type"`
}

// RedemptionGate holds sell orders back: while active, a sell order waits in
// REDEMPTION_GATED and moves to EXECUTED when the gate lifts.
type RedemptionGate struct {
	// Active closes the gate.
	Active bool `json:"active"`
	// Until, when set, lifts the gate at that time even if active is still true.
	// +optional
	Until *metav1.Time `json:"until,omitempty"`
	// Reason is shown to operators and on gated orders.
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Reason string `json:"reason,omitempty"`
}

// FundSpec describes a feeder fund.
type FundSpec struct {
	// Name of the fund.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Name string `json:"name"`
	// Abbreviation of the fund's name.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Abbreviation string `json:"abbreviation,omitempty"`
	// Description of the fund.
	// +kubebuilder:validation:MaxLength=4000
	// +optional
	Description string `json:"description,omitempty"`
	// TargetFundName is the name of the fund the feeder fund invests in.
	// +kubebuilder:validation:MaxLength=200
	// +optional
	TargetFundName string `json:"targetFundName,omitempty"`
	// TargetFundVolume is the target fund's volume, in units of the base currency.
	// +kubebuilder:validation:Minimum=0
	// +optional
	TargetFundVolume int64 `json:"targetFundVolume,omitempty"`
	// TargetFundJurisdiction is the target fund's jurisdiction as a country code.
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}$`
	// +kubebuilder:validation:MaxLength=2
	// +optional
	TargetFundJurisdiction string `json:"targetFundJurisdiction,omitempty"`
	// RiskScore from 1 to 10.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	RiskScore int32 `json:"riskScore"`
	// RecommendedHoldingDuration appears both as a number (years) and as a text with a unit
	// (e.g. "5 years").
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:XValidation:rule="type(self) == int ? self >= 0 : self.size() <= 64",message="must be a non-negative number or a text of at most 64 characters"
	// +optional
	RecommendedHoldingDuration *intstr.IntOrString `json:"recommendedHoldingDuration,omitempty"`
	// FeederFundVolume is the feeder fund's volume, in units of the base currency.
	// +kubebuilder:validation:Minimum=0
	// +optional
	FeederFundVolume int64 `json:"feederFundVolume,omitempty"`
	// FeederFundLocation is where the feeder fund is domiciled.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	FeederFundLocation string `json:"feederFundLocation,omitempty"`
	// NAVFrequency is how often a NAV is published; `monthly` and `quarterly` are the
	// values seen.
	// +kubebuilder:validation:Enum=daily;weekly;monthly;quarterly;semiannually;annually
	// +optional
	NAVFrequency string `json:"navFrequency,omitempty"`
	// Strategy of the fund.
	// +kubebuilder:validation:MaxLength=4000
	// +optional
	Strategy string `json:"strategy,omitempty"`
	// BaseCurrency is three uppercase letters.
	BaseCurrency CurrencyCode `json:"baseCurrency"`
	// DistributionStrategy: `accumulating` or `distributing`.
	// +kubebuilder:validation:Enum=accumulating;distributing
	// +optional
	DistributionStrategy string `json:"distributionStrategy,omitempty"`
	// PaymentDetails is the fund's bank account for subscriptions.
	// +optional
	PaymentDetails *FundPaymentDetails `json:"paymentDetails,omitempty"`
	// Documents of the fund; may be empty.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MaxItems=50
	// +optional
	Documents []FundDocument `json:"documents,omitempty"`

	// Subscribable: PRIMARY buy orders reach EXECUTED only while true.
	// +optional
	Subscribable bool `json:"subscribable"`
	// Redeemable: PRIMARY sell orders are accepted only while true.
	// +optional
	Redeemable bool `json:"redeemable"`
	// Tradeable: SECONDARY orders reach EXECUTED only while true.
	// +optional
	Tradeable bool `json:"tradeable"`
	// RedemptionGate holds sell orders in REDEMPTION_GATED while active.
	// +optional
	RedemptionGate *RedemptionGate `json:"redemptionGate,omitempty"`
}

// Fund is a feeder fund of the catalogue. Cluster-scoped; its name is its REST id, a
// lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=fund,categories=fundshare
// +kubebuilder:printcolumn:name="Fund Name",type=string,JSONPath=`.spec.name`
// +kubebuilder:printcolumn:name="Abbr",type=string,JSONPath=`.spec.abbreviation`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.baseCurrency`
// +kubebuilder:printcolumn:name="Risk",type=integer,JSONPath=`.spec.riskScore`
// +kubebuilder:printcolumn:name="Subscribable",type=boolean,JSONPath=`.spec.subscribable`
// +kubebuilder:printcolumn:name="Redeemable",type=boolean,JSONPath=`.spec.redeemable`
// +kubebuilder:printcolumn:name="Tradeable",type=boolean,JSONPath=`.spec.tradeable`
// +kubebuilder:printcolumn:name="Gated",type=boolean,JSONPath=`.spec.redemptionGate.active`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the fund's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type Fund struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec describes the fund.
	// +required
	Spec FundSpec `json:"spec"`
}

// FundList is a list of Fund.
//
// +kubebuilder:object:root=true
type FundList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Fund `json:"items"`
}

func init() {
	register(&Fund{}, &FundList{})
}
