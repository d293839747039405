package account_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// freshISIN is a valid ISIN that no other share class of this suite uses.
func freshISIN() string {
	GinkgoHelper()
	first11 := "XS" + strings.ToUpper(strings.ReplaceAll(uuid.NewString(), "-", "")[:9])
	d, err := validation.ISINCheckDigit(first11)
	Expect(err).NotTo(HaveOccurred())
	return first11 + string(d)
}

// shareClassOnSale creates an open fund, a share class with a fresh ISIN and a NAV price
// of 100 EUR, and waits until the manager's cache (which order placement reads) shows
// them. It returns the ISIN.
func shareClassOnSale() string {
	GinkgoHelper()
	isin := freshISIN()
	fund := fixtures.Fund()
	create(fund)
	sc := fixtures.ShareClass(fund.Name, isin)
	create(sc)
	nav := fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: time.Now().AddDate(0, 0, -1).Format(time.DateOnly), NAVPerShare: 1_000_000})
	create(nav)
	for _, obj := range []client.Object{fund, sc, nav} {
		Eventually(func() error {
			return mgr.GetClient().Get(ctx, client.ObjectKeyFromObject(obj), obj.DeepCopyObject().(client.Object))
		}, settle, poll).Should(Succeed())
	}
	return isin
}

// placeOrder places a PRIMARY BUY through the API server (order admission prices it) that
// names the wallet and the payment method details.
func placeOrder(ns, accountID, walletID, pmdID string) *investv1.Order {
	GinkgoHelper()
	o := fixtures.BuyOrder(ns, accountID, shareClassOnSale(), 200)
	o.Spec.WalletID, o.Spec.PaymentMethodDetailsID = investv1.ObjectID(walletID), investv1.ObjectID(pmdID)
	create(o)
	return o
}

// endOrder brings a live order to CANCELLED: by a cancellation request, which the order
// controller carries out, or, if no order controller runs, by writing the state.
func endOrder(o *investv1.Order) {
	GinkgoHelper()
	Expect(k8s.Patch(ctx, o.DeepCopy(), client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"cancellationRequested":true}}`)))).To(Succeed())
	Eventually(func() investv1.OrderState {
		got := &investv1.Order{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), got)).To(Succeed())
		return got.Status.State
	}, settle, poll).Should(Equal(investv1.StateCancelled))
}

// complete writes COMPLETED into an order's status, as the order controller does at the
// end of a settled BUY (this suite runs no settlement agent).
func complete(o *investv1.Order) {
	GinkgoHelper()
	Eventually(func() error {
		got := &investv1.Order{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(o), got); err != nil {
			return err
		}
		got.Status.State = investv1.StateCompleted
		got.Status.History = append(got.Status.History, investv1.OrderTransition{State: investv1.StateCompleted, At: metav1.Now(), Reason: "Settled"})
		return k8s.Status().Update(ctx, got)
	}, settle, poll).Should(Succeed())
}

// withoutAccountDeleteAdmission takes DELETE out of the account webhook's rules until the
// spec ends, as on a cluster whose deletion came before the rule.
func withoutAccountDeleteAdmission() {
	GinkgoHelper()
	var list admissionregistrationv1.ValidatingWebhookConfigurationList
	Expect(k8s.List(ctx, &list)).To(Succeed())
	for i := range list.Items {
		cfg := &list.Items[i]
		for j := range cfg.Webhooks {
			if cfg.Webhooks[j].Name != "vaccount.invest.fundshare.io" {
				continue
			}
			original := cfg.DeepCopy()
			var ops []admissionregistrationv1.OperationType
			for _, op := range cfg.Webhooks[j].Rules[0].Operations {
				if op != admissionregistrationv1.Delete {
					ops = append(ops, op)
				}
			}
			cfg.Webhooks[j].Rules[0].Operations = ops
			Expect(k8s.Update(ctx, cfg)).To(Succeed())
			DeferCleanup(func() {
				got := &admissionregistrationv1.ValidatingWebhookConfiguration{}
				Expect(k8s.Get(ctx, client.ObjectKeyFromObject(original), got)).To(Succeed())
				got.Webhooks = original.Webhooks
				Expect(k8s.Update(ctx, got)).To(Succeed())
			})
			// The API server picks up the change within moments, not at once: the caller
			// retries what the webhook still refuses.
			return
		}
	}
	Fail("no vaccount webhook configured")
}

// gone says whether the object no longer exists.
func gone(obj client.Object) func() bool {
	return func() bool {
		err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj.DeepCopyObject().(client.Object))
		return apierrors.IsNotFound(err)
	}
}

// children counts the account's wallets and payment method details.
func children(ns, accountID string) func() int {
	return func() int {
		var ws investv1.WalletList
		var ps investv1.PaymentMethodDetailsList
		Expect(k8s.List(ctx, &ws, client.InNamespace(ns))).To(Succeed())
		Expect(k8s.List(ctx, &ps, client.InNamespace(ns))).To(Succeed())
		n := 0
		for _, w := range ws.Items {
			if string(w.Spec.AccountID) == accountID {
				n++
			}
		}
		for _, p := range ps.Items {
			if string(p.Spec.AccountID) == accountID {
				n++
			}
		}
		return n
	}
}

// withChildren creates an account with wallets and payment method details.
func withChildren(ns string, nWallets, nPayment int) *investv1.Account {
	GinkgoHelper()
	acct := fixtures.IndividualAccount(ns)
	create(acct)
	wallets(ns, acct.Name, nWallets)
	ibans := []string{fixtures.IBAN, fixtures.OtherIBAN, fixtures.FundIBAN}
	for i := range nPayment {
		create(fixtures.PaymentMethodDetails(ns, acct.Name, ibans[i%len(ibans)]))
	}
	return acct
}

var _ = Describe("Protection of data", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("deleting an account removes its wallets and payment method details, and only them", func() {
		doomed := withChildren(ns, 3, 2)
		kept := withChildren(ns, 2, 1)
		Eventually(func() []string {
			got := &investv1.Account{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(doomed), got)).To(Succeed())
			return got.Finalizers
		}, settle, poll).ShouldNot(BeEmpty())

		Expect(k8s.Delete(ctx, doomed)).To(Succeed())
		Eventually(children(ns, doomed.Name), settle, poll).Should(BeZero())
		Eventually(gone(doomed), settle, poll).Should(BeTrue(), "the finalizer is released")
		Consistently(children(ns, kept.Name), observe, poll).Should(Equal(3))
		Expect(gone(kept)()).To(BeFalse())
	})

	It("an account, wallet or payment method details that a live order refers to cannot be deleted; the error names the order", func() {
		acct := fixtures.IndividualAccount(ns)
		create(acct)
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		create(w)
		p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
		create(p)
		order := placeOrder(ns, acct.Name, w.Name, p.Name)

		// Right after placement, as a script would send it.
		for _, obj := range []client.Object{w, p} {
			err := k8s.Delete(ctx, obj)
			Expect(apierrors.IsForbidden(err)).To(BeTrue(), "deleting %s %s: %v", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), err)
			Expect(err.Error()).To(ContainSubstring("it is used by order " + order.Name))
			Expect(err.Error()).To(ContainSubstring("which is not terminal; cancel or complete the order first"))
		}
		err := k8s.Delete(ctx, acct)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "deleting the account: %v", err)
		Expect(err.Error()).To(ContainSubstring("live order " + order.Name + " (BUY "))
		Expect(err.Error()).To(ContainSubstring("cannot be deleted"))
		// Nothing was touched: no deletion started.
		for _, obj := range []client.Object{acct, w, p} {
			got := obj.DeepCopyObject().(client.Object)
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(obj), got)).To(Succeed())
			Expect(got.GetDeletionTimestamp()).To(BeNil())
		}
		GinkgoWriter.Printf("refusal: %v\n", k8s.Delete(ctx, acct))

		endOrder(order)
		// Admission reads orders from the manager's cache, which follows within moments.
		Eventually(func() error { return k8s.Delete(ctx, w) }, settle, poll).Should(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, acct) }, settle, poll).Should(Succeed())
		Eventually(gone(acct), settle, poll).Should(BeTrue())
		Eventually(gone(p), settle, poll).Should(BeTrue(), "removed with its account")
		Eventually(gone(w), settle, poll).Should(BeTrue())
	})

	It("an account that holds units cannot be deleted: the refusal names the units and the ISIN", func() {
		acct := fixtures.IndividualAccount(ns)
		create(acct)
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		create(w)
		p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
		create(p)
		order := placeOrder(ns, acct.Name, w.Name, p.Name)
		complete(order)

		// Admission reads orders from the manager's cache; once it shows the order
		// COMPLETED, the order no longer blocks as a live order, but its units do.
		Eventually(func() bool {
			got := &investv1.Order{}
			return mgr.GetClient().Get(ctx, client.ObjectKeyFromObject(order), got) == nil && got.Status.State == investv1.StateCompleted
		}, settle, poll).Should(BeTrue())
		err := k8s.Delete(ctx, acct)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "deleting an account that holds 200 units: %v", err)
		Expect(err.Error()).To(ContainSubstring(fmt.Sprintf("account holds 200 units of %s", order.Spec.ISIN)))
		Expect(err.Error()).NotTo(ContainSubstring(order.Name), "a completed order is not a live one")
		Consistently(func() error {
			got := &investv1.Account{}
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(acct), got); err != nil {
				return err
			}
			if got.DeletionTimestamp != nil {
				return fmt.Errorf("deletion started")
			}
			return nil
		}, observe, poll).Should(Succeed())
		Expect(children(ns, acct.Name)()).To(Equal(2), "its wallet and bank account are kept")
	})

	It("the account finalizer removes nothing while the account holds units, even when a deletion got past admission", func() {
		acct := fixtures.IndividualAccount(ns)
		create(acct)
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		create(w)
		p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
		create(p)
		order := placeOrder(ns, acct.Name, w.Name, p.Name)
		complete(order)
		Eventually(func() []string {
			got := &investv1.Account{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), got)).To(Succeed())
			return got.Finalizers
		}, settle, poll).ShouldNot(BeEmpty())

		// A deletion made before the rule existed: the account webhook does not see DELETE.
		withoutAccountDeleteAdmission()
		// Until the API server has the changed configuration the webhook still refuses.
		Eventually(func() error { return k8s.Delete(ctx, acct) }, settle, poll).Should(Succeed())

		Eventually(func() *metav1.Condition {
			got := &investv1.Account{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), got)).To(Succeed())
			return meta.FindStatusCondition(got.Status.Conditions, investv1.ConditionStalled)
		}, settle, poll).Should(And(Not(BeNil()), WithTransform(func(c *metav1.Condition) string { return c.Reason + ": " + c.Message },
			ContainSubstring(fmt.Sprintf("DeletionBlocked: account holds 200 units of %s", order.Spec.ISIN)))))
		Consistently(children(ns, acct.Name), observe, poll).Should(Equal(2), "the finalizer removes nothing")
		Expect(gone(acct)()).To(BeFalse())
	})

	It("a manager stopped in the middle of a cascade delete: the next one finishes it", func() {
		// The cascade of this spec runs in a manager whose client is throttled to 5 requests
		// a second, as against a busy API server, so that it can be stopped half way.
		DeferCleanup(ensureSuiteManager)
		mgr.Stop()
		slow := rest.CopyConfig(env.Config)
		slow.QPS, slow.Burst = 5, 1
		mgr = startManager(slow)

		acct := withChildren(ns, 20, 0)
		Eventually(func() []string {
			got := &investv1.Account{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), got)).To(Succeed())
			return got.Finalizers
		}, settle, poll).ShouldNot(BeEmpty())

		Expect(k8s.Delete(ctx, acct)).To(Succeed())
		Eventually(children(ns, acct.Name), settle, 10*time.Millisecond).Should(BeNumerically("<=", 15))
		mgr.Stop()
		left := children(ns, acct.Name)()
		AddReportEntry("wallets left when the manager stopped", left)
		GinkgoWriter.Printf("wallets left when the manager stopped: %d of 20\n", left)
		Expect(left).To(BeNumerically(">", 0), "stopped in the middle")
		Consistently(gone(acct), observe, poll).Should(BeFalse(), "the finalizer holds the account while no controller runs")
		Expect(children(ns, acct.Name)()).To(Equal(left), "nothing else deletes them")

		ensureSuiteManager()
		Eventually(children(ns, acct.Name), settle, poll).Should(BeZero())
		Eventually(gone(acct), settle, poll).Should(BeTrue())
	})
})
