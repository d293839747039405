package delivery

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/fundshare/fundshare-operator/internal/chain/agent"
)

// Setup adds the chain agent (controller "settlement-chain") on the connected chain rt to
// the manager, its tokens found by tokens, and adds the transactions orders and delivery
// batches record to rt's outbox, which broadcasts them again when the chain is behind.
func Setup(mgr ctrl.Manager, rt *agent.Runtime, tokens agent.TokenLookup) error {
	if rt.BatchSize > agent.MaxBatchSize {
		return fmt.Errorf("chain agent: --chain-batch-size %d is above %d (the most members a DeliveryBatch holds)", rt.BatchSize, agent.MaxBatchSize)
	}
	if tokens == nil {
		return fmt.Errorf("chain agent: no token lookup")
	}
	rt.Outbox.AddSource(OrdersSource(mgr.GetAPIReader()))
	rt.Outbox.AddSource(BatchesSource(mgr.GetAPIReader()))
	r := &Reconciler{
		Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Outbox: rt.Outbox, Tokens: tokens,
		Confirmations: rt.Confirmations, Chain: rt.Backend,
		BatchSize: rt.BatchSize, BatchWindow: rt.BatchWindow, Backend: rt.Backend,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("chain agent: %w", err)
	}
	return nil
}
