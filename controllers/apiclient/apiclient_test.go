package apiclient_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/apiclient"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

const notATenant = "is not a tenant: it has no ApiClient. Create the tenant's ApiClient in this namespace first"

var _ = Describe("Tenancy on the Kubernetes side", func() {
	It("tenant kinds are refused in a namespace without an ApiClient, with a message that says what to do", func() {
		ns := newNamespace()
		acct := fixtures.IndividualAccount(ns)
		offering := &investv1.CustomOffering{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: controlplane.NewID()},
			Spec: investv1.CustomOfferingSpec{ISIN: fixtures.ISIN, FeeRate: 25}}
		for _, obj := range []client.Object{acct, offering} {
			err := k8s.Create(ctx, obj)
			Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%T: %v", obj, err)
			Expect(err.Error()).To(ContainSubstring("namespace " + ns + " " + notATenant))
		}
		// Wallets, payment method details and orders name an account of their namespace,
		// which cannot exist there: they are refused too (by whichever webhook answers first).
		for _, obj := range []client.Object{
			fixtures.Wallet(ns, acct.Name, fixtures.Address),
			fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN),
			fixtures.BuyOrder(ns, acct.Name, fixtures.ISIN, 10),
		} {
			Expect(k8s.Create(ctx, obj)).NotTo(Succeed(), "%T", obj)
		}
		var accounts investv1.AccountList
		Expect(k8s.List(ctx, &accounts, client.InNamespace(ns))).To(Succeed())
		Expect(accounts.Items).To(BeEmpty())
	})

	It("an account in the default namespace is refused", func() {
		err := k8s.Create(ctx, fixtures.IndividualAccount("default"))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("namespace default " + notATenant))
	})

	It("GitOps order: an ApiClient applied just before the tenant's objects admits them at once", func() {
		ns := newNamespace()
		_, err := fixtures.MakeTenant(ctx, k8s, ns)
		Expect(err).NotTo(HaveOccurred())
		acct := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, acct)).To(Succeed())
		Expect(k8s.Create(ctx, fixtures.Wallet(ns, acct.Name, fixtures.Address))).To(Succeed())
	})

	It("at most one ApiClient per namespace, also when two are created at once", func() {
		ns := newNamespace()
		_, err := fixtures.MakeTenant(ctx, k8s, ns)
		Expect(err).NotTo(HaveOccurred())
		second := fixtures.ApiClient(ns, ns+"-second", "credentials")
		second.Name = "second"
		err = k8s.Create(ctx, second)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("namespace " + ns + " already has ApiClient integrator"))

		ns2 := newNamespace()
		created := race(8, func(i int) error {
			ac := fixtures.ApiClient(ns2, fmt.Sprintf("%s-%d", ns2, i), "credentials")
			ac.Name = fmt.Sprintf("client-%d", i)
			return k8s.Create(ctx, ac)
		})
		Expect(created).To(Equal(1))
		var list investv1.ApiClientList
		Expect(k8s.List(ctx, &list, client.InNamespace(ns2))).To(Succeed())
		Expect(list.Items).To(HaveLen(1))
	})

	It("a client id is unique across the cluster by an atomic claim, also when created at once in several namespaces", func() {
		first := newNamespace()
		_, err := fixtures.MakeTenant(ctx, k8s, first)
		Expect(err).NotTo(HaveOccurred())
		other := newNamespace()
		err = k8s.Create(ctx, fixtures.ApiClient(other, first+"-client", "credentials"))
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec.clientID: Duplicate value"))
		Expect(err.Error()).To(ContainSubstring(first + "/integrator"))

		id := "racer-" + controlplane.NewID()
		namespaces := make([]string, 8)
		for i := range namespaces {
			namespaces[i] = newNamespace()
		}
		created := race(len(namespaces), func(i int) error {
			return k8s.Create(ctx, fixtures.ApiClient(namespaces[i], id, "credentials"))
		})
		Expect(created).To(Equal(1), "one client id, one ApiClient")
	})

	It("the ApiClient of a namespace that still holds tenant objects cannot be deleted", func() {
		ns := newNamespace()
		ac, err := fixtures.MakeTenant(ctx, k8s, ns)
		Expect(err).NotTo(HaveOccurred())
		acct := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, acct)).To(Succeed())

		// At once, whether or not the manager's cache shows the account yet.
		err = k8s.Delete(ctx, ac)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(MatchRegexp(`namespace %s still holds accounts( \(1\))? of this tenant`, ns))
		Expect(err.Error()).To(ContainSubstring("set spec.disabled: true"))
		Eventually(func() error {
			return env.Manager.GetClient().Get(ctx, client.ObjectKeyFromObject(acct), &investv1.Account{})
		}, settle, poll).Should(Succeed())
		err = k8s.Delete(ctx, ac)
		Expect(err).To(MatchError(ContainSubstring("namespace " + ns + " still holds accounts (1) of this tenant")))

		Expect(k8s.Delete(ctx, acct)).To(Succeed())
		Eventually(func() error { return k8s.Delete(ctx, ac) }, settle, poll).Should(Succeed())
	})
})

var _ = Describe("ApiClient controller", func() {
	It("reports Ready with a reason for each state of the Secret, following it through the Secret watch", func() {
		ns := newNamespace()
		ac, err := fixtures.MakeTenant(ctx, k8s, ns)
		Expect(err).NotTo(HaveOccurred())
		expectReady(ac, metav1.ConditionFalse, apiclient.ReasonSecretNotFound, true)

		hash, err := clientsecret.Hash("a client secret of the tenant")
		Expect(err).NotTo(HaveOccurred())
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "credentials"}, Data: map[string][]byte{"hash": []byte(hash)}}
		Expect(k8s.Create(ctx, secret)).To(Succeed())
		expectReady(ac, metav1.ConditionTrue, apiclient.ReasonReady, false)

		secret.Data = map[string][]byte{"hash": []byte("the plain secret by mistake")}
		Expect(k8s.Update(ctx, secret)).To(Succeed())
		c := expectReady(ac, metav1.ConditionFalse, apiclient.ReasonInvalidHash, true)
		Expect(c.Message).NotTo(ContainSubstring("the plain secret by mistake"), "no secret value in a condition")

		secret.Data = map[string][]byte{"other": []byte(hash)}
		Expect(k8s.Update(ctx, secret)).To(Succeed())
		expectReady(ac, metav1.ConditionFalse, apiclient.ReasonSecretKeyMissing, true)

		secret.Data = map[string][]byte{"hash": []byte(hash)}
		Expect(k8s.Update(ctx, secret)).To(Succeed())
		expectReady(ac, metav1.ConditionTrue, apiclient.ReasonReady, false)

		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(ac), ac)).To(Succeed())
		ac.Spec.Disabled = true
		Expect(k8s.Update(ctx, ac)).To(Succeed())
		expectReady(ac, metav1.ConditionTrue, apiclient.ReasonDisabled, false)

		Expect(k8s.Delete(ctx, secret)).To(Succeed())
		expectReady(ac, metav1.ConditionFalse, apiclient.ReasonSecretNotFound, true)
	})
})

// observed is what a spec reads from an ApiClient's status.
type observed struct {
	Ready, Reason    string
	Stalled, Current bool // Current: status and Ready describe the current generation
}

// expectReady waits until the ApiClient's status describes its current generation with
// the Ready condition given, and Stalled exactly when stalled.
func expectReady(ac *investv1.ApiClient, status metav1.ConditionStatus, reason string, stalled bool) metav1.Condition {
	GinkgoHelper()
	var ready metav1.Condition
	Eventually(func() observed {
		got := &investv1.ApiClient{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(ac), got)).To(Succeed())
		c := meta.FindStatusCondition(got.Status.Conditions, investv1.ConditionReady)
		if c == nil {
			return observed{}
		}
		ready = *c
		return observed{
			Ready: string(c.Status), Reason: c.Reason,
			Stalled: meta.IsStatusConditionTrue(got.Status.Conditions, investv1.ConditionStalled),
			Current: got.Status.ObservedGeneration == got.Generation && c.ObservedGeneration == got.Generation,
		}
	}, settle, poll).Should(Equal(observed{Ready: string(status), Reason: reason, Stalled: stalled, Current: true}))
	return ready
}

// race runs n creates at once and returns how many succeeded.
func race(n int, create func(i int) error) int {
	GinkgoHelper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := create(i); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if !apierrors.IsInvalid(err) && !apierrors.IsForbidden(err) {
				GinkgoWriter.Printf("create %d: %v\n", i, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	return ok
}
