package delivery

import (
	"fmt"
	"math/big"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/secondary"
)

// windowDays gives each spec a window date of its own (the suite's ISIN is shared).
var windowDays atomic.Int32

// match records a matching window whose book holds the SELLs and the BUYs (units each, in
// this priority), as the window controller records it, and gives each order its fill and
// moves it to EXECUTED, as the window controller writes them. Prices: a NAV of 100 EUR,
// no spread, no fee.
func (w *world) match(sells, buys []*investv1.Order) *investv1.MatchingWindow {
	GinkgoHelper()
	return w.matchWith(sells, buys, nil)
}

// matchWith is match under a policy with fees: each order's contract note has its fee and
// net, a BUY's the amount it paid (its quote's), the amount due and the residual, as the
// window controller writes them. A nil policy is match's.
func (w *world) matchWith(sells, buys []*investv1.Order, policy *investv1.MatchingPolicy) *investv1.MatchingWindow {
	GinkgoHelper()
	recorded := policy
	if recorded == nil {
		recorded = &investv1.MatchingPolicy{}
	}
	day := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(windowDays.Add(1)))
	date := day.Format(time.DateOnly)
	mw := &investv1.MatchingWindow{ObjectMeta: metav1.ObjectMeta{Name: lifecycle.WindowName(w.isin, date)}, Spec: investv1.MatchingWindowSpec{ISIN: w.isin, Date: date}}
	Expect(k8s.Create(ctx, mw)).To(Succeed())
	var book []string
	for _, o := range append(append([]*investv1.Order{}, sells...), buys...) {
		book = append(book, secondary.Entry{Side: o.Spec.Side, Units: o.Spec.AmountOfUnits, Namespace: o.Namespace, Name: o.Name}.String())
	}
	at := metav1.NewTime(time.Now().UTC().Truncate(time.Second))
	mw.Status = investv1.MatchingWindowStatus{
		Phase: investv1.WindowMatching, NAV: &investv1.DealingNAV{NAVPerShare: 1_000_000, Date: date, RecordedAt: at},
		Policy: recorded, Book: book, MatchedAt: &at,
	}
	Expect(k8s.Status().Update(ctx, mw)).To(Succeed())
	res, _, err := secondary.Replay(date, 1_000_000, secondary.PolicyOf(recorded), book)
	Expect(err).NotTo(HaveOccurred())
	for _, f := range res.Fills {
		for _, o := range append(append([]*investv1.Order{}, sells...), buys...) {
			if o.Namespace+"/"+o.Name != f.ID {
				continue
			}
			Eventually(func(g Gomega) {
				g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), o)).To(Succeed())
				o.Status.Strike = &investv1.OrderContractNote{TradeDate: date, NAVDate: date, NAVPerShare: f.Price, Units: f.Filled,
					GrossAmount: f.Gross, NetAmount: f.Gross, SettlementDate: date, StruckAt: at,
					Secondary: &investv1.OrderSecondaryFill{Window: mw.Name, Outcome: string(f.Outcome), RequestedUnits: f.Requested, NAVPerShare: 1_000_000}}
				if policy != nil {
					n := o.Status.Strike
					n.FeeAmount, n.NetAmount = f.Fee, f.Net
					if o.Spec.Side == investv1.SideBuy {
						n.NetAmount = f.Gross
						n.Secondary.AmountPaid, n.Secondary.AmountDue = o.Spec.Quote.Amount, f.ToPay
						n.Residual = o.Spec.Quote.Amount - f.ToPay
					}
				}
				g.Expect(k8s.Status().Update(ctx, o)).To(Succeed())
			}, timeout, interval).Should(Succeed())
		}
	}
	for _, o := range sells {
		moveTo(o, investv1.StatePlaced, investv1.StateExecuted)
	}
	for _, o := range buys {
		moveTo(o, investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted)
	}
	return mw
}

// secondaryOrder is a SECONDARY order of units of the world's account from wallet, placed
// for a window (its quote names one); admission is not served in this suite.
func (w *world) secondaryOrder(side investv1.OrderSide, units int64, wallet *investv1.Wallet) *investv1.Order {
	GinkgoHelper()
	return w.secondaryOrderWith(side, units, wallet, nil)
}

// secondaryOrderWith is secondaryOrder with a change made before it is created.
func (w *world) secondaryOrderWith(side investv1.OrderSide, units int64, wallet *investv1.Wallet, change func(*investv1.Order)) *investv1.Order {
	GinkgoHelper()
	o := fixtures.BuyOrder(w.ns, w.account, string(w.isin), units)
	o.Spec.Side, o.Spec.Market, o.Spec.WalletID = side, investv1.MarketSecondary, investv1.ObjectID(wallet.Name)
	o.Spec.Quote = &investv1.OrderQuote{Amount: units * 1_000_000, WalletID: investv1.ObjectID(wallet.Name), FeeSource: investv1.FeeSourceDefault,
		FundDetails: investv1.OrderFundDetails{ISIN: w.isin, FundID: investv1.ObjectID(controlplane.NewID()), ShareClassID: investv1.ObjectID(controlplane.NewID())},
		Window:      &investv1.OrderWindow{Date: "2026-04-01", Deadline: metav1.NewTime(time.Now().UTC())}}
	if change != nil {
		change(o)
	}
	Expect(k8s.Create(ctx, o)).To(Succeed())
	return o
}

// transferred waits for a BUY's transfer to be final, moving it on as the order
// controller would.
func transferred(o *investv1.Order) {
	GinkgoHelper()
	Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
	if get(o).Status.State == investv1.StateExecuted {
		moveTo(o, investv1.StateDeliveryInitiated)
	}
	Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
}

var _ = Describe("Delivery versus payment on the secondary market", func() {
	It("moves a SECONDARY BUY's units from its sellers' wallets to its wallet, never minting or burning, and records the SELLs' units delivered after, with the block they left at", func() {
		w := newWorld()
		buyWal, buyAddr := w.wallet(true)
		s1, s2 := w.otherAccount(), w.otherAccount()
		wal1, addr1 := s1.wallet(true)
		wal2, addr2 := s2.wallet(true)
		w.chain.Mint(w.chain.Token, addr1, 20)
		w.chain.Mint(w.chain.Token, addr2, 20)
		w.chain.Commit(1)
		supply := w.chain.TotalSupply(w.chain.Token)

		sell1, sell2 := s1.secondaryOrder(investv1.SideSell, 12, wal1), s2.secondaryOrder(investv1.SideSell, 6, wal2)
		buy := w.secondaryOrder(investv1.SideBuy, 18, buyWal)
		w.match([]*investv1.Order{sell1, sell2}, []*investv1.Order{buy})

		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		transferred(buy)
		cur := get(buy)
		signed, err := outbox.Decode(cur.Status.Chain.Transaction.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackSettleWithRef(orderRef(cur, lifecycle.StepDeliveryInitiated),
			[]common.Address{addr1, addr2}, buyAddr, []*big.Int{big.NewInt(12), big.NewInt(6)}, 0)),
			"the recorded bytes move each seller's units to the buyer under the BUY's effect reference")
		Expect(orderRef(cur, lifecycle.StepDeliveryInitiated)).To(Equal(chain.EffectRef("Order", cur.Namespace, cur.Name, string(cur.UID), chain.EffectSettle)))

		for _, s := range []*investv1.Order{sell1, sell2} {
			Eventually(func() *investv1.SettlementRecord { return get(s).Status.Settlement.UnitsDelivered }, timeout, interval).ShouldNot(BeNil())
			Expect(get(s).Status.Settlement.UnitsDelivered.TransactionHash).To(Equal(cur.Status.Settlement.DeliveryCompleted.TransactionHash))
			Expect(get(s).Status.Settlement.UnitsDelivered.BlockNumber).To(Equal(cur.Status.Chain.Transaction.Receipt.BlockNumber),
				"unitsDelivered names the block the units left at, for the next SELL's on-chain check")
			Expect(get(s).Status.Chain).To(BeNil(), "a SECONDARY SELL is never burned")
		}
		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(Equal(int64(18)))
		Expect(w.chain.Balance(w.chain.Token, addr1)).To(Equal(int64(8)))
		Expect(w.chain.Balance(w.chain.Token, addr2)).To(Equal(int64(14)))
		Expect(w.chain.TotalSupply(w.chain.Token)).To(Equal(supply), "totalSupply is unchanged by a secondary trade")
		Expect(w.chain.Mints(w.chain.Token, buyAddr)).To(BeEmpty())
		Expect(w.chain.Burns(w.chain.Token, addr1)).To(BeEmpty())
		var moved []string
		for _, t := range w.chain.Transfers(w.chain.Token) {
			if t.To == buyAddr {
				moved = append(moved, fmt.Sprintf("%s %d", t.From.Hex(), t.Units))
			}
		}
		Expect(moved).To(ConsistOf(addr1.Hex()+" 12", addr2.Hex()+" 6"))
	})

	It("refuses the transfer when a seller's wallet was frozen after matching: nothing moves, the BUY stalls and the SELL waits unpaid", func() {
		w := newWorld()
		buyWal, buyAddr := w.wallet(true)
		s := w.otherAccount()
		sellWal, sellAddr := s.wallet(true)
		w.chain.Mint(w.chain.Token, sellAddr, 10)
		w.chain.Commit(1)
		sell := s.secondaryOrder(investv1.SideSell, 10, sellWal)
		buy := w.secondaryOrder(investv1.SideBuy, 10, buyWal)
		w.match([]*investv1.Order{sell}, []*investv1.Order{buy})
		w.chain.Freeze(w.chain.Token, sellAddr, true)
		w.chain.Commit(1)

		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		Eventually(func() *investv1.ChainRefusal {
			if c := get(buy).Status.Chain; c != nil {
				return c.Refused
			}
			return nil
		}, timeout, interval).ShouldNot(BeNil())
		Expect(get(buy).Status.Chain.Refused.Reason).To(Equal(fmt.Sprintf("WalletFrozen(%s)", sellAddr.Hex())))
		Expect(get(buy).Status.Chain.Transaction).To(BeNil(), "nothing was signed")
		Consistently(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.UnitsDelivered }, time.Second, interval).Should(BeNil())
		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(BeZero())
		Expect(w.chain.Balance(w.chain.Token, sellAddr)).To(Equal(int64(10)))
		d := lifecycle.Next(get(buy), lifecycle.Facts{Now: time.Now(), FundFound: true, Tradeable: true, Priced: true})
		Expect(d.Wait).NotTo(BeNil())
		Expect(d.Wait.Reason).To(Equal(lifecycle.WaitTokenTransactionRefused))
		Expect(d.Wait.Message).To(ContainSubstring("the chain refuses the transfer"))

		By("the wallet unfrozen, the agent signs it")
		w.chain.Freeze(w.chain.Token, sellAddr, false)
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		transferred(buy)
		Eventually(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.UnitsDelivered }, timeout, interval).ShouldNot(BeNil())
		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(Equal(int64(10)))
	})

	It("settles once when the agent is killed between recording the transfer and broadcasting it", func() {
		w := newWorld()
		buyWal, buyAddr := w.wallet(true)
		s := w.otherAccount()
		sellWal, sellAddr := s.wallet(true)
		w.chain.Mint(w.chain.Token, sellAddr, 10)
		w.chain.Commit(1)
		sell := s.secondaryOrder(investv1.SideSell, 4, sellWal)
		buy := w.secondaryOrder(investv1.SideBuy, 4, buyWal)
		w.match([]*investv1.Order{sell}, []*investv1.Order{buy})

		dead := &deadBroadcast{Backend: w.chain.Client}
		first := w.startAgent(agentOptions{backend: dead})
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, buy) }, timeout, interval).Should(Succeed())
		first.Stop()
		w.chain.Commit(2)
		Expect(pendingNonce(w.chain)).To(BeZero(), "nothing reached the node")

		second := w.startAgent(agentOptions{})
		defer second.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		transferred(buy)
		Expect(get(buy).Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(tx.Attempts[0].Hash), "the recorded bytes, not a new transaction")
		Eventually(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.UnitsDelivered }, timeout, interval).ShouldNot(BeNil())
		Expect(w.chain.Balance(w.chain.Token, buyAddr)).To(Equal(int64(4)))
		Expect(w.chain.Balance(w.chain.Token, sellAddr)).To(Equal(int64(6)))
	})
})

// settleWorld is a matched window of two sellers (10 and 8 units, each holding 20) and three
// BUYs of the world's account (6 units each, each to a wallet of its own), every one
// EXECUTED with its fill, nothing sent.
type settleWorld struct {
	sells     []*investv1.Order
	sellAddrs []common.Address
	buys      []buyer
	supply    int64
}

func (w *world) matchedForBatch() settleWorld {
	GinkgoHelper()
	var sw settleWorld
	for _, units := range []int64{10, 8} {
		s := w.otherAccount()
		wal, addr := s.wallet(true)
		w.chain.Mint(w.chain.Token, addr, 20)
		sw.sells = append(sw.sells, s.secondaryOrder(investv1.SideSell, units, wal))
		sw.sellAddrs = append(sw.sellAddrs, addr)
	}
	w.chain.Commit(1)
	sw.supply = w.chain.TotalSupply(w.chain.Token)
	var buys []*investv1.Order
	for range 3 {
		wal, addr := w.wallet(true)
		o := w.secondaryOrder(investv1.SideBuy, 6, wal)
		buys = append(buys, o)
		sw.buys = append(sw.buys, buyer{o: o, addr: addr, units: 6})
	}
	w.match(sw.sells, buys)
	return sw
}

var _ = Describe("Batch settlements of a matching window", func() {
	It("settles the SECONDARY BUYs of a window in one batchSettleWithRefs transaction recorded in a Settle batch before broadcast, never minting or burning", func() {
		w := newWorld()
		sw := w.matchedForBatch()
		agent := w.startAgent(agentOptions{batchSize: 3, initiateAfter: time.Minute})
		defer agent.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		for _, x := range sw.buys {
			Eventually(func() *investv1.SettlementRecord { return get(x.o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		}
		batches := w.batches()
		Expect(batches).To(HaveLen(1))
		b := batches[0]
		Expect(b.Spec.Kind).To(Equal(investv1.DeliveryBatchSettle))
		Expect(b.Status.Included).To(HaveLen(3))
		hash := b.Status.Transaction.Attempts[0].Hash
		signed, err := outbox.Decode(b.Status.Transaction.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		byName := map[string]buyer{}
		for _, x := range sw.buys {
			byName[x.o.Name] = x
		}
		var (
			refs    [][32]byte
			to      []common.Address
			counts  []*big.Int
			from    []common.Address
			amounts []*big.Int
		)
		for _, m := range b.Spec.Members {
			x := byName[m.Order]
			refs, to = append(refs, orderRef(get(x.o), lifecycle.StepDeliveryInitiated)), append(to, x.addr)
			counts = append(counts, big.NewInt(int64(len(m.Legs))))
			var sum int64
			for _, l := range m.Legs {
				from, amounts = append(from, common.HexToAddress(l.From)), append(amounts, big.NewInt(l.Units))
				sum += l.Units
			}
			Expect(sum).To(Equal(x.units), "%s: its legs add up to its fill", m.Order)
		}
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackBatchSettleWithRefs(refs, to, make([]uint64, len(to)), counts, from, amounts)),
			"the recorded bytes settle each BUY from the window's pairing under its own effect reference")
		for _, x := range sw.buys {
			cur := get(x.o)
			Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(hash))
			Expect(cur.Status.Chain.Batch).To(Equal(b.Name))
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(int64(6)))
			Expect(w.chain.Mints(w.chain.Token, x.addr)).To(BeEmpty())
		}
		for i, s := range sw.sells {
			Eventually(func() *investv1.SettlementRecord { return get(s).Status.Settlement.UnitsDelivered }, timeout, interval).ShouldNot(BeNil())
			Expect(get(s).Status.Settlement.UnitsDelivered.TransactionHash).To(Equal(hash))
			Expect(w.chain.Balance(w.chain.Token, sw.sellAddrs[i])).To(Equal(20 - s.Spec.AmountOfUnits))
		}
		Expect(w.chain.TotalSupply(w.chain.Token)).To(Equal(sw.supply), "totalSupply is unchanged by a secondary trade")
		Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction for the three BUYs")
	})

	It("falls back to settling each BUY on its own when the batch settlement reverts on a frozen buyer's wallet: that one is refused, the others settle", func() {
		w := newWorld()
		sw := w.matchedForBatch()
		frozen := sw.buys[1]
		w.chain.Freeze(w.chain.Token, frozen.addr, true)
		w.chain.Commit(1)
		agent := w.startAgent(agentOptions{batchSize: 3})
		defer agent.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		Eventually(func() *investv1.ChainRefusal {
			if c := get(frozen.o).Status.Chain; c != nil {
				return c.Refused
			}
			return nil
		}, timeout, interval).ShouldNot(BeNil())
		Expect(get(frozen.o).Status.Chain.Refused.Reason).To(Equal(fmt.Sprintf("WalletFrozen(%s)", frozen.addr.Hex())))
		for _, x := range []buyer{sw.buys[0], sw.buys[2]} {
			transferred(x.o)
			Expect(get(x.o).Status.Chain.Batch).To(BeEmpty(), "settled on its own")
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(int64(6)))
		}
		Expect(w.batches()).To(BeEmpty(), "the former's pre-flight reverted: no batch made")
		Expect(w.chain.Balance(w.chain.Token, frozen.addr)).To(BeZero())
		Expect(w.chain.TotalSupply(w.chain.Token)).To(Equal(sw.supply))
	})

	It("settles a batch once when the agent is killed between recording the batch settlement and broadcasting it", func() {
		w := newWorld()
		sw := w.matchedForBatch()
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

		second := w.startAgent(agentOptions{batchSize: 3})
		defer second.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()
		for _, x := range sw.buys {
			transferred(x.o)
			Expect(get(x.o).Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(rec.Attempts[0].Hash), "the recorded bytes, not a new transaction")
			Expect(w.chain.Balance(w.chain.Token, x.addr)).To(Equal(int64(6)))
		}
		for _, s := range sw.sells {
			Eventually(func() *investv1.SettlementRecord { return get(s).Status.Settlement.UnitsDelivered }, timeout, interval).ShouldNot(BeNil())
		}
		Expect(w.batches()).To(HaveLen(1))
		Expect(pendingNonce(w.chain)).To(Equal(uint64(1)), "one transaction signed in all")
		Expect(w.chain.TotalSupply(w.chain.Token)).To(Equal(sw.supply))
	})
})

var _ = Describe("The checks at matching", func() {
	It("read a wallet's registration, freeze, unlocked units and the token's pause from the chain", func() {
		w := newWorld()
		_, addr := w.wallet(true)
		_, key := w.holderWallet()
		w.chain.Mint(w.chain.Token, key.Address(), 10)
		w.chain.MintLocked(w.chain.Token, addr, 5, uint64(time.Now().Add(24*time.Hour).Unix()))
		w.chain.Commit(1)
		c := WalletChecker{Chain: w.chain.Client, Tokens: agentTokens(w)}
		st, err := c.Wallet(ctx, w.ns, w.isin, addr.Hex())
		Expect(err).NotTo(HaveOccurred())
		Expect(st).To(Equal(secondary.WalletState{Verified: true, Unlocked: 0}), "locked units are not for sale")

		By("a seller whose units left before matching")
		w.chain.Send(key, w.chain.Token, w.chain.TokenABI.PackTransfer(addr, big.NewInt(7)))
		st, err = c.Wallet(ctx, w.ns, w.isin, key.Address().Hex())
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Unlocked).To(Equal(int64(3)))

		w.chain.Freeze(w.chain.Token, key.Address(), true)
		w.chain.Pause(w.chain.Token)
		w.chain.Commit(1)
		st, err = c.Wallet(ctx, w.ns, w.isin, key.Address().Hex())
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Frozen && st.Paused).To(BeTrue())
		unregistered := w.chain.NewWallet()
		st, err = c.Wallet(ctx, w.ns, w.isin, unregistered.Hex())
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Verified).To(BeFalse())
	})
})

func agentTokens(w *world) agent.StaticTokens {
	return agent.StaticTokens{w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64()}}
}
