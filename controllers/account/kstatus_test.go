package account

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// kstatusOf computes what Flux, kpt and kubectl-based tools read from obj.
var kstatusOf = ctrltest.KstatusOf

// TestKstatusOfAccountsWalletsAndPaymentMethods is the kstatus table of docs/kubectl-guide.md
// for Account, Wallet and PaymentMethodDetails, computed with cli-utils from the
// conditions the controllers write.
func TestKstatusOfAccountsWalletsAndPaymentMethods(t *testing.T) {
	const gen = 3
	resolved := resolution{ok: true, reason: "Resolved", message: "x is the primary"}
	none := resolution{ok: true, reason: "NoPrimary", message: "no primary is set"}
	missing := resolution{reason: "NotFound", message: "x does not exist"}
	foreign := resolution{reason: "ForeignObject", message: "x belongs to account y"}
	account := func(observed int64, wallet, pmd resolution, deleting bool) *investv1.Account {
		a := &investv1.Account{TypeMeta: metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "Account"}}
		a.Generation = gen
		setConditions(&a.Status, observed, wallet, pmd)
		a.Status.ObservedGeneration = observed
		if deleting {
			now := metav1.Now()
			a.DeletionTimestamp = &now
		}
		return a
	}
	for _, tc := range []struct {
		name        string
		obj         *investv1.Account
		ready       metav1.ConditionStatus
		readyReason string
		want        status.Status
	}{
		{"primaries resolve", account(gen, resolved, resolved, false), metav1.ConditionTrue, "Consistent", status.CurrentStatus},
		{"no primaries set", account(gen, none, none, false), metav1.ConditionTrue, "Consistent", status.CurrentStatus},
		{"primary wallet not there yet", account(gen, missing, resolved, false), metav1.ConditionFalse, "PrimaryNotResolved", status.InProgressStatus},
		{"one pointer missing, the other foreign", account(gen, missing, foreign, false), metav1.ConditionFalse, "PrimaryNotResolved", status.FailedStatus},
		{"primary payment method of another account", account(gen, resolved, foreign, false), metav1.ConditionFalse, "PrimaryNotResolved", status.FailedStatus},
		{"primary wallet of another account", account(gen, foreign, resolved, false), metav1.ConditionFalse, "PrimaryNotResolved", status.FailedStatus},
		{"new generation not yet observed", account(gen-1, resolved, resolved, false), metav1.ConditionTrue, "Consistent", status.InProgressStatus},
		{"being deleted", account(gen, resolved, resolved, true), metav1.ConditionTrue, "Consistent", status.TerminatingStatus},
	} {
		t.Run("Account/"+tc.name, func(t *testing.T) {
			ready := findCondition(tc.obj.Status.Conditions, investv1.ConditionReady)
			if ready == nil || ready.Status != tc.ready || ready.Reason != tc.readyReason {
				t.Fatalf("Ready = %+v, want %s/%s", ready, tc.ready, tc.readyReason)
			}
			if got := kstatusOf(t, tc.obj); got != tc.want {
				t.Fatalf("kstatus = %s, want %s", got, tc.want)
			}
		})
	}

	// An account whose deletion is blocked by what it holds is Terminating for kstatus
	// (deletion is checked first); its Stalled condition tells a person why it stays.
	blocked := account(gen, resolved, resolved, true)
	blocked.Status.Conditions = append(blocked.Status.Conditions, metav1.Condition{Type: ConditionStalled, Status: metav1.ConditionTrue, Reason: "DeletionBlocked"})
	if got := kstatusOf(t, blocked); got != status.TerminatingStatus {
		t.Fatalf("Account/deletion blocked: kstatus = %s, want Terminating", got)
	}

	for _, found := range []bool{true, false} {
		w := &investv1.Wallet{TypeMeta: metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "Wallet"}}
		p := &investv1.PaymentMethodDetails{TypeMeta: metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "PaymentMethodDetails"}}
		w.Generation, p.Generation = 1, 1
		setChildConditions(&w.Status.Conditions, 1, "a", found, nil)
		setChildConditions(&p.Status.Conditions, 1, "a", found, nil)
		w.Status.ObservedGeneration, p.Status.ObservedGeneration = 1, 1
		want, reason := status.CurrentStatus, "AccountFound"
		if !found {
			want, reason = status.FailedStatus, "AccountNotFound"
		}
		for kind, obj := range map[string]runtime.Object{"Wallet": w, "PaymentMethodDetails": p} {
			if got := kstatusOf(t, obj); got != want {
				t.Errorf("%s with account found=%v: kstatus = %s, want %s", kind, found, got, want)
			}
		}
		if c := findCondition(w.Status.Conditions, investv1.ConditionReady); c.Reason != reason {
			t.Errorf("Wallet Ready reason = %s, want %s", c.Reason, reason)
		}
	}

	// Reconciling and Stalled turn False once the pointers resolve again: the two pointer
	// conditions and the trio, nothing left over.
	a := account(gen, missing, foreign, false)
	setConditions(&a.Status, gen, resolved, resolved)
	if got := kstatusOf(t, a); got != status.CurrentStatus || len(a.Status.Conditions) != 5 {
		t.Fatalf("Account after the pointers were fixed: kstatus = %s, conditions %v, want Current and 5 conditions", got, a.Status.Conditions)
	}
	for _, typ := range []string{ConditionReconciling, ConditionStalled} {
		if c := findCondition(a.Status.Conditions, typ); c == nil || c.Status != metav1.ConditionFalse || c.ObservedGeneration != gen {
			t.Errorf("Account after the pointers were fixed: %s = %+v, want False at generation %d", typ, c, gen)
		}
	}
}

// TestAWalletIsReadyOnlyOnceRegisteredWhereWalletsAreRegistered is the kstatus table of a
// wallet of an operator whose chain agent registers wallets: InProgress until the identity
// registry lists it, Failed when its registration failed, Current once registered; a
// missing account stalls it whatever the registration says.
func TestAWalletIsReadyOnlyOnceRegisteredWhereWalletsAreRegistered(t *testing.T) {
	registered := func(status metav1.ConditionStatus, reason, msg string) metav1.Condition {
		return metav1.Condition{Type: investv1.ConditionRegistered, Status: status, Reason: reason, Message: msg, ObservedGeneration: 1}
	}
	for _, tc := range []struct {
		name     string
		found    bool
		reg      *investv1.WalletRegistration
		cond     *metav1.Condition
		want     status.Status
		reason   string // of the True condition of the trio
		saysPart string
	}{
		{"not registered yet", true, nil, nil, status.InProgressStatus, ReasonRegistering, "waiting for the address"},
		{"registration sent", true, &investv1.WalletRegistration{State: investv1.RegistrationPending},
			ptr(registered(metav1.ConditionFalse, "Registering", "registerWallet 0xab recorded and sent")), status.InProgressStatus, ReasonRegistering, "0xab recorded and sent"},
		{"registered", true, &investv1.WalletRegistration{State: investv1.RegistrationRegistered},
			ptr(registered(metav1.ConditionTrue, "RegisteredOnChain", "registered by 0xab")), status.CurrentStatus, ReasonRegistered, "identity registry lists"},
		{"registration reverted", true, &investv1.WalletRegistration{State: investv1.RegistrationFailed},
			ptr(registered(metav1.ConditionFalse, "RegistrationFailed", "registerWallet 0xab reverted: NotAgent")), status.FailedStatus, ReasonRegistrationFailed, "reverted: NotAgent"},
		{"nonce taken", true, &investv1.WalletRegistration{State: investv1.RegistrationFailed},
			ptr(registered(metav1.ConditionFalse, "NonceTaken", "nonce 3 of the registerWallet transaction")), status.FailedStatus, "NonceTaken", "nonce 3"},
		{"registered, but the account is gone", false, &investv1.WalletRegistration{State: investv1.RegistrationRegistered},
			ptr(registered(metav1.ConditionTrue, "RegisteredOnChain", "registered by 0xab")), status.FailedStatus, ReasonAccountNotFound, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &investv1.Wallet{TypeMeta: metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "Wallet"}}
			w.Generation, w.Status.ObservedGeneration = 1, 1
			w.Status.Registration = tc.reg
			if tc.cond != nil {
				w.Status.Conditions = []metav1.Condition{*tc.cond}
			}
			var health *conditions.Summary
			if tc.found {
				health = registrationHealth(w)
			}
			setChildConditions(&w.Status.Conditions, 1, "a", tc.found, health)
			if got := kstatusOf(t, w); got != tc.want {
				t.Fatalf("kstatus = %s, want %s; conditions %+v", got, tc.want, w.Status.Conditions)
			}
			var on *metav1.Condition
			for _, typ := range []string{investv1.ConditionReady, ConditionReconciling, ConditionStalled} {
				if c := findCondition(w.Status.Conditions, typ); c != nil && c.Status == metav1.ConditionTrue {
					on = c
				}
			}
			if on == nil || on.Reason != tc.reason || !strings.Contains(on.Message, tc.saysPart) {
				t.Fatalf("the True condition of the trio = %+v, want reason %s saying %q", on, tc.reason, tc.saysPart)
			}
			if c := findCondition(w.Status.Conditions, investv1.ConditionRegistered); tc.cond != nil && (c == nil || *c != *tc.cond) {
				t.Fatalf("Registered = %+v, want it untouched: %+v", c, tc.cond)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func findCondition(cs []metav1.Condition, t string) *metav1.Condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}
