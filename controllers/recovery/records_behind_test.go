package recovery_test

import (
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	clientv3 "go.etcd.io/etcd/client/v3"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
)

func etcdClient() *clientv3.Client {
	GinkgoHelper()
	cli, err := env.EtcdClient()
	Expect(err).NotTo(HaveOccurred())
	return cli
}

var _ = Describe("when the records fall behind the chain", func() {
	It("a wallet recovery whose record was lost with an etcd restore does not force a second transfer", func() {
		w := newWorld()
		lostW, lost := w.wallet()
		replW, repl := w.wallet()
		units, locked, _ := w.holdings(lost)
		rec := w.recovery(lostW, replW)

		By("a snapshot of the recovery before the agent recorded anything")
		key := fmt.Sprintf("/registry/invest.fundshare.io/walletrecoveries/%s/%s", rec.Namespace, rec.Name)
		cli := etcdClient()
		defer func() { _ = cli.Close() }()
		snap, err := cli.Get(ctx, key)
		Expect(err).NotTo(HaveOccurred())
		Expect(snap.Kvs).To(HaveLen(1))

		stop := w.chain.Mine(100 * time.Millisecond)
		defer func() { stop() }()
		agent := w.startAgent(nil)
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryCompleted))
		agent.Stop()
		w.wantRecovered(rec, lost, repl, units, locked)
		moved := map[string]string{}
		for _, t := range get(rec).Status.Tokens {
			moved[t.Token] = t.Transaction.Receipt.Hash
		}
		nonce := pendingNonce(w.chain)

		By("units minted to the lost wallet afterwards, then etcd restored from the snapshot")
		stop() // one committer at a time: the simulated chain's Commit is not safe for two
		w.chain.Mint(w.tokens[0], lost, 5)
		stop = w.chain.Mine(100 * time.Millisecond)
		_, err = cli.Put(ctx, key, string(snap.Kvs[0].Value))
		Expect(err).NotTo(HaveOccurred())
		Eventually(func(g Gomega) {
			cur := &investv1.WalletRecovery{}
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(rec), cur)).To(Succeed())
			g.Expect(cur.Status.Tokens).To(BeEmpty())
			g.Expect(cur.Status.Phase).To(BeEmpty())
		}, timeout, interval).Should(Succeed())

		By("the agent finds each token's recovery on chain instead of forcing a second transfer")
		agent = w.startAgent(nil)
		defer agent.Stop()
		Eventually(completed(rec), timeout, interval).Should(Equal(investv1.RecoveryCompleted))
		cur := get(rec)
		Expect(cur.Status.Tokens).To(HaveLen(len(w.tokens)))
		for i, t := range cur.Status.Tokens {
			Expect(t.Recovered).NotTo(BeNil(), t.Token)
			Expect(t.Transaction.Receipt.Hash).To(Equal(moved[t.Token]), "the transaction that applied it")
			Expect(t.Recovered.TransactionHash).To(Equal(moved[t.Token]))
			idx := 0
			for j, tok := range w.tokens {
				if common.HexToAddress(t.Token) == tok {
					idx = j
				}
			}
			Expect(t.Units).To(Equal(units[idx]), "token %d", i)
			Expect(t.Locked).To(Equal(locked[idx]), "token %d", i)
		}
		Expect(w.chain.Balance(w.tokens[0], lost)).To(Equal(int64(5)), "the units minted later were not moved by a second forced transfer")
		for i, tok := range w.tokens {
			Expect(w.chain.Balance(tok, repl)).To(Equal(units[i]))
			out := 0
			for _, t := range w.chain.Transfers(tok) {
				if t.From == lost {
					out++
				}
			}
			Expect(out).To(Equal(1), "one transfer out of the lost wallet on token %d", i)
		}
		Expect(pendingNonce(w.chain)).To(Equal(nonce), "nothing new was signed")
		Eventually(func() []string { return eventReasons(w.ns, rec.Name) }, timeout, interval).Should(ContainElement(recovery.ReasonRecoveredFromChain))
	})
})
