package token_test

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// newWallet creates an account in ns and a Wallet of it with the address.
func newWallet(ns string, addr common.Address) *investv1.Wallet {
	GinkgoHelper()
	acct := fixtures.IndividualAccount(ns)
	Expect(k8s.Create(ctx, acct)).To(Succeed())
	w := fixtures.Wallet(ns, acct.Name, addr.Hex())
	Expect(k8s.Create(ctx, w)).To(Succeed())
	return w
}

// registered waits until the wallet's registration is Registered and returns the wallet.
func registered(w *investv1.Wallet) *investv1.Wallet {
	GinkgoHelper()
	got := &investv1.Wallet{}
	Eventually(func(g Gomega) {
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), got)).To(Succeed())
		g.Expect(got.Status.Registration).NotTo(BeNil())
		c := meta.FindStatusCondition(got.Status.Conditions, TypeRegistered)
		g.Expect(c).NotTo(BeNil())
		g.Expect(got.Status.Registration.State).To(Equal(investv1.RegistrationRegistered), c.Message)
		g.Expect(c.Status).To(Equal(metav1.ConditionTrue))
	}, settle, poll).Should(Succeed())
	return got
}

func gone(w *investv1.Wallet) {
	GinkgoHelper()
	Eventually(func() bool {
		return apierrors.IsNotFound(k8s.Get(ctx, client.ObjectKeyFromObject(w), &investv1.Wallet{}))
	}, settle, poll).Should(BeTrue(), "wallet %s/%s still there", w.Namespace, w.Name)
}

// mintReverts mints as an agent other than the operator and expects the revert's name.
func mintReverts(token, to common.Address, want string) {
	GinkgoHelper()
	_, err := bind.Transact(contracts.NewShareToken().Instance(eth, token), chain.TransactOpts(ctx, admin, chainID),
		contracts.NewShareToken().PackMint(to, big.NewInt(1)))
	r, ok := chain.AsRevert(err)
	Expect(ok).To(BeTrue(), "mint to %s: %v, want revert %s", to.Hex(), err, want)
	Expect(r.Name).To(Equal(want))
}

var _ = Describe("Wallet registration", func() {
	It("registering a Wallet puts its address in the identity registry with one transaction, recorded in its status with the hash", func() {
		ns := tenant("register")
		addr := newWalletAddress()
		w := registered(newWallet(ns, addr))
		reg := w.Status.Registration
		Expect(reg.RegisterTransaction).NotTo(BeNil())
		Expect(reg.RegisterTransaction.Receipt).NotTo(BeNil())
		Expect(reg.RegisterTransaction.Receipt.Status).To(Equal(investv1.ChainReceiptSucceeded))
		Expect(reg.RegisterTransaction.Attempts).To(HaveLen(1))
		Expect(reg.TransactionHash).To(Equal(reg.RegisterTransaction.Receipt.Hash))
		Expect(reg.Registry).To(Equal(lc.Registry.Hex()))
		Expect(reg.ChainID).To(Equal(int64(1337)))
		Expect(reg.RegisterTransaction.From).To(Equal(operator.Address().Hex()))
		Expect(controllerutil.ContainsFinalizer(w, RegistrationFinalizer)).To(BeTrue())
		Expect(isVerified(addr)).To(BeTrue())

		// The recorded hash is a real transaction: registerWallet(addr) to the registry.
		tx, pending, err := eth.TransactionByHash(ctx, common.HexToHash(reg.TransactionHash))
		Expect(err).NotTo(HaveOccurred())
		Expect(pending).To(BeFalse())
		Expect(*tx.To()).To(Equal(lc.Registry))
		Expect(tx.Data()).To(Equal(contracts.NewIdentityRegistry().PackRegisterWallet(addr)))
	})

	It("deleting a Wallet removes its address from the registry before the Wallet goes", func() {
		ns := tenant("remove")
		addr := newWalletAddress()
		w := registered(newWallet(ns, addr))
		Expect(k8s.Delete(ctx, w)).To(Succeed())
		gone(w)
		Expect(isVerified(addr)).To(BeFalse())
	})

	It("a wallet that holds units cannot be deleted: admission names the units per ISIN; once they are gone it can", func() {
		isin, token := readyToken()
		ns := tenant("holding")
		addr := newWalletAddress()
		w := registered(newWallet(ns, addr))
		tok := contracts.NewShareToken()
		send(token, tok.PackMint(addr, big.NewInt(953)))

		err := k8s.Delete(ctx, w)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring(fmt.Sprintf("the wallet %s holds units on chain: %s 953 units", w.Spec.WalletAddress, isin)))
		Expect(isVerified(addr)).To(BeTrue(), "the address stays in the registry")

		send(token, tok.PackBurn(addr, big.NewInt(953)))
		Expect(k8s.Delete(ctx, w)).To(Succeed())
		gone(w)
	})

	It("an address another Wallet registers stays in the registry when one of them is deleted (the registry is a set)", func() {
		addr := newWalletAddress()
		first := registered(newWallet(tenant("shared"), addr))
		second := registered(newWallet(tenant("shared"), addr))
		// The second found the address registered: no transaction of its own.
		Expect(second.Status.Registration.RegisterTransaction).To(BeNil())
		Expect(meta.FindStatusCondition(second.Status.Conditions, TypeRegistered).Message).To(ContainSubstring("already in the identity registry"))

		Expect(k8s.Delete(ctx, first)).To(Succeed())
		gone(first)
		Expect(isVerified(addr)).To(BeTrue(), "removed while another wallet registers it")

		Expect(k8s.Delete(ctx, second)).To(Succeed())
		gone(second)
		Expect(isVerified(addr)).To(BeFalse())
	})

	It("a mint to an unregistered wallet reverts (compliance); once the Wallet is registered it succeeds", func() {
		token := lc.Tokens[otherSampleISIN]
		send(token, contracts.NewShareToken().PackGrantRole(AgentRole, admin.Address()))
		addr := newWalletAddress()
		mintReverts(token, addr, "NotVerified")
		registered(newWallet(tenant("compliance"), addr))
		send(token, contracts.NewShareToken().PackMint(addr, big.NewInt(3)))
		Expect(balanceOf(token, addr)).To(Equal(int64(3)))
	})

	It("freeze and pause are visible through the contracts: a frozen wallet and a paused token refuse mints", func() {
		token := lc.Tokens[otherSampleISIN]
		tok := contracts.NewShareToken()
		send(token, tok.PackGrantRole(AgentRole, admin.Address()))
		addr := newWalletAddress()
		registered(newWallet(tenant("freeze"), addr))

		send(token, tok.PackSetAddressFrozen(addr, true))
		frozen, err := bind.Call(tok.Instance(eth, token), &bind.CallOpts{Context: ctx}, tok.PackIsFrozen(addr), tok.UnpackIsFrozen)
		Expect(err).NotTo(HaveOccurred())
		Expect(frozen).To(BeTrue())
		mintReverts(token, addr, "WalletFrozen")
		send(token, tok.PackSetAddressFrozen(addr, false))

		send(token, tok.PackPause())
		mintReverts(token, addr, "EnforcedPause")
		send(token, tok.PackUnpause())
		send(token, tok.PackMint(addr, big.NewInt(1)))
		Expect(balanceOf(token, addr)).To(Equal(int64(1)))
	})
})

var _ = Describe("Share class token deployment", func() {
	It("deploys a ShareToken through the outbox: the deployment is recorded in status.token before it is final, and the token becomes ready", func() {
		isin := newISIN()
		sc := adoptingClass(isin, nil)
		before := sc.DeepCopy()
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy}
		Expect(k8s.Patch(ctx, sc, client.MergeFrom(before))).To(Succeed())

		condition(sc.Name, TypeTokenReady, metav1.ConditionTrue, ReasonDeployed)
		got := getShareClass(sc.Name)
		t := got.Status.Token
		Expect(t.Deployment).NotTo(BeNil())
		Expect(t.Deployment.To).To(BeEmpty())
		Expect(t.Deployment.Receipt).NotTo(BeNil())
		Expect(t.Deployment.Receipt.Status).To(Equal(investv1.ChainReceiptSucceeded))
		Expect(t.DeploymentTransaction).To(Equal(t.Deployment.Receipt.Hash))
		Expect(t.Address).To(Equal(crypto.CreateAddress(operator.Address(), uint64(t.Deployment.Nonce)).Hex()))
		Expect(t.ChainID).To(Equal(int64(1337)))

		addr := common.HexToAddress(t.Address)
		tok := contracts.NewShareToken()
		sym, err := bind.Call(tok.Instance(eth, addr), &bind.CallOpts{Context: ctx}, tok.PackSymbol(), tok.UnpackSymbol)
		Expect(err).NotTo(HaveOccurred())
		Expect(sym).To(Equal(isin))
		Eventually(func() (common.Address, error) {
			t, err := lookup.Token(ctx, "", investv1.ISIN(isin))
			return t.Address, err
		}, settle, poll).Should(Equal(addr))
	})
})

// takeOperatorNonce signs and mines, with the operator's key but beside the outbox, a
// transaction (a zero-value transfer to itself) with the nonce the outbox allocates next,
// as someone using the key elsewhere would. It returns that nonce.
func takeOperatorNonce() uint64 {
	GinkgoHelper()
	// The outbox must have synced its next nonce first (it does once, at start): synced
	// after the other transaction, it would simply allocate the nonce after it. A Send
	// whose pre-flight check reverts signs and records nothing, and answers ErrNotSynced
	// until the sync.
	Eventually(func(g Gomega) {
		_, err := ob.Send(ctx, outbox.Call{To: &lc.Registry, Data: contracts.NewIdentityRegistry().PackRemoveWallet(newWalletAddress())},
			func(context.Context, *investv1.ChainTransaction) error {
				defer GinkgoRecover()
				Fail("a reverting call must not be recorded")
				return nil
			})
		rev, ok := chain.AsRevert(err)
		g.Expect(ok).To(BeTrue(), "%v", err)
		g.Expect(rev.Name).To(Equal("WalletNotRegistered"))
	}, settle, poll).Should(Succeed())
	var n uint64
	Eventually(func(g Gomega) {
		pending, err := eth.PendingNonceAt(ctx, operator.Address())
		g.Expect(err).NotTo(HaveOccurred())
		latest, err := eth.NonceAt(ctx, operator.Address(), nil)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(pending).To(Equal(latest), "the outbox has a transaction in flight")
		n = latest
	}, settle, poll).Should(Succeed())
	fees, err := outbox.DefaultFees(ctx, eth)
	Expect(err).NotTo(HaveOccurred())
	self := operator.Address()
	tx, err := operator.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
		ChainID: chainID, Nonce: n, Gas: 21000, To: &self, Value: new(big.Int), GasTipCap: fees.Tip, GasFeeCap: fees.Cap,
	}), chainID)
	Expect(err).NotTo(HaveOccurred())
	Expect(eth.SendTransaction(ctx, tx)).To(Succeed())
	mined(tx)
	return n
}

// nothingSentAfter checks that the operator's key signed nothing after nonce n.
func nothingSentAfter(n uint64) {
	GinkgoHelper()
	Consistently(func() (uint64, error) { return eth.PendingNonceAt(ctx, operator.Address()) }, 2*time.Second, poll).
		Should(Equal(n+1), "a transaction was sent after the one that took the nonce")
}

var _ = Describe("A nonce taken by a transaction not recorded here", func() {
	It("a registerWallet whose nonce was taken: Registered=False with reason NonceTaken naming the nonce, and nothing re-sent", func() {
		n := takeOperatorNonce()
		addr := newWalletAddress()
		w := newWallet(tenant("noncetaken"), addr)
		got := &investv1.Wallet{}
		var c *metav1.Condition
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), got)).To(Succeed())
			c = meta.FindStatusCondition(got.Status.Conditions, TypeRegistered)
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Reason).To(Equal(ReasonNonceTaken), c.Message)
		}, settle, poll).Should(Succeed())
		Expect(c.Status).To(Equal(metav1.ConditionFalse))
		Expect(c.Message).To(And(
			ContainSubstring(fmt.Sprintf("nonce %d of the registerWallet transaction", n)),
			ContainSubstring("a transaction not recorded here was mined with this nonce: was the agent key used elsewhere? Nothing is re-sent")))
		Expect(got.Status.Registration.State).To(Equal(investv1.RegistrationFailed))
		Expect(got.Status.Registration.RegisterTransaction.Nonce).To(Equal(int64(n)), "the outbox allocated the nonce the other transaction took")

		nothingSentAfter(n)
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), got)).To(Succeed())
		Expect(got.Status.Registration.RegisterTransaction.Attempts).To(HaveLen(1))
		Expect(got.Status.Registration.RegisterTransaction.Receipt).To(BeNil())
		Expect(isVerified(addr)).To(BeFalse())
	})

	It("a token deployment whose nonce was taken: Stalled (and TokenReady=False) with reason NonceTaken naming the nonce, and nothing re-sent", func() {
		n := takeOperatorNonce()
		sc := adoptingClass(newISIN(), nil)
		before := sc.DeepCopy()
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy}
		Expect(k8s.Patch(ctx, sc, client.MergeFrom(before))).To(Succeed())

		c := condition(sc.Name, TypeStalled, metav1.ConditionTrue, ReasonNonceTaken)
		Expect(c.Message).To(And(
			ContainSubstring(fmt.Sprintf("nonce %d of the deployment transaction", n)),
			ContainSubstring("a transaction not recorded here was mined with this nonce: was the agent key used elsewhere? Nothing is re-sent")))
		condition(sc.Name, TypeTokenReady, metav1.ConditionFalse, ReasonNonceTaken)
		got := getShareClass(sc.Name)
		Expect(got.Status.Token.Deployment.Nonce).To(Equal(int64(n)), "the outbox allocated the nonce the other transaction took")

		nothingSentAfter(n)
		got = getShareClass(sc.Name)
		Expect(got.Status.Token.Deployment.Attempts).To(HaveLen(1))
		Expect(got.Status.Token.Deployment.Receipt).To(BeNil())
		code, err := eth.CodeAt(ctx, common.HexToAddress(got.Status.Token.Address), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(code).To(BeEmpty(), "no token at the recorded address")
	})
})
