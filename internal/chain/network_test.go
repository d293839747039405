package chain

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
)

func TestNetworkChainIDs(t *testing.T) {
	for _, tc := range []struct {
		network Network
		local   uint64
		want    uint64
		wantErr string
	}{
		{NetworkPolygon, 0, 137, ""},
		{NetworkPolygon, 31337, 137, ""}, // the local id is for the local network only
		{NetworkAmoy, 0, 80002, ""},
		{NetworkLocal, 0, SimulatedChainID, ""},
		{NetworkLocal, 31337, 31337, ""},
		{NetworkLocal, 137, 0, "public chain"},
		{NetworkLocal, 80002, 0, "public chain"},
		{NetworkLocal, 1, 0, "public chain"},
		{"mainnet", 0, 0, "unknown network"},
		{"", 0, 0, "unknown network"},
	} {
		got, err := tc.network.ChainID(tc.local)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q local %d: error %v, want one containing %q", tc.network, tc.local, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.Uint64() != tc.want {
			t.Errorf("%q local %d: %v, %v; want %d", tc.network, tc.local, got, err, tc.want)
		}
	}
}

type fixedChainID struct {
	id  *big.Int
	err error
}

func (f fixedChainID) ChainID(context.Context) (*big.Int, error) { return f.id, f.err }

func TestVerifyChainIDRefusesAnEndpointOfAnotherChain(t *testing.T) {
	ctx := context.Background()
	if got, err := VerifyChainID(ctx, fixedChainID{id: big.NewInt(137)}, NetworkPolygon, 0); err != nil || got.Uint64() != 137 {
		t.Fatalf("Polygon endpoint for polygon: %v, %v", got, err)
	}
	_, err := VerifyChainID(ctx, fixedChainID{id: big.NewInt(80002)}, NetworkPolygon, 0)
	if err == nil || !strings.Contains(err.Error(), "80002") || !strings.Contains(err.Error(), "137") {
		t.Fatalf("Amoy endpoint for polygon: %v, want a mismatch naming both ids", err)
	}
	_, err = VerifyChainID(ctx, fixedChainID{id: big.NewInt(137)}, NetworkLocal, 0)
	if err == nil {
		t.Fatal("Polygon endpoint accepted for the local network")
	}
	down := errors.New("connection refused")
	if _, err := VerifyChainID(ctx, fixedChainID{err: down}, NetworkAmoy, 0); !errors.Is(err, down) {
		t.Fatalf("endpoint error: %v", err)
	}
}
