package archive

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// MetricUp is the series of the archive probe.
const MetricUp = "fundshare_archive_up"

// ProbeInterval is how often the probe pings the archive.
const ProbeInterval = 30 * time.Second

var upDesc = prometheus.NewDesc(MetricUp,
	"1 when the order archive answered this replica's last ping, 0 when it did not. Absent when no archive is configured.", nil, nil)

// Probe pings the archive every interval and exports whether it answered. It runs on
// every replica (the REST facade of every replica reads archived orders, and each has its
// own connections), not only on the leader that archives.
type Probe struct {
	store    Store
	interval time.Duration

	mu sync.Mutex
	up bool
}

// NewProbe creates a probe of s; it pings nothing until Poll or Start.
func NewProbe(s Store, interval time.Duration) *Probe {
	if interval <= 0 {
		interval = ProbeInterval
	}
	return &Probe{store: s, interval: interval}
}

// Poll pings the archive once, within the interval, and reports whether it answered.
func (p *Probe) Poll(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, p.interval)
	defer cancel()
	err := p.store.Ping(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = err == nil
	return p.up
}

// Start pings every interval until ctx ends (manager.Runnable).
func (p *Probe) Start(ctx context.Context) error {
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			p.Poll(ctx)
		}
	}
}

// NeedLeaderElection is false: every replica probes.
func (p *Probe) NeedLeaderElection() bool { return false }

// Describe implements prometheus.Collector.
func (p *Probe) Describe(ch chan<- *prometheus.Desc) { ch <- upDesc }

// Collect implements prometheus.Collector.
func (p *Probe) Collect(ch chan<- prometheus.Metric) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := 0.0
	if p.up {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(upDesc, prometheus.GaugeValue, v)
}

// registeredProbe exports the process's probe, when an archive is configured.
var registeredProbe = metricset.NewSlot(func(ch chan<- *prometheus.Desc) { ch <- upDesc })

// RegisterProbe makes the manager's metrics endpoint export p (nil: no archive, no series).
func RegisterProbe(p *Probe) {
	if p == nil {
		registeredProbe.Put(nil) // not a nil *Probe in a non-nil interface
		return
	}
	registeredProbe.Put(p)
}
