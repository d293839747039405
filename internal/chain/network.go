package chain

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
)

// Chain ids the operator knows by name.
const (
	// PolygonPoSChainID is Polygon PoS mainnet, where tokens are delivered in production.
	PolygonPoSChainID uint64 = 137
	// AmoyChainID is Polygon's Amoy test network.
	AmoyChainID uint64 = 80002
	// SimulatedChainID is the chain id of go-ethereum's simulated backend, the local chain of
	// `make run` and the tests.
	SimulatedChainID uint64 = 1337
	// ethereumMainnetChainID is refused as a local chain id.
	ethereumMainnetChainID uint64 = 1
)

// Network names the chain the operator is configured to deliver tokens on.
type Network string

// The networks.
const (
	NetworkPolygon Network = "polygon"
	NetworkAmoy    Network = "amoy"
	// NetworkLocal is a development chain whose id is configured (SimulatedChainID by default).
	NetworkLocal Network = "local"
)

// ChainID is the chain id the network must report. localChainID is used for NetworkLocal
// only (0 means SimulatedChainID); it may not be the id of a public chain, so a local
// configuration can never sign for a production chain by mistake.
func (n Network) ChainID(localChainID uint64) (*big.Int, error) {
	switch n {
	case NetworkPolygon:
		return new(big.Int).SetUint64(PolygonPoSChainID), nil
	case NetworkAmoy:
		return new(big.Int).SetUint64(AmoyChainID), nil
	case NetworkLocal:
		if localChainID == 0 {
			localChainID = SimulatedChainID
		}
		switch localChainID {
		case PolygonPoSChainID, AmoyChainID, ethereumMainnetChainID:
			return nil, fmt.Errorf("local chain id %d is the id of a public chain", localChainID)
		}
		return new(big.Int).SetUint64(localChainID), nil
	default:
		return nil, fmt.Errorf("unknown network %q: want %q, %q or %q", string(n), NetworkPolygon, NetworkAmoy, NetworkLocal)
	}
}

// VerifyChainID asks the endpoint for its chain id and returns it when it is the one network
// must have; otherwise an error naming both, before anything is signed or sent.
func VerifyChainID(ctx context.Context, endpoint ethereum.ChainIDReader, network Network, localChainID uint64) (*big.Int, error) {
	want, err := network.ChainID(localChainID)
	if err != nil {
		return nil, err
	}
	got, err := endpoint.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("read chain id: %w", err)
	}
	if got.Cmp(want) != 0 {
		return nil, fmt.Errorf("chain id mismatch: the endpoint reports %s, network %q has %s", got, string(network), want)
	}
	return got, nil
}
