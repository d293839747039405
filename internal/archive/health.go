package archive

import (
	"context"
	"net/http"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/healthz"
)

// ReadyCheck is a readiness check of the archive for the manager's health probe
// (mgr.AddReadyzCheck("archive", archive.ReadyCheck(store))): it fails while Ping fails,
// within timeout at most.
func ReadyCheck(s Store, timeout time.Duration) healthz.Checker {
	return func(r *http.Request) error {
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		return s.Ping(ctx)
	}
}
