package delivery

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
)

// Lock-ups on chain: a BUY of a share class with a lock-up is minted with mintLocked (or
// batchMintLocked) at a release time recorded in the order before signing; the books
// (internal/holdings, behind the portfolio and the Account status) unlock the lot at the
// same instant, so what the holder can move on chain is what the portfolio calls unlocked.
var _ = Describe("lock-ups on chain", func() {
	const lockUpDays = 30

	// lockedTokens is the chain's token for w.isin, with a lock-up.
	lockedTokens := func(w *world) agent.StaticTokens {
		return agent.StaticTokens{w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64(), LockUpDays: lockUpDays}}
	}
	// complete waits for the delivery's completion and completes the order, as the order
	// controller would.
	complete := func(w *world, o *investv1.Order) {
		GinkgoHelper()
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryInitiated }, timeout, interval).ShouldNot(BeNil())
		moveTo(o, investv1.StateDeliveryInitiated)
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(o).Status.Settlement.DeliveryCompleted }, timeout, interval).ShouldNot(BeNil())
		moveTo(o, investv1.StateDeliveryCompleted, investv1.StateCompleted)
	}
	// booksLocked is what the holdings (the portfolio's figures) call locked at the chain's
	// current block time.
	booksLocked := func(w *world, orders ...*investv1.Order) int64 {
		GinkgoHelper()
		var list []investv1.Order
		for _, o := range orders {
			list = append(list, *get(o))
		}
		now := time.Unix(int64(w.chain.Now()), 0)
		p := holdings.Compute(holdings.Input{Orders: list, LockUpDays: func(investv1.ISIN) int32 { return lockUpDays }, Now: now})[w.isin]
		Expect(p).NotTo(BeNil())
		return p.Locked
	}

	It("a BUY of a share class with a lock-up mints locked units that the portfolio calls locked until the same instant", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		agent := w.startAgent(agentOptions{tokens: lockedTokens(w)})
		o := w.order(investv1.SideBuy, 7, wal)

		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, o) }, timeout, interval).Should(Succeed())
		until := get(o).Status.Chain.LockedUntil
		Expect(until).NotTo(BeNil(), "the release time is recorded with the mint")
		Expect(until.Time).To(BeTemporally("~", time.Now().AddDate(0, 0, lockUpDays), time.Minute))
		signed, err := outbox.Decode(tx.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackMintLockedWithRef(orderRef(get(o), lifecycle.StepDeliveryInitiated), addr, big.NewInt(7), uint64(until.Unix()))),
			"the recorded bytes mint the units locked until the recorded instant")

		By("the API server refusing to change the recorded release time")
		later := metav1.NewTime(until.Add(time.Hour))
		Eventually(func(g Gomega) {
			// The agent writes the order meanwhile (its evidence): a conflict is tried again.
			cur := get(o)
			cur.Status.Chain.LockedUntil = &later
			err := k8s.Status().Update(ctx, cur)
			g.Expect(apierrors.IsConflict(err)).To(BeFalse(), "%v", err)
			g.Expect(err).To(MatchError(ContainSubstring("release time of the units' lock-up is immutable")))
		}, timeout, interval).Should(Succeed())

		complete(w, o)
		agent.Stop() // nothing more to sign; the chain's clock moves on alone

		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(7)))
		Expect(w.chain.Locked(w.chain.Token, addr)).To(Equal(int64(7)))
		Expect(booksLocked(w, o)).To(Equal(int64(7)))

		By("one second before the release time: locked on chain and in the books")
		w.chain.AdvanceTime(time.Duration(uint64(until.Unix())-w.chain.Now()-1) * time.Second)
		Expect(w.chain.Locked(w.chain.Token, addr)).To(Equal(int64(7)))
		Expect(booksLocked(w, o)).To(Equal(int64(7)))

		By("at the release time: unlocked on chain and in the books, with no transaction")
		w.chain.AdvanceTime(time.Second)
		Expect(w.chain.Now()).To(Equal(uint64(until.Unix())))
		Expect(w.chain.Locked(w.chain.Token, addr)).To(BeZero())
		Expect(booksLocked(w, o)).To(BeZero())
	})

	It("a batch of BUYs of a share class with a lock-up mints each member locked until the release time its claim recorded", func() {
		w := newWorld()
		bs := w.buyers(3)
		agent := w.startAgent(agentOptions{tokens: lockedTokens(w), batchSize: 3, batchWindow: 30 * time.Second})
		for _, b := range bs {
			complete(w, b.o)
		}
		agent.Stop()

		batches := w.batches()
		Expect(batches).To(HaveLen(1))
		addrs, units, releases, refs := make([]common.Address, 0, 3), make([]*big.Int, 0, 3), make([]uint64, 0, 3), make([][32]byte, 0, 3)
		for i, m := range batches[0].Spec.Members {
			Expect(m.LockedUntil).NotTo(BeNil())
			o := get(bs[i].o)
			Expect(o.Status.Chain.LockedUntil).NotTo(BeNil())
			Expect(o.Status.Chain.LockedUntil.Unix()).To(Equal(m.LockedUntil.Unix()), "the claim recorded the member's release time")
			addrs, units, releases = append(addrs, common.HexToAddress(m.Address)), append(units, big.NewInt(m.Units)), append(releases, uint64(m.LockedUntil.Unix()))
			mo := &investv1.Order{}
			mo.Namespace, mo.Name = w.ns, m.Order
			refs = append(refs, orderRef(get(mo), lifecycle.StepDeliveryInitiated))
		}
		signed, err := outbox.Decode(batches[0].Status.Transaction.Attempts[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(signed.Data()).To(Equal(w.chain.TokenABI.PackBatchMintWithRefs(refs, addrs, units, releases)))

		until := get(bs[0].o).Status.Chain.LockedUntil
		orders := []*investv1.Order{bs[0].o, bs[1].o, bs[2].o}
		Expect(booksLocked(w, orders...)).To(Equal(int64(1 + 2 + 3)))
		for _, b := range bs {
			Expect(w.chain.Locked(w.chain.Token, b.addr)).To(Equal(b.units))
		}
		w.chain.AdvanceTime(time.Duration(uint64(until.Unix())-w.chain.Now()) * time.Second)
		Expect(booksLocked(w, orders...)).To(BeZero())
		for _, b := range bs {
			Expect(w.chain.Locked(w.chain.Token, b.addr)).To(BeZero())
			Expect(w.chain.Unlocked(w.chain.Token, b.addr)).To(Equal(b.units))
		}
	})
})
