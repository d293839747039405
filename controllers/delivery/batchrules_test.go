package delivery

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// TestOnlyALiveBuyWaitingForItsMintWithNoTransactionAndNoClaimIsBatchable table-tests the
// rule the batch former and the claim both apply.
func TestOnlyALiveBuyWaitingForItsMintWithNoTransactionAndNoClaimIsBatchable(t *testing.T) {
	executed := func(mut func(o *investv1.Order)) *investv1.Order {
		o := fixtures.BuyOrder("ns", "acc", string(fixtures.ISIN), 3)
		now := metav1.Now()
		for _, s := range []investv1.OrderState{investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted} {
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: now})
		}
		o.Status.State = investv1.StateExecuted
		o.Status.Settlement.PaymentReceived = &investv1.SettlementRecord{Reference: "R", At: now}
		if mut != nil {
			mut(o)
		}
		return o
	}
	tx := &investv1.ChainTransaction{ChainID: 1337, Nonce: 1, Attempts: []investv1.ChainTransactionAttempt{{Hash: "0x01"}}}
	for _, tc := range []struct {
		name string
		o    *investv1.Order
		want bool
	}{
		{"a BUY at EXECUTED with no chain status", executed(nil), true},
		{"a BUY refused before (refusal only)", executed(func(o *investv1.Order) {
			o.Status.Chain = &investv1.OrderChainStatus{Refused: &investv1.ChainRefusal{Reason: "NotVerified(0x…)"}}
		}), true},
		{"a BUY with its own mint recorded", executed(func(o *investv1.Order) { o.Status.Chain = &investv1.OrderChainStatus{Transaction: tx} }), false},
		{"a BUY claimed by a batch", executed(func(o *investv1.Order) { o.Status.Chain = &investv1.OrderChainStatus{Batch: "batch-1"} }), false},
		{"a SELL", executed(func(o *investv1.Order) { o.Spec.Side = investv1.SideSell }), false},
		{"a BUY being deleted", executed(func(o *investv1.Order) { now := metav1.Now(); o.DeletionTimestamp = &now }), false},
		{"a BUY whose delivery is initiated", executed(func(o *investv1.Order) {
			o.Status.Settlement.DeliveryInitiated = &investv1.SettlementRecord{TransactionHash: "0x01", At: metav1.Now()}
			o.Status.State = investv1.StateDeliveryInitiated
		}), false},
		{"a BUY still awaiting payment", executed(func(o *investv1.Order) {
			o.Status.State = investv1.StateAwaitingPayment
			o.Status.Settlement.PaymentReceived = nil
		}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := batchable(tc.o); got != tc.want {
				t.Errorf("batchable = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBatchingIsOffByDefaultAndTheBatchSizeIsCapped: --chain-batch-size defaults to 1
// (each order minted on its own), --chain-batch-window to 2s, and a size above what a
// DeliveryBatch holds is refused at start, before anything connects.
func TestBatchingIsOffByDefaultAndTheBatchSizeIsCapped(t *testing.T) {
	var o Options
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	BindFlags(fs, &o)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if o.BatchSize != 1 || o.BatchWindow != 2*time.Second {
		t.Errorf("defaults: size %d window %s, want 1 and 2s", o.BatchSize, o.BatchWindow)
	}
	if err := fs.Parse([]string{"--chain-batch-size", "50", "--chain-batch-window", "500ms"}); err != nil {
		t.Fatal(err)
	}
	if o.BatchSize != 50 || o.BatchWindow != 500*time.Millisecond {
		t.Errorf("parsed: size %d window %s", o.BatchSize, o.BatchWindow)
	}
	_, err := Setup(context.Background(), nil, Options{RPCURL: "http://127.0.0.1:1", BatchSize: MaxBatchSize + 1}, "ns")
	if err == nil || !strings.Contains(err.Error(), "--chain-batch-size 257 is above 256") {
		t.Errorf("Setup with a batch size of %d: %v", MaxBatchSize+1, err)
	}
}
