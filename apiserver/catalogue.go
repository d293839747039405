package apiserver

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// The catalogue is cluster-scoped: every tenant reads the same funds, share classes and
// prices. The facade never writes it, so no read waits for the write tracker.

var currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)

// GET /v1/funds: filters abbreviation (exact), name (case-insensitive partial match),
// base_currency (^[A-Z]{3}$), risk_score (1 to 10); skip, limit. The catalogue is small
// and has no index on these fields, so it is filtered after one list from the cache.
func (s *Server) listFunds(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r, append([]string{"abbreviation", "name", "base_currency", "risk_score"}, pageParams...)...)
	abbreviation, name := q.str("abbreviation"), lower(q.str("name"))
	currency := q.pattern("base_currency", currencyPattern, "three uppercase letters (^[A-Z]{3}$)")
	risk := q.integer("risk_score", 0, 1, 10)
	p := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	var list investv1.FundList
	if err := s.deps.Reader.List(r.Context(), &list); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	items := list.Items[:0]
	for _, f := range list.Items {
		if (abbreviation == "" || f.Spec.Abbreviation == abbreviation) &&
			(name == "" || strings.Contains(lower(f.Spec.Name), name)) &&
			(currency == "" || string(f.Spec.BaseCurrency) == currency) &&
			(risk == 0 || int(f.Spec.RiskScore) == risk) {
			items = append(items, f)
		}
	}
	writeJSON(w, http.StatusOK, FundList{Data: pageViews(items, p, fundView)})
}

// resFund names a fund in 404 answers.
const resFund = "Fund"

// GET /v1/funds/{fund_id}: one fund by the id GET /v1/funds answers (the Fund's name, a
// lowercase UUID); any other id, well-formed or not, is 404 Fund not found.
func (s *Server) getFund(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "fund_id")
	var f investv1.Fund
	if err := s.get(r.Context(), "", id, &f); !s.readFailed(w, r, err, nil, resFund, id) {
		writeJSON(w, http.StatusOK, fundView(&f))
	}
}

// GET /v1/share-classes: filters abbreviation (exact), name (case-insensitive partial
// match), feeder_fund_id (uuid, by index); skip, limit.
func (s *Server) listShareClasses(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r, append([]string{"abbreviation", "name", "feeder_fund_id"}, pageParams...)...)
	abbreviation, name := q.str("abbreviation"), lower(q.str("name"))
	fundID := q.uuid("feeder_fund_id")
	p := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	var opts []client.ListOption
	if fundID != "" {
		opts = append(opts, client.MatchingFields{index.ShareClassFund: fundID})
	}
	var list investv1.ShareClassList
	if err := s.deps.Reader.List(r.Context(), &list, opts...); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	now := s.deps.Now()
	items := list.Items[:0]
	for _, c := range list.Items {
		if (abbreviation == "" || c.Spec.Abbreviation == abbreviation) &&
			(name == "" || strings.Contains(lower(c.Spec.Name), name)) {
			items = append(items, c)
		}
	}
	writeJSON(w, http.StatusOK, ShareClassList{Data: pageViews(items, p, func(c *investv1.ShareClass) ShareClass { return shareClassView(c, now) })})
}

// shareClass finds the share class of an ISIN (any letter case); it answers 404 itself
// and returns nil when there is none.
func (s *Server) shareClass(w http.ResponseWriter, r *http.Request) *investv1.ShareClass {
	isin := strings.ToUpper(chi.URLParam(r, "isin"))
	var list investv1.ShareClassList
	if err := s.deps.Reader.List(r.Context(), &list, client.MatchingFields{index.ShareClassISIN: isin}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return nil
	}
	if len(list.Items) == 0 {
		writeNotFoundBy(w, resShareClass, "isin", chi.URLParam(r, "isin"))
		return nil
	}
	// ISINs are unique (admission); should two claim one, answer with the oldest.
	items := paginate(list.Items, page{limit: 1})
	return &items[0]
}

// GET /v1/share-classes/{isin} (extension).
func (s *Server) getShareClass(w http.ResponseWriter, r *http.Request) {
	if c := s.shareClass(w, r); c != nil {
		writeJSON(w, http.StatusOK, shareClassView(c, s.deps.Now()))
	}
}

// prices are the NAV prices of a share class, newest first, and their currency.
func (s *Server) prices(w http.ResponseWriter, r *http.Request) (*AssetPrices, bool) {
	c := s.shareClass(w, r)
	if c == nil {
		return nil, false
	}
	out := &AssetPrices{Prices: []AssetPrice{}, ISIN: string(c.Spec.ISIN), Currency: string(c.Spec.Currency)}
	var h investv1.NAVHistory
	err := s.deps.Reader.Get(r.Context(), client.ObjectKey{Name: lower(string(c.Spec.ISIN))}, &h)
	switch {
	case apierrors.IsNotFound(err):
		return out, true // no prices published yet
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return nil, false
	}
	if h.Spec.Currency != "" {
		out.Currency = string(h.Spec.Currency)
	}
	prices := append([]investv1.NAVPrice(nil), h.Spec.Prices...)
	// Dates are YYYY-MM-DD, so text order is time order.
	sort.SliceStable(prices, func(i, j int) bool { return prices[i].Date > prices[j].Date })
	for _, p := range prices {
		out.Prices = append(out.Prices, priceView(p, out.Currency))
	}
	out.TotalCount = len(out.Prices)
	return out, true
}

// GET /v1/assets/{isin}/prices: every NAV price, newest first, with total_count.
func (s *Server) listPrices(w http.ResponseWriter, r *http.Request) {
	if q := parseQuery(r); !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	if out, ok := s.prices(w, r); ok {
		writeJSON(w, http.StatusOK, out)
	}
}

// GET /v1/assets/{isin}/prices/latest (extension): the newest NAV price.
func (s *Server) latestPrice(w http.ResponseWriter, r *http.Request) {
	out, ok := s.prices(w, r)
	if !ok {
		return
	}
	if len(out.Prices) == 0 {
		writeError(w, http.StatusNotFound, "Price not found", "no price has been published for isin "+out.ISIN)
		return
	}
	writeJSON(w, http.StatusOK, LatestAssetPrice{AssetPrice: out.Prices[0], ISIN: out.ISIN})
}

// offeringStatuses are the values of the status filter of GET
// /v1/assets/{isin}/custom-offerings, in the order the documentation lists them.
var offeringStatuses = []string{investv1.OfferingActive, investv1.OfferingDeactivated, investv1.OfferingPending, investv1.OfferingExpired}

// GET /v1/assets/{isin}/custom-offerings: the calling tenant's custom offerings for the
// share class of the ISIN (404 when there is none), oldest first; filter status (computed
// at the time of the request); skip, limit. Offerings are written with kubectl or GitOps,
// never by the facade, so the read does not wait for the write tracker.
func (s *Server) listCustomOfferings(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r, append([]string{"status"}, pageParams...)...)
	status := q.enum("status", offeringStatuses...)
	p := q.page()
	if !q.fe.Empty() {
		writeValidation(w, q.fe)
		return
	}
	c := s.shareClass(w, r)
	if c == nil {
		return
	}
	var list investv1.CustomOfferingList
	if err := s.deps.Reader.List(r.Context(), &list, client.InNamespace(tenantOf(r)),
		client.MatchingFields{index.CustomOfferingISIN: string(c.Spec.ISIN)}); err != nil {
		s.writeAPIError(w, r, err, nil)
		return
	}
	now := s.deps.Now()
	items := list.Items[:0]
	for _, o := range list.Items {
		if status == "" || o.OfferingStatus(now) == status {
			items = append(items, o)
		}
	}
	writeJSON(w, http.StatusOK, CustomOfferingList{Data: pageViews(items, p, func(o *investv1.CustomOffering) CustomOffering {
		return customOfferingView(o, c, now)
	})})
}

// customOfferingView is an offering of the share class c as the interface shows it at now.
func customOfferingView(o *investv1.CustomOffering, c *investv1.ShareClass, now time.Time) CustomOffering {
	v := CustomOffering{
		ID: o.Name, ISIN: string(o.Spec.ISIN), ShareClassID: c.Name,
		CustomSubscriptionFee: o.FeeRateFor(investv1.SideBuy), CustomRedemptionFee: o.FeeRateFor(investv1.SideSell),
		Status: o.OfferingStatus(now), Notes: optString(o.Spec.Description), Created: created(o),
	}
	if t := o.Spec.ValidFrom; t != nil {
		v.ValidFrom = optString(timestamp(*t))
	}
	if t := o.Spec.ValidUntil; t != nil {
		v.ValidUntil = optString(timestamp(*t))
	}
	return v
}
