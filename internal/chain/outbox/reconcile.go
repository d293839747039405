package outbox

import (
	"context"
	"fmt"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Unsent tells a reconciler what to return after Send, when Send recorded nothing: come
// back in a second when the outbox cannot sign yet (MustWait), read the object again
// after a record refused as stale (its nonce was freed), or fail naming what was being
// sent. stop is false once tx is recorded, whatever its broadcast did: a failed broadcast
// is logged here, and Track broadcasts the recorded bytes again.
func Unsent(ctx context.Context, tx *investv1.ChainTransaction, err error, sending string) (res ctrl.Result, stop bool, _ error) {
	switch {
	case MustWait(err):
		return ctrl.Result{RequeueAfter: time.Second}, true, nil
	case tx == nil && patch.Stale(err):
		return ctrl.Result{RequeueAfter: patch.ConflictRetry}, true, nil
	case tx == nil && err != nil:
		return ctrl.Result{}, true, fmt.Errorf("send %s: %w", sending, err)
	case err != nil:
		ctrl.LoggerFrom(ctx).Error(err, "broadcast failed; the recorded transaction is broadcast again", "hash", tx.Attempts[0].Hash)
	}
	return ctrl.Result{}, false, nil
}
