package token

import (
	"context"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// SettledBy exposes settledBy to the external tests.
func (r *LedgerReconciler) SettledBy(ctx context.Context, o *investv1.Order, at uint64) (int64, error) {
	return r.settledBy(ctx, o, at)
}

// GrantedTo exposes grantedTo to the external tests.
var GrantedTo = grantedTo
