package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Chain is a blockchain on which wallets can be registered. Only `polygon` is enabled;
// more chains are announced for future releases.
// +kubebuilder:validation:Enum=polygon
type Chain string

// ChainPolygon is the Polygon PoS chain.
const ChainPolygon Chain = "polygon"

// WalletSpec is a blockchain wallet registered for an account. Assets bought in an order
// are delivered as tokens to a registered wallet address. Every field is immutable: an
// order may refer to the registration.
type WalletSpec struct {
	// AccountID is the id of the owning Account. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="accountID is immutable"
	// +required
	AccountID ObjectID `json:"accountID"`

	// Chain is the blockchain of the wallet: `polygon` (the default and only enabled
	// value). Immutable.
	// +kubebuilder:default=polygon
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="chain is immutable"
	// +optional
	Chain Chain `json:"chain,omitempty"`

	// WalletAddress is a valid address for the chain: 0x and 40 hexadecimal digits; a
	// mixed-case address must pass its EIP-55 checksum. Stored in its EIP-55 form. An
	// address can be registered only once per account. Immutable.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +kubebuilder:validation:MinLength=42
	// +kubebuilder:validation:MaxLength=42
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="walletAddress is immutable"
	// +required
	WalletAddress string `json:"walletAddress"`
}

// WalletStatus is what the controllers observed about the wallet.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.registration) || has(self.registration)",message="a recorded registration cannot be removed",fieldPath=".registration"
type WalletStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// IsPrimary mirrors the owning account's spec.primaryWallet: true when this wallet is
	// the account's primary wallet. Only one wallet per account is primary.
	// +optional
	IsPrimary bool `json:"isPrimary"`

	// Registration is the wallet's entry in the identity registry of the operator's chain,
	// when a chain is configured.
	// +optional
	Registration *WalletRegistration `json:"registration,omitempty"`

	// Conditions: Registered (the address is in the chain's identity registry, when a
	// chain is configured); the kstatus trio: Ready (the owning account exists and, with a
	// chain, the address is registered), Reconciling (Registering or Removing: the
	// registry transaction is sent, not yet final) and Stalled (AccountNotFound,
	// RegistrationFailed: a person must act).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// RegistrationState is where a wallet stands in the chain's identity registry.
// +kubebuilder:validation:Enum=Pending;Registered;Removing;Failed
type RegistrationState string

// The registration states.
const (
	// RegistrationPending: the registerWallet transaction is recorded or sent, not yet
	// confirmed.
	RegistrationPending RegistrationState = "Pending"
	// RegistrationRegistered: the registry verifies the address.
	RegistrationRegistered RegistrationState = "Registered"
	// RegistrationRemoving: the wallet is being deleted and its removeWallet transaction is
	// recorded or sent.
	RegistrationRemoving RegistrationState = "Removing"
	// RegistrationFailed: the transaction reverted; the reason is in the Registered
	// condition. Never re-sent as a new transaction by itself.
	RegistrationFailed RegistrationState = "Failed"
)

// WalletRegistration is a wallet's entry in the identity registry.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.registerTransaction) || has(self.registerTransaction)",message="a recorded transaction cannot be removed",fieldPath=".registerTransaction"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.removeTransaction) || has(self.removeTransaction)",message="a recorded transaction cannot be removed",fieldPath=".removeTransaction"
type WalletRegistration struct {
	// State of the registration.
	State RegistrationState `json:"state"`
	// Registry is the identity registry's address.
	// +optional
	Registry string `json:"registry,omitempty"`
	// ChainID of the registry's chain.
	// +optional
	ChainID int64 `json:"chainId,omitempty"`
	// TransactionHash of the last registerWallet or removeWallet transaction this wallet
	// caused; empty when the address was already registered through another Wallet (the
	// registry is a set).
	// +optional
	TransactionHash string `json:"transactionHash,omitempty"`
	// RegisterTransaction is the registerWallet transaction, recorded before it is
	// broadcast; absent when the address was already registered.
	// +optional
	RegisterTransaction *ChainTransaction `json:"registerTransaction,omitempty"`
	// RemoveTransaction is the removeWallet transaction of the wallet's deletion, recorded
	// before it is broadcast; absent when another Wallet still registers the address.
	// +optional
	RemoveTransaction *ChainTransaction `json:"removeTransaction,omitempty"`
}

// Wallet is a blockchain wallet registered for an account. Its name is its REST id, a
// lowercase UUID; registrations made through REST are named by a UUIDv5 of the account and
// the address, so that the API server itself refuses a second registration of one address.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wal,categories=fundshare
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountID`
// +kubebuilder:printcolumn:name="Chain",type=string,JSONPath=`.spec.chain`
// +kubebuilder:printcolumn:name="Address",type=string,JSONPath=`.spec.walletAddress`
// +kubebuilder:printcolumn:name="Primary",type=boolean,JSONPath=`.status.isPrimary`
// +kubebuilder:printcolumn:name="Registration",type=string,JSONPath=`.status.registration.state`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the wallet's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type Wallet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the registration.
	// +required
	Spec WalletSpec `json:"spec"`
	// Status is observed by the controllers.
	// +optional
	Status WalletStatus `json:"status,omitempty"`
}

// WalletList is a list of Wallet.
//
// +kubebuilder:object:root=true
type WalletList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Wallet `json:"items"`
}

func init() {
	register(&Wallet{}, &WalletList{})
}
