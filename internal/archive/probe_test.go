package archive

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// pingStore is a Store whose Ping answers err.
type pingStore struct {
	Store
	err error
}

func (s *pingStore) Ping(context.Context) error { return s.err }

func TestTheProbeExportsWhetherTheArchiveAnswers(t *testing.T) {
	up := func(v string) string {
		return `
# HELP fundshare_archive_up 1 when the order archive answered this replica's last ping, 0 when it did not. Absent when no archive is configured.
# TYPE fundshare_archive_up gauge
fundshare_archive_up ` + v + "\n"
	}
	// Without an archive nothing is exported: a 0 would page for an archive nobody has.
	if n := testutil.CollectAndCount(registeredProbe); n != 0 {
		t.Fatalf("no archive configured: %d series, want none", n)
	}
	s := &pingStore{}
	p := NewProbe(s, 0)
	if !p.Poll(context.Background()) {
		t.Fatal("Poll failed on an archive that answers")
	}
	RegisterProbe(p)
	defer RegisterProbe(nil)
	if err := testutil.CollectAndCompare(registeredProbe, strings.NewReader(up("1"))); err != nil {
		t.Fatal(err)
	}
	s.err = errors.New("connection refused")
	if p.Poll(context.Background()) {
		t.Fatal("Poll succeeded on an archive that fails")
	}
	if err := testutil.CollectAndCompare(registeredProbe, strings.NewReader(up("0"))); err != nil {
		t.Fatal(err)
	}
	if p.NeedLeaderElection() {
		t.Fatal("the probe must run on every replica")
	}
}
