package token_test

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// adoptingClass creates a share class that adopts the token at addr (nil: no token).
func adoptingClass(isin string, addr *common.Address) *investv1.ShareClass {
	GinkgoHelper()
	sc := fixtures.ShareClass(controlplane.NewID(), isin)
	if addr != nil {
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: addr.Hex()}
	}
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
	return sc
}

// condition waits until the share class has the condition with the status and reason, and
// returns it.
func condition(name, typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	GinkgoHelper()
	var got metav1.Condition
	Eventually(func(g Gomega) {
		sc := &investv1.ShareClass{}
		g.Expect(k8s.Get(ctx, client.ObjectKey{Name: name}, sc)).To(Succeed())
		c := meta.FindStatusCondition(sc.Status.Conditions, typ)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(status), "%s: %s %s", typ, c.Reason, c.Message)
		g.Expect(c.Reason).To(Equal(reason), c.Message)
		got = *c
	}, settle, poll).Should(Succeed())
	return got
}

// deployToken deploys a ShareToken signed by the admin key (its admin), with the given
// registry and agent.
func deployToken(isin string, registry, agent common.Address) common.Address {
	GinkgoHelper()
	d, err := chain.DeployShareToken(ctx, eth, admin, chainID, chain.ShareTokenParams{
		Name: "Test " + isin, Symbol: isin, IdentityRegistry: registry, Admin: admin.Address(), Agent: agent,
	})
	Expect(err).NotTo(HaveOccurred())
	mined(d.Tx)
	return d.Address
}

var _ = Describe("Share class token", func() {
	It("adopts a ShareToken that uses the configured registry and names the operator its agent, and the lookup answers it", func() {
		addr := lc.Tokens[sampleISIN]
		sc := adoptingClass(sampleISIN, &addr)
		c := condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		Expect(c.Message).To(ContainSubstring(addr.Hex()))
		got := getShareClass(sc.Name)
		Expect(got.Status.Token).NotTo(BeNil())
		Expect(got.Status.Token.Address).To(Equal(addr.Hex()))
		Expect(got.Status.Token.ChainID).To(Equal(int64(1337)))
		Expect(got.Status.Token.IdentityRegistry).To(Equal(lc.Registry.Hex()))
		Expect(meta.IsStatusConditionFalse(got.Status.Conditions, TypeStalled)).To(BeTrue(), "Stalled=False on a usable token")
		Expect(kstatusOf(got)).To(Equal(kstatus.CurrentStatus))
		Eventually(func() (common.Address, error) { t, err := lookup.Token(ctx, "", sampleISIN); return t.Address, err }, settle, poll).Should(Equal(addr))
	})

	It("a share class without spec.token has no token: the lookup says so", func() {
		isin := newISIN()
		adoptingClass(isin, nil)
		Eventually(func() error { _, err := lookup.Token(ctx, "", investv1.ISIN(isin)); return err }, settle, poll).Should(MatchError(ContainSubstring("spec.token is not set")))
		_, err := lookup.Token(ctx, "", "XS0000000000")
		Expect(err).To(MatchError(ErrNoToken))
	})

	It("stalls naming what is wrong: no contract at the address", func() {
		addr := newWalletAddress()
		sc := adoptingClass(newISIN(), &addr)
		c := condition(sc.Name, TypeStalled, metav1.ConditionTrue, ReasonNoContract)
		Expect(c.Message).To(ContainSubstring("no contract at " + addr.Hex()))
		condition(sc.Name, TypeTokenReady, metav1.ConditionFalse, ReasonNoContract)
		_, err := lookup.Token(ctx, "", sc.Spec.ISIN)
		Expect(err).To(MatchError(ContainSubstring("NoContract")))
	})

	It("stalls naming what is wrong: the code is not a ShareToken (the registry's address)", func() {
		addr := lc.Registry
		sc := adoptingClass(newISIN(), &addr)
		c := condition(sc.Name, TypeStalled, metav1.ConditionTrue, ReasonNotAShareToken)
		Expect(c.Message).To(ContainSubstring("is not this release's ShareToken"))
	})

	It("stalls naming what is wrong: the token uses another identity registry", func() {
		reg, err := chain.DeployIdentityRegistry(ctx, eth, admin, chainID, admin.Address(), operator.Address())
		Expect(err).NotTo(HaveOccurred())
		mined(reg.Tx)
		isin := newISIN()
		addr := deployToken(isin, reg.Address, operator.Address())
		sc := adoptingClass(isin, &addr)
		c := condition(sc.Name, TypeStalled, metav1.ConditionTrue, ReasonWrongRegistry)
		Expect(c.Message).To(ContainSubstring(reg.Address.Hex()))
		Expect(c.Message).To(ContainSubstring(lc.Registry.Hex()))
	})

	It("stalls while the operator's key lacks AGENT_ROLE, and adopts the token once the admin grants it", func() {
		isin := newISIN()
		addr := deployToken(isin, lc.Registry, newWalletAddress())
		sc := adoptingClass(isin, &addr)
		c := condition(sc.Name, TypeStalled, metav1.ConditionTrue, ReasonNotAgent)
		Expect(c.Message).To(ContainSubstring("grantRole(AGENT_ROLE, " + operator.Address().Hex() + ")"))

		send(addr, contracts.NewShareToken().PackGrantRole(AgentRole, operator.Address()))
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		Expect(meta.IsStatusConditionFalse(getShareClass(sc.Name).Status.Conditions, TypeStalled)).To(BeTrue(), "Stalled=False once usable")
	})

	It("make run's sample share classes adopt the local chain's tokens (devdata.AdoptLocalTokens) and become TokenReady", func() {
		sc := adoptingClass(devrunISIN, nil)
		differing, err := devdata.AdoptLocalTokens(ctx, k8s, lc.Tokens)
		Expect(err).NotTo(HaveOccurred())
		Expect(differing).NotTo(ContainElement(devrunISIN))
		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		Expect(getShareClass(sc.Name).Status.Token.Address).To(Equal(lc.Tokens[devrunISIN].Hex()))
		// Again (a second make run): nothing changes.
		differing, err = devdata.AdoptLocalTokens(ctx, k8s, lc.Tokens)
		Expect(err).NotTo(HaveOccurred())
		Expect(differing).NotTo(ContainElement(devrunISIN))
	})

	It("admission refuses an adopted address with a bad EIP-55 checksum, on spec.token.address", func() {
		sc := fixtures.ShareClass(controlplane.NewID(), newISIN())
		good := lc.Tokens[otherSampleISIN].Hex()
		// Flip the case of the first letter: the checksum fails.
		i := strings.IndexAny(good[2:], "abcdefABCDEF") + 2
		bad := good[:i] + flipCase(good[i:i+1]) + good[i+1:]
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: bad}
		err := k8s.Create(ctx, sc)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec.token.address"))
		Expect(err.Error()).To(ContainSubstring("EIP-55"))
	})

	It("admission refuses a token address another share class already has", func() {
		addr := lc.Tokens[otherSampleISIN]
		first := adoptingClass(otherSampleISIN, &addr)
		condition(first.Name, TypeTokenReady, metav1.ConditionTrue, ReasonAdopted)
		sc := fixtures.ShareClass(controlplane.NewID(), newISIN())
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: strings.ToLower(addr.Hex())}
		err := k8s.Create(ctx, sc)
		if err == nil {
			DeferCleanup(func() { Expect(k8s.Delete(ctx, sc)).To(Succeed()) })
		}
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec.token.address"))
		Expect(err.Error()).To(ContainSubstring(otherSampleISIN))
	})
})

func flipCase(s string) string {
	if strings.ToUpper(s) == s {
		return strings.ToLower(s)
	}
	return strings.ToUpper(s)
}
