// Package loopback finds free TCP ports on the loopback interface for the servers tests
// start (a manager's REST facade, a local chain, a devrun stack), as internal/localport
// picks them (below the kernel's ephemeral range), failing the test when none is found.
// Test code only: nothing the production binary links imports it.
package loopback

import (
	"net"
	"strconv"

	"github.com/fundshare/fundshare-operator/internal/localport"
)

// T is what the functions need of a test: testing.TB or Ginkgo's GinkgoT().
type T interface {
	Helper()
	Fatal(args ...any)
}

// FreeAddr is a loopback address (127.0.0.1:port) with a port that was free a moment
// ago, outside the kernel's ephemeral range; a failure to find one fails t.
func FreeAddr(t T) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(FreePort(t)))
}

// FreePort is the port of FreeAddr.
func FreePort(t T) int {
	t.Helper()
	p, err := localport.Free()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
