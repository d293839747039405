package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WalletRecoverySpec names the lost wallet and the account's wallet that receives its units.
// Immutable.
type WalletRecoverySpec struct {
	// AccountID is the id of the Account both wallets belong to.
	// +required
	AccountID ObjectID `json:"accountID"`
	// FromWalletID is the lost wallet (its key is lost or compromised): every unit it holds
	// on chain, with every lock-up, moves to ToWalletID. The recovery's name is this id.
	// +required
	FromWalletID ObjectID `json:"fromWalletID"`
	// ToWalletID is the replacement: a wallet of the same account, with another address,
	// registered in the identity registry (status.registration.state Registered).
	// +required
	ToWalletID ObjectID `json:"toWalletID"`
}

// WalletRecoveryPhase is where a recovery stands.
// +kubebuilder:validation:Enum=Pending;Recovering;Completed;Failed
type WalletRecoveryPhase string

// The recovery phases.
const (
	// RecoveryPending: accepted, nothing signed yet.
	RecoveryPending WalletRecoveryPhase = "Pending"
	// RecoveryRecovering: recoverWallet transactions are recorded or sent.
	RecoveryRecovering WalletRecoveryPhase = "Recovering"
	// RecoveryCompleted: every token's units left the lost wallet (final on chain).
	RecoveryCompleted WalletRecoveryPhase = "Completed"
	// RecoveryFailed: a recoverWallet transaction reverted (Stalled says why); nothing is
	// re-sent, a person decides.
	RecoveryFailed WalletRecoveryPhase = "Failed"
)

// WalletRecoveryToken is the recovery of one share class's token: one recoverWallet
// transaction, recorded before it was broadcast.
type WalletRecoveryToken struct {
	// ISIN is the share class.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="the share class of a recorded recovery transaction is immutable"
	// +required
	ISIN ISIN `json:"isin"`
	// Token is the share class's token contract.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +kubebuilder:validation:MaxLength=42
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="the token of a recorded recovery transaction is immutable"
	Token string `json:"token"`
	// Units the lost wallet held (balanceOf) when the transaction was signed; the
	// transaction moves the whole balance whatever it is when mined.
	// +kubebuilder:validation:Minimum=0
	Units int64 `json:"units"`
	// Locked of those units were locked (lockedBalanceOf) when signed; their locks move too.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Locked int64 `json:"locked,omitempty"`
	// Transaction is recoverWallet(from, to), signed and recorded before it was broadcast.
	// +required
	Transaction *ChainTransaction `json:"transaction"`
	// Recovered is set when the chain showed this token's recovery applied (its effect
	// reference) although no record said so (etcd restored from an older snapshot, a status
	// write lost): Transaction is then the transaction that applied it, rebuilt from the
	// chain, and nothing new was signed.
	// +optional
	Recovered *ChainEffect `json:"recovered,omitempty"`
}

// WalletRecoveryStatus is the recovery's transactions and outcome.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.tokens) || (has(self.tokens) && oldSelf.tokens.all(o, self.tokens.exists(t, t.token == o.token)))",message="a recorded recovery transaction cannot be removed",fieldPath=".tokens"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.from) || (has(self.from) && self.from == oldSelf.from)",message="the lost wallet's address is immutable once recorded",fieldPath=".from"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.to) || (has(self.to) && self.to == oldSelf.to)",message="the replacement's address is immutable once recorded",fieldPath=".to"
type WalletRecoveryStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is Pending, Recovering, Completed or Failed.
	// +optional
	Phase WalletRecoveryPhase `json:"phase,omitempty"`
	// From is the lost wallet's address, recorded when the recovery starts.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +optional
	From string `json:"from,omitempty"`
	// To is the replacement wallet's address, recorded when the recovery starts.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +optional
	To string `json:"to,omitempty"`
	// Tokens are the recoverWallet transactions, one per share class token in which the
	// lost wallet held units, in the order they were signed. At most 15 (the API server's
	// budget for checking that recorded transactions never change).
	// +listType=map
	// +listMapKey=token
	// +kubebuilder:validation:MaxItems=15
	// +optional
	Tokens []WalletRecoveryToken `json:"tokens,omitempty"`
	// CompletedAt is when every transaction was final.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`
	// Conditions: Ready (True once completed); Stalled (a transaction reverted or a wallet
	// is missing: the reason; a person decides).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WalletRecovery is a lost-key recovery, an operator operation: the chain agent moves the
// whole on-chain balance of an account's lost wallet, in every share class token and with
// every lock-up, to another registered wallet of the same account, with the token's
// agent-only recoverWallet (a forced transfer), one transaction per token, each recorded in
// the status before it is broadcast, so that it happens exactly once. Afterwards the lost
// wallet holds nothing and can be deleted. Its name is the lost wallet's id, so a wallet has
// at most one recovery. Created with kubectl or `POST
// /v1/accounts/{account_id}/wallets/{wallet_id}/recovery`.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wrec,categories=fundshare
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountID`
// +kubebuilder:printcolumn:name="From",type=string,JSONPath=`.spec.fromWalletID`
// +kubebuilder:printcolumn:name="To",type=string,JSONPath=`.spec.toWalletID`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.spec == oldSelf.spec",message="spec is immutable"
// +kubebuilder:validation:XValidation:rule="self.metadata.name == self.spec.fromWalletID",message="metadata.name must be spec.fromWalletID (a wallet has at most one recovery)"
// +kubebuilder:validation:XValidation:rule="self.spec.fromWalletID != self.spec.toWalletID",message="toWalletID must be another wallet than fromWalletID"
type WalletRecovery struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the wallets; immutable.
	// +required
	Spec WalletRecoverySpec `json:"spec"`

	// Status is the recovery's transactions and outcome.
	// +optional
	Status WalletRecoveryStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WalletRecoveryList is a list of WalletRecovery.
type WalletRecoveryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WalletRecovery `json:"items"`
}

func init() {
	register(&WalletRecovery{}, &WalletRecoveryList{})
}
