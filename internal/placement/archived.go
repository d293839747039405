package placement

import (
	"context"
	"errors"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// Archive finds the orders that the retention controller (controllers/retention) moved out
// of the cluster into the order archive (internal/archive). Archived orders are done
// (terminal, no refund outstanding) and never change again.
type Archive interface {
	// CompletedOrders returns every archived COMPLETED order of the account (of isin, or
	// of every ISIN when isin is empty). Cancelled orders hold nothing.
	CompletedOrders(ctx context.Context, namespace, accountID string, isin investv1.ISIN) ([]investv1.Order, error)
}

// ErrArchiveUnavailable says that the order archive could not be read, so the account's
// holdings cannot be known: whatever needs them (a sell's check, the account's status,
// its deletion) refuses to go on rather than decide on part of the history.
var ErrArchiveUnavailable = errors.New("the order archive is unavailable")

// AccountOrders lists the orders of the account that holdings need: the live ones from c
// (by the account index), then the archived completed ones, merged so that each counts
// once (holdings.Merge).
//
// The order of the two reads is what makes a lagging cache harmless. The retention
// controller deletes an order from the cluster only after its archive write is durable
// and read back. So an order missing from c's list was either never in the cluster, or its
// deletion had happened when c saw it, which is after its archive write: the archive read
// that starts afterwards finds it (the store answers reads after writes). An order in both
// counts once. Nothing disappears, nothing counts twice. A nil archive means there is none
// (no retention).
func AccountOrders(ctx context.Context, c client.Reader, a Archive, namespace, account string) ([]investv1.Order, error) {
	var live investv1.OrderList
	if err := c.List(ctx, &live, client.InNamespace(namespace), client.MatchingFields{index.OrderAccount: account}); err != nil {
		return nil, err
	}
	if a == nil {
		return live.Items, nil
	}
	archived, err := a.CompletedOrders(ctx, namespace, account, "")
	if err != nil {
		return nil, fmt.Errorf("%w: orders of account %s/%s: %w", ErrArchiveUnavailable, namespace, account, err)
	}
	return holdings.Merge(live.Items, archived), nil
}
