package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SecretKeyRef names a key of a Secret in the ApiClient's namespace.
type SecretKeyRef struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Key in the Secret's data; `hash` when omitted.
	// +kubebuilder:default=hash
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Key string `json:"key,omitempty"`
}

// ApiClientSpec is an integrator's credentials and settings. The namespace of the
// ApiClient is the integrator's tenant: every REST call with its token is confined to it.
type ApiClientSpec struct {
	// ClientID is the OAuth2 client_id issued at onboarding; unique across the cluster.
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9._~-]{3,128}$`
	ClientID string `json:"clientID"`
	// ClientSecretRef names the Secret key that holds the argon2id hash of the client
	// secret (never the secret itself).
	ClientSecretRef SecretKeyRef `json:"clientSecretRef"`
	// TaxReporting: the client opted in to tax reporting, so accounts need tax_residencies
	// and tin (individual) or tax_id (business).
	// +optional
	TaxReporting bool `json:"taxReporting,omitempty"`
	// LEIRequired: business accounts need a valid LEI.
	// +optional
	LEIRequired bool `json:"leiRequired,omitempty"`
	// KYCDataRequired: accounts need their full address and, for individuals, birth data.
	// +optional
	KYCDataRequired bool `json:"kycDataRequired,omitempty"`
	// Disabled refuses new tokens for this client.
	// +optional
	Disabled bool `json:"disabled,omitempty"`
}

// ApiClientStatus is what the controller observed.
type ApiClientStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions, the kstatus way: Ready is True when the Secret named by
	// clientSecretRef holds a well-formed argon2id hash (reason SecretValid, or Disabled
	// for a disabled client); otherwise Ready is False and Stalled is True with the reason
	// SecretNotFound, SecretKeyMissing or InvalidHash.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// ApiClient is an integrator (API client) of the REST facade: its OAuth2 credentials and
// the settings that change what accounts need.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=apic,categories=fundshare
// +kubebuilder:printcolumn:name="Client ID",type=string,JSONPath=`.spec.clientID`
// +kubebuilder:printcolumn:name="Tax",type=boolean,JSONPath=`.spec.taxReporting`
// +kubebuilder:printcolumn:name="LEI",type=boolean,JSONPath=`.spec.leiRequired`
// +kubebuilder:printcolumn:name="KYC",type=boolean,JSONPath=`.spec.kycDataRequired`
// +kubebuilder:printcolumn:name="Disabled",type=boolean,JSONPath=`.spec.disabled`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ApiClient struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the credentials and settings.
	// +required
	Spec ApiClientSpec `json:"spec"`
	// Status is observed by the controller.
	// +optional
	Status ApiClientStatus `json:"status,omitempty"`
}

// ApiClientList is a list of ApiClient.
//
// +kubebuilder:object:root=true
type ApiClientList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ApiClient `json:"items"`
}

func init() {
	register(&ApiClient{}, &ApiClientList{})
}
