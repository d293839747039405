package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/test/gobuild"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/test/syncbuf"
)

// readyBudget is how long devrun may take to start the control plane, the chain and the
// manager; generous, because the machine running the tests may be loaded.
const readyBudget = 5 * time.Minute

func TestMain(m *testing.M) {
	code := m.Run()
	gobuild.Cleanup()
	os.Exit(code)
}

// devrunBinary builds devrun once per test process.
func devrunBinary(t *testing.T) string {
	t.Helper()
	return gobuild.Binary(t, "./cmd/devrun")
}

// TestCtrlCStopsEverythingAndExitsZero: `make run` execs the built devrun binary, so a
// Ctrl-C (SIGINT) reaches it directly; it must stop the manager and the control plane and
// exit 0 (the issue: a clean Ctrl-C ended with `make: *** Error 1`).
// TestCtrlCStopsEverythingAndExitsZero, and on the way: once devrun says it is running,
// the demo client logs in at the first attempt (a reader of the README does so at once),
// and the metrics address it prints serves the manager's series.
func TestCtrlCStopsEverythingAndExitsZero(t *testing.T) {
	bin := devrunBinary(t)
	local := filepath.Join(t.TempDir(), "local")
	rest := loopback.FreeAddr(t)
	// Free loopback ports, never the defaults: a `make run` beside the test holds 8080 and 8545.
	cmd := exec.Command(bin, "--local-dir", local, "--rest-bind-address", rest,
		"--chain-rpc-port", strconv.Itoa(loopback.FreePort(t)), "--zap-log-level", "error")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// exec copies stderr in a goroutine of its own, and the scanner below reads stdout in
	// another: both buffers are read here while they are written (a failure's message).
	stderr, printed := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); stopLeftovers(t, local) })

	ready, ended := make(chan struct{}), make(chan struct{})
	var metricsURL string // written before ready is closed
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(stdout)
		running := false
		for sc.Scan() {
			_, _ = printed.Write([]byte(sc.Text() + "\n"))
			running = running || strings.Contains(sc.Text(), "fundshare-operator is running.")
			if f := strings.Fields(sc.Text()); running && len(f) == 2 && f[0] == "metrics" {
				metricsURL = f[1]
				close(ready)
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case <-ready:
	case <-ended: // stdout closed: devrun exited; say why now, not after the budget
		select {
		case <-ready: // it was ready first; what follows says what went wrong
		default:
			t.Fatalf("devrun exited before it was ready: %v\nstdout:\n%s\nstderr:\n%s", cmd.Wait(), printed.String(), stderr.String())
		}
	case <-time.After(readyBudget):
		t.Fatalf("devrun did not become ready within %v\nstdout:\n%s\nstderr:\n%s", readyBudget, printed.String(), stderr.String())
	}
	demoClientLogsIn(t, rest, filepath.Join(local, "demo-client.json"))
	servesMetrics(t, metricsURL)
	goesQuiet(t, metricsURL)

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("devrun after Ctrl-C: %v (want exit status 0)\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("devrun did not stop within a minute of Ctrl-C\nstderr:\n%s", stderr.String())
	}
	// Everything it started is stopped: the pid file goes only after a clean stop.
	if _, err := os.Stat(filepath.Join(local, "controlplane.pids")); !os.IsNotExist(err) {
		t.Errorf("%s/controlplane.pids still exists after Ctrl-C (err %v): the control plane was not stopped", local, err)
	}
}

// TestMakeRunCtrlCPrintsNoError: Ctrl-C on `make run` goes to the whole process group
// (make and devrun). make dies of the signal as every make does (status 130, no message
// of its own), but it must not report the recipe as failed: with `go run`, go exited 1
// after its child's Ctrl-C and make printed `make: *** [...] Error 1`.
func TestMakeRunCtrlCPrintsNoError(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "local")
	cmd := exec.Command("make", "--no-print-directory", "-C", root, "run",
		"RUN_ARGS=--local-dir "+local+" --rest-bind-address "+loopback.FreeAddr(t)+
			" --chain-rpc-port "+strconv.Itoa(loopback.FreePort(t))+" --zap-log-level error")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a terminal's foreground group
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); stopLeftovers(t, local) })
	deadline := time.Now().Add(readyBudget + time.Minute) // make builds devrun first
	for !strings.Contains(out.String(), "fundshare-operator is running.") {
		if time.Now().After(deadline) {
			t.Fatalf("make run did not become ready within %v:\n%s", readyBudget+time.Minute, out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil { // Ctrl-C
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done: // make itself dies of the signal, as every make does (status 130)
		t.Logf("make run after Ctrl-C: %v", err)
	case <-time.After(time.Minute):
		t.Fatalf("make run did not stop within a minute of Ctrl-C:\n%s", out.String())
	}
	if strings.Contains(out.String(), "make: ***") || strings.Contains(out.String(), "make run:") {
		t.Errorf("Ctrl-C on make run reported an error:\n%s", out.String())
	}
	// It builds only what it runs: the manifests are CI's to keep fresh.
	if strings.Contains(out.String(), "controller-gen") {
		t.Errorf("make run ran controller-gen (it should only build devrun):\n%s", out.String())
	}
	if !strings.Contains(out.String(), "stopping the control plane") {
		t.Errorf("devrun did not stop the control plane after Ctrl-C:\n%s", out.String())
	}
}

// stopLeftovers stops the etcd and kube-apiserver that devrun started on local and a
// failed test left running (it kills devrun, which then cannot stop them): what `make
// run` does on its next start. After a passing test there are none.
func stopLeftovers(t *testing.T, local string) {
	t.Helper()
	if err := controlplane.StopStale(local); err != nil {
		t.Errorf("stop the control plane left running on %s: %v", local, err)
	}
}

// demoClientLogsIn requests one token with the demo client's credentials (creds, the file
// devrun writes) from the facade on rest: the first attempt must succeed.
func demoClientLogsIn(t *testing.T, rest, creds string) {
	t.Helper()
	data, err := os.ReadFile(creds)
	if err != nil {
		t.Fatal(err)
	}
	var c devdata.Credentials
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	resp, err := http.PostForm("http://"+rest+"/oauth2/token", url.Values{"grant_type": {"client_credentials"},
		"client_id": {c.ClientID}, "client_secret": {c.ClientSecret}, "audience": {c.Audience}, "scope": {"openid offline"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "access_token") {
		t.Fatalf("the demo client's first token request after \"running\": %d %s", resp.StatusCode, body)
	}
}

// servesMetrics: url answers with the manager's series (the orders by state are described
// from the start).
// goesQuiet: with nothing asked of it, the manager's controllers settle: within a minute
// of ready there are five seconds in which its work queues get fewer than quietAdds items
// a second. A controller that wakes itself for ever does not. (The loop seen, an empty
// intraday dealing point deleted and made again hundreds of times a second, began only
// after the sample class's first point passed; the strike spec "an intraday dealing point
// nobody dealt at is deleted after its cut-off" holds that one.)
func goesQuiet(t *testing.T, url string) {
	t.Helper()
	const quietAdds, window = 10, 5 * time.Second
	deadline := time.Now().Add(time.Minute)
	var rates []string
	prev, err := queueAdds(url)
	for err == nil && time.Now().Before(deadline) {
		time.Sleep(window)
		var cur map[string]float64
		if cur, err = queueAdds(url); err != nil {
			break
		}
		total, busiest, most := 0.0, "", 0.0
		for name, n := range cur {
			d := n - prev[name]
			total += d
			if d > most {
				busiest, most = name, d
			}
		}
		if total/window.Seconds() < quietAdds {
			return
		}
		rates = append(rates, fmt.Sprintf("%.0f/s (most: %s %.0f/s)", total/window.Seconds(), busiest, most/window.Seconds()))
		prev = cur
	}
	if err != nil {
		t.Fatalf("read the work queues from %s: %v", url, err)
	}
	t.Fatalf("the controllers did not go quiet within a minute of ready: work queue adds %s", strings.Join(rates, ", "))
}

// queueAdds reads workqueue_adds_total per queue (its "name" label) from the manager's
// metrics, with the Prometheus text parser.
func queueAdds(url string) (map[string]float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, err
	}
	adds, ok := families["workqueue_adds_total"]
	if !ok || len(adds.GetMetric()) == 0 {
		return nil, fmt.Errorf("no workqueue_adds_total series")
	}
	out := map[string]float64{}
	for _, m := range adds.GetMetric() {
		queue := ""
		for _, l := range m.GetLabel() {
			if l.GetName() == "name" {
				queue = l.GetValue()
			}
		}
		out[queue] += m.GetCounter().GetValue()
	}
	return out, nil
}

func servesMetrics(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s (the metrics address devrun printed): %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "fundshare_orders") {
		t.Fatalf("GET %s: %d %v, fundshare_orders in the answer: %v", url, resp.StatusCode, err, strings.Contains(string(body), "fundshare_orders"))
	}
}
