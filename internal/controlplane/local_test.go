package controlplane

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

const helperEnv = "FUNDSHARE_LOCAL_CONTROLPLANE_DIR"

func init() { logf.SetLogger(logr.Discard()) } // envtest logs through controller-runtime

// TestLocalControlPlaneHelperProcess is not a test: run by
// TestMakeRunComesUpAfterKill9 in a subprocess, it starts the local control plane of
// `make run`, writes a namespace and reports "ready", then waits to be killed.
func TestLocalControlPlaneHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		return // run normally: nothing to do
	}
	l, err := StartLocal(dir, Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	c, err := client.New(l.Config, client.Options{Scheme: Scheme()})
	if err == nil {
		err = c.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kept"}})
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	select {}
}

// Rule (make run): after kill -9 of `make run`, the next start comes up by itself within
// a bound, having stopped the etcd and kube-apiserver the killed run left behind; the
// data is kept, and etcd runs with fsync on.
func TestMakeRunComesUpAfterKill9(t *testing.T) {
	dir := t.TempDir()
	t.Cleanup(func() { _ = StopStale(dir) })

	cmd := exec.Command(os.Args[0], "-test.run=^TestLocalControlPlaneHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); line == "ready" || strings.HasPrefix(line, "error:") {
				ready <- line
			}
		}
		close(ready)
	}()
	select {
	case line := <-ready:
		if line != "ready" {
			t.Fatalf("first run: %s", line)
		}
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("first run did not come up")
	}

	old := recordedPids(t, dir)
	if len(old) != 2 {
		t.Fatalf("recorded pids %v, want etcd and kube-apiserver", old)
	}
	for _, pid := range old {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if strings.Contains(string(cmdline), "unsafe-no-fsync=true") {
			t.Errorf("pid %d runs without fsync: %q", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}

	// kill -9: no deferred stop runs; etcd and kube-apiserver are left running.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for _, pid := range old {
		if !alive(pid) {
			t.Fatalf("pid %d died with its parent: the test no longer shows the orphans", pid)
		}
	}

	const bound = 90 * time.Second
	start := time.Now()
	type result struct {
		l   *Local
		err error
	}
	done := make(chan result, 1)
	go func() {
		l, err := StartLocal(dir, Options{})
		done <- result{l, err}
	}()
	var l *Local
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("second run: %v", r.err)
		}
		l = r.l
	case <-time.After(bound):
		t.Fatalf("second run did not come up within %s", bound)
	}
	defer func() {
		if err := l.Stop(); err != nil {
			t.Error(err)
		}
	}()
	t.Logf("second run up in %s", time.Since(start).Round(time.Millisecond))
	for _, pid := range old {
		if alive(pid) {
			t.Errorf("pid %d of the killed run still runs", pid)
		}
	}
	c, err := client.New(l.Config, client.Options{Scheme: Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Name: "kept"}, &corev1.Namespace{}); err != nil {
		t.Errorf("data of the killed run: %v", err)
	}
	if now := recordedPids(t, dir); len(now) != 2 {
		t.Errorf("second run recorded %v", now)
	}
}

// Rule: a second `make run` on the same folder is refused while the first runs; it never
// stops the first one's processes.
func TestMakeRunRefusesAFolderInUse(t *testing.T) {
	dir := t.TempDir()
	l, err := StartLocal(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Stop() }()
	pids := recordedPids(t, dir)
	if _, err := StartLocal(dir, Options{}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second start on a folder in use: %v", err)
	}
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("pid %d of the running plane was stopped", pid)
		}
	}
}

func recordedPids(t *testing.T, dir string) []int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}
