// Package gobuild builds the module's commands for tests that run them as processes (devrun
// started and killed as `make run` would be, the manager asked for its flags): each command
// once per test process, into a temporary folder that Cleanup removes. Test code only.
package gobuild

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// T is what Binary needs of a test: testing.TB or Ginkgo's GinkgoT().
type T interface {
	Helper()
	Fatal(args ...any)
}

type build struct {
	once sync.Once
	bin  string
	err  error
}

var (
	mu     sync.Mutex
	builds = map[string]*build{}
	dirs   []string
)

// Binary is the command of pkg, a package path relative to the module's root such as
// "./cmd/devrun", built on the first call in this process (a loaded machine spends a
// minute linking it; -count=3 would spend three). A build failure fails t with the
// compiler's output.
func Binary(t T, pkg string) string {
	t.Helper()
	mu.Lock()
	b, ok := builds[pkg]
	if !ok {
		b = &build{}
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "gobuild-")
		if err != nil {
			b.err = err
			return
		}
		mu.Lock()
		dirs = append(dirs, dir)
		mu.Unlock()
		b.bin = filepath.Join(dir, path.Base(pkg))
		cmd := exec.Command("go", "build", "-o", b.bin, pkg) //nolint:gosec // pkg is one of this module's packages, named by a test
		cmd.Dir = controlplane.Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

// Cleanup removes every command built; TestMain calls it after the tests ran.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	for _, d := range dirs {
		_ = os.RemoveAll(d)
	}
	dirs = nil
}
