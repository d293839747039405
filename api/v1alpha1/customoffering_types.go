package v1alpha1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CustomOfferingSpec is a fee arrangement of a tenant for one share class.
// +kubebuilder:validation:XValidation:rule="!has(self.validUntil) || !has(self.validFrom) || self.validFrom < self.validUntil",message="validUntil must be after validFrom",fieldPath=".validUntil"
type CustomOfferingSpec struct {
	// ISIN of the share class the offering applies to.
	ISIN ISIN `json:"isin"`
	// FeeRate replaces the share class's subscription (BUY) and redemption (SELL) fee, in
	// rate units (100% = 10,000), unless subscriptionFeeRate or redemptionFeeRate names
	// another rate for that side.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	FeeRate int64 `json:"feeRate"`
	// SubscriptionFeeRate, when set, is the rate for BUY orders instead of feeRate.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	SubscriptionFeeRate *int64 `json:"subscriptionFeeRate,omitempty"`
	// RedemptionFeeRate, when set, is the rate for SELL orders instead of feeRate.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	RedemptionFeeRate *int64 `json:"redemptionFeeRate,omitempty"`
	// ValidFrom is when the offering starts; immediately when absent.
	// +optional
	ValidFrom *metav1.Time `json:"validFrom,omitempty"`
	// ValidUntil is when the offering ends; never when absent.
	// +optional
	ValidUntil *metav1.Time `json:"validUntil,omitempty"`
	// Deactivated withdraws the offering before its end: orders can no longer name it.
	// Orders placed with it keep the fee fixed at their placement.
	// +optional
	Deactivated bool `json:"deactivated,omitempty"`
	// Description for operators; the REST interface shows it as notes.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	Description string `json:"description,omitempty"`
}

// CustomOffering is a tenant's fee arrangement for a share class, referenced by orders
// through custom_offering_id. Its name is its id, a lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=offer,categories=fundshare
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Fee",type=integer,JSONPath=`.spec.feeRate`
// +kubebuilder:printcolumn:name="Until",type=date,JSONPath=`.spec.validUntil`
// +kubebuilder:printcolumn:name="Deactivated",type=boolean,JSONPath=`.spec.deactivated`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the offering's id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type CustomOffering struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the arrangement.
	// +required
	Spec CustomOfferingSpec `json:"spec"`
}

// CustomOfferingList is a list of CustomOffering.
//
// +kubebuilder:object:root=true
type CustomOfferingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CustomOffering `json:"items"`
}

func init() {
	register(&CustomOffering{}, &CustomOfferingList{})
}

// Custom offering statuses, as the REST interface shows them (OfferingStatus).
const (
	OfferingActive      = "active"
	OfferingPending     = "pending"
	OfferingExpired     = "expired"
	OfferingDeactivated = "deactivated"
)

// OfferingStatus is the offering's status at now: deactivated when withdrawn, pending
// before validFrom, expired from validUntil on, else active. Only an active offering
// applies to an order placed at now.
func (o *CustomOffering) OfferingStatus(now time.Time) string {
	switch s := &o.Spec; {
	case s.Deactivated:
		return OfferingDeactivated
	case s.ValidFrom != nil && now.Before(s.ValidFrom.Time):
		return OfferingPending
	case s.ValidUntil != nil && !now.Before(s.ValidUntil.Time):
		return OfferingExpired
	}
	return OfferingActive
}

// FeeRateFor is the offering's rate for an order of side.
func (o *CustomOffering) FeeRateFor(side OrderSide) int64 {
	rate := o.Spec.SubscriptionFeeRate
	if side == SideSell {
		rate = o.Spec.RedemptionFeeRate
	}
	if rate != nil {
		return *rate
	}
	return o.Spec.FeeRate
}
