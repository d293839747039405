package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
	"github.com/fundshare/fundshare-operator/internal/refusal"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

var gvkOrder = investv1.GroupVersion.WithKind("Order")

// orderStates are the eleven statuses of the spec.
var orderStates = []string{
	string(investv1.StatePlaced), string(investv1.StateAwaitingPayment), string(investv1.StatePaymentReceived),
	string(investv1.StateDeliveryInitiated), string(investv1.StateDeliveryCompleted), string(investv1.StatePaymentSent),
	string(investv1.StatePaymentCompleted), string(investv1.StateRedemptionGated), string(investv1.StateExecuted),
	string(investv1.StateCompleted), string(investv1.StateCancelled),
}

// orderRenames report the API server's causes on an Order under the REST field names.
var orderRenames = map[string]string{
	"amountOfUnits": "amount_of_units", "accountID": "account_id", "walletID": "wallet_id",
	"paymentMethodDetailsID": "payment_method_details_id", "customOfferingID": "custom_offering_id",
	"settlementType": "settlement_type", "amount": "amount",
}

// GET /v1/orders: filters side, market, order_status, account_type, account_id, currency,
// isin; cursor, skip, limit. The answer is newest first (creation time, then id,
// descending) across live orders (the cache) and archived ones (the order archive), which
// merge into one sequence; next_cursor continues after the page's last order, stable
// while orders are placed or archived meanwhile. Live orders are read through the most
// selective index the filters allow (account, ISIN, status, or the accounts of the type);
// without a filter through the live order index, a page at a time (O(limit)). The archive
// is read only for the part of the page the live orders do not fill (archivedRange).
func (s *Server) listOrders(w http.ResponseWriter, r *http.Request) {
	lq, fe := parseOrderListQuery(r)
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	ctx, ns := r.Context(), tenantOf(r)
	if err := s.tracker.Wait(ctx, ns, gvkOrder, gvkAccount); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	need := lq.page.skip + lq.page.limit + 1 // one more tells whether a next page exists
	live, err := s.liveOrders(ctx, ns, lq.filter, lq.cursor, need)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	archived, err := s.archivedOrders(ctx, ns, lq.filter, archivedRange(lq.cursor, live, need), need)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	writeJSON(w, http.StatusOK, orderListPage(live, archived, lq.page))
}

// orderListQuery is what GET /v1/orders asks for.
type orderListQuery struct {
	filter orderFilter
	cursor *archive.Position // nil: from the newest order
	page   page
}

// parseOrderListQuery reads the query of GET /v1/orders; every unknown, repeated or
// invalid parameter is a field message.
func parseOrderListQuery(r *http.Request) (orderListQuery, validation.FieldErrors) {
	q := parseQuery(r, append([]string{"side", "market", "order_status", "account_type", "account_id", "currency", "isin", "cursor"}, pageParams...)...)
	lq := orderListQuery{filter: orderFilter{
		side:        q.enum("side", string(investv1.SideBuy), string(investv1.SideSell)),
		market:      q.enum("market", string(investv1.MarketPrimary), string(investv1.MarketSecondary)),
		status:      q.enum("order_status", orderStates...),
		accountType: q.enum("account_type", string(investv1.AccountTypeIndividual), string(investv1.AccountTypeBusiness)),
		accountID:   q.uuid("account_id"),
		currency:    q.pattern("currency", currencyPattern, "three uppercase letters (^[A-Z]{3}$)"),
		isin:        strings.ToUpper(q.str("isin")),
	}}
	if c := q.str("cursor"); c != "" {
		pos, err := archive.DecodeCursor(c)
		if err != nil {
			q.fe.Add("cursor", "is not a cursor this list returned (use next_cursor of a previous page)")
		} else {
			lq.cursor = &pos
		}
	}
	lq.page = q.page()
	return lq, q.fe
}

// archivedRange is the part of the archive that can be on a page after cursor whose need
// newest live orders are live: when they fill it, only archived orders newer than its last
// live one can be on it, so a page of recent orders reads no archived row at all (the
// unfiltered list costs the same with a million archived orders as with none). Live
// orders come along, so that an archived order still live (archived, not yet deleted)
// is passed over there and counts once, as its live copy.
func archivedRange(cursor *archive.Position, live []investv1.Order, need int) archivedQuery {
	q := archivedQuery{after: cursor, live: make(map[string]bool, len(live))}
	for i := range live {
		q.live[live[i].Name] = true
	}
	if len(live) >= need && need > 0 {
		last := &live[need-1]
		q.until = &archive.Position{Created: last.CreationTimestamp.UTC(), ID: last.Name}
	}
	return q
}

// archivedQuery is the range of the archive a list page reads: strictly after after (nil:
// from the newest), strictly before until (nil: to the oldest), without the orders live
// names.
type archivedQuery struct {
	after, until *archive.Position
	live         map[string]bool
}

// orderListPage is the page p of the live and archived orders merged newest first (an
// order in both counts once), with next_cursor after its last order when more follow.
func orderListPage(live, archived []investv1.Order, p page) OrderList {
	merged := mergeNewestFirst(live, archived)
	more := len(merged) > p.skip+p.limit
	merged = merged[min(p.skip, len(merged)):]
	merged = merged[:min(p.limit, len(merged))]
	out := OrderList{Data: make([]OrderListItem, 0, len(merged))}
	for i := range merged {
		out.Data = append(out.Data, orderListItemView(&merged[i]))
	}
	if more && len(merged) > 0 {
		last := &merged[len(merged)-1]
		out.NextCursor = archive.EncodeCursor(archive.Position{Created: last.CreationTimestamp.UTC(), ID: last.Name})
	}
	return out
}

// orderFilter is the filters of GET /v1/orders; "" matches anything.
type orderFilter struct {
	side, market, status, accountType, accountID, currency, isin string
}

func (f orderFilter) empty() bool { return f == orderFilter{} }

// liveOrders returns up to n of the tenant's live orders that match f, newest first,
// strictly after cursor.
func (s *Server) liveOrders(ctx context.Context, ns string, f orderFilter, cursor *archive.Position, n int) ([]investv1.Order, error) {
	if f.empty() && s.liveIndex.ready() {
		return s.liveOrdersByIndex(ctx, ns, cursor, n)
	}
	var ofType map[string]bool
	if f.accountType != "" {
		var accounts investv1.AccountList
		if err := s.deps.Reader.List(ctx, &accounts, client.InNamespace(ns), client.MatchingFields{index.AccountType: f.accountType}); err != nil {
			return nil, err
		}
		ofType = make(map[string]bool, len(accounts.Items))
		for _, a := range accounts.Items {
			if string(a.Spec.Type) == f.accountType {
				ofType[a.Name] = true
			}
		}
	}
	// The orders are only read (filtered, sorted by position and turned into views), so
	// they are the cache's own, not deep copies: the list answers with one shallow copy
	// per order instead of a deep one.
	listBy := func(field, value string) ([]investv1.Order, error) {
		var list investv1.OrderList
		opts := []client.ListOption{client.InNamespace(ns), client.UnsafeDisableDeepCopy}
		if field != "" {
			opts = append(opts, client.MatchingFields{field: value})
		}
		err := s.deps.Reader.List(ctx, &list, opts...)
		return list.Items, err
	}
	var orders []investv1.Order
	var err error
	switch {
	case f.accountID != "":
		orders, err = listBy(index.OrderAccount, f.accountID)
	case f.isin != "":
		orders, err = listBy(index.OrderISIN, f.isin)
	case f.status != "":
		orders, err = listBy(index.OrderState, f.status)
	case f.accountType != "":
		for id := range ofType {
			var more []investv1.Order
			if more, err = listBy(index.OrderAccount, id); err != nil {
				break
			}
			orders = append(orders, more...)
		}
	default:
		orders, err = listBy("", "")
	}
	if err != nil {
		return nil, err
	}
	items := orders[:0]
	for _, o := range orders {
		if (f.side == "" || string(o.Spec.Side) == f.side) && (f.market == "" || string(o.Spec.Market) == f.market) &&
			(f.status == "" || index.OrderStateKey(&o) == f.status) && (f.accountID == "" || string(o.Spec.AccountID) == f.accountID) &&
			(f.currency == "" || string(o.Spec.Currency) == f.currency) && (f.isin == "" || string(o.Spec.ISIN) == f.isin) &&
			(ofType == nil || ofType[string(o.Spec.AccountID)]) && (cursor == nil || positionOf(&o).after(*cursor)) {
			items = append(items, o)
		}
	}
	slices.SortFunc(items, func(a, b investv1.Order) int { return comparePositions(positionOf(&a), positionOf(&b)) })
	return items[:min(n, len(items))], nil
}

// liveOrdersByIndex reads a page of the tenant's live orders through the live order
// index: n entries from the cursor on, each read from the cache. An entry whose order the
// cache no longer has (deleted a moment ago; the archive has it) is passed over.
func (s *Server) liveOrdersByIndex(ctx context.Context, ns string, cursor *archive.Position, n int) ([]investv1.Order, error) {
	out := make([]investv1.Order, 0, n)
	for len(out) < n {
		positions := s.liveIndex.page(ns, cursor, n-len(out))
		if len(positions) == 0 {
			return out, nil
		}
		for _, pos := range positions {
			var o investv1.Order
			err := s.deps.Reader.Get(ctx, client.ObjectKey{Namespace: ns, Name: pos.id}, &o, client.UnsafeDisableDeepCopy)
			switch {
			case apierrors.IsNotFound(err):
				continue
			case err != nil:
				return nil, err
			}
			out = append(out, o)
		}
		last := positions[len(positions)-1]
		cursor = &archive.Position{Created: timeOfUnix(last.created), ID: last.id}
	}
	return out, nil
}

// archivedOrders returns up to n of the tenant's archived orders that match f in the range
// r, newest first, leaving out those r names as live; none when there is no archive or the
// filter names a state no archived order is in (they are all terminal).
func (s *Server) archivedOrders(ctx context.Context, ns string, f orderFilter, r archivedQuery, n int) ([]investv1.Order, error) {
	if s.deps.Archive == nil || (f.status != "" && !investv1.OrderState(f.status).Terminal()) {
		return nil, nil
	}
	q := archive.Query{Filter: archive.Filter{
		Side: investv1.OrderSide(f.side), Market: investv1.Market(f.market), State: investv1.OrderState(f.status),
		AccountType: investv1.AccountType(f.accountType), AccountID: investv1.ObjectID(f.accountID),
		Currency: investv1.CurrencyCode(f.currency), ISIN: investv1.ISIN(f.isin),
	}, Until: r.until}
	if r.after != nil {
		q.Cursor = archive.EncodeCursor(*r.after)
	}
	var out []investv1.Order
	for len(out) < n {
		q.Limit = min(n-len(out), archive.MaxLimit)
		page, err := s.deps.Archive.List(ctx, ns, q)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Orders {
			if !r.live[o.Name] {
				out = append(out, o)
			}
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	return out, nil
}

// mergeNewestFirst merges two newest-first lists into one; an order in both (archived
// and not yet deleted from the cluster) appears once, as the live copy.
func mergeNewestFirst(live, archived []investv1.Order) []investv1.Order {
	inLive := make(map[string]bool, len(live))
	for i := range live {
		inLive[live[i].Namespace+"/"+live[i].Name] = true
	}
	out := make([]investv1.Order, 0, len(live)+len(archived))
	i, j := 0, 0
	for i < len(live) || j < len(archived) {
		if j < len(archived) && inLive[archived[j].Namespace+"/"+archived[j].Name] {
			j++
			continue
		}
		if j >= len(archived) || (i < len(live) && comparePositions(positionOf(&live[i]), positionOf(&archived[j])) <= 0) {
			out = append(out, live[i])
			i++
			continue
		}
		out = append(out, archived[j])
		j++
	}
	return out
}

// comparePositions orders positions newest first.
func comparePositions(a, b orderPosition) int {
	switch {
	case a.before(b):
		return -1
	case b.before(a):
		return 1
	}
	return 0
}

// order reads the tenant's order of the path; it answers 404 itself and returns nil when
// there is none.
func (s *Server) order(w http.ResponseWriter, r *http.Request) *investv1.Order {
	id := chi.URLParam(r, "order_id")
	var o investv1.Order
	err := s.get(r.Context(), tenantOf(r), id, &o, gvkOrder)
	if apierrors.IsNotFound(err) && err != errNoSuchID { //nolint:errorlint // the sentinel itself
		// Not in the cluster: the order may have been archived. The cache was read
		// first, so an order deleted from the cluster is archived already.
		var archived *investv1.Order
		if archived, err = s.archivedOrder(r.Context(), tenantOf(r), id); err == nil {
			return archived
		}
	}
	if s.readFailed(w, r, err, nil, resOrder, id) {
		return nil
	}
	return &o
}

// archivedOrder reads the tenant's archived order id; a NotFound error (as from the API
// server) when there is no archive or it has no such order.
func (s *Server) archivedOrder(ctx context.Context, ns, id string) (*investv1.Order, error) {
	if s.deps.Archive == nil {
		return nil, apierrors.NewNotFound(investv1.GroupVersion.WithResource("orders").GroupResource(), id)
	}
	o, err := s.deps.Archive.Get(ctx, ns, id)
	if errors.Is(err, archive.ErrNotFound) {
		return nil, apierrors.NewNotFound(investv1.GroupVersion.WithResource("orders").GroupResource(), id)
	}
	return o, err
}

// GET /v1/orders/{order_id} (extension): the full order.
func (s *Server) getOrder(w http.ResponseWriter, r *http.Request) {
	if o := s.order(w, r); o != nil {
		writeJSON(w, http.StatusOK, orderView(o))
	}
}

// POST /v1/orders (extension). Placement is checked here first, with the readers the
// admission webhook uses, so that each refusal gets its precise answer (404 for an
// unknown account or share class, 422 for fields, 400 for a business rule); admission
// checks again and fixes the quote when the order is created.
func (s *Server) createOrder(w http.ResponseWriter, r *http.Request) {
	var req OrderCreateRequest
	idem, fe, ok := decodeCreate(w, r, &req, createSpec{refused: map[string]string{
		"id": "is assigned by the service", "status": "is set by the system", "created": "is assigned by the service",
	}, firstProblemOnly: true})
	if !ok {
		return
	}
	fe = s.quantityRule(r.Context(), &req, fe)
	if !fe.Empty() {
		writeValidation(w, fe)
		return
	}
	spec, _ := orderSpec(&req) // checked by Validate and quantityRule

	ctx, ns := r.Context(), tenantOf(r)
	name := newID()
	if idem != nil {
		name = idem.name(ns, gvkOrder)
		// A retry must not be placed again: its own reservation would refuse a sell.
		if s.replayOrder(w, r, idem, name) {
			return
		}
	}
	o := &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	// Placement reads the account's orders for its holdings: this process's writes first.
	if err := s.tracker.Wait(ctx, ns, gvkOrder, gvkAccount, gvkWallet, gvkPaymentMethod); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	res, err := placement.Place(ctx, placement.Readers{Cache: s.deps.Reader, Live: s.deps.APIReader, Archive: s.placementArchive()}, o, s.deps.Now())
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	if writePlacementRefusal(w, res) {
		return
	}
	idem.annotate(o)
	if err := s.deps.Writer.Create(ctx, o, fieldOwner); err != nil {
		switch {
		case apierrors.IsAlreadyExists(err) && s.replayOrder(w, r, idem, name):
		case hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.accountID"):
			writeNotFound(w, resAccount, string(spec.AccountID))
		case hasCause(err, metav1.CauseTypeFieldValueNotFound, "spec.isin"):
			writeNotFoundBy(w, resShareClass, "isin", string(spec.ISIN))
		default:
			if code, msg, ok := refusal.RuleOf(err); ok {
				writeError(w, http.StatusBadRequest, code, msg)
				return
			}
			s.writeAPIError(w, r, err, orderRenames)
		}
		return
	}
	s.tracker.Written(o)
	s.liveIndex.add(o)
	w.Header().Set("Location", "/v1/orders/"+o.Name)
	writeJSON(w, http.StatusCreated, orderView(o))
}

// quantityRule applies placement.CheckQuantity to the request: for a share class with
// forward pricing a BUY gives exactly one of amount and amount_of_units (both or neither
// name both fields) and a SELL amount_of_units; amount is refused for a latest-priced
// share class. A request without amount for a latest-priced (or unknown) share class
// keeps the request's own messages, so those answers are what they always were.
func (s *Server) quantityRule(ctx context.Context, req *OrderCreateRequest, fe validation.FieldErrors) validation.FieldErrors {
	forward := false
	if req.ISIN != nil {
		// A class made a moment ago may not be in the cache yet: the API server is asked.
		classes, err := index.ShareClassesOf(ctx, investv1.ISIN(strings.ToUpper(*req.ISIN)), s.deps.Reader, s.deps.APIReader)
		if err == nil && len(classes.Items) > 0 {
			forward = placement.Forward(&classes.Items[0])
		}
	}
	if !forward && req.Amount == nil {
		return fe
	}
	out := validation.FieldErrors{}
	for k, msgs := range fe {
		for _, m := range msgs {
			if k == "amount_of_units" && m == "is required" {
				continue // the quantity rule says it
			}
			out.Add(k, m)
		}
	}
	side := investv1.OrderSide(deref(req.Side))
	for k, msgs := range placement.CheckQuantity(side, forward, req.Amount != nil, req.AmountOfUnits != nil) {
		for _, m := range msgs {
			out.Add(k, m)
		}
	}
	return out
}

// orderSpec checks the request's own fields and builds the spec; ids are accepted in any
// letter case, ISINs too.
func orderSpec(req *OrderCreateRequest) (investv1.OrderSpec, validation.FieldErrors) {
	var fe validation.FieldErrors
	required(&fe, "side", req.Side)
	required(&fe, "market", req.Market)
	required(&fe, "isin", req.ISIN)
	if req.Amount == nil {
		required(&fe, "amount_of_units", req.AmountOfUnits)
	}
	required(&fe, "currency", req.Currency)
	required(&fe, "account_id", req.AccountID)
	oneOf := func(name string, v *string, values ...string) {
		if v != nil && !slices.Contains(values, *v) {
			fe.Add(name, "must be one of "+strings.Join(values, ", "))
		}
	}
	oneOf("side", req.Side, string(investv1.SideBuy), string(investv1.SideSell))
	oneOf("market", req.Market, string(investv1.MarketPrimary), string(investv1.MarketSecondary))
	oneOf("settlement_type", req.SettlementType, string(investv1.SettlementBearer), string(investv1.SettlementClaimable))
	if n := req.AmountOfUnits; n != nil && (*n < 1 || *n > maxOrderUnits) {
		fe.Add("amount_of_units", fmt.Sprintf("must be between 1 and %d", int64(maxOrderUnits)))
	}
	if n := req.Amount; n != nil && (*n < 1 || *n > maxOrderAmount) {
		fe.Add("amount", fmt.Sprintf("must be between 1 and %d (micro-units: 1 EUR = 10,000)", int64(maxOrderAmount)))
	}
	if c := req.Currency; c != nil && !currencyPattern.MatchString(*c) {
		fe.Add("currency", "must be three uppercase letters (^[A-Z]{3}$)")
	}
	isin := strings.ToUpper(deref(req.ISIN))
	if req.ISIN != nil {
		fe.AddErr("isin", validation.ValidateISIN(isin))
	}
	id := func(name string, v *string) investv1.ObjectID {
		if v == nil {
			return ""
		}
		s := lower(*v)
		if !validation.IsLowercaseUUID(s) {
			fe.Add(name, msgUUID)
		}
		return investv1.ObjectID(s)
	}
	spec := investv1.OrderSpec{
		Side: investv1.OrderSide(deref(req.Side)), Market: investv1.Market(deref(req.Market)),
		ISIN: investv1.ISIN(isin), AmountOfUnits: deref(req.AmountOfUnits), Amount: deref(req.Amount), Currency: investv1.CurrencyCode(deref(req.Currency)),
		AccountID: id("account_id", req.AccountID), SettlementType: investv1.SettlementType(deref(req.SettlementType)),
		WalletID: id("wallet_id", req.WalletID), PaymentMethodDetailsID: id("payment_method_details_id", req.PaymentMethodDetailsID),
		CustomOfferingID: id("custom_offering_id", req.CustomOfferingID),
	}
	if spec.SettlementType == "" {
		spec.SettlementType = investv1.SettlementBearer
	}
	return spec, fe
}

// maxOrderUnits is the CRD's bound on amountOfUnits.
const maxOrderUnits = 1_000_000_000_000

// maxOrderAmount is the CRD's bound on amount.
const maxOrderAmount = 1_000_000_000_000_000

// writePlacementRefusal answers a refused placement; false when the order can be placed.
func writePlacementRefusal(w http.ResponseWriter, res placement.Result) bool {
	switch {
	case res.NotFound != nil:
		key := "id"
		if res.NotFound.Resource == resShareClass {
			key = "isin"
		}
		writeNotFoundBy(w, res.NotFound.Resource, key, res.NotFound.ID)
	case !res.Fields.Empty():
		writeValidation(w, res.Fields)
	case res.Rule != nil:
		writeError(w, http.StatusBadRequest, res.Rule.Code, res.Rule.Message)
	default:
		return false
	}
	return true
}

// replayOrder answers a request with an Idempotency-Key whose order exists under name:
// the retry gets the order as it is now; a key used for another request 422; an order
// not created with the key (named so by chance or by hand) a 409.
func (s *Server) replayOrder(w http.ResponseWriter, r *http.Request, idem *idempotency, name string) bool {
	if idem == nil {
		return false
	}
	o := &investv1.Order{}
	m, found, err := s.existing(r.Context(), idem, o, tenantOf(r), name)
	if err == nil && !found {
		// The order may have been archived since: its retry is answered from there, and
		// never placed again. Read after the API server: one deleted between is archived.
		switch archived, aerr := s.archivedOrder(r.Context(), tenantOf(r), name); {
		case aerr == nil:
			o, m, found = archived, idem.match(archived), true
		case !apierrors.IsNotFound(aerr):
			err = aerr
		}
	}
	switch {
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return true
	case !found:
		return false
	case m == matchNone:
		writeError(w, http.StatusConflict, msgConflict, "an order with id "+name+" exists and was not created with this Idempotency-Key")
		return true
	}
	return s.answerReplay(w, m, "/v1/orders/"+o.Name, func() any { return orderView(o) })
}

// defaultCancelWait bounds how long DELETE waits for the controller to cancel an order
// whose cancellation it accepted.
const defaultCancelWait = 10 * time.Second

// cancelPoll is how often that wait looks at the cache.
const cancelPoll = 20 * time.Millisecond

// DELETE /v1/orders/{order_id} (and with a trailing slash): cancel an order.
//
// The request is decided on the order as the API server has it: a terminal order answers
// 409 naming its state; otherwise spec.cancellationRequested is set with a merge patch
// that carries the resourceVersion read, so that it only lands on the version the
// decision was made on. When the order changed meanwhile (the controller moved it) the
// patch is refused, and the order is read and decided again; admission refuses a request
// on a terminal order as well. An accepted request is final: cancellation has priority
// over every other move and each controller write is guarded by the version it read, so
// the controller moves the order to CANCELLED next. The answer waits for that (200 with
// the cancelled order); should the controller not get to it within the wait (it is down),
// the answer is 202 with the order as it is, cancellation_requested true.
func (s *Server) cancelOrder(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "order_id")
	if !validation.IsLowercaseUUID(id) {
		writeNotFound(w, resOrder, id)
		return
	}
	o, ok := s.requestCancellation(w, r, client.ObjectKey{Namespace: tenantOf(r), Name: id})
	if !ok {
		return
	}
	final, err := s.awaitCancelled(r.Context(), o)
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	switch final.Status.State {
	case investv1.StateCancelled:
		writeJSON(w, http.StatusOK, orderView(final))
	case investv1.StateCompleted:
		// Cannot happen while the controller honours the priority of cancellations; if it
		// did, the truth is that the order was not cancelled.
		s.deps.Log.Error(nil, "an order whose cancellation was accepted completed", "namespace", o.Namespace, "order", o.Name,
			"request_id", requestIDFrom(r.Context()))
		_, _, reason := lifecycle.Cancellable(final)
		writeNotCancellable(w, final, reason, time.Time{})
	default:
		writeJSON(w, http.StatusAccepted, orderView(final))
	}
}

// requestCancellation sets spec.cancellationRequested on the order as stored, re-reading
// it after a concurrent change, and returns it; when it cannot, it answers and returns
// false.
func (s *Server) requestCancellation(w http.ResponseWriter, r *http.Request, key client.ObjectKey) (*investv1.Order, bool) {
	ctx := r.Context()
	for attempt := 1; ; attempt++ {
		cur := &investv1.Order{}
		if err := s.deps.APIReader.Get(ctx, key, cur); err != nil {
			s.writeCancelReadError(w, r, key, err)
			return nil, false
		}
		switch step, reason := decideCancelAt(cur, s.deps.Now()); step {
		case cancelRefuse:
			writeNotCancellable(w, cur, reason, s.deps.Now())
			return nil, false
		case cancelRequested:
			return cur, true // requested before; the answer is the same
		}
		before := cur.DeepCopy()
		cur.Spec.CancellationRequested = true
		err := s.deps.Writer.Patch(ctx, cur, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}), fieldOwner)
		if err == nil {
			s.tracker.Written(cur)
			return cur, true
		}
		switch cancelPatchFailed(err, attempt) {
		case retryReread: // admission saw the order past the point of no return: the next read answers
		case retryBackOff:
			if err := backoff(ctx, attempt); err != nil {
				s.writeAPIError(w, r, err, nil)
				return nil, false
			}
		case retryNotFound:
			writeNotFound(w, resOrder, key.Name)
			return nil, false
		case retryGiveUp:
			writeError(w, http.StatusConflict, msgConflict, "the order kept changing while the cancellation was requested; retry the request")
			return nil, false
		default:
			s.writeAPIError(w, r, err, nil)
			return nil, false
		}
	}
}

// writeCancelReadError answers a cancellation whose order could not be read: an order
// that is no longer live may be archived, and an archived order is done, so it is refused
// like any terminal order.
func (s *Server) writeCancelReadError(w http.ResponseWriter, r *http.Request, key client.ObjectKey, err error) {
	if !apierrors.IsNotFound(err) {
		s.writeAPIError(w, r, err, nil)
		return
	}
	if archived, err := s.archivedOrder(r.Context(), key.Namespace, key.Name); !s.readFailed(w, r, err, nil, resOrder, key.Name) {
		_, _, reason := lifecycle.Cancellable(archived)
		writeNotCancellable(w, archived, reason, time.Time{})
	}
}

// cancelStep is what a cancellation does with the order as stored.
type cancelStep int

const (
	// cancelRequest: set spec.cancellationRequested.
	cancelRequest cancelStep = iota
	// cancelRequested: it was requested before; the cancellation awaits the outcome.
	cancelRequested
	// cancelRefuse: the order cannot be cancelled (terminal, past the point of no return):
	// 409 with the reason.
	cancelRefuse
)

// decideCancel decides the cancellation of the order as stored, without the clock (a
// forward order's cut-off is not checked); the reason is set for cancelRefuse.
func decideCancel(o *investv1.Order) (cancelStep, string) { return decideCancelAt(o, time.Time{}) }

// decideCancelAt decides the cancellation of the order as stored, requested at now: a
// forward order past its cut-off is refused (lifecycle.CancellableAt).
func decideCancelAt(o *investv1.Order, now time.Time) (cancelStep, string) {
	if ok, _, reason := lifecycle.CancellableAt(o, now); !ok {
		return cancelRefuse, reason
	}
	if o.Spec.CancellationRequested {
		return cancelRequested, ""
	}
	return cancelRequest, ""
}

// cancelPatchFailed decides what the cancellation does after its patch, attempt number
// attempt, failed with err: a conflict is retried (at once when admission found the
// order past the point of no return, so that the next read answers with its state) until
// maxWriteAttempts.
func cancelPatchFailed(err error, attempt int) retryStep {
	switch {
	case apierrors.IsNotFound(err):
		return retryNotFound
	case !apierrors.IsConflict(err):
		return retryFail
	case attempt >= maxWriteAttempts:
		return retryGiveUp
	case refusal.IsNotCancellable(err):
		return retryReread
	default:
		return retryBackOff
	}
}

// awaitCancelled waits, within the cancel wait, until the order is terminal in the cache,
// and returns it; after the wait it returns the order as the API server has it.
func (s *Server) awaitCancelled(ctx context.Context, o *investv1.Order) (*investv1.Order, error) {
	wait := s.cancelWait
	if wait == 0 {
		wait = defaultCancelWait
	}
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	tick := time.NewTicker(cancelPoll)
	defer tick.Stop()
	key := client.ObjectKeyFromObject(o)
	for {
		cur := &investv1.Order{}
		err := s.deps.Reader.Get(ctx, key, cur)
		switch {
		case err == nil && cur.Status.State.Terminal():
			return cur, nil
		case err != nil && !apierrors.IsNotFound(err):
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout.C:
			cur := &investv1.Order{}
			if err := s.deps.APIReader.Get(ctx, key, cur); err != nil {
				return nil, err
			}
			return cur, nil
		case <-tick.C:
		}
	}
}

// Errors of a refused cancellation (409).
const (
	// msgOrderExecuted: the order is past the point of no return (lifecycle.Cancellable).
	msgOrderExecuted = "Order already executed"
	// msgBurnInFlight: a SELL's recorded burn is not final yet (lifecycle.Cancellable).
	msgBurnInFlight = "Burn in flight"
	// msgOrderNotCancellable: the order is in a state that does not belong to its side.
	msgOrderNotCancellable = "Order cannot be cancelled"
	// msgSubmittedForDealing: a forward order's cut-off passed (lifecycle.CancellableAt).
	msgSubmittedForDealing = "Order submitted for dealing"
)

// writeNotCancellable answers a cancellation that lifecycle.Cancellable refuses, with
// reason (which names the state): a terminal order "Order already COMPLETED" or
// "Order already CANCELLED"; an order past the point of no return "Order already
// executed"; a SELL whose burn is recorded and not final "Burn in flight".
//
// now is when the cancellation was requested: a forward order past its cut-off answers
// "Order submitted for dealing" (zero: the cut-off is not checked).
func writeNotCancellable(w http.ResponseWriter, o *investv1.Order, reason string, now time.Time) {
	state := o.Status.State
	switch lifecycle.CancelRefusalAt(o, now) {
	case lifecycle.RefusalSubmittedForDealing:
		writeError(w, http.StatusConflict, msgSubmittedForDealing, fmt.Sprintf("order %s: %s", o.Name, reason))
	case lifecycle.RefusalTerminal:
		writeError(w, http.StatusConflict, "Order already "+string(state),
			fmt.Sprintf("order %s is %s, a terminal state: it cannot be cancelled", o.Name, state))
	case lifecycle.RefusalPastPointOfNoReturn:
		writeError(w, http.StatusConflict, msgOrderExecuted, fmt.Sprintf("order %s: %s", o.Name, reason))
	case lifecycle.RefusalBurnInFlight:
		writeError(w, http.StatusConflict, msgBurnInFlight, fmt.Sprintf("order %s: %s", o.Name, reason))
	default:
		writeError(w, http.StatusConflict, msgOrderNotCancellable, fmt.Sprintf("order %s: %s", o.Name, reason))
	}
}

// GET /v1/accounts/{account_id}/portfolio (extension): the account's holdings per ISIN,
// from its completed orders, with the units reserved for live sells (from the account as
// the API server has it) and the lots with their lock-up.
func (s *Server) getPortfolio(w http.ResponseWriter, r *http.Request) {
	if q := parseQuery(r); !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	a := s.account(w, r, chi.URLParam(r, "account_id"), gvkOrder)
	if a == nil {
		return
	}
	ctx := r.Context()
	live := &investv1.Account{}
	if err := s.deps.APIReader.Get(ctx, client.ObjectKeyFromObject(a), live); s.readFailed(w, r, err, nil, resAccount, a.Name) {
		return
	}
	positions, err := history.Positions(ctx, s.deps.Reader, s.placementArchive(), live, s.deps.Now())
	if err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	var classes investv1.ShareClassList
	if err := s.deps.Reader.List(ctx, &classes); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	byISIN := make(map[investv1.ISIN]*investv1.ShareClass, len(classes.Items))
	for i := range classes.Items {
		byISIN[classes.Items[i].Spec.ISIN] = &classes.Items[i]
	}
	writeJSON(w, http.StatusOK, portfolioView(a.Name, positions, byISIN))
}

// placementArchive is the archive as holdings read it; nil when there is none.
func (s *Server) placementArchive() history.Archive {
	if s.deps.Archive == nil {
		return nil
	}
	return s.deps.Archive
}
