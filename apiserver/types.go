package apiserver

// The JSON shapes of the facade, requests and responses, named exactly as the spec names
// the fields. Kept in this one file so that an OpenAPI document can be generated from it.
//
// Conventions: request fields are pointers, so that an absent field and JSON null (both
// "not given" / "unchanged") can be told from a zero value; response fields that the
// object may not have are pointers too and are written as null.
//
// The `openapi` tags feed GET /openapi.json (openapi.go), so that the document is derived
// from these types: `uuid` (a lowercase UUID; any letter case in requests), `enum=a|b`,
// `pattern=…`, `format=…`, `min=`/`max=` (numbers), `maxLength=`, `required` (request
// fields; response fields are all required unless `omitempty`), `ref=Name` and
// `types=number|string` (fields of type any). Keys are separated by semicolons.

// ErrorResponse is the body of every error: a short message and either an object mapping
// field names to messages (validation) or a string.
type ErrorResponse struct {
	Error   string `json:"error"`
	Details any    `json:"details" openapi:"ref=ErrorDetails"`
}

// ValidationDetails maps a field name to its messages.
type ValidationDetails map[string][]string

// Account is an account as REST shows it.
type Account struct {
	ID             string  `json:"id" openapi:"uuid"`
	ExternalID     *string `json:"external_id"`
	Type           string  `json:"type" openapi:"enum=individual|business"`
	Country        *string `json:"country"`
	City           *string `json:"city"`
	Line1          *string `json:"line1"`
	Line2          *string `json:"line2"`
	PostalCode     *string `json:"postal_code"`
	State          *string `json:"state"`
	FirstName      *string `json:"first_name"`
	LastName       *string `json:"last_name"`
	DobDay         *int32  `json:"dob_day" openapi:"min=1;max=31"`
	DobMonth       *int32  `json:"dob_month" openapi:"min=1;max=12"`
	DobYear        *int32  `json:"dob_year" openapi:"min=1900;max=9999"`
	PlaceOfBirth   *string `json:"place_of_birth"`
	BusinessName   *string `json:"business_name"`
	LEI            *string `json:"lei"`
	TaxID          *string `json:"tax_id"`
	TIN            *string `json:"tin"`
	TaxResidencies *string `json:"tax_residencies"`
	Created        string  `json:"created" openapi:"format=date-time"`
}

// AccountList is the answer of GET /v1/accounts.
type AccountList struct {
	Data []Account `json:"data"`
}

// AccountCreateRequest is the body of POST /v1/accounts (an extension of the spec).
// The date of birth is given either as birthdate (YYYY-MM-DD) or as dob_day, dob_month
// and dob_year.
type AccountCreateRequest struct {
	AccountFields
	Type     *string `json:"type" openapi:"required;enum=individual|business"`
	DobDay   *int32  `json:"dob_day" openapi:"min=1;max=31"`
	DobMonth *int32  `json:"dob_month" openapi:"min=1;max=12"`
	DobYear  *int32  `json:"dob_year" openapi:"min=1900;max=9999"`
}

// AccountUpdateRequest is the body of PATCH /v1/accounts/{account_id}: exactly the
// spec's fields. Absent or null leaves a field unchanged; "" clears an optional one.
type AccountUpdateRequest struct {
	AccountFields
}

// AccountFields are the fields both account bodies accept: all of the account's but its
// type (fixed at creation) and the date of birth in parts (creation only).
type AccountFields struct {
	ExternalID     *string `json:"external_id" openapi:"maxLength=128"`
	Country        *string `json:"country" openapi:"maxLength=2"`
	City           *string `json:"city" openapi:"maxLength=100"`
	Line1          *string `json:"line1" openapi:"maxLength=200"`
	Line2          *string `json:"line2" openapi:"maxLength=200"`
	PostalCode     *string `json:"postal_code" openapi:"maxLength=20"`
	State          *string `json:"state" openapi:"maxLength=100"`
	FirstName      *string `json:"first_name" openapi:"maxLength=100"`
	LastName       *string `json:"last_name" openapi:"maxLength=100"`
	Birthdate      *string `json:"birthdate" openapi:"format=date"`
	PlaceOfBirth   *string `json:"place_of_birth" openapi:"maxLength=100"`
	BusinessName   *string `json:"business_name" openapi:"maxLength=200"`
	LEI            *string `json:"lei" openapi:"maxLength=20"`
	TaxID          *string `json:"tax_id" openapi:"maxLength=64"`
	TIN            *string `json:"tin" openapi:"maxLength=64"`
	TaxResidencies *string `json:"tax_residencies" openapi:"maxLength=200"`
}

// Wallet is a registered wallet.
type Wallet struct {
	ID            string `json:"id" openapi:"uuid"`
	AccountID     string `json:"account_id" openapi:"uuid"`
	Chain         string `json:"chain" openapi:"enum=polygon"`
	WalletAddress string `json:"wallet_address" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	IsPrimary     bool   `json:"is_primary"`
	Created       string `json:"created" openapi:"format=date-time"`
}

// WalletList is the answer of GET /v1/accounts/{account_id}/wallets.
type WalletList struct {
	Data []Wallet `json:"data"`
}

// WalletCreateRequest is the body of POST /v1/accounts/{account_id}/wallets.
type WalletCreateRequest struct {
	Chain         *string `json:"chain" openapi:"required;enum=polygon"`
	WalletAddress *string `json:"wallet_address" openapi:"required"`
	IsPrimary     *bool   `json:"is_primary"`
}

// primaryUpdate is the body of the PATCH of an account's child: only is_primary.
type primaryUpdate struct {
	IsPrimary *bool `json:"is_primary"`
}

// WalletUpdateRequest is the body of PATCH /v1/accounts/{account_id}/wallets/{wallet_id}
// (childKind.update reads it as its primaryUpdate).
type WalletUpdateRequest struct{ primaryUpdate }

// PaymentMethodDetails is a bank account of an account.
type PaymentMethodDetails struct {
	ID                string `json:"id" openapi:"uuid"`
	AccountID         string `json:"account_id" openapi:"uuid"`
	Type              string `json:"type" openapi:"enum=sepa"`
	IBAN              string `json:"iban"`
	AccountHolderName string `json:"account_holder_name"`
	IsPrimary         bool   `json:"is_primary"`
	Created           string `json:"created" openapi:"format=date-time"`
}

// PaymentMethodDetailsList is the answer of GET .../payment-method-details.
type PaymentMethodDetailsList struct {
	Data []PaymentMethodDetails `json:"data"`
}

// PaymentMethodDetailsCreateRequest is the body of POST .../payment-method-details.
type PaymentMethodDetailsCreateRequest struct {
	Type              *string `json:"type" openapi:"required;enum=sepa"`
	IBAN              *string `json:"iban" openapi:"required"`
	AccountHolderName *string `json:"account_holder_name" openapi:"required;maxLength=70"`
	IsPrimary         *bool   `json:"is_primary"`
}

// PaymentMethodDetailsUpdateRequest is the body of PATCH .../payment-method-details/{id}
// (childKind.update reads it as its primaryUpdate).
type PaymentMethodDetailsUpdateRequest struct{ primaryUpdate }

// FundPaymentDetails is the fund's bank account.
type FundPaymentDetails struct {
	Type              string `json:"type"`
	AccountHolderName string `json:"account_holder_name"`
	IBAN              string `json:"iban"`
}

// FundDocument is a document of a fund.
type FundDocument struct {
	ID   string `json:"id"`
	URL  string `json:"url"`
	Type string `json:"type"`
}

// RedemptionGate holds sell orders back while active.
type RedemptionGate struct {
	Active bool    `json:"active"`
	Until  *string `json:"until" openapi:"format=date-time"`
	Reason *string `json:"reason"`
}

// Fund is a feeder fund of the catalogue.
type Fund struct {
	ID                     string `json:"id" openapi:"uuid"`
	Name                   string `json:"name"`
	Abbreviation           string `json:"abbreviation"`
	Description            string `json:"description"`
	TargetFundName         string `json:"target_fund_name"`
	TargetFundVolume       int64  `json:"target_fund_volume"`
	TargetFundJurisdiction string `json:"target_fund_jurisdiction"`
	RiskScore              int32  `json:"risk_score" openapi:"min=1;max=10"`
	// RecommendedHoldingDuration is a number or a text with a unit, as stored; null when
	// not set.
	RecommendedHoldingDuration any                 `json:"recommended_holding_duration" openapi:"types=number|string"`
	FeederFundVolume           int64               `json:"feeder_fund_volume"`
	FeederFundLocation         string              `json:"feeder_fund_location"`
	NAVFrequency               string              `json:"nav_frequency"`
	Strategy                   string              `json:"strategy"`
	BaseCurrency               string              `json:"base_currency" openapi:"pattern=^[A-Z]{3}$"`
	DistributionStrategy       string              `json:"distribution_strategy"`
	PaymentDetails             *FundPaymentDetails `json:"payment_details"`
	Documents                  []FundDocument      `json:"documents"`
	Created                    string              `json:"created" openapi:"format=date-time"`
	Subscribable               bool                `json:"subscribable"`
	Redeemable                 bool                `json:"redeemable"`
	Tradeable                  bool                `json:"tradeable"`
	RedemptionGate             *RedemptionGate     `json:"redemption_gate"`
}

// FundList is the answer of GET /v1/funds.
type FundList struct {
	Data []Fund `json:"data"`
}

// ShareClass is a share class of a feeder fund.
type ShareClass struct {
	ID                string `json:"id" openapi:"uuid"`
	Name              string `json:"name"`
	Abbreviation      string `json:"abbreviation"`
	ManagementFee     int64  `json:"management_fee"`
	AdministrationFee int64  `json:"administration_fee"`
	ServicingFee      *int64 `json:"servicing_fee"`
	SubscriptionFee   int64  `json:"subscription_fee"`
	RedemptionFee     int64  `json:"redemption_fee"`
	DepositaryFee     int64  `json:"depositary_fee"`
	TargetReturnNet   int64  `json:"target_return_net"`
	MinInvestment     int64  `json:"min_investment"`
	LockUp            int32  `json:"lock_up"`
	RedemptionWindow  string `json:"redemption_window"`
	FeederFundID      string `json:"feeder_fund_id" openapi:"uuid"`
	Created           string `json:"created" openapi:"format=date-time"`
	ISIN              string `json:"isin"`
	Currency          string `json:"currency"`
	// Dealing is absent for a share class without dealing terms (priced at placement with
	// the latest NAV, no dealing calendar).
	Dealing *ShareClassDealing `json:"dealing,omitempty"`
	// SecondaryMarket is absent for a share class without a secondary market (SECONDARY
	// orders are refused).
	SecondaryMarket *ShareClassSecondaryMarket `json:"secondary_market,omitempty"`
}

// ShareClassSecondaryMarket is a share class's secondary market: the calendar of its
// matching windows, its order deadline, the price rule, the secondary fees, the
// carry-forward policy and its next windows.
type ShareClassSecondaryMarket struct {
	TimeZone       string   `json:"time_zone"`
	Frequency      string   `json:"frequency" openapi:"enum=DAILY|WEEKLY|MONTHLY|QUARTERLY"`
	Weekday        *string  `json:"weekday" openapi:"enum=MONDAY|TUESDAY|WEDNESDAY|THURSDAY|FRIDAY|SATURDAY|SUNDAY"`
	DayRule        *string  `json:"day_rule" openapi:"enum=DAY_OF_MONTH|FIRST_BUSINESS_DAY|LAST_BUSINESS_DAY"`
	DayOfMonth     *int32   `json:"day_of_month" openapi:"min=1;max=31"`
	MonthOfQuarter *int32   `json:"month_of_quarter" openapi:"min=1;max=3"`
	BusinessDays   []string `json:"business_days"`
	Holidays       []string `json:"holidays"`
	// OrderDeadline is the cut-off of every window: an order received at or after it goes
	// to a later window.
	OrderDeadline WindowDeadline `json:"order_deadline"`
	// SpreadBasisPoints: a BUY pays NAV × (10,000 + spread) / 10,000 per unit, a SELL
	// receives NAV × (10,000 − spread) / 10,000, each rounded half up.
	SpreadBasisPoints int32 `json:"spread_basis_points" openapi:"min=0;max=10000"`
	BuyFeeRate        int64 `json:"buy_fee_rate" openapi:"min=0;max=10000"`
	SellFeeRate       int64 `json:"sell_fee_rate" openapi:"min=0;max=10000"`
	// CarryWindows is how many later windows the units a window did not fill are carried
	// to (0: cancelled at once).
	CarryWindows int32                   `json:"carry_windows" openapi:"min=0;max=12"`
	NextWindows  []SecondaryMarketWindow `json:"next_windows"`
	// CashOnChain (present only when the market's cash is on chain) names the settlement
	// contract, the cash token buyers pay in and the fund's fee wallet.
	CashOnChain *CashOnChain `json:"cash_on_chain,omitempty"`
}

// CashOnChain is a secondary market's cash leg on chain (docs/secondary.md, Cash on
// chain): addresses, 0x and 40 hexadecimal digits.
type CashOnChain struct {
	Settlement   string `json:"settlement" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	CashToken    string `json:"cash_token" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	FeeCollector string `json:"fee_collector" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
}

// OrderCashOnChain is how a SECONDARY order's cash moves on chain: a BUY escrows
// escrow_amount (micro-units, one cash token unit each) at the settlement contract under
// escrow_reference (escrow(reference, cash_token, amount), after approving the contract
// for the amount); a SELL is paid by the swaps that take its units (escrow_reference and
// escrow_amount null).
type OrderCashOnChain struct {
	CashOnChain
	EscrowReference *string `json:"escrow_reference" openapi:"pattern=^0x[0-9a-f]{64}$"`
	EscrowAmount    *int64  `json:"escrow_amount" openapi:"min=0"`
}

// SecondaryMarketWindow is one matching window of the calendar: its date and order
// deadline.
type SecondaryMarketWindow struct {
	Date          string `json:"date" openapi:"format=date"`
	OrderDeadline string `json:"order_deadline" openapi:"format=date-time"`
}

// MatchingWindow is one matching window of a share class's secondary market as GET
// /v1/share-classes/{isin}/matching-windows publishes it: its phase and, once matched,
// its price and volume. Nothing in it names an order, an account or a counterparty.
type MatchingWindow struct {
	Date          string `json:"date" openapi:"format=date"`
	OrderDeadline string `json:"order_deadline" openapi:"format=date-time"`
	Phase         string `json:"phase" openapi:"enum=OPEN|MATCHING|MATCHED|SETTLED"`
	// NAVPerShare and NAVDate are the NAV the window matched at; null until it is matched.
	NAVPerShare *int64  `json:"nav_per_share" openapi:"min=1"`
	NAVDate     *string `json:"nav_date" openapi:"format=date"`
	// BuyPrice and SellPrice per unit: the NAV with the spread; null until matched.
	BuyPrice  *int64 `json:"buy_price" openapi:"min=0"`
	SellPrice *int64 `json:"sell_price" openapi:"min=0"`
	// VolumeUnits matched: the smaller of the units the BUYs and the SELLs asked.
	VolumeUnits *int64 `json:"volume_units" openapi:"min=0"`
	// BuyFillRatio and SellFillRatio are in basis points (10,000 = every unit asked).
	BuyFillRatio  *int64 `json:"buy_fill_ratio" openapi:"min=0;max=10000"`
	SellFillRatio *int64 `json:"sell_fill_ratio" openapi:"min=0;max=10000"`
	BuyOrders     *int32 `json:"buy_orders" openapi:"min=0"`
	SellOrders    *int32 `json:"sell_orders" openapi:"min=0"`
	BuyUnits      *int64 `json:"buy_units" openapi:"min=0"`
	SellUnits     *int64 `json:"sell_units" openapi:"min=0"`
	// MatchedAt is when the window's book was recorded.
	MatchedAt *string `json:"matched_at" openapi:"format=date-time"`
}

// MatchingWindowList is the answer of GET /v1/share-classes/{isin}/matching-windows.
type MatchingWindowList struct {
	Data []MatchingWindow `json:"data"`
}

// ShareClassDealing are a share class's dealing terms and its next dealing dates.
type ShareClassDealing struct {
	Pricing   string `json:"pricing" openapi:"enum=LATEST|FORWARD"`
	TimeZone  string `json:"time_zone"`
	Frequency string `json:"frequency" openapi:"enum=INTRADAY|DAILY|WEEKLY|MONTHLY|QUARTERLY"`
	// IntervalMinutes, FirstDealingTime and LastDealingTime (INTRADAY only; null
	// otherwise): a dealing point every intervalMinutes from the first to the last
	// dealing time of each business day.
	IntervalMinutes      *int32        `json:"interval_minutes" openapi:"min=1;max=720"`
	FirstDealingTime     *string       `json:"first_dealing_time" openapi:"pattern=^([01][0-9]|2[0-3]):[0-5][0-9]$"`
	LastDealingTime      *string       `json:"last_dealing_time" openapi:"pattern=^([01][0-9]|2[0-3]):[0-5][0-9]$"`
	Weekday              *string       `json:"weekday" openapi:"enum=MONDAY|TUESDAY|WEDNESDAY|THURSDAY|FRIDAY|SATURDAY|SUNDAY"`
	DayRule              *string       `json:"day_rule" openapi:"enum=DAY_OF_MONTH|FIRST_BUSINESS_DAY|LAST_BUSINESS_DAY"`
	DayOfMonth           *int32        `json:"day_of_month" openapi:"min=1;max=31"`
	MonthOfQuarter       *int32        `json:"month_of_quarter" openapi:"min=1;max=3"`
	BusinessDays         []string      `json:"business_days"`
	Holidays             []string      `json:"holidays"`
	ValuationTime        *string       `json:"valuation_time" openapi:"pattern=^([01][0-9]|2[0-3]):[0-5][0-9]$"`
	SubscriptionCutOff   DealingCutOff `json:"subscription_cut_off"`
	RedemptionCutOff     DealingCutOff `json:"redemption_cut_off"`
	NAVPublicationLag    int32         `json:"nav_publication_lag" openapi:"min=0"`
	SettlementPeriod     int32         `json:"settlement_period" openapi:"min=0"`
	RedemptionNoticeDays int32         `json:"redemption_notice_days" openapi:"min=0"`
	UnitDecimals         int32         `json:"unit_decimals" openapi:"min=0;max=18"`
	// RedemptionGate is the most one dealing date redeems; null: no limit per date.
	RedemptionGate *DealingRedemptionGate `json:"redemption_gate"`
	// AntiDilution is swing pricing or a levy above a net-flow threshold; null: none.
	AntiDilution *DealingAntiDilution `json:"anti_dilution"`
	NextDealings []DealingDateView    `json:"next_dealings"`
}

// DealingAntiDilution are a share class's anti-dilution terms.
type DealingAntiDilution struct {
	Method               string `json:"method" openapi:"enum=SWING_PRICING|LEVY"`
	ThresholdBasisPoints int32  `json:"threshold_basis_points" openapi:"min=0;max=10000"`
	FactorBasisPoints    int32  `json:"factor_basis_points" openapi:"min=1;max=1000"`
}

// DealingRedemptionGate is a share class's redemption gate per dealing date.
type DealingRedemptionGate struct {
	ThresholdBasisPoints int32  `json:"threshold_basis_points" openapi:"min=1;max=10000"`
	Remainder            string `json:"remainder" openapi:"enum=CARRY_FORWARD|CANCEL"`
}

// DealingCutOff is a cut-off: a local time of day, business days before the dealing date.
type DealingCutOff struct {
	// Time is null for an INTRADAY share class, whose cut-off is minutes_before each
	// dealing point.
	Time               *string `json:"time" openapi:"pattern=^([01][0-9]|2[0-3]):[0-5][0-9]$"`
	BusinessDaysBefore int32   `json:"business_days_before" openapi:"min=0"`
	MinutesBefore      *int32  `json:"minutes_before" openapi:"min=0;max=1440"`
}

// WindowDeadline is the order deadline of a matching window: a local time of day, business
// days before the window's date.
type WindowDeadline struct {
	Time               string `json:"time" openapi:"pattern=^([01][0-9]|2[0-3]):[0-5][0-9]$"`
	BusinessDaysBefore int32  `json:"business_days_before" openapi:"min=0"`
}

// DealingDateView is one dealing date with its cut-offs and the dates that follow from it.
type DealingDateView struct {
	// DealingDate is YYYY-MM-DD; for an INTRADAY share class the dealing point,
	// YYYY-MM-DDTHH:MM in its time zone (valuation_point is the same instant in UTC).
	DealingDate        string `json:"dealing_date" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	SubscriptionCutOff string `json:"subscription_cut_off" openapi:"format=date-time"`
	RedemptionCutOff   string `json:"redemption_cut_off" openapi:"format=date-time"`
	ValuationPoint     string `json:"valuation_point" openapi:"format=date-time"`
	NAVDate            string `json:"nav_date" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	NAVPublicationDate string `json:"nav_publication_date" openapi:"format=date"`
	SettlementDate     string `json:"settlement_date" openapi:"format=date"`
}

// ShareClassList is the answer of GET /v1/share-classes.
type ShareClassList struct {
	Data []ShareClass `json:"data"`
}

// AssetPrice is the NAV per share of a share class on one day.
type AssetPrice struct {
	NAVPerShare      int64  `json:"nav_per_share"`
	Date             string `json:"date" openapi:"format=date-time"`
	Currency         string `json:"currency"`
	ChangePercentage int64  `json:"change_percentage"`
	Volume           *int64 `json:"volume"`
}

// AssetPrices is the answer of GET /v1/assets/{isin}/prices: every price, newest first.
type AssetPrices struct {
	Prices     []AssetPrice `json:"prices"`
	ISIN       string       `json:"isin"`
	Currency   string       `json:"currency"`
	TotalCount int          `json:"total_count"`
}

// LatestAssetPrice is the answer of GET /v1/assets/{isin}/prices/latest (an extension).
type LatestAssetPrice struct {
	AssetPrice
	ISIN string `json:"isin"`
}

// CustomOffering is a tenant's fee arrangement for one share class, as GET
// /v1/assets/{isin}/custom-offerings lists it. Fees are rates in rate units (100% = 10,000):
// custom_subscription_fee applies to BUY orders, custom_redemption_fee to SELL orders that
// name the offering in custom_offering_id while its status is active.
type CustomOffering struct {
	ID                    string  `json:"id" openapi:"uuid"`
	ISIN                  string  `json:"isin"`
	ShareClassID          string  `json:"share_class_id" openapi:"uuid"`
	CustomSubscriptionFee int64   `json:"custom_subscription_fee" openapi:"min=0;max=10000"`
	CustomRedemptionFee   int64   `json:"custom_redemption_fee" openapi:"min=0;max=10000"`
	Status                string  `json:"status" openapi:"enum=active|deactivated|pending|expired"`
	Notes                 *string `json:"notes"`
	ValidFrom             *string `json:"valid_from" openapi:"format=date-time"`
	ValidUntil            *string `json:"valid_until" openapi:"format=date-time"`
	Created               string  `json:"created" openapi:"format=date-time"`
}

// CustomOfferingList is the answer of GET /v1/assets/{isin}/custom-offerings.
type CustomOfferingList struct {
	Data []CustomOffering `json:"data"`
}

// OrderListItem is an order as GET /v1/orders lists it: the spec's fields, and the
// extensions wallet_id and payment_method_details_id (and, for forward-priced share
// classes, dealing_date, confirmation and carried_from). value is the gross value
// (amount_of_units × NAV per share at placement) in micro-units.
type OrderListItem struct {
	ID     string `json:"id" openapi:"uuid"`
	Side   string `json:"side" openapi:"enum=BUY|SELL"`
	Market string `json:"market" openapi:"enum=PRIMARY|SECONDARY"`
	Status string `json:"status" openapi:"enum=PLACED|AWAITING_PAYMENT|PAYMENT_RECEIVED|DELIVERY_INITIATED|DELIVERY_COMPLETED|PAYMENT_SENT|PAYMENT_COMPLETED|REDEMPTION_GATED|EXECUTED|COMPLETED|CANCELLED"`
	// AmountOfUnits is null for a BUY by amount until the strike fixes its units.
	AmountOfUnits *int64 `json:"amount_of_units" openapi:"min=1"`
	Value         int64  `json:"value" openapi:"min=0"`
	Currency      string `json:"currency" openapi:"pattern=^[A-Z]{3}$"`
	ISIN          string `json:"isin"`
	AccountID     string `json:"account_id" openapi:"uuid"`
	Created       string `json:"created" openapi:"format=date-time"`
	// SettlementTransactionHash is the token transfer's transaction (BUY), once submitted.
	SettlementTransactionHash *string `json:"settlement_transaction_hash" openapi:"pattern=^0x[0-9a-fA-F]{64}$"`
	// PaymentTransactionReference is the customer's payment (BUY) or the payout (SELL).
	PaymentTransactionReference *string `json:"payment_transaction_reference"`
	CustomOfferingID            *string `json:"custom_offering_id" openapi:"uuid"`
	// WalletID (extension) is the recipient wallet as resolved at placement: the one the
	// order named, else the account's primary wallet then (also for orders created with
	// kubectl, which name none); else the one the order named, for an order never quoted;
	// null when there is neither. It stays on terminal and archived orders.
	WalletID *string `json:"wallet_id" openapi:"uuid"`
	// PaymentMethodDetailsID (extension) is the customer's bank account resolved at
	// placement by the same rule.
	PaymentMethodDetailsID *string `json:"payment_method_details_id" openapi:"uuid"`
	// DealingDate (forward-priced share classes only; absent otherwise) is the dealing date
	// the order deals at: it is priced at that date's NAV. For an INTRADAY share class the
	// dealing point, YYYY-MM-DDTHH:MM in the class's time zone.
	DealingDate *string `json:"dealing_date,omitempty" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	// Confirmation (forward-priced share classes only; absent otherwise) is the order's
	// contract note, null until the strike prices the order.
	Confirmation presentOrNull[OrderConfirmation] `json:"confirmation,omitzero"`
	// CarriedFrom (a SELL of a forward-priced share class that deals units a redemption
	// gate carried forward, or a SECONDARY SELL that deals the remainder a matching window
	// carried; absent otherwise) is the id of the SELL they came from.
	CarriedFrom *string `json:"carried_from,omitempty" openapi:"uuid"`
	// MatchingWindow (SECONDARY orders of a share class's secondary market only; absent
	// otherwise) is the matching window the order waits for or was matched in.
	MatchingWindow *OrderMatchingWindow `json:"matching_window,omitempty"`
}

// OrderMatchingWindow is the matching window of a SECONDARY order: its date, its order
// deadline (the order can be cancelled until then; a BUY is paid by then) and how many
// windows the order was carried from, filled with nothing in each.
type OrderMatchingWindow struct {
	Date          string `json:"date" openapi:"format=date"`
	OrderDeadline string `json:"order_deadline" openapi:"format=date-time"`
	Carried       int32  `json:"carried" openapi:"min=0"`
}

// OrderConfirmation is the contract note of a forward-priced order (the fields of an ISO
// 20022 setr.012 confirmation): what the strike of its dealing date fixed.
type OrderConfirmation struct {
	// Dealing is the dealing (an ISIN and a date) whose strike priced the order.
	Dealing string `json:"dealing"`
	// TradeDate and NAVDate are the dealing date; for an INTRADAY share class the
	// dealing point, YYYY-MM-DDTHH:MM in the class's time zone.
	TradeDate string `json:"trade_date" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	NAVDate   string `json:"nav_date" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	// Price is the NAV per unit, micro-units.
	Price int64 `json:"price" openapi:"min=1"`
	Units int64 `json:"units" openapi:"min=0"`
	// GrossAmount is units × price, or a BUY's amount.
	GrossAmount int64 `json:"gross_amount" openapi:"min=0"`
	FeeRate     int64 `json:"fee_rate" openapi:"min=0;max=10000"`
	FeeAmount   int64 `json:"fee_amount" openapi:"min=0"`
	NetAmount   int64 `json:"net_amount" openapi:"min=0"`
	// UnitsValue (BUY by amount) is units × price: what the units cost of the net amount.
	UnitsValue *int64 `json:"units_value" openapi:"min=0"`
	// ResidualAmount (BUY by amount) is net_amount − units_value, refunded under
	// residual_reference.
	ResidualAmount    *int64  `json:"residual_amount" openapi:"min=0"`
	ResidualReference *string `json:"residual_reference"`
	// ResidualRefundStatus is where the refund of a residual stands: PENDING (owed, not
	// sent), SENT, COMPLETED (arrived); null when there is no residual.
	ResidualRefundStatus *string `json:"residual_refund_status" openapi:"enum=PENDING|SENT|COMPLETED"`
	Currency             string  `json:"currency" openapi:"pattern=^[A-Z]{3}$"`
	SettlementDate       string  `json:"settlement_date" openapi:"format=date"`
	StruckAt             string  `json:"struck_at" openapi:"format=date-time"`
	// RequestedUnits (a SELL the share class's redemption gate filled in part) are the
	// units asked; units are those filled. Null when the order was filled in full.
	RequestedUnits *int64 `json:"requested_units" openapi:"min=0"`
	// CarriedForward (a SELL filled in part, remainder policy CarryForward; a SECONDARY
	// SELL or BUY filled in part whose remainder is carried) is the order that deals the
	// rest; null otherwise.
	CarriedForward *OrderCarriedForward `json:"carried_forward"`
	// AntiDilution is what the share class's anti-dilution did to the order (null:
	// nothing): the swung price or the levy.
	AntiDilution *OrderAntiDilution `json:"anti_dilution"`
	// Fill (a SECONDARY order) is what its matching window decided; null for a
	// forward-priced order's contract note.
	Fill *OrderFill `json:"fill"`
}

// OrderFill is a SECONDARY order's fill in its matching window.
type OrderFill struct {
	// Window is the matching window's date.
	Window         string `json:"window" openapi:"format=date"`
	Outcome        string `json:"outcome" openapi:"enum=FILLED|PARTIAL|UNFILLED"`
	UnitsRequested int64  `json:"units_requested" openapi:"min=1"`
	UnitsFilled    int64  `json:"units_filled" openapi:"min=0"`
	// NAVPerShare is the window's NAV before the spread; the confirmation's price is the
	// side's price.
	NAVPerShare       int64 `json:"nav_per_share" openapi:"min=1"`
	SpreadBasisPoints int32 `json:"spread_basis_points" openapi:"min=0;max=10000"`
	// AmountPaid (BUY) is the payment received: units × the price at placement + fee.
	AmountPaid *int64 `json:"amount_paid" openapi:"min=0"`
	// AmountDue (BUY) is what the fill costs: gross_amount + fee_amount.
	AmountDue *int64 `json:"amount_due" openapi:"min=0"`
	// RemainderCancelled are the units asked, not filled and not carried to a later window.
	RemainderCancelled int64 `json:"remainder_cancelled" openapi:"min=0"`
	// CarriedToOrder (an order filled in part whose remainder is carried) is the order
	// of the next window that deals the rest (carried_forward has its units and, for a
	// BUY, the money it carries); null otherwise.
	CarriedToOrder *string `json:"carried_to_order" openapi:"uuid"`
}

// OrderAntiDilution is the anti-dilution applied to one order at the strike.
type OrderAntiDilution struct {
	Method            string `json:"method" openapi:"enum=SWING_PRICING|LEVY"`
	FactorBasisPoints int32  `json:"factor_basis_points" openapi:"min=1;max=1000"`
	Direction         string `json:"direction" openapi:"enum=INFLOW|OUTFLOW"`
	// NAV is the dealing date's NAV before any swing; price is what the order was dealt at.
	NAV int64 `json:"nav" openapi:"min=1"`
	// LevyAmount (LEVY) is deducted from net_amount and kept by the fund; null otherwise.
	LevyAmount *int64 `json:"levy_amount" openapi:"min=0"`
}

// OrderCarriedForward is the order that deals the units a redemption gate or a matching
// window did not fill.
type OrderCarriedForward struct {
	OrderID     string `json:"order_id" openapi:"uuid"`
	Units       int64  `json:"units" openapi:"min=1"`
	DealingDate string `json:"dealing_date" openapi:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$"`
	CutOff      string `json:"cut_off" openapi:"format=date-time"`
	// Amount (a SECONDARY BUY) is the money carried with the units: what the payment did
	// not use, which pays the carried BUY; null for a SELL.
	Amount *int64 `json:"amount" openapi:"min=0"`
}

// OrderList is the answer of GET /v1/orders.
type OrderList struct {
	Data []OrderListItem `json:"data"`
	// NextCursor continues the list after this page (the cursor query parameter); absent
	// on the last page.
	NextCursor string `json:"next_cursor,omitempty"`
}

// OrderFundDetails name the fund and share class of an order, as fixed at placement.
type OrderFundDetails struct {
	ISIN           string  `json:"isin"`
	FundID         *string `json:"fund_id" openapi:"uuid"`
	FundName       *string `json:"fund_name"`
	ShareClassID   *string `json:"share_class_id" openapi:"uuid"`
	ShareClassName *string `json:"share_class_name"`
}

// OrderPaymentDetails say where a buyer sends the money and what reference to quote.
type OrderPaymentDetails struct {
	AccountHolderName string `json:"account_holder_name"`
	IBAN              string `json:"iban"`
	PaymentReference  string `json:"payment_reference"`
}

// OrderHistoryEntry is one state an order entered.
type OrderHistoryEntry struct {
	Status  string  `json:"status" openapi:"enum=PLACED|AWAITING_PAYMENT|PAYMENT_RECEIVED|DELIVERY_INITIATED|DELIVERY_COMPLETED|PAYMENT_SENT|PAYMENT_COMPLETED|REDEMPTION_GATED|EXECUTED|COMPLETED|CANCELLED"`
	At      string  `json:"at" openapi:"format=date-time"`
	Reason  string  `json:"reason"`
	Message *string `json:"message"`
}

// OrderRefund is what a BUY cancelled after its payment arrived owes the customer: the
// amount paid (micro-units), to the payment method details resolved at placement, under
// a reference of its own; status PENDING, SENT or COMPLETED as the settlement evidence
// says.
type OrderRefund struct {
	Amount                 int64   `json:"amount" openapi:"min=0"`
	Currency               string  `json:"currency" openapi:"pattern=^[A-Z]{3}$"`
	PaymentMethodDetailsID *string `json:"payment_method_details_id" openapi:"uuid"`
	Reference              string  `json:"reference"`
	Status                 string  `json:"status" openapi:"enum=PENDING|SENT|COMPLETED"`
	// SentReference and SentAt are the evidence of the refund transfer, once sent.
	SentReference *string `json:"sent_reference"`
	SentAt        *string `json:"sent_at" openapi:"format=date-time"`
	// CompletedAt is when the refund arrived.
	CompletedAt *string `json:"completed_at" openapi:"format=date-time"`
}

// Order is the full order: the list fields, the cancel response's fields of the spec, and
// the extensions redemption_fee, redemption_fee_amount, settlement_type, wallet_id,
// payment_method_details_id, cancellation_requested, refund and history. Money is in
// micro-units, fee rates in rate units; a BUY carries its fee in the subscription_fee
// fields (redemption_fee null), a SELL in the redemption_fee fields (subscription_fee
// null). Every field is present, null where the order has no value.
type Order struct {
	OrderListItem
	CreatedAt             string               `json:"created_at" openapi:"format=date-time"`
	Amount                *int64               `json:"amount" openapi:"min=0"`
	FundDetails           OrderFundDetails     `json:"fund_details"`
	SubscriptionFeeAmount *int64               `json:"subscription_fee_amount" openapi:"min=0"`
	SubscriptionFee       *int64               `json:"subscription_fee" openapi:"min=0;max=10000"`
	RedemptionFeeAmount   *int64               `json:"redemption_fee_amount" openapi:"min=0"`
	RedemptionFee         *int64               `json:"redemption_fee" openapi:"min=0;max=10000"`
	FeeSource             *string              `json:"fee_source" openapi:"enum=DEFAULT|OFFERING"`
	NetAmount             *int64               `json:"net_amount"`
	GrossValue            *int64               `json:"gross_value" openapi:"min=0"`
	PaymentDetails        *OrderPaymentDetails `json:"payment_details"`
	SettlementType        string               `json:"settlement_type" openapi:"enum=bearer|claimable"`
	CancellationRequested bool                 `json:"cancellation_requested"`
	Refund                *OrderRefund         `json:"refund"`
	History               []OrderHistoryEntry  `json:"history"`
	// CutOff (forward-priced share classes only; absent otherwise) is the cut-off of the
	// order's dealing date for its side: it can be cancelled until then, and a BUY by
	// amount is paid by then.
	CutOff *string `json:"cut_off,omitempty" openapi:"format=date-time"`
	// CashOnChain (SECONDARY orders of a market whose cash is on chain only; absent
	// otherwise) replaces payment_details: where and how the cash moves on chain.
	CashOnChain *OrderCashOnChain `json:"cash_on_chain,omitempty"`
}

// OrderCreateRequest is the body of POST /v1/orders (an extension of the spec).
type OrderCreateRequest struct {
	Side                   *string `json:"side" openapi:"required;enum=BUY|SELL"`
	Market                 *string `json:"market" openapi:"required;enum=PRIMARY|SECONDARY"`
	ISIN                   *string `json:"isin" openapi:"required;pattern=^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$"`
	AmountOfUnits          *int64  `json:"amount_of_units" openapi:"min=1;max=1000000000000"`
	Amount                 *int64  `json:"amount" openapi:"min=1;max=1000000000000000"`
	Currency               *string `json:"currency" openapi:"required;pattern=^[A-Z]{3}$"`
	AccountID              *string `json:"account_id" openapi:"required;uuid"`
	SettlementType         *string `json:"settlement_type" openapi:"enum=bearer|claimable"`
	WalletID               *string `json:"wallet_id" openapi:"uuid"`
	PaymentMethodDetailsID *string `json:"payment_method_details_id" openapi:"uuid"`
	CustomOfferingID       *string `json:"custom_offering_id" openapi:"uuid"`
}

// Portfolio is the answer of GET /v1/accounts/{account_id}/portfolio (an extension):
// what the account holds per ISIN, from its completed orders.
type Portfolio struct {
	AccountID string              `json:"account_id" openapi:"uuid"`
	Positions []PortfolioPosition `json:"positions"`
}

// PortfolioPosition is what an account holds of one share class. units = redeemable +
// locked + the reserved units that are not locked; reserved units are promised to live
// sell orders.
type PortfolioPosition struct {
	ISIN           string  `json:"isin"`
	ShareClassName *string `json:"share_class_name"`
	Currency       *string `json:"currency" openapi:"pattern=^[A-Z]{3}$"`
	Units          int64   `json:"units" openapi:"min=0"`
	Redeemable     int64   `json:"redeemable" openapi:"min=0"`
	Locked         int64   `json:"locked" openapi:"min=0"`
	Reserved       int64   `json:"reserved" openapi:"min=0"`
	// TransferredInUnits and TransferredOutUnits are the units that arrived from and left
	// to other holders' wallets on chain (counted in units).
	TransferredInUnits  int64 `json:"transferred_in_units" openapi:"min=0"`
	TransferredOutUnits int64 `json:"transferred_out_units" openapi:"min=0"`
	// SubscribedUnits and RedeemedUnits are the units of the completed PRIMARY BUYs and
	// SELLs (issued and redeemed by the fund); SecondaryBoughtUnits and
	// SecondarySoldUnits those of the completed SECONDARY ones (trades with other
	// investors in matching windows). units = subscribed − redeemed + secondary bought −
	// secondary sold + transferred in − transferred out.
	SubscribedUnits      int64          `json:"subscribed_units" openapi:"min=0"`
	RedeemedUnits        int64          `json:"redeemed_units" openapi:"min=0"`
	SecondaryBoughtUnits int64          `json:"secondary_bought_units" openapi:"min=0"`
	SecondarySoldUnits   int64          `json:"secondary_sold_units" openapi:"min=0"`
	Lots                 []PortfolioLot `json:"lots"`
}

// Transfer is one side of an on-chain transfer of share tokens between holders, as the
// account sees it: its own wallet, and only the counterparty's address.
type Transfer struct {
	ID                  string `json:"id"`
	ISIN                string `json:"isin"`
	Units               int64  `json:"units" openapi:"min=1"`
	Direction           string `json:"direction" openapi:"enum=IN|OUT"`
	WalletID            string `json:"wallet_id" openapi:"uuid"`
	WalletAddress       string `json:"wallet_address" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	CounterpartyAddress string `json:"counterparty_address" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	TransactionHash     string `json:"transaction_hash" openapi:"pattern=^0x[0-9a-fA-F]{64}$"`
	BlockNumber         int64  `json:"block_number" openapi:"min=0"`
	Timestamp           string `json:"timestamp" openapi:"format=date-time"`
}

// TransferList is the answer of GET /v1/accounts/{account_id}/transfers.
type TransferList struct {
	Data []Transfer `json:"data"`
}

// PortfolioLot is the units one completed buy left, locked until unlocks_at; or, at most
// once per position, every unit past its lock-up: acquired_at the latest of those buys,
// unlocks_at the latest of their unlocks (not after now).
type PortfolioLot struct {
	Units      int64  `json:"units" openapi:"min=1"`
	AcquiredAt string `json:"acquired_at" openapi:"format=date-time"`
	UnlocksAt  string `json:"unlocks_at" openapi:"format=date-time"`
}

// The answers of the endpoints that the auth package and the server itself serve, as the
// OpenAPI document describes them.

// TokenResponse is the answer of POST /oauth2/token (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type" openapi:"enum=Bearer"`
	ExpiresIn   int64  `json:"expires_in" openapi:"min=1"`
	Scope       string `json:"scope"`
}

// OAuthError is an error of the token endpoint (RFC 6749 §5.2).
type OAuthError struct {
	Error            string `json:"error" openapi:"enum=invalid_request|invalid_client|invalid_grant|unauthorized_client|unsupported_grant_type|invalid_scope|server_error|temporarily_unavailable"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// TokenRequest is the form of POST /oauth2/token.
type TokenRequest struct {
	GrantType    *string `json:"grant_type" openapi:"required;enum=client_credentials"`
	Scope        *string `json:"scope"`
	Audience     *string `json:"audience" openapi:"required"`
	ClientID     *string `json:"client_id"`
	ClientSecret *string `json:"client_secret"`
}

// JSONWebKeySet is the answer of GET /.well-known/jwks.json.
type JSONWebKeySet struct {
	Keys []JSONWebKey `json:"keys"`
}

// JSONWebKey is a public P-256 key that verifies access tokens.
type JSONWebKey struct {
	Kty string `json:"kty" openapi:"enum=EC"`
	Crv string `json:"crv" openapi:"enum=P-256"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid"`
	Use string `json:"use" openapi:"enum=sig"`
	Alg string `json:"alg" openapi:"enum=ES256"`
}

// OAuthServerMetadata is the answer of GET /.well-known/oauth-authorization-server
// (RFC 8414 §2), as package auth writes it.
type OAuthServerMetadata struct {
	Issuer                            string   `json:"issuer" openapi:"format=uri"`
	TokenEndpoint                     string   `json:"token_endpoint" openapi:"format=uri"`
	JWKSURI                           string   `json:"jwks_uri" openapi:"format=uri"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
}

// OpenIDConfiguration is the answer of GET /.well-known/openid-configuration (OpenID
// Connect Discovery 1.0 §3): the authorization server metadata and two fields of its own.
type OpenIDConfiguration struct {
	OAuthServerMetadata
	SubjectTypesSupported            []string `json:"subject_types_supported"`
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported"`
}

// HealthStatus is the answer of /healthz and /readyz.
type HealthStatus struct {
	Status string `json:"status" openapi:"enum=ok|starting"`
}

// WalletRecoveryRequest is the body of POST /v1/accounts/{account_id}/wallets/{wallet_id}/recovery.
type WalletRecoveryRequest struct {
	ToWalletID *string `json:"to_wallet_id" openapi:"required;uuid"`
}

// WalletRecovery is a lost-key recovery of a wallet: every unit it holds on chain, with its
// lock-ups, moved to another registered wallet of the account by the operator's agent.
type WalletRecovery struct {
	// ID is the lost wallet's id: a wallet has at most one recovery.
	ID           string `json:"id" openapi:"uuid"`
	AccountID    string `json:"account_id" openapi:"uuid"`
	FromWalletID string `json:"from_wallet_id" openapi:"uuid"`
	ToWalletID   string `json:"to_wallet_id" openapi:"uuid"`
	// Status is PENDING (accepted, nothing signed), RECOVERING (transactions recorded or
	// sent), COMPLETED (every unit moved, final on chain) or FAILED (a transaction
	// reverted; message says why).
	Status  string                `json:"status" openapi:"enum=PENDING|RECOVERING|COMPLETED|FAILED"`
	Message *string               `json:"message"`
	Tokens  []WalletRecoveryToken `json:"tokens"`
	Created string                `json:"created" openapi:"format=date-time"`
	// CompletedAt is when every transaction was final.
	CompletedAt *string `json:"completed_at" openapi:"format=date-time"`
}

// WalletRecoveryToken is the recovery of one share class's token: one transaction.
type WalletRecoveryToken struct {
	ISIN            string `json:"isin"`
	TokenAddress    string `json:"token_address" openapi:"pattern=^0x[0-9a-fA-F]{40}$"`
	Units           int64  `json:"units"`
	LockedUnits     int64  `json:"locked_units"`
	TransactionHash string `json:"transaction_hash"`
	// Status is PENDING (not final yet), SUCCEEDED or REVERTED.
	Status string `json:"status" openapi:"enum=PENDING|SUCCEEDED|REVERTED"`
}

// WebhookEndpointCreateRequest is the body of POST /v1/webhook-endpoints.
type WebhookEndpointCreateRequest struct {
	URL         *string   `json:"url" openapi:"required;maxLength=2048"`
	EventTypes  *[]string `json:"event_types"`
	Enabled     *bool     `json:"enabled"`
	Description *string   `json:"description" openapi:"maxLength=512"`
}

// WebhookEndpointUpdateRequest is the body of PATCH /v1/webhook-endpoints/{endpoint_id}:
// absent or null fields stay unchanged.
type WebhookEndpointUpdateRequest struct {
	URL         *string   `json:"url" openapi:"maxLength=2048"`
	EventTypes  *[]string `json:"event_types"`
	Enabled     *bool     `json:"enabled"`
	Description *string   `json:"description" openapi:"maxLength=512"`
}

// WebhookEndpoint is a webhook endpoint as REST shows it. enabled is false when its owner
// disabled it or the service did (disabled_reason GONE: it answered 410; FAILING_TOO_LONG:
// every delivery failed for 5 days).
type WebhookEndpoint struct {
	ID             string   `json:"id" openapi:"uuid"`
	URL            string   `json:"url"`
	EventTypes     []string `json:"event_types"`
	Enabled        bool     `json:"enabled"`
	DisabledReason *string  `json:"disabled_reason" openapi:"enum=GONE|FAILING_TOO_LONG"`
	Description    string   `json:"description"`
	FailingSince   *string  `json:"failing_since" openapi:"format=date-time"`
	Created        string   `json:"created" openapi:"format=date-time"`
}

// WebhookEndpointCreated is the answer of POST /v1/webhook-endpoints: the endpoint and its
// signing secret, shown this once.
type WebhookEndpointCreated struct {
	WebhookEndpoint
	Secret string `json:"secret" openapi:"pattern=^whsec_"`
}

// WebhookEndpointList is the answer of GET /v1/webhook-endpoints.
type WebhookEndpointList struct {
	Data []WebhookEndpoint `json:"data"`
}

// WebhookSecretRotation is the answer of POST /v1/webhook-endpoints/{endpoint_id}/rotate-secret:
// the new secret, shown this once; the previous one still signs until
// previous_secret_expires_at.
type WebhookSecretRotation struct {
	Secret                  string `json:"secret" openapi:"pattern=^whsec_"`
	PreviousSecretExpiresAt string `json:"previous_secret_expires_at" openapi:"format=date-time"`
}

// WebhookAttempt is one delivery attempt of the log.
type WebhookAttempt struct {
	ID            string  `json:"id"`
	EventID       string  `json:"event_id"`
	EventType     string  `json:"event_type"`
	Attempt       int     `json:"attempt" openapi:"min=1"`
	Timestamp     string  `json:"timestamp" openapi:"format=date-time"`
	StatusCode    *int    `json:"status_code"`
	LatencyMS     int64   `json:"latency_ms" openapi:"min=0"`
	Error         *string `json:"error"`
	ResponseBody  string  `json:"response_body"`
	Outcome       string  `json:"outcome" openapi:"enum=SUCCEEDED|RETRYING|FAILED|DISABLED"`
	NextAttemptAt *string `json:"next_attempt_at" openapi:"format=date-time"`
}

// WebhookAttemptList is the answer of GET /v1/webhook-endpoints/{endpoint_id}/attempts.
type WebhookAttemptList struct {
	Data       []WebhookAttempt `json:"data"`
	NextCursor *string          `json:"next_cursor"`
}

// WebhookReplayRequest is the body of POST /v1/webhook-endpoints/{endpoint_id}/replay:
// one event, or the events that occurred in [from, to).
type WebhookReplayRequest struct {
	EventID *string `json:"event_id"`
	From    *string `json:"from" openapi:"format=date-time"`
	To      *string `json:"to" openapi:"format=date-time"`
}

// WebhookReplay is the answer of a replay: how many deliveries were scheduled.
type WebhookReplay struct {
	Scheduled int `json:"scheduled" openapi:"min=0"`
}

// WebhookEventType is one event type an endpoint may subscribe to.
type WebhookEventType struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// WebhookEventTypeList is the answer of GET /v1/webhook-event-types.
type WebhookEventTypeList struct {
	Data []WebhookEventType `json:"data"`
}
