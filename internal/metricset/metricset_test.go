package metricset_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/metricset"
)

// TestEverySeriesIsRegisteredHere: no package of the manager registers a collector on
// controller-runtime's registry past this package, so metricset.Names lists every series
// the manager exports (test/monitoring relies on it).
func TestEverySeriesIsRegisteredHere(t *testing.T) {
	root := controlplane.Root()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "bin", ".git", "hack", ".local", "internal/metricset":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "metrics.Registry.MustRegister(") || strings.Contains(string(b), "metrics.Registry.Register(") {
			t.Errorf("%s registers on metrics.Registry directly: use metricset.MustRegister", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestASlotExportsWhatWasPutLast: a slot describes its series while empty, collects
// nothing then, and exports the collector put last.
func TestASlotExportsWhatWasPutLast(t *testing.T) {
	desc := prometheus.NewDesc("fundshare_test_slot", "A slot's test series.", nil, nil)
	s := metricset.NewSlot(func(ch chan<- *prometheus.Desc) { ch <- desc })
	if !slices.Contains(metricset.Names(), "fundshare_test_slot") {
		t.Fatalf("an empty slot's series is not listed: %v", metricset.Names())
	}
	count := func() int {
		ch := make(chan prometheus.Metric, 4)
		s.Collect(ch)
		close(ch)
		n := 0
		for range ch {
			n++
		}
		return n
	}
	if n := count(); n != 0 {
		t.Fatalf("an empty slot collected %d series", n)
	}
	a, b := prometheus.NewGauge(prometheus.GaugeOpts{Name: "a"}), prometheus.NewGauge(prometheus.GaugeOpts{Name: "b"})
	s.Put(a)
	s.Put(b)
	ch := make(chan prometheus.Metric, 4)
	s.Collect(ch)
	close(ch)
	var got []string
	for m := range ch {
		got = append(got, m.Desc().String())
	}
	if len(got) != 1 || !strings.Contains(got[0], `fqName: "b"`) {
		t.Fatalf("collected %v, want b only", got)
	}
	s.Put(nil)
	if n := count(); n != 0 {
		t.Fatalf("a slot emptied again collected %d series", n)
	}
}
