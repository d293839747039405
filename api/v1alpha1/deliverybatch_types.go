package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeliveryBatchPhase is where a batch stands.
// +kubebuilder:validation:Enum=Claiming;Sent;Completed;Reverted;Abandoned
type DeliveryBatchPhase string

// The phases of a DeliveryBatch.
const (
	// DeliveryBatchClaiming: the member orders are being claimed; nothing is signed yet.
	DeliveryBatchClaiming DeliveryBatchPhase = "Claiming"
	// DeliveryBatchSent: the batchMint is recorded (and broadcast); waiting for its
	// confirmations.
	DeliveryBatchSent DeliveryBatchPhase = "Sent"
	// DeliveryBatchCompleted: the batchMint is final and succeeded.
	DeliveryBatchCompleted DeliveryBatchPhase = "Completed"
	// DeliveryBatchReverted: the batchMint was mined and reverted; every member is
	// Stalled and nothing is re-sent.
	DeliveryBatchReverted DeliveryBatchPhase = "Reverted"
	// DeliveryBatchAbandoned: nothing was signed and nothing ever will be; the claims are
	// released and the members are minted one by one.
	DeliveryBatchAbandoned DeliveryBatchPhase = "Abandoned"
)

// DeliveryBatchMember is one BUY order the batch mints for.
type DeliveryBatchMember struct {
	// Order is the name of the BUY order (in the batch's namespace).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Order string `json:"order"`
	// WalletID is the order's delivery wallet.
	// +optional
	WalletID ObjectID `json:"walletID,omitempty"`
	// Address is the wallet's address the units are minted to.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Address string `json:"address"`
	// Units is the order's amountOfUnits.
	// +kubebuilder:validation:Minimum=1
	Units int64 `json:"units"`
	// LockedUntil is the release time of the member's units (share class with a lock-up):
	// the batch mints with batchMintLocked, and the claim records it in the order's
	// status.chain.lockedUntil. Unset: minted unlocked.
	// +optional
	LockedUntil *metav1.Time `json:"lockedUntil,omitempty"`
	// Legs (a batch of kind Settle) are the transfers that deliver a SECONDARY BUY: the
	// units each seller's wallet moves to Address, in the matching window's pairing
	// order; they add up to Units.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Legs []DeliveryBatchLeg `json:"legs,omitempty"`
}

// DeliveryBatchLeg is one transfer of a secondary settlement: units from a seller's wallet.
type DeliveryBatchLeg struct {
	// From is the seller's wallet address.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	From string `json:"from"`
	// Units moved from it.
	// +kubebuilder:validation:Minimum=1
	Units int64 `json:"units"`
	// Sell is the SELL order the units come from, as namespace/name.
	// +kubebuilder:validation:MaxLength=317
	// +optional
	Sell string `json:"sell,omitempty"`
}

// DeliveryBatchKind is what a batch's transaction does.
// +kubebuilder:validation:Enum=Mint;Settle
type DeliveryBatchKind string

// The kinds of DeliveryBatch.
const (
	// DeliveryBatchMint mints new units for PRIMARY BUYs (batchMint, batchMintWithRefs).
	DeliveryBatchMint DeliveryBatchKind = "Mint"
	// DeliveryBatchSettle moves existing units from sellers to SECONDARY BUYs
	// (batchSettleWithRefs); nothing is minted or burned.
	DeliveryBatchSettle DeliveryBatchKind = "Settle"
)

// DeliveryBatchSpec is what the batch may mint or settle: orders of one namespace and one
// share class (one token). Immutable.
// +kubebuilder:validation:XValidation:rule="(has(self.kind) && self.kind == 'Settle') == self.members.exists(m, has(m.legs))",message="the members of a Settle batch have their legs, those of a Mint batch none"
// +kubebuilder:validation:XValidation:rule="!has(self.kind) || self.kind != 'Settle' || self.members.all(m, has(m.legs))",message="every member of a Settle batch has its legs"
type DeliveryBatchSpec struct {
	// ISIN is the share class of every member.
	// +required
	ISIN ISIN `json:"isin"`
	// Token is the share class's token contract the batchMint calls.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Token string `json:"token"`
	// ChainID is the chain of the token.
	// +kubebuilder:validation:Minimum=1
	ChainID int64 `json:"chainID"`
	// Kind is Mint (the default: PRIMARY BUYs minted) or Settle (SECONDARY BUYs delivered
	// by transfers from their sellers' wallets, every member with its legs).
	// +optional
	Kind DeliveryBatchKind `json:"kind,omitempty"`
	// Members are the candidate orders. Only those claimed (status.included) are in the
	// transaction.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=256
	Members []DeliveryBatchMember `json:"members"`
}

// DeliveryBatchStatus is the batch's claims, transaction and outcome.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.transaction) || has(self.transaction)",message="a recorded transaction cannot be removed",fieldPath=".transaction"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.included) || (has(self.included) && self.included == oldSelf.included)",message="the members of a recorded transaction are immutable",fieldPath=".included"
// +kubebuilder:validation:XValidation:rule="!has(self.transaction) || !has(self.abandoned)",message="an abandoned batch never records a transaction"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.abandoned) || has(self.abandoned)",message="an abandoned batch stays abandoned",fieldPath=".abandoned"
// +kubebuilder:validation:XValidation:rule="has(self.transaction) == has(self.included)",message="the included members are recorded with the transaction"
type DeliveryBatchStatus struct {
	// Phase is Claiming, Sent, Completed, Reverted or Abandoned.
	// +optional
	Phase DeliveryBatchPhase `json:"phase,omitempty"`
	// Included are the member orders the transaction mints for, in the order of its
	// arguments: the members whose claim (status.chain.batch) was written before signing.
	// Recorded with the transaction, in the same write.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=256
	// +optional
	Included []string `json:"included,omitempty"`
	// Transaction is the batchMint, signed and recorded before it was broadcast (the
	// transaction outbox's record, as an order's mint is recorded in the order).
	// +optional
	Transaction *ChainTransaction `json:"transaction,omitempty"`
	// Abandoned is why the batch will never sign anything (its pre-flight estimate
	// reverted, or no member could be claimed); its claims are released and the members
	// are minted one by one.
	// +optional
	Abandoned *ChainRefusal `json:"abandoned,omitempty"`
}

// DeliveryBatch is one transaction of the chain agent for many BUY orders of one namespace
// and one share class: a batchMint of PRIMARY BUYs (kind Mint) or a batchSettleWithRefs
// of SECONDARY BUYs (kind Settle). It is created and driven only by the chain agent
// (controllers/delivery) when batching is on (--chain-batch-size above 1); people do not
// create it (there is no sample, and the only role that may create it is the operator's).
// It is the durable record of a transaction that serves many orders: the signed
// transaction is recorded here, with the members it includes, before it is broadcast, and
// each member order records its evidence with the batch's hash exactly as a single mint
// does, in one write once the transaction is final (or two, initiated then completed, when
// it is not final soon). On a token with effect references every member carries its own
// order's reference, so the token applies each member at most once whatever happens; the
// agent leaves an order that a live batch lists to that batch (docs/tokens.md). On a token
// without them each member order is first claimed (its status.chain.batch written with
// optimistic locking) before anything is signed, and an order with a claim is never minted
// on its own.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=dbatch,categories=fundshare
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Hash",type=string,JSONPath=`.status.transaction.attempts[0].hash`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.spec == oldSelf.spec",message="spec is immutable"
type DeliveryBatch struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the candidate members, fixed at creation.
	// +required
	Spec DeliveryBatchSpec `json:"spec"`

	// Status is the claims' outcome, the transaction and its receipt.
	// +optional
	Status DeliveryBatchStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// DeliveryBatchList is a list of DeliveryBatch.
type DeliveryBatchList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DeliveryBatch `json:"items"`
}

func init() {
	register(&DeliveryBatch{}, &DeliveryBatchList{})
}
