package apiserver

import (
	"strings"
	"testing"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestSettlementTransactionHashIsTheMinedTransactionOnceKnown(t *testing.T) {
	broadcast, mined := "0x"+strings.Repeat("a", 64), "0x"+strings.Repeat("b", 64)
	o := &investv1.Order{}
	if h := settlementTransactionHash(o); h != nil {
		t.Fatalf("no delivery: %q", *h)
	}
	o.Status.Settlement.DeliveryInitiated = &investv1.SettlementRecord{TransactionHash: broadcast}
	if h := settlementTransactionHash(o); h == nil || *h != broadcast {
		t.Fatalf("initiated: %v, want %s", h, broadcast)
	}
	// A stuck mint was replaced with a higher fee; the replacement was mined.
	o.Status.Settlement.DeliveryCompleted = &investv1.SettlementRecord{TransactionHash: mined}
	if h := settlementTransactionHash(o); h == nil || *h != mined {
		t.Fatalf("completed: %v, want the mined %s", h, mined)
	}
}
