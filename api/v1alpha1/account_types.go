package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AccountType is the kind of customer an account represents.
// +kubebuilder:validation:Enum=individual;business
type AccountType string

const (
	// AccountTypeIndividual is a natural person.
	AccountTypeIndividual AccountType = "individual"
	// AccountTypeBusiness is a registered company.
	AccountTypeBusiness AccountType = "business"
)

// AccountSpec is the customer's data, as the API client supplied it.
// Which fields are required depends on the type and on the tenant's ApiClient settings
// (tax reporting, LEI, KYC data); admission checks that, with field-level messages.
type AccountSpec struct {
	// ExternalID is the caller-chosen identifier that maps the account to the caller's own
	// system. Unique within a tenant.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	ExternalID string `json:"externalID,omitempty"`

	// Type is `individual` or `business`; it decides which other fields are needed.
	// Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type is immutable"
	// +required
	Type AccountType `json:"type"`

	// Country of residence or incorporation, as an ISO 3166-1 alpha-2 code.
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}$`
	// +kubebuilder:validation:MaxLength=2
	// +optional
	Country string `json:"country,omitempty"`

	// City of residence or incorporation.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	City string `json:"city,omitempty"`

	// Line1 is the first address line.
	// +kubebuilder:validation:MaxLength=200
	// +optional
	Line1 string `json:"line1,omitempty"`

	// Line2 is the optional second address line.
	// +kubebuilder:validation:MaxLength=200
	// +optional
	Line2 string `json:"line2,omitempty"`

	// PostalCode is the postal or ZIP code.
	// +kubebuilder:validation:MaxLength=20
	// +optional
	PostalCode string `json:"postalCode,omitempty"`

	// State is the state or province.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	State string `json:"state,omitempty"`

	// FirstName of an individual.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	FirstName string `json:"firstName,omitempty"`

	// LastName of an individual.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	LastName string `json:"lastName,omitempty"`

	// DobDay is the day of birth of an individual, 1 to 31.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=31
	// +optional
	DobDay int32 `json:"dobDay,omitempty"`

	// DobMonth is the month of birth of an individual, 1 to 12.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=12
	// +optional
	DobMonth int32 `json:"dobMonth,omitempty"`

	// DobYear is the four-digit year of birth of an individual.
	// +kubebuilder:validation:Minimum=1900
	// +kubebuilder:validation:Maximum=9999
	// +optional
	DobYear int32 `json:"dobYear,omitempty"`

	// PlaceOfBirth of an individual.
	// +kubebuilder:validation:MaxLength=100
	// +optional
	PlaceOfBirth string `json:"placeOfBirth,omitempty"`

	// BusinessName is the registered company name of a business.
	// +kubebuilder:validation:MaxLength=200
	// +optional
	BusinessName string `json:"businessName,omitempty"`

	// LEI is the Legal Entity Identifier (ISO 17442) of a business. Required when the
	// tenant's ApiClient sets leiRequired.
	// +kubebuilder:validation:Pattern=`^[A-Z0-9]{18}[0-9]{2}$`
	// +kubebuilder:validation:MaxLength=20
	// +optional
	LEI string `json:"lei,omitempty"`

	// TaxID of a business. Required when the tenant opted in to tax reporting.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	TaxID string `json:"taxID,omitempty"`

	// TIN is the Tax Identification Number of an individual. Required when the tenant
	// opted in to tax reporting.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	TIN string `json:"tin,omitempty"`

	// TaxResidencies of an individual or business. Required when the tenant opted in to
	// tax reporting.
	// +kubebuilder:validation:MaxLength=200
	// +optional
	TaxResidencies string `json:"taxResidencies,omitempty"`

	// PrimaryWallet is the id of the account's primary Wallet. Only one wallet per account
	// is primary: the account holds the pointer, so making another wallet primary is one
	// write and uniqueness holds by construction.
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
	// +kubebuilder:validation:MaxLength=36
	// +optional
	PrimaryWallet string `json:"primaryWallet,omitempty"`

	// PrimaryPaymentMethodDetails is the id of the account's primary PaymentMethodDetails.
	// +kubebuilder:validation:Pattern=`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
	// +kubebuilder:validation:MaxLength=36
	// +optional
	PrimaryPaymentMethodDetails string `json:"primaryPaymentMethodDetails,omitempty"`
}

// Holding is what an account owns of one share class, derived from its completed orders
// and its on-chain transfers between holders.
type Holding struct {
	// ISIN of the share class.
	ISIN ISIN `json:"isin"`
	// Units owned in total.
	Units int64 `json:"units"`
	// LockedUnits are units younger than the share class's lock-up (days).
	LockedUnits int64 `json:"lockedUnits"`
	// ReservedUnits are promised to sell orders that are not terminal yet.
	ReservedUnits int64 `json:"reservedUnits"`
	// TransferredInUnits are the units that arrived at the account's wallets by on-chain
	// transfers from other holders (Transfer objects, direction In); counted in Units.
	// +optional
	TransferredInUnits int64 `json:"transferredInUnits,omitempty"`
	// TransferredOutUnits are the units that left the account's wallets by on-chain
	// transfers to other holders (Transfer objects, direction Out); subtracted from Units.
	// +optional
	TransferredOutUnits int64 `json:"transferredOutUnits,omitempty"`
	// SubscribedUnits are the units of the account's completed PRIMARY BUYs (issued by the
	// fund); counted in Units.
	// +optional
	SubscribedUnits int64 `json:"subscribedUnits,omitempty"`
	// RedeemedUnits are the units of its completed PRIMARY SELLs (redeemed by the fund);
	// subtracted from Units.
	// +optional
	RedeemedUnits int64 `json:"redeemedUnits,omitempty"`
	// SecondaryBoughtUnits are the units of its completed SECONDARY BUYs (bought from
	// other investors in matching windows); counted in Units.
	// +optional
	SecondaryBoughtUnits int64 `json:"secondaryBoughtUnits,omitempty"`
	// SecondarySoldUnits are the units of its completed SECONDARY SELLs (sold to other
	// investors in matching windows); subtracted from Units.
	// +optional
	SecondarySoldUnits int64 `json:"secondarySoldUnits,omitempty"`
	// Lots break the units down by the day they unlock, oldest first: one lot per
	// completed buy while it is locked (unlocksAt after now), and at most one lot for every
	// unit past its lock-up, so that the list is bounded by the buys within the lock-up
	// window, not by the account's history. Completed sells consume the oldest units
	// first, before the unlocked ones are folded.
	// +listType=atomic
	// +optional
	Lots []HoldingLot `json:"lots,omitempty"`
}

// HoldingLot is a number of units that unlock on one day: the units one completed buy
// left while they are locked, or the units of every buy whose lock-up has ended.
type HoldingLot struct {
	// Units in this lot.
	Units int64 `json:"units"`
	// AcquiredAt is when the order that bought them completed; for the lot of unlocked
	// units, when the oldest buy of which units are left completed.
	AcquiredAt metav1.Time `json:"acquiredAt"`
	// UnlocksAt is when the lock-up of these units ends; for the lot of unlocked units,
	// the latest end among the buys folded into it (not after the status was computed).
	UnlocksAt metav1.Time `json:"unlocksAt"`
}

// UnitReservation records that a sell order has claimed units of an account's holdings.
type UnitReservation struct {
	// Order is the id of the sell order.
	Order ObjectID `json:"order"`
	// ISIN of the share class.
	ISIN ISIN `json:"isin"`
	// Units reserved.
	Units int64 `json:"units"`
}

// AccountStatus is what the controllers observed about the account.
type AccountStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: Ready, PrimaryWalletResolved, PrimaryPaymentMethodDetailsResolved, and
	// Stalled (kstatus) while a primary pointer does not resolve (reason
	// PrimaryNotResolved) or while a deletion waits because the account holds units or
	// live orders (reason DeletionBlocked).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Holdings per ISIN, from completed orders.
	// +listType=map
	// +listMapKey=isin
	// +optional
	Holdings []Holding `json:"holdings,omitempty"`

	// Reservations are the units held for sell orders that are not terminal. Written only
	// by the order controller, with optimistic concurrency on this object, so that
	// concurrent sells can never promise more units than the account owns.
	// +listType=map
	// +listMapKey=order
	// +optional
	Reservations []UnitReservation `json:"reservations,omitempty"`

	// OnChain is what the account's registered wallets (those no other account also
	// registered) hold on chain per ISIN at a confirmed block, written by the ledger
	// reconciliation when a chain is configured; absent without a chain. A SELL is placed
	// only within it, less the units of the account's other sells not burned by Block.
	// +optional
	OnChain *OnChainHoldings `json:"onChain,omitempty"`
}

// OnChainHoldings are an account's units on chain at one confirmed block.
type OnChainHoldings struct {
	// Block is the chain block the balances were read at.
	// +kubebuilder:validation:Minimum=0
	Block int64 `json:"block"`
	// Holdings per ISIN whose token the account's wallets hold units of.
	// +listType=map
	// +listMapKey=isin
	// +optional
	Holdings []OnChainHolding `json:"holdings,omitempty"`
}

// OnChainHolding is the units of one ISIN's token on chain.
type OnChainHolding struct {
	// ISIN of the share class whose token it is.
	ISIN ISIN `json:"isin"`
	// Units is the sum of balanceOf over the account's registered wallets.
	// +kubebuilder:validation:Minimum=0
	Units int64 `json:"units"`
}

// Units is the units of isin on chain (zero when none).
func (h *OnChainHoldings) Units(isin ISIN) int64 {
	for _, x := range h.Holdings {
		if x.ISIN == isin {
			return x.Units
		}
	}
	return 0
}

// Account is a customer of an API client: a natural person (individual) or a registered
// company (business). Its name is its REST id, a lowercase UUID.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=acct,categories=fundshare
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="External ID",type=string,JSONPath=`.spec.externalID`
// +kubebuilder:printcolumn:name="Country",type=string,JSONPath=`.spec.country`
// +kubebuilder:printcolumn:name="Primary Wallet",type=string,JSONPath=`.spec.primaryWallet`,priority=1
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the account's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type Account struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the customer's data.
	// +required
	Spec AccountSpec `json:"spec"`
	// Status is observed by the controllers.
	// +optional
	Status AccountStatus `json:"status,omitempty"`
}

// AccountList is a list of Account.
//
// +kubebuilder:object:root=true
type AccountList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Account `json:"items"`
}

func init() {
	register(&Account{}, &AccountList{})
}

// AccountFinalizer holds a deleted account until the account controller has removed its
// wallets and payment method details (and checked that it holds nothing).
const AccountFinalizer = "invest.fundshare.io/remove-children"

// LabelAccount labels the objects that belong to an account by its id (e.g. the wallet
// address claims admission keeps); they are removed with the account.
const LabelAccount = "invest.fundshare.io/account"
