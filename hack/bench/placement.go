package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// placementSide is one kind of placement of the comparison.
type placementSide struct {
	Orders  int     `json:"orders"`
	PerSec  float64 `json:"placed_per_s"`
	P50     float64 `json:"p50_ms"`
	P99     float64 `json:"p99_ms"`
	Refused int     `json:"refused"`
	// Requests are the manager's API requests from the start of the side's rounds until
	// its controllers were idle again after each (the placements and what they set off).
	Requests requestCounts `json:"requests"`
}

// placementResult compares placing forward orders (by amount, priced at the strike: no NAV
// read) with placing latest-priced orders (by units, priced from the latest NAV), through
// REST, in alternating rounds on one running manager (issue 23: "placement of a forward
// order needs no NAV read and is at least as fast as today's").
type placementResult struct {
	Rounds  int           `json:"rounds"`
	Clients int           `json:"clients"`
	Latest  placementSide `json:"latest"`
	Forward placementSide `json:"forward"`
	// Ratio is the forward rate over the latest one: ≥ 1 is at least as fast.
	Ratio float64 `json:"ratio"`
	Err   string  `json:"error,omitempty"`
}

// placementRounds is how many rounds each side gets, alternating.
const placementRounds = 4

// measurePlacement places n orders of each kind through REST, n/placementRounds at a time,
// alternating the kinds, each round from idle controllers, and compares the rates and
// latencies of the placements and the API requests each kind set off.
func (b *bench) measurePlacement(ctx context.Context, n int) (placementResult, error) {
	res := placementResult{Rounds: placementRounds, Clients: b.o.pipelineConc}
	if !b.res.Served.Create {
		return res, fmt.Errorf("the facade does not serve POST /v1/orders")
	}
	accts := append(append([]accountRef{}, b.ds.others...), b.ds.measured...)
	latest := b.ds.classes[0]
	// A forward-priced share class of the same fund, with its own (long) NAV history, so
	// that a NAV read would cost what it costs the latest-priced class.
	body := fmt.Sprintf("XS%09d", time.Now().UnixNano()%1_000_000_000)
	check, err := validation.ISINCheckDigit(body)
	if err != nil {
		return res, err
	}
	isin := body + string(check)
	sc := fixtures.ShareClass(latest.fund.Name, isin)
	sc.Spec.MinInvestment, sc.Spec.SubscriptionFee = 0, latest.subscriptionFee
	sc.Spec.Dealing = strikeTerms()
	var lh investv1.NAVHistory
	if err := b.c.Get(ctx, client.ObjectKey{Name: strings.ToLower(string(latest.isin))}, &lh); err != nil {
		return res, fmt.Errorf("the NAV history of %s: %w", latest.isin, err)
	}
	nh := fixtures.NAVHistory(isin, "EUR", lh.Spec.Prices...)
	for _, obj := range []client.Object{sc, nh} {
		if err := b.c.Create(ctx, obj); err != nil {
			return res, fmt.Errorf("create %T: %w", obj, err)
		}
	}
	if err := waitUntil(ctx, time.Minute, 20*time.Millisecond, func() bool {
		var got investv1.ShareClass
		return b.op.mgr.GetCache().Get(ctx, client.ObjectKeyFromObject(sc), &got) == nil
	}); err != nil {
		return res, fmt.Errorf("the forward share class did not reach the cache: %w", err)
	}
	hc := httpClient(b.o.pipelineConc)
	post := func(acct accountRef, body map[string]any) (int, error) {
		raw, _ := json.Marshal(body)
		code, out, err := fetch(ctx, hc, http.MethodPost, b.op.baseURL+"/v1/orders", acct.tenant.token, string(raw))
		if err == nil && code/100 != 2 && code != http.StatusUnprocessableEntity {
			err = fmt.Errorf("POST /v1/orders: %d %.300s", code, out)
		}
		return code, err
	}
	latestOrder := func(i int, acct accountRef) map[string]any {
		return map[string]any{"account_id": acct.id, "isin": latest.isin, "side": "BUY", "market": "PRIMARY",
			"amount_of_units": latest.unitsForMinimum + int64(i%7), "currency": "EUR"}
	}
	forwardOrder := func(i int, acct accountRef) map[string]any {
		return map[string]any{"account_id": acct.id, "isin": isin, "side": "BUY", "market": "PRIMARY",
			"amount": int64(10_000_000 + 10_000*(i%7)), "currency": "EUR"}
	}
	per := max(1, n/placementRounds)
	var latLatest, latForward []time.Duration
	var durLatest, durForward time.Duration
	round := func(order func(int, accountRef) map[string]any, offset int, lat *[]time.Duration, dur *time.Duration, side *placementSide) error {
		got := make([]time.Duration, per)
		codes := make([]int, per)
		// Each round starts with the controllers idle: what the orders of the round
		// before set off (a latest-priced BUY is paid and settled by the sandbox, a
		// forward one waits for its strike) does not run under this round's clock.
		if err := waitIdle(ctx, 5*time.Minute); err != nil {
			return err
		}
		snap := b.counter.snapshot()
		defer func() {
			if waitIdle(ctx, 5*time.Minute) == nil {
				if side.Requests == nil {
					side.Requests = requestCounts{}
				}
				for k, v := range diffCounts(snap, b.counter.snapshot()) {
					side.Requests[k] += v
				}
			}
		}()
		start := time.Now()
		err := parallel(ctx, b.o.pipelineConc, per, func(i int) error {
			acct := accts[(offset+i)%len(accts)]
			t0 := time.Now()
			code, err := post(acct, order(offset+i, acct))
			got[i], codes[i] = time.Since(t0), code
			return err
		})
		*dur += time.Since(start)
		*lat = append(*lat, got...)
		for _, c := range codes {
			if c == http.StatusUnprocessableEntity {
				side.Refused++
			}
		}
		side.Orders += per
		return err
	}
	progress("placement: %d latest-priced and %d forward orders through REST, %d rounds each, alternating", per*placementRounds, per*placementRounds, placementRounds)
	for r := range placementRounds {
		first, second := func() error {
			return round(latestOrder, 2*r*per, &latLatest, &durLatest, &res.Latest)
		}, func() error {
			return round(forwardOrder, (2*r+1)*per, &latForward, &durForward, &res.Forward)
		}
		if r%2 == 1 {
			first, second = second, first
		}
		if err := first(); err != nil {
			return res, err
		}
		if err := second(); err != nil {
			return res, err
		}
	}
	res.Latest.PerSec, res.Forward.PerSec = float64(res.Latest.Orders)/durLatest.Seconds(), float64(res.Forward.Orders)/durForward.Seconds()
	res.Latest.P50, res.Latest.P99 = percentile(latLatest, 0.5), percentile(latLatest, 0.99)
	res.Forward.P50, res.Forward.P99 = percentile(latForward, 0.5), percentile(latForward, 0.99)
	res.Ratio = res.Forward.PerSec / res.Latest.PerSec
	if res.Latest.Refused+res.Forward.Refused > 0 {
		res.Err = fmt.Sprintf("%d latest and %d forward placements refused (422)", res.Latest.Refused, res.Forward.Refused)
	}
	return res, waitIdle(ctx, 5*time.Minute)
}
