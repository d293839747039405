package apiserver

// The JSON shapes of the facade, requests and responses, named exactly as the spec names
// the fields. Kept in this one file so that an OpenAPI document can be generated from it.
//
// Conventions: request fields are pointers, so that an absent field and JSON null (both
// "not given" / "unchanged") can be told from a zero value; response fields that the
// object may not have are pointers too and are written as null.

// ErrorResponse is the body of every error: a short message and either an object mapping
// field names to messages (validation) or a string.
type ErrorResponse struct {
	Error   string `json:"error"`
	Details any    `json:"details"`
}

// ValidationDetails maps a field name to its messages.
type ValidationDetails map[string][]string

// Account is an account as REST shows it.
type Account struct {
	ID             string  `json:"id"`
	ExternalID     *string `json:"external_id"`
	Type           string  `json:"type"`
	Country        *string `json:"country"`
	City           *string `json:"city"`
	Line1          *string `json:"line1"`
	Line2          *string `json:"line2"`
	PostalCode     *string `json:"postal_code"`
	State          *string `json:"state"`
	FirstName      *string `json:"first_name"`
	LastName       *string `json:"last_name"`
	DobDay         *int32  `json:"dob_day"`
	DobMonth       *int32  `json:"dob_month"`
	DobYear        *int32  `json:"dob_year"`
	PlaceOfBirth   *string `json:"place_of_birth"`
	BusinessName   *string `json:"business_name"`
	LEI            *string `json:"lei"`
	TaxID          *string `json:"tax_id"`
	TIN            *string `json:"tin"`
	TaxResidencies *string `json:"tax_residencies"`
	Created        string  `json:"created"`
}

// AccountList is the answer of GET /v1/accounts.
type AccountList struct {
	Data []Account `json:"data"`
}

// AccountCreateRequest is the body of POST /v1/accounts (an extension of the spec).
// The date of birth is given either as birthdate (YYYY-MM-DD) or as dob_day, dob_month
// and dob_year.
type AccountCreateRequest struct {
	ExternalID     *string `json:"external_id"`
	Type           *string `json:"type"`
	Country        *string `json:"country"`
	City           *string `json:"city"`
	Line1          *string `json:"line1"`
	Line2          *string `json:"line2"`
	PostalCode     *string `json:"postal_code"`
	State          *string `json:"state"`
	FirstName      *string `json:"first_name"`
	LastName       *string `json:"last_name"`
	DobDay         *int32  `json:"dob_day"`
	DobMonth       *int32  `json:"dob_month"`
	DobYear        *int32  `json:"dob_year"`
	Birthdate      *string `json:"birthdate"`
	PlaceOfBirth   *string `json:"place_of_birth"`
	BusinessName   *string `json:"business_name"`
	LEI            *string `json:"lei"`
	TaxID          *string `json:"tax_id"`
	TIN            *string `json:"tin"`
	TaxResidencies *string `json:"tax_residencies"`
}

// AccountUpdateRequest is the body of PATCH /v1/accounts/{account_id}: exactly the
// spec's fields. Absent or null leaves a field unchanged; "" clears an optional one.
type AccountUpdateRequest struct {
	ExternalID     *string `json:"external_id"`
	Country        *string `json:"country"`
	City           *string `json:"city"`
	Line1          *string `json:"line1"`
	Line2          *string `json:"line2"`
	PostalCode     *string `json:"postal_code"`
	State          *string `json:"state"`
	FirstName      *string `json:"first_name"`
	LastName       *string `json:"last_name"`
	Birthdate      *string `json:"birthdate"`
	PlaceOfBirth   *string `json:"place_of_birth"`
	BusinessName   *string `json:"business_name"`
	LEI            *string `json:"lei"`
	TaxID          *string `json:"tax_id"`
	TIN            *string `json:"tin"`
	TaxResidencies *string `json:"tax_residencies"`
}

// Wallet is a registered wallet.
type Wallet struct {
	ID            string `json:"id"`
	AccountID     string `json:"account_id"`
	Chain         string `json:"chain"`
	WalletAddress string `json:"wallet_address"`
	IsPrimary     bool   `json:"is_primary"`
	Created       string `json:"created"`
}

// WalletList is the answer of GET /v1/accounts/{account_id}/wallets.
type WalletList struct {
	Data []Wallet `json:"data"`
}

// WalletCreateRequest is the body of POST /v1/accounts/{account_id}/wallets.
type WalletCreateRequest struct {
	Chain         *string `json:"chain"`
	WalletAddress *string `json:"wallet_address"`
	IsPrimary     *bool   `json:"is_primary"`
}

// WalletUpdateRequest is the body of PATCH /v1/accounts/{account_id}/wallets/{wallet_id}.
type WalletUpdateRequest struct {
	IsPrimary *bool `json:"is_primary"`
}

// PaymentMethodDetails is a bank account of an account.
type PaymentMethodDetails struct {
	ID                string `json:"id"`
	AccountID         string `json:"account_id"`
	Type              string `json:"type"`
	IBAN              string `json:"iban"`
	AccountHolderName string `json:"account_holder_name"`
	IsPrimary         bool   `json:"is_primary"`
	Created           string `json:"created"`
}

// PaymentMethodDetailsList is the answer of GET .../payment-method-details.
type PaymentMethodDetailsList struct {
	Data []PaymentMethodDetails `json:"data"`
}

// PaymentMethodDetailsCreateRequest is the body of POST .../payment-method-details.
type PaymentMethodDetailsCreateRequest struct {
	Type              *string `json:"type"`
	IBAN              *string `json:"iban"`
	AccountHolderName *string `json:"account_holder_name"`
	IsPrimary         *bool   `json:"is_primary"`
}

// PaymentMethodDetailsUpdateRequest is the body of PATCH .../payment-method-details/{id}.
type PaymentMethodDetailsUpdateRequest struct {
	IsPrimary *bool `json:"is_primary"`
}

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
	Until  *string `json:"until"`
	Reason *string `json:"reason"`
}

// Fund is a feeder fund of the catalogue.
type Fund struct {
	ID                     string `json:"id"`
	Name                   string `json:"name"`
	Abbreviation           string `json:"abbreviation"`
	Description            string `json:"description"`
	TargetFundName         string `json:"target_fund_name"`
	TargetFundVolume       int64  `json:"target_fund_volume"`
	TargetFundJurisdiction string `json:"target_fund_jurisdiction"`
	RiskScore              int32  `json:"risk_score"`
	// RecommendedHoldingDuration is a number or a text with a unit, as stored; null when
	// not set.
	RecommendedHoldingDuration any                 `json:"recommended_holding_duration"`
	FeederFundVolume           int64               `json:"feeder_fund_volume"`
	FeederFundLocation         string              `json:"feeder_fund_location"`
	NAVFrequency               string              `json:"nav_frequency"`
	Strategy                   string              `json:"strategy"`
	BaseCurrency               string              `json:"base_currency"`
	DistributionStrategy       string              `json:"distribution_strategy"`
	PaymentDetails             *FundPaymentDetails `json:"payment_details"`
	Documents                  []FundDocument      `json:"documents"`
	Created                    string              `json:"created"`
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
	ID                string `json:"id"`
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
	FeederFundID      string `json:"feeder_fund_id"`
	Created           string `json:"created"`
	ISIN              string `json:"isin"`
	Currency          string `json:"currency"`
}

// ShareClassList is the answer of GET /v1/share-classes.
type ShareClassList struct {
	Data []ShareClass `json:"data"`
}

// AssetPrice is the NAV per share of a share class on one day.
type AssetPrice struct {
	NAVPerShare      int64  `json:"nav_per_share"`
	Date             string `json:"date"`
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
