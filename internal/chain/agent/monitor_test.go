package agent

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// fakeChain answers the monitor's reads; err fails them.
type fakeChain struct {
	head    uint64
	at      time.Time
	balance *big.Int
	err     error
	asked   common.Address
}

func (f *fakeChain) HeaderByNumber(context.Context, *big.Int) (*types.Header, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &types.Header{Number: new(big.Int).SetUint64(f.head), Time: uint64(f.at.Unix())}, nil
}

func (f *fakeChain) BalanceAt(_ context.Context, a common.Address, _ *big.Int) (*big.Int, error) {
	f.asked = a
	if f.err != nil {
		return nil, f.err
	}
	return f.balance, nil
}

func TestTheMonitorExportsTheHeadItsAgeAndTheSignersBalance(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	signer := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	wei, _ := new(big.Int).SetString("2500000000000000000", 10) // 2.5 POL
	ch := &fakeChain{head: 1234, at: now.Add(-90 * time.Second), balance: wei}
	m := NewMonitor(ch, signer, time.Second, func() time.Time { return now })

	if n := testutil.CollectAndCount(m); n != 1 {
		t.Fatalf("before any reading: %d series, want only %s", n, MetricChainUp)
	}
	if err := testutil.CollectAndCompare(m, strings.NewReader(`
# HELP fundshare_chain_up 1 when the chain monitor's last reading of the chain (head and signer balance) succeeded, 0 when a call failed.
# TYPE fundshare_chain_up gauge
fundshare_chain_up 0
`)); err != nil {
		t.Fatal(err)
	}

	if !m.Poll(context.Background()) {
		t.Fatal("Poll failed on a chain that answers")
	}
	if ch.asked != signer {
		t.Fatalf("balance read for %s, want the signer %s", ch.asked, signer)
	}
	want := `
# HELP fundshare_chain_head_age_seconds Seconds between now and the timestamp of that block: how far the endpoint's head lags behind the wall clock (a block every ~2 s on Polygon).
# TYPE fundshare_chain_head_age_seconds gauge
fundshare_chain_head_age_seconds 90
# HELP fundshare_chain_head_block Number of the latest block the endpoint reported at the monitor's last successful reading.
# TYPE fundshare_chain_head_block gauge
fundshare_chain_head_block 1234
# HELP fundshare_chain_signer_balance Balance of the agent's signer in the chain's native coin (POL on Polygon; wei / 1e18) at the last successful reading: what pays every transaction's gas.
# TYPE fundshare_chain_signer_balance gauge
fundshare_chain_signer_balance{signer="0x00000000000000000000000000000000000000AA"} 2.5
# HELP fundshare_chain_up 1 when the chain monitor's last reading of the chain (head and signer balance) succeeded, 0 when a call failed.
# TYPE fundshare_chain_up gauge
fundshare_chain_up 1
`
	if err := testutil.CollectAndCompare(m, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}

	// The endpoint fails: up drops to 0, the error is counted, and the head's age keeps
	// growing with the clock (the last head known stays what it was).
	before := testutil.ToFloat64(rpcErrors.WithLabelValues(OpHeader))
	ch.err = errors.New("connection refused")
	now = now.Add(time.Minute)
	if m.Poll(context.Background()) {
		t.Fatal("Poll succeeded on a failing chain")
	}
	if got := testutil.ToFloat64(rpcErrors.WithLabelValues(OpHeader)) - before; got != 1 {
		t.Fatalf("header errors counted: %v, want 1", got)
	}
	if err := testutil.CollectAndCompare(m, strings.NewReader(`
# HELP fundshare_chain_head_age_seconds Seconds between now and the timestamp of that block: how far the endpoint's head lags behind the wall clock (a block every ~2 s on Polygon).
# TYPE fundshare_chain_head_age_seconds gauge
fundshare_chain_head_age_seconds 150
# HELP fundshare_chain_up 1 when the chain monitor's last reading of the chain (head and signer balance) succeeded, 0 when a call failed.
# TYPE fundshare_chain_up gauge
fundshare_chain_up 0
`), MetricChainUp, MetricHeadAge); err != nil {
		t.Fatal(err)
	}
	if m.NeedLeaderElection() {
		t.Fatal("the monitor must run on every replica")
	}
}
