package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SecondaryMarket is a share class's published secondary-market policy (docs/secondary.md):
// the calendar of its matching windows, the price rule, the secondary fees and what
// becomes of the units a window does not fill. SECONDARY orders of a share class without
// it are refused: a secondary trade moves existing units between investors and never
// mints or burns, so it needs a window to meet its counterparty in.
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Weekly' ? has(self.weekday) : !has(self.weekday)",message="weekday is required when frequency is Weekly and not allowed otherwise",fieldPath=".weekday"
// +kubebuilder:validation:XValidation:rule="self.frequency in ['Monthly', 'Quarterly'] ? has(self.dayRule) : !has(self.dayRule)",message="dayRule is required when frequency is Monthly or Quarterly and not allowed otherwise",fieldPath=".dayRule"
// +kubebuilder:validation:XValidation:rule="has(self.dayRule) && self.dayRule == 'DayOfMonth' ? has(self.dayOfMonth) : !has(self.dayOfMonth)",message="dayOfMonth is required when dayRule is DayOfMonth and not allowed otherwise",fieldPath=".dayOfMonth"
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Quarterly' || !has(self.monthOfQuarter)",message="monthOfQuarter is allowed only when frequency is Quarterly",fieldPath=".monthOfQuarter"
// +kubebuilder:validation:XValidation:rule="self.frequency != 'Intraday'",message="matching windows are dated: frequency Intraday is for a share class's dealing terms only",fieldPath=".frequency"
// +kubebuilder:validation:XValidation:rule="has(self.orderDeadline.time) && !has(self.orderDeadline.minutesBefore)",message="the order deadline is a time (HH:MM) and businessDaysBefore; minutesBefore is for Intraday dealing terms only",fieldPath=".orderDeadline"
type SecondaryMarket struct {
	// TimeZone of the calendar and the deadline, an IANA name (Europe/Luxembourg).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +required
	TimeZone string `json:"timeZone"`
	// Frequency of the matching windows: Daily, Weekly, Monthly or Quarterly, on the
	// business days of the calendar, as a dealing calendar's (docs/dealing.md).
	// +required
	Frequency DealingFrequency `json:"frequency"`
	// Weekday (Weekly) of the windows.
	// +optional
	Weekday Weekday `json:"weekday,omitempty"`
	// DayRule (Monthly, Quarterly): FirstBusinessDay, LastBusinessDay or DayOfMonth.
	// +optional
	DayRule DealingDayRule `json:"dayRule,omitempty"`
	// DayOfMonth (DayRule DayOfMonth), 1–31; a later day than the month has is its last.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=31
	// +optional
	DayOfMonth int32 `json:"dayOfMonth,omitempty"`
	// MonthOfQuarter (Quarterly), 1–3; default 3.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=3
	// +optional
	MonthOfQuarter int32 `json:"monthOfQuarter,omitempty"`
	// BusinessDays of the week; default Monday to Friday.
	// +kubebuilder:validation:MaxItems=7
	// +listType=set
	// +optional
	BusinessDays []Weekday `json:"businessDays,omitempty"`
	// Holidays (YYYY-MM-DD) on which no window falls.
	// +kubebuilder:validation:MaxItems=366
	// +kubebuilder:validation:items:Pattern=`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`
	// +listType=set
	// +optional
	Holidays []string `json:"holidays,omitempty"`
	// OrderDeadline of a window: an order received at or after it goes to a later window,
	// and an order can be cancelled until it. The window is matched when it passes.
	// +required
	OrderDeadline CutOff `json:"orderDeadline"`
	// SpreadBasisPoints is the fund's disclosed spread around the NAV: a BUY pays NAV ×
	// (10,000 + spread) / 10,000 per unit, a SELL receives NAV × (10,000 − spread) / 10,000,
	// each rounded half up to the money unit. 0: both at the NAV.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	SpreadBasisPoints int32 `json:"spreadBasisPoints,omitempty"`
	// BuyFeeRate is the secondary fee of a BUY in rate units (100% = 10,000), on its gross:
	// the buyer pays gross + fee.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	BuyFeeRate int64 `json:"buyFeeRate,omitempty"`
	// SellFeeRate is the secondary fee of a SELL in rate units, on its gross: the seller
	// is paid gross − fee.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	SellFeeRate int64 `json:"sellFeeRate,omitempty"`
	// CarryWindows is how many later windows the units a window did not fill are carried
	// to: an order filled with nothing waits for the next window, a SELL's remainder after
	// a partial fill is a new SELL of the next window (spec.carriedFrom). 0: they are
	// cancelled at once. A BUY's remainder after a partial fill is never carried: its
	// money is refunded with the residual.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=12
	// +optional
	CarryWindows int32 `json:"carryWindows,omitempty"`
	// CashOnChain settles the class's secondary trades against cash on chain (delivery
	// versus payment in one transaction, docs/secondary.md "Cash on chain"): a BUY is paid
	// by escrowing the cash token at the settlement contract, and the contract's swap moves
	// the units, pays the sellers and the fees, and returns what the fill did not use, all
	// at once. Absent: cash moves through the bank, as for primary orders. An order keeps
	// the cash settlement it was placed with; a window leaves out the orders placed under
	// another one.
	// +optional
	CashOnChain *CashOnChain `json:"cashOnChain,omitempty"`
}

// CashOnChain names the contracts of the cash leg on the share token's chain.
type CashOnChain struct {
	// Settlement is the DeliveryVersusPayment contract (contracts/src/DeliveryVersusPayment.sol)
	// whose agent is the operator's key and which is an agent of the share token.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	Settlement string `json:"settlement"`
	// CashToken is the ERC-20 cash token (a euro stablecoin or tokenised deposit) in which
	// buyers pay; one token unit is one money unit of the class's currency (4 decimals).
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	CashToken string `json:"cashToken"`
	// FeeCollector is the fund's wallet that receives the secondary fees of both sides.
	// +kubebuilder:validation:Pattern=`^0x[0-9a-fA-F]{40}$`
	// +required
	FeeCollector string `json:"feeCollector"`
}

// MatchingWindowPhase is where one matching window stands.
// +kubebuilder:validation:Enum=Open;Matching;Matched;Settled
type MatchingWindowPhase string

// The phases of a matching window, in order.
const (
	// WindowOpen: the order deadline is ahead; orders are taken for the window.
	WindowOpen MatchingWindowPhase = "Open"
	// WindowMatching: the book and the price are recorded; the orders' fills are being
	// written.
	WindowMatching MatchingWindowPhase = "Matching"
	// WindowMatched: every order of the book has its fill.
	WindowMatched MatchingWindowPhase = "Matched"
	// WindowSettled: every order of the book is COMPLETED or CANCELLED.
	WindowSettled MatchingWindowPhase = "Settled"
)

// MatchingWindowSpec names the window: an ISIN and a date. The object's name is the ISIN
// in lower case, a dash and the date.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a matching window's ISIN and date are immutable"
type MatchingWindowSpec struct {
	// ISIN of the share class.
	ISIN ISIN `json:"isin"`
	// Date of the window, YYYY-MM-DD.
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`
	// +kubebuilder:validation:MaxLength=10
	Date string `json:"date"`
}

// MatchingPolicy is the share class's secondary policy as the window recorded it before
// matching, so that the window is matched, and its fills recomputed, under the same terms
// whatever the share class says later.
type MatchingPolicy struct {
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	SpreadBasisPoints int32 `json:"spreadBasisPoints"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	BuyFeeRate int64 `json:"buyFeeRate"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	SellFeeRate int64 `json:"sellFeeRate"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=12
	CarryWindows int32 `json:"carryWindows"`
}

// MatchingWindowResult is what a window publishes: nothing in it names an order, an
// account or a counterparty.
type MatchingWindowResult struct {
	// BuyPrice and SellPrice per unit, micro-units: the NAV with the spread.
	// +kubebuilder:validation:Minimum=0
	BuyPrice int64 `json:"buyPrice"`
	// +kubebuilder:validation:Minimum=0
	SellPrice int64 `json:"sellPrice"`
	// VolumeUnits matched: min(units asked by the BUYs, units asked by the SELLs).
	// +kubebuilder:validation:Minimum=0
	VolumeUnits int64 `json:"volumeUnits"`
	// BuyFillBasisPoints and SellFillBasisPoints: each side's fill ratio, volume × 10,000
	// ÷ units asked, rounded down (0 for an empty side).
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	BuyFillBasisPoints int64 `json:"buyFillBasisPoints"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	SellFillBasisPoints int64 `json:"sellFillBasisPoints"`
	// BuyOrders and SellOrders in the book; BuyUnits and SellUnits they asked.
	// +kubebuilder:validation:Minimum=0
	BuyOrders int32 `json:"buyOrders"`
	// +kubebuilder:validation:Minimum=0
	SellOrders int32 `json:"sellOrders"`
	// +kubebuilder:validation:Minimum=0
	BuyUnits int64 `json:"buyUnits"`
	// +kubebuilder:validation:Minimum=0
	SellUnits int64 `json:"sellUnits"`
}

// MatchingWindowStatus is the window's progress. The book, the NAV and the policy are
// written once, in one write, before any order gets its fill; every fill is a pure
// function of them (internal/secondary.Match), so a restart in the middle writes the
// rest of the same fills and nothing is matched twice.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.book) || (has(self.book) && self.book == oldSelf.book)",message="a recorded book is immutable",fieldPath=".book"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.nav) || (has(self.nav) && self.nav == oldSelf.nav)",message="a recorded NAV is immutable",fieldPath=".nav"
type MatchingWindowStatus struct {
	// Phase: Open, Matching, Matched or Settled.
	// +optional
	Phase MatchingWindowPhase `json:"phase,omitempty"`
	// Deadline is the window's order deadline.
	// +optional
	Deadline *metav1.Time `json:"deadline,omitempty"`
	// NAV is the price the window matched at: the latest NAV dated on or before the
	// window's date when the deadline passed.
	// +optional
	NAV *DealingNAV `json:"nav,omitempty"`
	// Policy is the share class's secondary policy when the window was matched.
	// +optional
	Policy *MatchingPolicy `json:"policy,omitempty"`
	// Book is the orders the window matched, in priority order (placement time, then
	// namespace/name), one entry each: "SIDE UNITS CARRIED NAMESPACE/NAME" (BUY 120 0
	// tenant-a/3f2c…), UNITS the units the order could deal (a BUY's as far as its
	// payment covers them at the window's price), CARRIED the windows it was carried
	// from. Orders that failed a check at matching are not in it (Unmatched).
	// +kubebuilder:validation:MaxItems=20000
	// +listType=atomic
	// +optional
	Book []string `json:"book,omitempty"`
	// Unmatched counts the orders of the window left out of the book by a check at
	// matching (a frozen or unregistered wallet, units no longer held on chain, the fund
	// not tradeable); each says why in its Waiting condition and an Event.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Unmatched int32 `json:"unmatched,omitempty"`
	// Result is what the window publishes.
	// +optional
	Result *MatchingWindowResult `json:"result,omitempty"`
	// MatchedAt is when the book was recorded.
	// +optional
	MatchedAt *metav1.Time `json:"matchedAt,omitempty"`
	// Filled counts the orders of the book whose fill is written.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Filled int32 `json:"filled,omitempty"`
	// Message says what the window waits for, or why it cannot go on.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Message string `json:"message,omitempty"`
}

// MatchingWindow is one matching window of a share class's secondary market: an ISIN and
// a date, from Open through Matching and Matched to Settled, with its published result.
// Cluster-scoped; the window controller creates and writes it, nobody else.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=mw
// +kubebuilder:printcolumn:name="ISIN",type=string,JSONPath=`.spec.isin`
// +kubebuilder:printcolumn:name="Date",type=string,JSONPath=`.spec.date`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Deadline",type=date,JSONPath=`.status.deadline`
// +kubebuilder:printcolumn:name="Buy price",type=integer,JSONPath=`.status.result.buyPrice`
// +kubebuilder:printcolumn:name="Volume",type=integer,JSONPath=`.status.result.volumeUnits`
// +kubebuilder:printcolumn:name="Buy fill bp",type=integer,JSONPath=`.status.result.buyFillBasisPoints`
// +kubebuilder:printcolumn:name="Sell fill bp",type=integer,JSONPath=`.status.result.sellFillBasisPoints`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type MatchingWindow struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec MatchingWindowSpec `json:"spec"`
	// +optional
	Status MatchingWindowStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// MatchingWindowList is a list of MatchingWindows.
type MatchingWindowList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []MatchingWindow `json:"items"`
}

func init() {
	register(&MatchingWindow{}, &MatchingWindowList{})
}
