package controlplane

import (
	"bytes"

	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Local is the control plane of `make run`: etcd keeps its data in <dir>/etcd with fsync
// on (it is the newcomer's real data, unlike the throwaway data of the test suites, which
// run with --unsafe-no-fsync), and the processes of an earlier run that was killed
// (kill -9 leaves etcd and kube-apiserver running: envtest starts them in their own
// process groups, so they outlive their parent) are stopped before the new ones start.
type Local struct {
	Env    *envtest.Environment
	Config *rest.Config
	dir    string
	lock   *os.File
}

// Files of the local folder.
const (
	pidFile  = "controlplane.pids"
	lockFile = "run.lock"
)

// StartLocal starts the local control plane with its data in dir (an absolute path):
// it takes dir's lock (a second `make run` on the same folder is refused, not allowed to
// kill the first one's processes), stops what an earlier run left, starts etcd (fsync
// on) and kube-apiserver, and records their pids in dir/controlplane.pids.
func StartLocal(dir string, opts Options) (*Local, error) {
	if err := os.MkdirAll(filepath.Join(dir, "etcd"), 0o700); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = lock.Close()
		return nil, fmt.Errorf("%s is in use by another `make run` (its lock %s is held)", dir, filepath.Join(dir, lockFile))
	}
	l := &Local{dir: dir, lock: lock}
	if err := StopStale(dir); err != nil {
		l.release()
		return nil, err
	}
	// A fresh certificate folder per run (envtest would reuse old certificates without
	// their CA) inside dir, so that the kube-apiserver's command line names dir.
	certDir := filepath.Join(dir, "apiserver")
	if err := os.RemoveAll(certDir); err != nil {
		l.release()
		return nil, err
	}
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		l.release()
		return nil, err
	}
	opts.EtcdDataDir = filepath.Join(dir, "etcd")
	env := New(opts)
	// Real data: fsync on. envtest adds --unsafe-no-fsync=true by default; an explicit
	// argument overrides its default.
	env.ControlPlane.Etcd.Configure().Set("unsafe-no-fsync", "false")
	env.ControlPlane.GetAPIServer().CertDir = certDir
	l.Env = env
	cfg, err := env.Start()
	// Record whatever started, also when the start failed half-way.
	if werr := writePids(dir); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		_ = env.Stop()
		l.release()
		return nil, err
	}
	l.Config = cfg
	return l, nil
}

// Stop stops the control plane, keeping the data, and releases the folder.
func (l *Local) Stop() error {
	err := l.Env.Stop()
	if err == nil {
		_ = os.Remove(filepath.Join(l.dir, pidFile))
	}
	l.release()
	return err
}

func (l *Local) release() {
	if l.lock != nil {
		_ = l.lock.Close() // closing the descriptor releases the flock
		l.lock = nil
	}
}

// StopStale stops the etcd and kube-apiserver processes that an earlier run on dir left
// behind: those recorded in dir/controlplane.pids, and any other (a run killed between
// starting them and recording them) whose command line names dir. A pid counts only when
// /proc/<pid>/cmdline is really etcd or kube-apiserver with dir on its command line, so a
// pid reused by an unrelated process is never signalled. SIGTERM first, SIGKILL after 10 s.
func StopStale(dir string) error {
	pids := map[int]bool{}
	if data, err := os.ReadFile(filepath.Join(dir, pidFile)); err == nil {
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids[pid] = true
			}
		}
	}
	for _, pid := range scanOurs(dir) {
		pids[pid] = true
	}
	var stale []int
	for pid := range pids {
		if pid != os.Getpid() && isOurs(pid, dir) {
			stale = append(stale, pid)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	fmt.Fprintf(os.Stderr, "stopping etcd/kube-apiserver left running by an earlier run on %s: pids %v\n", dir, stale)
	for _, pid := range stale {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range stale {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if alive(pid) && isOurs(pid, dir) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	for _, pid := range stale {
		for i := 0; alive(pid) && i < 100; i++ {
			time.Sleep(50 * time.Millisecond)
		}
		if alive(pid) {
			return fmt.Errorf("process %d (left by an earlier run on %s) does not stop", pid, dir)
		}
	}
	_ = os.Remove(filepath.Join(dir, pidFile))
	return nil
}

// writePids records the running etcd and kube-apiserver of dir.
func writePids(dir string) error {
	var b strings.Builder
	for _, pid := range scanOurs(dir) {
		fmt.Fprintln(&b, pid)
	}
	return os.WriteFile(filepath.Join(dir, pidFile), []byte(b.String()), 0o600)
}

// scanOurs lists the processes that are etcd or kube-apiserver of dir.
func scanOurs(dir string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if isOurs(pid, dir) {
			out = append(out, pid)
		}
	}
	return out
}

// isOurs reports whether pid is a live etcd whose data directory is dir/etcd or a live
// kube-apiserver whose certificate directory is dir/apiserver.
func isOurs(pid int, dir string) bool {
	if !alive(pid) {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(data) == 0 {
		return false
	}
	args := strings.Split(string(bytes.TrimRight(data, "\x00")), "\x00")
	switch filepath.Base(args[0]) {
	case "etcd":
		return hasArg(args, "--data-dir="+filepath.Join(dir, "etcd"))
	case "kube-apiserver":
		return hasArg(args, "--cert-dir="+filepath.Join(dir, "apiserver"))
	}
	return false
}

func hasArg(args []string, want string) bool {
	for _, a := range args[1:] {
		if a == want {
			return true
		}
	}
	return false
}

// alive reports whether pid exists and is not a zombie (exited, not yet reaped).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses, which may contain spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false
	}
	return data[i+2] != 'Z' && data[i+2] != 'X'
}
