package metricset_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
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
