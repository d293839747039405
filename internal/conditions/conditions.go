// Package conditions sets the three kstatus conditions (sigs.k8s.io/cli-utils/pkg/kstatus)
// of an object the same way in every controller, so that kubectl wait, Flux and kpt read
// each kind alike:
//
//   - Ready: True once the object is what its spec asks for (the reason names the outcome);
//   - Reconciling: True while a controller is still working towards it and will get there
//     by itself;
//   - Stalled: True when it cannot get there without a person.
//
// Each setter writes all three at once, with the object's generation as observedGeneration
// on each, so no pair of them ever contradicts the other (Ready and Stalled both True, or a
// Reconciling left over from an earlier state), and reports whether anything changed, so a
// caller skips a write that would change nothing. kstatus reads Ready=True as Current,
// Reconciling=True as InProgress and Stalled=True as Failed (conditions_test.go holds the
// helpers to cli-utils' status.Compute).
//
// The package imports apimachinery's condition helpers only, so the pure order lifecycle
// (internal/lifecycle) can use it too.
package conditions

import (
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The kstatus condition types.
const (
	TypeReady       = "Ready"
	TypeReconciling = "Reconciling"
	TypeStalled     = "Stalled"
)

// MaxMessageLength is the longest message the API server accepts on a condition
// (metav1.Condition.Message); longer ones are cut at a rune boundary and end with "…".
const MaxMessageLength = 32768

// State is what the three conditions say together.
type State int

const (
	// Current: Ready=True, Reconciling=False, Stalled=False; kstatus Current.
	Current State = iota
	// InProgress: Ready=False, Reconciling=True, Stalled=False; kstatus InProgress.
	InProgress
	// Failed: Ready=False, Reconciling=False, Stalled=True; kstatus Failed.
	Failed
)

func (s State) String() string {
	switch s {
	case Current:
		return "Current"
	case InProgress:
		return "InProgress"
	case Failed:
		return "Failed"
	}
	return "Unknown"
}

// Summary is the state of an object with why: Reason (CamelCase) and Message go on all
// three conditions, unless ReadyReason is set, which then goes on Ready (with ReadyMessage)
// while Reason and Message go on Reconciling and Stalled: an order's Ready names its state
// (the Ready column of kubectl get orders) and its Stalled the reason it stopped.
type Summary struct {
	State        State
	Reason       string
	Message      string
	ReadyReason  string
	ReadyMessage string
}

// Conditions returns the three conditions of s at generation gen, in the order Ready,
// Reconciling, Stalled, without transition times (Set keeps or stamps them).
func (s Summary) Conditions(gen int64) []metav1.Condition {
	status := func(on bool) metav1.ConditionStatus {
		if on {
			return metav1.ConditionTrue
		}
		return metav1.ConditionFalse
	}
	reason := orDefault(s.Reason, defaultReason[s.State])
	msg := truncate(s.Message)
	readyReason, readyMsg := reason, msg
	if s.ReadyReason != "" {
		readyReason, readyMsg = s.ReadyReason, truncate(s.ReadyMessage)
	}
	return []metav1.Condition{
		{Type: TypeReady, Status: status(s.State == Current), Reason: readyReason, Message: readyMsg, ObservedGeneration: gen},
		{Type: TypeReconciling, Status: status(s.State == InProgress), Reason: reason, Message: msg, ObservedGeneration: gen},
		{Type: TypeStalled, Status: status(s.State == Failed), Reason: reason, Message: msg, ObservedGeneration: gen},
	}
}

// defaultReason is the reason of a Summary that names none (the API server refuses an
// empty one).
var defaultReason = map[State]string{Current: "Ready", InProgress: "Reconciling", Failed: "Stalled"}

// Set writes the three conditions of s at generation gen into conds and reports whether
// any of them changed. A condition whose status stays keeps its lastTransitionTime.
func Set(conds *[]metav1.Condition, gen int64, s Summary) bool {
	changed := false
	for _, c := range s.Conditions(gen) {
		if meta.SetStatusCondition(conds, c) {
			changed = true
		}
	}
	return changed
}

// Ready says the object is what its spec asks for: Ready=True, Reconciling=False,
// Stalled=False, each with reason and msg (kstatus Current).
func Ready(conds *[]metav1.Condition, gen int64, reason, msg string) bool {
	return Set(conds, gen, Summary{State: Current, Reason: reason, Message: msg})
}

// Reconciling says a controller is working towards the spec and gets there by itself:
// Ready=False, Reconciling=True, Stalled=False (kstatus InProgress).
func Reconciling(conds *[]metav1.Condition, gen int64, reason, msg string) bool {
	return Set(conds, gen, Summary{State: InProgress, Reason: reason, Message: msg})
}

// Stalled says the object cannot reach its spec without a person: Ready=False,
// Reconciling=False, Stalled=True (kstatus Failed).
func Stalled(conds *[]metav1.Condition, gen int64, reason, msg string) bool {
	return Set(conds, gen, Summary{State: Failed, Reason: reason, Message: msg})
}

// StateOf reads the state the three conditions say, and false when they are missing or
// say no single state (an object no controller has written the trio on yet).
func StateOf(conds []metav1.Condition) (State, bool) {
	ready := meta.IsStatusConditionTrue(conds, TypeReady)
	reconciling := meta.IsStatusConditionTrue(conds, TypeReconciling)
	stalled := meta.IsStatusConditionTrue(conds, TypeStalled)
	switch {
	case ready && !reconciling && !stalled:
		return Current, true
	case reconciling && !ready && !stalled:
		return InProgress, true
	case stalled && !ready && !reconciling:
		return Failed, true
	}
	return 0, false
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func truncate(s string) string {
	if len(s) <= MaxMessageLength {
		return s
	}
	cut := MaxMessageLength - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
