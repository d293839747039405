// Package patch writes objects the way every controller of the operator must: as a merge
// patch from the version it read, under the optimistic lock (the patch carries that
// resourceVersion, so the API server refuses it with a conflict when someone else wrote in
// between). Losing that race is routine (two controllers write one Account's status, a
// person edits an order, the cache lags): the reconciler reads the object again and decides
// again. Retry says so in one place, instead of a hand-written conflict branch per write.
// One hot path replaces a status instead (StatusReplace, under the same lock): the strike,
// which writes thousands of orders at once.
package patch

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ConflictRetry is how soon a reconciler that lost the race comes back to read the object
// again: soon, since the object has changed, and not at once, so that the informer cache
// has the new version.
const ConflictRetry = 200 * time.Millisecond

// Status writes obj's status as a merge patch from before (obj as read, before the
// change), under the optimistic lock.
func Status(ctx context.Context, c client.Client, obj, before client.Object) error {
	return c.Status().Patch(ctx, obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
}

// StatusReplace writes obj's whole status as read and changed (an update of the status
// subresource), under the optimistic lock on obj's resourceVersion: the same exclusion as
// Status, for about half the API server's work on a large object (it decodes the body
// once, where a merge patch has it encode the stored object, merge and decode again:
// docs/performance.md, the NAV strike). It is for the hot paths that write thousands of
// objects at once. What it cannot keep are status fields this binary's types do not know
// (written by a newer version during an upgrade): a merge patch leaves them alone, an
// update drops them, and the CRD's immutability rules refuse a write that would drop
// recorded evidence.
func StatusReplace(ctx context.Context, c client.Client, obj client.Object) error {
	if obj.GetResourceVersion() == "" {
		return fmt.Errorf("replace the status of %s: no resourceVersion to lock on", obj.GetName())
	}
	return c.Status().Update(ctx, obj)
}

// Object writes obj (metadata and spec) as a merge patch from before, under the
// optimistic lock.
func Object(ctx context.Context, c client.Client, obj, before client.Object) error {
	return c.Patch(ctx, obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
}

// Stale reports whether a write failed because the object changed or left since it was
// read (a conflict, or not found): nothing is wrong, the decision was made on an old
// version and must be made again.
func Stale(err error) bool {
	return apierrors.IsConflict(err) || apierrors.IsNotFound(err)
}

// Retry is what a reconciler returns after a write that failed with err: when the object
// was stale, come back after ConflictRetry (logged at V(1), not as an error: it is
// routine); otherwise the error, naming what was written. A nil err returns the zero
// result.
func Retry(ctx context.Context, err error, what string) (ctrl.Result, error) {
	switch {
	case err == nil:
		return ctrl.Result{}, nil
	case Stale(err):
		ctrl.LoggerFrom(ctx).V(1).Info("the object changed while writing; reading it again", "write", what, "reason", apierrors.ReasonForError(err))
		return ctrl.Result{RequeueAfter: ConflictRetry}, nil
	}
	return ctrl.Result{}, fmt.Errorf("%s: %w", what, err)
}
