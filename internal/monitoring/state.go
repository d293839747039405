// Package monitoring exports what a fund operator alerts on and what the dashboard shows
// that no single controller knows: how the objects in the cluster stand (orders by state
// and the reason they wait, how long they have been in their state, share-class tokens,
// wallet registrations). The values are computed from the manager's informer cache at
// every scrape, and the cache runs on every replica (the REST facade reads from it), so
// every replica, leader or not, exports the same true values from its first scrape after
// the cache has synced; before that it exports none of them, rather than zeros that would
// read as "no orders".
//
// The package reads objects only (apimachinery, controller-runtime's client, the API
// types): the composition root hands it the cache.
package monitoring

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// Series names of the state collector.
const (
	MetricOrders           = "fundshare_orders"
	MetricOrderOldest      = "fundshare_order_oldest_in_state_seconds"
	MetricOrderTimeInState = "fundshare_order_time_in_state_seconds"
	MetricShareClassToken  = "fundshare_share_class_token"
	MetricWallets          = "fundshare_wallets"
)

// StatePending is the state label of an order the order controller has not accepted yet
// (status.state empty).
const StatePending = "PENDING"

// ReasonNone is the reason label of an order that is not waiting (its Waiting condition is
// not True).
const ReasonNone = "None"

// States are the order states every scrape exports (with reason None, 0 when no order is
// in it), so that a state's series exists from the first scrape.
var States = []string{
	StatePending,
	string(investv1.StatePlaced), string(investv1.StateAwaitingPayment), string(investv1.StatePaymentReceived),
	string(investv1.StateRedemptionGated), string(investv1.StateExecuted), string(investv1.StateDeliveryInitiated),
	string(investv1.StateDeliveryCompleted), string(investv1.StatePaymentSent), string(investv1.StatePaymentCompleted),
	string(investv1.StateCompleted), string(investv1.StateCancelled),
}

// Wallet states: the kstatus reading of a wallet's Ready, Reconciling and Stalled.
const (
	WalletReady   = "Ready"
	WalletPending = "Pending"
	WalletStalled = "Stalled"
)

// TimeInStateBuckets are the upper bounds (seconds) of fundshare_order_time_in_state_seconds.
var TimeInStateBuckets = []float64{60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400}

// waitingCondition is the order's condition that says why it does not move
// (internal/lifecycle.ConditionWaiting; the lifecycle is not imported for one string).
const waitingCondition = "Waiting"

var (
	ordersDesc = prometheus.NewDesc(MetricOrders,
		"Orders in the cluster (not archived) by state and the reason they wait (their Waiting condition; None when they are not waiting). PENDING: not accepted yet.",
		[]string{"state", "reason"}, nil)
	oldestDesc = prometheus.NewDesc(MetricOrderOldest,
		"Seconds the oldest order in a non-terminal state has been in it, by state and waiting reason.",
		[]string{"state", "reason"}, nil)
	timeInStateDesc = prometheus.NewDesc(MetricOrderTimeInState,
		"How long the orders now in a non-terminal state have been in it (a snapshot at the scrape, not a history), by state.",
		[]string{"state"}, nil)
	tokenDesc = prometheus.NewDesc(MetricShareClassToken,
		"1 per share class with a token, labelled with its TokenReady condition: status (True/False/Unknown) and reason (Deployed, Adopted, Deploying, Paused, ...).",
		[]string{"isin", "status", "reason"}, nil)
	walletsDesc = prometheus.NewDesc(MetricWallets,
		"Wallets by state: Ready, Pending (registration in the identity registry on its way, or no status yet) or Stalled (a person must act).",
		[]string{"state"}, nil)
)

// ReadTimeout bounds one scrape's reads of the cache: a cache that has not synced yet
// answers nothing within it, and the scrape goes on without these series.
const ReadTimeout = 2 * time.Second

// StateCollector is a prometheus.Collector that reads the objects at every Collect.
type StateCollector struct {
	mu     sync.RWMutex
	reader client.Reader
	now    func() time.Time
}

// NewStateCollector collects from r (the manager's cache); now is the clock.
func NewStateCollector(r client.Reader, now func() time.Time) *StateCollector {
	return &StateCollector{reader: r, now: now}
}

// Describe implements prometheus.Collector.
func (c *StateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{ordersDesc, oldestDesc, timeInStateDesc, tokenDesc, walletsDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector: it lists the objects (without copying them:
// nothing here writes) and exports their counts. A kind that cannot be read within
// ReadTimeout (the cache not synced yet) is left out of this scrape.
func (c *StateCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.RLock()
	r, now := c.reader, c.now
	c.mu.RUnlock()
	if r == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), ReadTimeout)
	defer cancel()
	at := now()

	var orders investv1.OrderList
	if err := r.List(ctx, &orders, client.UnsafeDisableDeepCopy); err == nil {
		collectOrders(ch, orders.Items, at)
	}
	var classes investv1.ShareClassList
	if err := r.List(ctx, &classes, client.UnsafeDisableDeepCopy); err == nil {
		for i := range classes.Items {
			sc := &classes.Items[i]
			if c := meta.FindStatusCondition(sc.Status.Conditions, investv1.ConditionTokenReady); c != nil {
				ch <- prometheus.MustNewConstMetric(tokenDesc, prometheus.GaugeValue, 1, string(sc.Spec.ISIN), string(c.Status), c.Reason)
			}
		}
	}
	var wallets investv1.WalletList
	if err := r.List(ctx, &wallets, client.UnsafeDisableDeepCopy); err == nil {
		counts := map[string]float64{WalletReady: 0, WalletPending: 0, WalletStalled: 0}
		for i := range wallets.Items {
			counts[walletState(&wallets.Items[i])]++
		}
		for state, n := range counts {
			ch <- prometheus.MustNewConstMetric(walletsDesc, prometheus.GaugeValue, n, state)
		}
	}
}

// walletState reads the kstatus trio the way kstatus does: Stalled=True first, then
// Ready=True at the current generation; anything else (no status yet, a registration on
// its way, a status of an older generation) is Pending.
func walletState(w *investv1.Wallet) string {
	if c := meta.FindStatusCondition(w.Status.Conditions, investv1.ConditionStalled); c != nil && c.Status == metav1.ConditionTrue {
		return WalletStalled
	}
	if c := meta.FindStatusCondition(w.Status.Conditions, investv1.ConditionReady); c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == w.Generation {
		return WalletReady
	}
	return WalletPending
}

type stateReason struct{ state, reason string }

// collectOrders exports the order series of items at time at.
func collectOrders(ch chan<- prometheus.Metric, items []investv1.Order, at time.Time) {
	counts := map[stateReason]float64{}
	for _, s := range States {
		counts[stateReason{s, ReasonNone}] = 0
	}
	oldest := map[stateReason]float64{}
	inState := map[string][]float64{}
	for i := range items {
		o := &items[i]
		state := string(o.Status.State)
		if state == "" {
			state = StatePending
		}
		reason := ReasonNone
		if c := meta.FindStatusCondition(o.Status.Conditions, waitingCondition); c != nil && c.Status == metav1.ConditionTrue && c.Reason != "" {
			reason = c.Reason
		}
		k := stateReason{state, reason}
		counts[k]++
		if o.Status.State.Terminal() {
			continue
		}
		age := max(at.Sub(EnteredState(o)).Seconds(), 0)
		oldest[k] = max(oldest[k], age)
		inState[state] = append(inState[state], age)
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(ordersDesc, prometheus.GaugeValue, n, k.state, k.reason)
	}
	for k, age := range oldest {
		ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, age, k.state, k.reason)
	}
	for state, ages := range inState {
		buckets := make(map[float64]uint64, len(TimeInStateBuckets))
		var sum float64
		for _, a := range ages {
			sum += a
			for _, b := range TimeInStateBuckets {
				if a <= b {
					buckets[b]++
				}
			}
		}
		ch <- prometheus.MustNewConstHistogram(timeInStateDesc, uint64(len(ages)), sum, buckets, state)
	}
}

// EnteredState is when the order entered its current state: the time of the last history
// entry of that state, else (not accepted yet, or a history without it) its creation.
func EnteredState(o *investv1.Order) time.Time {
	for i := len(o.Status.History) - 1; i >= 0; i-- {
		if h := o.Status.History[i]; h.State == o.Status.State {
			return h.At.Time
		}
	}
	return o.CreationTimestamp.Time
}

// registered is the collector of the manager's metrics registry, registered when the
// package is linked (as the other packages' collectors are), so that the series are
// described, and listed by metricset.Names, before a manager is built; it exports nothing
// until Register gives it the manager's cache.
var registered = NewStateCollector(nil, time.Now)

func init() { metricset.MustRegister(registered) }

// Register makes the manager's metrics registry (controller-runtime's, served at
// /metrics) export the state of the objects r holds; r is the manager's cache. A process
// has one metrics registry and may build more than one manager (the test suites): the
// last one registered is the one read.
func Register(r client.Reader) {
	registered.mu.Lock()
	defer registered.mu.Unlock()
	registered.reader = r
}
