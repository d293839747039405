package recovery_test

import (
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// holdings mints, on each of the world's tokens, units to addr: some unlocked, some locked
// until two release times; it returns the units and the locked units per token.
func (w *world) holdings(addr common.Address) (units, locked []int64, releases []uint64) {
	GinkgoHelper()
	now := w.chain.Now()
	releases = []uint64{now + 1000, now + 2000}
	for i, tok := range w.tokens {
		free, l1, l2 := int64(3+i), int64(5+i), int64(7+i)
		w.chain.Mint(tok, addr, free)
		w.chain.MintLocked(tok, addr, l1, releases[0])
		w.chain.MintLocked(tok, addr, l2, releases[1])
		units, locked = append(units, free+l1+l2), append(locked, l1+l2)
	}
	return units, locked, releases
}

// wantRecovered checks the chain after a recovery: the lost wallet holds nothing in every
// token, the replacement everything with the same locks, moved by exactly one transfer per
// token, the recorded one.
func (w *world) wantRecovered(rec *investv1.WalletRecovery, lost, repl common.Address, units, locked []int64) {
	GinkgoHelper()
	cur := get(rec)
	Expect(cur.Status.Tokens).To(HaveLen(len(w.tokens)))
	for i, tok := range w.tokens {
		Expect(w.chain.Balance(tok, lost)).To(BeZero())
		Expect(w.chain.Balance(tok, repl)).To(Equal(units[i]))
		Expect(w.chain.Locked(tok, repl)).To(Equal(locked[i]), "the locks came along")
		moved := w.chain.Transfers(tok)
		var fromLost []common.Hash
		for _, t := range moved {
			if t.From == lost {
				Expect(t.To).To(Equal(repl))
				Expect(t.Units).To(Equal(units[i]))
				fromLost = append(fromLost, t.TxHash)
			}
		}
		Expect(fromLost).To(HaveLen(1), "exactly one transfer out of the lost wallet on token %s", tok.Hex())
		var recorded *investv1.WalletRecoveryToken
		for j := range cur.Status.Tokens {
			if common.HexToAddress(cur.Status.Tokens[j].Token) == tok {
				recorded = &cur.Status.Tokens[j]
			}
		}
		Expect(recorded).NotTo(BeNil())
		Expect(recorded.Units).To(Equal(units[i]))
		Expect(recorded.Locked).To(Equal(locked[i]))
		Expect(recorded.Transaction.Receipt).NotTo(BeNil())
		Expect(recorded.Transaction.Receipt.Hash).To(Equal(fromLost[0].Hex()), "the recorded transaction, not another")
		signed, err := outbox.Decode(recorded.Transaction.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		ref := chain.EffectRef("WalletRecovery", cur.Namespace, cur.Name, string(cur.UID), chain.EffectRecoverWallet+":"+string(recorded.ISIN))
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackRecoverWalletWithRef(ref, lost, repl)), "recoverWallet under the recovery's effect reference")
	}
	Expect(cur.Status.Phase).To(Equal(investv1.RecoveryCompleted))
	Expect(meta.IsStatusConditionTrue(cur.Status.Conditions, recovery.TypeReady)).To(BeTrue())
	Expect(cur.Status.CompletedAt).NotTo(BeNil())
}

func completed(rec *investv1.WalletRecovery) func() investv1.WalletRecoveryPhase {
	return func() investv1.WalletRecoveryPhase { return get(rec).Status.Phase }
}

// eventReasons lists the reasons of the Events about the object named name in ns.
func eventReasons(ns, name string) []string {
	var list eventsv1.EventList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	var out []string
	for _, e := range list.Items {
		if e.Regarding.Name == name {
			out = append(out, e.Reason)
		}
	}
	return out
}

var _ = Describe("lost-key recovery", func() {
	It("a recovery moves every unit of the lost wallet, with every lock, to the replacement, one recorded recoverWallet per token, and says so on the Wallet and the Account", func() {
		w := newWorld()
		lostW, lost := w.wallet()
		replW, repl := w.wallet()
		units, locked, releases := w.holdings(lost)
		stop := w.chain.Mine(100 * time.Millisecond)
		agent := w.startAgent(nil)
		rec := w.recovery(lostW, replW)
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryCompleted))
		// The agent announces the completion after it wrote it: keep it running until the
		// Events are there (stopping it at once would cancel the reads the Events need).
		Eventually(func() []string { return eventReasons(w.ns, lostW.Name) }, timeout, interval).
			Should(ContainElements(recovery.ReasonRecoveryStarted, recovery.ReasonRecoveryCompleted))
		Eventually(func() []string { return eventReasons(w.ns, w.account.Name) }, timeout, interval).
			Should(ContainElements(recovery.ReasonRecoveryStarted, recovery.ReasonRecoveryCompleted))
		agent.Stop()
		stop()
		w.wantRecovered(rec, lost, repl, units, locked)

		By("the carried locks release at their own times")
		w.chain.AdvanceTime(time.Duration(releases[0]-w.chain.Now()) * time.Second)
		Expect(w.chain.Locked(w.tokens[0], repl)).To(Equal(int64(7)))
		w.chain.AdvanceTime(time.Duration(releases[1]-w.chain.Now()) * time.Second)
		Expect(w.chain.Locked(w.tokens[0], repl)).To(BeZero())

		By("the API server refusing to rewrite the recorded transactions or the spec")
		cur := get(rec)
		cur.Status.Tokens = cur.Status.Tokens[:1]
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("cannot be removed")))
		cur = get(rec)
		cur.Spec.ToWalletID = investv1.ObjectID(w.chain.NewWallet().Hex()[:8])
		Expect(k8s.Update(ctx, cur)).To(MatchError(ContainSubstring("spec is immutable")))
	})

	It("a recovery moves every unit of the lost wallet to the replacement exactly once across a restart after recording, before the broadcast", func() {
		w := newWorld()
		lostW, lost := w.wallet()
		replW, repl := w.wallet()
		units, locked, _ := w.holdings(lost)
		dead := &deadBroadcast{Backend: w.chain.Client}
		first := w.startAgent(dead)
		rec := w.recovery(lostW, replW)
		Eventually(func() int { return len(get(rec).Status.Tokens) }, timeout, interval).Should(Equal(1))
		Eventually(dead.count, timeout, interval).Should(BeNumerically(">=", 1))
		first.Stop()
		w.chain.Commit(2)
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing reached the node")
		recorded := get(rec).Status.Tokens[0].Transaction

		stop := w.chain.Mine(100 * time.Millisecond)
		defer stop()
		second := w.startAgent(nil)
		defer second.Stop()
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryCompleted))
		cur := get(rec)
		Expect(cur.Status.Tokens[0].Transaction.Attempts[0].Hash).To(Equal(recorded.Attempts[0].Hash), "the recorded bytes were broadcast, not new ones")
		Expect(cur.Status.Tokens[0].Transaction.Nonce).To(BeZero())
		Expect(cur.Status.Tokens[1].Transaction.Nonce).To(Equal(int64(1)), "one nonce per token, none used twice")
		w.wantRecovered(rec, lost, repl, units, locked)
	})

	It("a recovery moves every unit of the lost wallet to the replacement exactly once across a restart after the broadcast, before the receipt", func() {
		w := newWorld()
		lostW, lost := w.wallet()
		replW, repl := w.wallet()
		units, locked, _ := w.holdings(lost)
		first := w.startAgent(nil) // no miner: the broadcast transaction waits in the pool
		rec := w.recovery(lostW, replW)
		Eventually(func() uint64 { return pendingNonce(w.chain) }, timeout, interval).Should(Equal(uint64(1)), "broadcast")
		first.Stop()
		Expect(get(rec).Status.Tokens).To(HaveLen(1))
		Expect(get(rec).Status.Tokens[0].Transaction.Receipt).To(BeNil(), "killed before the receipt")
		w.chain.Commit(1)
		first0 := common.HexToAddress(get(rec).Status.Tokens[0].Token)
		Expect(w.chain.Balance(first0, lost)).To(BeZero(), "the first token's recovery was mined while no agent ran")

		stop := w.chain.Mine(100 * time.Millisecond)
		defer stop()
		second := w.startAgent(nil)
		defer second.Stop()
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryCompleted))
		Expect(pendingNonce(w.chain)).To(Equal(uint64(2)), "two transactions in all")
		w.wantRecovered(rec, lost, repl, units, locked)
	})

	It("a recovery whose recoverWallet reverts on chain stalls with the reason and sends nothing again", func() {
		w := newWorld()
		lostW, lost := w.wallet()
		replW, repl := w.wallet()
		w.chain.Mint(w.tokens[0], lost, 4)
		// The replacement leaves the registry in a transaction already in the pool when the
		// recovery is signed (its estimate runs on the head, where the replacement is still
		// verified): mined first, it makes recoverWallet revert.
		_, err := bind.Transact(w.chain.RegistryABI.Instance(w.chain.Client, w.chain.Registry), chain.TransactOpts(ctx, w.chain.Admin, w.chain.ChainID),
			w.chain.RegistryABI.PackRemoveWallet(repl))
		Expect(err).NotTo(HaveOccurred())
		first := w.startAgent(nil) // no miner yet
		rec := w.recovery(lostW, replW)
		Eventually(func() uint64 { return pendingNonce(w.chain) }, timeout, interval).Should(Equal(uint64(1)))
		stop := w.chain.Mine(100 * time.Millisecond)
		defer stop()
		defer first.Stop()
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryFailed))
		cur := get(rec)
		stalled := meta.FindStatusCondition(cur.Status.Conditions, recovery.TypeStalled)
		Expect(stalled).NotTo(BeNil())
		Expect(stalled.Status).To(Equal(metav1.ConditionTrue))
		Expect(stalled.Message).To(ContainSubstring("reverted"), "the receipt's revert, with the reason when it can be replayed")
		Consistently(func() uint64 { return pendingNonce(w.chain) }, time.Second, interval).Should(Equal(uint64(1)), "nothing re-sent")
		Expect(w.chain.Balance(w.tokens[0], lost)).To(Equal(int64(4)))
	})
})
