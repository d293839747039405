package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShareClassSpec describes a share class of a feeder fund. Fees and returns are in rate
// units (100% = 10,000), money in micro-units (1 EUR = 10,000), the lock-up in days.
type ShareClassSpec struct {
	// Name of the share class.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Name string `json:"name"`
	// Abbreviation of the name.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Abbreviation string `json:"abbreviation,omitempty"`
	// ISIN of the share class, unique across share classes; check digit verified by
	// admission. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="isin is immutable"
	ISIN ISIN `json:"isin"`
	// Currency of the share class's NAV and orders.
	Currency CurrencyCode `json:"currency"`
	// ManagementFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	ManagementFee int64 `json:"managementFee"`
	// AdministrationFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	AdministrationFee int64 `json:"administrationFee"`
	// ServicingFee in rate units per year, or absent.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	ServicingFee *int64 `json:"servicingFee,omitempty"`
	// SubscriptionFee is the default fee rate of buy orders.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	SubscriptionFee int64 `json:"subscriptionFee"`
	// RedemptionFee is the default fee rate of sell orders.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	RedemptionFee int64 `json:"redemptionFee"`
	// DepositaryFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	DepositaryFee int64 `json:"depositaryFee"`
	// TargetReturnNet in rate units per year; may be negative.
	// +kubebuilder:validation:Minimum=-10000
	// +kubebuilder:validation:Maximum=100000
	// +optional
	TargetReturnNet int64 `json:"targetReturnNet"`
	// MinInvestment in micro-units of the currency.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MinInvestment int64 `json:"minInvestment"`
	// LockUp in days: units younger than this cannot be sold.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=36500
	// +optional
	LockUp int32 `json:"lockUp"`
	// RedemptionWindow: `monthly` and `quarterly` are the values seen.
	// +kubebuilder:validation:Enum=daily;weekly;monthly;quarterly;semiannually;annually
	// +optional
	RedemptionWindow string `json:"redemptionWindow,omitempty"`
	// FeederFundID is the id of the Fund the share class belongs to. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="feederFundID is immutable"
	FeederFundID ObjectID `json:"feederFundID"`
}

// ShareClass is a share class of a feeder fund. Cluster-scoped; its name is its REST id,
// a lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=sc,categories=fundshare
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Name",type=string,JSONPath=`.spec.name`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`
// +kubebuilder:printcolumn:name="Fund",type=string,JSONPath=`.spec.feederFundID`
// +kubebuilder:printcolumn:name="Lock-up",type=integer,JSONPath=`.spec.lockUp`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the share class's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type ShareClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec describes the share class.
	// +required
	Spec ShareClassSpec `json:"spec"`
}

// ShareClassList is a list of ShareClass.
//
// +kubebuilder:object:root=true
type ShareClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ShareClass `json:"items"`
}

func init() {
	SchemeBuilder.Register(&ShareClass{}, &ShareClassList{})
}
