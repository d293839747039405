package localport

import (
	"net"
	"testing"
)

// TestPortsComeFromBelowTheEphemeralRangeAndAreNeverHandedOutTwice: the kernel never
// assigns these ports to a connection or a listener on port 0 by itself, so a port stays
// free between the test choosing it and a server binding it.
func TestPortsComeFromBelowTheEphemeralRangeAndAreNeverHandedOutTwice(t *testing.T) {
	start := ephemeralStart()
	seen := map[int]bool{}
	for range 50 {
		p, err := Free()
		if err != nil {
			t.Fatal(err)
		}
		if p < lowest || p >= start {
			t.Fatalf("port %d outside [%d, %d)", p, lowest, start)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
	}
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the address handed out cannot be bound: %v", err)
	}
	_ = ln.Close()
}
