package delivery

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// TestOnlyALiveBuyWaitingForItsMintWithNoTransactionAndNoClaimIsBatchable table-tests the
// rule the batch former and the member check (or claim) both apply.
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
		{"a matched SECONDARY BUY (a batch settlement)", executed(func(o *investv1.Order) {
			o.Spec.Market = investv1.MarketSecondary
			o.Spec.Quote = &investv1.OrderQuote{Window: &investv1.OrderWindow{Date: "2026-04-01", Deadline: metav1.Now()}}
		}), true},
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
	var o agent.Options
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	agent.BindFlags(fs, &o)
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
	err := Setup(nil, &agent.Runtime{BatchSize: agent.MaxBatchSize + 1}, agent.StaticTokens{})
	if err == nil || !strings.Contains(err.Error(), "--chain-batch-size 257 is above 256") {
		t.Errorf("Setup with a batch size of %d: %v", agent.MaxBatchSize+1, err)
	}
}

// TestOrdersOfDifferentNamespacesOrShareClassesAreNeverInOneBatch: the batch former queues
// orders by (namespace, ISIN, token); a full queue is taken at once, a queue that is not
// full only once its oldest order has waited the window, and never more than the batch
// size; an order is queued once however often it is reconciled.
func TestOrdersOfDifferentNamespacesOrShareClassesAreNeverInOneBatch(t *testing.T) {
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	r := &Reconciler{BatchSize: 3, BatchWindow: time.Second, Now: func() time.Time { return now }, batch: newBatchState()}
	tokA, tokB := agent.Token{Address: common.HexToAddress("0xA0")}, agent.Token{Address: common.HexToAddress("0xB0")}
	order := func(ns, name string, isin investv1.ISIN) *investv1.Order {
		o := fixtures.BuyOrder(ns, "acc", string(isin), 1)
		o.Name = name
		return o
	}
	other := investv1.ISIN("DE0005557508")
	for _, c := range []struct {
		o   *investv1.Order
		tok agent.Token
	}{
		{order("t1", "a1", fixtures.ISIN), tokA}, {order("t1", "a2", fixtures.ISIN), tokA},
		{order("t2", "b1", fixtures.ISIN), tokA},
		{order("t1", "c1", other), tokB},
		{order("t1", "a3", fixtures.ISIN), tokA}, {order("t1", "a3", fixtures.ISIN), tokA}, // reconciled twice
		{order("t1", "a4", fixtures.ISIN), tokA},
	} {
		if !r.hold(c.o, c.tok) {
			t.Fatalf("%s not held", c.o.Name)
		}
	}
	key := func(ns string, isin investv1.ISIN, tok agent.Token) batchKey {
		return batchKey{ns: ns, isin: isin, token: tok.Address}
	}
	got := r.due()
	want := map[batchKey][]string{key("t1", fixtures.ISIN, tokA): {"a1", "a2", "a3"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("before the window: %v, want only the full queue %v", got, want)
	}
	now = now.Add(time.Second)
	got = r.due()
	want = map[batchKey][]string{
		key("t1", fixtures.ISIN, tokA): {"a4"},
		key("t2", fixtures.ISIN, tokA): {"b1"},
		key("t1", other, tokB):         {"c1"},
	}
	if len(got) != len(want) {
		t.Fatalf("after the window: %v, want %v", got, want)
	}
	for k, names := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(names) {
			t.Errorf("after the window, %v: %v, want %v", k, got[k], names)
		}
	}
	if got := r.due(); len(got) != 0 {
		t.Errorf("queues left: %v", got)
	}
	// An order handed back to be minted on its own is not held again until soloFor passes.
	r.unhold("t2", []string{"b1"}, true)
	if r.hold(order("t2", "b1", fixtures.ISIN), tokA) {
		t.Error("an order sent to the single path was held again")
	}
	now = now.Add(soloFor + time.Second)
	if !r.hold(order("t2", "b1", fixtures.ISIN), tokA) {
		t.Error("not held again after soloFor")
	}
}

// TestABatchHoldsEveryCandidateUntilItsTransactionIsRecordedThenTheIncludedOnesAndNoneOnceAbandoned
// is the rule the agent reads to leave an order to the batch that holds it.
func TestABatchHoldsEveryCandidateUntilItsTransactionIsRecordedThenTheIncludedOnesAndNoneOnceAbandoned(t *testing.T) {
	b := &investv1.DeliveryBatch{Spec: investv1.DeliveryBatchSpec{Members: []investv1.DeliveryBatchMember{{Order: "a"}, {Order: "b"}, {Order: "c"}}}}
	if got := index.BatchHolds(b); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("before its transaction: holds %v, want every candidate", got)
	}
	b.Status.Transaction = &investv1.ChainTransaction{Nonce: 1}
	b.Status.Included = []string{"a", "c"}
	if got := index.BatchHolds(b); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("recorded: holds %v, want the included members", got)
	}
	ab := &investv1.DeliveryBatch{Spec: b.Spec, Status: investv1.DeliveryBatchStatus{Abandoned: &investv1.ChainRefusal{Reason: "NoMember"}}}
	if got := index.BatchHolds(ab); len(got) != 0 {
		t.Errorf("abandoned: holds %v, want none", got)
	}
}

// TestAMemberCopyOfABatchTransactionKeepsNoSignedBytesAndNoReceipt: the batch keeps the
// signed bytes once for all its members.
func TestAMemberCopyOfABatchTransactionKeepsNoSignedBytesAndNoReceipt(t *testing.T) {
	tx := &investv1.ChainTransaction{Nonce: 3, Attempts: []investv1.ChainTransactionAttempt{{Hash: "0x01", Raw: "0x02f8aa"}, {Hash: "0x02", Raw: "0x02f8bb"}},
		Receipt: &investv1.ChainReceipt{Hash: "0x02"}}
	cp := memberCopy(tx)
	if cp.Receipt != nil || cp.Attempts[0].Raw != "" || cp.Attempts[1].Raw != "" || cp.Attempts[1].Hash != "0x02" {
		t.Errorf("member copy %+v: want the attempts' hashes without raw bytes, no receipt", cp)
	}
	if tx.Attempts[0].Raw == "" || tx.Receipt == nil {
		t.Error("the batch's own record was changed")
	}
}
