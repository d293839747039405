package secondary_test

import (
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/controllers/retention"
	"github.com/fundshare/fundshare-operator/controllers/secondary"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Retention of carried BUYs", func() {
	BeforeEach(func() { clock.Set(start) })

	// The window controller dies before it creates the carried BUYs, so a parent's carried
	// BUY does not exist; that parent then completes and its retention
	// is due (its history is dated by the suite's clock, months ago). The retention
	// controller archives every other done order, but keeps it: archived, nothing would
	// create its carried BUY. Once the window controller is back and created it, the parent
	// leaves the cluster.
	It("keeps a BUY whose remainder was carried in the cluster until the BUY that carries it exists", func() {
		sc, nh := secondaryClass(1)
		seller := holders(sc, 1, 3)[0]
		seller.order(sc, investv1.SideSell, 3)
		var primary investv1.OrderList
		Expect(k8s.List(ctx, &primary, client.InNamespace(seller.ns))).To(Succeed())
		buys := []*investv1.Order{newCustomer().order(sc, investv1.SideBuy, 5), newCustomer().order(sc, investv1.SideBuy, 5)}

		st, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(GinkgoT().TempDir(), "archive.db"), sqlstore.Options{OpTimeout: time.Minute})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(st.Close()).To(Succeed()) })
		stopMgr()
		restarted := false
		DeferCleanup(func() {
			if !restarted {
				stopMgr = startManager()
			}
		})
		dying := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now}, func(mgr ctrl.Manager) error {
			return (&secondary.Reconciler{Client: carryCrashClient{Client: mgr.GetClient(), beforeCreate: true}, Live: mgr.GetAPIReader(),
				Recorder: mgr.GetEventRecorder("window-controller"), Now: clock.Now}).SetupWithManager(mgr)
		}))
		clock.Set(deadline.Add(time.Minute))
		publish(nh, windowDay)
		matched(sc.Spec.ISIN, windowDay)
		carriedTo := func(o *investv1.Order) *investv1.Order {
			GinkgoHelper()
			c := get(o).Status.Strike.CarriedForward
			Expect(c).NotTo(BeNil())
			return &investv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: o.Namespace, Name: string(c.Order)}}
		}
		exists := func(o *investv1.Order) bool {
			return k8s.Get(ctx, client.ObjectKeyFromObject(o), &investv1.Order{}) == nil
		}
		for _, o := range buys {
			Eventually(func() *investv1.OrderContractNote { return get(o).Status.Strike }).WithTimeout(envtest.Settle).ShouldNot(BeNil())
		}
		Consistently(func() bool { return exists(carriedTo(buys[0])) || exists(carriedTo(buys[1])) }).
			WithTimeout(2*time.Second).Should(BeFalse(), "the controller dies before it creates a carried BUY")
		dying.Stop()
		parent := buys[0]

		// The parent completes (its delivery recorded by hand) under an order controller
		// and the retention controller, with no window controller.
		retaining := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Clock: clock.Now, Archive: st}, func(mgr ctrl.Manager) error {
			if err := (&order.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("order-controller"),
				Now: clock.Now, Archive: st}).SetupWithManager(mgr); err != nil {
				return err
			}
			return (&retention.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Store: st, Retention: time.Second,
				Recorder: mgr.GetEventRecorder("retention-controller")}).SetupWithManager(mgr)
		}))
		record(parent, lifecycle.StepDeliveryInitiated)
		waitState(parent, investv1.StateDeliveryInitiated)
		record(parent, lifecycle.StepDeliveryCompleted)
		waitState(parent, investv1.StateCompleted)
		// The retention is at work: the seller's primary BUY, done long ago, leaves.
		for i := range primary.Items {
			if primary.Items[i].Spec.Market == investv1.MarketPrimary {
				Eventually(func() bool { return exists(&primary.Items[i]) }).WithTimeout(envtest.Settle).Should(BeFalse())
			}
		}
		Consistently(func() bool { return exists(parent) }).WithTimeout(3*time.Second).Should(BeTrue(),
			"archived before its carried BUY exists, nothing would create it")
		retaining.Stop()

		// Back with every controller: the carried BUY is created and paid, then the parent
		// leaves the cluster; the carried BUY, still waiting for its window, stays.
		full := env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, Controllers: true, SandboxSettlement: -1, Clock: clock.Now,
			Archive: st, OrderRetention: time.Second}))
		child := carriedTo(parent)
		Eventually(func() bool { return exists(child) }).WithTimeout(envtest.Settle).Should(BeTrue())
		waitState(child, investv1.StatePaymentReceived)
		Eventually(func() bool { return exists(parent) }).WithTimeout(envtest.Settle).Should(BeFalse())
		archived, err := st.Get(ctx, parent.Namespace, parent.Name)
		Expect(err).NotTo(HaveOccurred())
		Expect(archived.Status.Strike.CarriedForward.Order).To(Equal(investv1.ObjectID(child.Name)))
		Expect(exists(child)).To(BeTrue())
		full.Stop()
		stopMgr, restarted = startManager(), true
	})
})
