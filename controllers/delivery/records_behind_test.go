package delivery

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	clientv3 "go.etcd.io/etcd/client/v3"
	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// snapshot is an order as etcd held it at one moment: the bytes a snapshot restore puts
// back (same UID, any status, no admission or validation on the way).
type snapshot struct {
	key  string
	data []byte
}

// etcdKey is where the API server keeps an order in etcd.
func etcdKey(o *investv1.Order) string {
	return fmt.Sprintf("/registry/invest.fundshare.io/orders/%s/%s", o.Namespace, o.Name)
}

// takeSnapshot reads the order's bytes from etcd itself.
func takeSnapshot(o *investv1.Order) snapshot {
	GinkgoHelper()
	cli := etcdClient()
	defer func() { _ = cli.Close() }()
	resp, err := cli.Get(ctx, etcdKey(o))
	Expect(err).NotTo(HaveOccurred())
	Expect(resp.Kvs).To(HaveLen(1), "the order %s in etcd", o.Name)
	var obj investv1.Order
	Expect(json.Unmarshal(resp.Kvs[0].Value, &obj)).To(Succeed())
	Expect(obj.UID).To(Equal(o.UID))
	return snapshot{key: etcdKey(o), data: resp.Kvs[0].Value}
}

// restore writes the snapshot's bytes back into etcd, as restoring etcd from that snapshot
// does for this key, and waits until the API server serves them.
func (s snapshot) restore(o *investv1.Order) {
	GinkgoHelper()
	cli := etcdClient()
	defer func() { _ = cli.Close() }()
	_, err := cli.Put(ctx, s.key, string(s.data))
	Expect(err).NotTo(HaveOccurred())
	var want investv1.Order
	Expect(json.Unmarshal(s.data, &want)).To(Succeed())
	Eventually(func(g Gomega) {
		cur := &investv1.Order{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
		g.Expect(cur.UID).To(Equal(want.UID))
		g.Expect(cur.Status.Chain).To(Equal(want.Status.Chain))
		g.Expect(cur.Status.Settlement).To(Equal(want.Status.Settlement))
	}, timeout, interval).Should(Succeed())
}

func etcdClient() *clientv3.Client {
	GinkgoHelper()
	cli, err := env.EtcdClient()
	Expect(err).NotTo(HaveOccurred())
	return cli
}

// completeSell walks a SELL whose burn is recorded as final on: tokensBurned, as the order
// controller would, until the agent has recorded it.
func burned(o *investv1.Order) func(Gomega) {
	return func(g Gomega) {
		g.Expect(get(o).Status.Settlement.TokensBurned).NotTo(BeNil())
	}
}

var _ = Describe("when the records fall behind the chain", func() {
	It("a mint whose record was lost with an etcd restore is not minted again", func() {
		w := newWorld()
		const nWallets = 3
		var wallets [nWallets]*investv1.Wallet
		var addrs [nWallets]common.Address
		for i := range wallets {
			wallets[i], addrs[i] = w.wallet(true)
		}
		stopMiner := w.chain.Mine(50 * time.Millisecond)
		defer func() { stopMiner() }()

		By("completing BUYs, with a snapshot of each order taken before its mint was recorded")
		var orders []*investv1.Order
		var snaps []snapshot
		want := map[common.Address]int64{}
		for i := range 6 {
			k := i % nWallets
			units := int64(i + 1)
			o := w.order(investv1.SideBuy, units, wallets[k])
			snaps = append(snaps, takeSnapshot(o)) // EXECUTED, nothing recorded: no agent runs yet
			orders = append(orders, o)
			want[addrs[k]] += units
		}
		agent := w.startAgent(agentOptions{confirmations: 2})
		Eventually(allDelivered(&orders), 2*time.Minute, 200*time.Millisecond).Should(Succeed())
		minted := map[string]string{}
		for _, o := range orders {
			minted[o.Name] = get(o).Status.Settlement.DeliveryCompleted.TransactionHash
		}
		agent.Stop()
		nonce := nonceAt(w)

		By("restoring the orders from the snapshot: their records no longer know the mints")
		for i, o := range orders {
			snaps[i].restore(o)
			Expect(get(o).Status.Chain).To(BeNil())
			Expect(get(o).Status.State).To(Equal(investv1.StateExecuted))
		}

		By("restarting the agent: every order completes with the chain's evidence")
		agent = w.startAgent(agentOptions{confirmations: 2})
		defer agent.Stop()
		Eventually(allDelivered(&orders), 2*time.Minute, 200*time.Millisecond).Should(Succeed())
		stopMiner()
		for _, o := range orders {
			cur := get(o)
			Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(minted[o.Name]), "%s: the evidence names the mint the chain holds", o.Name)
			Expect(cur.Status.Chain.Transaction.Receipt).NotTo(BeNil())
			Expect(cur.Status.Chain.Transaction.Receipt.Status).To(Equal(investv1.ChainReceiptSucceeded))
		}
		recovered := 0
		for _, o := range orders {
			if c := get(o).Status.Chain; c.Recovered != nil {
				recovered++
				Expect(c.Recovered.TransactionHash).To(Equal(minted[o.Name]))
				Expect(c.Recovered.Units).To(Equal(o.Spec.AmountOfUnits))
			}
		}
		Expect(recovered).To(Equal(len(orders)), "every order recovered its record from the chain")
		for i, a := range addrs {
			Expect(w.chain.Balance(w.chain.Token, a)).To(Equal(want[a]), "wallet %d: balances unchanged", i)
		}
		mints := 0
		for _, a := range addrs {
			mints += len(w.chain.Mints(w.chain.Token, a))
		}
		Expect(mints).To(Equal(len(orders)), "one mint per order, none twice")
		Expect(nonceAt(w)).To(Equal(nonce), "nothing new was signed")
		Eventually(func(g Gomega) {
			g.Expect(eventReasons(w.ns)).To(ContainElement(ReasonRecoveredFromChain))
		}, timeout, interval).Should(Succeed())
	})

	It("a SELL's burn whose record was lost with an etcd restore is not burned again", func() {
		w := newWorld()
		first, holder := w.holderWallet()
		agent := w.startAgent(agentOptions{confirmations: 2})
		w.delivered(10, first, 2)
		agent.Stop()

		sell := w.order(investv1.SideSell, 4, first)
		snap := takeSnapshot(sell) // EXECUTED, no burn recorded: no agent runs
		// Blocks keep coming: a fixed number committed right after the record could come
		// before the broadcast reaches the node.
		stopMiner := w.chain.Mine(50 * time.Millisecond)
		defer func() { stopMiner() }()
		agent = w.startAgent(agentOptions{confirmations: 2})
		Eventually(func(g Gomega) { recordedTx(g, sell) }, timeout, interval).Should(Succeed())
		Eventually(burned(sell), timeout, interval).Should(Succeed())
		burnHash := get(sell).Status.Settlement.TokensBurned.TransactionHash
		agent.Stop()
		Expect(w.chain.Balance(w.chain.Token, holder.Address())).To(Equal(int64(6)))
		nonce := nonceAt(w)

		By("restoring the sell from the snapshot and restarting the agent")
		snap.restore(sell)
		Expect(get(sell).Status.Chain).To(BeNil())
		agent = w.startAgent(agentOptions{confirmations: 2})
		defer agent.Stop()
		Eventually(func(g Gomega) {
			c := get(sell).Status.Chain
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Recovered).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Eventually(burned(sell), timeout, interval).Should(Succeed())
		stopMiner()
		cur := get(sell)
		Expect(cur.Status.Settlement.TokensBurned.TransactionHash).To(Equal(burnHash))
		Expect(cur.Status.Chain.Recovered.TransactionHash).To(Equal(burnHash))
		Expect(cur.Status.Chain.Recovered.Units).To(Equal(int64(4)))
		Expect(w.chain.Balance(w.chain.Token, holder.Address())).To(Equal(int64(6)), "burned once")
		Expect(w.chain.Burns(w.chain.Token, holder.Address())).To(HaveLen(1))
		Expect(nonceAt(w)).To(Equal(nonce), "nothing new was signed")
	})

	It("a batch-minted order whose record was lost with an etcd restore is not minted again", func() {
		w := newWorld()
		const n = 4
		var wallets [n]*investv1.Wallet
		var addrs [n]common.Address
		for i := range wallets {
			wallets[i], addrs[i] = w.wallet(true)
		}
		stopMiner := w.chain.Mine(50 * time.Millisecond)
		defer func() { stopMiner() }()
		var orders []*investv1.Order
		var snaps []snapshot
		for i := range n {
			o := w.order(investv1.SideBuy, int64(10+i), wallets[i])
			snaps = append(snaps, takeSnapshot(o))
			orders = append(orders, o)
		}
		agent := w.startAgent(agentOptions{confirmations: 2, batchSize: n, batchWindow: 2 * time.Second})
		Eventually(allDelivered(&orders), 2*time.Minute, 200*time.Millisecond).Should(Succeed())
		agent.Stop()
		var batches investv1.DeliveryBatchList
		Expect(k8s.List(ctx, &batches, client.InNamespace(w.ns))).To(Succeed())
		Expect(batches.Items).To(HaveLen(1), "the orders were minted in one batch")

		By("restoring the orders from the snapshot (unclaimed, no record) and deleting the batch, as a snapshot taken before it was formed has none")
		for i, o := range orders {
			snaps[i].restore(o)
		}
		Expect(k8s.Delete(ctx, &batches.Items[0])).To(Succeed())
		agent = w.startAgent(agentOptions{confirmations: 2, batchSize: n, batchWindow: 2 * time.Second})
		defer agent.Stop()
		Eventually(allDelivered(&orders), 2*time.Minute, 200*time.Millisecond).Should(Succeed())
		stopMiner()
		for i, a := range addrs {
			Expect(w.chain.Balance(w.chain.Token, a)).To(Equal(int64(10 + i)))
			Expect(w.chain.Mints(w.chain.Token, a)).To(HaveLen(1))
		}
		for _, o := range orders {
			c := get(o).Status.Chain
			Expect(c.Recovered).NotTo(BeNil(), o.Name)
			Expect(c.Recovered.TransactionHash).To(Equal(batches.Items[0].Status.Transaction.Receipt.Hash), "%s: the batch's transaction", o.Name)
		}
	})

	It("a transaction that reverts with EffectAlreadyApplied records the chain's evidence", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		gate := &gatedBroadcast{Backend: w.chain.Client}
		gate.Close()
		agent := w.startAgent(agentOptions{backend: gate, confirmations: 2})
		defer agent.Stop()

		By("the agent records its mint, but the broadcast does not reach the node yet")
		buy := w.order(investv1.SideBuy, 7, wal)
		var recorded *investv1.ChainTransaction
		Eventually(func(g Gomega) { recorded = recordedTx(g, buy) }, timeout, interval).Should(Succeed())
		Eventually(gate.Refused, timeout, interval).Should(BeNumerically(">", 0))

		By("a second signer (another replica's key, also an agent) applies the same effect")
		ref := orderRef(get(buy), lifecycle.StepDeliveryInitiated)
		other := w.chain.Send(w.chain.Admin, w.chain.Token, w.chain.TokenABI.PackMintWithRef(ref, addr, big.NewInt(7)))

		By("the recorded bytes reach the node, are mined and revert")
		gate.Open()
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		moveTo(buy, investv1.StateDeliveryInitiated)
		w.chain.Commit(3)
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		cur := get(buy)
		Expect(cur.Status.Chain.Transaction.Nonce).To(Equal(recorded.Nonce))
		Expect(cur.Status.Chain.Transaction.Receipt.Status).To(Equal(investv1.ChainReceiptReverted))
		Expect(cur.Status.Chain.Transaction.Receipt.RevertReason).To(HavePrefix(chain.EffectAppliedError))
		Expect(cur.Status.Chain.Recovered).NotTo(BeNil())
		Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(other.TxHash.Hex()))
		d := lifecycle.Next(cur, lifecycle.Facts{Now: time.Now(), FundFound: true, Priced: true, Subscribable: true, Redeemable: true, Tradeable: true})
		Expect(d.Wait).To(BeNil(), "not stalled: %+v", d.Wait)
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(7)))
		Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))
		Expect(pendingNonce(w.chain)).To(Equal(uint64(recorded.Nonce+1)), "no retry with a new nonce")
	})
})

// eventReasons lists the reasons of the Events in ns.
func eventReasons(ns string) []string {
	GinkgoHelper()
	var list eventsv1.EventList
	Expect(k8s.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
	var out []string
	for _, e := range list.Items {
		out = append(out, e.Reason)
	}
	return out
}
