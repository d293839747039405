package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// rawWrites measures the write ceiling: status updates of a trivial custom resource (an
// ApiClient nothing else writes), one object per writer so that no write conflicts, with
// the manager's client settings, for dur. It returns writes per second.
func rawWrites(ctx context.Context, c client.Client, keys []client.ObjectKey, dur time.Duration) (float64, error) {
	var total atomic.Int64
	errc := make(chan error, len(keys))
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(dur)
	for _, key := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ac := &investv1.ApiClient{}
			if err := c.Get(ctx, key, ac); err != nil {
				errc <- err
				return
			}
			for i := 0; time.Now().Before(end); i++ {
				meta.SetStatusCondition(&ac.Status.Conditions, metav1.Condition{
					Type: investv1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Benchmark",
					Message: fmt.Sprintf("write %d", i), ObservedGeneration: ac.Generation,
				})
				if err := c.Status().Update(ctx, ac); apierrors.IsConflict(err) {
					// The ApiClient controller's one status write: read again, not counted.
					if err := c.Get(ctx, key, ac); err != nil {
						errc <- err
						return
					}
					continue
				} else if err != nil {
					errc <- err
					return
				}
				total.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return 0, err
	}
	return float64(total.Load()) / time.Since(start).Seconds(), nil
}

// pipelineResult is the order pipeline beside the raw write ceiling.
type pipelineResult struct {
	Variant         string           `json:"variant,omitempty"`
	Orders          int              `json:"orders"`
	Placement       string           `json:"placement"`
	Concurrency     int              `json:"concurrency"`
	Seconds         float64          `json:"seconds"`
	OrdersPerSec    float64          `json:"orders_per_s"`
	PlacedPerSec    float64          `json:"placed_per_s"`
	PlaceP50        float64          `json:"place_p50_ms"`
	PlaceP99        float64          `json:"place_p99_ms"`
	SettleP50       float64          `json:"place_to_completed_p50_ms"`
	SettleP99       float64          `json:"place_to_completed_p99_ms"`
	Completed       int              `json:"completed"`
	Writes          int64            `json:"api_writes"`
	WritesPerOrder  float64          `json:"api_writes_per_order"`
	ReadsPerOrder   float64          `json:"api_reads_per_order"`
	Requests        map[string]int64 `json:"api_requests_by_kind"`
	RawBefore       float64          `json:"raw_writes_per_s_before"`
	RawAfter        float64          `json:"raw_writes_per_s_after"`
	RawWritesPerSec float64          `json:"raw_writes_per_s"`
	Figure          float64          `json:"figure"`
	Err             string           `json:"error,omitempty"`
	// Controllers is how busy each controller was from the first placement to the last
	// completion.
	Controllers map[string]controllerLoad `json:"controllers"`
}

// placer places one BUY order and returns its id.
type placer func(ctx context.Context, acct accountRef, isin investv1.ISIN, units int64) (string, error)

// restPlacer places orders through POST /v1/orders with the tenant's token.
func restPlacer(baseURL string, conc int) placer {
	hc := httpClient(conc)
	return func(ctx context.Context, acct accountRef, isin investv1.ISIN, units int64) (string, error) {
		body, _ := json.Marshal(map[string]any{
			"account_id": acct.id, "isin": isin, "side": "BUY", "market": "PRIMARY",
			"amount_of_units": units, "currency": "EUR",
		})
		code, b, err := fetch(ctx, hc, http.MethodPost, baseURL+"/v1/orders", acct.tenant.token, string(body))
		if err != nil {
			return "", err
		}
		if code/100 != 2 {
			return "", fmt.Errorf("POST /v1/orders: %d %.300s", code, b)
		}
		var out struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(b, &out); err != nil || out.ID == "" {
			return "", fmt.Errorf("POST /v1/orders: no id in %.300s", b)
		}
		return out.ID, nil
	}
}

// admissionPlacer creates Order objects with the Kubernetes client; the admission
// webhook prices and checks them like kubectl users' orders.
func admissionPlacer(c client.Client) placer {
	return func(ctx context.Context, acct accountRef, isin investv1.ISIN, units int64) (string, error) {
		o := fixtures.BuyOrder(acct.tenant.ns, acct.id, string(isin), units)
		if err := c.Create(ctx, o); err != nil {
			return "", err
		}
		return o.Name, nil
	}
}

// runPipeline places n BUY orders from conc clients and waits until the sandbox agent and
// the controllers have completed every one. It counts the manager's API requests (and the
// placements, when the harness writes them) from the first placement until the
// controllers are idle again.
func runPipeline(ctx context.Context, op *operator, counter *apiCounter, place placer, placementWrites bool, accts []accountRef, classes []shareClassQuote, n, conc int, timeout time.Duration) (pipelineResult, error) {
	res := pipelineResult{Orders: n, Concurrency: conc}
	inf, err := op.mgr.GetCache().GetInformer(ctx, &investv1.Order{})
	if err != nil {
		return res, err
	}
	var mu sync.Mutex
	ended := map[string]time.Time{}
	cancelled := 0
	reg, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := newObj.(*investv1.Order)
			old, ok2 := oldObj.(*investv1.Order)
			if !ok1 || !ok2 || !o.Status.State.Terminal() || old.Status.State.Terminal() {
				return
			}
			mu.Lock()
			ended[o.Name] = time.Now()
			if o.Status.State == investv1.StateCancelled {
				cancelled++
			}
			mu.Unlock()
		},
	})
	if err != nil {
		return res, err
	}
	defer func() { _ = inf.RemoveEventHandler(reg) }()

	before := counter.snapshot()
	loadBefore := reconcileTotals()
	placedAt := make([]time.Time, n)
	ids := make([]string, n)
	placeLat := make([]time.Duration, n)
	start := time.Now()
	err = parallel(ctx, conc, n, func(i int) error {
		acct := accts[i%len(accts)]
		sc := classes[i%len(classes)]
		t0 := time.Now()
		id, err := place(ctx, acct, sc.isin, sc.unitsForMinimum+int64(i%7))
		if err != nil {
			return err
		}
		placedAt[i], ids[i], placeLat[i] = t0, id, time.Since(t0)
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("place orders: %w", err)
	}
	res.PlacedPerSec = float64(n) / time.Since(start).Seconds()
	res.PlaceP50, res.PlaceP99 = percentile(placeLat, 0.5), percentile(placeLat, 0.99)

	deadline := time.Now().Add(timeout)
	var last time.Time
	for {
		mu.Lock()
		done := 0
		for _, id := range ids {
			if t, ok := ended[id]; ok {
				done++
				if t.After(last) {
					last = t
				}
			}
		}
		res.Completed = done - cancelled
		mu.Unlock()
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			res.Err = fmt.Sprintf("%d of %d orders not terminal after %s", n-done, n, timeout)
			last = time.Now()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res.Seconds = last.Sub(start).Seconds()
	res.Controllers = controllerLoadSince(loadBefore, res.Seconds)
	res.OrdersPerSec = float64(res.Completed) / res.Seconds
	settle := make([]time.Duration, 0, n)
	mu.Lock()
	for i, id := range ids {
		if t, ok := ended[id]; ok {
			settle = append(settle, t.Sub(placedAt[i]))
		}
	}
	mu.Unlock()
	res.SettleP50, res.SettleP99 = percentile(settle, 0.5), percentile(settle, 0.99)

	// Trailing writes (account holdings, Events) belong to the orders too.
	if err := waitIdle(ctx, 5*time.Minute); err != nil {
		return res, err
	}
	time.Sleep(time.Second)
	counts := diffCounts(before, counter.snapshot())
	if placementWrites {
		counts["POST orders (harness, through admission)"] += int64(n)
	}
	res.Requests = counts
	res.Writes = counts.writes()
	res.WritesPerOrder = float64(res.Writes) / float64(n)
	res.ReadsPerOrder = float64(counts.reads()) / float64(n)
	return res, nil
}
