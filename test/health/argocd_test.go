// Package health tests the Argo CD health checks the chart ships
// (charts/fundshare-operator/files/argocd-health.lua) with a Lua interpreter (gopher-lua,
// as Argo CD runs them) against real objects of every kind, read back from a real API
// server (envtest) in the states the controllers put them in, and shows that Argo CD's
// reading agrees with kstatus (cli-utils' status.Compute: what Flux, kpt and kubectl wait
// read) wherever kstatus can tell; and that kubectl get's columns tell what a person
// needs (one NAME, a held order and why, amounts with their currency).
package health

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	lua "github.com/yuin/gopher-lua"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/helmtest"
)

var env *envtest.Environment

func TestMain(m *testing.M) {
	var err error
	if env, err = envtest.New(envtest.Options{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := env.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// luaScript is the chart's health check.
func luaScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(controlplane.Root(), "charts", "fundshare-operator", "files", "argocd-health.lua"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// argoHealth runs the script as Argo CD does: obj is the object as a Lua table, the
// script returns a table with status and message.
func argoHealth(t *testing.T, script string, obj *unstructured.Unstructured) (status, message string) {
	t.Helper()
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.LoadLibName, lua.OpenPackage}, {lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	L.SetGlobal("obj", toLua(L, obj.Object))
	if err := L.DoString(script); err != nil {
		t.Fatalf("the health check fails on %s %s: %v", obj.GetKind(), obj.GetName(), err)
	}
	ret, ok := L.Get(-1).(*lua.LTable)
	if !ok {
		t.Fatalf("the health check returned %s, not a table", L.Get(-1).Type())
	}
	return lua.LVAsString(ret.RawGetString("status")), lua.LVAsString(ret.RawGetString("message"))
}

// toLua converts JSON values to Lua values the way Argo CD's lua package does (numbers as
// LNumber, objects and arrays as tables, arrays 1-based).
func toLua(L *lua.LState, v any) lua.LValue {
	switch v := v.(type) {
	case nil:
		return lua.LNil
	case bool:
		return lua.LBool(v)
	case string:
		return lua.LString(v)
	case int64:
		return lua.LNumber(v)
	case float64:
		return lua.LNumber(v)
	case map[string]any:
		t := L.NewTable()
		for k, e := range v {
			t.RawSetString(k, toLua(L, e))
		}
		return t
	case []any:
		t := L.NewTable()
		for _, e := range v {
			t.Append(toLua(L, e))
		}
		return t
	}
	panic(fmt.Sprintf("unexpected JSON value %T", v))
}

// read returns obj as the API server serves it now.
func read(t *testing.T, obj client.Object) *unstructured.Unstructured {
	t.Helper()
	gvk, err := apiutil.GVKForObject(obj, controlplane.Scheme())
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func kstatusOf(t *testing.T, u *unstructured.Unstructured) kstatus.Status {
	t.Helper()
	res, err := kstatus.Compute(u)
	if err != nil {
		t.Fatal(err)
	}
	return res.Status
}

// trio is what internal/conditions writes for s at the object's generation.
func trio(gen int64, s conditions.Summary) []metav1.Condition {
	var c []metav1.Condition
	conditions.Set(&c, gen, s)
	return c
}

func ready(reason string) conditions.Summary {
	return conditions.Summary{State: conditions.Current, Reason: reason, Message: "ready"}
}

// agrees maps Argo CD's health to the kstatus status it must agree with.
var agrees = map[string]kstatus.Status{"Healthy": kstatus.CurrentStatus, "Progressing": kstatus.InProgressStatus, "Degraded": kstatus.FailedStatus}

type healthCase struct {
	name string
	obj  client.Object
	// status, when set, writes the object's status through the status subresource, as
	// its controller does (the same condition builders).
	status func(client.Object)
	// update, when set, changes the spec after the status is written (a new generation
	// no controller has seen yet).
	update func(client.Object)
	want   string
	// wantIn is in the message when set.
	wantIn string
	// kstatus is what kstatus reads when it cannot agree (it cannot see a generation
	// ahead of the conditions without status.observedGeneration, and reads kinds without
	// conditions as Current): empty means it agrees with want.
	kstatus kstatus.Status
}

func TestArgoCDHealthOfEveryKindAgreesWithKstatus(t *testing.T) {
	ctx := context.Background()
	script := luaScript(t)
	ns, err := controlplane.NewNamespace(ctx, env.Client, "health")
	if err != nil {
		t.Fatal(err)
	}
	now := metav1.NewTime(time.Now().UTC().Truncate(time.Second))
	fund := fixtures.Fund()
	isin := envtest.NewISIN()
	acct := fixtures.IndividualAccount(ns)
	acctID := acct.Name
	wallet := func() *investv1.Wallet { return fixtures.Wallet(ns, acctID, fixtures.Address) }
	order := func() *investv1.Order { return fixtures.BuyOrder(ns, acctID, isin, 10) }
	sc := func() *investv1.ShareClass { return fixtures.ShareClass(fund.Name, envtest.NewISIN()) }
	hist := func(states ...investv1.OrderState) []investv1.OrderTransition {
		var h []investv1.OrderTransition
		for _, s := range states {
			h = append(h, investv1.OrderTransition{State: s, At: now, Reason: lifecycle.StateReason(s)})
		}
		return h
	}
	fromW, toW := uuid.NewString(), uuid.NewString()
	addr := "0x" + strings.Repeat("ab", 20)
	hash := "0x" + strings.Repeat("cd", 32)

	cases := []healthCase{
		// ShareClass: the token states.
		{name: "share class whose token is deploying", obj: sc(), want: "Progressing", wantIn: token.ReasonDeploying, status: func(o client.Object) {
			s := o.(*investv1.ShareClass)
			s.Status.Conditions = append(trio(s.Generation, conditions.Summary{State: conditions.InProgress, Reason: token.ReasonDeploying, Message: "deployment recorded and sent"}),
				metav1.Condition{Type: token.TypeTokenReady, Status: metav1.ConditionFalse, Reason: token.ReasonDeploying, Message: "deploying", ObservedGeneration: s.Generation, LastTransitionTime: now})
		}},
		{name: "share class whose token is paused", obj: sc(), want: "Degraded", wantIn: "Paused: the token is paused", status: func(o client.Object) {
			s := o.(*investv1.ShareClass)
			s.Status.Conditions = append(trio(s.Generation, conditions.Summary{State: conditions.Failed, Reason: token.ReasonPaused, Message: "the token is paused"}),
				metav1.Condition{Type: token.TypeTokenReady, Status: metav1.ConditionFalse, Reason: token.ReasonPaused, Message: "paused", ObservedGeneration: s.Generation, LastTransitionTime: now})
		}},
		{name: "share class with its token deployed", obj: sc(), want: "Healthy", status: func(o client.Object) {
			s := o.(*investv1.ShareClass)
			s.Status.Conditions = append(trio(s.Generation, ready(token.ReasonDeployed)),
				metav1.Condition{Type: token.TypeTokenReady, Status: metav1.ConditionTrue, Reason: token.ReasonDeployed, Message: "deployed", ObservedGeneration: s.Generation, LastTransitionTime: now})
		}},
		// Wallet: registration.
		{name: "wallet whose registration is pending", obj: wallet(), want: "Progressing", wantIn: account.ReasonRegistering, status: func(o client.Object) {
			w := o.(*investv1.Wallet)
			w.Status.Conditions = trio(w.Generation, conditions.Summary{State: conditions.InProgress, Reason: account.ReasonRegistering, Message: "registerWallet sent"})
		}},
		{name: "registered wallet", obj: wallet(), want: "Healthy", status: func(o client.Object) {
			w := o.(*investv1.Wallet)
			w.Status.Conditions = trio(w.Generation, ready(account.ReasonRegistered))
		}},

		// Order: the lifecycle's own conditions.
		{name: "completed order", obj: order(), want: "Healthy", wantIn: "Completed", status: func(o client.Object) {
			ord := o.(*investv1.Order)
			ord.Status.State = investv1.StateCompleted
			ord.Status.History = hist(investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted,
				investv1.StateDeliveryInitiated, investv1.StateDeliveryCompleted, investv1.StateCompleted)
			ord.Status.Conditions = lifecycle.StatusConditions(ord, nil)
			stamp(ord.Status.Conditions, now)
		}},
		{name: "stalled order (its mint reverted)", obj: order(), want: "Degraded", wantIn: lifecycle.WaitTokenTransactionReverted, status: func(o client.Object) {
			ord := o.(*investv1.Order)
			ord.Status.State = investv1.StateExecuted
			ord.Status.History = hist(investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted)
			ord.Status.Conditions = lifecycle.StatusConditions(ord, &lifecycle.Wait{Reason: lifecycle.WaitTokenTransactionReverted, Message: "the mint reverted"})
			stamp(ord.Status.Conditions, now)
		}},
		{name: "order awaiting payment", obj: order(), want: "Progressing", wantIn: "AwaitingPayment", status: func(o client.Object) {
			ord := o.(*investv1.Order)
			ord.Status.State = investv1.StateAwaitingPayment
			ord.Status.History = hist(investv1.StatePlaced, investv1.StateAwaitingPayment)
			ord.Status.Conditions = lifecycle.StatusConditions(ord, &lifecycle.Wait{Reason: lifecycle.WaitAwaitingPaymentEvidence, Message: "no payment yet"})
			stamp(ord.Status.Conditions, now)
		}},
		{name: "new order no controller has seen", obj: order(), want: "Progressing", kstatus: kstatus.CurrentStatus},
		// The other kinds with the kstatus trio.
		{name: "account", obj: acct, want: "Healthy", status: func(o client.Object) {
			a := o.(*investv1.Account)
			a.Status.Conditions = trio(a.Generation, ready(account.ReasonConsistent))
		}},
		// A wallet's spec is immutable; an account's address is not.
		{name: "account changed since its status was written", obj: fixtures.IndividualAccount(ns), want: "Progressing", wantIn: "generation 2", kstatus: kstatus.CurrentStatus,
			status: func(o client.Object) {
				a := o.(*investv1.Account)
				a.Status.Conditions = trio(a.Generation, ready(account.ReasonConsistent))
			},
			update: func(o client.Object) { o.(*investv1.Account).Spec.City = "Vienna" }},
		{name: "payment method details", obj: fixtures.PaymentMethodDetails(ns, acctID, "DE89370400440532013000"), want: "Healthy", status: func(o client.Object) {
			p := o.(*investv1.PaymentMethodDetails)
			p.Status.Conditions = trio(p.Generation, ready(account.ReasonAccountFound))
		}},
		{name: "api client without its Secret", obj: fixtures.ApiClient(ns, ns+"-client", "credentials"), want: "Degraded", wantIn: "SecretNotFound", status: func(o client.Object) {
			a := o.(*investv1.ApiClient)
			a.Status.Conditions = trio(a.Generation, conditions.Summary{State: conditions.Failed, Reason: "SecretNotFound", Message: "no Secret credentials"})
		}},
		{name: "wallet recovery on its way", obj: &investv1.WalletRecovery{ObjectMeta: metav1.ObjectMeta{Name: fromW, Namespace: ns},
			Spec: investv1.WalletRecoverySpec{AccountID: investv1.ObjectID(acctID), FromWalletID: investv1.ObjectID(fromW), ToWalletID: investv1.ObjectID(toW)}},
			want: "Progressing", wantIn: recovery.ReasonRecovering, status: func(o client.Object) {
				r := o.(*investv1.WalletRecovery)
				r.Status.Conditions = trio(r.Generation, conditions.Summary{State: conditions.InProgress, Reason: recovery.ReasonRecovering, Message: "forced transfer sent"})
			}},
		// Kinds without conditions.
		{name: "fund", obj: fund, want: "Healthy"},
		{name: "NAV history", obj: fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-01-30", NAVPerShare: 1_000_000}), want: "Healthy"},
		{name: "custom offering", obj: &investv1.CustomOffering{ObjectMeta: metav1.ObjectMeta{Name: uuid.NewString(), Namespace: ns},
			Spec: investv1.CustomOfferingSpec{ISIN: investv1.ISIN(isin), FeeRate: 50}}, want: "Healthy"},
		{name: "transfer", obj: &investv1.Transfer{ObjectMeta: metav1.ObjectMeta{Name: uuid.NewString(), Namespace: ns},
			Spec: investv1.TransferSpec{AccountID: investv1.ObjectID(acctID), WalletID: investv1.ObjectID(toW), ISIN: investv1.ISIN(isin),
				Direction: "In", Units: 5, Token: addr, WalletAddress: addr, CounterpartyAddress: addr, TransactionHash: hash, BlockHash: hash,
				BlockNumber: 7, BlockTime: now}}, want: "Healthy"},
		{name: "delivery batch sent", obj: batch(ns, isin, addr), want: "Progressing", wantIn: "Sent", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			o.(*investv1.DeliveryBatch).Status.Phase = investv1.DeliveryBatchSent
		}},
		{name: "delivery batch completed", obj: batch(ns, isin, addr), want: "Healthy", status: func(o client.Object) {
			o.(*investv1.DeliveryBatch).Status.Phase = investv1.DeliveryBatchCompleted
		}},
		{name: "delivery batch reverted", obj: batch(ns, isin, addr), want: "Degraded", wantIn: "Reverted", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			o.(*investv1.DeliveryBatch).Status.Phase = investv1.DeliveryBatchReverted
		}},
		// WebhookEndpoint: by what the dispatcher wrote.
		{name: "webhook endpoint delivering", obj: webhookEndpoint(ns), want: "Healthy", wantIn: "delivering"},
		{name: "webhook endpoint failing", obj: webhookEndpoint(ns), want: "Degraded", wantIn: "failing since", kstatus: kstatus.CurrentStatus,
			status: func(o client.Object) { o.(*investv1.WebhookEndpoint).Status.FailingSince = &now }},
		{name: "webhook endpoint disabled after a 410", obj: webhookEndpoint(ns), want: "Degraded", wantIn: "Gone", kstatus: kstatus.CurrentStatus,
			status: func(o client.Object) {
				o.(*investv1.WebhookEndpoint).Status.DisabledBy = &investv1.WebhookDisabled{Reason: "Gone", At: now, Message: "answered 410"}
			}},
		// BankDecision: by its phase (no conditions; kstatus reads every phase Current).
		{name: "bank decision not taken yet", obj: bankDecision(), want: "Progressing", wantIn: "not taken yet", kstatus: kstatus.CurrentStatus},
		{name: "bank decision recorded", obj: bankDecision(), want: "Healthy", wantIn: "Recorded", status: func(o client.Object) {
			d := o.(*investv1.BankDecision)
			d.Status.Phase, d.Status.Message = investv1.BankDecisionRecorded, "recorded as settled outside the service"
		}},
		{name: "bank decision refused", obj: bankDecision(), want: "Degraded", wantIn: "no bank entry", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			d := o.(*investv1.BankDecision)
			d.Status.Phase, d.Status.Message = investv1.BankDecisionRefused, "no bank entry SAMPLE-1 (transaction 0) is in the bank ledger"
		}},
		{name: "bank decision whose refund came back", obj: bankDecision(), want: "Degraded", wantIn: "Returned", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			d := o.(*investv1.BankDecision)
			d.Status.Phase, d.Status.Message = investv1.BankDecisionRecorded, "the transfer is Returned"
			d.Status.Payout = &investv1.BankDecisionPayout{EndToEndID: "FSD1", Amount: 10_000, CreditorIBAN: "****3000", Status: "Returned"}
		}},
		// Dealing: by its phase (no conditions; kstatus reads every phase Current).
		{name: "dealing open", obj: dealingOf(isin, "2026-03-10"), want: "Progressing", wantIn: "Open", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			d := o.(*investv1.Dealing)
			d.Status.Phase = investv1.DealingOpen
			d.Status.Message = "waiting for the NAV of 2026-03-10"
		}},
		{name: "dealing struck", obj: dealingOf(isin, "2026-03-11"), want: "Healthy", wantIn: "Struck", status: func(o client.Object) {
			o.(*investv1.Dealing).Status.Phase = investv1.DealingStruck
		}},
		{name: "dealing settled", obj: dealingOf(isin, "2026-03-12"), want: "Healthy", wantIn: "Settled", status: func(o client.Object) {
			o.(*investv1.Dealing).Status.Phase = investv1.DealingSettled
		}},
		{name: "dealing no forward-priced share class claims", obj: dealingOf(isin, "2026-03-13"), want: "Degraded", wantIn: "prices forward", kstatus: kstatus.CurrentStatus,
			status: func(o client.Object) {
				o.(*investv1.Dealing).Status.Message = "no share class with ISIN " + isin + " prices forward"
			}},
		// MatchingWindow: by its phase (no conditions; kstatus reads every phase Current).
		{name: "matching window open", obj: windowOf(isin, "2026-03-10"), want: "Progressing", wantIn: "Open", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			w := o.(*investv1.MatchingWindow)
			w.Status.Phase, w.Status.Deadline = investv1.WindowOpen, &now
		}},
		{name: "matching window matching", obj: windowOf(isin, "2026-03-11"), want: "Progressing", wantIn: "Matching", kstatus: kstatus.CurrentStatus, status: func(o client.Object) {
			w := o.(*investv1.MatchingWindow)
			w.Status.Phase, w.Status.Deadline, w.Status.MatchedAt = investv1.WindowMatching, &now, &now
			w.Status.Message = "2 orders of the book wait for their fill"
		}},
		{name: "matching window matched", obj: windowOf(isin, "2026-03-12"), want: "Healthy", wantIn: "Matched", status: func(o client.Object) {
			w := o.(*investv1.MatchingWindow)
			w.Status.Phase, w.Status.Deadline, w.Status.MatchedAt = investv1.WindowMatched, &now, &now
		}},
		{name: "matching window settled", obj: windowOf(isin, "2026-03-13"), want: "Healthy", wantIn: "Settled", status: func(o client.Object) {
			w := o.(*investv1.MatchingWindow)
			w.Status.Phase, w.Status.Deadline, w.Status.MatchedAt = investv1.WindowSettled, &now, &now
		}},
		{name: "matching window no secondary market claims", obj: windowOf(isin, "2026-03-16"), want: "Degraded", wantIn: "secondary market", kstatus: kstatus.CurrentStatus,
			status: func(o client.Object) {
				o.(*investv1.MatchingWindow).Status.Message = "no share class with ISIN " + isin + " has a secondary market"
			}},
		{name: "matching window not placed yet", obj: windowOf(isin, "2026-03-17"), want: "Progressing", wantIn: "not placed", kstatus: kstatus.CurrentStatus},
	}

	covered := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := tc.obj
			if err := env.Client.Create(ctx, obj); err != nil {
				t.Fatalf("create: %v", err)
			}
			if tc.status != nil {
				tc.status(obj)
				if err := env.Client.Status().Update(ctx, obj); err != nil {
					t.Fatalf("status: %v", err)
				}
			}
			if tc.update != nil {
				tc.update(obj)
				if err := env.Client.Update(ctx, obj); err != nil {
					t.Fatalf("update: %v", err)
				}
			}
			u := read(t, obj)
			covered[u.GetKind()] = true
			got, msg := argoHealth(t, script, u)
			if got != tc.want {
				t.Errorf("Argo CD health %s (%q), want %s", got, msg, tc.want)
			}
			if tc.wantIn != "" && !strings.Contains(msg, tc.wantIn) {
				t.Errorf("Argo CD message %q does not say %q", msg, tc.wantIn)
			}
			want := agrees[tc.want]
			if tc.kstatus != "" {
				want = tc.kstatus
			}
			if ks := kstatusOf(t, u); ks != want {
				t.Errorf("kstatus %s, want %s (Argo CD: %s)", ks, want, got)
			}
		})
	}

	// Every kind of the CRDs is covered, so a new kind cannot go without a case.
	var kinds []string
	for _, crd := range ctrltest.ProjectCRDs(t) {
		kinds = append(kinds, crd.Spec.Names.Kind)
	}
	sort.Strings(kinds)
	if len(kinds) < 12 {
		t.Fatalf("found %d kinds in config/crd/bases: %v", len(kinds), kinds)
	}
	for _, k := range kinds {
		if !covered[k] {
			t.Errorf("no health case for %s", k)
		}
	}
}

// TestArgoCDHealthOfABeingDeletedObject: an object on its way out is Progressing
// whatever its conditions say; kstatus reads it Terminating, which is not Current either.
func TestArgoCDHealthOfABeingDeletedObject(t *testing.T) {
	ctx := context.Background()
	ns, err := controlplane.NewNamespace(ctx, env.Client, "health-del")
	if err != nil {
		t.Fatal(err)
	}
	a := fixtures.IndividualAccount(ns)
	a.Finalizers = []string{"test.fundshare.io/hold"}
	if err := env.Client.Create(ctx, a); err != nil {
		t.Fatal(err)
	}
	a.Status.Conditions = trio(a.Generation, ready(account.ReasonConsistent))
	if err := env.Client.Status().Update(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := env.Client.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	u := read(t, a)
	if got, msg := argoHealth(t, luaScript(t), u); got != "Progressing" {
		t.Errorf("Argo CD health %s (%q), want Progressing", got, msg)
	}
	if ks := kstatusOf(t, u); ks != kstatus.TerminatingStatus {
		t.Errorf("kstatus %s, want Terminating", ks)
	}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(a), a); err != nil {
		t.Fatal(err)
	}
	a.Finalizers = nil
	if err := env.Client.Update(ctx, a); err != nil {
		t.Fatal(err)
	}
}

// TestTheChartShipsTheHealthCheckForEveryKind: the chart's argocd-health ConfigMap has a
// resource.customizations.health key for every CRD of the chart, each holding the script.
func TestTheChartShipsTheHealthCheckForEveryKind(t *testing.T) {
	out := helmtest.Template(t, "--set", "argocd.healthChecks.enabled=true", "--show-only", "templates/argocd-health.yaml")
	var cm corev1.ConfigMap
	if err := yaml.Unmarshal(out, &cm); err != nil {
		t.Fatal(err)
	}
	script := luaScript(t)
	var keys []string
	for k, v := range cm.Data {
		keys = append(keys, k)
		if v != script {
			t.Errorf("%s does not hold files/argocd-health.lua", k)
		}
	}
	for _, kind := range []string{"Account", "ApiClient", "BankDecision", "CustomOffering", "Dealing", "DeliveryBatch", "Fund", "MatchingWindow", "NAVHistory", "Order",
		"PaymentMethodDetails", "ShareClass", "Transfer", "Wallet", "WalletRecovery", "WebhookEndpoint"} {
		if !slices.Contains(keys, "resource.customizations.health.invest.fundshare.io_"+kind) {
			t.Errorf("no health check for %s; keys: %v", kind, keys)
		}
	}
}

func bankDecision() *investv1.BankDecision {
	return &investv1.BankDecision{ObjectMeta: metav1.ObjectMeta{Name: "health-" + uuid.NewString()},
		Spec: investv1.BankDecisionSpec{Entry: &investv1.BankEntryRef{Reference: "SAMPLE-1"}, Action: investv1.BankDecisionSettledOutside, Note: "health"}}
}

func webhookEndpoint(ns string) *investv1.WebhookEndpoint {
	return &investv1.WebhookEndpoint{ObjectMeta: metav1.ObjectMeta{Name: uuid.NewString(), Namespace: ns},
		Spec: investv1.WebhookEndpointSpec{URL: "https://hooks.example.com/in", SecretRef: investv1.LocalSecretReference{Name: "webhook-secret"}}}
}

func batch(ns, isin, addr string) *investv1.DeliveryBatch {
	return &investv1.DeliveryBatch{ObjectMeta: metav1.ObjectMeta{Name: uuid.NewString(), Namespace: ns},
		Spec: investv1.DeliveryBatchSpec{ChainID: 1337, ISIN: investv1.ISIN(isin), Token: addr,
			Members: []investv1.DeliveryBatchMember{{Order: uuid.NewString(), Address: addr, Units: 3}}}}
}

// stamp gives conditions without a transition time one (the API server requires it).
func stamp(conds []metav1.Condition, at metav1.Time) {
	for i := range conds {
		if conds[i].LastTransitionTime.IsZero() {
			conds[i].LastTransitionTime = at
		}
	}
}

func dealingOf(isin, date string) *investv1.Dealing {
	return &investv1.Dealing{ObjectMeta: metav1.ObjectMeta{Name: strings.ToLower(isin) + "-" + date},
		Spec: investv1.DealingSpec{ISIN: investv1.ISIN(isin), Date: date}}
}

func windowOf(isin, date string) *investv1.MatchingWindow {
	return &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: strings.ToLower(isin) + "-" + date},
		Spec: investv1.MatchingWindowSpec{ISIN: investv1.ISIN(isin), Date: date}}
}
