package account_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// setPrimary is the one write that makes a child primary: a merge patch of the account's
// pointer, without a resourceVersion (as `kubectl patch --type=merge` sends it).
func setPrimary(acct *investv1.Account, field, id string) error {
	body := fmt.Sprintf(`{"spec":{%q:%q}}`, field, id)
	return k8s.Patch(ctx, acct.DeepCopy(), client.RawPatch("application/merge-patch+json", []byte(body)))
}

// primaryWallets returns the names of the account's wallets whose status says isPrimary.
func primaryWallets(ns, accountID string) []string {
	GinkgoHelper()
	var list investv1.WalletList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	var out []string
	for _, w := range list.Items {
		if string(w.Spec.AccountID) == accountID && w.Status.IsPrimary {
			out = append(out, w.Name)
		}
	}
	return out
}

// primaryPaymentMethods is primaryWallets for payment method details.
func primaryPaymentMethods(ns, accountID string) []string {
	GinkgoHelper()
	var list investv1.PaymentMethodDetailsList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	var out []string
	for _, p := range list.Items {
		if string(p.Spec.AccountID) == accountID && p.Status.IsPrimary {
			out = append(out, p.Name)
		}
	}
	return out
}

// condition returns the account's condition of type t, read through the API server.
func condition(acct *investv1.Account, t string) func() *metav1.Condition {
	return func() *metav1.Condition {
		got := &investv1.Account{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(acct), got); err != nil {
			return nil
		}
		c := meta.FindStatusCondition(got.Status.Conditions, t)
		if c != nil && c.ObservedGeneration != got.Generation {
			return nil // not about this generation yet
		}
		return c
	}
}

func haveCondition(status metav1.ConditionStatus, reason string) OmegaMatcher {
	return And(Not(BeNil()), HaveField("Status", status), HaveField("Reason", reason))
}

func wallets(ns, accountID string, n int) []*investv1.Wallet {
	out := make([]*investv1.Wallet, n)
	for i := range out {
		out[i] = fixtures.Wallet(ns, accountID, randomAddress())
		create(out[i])
	}
	return out
}

var _ = Describe("Primary flags (the account holds the pointer; children mirror it in status)", func() {
	var ns string
	var acct *investv1.Account
	BeforeEach(func() {
		ns = newNamespace()
		acct = fixtures.IndividualAccount(ns)
		create(acct)
	})

	It("making a wallet primary marks exactly that wallet and clears the others", func() {
		ws := wallets(ns, acct.Name, 3)
		Eventually(func() []string { return primaryWallets(ns, acct.Name) }, settle, poll).Should(BeEmpty())

		Expect(setPrimary(acct, "primaryWallet", ws[1].Name)).To(Succeed())
		Eventually(func() []string { return primaryWallets(ns, acct.Name) }, settle, poll).Should(Equal([]string{ws[1].Name}))
		Eventually(condition(acct, account.ConditionPrimaryWallet), settle, poll).Should(haveCondition(metav1.ConditionTrue, "Resolved"))

		Expect(setPrimary(acct, "primaryWallet", ws[2].Name)).To(Succeed())
		Eventually(func() []string { return primaryWallets(ns, acct.Name) }, settle, poll).Should(Equal([]string{ws[2].Name}))
		Consistently(func() []string { return primaryWallets(ns, acct.Name) }, observe, poll).Should(Equal([]string{ws[2].Name}))
	})

	It("every wallet and payment method details status says whether it is primary: false is written, not left out", func() {
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		create(w)
		p := fixtures.PaymentMethodDetails(ns, acct.Name, fixtures.IBAN)
		create(p)
		for _, obj := range []client.Object{w, p} {
			Eventually(func() (any, error) {
				u := &unstructured.Unstructured{}
				u.SetGroupVersionKind(controlplane.GVK(map[bool]string{true: "Wallet", false: "PaymentMethodDetails"}[obj == w]))
				if err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), u); err != nil {
					return nil, err
				}
				v, found, err := unstructured.NestedFieldNoCopy(u.Object, "status", "isPrimary")
				if !found {
					return "<absent>", err
				}
				return v, err
			}, settle, poll).Should(Equal(false), "%s: the Primary column of kubectl get reads this field", obj.GetName())
		}
	})

	It("making payment method details primary marks exactly them and clears the others", func() {
		ps := make([]*investv1.PaymentMethodDetails, 3)
		for i, iban := range []string{fixtures.IBAN, fixtures.OtherIBAN, fixtures.FundIBAN} {
			ps[i] = fixtures.PaymentMethodDetails(ns, acct.Name, iban)
			create(ps[i])
		}
		Expect(setPrimary(acct, "primaryPaymentMethodDetails", ps[0].Name)).To(Succeed())
		Eventually(func() []string { return primaryPaymentMethods(ns, acct.Name) }, settle, poll).Should(Equal([]string{ps[0].Name}))
		Expect(setPrimary(acct, "primaryPaymentMethodDetails", ps[2].Name)).To(Succeed())
		Eventually(func() []string { return primaryPaymentMethods(ns, acct.Name) }, settle, poll).Should(Equal([]string{ps[2].Name}))
		Eventually(condition(acct, account.ConditionPrimaryPaymentMethod), settle, poll).Should(haveCondition(metav1.ConditionTrue, "Resolved"))
	})

	It("50 concurrent make-primary requests over 5 wallets end with exactly one primary, the last writer's", func() {
		ws := wallets(ns, acct.Name, 5)

		// Sample what a `kubectl get wallets` would show during the storm.
		var maxShown atomic.Int32
		sampling, sampled := make(chan struct{}), make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(sampled)
			for {
				select {
				case <-sampling:
					return
				default:
				}
				var list investv1.WalletList
				if err := k8s.List(ctx, &list, client.InNamespace(ns)); err == nil {
					n := int32(0)
					for _, w := range list.Items {
						if w.Status.IsPrimary {
							n++
						}
					}
					if n > maxShown.Load() {
						maxShown.Store(n)
					}
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()

		const n = 50
		type result struct {
			pointer    string
			generation int64
		}
		results := make([]result, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				a := acct.DeepCopy()
				target := ws[i%len(ws)].Name
				patch := client.RawPatch("application/merge-patch+json", fmt.Appendf(nil, `{"spec":{"primaryWallet":%q}}`, target))
				Expect(k8s.Patch(ctx, a, patch)).To(Succeed())
				results[i] = result{pointer: a.Spec.PrimaryWallet, generation: a.Generation}
			}()
		}
		wg.Wait()

		final := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), final)).To(Succeed())
		names := make([]string, len(ws))
		for i, w := range ws {
			names[i] = w.Name
		}
		Expect(names).To(ContainElement(final.Spec.PrimaryWallet))
		// Every write that changed the pointer got its own generation, and each answer shows
		// the state its write produced. The last writer is the one that produced the final
		// generation (a later request naming the same wallet is a no-op and answers the
		// same generation), and its wallet is the final pointer.
		byGeneration := map[int64]string{}
		var last int64
		for _, r := range results {
			if p, seen := byGeneration[r.generation]; seen {
				Expect(r.pointer).To(Equal(p), "two pointers at generation %d", r.generation)
			}
			byGeneration[r.generation] = r.pointer
			last = max(last, r.generation)
		}
		Expect(final.Generation).To(Equal(last))
		Expect(byGeneration[last]).To(Equal(final.Spec.PrimaryWallet))

		Eventually(func() []string { return primaryWallets(ns, acct.Name) }, settle, poll).Should(Equal([]string{final.Spec.PrimaryWallet}))
		Consistently(func() []string { return primaryWallets(ns, acct.Name) }, observe, poll).Should(Equal([]string{final.Spec.PrimaryWallet}))
		close(sampling)
		<-sampled
		// The pointer is one field, so the account never names two primaries. The mirrored
		// status.isPrimary of the children is written one child at a time and converges;
		// report what a list showed while it did.
		AddReportEntry("most wallets a list showed with status.isPrimary during 50 concurrent switches", maxShown.Load())
		GinkgoWriter.Printf("most wallets shown with status.isPrimary at once during the storm: %d\n", maxShown.Load())
	})

	It("a pointer to a wallet that does not exist sets PrimaryWalletResolved False, reason NotFound", func() {
		missing := controlplane.NewID()
		Expect(setPrimary(acct, "primaryWallet", missing)).To(Succeed())
		Eventually(condition(acct, account.ConditionPrimaryWallet), settle, poll).Should(And(
			haveCondition(metav1.ConditionFalse, "NotFound"), HaveField("Message", ContainSubstring(missing))))
		Eventually(condition(acct, investv1.ConditionReady), settle, poll).Should(haveCondition(metav1.ConditionFalse, "PrimaryNotResolved"))

		// Creating the wallet later resolves it (apply order does not matter).
		w := fixtures.Wallet(ns, acct.Name, fixtures.Address)
		w.Name = missing
		create(w)
		Eventually(condition(acct, account.ConditionPrimaryWallet), settle, poll).Should(haveCondition(metav1.ConditionTrue, "Resolved"))
		Eventually(condition(acct, investv1.ConditionReady), settle, poll).Should(haveCondition(metav1.ConditionTrue, "Consistent"))
		Eventually(func() []string { return primaryWallets(ns, acct.Name) }, settle, poll).Should(Equal([]string{missing}))
	})

	It("a pointer to another account's wallet sets PrimaryWalletResolved False, reason ForeignObject", func() {
		other := fixtures.IndividualAccount(ns)
		create(other)
		foreign := fixtures.Wallet(ns, other.Name, fixtures.Address)
		create(foreign)

		Expect(setPrimary(acct, "primaryWallet", foreign.Name)).To(Succeed())
		Eventually(condition(acct, account.ConditionPrimaryWallet), settle, poll).Should(And(
			haveCondition(metav1.ConditionFalse, "ForeignObject"), HaveField("Message", ContainSubstring(other.Name))))
		Consistently(func() []string { return primaryWallets(ns, other.Name) }, observe, poll).Should(BeEmpty())
	})

	It("a pointer to payment method details that do not exist or belong to another account sets PrimaryPaymentMethodDetailsResolved False", func() {
		missing := controlplane.NewID()
		Expect(setPrimary(acct, "primaryPaymentMethodDetails", missing)).To(Succeed())
		Eventually(condition(acct, account.ConditionPrimaryPaymentMethod), settle, poll).Should(haveCondition(metav1.ConditionFalse, "NotFound"))

		other := fixtures.IndividualAccount(ns)
		create(other)
		foreign := fixtures.PaymentMethodDetails(ns, other.Name, fixtures.IBAN)
		create(foreign)
		Expect(setPrimary(acct, "primaryPaymentMethodDetails", foreign.Name)).To(Succeed())
		Eventually(condition(acct, account.ConditionPrimaryPaymentMethod), settle, poll).Should(haveCondition(metav1.ConditionFalse, "ForeignObject"))
		Consistently(func() []string { return primaryPaymentMethods(ns, other.Name) }, observe, poll).Should(BeEmpty())
	})
})

// manifest parses a YAML manifest as a GitOps tool would hold it.
func manifest(text string, args ...any) *unstructured.Unstructured {
	GinkgoHelper()
	u := &unstructured.Unstructured{}
	Expect(yaml.Unmarshal(fmt.Appendf(nil, text, args...), &u.Object)).To(Succeed())
	return u
}

// apply server-side-applies a manifest with the field owner of a GitOps tool.
func apply(u *unstructured.Unstructured) error {
	return k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(u.DeepCopy()), client.FieldOwner("gitops"), client.ForceOwnership)
}

// resourceVersions reads the resourceVersion and generation of each manifest's object.
func resourceVersions(us ...*unstructured.Unstructured) []string {
	GinkgoHelper()
	out := make([]string, len(us))
	for i, u := range us {
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(u.GroupVersionKind())
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(u), got)).To(Succeed())
		out[i] = fmt.Sprintf("%s rv=%s gen=%d", got.GetKind(), got.GetResourceVersion(), got.GetGeneration())
	}
	return out
}

// quiet waits until nothing writes the manifests' objects any more and returns their
// resourceVersions and generations.
func quiet(us ...*unstructured.Unstructured) []string {
	GinkgoHelper()
	var last []string
	Eventually(func() bool {
		before := resourceVersions(us...)
		time.Sleep(observe / 2)
		last = resourceVersions(us...)
		return fmt.Sprint(before) == fmt.Sprint(last)
	}, settle, poll).Should(BeTrue())
	return last
}

var _ = Describe("GitOps safety (controllers never write spec)", func() {
	It("after reconcile, spec and generation are unchanged, and re-applying the same manifests changes nothing", func() {
		ns := newNamespace()
		acctID, walletID, pmdID := controlplane.NewID(), controlplane.NewID(), controlplane.NewID()
		// The account names its primaries before they exist, as a Git folder applied in
		// alphabetical order would.
		acctManifest := manifest(`
apiVersion: invest.fundshare.io/v1alpha1
kind: Account
metadata: {name: %s, namespace: %s}
spec:
  type: individual
  externalID: cust-gitops
  firstName: Erika
  lastName: Mustermann
  dobDay: 12
  dobMonth: 8
  dobYear: 1964
  placeOfBirth: Berlin
  primaryWallet: %s
  primaryPaymentMethodDetails: %s
`, acctID, ns, walletID, pmdID)
		walletManifest := manifest(`
apiVersion: invest.fundshare.io/v1alpha1
kind: Wallet
metadata: {name: %s, namespace: %s}
spec: {accountID: %s, chain: polygon, walletAddress: %s}
`, walletID, ns, acctID, fixtures.Address)
		pmdManifest := manifest(`
apiVersion: invest.fundshare.io/v1alpha1
kind: PaymentMethodDetails
metadata: {name: %s, namespace: %s}
spec: {accountID: %s, type: sepa, iban: %s, accountHolderName: Erika Mustermann}
`, pmdID, ns, acctID, fixtures.IBAN)
		all := []*unstructured.Unstructured{acctManifest, walletManifest, pmdManifest}
		for _, u := range all {
			Expect(apply(u)).To(Succeed())
		}

		acct := &investv1.Account{}
		acct.Name, acct.Namespace = acctID, ns
		Eventually(condition(acct, investv1.ConditionReady), settle, poll).Should(haveCondition(metav1.ConditionTrue, "Consistent"))
		Eventually(func() []string { return primaryWallets(ns, acctID) }, settle, poll).Should(Equal([]string{walletID}))
		Eventually(func() []string { return primaryPaymentMethods(ns, acctID) }, settle, poll).Should(Equal([]string{pmdID}))

		got := &investv1.Account{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), got)).To(Succeed())
		Expect(got.Generation).To(Equal(int64(1)), "nobody but the user wrote spec")
		Expect(got.Finalizers).To(ContainElement(account.Finalizer))
		Expect(got.Spec.PrimaryWallet).To(Equal(walletID))
		Expect(got.Status.ObservedGeneration).To(Equal(int64(1)))

		// Settled: nothing writes any more.
		settled := resourceVersions(all...)
		Consistently(func() []string { return resourceVersions(all...) }, observe, poll).Should(Equal(settled))

		// A GitOps tool's next sync sends the same manifests: no write happens.
		for _, u := range all {
			Expect(apply(u)).To(Succeed())
		}
		Expect(resourceVersions(all...)).To(Equal(settled))
		for _, u := range all {
			Expect(k8s.Apply(ctx, client.ApplyConfigurationFromUnstructured(u.DeepCopy()), client.FieldOwner("gitops"), client.DryRunAll)).To(Succeed())
		}
		Consistently(func() []string { return resourceVersions(all...) }, observe, poll).Should(Equal(settled))
	})

	// The defaulting webhooks store canonical forms on create and update alike, so a
	// manifest kept in another spelling re-applies cleanly.
	It("re-applying a manifest that spells the address or IBAN differently from the stored canonical form changes nothing", func() {
		ns := newNamespace()
		acct := fixtures.IndividualAccount(ns)
		create(acct)
		walletManifest := manifest(`
apiVersion: invest.fundshare.io/v1alpha1
kind: Wallet
metadata: {name: %s, namespace: %s}
spec: {accountID: %s, walletAddress: "%s"}
`, controlplane.NewID(), ns, acct.Name, strings.ToLower(fixtures.Address))
		pmdManifest := manifest(`
apiVersion: invest.fundshare.io/v1alpha1
kind: PaymentMethodDetails
metadata: {name: %s, namespace: %s}
spec: {accountID: %s, iban: "de89 3704 0044 0532 0130 00", accountHolderName: Erika Mustermann}
`, controlplane.NewID(), ns, acct.Name)
		for _, u := range []*unstructured.Unstructured{walletManifest, pmdManifest} {
			Expect(apply(u)).To(Succeed())
		}
		settled := quiet(walletManifest, pmdManifest)
		for _, u := range []*unstructured.Unstructured{walletManifest, pmdManifest} {
			Expect(apply(u)).To(Succeed())
		}
		Expect(resourceVersions(walletManifest, pmdManifest)).To(Equal(settled))
	})
})
