package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TransferDirection says which side of an on-chain transfer a Transfer records.
// +kubebuilder:validation:Enum=In;Out
type TransferDirection string

// The directions.
const (
	// TransferIn: units arrived at a wallet of the account.
	TransferIn TransferDirection = "In"
	// TransferOut: units left a wallet of the account.
	TransferOut TransferDirection = "Out"
)

// LabelISIN labels a Transfer with the ISIN of its units.
const LabelISIN = "invest.fundshare.io/isin"

// TransferSpec is one account's side of a holder-to-holder transfer of a share token on
// the chain (an ERC-20 Transfer event that is neither a mint nor a burn), as the transfer
// indexer (controllers/transfer) read it from a confirmed block. It names only this
// account's wallet; the other side is an address. Immutable.
type TransferSpec struct {
	// AccountID is the account whose wallet sent or received the units.
	// +required
	AccountID ObjectID `json:"accountID"`
	// ISIN of the share class whose token moved.
	// +required
	ISIN ISIN `json:"isin"`
	// Units moved.
	// +kubebuilder:validation:Minimum=1
	// +required
	Units int64 `json:"units"`
	// Direction: In (units arrived at this account's wallet) or Out (units left it).
	// +required
	Direction TransferDirection `json:"direction"`
	// WalletID is the Wallet of this account whose address sent or received the units.
	// +required
	WalletID ObjectID `json:"walletID"`
	// WalletAddress is that wallet's address (EIP-55).
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	WalletAddress string `json:"walletAddress"`
	// CounterpartyAddress is the other side's address (EIP-55): the receiver of an Out,
	// the sender of an In. Never the other side's account or wallet id.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	CounterpartyAddress string `json:"counterpartyAddress"`
	// Token is the share token's address (EIP-55).
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	Token string `json:"token"`
	// TransactionHash of the transaction that emitted the event.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	// +required
	TransactionHash string `json:"transactionHash"`
	// LogIndex is the event's index in its block.
	// +kubebuilder:validation:Minimum=0
	LogIndex int64 `json:"logIndex"`
	// BlockNumber of the block that includes the transaction.
	// +kubebuilder:validation:Minimum=0
	BlockNumber int64 `json:"blockNumber"`
	// BlockHash of that block: a reorganisation that replaces it removes the Transfer.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	// +required
	BlockHash string `json:"blockHash"`
	// BlockTime is the block's timestamp: when the units arrived or left.
	// +required
	BlockTime metav1.Time `json:"blockTime"`
}

// Transfer is one account's side of an on-chain transfer of share tokens between holders:
// an Out in the sender account's namespace and an In in the receiver account's (both for a
// transfer between two wallets of one account). Holdings count them (units in, units out).
// Written only by the transfer indexer; its name follows from the transaction hash, the
// log index and the direction, so the same event is never recorded twice.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=xfer,categories=fundshare
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountID`
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Direction",type=string,JSONPath=`.spec.direction`
// +kubebuilder:printcolumn:name="Units",type=integer,JSONPath=`.spec.units`
// +kubebuilder:printcolumn:name="Counterparty",type=string,JSONPath=`.spec.counterpartyAddress`,priority=1
// +kubebuilder:printcolumn:name="Block",type=integer,JSONPath=`.spec.blockNumber`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Transfer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the transfer as read from the chain. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a transfer is immutable"
	// +required
	Spec TransferSpec `json:"spec"`
}

// TransferList is a list of Transfer.
//
// +kubebuilder:object:root=true
type TransferList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Transfer `json:"items"`
}

func init() {
	register(&Transfer{}, &TransferList{})
}
