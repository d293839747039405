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
