package strike_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/strike"
)

// TestNextDealingsMovedPassesSpecAndNextDealingsNotTheTransferCursor: the strike looks at
// a share class's next dealings when they can have changed, not at every block its token's
// transfer cursor is written.
func TestNextDealingsMovedPassesSpecAndNextDealingsNotTheTransferCursor(t *testing.T) {
	base := &investv1.ShareClass{ObjectMeta: metav1.ObjectMeta{Name: "c", Generation: 1}}
	base.Status.Dealing = &investv1.DealingStatus{Next: []investv1.DealingDate{{Date: "2026-03-10T10:05"}}}
	for _, tc := range []struct {
		name   string
		change func(*investv1.ShareClass)
		want   bool
	}{
		{"the transfer cursor", func(sc *investv1.ShareClass) {
			sc.Status.Transfers = &investv1.TransferCursor{IndexedBlock: 42, IndexedBlockHash: "0xab", Token: "0x01"}
		}, false},
		{"a condition", func(sc *investv1.ShareClass) {
			sc.Status.Conditions = []metav1.Condition{{Type: "TokenReady", Status: metav1.ConditionTrue}}
		}, false},
		{"the spec", func(sc *investv1.ShareClass) { sc.Generation = 2 }, true},
		{"the next dealings", func(sc *investv1.ShareClass) {
			sc.Status.Dealing.Next = []investv1.DealingDate{{Date: "2026-03-10T10:10"}}
		}, true},
	} {
		cur := base.DeepCopy()
		tc.change(cur)
		if got := strike.NextDealingsMoved.Update(event.UpdateEvent{ObjectOld: base, ObjectNew: cur}); got != tc.want {
			t.Errorf("%s: passes %v, want %v", tc.name, got, tc.want)
		}
	}
	if !strike.NextDealingsMoved.Create(event.CreateEvent{Object: base}) {
		t.Error("a share class created does not pass")
	}
}
