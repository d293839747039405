package token_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// kstatusOf computes, with cli-utils, what kubectl wait, Flux and kpt read from obj.
func kstatusOf(obj runtime.Object) kstatus.Status {
	GinkgoHelper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	Expect(err).NotTo(HaveOccurred())
	res, err := kstatus.Compute(&unstructured.Unstructured{Object: m})
	Expect(err).NotTo(HaveOccurred())
	return res.Status
}

// trioWritten says whether a controller has written the kstatus trio at the object's
// generation: before that (a new object has no status) kstatus cannot know better than
// Current, for any kind.
func trioWritten(conds []metav1.Condition, gen int64) bool {
	c := meta.FindStatusCondition(conds, investv1.ConditionReady)
	return c != nil && c.ObservedGeneration == gen &&
		meta.FindStatusCondition(conds, investv1.ConditionReconciling) != nil && meta.FindStatusCondition(conds, investv1.ConditionStalled) != nil
}

// watchEvery watches every version of the objects of list (in namespace ns, "" for
// cluster-scoped kinds) from now on, and hands each to see until see says it is done or
// the time is up. A watch delivers each version in order, so no intermediate state is
// missed the way polling could.
func watchEvery(list client.ObjectList, ns string, see func(runtime.Object) (done bool)) func() {
	GinkgoHelper()
	wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	var opts []client.ListOption
	if ns != "" {
		opts = append(opts, client.InNamespace(ns))
	}
	w, err := wc.Watch(ctx, list, opts...)
	Expect(err).NotTo(HaveOccurred())
	return func() {
		GinkgoHelper()
		defer w.Stop()
		timeout := time.After(settle)
		for {
			select {
			case ev, ok := <-w.ResultChan():
				Expect(ok).To(BeTrue(), "the watch ended")
				if ev.Type == watch.Error || ev.Type == watch.Bookmark {
					continue
				}
				if see(ev.Object) {
					return
				}
			case <-timeout:
				Fail("the object did not reach the expected state in time")
			}
		}
	}
}

var _ = Describe("Health as kstatus reads it (Ready, Reconciling, Stalled)", func() {
	It("reports a share class whose token is still deploying as reconciling, not current, until the token is usable", func() {
		sc := adoptingClass(newISIN(), nil)
		var sawDeploying bool
		wait := watchEvery(&investv1.ShareClassList{}, "", func(o runtime.Object) bool {
			cur, ok := o.(*investv1.ShareClass)
			if !ok || cur.Name != sc.Name || !trioWritten(cur.Status.Conditions, cur.Generation) {
				return false
			}
			usable := meta.IsStatusConditionTrue(cur.Status.Conditions, TypeTokenReady)
			got := kstatusOf(cur)
			if !usable {
				Expect(got).To(Equal(kstatus.InProgressStatus), "the token is not usable yet: %v", cur.Status.Conditions)
				c := meta.FindStatusCondition(cur.Status.Conditions, investv1.ConditionReconciling)
				Expect(c.Status).To(Equal(metav1.ConditionTrue))
				Expect(c.Reason).To(Equal(ReasonDeploying))
				sawDeploying = true
				return false
			}
			Expect(got).To(Equal(kstatus.CurrentStatus))
			Expect(meta.FindStatusCondition(cur.Status.Conditions, investv1.ConditionReady).Reason).To(Equal(ReasonDeployed))
			return true
		})
		before := sc.DeepCopy()
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy}
		Expect(k8s.Patch(ctx, sc, client.MergeFrom(before))).To(Succeed())
		wait()
		Expect(sawDeploying).To(BeTrue(), "the deployment was never reported on its way")
	})

	It("reports a share class whose token is paused as not ready (TokenReady=False, Paused) and stalled, keeps the token for the lookup, and ready again once unpaused", func() {
		isin, addr := readyToken()
		sc := shareClassOf(isin)
		Expect(kstatusOf(sc)).To(Equal(kstatus.CurrentStatus))

		send(addr, contracts.NewShareToken().PackPause())
		c := condition(sc.Name, TypeTokenReady, metav1.ConditionFalse, ReasonPaused)
		Expect(c.Message).To(ContainSubstring("paused"))
		stalled := condition(sc.Name, investv1.ConditionStalled, metav1.ConditionTrue, ReasonPaused)
		Expect(stalled.Message).To(ContainSubstring("unpause()"))
		got := getShareClass(sc.Name)
		Expect(kstatusOf(got)).To(Equal(kstatus.FailedStatus))
		Expect(meta.IsStatusConditionFalse(got.Status.Conditions, investv1.ConditionReady)).To(BeTrue())
		// The token is still the share class's: burns and forced transfers apply while
		// paused, and a mint reports EnforcedPause on its order.
		Expect(got.Status.Token.Address).To(Equal(addr.Hex()))
		tok, err := lookup.Token(ctx, "", investv1.ISIN(isin))
		Expect(err).NotTo(HaveOccurred())
		Expect(tok.Address).To(Equal(addr))

		send(addr, contracts.NewShareToken().PackUnpause())
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		Eventually(func() kstatus.Status { return kstatusOf(getShareClass(sc.Name)) }, settle, poll).Should(Equal(kstatus.CurrentStatus))
	})

	It("reports a wallet whose registration is still pending as reconciling, not current, until it is registered", func() {
		ns := tenant("pending")
		acct := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, acct)).To(Succeed())
		w := fixtures.Wallet(ns, acct.Name, newWalletAddress().Hex())
		var sawRegistering bool
		wait := watchEvery(&investv1.WalletList{}, ns, func(o runtime.Object) bool {
			cur, ok := o.(*investv1.Wallet)
			if !ok || cur.Name != w.Name || !trioWritten(cur.Status.Conditions, cur.Generation) {
				return false
			}
			registeredNow := cur.Status.Registration != nil && cur.Status.Registration.State == investv1.RegistrationRegistered
			got := kstatusOf(cur)
			if !registeredNow {
				Expect(got).To(Equal(kstatus.InProgressStatus), "the registration is not final: %+v %v", cur.Status.Registration, cur.Status.Conditions)
				sawRegistering = true
				return false
			}
			if !meta.IsStatusConditionTrue(cur.Status.Conditions, investv1.ConditionReady) {
				return false // the account controller has not read the registration yet
			}
			Expect(got).To(Equal(kstatus.CurrentStatus))
			Expect(meta.FindStatusCondition(cur.Status.Conditions, investv1.ConditionReady).Reason).To(Equal("Registered"))
			return true
		})
		Expect(k8s.Create(ctx, w)).To(Succeed())
		wait()
		Expect(sawRegistering).To(BeTrue(), "the registration was never reported on its way")
	})

	It("reports a wallet whose registration failed as stalled, naming the Registered condition's reason", func() {
		n := takeOperatorNonce()
		w := newWallet(tenant("regfailed"), newWalletAddress())
		Eventually(func(g Gomega) {
			got := &investv1.Wallet{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), got)).To(Succeed())
			c := meta.FindStatusCondition(got.Status.Conditions, investv1.ConditionStalled)
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Status).To(Equal(metav1.ConditionTrue))
			g.Expect(c.Reason).To(Equal(ReasonNonceTaken))
			g.Expect(kstatusOf(got)).To(Equal(kstatus.FailedStatus))
		}, settle, poll).Should(Succeed())
		nothingSentAfter(n)
	})
})

// shareClassOf finds the share class with the ISIN.
func shareClassOf(isin string) *investv1.ShareClass {
	GinkgoHelper()
	var list investv1.ShareClassList
	Expect(k8s.List(ctx, &list)).To(Succeed())
	for i := range list.Items {
		if string(list.Items[i].Spec.ISIN) == isin {
			return &list.Items[i]
		}
	}
	Fail("no share class with ISIN " + isin)
	return nil
}
