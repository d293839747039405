package token_test

import (
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// withCashOnChain gives the share class a daily secondary market whose cash is on chain at
// the local chain's settlement contract and euro token (or the settlement address given).
func withCashOnChain(sc *investv1.ShareClass, settlement common.Address) {
	GinkgoHelper()
	before := sc.DeepCopy()
	sc.Spec.Secondary = &investv1.SecondaryMarket{TimeZone: "UTC", Frequency: investv1.DealingDaily,
		OrderDeadline: investv1.CutOff{Time: "12:00"},
		CashOnChain:   &investv1.CashOnChain{Settlement: settlement.Hex(), CashToken: lc.CashToken.Hex(), FeeCollector: newWalletAddress().Hex()}}
	Expect(k8s.Patch(ctx, sc, client.MergeFrom(before))).To(Succeed())
}

func isAgent(token, account common.Address) bool {
	GinkgoHelper()
	tok := contracts.NewShareToken()
	ok, err := bind.Call(tok.Instance(eth, token), &bind.CallOpts{Context: ctx}, tok.PackHasRole(AgentRole, account), tok.UnpackHasRole)
	Expect(err).NotTo(HaveOccurred())
	return ok
}

var _ = Describe("The cash leg of a secondary market on chain (SettlementReady)", func() {
	It("makes the settlement contract an agent of a token the operator deployed: the grant recorded before it is broadcast, sent once", func() {
		isin := newISIN()
		sc := adoptingClass(isin, nil)
		before := sc.DeepCopy()
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy}
		Expect(k8s.Patch(ctx, sc, client.MergeFrom(before))).To(Succeed())
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonDeployed)
		token := common.HexToAddress(getShareClass(sc.Name).Status.Token.Address)
		Expect(isAgent(token, lc.Settlement)).To(BeFalse())

		withCashOnChain(getShareClass(sc.Name), lc.Settlement)
		c := condition(sc.Name, TypeSettlementReady, metav1.ConditionTrue, ReasonSettlementReady)
		Expect(c.Message).To(ContainSubstring(lc.Settlement.Hex()))
		Expect(isAgent(token, lc.Settlement)).To(BeTrue())
		g := getShareClass(sc.Name).Status.Token.SettlementGrant
		Expect(g).NotTo(BeNil())
		Expect(g.Receipt).NotTo(BeNil())
		Expect(g.Receipt.Status).To(Equal(investv1.ChainReceiptSucceeded))
		Expect(GrantedTo(g)).To(Equal(lc.Settlement))
		signed, err := outbox.Decode(g.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(*signed.To()).To(Equal(token))
		Expect(signed.Data()).To(Equal(contracts.NewShareToken().PackGrantRole(AgentRole, lc.Settlement)))

		By("looked at again, nothing more is sent")
		nonce, err := eth.NonceAt(ctx, operator.Address(), nil)
		Expect(err).NotTo(HaveOccurred())
		Consistently(func() (uint64, error) { return eth.NonceAt(ctx, operator.Address(), nil) }, 3*time.Second, poll).Should(Equal(nonce))
	})

	It("reports an adopted token whose admin has not made the settlement contract its agent, and becomes ready once it has", func() {
		isin := newISIN()
		addr := deployToken(isin, lc.Registry, operator.Address())
		sc := adoptingClass(isin, &addr)
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		withCashOnChain(getShareClass(sc.Name), lc.Settlement)
		c := condition(sc.Name, TypeSettlementReady, metav1.ConditionFalse, ReasonSettlementNotAgent)
		Expect(c.Message).To(ContainSubstring("grantRole(AGENT_ROLE, " + lc.Settlement.Hex() + ")"))
		Expect(getShareClass(sc.Name).Status.Token.SettlementGrant).To(BeNil(), "the operator is not the admin of an adopted token: it grants nothing")
		Expect(meta.IsStatusConditionTrue(getShareClass(sc.Name).Status.Conditions, TypeTokenReady)).To(BeTrue(), "primary orders still mint")

		send(addr, contracts.NewShareToken().PackGrantRole(AgentRole, lc.Settlement))
		condition(sc.Name, TypeSettlementReady, metav1.ConditionTrue, ReasonSettlementReady)
	})

	It("reports a settlement address that is not this release's DeliveryVersusPayment", func() {
		isin := newISIN()
		addr := deployToken(isin, lc.Registry, operator.Address())
		sc := adoptingClass(isin, &addr)
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		withCashOnChain(getShareClass(sc.Name), lc.Registry)
		c := condition(sc.Name, TypeSettlementReady, metav1.ConditionFalse, ReasonNotASettlementContract)
		Expect(c.Message).To(ContainSubstring(lc.Registry.Hex()))
	})
})
