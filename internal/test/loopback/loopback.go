// Package loopback finds free TCP ports on the loopback interface for the servers tests
// start (a manager's REST facade, a local chain, a devrun stack). Test code only: nothing
// the production binary links imports it.
package loopback

import "net"

// T is what the functions need of a test: testing.TB or Ginkgo's GinkgoT().
type T interface {
	Helper()
	Fatal(args ...any)
}

// FreeAddr is a loopback address (127.0.0.1:port) with a port that was free a moment
// ago; a failure to find one fails t.
func FreeAddr(t T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().String()
}

// FreePort is the port of FreeAddr.
func FreePort(t T) int {
	t.Helper()
	addr, err := net.ResolveTCPAddr("tcp", FreeAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	return addr.Port
}
