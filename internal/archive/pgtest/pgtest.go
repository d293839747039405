// Package pgtest starts a throwaway PostgreSQL server for tests, as the control-plane
// harness does for etcd: initdb into a temporary folder, the server on a free loopback
// port, a password-protected superuser, fsync off (test data only), removed when the test
// ends. Test-only: import it from _test.go files.
//
// The server binaries come from Debian's postgresql package (/usr/lib/postgresql/<ver>/bin,
// the newest version found; PG_BINDIR overrides). When they are missing the test FAILS
// with the install command: the PostgreSQL path of the archive is never silently skipped.
//
// PostgreSQL refuses to run as root, so when the test runs as root (CI, containers) initdb
// and the server run as the unprivileged user nobody (uid/gid 65534, or PGTEST_UID and
// PGTEST_GID), and the cluster's folder is created for and owned by that user. The server
// is the test process's child with a parent-death signal, so a test killed midway leaves
// no server behind.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// TB is what the harness needs of a test: *testing.T and *testing.B satisfy it, and so
// does Ginkgo's GinkgoT() (which is no testing.TB), so a Ginkgo suite can start a cluster
// in its BeforeSuite with pgtest.Start(GinkgoT()).
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	bin      string
	dir      string
	port     int
	password string
	cred     *syscall.Credential

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	dbs  atomic.Int64
}

// installHint says how to get the server binaries.
const installHint = "install them with `apt-get update && apt-get install -y postgresql` (or set PG_BINDIR)"

// BinDir finds the server binaries: PG_BINDIR, else the newest
// /usr/lib/postgresql/<version>/bin that has initdb and postgres.
func BinDir() (string, error) {
	has := func(dir string) bool {
		for _, b := range []string{"initdb", "postgres"} {
			if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || fi.IsDir() { //nolint:gosec // G703: PG_BINDIR is the test runner's own choice
				return false
			}
		}
		return true
	}
	if d := os.Getenv("PG_BINDIR"); d != "" {
		if !has(d) {
			return "", fmt.Errorf("PG_BINDIR=%s has no initdb and postgres: %s", d, installHint)
		}
		return d, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	var dirs []string
	for _, m := range matches {
		if has(filepath.Dir(m)) {
			dirs = append(dirs, filepath.Dir(m))
		}
	}
	if len(dirs) == 0 {
		return "", errors.New("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin: " + installHint)
	}
	version := func(d string) int {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		return v
	}
	slices.SortFunc(dirs, func(a, b string) int { return version(a) - version(b) })
	return dirs[len(dirs)-1], nil
}

// Start initialises and starts a cluster; it is stopped and removed when tb ends. Any
// failure fails tb.
func Start(tb TB) *Cluster {
	tb.Helper()
	bin, err := BinDir()
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	c := &Cluster{bin: bin, password: randomHex(16)}
	if os.Geteuid() == 0 {
		c.cred = &syscall.Credential{Uid: envID("PGTEST_UID", 65534), Gid: envID("PGTEST_GID", 65534)}
	}
	c.dir, err = os.MkdirTemp("", "pgtest-")
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	tb.Cleanup(func() {
		c.kill()
		_ = os.RemoveAll(c.dir)
	})
	if err := c.chown(c.dir); err != nil {
		tb.Fatalf("pgtest: give %s to the server's user: %v", c.dir, err)
	}
	pwfile := filepath.Join(c.dir, "pwfile")
	if err := os.WriteFile(pwfile, []byte(c.password+"\n"), 0o600); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	if err := c.chown(pwfile); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	initdb := c.command(filepath.Join(bin, "initdb"), "-D", c.data(), "-U", "postgres", "--pwfile="+pwfile,
		"--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		tb.Fatalf("pgtest: initdb (%s) failed: %v\n%s", bin, err, out)
	}
	_ = os.Remove(pwfile)
	var lastErr error
	for range 3 { // a free port may be taken by someone else before the server binds it
		if c.port, err = freePort(); err != nil {
			tb.Fatalf("pgtest: %v", err)
		}
		if lastErr = c.start(); lastErr == nil {
			return c
		}
	}
	tb.Fatalf("pgtest: the server did not start: %v\n%s", lastErr, c.logTail())
	return nil
}

func envID(name string, def uint32) uint32 {
	if v, err := strconv.ParseUint(os.Getenv(name), 10, 32); err == nil {
		return uint32(v)
	}
	return def
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }
func (c *Cluster) log() string  { return filepath.Join(c.dir, "server.log") }

func (c *Cluster) chown(path string) error {
	if c.cred == nil {
		return nil
	}
	return os.Chown(path, int(c.cred.Uid), int(c.cred.Gid))
}

// command runs a server binary as the server's user.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "HOME=" + c.dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd
}

// start runs the server and waits until it accepts connections.
func (c *Cluster) start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		return errors.New("the server is running")
	}
	logf, err := os.OpenFile(c.log(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer func() { _ = logf.Close() }()
	cmd := c.command(filepath.Join(c.bin, "postgres"), "-D", c.data(), "-p", strconv.Itoa(c.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+c.dir,
		// fsync off: commits reach the OS at once (they survive the server's crash or
		// Stop, not the machine's); test data only.
		"-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200", "-c", "shared_buffers=32MB")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	c.cmd, c.done = cmd, done
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.dsn("postgres"))
		if err == nil {
			_ = conn.Close(ctx)
			cancel()
			return nil
		}
		cancel()
		select {
		case <-done:
			c.cmd = nil
			return fmt.Errorf("the server exited: %w", err)
		default:
		}
		if time.Now().After(deadline) {
			c.stopLocked(syscall.SIGQUIT)
			return fmt.Errorf("the server does not accept connections: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopLocked signals the server and waits for it to exit.
func (c *Cluster) stopLocked(sig syscall.Signal) {
	if c.cmd == nil {
		return
	}
	_ = c.cmd.Process.Signal(sig)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
	c.cmd = nil
}

func (c *Cluster) kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil {
		// A paused server cannot shut down.
		_ = syscall.Kill(c.cmd.Process.Pid, syscall.SIGCONT)
		for _, child := range childrenOf(c.cmd.Process.Pid) {
			_ = syscall.Kill(child, syscall.SIGCONT)
		}
	}
	c.stopLocked(syscall.SIGQUIT)
}

// Stop stops the server (an immediate shutdown: clients see their connections drop); the
// data stays, and Restart starts it again on the same port.
func (c *Cluster) Stop(tb TB) {
	tb.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		tb.Fatal("pgtest: Stop of a stopped server")
	}
	c.stopLocked(syscall.SIGQUIT)
}

// Kill kills the server as kill -9 would: SIGKILL to the postmaster and to each of its
// backends at once, no shutdown of any kind, and waits until every one has exited. The
// data stays; Restart starts the server again, which recovers from its write-ahead log as
// after a power cut of the process (not of the machine: fsync is off).
func (c *Cluster) Kill(tb TB) {
	tb.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		tb.Fatal("pgtest: Kill of a stopped server")
	}
	pid := c.cmd.Process.Pid
	children := childrenOf(pid)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	for _, child := range children {
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
	<-c.done
	c.cmd = nil
	// The backends are the postmaster's children, not ours: wait until /proc has no trace
	// of them, or a restart finds their shared memory still attached.
	deadline := time.Now().Add(30 * time.Second)
	for _, child := range children {
		for !gone(child) {
			if time.Now().After(deadline) {
				tb.Fatalf("pgtest: backend %d of the killed server has not exited", child)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// gone reports whether process pid has exited: no /proc entry, or a zombie that waits to
// be reaped by whoever adopted it (it holds no memory any more).
func gone(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	// The state follows the command name, which is in parentheses and may hold spaces.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	return strings.HasPrefix(strings.TrimSpace(rest), "Z")
}

// Pause freezes the server and all its backends (SIGSTOP to the postmaster, then to each
// of its children: every backend is its own process group): clients stay connected and
// get no answer, as from a database host that hangs. Resume undoes it.
func (c *Cluster) Pause(tb TB) {
	tb.Helper()
	c.signalGroup(tb, syscall.SIGSTOP)
}

// Resume continues a paused server.
func (c *Cluster) Resume(tb TB) {
	tb.Helper()
	c.signalGroup(tb, syscall.SIGCONT)
}

func (c *Cluster) signalGroup(tb TB, sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		tb.Fatal("pgtest: the server is not running")
	}
	pid := c.cmd.Process.Pid
	if err := syscall.Kill(pid, sig); err != nil {
		tb.Fatalf("pgtest: signal %v to the server: %v", sig, err)
	}
	for _, child := range childrenOf(pid) {
		_ = syscall.Kill(child, sig) // a backend may have exited meanwhile
	}
}

// childrenOf lists the processes whose parent is pid (from /proc).
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// Restart starts a stopped server again.
func (c *Cluster) Restart(tb TB) {
	tb.Helper()
	if err := c.start(); err != nil {
		tb.Fatalf("pgtest: restart: %v\n%s", err, c.logTail())
	}
}

// Port is the server's loopback port.
func (c *Cluster) Port() int { return c.port }

// dsn is the superuser's URL of a database.
func (c *Cluster) dsn(db string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword("postgres", c.password),
		Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)), Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// NewDatabase creates an empty database and returns its URL (with the superuser's
// password: tests only).
func (c *Cluster) NewDatabase(tb TB) string {
	tb.Helper()
	name := fmt.Sprintf("archive_%d", c.dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.dsn("postgres"))
	if err != nil {
		tb.Fatalf("pgtest: connect: %v", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		tb.Fatalf("pgtest: create database %s: %v", name, err)
	}
	return c.dsn(name)
}

// logTail is the end of the server's log, for failure messages.
func (c *Cluster) logTail() string {
	b, _ := os.ReadFile(c.log())
	s := string(b)
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return strings.TrimSpace(s)
}
