package dealing_test

import (
	"testing"
	"time"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/dealing"
)

func TestTheCalendarIsComputedAgainWhenTheFirstDealingsLastCutOffPasses(t *testing.T) {
	sc := &investv1.ShareClass{Spec: investv1.ShareClassSpec{Dealing: &investv1.DealingTerms{
		TimeZone: "Europe/Luxembourg", Frequency: investv1.DealingDaily,
		SubscriptionCutOff: investv1.CutOff{Time: "12:00"}, RedemptionCutOff: investv1.CutOff{Time: "15:00"},
	}}}
	now := time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)
	st, refresh := dealing.Calendar(sc, now)
	if len(st.Next) != 3 || st.Next[0].Date != "2026-03-10" {
		t.Fatalf("next %+v", st.Next)
	}
	if want := time.Date(2026, time.March, 10, 14, 0, 0, 0, time.UTC); !refresh.Equal(want) {
		t.Errorf("refresh at %s, want %s (the redemption cut-off, 15:00 CET)", refresh, want)
	}
	if st, _ = dealing.Calendar(sc, refresh); st.Next[0].Date != "2026-03-11" {
		t.Errorf("at the last cut-off the first dealing is %s, want 2026-03-11", st.Next[0].Date)
	}
	if st, refresh = dealing.Calendar(&investv1.ShareClass{}, now); st != nil || !refresh.IsZero() {
		t.Errorf("a class without terms has a calendar: %+v, %s", st, refresh)
	}
}
