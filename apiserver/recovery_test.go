package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// registerWallet marks a wallet Registered, as the chain agent does once its address is in
// the identity registry (this suite runs no chain), and waits until the manager's cache,
// which the REST facade reads, has it: the chain agent's write is not the facade's own, so
// read-your-writes does not cover it.
func registerWallet(ns, id string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		w := &investv1.Wallet{}
		g.Expect(k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, w)).To(Succeed())
		w.Status.Registration = &investv1.WalletRegistration{State: investv1.RegistrationRegistered}
		g.Expect(k8s.Status().Update(ctx, w)).To(Succeed())
	}).Should(Succeed())
	Eventually(func(g Gomega) {
		w := &investv1.Wallet{}
		g.Expect(env.Manager.GetClient().Get(ctx, client.ObjectKey{Namespace: ns, Name: id}, w)).To(Succeed())
		g.Expect(w.Status.Registration).NotTo(BeNil())
		g.Expect(w.Status.Registration.State).To(Equal(investv1.RegistrationRegistered))
	}).WithTimeout(envtest.Settle).WithPolling(envtest.Poll).Should(Succeed())
}

func recoveryOf(account, wallet string) string {
	return "/v1/accounts/" + account + "/wallets/" + wallet + "/recovery"
}

var _ = Describe("Lost-key recovery over REST", func() {
	It("POST answers 202 with the recovery, GET reads it, a retry answers it again and another target 409", func() {
		account := alpha.newAccount()
		lost := alpha.newWallet(account, randomAddress())
		repl := alpha.newWallet(account, randomAddress())
		other := alpha.newWallet(account, randomAddress())
		registerWallet(alpha.ns, repl)
		registerWallet(alpha.ns, other)

		Expect(alpha.get(recoveryOf(account, lost)).code).To(Equal(http.StatusNotFound), "no recovery yet")
		r := alpha.post(recoveryOf(account, lost), map[string]any{"to_wallet_id": repl})
		Expect(r.code).To(Equal(http.StatusAccepted), r.String())
		v := r.json()
		Expect(v["id"]).To(Equal(lost))
		Expect(v["from_wallet_id"]).To(Equal(lost))
		Expect(v["to_wallet_id"]).To(Equal(repl))
		Expect(v["status"]).To(Equal("PENDING"))

		got := alpha.get(recoveryOf(account, lost))
		Expect(got.code).To(Equal(http.StatusOK), got.String())
		Expect(got.json()["to_wallet_id"]).To(Equal(repl))
		stored := &investv1.WalletRecovery{}
		Expect(k8s.Get(ctx, client.ObjectKey{Namespace: alpha.ns, Name: lost}, stored)).To(Succeed())
		Expect(string(stored.Spec.AccountID)).To(Equal(account))

		Expect(alpha.post(recoveryOf(account, lost), map[string]any{"to_wallet_id": repl}).code).To(Equal(http.StatusAccepted))
		again := alpha.post(recoveryOf(account, lost), map[string]any{"to_wallet_id": other})
		Expect(again.code).To(Equal(http.StatusConflict), again.String())
	})

	It("refuses a target that is the same wallet, not registered, or not a wallet of the account, with 422 naming to_wallet_id", func() {
		account := alpha.newAccount()
		lost := alpha.newWallet(account, randomAddress())
		unregistered := alpha.newWallet(account, randomAddress())
		elsewhere := alpha.newWallet(alpha.newAccount(), randomAddress())
		registerWallet(alpha.ns, elsewhere)
		for target, msg := range map[string]string{
			lost:         "must be another wallet than the lost one",
			unregistered: "must be registered in the identity registry (not registered yet)",
			elsewhere:    "must be a wallet of the account",
		} {
			r := alpha.post(recoveryOf(account, lost), map[string]any{"to_wallet_id": target})
			Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
			Expect(r.details()).To(HaveKeyWithValue("to_wallet_id", ContainElement(msg)), r.String())
		}
		Expect(alpha.get(recoveryOf(account, lost)).code).To(Equal(http.StatusNotFound), "nothing created")
	})

	It("a recovery across tenants is 404, exactly as for ids that do not exist", func() {
		account := alpha.newAccount()
		lost := alpha.newWallet(account, randomAddress())
		repl := alpha.newWallet(account, randomAddress())
		registerWallet(alpha.ns, repl)
		Expect(alpha.post(recoveryOf(account, lost), map[string]any{"to_wallet_id": repl}).code).To(Equal(http.StatusAccepted))

		for _, path := range []string{recoveryOf(account, lost), recoveryOf(fixturesID(), fixturesID())} {
			r := beta.post(path, map[string]any{"to_wallet_id": repl})
			Expect(r.code).To(Equal(http.StatusNotFound), r.String())
			Expect(r.json()["error"]).To(Equal("Account not found"))
			r = beta.get(path)
			Expect(r.code).To(Equal(http.StatusNotFound), r.String())
			Expect(r.json()["error"]).To(Equal("Account not found"))
		}
		// beta's own account cannot name alpha's wallet, nor recover to it.
		own := beta.newAccount()
		mine := beta.newWallet(own, randomAddress())
		r := beta.get(recoveryOf(own, lost))
		Expect(r.code).To(Equal(http.StatusNotFound))
		Expect(r.json()["error"]).To(Equal("Wallet not found"))
		r = beta.post(recoveryOf(own, mine), map[string]any{"to_wallet_id": repl})
		Expect(r.code).To(Equal(http.StatusUnprocessableEntity), r.String())
		Expect(r.details()).To(HaveKeyWithValue("to_wallet_id", ContainElement("must be a wallet of the account")))
	})
})
