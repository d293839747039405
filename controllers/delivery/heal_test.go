package delivery

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

var _ = Describe("a chain behind the records heals by itself", func() {
	DescribeTable("after a rollback under completed and in-flight deliveries, every mint re-appears once, balances equal the orders, and no new nonce is used for an old effect",
		func(depth uint64, completed, inFlight int) {
			w := newWorld()
			const nWallets = 3
			var wallets [nWallets]*investv1.Wallet
			var addrs [nWallets]common.Address
			for i := range wallets {
				wallets[i], addrs[i] = w.wallet(true) // registered by the admin, below the fork
			}
			agent := w.startAgent(agentOptions{confirmations: 2})
			defer agent.Stop()
			stopMiner := w.chain.Mine(50 * time.Millisecond)
			defer func() { stopMiner() }()

			want := map[common.Address]int64{}
			var orders []*investv1.Order
			place := func(n int) []*investv1.Order {
				var placed []*investv1.Order
				for i := range n {
					k := (len(orders) + i) % nWallets
					units := int64(len(orders)+i)%7 + 1
					placed = append(placed, w.order(investv1.SideBuy, units, wallets[k]))
					want[addrs[k]] += units
				}
				orders = append(orders, placed...)
				return placed
			}

			By("delivering the completed orders")
			place(completed)
			Eventually(allDelivered(&orders), 3*time.Minute, 200*time.Millisecond).Should(Succeed())
			for w.chain.Head() < depth+10 {
				time.Sleep(50 * time.Millisecond) // the miner grows the chain past the fork point
			}

			By("recording the in-flight orders' mints, then rolling the chain back and dropping the node's pool")
			flying := place(inFlight)
			Eventually(func(g Gomega) {
				for _, o := range flying {
					recordedTx(g, o)
				}
			}, 2*time.Minute, 100*time.Millisecond).Should(Succeed())
			stopMiner()
			recorded := uint64(len(orders))
			before := nonceAt(w)
			keep := w.chain.Head() - depth
			forkBack(w, keep)
			if depth >= 10 {
				Expect(nonceAt(w)).To(BeNumerically("<", before), "the rollback took mined transactions")
			}
			head, err := w.chain.Client.HeaderByNumber(ctx, nil)
			Expect(err).NotTo(HaveOccurred())
			GinkgoWriter.Printf("rollback of %d blocks: the chain's nonce fell from %d to %d (%d recorded); base fee now %s wei\n", depth, before, nonceAt(w), recorded, head.BaseFee)

			By("the agent healing the chain while blocks come")
			stopMiner = w.chain.Mine(50 * time.Millisecond)
			Eventually(func(g Gomega) {
				allDelivered(&orders)(g)
				g.Expect(nonceAt(w)).To(Equal(recorded))
			}, 3*time.Minute, 200*time.Millisecond).Should(Succeed())
			stopMiner()
			w.chain.Commit(1)

			for i, a := range addrs {
				Expect(w.chain.Balance(w.chain.Token, a)).To(Equal(want[a]), "wallet %d", i)
			}
			mints := 0
			for _, a := range addrs {
				mints += len(w.chain.Mints(w.chain.Token, a))
			}
			Expect(mints).To(Equal(len(orders)), "one mint per order: none twice, none lost")
			Expect(nonceAt(w)).To(Equal(recorded), "no new nonce for an old effect")
			for _, o := range orders {
				tx := get(o).Status.Chain.Transaction
				var mined *types.Receipt
				for _, a := range tx.Attempts {
					if r, err := w.chain.Client.TransactionReceipt(ctx, common.HexToHash(a.Hash)); err == nil {
						mined = r
					}
				}
				Expect(mined).NotTo(BeNil(), "%s: a recorded attempt is on the chain", o.Name)
				Expect(mined.Status).To(Equal(types.ReceiptStatusSuccessful), o.Name)
			}
		},
		Entry("1 block", uint64(1), 20, 10),
		Entry("10 blocks", uint64(10), 20, 10),
		Entry("100 blocks, 100 completed and 50 in-flight orders", uint64(100), 100, 50),
	)
})

// delivered says whether the order's delivery is completed; an order whose delivery was
// initiated is moved to DELIVERY_INITIATED, as the order controller would, so that the
// agent follows its mint to the end.
func delivered(o *investv1.Order) bool {
	GinkgoHelper()
	cur := get(o)
	if cur.Status.Settlement.DeliveryCompleted != nil {
		return true
	}
	if cur.Status.State == investv1.StateExecuted && cur.Status.Settlement.DeliveryInitiated != nil {
		cur.Status.State = investv1.StateDeliveryInitiated
		cur.Status.History = append(cur.Status.History, investv1.OrderTransition{State: investv1.StateDeliveryInitiated, At: metav1.Now(), Reason: "SetByTest"})
		_ = k8s.Status().Update(ctx, cur) // a conflict: the next look moves it
	}
	return false
}

// allDelivered checks that every order's delivery is completed, moving on each one whose
// delivery was initiated (delivered).
func allDelivered(orders *[]*investv1.Order) func(Gomega) {
	return func(g Gomega) {
		var waiting []string
		for _, o := range *orders {
			if !delivered(o) {
				waiting = append(waiting, o.Name)
			}
		}
		g.Expect(waiting).To(BeEmpty(), "orders whose delivery is not completed")
	}
}

// nonceAt is the agent's nonce at the chain's latest block: its transactions mined.
func nonceAt(w *world) uint64 {
	GinkgoHelper()
	n, err := w.chain.Client.NonceAt(ctx, w.chain.Agent.Address(), nil)
	Expect(err).NotTo(HaveOccurred())
	return n
}

// forkBack makes the chain forget every block above keep and drops the node's pool (the
// forgotten transactions the reorganisation puts back in it): as a node restored from an
// older snapshot, only the agent can bring them back.
func forkBack(w *world, keep uint64) {
	GinkgoHelper()
	h, err := w.chain.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(keep))
	Expect(err).NotTo(HaveOccurred())
	w.chain.Backend.Rollback()
	Expect(w.chain.Backend.Fork(h.Hash())).To(Succeed())
	w.chain.Backend.Rollback()
	w.chain.Commit(1)
	w.chain.Backend.Rollback()
	Expect(w.chain.Head()).To(Equal(keep + 1))
}
