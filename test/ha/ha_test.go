// Package ha proves the high-availability design: two manager processes against one
// control plane, leader election on, only the leader runs controllers. The leader is
// stopped in the middle of 500 moving orders; the other takes over within the lease
// time and every order completes with no duplicate or skipped state.
package ha

import (
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// The lease settings are controller-runtime's defaults (what the manager runs with), not
// shorter ones: a replica that cannot renew within the deadline stops, and at a load of
// 30 on two cores a renewal took longer than a 4 s deadline, so the replica that was to
// take over lost its own election instead.
const (
	leaseDuration = 15 * time.Second
	renewDeadline = 10 * time.Second
	retryPeriod   = 2 * time.Second
)

var env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})

func TestHighAvailability(t *testing.T) {
	env.Run(t, "High availability suite", func() {
		Expect(devdata.EnsureNamespace(ctx, k8s, "fundshare-system")).To(Succeed())
	})
}

// startWebhooks serves the admission webhooks that envtest installed, at the one address
// the test has, from a manager of its own that stays up: in a cluster every replica serves
// them behind a Service, so the leader's stop does not stop admission (the settlement
// evidence the new leader records goes through the orders/status webhook).
func startWebhooks() *envtest.Manager {
	GinkgoHelper()
	return env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, SandboxSettlement: -1}))
}

// startReplica starts a manager with leader election and the controllers, a replica of the
// Deployment; startWebhooks serves the webhooks.
func startReplica() *envtest.Manager {
	GinkgoHelper()
	mo := apptest.Manager(app.Config{Controllers: true, SandboxSettlement: 0})
	mo.Options = func(o *ctrl.Options) {
		o.LeaderElection = true
		o.LeaderElectionID = "fundshare-operator.invest.fundshare.io"
		o.LeaderElectionNamespace = "fundshare-system"
		o.LeaseDuration, o.RenewDeadline, o.RetryPeriod = ptr.To(leaseDuration), ptr.To(renewDeadline), ptr.To(retryPeriod)
		o.LeaderElectionReleaseOnCancel = false // a crashed leader releases nothing
	}
	mo.NoWebhookServer, mo.NoCacheSync = true, true
	return env.StartManager(env.Config, mo)
}

func elected(r *envtest.Manager) bool {
	select {
	case <-r.Elected():
		return true
	default:
		return false
	}
}

var _ = Describe("Two replicas with leader election", func() {
	It("hands over within the lease time when the leader stops in the middle of 500 moving orders, and every order completes exactly once", func() {
		hooks := startWebhooks()
		defer hooks.Stop()
		a := startReplica()
		Eventually(func() bool { return elected(a) }).WithTimeout(30 * time.Second).Should(BeTrue())
		b := startReplica()
		Consistently(func() bool { return elected(b) }).WithTimeout(2*time.Second).Should(BeFalse(), "only one leader")

		ns := env.NewTenant("ha")
		fund := fixtures.Fund()
		Expect(k8s.Create(ctx, fund)).To(Succeed())
		d, err := validation.ISINCheckDigit("XS000000HA0")
		Expect(err).NotTo(HaveOccurred())
		isin := "XS000000HA0" + string(d)
		sc := fixtures.ShareClass(fund.Name, isin)
		sc.Spec.MinInvestment = 0
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		Expect(k8s.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_000_000}))).To(Succeed())
		acct := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, acct)).To(Succeed())
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		Expect(k8s.Create(ctx, w)).To(Succeed())
		patch := client.MergeFrom(acct.DeepCopy())
		acct.Spec.PrimaryWallet = w.Name
		Expect(k8s.Patch(ctx, acct, patch)).To(Succeed())

		const n = 500
		for i := range n {
			o := fixtures.BuyOrder(ns, acct.Name, isin, int64(1+i%7))
			Expect(k8s.Create(ctx, o)).To(Succeed())
		}
		Eventually(func() int { return env.CompletedOrders(ns) }).WithTimeout(3*time.Minute).WithPolling(200*time.Millisecond).
			Should(BeNumerically(">=", 50), "let part of the orders move before the leader stops")

		a.Stop()
		// The lease runs from the stopped leader's last renewal.
		lease := &coordinationv1.Lease{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: "fundshare-system", Name: "fundshare-operator.invest.fundshare.io"}, lease)).To(Succeed())
		lastRenewal := lease.Spec.RenewTime.Time
		Eventually(func() bool { return elected(b) }).WithTimeout(3 * leaseDuration).WithPolling(50 * time.Millisecond).Should(BeTrue())
		takeover := time.Since(lastRenewal)
		AddReportEntry("leader takeover after the last renewal", takeover.String())
		fmt.Fprintf(GinkgoWriter, "takeover %s after the leader's last renewal (lease %s, retry %s)\n", takeover, leaseDuration, retryPeriod)
		// client-go's candidate polls every retryPeriod stretched by up to 1+1.2 (its jitter
		// factor): it observes the last renewal up to one such period late, counts the lease
		// from then, and tries again at most one period after it expired.
		maxPoll := time.Duration(float64(retryPeriod) * 2.2)
		Expect(takeover).To(BeNumerically("<=", leaseDuration+2*maxPoll), "the other replica takes over within the lease time")

		Eventually(func() int { return env.CompletedOrders(ns) }).WithTimeout(5 * time.Minute).WithPolling(time.Second).Should(Equal(n))
		var list investv1.OrderList
		Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		for _, o := range list.Items {
			Expect(lifecycle.ValidHistory(investv1.SideBuy, lifecycle.HistoryStates(o.Status.History))).To(Succeed(), "order %s", o.Name)
			Expect(o.Status.History).To(HaveLen(len(lifecycle.Path(investv1.SideBuy))), "order %s", o.Name)
		}
		b.Stop()
	})
})
