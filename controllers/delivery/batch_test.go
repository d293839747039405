package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
)

// buyer is one BUY of a batch spec: its order, wallet address and units.
type buyer struct {
	o     *investv1.Order
	addr  common.Address
	units int64
}

// buyers creates n BUY orders at EXECUTED, each to a wallet of its own (registered
// unless listed in unregistered), with 1+i units.
func (w *world) buyers(n int, unregistered ...int) []buyer {
	GinkgoHelper()
	out := make([]buyer, n)
	for i := range n {
		reg := true
		for _, u := range unregistered {
			if u == i {
				reg = false
			}
		}
		wal, addr := w.wallet(reg)
		units := int64(1 + i)
		out[i] = buyer{o: w.order(investv1.SideBuy, units, wal), addr: addr, units: units}
	}
	return out
}

func (w *world) batches() []investv1.DeliveryBatch {
	GinkgoHelper()
	var list investv1.DeliveryBatchList
	Expect(k8s.List(ctx, &list, client.InNamespace(w.ns))).To(Succeed())
	return list.Items
}

// initiatedAll waits for deliveryInitiated on every order and moves each to
// DELIVERY_INITIATED, as the order controller would; it returns the hashes.
func initiatedAll(bs []buyer) []string {
	GinkgoHelper()
	hashes := make([]string, len(bs))
	for i, b := range bs {
		Eventually(func() *investv1.SettlementRecord { return get(b.o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		hashes[i] = get(b.o).Status.Settlement.DeliveryInitiated.TransactionHash
		moveTo(b.o, investv1.StateDeliveryInitiated)
	}
	return hashes
}

var _ = Describe("batch mints", func() {
	It("mints a batch of BUY orders in one transaction recorded in the DeliveryBatch before broadcast; every order is initiated, then completed, with that hash", func() {
		w := newWorld()
		bs := w.buyers(4)
		agent := w.startAgent(agentOptions{batchSize: 4, batchWindow: 30 * time.Second, confirmations: 2})
		defer agent.Stop()

		hashes := initiatedAll(bs)
		batches := w.batches()
		Expect(batches).To(HaveLen(1), "one batch of four (the batch is full: no wait for the window)")
		b := batches[0]
		Expect(b.Status.Transaction).NotTo(BeNil())
		hash := b.Status.Transaction.Attempts[0].Hash
		Expect(b.Status.Included).To(HaveLen(4))
		Expect(b.Status.Phase).To(Equal(investv1.DeliveryBatchSent))
		signed, err := outbox.Decode(b.Status.Transaction.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		addrs, units, refs, releases := []common.Address{}, []*big.Int{}, [][32]byte{}, []uint64{}
		byName := map[string]buyer{}
		for _, x := range bs {
			byName[x.o.Name] = x
		}
		for _, n := range b.Status.Included {
			addrs, units = append(addrs, byName[n].addr), append(units, big.NewInt(byName[n].units))
			refs, releases = append(refs, orderRef(get(byName[n].o), lifecycle.StepDeliveryInitiated)), append(releases, 0)
		}
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackBatchMintWithRefs(refs, addrs, units, releases)), "the recorded bytes mint each claimed order's units to its wallet, under each order's effect reference")
		for i, x := range bs {
			Expect(hashes[i]).To(Equal(hash), "settlement_transaction_hash is the batch's hash")
			cur := get(x.o)
			Expect(cur.Status.Chain.Batch).To(Equal(b.Name))
			Expect(cur.Status.Chain.Token).To(Equal(w.chain.Token.Hex()))
			Expect(cur.Status.Chain.Recipient).To(Equal(x.addr.Hex()))
			Expect(cur.Status.Chain.Transaction.Attempts).To(HaveLen(1))
			Expect(cur.Status.Chain.Transaction.Attempts[0].Hash).To(Equal(hash))
			Expect(cur.Status.Chain.Transaction.Attempts[0].Raw).To(BeEmpty(), "the signed bytes are the batch's, recorded once")
			Expect(cur.Status.Settlement.DeliveryInitiated.RecordedBy).To(Equal(Name))
		}

		w.chain.Commit(1)
		Consistently(func() *investv1.SettlementRecord { return get(bs[0].o).Status.Settlement.DeliveryCompleted }, time.Second, interval).
			Should(BeNil(), "one confirmation of two: not final")
		w.chain.Commit(1)
		for _, x := range bs {
			Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
			cur := get(x.o)
			Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(hash))
			Expect(cur.Status.Chain.Transaction.Receipt).NotTo(BeNil())
			Expect(cur.Status.Chain.Transaction.Receipt.Status).To(Equal(investv1.ChainReceiptSucceeded))
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
			mints := w.chain.Mints(w.chain.Token, x.addr)
			Expect(mints).To(HaveLen(1))
			Expect(mints[0].TxHash.Hex()).To(Equal(hash))
		}
		Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction for the four orders")
		Eventually(func() investv1.DeliveryBatchPhase { return w.batches()[0].Status.Phase }, timeout, interval).Should(Equal(investv1.DeliveryBatchCompleted))

		By("the API server refusing to rewrite the batch")
		cur := w.batches()[0]
		cur.Status.Included = cur.Status.Included[:1]
		Expect(k8s.Status().Update(ctx, &cur)).To(MatchError(ContainSubstring("immutable")))
		cur = w.batches()[0]
		cur.Spec.Members = cur.Spec.Members[:1]
		Expect(k8s.Update(ctx, &cur)).To(MatchError(ContainSubstring("spec is immutable")))
		o := get(bs[0].o)
		o.Status.Chain.Batch = ""
		Expect(k8s.Status().Update(ctx, o)).To(MatchError(ContainSubstring("batch claim of an order with a recorded transaction is immutable")))
	})

	It("a member of a batch that is final at once records its transaction, both pieces of evidence and the receipt in one status write and one Event", func() {
		w := newWorld()
		oneWritePerMember(w, agentOptions{batchSize: 3, initiateAfter: time.Minute}, 100*time.Millisecond)
	})

	It("a batch whose transaction is final when the agent looks at it again is recorded on each member in one write, however late that look: its members are not initiated first", func() {
		// The members of a transaction not final within initiateAfter get the transaction
		// and deliveryInitiated first. Here every look is later than initiateAfter, but the
		// transaction is final from its broadcast on: a busy agent's late look must not
		// cost each member a second write.
		w := newWorld()
		oneWritePerMember(w, agentOptions{batchSize: 3, initiateAfter: time.Nanosecond, backend: &minedOnSend{Backend: w.chain.Client, chain: w.chain}}, 0)
	})

	It("never puts orders of different share classes (tokens) in one batch", func() {
		w := newWorld()
		other := investv1.ISIN("DE0005557508")
		otherToken := w.chain.DeployToken("Other", "OTH")
		tokens := agent.StaticTokens{
			w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64()},
			other:  {Address: otherToken, ChainID: w.chain.ChainID.Int64()},
		}
		var bs []buyer
		for i := range 4 {
			wal, addr := w.wallet(true)
			o := fixtures4(w, wal, i%2 == 1, other)
			bs = append(bs, buyer{o: o, addr: addr, units: 2})
		}
		agent := w.startAgent(agentOptions{batchSize: 4, batchWindow: 500 * time.Millisecond, tokens: tokens})
		defer agent.Stop()
		initiatedAll(bs)
		batches := w.batches()
		Expect(batches).To(HaveLen(2))
		for _, b := range batches {
			Expect(b.Spec.Members).To(HaveLen(2))
			for _, m := range b.Spec.Members {
				o := &investv1.Order{}
				Expect(k8s.Get(ctx, client.ObjectKey{Namespace: w.ns, Name: m.Order}, o)).To(Succeed())
				Expect(o.Spec.ISIN).To(Equal(b.Spec.ISIN))
			}
		}
		w.chain.Commit(1)
		for _, x := range bs {
			Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
			tok := w.chain.Token
			if x.o.Spec.ISIN == other {
				tok = otherToken
			}
			Expect(w.chain.Balance(tok, x.addr)).To(Equal(int64(2)))
		}
	})

	It("mints a batch exactly once when the agent is killed between recording the batch and broadcasting it", func() {
		w := newWorld()
		bs := w.buyers(3)
		dead := &deadBroadcast{Backend: w.chain.Client}
		first := w.startAgent(agentOptions{backend: dead, batchSize: 3})
		var rec *investv1.ChainTransaction
		Eventually(func(g Gomega) {
			var list investv1.DeliveryBatchList
			g.Expect(k8s.List(ctx, &list, client.InNamespace(w.ns))).To(Succeed())
			g.Expect(list.Items).To(HaveLen(1))
			g.Expect(list.Items[0].Status.Transaction).NotTo(BeNil())
			rec = list.Items[0].Status.Transaction
		}, timeout, interval).Should(Succeed())
		first.Stop()
		w.chain.Commit(2)
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing reached the node")
		for _, x := range bs {
			cur := get(x.o)
			Expect(index.BatchHolds(&w.batches()[0])).To(ContainElement(x.o.Name), "held by the batch, under its effect reference")
			Expect(cur.Status.Chain).To(BeNil(), "no claim written: the token has effect references")
			Expect(cur.Status.Settlement.DeliveryInitiated).To(BeNil(), "not initiated: never broadcast")
		}

		second := w.startAgent(agentOptions{batchSize: 3})
		defer second.Stop()
		hashes := initiatedAll(bs)
		w.chain.Commit(1)
		for i, x := range bs {
			Expect(hashes[i]).To(Equal(rec.Attempts[0].Hash), "the recorded bytes, not a new transaction")
			Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
			mints := w.chain.Mints(w.chain.Token, x.addr)
			Expect(mints).To(HaveLen(1))
			Expect(mints[0].TxHash.Hex()).To(Equal(rec.Attempts[0].Hash))
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
		}
		Expect(w.batches()).To(HaveLen(1))
		Expect(w.batches()[0].Status.Transaction.Attempts).To(HaveLen(1))
		Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction signed in all")
	})

	DescribeTable("mints a batch exactly once when the agent is killed at a status write and restarted",
		func(failing string, broadcast bool) {
			w := newWorld()
			bs := w.buyers(3)
			first := w.startAgent(agentOptions{batchSize: 3, intercept: func(patch []byte) error {
				if bytes.Contains(patch, []byte(failing)) {
					return errKilled
				}
				return nil
			}})
			if broadcast {
				// The batch is recorded and broadcast; every later write of a receipt fails.
				hashes := initiatedAll(bs)
				w.chain.Commit(1)
				Expect(w.chain.Mints(w.chain.Token, bs[0].addr)).To(HaveLen(1))
				Expect(w.chain.Mints(w.chain.Token, bs[0].addr)[0].TxHash.Hex()).To(Equal(hashes[0]))
				Consistently(func() *investv1.SettlementRecord { return get(bs[0].o).Status.Settlement.DeliveryCompleted }, time.Second, interval).Should(BeNil())
			} else {
				// The batch is made and holds its members; recording the signed batch
				// fails: nothing is sent.
				Eventually(func(g Gomega) {
					var list investv1.DeliveryBatchList
					g.Expect(k8s.List(ctx, &list, client.InNamespace(w.ns))).To(Succeed())
					g.Expect(list.Items).To(HaveLen(1))
					for _, x := range bs {
						g.Expect(index.BatchHolds(&list.Items[0])).To(ContainElement(x.o.Name))
					}
				}, timeout, interval).Should(Succeed())
				Consistently(func() *investv1.ChainTransaction { return w.batches()[0].Status.Transaction }, time.Second, interval).Should(BeNil())
				Expect(pendingNonce(w.chain)).To(BeZero(), "nothing broadcast before it is recorded")
			}
			first.Stop()

			second := w.startAgent(agentOptions{batchSize: 3})
			defer second.Stop()
			hashes := initiatedAll(bs)
			w.chain.Commit(1)
			for i, x := range bs {
				Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
				Expect(get(x.o).Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(hashes[i]))
				Expect(hashes[i]).To(Equal(hashes[0]), "one batch")
				mints := w.chain.Mints(w.chain.Token, x.addr)
				Expect(mints).To(HaveLen(1))
				Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
			}
			Expect(w.batches()).To(HaveLen(1))
			Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction signed and sent in all")
		},
		Entry("between forming the batch and recording the signed batch", `"included"`, false),
		Entry("between broadcasting the batch and recording its receipt", `"receipt"`, true),
	)

	It("never mints on its own an order claimed by a batch", func() {
		w := newWorld()
		bs := w.buyers(1)
		o := get(bs[0].o)
		o.Status.Chain = &investv1.OrderChainStatus{Batch: "batch-elsewhere"}
		Expect(k8s.Status().Update(ctx, o)).To(Succeed())
		agent := w.startAgent(agentOptions{}) // batching off: every order would be minted on its own
		defer agent.Stop()
		Consistently(func() *investv1.OrderChainStatus { return get(bs[0].o).Status.Chain }, 2*time.Second, interval).
			Should(Equal(&investv1.OrderChainStatus{Batch: "batch-elsewhere"}))
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing signed")
	})

	It("mints every order once when a batch races the orders' single sends", func() {
		w := newWorld()
		bs := w.buyers(8)
		members := make([]investv1.DeliveryBatchMember, len(bs))
		for i, x := range bs {
			members[i] = investv1.DeliveryBatchMember{Order: x.o.Name, WalletID: x.o.Spec.WalletID, Address: x.addr.Hex(), Units: x.units}
		}
		b := &investv1.DeliveryBatch{
			ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: "batch-race"},
			Spec:       investv1.DeliveryBatchSpec{ISIN: w.isin, Token: w.chain.Token.Hex(), ChainID: w.chain.ChainID.Int64(), Members: members},
		}
		Expect(k8s.Create(ctx, b)).To(Succeed())
		// The batch controller sends the batch while the order reconciler (batching off)
		// sends each order on its own: both start at once on the same orders.
		agent := w.startAgent(agentOptions{batchOnly: true})
		defer agent.Stop()
		stop := w.chain.Mine(100 * time.Millisecond)
		defer stop()
		hashes := initiatedAll(bs)
		for _, x := range bs {
			Eventually(func(g Gomega) {
				cur := get(x.o)
				g.Expect(cur.Status.Settlement.DeliveryCompleted).NotTo(BeNil(), "order %s: state %s, chain %s", cur.Name, cur.Status.State, describeChain(cur.Status.Chain))
			}, timeout, interval).Should(Succeed())
		}
		stop()
		cur := &investv1.DeliveryBatch{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(b), cur)).To(Succeed())
		inBatch := map[string]bool{}
		for _, n := range cur.Status.Included {
			inBatch[n] = true
		}
		for i, x := range bs {
			o := get(x.o)
			mints := w.chain.Mints(w.chain.Token, x.addr)
			Expect(mints).To(HaveLen(1), "order %d minted once", i)
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
			// No claim is written on a token with effect references: an order the batch
			// includes may be minted on its own first (the batch skips it) or by the batch
			// first (its own mint, broadcast too, reverts EffectAlreadyApplied); either way
			// once, and deliveryCompleted names the transaction that minted it.
			Expect(o.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(mints[0].TxHash.Hex()), "order %d", i)
			if o.Status.Chain.Batch != "" {
				Expect(o.Status.Chain.Batch).To(Equal(b.Name))
				Expect(inBatch[o.Name]).To(BeTrue())
				Expect(hashes[i]).To(Equal(cur.Status.Transaction.Attempts[0].Hash))
				Expect(mints[0].TxHash.Hex()).To(Equal(hashes[i]), "order %d: minted by the batch", i)
			} else if !inBatch[o.Name] && cur.Status.Transaction != nil {
				Expect(hashes[i]).NotTo(Equal(cur.Status.Transaction.Attempts[0].Hash))
			}
		}
		GinkgoWriter.Printf("race: %d of %d orders in the batch\n", len(inBatch), len(bs))
	})

	DescribeTable("falls back to minting each order on its own when the batch's gas estimate reverts, so each order gets its own refusal",
		func(noPreflight bool) {
			w := newWorld()
			bs := w.buyers(3, 1) // the second wallet is not in the identity registry
			agent := w.startAgent(agentOptions{batchSize: 3, noPreflight: noPreflight})
			defer agent.Stop()
			bad := bs[1]
			Eventually(func(g Gomega) {
				cur := get(bad.o)
				g.Expect(cur.Status.Chain).NotTo(BeNil())
				g.Expect(cur.Status.Chain.Refused).NotTo(BeNil())
				g.Expect(cur.Status.Chain.Batch).To(BeEmpty())
			}, timeout, interval).Should(Succeed())
			cur := get(bad.o)
			Expect(cur.Status.Chain.Refused.Reason).To(Equal(fmt.Sprintf("NotVerified(%s)", bad.addr.Hex())))
			Expect(cur.Status.Chain.Transaction).To(BeNil())
			stalled(cur, lifecycle.WaitTokenTransactionRefused, "NotVerified")

			good := []buyer{bs[0], bs[2]}
			hashes := initiatedAll(good)
			Expect(hashes[0]).NotTo(Equal(hashes[1]), "each minted on its own")
			w.chain.Commit(1)
			for _, x := range good {
				Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
				Expect(get(x.o).Status.Chain.Batch).To(BeEmpty())
				Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
			}
			Expect(pendingNonce(w.chain)).To(Equal(uint64(2)), "two single mints; no batch signed")
			batches := w.batches()
			if noPreflight {
				Expect(batches).To(HaveLen(1), "the batch was made, its estimate at signing reverted")
				Expect(batches[0].Status.Phase).To(Equal(investv1.DeliveryBatchAbandoned))
				Expect(batches[0].Status.Abandoned.Reason).To(ContainSubstring("NotVerified"))
				Expect(batches[0].Status.Transaction).To(BeNil())
				By("the API server refusing a transaction on an abandoned batch")
				ab := batches[0]
				ab.Status.Transaction = get(bs[0].o).Status.Chain.Transaction
				ab.Status.Included = []string{bs[0].o.Name}
				Expect(k8s.Status().Update(ctx, &ab)).To(MatchError(ContainSubstring("an abandoned batch never records a transaction")))
			} else {
				Expect(batches).To(BeEmpty(), "the former's pre-flight reverted: no batch made")
			}
		},
		Entry("the batch former's pre-flight reverts: no batch is made", false),
		Entry("the estimate at signing reverts after the claims: the batch is abandoned and its claims released", true),
	)

	It("marks every member of a reverted batch Stalled with the reason and never re-sends it", func() {
		w := newWorld()
		bs := w.buyers(3)
		dead := &deadBroadcast{Backend: w.chain.Client}
		first := w.startAgent(agentOptions{backend: dead, batchSize: 3})
		Eventually(func(g Gomega) {
			var list investv1.DeliveryBatchList
			g.Expect(k8s.List(ctx, &list, client.InNamespace(w.ns))).To(Succeed())
			g.Expect(list.Items).To(HaveLen(1))
			g.Expect(list.Items[0].Status.Transaction).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		first.Stop()
		w.chain.Pause(w.chain.Token) // after the checks, before the batch is mined

		second := w.startAgent(agentOptions{batchSize: 3})
		defer second.Stop()
		initiatedAll(bs)
		w.chain.Commit(1)
		for _, x := range bs {
			Eventually(func() *investv1.ChainReceipt { return get(x.o).Status.Chain.Transaction.Receipt }, timeout, interval).ShouldNot(BeNil())
			cur := get(x.o)
			Expect(cur.Status.Chain.Transaction.Receipt.Status).To(Equal(investv1.ChainReceiptReverted))
			Expect(cur.Status.Chain.Transaction.Receipt.RevertReason).To(Equal("EnforcedPause()"))
			stalled(cur, lifecycle.WaitTokenTransactionReverted, "EnforcedPause()")
		}
		Expect(w.batches()[0].Status.Phase).To(Equal(investv1.DeliveryBatchReverted))
		w.chain.Commit(3)
		Consistently(func(g Gomega) {
			for _, x := range bs {
				cur := get(x.o)
				g.Expect(cur.Status.Chain.Transaction.Attempts).To(HaveLen(1))
				g.Expect(cur.Status.Settlement.DeliveryCompleted).To(BeNil())
			}
		}, 2*time.Second, interval).Should(Succeed())
		Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "no new transaction")
		for _, x := range bs {
			Expect(w.chain.Mints(w.chain.Token, x.addr)).To(BeEmpty())
		}
	})
})

// fixtures4 creates a BUY of 2 units at EXECUTED for wallet, of the world's share class
// or (otherClass) of isin.
func fixtures4(w *world, wal *investv1.Wallet, otherClass bool, isin investv1.ISIN) *investv1.Order {
	GinkgoHelper()
	if !otherClass {
		return w.order(investv1.SideBuy, 2, wal)
	}
	saved := w.isin
	w.isin = isin
	defer func() { w.isin = saved }()
	return w.order(investv1.SideBuy, 2, wal)
}

// describeChain is an order's status.chain in a line, for failure messages.
func describeChain(c *investv1.OrderChainStatus) string {
	if c == nil {
		return "none"
	}
	out := fmt.Sprintf("batch %q, recovered %v", c.Batch, c.Recovered != nil)
	if t := c.Transaction; t != nil {
		out += fmt.Sprintf(", transaction nonce %d (%d attempts), receipt %v", t.Nonce, len(t.Attempts), t.Receipt != nil)
		if t.Receipt != nil {
			out += " " + string(t.Receipt.Status) + " " + t.Receipt.RevertReason
		}
	}
	if c.Refused != nil {
		out += ", refused " + c.Refused.Reason
	}
	return out
}

// oneWritePerMember runs a batch of three buyers with the agent of opts, the chain mining
// a block every mine once they are set up (0: it mines only what the agent's backend
// does), and expects each order stored once by the delivery (the transaction, both pieces
// of evidence and the receipt in one status write) and one Event per order.
func oneWritePerMember(w *world, opts agentOptions, mine time.Duration) {
	GinkgoHelper()
	bs := w.buyers(3)
	var before investv1.OrderList
	Expect(k8s.List(ctx, &before, client.InNamespace(w.ns))).To(Succeed())
	wc, err := client.NewWithWatch(env.Config, client.Options{Scheme: k8s.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	watch, err := wc.Watch(ctx, &investv1.OrderList{}, client.InNamespace(w.ns), &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: before.ResourceVersion}})
	Expect(err).NotTo(HaveOccurred())
	defer watch.Stop()
	if mine > 0 {
		stop := w.chain.Mine(mine)
		defer stop()
	}
	agent := w.startAgent(opts)
	defer agent.Stop()
	for _, x := range bs {
		Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
	}
	seen := map[string][]string{} // every version of each order the API server stored, in order
	Eventually(func() int {
		for {
			select {
			case ev := <-watch.ResultChan():
				if v, ok := ev.Object.(*investv1.Order); ok {
					st := v.Status.Settlement
					seen[v.Name] = append(seen[v.Name], fmt.Sprintf("initiated=%v completed=%v receipt=%v",
						st.DeliveryInitiated != nil, st.DeliveryCompleted != nil, v.Status.Chain != nil && v.Status.Chain.Transaction != nil && v.Status.Chain.Transaction.Receipt != nil))
				}
			default:
				n := 0
				for _, vs := range seen {
					n += len(vs)
				}
				return n
			}
		}
	}, timeout, interval).Should(BeNumerically(">=", len(bs)))
	Consistently(func() int { return len(watch.ResultChan()) }, time.Second, interval).Should(BeZero())
	batches := w.batches()
	Expect(batches).To(HaveLen(1))
	hash := batches[0].Status.Transaction.Attempts[0].Hash
	for _, x := range bs {
		Expect(seen[x.o.Name]).To(HaveExactElements("initiated=true completed=true receipt=true"),
			"%s: one write holds the transaction, deliveryInitiated, deliveryCompleted and the receipt", x.o.Name)
		cur := get(x.o)
		Expect(cur.Status.Chain.Batch).To(Equal(batches[0].Name))
		Expect(cur.Status.Settlement.DeliveryInitiated.TransactionHash).To(Equal(hash))
		Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(hash))
		Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(x.units))
	}
	var reasons []string
	for _, r := range eventReasons(w.ns) {
		if r != ReasonBatchCreated && r != ReasonBatchRecorded {
			reasons = append(reasons, r)
		}
	}
	Expect(reasons).To(HaveLen(len(bs)), "one Event per order's write: %v", reasons)
}

// minedOnSend is a chain client whose broadcasts are mined at once: a transaction is
// final (one confirmation) before the agent looks at it again.
type minedOnSend struct {
	outbox.Backend
	chain *chaintest.Chain
}

func (m *minedOnSend) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := m.Backend.SendTransaction(ctx, tx); err != nil {
		return err
	}
	for range 200 { // the pool may take the transaction a moment after SendTransaction
		m.chain.Commit(1)
		if r, err := m.TransactionReceipt(ctx, tx.Hash()); err == nil && r != nil {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return errors.New("the transaction was not mined")
}
