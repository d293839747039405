package token

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

func TestShareClassesSayWhenTheChainIsBehindTheRecords(t *testing.T) {
	for _, tc := range []struct {
		health outbox.Health
		status metav1.ConditionStatus
		reason string
		msg    string
	}{
		{outbox.Health{State: outbox.InSync, ChainNonce: 12}, metav1.ConditionTrue, "InSync",
			"the chain holds every transaction recorded as final (the agent's nonce on chain is 12)"},
		{outbox.Health{State: outbox.Behind, ChainNonce: 4, Message: "the chain's nonce of the agent 0xA is 4, but ..."}, metav1.ConditionFalse, "Behind",
			"the chain's nonce of the agent 0xA is 4, but ..."},
		{outbox.Health{State: outbox.Halted, ChainNonce: 4, Message: "no record holds nonce(s) 5"}, metav1.ConditionFalse, "Halted",
			"no record holds nonce(s) 5"},
	} {
		var conds []metav1.Condition
		setChainInSync(&conds, tc.health, 3)
		c := meta.FindStatusCondition(conds, TypeChainInSync)
		if c == nil || c.Status != tc.status || c.Reason != tc.reason || c.Message != tc.msg || c.ObservedGeneration != 3 {
			t.Errorf("%s: condition %+v, want %s %s %q", tc.health.State, c, tc.status, tc.reason, tc.msg)
		}
	}
}
