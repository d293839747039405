package sqlstore

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/archivetest"
)

func TestStoreCallsAreMeasuredWithTheirErrors(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "archive.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	calls := func(op string) uint64 { return histogramCount(t, op) }
	errs := func(op, kind string) float64 { return testutil.ToFloat64(opErrors.WithLabelValues("sqlite", op, kind)) }

	puts, gets, conflicts, notFound := calls("put"), calls("get"), errs("put", "conflict"), errs("get", "internal")
	o := archivetest.Order("tenant-a", "00000000-0000-4000-8000-000000000001", time.Unix(1_760_000_000, 0))
	if err := s.Put(ctx, o, investv1.AccountTypeIndividual); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, o, investv1.AccountTypeBusiness); !errors.Is(err, archive.ErrConflict) {
		t.Fatalf("want a conflict, got %v", err)
	}
	if _, err := s.Get(ctx, "tenant-a", "missing"); !errors.Is(err, archive.ErrNotFound) {
		t.Fatal(err)
	}
	if got := calls("put") - puts; got != 2 {
		t.Errorf("put latency observed %d times, want 2", got)
	}
	if got := calls("get") - gets; got != 1 {
		t.Errorf("get latency observed %d times, want 1", got)
	}
	if got := errs("put", "conflict") - conflicts; got != 1 {
		t.Errorf("put conflicts counted %v, want 1", got)
	}
	if got := errs("get", "internal") - notFound; got != 0 {
		t.Errorf("a not-found get counted as an error")
	}
	// They are on the manager's metrics registry.
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range families {
		found[f.GetName()] = true
	}
	for _, name := range []string{"fundshare_archive_operation_duration_seconds", "fundshare_archive_operation_errors_total"} {
		if !found[name] {
			t.Errorf("%s is not on controller-runtime's registry", name)
		}
	}
}

// histogramCount is the number of observations of an operation's latency.
func histogramCount(t *testing.T, op string) uint64 {
	t.Helper()
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "fundshare_archive_operation_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["backend"] == "sqlite" && labels["operation"] == op {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}
