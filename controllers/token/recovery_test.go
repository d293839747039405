package token_test

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

// Lost-key recovery against the local chain, with the admission webhooks and the recovery
// controller on the token controllers' outbox (as cmd/manager/app wires them).
var _ = Describe("Lost-key recovery", func() {
	newRecovery := func(ns string, account investv1.ObjectID, from, to string) *investv1.WalletRecovery {
		rec := &investv1.WalletRecovery{}
		rec.Namespace, rec.Name = ns, from
		rec.Spec = investv1.WalletRecoverySpec{AccountID: account, FromWalletID: investv1.ObjectID(from), ToWalletID: investv1.ObjectID(to)}
		return rec
	}

	It("after recovery the old wallet can be deleted: every unit and lock moved to the replacement, the lost wallet holds none", func() {
		isin, token := readyToken()
		ns := tenant("recovery")
		lostAddr, replAddr := newWalletAddress(), newWalletAddress()
		lost := registered(newWallet(ns, lostAddr))
		account := lost.Spec.AccountID
		repl := fixtures.Wallet(ns, string(account), replAddr.Hex())
		Expect(k8s.Create(ctx, repl)).To(Succeed())
		tok := contracts.NewShareToken()
		send(token, tok.PackMint(lostAddr, big.NewInt(953)))
		release := uint64(time.Now().Add(30 * 24 * time.Hour).Unix())
		send(token, tok.PackMintLocked(lostAddr, big.NewInt(47), release))

		By("admission refusing a recovery to a wallet that is not registered yet, or of another account")
		other := registered(newWallet(ns, newWalletAddress()))
		err := k8s.Create(ctx, newRecovery(ns, account, lost.Name, other.Name))
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec.toWalletID: Invalid value: must be a wallet of the account"))
		repl = registered(repl)

		By("the lost wallet cannot be deleted while it holds units")
		err = k8s.Delete(ctx, lost)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring(isin + " 1000 units"))

		rec := newRecovery(ns, account, lost.Name, repl.Name)
		Expect(k8s.Create(ctx, rec)).To(Succeed())
		Eventually(func() investv1.WalletRecoveryPhase {
			cur := &investv1.WalletRecovery{}
			Expect(k8s.Get(ctx, client.ObjectKeyFromObject(rec), cur)).To(Succeed())
			return cur.Status.Phase
		}, settle, poll).Should(Equal(investv1.RecoveryCompleted))
		Expect(balanceOf(token, lostAddr)).To(BeZero())
		Expect(balanceOf(token, replAddr)).To(Equal(int64(1000)))
		locked, err := bind.Call(tok.Instance(eth, token), &bind.CallOpts{Context: ctx}, tok.PackLockedBalanceOf(replAddr), tok.UnpackLockedBalanceOf)
		Expect(err).NotTo(HaveOccurred())
		Expect(locked.Int64()).To(Equal(int64(47)), "the lock came along")

		Expect(k8s.Delete(ctx, lost)).To(Succeed())
		gone(lost)
	})
})
