// Package metricset registers the manager's own collectors on controller-runtime's metrics
// registry (served at /metrics) and remembers them, so that a test can list every series
// the manager exports (test/monitoring checks each dashboard query and alert rule against
// that list) from the collectors themselves, not from a hand-written list that could
// drift. Every package that exports a series registers it here, never on
// metrics.Registry directly (a test of this package holds the rule).
package metricset

import (
	"regexp"
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

var (
	mu         sync.Mutex
	collectors []prometheus.Collector
)

// MustRegister registers cs on the manager's metrics registry and remembers them; it
// panics as prometheus.Registerer.MustRegister does.
func MustRegister(cs ...prometheus.Collector) {
	metrics.Registry.MustRegister(cs...)
	mu.Lock()
	defer mu.Unlock()
	collectors = append(collectors, cs...)
}

// fqName reads a descriptor's name: prometheus.Desc has no getter, its String has it.
var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

// Names returns the names of the series of every collector registered here, sorted, from
// their descriptors (so a vector that has no child yet is listed too).
func Names() []string {
	mu.Lock()
	cs := append([]prometheus.Collector(nil), collectors...)
	mu.Unlock()
	seen := map[string]bool{}
	for _, c := range cs {
		ch := make(chan *prometheus.Desc)
		go func() {
			c.Describe(ch)
			close(ch)
		}()
		for d := range ch {
			if m := fqName.FindStringSubmatch(d.String()); m != nil {
				seen[m[1]] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Slot is a collector registered once, when its package is linked, that exports the
// collector a manager puts in it: one metrics registry per process, and a process (a test
// suite) may build more than one manager, so the last one put is the one exported. Its
// series are described from the start, and it collects nothing while empty.
type Slot struct {
	describe func(chan<- *prometheus.Desc)
	mu       sync.Mutex
	c        prometheus.Collector
}

// NewSlot registers an empty Slot whose series describe describes.
func NewSlot(describe func(chan<- *prometheus.Desc)) *Slot {
	s := &Slot{describe: describe}
	MustRegister(s)
	return s
}

// Put makes the slot export c (nil: nothing).
func (s *Slot) Put(c prometheus.Collector) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c = c
}

// Describe implements prometheus.Collector.
func (s *Slot) Describe(ch chan<- *prometheus.Desc) { s.describe(ch) }

// Collect implements prometheus.Collector.
func (s *Slot) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	c := s.c
	s.mu.Unlock()
	if c != nil {
		c.Collect(ch)
	}
}
