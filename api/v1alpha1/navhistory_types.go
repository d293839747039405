package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NAVPrice is the net asset value per share on one day.
type NAVPrice struct {
	// Date of the price.
	// +kubebuilder:validation:Format=date
	Date string `json:"date"`
	// NAVPerShare in micro-units of the currency (1 EUR = 10,000).
	// +kubebuilder:validation:Minimum=1
	NAVPerShare int64 `json:"navPerShare"`
	// ChangePercentage against the previous price, in rate units (1% = 100); may be
	// negative.
	// +optional
	ChangePercentage int64 `json:"changePercentage"`
	// Volume traded, when known.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Volume *int64 `json:"volume,omitempty"`
}

// NAVHistorySpec is the price history of one share class.
type NAVHistorySpec struct {
	// ISIN of the share class. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="isin is immutable"
	ISIN ISIN `json:"isin"`
	// Currency of the prices.
	Currency CurrencyCode `json:"currency"`
	// Prices, one per date; holds ten years of daily prices within etcd's object size
	// limit.
	// +listType=map
	// +listMapKey=date
	// +kubebuilder:validation:MaxItems=5000
	// +optional
	Prices []NAVPrice `json:"prices,omitempty"`
}

// NAVHistory holds the NAV prices of one share class. Cluster-scoped; its name is the
// share class's ISIN in lower case.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=nav,categories=fundshare
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name == self.spec.isin.lowerAscii()",message="metadata.name must be the ISIN in lower case"
type NAVHistory struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the price history.
	// +required
	Spec NAVHistorySpec `json:"spec"`
}

// NAVHistoryList is a list of NAVHistory.
//
// +kubebuilder:object:root=true
type NAVHistoryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NAVHistory `json:"items"`
}

func init() {
	register(&NAVHistory{}, &NAVHistoryList{})
}
