package bank_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/bank"
)

func TestTheAmountDueIsWhatTheCustomerTransfersRoundedUpToACent(t *testing.T) {
	quoted := func(amount int64) *investv1.Order {
		return &investv1.Order{Spec: investv1.OrderSpec{Quote: &investv1.OrderQuote{Amount: amount}}}
	}
	struck := func(gross int64) *investv1.Order {
		return &investv1.Order{Spec: investv1.OrderSpec{Quote: &investv1.OrderQuote{CutOff: &metav1.Time{}}},
			Status: investv1.OrderStatus{Strike: &investv1.OrderContractNote{GrossAmount: gross}}}
	}
	for _, tc := range []struct {
		name string
		o    *investv1.Order
		want int64
	}{
		{"whole cents stay", quoted(104_992_900), 104_992_900},
		{"one unit at a four-decimal price is rounded up to the cent", quoted(1_049_929), 1_050_000},
		{"a hundredth of a cent above is a cent more", quoted(1_000_001), 1_000_100},
		{"a forward BUY by units pays its contract note's gross amount", struck(2_000_050), 2_000_100},
		{"a forward BUY by units before its strike has no amount due yet", quoted(0), 0},
		{"no quote, no amount due", &investv1.Order{}, 0},
	} {
		if got := bank.AmountDue(tc.o); got != tc.want {
			t.Errorf("%s: AmountDue = %d, want %d", tc.name, got, tc.want)
		}
	}
}
