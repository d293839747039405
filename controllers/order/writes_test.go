package order_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("The writes of a BUY's life", func() {
	It("are the order, four status writes and four Events: each piece of evidence arrives with the moves it unlocks", func() {
		ns, m, c := newScene()
		wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: k8s.Scheme()})
		Expect(err).NotTo(HaveOccurred())
		w, err := wc.Watch(ctx, &investv1.OrderList{}, client.InNamespace(ns))
		Expect(err).NotTo(HaveOccurred())
		defer w.Stop()
		stopSandbox := startSandbox(ns)
		defer stopSandbox()

		o := c.order(investv1.SideBuy, investv1.MarketPrimary, m.isin, 3)
		Expect(k8s.Create(ctx, o)).To(Succeed())
		// Every version of the order the API server stored, in order: its state and the
		// evidence it holds.
		var seen []string
		Eventually(func() investv1.OrderState {
			for {
				select {
				case ev := <-w.ResultChan():
					v, ok := ev.Object.(*investv1.Order)
					if !ok || v.Name != o.Name || (ev.Type != watch.Added && ev.Type != watch.Modified) {
						continue
					}
					seen = append(seen, version(v))
					if v.Status.State == investv1.StateCompleted {
						return v.Status.State
					}
				default:
					return ""
				}
			}
		}).WithTimeout(envtest.Settle).Should(Equal(investv1.StateCompleted))
		Expect(seen).To(HaveExactElements(
			"new evidence=[]",
			"AWAITING_PAYMENT evidence=[]",
			"EXECUTED evidence=[paymentReceived]",
			"DELIVERY_INITIATED evidence=[paymentReceived deliveryInitiated]",
			"COMPLETED evidence=[paymentReceived deliveryInitiated deliveryCompleted]",
		), "the order's versions: its creation, then four status writes")
		Expect(historyStates(get(o))).To(Equal(lifecycle.Path(investv1.SideBuy)), "the history keeps every state")
		reasons := func() []string {
			var evs eventsv1.EventList
			Expect(k8s.List(ctx, &evs, client.InNamespace(ns))).To(Succeed())
			var out []string
			for _, e := range evs.Items {
				if e.Regarding.Name == o.Name {
					out = append(out, e.Reason)
				}
			}
			return out
		}
		perWrite := ConsistOf(lifecycle.ReasonPaymentInstructionsIssued, lifecycle.ReasonExecuted, lifecycle.ReasonDeliveryInitiated, lifecycle.ReasonSettled)
		Eventually(reasons).WithTimeout(envtest.Settle).Should(perWrite, "one Event per write, with its last move's reason")
		Consistently(reasons).WithTimeout(2*time.Second).Should(perWrite, "and no other")
	})
})

// version is an order's version as the spec compares them: its state and its evidence.
func version(o *investv1.Order) string {
	state := string(o.Status.State)
	if state == "" {
		state = "new"
	}
	var ev []string
	for _, f := range lifecycle.EvidenceFields() {
		if lifecycle.EvidenceRecord(&o.Status.Settlement, f) != nil {
			ev = append(ev, f)
		}
	}
	return fmt.Sprintf("%s evidence=%v", state, ev)
}
