package order_test

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The order suite runs the production manager (webhooks, account and order controllers,
// no settlement agent) against a real control plane. Specs record settlement evidence by
// hand, as an operator would, or start a sandbox agent scoped to their namespace.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})
	stopMgr       func()
)

func TestOrders(t *testing.T) {
	env.Run(t, "Order suite", func() {
		stopMgr = startManager()
		DeferCleanup(func() { stopMgr() })
	})
}

// startManager starts the production manager and returns a function that stops it and
// waits until it has stopped. The restart specs build a second manager in this process.
func startManager() func() {
	GinkgoHelper()
	return env.StartManager(env.Config, apptest.Manager(apptest.WebhooksAndControllers)).Stop
}

// startSandbox runs a sandbox settlement agent with no delay, for one namespace only.
func startSandbox(ns string) func() {
	GinkgoHelper()
	return env.StartManager(env.Config, envtest.ManagerOptions{
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			if err := (&settlement.Reconciler{Client: mgr.GetClient(), Agent: &settlement.Sandbox{}, Name: "sandbox-" + ns[len(ns)-5:]}).SetupWithManager(mgr); err != nil {
				return err
			}
			return (&settlement.Reconciler{Client: mgr.GetClient(), Agent: &settlement.NoChainTokenSandbox{}, Side: lifecycle.TokenSide,
				Name: "tokens-" + ns[len(ns)-5:]}).SetupWithManager(mgr)
		},
		NoWebhookServer:    true,
		SkipNameValidation: true,
	}).Stop
}

// market is a fund with one share class and a NAV, flags as given.
type market struct {
	fund *investv1.Fund
	sc   *investv1.ShareClass
	isin string
}

// nav is the NAV per share of every market: 105.3400 EUR in micro-units.
const nav = int64(1_053_400)

func newMarket(mutate func(*investv1.Fund, *investv1.ShareClass)) market {
	GinkgoHelper()
	m := market{fund: fixtures.Fund(), isin: envtest.NewISIN()}
	m.sc = fixtures.ShareClass(m.fund.Name, m.isin)
	m.sc.Spec.MinInvestment = 0
	if mutate != nil {
		mutate(m.fund, m.sc)
	}
	Expect(k8s.Create(ctx, m.fund)).To(Succeed())
	Expect(k8s.Create(ctx, m.sc)).To(Succeed())
	Expect(k8s.Create(ctx, fixtures.NAVHistory(m.isin, "EUR",
		investv1.NAVPrice{Date: "2026-09-30", NAVPerShare: 1_000_000},
		investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: nav, ChangePercentage: 534}))).To(Succeed())
	return m
}

// customer is an account with a primary wallet and a primary payment method.
type customer struct {
	ns      string
	account *investv1.Account
	wallet  *investv1.Wallet
	pmd     *investv1.PaymentMethodDetails
}

func newCustomer(ns string) customer {
	GinkgoHelper()
	c := customer{ns: ns}
	c.account, c.wallet, c.pmd = env.NewCustomer(ns)
	return c
}

func (c customer) order(side investv1.OrderSide, mkt investv1.Market, isin string, units int64) *investv1.Order {
	o := fixtures.BuyOrder(c.ns, c.account.Name, isin, units)
	o.Spec.Side, o.Spec.Market = side, mkt
	return o
}

func get(o *investv1.Order) *investv1.Order {
	GinkgoHelper()
	fresh := &investv1.Order{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh)).To(Succeed())
	return fresh
}

func stateOf(o *investv1.Order) func() investv1.OrderState {
	return func() investv1.OrderState {
		fresh := &investv1.Order{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), fresh); err != nil {
			return ""
		}
		return fresh.Status.State
	}
}

func waitState(o *investv1.Order, s investv1.OrderState) {
	GinkgoHelper()
	Eventually(stateOf(o)).WithTimeout(30*time.Second).WithPolling(50*time.Millisecond).Should(Equal(s), "order %s", o.Name)
}

// record writes settlement evidence on the status, as `kubectl patch --subresource=status`
// does.
func record(o *investv1.Order, step lifecycle.Step, rec investv1.SettlementRecord) {
	GinkgoHelper()
	Eventually(func() error {
		fresh := get(o)
		patch := client.MergeFrom(fresh.DeepCopy())
		if rec.At.IsZero() {
			rec.At = nowTime()
		}
		lifecycle.Record(fresh, step, rec)
		return k8s.Status().Patch(ctx, fresh, patch)
	}).WithTimeout(envtest.Settle).Should(Succeed())
}

const txHash = "0x" + "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"

// settleBuy records each piece of evidence of a buy as its state asks for it.
func settleBuy(o *investv1.Order) {
	GinkgoHelper()
	waitState(o, investv1.StateAwaitingPayment)
	record(o, lifecycle.StepPaymentReceived, investv1.SettlementRecord{Reference: "SEPA-" + o.Name[:8]})
	waitState(o, investv1.StateExecuted)
	record(o, lifecycle.StepDeliveryInitiated, investv1.SettlementRecord{TransactionHash: txHash})
	waitState(o, investv1.StateDeliveryInitiated)
	record(o, lifecycle.StepDeliveryCompleted, investv1.SettlementRecord{TransactionHash: txHash})
	waitState(o, investv1.StateCompleted)
}

func historyStates(o *investv1.Order) []investv1.OrderState {
	var out []investv1.OrderState
	for _, h := range get(o).Status.History {
		out = append(out, h.State)
	}
	return out
}

func newNamespace() string { return env.NewTenant("orders") }

func contains(sub string) OmegaMatcher {
	return WithTransform(func(err error) string { return fmt.Sprint(err) }, ContainSubstring(sub))
}

func nowTime() metav1.Time { return metav1.NewTime(time.Now().UTC().Truncate(time.Second)) }

func newID() string { return controlplane.NewID() }

// bareAccount is an account with no wallet and no payment method.
func bareAccount(ns string) *investv1.Account {
	GinkgoHelper()
	a := fixtures.IndividualAccount(ns)
	Expect(k8s.Create(ctx, a)).To(Succeed())
	return a
}
