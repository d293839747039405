// Package localport picks a free TCP port on 127.0.0.1 for a server that binds it a
// moment later (the manager's metrics server in make run, the servers tests start).
//
// A port the kernel picks for "127.0.0.1:0" comes from the ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range), from which every outgoing connection and
// every other listener on port 0 draws too, so on a busy machine it was taken by the time
// the server bound it ("address already in use"). The ports here come from below that
// range, where the kernel never assigns one by itself: only another explicit bind can take
// them, and each is checked free when handed out and never handed out twice by one
// process.
package localport

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// lowest is the lowest port handed out: above the well-known and most registered
// service ports a developer's machine may run.
const lowest = 20000

var (
	mu     sync.Mutex
	handed = map[int]bool{}
)

// Free is a port of 127.0.0.1 that was free a moment ago, outside the kernel's ephemeral
// range when there is room below it (else one the kernel picks).
func Free() (int, error) {
	mu.Lock()
	defer mu.Unlock()
	if hi := ephemeralStart(); hi-lowest >= 1000 {
		for range 200 {
			p := lowest + rand.IntN(hi-lowest) //nolint:gosec // a port number, not a secret
			if handed[p] || !free(p) {
				continue
			}
			handed[p] = true
			return p, nil
		}
	}
	// No room below the ephemeral range (a machine configured so): let the kernel pick.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// FreeAddr is 127.0.0.1:Free().
func FreeAddr() (string, error) {
	p, err := Free()
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(p)), nil
}

// free reports whether port can be bound on 127.0.0.1 now.
func free(port int) bool {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = ln.Close()
	return true
}

// ephemeralStart is the first port of the kernel's ephemeral range (32768 when it
// cannot be read, Linux's default).
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 32768
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		return 32768
	}
	return n
}
