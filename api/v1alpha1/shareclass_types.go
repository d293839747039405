package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShareClassSpec describes a share class of a feeder fund. Fees and returns are in rate
// units (100% = 10,000), money in micro-units (1 EUR = 10,000), the lock-up in days.
type ShareClassSpec struct {
	// Name of the share class.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=200
	Name string `json:"name"`
	// Abbreviation of the name.
	// +kubebuilder:validation:MaxLength=32
	// +optional
	Abbreviation string `json:"abbreviation,omitempty"`
	// ISIN of the share class, unique across share classes; check digit verified by
	// admission. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="isin is immutable"
	ISIN ISIN `json:"isin"`
	// Currency of the share class's NAV and orders.
	Currency CurrencyCode `json:"currency"`
	// ManagementFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	ManagementFee int64 `json:"managementFee"`
	// AdministrationFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	AdministrationFee int64 `json:"administrationFee"`
	// ServicingFee in rate units per year, or absent.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	ServicingFee *int64 `json:"servicingFee,omitempty"`
	// SubscriptionFee is the default fee rate of buy orders.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	SubscriptionFee int64 `json:"subscriptionFee"`
	// RedemptionFee is the default fee rate of sell orders.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	RedemptionFee int64 `json:"redemptionFee"`
	// DepositaryFee in rate units per year.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	DepositaryFee int64 `json:"depositaryFee"`
	// TargetReturnNet in rate units per year; may be negative.
	// +kubebuilder:validation:Minimum=-10000
	// +kubebuilder:validation:Maximum=100000
	// +optional
	TargetReturnNet int64 `json:"targetReturnNet"`
	// MinInvestment in micro-units of the currency.
	// +kubebuilder:validation:Minimum=0
	// +optional
	MinInvestment int64 `json:"minInvestment"`
	// LockUp in days: units younger than this cannot be sold.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=36500
	// +optional
	LockUp int32 `json:"lockUp"`
	// RedemptionWindow: `monthly` and `quarterly` are the values seen.
	// +kubebuilder:validation:Enum=daily;weekly;monthly;quarterly;semiannually;annually
	// +optional
	RedemptionWindow string `json:"redemptionWindow,omitempty"`
	// FeederFundID is the id of the Fund the share class belongs to. Immutable.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="feederFundID is immutable"
	FeederFundID ObjectID `json:"feederFundID"`
	// Token is the share class's token on the operator's chain: deploy a new one or adopt
	// an existing address. Absent: the share class has no token and its orders deliver
	// nothing on a chain. Once set it can neither change nor be removed.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="token is immutable once set"
	// +optional
	Token *ShareClassToken `json:"token,omitempty"`
	// Dealing are the share class's dealing terms: pricing (Latest or Forward) and the
	// dealing calendar (docs/dealing.md). Absent: orders are priced at placement with the
	// latest NAV and there is no dealing calendar.
	// +optional
	Dealing *DealingTerms `json:"dealing,omitempty"`
	// Secondary is the share class's secondary market (docs/secondary.md): the calendar of
	// its matching windows, the price rule, the secondary fees and the carry-forward
	// policy. Absent: SECONDARY orders are refused.
	// +optional
	Secondary *SecondaryMarket `json:"secondary,omitempty"`
}

// TokenMode says where a share class's token comes from.
// +kubebuilder:validation:Enum=Deploy;Adopt
type TokenMode string

// The token modes.
const (
	// TokenModeDeploy: the operator deploys a new ShareToken for the share class, its name
	// the share class's name and its symbol the ISIN.
	TokenModeDeploy TokenMode = "Deploy"
	// TokenModeAdopt: the operator uses the ShareToken at spec.token.address.
	TokenModeAdopt TokenMode = "Adopt"
)

// ShareClassToken names a share class's token.
// +kubebuilder:validation:XValidation:rule="self.mode == 'Adopt' ? has(self.address) : !has(self.address)",message="address is required when mode is Adopt and not allowed when mode is Deploy"
// +kubebuilder:validation:XValidation:rule="self.mode == 'Adopt' || !has(self.fromBlock)",message="fromBlock is only allowed when mode is Adopt",fieldPath=".fromBlock"
type ShareClassToken struct {
	// Mode is Deploy (the operator deploys a token) or Adopt (the token at address).
	// +required
	Mode TokenMode `json:"mode"`
	// Address of the ShareToken to adopt: 0x and 40 hexadecimal digits; a mixed-case
	// address must pass its EIP-55 checksum. The operator checks that the code there is
	// this release's ShareToken, that it uses the configured identity registry and that
	// the operator's key holds its AGENT_ROLE. Only with mode Adopt.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +optional
	Address string `json:"address,omitempty"`
	// FromBlock is the block the adopted token was deployed in (or any block before its
	// first transfer): the transfer indexer reads the token's Transfer events from there.
	// Absent, it reads from block 0, which on a local chain is quick and on Polygon means
	// every block since genesis: set it when adopting a token on a public chain. A deployed
	// token's start is its recorded deployment block. Only with mode Adopt; once set it
	// cannot change.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="fromBlock is immutable"
	// +optional
	FromBlock *int64 `json:"fromBlock,omitempty"`
}

// ShareClassStatus is what the token controller observed.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.token) || has(self.token)",message="a recorded token cannot be removed",fieldPath=".token"
type ShareClassStatus struct {
	// ObservedGeneration is the generation this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Token is the share class's token on the chain, once known.
	// +optional
	Token *ShareClassTokenStatus `json:"token,omitempty"`
	// Transfers is how far the transfer indexer (controllers/transfer) has recorded the
	// token's holder-to-holder transfers as Transfer objects.
	// +optional
	Transfers *TransferCursor `json:"transfers,omitempty"`
	// Dealing is the dealing calendar (controllers/dealing): the next dealing dates and
	// their cut-offs. Absent without dealing terms.
	// +optional
	Dealing *DealingStatus `json:"dealing,omitempty"`
	// Conditions: TokenReady (the token is deployed or adopted and usable; False with
	// Paused while the token is paused); the kstatus trio: Ready (Adopted or Deployed),
	// Reconciling (Deploying: the deployment is sent, not yet final) and Stalled with the
	// reason a person must act on (e.g. NotAShareToken, WrongRegistry, NotAgent,
	// DeploymentFailed, Paused); ChainInSync (the chain holds every transaction the
	// operator recorded; False with Behind, Halted or RecordsBehind, docs/tokens.md).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// ShareClassTokenStatus is a share class's token on the chain.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.deployment) || has(self.deployment)",message="a recorded transaction cannot be removed",fieldPath=".deployment"
type ShareClassTokenStatus struct {
	// Address of the token (EIP-55). For a deployment it is known before the transaction
	// is mined: the address follows from the sender and its nonce.
	// +optional
	Address string `json:"address,omitempty"`
	// ChainID of the chain the token lives on.
	// +optional
	ChainID int64 `json:"chainId,omitempty"`
	// DeploymentTransaction is the hash of the transaction that created the token (Deploy
	// mode), recorded before it is broadcast.
	// +optional
	DeploymentTransaction string `json:"deploymentTransaction,omitempty"`
	// IdentityRegistry is the registry the token checks wallets against.
	// +optional
	IdentityRegistry string `json:"identityRegistry,omitempty"`
	// Deployment is the token's creation transaction (Deploy mode), recorded before it is
	// broadcast.
	// +optional
	Deployment *ChainTransaction `json:"deployment,omitempty"`
	// SettlementGrant (Deploy mode, a secondary market with cash on chain) is the
	// operator's grantRole(AGENT_ROLE, settlement contract) on the token it deployed,
	// recorded before it is broadcast.
	// +optional
	SettlementGrant *ChainTransaction `json:"settlementGrant,omitempty"`
}

// TransferCursor is the last block whose Transfer events of the token are all recorded as
// Transfer objects, and that block's hash: a reorganisation that replaces the block is
// seen by its hash, and what was recorded above the common block is removed and read again.
type TransferCursor struct {
	// IndexedBlock is the block number.
	// +kubebuilder:validation:Minimum=0
	IndexedBlock int64 `json:"indexedBlock"`
	// IndexedBlockHash is its hash.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{64}$`
	IndexedBlockHash string `json:"indexedBlockHash"`
	// Token is the token address the cursor belongs to.
	// +optional
	Token string `json:"token,omitempty"`
}

// ShareClass is a share class of a feeder fund. Cluster-scoped; its name is its REST id,
// a lowercase UUID. The API server selects share classes by ISIN
// (`kubectl get shareclasses --field-selector spec.isin=LU000FSHA019`).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=sc,categories=fundshare
// +kubebuilder:selectablefield:JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Class Name",type=string,JSONPath=`.spec.name`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`
// +kubebuilder:printcolumn:name="Fund",type=string,JSONPath=`.spec.feederFundID`
// +kubebuilder:printcolumn:name="Lock-up",type=integer,JSONPath=`.spec.lockUp`
// +kubebuilder:printcolumn:name="Pricing",type=string,JSONPath=`.spec.dealing.pricing`
// +kubebuilder:printcolumn:name="Next Dealing",type=string,JSONPath=`.status.dealing.next[0].date`
// +kubebuilder:printcolumn:name="Subscription Cut-off",type=string,JSONPath=`.status.dealing.next[0].subscriptionCutOff`,priority=1
// +kubebuilder:printcolumn:name="Token",type=string,JSONPath=`.status.token.address`,priority=1
// +kubebuilder:printcolumn:name="Token Ready",type=string,JSONPath=`.status.conditions[?(@.type=="TokenReady")].status`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')",message="metadata.name must be a lowercase UUID (it is the share class's REST id), e.g. 123e4567-e89b-42d3-a456-426614174000"
type ShareClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec describes the share class.
	// +kubebuilder:validation:XValidation:rule="!has(oldSelf.token) || has(self.token)",message="token cannot be removed once set"
	// +required
	Spec ShareClassSpec `json:"spec"`
	// Status is observed by the token controller.
	// +optional
	Status ShareClassStatus `json:"status,omitempty"`
}

// ShareClassList is a list of ShareClass.
//
// +kubebuilder:object:root=true
type ShareClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ShareClass `json:"items"`
}

func init() {
	register(&ShareClass{}, &ShareClassList{})
}
