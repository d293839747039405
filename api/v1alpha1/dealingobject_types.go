package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DealingPhase is where one dealing (an ISIN and a dealing date of a forward-priced share
// class) stands.
// +kubebuilder:validation:Enum=Open;CutOff;Struck;Settled
type DealingPhase string

// The phases of a dealing, in order.
const (
	// DealingOpen: a cut-off is still ahead; orders are taken for the date.
	DealingOpen DealingPhase = "Open"
	// DealingCutOff: both cut-offs passed; the dealing waits for the NAV of its date.
	DealingCutOff DealingPhase = "CutOff"
	// DealingStruck: the NAV of the date is recorded and every order ready for it is
	// priced at it (an order that becomes ready later is priced at the same NAV).
	DealingStruck DealingPhase = "Struck"
	// DealingSettled: every order of the dealing is COMPLETED or CANCELLED.
	DealingSettled DealingPhase = "Settled"
)

// DealingSpec names the dealing: an ISIN and a dealing date (or an Intraday share class's
// dealing point). The name of the object is derived from them (lifecycle.DealingName: the
// ISIN in lower case, a dash, the date; a dealing point's time without its colon).
// +kubebuilder:validation:XValidation:rule="self.isin == oldSelf.isin && self.date == oldSelf.date",message="a dealing's ISIN and date are immutable"
// +kubebuilder:validation:XValidation:rule="!has(self.navPerShare) || self.date.contains('T')",message="navPerShare is published on the Dealing of an Intraday dealing point only (date YYYY-MM-DDTHH:MM); the NAV of a dealing date is a price of the ISIN's NAVHistory",fieldPath=".navPerShare"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.navPerShare) || (has(self.navPerShare) && self.navPerShare == oldSelf.navPerShare)",message="the NAV of a dealing point is published once and cannot be changed or removed"
type DealingSpec struct {
	// ISIN of the share class.
	ISIN ISIN `json:"isin"`
	// Date is the dealing date (trade date and NAV date), YYYY-MM-DD; for an Intraday share
	// class the dealing point, YYYY-MM-DDTHH:MM in the class's time zone.
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9])?$`
	// +kubebuilder:validation:MaxLength=16
	Date string `json:"date"`
	// NAVPerShare is the NAV of an Intraday dealing point, in micro-units, published on
	// the Dealing itself (a dealing date's NAV is a price of the NAV history). Set once:
	// it cannot be changed or removed.
	// +kubebuilder:validation:Minimum=1
	// +optional
	NAVPerShare *int64 `json:"navPerShare,omitempty"`
}

// DealingNAV is the NAV a dealing was struck at, recorded before the first order is
// priced so that every order of the dealing gets the same price, also after a restart.
type DealingNAV struct {
	// NAVPerShare in micro-units.
	// +kubebuilder:validation:Minimum=1
	NAVPerShare int64 `json:"navPerShare"`
	// Date of the NAV: the dealing date (an Intraday class's dealing point).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	Date string `json:"date"`
	// RecordedAt is when the strike recorded it.
	RecordedAt metav1.Time `json:"recordedAt"`
}

// DealingGate is a dealing's redemption gate, drawn up with its NAV: the limit and the
// units asked, from which every SELL of the dealing is filled (lifecycle.GateFill).
type DealingGate struct {
	// ThresholdBasisPoints of the share class when the gate was drawn up.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10000
	ThresholdBasisPoints int32 `json:"thresholdBasisPoints"`
	// OutstandingUnits of the class: the units every account holds on the books.
	// +kubebuilder:validation:Minimum=0
	OutstandingUnits int64 `json:"outstandingUnits"`
	// LimitUnits = outstandingUnits × thresholdBasisPoints / 10,000, rounded down.
	// +kubebuilder:validation:Minimum=0
	LimitUnits int64 `json:"limitUnits"`
	// RequestedUnits are the units the dealing's SELLs asked to redeem.
	// +kubebuilder:validation:Minimum=0
	RequestedUnits int64 `json:"requestedUnits"`
	// Sells is how many SELLs asked them.
	// +kubebuilder:validation:Minimum=0
	Sells int32 `json:"sells"`
	// Remainder is the policy for the units not filled: CarryForward or Cancel.
	Remainder GateRemainder `json:"remainder"`
}

// FlowDirection is the direction of a dealing's net flow.
// +kubebuilder:validation:Enum=Inflow;Outflow;None
type FlowDirection string

// The flow directions.
const (
	FlowInflow  FlowDirection = "Inflow"
	FlowOutflow FlowDirection = "Outflow"
	FlowNone    FlowDirection = "None"
)

// DealingAntiDilution is a dealing's anti-dilution decision, drawn up with its NAV: the
// net flow against the threshold, and what the strike applies.
type DealingAntiDilution struct {
	// Method, ThresholdBasisPoints and FactorBasisPoints are the share class's terms
	// when the decision was drawn up.
	Method AntiDilutionMethod `json:"method"`
	// +kubebuilder:validation:Minimum=0
	ThresholdBasisPoints int32 `json:"thresholdBasisPoints"`
	// +kubebuilder:validation:Minimum=1
	FactorBasisPoints int32 `json:"factorBasisPoints"`
	// Subscriptions and Redemptions are the money the dealing's orders bring in and take
	// out at the NAV (a SELL as its redemption gate fills it), micro-units.
	// +kubebuilder:validation:Minimum=0
	Subscriptions int64 `json:"subscriptions"`
	// +kubebuilder:validation:Minimum=0
	Redemptions int64 `json:"redemptions"`
	// ClassValue is the class's outstanding units × NAV, micro-units.
	// +kubebuilder:validation:Minimum=0
	ClassValue int64 `json:"classValue"`
	// Direction of the net flow: Inflow, Outflow or None.
	Direction FlowDirection `json:"direction"`
	// Applied: the net flow is above the threshold, so the method applies.
	Applied bool `json:"applied"`
	// NAVPerShare is the price the dealing's orders are dealt at: the NAV, or under
	// SwingPricing applied the NAV moved by the factor (rounded half up).
	// +kubebuilder:validation:Minimum=1
	NAVPerShare int64 `json:"navPerShare"`
}

// Applied reports whether the gate cuts the SELLs back (more units asked than the limit).
func (g *DealingGate) Applied() bool { return g != nil && g.RequestedUnits > g.LimitUnits }

// DealingProgress is what the strike controller recorded about a dealing.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.nav) || (has(self.nav) && self.nav == oldSelf.nav)",message="the NAV of a struck dealing is immutable",fieldPath=".nav"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.redemptionGate) || (has(self.redemptionGate) && self.redemptionGate == oldSelf.redemptionGate)",message="the redemption gate of a struck dealing is immutable",fieldPath=".redemptionGate"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.antiDilution) || (has(self.antiDilution) && self.antiDilution == oldSelf.antiDilution)",message="the anti-dilution decision of a struck dealing is immutable",fieldPath=".antiDilution"
type DealingProgress struct {
	// Phase is Open, CutOff, Struck or Settled.
	// +optional
	Phase DealingPhase `json:"phase,omitempty"`
	// SubscriptionCutOff and RedemptionCutOff are the dealing date's cut-offs.
	// +optional
	SubscriptionCutOff *metav1.Time `json:"subscriptionCutOff,omitempty"`
	// +optional
	RedemptionCutOff *metav1.Time `json:"redemptionCutOff,omitempty"`
	// NAVPublicationDate is when the NAV of the date is expected.
	// +kubebuilder:validation:Format=date
	// +optional
	NAVPublicationDate string `json:"navPublicationDate,omitempty"`
	// SettlementDate is T+n.
	// +kubebuilder:validation:Format=date
	// +optional
	SettlementDate string `json:"settlementDate,omitempty"`
	// NAV is the NAV the dealing was struck at; immutable once recorded.
	// +optional
	NAV *DealingNAV `json:"nav,omitempty"`
	// RedemptionGate is the dealing's redemption gate, drawn up in the same write as the
	// NAV when the share class has one; immutable once recorded.
	// +optional
	RedemptionGate *DealingGate `json:"redemptionGate,omitempty"`
	// AntiDilution is the dealing's anti-dilution decision, drawn up in the same write as
	// the NAV when the share class has anti-dilution terms; immutable once recorded.
	// +optional
	AntiDilution *DealingAntiDilution `json:"antiDilution,omitempty"`
	// Orders is the number of live orders of the dealing (not cancelled).
	// +optional
	Orders int32 `json:"orders"`
	// Priced is how many of them carry the strike's contract note.
	// +optional
	Priced int32 `json:"priced"`
	// Buys and Sells count the priced orders by side.
	// +optional
	Buys int32 `json:"buys"`
	// +optional
	Sells int32 `json:"sells"`
	// UnitsSubscribed and UnitsRedeemed are the units the priced BUYs and SELLs deal.
	// +optional
	UnitsSubscribed int64 `json:"unitsSubscribed"`
	// +optional
	UnitsRedeemed int64 `json:"unitsRedeemed"`
	// Subscriptions and Redemptions are the gross amounts of the priced BUYs and SELLs,
	// micro-units.
	// +optional
	Subscriptions int64 `json:"subscriptions"`
	// +optional
	Redemptions int64 `json:"redemptions"`
	// UnitsCarriedForward are the units of priced SELLs the redemption gate carried to the
	// next dealing date; UnitsNotRedeemed those it did not redeem (remainder Cancel).
	// +optional
	UnitsCarriedForward int64 `json:"unitsCarriedForward,omitempty"`
	// +optional
	UnitsNotRedeemed int64 `json:"unitsNotRedeemed,omitempty"`
	// Fees is the sum of the priced orders' fees, micro-units.
	// +optional
	Fees int64 `json:"fees"`
	// Residuals is the cash refunded to BUYs by amount that their units did not use.
	// +optional
	Residuals int64 `json:"residuals"`
	// StruckAt is when the NAV was recorded and the orders priced.
	// +optional
	StruckAt *metav1.Time `json:"struckAt,omitempty"`
	// Message says what the dealing waits for.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Message string `json:"message,omitempty"`
}

// Dealing is one dealing of a forward-priced share class: an ISIN and a dealing date,
// from open to settled, with its orders' counts and totals and the NAV it was struck at.
// The strike controller creates one for each of a share class's next dealing dates and
// for every dealing date an order names; its name is the ISIN in lower case and the date
// (lu0000deal19-2026-03-10).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=dl,categories=fundshare
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Date",type=string,JSONPath=`.spec.date`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Subscription Cut-off",type=string,JSONPath=`.status.subscriptionCutOff`
// +kubebuilder:printcolumn:name="NAV",type=integer,JSONPath=`.status.nav.navPerShare`
// +kubebuilder:printcolumn:name="Orders",type=integer,JSONPath=`.status.orders`
// +kubebuilder:printcolumn:name="Priced",type=integer,JSONPath=`.status.priced`
// +kubebuilder:printcolumn:name="Subscriptions",type=integer,JSONPath=`.status.subscriptions`,priority=1
// +kubebuilder:printcolumn:name="Redemptions",type=integer,JSONPath=`.status.redemptions`,priority=1
// +kubebuilder:printcolumn:name="Price",type=integer,JSONPath=`.status.antiDilution.navPerShare`,priority=1
// +kubebuilder:printcolumn:name="Gate Limit",type=integer,JSONPath=`.status.redemptionGate.limitUnits`,priority=1
// +kubebuilder:printcolumn:name="Carried",type=integer,JSONPath=`.status.unitsCarriedForward`,priority=1
// +kubebuilder:printcolumn:name="Settlement",type=string,JSONPath=`.status.settlementDate`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name == self.spec.isin.lowerAscii() + '-' + (self.spec.date.size() == 10 ? self.spec.date : self.spec.date.substring(0, 10) + 't' + self.spec.date.substring(11, 13) + self.spec.date.substring(14, 16))",message="metadata.name must be the ISIN in lower case, a dash and the date, e.g. lu0000deal19-2026-03-10 (a dealing point 2026-03-10T12:05: lu0000deal19-2026-03-10t1205)"
type Dealing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the dealing.
	// +required
	Spec DealingSpec `json:"spec"`
	// Status is the dealing's progress.
	// +optional
	Status DealingProgress `json:"status,omitempty"`
}

// DealingList is a list of Dealing.
//
// +kubebuilder:object:root=true
type DealingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Dealing `json:"items"`
}

func init() {
	register(&Dealing{}, &DealingList{})
}
