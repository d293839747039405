package v1alpha1_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

func TestAnOfferingsStatusIsDeactivatedThenPendingThenExpiredElseActive(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *metav1.Time { t := metav1.NewTime(now.Add(d)); return &t }
	for _, tc := range []struct {
		name        string
		from, until *metav1.Time
		deactivated bool
		want        string
	}{
		{"open-ended", nil, nil, false, investv1.OfferingActive},
		{"from now on", at(0), nil, false, investv1.OfferingActive},
		{"until a moment from now", nil, at(time.Nanosecond), false, investv1.OfferingActive},
		{"starts a moment from now", at(time.Nanosecond), nil, false, investv1.OfferingPending},
		{"ended exactly now", nil, at(0), false, investv1.OfferingExpired},
		{"ended an hour ago", at(-2 * time.Hour), at(-time.Hour), false, investv1.OfferingExpired},
		{"deactivated inside its validity", at(-time.Hour), at(time.Hour), true, investv1.OfferingDeactivated},
		{"deactivated before it started", at(time.Hour), nil, true, investv1.OfferingDeactivated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &investv1.CustomOffering{Spec: investv1.CustomOfferingSpec{ValidFrom: tc.from, ValidUntil: tc.until, Deactivated: tc.deactivated}}
			if got := o.OfferingStatus(now); got != tc.want {
				t.Fatalf("status %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAnOfferingsFeeRateForASideIsItsSideRateElseFeeRate(t *testing.T) {
	ten := int64(10)
	o := &investv1.CustomOffering{Spec: investv1.CustomOfferingSpec{FeeRate: 25, SubscriptionFeeRate: &ten}}
	if got := o.FeeRateFor(investv1.SideBuy); got != 10 {
		t.Fatalf("BUY rate %d, want the subscription rate 10", got)
	}
	if got := o.FeeRateFor(investv1.SideSell); got != 25 {
		t.Fatalf("SELL rate %d, want feeRate 25", got)
	}
}
