package token_test

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// tenant makes a namespace a tenant for the spec.
func tenant(prefix string) string {
	GinkgoHelper()
	return env.NewTenant(prefix)
}

// readyToken deploys a ShareToken for a new ISIN and has a share class adopt it.
func readyToken() (string, common.Address) {
	GinkgoHelper()
	isin := newISIN()
	addr := deployToken(isin, lc.Registry, operator.Address())
	// The specs mint and burn outside the operator with the admin key.
	send(addr, contracts.NewShareToken().PackGrantRole(AgentRole, admin.Address()))
	sc := adoptingClass(isin, &addr)
	condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
	return isin, addr
}

func setHoldings(a *investv1.Account, isin string, units int64) {
	GinkgoHelper()
	Eventually(func() error {
		cur := &investv1.Account{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(a), cur); err != nil {
			return err
		}
		before := cur.DeepCopy()
		cur.Status.Holdings = []investv1.Holding{{ISIN: investv1.ISIN(isin), Units: units}}
		return k8s.Status().Patch(ctx, cur, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	}, settle, poll).Should(Succeed())
}

func ledgerCondition(a *investv1.Account, status metav1.ConditionStatus, reason string) metav1.Condition {
	GinkgoHelper()
	var got metav1.Condition
	Eventually(func(g Gomega) {
		cur := &investv1.Account{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(a), cur)).To(Succeed())
		c := meta.FindStatusCondition(cur.Status.Conditions, TypeLedgerInSync)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(status), c.Message)
		g.Expect(c.Reason).To(Equal(reason), c.Message)
		got = *c
	}, settle, poll).Should(Succeed())
	return got
}

func gauge(name string) float64 {
	GinkgoHelper()
	families, err := metrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() == name {
			var sum float64
			for _, m := range f.Metric {
				sum += metricValue(m)
			}
			return sum
		}
	}
	return 0
}

func metricValue(m *dto.Metric) float64 {
	if m.Gauge != nil {
		return m.Gauge.GetValue()
	}
	if m.Counter != nil {
		return m.Counter.GetValue()
	}
	return 0
}

var _ = Describe("Ledger reconciliation", func() {
	It("a direct on-chain mint outside the agent sets LedgerInSync=False with the numbers, a Warning Event and the metric; burning it back clears it", func() {
		ns := tenant("ledger")
		isin, token := readyToken()
		acct := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, acct)).To(Succeed())
		wallet := newWalletAddress()
		Expect(k8s.Create(ctx, fixtures.Wallet(ns, acct.Name, wallet.Hex()))).To(Succeed())
		Eventually(func() (bool, error) { return isVerified(wallet) }, settle, poll).Should(BeTrue(), "the wallet controller registers the wallet")
		setHoldings(acct, isin, 10)
		tok := contracts.NewShareToken()
		send(token, tok.PackMint(wallet, big.NewInt(10)))

		By("in sync while the chain holds what the ledger says")
		c := ledgerCondition(acct, metav1.ConditionTrue, ReasonBalancesMatch)
		Expect(c.Message).To(ContainSubstring("on-chain balances equal the holdings"))

		By("a mint the agent did not make")
		send(token, tok.PackMint(wallet, big.NewInt(2)))
		Expect(balanceOf(token, wallet)).To(Equal(int64(12)))
		c = ledgerCondition(acct, metav1.ConditionFalse, ReasonBalanceMismatch)
		// The numbers of this ISIN exactly; the suite's other ISINs may be reported not yet
		// comparable after them while a loaded machine indexes their transfers late.
		mismatch := "ISIN " + isin + ": chain 12 units, ledger 10"
		Expect(c.Message).To(Or(Equal(mismatch), HavePrefix(mismatch+"; not yet comparable: ")))
		Expect(strings.TrimPrefix(c.Message, mismatch)).NotTo(ContainSubstring(isin), "only other ISINs may be not comparable")
		Eventually(func(g Gomega) {
			var evs eventsv1.EventList
			g.Expect(k8s.List(ctx, &evs, client.InNamespace(ns))).To(Succeed())
			found := false
			for _, e := range evs.Items {
				if e.Regarding.Name == acct.Name && e.Reason == ReasonBalanceMismatch && e.Type == corev1.EventTypeWarning && e.Note == c.Message {
					found = true
				}
			}
			g.Expect(found).To(BeTrue(), "no Warning event BalanceMismatch %q", c.Message)
		}, settle, poll).Should(Succeed())
		Eventually(func() float64 { return gauge("fundshare_ledger_accounts_out_of_sync") }, settle, poll).Should(BeNumerically(">=", 1))
		Eventually(func() float64 { return gaugeISIN("fundshare_ledger_mismatched_units", isin) }, settle, poll).Should(Equal(2.0))

		By("back in sync once the extra units are burned")
		send(token, tok.PackBurn(wallet, big.NewInt(2)))
		ledgerCondition(acct, metav1.ConditionTrue, ReasonBalancesMatch)
		Eventually(func() float64 { return gaugeISIN("fundshare_ledger_mismatched_units", isin) }, settle, poll).Should(Equal(0.0))
	})
})

var _ = Describe("The units on chain in the Account status", func() {
	It("the ledger round writes per account and ISIN the units its registered wallets hold on chain and the block, following a holder transfer to another account's wallet", func() {
		ns := tenant("onchain")
		isin, token := readyToken()
		holder, other := fixtures.IndividualAccount(ns), fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, holder)).To(Succeed())
		Expect(k8s.Create(ctx, other)).To(Succeed())
		from, to := newWalletAddress(), newWalletAddress()
		Expect(k8s.Create(ctx, fixtures.Wallet(ns, holder.Name, from.Hex()))).To(Succeed())
		Expect(k8s.Create(ctx, fixtures.Wallet(ns, other.Name, to.Hex()))).To(Succeed())
		Eventually(func() (bool, error) { return isVerified(from) }, settle, poll).Should(BeTrue())
		Eventually(func() (bool, error) { return isVerified(to) }, settle, poll).Should(BeTrue())
		tok := contracts.NewShareToken()
		minted := send(token, tok.PackMint(from, big.NewInt(953)))

		onChain := func(a *investv1.Account) func(g Gomega) *investv1.OnChainHoldings {
			return func(g Gomega) *investv1.OnChainHoldings {
				cur := &investv1.Account{}
				g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(a), cur)).To(Succeed())
				g.Expect(cur.Status.OnChain).NotTo(BeNil())
				return cur.Status.OnChain
			}
		}
		units := func(a *investv1.Account) func(g Gomega) []investv1.OnChainHolding {
			return func(g Gomega) []investv1.OnChainHolding { return onChain(a)(g).Holdings }
		}
		Eventually(units(holder), settle, poll).Should(Equal([]investv1.OnChainHolding{{ISIN: investv1.ISIN(isin), Units: 953}}))
		Eventually(func(g Gomega) int64 { return onChain(holder)(g).Block }, settle, poll).Should(BeNumerically(">=", minted.BlockNumber.Int64()))

		By("a holder moves 500 units to another account's wallet on chain")
		moved := send(token, tok.PackForcedTransfer(from, to, big.NewInt(500)))
		Eventually(units(holder), settle, poll).Should(Equal([]investv1.OnChainHolding{{ISIN: investv1.ISIN(isin), Units: 453}}))
		Eventually(units(other), settle, poll).Should(Equal([]investv1.OnChainHolding{{ISIN: investv1.ISIN(isin), Units: 500}}))
		Expect(onChain(holder)(Default).Block).To(BeNumerically(">=", moved.BlockNumber.Int64()), "the units are those at the block named")
	})
})

func gaugeISIN(name, isin string) float64 {
	GinkgoHelper()
	families, err := metrics.Registry.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.Metric {
			for _, l := range m.Label {
				if l.GetName() == "isin" && l.GetValue() == isin {
					return metricValue(m)
				}
			}
		}
	}
	return -1
}

// isVerified asks the registry.
func isVerified(w common.Address) (bool, error) {
	reg := contracts.NewIdentityRegistry()
	return bind.Call(reg.Instance(eth, lc.Registry), &bind.CallOpts{Context: ctx}, reg.PackIsVerified(w), reg.UnpackIsVerified)
}
