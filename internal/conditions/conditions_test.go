package conditions

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// kstatusOf computes with cli-utils, as kubectl wait, Flux and kpt do, the status of an
// object of a custom kind at generation gen with conds and status.observedGeneration
// observed.
func kstatusOf(t *testing.T, gen, observed int64, conds []metav1.Condition) *kstatus.Result {
	t.Helper()
	list := make([]any, 0, len(conds))
	for _, c := range conds {
		list = append(list, map[string]any{"type": c.Type, "status": string(c.Status), "reason": c.Reason, "message": c.Message, "observedGeneration": c.ObservedGeneration})
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "invest.fundshare.io/v1alpha1",
		"kind":       "Thing",
		"metadata":   map[string]any{"name": "x", "generation": gen},
		"status":     map[string]any{"observedGeneration": observed, "conditions": list},
	}}
	res, err := kstatus.Compute(u)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

type setter func(*[]metav1.Condition, int64, string, string) bool

// earlier are the conditions an object may carry before a helper is called: none, each
// state the helpers write, and contradictions a hand-written controller could leave (Ready
// and Stalled both True; a Reconciling left over, or missing Ready).
var earlier = map[string][]metav1.Condition{
	"nothing":    nil,
	"current":    Summary{State: Current, Reason: "Old", Message: "m"}.Conditions(1),
	"inProgress": Summary{State: InProgress, Reason: "Old", Message: "m"}.Conditions(1),
	"failed":     Summary{State: Failed, Reason: "Old", Message: "m"}.Conditions(1),
	"ready and stalled both true": {
		{Type: TypeReady, Status: metav1.ConditionTrue, Reason: "Old", ObservedGeneration: 1},
		{Type: TypeStalled, Status: metav1.ConditionTrue, Reason: "Old", ObservedGeneration: 1},
	},
	"a reconciling left over": {
		{Type: TypeReconciling, Status: metav1.ConditionTrue, Reason: "Old", ObservedGeneration: 1},
		{Type: "TokenReady", Status: metav1.ConditionTrue, Reason: "Adopted", ObservedGeneration: 1},
	},
}

// TestEachHelperYieldsItsKstatusWhateverCameBefore is the table of the package comment:
// Ready gives Current, Reconciling InProgress and Stalled Failed, computed with cli-utils,
// from any earlier conditions, with all three set at the generation and no other
// condition touched.
func TestEachHelperYieldsItsKstatusWhateverCameBefore(t *testing.T) {
	const gen = 4
	for _, h := range []struct {
		name  string
		set   setter
		want  kstatus.Status
		state State
		trio  [3]metav1.ConditionStatus // Ready, Reconciling, Stalled
	}{
		{"Ready", Ready, kstatus.CurrentStatus, Current, [3]metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionFalse}},
		{"Reconciling", Reconciling, kstatus.InProgressStatus, InProgress, [3]metav1.ConditionStatus{metav1.ConditionFalse, metav1.ConditionTrue, metav1.ConditionFalse}},
		{"Stalled", Stalled, kstatus.FailedStatus, Failed, [3]metav1.ConditionStatus{metav1.ConditionFalse, metav1.ConditionFalse, metav1.ConditionTrue}},
	} {
		for before, conds := range earlier {
			t.Run(h.name+" after "+before, func(t *testing.T) {
				conds := append([]metav1.Condition(nil), conds...)
				others := len(conds)
				for _, c := range conds {
					if c.Type == TypeReady || c.Type == TypeReconciling || c.Type == TypeStalled {
						others--
					}
				}
				if !h.set(&conds, gen, "WhyNow", "what happens") {
					t.Fatal("reported no change, but the generation (at least) changed")
				}
				res := kstatusOf(t, gen, gen, conds)
				if res.Status != h.want {
					t.Fatalf("kstatus = %s (%s), want %s; conditions %+v", res.Status, res.Message, h.want, conds)
				}
				if len(conds) != 3+others {
					t.Fatalf("%d conditions, want the trio and the %d others: %+v", len(conds), others, conds)
				}
				for i, typ := range []string{TypeReady, TypeReconciling, TypeStalled} {
					c := find(conds, typ)
					if c == nil || c.Status != h.trio[i] || c.Reason != "WhyNow" || c.Message != "what happens" || c.ObservedGeneration != gen {
						t.Errorf("%s = %+v, want %s WhyNow at generation %d", typ, c, h.trio[i], gen)
					}
				}
				if s, ok := StateOf(conds); !ok || s != h.state {
					t.Errorf("StateOf = %s, %v; want %s", s, ok, h.state)
				}
				// Before the controller has seen the latest generation, kstatus says so
				// whatever the conditions.
				if res := kstatusOf(t, gen+1, gen, conds); res.Status != kstatus.InProgressStatus {
					t.Errorf("generation not observed: kstatus = %s, want InProgress", res.Status)
				}
			})
		}
	}
}

// TestASecondCallWithTheSameWordsChangesNothing: a caller skips its write when the helper
// reports no change; a condition whose status stays keeps its transition time.
func TestASecondCallWithTheSameWordsChangesNothing(t *testing.T) {
	var conds []metav1.Condition
	Reconciling(&conds, 2, "Deploying", "sent")
	past := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	for i := range conds {
		conds[i].LastTransitionTime = past
	}
	if Reconciling(&conds, 2, "Deploying", "sent") {
		t.Fatal("the same call again reported a change")
	}
	if !Reconciling(&conds, 2, "Deploying", "mined, waiting for confirmations") {
		t.Fatal("a new message was not reported as a change")
	}
	if !Reconciling(&conds, 3, "Deploying", "mined, waiting for confirmations") {
		t.Fatal("a new generation was not reported as a change")
	}
	for _, c := range conds {
		if !c.LastTransitionTime.Equal(&past) {
			t.Errorf("%s changed its transition time though its status stayed %s", c.Type, c.Status)
		}
	}
	Ready(&conds, 3, "Deployed", "usable")
	if c := find(conds, TypeReady); c.LastTransitionTime.Equal(&past) {
		t.Error("Ready went True but kept its old transition time")
	}
	if c := find(conds, TypeStalled); !c.LastTransitionTime.Equal(&past) {
		t.Error("Stalled stayed False but its transition time changed")
	}
}

// TestReadyMayNameItsOwnReason: an order's Ready names its state while Stalled says why
// it stopped; the trio still reads Failed.
func TestReadyMayNameItsOwnReason(t *testing.T) {
	var conds []metav1.Condition
	Set(&conds, 1, Summary{State: Failed, Reason: "InvalidState", Message: "look at it", ReadyReason: "PaymentSent", ReadyMessage: "the order is PAYMENT_SENT"})
	if c := find(conds, TypeReady); c.Status != metav1.ConditionFalse || c.Reason != "PaymentSent" || c.Message != "the order is PAYMENT_SENT" {
		t.Errorf("Ready = %+v", c)
	}
	for _, typ := range []string{TypeReconciling, TypeStalled} {
		if c := find(conds, typ); c.Reason != "InvalidState" || c.Message != "look at it" {
			t.Errorf("%s = %+v", typ, c)
		}
	}
	if res := kstatusOf(t, 1, 1, conds); res.Status != kstatus.FailedStatus {
		t.Errorf("kstatus = %s, want Failed", res.Status)
	}
}

// TestTheAPIServerWouldAcceptWhatTheHelpersWrite: an empty reason gets the state's name,
// a message beyond the API's limit is cut at a rune boundary.
func TestTheAPIServerWouldAcceptWhatTheHelpersWrite(t *testing.T) {
	var conds []metav1.Condition
	Stalled(&conds, 1, "", strings.Repeat("é", MaxMessageLength))
	for _, c := range conds {
		if c.Reason == "" {
			t.Errorf("%s has an empty reason", c.Type)
		}
		if len(c.Message) > MaxMessageLength || !strings.HasSuffix(c.Message, "…") || !utf8.ValidString(c.Message) {
			t.Errorf("%s message: %d bytes, want at most %d, valid UTF-8, ending in …", c.Type, len(c.Message), MaxMessageLength)
		}
	}
	if c := find(conds, TypeStalled); c.Reason != "Stalled" {
		t.Errorf("Stalled reason = %q, want Stalled", c.Reason)
	}
}

func find(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}
