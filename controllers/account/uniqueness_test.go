package account_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/google/uuid"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

	It("concurrent registrations of one address under different names (kubectl path): the cache-based check is best effort", func() {
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
		Expect(created).To(BeNumerically(">=", 1))
		// Not a guarantee: admission reads the manager's cache, so registrations admitted
		// within the same few milliseconds can all pass. Only the REST facade's
		// deterministic names (spec above) make the API server enforce uniqueness.
		AddReportEntry("wallets created by 20 concurrent different-name registrations of one address", created)
		GinkgoWriter.Printf("concurrent different-name registrations: %d of %d created\n", created, n)

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
		AddReportEntry("duplicates accepted in 10 back-to-back different-name registrations", accepted)
		GinkgoWriter.Printf("back-to-back different-name duplicates accepted: %d of %d\n", accepted, rounds)
	})
})
