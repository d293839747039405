package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Dealing terms of a share class (issue 23, first part): when orders are dealt and at which
// NAV. The field names follow the openfunds dealing fields (docs/dealing.md has the table):
// Dealing Frequency, Dealing Day, Cut-Off Time and Cut-Off Day Offset, Settlement Period,
// Notice Period. internal/dealing computes the calendar from them.

// PricingMethod says which NAV prices an order.
// +kubebuilder:validation:Enum=Latest;Forward
type PricingMethod string

// The pricing methods.
const (
	// PricingLatest prices an order at placement with the latest published NAV (today's
	// behaviour, and what a share class without dealing terms does).
	PricingLatest PricingMethod = "Latest"
	// PricingForward prices an order at the NAV of its dealing date, computed after the
	// cut-off (SEC rule 22c-1, FCA COLL 6.2).
	PricingForward PricingMethod = "Forward"
)

// UnpaidPolicy says what happens at the cut-off to a forward BUY by amount whose payment
// has not arrived.
// +kubebuilder:validation:Enum=Cancel;NextDealingDate
type UnpaidPolicy string

// The unpaid policies.
const (
	// UnpaidCancel cancels the order at the cut-off.
	UnpaidCancel UnpaidPolicy = "Cancel"
	// UnpaidNextDealingDate moves the order to the next dealing date (and its cut-off).
	UnpaidNextDealingDate UnpaidPolicy = "NextDealingDate"
)

// DealingFrequency is how often the share class deals (openfunds "Dealing Frequency").
// +kubebuilder:validation:Enum=Intraday;Daily;Weekly;Monthly;Quarterly
type DealingFrequency string

// The dealing frequencies.
const (
	// DealingIntraday: several dealing points on every business day, every
	// intervalMinutes from firstDealingTime to lastDealingTime; each dealing point is its
	// own valuation point, with its own NAV and cut-offs minutes before it.
	DealingIntraday DealingFrequency = "Intraday"
	// DealingDaily: every business day.
	DealingDaily DealingFrequency = "Daily"
	// DealingWeekly: once a week, on weekday.
	DealingWeekly DealingFrequency = "Weekly"
	// DealingMonthly: once a month, on dayRule.
	DealingMonthly DealingFrequency = "Monthly"
	// DealingQuarterly: once a calendar quarter, on dayRule in the quarter's monthOfQuarter.
	DealingQuarterly DealingFrequency = "Quarterly"
)

// Weekday is a day of the week, in English.
// +kubebuilder:validation:Enum=Monday;Tuesday;Wednesday;Thursday;Friday;Saturday;Sunday
type Weekday string

// DealingDayRule says which day of a month a monthly or quarterly share class deals.
// +kubebuilder:validation:Enum=DayOfMonth;FirstBusinessDay;LastBusinessDay
type DealingDayRule string

// The day rules.
const (
	// DayRuleDayOfMonth: the day dayOfMonth of the month (the month's last day when it has
	// fewer days); when that is not a business day, the next business day of the same
	// month, else the previous one (modified following).
	DayRuleDayOfMonth DealingDayRule = "DayOfMonth"
	// DayRuleFirstBusinessDay: the first business day of the month.
	DayRuleFirstBusinessDay DealingDayRule = "FirstBusinessDay"
	// DayRuleLastBusinessDay: the last business day of the month.
	DayRuleLastBusinessDay DealingDayRule = "LastBusinessDay"
)

// CutOff is the last moment an order is accepted for a dealing date (openfunds "Cut-Off
// Time" and "Cut-Off Day Offset"): a local time of day in the share class's time zone,
// businessDaysBefore business days before the dealing date; for an Intraday share class,
// minutesBefore each dealing point instead.
type CutOff struct {
	// Time of day, HH:MM (24-hour clock) in the share class's time zone. An order received
	// at or after it deals at a later dealing date. Required unless the frequency is
	// Intraday, where it is not allowed.
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:MaxLength=5
	// +optional
	Time string `json:"time,omitempty"`
	// BusinessDaysBefore the dealing date on which the cut-off falls; 0: on the dealing
	// date itself.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=60
	// +optional
	BusinessDaysBefore int32 `json:"businessDaysBefore"`
	// MinutesBefore each dealing point the cut-off falls (Intraday only; 0: at the dealing
	// point itself, so an order must arrive strictly before it).
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1440
	// +optional
	MinutesBefore int32 `json:"minutesBefore,omitempty"`
}

// DealingTerms are a share class's dealing terms: its pricing and its dealing calendar.
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Weekly' ? has(self.weekday) : !has(self.weekday)",message="weekday is required when frequency is Weekly and not allowed otherwise",fieldPath=".weekday"
// +kubebuilder:validation:XValidation:rule="self.frequency in ['Monthly', 'Quarterly'] ? has(self.dayRule) : !has(self.dayRule)",message="dayRule is required when frequency is Monthly or Quarterly and not allowed otherwise",fieldPath=".dayRule"
// +kubebuilder:validation:XValidation:rule="has(self.dayRule) && self.dayRule == 'DayOfMonth' ? has(self.dayOfMonth) : !has(self.dayOfMonth)",message="dayOfMonth is required when dayRule is DayOfMonth and not allowed otherwise",fieldPath=".dayOfMonth"
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Quarterly' || !has(self.monthOfQuarter)",message="monthOfQuarter is allowed only when frequency is Quarterly",fieldPath=".monthOfQuarter"
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Intraday' ? has(self.intervalMinutes) : !has(self.intervalMinutes) && !has(self.firstDealingTime) && !has(self.lastDealingTime)",message="intervalMinutes is required when frequency is Intraday, and intervalMinutes, firstDealingTime and lastDealingTime are allowed only then",fieldPath=".intervalMinutes"
// +kubebuilder:validation:XValidation:rule="self.frequency != 'Intraday' || !has(self.valuationTime)",message="valuationTime is not allowed when frequency is Intraday: each dealing point is its own valuation point",fieldPath=".valuationTime"
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Intraday' ? !has(self.subscriptionCutOff.time) && (!has(self.subscriptionCutOff.businessDaysBefore) || self.subscriptionCutOff.businessDaysBefore == 0) : has(self.subscriptionCutOff.time) && !has(self.subscriptionCutOff.minutesBefore)",message="an Intraday cut-off is minutesBefore each dealing point (no time or businessDaysBefore); any other cut-off is a time (no minutesBefore)",fieldPath=".subscriptionCutOff"
// +kubebuilder:validation:XValidation:rule="self.frequency == 'Intraday' ? !has(self.redemptionCutOff.time) && (!has(self.redemptionCutOff.businessDaysBefore) || self.redemptionCutOff.businessDaysBefore == 0) : has(self.redemptionCutOff.time) && !has(self.redemptionCutOff.minutesBefore)",message="an Intraday cut-off is minutesBefore each dealing point (no time or businessDaysBefore); any other cut-off is a time (no minutesBefore)",fieldPath=".redemptionCutOff"
// +kubebuilder:validation:XValidation:rule="!has(self.firstDealingTime) || !has(self.lastDealingTime) || self.firstDealingTime <= self.lastDealingTime",message="firstDealingTime must not be after lastDealingTime",fieldPath=".lastDealingTime"
// +kubebuilder:validation:XValidation:rule="!has(self.valuationTime) || !has(self.subscriptionCutOff.time) || (has(self.subscriptionCutOff.businessDaysBefore) && self.subscriptionCutOff.businessDaysBefore > 0) || self.subscriptionCutOff.time < self.valuationTime",message="a subscription cut-off on the dealing date must be before the valuation time",fieldPath=".subscriptionCutOff"
// +kubebuilder:validation:XValidation:rule="!has(self.valuationTime) || !has(self.redemptionCutOff.time) || (has(self.redemptionCutOff.businessDaysBefore) && self.redemptionCutOff.businessDaysBefore > 0) || self.redemptionCutOff.time < self.valuationTime",message="a redemption cut-off on the dealing date must be before the valuation time",fieldPath=".redemptionCutOff"
type DealingTerms struct {
	// Pricing is Latest (orders priced at placement with the latest NAV; the default) or
	// Forward (orders priced at the NAV of their dealing date, unknown at placement).
	// +kubebuilder:default=Latest
	// +optional
	Pricing PricingMethod `json:"pricing,omitempty"`
	// TimeZone of the dealing calendar, an IANA time zone name such as Europe/Luxembourg;
	// cut-offs and the valuation time are local times of it (admission checks the name).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`
	// +required
	TimeZone string `json:"timeZone"`
	// Frequency of dealing (openfunds Dealing Frequency): Daily (every business day),
	// Weekly (on weekday), Monthly (on dayRule) or Quarterly (on dayRule in the quarter's
	// monthOfQuarter).
	// +required
	Frequency DealingFrequency `json:"frequency"`
	// IntervalMinutes between the dealing points of an Intraday share class: 1 to 720, a
	// divisor of a day's 1,440 minutes (5: every five minutes).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=720
	// +kubebuilder:validation:XValidation:rule="1440 % self == 0",message="intervalMinutes must divide a day (1,440 minutes): 1, 2, 3, 4, 5, 6, 10, 15, 20, 30, 60, 120, ..."
	// +optional
	IntervalMinutes int32 `json:"intervalMinutes,omitempty"`
	// FirstDealingTime is the local time (HH:MM) of an Intraday share class's first dealing
	// point of a business day; default 00:00. The points follow every intervalMinutes.
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:MaxLength=5
	// +optional
	FirstDealingTime string `json:"firstDealingTime,omitempty"`
	// LastDealingTime is the local time (HH:MM) no dealing point of an Intraday share class
	// is after, on a business day; default 23:59.
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:MaxLength=5
	// +optional
	LastDealingTime string `json:"lastDealingTime,omitempty"`
	// Weekday a Weekly share class deals on; when it is not a business day, the next
	// business day.
	// +optional
	Weekday Weekday `json:"weekday,omitempty"`
	// DayRule of a Monthly or Quarterly share class: DayOfMonth, FirstBusinessDay or
	// LastBusinessDay.
	// +optional
	DayRule DealingDayRule `json:"dayRule,omitempty"`
	// DayOfMonth with dayRule DayOfMonth: 1 to 31 (the month's last day in shorter months);
	// when it is not a business day, the next business day of the same month, else the
	// previous one.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=31
	// +optional
	DayOfMonth int32 `json:"dayOfMonth,omitempty"`
	// MonthOfQuarter a Quarterly share class deals in: 1, 2 or 3 (the quarter's first,
	// second or last month). Default 3: March, June, September and December.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=3
	// +optional
	MonthOfQuarter int32 `json:"monthOfQuarter,omitempty"`
	// BusinessDays are the weekdays the share class deals on and counts as business days;
	// default Monday to Friday.
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=7
	// +optional
	BusinessDays []Weekday `json:"businessDays,omitempty"`
	// Holidays are dates (YYYY-MM-DD, in the time zone) that are not business days.
	// +listType=set
	// +kubebuilder:validation:MaxItems=2000
	// +kubebuilder:validation:items:Format=date
	// +kubebuilder:validation:items:MaxLength=10
	// +optional
	Holidays []string `json:"holidays,omitempty"`
	// ValuationTime is the local time of day (HH:MM) of the dealing date's valuation point;
	// absent: the end of the dealing date. A cut-off on the dealing date lies before it.
	// +kubebuilder:validation:Pattern=`^([01][0-9]|2[0-3]):[0-5][0-9]$`
	// +kubebuilder:validation:MaxLength=5
	// +optional
	ValuationTime string `json:"valuationTime,omitempty"`
	// SubscriptionCutOff is the cut-off of BUY orders for a dealing date.
	// +required
	SubscriptionCutOff CutOff `json:"subscriptionCutOff"`
	// RedemptionCutOff is the cut-off of SELL orders for a dealing date.
	// +required
	RedemptionCutOff CutOff `json:"redemptionCutOff"`
	// NAVPublicationLag is how many business days after the dealing date its NAV is
	// published; 0: on the dealing date.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=60
	// +optional
	NAVPublicationLag int32 `json:"navPublicationLag"`
	// SettlementPeriod is T+n: how many business days after the dealing date (T) an order
	// settles (openfunds Settlement Period).
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=60
	// +optional
	SettlementPeriod int32 `json:"settlementPeriod"`
	// RedemptionNoticeDays is the redemption notice period in calendar days (openfunds
	// Notice Period): a SELL deals at the first dealing date whose cut-off it meets and
	// that is at least this many calendar days after the day it was received.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=3660
	// +optional
	RedemptionNoticeDays int32 `json:"redemptionNoticeDays"`
	// UnitDecimals are the decimals of the share class's units (its token's decimals):
	// 0 to 18.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=18
	// +optional
	UnitDecimals int32 `json:"unitDecimals"`
	// UnpaidAtCutOff (forward pricing) is what happens to a BUY by amount whose payment has
	// not arrived at its subscription cut-off: Cancel (the default, also when absent) or
	// NextDealingDate.
	// +optional
	UnpaidAtCutOff UnpaidPolicy `json:"unpaidAtCutOff,omitempty"`
	// RedemptionGate (forward pricing) limits the units one dealing date redeems to a share
	// of the class's outstanding units (ELTIF RTS 2024/2759 Art. 5); SELLs above it are
	// filled pro rata. Absent: no limit per dealing date (the Fund's redemptionGate still
	// holds every SELL while active).
	// +optional
	RedemptionGate *DealingRedemptionGate `json:"redemptionGate,omitempty"`
	// AntiDilution (forward pricing) protects the class's remaining investors from the
	// dealing costs of large net flows: swing pricing or an anti-dilution levy, applied at
	// the strike when a dealing date's net flow passes a threshold. Absent: none.
	// +optional
	AntiDilution *AntiDilution `json:"antiDilution,omitempty"`
}

// AntiDilutionMethod is how a share class protects its investors from dilution.
// +kubebuilder:validation:Enum=SwingPricing;Levy
type AntiDilutionMethod string

// The anti-dilution methods.
const (
	// SwingPricing deals every order of the dealing date at the NAV moved by the swing
	// factor: up when more money comes in than goes out, down otherwise.
	SwingPricing AntiDilutionMethod = "SwingPricing"
	// AntiDilutionLevy charges the orders of the side that causes the flow (BUYs on a net
	// inflow, SELLs on a net outflow) a levy kept by the fund; the price is the NAV.
	AntiDilutionLevy AntiDilutionMethod = "Levy"
)

// AntiDilution are a share class's anti-dilution terms.
type AntiDilution struct {
	// Method is SwingPricing or Levy.
	// +required
	Method AntiDilutionMethod `json:"method"`
	// ThresholdBasisPoints is the net flow of a dealing date, in basis points of the
	// class's value (outstanding units × NAV), above which the method applies; 0: any net
	// flow.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10000
	// +optional
	ThresholdBasisPoints int32 `json:"thresholdBasisPoints"`
	// FactorBasisPoints is the swing factor (SwingPricing) or the levy rate (Levy), in
	// basis points: 1 to 1,000 (10%).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +required
	FactorBasisPoints int32 `json:"factorBasisPoints"`
}

// GateRemainder says what happens to the units of a SELL that a dealing date's redemption
// gate does not fill.
// +kubebuilder:validation:Enum=CarryForward;Cancel
type GateRemainder string

// The remainder policies.
const (
	// GateCarryForward deals the remainder at the next dealing date, as a new SELL
	// (spec.carriedFrom) in REDEMPTION_GATED; the default.
	GateCarryForward GateRemainder = "CarryForward"
	// GateCancel does not redeem the remainder: the SELL deals the units filled, and
	// one filled with none is cancelled.
	GateCancel GateRemainder = "Cancel"
)

// DealingRedemptionGate is the redemption gate of each dealing date of a share class.
type DealingRedemptionGate struct {
	// ThresholdBasisPoints is the most one dealing date redeems, in basis points of the
	// class's outstanding units when the dealing is struck (1,000 = 10%).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10000
	// +required
	ThresholdBasisPoints int32 `json:"thresholdBasisPoints"`
	// Remainder is CarryForward (the default) or Cancel.
	// +kubebuilder:default=CarryForward
	// +optional
	Remainder GateRemainder `json:"remainder,omitempty"`
}

// DealingStatus is the share class's dealing calendar as the dealing controller computed it.
type DealingStatus struct {
	// Next are the next dealing dates that are still open (at least one cut-off ahead),
	// earliest first; refreshed when the first one's last cut-off passes.
	// +kubebuilder:validation:MaxItems=12
	// +listType=atomic
	// +optional
	Next []DealingDate `json:"next,omitempty"`
	// ObservedGeneration is the generation of the terms the dates were computed from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Message says why there is no calendar (e.g. an unknown time zone), when there is none.
	// +optional
	Message string `json:"message,omitempty"`
}

// DealingDate is one dealing date with its cut-offs and the dates that follow from it.
type DealingDate struct {
	// Date is the dealing date (trade date, and the NAV date), YYYY-MM-DD in the time zone;
	// for an Intraday share class the dealing point, YYYY-MM-DDTHH:MM (local time).
	// +kubebuilder:validation:Pattern=`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$`
	// +kubebuilder:validation:MaxLength=16
	Date string `json:"date"`
	// SubscriptionCutOff is the instant BUY orders for this date must arrive before.
	SubscriptionCutOff metav1.Time `json:"subscriptionCutOff"`
	// RedemptionCutOff is the instant SELL orders for this date must arrive before.
	RedemptionCutOff metav1.Time `json:"redemptionCutOff"`
	// NAVPublicationDate is when the date's NAV is expected, YYYY-MM-DD.
	// +kubebuilder:validation:Format=date
	NAVPublicationDate string `json:"navPublicationDate"`
	// SettlementDate is T+n, YYYY-MM-DD.
	// +kubebuilder:validation:Format=date
	SettlementDate string `json:"settlementDate"`
}
