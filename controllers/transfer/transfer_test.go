package transfer_test

import (
	"encoding/json"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

var _ = Describe("Holdings follow the token", func() {
	It("a transfer between holders moves units from the sender's books to the receiver's", func() {
		w := newWorld(0)
		hs := w.holders(2)
		sender, receiver := hs[0], hs[1]
		w.bought(sender, 100, time.Now().Add(-time.Hour))
		Eventually(func(g Gomega) { g.Expect(w.holding(g, sender).Units).To(Equal(int64(100))) }, timeout, interval).Should(Succeed())

		x := w.indexer()
		x.Interval = 100 * time.Millisecond
		run(x) // as the manager runs it
		block := w.send(sender, receiver.address(), 40)
		w.confirm()

		Eventually(func(g Gomega) {
			s, r := w.holding(g, sender), w.holding(g, receiver)
			g.Expect(s.Units).To(Equal(int64(60)))
			g.Expect(s.TransferredOutUnits).To(Equal(int64(40)))
			g.Expect(s.TransferredInUnits).To(BeZero())
			g.Expect(r.Units).To(Equal(int64(40)))
			g.Expect(r.TransferredInUnits).To(Equal(int64(40)))
		}, timeout, interval).Should(Succeed())
		Expect(w.chain.Balance(w.chain.Token, sender.address())).To(Equal(int64(60)))
		Expect(w.chain.Balance(w.chain.Token, receiver.address())).To(Equal(int64(40)))

		By("one Transfer per side, each in its own account's namespace, naming only the counterparty's address")
		ts := w.transfers()
		Expect(ts).To(HaveLen(2))
		for _, t := range ts {
			own, other := sender, receiver
			dir := investv1.TransferOut
			if t.Namespace == receiver.ns {
				own, other, dir = receiver, sender, investv1.TransferIn
			}
			Expect(t.Namespace).To(Equal(own.ns))
			Expect(t.Labels).To(HaveKeyWithValue(investv1.LabelAccount, own.account.Name))
			Expect(t.Spec.Direction).To(Equal(dir))
			Expect(t.Spec.AccountID).To(Equal(investv1.ObjectID(own.account.Name)))
			Expect(t.Spec.WalletID).To(Equal(investv1.ObjectID(own.wallet.Name)))
			Expect(t.Spec.WalletAddress).To(Equal(own.address().Hex()))
			Expect(t.Spec.CounterpartyAddress).To(Equal(other.address().Hex()))
			Expect(t.Spec.Units).To(Equal(int64(40)))
			Expect(t.Spec.BlockNumber).To(Equal(int64(block)))
			Expect(t.Name).To(Equal(transfer.Name(commonHash(t.Spec.TransactionHash), uint(t.Spec.LogIndex), dir)))
			spec, err := json.Marshal(t.Spec)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(spec)).NotTo(ContainSubstring(other.account.Name), "never the other account")
			Expect(string(spec)).NotTo(ContainSubstring(other.wallet.Name), "never the other account's wallet")
		}
		Eventually(func() int64 {
			c := w.cursor()
			if c == nil {
				return -1
			}
			return c.IndexedBlock
		}, timeout, interval).Should(BeNumerically(">=", int64(block)))

		By("the Transfer is immutable")
		t := ts[0].DeepCopy()
		t.Spec.Units = 1
		Expect(k8s.Update(ctx, t)).To(MatchError(ContainSubstring("a transfer is immutable")))
	})

	It("units received by transfer are unlocked", func() {
		w := newWorld(30)
		hs := w.holders(2)
		sender, receiver := hs[0], hs[1]
		w.bought(sender, 50, time.Now().AddDate(0, 0, -60)) // past its lock-up
		w.send(sender, receiver.address(), 20)
		w.confirm()
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Eventually(func(g Gomega) {
			r := w.holding(g, receiver)
			g.Expect(r.Units).To(Equal(int64(20)))
			g.Expect(r.LockedUnits).To(BeZero())
			g.Expect(r.Lots).To(HaveLen(1))
			g.Expect(r.Lots[0].UnlocksAt.Time).To(Equal(r.Lots[0].AcquiredAt.Time), "a lot acquired at the block's time, unlocked then")
			s := w.holding(g, sender)
			g.Expect(s.Units).To(Equal(int64(30)))
			g.Expect(s.LockedUnits).To(BeZero())
		}, timeout, interval).Should(Succeed())
	})

	It("a transfer between two wallets of one account nets to zero", func() {
		w := newWorld(0)
		h := w.holders(1)[0]
		second := w.chain.Investors(1)[0]
		w.chain.Register(second.Address())
		Expect(k8s.Create(ctx, walletOf(h, second.Address().Hex()))).To(Succeed())
		w.bought(h, 70, time.Now().Add(-time.Hour))
		w.send(h, second.Address(), 70)
		w.confirm()
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(2))
		Eventually(func(g Gomega) {
			x := w.holding(g, h)
			g.Expect(x.Units).To(Equal(int64(70)))
			g.Expect(x.TransferredInUnits).To(Equal(int64(70)))
			g.Expect(x.TransferredOutUnits).To(Equal(int64(70)))
		}, timeout, interval).Should(Succeed())
	})

	It("a transfer is indexed once across a restart of the indexer", func() {
		w := newWorld(0)
		hs := w.holders(2)
		w.bought(hs[0], 10, time.Now().Add(-time.Hour))
		w.send(hs[0], hs[1].address(), 4)
		w.send(hs[0], hs[1].address(), 3)
		w.confirm()

		By("an indexer killed after its Transfers exist, before its cursor moves")
		killed := w.indexer()
		killed.Range = 1000 // one range: every Transfer written, then the kill
		killed.BeforeCursor = func(*investv1.ShareClass, uint64) error { return errKilled }
		Expect(killed.Round(ctx)).To(MatchError(ContainSubstring(errKilled.Error())))
		Expect(w.transfers()).To(HaveLen(4))
		Expect(w.cursor()).To(BeNil(), "the cursor did not move")

		By("a new indexer resumes from the recorded cursor")
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(4), "no event twice")
		Expect(w.cursor()).NotTo(BeNil())
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(4))
		Eventually(func(g Gomega) {
			g.Expect(w.holding(g, hs[0]).Units).To(Equal(int64(3)))
			g.Expect(w.holding(g, hs[1]).Units).To(Equal(int64(7)))
		}, timeout, interval).Should(Succeed())
	})

	It("an adopted token is indexed from spec.token.fromBlock, not from block 0", func() {
		w := newWorld(0)
		hs := w.holders(2)
		w.bought(hs[0], 10, time.Now().Add(-time.Hour))
		before := w.send(hs[0], hs[1].address(), 4)
		w.confirm()

		By("the share class adopts its token with fromBlock after the first transfer")
		from := int64(before) + 1
		sc := &investv1.ShareClass{}
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w.sc), sc)).To(Succeed())
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: w.chain.Token.Hex(), FromBlock: &from}
		Expect(k8s.Update(ctx, sc)).To(Succeed())
		after := w.send(hs[0], hs[1].address(), 3)
		w.confirm()

		Expect(w.indexer().Round(ctx)).To(Succeed())
		got := w.transfers()
		Expect(got).To(HaveLen(2), "only the transfer at or above fromBlock, one object per side")
		for _, t := range got {
			Expect(t.Spec.Units).To(Equal(int64(3)))
			Expect(t.Spec.BlockNumber).To(Equal(int64(after)))
		}

		By("fromBlock cannot change once set, and a Deploy token cannot have one")
		from2 := from + 1
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w.sc), sc)).To(Succeed()) // the indexer wrote its cursor
		sc.Spec.Token.FromBlock = &from2
		Expect(k8s.Update(ctx, sc)).To(MatchError(ContainSubstring("fromBlock is immutable")))
		deploy := fixtures.ShareClass(controlplane.NewID(), envtest.NewISIN())
		deploy.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy, FromBlock: &from}
		Expect(k8s.Create(ctx, deploy)).To(MatchError(ContainSubstring("fromBlock is only allowed when mode is Adopt")))
	})

	It("a reorg below the cursor removes the transfers it undid", func() {
		w := newWorld(0)
		hs := w.holders(2)
		w.bought(hs[0], 100, time.Now().Add(-time.Hour))
		kept := w.send(hs[0], hs[1].address(), 10)
		undone := w.send(hs[0], hs[1].address(), 25)
		w.confirm()
		x := w.indexer()
		Expect(x.Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(4))
		Expect(w.cursor().IndexedBlock).To(BeNumerically(">=", int64(undone)))

		By("the chain rolled back below the second transfer (fork to its parent, the pool dropped)")
		forkBack(w, undone-1)
		w.chain.Commit(5) // the new branch grows past the old cursor
		Expect(w.chain.Balance(w.chain.Token, hs[1].address())).To(Equal(int64(10)))

		Expect(x.Round(ctx)).To(Succeed())
		ts := w.transfers()
		Expect(ts).To(HaveLen(2), "the undone transfer's sides are gone")
		for _, t := range ts {
			Expect(t.Spec.BlockNumber).To(Equal(int64(kept)))
		}
		c := w.cursor()
		h, err := w.chain.Client.HeaderByNumber(ctx, bigInt(uint64(c.IndexedBlock)))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.IndexedBlockHash).To(Equal(h.Hash().Hex()), "the cursor is on the new branch")
		Eventually(func(g Gomega) {
			g.Expect(w.holding(g, hs[0]).Units).To(Equal(int64(90)))
			g.Expect(w.holding(g, hs[1]).Units).To(Equal(int64(10)))
		}, timeout, interval).Should(Succeed())

		By("the same move made again on the new branch is indexed again")
		w.send(hs[0], hs[1].address(), 25)
		w.confirm()
		Expect(x.Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(4))
		Eventually(func(g Gomega) { g.Expect(w.holding(g, hs[1]).Units).To(Equal(int64(35))) }, timeout, interval).Should(Succeed())
	})

	It("a secondary settlement's transfers are not recorded as holder transfers", func() {
		parsed, err := contracts.ShareTokenMetaData.ParseABI()
		Expect(err).NotTo(HaveOccurred())
		Expect(transfer.SecondaryTransferEvent).To(Equal(parsed.Events["SecondaryTransfer"].ID), "the topic the indexer asks for is the token's event")

		w := newWorld(0)
		hs := w.holders(3)
		seller, other, buyer := hs[0], hs[1], hs[2]
		w.bought(seller, 100, time.Now().Add(-time.Hour))
		w.bought(other, 20, time.Now().Add(-time.Hour))

		By("a secondary BUY delivered by settleWithRef (two legs), then a holder transfer of the same units between the same wallets")
		ref := chain.EffectRef("Order", buyer.ns, "secondary-buy", "uid-secondary-buy", "settle")
		r := w.chain.Send(w.chain.Admin, w.chain.Token, w.chain.TokenABI.PackSettleWithRef(ref,
			[]common.Address{seller.address(), other.address()}, buyer.address(), []*big.Int{big.NewInt(30), big.NewInt(5)}, 0))
		settledIn := r.BlockNumber.Uint64()
		Expect(w.chain.TransfersOf(r)).To(HaveLen(2))
		held := w.send(seller, buyer.address(), 30)
		w.confirm()
		Expect(w.chain.Balance(w.chain.Token, buyer.address())).To(Equal(int64(65)))

		x := w.indexer()
		x.Range = 1000 // both in one eth_getLogs
		Expect(x.Round(ctx)).To(Succeed())

		By("only the holder transfer's sides are recorded")
		ts := w.transfers()
		Expect(ts).To(HaveLen(2))
		for _, t := range ts {
			Expect(t.Spec.BlockNumber).To(Equal(int64(held)))
			Expect(t.Spec.BlockNumber).NotTo(Equal(int64(settledIn)))
			Expect(t.Spec.Units).To(Equal(int64(30)))
		}
		Expect(w.cursor()).NotTo(BeNil())
		Expect(w.cursor().IndexedBlock).To(BeNumerically(">", int64(settledIn)), "the cursor moved past the settlement's block")
		Expect(w.cursor().IndexedBlock).To(BeNumerically(">=", int64(held)))

		By("the books count the holder transfer only (the settlement is the orders')")
		Eventually(func(g Gomega) {
			g.Expect(w.holding(g, seller).TransferredOutUnits).To(Equal(int64(30)))
			g.Expect(w.holding(g, buyer).TransferredInUnits).To(Equal(int64(30)))
			g.Expect(w.holding(g, other).TransferredOutUnits).To(BeZero())
		}, timeout, interval).Should(Succeed())

		By("read again, nothing more is recorded")
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Expect(w.transfers()).To(HaveLen(2))
	})

	It("a side whose address matches no Wallet has no entry: the other side is still recorded", func() {
		w := newWorld(0)
		h := w.holders(1)[0]
		stranger := w.chain.Investors(1)[0]
		w.chain.Register(stranger.Address())
		w.bought(h, 5, time.Now().Add(-time.Hour))
		w.send(h, stranger.Address(), 5)
		w.confirm()
		Expect(w.indexer().Round(ctx)).To(Succeed())
		ts := w.transfers()
		Expect(ts).To(HaveLen(1))
		Expect(ts[0].Spec.Direction).To(Equal(investv1.TransferOut))
		Eventually(func(g Gomega) { g.Expect(w.holding(g, h).Units).To(BeZero()) }, timeout, interval).Should(Succeed())
	})

	It("books equal the sum of balanceOf over the account's wallets after transfers (LedgerInSync stays True)", func() {
		w := newWorld(0)
		hs := w.holders(2)
		second := w.chain.Investors(1)[0]
		w.chain.Register(second.Address())
		Expect(k8s.Create(ctx, walletOf(hs[1], second.Address().Hex()))).To(Succeed())
		w.bought(hs[0], 100, time.Now().Add(-time.Hour))
		w.bought(hs[1], 8, time.Now().Add(-time.Hour))
		w.send(hs[0], hs[1].address(), 30)
		w.send(hs[0], second.Address(), 12)
		w.confirm()
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(w.holding(g, hs[0]).Units).To(Equal(int64(58)))
			g.Expect(w.holding(g, hs[1]).Units).To(Equal(int64(50)))
		}, timeout, interval).Should(Succeed())
		Expect(w.chain.Balance(w.chain.Token, hs[1].address()) + w.chain.Balance(w.chain.Token, second.Address())).To(Equal(int64(50)))

		ledger := &token.LedgerReconciler{Client: k8s, Chain: w.chain.Client, Confirmations: confirmations, Log: logr.Discard()}
		for _, h := range hs {
			c := ledgerSays(ledger, h, metav1.ConditionTrue)
			Expect(c.Reason).To(Equal(token.ReasonBalancesMatch))
			Expect(c.Message).To(Equal("on-chain balances equal the holdings for 1 ISIN(s)"))
		}

		By("a transfer on chain not indexed yet: not comparable, never in sync, and not a mismatch")
		w.send(hs[0], hs[1].address(), 1)
		w.confirm()
		w.chain.Commit(100) // beyond the ledger's reach back to the cursor
		c := ledgerSays(ledger, hs[0], metav1.ConditionUnknown)
		Expect(c.Reason).To(Equal(token.ReasonNotComparable))
		Expect(c.Message).To(ContainSubstring("not yet comparable: ISIN " + string(w.isin)))

		By("indexed and counted: in sync again")
		Expect(w.indexer().Round(ctx)).To(Succeed())
		Eventually(func(g Gomega) { g.Expect(w.holding(g, hs[1]).Units).To(Equal(int64(51))) }, timeout, interval).Should(Succeed())
		for _, h := range hs {
			ledgerSays(ledger, h, metav1.ConditionTrue)
		}
	})
})

// ledgerSays runs ledger rounds until the holder's LedgerInSync has status (a round skips
// an account whose status changed under it) and returns the condition.
func ledgerSays(ledger *token.LedgerReconciler, h *holder, status metav1.ConditionStatus) metav1.Condition {
	GinkgoHelper()
	var got metav1.Condition
	Eventually(func(g Gomega) {
		g.Expect(ledger.Round(ctx)).To(Succeed())
		a := &investv1.Account{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(h.account), a)).To(Succeed())
		c := meta.FindStatusCondition(a.Status.Conditions, token.TypeLedgerInSync)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(status), c.Message)
		got = *c
	}, timeout, interval).Should(Succeed())
	return got
}
