package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OrderSide is BUY or SELL.
// +kubebuilder:validation:Enum=BUY;SELL
type OrderSide string

const (
	// SideBuy buys share class units.
	SideBuy OrderSide = "BUY"
	// SideSell sells (redeems) share class units.
	SideSell OrderSide = "SELL"
)

// Market is the market an order is placed on.
// +kubebuilder:validation:Enum=PRIMARY;SECONDARY
type Market string

const (
	// MarketPrimary subscribes to or redeems from the fund itself.
	MarketPrimary Market = "PRIMARY"
	// MarketSecondary trades existing units.
	MarketSecondary Market = "SECONDARY"
)

// SettlementType says how bought tokens are delivered.
// +kubebuilder:validation:Enum=bearer;claimable
type SettlementType string

const (
	// SettlementBearer delivers the tokens to the recipient wallet.
	SettlementBearer SettlementType = "bearer"
	// SettlementClaimable keeps the tokens claimable by the account later.
	SettlementClaimable SettlementType = "claimable"
)

// OrderState is a lifecycle status of an order. It is set by the system only.
// +kubebuilder:validation:Enum=PLACED;AWAITING_PAYMENT;PAYMENT_RECEIVED;DELIVERY_INITIATED;DELIVERY_COMPLETED;PAYMENT_SENT;PAYMENT_COMPLETED;REDEMPTION_GATED;EXECUTED;COMPLETED;CANCELLED
type OrderState string

// The eleven order states of the spec.
const (
	StatePlaced            OrderState = "PLACED"
	StateAwaitingPayment   OrderState = "AWAITING_PAYMENT"
	StatePaymentReceived   OrderState = "PAYMENT_RECEIVED"
	StateDeliveryInitiated OrderState = "DELIVERY_INITIATED"
	StateDeliveryCompleted OrderState = "DELIVERY_COMPLETED"
	StatePaymentSent       OrderState = "PAYMENT_SENT"
	StatePaymentCompleted  OrderState = "PAYMENT_COMPLETED"
	StateRedemptionGated   OrderState = "REDEMPTION_GATED"
	StateExecuted          OrderState = "EXECUTED"
	StateCompleted         OrderState = "COMPLETED"
	StateCancelled         OrderState = "CANCELLED"
)

// Terminal reports whether no transition leaves the state.
func (s OrderState) Terminal() bool { return s == StateCompleted || s == StateCancelled }

// FeeSource says where an order's fee rate came from.
// +kubebuilder:validation:Enum=DEFAULT;OFFERING
type FeeSource string

const (
	// FeeSourceDefault is the share class's subscription or redemption fee.
	FeeSourceDefault FeeSource = "DEFAULT"
	// FeeSourceOffering is the fee of a CustomOffering.
	FeeSourceOffering FeeSource = "OFFERING"
)

// OrderSpec is what the API client asked for. Immutable after creation, except that a
// cancellation may be requested.
// +kubebuilder:validation:XValidation:rule="has(self.walletID) == has(oldSelf.walletID)",message="walletID is immutable",fieldPath=".walletID"
// +kubebuilder:validation:XValidation:rule="has(self.paymentMethodDetailsID) == has(oldSelf.paymentMethodDetailsID)",message="paymentMethodDetailsID is immutable",fieldPath=".paymentMethodDetailsID"
// +kubebuilder:validation:XValidation:rule="has(self.customOfferingID) == has(oldSelf.customOfferingID)",message="customOfferingID is immutable",fieldPath=".customOfferingID"
// +kubebuilder:validation:XValidation:rule="has(self.quote) == has(oldSelf.quote)",message="quote is immutable",fieldPath=".quote"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.cancellationRequested) || !oldSelf.cancellationRequested || (has(self.cancellationRequested) && self.cancellationRequested)",message="a cancellation request cannot be withdrawn",fieldPath=".cancellationRequested"
// +kubebuilder:validation:XValidation:rule="has(self.amountOfUnits) != has(self.amount)",message="give exactly one of amount and amountOfUnits",fieldPath=".amountOfUnits"
// +kubebuilder:validation:XValidation:rule="!has(self.amount) || self.side == 'BUY'",message="a SELL is given in units: give amountOfUnits, not amount",fieldPath=".amount"
// +kubebuilder:validation:XValidation:rule="has(self.amount) == has(oldSelf.amount)",message="amount is immutable",fieldPath=".amount"
// +kubebuilder:validation:XValidation:rule="has(self.amountOfUnits) == has(oldSelf.amountOfUnits)",message="amountOfUnits is immutable",fieldPath=".amountOfUnits"
type OrderSpec struct {
	// Side is BUY or SELL. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="side is immutable"
	// +required
	Side OrderSide `json:"side"`

	// Market is PRIMARY or SECONDARY. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="market is immutable"
	// +required
	Market Market `json:"market"`

	// ISIN of the share class. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="isin is immutable"
	// +required
	ISIN ISIN `json:"isin"`

	// AmountOfUnits is the number of share class units in the order, at least 1. Every
	// order of a latest-priced share class and every SELL gives it; a BUY of a
	// forward-priced share class gives it or amount, never both (ISO 20022 setr.010).
	// Immutable.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000000000
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="amountOfUnits is immutable"
	// +optional
	AmountOfUnits int64 `json:"amountOfUnits,omitempty"`

	// Amount (a BUY of a forward-priced share class only) is the money to invest, gross,
	// in micro-units (1 EUR = 10,000): the fee is taken from it and the rest buys units at
	// the NAV of the order's dealing date, rounded down; the cash the units do not use is
	// refunded. Immutable.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000000000000
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="amount is immutable"
	// +optional
	Amount int64 `json:"amount,omitempty"`

	// Currency is the three-letter uppercase ISO currency code of the order; it must equal
	// the share class's currency. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="currency is immutable"
	// +required
	Currency CurrencyCode `json:"currency"`

	// AccountID is the id of the Account that placed the order. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="accountID is immutable"
	// +required
	AccountID ObjectID `json:"accountID"`

	// SettlementType is `bearer` (the default: tokens go to the recipient wallet, so one is
	// needed) or `claimable`. Immutable.
	// +kubebuilder:default=bearer
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="settlementType is immutable"
	// +optional
	SettlementType SettlementType `json:"settlementType,omitempty"`

	// WalletID is the recipient Wallet; when omitted, the account's primary wallet at
	// placement. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="walletID is immutable"
	// +optional
	WalletID ObjectID `json:"walletID,omitempty"`

	// PaymentMethodDetailsID is the sender's bank account; when omitted, the account's
	// primary payment method details at placement. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="paymentMethodDetailsID is immutable"
	// +optional
	PaymentMethodDetailsID ObjectID `json:"paymentMethodDetailsID,omitempty"`

	// CustomOfferingID names a CustomOffering for the order's ISIN whose fee rate applies
	// instead of the share class's. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="customOfferingID is immutable"
	// +optional
	CustomOfferingID ObjectID `json:"customOfferingID,omitempty"`

	// Quote is the price and fees fixed at placement, computed by admission from the
	// latest NAV; a value supplied by the client is replaced. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="quote is immutable"
	// +optional
	Quote *OrderQuote `json:"quote,omitempty"`

	// CarriedFrom is the order whose units were not filled and carried forward to this
	// one: a forward-priced SELL the redemption gate of its dealing date filled in part,
	// or a SECONDARY SELL or BUY its matching window filled in part (a carried BUY is
	// paid with the money its parent's payment did not use). Only the strike and window
	// controllers create such an order; admission accepts it only when that order's
	// contract note names it, for the same units (and money). Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="carriedFrom is immutable"
	// +optional
	CarriedFrom ObjectID `json:"carriedFrom,omitempty"`

	// CancellationRequested asks the system to cancel the order. Allowed up to the point
	// of no return (BUY: PLACED, AWAITING_PAYMENT, and PAYMENT_RECEIVED with a refund;
	// SELL: PLACED, REDEMPTION_GATED); admission refuses it later. Cannot be withdrawn.
	// +optional
	CancellationRequested bool `json:"cancellationRequested,omitempty"`

	// CancellationReason is a short free text recorded with the cancellation.
	// +kubebuilder:validation:MaxLength=256
	// +optional
	CancellationReason string `json:"cancellationReason,omitempty"`
}

// OrderQuote fixes the money of an order at placement. Money is in micro-units
// (1 EUR = 10,000), fee rates in rate units (100% = 10,000).
type OrderQuote struct {
	// NAVPerShare is the latest net asset value per share at placement, in micro-units.
	// Absent for a forward-priced order: its price is fixed at the strike (status.strike).
	// +kubebuilder:validation:Minimum=1
	// +optional
	NAVPerShare int64 `json:"navPerShare,omitempty"`
	// NAVDate is the date of that NAV; absent for a forward-priced order.
	// +kubebuilder:validation:Format=date
	// +optional
	NAVDate string `json:"navDate,omitempty"`
	// DealingDate (forward pricing) is the dealing date the order was placed for: the
	// first dealing date whose cut-off for the order's side was still ahead (for a SELL
	// also after the notice period). The order is priced at that date's NAV. For an
	// Intraday share class the dealing point, YYYY-MM-DDTHH:MM (local time).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	// +optional
	DealingDate string `json:"dealingDate,omitempty"`
	// CutOff (forward pricing) is the cut-off of the dealing date for the order's side:
	// the order can be cancelled until then, and a BUY by amount is paid before it.
	// +optional
	CutOff *metav1.Time `json:"cutOff,omitempty"`
	// Window (a SECONDARY order) is the matching window the order was placed for: the
	// first window of the share class's secondary market whose order deadline was still
	// ahead. The order can be cancelled until that deadline.
	// +optional
	Window *OrderWindow `json:"window,omitempty"`
	// GrossValue is amountOfUnits × navPerShare: the order value before fees. 0 for a
	// forward-priced order (status.strike has it), except a BUY by amount, whose
	// gross value is its amount.
	// +kubebuilder:validation:Minimum=0
	GrossValue int64 `json:"grossValue"`
	// FeeRate is the subscription (buy) or redemption (sell) fee rate in rate units.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	FeeRate int64 `json:"feeRate"`
	// FeeAmount is grossValue × feeRate / 10,000, rounded half up.
	// +kubebuilder:validation:Minimum=0
	FeeAmount int64 `json:"feeAmount"`
	// FeeSource is DEFAULT (share class fee) or OFFERING (custom offering).
	FeeSource FeeSource `json:"feeSource"`
	// NetAmount is grossValue − feeAmount: the investment after fees (buy) or the payout
	// (sell).
	NetAmount int64 `json:"netAmount"`
	// Amount is the money moved by the customer: for a buy, what the customer pays. For a
	// forward-priced order: the amount of a BUY by amount, 0 for an order by units (the
	// strike fixes it).
	Amount int64 `json:"amount"`
	// FundDetails describe what is bought or sold.
	FundDetails OrderFundDetails `json:"fundDetails"`
	// PaymentDetails say where a buyer sends the money.
	// +optional
	PaymentDetails *OrderPaymentDetails `json:"paymentDetails,omitempty"`
	// WalletID is the recipient wallet resolved at placement.
	// +optional
	WalletID ObjectID `json:"walletID,omitempty"`
	// PaymentMethodDetailsID is the customer's bank account resolved at placement.
	// +optional
	PaymentMethodDetailsID ObjectID `json:"paymentMethodDetailsID,omitempty"`
	// CashOnChain (a SECONDARY order of a share class whose cash is on chain) is how the
	// order's cash moves: a BUY escrows its amount at the settlement contract under its
	// escrow reference (its payment instructions), a SELL is paid by the swaps that take
	// its units. Absent: through the bank.
	// +optional
	CashOnChain *OrderCashOnChain `json:"cashOnChain,omitempty"`
}

// OrderCashOnChain is an order's cash leg on chain, fixed at placement.
type OrderCashOnChain struct {
	CashOnChain `json:",inline"`
	// EscrowReference (BUY) is the 32-byte reference, 0x and 64 hexadecimal digits, under
	// which the buyer escrows the order's amount (escrow(reference, cashToken, amount)); the
	// swap that settles the BUY carries it, and the share token records it.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-f]{64}$`
	// +optional
	EscrowReference string `json:"escrowReference,omitempty"`
}

// OrderFundDetails name the fund and share class of an order.
type OrderFundDetails struct {
	// ISIN of the share class.
	ISIN ISIN `json:"isin"`
	// FundID is the feeder fund's id.
	FundID ObjectID `json:"fundID"`
	// FundName is the feeder fund's name at placement.
	// +kubebuilder:validation:MaxLength=200
	FundName string `json:"fundName"`
	// ShareClassID is the share class's id.
	ShareClassID ObjectID `json:"shareClassID"`
	// ShareClassName is the share class's name at placement.
	// +kubebuilder:validation:MaxLength=200
	ShareClassName string `json:"shareClassName"`
}

// OrderPaymentDetails is the fund's bank account and the reference a buyer quotes.
type OrderPaymentDetails struct {
	// AccountHolderName is the fund's bank account name.
	// +kubebuilder:validation:MaxLength=70
	AccountHolderName string `json:"accountHolderName"`
	// IBAN is the fund's bank account.
	// +kubebuilder:validation:MaxLength=34
	IBAN string `json:"iban"`
	// PaymentReference is unique to the order; the buyer quotes it in the transfer.
	// +kubebuilder:validation:MaxLength=35
	PaymentReference string `json:"paymentReference"`
}

// SettlementRecord is one piece of evidence from the outside world.
type SettlementRecord struct {
	// Reference is a payment reference (bank transfers).
	// +kubebuilder:validation:MaxLength=140
	// +optional
	Reference string `json:"reference,omitempty"`
	// TransactionHash is a blockchain transaction: 0x and 64 hexadecimal digits.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	// +optional
	TransactionHash string `json:"transactionHash,omitempty"`
	// At is when it happened.
	At metav1.Time `json:"at"`
	// RecordedBy names the settlement agent or operator that recorded it.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	RecordedBy string `json:"recordedBy,omitempty"`
	// BlockNumber is the chain block of TransactionHash, where the record says it: a
	// SECONDARY SELL's unitsDelivered names the last of the settlements that moved its
	// units, and this block, so that an on-chain figure of that block or later is known to
	// be without them (a next SELL's check does not hold them back twice).
	// +kubebuilder:validation:Minimum=0
	// +optional
	BlockNumber int64 `json:"blockNumber,omitempty"`
}

// SettlementEvidence is what settlement agents recorded about an order. The order
// controller advances the lifecycle on it, one state at a time: evidence that arrives out
// of order is held, never used to skip a state.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.paymentReceived) || (has(self.paymentReceived) && self.paymentReceived == oldSelf.paymentReceived)",message="recorded evidence is immutable",fieldPath=".paymentReceived"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.deliveryInitiated) || (has(self.deliveryInitiated) && self.deliveryInitiated == oldSelf.deliveryInitiated)",message="recorded evidence is immutable",fieldPath=".deliveryInitiated"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.deliveryCompleted) || (has(self.deliveryCompleted) && self.deliveryCompleted == oldSelf.deliveryCompleted)",message="recorded evidence is immutable",fieldPath=".deliveryCompleted"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.paymentSent) || (has(self.paymentSent) && self.paymentSent == oldSelf.paymentSent)",message="recorded evidence is immutable",fieldPath=".paymentSent"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.paymentCompleted) || (has(self.paymentCompleted) && self.paymentCompleted == oldSelf.paymentCompleted)",message="recorded evidence is immutable",fieldPath=".paymentCompleted"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.refundSent) || (has(self.refundSent) && self.refundSent == oldSelf.refundSent)",message="recorded evidence is immutable",fieldPath=".refundSent"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.refundCompleted) || (has(self.refundCompleted) && self.refundCompleted == oldSelf.refundCompleted)",message="recorded evidence is immutable",fieldPath=".refundCompleted"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.tokensBurned) || (has(self.tokensBurned) && self.tokensBurned == oldSelf.tokensBurned)",message="recorded evidence is immutable",fieldPath=".tokensBurned"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.unitsDelivered) || (has(self.unitsDelivered) && self.unitsDelivered == oldSelf.unitsDelivered)",message="recorded evidence is immutable",fieldPath=".unitsDelivered"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.residualRefundSent) || (has(self.residualRefundSent) && self.residualRefundSent == oldSelf.residualRefundSent)",message="recorded evidence is immutable",fieldPath=".residualRefundSent"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.residualRefundCompleted) || (has(self.residualRefundCompleted) && self.residualRefundCompleted == oldSelf.residualRefundCompleted)",message="recorded evidence is immutable",fieldPath=".residualRefundCompleted"
type SettlementEvidence struct {
	// PaymentReceived (buy): the customer's payment arrived; reference required.
	// +kubebuilder:validation:XValidation:rule="has(self.reference)",message="a payment reference is required"
	// +optional
	PaymentReceived *SettlementRecord `json:"paymentReceived,omitempty"`
	// DeliveryInitiated (buy): the token transfer was submitted; transaction hash required.
	// +kubebuilder:validation:XValidation:rule="has(self.transactionHash)",message="a transaction hash is required"
	// +optional
	DeliveryInitiated *SettlementRecord `json:"deliveryInitiated,omitempty"`
	// DeliveryCompleted (buy): the token transfer is final.
	// +optional
	DeliveryCompleted *SettlementRecord `json:"deliveryCompleted,omitempty"`
	// TokensBurned (sell): the units sold were burned from the holder's wallet(s) and the
	// burn is final; transaction hash required. The payout follows it.
	// +kubebuilder:validation:XValidation:rule="has(self.transactionHash)",message="a transaction hash is required"
	// +optional
	TokensBurned *SettlementRecord `json:"tokensBurned,omitempty"`
	// UnitsDelivered (SECONDARY sell): the units sold were transferred from the seller's
	// wallet to the buyers' and every transfer is final; transaction hash required (the
	// last transfer's). The payout follows it.
	// +kubebuilder:validation:XValidation:rule="has(self.transactionHash)",message="a transaction hash is required"
	// +optional
	UnitsDelivered *SettlementRecord `json:"unitsDelivered,omitempty"`
	// PaymentSent (sell): the payout was sent; reference required.
	// +kubebuilder:validation:XValidation:rule="has(self.reference)",message="a payment reference is required"
	// +optional
	PaymentSent *SettlementRecord `json:"paymentSent,omitempty"`
	// PaymentCompleted (sell): the payout arrived.
	// +optional
	PaymentCompleted *SettlementRecord `json:"paymentCompleted,omitempty"`
	// RefundSent (cancelled buy with a refund): the refund was sent to the customer;
	// reference required.
	// +kubebuilder:validation:XValidation:rule="has(self.reference)",message="a payment reference is required"
	// +optional
	RefundSent *SettlementRecord `json:"refundSent,omitempty"`
	// RefundCompleted (cancelled buy with a refund): the refund arrived.
	// +optional
	RefundCompleted *SettlementRecord `json:"refundCompleted,omitempty"`
	// ResidualRefundSent (forward-priced buy by amount whose contract note has a
	// residual): the residual was sent back to the customer, quoting the contract note's
	// residual reference; reference required.
	// +kubebuilder:validation:XValidation:rule="has(self.reference)",message="a payment reference is required"
	// +optional
	ResidualRefundSent *SettlementRecord `json:"residualRefundSent,omitempty"`
	// ResidualRefundCompleted (idem): the residual arrived.
	// +optional
	ResidualRefundCompleted *SettlementRecord `json:"residualRefundCompleted,omitempty"`
}

// OrderChainStatus is what the chain agent did for the order on the token chain.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.transaction) || has(self.transaction)",message="a recorded transaction cannot be removed",fieldPath=".transaction"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.burns) || (has(self.burns) && self.burns == oldSelf.burns)",message="the burns of a recorded transaction are immutable",fieldPath=".burns"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.recipient) || (has(self.recipient) && self.recipient == oldSelf.recipient)",message="the recipient of a recorded transaction is immutable",fieldPath=".recipient"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.token) || (has(self.token) && self.token == oldSelf.token)",message="the token of a recorded transaction is immutable",fieldPath=".token"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.lockedUntil) || (has(self.lockedUntil) && self.lockedUntil == oldSelf.lockedUntil)",message="the release time of the units' lock-up is immutable once recorded",fieldPath=".lockedUntil"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.batch) || !has(self.batch) || self.batch == oldSelf.batch",message="a batch claim is released before the order can be claimed by another batch",fieldPath=".batch"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.transaction) || (has(self.batch) == has(oldSelf.batch))",message="the batch claim of an order with a recorded transaction is immutable",fieldPath=".batch"
type OrderChainStatus struct {
	// Batch names the DeliveryBatch (in the order's namespace) whose one transaction mints
	// (or settles) the order's units. On a token without effect references it is the
	// batch's claim: written by the chain agent with optimistic locking before the batch is
	// signed, the order is never minted on its own while it stands, and it is released
	// only when the batch is abandoned before anything was signed. On a token with them it
	// is written with the batch's transaction, once broadcast. Fixed once a transaction is
	// recorded.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Batch string `json:"batch,omitempty"`
	// Token is the share class's token contract the transaction calls.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +optional
	Token string `json:"token,omitempty"`
	// Recipient (BUY) is the wallet address the units are minted to, fixed with the
	// transaction.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +optional
	Recipient string `json:"recipient,omitempty"`
	// Transaction is the mint (BUY: the units to the order's wallet) or the burn (SELL:
	// the units from the holder's wallets), signed and recorded before it was broadcast.
	// For a member of a batch it is the batch's batchMint (recorded first in the
	// DeliveryBatch, copied here once broadcast), with the same hash and receipt.
	// +optional
	Transaction *ChainTransaction `json:"transaction,omitempty"`
	// LockedUntil (BUY of a share class with a lock-up) is the release time the mint writes
	// into the token (mintLocked): the minted units cannot be transferred by the holder
	// before it, and the account's holdings call them locked until the same instant.
	// Decided once (when the mint is first prepared: that time plus the lock-up in days,
	// or the DeliveryBatch member's) and recorded before the transaction is signed, so a
	// re-send after a crash signs the same bytes. Immutable once set.
	// +optional
	LockedUntil *metav1.Time `json:"lockedUntil,omitempty"`
	// Burns (SELL) are the wallets the units are burned from, fixed with the transaction.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Burns []OrderBurn `json:"burns,omitempty"`
	// Refused is set while the chain refuses the transaction before anything is sent (its
	// gas estimate reverts, e.g. NotVerified(wallet) or EnforcedPause()); the agent checks
	// again later and clears it once the transaction is recorded.
	// +optional
	Refused *ChainRefusal `json:"refused,omitempty"`
	// NonceTaken is set while the chain has mined the recorded transaction's nonce with a
	// transaction that is none of its recorded attempts (the agent key signed something
	// the operator did not record). Nothing is re-sent; the agent keeps looking and clears
	// it if one of the recorded attempts is mined after all (the node lagged, or a reorg
	// dropped the other transaction).
	// +optional
	NonceTaken *ChainNonceTaken `json:"nonceTaken,omitempty"`
	// Recovered is set when the chain showed the order's mint or burn applied although no
	// record said so (the records fell behind the chain: etcd restored from an older
	// snapshot, a status write lost, or the recorded transaction reverted with
	// EffectAlreadyApplied): the token's effect reference names the transaction that
	// applied it, and its evidence is recorded instead of a new transaction.
	// +optional
	Recovered *ChainEffect `json:"recovered,omitempty"`
}

// ChainNonceTaken says the nonce of a recorded transaction was used by a transaction that
// was not recorded.
type ChainNonceTaken struct {
	// Nonce is the recorded transaction's nonce, mined by another transaction.
	// +kubebuilder:validation:Minimum=0
	Nonce int64 `json:"nonce"`
	// At is when it was first seen.
	At metav1.Time `json:"at"`
}

// OrderBurn is the units a SELL burns from one wallet.
type OrderBurn struct {
	// WalletID is the Wallet the units were delivered to.
	// +optional
	WalletID ObjectID `json:"walletID,omitempty"`
	// Address is the wallet's address.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	Address string `json:"address"`
	// Units burned from it.
	// +kubebuilder:validation:Minimum=1
	Units int64 `json:"units"`
}

// ChainRefusal is why the chain refused a transaction before it was sent.
type ChainRefusal struct {
	// Reason is the decoded revert, e.g. NotVerified(0x…).
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason"`
	// At is when it was last checked.
	At metav1.Time `json:"at"`
}

// OrderRefund is the obligation to pay a customer back what they paid for a buy that was
// cancelled after its payment arrived (PAYMENT_RECEIVED). The order controller fixes it
// when it cancels the order; a settlement agent settles it and records refundSent and
// refundCompleted in status.settlement.
type OrderRefund struct {
	// Amount is what the customer paid (the quote's amount), in micro-units.
	// +kubebuilder:validation:Minimum=0
	Amount int64 `json:"amount"`
	// Currency of the amount.
	Currency CurrencyCode `json:"currency"`
	// PaymentMethodDetailsID is the customer's bank account the refund goes to: the one
	// resolved at placement.
	// +optional
	PaymentMethodDetailsID ObjectID `json:"paymentMethodDetailsID,omitempty"`
	// Reference is unique to the refund (RF- and the order id's 32 hex digits, upper
	// case); the refund transfer quotes it.
	// +kubebuilder:validation:MaxLength=35
	Reference string `json:"reference"`
}

// OrderPayout is a bank transfer of an order's money that did not reach the customer.
type OrderPayout struct {
	// Purpose is Payout (a SELL's proceeds), Refund or Residual.
	// +kubebuilder:validation:Enum=Payout;Refund;Residual
	Purpose string `json:"purpose"`
	// EndToEndID is the transfer's end-to-end id (the order id).
	// +kubebuilder:validation:MaxLength=35
	EndToEndID string `json:"endToEndID"`
	// MessageID is the pain.001 file that carried it.
	// +kubebuilder:validation:MaxLength=35
	// +optional
	MessageID string `json:"messageID,omitempty"`
	// Amount is what was to be sent, in money units (1 EUR = 10,000), whole cents.
	// +kubebuilder:validation:Minimum=0
	Amount int64 `json:"amount"`
	// Outcome is Rejected (the bank refused the transfer: pain.002 RJCT) or Returned (it
	// was booked and came back: a credit naming it in a camt statement).
	// +kubebuilder:validation:Enum=Rejected;Returned
	Outcome string `json:"outcome"`
	// Code is the bank's ISO reason code (such as AC04, closed account), when it gave one.
	// +kubebuilder:validation:MaxLength=35
	// +optional
	Code string `json:"code,omitempty"`
	// Reason is the bank's reason as it gave it.
	// +kubebuilder:validation:MaxLength=512
	// +optional
	Reason string `json:"reason,omitempty"`
	// At is when the bank reported it.
	At metav1.Time `json:"at"`
}

// The purposes and outcomes of an OrderPayout.
const (
	PurposePayout   = "Payout"
	PurposeRefund   = "Refund"
	PurposeResidual = "Residual"

	PayoutRejected = "Rejected"
	PayoutReturned = "Returned"
)

// RefundState is where a refund stands, derived from the evidence.
type RefundState string

// The states of a refund.
const (
	// RefundPending: no refund evidence recorded yet.
	RefundPending RefundState = "PENDING"
	// RefundSent: the refund was sent (refundSent recorded).
	RefundSentState RefundState = "SENT"
	// RefundCompleted: the refund arrived (refundCompleted recorded).
	RefundCompletedState RefundState = "COMPLETED"
)

// OrderTransition is one step of an order's lifecycle.
type OrderTransition struct {
	// State entered.
	State OrderState `json:"state"`
	// At is when it was entered.
	At metav1.Time `json:"at"`
	// Reason is why, CamelCase.
	// +kubebuilder:validation:MaxLength=128
	Reason string `json:"reason"`
	// Message is a human-readable explanation.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Message string `json:"message,omitempty"`
}

// OrderStatus is the lifecycle as the order controller (its only writer) recorded it, and
// the settlement evidence recorded by settlement agents.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.refund) || (has(self.refund) && self.refund == oldSelf.refund)",message="a refund is immutable once fixed",fieldPath=".refund"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.strike) || (has(self.strike) && self.strike == oldSelf.strike)",message="an order is priced once: its contract note is immutable",fieldPath=".strike"
type OrderStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// State is the lifecycle status; empty until the controller has accepted the order.
	// +optional
	State OrderState `json:"state,omitempty"`

	// History lists every state entered, in order, each exactly once.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	// +optional
	History []OrderTransition `json:"history,omitempty"`

	// Conditions follow kstatus: Ready (True once the order is COMPLETED, or CANCELLED with
	// any refund completed), Reconciling (True while in flight, the state as reason),
	// Stalled (True when the order cannot go on without a person), Waiting (the reason an
	// order does not move on: market closed, redemption gate, settlement evidence
	// missing), and CancellationRefused (a cancellation was requested past the point of no
	// return; the order goes on).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Settlement is the evidence recorded by settlement agents.
	// +optional
	Settlement SettlementEvidence `json:"settlement,omitempty"`

	// Chain is the order's token transaction on the chain (the mint of a BUY, the burn of
	// a SELL), recorded by the chain agent before it is broadcast.
	// +optional
	Chain *OrderChainStatus `json:"chain,omitempty"`

	// Refund is the money owed back to the customer of a buy cancelled after its payment
	// arrived; set once, when the order is cancelled, and settled with the evidence
	// refundSent and refundCompleted.
	// +optional
	Refund *OrderRefund `json:"refund,omitempty"`

	// Payout is the bank transfer of the order's money (a SELL's proceeds, a refund, a
	// residual) that the bank refused or sent back: written by the bank ingestion when a
	// pain.002 rejects the transfer or a camt statement books its return. The order
	// stalls (Stalled=True, reason PayoutRejected or PayoutReturned) and nothing is sent
	// again by itself: an operator decides (docs/bank.md).
	// +optional
	Payout *OrderPayout `json:"payout,omitempty"`

	// Dealing (forward pricing) is the dealing date the order deals at when it is no
	// longer the one of its quote: an unpaid BUY by amount that the share class's policy
	// moved to a later dealing date at the cut-off (written by the order controller).
	// +optional
	Dealing *OrderDealing `json:"dealing,omitempty"`

	// Strike (forward pricing) is the order's contract note: its pricing at the NAV of its
	// dealing date, recorded once by the strike controller (ISO 20022 setr.012 fields).
	// Immutable: an order is never priced twice.
	// +optional
	Strike *OrderContractNote `json:"strike,omitempty"`

	// Window (a SECONDARY order) is the matching window the order waits for when it is no
	// longer the one of its quote: a window filled none of its units and the share
	// class's policy carried it to the next (written by the window controller).
	// +optional
	Window *OrderWindow `json:"window,omitempty"`
}

// OrderWindow is a matching window of the secondary market: its date and order deadline.
type OrderWindow struct {
	// Date of the window.
	// +kubebuilder:validation:Format=date
	Date string `json:"date"`
	// Deadline is the window's order deadline.
	Deadline metav1.Time `json:"deadline"`
	// Carried (status.window) counts the windows the order was carried from: it was
	// filled with nothing in each and waits for this one.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Carried int32 `json:"carried,omitempty"`
}

// OrderSecondaryFill is what a matching window decided for a SECONDARY order, beside the
// contract note's price, units and money.
type OrderSecondaryFill struct {
	// Window is the MatchingWindow (cluster-scoped) that matched the order.
	// +kubebuilder:validation:MaxLength=253
	Window string `json:"window"`
	// Outcome: Filled (all units), Partial or Unfilled.
	// +kubebuilder:validation:Enum=Filled;Partial;Unfilled
	Outcome string `json:"outcome"`
	// RequestedUnits are the units the order asked.
	// +kubebuilder:validation:Minimum=1
	RequestedUnits int64 `json:"requestedUnits"`
	// NAVPerShare is the window's NAV before the spread; the contract note's navPerShare
	// is the side's price.
	// +kubebuilder:validation:Minimum=1
	NAVPerShare int64 `json:"navPerShare"`
	// SpreadBasisPoints is the spread the price carries.
	// +kubebuilder:validation:Minimum=0
	SpreadBasisPoints int32 `json:"spreadBasisPoints"`
	// AmountPaid (BUY) is the payment received for the order: units × the price at
	// placement + fee.
	// +kubebuilder:validation:Minimum=0
	// +optional
	AmountPaid int64 `json:"amountPaid,omitempty"`
	// AmountDue (BUY) is what the fill costs: grossAmount + feeAmount. The rest of the
	// payment is the contract note's residual, refunded.
	// +kubebuilder:validation:Minimum=0
	// +optional
	AmountDue int64 `json:"amountDue,omitempty"`
	// Carried counts the windows the order was carried from before this one (a SELL that
	// carries a remainder counts its parent's and one more).
	// +kubebuilder:validation:Minimum=0
	// +optional
	Carried int32 `json:"carried,omitempty"`
	// RemainderCancelled are the units asked and not filled that are not carried: a
	// BUY's that its payment does not cover at the window's price (its money is in the
	// residual), or any remainder once the order was carried the policy's carryWindows.
	// +kubebuilder:validation:Minimum=0
	// +optional
	RemainderCancelled int64 `json:"remainderCancelled,omitempty"`
}

// The outcomes of a SECONDARY order's fill (OrderSecondaryFill.Outcome).
const (
	FillFilled   = "Filled"
	FillPartial  = "Partial"
	FillUnfilled = "Unfilled"
)

// OrderDealing is the dealing date a forward-priced order deals at now.
type OrderDealing struct {
	// Date is the dealing date (an Intraday class's dealing point, YYYY-MM-DDTHH:MM).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	Date string `json:"date"`
	// CutOff is its cut-off for the order's side.
	CutOff metav1.Time `json:"cutOff"`
	// Moves counts the moves to a later dealing date.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Moves int32 `json:"moves,omitempty"`
	// Reason of the last move: UnpaidAtCutOff (a BUY by amount not paid by its cut-off)
	// or RedemptionGate (a SELL the redemption gate of its dealing date filled no unit
	// of, or that reached a dealing date whose gate was already drawn up).
	// +kubebuilder:validation:Enum=UnpaidAtCutOff;RedemptionGate
	// +optional
	Reason string `json:"reason,omitempty"`
}

// The reasons of a move to a later dealing date (OrderDealing.Reason).
const (
	DealingMoveUnpaid         = "UnpaidAtCutOff"
	DealingMoveRedemptionGate = "RedemptionGate"
)

// OrderCarry is where the units an order asked and was not filled went: a new order for
// them at the next dealing date or window (a SELL under a redemption gate, a SECONDARY
// SELL or BUY filled in part).
type OrderCarry struct {
	// Order is the id of the order that deals the carried units.
	Order ObjectID `json:"order"`
	// Units carried forward.
	// +kubebuilder:validation:Minimum=1
	Units int64 `json:"units"`
	// Amount is the money a SECONDARY BUY carries with its units, in micro-units: what
	// its payment did not use, which pays the carried BUY (nothing is refunded to, or
	// asked again of, the customer). Absent for a SELL.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Amount int64 `json:"amount,omitempty"`
	// DealingDate the carried units deal at (a dealing point for an Intraday class).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	DealingDate string `json:"dealingDate"`
	// CutOff is that date's redemption cut-off.
	CutOff metav1.Time `json:"cutOff"`
}

// OrderContractNote is what the strike fixed for a forward-priced order, with the fields
// of an ISO 20022 setr.012 subscription (setr.012) or redemption (setr.006) confirmation.
// Money in micro-units (1 EUR = 10,000), fee rates in rate units (100% = 10,000).
type OrderContractNote struct {
	// Dealing is the Dealing object (cluster-scoped) of the strike that priced the order.
	// +kubebuilder:validation:MaxLength=253
	Dealing string `json:"dealing"`
	// TradeDate is the dealing date; for an Intraday share class the dealing point,
	// YYYY-MM-DDTHH:MM local time (setr.012's trade date and time).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	TradeDate string `json:"tradeDate"`
	// NAVDate is the date of the NAV the order was priced at (the dealing date; the
	// dealing point for an Intraday share class).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	NAVDate string `json:"navDate"`
	// NAVPerShare is the price per unit.
	// +kubebuilder:validation:Minimum=1
	NAVPerShare int64 `json:"navPerShare"`
	// Units dealt: amountOfUnits, or for a BUY by amount the net amount ÷ NAV rounded
	// down to the share class's unit decimals.
	// +kubebuilder:validation:Minimum=0
	Units int64 `json:"units"`
	// GrossAmount is the order value before fees: units × NAV, or a BUY's amount.
	// +kubebuilder:validation:Minimum=0
	GrossAmount int64 `json:"grossAmount"`
	// FeeRate is the subscription (BUY) or redemption (SELL) fee rate fixed at placement.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	FeeRate int64 `json:"feeRate"`
	// FeeAmount is grossAmount × feeRate / 10,000, rounded half up.
	// +kubebuilder:validation:Minimum=0
	FeeAmount int64 `json:"feeAmount"`
	// NetAmount is grossAmount − feeAmount: the investment after fees (BUY) or the payout
	// (SELL).
	// +kubebuilder:validation:Minimum=0
	NetAmount int64 `json:"netAmount"`
	// UnitsValue (BUY by amount) is units × NAV: the part of the net amount the units used.
	// +kubebuilder:validation:Minimum=0
	// +optional
	UnitsValue int64 `json:"unitsValue,omitempty"`
	// Residual (BUY by amount) is netAmount − unitsValue: the cash the units do not use,
	// refunded to the customer's payment method details resolved at placement under
	// ResidualReference.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Residual int64 `json:"residual,omitempty"`
	// ResidualReference is the reference of the residual's refund.
	// +kubebuilder:validation:MaxLength=35
	// +optional
	ResidualReference string `json:"residualReference,omitempty"`
	// SettlementDate is the dealing date plus the share class's settlement period in
	// business days (T+n).
	// +kubebuilder:validation:Format=date
	SettlementDate string `json:"settlementDate"`
	// StruckAt is when the order was priced.
	StruckAt metav1.Time `json:"struckAt"`
	// RequestedUnits (a SELL under a redemption gate) are the units the order asked to
	// redeem when the gate filled fewer (units); absent when the order was filled in full.
	// +kubebuilder:validation:Minimum=0
	// +optional
	RequestedUnits int64 `json:"requestedUnits,omitempty"`
	// CarriedForward is the SELL that deals the units the gate did not fill (remainder
	// policy CarryForward); absent with the policy Cancel: those units are not redeemed.
	// +optional
	CarriedForward *OrderCarry `json:"carriedForward,omitempty"`
	// AntiDilution is what the share class's anti-dilution terms did to this order; absent
	// when they did nothing to it.
	// +optional
	AntiDilution *OrderAntiDilution `json:"antiDilution,omitempty"`
	// Secondary (a SECONDARY order) is its matching window's fill. dealing is then empty,
	// tradeDate and settlementDate are the window's date, navPerShare the side's price
	// (the NAV with the spread), units the units filled, feeRate the side's secondary fee;
	// a BUY pays grossAmount + feeAmount (netAmount is grossAmount), a SELL is paid
	// netAmount = grossAmount − feeAmount.
	// +optional
	Secondary *OrderSecondaryFill `json:"secondary,omitempty"`
}

// OrderAntiDilution is the anti-dilution applied to one order at the strike.
type OrderAntiDilution struct {
	// Method is SwingPricing (the order was dealt at the swung price, navPerShare of the
	// contract note; nav here) or Levy (levyAmount was deducted from its net amount).
	Method AntiDilutionMethod `json:"method"`
	// FactorBasisPoints is the swing factor or the levy rate.
	// +kubebuilder:validation:Minimum=1
	FactorBasisPoints int32 `json:"factorBasisPoints"`
	// Direction is the dealing's net flow: Inflow or Outflow.
	Direction FlowDirection `json:"direction"`
	// NAV is the dealing date's NAV before any swing, micro-units.
	// +kubebuilder:validation:Minimum=1
	NAV int64 `json:"nav"`
	// LevyAmount (Levy) is gross × rate / 10,000 rounded half up, kept by the fund.
	// +kubebuilder:validation:Minimum=0
	// +optional
	LevyAmount int64 `json:"levyAmount,omitempty"`
}

// Order is a buy or sell order for units of a share class on the primary or secondary
// market. Its name is its REST id, a lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ord,categories=fundshare
// +kubebuilder:printcolumn:name="Side",type=string,JSONPath=`.spec.side`
// +kubebuilder:printcolumn:name="Market",type=string,JSONPath=`.spec.market`
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Units",type=integer,JSONPath=`.spec.amountOfUnits`
// +kubebuilder:printcolumn:name="Amount",type=integer,JSONPath=`.spec.quote.amount`,priority=1
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`,priority=1
// +kubebuilder:printcolumn:name="Account",type=string,JSONPath=`.spec.accountID`,priority=1
// +kubebuilder:printcolumn:name="Dealing Date",type=string,JSONPath=`.spec.quote.dealingDate`,priority=1
// +kubebuilder:printcolumn:name="Window",type=string,JSONPath=`.spec.quote.window.date`,priority=1
// +kubebuilder:printcolumn:name="Filled",type=integer,JSONPath=`.status.strike.units`,priority=1
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`
// +kubebuilder:printcolumn:name="Waiting",type=string,JSONPath=`.status.conditions[?(@.type=="Waiting")].status`
// +kubebuilder:printcolumn:name="Why",type=string,JSONPath=`.status.conditions[?(@.type=="Waiting")].reason`
// +kubebuilder:printcolumn:name="Refund",type=string,JSONPath=`.status.refund.reference`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the order's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the order as placed.
	// +required
	Spec OrderSpec `json:"spec"`
	// Status is the lifecycle.
	// +optional
	Status OrderStatus `json:"status,omitempty"`
}

// OrderList is a list of Order.
//
// +kubebuilder:object:root=true
type OrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Order `json:"items"`
}

func init() {
	register(&Order{}, &OrderList{})
}
