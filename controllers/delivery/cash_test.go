package delivery

import (
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/placement"
)

// cashWorld is the world's cash on chain: the euro token, the settlement contract (the
// operator's key its agent, itself an agent of the share token) and the fund's fee wallet.
type cashWorld struct {
	cash, dvp, fees common.Address
	cashABI         *contracts.CashToken
	dvpABI          *contracts.DeliveryVersusPayment
	payer           *chain.KeySigner
}

func (w *world) cashOnChain() *cashWorld {
	GinkgoHelper()
	c := &cashWorld{cashABI: contracts.NewCashToken(), dvpABI: contracts.NewDeliveryVersusPayment()}
	ch := w.chain
	cash, err := chain.DeployCashToken(ch.Ctx, ch.Client, ch.Admin, ch.ChainID, "Euro settlement token", "EURS", ch.Admin.Address(), ch.Admin.Address())
	Expect(err).NotTo(HaveOccurred())
	ch.Mined(cash.Tx)
	dvp, err := chain.DeployDeliveryVersusPayment(ch.Ctx, ch.Client, ch.Admin, ch.ChainID, ch.Admin.Address(), ch.Agent.Address())
	Expect(err).NotTo(HaveOccurred())
	ch.Mined(dvp.Tx)
	c.cash, c.dvp, c.fees = cash.Address, dvp.Address, ch.NewWallet()
	ch.AsAdmin(ch.Token, ch.TokenABI.PackGrantRole(chainAgentRole, c.dvp))
	c.payer = ch.Investors(1)[0]
	ch.AsAdmin(c.cash, c.cashABI.PackMint(c.payer.Address(), big.NewInt(1_000_000_000)))
	return c
}

// chainAgentRole is the share token's AGENT_ROLE.
var chainAgentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))

// onChain is the quote's cash leg of the market.
func (c *cashWorld) onChain() *investv1.CashOnChain {
	return &investv1.CashOnChain{Settlement: c.dvp.Hex(), CashToken: c.cash.Hex(), FeeCollector: c.fees.Hex()}
}

// order is a SECONDARY order of the world with cash on chain, as placement quotes it.
func (c *cashWorld) order(w *world, side investv1.OrderSide, units int64, wallet *investv1.Wallet) *investv1.Order {
	GinkgoHelper()
	o := w.secondaryOrderWith(side, units, wallet, func(o *investv1.Order) {
		o.Spec.Quote.CashOnChain = &investv1.OrderCashOnChain{CashOnChain: *c.onChain()}
		if side == investv1.SideBuy {
			o.Spec.Quote.CashOnChain.EscrowReference = placement.EscrowReference(o.Namespace, o.Name)
		}
	})
	return o
}

// escrow is the payer's escrow of amount for the BUY o, approved and mined.
func (c *cashWorld) escrow(w *world, o *investv1.Order, amount int64) common.Hash {
	GinkgoHelper()
	ref, ok := escrowRef(o)
	Expect(ok).To(BeTrue())
	w.chain.Send(c.payer, c.cash, c.cashABI.PackApprove(c.dvp, big.NewInt(amount)))
	return w.chain.Send(c.payer, c.dvp, c.dvpABI.PackEscrow(ref, c.cash, big.NewInt(amount))).TxHash
}

// paidPair is a SELL of 4 of a seller's 10 units and a BUY of 4 whose 4,000,000 are
// escrowed, with the seller's and the buyer's wallet addresses.
func (c *cashWorld) paidPair(w *world) (sell, buy *investv1.Order, seller, buyer common.Address) {
	GinkgoHelper()
	buyWal, buyer := w.wallet(true)
	s1 := w.otherAccount()
	wal1, seller := s1.wallet(true)
	w.chain.Mint(w.chain.Token, seller, 10)
	sell = c.order(s1, investv1.SideSell, 4, wal1)
	buy = c.order(w, investv1.SideBuy, 4, buyWal)
	c.escrow(w, buy, 4_000_000)
	return sell, buy, seller, buyer
}

// decodeFirst is the order's first recorded attempt, decoded.
func decodeFirst(o *investv1.Order) (*types.Transaction, error) {
	return outbox.Decode(o.Status.Chain.Transaction.Attempts[0])
}

var _ = Describe("Cash on chain: delivery versus payment in one transaction", func() {
	It("records a BUY's escrow as its payment, settles it by one swap that moves the units, pays each seller its net and the fund the fees and returns the residual, and records the SELLs paid by it", func() {
		w := newWorld()
		c := w.cashOnChain()
		buyWal, buyAddr := w.wallet(true)
		s1, s2 := w.otherAccount(), w.otherAccount()
		wal1, addr1 := s1.wallet(true)
		wal2, addr2 := s2.wallet(true)
		w.chain.Mint(w.chain.Token, addr1, 20)
		w.chain.Mint(w.chain.Token, addr2, 20)
		supply := w.chain.TotalSupply(w.chain.Token)

		// A BUY of 20 units paid 20,000,000 (100 EUR a unit); 18 units are for sale.
		sell1, sell2 := c.order(s1, investv1.SideSell, 12, wal1), c.order(s2, investv1.SideSell, 6, wal2)
		buy := c.order(w, investv1.SideBuy, 20, buyWal)
		moveTo(buy, investv1.StatePlaced, investv1.StateAwaitingPayment)

		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		// The escrow is mined by the spec itself (the simulated chain takes one miner at a
		// time); blocks come every 200 ms once it is paid.
		escrowTx := c.escrow(w, buy, 20_000_000)
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.PaymentReceived }, timeout, interval).ShouldNot(BeNil())
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		paid := get(buy).Status.Settlement.PaymentReceived
		Expect(paid.Reference).To(Equal(buy.Spec.Quote.CashOnChain.EscrowReference))
		Expect(paid.TransactionHash).To(Equal(escrowTx.Hex()), "the evidence names the escrow's transaction")
		Expect(paid.RecordedBy).To(Equal(Name))

		// Matched at 100 EUR with a 1% fee on each side: the BUY's 18 units cost 18,180,000,
		// the sellers get 11,880,000 and 5,940,000, the fund 360,000, and 1,820,000 goes back.
		w.matchWith([]*investv1.Order{sell1, sell2}, []*investv1.Order{buy}, &investv1.MatchingPolicy{BuyFeeRate: 100, SellFeeRate: 100})
		payerBefore := w.chain.Balance(c.cash, c.payer.Address())

		transferred(buy)
		cur := get(buy)
		signed, err := decodeFirst(cur)
		Expect(err).NotTo(HaveOccurred())
		Expect(*signed.To()).To(Equal(c.dvp), "the delivery is the settlement contract's swap")
		ref, _ := escrowRef(cur)
		Expect(orderRef(cur, lifecycle.StepDeliveryInitiated)).To(Equal(ref), "the swap carries the escrow's reference to the share token")

		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(Equal(int64(18)))
		Expect(w.chain.Balance(w.chain.Token, addr1)).To(Equal(int64(8)))
		Expect(w.chain.Balance(w.chain.Token, addr2)).To(Equal(int64(14)))
		Expect(w.chain.TotalSupply(w.chain.Token)).To(Equal(supply), "no unit minted or burned")
		Expect(w.chain.Balance(c.cash, addr1)).To(Equal(int64(11_880_000)))
		Expect(w.chain.Balance(c.cash, addr2)).To(Equal(int64(5_940_000)))
		Expect(w.chain.Balance(c.cash, c.fees)).To(Equal(int64(360_000)))
		Expect(w.chain.Balance(c.cash, c.payer.Address())-payerBefore).To(Equal(int64(1_820_000)), "the residual went back to the payer")
		Expect(w.chain.Balance(c.cash, c.dvp)).To(BeZero(), "nothing stays in escrow")

		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.ResidualRefundCompleted }, timeout, interval).ShouldNot(BeNil())
		Expect(get(buy).Status.Settlement.ResidualRefundSent.TransactionHash).To(Equal(cur.Status.Settlement.DeliveryCompleted.TransactionHash))
		for _, s := range []*investv1.Order{sell1, sell2} {
			Eventually(func() *investv1.SettlementRecord { return get(s).Status.Settlement.PaymentCompleted }, timeout, interval).ShouldNot(BeNil())
			st := get(s).Status.Settlement
			Expect(st.UnitsDelivered.TransactionHash).To(Equal(cur.Status.Settlement.DeliveryCompleted.TransactionHash))
			Expect(st.PaymentSent.TransactionHash).To(Equal(st.UnitsDelivered.TransactionHash), "the seller was paid by the swap that took its units")
		}
	})

	It("gives a cancelled BUY's escrow back to its payer once, and records the refund from the chain", func() {
		w := newWorld()
		c := w.cashOnChain()
		buyWal, _ := w.wallet(true)
		buy := c.order(w, investv1.SideBuy, 5, buyWal)
		moveTo(buy, investv1.StatePlaced, investv1.StateAwaitingPayment)
		agent := w.startAgent(agentOptions{})
		before := w.chain.Balance(c.cash, c.payer.Address())
		c.escrow(w, buy, 5_000_000) // mined by the spec, before the miner runs
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.PaymentReceived }, timeout, interval).ShouldNot(BeNil())
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()

		// Cancelled after its payment, as the order controller cancels it: a refund is owed.
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(buy), buy)).To(Succeed())
			buy.Status.State = investv1.StateCancelled
			buy.Status.Refund = lifecycle.NewRefund(buy)
			buy.Status.History = append(buy.Status.History, investv1.OrderTransition{State: investv1.StateCancelled, At: metav1.Now(), Reason: "SetByTest"})
			g.Expect(k8s.Status().Update(ctx, buy)).To(Succeed())
		}, timeout, interval).Should(Succeed())
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.RefundCompleted }, timeout, interval).ShouldNot(BeNil())
		Expect(w.chain.Balance(c.cash, c.payer.Address())).To(Equal(before), "the payer has its escrow back")
		refund := get(buy).Status.Settlement.RefundSent
		Expect(refund.TransactionHash).To(Equal(get(buy).Status.Chain.Transaction.Receipt.Hash), "recorded before broadcast, named once final")

		// A restarted agent finds the refund recorded and signs nothing.
		agent.Stop()
		nonce, err := w.chain.Client.PendingNonceAt(ctx, w.chain.Agent.Address())
		Expect(err).NotTo(HaveOccurred())
		again := w.startAgent(agentOptions{})
		defer again.Stop()
		Consistently(func() (uint64, error) { return w.chain.Client.PendingNonceAt(ctx, w.chain.Agent.Address()) }, time.Second, interval).Should(Equal(nonce))
	})

	It("refuses a swap that reverts on a frozen buyer's wallet: no unit and no euro moves, the cash stays in escrow", func() {
		w := newWorld()
		c := w.cashOnChain()
		sell, buy, addr1, buyAddr := c.paidPair(w)
		w.chain.Freeze(w.chain.Token, buyAddr, true)
		w.matchWith([]*investv1.Order{sell}, []*investv1.Order{buy}, &investv1.MatchingPolicy{})
		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		Eventually(func() *investv1.ChainRefusal {
			if ch := get(buy).Status.Chain; ch != nil {
				return ch.Refused
			}
			return nil
		}, timeout, interval).ShouldNot(BeNil())
		Expect(get(buy).Status.Chain.Refused.Reason).To(Equal(fmt.Sprintf("WalletFrozen(%s)", buyAddr.Hex())))
		Expect(get(buy).Status.Chain.Transaction).To(BeNil(), "nothing was signed")
		Expect(w.chain.Balance(w.chain.Token, addr1)).To(Equal(int64(10)))
		Expect(w.chain.Balance(c.cash, addr1)).To(BeZero())
		Expect(w.chain.Balance(c.cash, c.dvp)).To(Equal(int64(4_000_000)), "the cash stays in escrow")
	})

	It("swaps once when a BUY's record of its swap is lost with an etcd restore: the share token's reference recovers it, the sellers are paid once", func() {
		w := newWorld()
		c := w.cashOnChain()
		sell, buy, addr1, buyAddr := c.paidPair(w)
		w.matchWith([]*investv1.Order{sell}, []*investv1.Order{buy}, &investv1.MatchingPolicy{SellFeeRate: 50})
		snap := takeSnapshot(buy) // EXECUTED, nothing recorded on chain
		stopMiner := w.chain.Mine(50 * time.Millisecond)
		defer func() { stopMiner() }()
		agent := w.startAgent(agentOptions{})
		transferred(buy)
		swapHash := get(buy).Status.Settlement.DeliveryCompleted.TransactionHash
		agent.Stop()
		nonce := nonceAt(w)

		By("restoring the BUY from the snapshot and restarting the agent")
		snap.restore(buy)
		Expect(get(buy).Status.Chain).To(BeNil())
		agent = w.startAgent(agentOptions{})
		defer agent.Stop()
		Eventually(func(g Gomega) {
			ch := get(buy).Status.Chain
			g.Expect(ch).NotTo(BeNil())
			g.Expect(ch.Recovered).NotTo(BeNil())
		}, timeout, interval).Should(Succeed())
		Expect(get(buy).Status.Chain.Recovered.TransactionHash).To(Equal(swapHash))
		Expect(nonceAt(w)).To(Equal(nonce), "nothing new was signed")
		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(Equal(int64(4)), "moved once")
		Expect(w.chain.Balance(c.cash, addr1)).To(Equal(int64(3_980_000)), "the seller paid once: 4,000,000 less its 0.5% fee")
		Expect(w.chain.Balance(c.cash, c.fees)).To(Equal(int64(20_000)))
	})

	It("records an escrow refunded while its record was lost from the chain, and never refunds it twice", func() {
		w := newWorld()
		c := w.cashOnChain()
		buyWal, _ := w.wallet(true)
		buy := c.order(w, investv1.SideBuy, 3, buyWal)
		moveTo(buy, investv1.StatePlaced, investv1.StateAwaitingPayment)
		c.escrow(w, buy, 3_000_000)
		stopMiner := w.chain.Mine(50 * time.Millisecond)
		defer func() { stopMiner() }()
		agent := w.startAgent(agentOptions{})
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.PaymentReceived }, timeout, interval).ShouldNot(BeNil())
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(buy), buy)).To(Succeed())
			buy.Status.State = investv1.StateCancelled
			buy.Status.Refund = lifecycle.NewRefund(buy)
			g.Expect(k8s.Status().Update(ctx, buy)).To(Succeed())
		}, timeout, interval).Should(Succeed())
		snap := takeSnapshot(buy) // cancelled, the refund owed, nothing signed for it
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.RefundCompleted }, timeout, interval).ShouldNot(BeNil())
		agent.Stop()
		nonce := nonceAt(w)
		payer := w.chain.Balance(c.cash, c.payer.Address())

		By("restoring the BUY from the snapshot and restarting the agent")
		snap.restore(buy)
		Expect(get(buy).Status.Settlement.RefundSent).To(BeNil())
		agent = w.startAgent(agentOptions{})
		defer agent.Stop()
		Eventually(func() *investv1.SettlementRecord { return get(buy).Status.Settlement.RefundCompleted }, timeout, interval).ShouldNot(BeNil())
		rec := get(buy).Status.Settlement.RefundSent
		Expect(rec.Reference).To(Equal(buy.Spec.Quote.CashOnChain.EscrowReference))
		Expect(rec.BlockNumber).To(BeNumerically(">", 0), "the block the chain shows the escrow closed in")
		Expect(nonceAt(w)).To(Equal(nonce), "nothing new was signed")
		Expect(w.chain.Balance(c.cash, c.payer.Address())).To(Equal(payer), "refunded once")
	})
})
