package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("BUY delivery on the chain", func() {
	It("records the mint before broadcasting it, initiates the delivery with its hash and completes it after the configured confirmations", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		agent := w.startAgent(agentOptions{confirmations: 3})
		defer agent.Stop()
		o := w.order(investv1.SideBuy, 7, wal)

		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) {
			tx = recordedTx(g, o)
			g.Expect(get(o).Status.Settlement.DeliveryInitiated).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		cur := get(o)
		Expect(cur.Status.Settlement.DeliveryInitiated.TransactionHash).To(Equal(tx.Attempts[0].Hash), "settlement_transaction_hash is the mint's hash")
		Expect(cur.Status.Settlement.DeliveryInitiated.RecordedBy).To(Equal(Name))
		Expect(cur.Status.Chain.Token).To(Equal(w.chain.Token.Hex()))
		Expect(cur.Status.Chain.Recipient).To(Equal(addr.Hex()))
		Expect(tx.From).To(Equal(w.chain.Agent.Address().Hex()))
		Expect(tx.To).To(Equal(w.chain.Token.Hex()))
		Expect(tx.Nonce).To(BeZero())
		Expect(tx.Attempts).To(HaveLen(1))
		Expect(tx.Attempts[0].Raw).To(HavePrefix("0x"))
		signed, err := outbox.Decode(tx.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackMintWithRef(orderRef(cur, lifecycle.StepDeliveryInitiated), addr, big.NewInt(7))), "the recorded bytes mint the order's units to its wallet, under the order's effect reference")

		moveTo(o, investv1.StateDeliveryInitiated)
		w.chain.Commit(1)
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(7)))
		w.chain.Commit(1)
		Consistently(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, time.Second, interval).
			Should(BeNil(), "two confirmations of three: not final")
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		cur = get(o)
		Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(tx.Attempts[0].Hash))
		rc := cur.Status.Chain.Transaction.Receipt
		Expect(rc).NotTo(BeNil())
		Expect(rc.Status).To(Equal(investv1.ChainReceiptSucceeded))
		Expect(rc.Confirmations).To(BeNumerically(">=", 3))
		Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))

		By("the API server refusing to rewrite the recorded transaction")
		cur.Status.Chain.Transaction.Nonce = 5
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("immutable")))
		cur = get(o)
		cur.Status.Chain.Transaction.Attempts[0].Raw = "0x00"
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("recorded attempts are immutable")))
		cur = get(o)
		cur.Status.Chain.Transaction = nil
		Expect(k8s.Status().Update(ctx, cur)).To(MatchError(ContainSubstring("cannot be removed")))
	})

	It("mints exactly once when the agent is killed between recording and broadcasting", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		dead := &deadBroadcast{Backend: w.chain.Client}
		first := w.startAgent(agentOptions{backend: dead})
		o := w.order(investv1.SideBuy, 5, wal)
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, o) }, timeout, interval).Should(Succeed())
		first.Stop()
		w.chain.Commit(2)
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing reached the node")
		Expect(get(o).Status.Settlement.DeliveryInitiated).To(BeNil(), "not initiated: never broadcast")

		second := w.startAgent(agentOptions{})
		defer second.Stop()
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		moveTo(o, investv1.StateDeliveryInitiated)
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		mints := w.chain.Mints(w.chain.Token, addr)
		Expect(mints).To(HaveLen(1))
		Expect(mints[0].TxHash.Hex()).To(Equal(tx.Attempts[0].Hash), "the recorded bytes, not a new transaction")
		Expect(get(o).Status.Chain.Transaction.Attempts).To(HaveLen(1))
	})

	DescribeTable("mints exactly once when the agent is killed between broadcasting and recording",
		func(failingField string) {
			w := newWorld()
			wal, addr := w.wallet(true)
			first := w.startAgent(agentOptions{intercept: func(patch []byte) error {
				if bytes.Contains(patch, []byte(failingField)) {
					return errKilled
				}
				return nil
			}})
			o := w.order(investv1.SideBuy, 4, wal)
			var tx *investv1.ChainTransaction
			Eventually(func(g Gomega) { tx = recordedTx(g, o) }, timeout, interval).Should(Succeed())
			if failingField == `"deliveryCompleted"` {
				Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
				moveTo(o, investv1.StateDeliveryInitiated)
			}
			inPool(w, tx.Attempts[0].Hash)
			w.chain.Commit(1) // the broadcast mint is mined
			Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))
			Consistently(func() *investv1.Order { return get(o) }, time.Second, interval).Should(And(
				HaveField("Status.Settlement.DeliveryCompleted", BeNil()),
				HaveField("Status.Chain.Transaction.Receipt", BeNil())))
			first.Stop()

			second := w.startAgent(agentOptions{})
			defer second.Stop()
			if failingField == `"deliveryInitiated"` {
				Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
				moveTo(o, investv1.StateDeliveryInitiated)
			}
			Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
			w.chain.Commit(3)
			Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))
			Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(4)))
			Expect(get(o).Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(tx.Attempts[0].Hash))
			Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction signed in all")
		},
		Entry("the deliveryInitiated evidence", `"deliveryInitiated"`),
		Entry("the final receipt and deliveryCompleted", `"deliveryCompleted"`),
	)

	It("ends with exactly one mint when the chain reorganises under a delivery in flight and the node forgets the mint: the agent broadcasts the recorded bytes again", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		gate := &gatedBroadcast{Backend: w.chain.Client}
		agent := w.startAgent(agentOptions{confirmations: 3, backend: gate})
		defer agent.Stop()
		o := w.order(investv1.SideBuy, 9, wal)
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) {
			tx = recordedTx(g, o)
			g.Expect(get(o).Status.Settlement.DeliveryInitiated).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		moveTo(o, investv1.StateDeliveryInitiated)

		parent, err := w.chain.Client.HeaderByNumber(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		w.chain.Commit(2) // the mint, one confirmation on top
		mined := w.chain.Mints(w.chain.Token, addr)
		Expect(mined).To(HaveLen(1))
		minedIn := mined[0].Block
		before, err := w.chain.Client.TransactionReceipt(ctx, mined[0].TxHash)
		Expect(err).NotTo(HaveOccurred())

		By("forking below the mint's block, dropping the node's pool (the mint the reorg put back in it), and growing the side chain past it")
		gate.Close() // while the chain reorganises, the agent's broadcasts do not reach the node
		Expect(w.chain.Backend.Fork(parent.Hash())).To(Succeed())
		w.chain.Backend.Rollback() // the node forgets the reorged mint
		w.chain.Commit(4)
		Expect(w.chain.Head()).To(BeNumerically(">", minedIn+1))
		orphaned, err := w.chain.Client.HeaderByNumber(ctx, big.NewInt(int64(minedIn)))
		Expect(err).NotTo(HaveOccurred())
		Expect(orphaned.Hash()).NotTo(Equal(before.BlockHash), "the mint's block is no longer canonical")
		Expect(w.chain.Mints(w.chain.Token, addr)).To(BeEmpty(), "the side chain has no mint")
		Expect(pendingNonce(w.chain)).To(BeZero(), "the node holds no transaction of the agent: only the agent can bring the mint back")
		Eventually(gate.Refused, timeout, interval).Should(BeNumerically(">", 0), "the agent tries to broadcast the recorded mint again")
		w.chain.Commit(3)
		Expect(w.chain.Mints(w.chain.Token, addr)).To(BeEmpty())
		Expect(get(o).Status.Settlement.DeliveryCompleted).To(BeNil())

		By("the agent's broadcasts reaching the node again")
		gate.Open()
		stop := w.chain.Mine(100 * time.Millisecond)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		stop()
		mints := w.chain.Mints(w.chain.Token, addr)
		Expect(mints).To(HaveLen(1), "exactly one mint on the canonical chain")
		Expect(mints[0].TxHash.Hex()).To(Equal(tx.Attempts[0].Hash), "the recorded bytes, not a new transaction")
		Expect(mints[0].Block).To(BeNumerically(">", minedIn+4), "mined again after the fork")
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(9)))
		cur := get(o)
		Expect(cur.Status.Chain.Transaction.Attempts).To(HaveLen(1))
		rc := cur.Status.Chain.Transaction.Receipt
		canonical, err := w.chain.Client.HeaderByNumber(ctx, big.NewInt(rc.BlockNumber))
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.BlockHash).To(Equal(canonical.Hash().Hex()), "the receipt recorded is the canonical block's")
		Expect(rc.BlockNumber).To(Equal(int64(mints[0].Block)))
	})

	It("reports a mint to an unregistered wallet as refused (Stalled with NotVerified), sends nothing, and delivers once the wallet is registered", func() {
		w := newWorld()
		wal, addr := w.wallet(false)
		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		o := w.order(investv1.SideBuy, 2, wal)
		Eventually(func(g Gomega) {
			cur := get(o)
			g.Expect(cur.Status.Chain).NotTo(BeNil())
			g.Expect(cur.Status.Chain.Refused).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		cur := get(o)
		Expect(cur.Status.Chain.Refused.Reason).To(Equal(fmt.Sprintf("NotVerified(%s)", addr.Hex())))
		Expect(cur.Status.Chain.Transaction).To(BeNil())
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing signed or sent")
		stalled(cur, lifecycle.WaitTokenTransactionRefused, "NotVerified")

		w.chain.Register(addr)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		Expect(get(o).Status.Chain.Refused).To(BeNil(), "cleared with the recorded transaction")
		w.chain.Commit(1)
		Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))
	})

	DescribeTable("a mint mined and reverted marks the order Stalled with the reason and is never re-sent",
		func(block func(w *world, wallet common.Address), reason func(wallet common.Address) string) {
			w := newWorld()
			wal, addr := w.wallet(true)
			dead := &deadBroadcast{Backend: w.chain.Client}
			first := w.startAgent(agentOptions{backend: dead})
			o := w.order(investv1.SideBuy, 3, wal)
			Eventually(func(g Gomega) { recordedTx(g, o) }, timeout, interval).Should(Succeed())
			first.Stop()
			block(w, addr) // after the check, before the mint is mined

			second := w.startAgent(agentOptions{})
			defer second.Stop()
			Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
			moveTo(o, investv1.StateDeliveryInitiated)
			w.chain.Commit(1)
			Eventually(func() *investv1.ChainReceipt { return get(o).Status.Chain.Transaction.Receipt }, timeout, interval).ShouldNot(BeNil())
			cur := get(o)
			Expect(cur.Status.Chain.Transaction.Receipt.Status).To(Equal(investv1.ChainReceiptReverted))
			Expect(cur.Status.Chain.Transaction.Receipt.RevertReason).To(Equal(reason(addr)))
			stalled(cur, lifecycle.WaitTokenTransactionReverted, reason(addr))

			w.chain.Commit(3)
			Consistently(func() *investv1.Order { return get(o) }, 2*time.Second, interval).Should(And(
				HaveField("Status.Chain.Transaction.Attempts", HaveLen(1)),
				HaveField("Status.Settlement.DeliveryCompleted", BeNil())))
			Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "no new transaction")
			Expect(w.chain.Mints(w.chain.Token, addr)).To(BeEmpty())
		},
		Entry("paused token: EnforcedPause()", func(w *world, _ common.Address) { w.chain.Pause(w.chain.Token) },
			func(common.Address) string { return "EnforcedPause()" }),
		Entry("frozen wallet: WalletFrozen(wallet)", func(w *world, a common.Address) { w.chain.Freeze(w.chain.Token, a, true) },
			func(a common.Address) string { return fmt.Sprintf("WalletFrozen(%s)", a.Hex()) }),
	)

	DescribeTable("a mint whose nonce a transaction not recorded here took marks the order Stalled (TokenTransactionNonceTaken) and is never re-sent",
		func(initiated bool) {
			w := newWorld()
			wal, addr := w.wallet(true)
			var first *envtest.Manager
			if initiated {
				// Broadcast underpriced (below the base fee): initiated, in the pool, never mined.
				low := true
				first = w.startAgent(agentOptions{fees: func(ctx context.Context, b outbox.Backend) (outbox.Fees, error) {
					if low {
						low = false
						return outbox.Fees{Tip: big.NewInt(1), Cap: big.NewInt(2)}, nil
					}
					return outbox.DefaultFees(ctx, b)
				}})
			} else {
				first = w.startAgent(agentOptions{backend: &deadBroadcast{Backend: w.chain.Client}})
			}
			o := w.order(investv1.SideBuy, 3, wal)
			var tx *investv1.ChainTransaction
			Eventually(func(g Gomega) { tx = recordedTx(g, o) }, timeout, interval).Should(Succeed())
			if initiated {
				Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
				moveTo(o, investv1.StateDeliveryInitiated)
			}
			first.Stop()

			By("signing another transaction with the agent key and the recorded nonce, outside the outbox, and mining it")
			foreign := signOutside(w, uint64(tx.Nonce))
			Expect(w.chain.Client.SendTransaction(ctx, foreign)).To(Succeed())
			w.chain.Commit(1)
			rc, err := w.chain.Client.TransactionReceipt(ctx, foreign.Hash())
			Expect(err).NotTo(HaveOccurred(), "the foreign transaction is mined with the nonce")
			Expect(rc.Status).To(Equal(uint64(1)))

			second := w.startAgent(agentOptions{})
			defer second.Stop()
			Eventually(func(g Gomega) {
				c := get(o).Status.Chain
				g.Expect(c.NonceTaken).NotTo(BeNil())
			}, timeout, interval).Should(Succeed())
			cur := get(o)
			Expect(cur.Status.Chain.NonceTaken.Nonce).To(Equal(tx.Nonce))
			stalled(cur, lifecycle.WaitTokenTransactionNonceTaken, fmt.Sprintf("nonce %d of the mint transaction", tx.Nonce))
			stalled(cur, lifecycle.WaitTokenTransactionNonceTaken, "a transaction not recorded here was mined with this nonce: was the agent key used elsewhere?")

			w.chain.Commit(3)
			Consistently(func() *investv1.Order { return get(o) }, 2*time.Second, interval).Should(And(
				HaveField("Status.Chain.Transaction.Attempts", HaveLen(1)),
				HaveField("Status.Chain.Transaction.Receipt", BeNil()),
				HaveField("Status.Chain.NonceTaken", Not(BeNil())),
				HaveField("Status.Settlement.DeliveryCompleted", BeNil())))
			if !initiated {
				Expect(get(o).Status.Settlement.DeliveryInitiated).To(BeNil(), "no settlement hash naming a transaction that cannot be mined")
			}
			Expect(pendingNonce(w.chain)).To(Equal(uint64(tx.Nonce+1)), "nothing signed after the foreign transaction")
			Expect(w.chain.Mints(w.chain.Token, addr)).To(BeEmpty(), "never re-sent")
		},
		Entry("before the delivery is initiated (recorded, never broadcast)", false),
		Entry("after the delivery is initiated (broadcast, not mined)", true),
	)

	It("clears nonceTaken and delivers the recorded bytes when a reorg drops the transaction that took the nonce", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		first := w.startAgent(agentOptions{backend: &deadBroadcast{Backend: w.chain.Client}})
		o := w.order(investv1.SideBuy, 5, wal)
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, o) }, timeout, interval).Should(Succeed())
		first.Stop()

		parent, err := w.chain.Client.HeaderByNumber(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		foreign := signOutside(w, uint64(tx.Nonce))
		Expect(w.chain.Client.SendTransaction(ctx, foreign)).To(Succeed())
		w.chain.Commit(1)
		gate := &gatedBroadcast{Backend: w.chain.Client}
		second := w.startAgent(agentOptions{backend: gate})
		defer second.Stop()
		Eventually(func() *investv1.ChainNonceTaken { return get(o).Status.Chain.NonceTaken }, timeout, interval).ShouldNot(BeNil())
		stalled(get(o), lifecycle.WaitTokenTransactionNonceTaken, "was the agent key used elsewhere?")

		By("forking below the other transaction's block and dropping it from the node's pool")
		gate.Close()
		Expect(w.chain.Backend.Fork(parent.Hash())).To(Succeed())
		w.chain.Backend.Rollback()
		w.chain.Commit(2)
		Expect(pendingNonce(w.chain)).To(Equal(uint64(tx.Nonce)), "the nonce is free again")
		gate.Open()

		Eventually(func(g Gomega) {
			cur := get(o)
			g.Expect(cur.Status.Chain.NonceTaken).To(BeNil())
			g.Expect(cur.Status.Settlement.DeliveryInitiated).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		moveTo(o, investv1.StateDeliveryInitiated)
		stop := w.chain.Mine(100 * time.Millisecond)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		stop()
		mints := w.chain.Mints(w.chain.Token, addr)
		Expect(mints).To(HaveLen(1))
		Expect(mints[0].TxHash.Hex()).To(Equal(tx.Attempts[0].Hash), "the recorded bytes, not a new transaction")
		Expect(get(o).Status.Chain.Transaction.Attempts).To(HaveLen(1))
	})

	It("allocates nonces to many orders without gap or reuse, across a restart in the middle", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		first := w.startAgent(agentOptions{})
		const n = 16
		orders := make([]*investv1.Order, n)
		for i := range n {
			orders[i] = w.order(investv1.SideBuy, int64(i+1), wal)
			if i == n/2 {
				first.Stop() // some recorded, some not, some recorded but not yet initiated
			}
		}
		second := w.startAgent(agentOptions{})
		defer second.Stop()
		Eventually(func(g Gomega) {
			for _, o := range orders {
				g.Expect(get(o).Status.Settlement.DeliveryInitiated).NotTo(BeNil())
			}
		}, timeout, interval).Should(Succeed())
		nonces := map[int64]string{}
		var total int64
		for _, o := range orders {
			cur := get(o)
			tx := cur.Status.Chain.Transaction
			Expect(nonces).NotTo(HaveKey(tx.Nonce), "nonce reused")
			nonces[tx.Nonce] = o.Name
			total += o.Spec.AmountOfUnits
		}
		for i := range int64(n) {
			Expect(nonces).To(HaveKey(i), "gap at nonce %d", i)
		}
		w.chain.Commit(1)
		Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(n), "one mint per order")
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(total))
	})

	It("replaces a stuck mint with the same nonce and a higher fee, recorded before broadcasting, and the one mined counts", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		low := true
		agent := w.startAgent(agentOptions{stuckAfter: time.Second, fees: func(ctx context.Context, b outbox.Backend) (outbox.Fees, error) {
			if low { // under the base fee: never mined
				low = false
				return outbox.Fees{Tip: big.NewInt(1), Cap: big.NewInt(2)}, nil
			}
			return outbox.DefaultFees(ctx, b)
		}})
		defer agent.Stop()
		o := w.order(investv1.SideBuy, 6, wal)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		moveTo(o, investv1.StateDeliveryInitiated)
		w.chain.Commit(1)
		Expect(w.chain.Mints(w.chain.Token, addr)).To(BeEmpty(), "the underpriced mint is stuck")

		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) {
			tx = recordedTx(g, o)
			g.Expect(tx.Attempts).To(HaveLen(2))
		}, timeout, interval).Should(Succeed())
		a, b := tx.Attempts[0], tx.Attempts[1]
		ta, err := outbox.Decode(a)
		Expect(err).NotTo(HaveOccurred())
		tb, err := outbox.Decode(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(tb.Nonce()).To(Equal(ta.Nonce()))
		Expect(tb.GasFeeCap().Cmp(ta.GasFeeCap())).To(Equal(1))
		Expect(tb.GasTipCap().Cmp(ta.GasTipCap())).To(Equal(1))
		Expect(tb.Data()).To(Equal(ta.Data()))

		inPool(w, b.Hash) // the replacement is recorded before it is broadcast
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		cur := get(o)
		Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(b.Hash), "the attempt mined is the one")
		Expect(cur.Status.Settlement.DeliveryInitiated.TransactionHash).To(Equal(a.Hash))
		Expect(w.chain.Mints(w.chain.Token, addr)).To(HaveLen(1))
	})
})

var _ = Describe("SELL burn on the chain", func() {
	It("burns the units from the wallet they were delivered to, records the burn before broadcasting, and records tokensBurned only once it is final", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		agent := w.startAgent(agentOptions{confirmations: 2})
		defer agent.Stop()
		w.delivered(10, wal, 2)

		sell := w.order(investv1.SideSell, 4, wal)
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, sell) }, timeout, interval).Should(Succeed())
		cur := get(sell)
		Expect(cur.Status.Chain.Burns).To(Equal([]investv1.OrderBurn{{WalletID: investv1.ObjectID(wal.Name), Address: addr.Hex(), Units: 4}}))
		signed, err := outbox.Decode(tx.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackBurnWithRef(orderRef(cur, lifecycle.StepTokensBurned), []common.Address{addr}, []*big.Int{big.NewInt(4)})))
		Expect(cur.Status.Settlement.TokensBurned).To(BeNil())

		inPool(w, tx.Attempts[0].Hash)
		w.chain.Commit(1)
		Consistently(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.TokensBurned }, time.Second, interval).
			Should(BeNil(), "one confirmation of two: the payout waits")
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.TokensBurned }, timeout, interval).ShouldNot(BeNil())
		Expect(get(sell).Status.Settlement.TokensBurned.TransactionHash).To(Equal(tx.Attempts[0].Hash))
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(6)))
		Expect(w.chain.Burns(w.chain.Token, addr)).To(HaveLen(1))
	})

	It("refuses a sell whose units were never delivered on the chain, and sends nothing", func() {
		w := newWorld()
		wal, _ := w.wallet(true)
		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		sell := w.order(investv1.SideSell, 4, wal)
		Eventually(func(g Gomega) {
			c := get(sell).Status.Chain
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Refused).NotTo(BeNil())
			g.Expect(c.Refused.Reason).To(HavePrefix("InsufficientTokens"))
		}, timeout, interval).Should(Succeed())
		Expect(pendingNonce(w.chain)).To(BeZero())
	})
})

// stalled checks that the order controller reports the order Stalled with the reason.
func stalled(o *investv1.Order, reason, says string) {
	GinkgoHelper()
	d := lifecycle.Next(o, lifecycle.Facts{Now: time.Now(), FundFound: true, Priced: true, Subscribable: true, Redeemable: true, Tradeable: true})
	Expect(d.Wait).NotTo(BeNil())
	Expect(d.Wait.Reason).To(Equal(reason))
	Expect(d.Wait.Message).To(ContainSubstring(says))
	c := meta.FindStatusCondition(lifecycle.StatusConditions(o, d.Wait), lifecycle.ConditionStalled)
	Expect(c).NotTo(BeNil())
	Expect(c.Status).To(Equal(metav1.ConditionTrue))
	Expect(c.Reason).To(Equal(reason))
}

// signOutside signs a transaction with the agent key that the outbox never recorded (a
// zero-value transfer to itself with nonce), as someone using the key elsewhere would.
func signOutside(w *world, nonce uint64) *types.Transaction {
	GinkgoHelper()
	fees, err := outbox.DefaultFees(ctx, w.chain.Client)
	Expect(err).NotTo(HaveOccurred())
	// Twice the fees the agent pays: it replaces a pooled attempt of the agent's.
	self := w.chain.Agent.Address()
	tx, err := w.chain.Agent.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
		ChainID: w.chain.ChainID, Nonce: nonce, Gas: 21000, To: &self, Value: new(big.Int),
		GasTipCap: new(big.Int).Mul(fees.Tip, big.NewInt(2)), GasFeeCap: new(big.Int).Mul(fees.Cap, big.NewInt(2)),
	}), w.chain.ChainID)
	Expect(err).NotTo(HaveOccurred())
	return tx
}

// gatedBroadcast is a chain client whose broadcasts can be stopped from reaching the node
// (Close) and let through again (Open); it counts the broadcasts refused.
type gatedBroadcast struct {
	outbox.Backend
	mu      sync.Mutex
	closed  bool
	refused int
}

func (g *gatedBroadcast) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	g.mu.Lock()
	if g.closed {
		g.refused++
		g.mu.Unlock()
		return errors.New("broadcast held back by the test")
	}
	g.mu.Unlock()
	return g.Backend.SendTransaction(ctx, tx)
}

func (g *gatedBroadcast) Close() { g.mu.Lock(); g.closed = true; g.mu.Unlock() }
func (g *gatedBroadcast) Open()  { g.mu.Lock(); g.closed = false; g.mu.Unlock() }

// Refused is how many broadcasts were held back.
func (g *gatedBroadcast) Refused() int { g.mu.Lock(); defer g.mu.Unlock(); return g.refused }

// delivered places a BUY of units to wallet and walks it to COMPLETED as the order
// controller would, committing the blocks of the confirmations its mint needs.
func (w *world) delivered(units int64, wallet *investv1.Wallet, confirmations int) *investv1.Order {
	GinkgoHelper()
	buy := w.order(investv1.SideBuy, units, wallet)
	Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
	moveTo(buy, investv1.StateDeliveryInitiated)
	w.chain.Commit(confirmations)
	Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
	moveTo(buy, investv1.StateDeliveryCompleted, investv1.StateCompleted)
	return buy
}
