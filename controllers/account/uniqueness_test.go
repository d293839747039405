package account_test

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/validation"
	"github.com/fundshare/fundshare-operator/internal/webhooks"
)

// registrationName is a deterministic wallet name, as the REST facade derives it: a UUIDv5
// of the account and the address's case-insensitive key. Two registrations of one address
// on one account get one name, so the API server itself refuses the second.
func registrationName(accountID, address string) string {
	canonical, err := validation.NormalizeEVMAddress(address)
	Expect(err).NotTo(HaveOccurred())
	return uuid.NewSHA1(uuid.MustParse(accountID), []byte(index.WalletAddressKey(accountID, canonical))).String()
}

// spellings returns n spellings of one address: lowercase, uppercase and EIP-55, in turn.
func spellings(address string, n int) []string {
	forms := []string{strings.ToLower(address), "0x" + strings.ToUpper(address[2:]), address}
	out := make([]string, n)
	for i := range out {
		out[i] = forms[i%len(forms)]
	}
	return out
}

// walletsWithAddress lists the account's wallets with the address (any case), through the
// API server.
func walletsWithAddress(ns, accountID, address string) []investv1.Wallet {
	GinkgoHelper()
	var list investv1.WalletList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	var out []investv1.Wallet
	for _, w := range list.Items {
		if string(w.Spec.AccountID) == accountID && strings.EqualFold(w.Spec.WalletAddress, address) {
			out = append(out, w)
		}
	}
	return out
}

// randomAddress is a fresh lowercase EVM address.
func randomAddress() string {
	return "0x" + strings.ReplaceAll(uuid.NewString()+uuid.NewString(), "-", "")[:40]
}

// isDuplicateRejection says whether err is admission's "Wallet already registered".
func isDuplicateRejection(err error) bool {
	if !apierrors.IsInvalid(err) {
		return false
	}
	for _, m := range causes(err)["spec.walletAddress"] {
		if strings.Contains(m, webhooks.WalletDuplicateMessage) {
			return true
		}
	}
	return false
}

var _ = Describe("Uniqueness of a wallet address per account", func() {
	var ns string
	var acct *investv1.Account
	BeforeEach(func() {
		ns = newNamespace()
		acct = fixtures.IndividualAccount(ns)
		create(acct)
	})

	It("20 concurrent registrations of one address under its deterministic name: exactly one succeeds, the others get AlreadyExists", func() {
		const n = 20
		name := registrationName(acct.Name, fixtures.Address)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, addr := range spellings(fixtures.Address, n) {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				w := fixtures.Wallet(ns, acct.Name, addr)
				w.Name = name
				errs[i] = k8s.Create(ctx, w)
			}()
		}
		wg.Wait()

		created, exists := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				created++
			case apierrors.IsAlreadyExists(err):
				exists++
			default:
				Fail(fmt.Sprintf("unexpected error: %v", err))
			}
		}
		Expect(created).To(Equal(1))
		Expect(exists).To(Equal(n - 1))
		Expect(walletsWithAddress(ns, acct.Name, fixtures.Address)).To(HaveLen(1))
		Consistently(func() []investv1.Wallet { return walletsWithAddress(ns, acct.Name, fixtures.Address) }, observe, poll).Should(HaveLen(1))
	})

	It("a second registration of an address (another case, another name) is rejected with Wallet already registered", func() {
		first := fixtures.Wallet(ns, acct.Name, strings.ToLower(fixtures.Address))
		create(first)
		// Admission looks for the address in the manager's cache; a kubectl user's second
		// command comes after the cache has caught up (see the race spec below for what
		// happens within milliseconds).
		Eventually(func() error {
			return mgr.GetClient().Get(ctx, client.ObjectKeyFromObject(first), &investv1.Wallet{})
		}, settle, poll).Should(Succeed())

		second := fixtures.Wallet(ns, acct.Name, "0x"+strings.ToUpper(fixtures.Address[2:]))
		err := k8s.Create(ctx, second)
		Expect(isDuplicateRejection(err)).To(BeTrue(), "%v", err)
		Expect(causes(err)).To(HaveKeyWithValue("spec.walletAddress", ContainElement(
			fmt.Sprintf("Duplicate value: %q: %s as wallet %s", fixtures.Address, webhooks.WalletDuplicateMessage, first.Name))))

		// The same address on another account is another registration.
		other := fixtures.IndividualAccount(ns)
		create(other)
		create(fixtures.Wallet(ns, other.Name, fixtures.Address))
	})

	It("concurrent registrations of one address under different names (kubectl path): exactly one succeeds, the others get Wallet already registered", func() {
		const n = 20
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, addr := range spellings(fixtures.OtherAddr, n) {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				w := fixtures.Wallet(ns, acct.Name, addr)
				w.Name = controlplane.NewID()
				errs[i] = k8s.Create(ctx, w)
			}()
		}
		wg.Wait()
		created := 0
		for _, err := range errs {
			if err == nil {
				created++
				continue
			}
			Expect(isDuplicateRejection(err)).To(BeTrue(), "%v", err)
		}
		stored := walletsWithAddress(ns, acct.Name, fixtures.OtherAddr)
		Expect(stored).To(HaveLen(created))
		Expect(created).To(Equal(1), "the address claim makes the API server refuse all but one")

		// Back-to-back (not concurrent) registrations, as a script would send them.
		const rounds = 10
		accepted := 0
		for range rounds {
			addr := randomAddress()
			create(fixtures.Wallet(ns, acct.Name, addr))
			if err := k8s.Create(ctx, fixtures.Wallet(ns, acct.Name, "0x"+strings.ToUpper(addr[2:]))); err == nil {
				accepted++
			} else {
				Expect(isDuplicateRejection(err)).To(BeTrue(), "%v", err)
			}
		}
		Expect(accepted).To(BeZero(), "back-to-back duplicates are refused")
	})

	It("a deleted wallet's address can be registered again under another name once its claim is stale", func() {
		addr := randomAddress()
		first := fixtures.Wallet(ns, acct.Name, addr)
		create(first)
		Expect(k8s.Delete(ctx, first)).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(first), &investv1.Wallet{}))
		}).WithTimeout(10 * time.Second).Should(BeTrue())

		// Within the grace period a claim without its wallet may belong to a registration
		// still on its way to etcd: refused. (Until the webhook's cache has seen the
		// deletion it refuses as a duplicate of the wallet itself, which is refused too.)
		Eventually(func() error {
			err := k8s.Create(ctx, fixtures.Wallet(ns, acct.Name, addr))
			switch {
			case err == nil:
				return StopTrying("a registration within the claim's grace period was accepted")
			case !isDuplicateRejection(err):
				return StopTrying(fmt.Sprintf("not refused as a duplicate: %v", err))
			case !strings.Contains(err.Error(), "registration in progress"):
				return err
			}
			return nil
		}).WithTimeout(10 * time.Second).Should(Succeed())

		// Once the claim is older than the grace period, the new registration takes it over.
		claim := &coordinationv1.Lease{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: webhooks.ClaimName(acct.Name, first.Spec.WalletAddress)}, claim)).To(Succeed())
		claim.Spec.AcquireTime = &metav1.MicroTime{Time: time.Now().Add(-time.Minute)}
		Expect(k8s.Update(ctx, claim)).To(Succeed())
		second := fixtures.Wallet(ns, acct.Name, addr)
		create(second)
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(claim), claim)).To(Succeed())
		Expect(*claim.Spec.HolderIdentity).To(Equal(second.Name))
	})

	It("removes the account's address claims with the account", func() {
		other := fixtures.IndividualAccount(ns)
		create(other)
		create(fixtures.Wallet(ns, other.Name, randomAddress()))
		Expect(k8s.Delete(ctx, other)).To(Succeed())
		Eventually(func() int {
			var claims coordinationv1.LeaseList
			Expect(k8s.List(ctx, &claims, client.InNamespace(ns), client.MatchingLabels{webhooks.LabelAccount: other.Name})).To(Succeed())
			return len(claims.Items)
		}).WithTimeout(20 * time.Second).Should(BeZero())
	})

	It("concurrent accounts with one external id under different names (kubectl path): exactly one is created", func() {
		const n = 10
		externalID := "dup-" + controlplane.NewID()[:8]
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				a := fixtures.IndividualAccount(ns)
				a.Spec.ExternalID = externalID
				errs[i] = k8s.Create(ctx, a)
			}()
		}
		wg.Wait()
		created := 0
		for _, err := range errs {
			if err == nil {
				created++
				continue
			}
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(ContainSubstring("spec.externalID: Duplicate value"))
		}
		Expect(created).To(Equal(1))
		var list investv1.AccountList
		Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		same := 0
		for _, a := range list.Items {
			if a.Spec.ExternalID == externalID {
				same++
			}
		}
		Expect(same).To(Equal(1))
	})
})
