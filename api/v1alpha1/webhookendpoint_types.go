package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WebhookEventType is an event a webhook endpoint may subscribe to (docs/webhooks.md).
// +kubebuilder:validation:Enum=order.placed;order.payment_instructions_ready;order.payment_received;order.executed;order.delivery_initiated;order.delivery_completed;order.payment_sent;order.payment_completed;order.redemption_gated;order.completed;order.cancelled;order.stalled;wallet.registered;nav.published;webhook_endpoint.disabled
type WebhookEventType string

// WebhookSecretKey is the key of a webhook endpoint's Secret that holds its signing secret
// (whsec_ and base64); WebhookPreviousSecretKey holds the secret it replaced during a
// rotation, valid until the time in WebhookPreviousSecretExpiresKey (RFC 3339): until
// then every delivery carries a signature by each.
const (
	WebhookSecretKey                = "secret"
	WebhookPreviousSecretKey        = "previous"
	WebhookPreviousSecretExpiresKey = "previousExpiresAt"
)

// WebhookEndpointSpec is where a tenant's events are sent and which ones.
type WebhookEndpointSpec struct {
	// URL receives the events by POST: https, and a public address once resolved (the
	// operator may allow http://127.0.0.1 for local development and tests).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	URL string `json:"url"`
	// EventTypes it receives; empty: every type.
	// +listType=set
	// +kubebuilder:validation:MaxItems=32
	// +optional
	EventTypes []WebhookEventType `json:"eventTypes,omitempty"`
	// Disabled stops its deliveries; events that occur meanwhile are not sent to it (replay
	// them once it is enabled again).
	// +optional
	Disabled bool `json:"disabled,omitempty"`
	// Description is for people.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	Description string `json:"description,omitempty"`
	// SecretRef names the Secret of this namespace that holds the signing secret (key
	// "secret"; see WebhookSecretKey).
	SecretRef LocalSecretReference `json:"secretRef"`
}

// LocalSecretReference names a Secret of the same namespace.
type LocalSecretReference struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// WebhookEndpointStatus is what the dispatcher observed of the endpoint.
type WebhookEndpointStatus struct {
	// FailingSince is the first failed attempt of the current run of failures; cleared by a
	// successful delivery. After 5 days of failures the endpoint is disabled.
	// +optional
	FailingSince *metav1.Time `json:"failingSince,omitempty"`
	// DisabledBy is set when the dispatcher disabled the endpoint: Gone (it answered 410)
	// or FailingTooLong (every delivery failed for 5 days). Cleared when it is enabled
	// again (REST PATCH enabled=true, or a status patch).
	// +optional
	DisabledBy *WebhookDisabled `json:"disabledBy,omitempty"`
	// LastSuccessAt is the last delivery answered with 2xx.
	// +optional
	LastSuccessAt *metav1.Time `json:"lastSuccessAt,omitempty"`
}

// WebhookDisabled says why and when the dispatcher disabled an endpoint.
type WebhookDisabled struct {
	// Reason is Gone or FailingTooLong.
	// +kubebuilder:validation:Enum=Gone;FailingTooLong
	Reason string `json:"reason"`
	// At is when.
	At metav1.Time `json:"at"`
	// Message explains it (the last answer).
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Message string `json:"message,omitempty"`
}

// WebhookEndpoint is where a tenant (an API client's namespace) receives signed events
// (Standard Webhooks v1). Namespaced; its name is the endpoint's id.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=whe,categories=fundshare
// +kubebuilder:printcolumn:name="URL",type=string,JSONPath=`.spec.url`
// +kubebuilder:printcolumn:name="Disabled",type=boolean,JSONPath=`.spec.disabled`
// +kubebuilder:printcolumn:name="DisabledBy",type=string,JSONPath=`.status.disabledBy.reason`
// +kubebuilder:printcolumn:name="FailingSince",type=date,JSONPath=`.status.failingSince`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type WebhookEndpoint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is where and what to send.
	// +required
	Spec WebhookEndpointSpec `json:"spec"`
	// Status is what the dispatcher observed.
	// +optional
	Status WebhookEndpointStatus `json:"status,omitempty"`
}

// WebhookEndpointList is a list of WebhookEndpoint.
//
// +kubebuilder:object:root=true
type WebhookEndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WebhookEndpoint `json:"items"`
}

func init() {
	register(&WebhookEndpoint{}, &WebhookEndpointList{})
}

// WebhookEndpointFinalizer keeps a WebhookEndpoint until its deliveries and attempts are
// deleted from the webhook store (controllers/notify). REST creates endpoints with it.
const WebhookEndpointFinalizer = "invest.fundshare.io/webhook-deliveries"
