// Package helmtest renders the project's Helm chart with the pinned helm, for tests that
// check what the chart ships (test/health, test/monitoring). Only _test.go files import it.
package helmtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// Binary is $HELM (the Makefile exports the pinned one) or the newest bin/helm-v*.
func Binary(t testing.TB) string {
	t.Helper()
	if h := os.Getenv("HELM"); h != "" {
		if _, err := os.Stat(h); err != nil { //nolint:gosec // the test runner's own setting, a path to a binary it runs
			t.Fatalf("HELM=%s: %v (make helm installs it)", h, err)
		}
		return h
	}
	found, _ := filepath.Glob(filepath.Join(controlplane.Root(), "bin", "helm-v*"))
	if len(found) == 0 {
		t.Fatal("no helm in bin/: run `make helm` (make test does), or set HELM")
	}
	sort.Strings(found)
	return found[len(found)-1]
}

// Template is `helm template fundshare-operator charts/fundshare-operator -n
// fundshare-system` with args, run in the repository's folder without the machine's
// repositories, plugins or caches.
func Template(t testing.TB, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args = append([]string{"template", "fundshare-operator", "charts/fundshare-operator", "-n", "fundshare-system"}, args...)
	cmd := exec.CommandContext(ctx, Binary(t), args...) //nolint:gosec // the pinned helm, with the tests' own arguments
	cmd.Dir = controlplane.Root()
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatal(fmt.Errorf("helm %s: %w\n%s", strings.Join(args, " "), err, errOut.Bytes()))
	}
	return out.Bytes()
}
