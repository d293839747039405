package agent

import (
	"context"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// Series of the chain monitor.
const (
	MetricChainUp        = "fundshare_chain_up"
	MetricHeadBlock      = "fundshare_chain_head_block"
	MetricHeadAge        = "fundshare_chain_head_age_seconds"
	MetricSignerBalance  = "fundshare_chain_signer_balance"
	MetricChainRPCErrors = "fundshare_chain_rpc_errors_total"
)

// MonitorInterval is how often the chain monitor reads the chain's head and the signer's
// balance.
const MonitorInterval = 15 * time.Second

// The chain monitor's RPC operations (the operation label of fundshare_chain_rpc_errors_total).
const (
	OpHeader  = "header"
	OpBalance = "balance"
)

var (
	chainUpDesc = prometheus.NewDesc(MetricChainUp,
		"1 when the chain monitor's last reading of the chain (head and signer balance) succeeded, 0 when a call failed.", nil, nil)
	headBlockDesc = prometheus.NewDesc(MetricHeadBlock,
		"Number of the latest block the endpoint reported at the monitor's last successful reading.", nil, nil)
	headAgeDesc = prometheus.NewDesc(MetricHeadAge,
		"Seconds between now and the timestamp of that block: how far the endpoint's head lags behind the wall clock (a block every ~2 s on Polygon).", nil, nil)
	balanceDesc = prometheus.NewDesc(MetricSignerBalance,
		"Balance of the agent's signer in the chain's native coin (POL on Polygon; wei / 1e18) at the last successful reading: what pays every transaction's gas.",
		[]string{"signer"}, nil)
	rpcErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: MetricChainRPCErrors,
		Help: "Failed JSON-RPC calls of the chain monitor, by operation (header, balance). Every replica reads the chain on its own, so each counts its own.",
	}, []string{"operation"})
)

// ChainReader is what the monitor reads: the latest header and a balance.
type ChainReader interface {
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	BalanceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (*big.Int, error)
}

// Monitor reads the chain's head and the signer's balance every interval and exports them.
// It runs on every replica (not only the leader): each replica dials the chain, so each
// knows, and a non-leader exports the same true values as the leader.
type Monitor struct {
	chain    ChainReader
	signer   common.Address
	interval time.Duration
	now      func() time.Time

	mu       sync.Mutex
	known    bool // a reading has succeeded
	up       bool
	head     uint64
	headTime time.Time
	balance  *big.Int
}

// NewMonitor creates a monitor of signer's balance on chain; it reads nothing until Poll
// or Start.
func NewMonitor(chain ChainReader, signer common.Address, interval time.Duration, now func() time.Time) *Monitor {
	if interval <= 0 {
		interval = MonitorInterval
	}
	return &Monitor{chain: chain, signer: signer, interval: interval, now: now}
}

// Poll reads the head and the balance at that head once; it reports whether both reads
// succeeded.
func (m *Monitor) Poll(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, m.interval)
	defer cancel()
	h, err := m.chain.HeaderByNumber(ctx, nil)
	if err != nil {
		rpcErrors.WithLabelValues(OpHeader).Inc()
		m.setDown()
		return false
	}
	bal, err := m.chain.BalanceAt(ctx, m.signer, h.Number)
	if err != nil {
		rpcErrors.WithLabelValues(OpBalance).Inc()
		m.setDown()
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.known, m.up = true, true
	m.head, m.headTime, m.balance = h.Number.Uint64(), time.Unix(int64(h.Time), 0), bal //nolint:gosec // block times are far below 2^63
	return true
}

func (m *Monitor) setDown() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.up = false
}

// Start polls every interval until ctx ends (manager.Runnable).
func (m *Monitor) Start(ctx context.Context) error {
	t := time.NewTicker(m.interval)
	defer t.Stop()
	for {
		m.Poll(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// NeedLeaderElection is false: every replica monitors the chain.
func (m *Monitor) NeedLeaderElection() bool { return false }

// Describe implements prometheus.Collector.
func (m *Monitor) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{chainUpDesc, headBlockDesc, headAgeDesc, balanceDesc} {
		ch <- d
	}
}

// weiPerCoin is 10^18.
var weiPerCoin = new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))

// Collect implements prometheus.Collector: fundshare_chain_up always; the head, its age
// (computed at the scrape, so it grows while the endpoint stalls or cannot be read) and
// the balance once a reading has succeeded.
func (m *Monitor) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	up := 0.0
	if m.up {
		up = 1
	}
	ch <- prometheus.MustNewConstMetric(chainUpDesc, prometheus.GaugeValue, up)
	if !m.known {
		return
	}
	ch <- prometheus.MustNewConstMetric(headBlockDesc, prometheus.GaugeValue, float64(m.head))
	ch <- prometheus.MustNewConstMetric(headAgeDesc, prometheus.GaugeValue, max(m.now().Sub(m.headTime).Seconds(), 0))
	coins, _ := new(big.Float).Quo(new(big.Float).SetInt(m.balance), weiPerCoin).Float64()
	ch <- prometheus.MustNewConstMetric(balanceDesc, prometheus.GaugeValue, coins, m.signer.Hex())
}

// registeredMonitor exports the process's chain monitor.
var registeredMonitor = metricset.NewSlot((&Monitor{}).Describe)

func init() {
	for _, op := range []string{OpHeader, OpBalance} {
		rpcErrors.WithLabelValues(op) // every operation exported from the start, at 0
	}
	metricset.MustRegister(rpcErrors)
}

// RegisterMonitor makes the manager's metrics endpoint export m (nil: none).
func RegisterMonitor(m *Monitor) {
	if m == nil {
		registeredMonitor.Put(nil) // not a nil *Monitor in a non-nil interface
		return
	}
	registeredMonitor.Put(m)
}
