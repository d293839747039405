package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BankEntryRef names one transaction of a booked bank entry, as the bank ledger keys it
// (`fundsharectl bank entries` prints both).
type BankEntryRef struct {
	// Reference is the bank's reference of the entry (AcctSvcrRef).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=35
	Reference string `json:"reference"`
	// Transaction is the index of the transaction in the entry (0 for an entry of one).
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=0
	// +optional
	Transaction int `json:"transaction"`
}

// BankOrderRef names the order a payment in suspense is assigned to.
type BankOrderRef struct {
	// Namespace is the order's tenant namespace.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace"`
	// ID is the order's id (its name).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ID string `json:"id"`
}

// The actions of a BankDecision.
const (
	// BankDecisionAssign ties the payment to a BUY that waits for it, as if the payer had
	// quoted its reference.
	BankDecisionAssign = "Assign"
	// BankDecisionRefund sends the payment back to the account it came from, by credit
	// transfer in the next pain.001.
	BankDecisionRefund = "Refund"
	// BankDecisionSettledOutside records that the payment was dealt with outside the
	// service; nothing is sent.
	BankDecisionSettledOutside = "SettledOutside"
	// BankDecisionResend sends an order's payout, refund or residual that the bank
	// rejected or returned again, to the customer's account as it is registered now.
	BankDecisionResend = "Resend"
)

// BankDecisionSpec is an operator's decision on one payment in suspense, or on a transfer
// the bank rejected or returned. It is immutable: a decision is recorded in the bank
// ledger once; a different decision on the same entry is refused while this one stands.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a bank decision is immutable: create another one"
// +kubebuilder:validation:XValidation:rule="(self.action == 'Assign' || self.action == 'Resend') == has(self.order)",message="order is required for actions Assign and Resend and not allowed for the others",fieldPath=".order"
// +kubebuilder:validation:XValidation:rule="(self.action == 'Resend') != has(self.entry)",message="entry is required for actions Assign, Refund and SettledOutside and not allowed for Resend (which names the order)",fieldPath=".entry"
// +kubebuilder:validation:XValidation:rule="self.action == 'Refund' || !has(self.fundID)",message="fundID is only for action Refund",fieldPath=".fundID"
type BankDecisionSpec struct {
	// Entry is the payment in suspense decided on: a transaction the ingestion left
	// Unmatched or WrongCurrency (`fundsharectl bank entries --open`). Not for Resend.
	// +optional
	Entry *BankEntryRef `json:"entry,omitempty"`
	// Action is Assign (to Order), Refund (to the account it came from),
	// SettledOutside (dealt with outside the service; nothing is sent), or Resend (the
	// transfer of Order that the bank rejected or returned, sent again).
	// +kubebuilder:validation:Enum=Assign;Refund;SettledOutside;Resend
	Action string `json:"action"`
	// Order is the BUY awaiting payment that the payment pays (Assign), or the order
	// whose rejected or returned transfer is sent again (Resend).
	// +optional
	Order *BankOrderRef `json:"order,omitempty"`
	// FundID is the fund whose bank account received the payment and sends it back
	// (Refund only); needed when the funds do not all share one account.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	FundID string `json:"fundID,omitempty"`
	// Note says why, for the books and the auditors.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Note string `json:"note"`
	// DecidedBy is who created the decision, as the API server authenticated them; set
	// by admission (whatever the creator wrote is replaced).
	// +kubebuilder:validation:MaxLength=512
	// +optional
	DecidedBy string `json:"decidedBy,omitempty"`
}

// The phases of a BankDecision.
const (
	// BankDecisionRecorded: the decision is in the bank ledger and takes effect.
	BankDecisionRecorded = "Recorded"
	// BankDecisionRefused: the decision cannot be taken (the message says why); nothing
	// was recorded. Delete it and create a corrected one.
	BankDecisionRefused = "Refused"
)

// BankDecisionPayout is where the transfer of a Refund stands.
type BankDecisionPayout struct {
	// EndToEndID is the transfer's end-to-end id.
	EndToEndID string `json:"endToEndID"`
	// Amount is what is sent, in money units (1 EUR = 10,000).
	Amount int64 `json:"amount"`
	// CreditorIBAN is the account it goes to, masked but for its last four characters.
	CreditorIBAN string `json:"creditorIBAN"`
	// Status is Instructed, Accepted or Rejected (the bank's pain.002), then PaidOut (the
	// debit was booked) or Returned (it came back).
	// +kubebuilder:validation:Enum=Instructed;Accepted;Rejected;PaidOut;Returned
	Status string `json:"status"`
	// Reason is the bank's reason of a rejection or return.
	// +optional
	Reason string `json:"reason,omitempty"`
}

// BankDecisionStatus is what became of the decision.
type BankDecisionStatus struct {
	// Phase is Recorded or Refused.
	// +kubebuilder:validation:Enum=Recorded;Refused
	// +optional
	Phase string `json:"phase,omitempty"`
	// Message says what the decision did, or why it was refused.
	// +optional
	Message string `json:"message,omitempty"`
	// RecordedAt is when the bank ledger recorded it.
	// +optional
	RecordedAt *metav1.Time `json:"recordedAt,omitempty"`
	// Amount and Currency are the payment's.
	// +optional
	Amount   int64        `json:"amount,omitempty"`
	Currency CurrencyCode `json:"currency,omitempty"`
	// Outcome is what an assignment made of the payment for its order: Matched,
	// Underpaid or Overpaid (the excess is sent back).
	// +optional
	Outcome string `json:"outcome,omitempty"`
	// Payout is the transfer of a Refund.
	// +optional
	Payout *BankDecisionPayout `json:"payout,omitempty"`
	// ObservedGeneration is the generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// BankDecision is an operator's decision on a payment the bank ingestion could not tie to
// one waiting order (suspense): assign it to an order, send it back, or record that it was
// settled outside the service. Cluster-scoped: suspense belongs to the fund's bank
// account, not to a tenant, and only operators (the fundshare-bank-operator role) create
// decisions.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=bdec,categories=fundshare
// +kubebuilder:printcolumn:name="Action",type=string,JSONPath=`.spec.action`
// +kubebuilder:printcolumn:name="Entry",type=string,JSONPath=`.spec.entry.reference`
// +kubebuilder:printcolumn:name="Order",type=string,JSONPath=`.spec.order.id`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Outcome",type=string,JSONPath=`.status.outcome`
// +kubebuilder:printcolumn:name="Payout",type=string,JSONPath=`.status.payout.status`
// +kubebuilder:printcolumn:name="By",type=string,JSONPath=`.spec.decidedBy`,priority=1
// +kubebuilder:printcolumn:name="Message",type=string,JSONPath=`.status.message`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type BankDecision struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the decision.
	// +required
	Spec BankDecisionSpec `json:"spec"`
	// Status is what became of it.
	// +optional
	Status BankDecisionStatus `json:"status,omitempty"`
}

// BankDecisionList is a list of BankDecision.
//
// +kubebuilder:object:root=true
type BankDecisionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BankDecision `json:"items"`
}

func init() {
	register(&BankDecision{}, &BankDecisionList{})
}
