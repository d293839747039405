package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ChainTransaction is one transaction the operator's signer sends on the token chain,
// recorded in the status of the object it serves (an order's mint or burn, a wallet's
// registration, a share class's token deployment) BEFORE it is broadcast. After a restart
// the recorded attempts are broadcast again as the same bytes, never rebuilt; a stuck
// transaction is replaced by a new attempt with the same nonce and higher fees, also
// recorded first. At most one attempt can ever be mined (they share the nonce), and
// whichever is mined is the one.
//
// The chain id, sender, recipient and nonce never change, attempts are only appended, and
// a receipt, once recorded, is final (it is recorded after the configured confirmations).
// The internal/chain/outbox package builds, signs and broadcasts these; its next nonce on
// start is above every nonce recorded here.
// +kubebuilder:validation:XValidation:rule="self.chainID == oldSelf.chainID && self.from == oldSelf.from && has(self.to) == has(oldSelf.to) && (!has(self.to) || self.to == oldSelf.to) && self.nonce == oldSelf.nonce",message="chainID, from, to and nonce of a recorded transaction are immutable"
// +kubebuilder:validation:XValidation:rule="oldSelf.attempts.all(a, a in self.attempts)",message="recorded attempts are immutable and only appended",fieldPath=".attempts"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.receipt) || (has(self.receipt) && self.receipt == oldSelf.receipt)",message="a final receipt is immutable",fieldPath=".receipt"
type ChainTransaction struct {
	// ChainID is the chain the transaction is signed for (EIP-155).
	// +kubebuilder:validation:Minimum=1
	ChainID int64 `json:"chainID"`
	// From is the signer's address.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	From string `json:"from"`
	// To is the contract called; empty for a contract creation.
	// +kubebuilder:validation:Pattern=`^(0x[0-9a-fA-F]{40})?$`
	// +optional
	To string `json:"to,omitempty"`
	// Nonce is the signer's nonce, shared by every attempt.
	// +kubebuilder:validation:Minimum=0
	Nonce int64 `json:"nonce"`
	// Attempts are the signed transactions, in the order they were signed: the first, then
	// each replacement with higher fees.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Attempts []ChainTransactionAttempt `json:"attempts"`
	// Receipt is the mined attempt's receipt once it has the configured confirmations.
	// +optional
	Receipt *ChainReceipt `json:"receipt,omitempty"`
}

// ChainTransactionAttempt is one signed transaction: exactly the bytes broadcast.
type ChainTransactionAttempt struct {
	// Hash is the transaction hash: 0x and 64 hexadecimal digits.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	Hash string `json:"hash"`
	// Raw is the signed transaction (its EIP-2718 binary encoding) as 0x-prefixed hex.
	// Empty in a DeliveryBatch member order's copy (status.chain.batch set): the bytes are
	// recorded once, in the batch.
	// +kubebuilder:validation:MaxLength=262144
	Raw string `json:"raw"`
	// MaxFeePerGas is the EIP-1559 fee cap, in wei (decimal).
	// +kubebuilder:validation:Pattern=`^[0-9]{1,40}$`
	MaxFeePerGas string `json:"maxFeePerGas"`
	// MaxPriorityFeePerGas is the EIP-1559 tip cap, in wei (decimal).
	// +kubebuilder:validation:Pattern=`^[0-9]{1,40}$`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas"`
	// Gas is the gas limit.
	// +kubebuilder:validation:Minimum=0
	Gas int64 `json:"gas"`
	// SignedAt is when it was signed (and recorded).
	SignedAt metav1.Time `json:"signedAt"`
}

// ChainReceiptStatus is the outcome of a mined transaction.
// +kubebuilder:validation:Enum=Succeeded;Reverted
type ChainReceiptStatus string

// The outcomes of a mined transaction.
const (
	ChainReceiptSucceeded ChainReceiptStatus = "Succeeded"
	ChainReceiptReverted  ChainReceiptStatus = "Reverted"
)

// ChainReceipt is the final receipt of a recorded transaction.
type ChainReceipt struct {
	// Hash is the attempt that was mined.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	Hash string `json:"hash"`
	// BlockNumber is the block that includes it.
	// +kubebuilder:validation:Minimum=0
	BlockNumber int64 `json:"blockNumber"`
	// BlockHash is that block's hash.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	BlockHash string `json:"blockHash"`
	// Status is Succeeded or Reverted.
	Status ChainReceiptStatus `json:"status"`
	// RevertReason is the decoded reason of a reverted transaction, e.g.
	// NotVerified(0x…) or EnforcedPause().
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	RevertReason string `json:"revertReason,omitempty"`
	// Confirmations is how many blocks (its own included) were on top when it was
	// recorded.
	// +kubebuilder:validation:Minimum=1
	Confirmations int64 `json:"confirmations"`
	// At is when it was recorded.
	At metav1.Time `json:"at"`
}

// ChainEffect is an effect (a mint, a burn, a wallet recovery's forced transfer) that the
// token applied under its effect reference, as found on chain.
type ChainEffect struct {
	// Ref is the effect reference (0x and 64 hexadecimal digits).
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	Ref string `json:"ref"`
	// TransactionHash is the transaction that applied it.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	TransactionHash string `json:"transactionHash"`
	// BlockNumber is the block it was applied in.
	// +kubebuilder:validation:Minimum=0
	BlockNumber int64 `json:"blockNumber"`
	// Units the effect minted, burned or moved (its EffectApplied event's).
	// +kubebuilder:validation:Minimum=0
	Units int64 `json:"units"`
	// At is when it was found.
	At metav1.Time `json:"at"`
}

// Mined returns the attempt the receipt names, or nil.
func (t *ChainTransaction) Mined() *ChainTransactionAttempt {
	if t == nil || t.Receipt == nil {
		return nil
	}
	for i := range t.Attempts {
		if t.Attempts[i].Hash == t.Receipt.Hash {
			return &t.Attempts[i]
		}
	}
	return nil
}
