package guides

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/fundshare/fundshare-operator/cmd/devrun/devenv"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
)

// Every guide (paths from the repository's top folder) and, for one that does not run, why.
// Making a guide run is one line: clear its reason. A new guide in docs/ must be listed
// (TestEveryGuideIsListed), so none is forgotten.
var guides = []struct{ path, notRun string }{
	{"README.md", ""},
	{"docs/kubectl-guide.md", ""},
	{"docs/gitops.md", ""},
	{"docs/rest-api.md", ""},
	{"docs/orders.md", ""},
	{"docs/archive.md", "operator reference: psql, pg_dump and sqlite3 against a production archive database"},
	{"docs/architecture.md", "decisions, no commands"},
	{"docs/contributing.md", "make targets of this repository (make test, make lint): CI runs them itself"},
	{"docs/install.md", "installs on a real cluster (Helm, or kustomize with cert-manager) from a registry"},
	{"docs/performance.md", "make bench: minutes of load, not part of make test"},
	{"docs/tokens.md", ""},
	{"docs/retention.md", ""},
	{"docs/webhooks.md", ""},
	{"docs/dealing.md", ""},
	{"docs/bank.md", ""},
	{"docs/payouts.md", ""},
	{"docs/secondary.md", ""},
	{"docs/kubectl-plugin.md", "the plugin's actions gate funds and publish NAVs of make run's catalogue, which the runnable guides rely on; internal/cli's tests run every command against a real API server"},
	{"docs/monitoring.md", "operator reference: Prometheus, Grafana and Argo CD on a real cluster (its rules, dashboard and health checks are tested by make monitoring-check, test/monitoring and test/health)"},
}

// The tools the guides use besides bash and coreutils; the README names them.
var tools = []string{"kubectl", "curl", "jq", "openssl"}

// Default settlement delay of the test: short, so orders settle quickly, unless a guide
// asks for another with its sandbox-settlement-delay marker.
const testSettlementDelay = 300 * time.Millisecond

// Each command may take this long (kubectl wait and polling loops included). The longest
// wait for something a guide set ahead on the clock: secondary.md's cash-on-chain window,
// whose deadline is a whole minute 90 to 149 s after it is set, then its match and swap;
// dealing.md waits up to 105 s for a cut-off it set a minute or so ahead.
const stepTimeout = 240 * time.Second

func TestEveryGuideIsListed(t *testing.T) {
	root := controlplane.Root()
	entries, err := os.ReadDir(filepath.Join(root, "docs"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, g := range guides {
		if listed[g.path] {
			t.Errorf("%s is listed twice", g.path)
		}
		listed[g.path] = true
		if _, err := os.Stat(filepath.Join(root, g.path)); err != nil {
			t.Errorf("listed guide %s: %v", g.path, err)
		}
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && !listed["docs/"+e.Name()] {
			t.Errorf("docs/%s is not in test/guides' list (with a reason if it does not run)", e.Name())
		}
	}
}

// TestGuidesRunAsWritten runs each guide top to bottom against its own fresh environment,
// the guides in a random order.
func TestGuidesRunAsWritten(t *testing.T) {
	for _, tool := range append([]string{"bash"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the guides need %s (the README lists the tools): %v", tool, err)
		}
	}
	// The managers' errors (a reconcile that failed) go to the test's output.
	ctrl.SetLogger(zap.New(zap.UseDevMode(true), zap.Level(zapcore.ErrorLevel)))
	root := controlplane.Root()
	bin := t.TempDir()
	// The tools a guide runs from bin/, built as the guides tell a reader to build them.
	for _, tool := range []struct{ name, pkg string }{{"fundsharectl", "./cmd/fundsharectl"}, {"localwallet", "./hack/localwallet"}} {
		build := exec.Command("go", "build", "-o", filepath.Join(bin, tool.name), tool.pkg)
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", tool.name, err, out)
		}
	}
	// In a random order (each guide has its own fresh environment, so none may depend on
	// another having run first); the order is logged.
	order := slices.Clone(guides)
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var names []string
	for _, g := range order {
		if g.notRun == "" {
			names = append(names, g.path)
		}
	}
	t.Logf("guides in this order: %s", strings.Join(names, ", "))
	for _, g := range order {
		if g.notRun != "" {
			continue
		}
		name := g.path
		t.Run(name, func(t *testing.T) {
			// Each guide has its own environment; they run side by side, since most of a
			// guide's time is spent waiting (kubectl, the API server, the sandbox).
			t.Parallel()
			text, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				t.Fatal(err)
			}
			g, err := Parse(name, text)
			if err != nil {
				t.Fatal(err)
			}
			runGuide(t, g, root, filepath.Join(bin, "fundsharectl"))
		})
	}
}

func runGuide(t *testing.T, g *Guide, root, fundsharectl string) {
	work := t.TempDir()
	for _, dir := range []string{"bin", "home"} {
		if err := os.MkdirAll(filepath.Join(work, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "config"), filepath.Join(work, "config")); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"fundsharectl", "localwallet"} {
		if err := os.Link(filepath.Join(filepath.Dir(fundsharectl), tool), filepath.Join(work, "bin", tool)); err != nil {
			t.Fatal(err)
		}
	}
	delay := testSettlementDelay
	if g.SandboxSettlementDelay != 0 {
		delay = g.SandboxSettlementDelay
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	addr, env, err := startEnv(ctx, t, devenv.Options{
		LocalDir: filepath.Join(work, ".local"), SandboxSettlementDelay: delay, OrderRetention: g.OrderRetention,
		Out: testWriter{t}, SkipControllerNameValidation: true, ChainBlockInterval: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("start the make run environment: %v", err)
	}
	defer func() {
		env.Stop()
		if err := env.Wait(); err != nil {
			t.Errorf("stop the environment: %v", err)
		}
	}()
	t.Logf("environment ready in %s (REST on %s, settlement delay %s, order retention %s)", time.Since(started).Round(time.Millisecond), addr, delay, g.OrderRetention)
	for _, s := range g.Skipped {
		t.Logf("not run (skip marker): %s", s)
	}

	sh, err := NewSession(work, append(minimalEnv(), "HOME="+filepath.Join(work, "home")))
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	sh.Subst = strings.NewReplacer("http://"+DefaultAddr, "http://"+addr, DefaultAddr, addr)
	failures, err := RunSteps(g, sh, Normalizer{Keep: KeepIDs(g), Addr: addr}, stepTimeout, t.Logf)
	for _, f := range failures {
		t.Error(f)
	}
	if err != nil {
		t.Fatalf("%v\n--- what the cluster shows now\n%s", err, snapshot(work))
	}
}

// snapshot is what a person would look at when a guide's command hangs: every object of
// the project with its status, each order's conditions that are not True, and the last
// Events. It reads with kubectl beside the stuck shell.
func snapshot(work string) string {
	kc := filepath.Join(work, ".local", "kubeconfig")
	var b strings.Builder
	for _, args := range [][]string{
		{"get", "fundshare,matchingwindows", "-A", "-o", "wide"},
		{"get", "orders", "-A", "-o", `jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.side} {.spec.market} {.status.phase}:{range .status.conditions[?(@.status!="True")]} {.type}={.reason}{end}{"\n"}{end}`},
		{"get", "events", "-A", "--sort-by=.lastTimestamp"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kc}, args...)...).CombinedOutput()
		cancel()
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) > 60 {
			lines = append([]string{"..."}, lines[len(lines)-60:]...)
		}
		fmt.Fprintf(&b, "$ kubectl %s\n%s\n", strings.Join(args, " "), strings.Join(lines, "\n"))
		if err != nil {
			fmt.Fprintf(&b, "(%v)\n", err)
		}
	}
	return b.String()
}

// startEnv starts the make run environment of o on free loopback ports. A port found free
// can be taken before the environment binds it (by a guide starting beside it, or by an
// outgoing connection's ephemeral port): then it starts again on other ports, three times
// at most.
func startEnv(ctx context.Context, t *testing.T, o devenv.Options) (string, *devenv.Env, error) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		o.RESTAddr, o.ChainRPCPort = loopback.FreeAddr(t), loopback.FreePort(t)
		env, err := devenv.Start(ctx, o)
		if err == nil || attempt == 3 || !errors.Is(err, syscall.EADDRINUSE) {
			return o.RESTAddr, env, err
		}
		t.Logf("a port was taken before the environment bound it (%v): again on other ports", err)
	}
}

// minimalEnv is the test process's environment without what would point kubectl
// elsewhere.
func minimalEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "KUBECONFIG", "HOME", "CDPATH", "BASH_ENV", "ENV":
			continue
		}
		env = append(env, kv)
	}
	return env
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
