package transfer

import (
	"errors"
	"flag"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// Options are the indexer's settings on the manager's command line.
type Options struct {
	// Range is the number of blocks per eth_getLogs.
	Range uint64
	// Interval between indexing rounds.
	Interval time.Duration
}

// BindFlags registers the indexer's flags on fs.
func BindFlags(fs *flag.FlagSet, o *Options) {
	fs.Uint64Var(&o.Range, "transfer-index-range", DefaultRange, "blocks per eth_getLogs query of the transfer indexer (public Polygon endpoints refuse wide ranges)")
	fs.DurationVar(&o.Interval, "transfer-index-interval", 2*time.Second, "how often the transfer indexer reads new confirmed blocks")
}

// Setup adds the indexer to mgr (leader-elected) on chain, indexing blocks with
// confirmations (the token controllers' value).
func Setup(mgr ctrl.Manager, chain Chain, confirmations uint64, o Options) (*Indexer, error) {
	if chain == nil {
		return nil, errors.New("transfer: a chain is needed")
	}
	x := &Indexer{
		Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Chain: chain, Confirmations: confirmations,
		Range: o.Range, Interval: o.Interval,
		Recorder: mgr.GetEventRecorder("transfer-indexer"), Log: mgr.GetLogger().WithName("transfers"),
	}
	return x, mgr.Add(x)
}
