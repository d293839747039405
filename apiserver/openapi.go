package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// GET /openapi.json: an OpenAPI 3.0 document of every route, built from code: the
// schemas are derived from the request and response types of types.go (their json and
// openapi tags), the operations from the table below. The REST suite validates every
// response it receives against the served document, and a unit test checks that every
// route of routes.go appears in it, so it stays true.

func (s *Server) serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.openAPI)
}

// openAPIJSON renders the document for a facade served at serverURL.
func openAPIJSON(serverURL string) []byte {
	b, err := json.Marshal(openAPIDocument(serverURL))
	if err != nil {
		panic(fmt.Sprintf("openapi: %v", err)) // a bug in the table below, caught by every test
	}
	return b
}

// OpenAPIDocumentJSON is the document GET /openapi.json serves for a facade at serverURL,
// built without a server (hack/openapi/dump writes it for the linters).
func OpenAPIDocumentJSON(serverURL string) []byte { return openAPIJSON(serverURL) }

// uuidPattern is a lowercase UUID, the form of every id the facade answers with; requests
// may use any letter case.
const (
	uuidPattern     = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
	anyUUIDPattern  = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	isinPattern     = `^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$`
	schemaRefPrefix = "#/components/schemas/"
)

// schemaMode says how a struct's fields become required and nullable. Response fields
// are all present (required) unless omitempty, and null when they are pointers. Request
// fields are required when tagged so; the others may be absent or null.
type schemaMode int

const (
	responseMode schemaMode = iota
	requestMode
)

// schemaSet collects the component schemas.
type schemaSet struct {
	schemas openapi3.Schemas
}

// ref returns a reference to the component schema of the struct type t, creating it.
func (g *schemaSet) ref(t reflect.Type) *openapi3.SchemaRef {
	name := t.Name()
	if _, ok := g.schemas[name]; !ok {
		g.schemas[name] = &openapi3.SchemaRef{} // placeholder against recursion
		mode := responseMode
		if strings.HasSuffix(name, "Request") {
			mode = requestMode
		}
		obj := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Properties: openapi3.Schemas{}}
		// Unknown fields are refused in JSON bodies and never written in answers; the token
		// form ignores unknown parameters, as RFC 6749 §3.2 asks.
		if name != "TokenRequest" {
			no := false
			obj.AdditionalProperties = openapi3.AdditionalProperties{Has: &no}
		}
		if doc := typeDocs[name]; doc != "" {
			obj.Description = doc
		}
		g.fields(obj, t, mode)
		g.schemas[name] = openapi3.NewSchemaRef("", obj)
	}
	return openapi3.NewSchemaRef(schemaRefPrefix+name, nil)
}

// fields adds the fields of t (and of structs it embeds) to obj.
func (g *schemaSet) fields(obj *openapi3.Schema, t reflect.Type, mode schemaMode) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			g.fields(obj, f.Type, mode)
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		tag := parseOpenAPITag(f.Tag.Get("openapi"))
		if on, ok := reflect.Zero(f.Type).Interface().(optionalNullable); ok {
			// Present on some objects only, and null there at times (presentOrNull).
			obj.Properties[name] = g.field(on.openAPIValueType(), tag, mode, true)
			continue
		}
		omitempty := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		required := mode == responseMode && !omitempty || mode == requestMode && tag.required
		isPtr := f.Type.Kind() == reflect.Pointer
		nullable := f.Type.Kind() == reflect.Interface ||
			isPtr && mode == responseMode && !omitempty ||
			isPtr && mode == requestMode && !tag.required
		obj.Properties[name] = g.field(f.Type, tag, mode, nullable)
		if required {
			obj.Required = append(obj.Required, name)
		}
	}
}

// field is the schema of one field's type.
func (g *schemaSet) field(t reflect.Type, tag openAPITag, mode schemaMode, nullable bool) *openapi3.SchemaRef {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var s *openapi3.Schema
	switch t.Kind() {
	case reflect.Struct:
		ref := g.ref(t)
		if !nullable {
			return ref
		}
		// A $ref has no siblings in OpenAPI 3.0: a nullable reference wraps it, and nullable
		// needs a type beside it (OpenAPI 3.0.3 §4.7.24.1; linters refuse it alone).
		return openapi3.NewSchemaRef("", &openapi3.Schema{
			Type: &openapi3.Types{openapi3.TypeObject}, AllOf: openapi3.SchemaRefs{ref}, Nullable: true,
		})
	case reflect.String:
		s = openapi3.NewStringSchema()
	case reflect.Bool:
		s = openapi3.NewBoolSchema()
	case reflect.Int, reflect.Int32, reflect.Int64:
		s = openapi3.NewIntegerSchema()
		s.Format = "int" + strconv.Itoa(t.Bits())
	case reflect.Slice:
		s = openapi3.NewArraySchema()
		s.Items = g.field(t.Elem(), openAPITag{}, mode, false)
	case reflect.Map:
		s = openapi3.NewObjectSchema()
		s.AdditionalProperties = openapi3.AdditionalProperties{Schema: g.field(t.Elem(), openAPITag{}, mode, false)}
	case reflect.Interface:
		switch {
		case tag.ref != "":
			return openapi3.NewSchemaRef(schemaRefPrefix+tag.ref, nil)
		case len(tag.types) > 0:
			s = &openapi3.Schema{}
			for i, typ := range tag.types {
				// nullable only counts beside a type: null is allowed by the first
				// alternative (and only by it, so that exactly one matches).
				s.OneOf = append(s.OneOf, openapi3.NewSchemaRef("", &openapi3.Schema{
					Type: &openapi3.Types{typ}, Nullable: nullable && i == 0,
				}))
			}
			tag.apply(s, mode)
			return openapi3.NewSchemaRef("", s)
		default:
			s = &openapi3.Schema{}
		}
	default:
		panic("openapi: no schema for " + t.String())
	}
	tag.apply(s, mode)
	s.Nullable = nullable
	return openapi3.NewSchemaRef("", s)
}

// openAPITag is a parsed `openapi:"..."` tag (see types.go).
type openAPITag struct {
	required, uuid bool
	enum, types    []string
	pattern        string
	format         string
	ref            string
	min, max       *float64
	maxLength      *uint64
}

func parseOpenAPITag(tag string) openAPITag {
	var t openAPITag
	for _, part := range strings.Split(tag, ";") {
		key, value, _ := strings.Cut(part, "=")
		switch key {
		case "":
		case "required":
			t.required = true
		case "uuid":
			t.uuid = true
		case "enum":
			t.enum = strings.Split(value, "|")
		case "types":
			t.types = strings.Split(value, "|")
		case "pattern":
			t.pattern = value
		case "format":
			t.format = value
		case "ref":
			t.ref = value
		case "min", "max":
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				panic("openapi: bad tag " + tag)
			}
			if key == "min" {
				t.min = &n
			} else {
				t.max = &n
			}
		case "maxLength":
			n, err := strconv.ParseUint(value, 10, 64)
			if err != nil {
				panic("openapi: bad tag " + tag)
			}
			t.maxLength = &n
		default:
			panic("openapi: unknown tag key " + key)
		}
	}
	return t
}

func (t openAPITag) apply(s *openapi3.Schema, mode schemaMode) {
	if t.uuid {
		s.Format = "uuid"
		s.Pattern = uuidPattern
		if mode == requestMode {
			s.Pattern = anyUUIDPattern
		}
	}
	for _, v := range t.enum {
		s.Enum = append(s.Enum, v)
	}
	if t.pattern != "" {
		regexp.MustCompile(t.pattern)
		s.Pattern = t.pattern
	}
	if t.format != "" {
		s.Format = t.format
	}
	s.Min, s.Max, s.MaxLength = t.min, t.max, t.maxLength
}

// typeDocs describe the component schemas.
var typeDocs = map[string]string{
	"ErrorResponse":         "The body of every error: a short message and details, an object mapping field names to messages for validation errors and repeated keys, a string otherwise.",
	"Account":               "A natural person (individual) or a registered company (business).",
	"Wallet":                "A blockchain wallet registered for an account; orders deliver tokens to it.",
	"PaymentMethodDetails":  "A bank account for SEPA transfers.",
	"Fund":                  "A feeder fund of the catalogue, with its market flags and redemption gate.",
	"ShareClass":            "A share class of a feeder fund. Fees are in rate units (100% = 10,000), min_investment in micro-units, lock_up in days. dealing is absent without dealing terms, secondary_market absent without a secondary market.",
	"ShareClassDealing":     "The dealing terms of a share class (docs/dealing.md) and next_dealings, its next dealing dates still open to orders (at least one cut-off ahead), earliest first. pricing LATEST prices an order at placement with the latest NAV, FORWARD at the NAV of its dealing date. business_days are weekday names (MONDAY to SUNDAY), holidays dates (YYYY-MM-DD) of time_zone. A DAY_OF_MONTH on a non-business day moves to the next business day of the same month, else the previous one; WEEKLY dealing on a non-business day moves to the next business day. nav_publication_lag and settlement_period (T+n) count business days after the dealing date, redemption_notice_days calendar days.",
	"DealingCutOff":         "A cut-off: orders must arrive strictly before time (HH:MM in the share class's time zone) on the business day business_days_before business days before the dealing date; for an INTRADAY share class (time null), strictly before minutes_before minutes before each dealing point.",
	"WindowDeadline":        "The order deadline of a matching window: orders must arrive strictly before time (HH:MM in the market's time zone) on the business day business_days_before business days before the window's date.",
	"DealingDateView":       "One dealing date (trade date and NAV date) with its cut-off instants and valuation point (RFC 3339, UTC), the expected NAV publication date and the settlement date.",
	"AssetPrice":            "The NAV per share of a share class on one day, in micro-units (1 EUR = 10,000).",
	"OrderListItem":         "An order as the list shows it. value is the gross value in micro-units. wallet_id and payment_method_details_id are the recipient wallet and the customer's bank account as resolved at placement (the ones the order named, else the account's primary ones then, also for an order created with kubectl), else the ones the order named; null only when there is neither; they stay on terminal and archived orders. Orders of forward-priced share classes also carry dealing_date and confirmation (their contract note, null until the strike); amount_of_units is null for a BUY by amount until the strike. SECONDARY orders of a share class's secondary market carry matching_window and confirmation (null until their window matched them, then with its fill).",
	"Order":                 "The full order. Money in micro-units (1 EUR = 10,000), fee rates in rate units (100% = 10,000). A BUY carries its fee in subscription_fee and subscription_fee_amount (redemption_fee fields null), a SELL in redemption_fee and redemption_fee_amount (subscription_fee fields null). payment_details is null for SELL orders. wallet_id and payment_method_details_id are as resolved at placement (see OrderListItem), on terminal and archived orders too. refund is null unless the BUY was cancelled after its payment arrived. A forward-priced share class (dealing.pricing FORWARD) prices its orders at the NAV of their dealing date (the strike): such an order also has dealing_date, cut_off (cancellable until then; a BUY by amount is paid by then) and confirmation (its contract note, null until the strike); until the strike its price is unknown, so subscription_fee_amount, redemption_fee_amount and net_amount are null, and so are amount_of_units (a BUY by amount), amount and gross_value (an order by units). A latest-priced order has none of these three fields. A SECONDARY order of a share class's secondary market has matching_window (its window's date and order deadline) and confirmation (null until the window matched it; its fill then says what the window filled), and no dealing_date or cut_off.",
	"OrderConfirmation":     "The contract note of a forward-priced order (ISO 20022 setr.012 fields), fixed at the strike of its dealing date: price is the NAV per unit (micro-units); gross_amount is units × price (an order by units) or the BUY's amount; fee_amount = gross_amount × fee_rate / 10,000 rounded half up; net_amount = gross_amount − fee_amount. A BUY by amount gets units = net_amount ÷ price rounded down to the share class's unit_decimals, units_value = units × price, and residual_amount = net_amount − units_value, refunded under residual_reference once the units are delivered (these three are null for orders by units); residual_refund_status says where that refund stands (PENDING, SENT, COMPLETED; null without a residual), and the order is COMPLETED only once it arrived. settlement_date is the dealing date plus the settlement period in business days. A SELL that the share class's redemption gate filled in part has units = the units filled and requested_units = the units asked; carried_forward names the SELL that deals the rest at the next dealing date (remainder policy CarryForward), null when the rest is not redeemed (Cancel). fill is null. A SECONDARY order's contract note is its matching window's: dealing is empty, trade_date and settlement_date are the window's date, price the side's price (the NAV with the spread), units the units filled (requested_units the units asked when fewer were filled), fee_rate the side's secondary fee; a BUY pays gross_amount + fee_amount (net_amount = gross_amount) and the rest of its payment is residual_amount, refunded under residual_reference, unless it goes with a carried remainder; a SELL is paid net_amount = gross_amount − fee_amount. carried_forward names the order of the same side that deals a carried remainder (its dealing_date and cut_off: the next window's date and order deadline; a BUY's amount: the money its payment did not use, which pays that BUY, residual_amount then null), and fill says what the window decided.",
	"DealingRedemptionGate": "The redemption gate of each dealing date (ELTIF RTS 2024/2759 Art. 5): one dealing date redeems at most threshold_basis_points of the class's outstanding units; SELLs above it are filled pro rata (rounded down to the unit) and the rest is carried forward to the next dealing date as a new SELL (CARRY_FORWARD) or not redeemed (CANCEL).",
	"DealingAntiDilution":   "A share class's anti-dilution terms: when a dealing date's net flow (money in − money out at the NAV) is above threshold_basis_points of the class's value (outstanding units × NAV), SWING_PRICING deals every order of the date at the NAV moved by factor_basis_points (up on a net inflow, down on a net outflow, rounded half up), LEVY charges the orders of the side that causes the flow factor_basis_points of their gross amount, kept by the fund.",
	"OrderAntiDilution":     "What anti-dilution did to one order at the strike: SWING_PRICING (price is the swung NAV; nav the NAV before the swing) or LEVY (levy_amount = gross_amount × factor_basis_points / 10,000 rounded half up, deducted from net_amount).",
	"OrderCarriedForward":   "The order that deals the units a redemption gate or a matching window did not fill: its id, the units, its dealing date or window and cut-off, and (a SECONDARY BUY) the money carried with them.",
	"OrderRefund":           "The refund a BUY cancelled in PAYMENT_RECEIVED owes: the amount paid, to the payment method details resolved at placement, under its own reference. status is PENDING until the refund is sent (SENT, with the transfer's reference) and COMPLETED when it arrived.",
	"OrderCreateRequest":    "A buy or sell order to place. settlement_type defaults to bearer; the recipient wallet and the sender's payment method default to the account's primary ones. amount_of_units is required, except for a BUY of a forward-priced share class, which gives exactly one of amount (the money to invest, gross, micro-units) and amount_of_units; amount is refused for SELLs and latest-priced share classes.",
	"Portfolio":             "What an account holds per ISIN, from its completed orders and its on-chain transfers between holders (transferred_in_units, transferred_out_units); subscriptions and redemptions (PRIMARY: subscribed_units, redeemed_units) apart from trades with other investors in matching windows (SECONDARY: secondary_bought_units, secondary_sold_units).",
	"Transfer":              "One side of an on-chain transfer of share tokens between holders: IN (units arrived at the account's wallet) or OUT (units left it). Only the counterparty's address is shown, never another account.",
	"TokenRequest":          "OAuth 2.0 client credentials grant (RFC 6749 §4.4). client_id and client_secret may instead be sent with HTTP Basic.",
	"OAuthServerMetadata":   "OAuth 2.0 authorization server metadata (RFC 8414 §2). The endpoints are absolute URLs under the issuer, the public base URL; response_types_supported is empty, as there is no authorization endpoint.",
	"BankFileUpload":        "A bank file delivered into the bank connector's inbound queue by an operator: its name there, the SHA-256 of its bytes (hex), its ISO 20022 message type and version, its message id (GrpHdr/MsgId) and its size in bytes.",
	"OpenIDConfiguration":   "OpenID Connect discovery (OpenID Connect Discovery 1.0 §3) of a service that issues access tokens only: the authorization server metadata, with subject_types_supported and id_token_signing_alg_values_supported describing the access tokens, and no authorization_endpoint.",

	// The secondary market.
	"ShareClassSecondaryMarket": "The secondary market of a share class: SECONDARY orders are matched with each other in matching windows, on the dates of its calendar (frequency, weekday, day_rule, day_of_month, month_of_quarter, business_days and holidays of time_zone, as a dealing calendar's), at the latest NAV dated on or before the window's date, when the window's order_deadline passes. " +
		"A BUY pays NAV × (10,000 + spread_basis_points) / 10,000 per unit, a SELL receives NAV × (10,000 − spread_basis_points) / 10,000, each rounded half up; buy_fee_rate and sell_fee_rate (rate units, 100% = 10,000) are charged on the gross. " +
		"Units a window does not fill are carried to at most carry_windows later windows (0: cancelled at once; a BUY's remainder after a partial fill is never carried, its money is refunded). next_windows are the next windows still open to orders (order deadline ahead), earliest first.",
	"SecondaryMarketWindow": "A matching window of the calendar: its date and its order deadline (RFC 3339, UTC); an order received at or after the deadline goes to a later window.",
	"MatchingWindow": "A matching window of a share class's secondary market as it is published, without its book: no order, account or counterparty is named. phase OPEN (orders are taken until order_deadline), MATCHING (the book and the price are recorded, fills are being written), MATCHED (every order of the book has its fill), SETTLED (every order of the book is COMPLETED or CANCELLED). " +
		"Until the window is matched the result fields are null; then nav_per_share and nav_date are the NAV it matched at, buy_price and sell_price the NAV with the spread (micro-units), volume_units the units matched (the smaller of buy_units and sell_units, the units the BUY and SELL orders of the book asked), buy_fill_ratio and sell_fill_ratio each side's fill ratio in basis points (volume × 10,000 ÷ units asked, rounded down; 0 for an empty side), buy_orders and sell_orders the orders of each side, matched_at when the book was recorded.",
	"OrderMatchingWindow": "The matching window a SECONDARY order waits for or was matched in: its date and order deadline (the order can be cancelled until then, and a BUY is paid by then), and carried, the windows it was carried from (filled with nothing in each).",
	"OrderFill": "A SECONDARY order's fill in its matching window (window: the window's date). outcome FILLED (every unit), PARTIAL or UNFILLED; units_filled of units_requested. nav_per_share is the window's NAV before the spread (the confirmation's price is the side's price, with the spread_basis_points). " +
		"A BUY paid amount_paid (units × the price at placement + fee) and owes amount_due (gross_amount + fee_amount of its fill); the rest is the confirmation's residual_amount, refunded under residual_reference (both null for a SELL). remainder_cancelled are the units asked, not filled and not carried; carried_to_order (a SELL filled in part) is the SELL of the next window that deals the rest, null otherwise.",
}

// Operations.

// param is a path or query parameter.
type param struct {
	name, in, description string
	schema                *openapi3.Schema
}

// response is one documented answer; body is a value of its type (nil: no body). Headers
// are required unless their name starts with "?".
type response struct {
	status      int
	description string
	body        any
	headers     []string
}

// operation is one method on one path.
type operation struct {
	method, path, id, summary, description string
	tag                                    string
	public, ext                            bool
	query                                  []param
	// body is a value of the request's type; form sends it as a form.
	body any
	form bool
	// alias marks a second spelling of a documented route (DELETE with a trailing
	// slash): served and query-checked like it, but not a path of the document, where
	// generators and linters refuse trailing slashes.
	alias      bool
	mergePatch bool
	// operator marks an operator route: outside every tenant's scope, authenticated with a
	// Kubernetes token and authorized by RBAC (operatorauth.go), never a tenant's token.
	operator bool
	// xmlBody: the body is a file of XML (a bank file), not a JSON object.
	xmlBody   bool
	responses []response
	// serve is the handler routes.go registers for the operation (the token endpoint and
	// the key set, handlers of package auth, are registered there by hand).
	serve func(*Server, http.ResponseWriter, *http.Request)
}

func strSchema() *openapi3.Schema { return openapi3.NewStringSchema() }

func enumSchema(values ...string) *openapi3.Schema {
	s := openapi3.NewStringSchema()
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func intSchema(min, max float64) *openapi3.Schema {
	s := openapi3.NewIntegerSchema()
	s.Min = &min
	if max > 0 {
		s.Max = &max
	}
	return s
}

func withDefault(s *openapi3.Schema, def int) *openapi3.Schema {
	s.Default = def
	return s
}

func patternSchema(p string) *openapi3.Schema { return openapi3.NewStringSchema().WithPattern(p) }

func uuidSchema() *openapi3.Schema {
	s := patternSchema(anyUUIDPattern)
	s.Format = "uuid"
	return s
}

func qparam(name, description string, s *openapi3.Schema) param {
	return param{name: name, in: openapi3.ParameterInQuery, description: description, schema: s}
}

var pagingParams = []param{
	qparam("skip", "Number of items to skip, at least 0.", withDefault(intSchema(0, 0), 0)),
	qparam("limit", "Page size, 1 to 1000.", withDefault(intSchema(1, maxLimit), defaultLimit)),
}

func withPaging(ps ...param) []param { return append(ps, pagingParams...) }

// Response helpers. Every answer carries X-Request-ID.
func answer(status int, description string, body any, headers ...string) response {
	return response{status: status, description: description, body: body, headers: headers}
}

func fail(status int, description string) response {
	headers := []string(nil)
	if status == http.StatusUnauthorized {
		headers = []string{"WWW-Authenticate"}
	}
	return response{status: status, description: description, body: ErrorResponse{}, headers: headers}
}

// Errors every authenticated operation may answer.
var commonErrors = []response{
	fail(http.StatusUnauthorized, "Unauthorized: the bearer token is missing, invalid, expired or revoked (its client was deleted, disabled or changed, or its secret rotated)."),
	fail(http.StatusInternalServerError, "Internal server error; details quote the request id."),
	fail(http.StatusServiceUnavailable, "Service unavailable; retry later."),
	fail(http.StatusGatewayTimeout, "Request timed out; a write may or may not have taken effect."),
}

// Errors of operations with a JSON body.
var bodyErrors = []response{
	fail(http.StatusBadRequest, "Malformed JSON: the body is not a JSON object, or an object in it repeats a key (details map the key's path to `duplicate key \"<key>\"`); or `Request rejected`: an admission rule refused the write (one of the operator's, or a policy or webhook the platform adds), details quoting it."),
	fail(http.StatusRequestEntityTooLarge, "Request body too large (over 1 MiB)."),
	fail(http.StatusUnsupportedMediaType, "Unsupported media type: the body is not application/json, or names a charset other than utf-8."),
	fail(http.StatusUnprocessableEntity, "Validation error: details map each field to its messages."),
}

var (
	queryError    = fail(http.StatusUnprocessableEntity, "Validation error: a query parameter is unknown, repeated or invalid.")
	notFoundError = fail(http.StatusNotFound, "The id (or ISIN) does not exist for this client: `<Resource> not found`, details naming it.")
	conflictError = fail(http.StatusConflict, "Conflict: the object changed concurrently; retry.")
)

func errs(lists ...[]response) []response {
	var out []response
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func these(rs ...response) []response { return rs }

const idemDescription = "Retry-safe creation: a request with the same Idempotency-Key and the same body answers 201 with the object created first (and `Idempotent-Replayed: true`); the same key with another body answers 422."

// operations lists every route of routes.go.
func operations() []operation {
	created := func(body any) response {
		return answer(http.StatusCreated, "Created.", body, "Location", "?"+headerReplayed)
	}
	return []operation{
		{method: http.MethodGet, path: "/healthz", id: "getHealth", serve: (*Server).health, summary: "Liveness", tag: "Service", public: true, ext: true,
			description: "Answers 200 while the process serves HTTP; for liveness probes. Needs no token.",
			responses:   these(answer(http.StatusOK, "The process is alive.", HealthStatus{}))},
		{method: http.MethodGet, path: "/readyz", id: "getReadiness", serve: (*Server).ready, summary: "Readiness", tag: "Service", public: true, ext: true,
			description: "Answers 200 once the caches have synced and the facade can answer from them, 503 before; for readiness probes. Needs no token.",
			responses:   these(answer(http.StatusOK, "Ready to serve.", HealthStatus{}), answer(http.StatusServiceUnavailable, "Starting.", HealthStatus{}))},
		{method: http.MethodGet, path: "/openapi.json", id: "getOpenAPIDocument", serve: (*Server).serveOpenAPI, summary: "This document", tag: "Service", public: true, ext: true,
			description: "The OpenAPI 3.0 document of every route, built from the code that serves them. Needs no token.",
			responses:   these(answer(http.StatusOK, "The OpenAPI 3.0 document of the API.", openAPIDocBody{}))},
		{method: http.MethodPost, path: "/oauth2/token", id: "createAccessToken", summary: "Obtain an access token", tag: "Authentication", public: true,
			description: "OAuth 2.0 client credentials, with client_secret_basic or client_secret_post. scope is `openid offline` or left out for that default (RFC 6749 §3.3); the answer always names the granted scope. audience is the host name of the base URL. The access token is a JWT typed `at+jwt` (RFC 9068).",
			body:        TokenRequest{}, form: true,
			responses: []response{
				answer(http.StatusOK, "The access token.", TokenResponse{}, "?Cache-Control"),
				{status: http.StatusBadRequest, description: "invalid_request (also for a body that is not application/x-www-form-urlencoded in UTF-8), unsupported_grant_type or invalid_scope.", body: OAuthError{}},
				{status: http.StatusUnauthorized, description: "invalid_client: unknown client, wrong secret or disabled client.", body: OAuthError{}, headers: []string{"?WWW-Authenticate"}},
				{status: http.StatusRequestEntityTooLarge, description: "invalid_request: the body is too large.", body: OAuthError{}},
				{status: http.StatusTooManyRequests, description: "invalid_client: too many failed attempts from this address (for this client id, or for any).", body: OAuthError{}, headers: []string{"?Retry-After"}},
				{status: http.StatusInternalServerError, description: "server_error.", body: OAuthError{}},
				{status: http.StatusServiceUnavailable, description: "temporarily_unavailable: too many secrets being verified; retry after Retry-After seconds.", body: OAuthError{}, headers: []string{"?Retry-After"}},
			}},
		{method: http.MethodGet, path: "/.well-known/jwks.json", id: "getJSONWebKeySet", summary: "Token verification keys", tag: "Authentication", public: true, ext: true,
			description: "The public keys (RFC 7517 JWK Set) that verify the signatures of access tokens; the kid of a token names its key. Needs no token.",
			responses:   these(answer(http.StatusOK, "The public keys (JWK Set) that verify access tokens.", JSONWebKeySet{}))},
		{method: http.MethodGet, path: "/.well-known/oauth-authorization-server", id: "getAuthorizationServerMetadata", summary: "OAuth 2.0 authorization server metadata", tag: "Authentication", public: true, ext: true,
			description: "RFC 8414 metadata of the token flow: issuer (the iss of every token, byte for byte), token_endpoint, jwks_uri, scopes, grant types and client authentication methods. " +
				"There is no authorization endpoint, so response_types_supported is empty. Cacheable for an hour. Needs no token.",
			responses: these(answer(http.StatusOK, "The authorization server metadata.", OAuthServerMetadata{}, "Cache-Control"))},
		{method: http.MethodGet, path: "/.well-known/openid-configuration", id: "getOpenIDConfiguration", summary: "OpenID Connect discovery", tag: "Authentication", public: true, ext: true,
			description: "The same metadata as an OpenID Connect discovery document, for clients and gateways that find the token verification keys (jwks_uri) this way. " +
				"The service issues access tokens only, no ID tokens, and has no authorization endpoint: authorization_endpoint is absent, response_types_supported empty, " +
				"subject_types_supported and id_token_signing_alg_values_supported describe the access tokens (public, ES256). Cacheable for an hour. Needs no token.",
			responses: these(answer(http.StatusOK, "The OpenID Connect discovery document.", OpenIDConfiguration{}, "Cache-Control"))},

		// Accounts.
		{method: http.MethodPost, path: "/v1/accounts", id: "createAccount", serve: (*Server).createAccount, summary: "Create an account", tag: "Accounts", ext: true,
			description: "An account with an external_id gets an id derived from it; a second account with the same external_id answers 409. " + idemDescription,
			body:        AccountCreateRequest{},
			responses:   errs(these(created(Account{}), fail(http.StatusConflict, "External ID already in use.")), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts", id: "listAccounts", serve: (*Server).listAccounts, summary: "List accounts", tag: "Accounts", ext: true,
			description: "The accounts of the calling client, oldest first, filtered by external_id and account_type; skip and limit page through them.",
			query: withPaging(
				qparam("external_id", "Exact external_id.", strSchema()),
				qparam("account_type", "Type of the account.", enumSchema("individual", "business"))),
			responses: errs(these(answer(http.StatusOK, "The accounts, oldest first.", AccountList{}), queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}", id: "getAccount", serve: (*Server).getAccount, summary: "Get an account", tag: "Accounts",
			description: "One account of the calling client by its id; 404 for an id that does not exist or belongs to another client.",
			responses:   errs(these(answer(http.StatusOK, "The account.", Account{}), notFoundError), commonErrors)},
		{method: http.MethodPatch, path: "/v1/accounts/{account_id}", id: "updateAccount", serve: (*Server).updateAccount, summary: "Update an account", tag: "Accounts",
			description: "Absent or null fields stay unchanged; \"\" clears an optional field; birthdate (YYYY-MM-DD) sets dob_day, dob_month and dob_year.",
			body:        AccountUpdateRequest{}, mergePatch: true,
			responses: errs(these(answer(http.StatusOK, "The updated account.", Account{}), notFoundError, conflictError,
				fail(http.StatusConflict, "External ID already in use.")), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/portfolio", id: "getPortfolio", serve: (*Server).getPortfolio, summary: "Holdings of an account", tag: "Accounts", ext: true,
			description: "Per ISIN: units held (completed buys - completed sells + transfers in - transfers out), redeemable now, locked by the share class's lock-up, reserved for live sell orders, and the lots with their unlock times: one per completed buy still locked, and one lot for every unit past its lock-up (acquired_at the latest of those buys, unlocks_at the latest of their unlocks).",
			responses:   errs(these(answer(http.StatusOK, "The portfolio.", Portfolio{}), notFoundError, queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/transfers", id: "listTransfers", serve: (*Server).listTransfers, summary: "On-chain transfers of an account", tag: "Accounts", ext: true,
			description: "The account's sides of share-token transfers between holders on chain, indexed from confirmed blocks, newest first (block_number, then the event's position in the block); skip and limit page through them. units and transferred_in_units/transferred_out_units of the portfolio count them. 404 for an account of another client.",
			query:       withPaging(),
			responses:   errs(these(answer(http.StatusOK, "The transfers, newest first.", TransferList{}), notFoundError, queryError), commonErrors)},

		// Wallets.
		{method: http.MethodPost, path: "/v1/accounts/{account_id}/wallets", id: "createWallet", serve: (*Server).createWallet, summary: "Register a wallet", tag: "Wallets",
			description: "A wallet address can be registered once per account (409 Wallet already registered). is_primary true makes it the primary wallet. " + idemDescription,
			body:        WalletCreateRequest{},
			responses: errs(these(created(Wallet{}), notFoundError, fail(http.StatusConflict, "Wallet already registered; or the account changed concurrently.")),
				bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/wallets", id: "listWallets", serve: (*Server).listWallets, summary: "List registered wallets", tag: "Wallets",
			description: "The wallets registered for an account, oldest first, filtered by wallet_address and is_primary; skip and limit page through them.",
			query: withPaging(
				qparam("wallet_address", "Exact address, any letter case.", strSchema()),
				qparam("is_primary", "Only the primary wallet, or only the others.", openapi3.NewBoolSchema())),
			responses: errs(these(answer(http.StatusOK, "The wallets, oldest first.", WalletList{}), notFoundError, queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/wallets/{wallet_id}", id: "getWallet", serve: (*Server).getWallet, summary: "Get a registered wallet", tag: "Wallets", ext: true,
			description: "One wallet of an account by its id; 404 when the account or the wallet does not exist for the calling client.",
			responses:   errs(these(answer(http.StatusOK, "The wallet.", Wallet{}), notFoundError), commonErrors)},
		{method: http.MethodPatch, path: "/v1/accounts/{account_id}/wallets/{wallet_id}", id: "updateWallet", serve: (*Server).updateWallet, summary: "Update a registered wallet", tag: "Wallets",
			description: "is_primary true makes this the primary wallet (the others lose the flag), false clears it if this one has it, null changes nothing.",
			body:        WalletUpdateRequest{}, mergePatch: true,
			responses: errs(these(answer(http.StatusOK, "The wallet.", Wallet{}), notFoundError, conflictError), bodyErrors, commonErrors)},

		{method: http.MethodPost, path: "/v1/accounts/{account_id}/wallets/{wallet_id}/recovery", id: "recoverWallet", serve: (*Server).createWalletRecovery, summary: "Recover a lost wallet", tag: "Wallets", ext: true,
			description: "Lost-key recovery: the operator's agent moves every unit the wallet holds on chain, in every share class token and with its lock-ups, to to_wallet_id, another wallet of the account with another address that is registered in the identity registry (422 otherwise), one forced transfer per token, each exactly once. Answers 202 with the recovery (status PENDING until the agent starts); GET on the same path follows it to COMPLETED, after which the lost wallet holds nothing and can be deleted. A wallet has one recovery: repeating the request with the same target answers it again, another target 409.",
			body:        WalletRecoveryRequest{},
			responses: errs(these(answer(http.StatusAccepted, "The recovery, accepted.", WalletRecovery{}, "Location"), notFoundError,
				fail(http.StatusConflict, "Wallet recovery already requested, to another wallet.")), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/wallets/{wallet_id}/recovery", id: "getWalletRecovery", serve: (*Server).getWalletRecovery, summary: "Get a wallet's recovery", tag: "Wallets", ext: true,
			description: "The lost-key recovery of a wallet: its status and one transaction per share class token; 404 when the account, the wallet or its recovery does not exist for the calling client.",
			responses:   errs(these(answer(http.StatusOK, "The recovery.", WalletRecovery{}), notFoundError), commonErrors)},

		// Payment method details.
		{method: http.MethodPost, path: "/v1/accounts/{account_id}/payment-method-details", id: "createPaymentMethodDetails", serve: (*Server).createPaymentMethod, summary: "Add payment method details", tag: "Payment method details",
			description: idemDescription,
			body:        PaymentMethodDetailsCreateRequest{},
			responses:   errs(these(created(PaymentMethodDetails{}), notFoundError, conflictError), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/payment-method-details", id: "listPaymentMethodDetails", serve: (*Server).listPaymentMethods, summary: "List payment method details", tag: "Payment method details", ext: true,
			description: "The bank accounts of an account, oldest first, filtered by is_primary; skip and limit page through them.",
			query:       withPaging(qparam("is_primary", "Only the primary details, or only the others.", openapi3.NewBoolSchema())),
			responses:   errs(these(answer(http.StatusOK, "The payment method details, oldest first.", PaymentMethodDetailsList{}), notFoundError, queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}", id: "getPaymentMethodDetails", serve: (*Server).getPaymentMethod, summary: "Get payment method details", tag: "Payment method details",
			description: "One bank account of an account by its id; 404 when the account or the details do not exist for the calling client.",
			responses:   errs(these(answer(http.StatusOK, "The payment method details.", PaymentMethodDetails{}), notFoundError), commonErrors)},
		{method: http.MethodPatch, path: "/v1/accounts/{account_id}/payment-method-details/{payment_method_details_id}", id: "updatePaymentMethodDetails", serve: (*Server).updatePaymentMethod, summary: "Update payment method details", tag: "Payment method details",
			description: "A JSON merge patch: absent or null fields stay unchanged; is_primary true makes these the primary details (the others lose the flag).",
			body:        PaymentMethodDetailsUpdateRequest{}, mergePatch: true,
			responses: errs(these(answer(http.StatusOK, "The payment method details.", PaymentMethodDetails{}), notFoundError, conflictError), bodyErrors, commonErrors)},

		// Orders.
		{method: http.MethodPost, path: "/v1/orders", id: "createOrder", serve: (*Server).createOrder, summary: "Place an order", tag: "Orders", ext: true,
			description: "Checked and priced at placement from the latest NAV. The status is PLACED until the lifecycle moves the order on. " + idemDescription,
			body:        OrderCreateRequest{},
			responses: errs(these(created(Order{}),
				fail(http.StatusBadRequest, "Malformed JSON (not a JSON object, or a repeated key: details map the key's path to `duplicate key \"<key>\"`); a business rule refused the order: `Insufficient holdings`, `Shares locked` or `Fund not redeemable`, details saying why; or `Request rejected`: an admission rule refused the write (one of the operator's, or a policy or webhook the platform adds), details quoting it."),
				fail(http.StatusNotFound, "`Account not found` or `Share class not found`, details naming the id or ISIN."),
				conflictError,
				fail(http.StatusRequestEntityTooLarge, "Request body too large (over 1 MiB)."),
				fail(http.StatusUnsupportedMediaType, "Unsupported media type: the body is not application/json, or names a charset other than utf-8."),
				fail(http.StatusUnprocessableEntity, "Validation error: details map each field (or the Idempotency-Key header) to its messages.")),
				commonErrors)},
		{method: http.MethodGet, path: "/v1/orders", id: "listOrders", serve: (*Server).listOrders, summary: "List orders", tag: "Orders",
			description: "The orders of the calling client, live and archived alike, newest first (by created, then id), filtered by side, market, order_status, account_type, account_id, currency and isin; cursor (next_cursor of the previous page) pages stably while orders are placed or archived, skip and limit page within it.",
			query: withPaging(
				qparam("cursor", "Continue after the last order of a previous page: its next_cursor.", strSchema()),
				qparam("side", "Side of the order.", enumSchema("BUY", "SELL")),
				qparam("market", "Market of the order.", enumSchema("PRIMARY", "SECONDARY")),
				qparam("order_status", "Lifecycle status.", enumSchema(orderStates...)),
				qparam("account_type", "Type of the order's account.", enumSchema("individual", "business")),
				qparam("account_id", "The order's account.", uuidSchema()),
				qparam("currency", "Order currency.", patternSchema(`^[A-Z]{3}$`)),
				qparam("isin", "ISIN of the share class.", strSchema())),
			responses: errs(these(answer(http.StatusOK, "The orders, newest first; next_cursor when more follow.", OrderList{}), queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/orders/{order_id}", id: "getOrder", serve: (*Server).getOrder, summary: "Get an order", tag: "Orders", ext: true,
			description: "One order of the calling client with its status history; an order placed a moment ago is found (read-your-writes).",
			responses:   errs(these(answer(http.StatusOK, "The full order with its history.", Order{}), notFoundError), commonErrors)},
		cancelOperation("/v1/orders/{order_id}"),
		alias(cancelOperation("/v1/orders/{order_id}/")),

		// Catalogue.
		{method: http.MethodGet, path: "/v1/funds", id: "listFunds", serve: (*Server).listFunds, summary: "List funds", tag: "Catalogue",
			description: "The feeder funds of the catalogue (the same for every client), filtered by abbreviation, name, base_currency and risk_score; skip and limit page through them.",
			query: withPaging(
				qparam("abbreviation", "Exact abbreviation.", strSchema()),
				qparam("name", "Part of the name, any letter case.", strSchema()),
				qparam("base_currency", "Base currency.", patternSchema(`^[A-Z]{3}$`)),
				qparam("risk_score", "Risk score, 1 to 10.", intSchema(1, 10))),
			responses: errs(these(answer(http.StatusOK, "The funds.", FundList{}), queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/funds/{fund_id}", id: "getFund", serve: (*Server).getFund, summary: "Get a fund", tag: "Catalogue",
			description: "One feeder fund of the catalogue by its id (the id GET /v1/funds answers); 404 `Fund not found` for an id no fund has.",
			responses:   errs(these(answer(http.StatusOK, "The fund.", Fund{}), notFoundError), commonErrors)},
		{method: http.MethodGet, path: "/v1/share-classes", id: "listShareClasses", serve: (*Server).listShareClasses, summary: "List share classes", tag: "Catalogue",
			description: "The share classes of the catalogue, filtered by abbreviation, name and feeder_fund_id; skip and limit page through them.",
			query: withPaging(
				qparam("abbreviation", "Exact abbreviation.", strSchema()),
				qparam("name", "Part of the name, any letter case.", strSchema()),
				qparam("feeder_fund_id", "The fund of the share class.", uuidSchema())),
			responses: errs(these(answer(http.StatusOK, "The share classes.", ShareClassList{}), queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/share-classes/{isin}", id: "getShareClass", serve: (*Server).getShareClass, summary: "Get a share class", tag: "Catalogue", ext: true,
			description: "One share class by its ISIN, in any letter case.",
			responses:   errs(these(answer(http.StatusOK, "The share class.", ShareClass{}), notFoundError), commonErrors)},
		{method: http.MethodGet, path: "/v1/share-classes/{isin}/matching-windows", id: "listMatchingWindows", serve: (*Server).listMatchingWindows, summary: "List matching windows of a share class", tag: "Catalogue", ext: true,
			description: "The published matching windows of the secondary market of the share class of the ISIN (any letter case), newest date first; skip and limit page through them. " +
				"Each shows its date, order deadline and phase and, once matched, the NAV it matched at, the BUY and SELL prices, the volume, each side's fill ratio in basis points and the orders and units of each side: never its book, so no order, account or counterparty is named. " +
				"A window the window controller has not opened yet is not listed; a share class that never had a secondary market answers an empty list. 404 `Share class not found` for an ISIN no share class has.",
			query: withPaging(),
			responses: errs(these(answer(http.StatusOK, "The windows, newest first.", MatchingWindowList{}), notFoundError,
				fail(http.StatusUnprocessableEntity, "Validation error: the ISIN is not a valid ISIN (details name isin), or a query parameter is unknown, repeated or invalid.")), commonErrors)},
		{method: http.MethodGet, path: "/v1/assets/{isin}/prices", id: "listPrices", serve: (*Server).listPrices, summary: "List NAV prices of a share class", tag: "Catalogue",
			description: "Every published NAV price of a share class, newest first, with total_count; an empty list before the first price.",
			responses:   errs(these(answer(http.StatusOK, "Every price, newest first.", AssetPrices{}), notFoundError, queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/assets/{isin}/prices/latest", id: "getLatestPrice", serve: (*Server).latestPrice, summary: "The newest NAV price", tag: "Catalogue", ext: true,
			description: "The newest published NAV price of a share class; 404 `Price not found` before the first one.",
			responses: errs(these(answer(http.StatusOK, "The newest price.", LatestAssetPrice{}),
				fail(http.StatusNotFound, "`Share class not found`, or `Price not found` when none is published.")), commonErrors)},
		{method: http.MethodGet, path: "/v1/assets/{isin}/custom-offerings", id: "listCustomOfferings", serve: (*Server).listCustomOfferings, summary: "List custom offerings of a share class", tag: "Catalogue",
			description: "The calling client's custom offerings (fee arrangements) for the share class of the ISIN, oldest first. status is computed at the time of the request: " +
				"deactivated when withdrawn, pending before valid_from, expired from valid_until on, else active; an order may name an active one in custom_offering_id. " +
				"Offerings are managed as CustomOffering resources (kubectl, GitOps). 404 `Share class not found` for an unknown ISIN.",
			query: withPaging(
				qparam("status", "Only offerings with this status now.", enumSchema(offeringStatuses...))),
			responses: errs(these(answer(http.StatusOK, "The offerings.", CustomOfferingList{}), notFoundError, queryError), commonErrors)},

		// Webhooks.
		{method: http.MethodPost, path: "/v1/webhook-endpoints", id: "createWebhookEndpoint", serve: (*Server).createWebhookEndpoint, summary: "Create a webhook endpoint", tag: "Webhooks", ext: true,
			description: "An endpoint receives the events it subscribes to (event_types; empty or absent: every type), each a POST signed as Standard Webhooks v1 (headers webhook-id, webhook-timestamp, webhook-signature). url must be https to a public address. " +
				"The answer carries the signing secret (whsec_...) this once; store it. " + idemDescription,
			body:      WebhookEndpointCreateRequest{},
			responses: errs(these(created(WebhookEndpointCreated{})), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/webhook-endpoints", id: "listWebhookEndpoints", serve: (*Server).listWebhookEndpoints, summary: "List webhook endpoints", tag: "Webhooks", ext: true,
			description: "The calling client's endpoints, oldest first; skip and limit page through them. Secrets are never shown again.",
			query:       withPaging(),
			responses:   errs(these(answer(http.StatusOK, "The endpoints, oldest first.", WebhookEndpointList{}), queryError), commonErrors)},
		{method: http.MethodGet, path: "/v1/webhook-endpoints/{endpoint_id}", id: "getWebhookEndpoint", serve: (*Server).getWebhookEndpoint, summary: "Get a webhook endpoint", tag: "Webhooks", ext: true,
			description: "One endpoint of the calling client; 404 for an id that does not exist or belongs to another client.",
			responses:   errs(these(answer(http.StatusOK, "The endpoint.", WebhookEndpoint{}), notFoundError), commonErrors)},
		{method: http.MethodPatch, path: "/v1/webhook-endpoints/{endpoint_id}", id: "updateWebhookEndpoint", serve: (*Server).updateWebhookEndpoint, summary: "Update a webhook endpoint", tag: "Webhooks", ext: true,
			description: "Absent or null fields stay unchanged. enabled false stops deliveries (events that occur meanwhile are not sent; replay them); enabled true also ends a disabling by the service (disabled_reason) and its run of failures.",
			body:        WebhookEndpointUpdateRequest{}, mergePatch: true,
			responses: errs(these(answer(http.StatusOK, "The updated endpoint.", WebhookEndpoint{}), notFoundError, conflictError), bodyErrors, commonErrors)},
		{method: http.MethodDelete, path: "/v1/webhook-endpoints/{endpoint_id}", id: "deleteWebhookEndpoint", serve: (*Server).deleteWebhookEndpoint, summary: "Delete a webhook endpoint", tag: "Webhooks", ext: true,
			description: "Deletes the endpoint, its secret, its pending deliveries and its log.",
			responses:   errs(these(response{status: http.StatusNoContent, description: "Deleted."}, notFoundError), commonErrors)},
		{method: http.MethodPost, path: "/v1/webhook-endpoints/{endpoint_id}/rotate-secret", id: "rotateWebhookSecret", serve: (*Server).rotateWebhookSecret, summary: "Rotate a webhook endpoint's secret", tag: "Webhooks", ext: true,
			description: "A new signing secret, shown this once. For 24 hours every delivery carries two signatures, by the new secret and by the previous one, so a receiver can switch without losing an event.",
			responses:   errs(these(answer(http.StatusOK, "The new secret.", WebhookSecretRotation{}), notFoundError, conflictError), commonErrors)},
		{method: http.MethodGet, path: "/v1/webhook-endpoints/{endpoint_id}/attempts", id: "listWebhookAttempts", serve: (*Server).listWebhookAttempts, summary: "Delivery log of a webhook endpoint", tag: "Webhooks", ext: true,
			description: "Every delivery attempt, newest first: the event, the status code answered (null when none), the latency, the first KiB of the answer, the outcome and, while retrying, the next attempt. Kept 31 days. event_id keeps one event's attempts; cursor (next_cursor of the previous page) and limit page through them.",
			query: []param{
				qparam("event_id", "Only the attempts of this event.", strSchema()),
				qparam("cursor", "Continue after the last attempt of a previous page: its next_cursor.", strSchema()),
				qparam("limit", "Page size, 1 to 1000.", withDefault(intSchema(1, maxLimit), defaultLimit))},
			responses: errs(these(answer(http.StatusOK, "The attempts, newest first; next_cursor when more follow.", WebhookAttemptList{}), notFoundError, queryError), commonErrors)},
		{method: http.MethodPost, path: "/v1/webhook-endpoints/{endpoint_id}/replay", id: "replayWebhookEvents", serve: (*Server).replayWebhookEvents, summary: "Deliver events again", tag: "Webhooks", ext: true,
			description: "Schedules one event (event_id), or every event of the client that the endpoint subscribes to and that occurred in [from, to), for delivery again now, including events the endpoint never had (it was created later or was not subscribed). Events are kept 31 days. 202 with how many deliveries were scheduled.",
			body:        WebhookReplayRequest{},
			responses: errs(these(answer(http.StatusAccepted, "The deliveries scheduled.", WebhookReplay{}),
				fail(http.StatusNotFound, "`Webhook endpoint not found`, or `Event not found` for an event_id that is not the client's.")), bodyErrors, commonErrors)},
		{method: http.MethodGet, path: "/v1/webhook-event-types", id: "listWebhookEventTypes", serve: (*Server).listWebhookEventTypes, summary: "List event types", tag: "Webhooks", ext: true,
			description: "Every event type an endpoint may subscribe to, and when it is sent.",
			responses:   errs(these(answer(http.StatusOK, "The event types.", WebhookEventTypeList{})), commonErrors)},

		// Operator only.
		{method: http.MethodPost, path: bankFilesPath, id: "uploadBankFile", serve: (*Server).uploadBankFile, summary: "Upload a bank file (operator only)", tag: "Operator",
			ext: true, operator: true, xmlBody: true,
			description: "Operator only, outside every tenant's scope: a tenant's access token is refused (401). The caller presents a Kubernetes token (kubernetesBearer, " +
				"e.g. `kubectl create token SERVICEACCOUNT`), authenticated with a TokenReview, whose user RBAC must allow `create` on `bankfiles` in the API group `invest.fundshare.io` " +
				"(a virtual, cluster-scoped resource; the ClusterRole of config/rbac/bank_operator_role.yaml grants it). A positive answer is remembered for 10 s. " +
				"The body is a bank file the bank sent by another way than the bank connector (a camt.054, camt.053 or pain.002, at most 32 MiB): it is parsed as the bank ingestion parses it, " +
				"and a file that does not parse is refused with the parser's error (422); then it is put into the bank connector's inbound queue as if the bank had delivered it, " +
				"under name (a single plain file name; default `upload-<UTC date YYYYMMDD>-<first 16 hex digits of its SHA-256>.xml`), and the ingestion reads it at its next poll. " +
				"A file of that name already waiting or processed with the same bytes is answered as delivered and not delivered again; " +
				"a different file of that name waiting is 409. 202 once the file is in the queue, durably.",
			query: []param{qparam("name", "The file's name in the inbound queue: one plain path element (no `/`, no leading `.`, no temporary suffix such as `.part`), at most 200 bytes.", strSchema())},
			responses: these(
				answer(http.StatusAccepted, "The file is in the bank connector's inbound queue (or was there already with the same bytes).", BankFileUpload{}),
				fail(http.StatusBadRequest, "`Request rejected`: the body could not be read."),
				fail(http.StatusUnauthorized, "Unauthorized: no bearer token, a token the Kubernetes API server does not authenticate (invalid, expired or revoked), or a tenant's access token (never accepted here)."),
				fail(http.StatusForbidden, "Forbidden: RBAC does not allow the token's user `create` on `bankfiles.invest.fundshare.io`."),
				fail(http.StatusConflict, "Conflict: a different file of that name waits in the inbound queue and is kept; nothing was delivered."),
				fail(http.StatusRequestEntityTooLarge, "Request body too large (over 32 MiB)."),
				fail(http.StatusUnsupportedMediaType, "Unsupported media type: the body is not application/xml or text/xml."),
				fail(http.StatusUnprocessableEntity, "`Invalid bank file`: the file does not parse as a camt.054, camt.053 or pain.002; details are the parser's error, naming the message type, "+
					"the element path and the entry. Or `Validation error`: name is not a plain file name, or a query parameter is unknown or repeated. Nothing was delivered."),
				fail(http.StatusInternalServerError, "Internal server error; details quote the request id."),
				fail(http.StatusNotImplemented, "Not implemented: no bank connector is configured (no --bank-folder), or it does not accept uploads."),
				response{status: http.StatusServiceUnavailable, description: "Service unavailable: the Kubernetes API server could not check the token; retry.", body: ErrorResponse{}, headers: []string{"?Retry-After"}},
				fail(http.StatusGatewayTimeout, "Request timed out; the file may or may not have been delivered (an upload again with the same name and bytes delivers it once)."),
			)},
	}
}

func alias(op operation) operation {
	op.alias = true
	return op
}

func cancelOperation(path string) operation {
	return operation{method: http.MethodDelete, path: path, id: "cancelOrder", serve: (*Server).cancelOrder, summary: "Cancel an order", tag: "Orders",
		description: "The cancellation has a point of no return, decided by what has already happened outside. " +
			"BUY: cancellable in PLACED and AWAITING_PAYMENT; in PAYMENT_RECEIVED the order is cancelled with a refund of the amount paid (the `refund` object), " +
			"settled by the settlement agent; from EXECUTED on (EXECUTED, DELIVERY_INITIATED, DELIVERY_COMPLETED) 409 `Order already executed` and the order goes on to COMPLETED. " +
			"SELL: the point of no return is its first successful burn or its payout, not EXECUTED: cancellable in PLACED and REDEMPTION_GATED, and in EXECUTED while nothing was burned or paid " +
			"(no burn transaction recorded, e.g. the chain refused it because the units left the account's wallets, or the recorded one final and reverted); the reserved units are released, nothing is refunded. " +
			"A recorded burn that is not final: 409 `Burn in flight`, details naming the transaction. From the first successful burn or payout on (PAYMENT_SENT, PAYMENT_COMPLETED): 409 `Order already executed`. " +
			"The cancellation is decided on the order as stored and races with the lifecycle resolve to one outcome. " +
			"200: the order is CANCELLED. 202: the cancellation is accepted and final, but the lifecycle controller did not confirm it within 10 s (it is down): " +
			"the order is shown as it is, cancellation_requested true, and becomes CANCELLED when the controller runs. 409 `Order already COMPLETED` (or CANCELLED): " +
			"the order is terminal and nothing changed. " +
			"Also accepted with a trailing slash (`/v1/orders/{order_id}/`).",
		responses: errs(these(
			answer(http.StatusOK, "The cancelled order (with its refund when it was paid).", Order{}),
			answer(http.StatusAccepted, "Cancellation accepted, not yet confirmed by the lifecycle controller.", Order{}),
			fail(http.StatusBadRequest, "`Request rejected`: an admission rule refused the write (one of the operator's, or a policy or webhook the platform adds), details quoting it."),
			notFoundError,
			fail(http.StatusConflict, "Past the point of no return: `Order already executed`, details naming the state; a SELL's burn is recorded and not final (`Burn in flight`); the order is terminal (`Order already COMPLETED` / `Order already CANCELLED`); "+
				"its state does not belong to its side (`Order cannot be cancelled`); or it kept changing (`Conflict`). Nothing changed."),
		), commonErrors)}
}

// operationTags are the resources the operations are grouped by, in the order a reader
// meets them; every operation's tag is one of them (a test checks it).
var operationTags = openapi3.Tags{
	{Name: "Service", Description: "Health, readiness and this document; no token needed."},
	{Name: "Authentication", Description: "OAuth 2.0 client credentials: access tokens, the keys that verify them, and the metadata that lets clients discover both."},
	{Name: "Accounts", Description: "Investors: natural persons and companies, and their holdings."},
	{Name: "Wallets", Description: "Blockchain wallets registered for an account; orders deliver tokens to them."},
	{Name: "Payment method details", Description: "Bank accounts of an account for SEPA transfers."},
	{Name: "Orders", Description: "Buy and sell orders, their lifecycle and cancellation."},
	{Name: "Catalogue", Description: "Funds, share classes and NAV prices; the same for every client."},
	{Name: "Webhooks", Description: "Signed events (Standard Webhooks v1) sent to the client's endpoints, their delivery log and replay."},
	{Name: "Operator", Description: "Operator only, outside every tenant's scope: routes for the fund's operators (x-operator-only), authenticated with a Kubernetes bearer token " +
		"(kubernetesBearer: a TokenReview) and authorized by the cluster's RBAC (a SubjectAccessReview). A tenant's access token is refused (401)."},
}

// openAPIDocBody stands for the document itself in its own description.
type openAPIDocBody struct{}

// headerDocs describe the response headers.
var headerDocs = map[string]*openapi3.Schema{
	"X-Request-ID":     strSchema(),
	"Location":         strSchema(),
	"WWW-Authenticate": strSchema(),
	"Retry-After":      openapi3.NewIntegerSchema(),
	"Cache-Control":    strSchema(),
	headerReplayed:     enumSchema("true"),
}

var headerDescriptions = map[string]string{
	"X-Request-ID":     "The request's id: the caller's X-Request-ID when it sent a sane one, generated otherwise.",
	"Location":         "The path of the created object.",
	"WWW-Authenticate": "The authentication challenge (RFC 6750, or Basic on the token endpoint).",
	"Retry-After":      "Seconds until another login attempt is allowed.",
	"Cache-Control":    "no-store for tokens; public, max-age=3600 for the discovery documents.",
	headerReplayed:     "Present (true) when the answer repeats the outcome of an earlier request with the same Idempotency-Key.",
}

// openAPIDocument builds the document.
func openAPIDocument(serverURL string) *openapi3.T {
	g := &schemaSet{schemas: openapi3.Schemas{}}
	details := openapi3.NewSchemaRef("", &openapi3.Schema{
		Description: "An object mapping each field (or query parameter, or header; or the path of a repeated key) to its messages for validation errors and repeated keys; a string otherwise.",
		OneOf: openapi3.SchemaRefs{
			g.field(reflect.TypeFor[ValidationDetails](), openAPITag{}, responseMode, false),
			openapi3.NewSchemaRef("", openapi3.NewStringSchema()),
		},
	})
	g.schemas["ErrorDetails"] = details
	g.ref(reflect.TypeFor[ErrorResponse]())

	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{
			Title:   "Fund Share Investment Service",
			Version: "v1",
			Description: "Accounts, registered blockchain wallets, payment method details, orders and the fund catalogue. " +
				"Every field of the specification keeps its name; operations marked x-extension are not in the specification. " +
				"Money is in micro-units (1 EUR = 10,000), rates in rate units (100% = 10,000). Every error has the body {error, details}.",
			Contact: &openapi3.Contact{Name: "fundshare-operator maintainers", URL: "https://github.com/fundshare/fundshare-operator"},
		},
		Servers: openapi3.Servers{{URL: serverURL}},
		Tags:    operationTags,
		Paths:   openapi3.NewPaths(),
		Components: &openapi3.Components{
			Schemas: g.schemas,
			SecuritySchemes: openapi3.SecuritySchemes{
				"bearerAuth": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer", BearerFormat: "JWT",
					Description: "An access token from POST /oauth2/token in `Authorization: Bearer <token>`."}},
				"kubernetesBearer": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
					Description: "Operator routes only: a Kubernetes token the cluster's API server authenticates (a TokenReview), such as `kubectl create token SERVICEACCOUNT`, " +
						"in `Authorization: Bearer <token>`; RBAC authorizes its user (a SubjectAccessReview). Never a tenant's access token."}},
				"oauth2": {Value: &openapi3.SecurityScheme{Type: "oauth2",
					Description: "OAuth 2.0 client credentials; send audience = the host name of the base URL as an extra form field.",
					Flows: &openapi3.OAuthFlows{ClientCredentials: &openapi3.OAuthFlow{
						TokenURL: strings.TrimSuffix(serverURL, "/") + "/oauth2/token",
						Scopes:   openapi3.StringMap{"openid": "granted to every token (the default scope)", "offline": "granted to every token (the default scope)"},
					}}}},
			},
		},
		Security: openapi3.SecurityRequirements{{"bearerAuth": []string{}}, {"oauth2": []string{}}},
	}
	for _, op := range operations() {
		if op.alias {
			continue
		}
		// Every route refuses unknown, repeated or badly encoded query parameters with 422
		// (strictQuery), the token endpoint excepted (OAuth error shape).
		if op.path != "/oauth2/token" && !slices.ContainsFunc(op.responses, func(r response) bool {
			return r.status == http.StatusUnprocessableEntity
		}) {
			op.responses = append(op.responses, queryError)
		}
		doc.AddOperation(op.path, op.method, op.build(g))
		if op.method == http.MethodGet {
			doc.AddOperation(op.path, http.MethodHead, headOperation(op.build(g)))
		}
	}
	return doc
}

// headOperation is the HEAD twin of a GET operation: the same answers without a body.
func headOperation(get *openapi3.Operation) *openapi3.Operation {
	head := *get
	head.OperationID = "head" + strings.ToUpper(get.OperationID[:1]) + get.OperationID[1:]
	head.Summary = get.Summary + " (headers only)"
	head.Description = "HEAD: the answer of GET without its body."
	head.Responses = openapi3.NewResponsesWithCapacity(get.Responses.Len())
	for code, ref := range get.Responses.Map() {
		resp := *ref.Value
		resp.Content = nil
		head.Responses.Set(code, &openapi3.ResponseRef{Value: &resp})
	}
	return &head
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

func (op operation) build(g *schemaSet) *openapi3.Operation {
	o := &openapi3.Operation{OperationID: op.id, Summary: op.summary, Description: op.description, Tags: []string{op.tag}}
	if op.ext {
		o.Extensions = map[string]any{"x-extension": true}
	}
	if op.public {
		o.Security = &openapi3.SecurityRequirements{}
	}
	if op.operator {
		o.Security = &openapi3.SecurityRequirements{{"kubernetesBearer": []string{}}}
		if o.Extensions == nil {
			o.Extensions = map[string]any{}
		}
		o.Extensions["x-operator-only"] = true
	}
	for _, m := range pathParam.FindAllStringSubmatch(op.path, -1) {
		s := patternSchema(uuidPattern)
		s.Format = "uuid"
		desc := "A lowercase UUID."
		if m[1] == "isin" {
			s, desc = patternSchema(isinPattern), "ISIN of a share class, any letter case."
		}
		o.Parameters = append(o.Parameters, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(m[1]).WithDescription(desc).WithSchema(s)})
	}
	for _, p := range op.query {
		o.Parameters = append(o.Parameters, &openapi3.ParameterRef{Value: &openapi3.Parameter{
			Name: p.name, In: p.in, Description: p.description, Schema: openapi3.NewSchemaRef("", p.schema),
		}})
	}
	if op.method == http.MethodPost && !op.public && !op.operator {
		max := uint64(maxIdempotencyKey)
		key := openapi3.NewStringSchema().WithPattern(`^[\x21-\x7e]+$`)
		key.MinLength, key.MaxLength = 1, &max
		o.Parameters = append(o.Parameters, &openapi3.ParameterRef{Value: &openapi3.Parameter{
			Name: headerIdempotencyKey, In: openapi3.ParameterInHeader, Schema: openapi3.NewSchemaRef("", key),
			Description: "Makes the request safe to retry: 1 to 255 visible ASCII characters, unique per request you mean to make once.",
		}})
	}
	if op.xmlBody {
		file := openapi3.NewStringSchema()
		file.Format = "binary"
		content := openapi3.Content{}
		for _, mt := range bankFileMediaTypes {
			content[mt] = openapi3.NewMediaType().WithSchema(file)
		}
		o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(content).
			WithDescription("The bank file, as the bank delivered it.")}
	}
	if op.body != nil {
		ref := g.ref(reflect.TypeOf(op.body))
		content := openapi3.Content{}
		if op.form {
			content["application/x-www-form-urlencoded"] = openapi3.NewMediaType().WithSchemaRef(ref)
		} else {
			content["application/json"] = openapi3.NewMediaType().WithSchemaRef(ref)
			if op.mergePatch {
				content["application/merge-patch+json"] = openapi3.NewMediaType().WithSchemaRef(ref)
			}
		}
		o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(content)}
	}
	o.Responses = openapi3.NewResponsesWithCapacity(len(op.responses))
	for _, r := range op.responses {
		code := strconv.Itoa(r.status)
		if prev := o.Responses.Value(code); prev != nil {
			// Several reasons for one status: one response, the descriptions joined.
			d := *prev.Value.Description + " Or: " + r.description
			prev.Value.Description = &d
			continue
		}
		resp := openapi3.NewResponse().WithDescription(r.description)
		resp.Headers = openapi3.Headers{"X-Request-ID": header("X-Request-ID", true)}
		for _, h := range r.headers {
			name, optional := strings.CutPrefix(h, "?")
			resp.Headers[name] = header(name, !optional)
		}
		switch body := r.body.(type) {
		case nil:
		case openAPIDocBody:
			resp.Content = openapi3.NewContentWithJSONSchema(&openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}})
		default:
			resp.Content = openapi3.NewContentWithJSONSchemaRef(g.ref(reflect.TypeOf(body)))
		}
		o.Responses.Set(code, &openapi3.ResponseRef{Value: resp})
	}
	return o
}

func header(name string, required bool) *openapi3.HeaderRef {
	return &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
		Description: headerDescriptions[name], Required: required, Schema: openapi3.NewSchemaRef("", headerDocs[name]),
	}}}
}
