package notify

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// intradayPoint is a forward-priced class that deals every 30 minutes, and the Dealing of
// one of its points with a NAV published on it.
func intradayPoint() (*investv1.ShareClass, *investv1.Dealing, time.Time) {
	sc := &investv1.ShareClass{ObjectMeta: metav1.ObjectMeta{Name: "sc1"}, Spec: investv1.ShareClassSpec{
		ISIN: "LU0274208692", Currency: "EUR", Dealing: &investv1.DealingTerms{
			Pricing: investv1.PricingForward, TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingIntraday, IntervalMinutes: 30,
			SubscriptionCutOff: investv1.CutOff{MinutesBefore: 5}, RedemptionCutOff: investv1.CutOff{MinutesBefore: 5}}}}
	nav := int64(1_050_000)
	d := &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: "lu0274208692-2026-11-26t11-30"},
		Spec: investv1.DealingSpec{ISIN: "LU0274208692", Date: "2026-11-26T11:30", NAVPerShare: &nav}}
	since := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	return sc, d, since
}

func TestADealingNAVWhoseShareClassTheCacheHasNotSeenYetIsPublishedFromTheAPIServer(t *testing.T) {
	sc, d, since := intradayPoint()
	cache := ctrltest.FakeClient(t, nil) // it has not seen the class yet

	evs, err := dealingNAVEvents(cache, ctrltest.APIServer(t, sc))(t.Context(), d, since)
	if err != nil || len(evs) != 1 || evs[0].Type != notify.NAVPublished || evs[0].Subject != "LU0274208692" {
		t.Fatalf("events %+v, err %v: want the point's nav.published, its class read from the API server", evs, err)
	}
	if want := notify.IntradayNAVEvents(d, sc, since); evs[0].ID != want[0].ID {
		t.Errorf("id %s, want %s: the same event as from the cache", evs[0].ID, want[0].ID)
	}
}

func TestADealingNAVOfNoShareClassPublishesNothingAndIsNotRetried(t *testing.T) {
	_, d, since := intradayPoint()
	// Neither the cache nor the API server has the class: nothing to publish, and no error
	// (an error would retry the Dealing for as long as it exists).
	evs, err := dealingNAVEvents(ctrltest.FakeClient(t, nil), ctrltest.APIServer(t))(t.Context(), d, since)
	if err != nil || len(evs) != 0 {
		t.Fatalf("events %+v, err %v: want none and no error for a class nobody has", evs, err)
	}
}
