package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PaymentMethodType is a kind of payment method. Only `sepa` is supported.
// +kubebuilder:validation:Enum=sepa
type PaymentMethodType string

// PaymentMethodSEPA is a bank account reachable by SEPA transfers.
const PaymentMethodSEPA PaymentMethodType = "sepa"

// PaymentMethodDetailsSpec is a bank account attached to an account.
type PaymentMethodDetailsSpec struct {
	// AccountID is the id of the owning Account. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="accountID is immutable"
	// +required
	AccountID ObjectID `json:"accountID"`

	// Type is `sepa`, the only supported value. Immutable.
	// +kubebuilder:default=sepa
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type is immutable"
	// +optional
	Type PaymentMethodType `json:"type,omitempty"`

	// IBAN of the bank account, without spaces, upper case; its country, length and
	// mod-97 check digits are verified by admission. Immutable.
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`
	// +kubebuilder:validation:MinLength=15
	// +kubebuilder:validation:MaxLength=34
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="iban is immutable"
	// +required
	IBAN string `json:"iban"`

	// AccountHolderName is the bank account holder's name, at most 70 characters (the
	// SEPA limit).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=70
	// +required
	AccountHolderName string `json:"accountHolderName"`
}

// PaymentMethodDetailsStatus is what the controllers observed.
type PaymentMethodDetailsStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// IsPrimary mirrors the owning account's spec.primaryPaymentMethodDetails. Only one
	// set of payment method details per account is primary.
	// +optional
	IsPrimary bool `json:"isPrimary"`

	// Conditions: Ready (the owning account exists); Stalled (kstatus) while it does not.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// PaymentMethodDetails is a bank account for SEPA transfers attached to an account. Its
// name is its REST id, a lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pmd,categories=fundshare
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountID`
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="IBAN",type=string,JSONPath=`.spec.iban`
// +kubebuilder:printcolumn:name="Holder",type=string,JSONPath=`.spec.accountHolderName`,priority=1
// +kubebuilder:printcolumn:name="Primary",type=boolean,JSONPath=`.status.isPrimary`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type PaymentMethodDetails struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the bank account.
	// +required
	Spec PaymentMethodDetailsSpec `json:"spec"`
	// Status is observed by the controllers.
	// +optional
	Status PaymentMethodDetailsStatus `json:"status,omitempty"`
}

// PaymentMethodDetailsList is a list of PaymentMethodDetails.
//
// +kubebuilder:object:root=true
type PaymentMethodDetailsList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PaymentMethodDetails `json:"items"`
}

func init() {
	register(&PaymentMethodDetails{}, &PaymentMethodDetailsList{})
}
