package delivery

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	accountcontroller "github.com/fundshare/fundshare-operator/controllers/account"
	ordercontroller "github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// holderWallet creates a registered Wallet of the account whose key the holder has (it
// pays its own gas): a holder who moves units on chain.
func (w *world) holderWallet() (*investv1.Wallet, *chain.KeySigner) {
	GinkgoHelper()
	key := w.chain.Investors(1)[0]
	wal := fixtures.Wallet(w.ns, w.account, key.Address().Hex())
	Expect(k8s.Create(ctx, wal)).To(Succeed())
	w.chain.Register(key.Address())
	markRegistered(wal)
	return wal, key
}

// otherAccount is the same namespace and chain with another account.
func (w *world) otherAccount() *world {
	o := *w
	o.account = controlplane.NewID()
	return &o
}

// cancelAsREST sets spec.cancellationRequested on the version read, as the REST facade
// does (admission is not served in this suite: the order controller decides).
func cancelAsREST(o *investv1.Order) {
	GinkgoHelper()
	Eventually(func() error {
		cur := get(o)
		before := cur.DeepCopy()
		cur.Spec.CancellationRequested = true
		return k8s.Patch(ctx, cur, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
	}, timeout, interval).Should(Succeed())
}

var _ = Describe("A SELL burns where the units are", func() {
	It("a SELL burns from the wallet that holds the units after a holder transfer to the account's second wallet", func() {
		w := newWorld()
		first, holder := w.holderWallet()
		second, secondAddr := w.wallet(true)
		agent := w.startAgent(agentOptions{confirmations: 2})
		defer agent.Stop()
		w.delivered(10, first, 2)
		Expect(w.chain.Balance(w.chain.Token, holder.Address())).To(Equal(int64(10)))

		By("the holder moves every unit to the account's second wallet on chain")
		w.chain.Send(holder, w.chain.Token, w.chain.TokenABI.PackTransfer(secondAddr, big.NewInt(10)))
		w.chain.Commit(1) // the transfer has its confirmations: the plan reads the confirmed block

		sell := w.order(investv1.SideSell, 4, first) // names the first wallet: it is empty now
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, sell) }, timeout, interval).Should(Succeed())
		Expect(get(sell).Status.Chain.Burns).To(Equal([]investv1.OrderBurn{{WalletID: investv1.ObjectID(second.Name), Address: secondAddr.Hex(), Units: 4}}))
		inPool(w, tx.Attempts[0].Hash)
		w.chain.Commit(2)
		Eventually(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.TokensBurned }, timeout, interval).ShouldNot(BeNil())
		Expect(w.chain.Balance(w.chain.Token, secondAddr)).To(Equal(int64(6)))
		Expect(w.chain.Burns(w.chain.Token, secondAddr)).To(HaveLen(1))
		Expect(w.chain.Burns(w.chain.Token, holder.Address())).To(BeEmpty())
	})

	It("a SELL never burns from another account's wallet", func() {
		w := newWorld()
		mine, mineAddr := w.wallet(true)
		other := w.otherAccount()
		theirs, theirAddr := other.wallet(true)
		agent := w.startAgent(agentOptions{})
		defer agent.Stop()
		w.delivered(10, mine, 1)
		other.delivered(100, theirs, 1)

		By("more than the account's own wallets hold: refused, though another account's wallet holds plenty")
		tooMany := w.order(investv1.SideSell, 15, mine)
		Eventually(func(g Gomega) {
			c := get(tooMany).Status.Chain
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Refused).NotTo(BeNil())
			g.Expect(c.Refused.Reason).To(HavePrefix("InsufficientTokens: the sell burns 15 units, the account's registered wallets hold 10 on chain at block"))
		}, timeout, interval).Should(Succeed())
		Expect(get(tooMany).Status.Chain.Transaction).To(BeNil())

		By("an address another account also registered is never burned from")
		shared := fixtures.Wallet(w.ns, other.account, mineAddr.Hex())
		Expect(k8s.Create(ctx, shared)).To(Succeed())
		markRegistered(shared)
		sell := w.order(investv1.SideSell, 5, mine)
		Eventually(func(g Gomega) {
			c := get(sell).Status.Chain
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Refused).NotTo(BeNil())
			g.Expect(c.Refused.Reason).To(ContainSubstring("hold 0 on chain"))
		}, timeout, interval).Should(Succeed())

		Expect(pendingNonce(w.chain)).To(Equal(uint64(2)), "the two mints only: no burn was signed")
		Expect(w.chain.Balance(w.chain.Token, theirAddr)).To(Equal(int64(100)))
		Expect(w.chain.Balance(w.chain.Token, mineAddr)).To(Equal(int64(10)))
		Expect(w.chain.Burns(w.chain.Token, theirAddr)).To(BeEmpty())
	})

	It("a SELL whose burn is in flight cannot be cancelled", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		agent := w.startAgent(agentOptions{confirmations: 2})
		defer agent.Stop()
		w.delivered(10, wal, 2)
		sell := w.order(investv1.SideSell, 4, wal)
		var tx *investv1.ChainTransaction
		Eventually(func(g Gomega) { tx = recordedTx(g, sell) }, timeout, interval).Should(Succeed())

		ok, _, why := lifecycle.Cancellable(get(sell))
		Expect(ok).To(BeFalse())
		Expect(lifecycle.CancelRefusalOf(get(sell))).To(Equal(lifecycle.RefusalBurnInFlight))
		Expect(why).To(ContainSubstring("burn transaction " + tx.Attempts[0].Hash))
		Expect(why).To(ContainSubstring("is in flight"))

		By("mined, one confirmation of two: still in flight")
		inPool(w, tx.Attempts[0].Hash)
		w.chain.Commit(1)
		Consistently(func() lifecycle.CancelRefusal { return lifecycle.CancelRefusalOf(get(sell)) }, 500*time.Millisecond, interval).
			Should(Equal(lifecycle.RefusalBurnInFlight))

		By("final: past the point of no return")
		w.chain.Commit(1)
		Eventually(func() *investv1.SettlementRecord { return get(sell).Status.Settlement.TokensBurned }, timeout, interval).ShouldNot(BeNil())
		Expect(lifecycle.CancelRefusalOf(get(sell))).To(Equal(lifecycle.RefusalPastPointOfNoReturn))
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(6)))
	})

	It("never records a burn for a SELL whose cancellation is requested, and never broadcasts a burn whose record conflicts with it", func() {
		w := newWorld()
		wal, addr := w.wallet(true)
		var racing *investv1.Order
		agent := w.startAgent(agentOptions{intercept: func(patch []byte) error {
			if racing != nil && bytes.Contains(patch, []byte(`"burns"`)) {
				// The customer's cancellation lands between the agent's read and its record.
				cancelAsREST(racing)
			}
			return nil
		}})
		defer agent.Stop()
		w.delivered(10, wal, 1)
		before := pendingNonce(w.chain)

		By("requested before the agent looks")
		requested := fixtures.BuyOrder(w.ns, w.account, string(w.isin), 3)
		requested.Spec.Side, requested.Spec.WalletID, requested.Spec.CancellationRequested = investv1.SideSell, investv1.ObjectID(wal.Name), true
		Expect(k8s.Create(ctx, requested)).To(Succeed())
		moveTo(requested, investv1.StatePlaced, investv1.StateExecuted)

		By("requested while the agent records")
		racing = fixtures.BuyOrder(w.ns, w.account, string(w.isin), 4)
		racing.Spec.Side, racing.Spec.WalletID = investv1.SideSell, investv1.ObjectID(wal.Name)
		Expect(k8s.Create(ctx, racing)).To(Succeed())
		moveTo(racing, investv1.StatePlaced, investv1.StateExecuted)
		Eventually(func() bool { return get(racing).Spec.CancellationRequested }, timeout, interval).Should(BeTrue())

		Consistently(func(g Gomega) {
			for _, o := range []*investv1.Order{requested, racing} {
				c := get(o).Status.Chain
				g.Expect(c == nil || c.Transaction == nil).To(BeTrue(), "a burn was recorded for %s", o.Name)
			}
			g.Expect(pendingNonce(w.chain)).To(Equal(before), "a burn was broadcast")
		}, 2*time.Second, interval).Should(Succeed())
		w.chain.Commit(1)
		Expect(w.chain.Burns(w.chain.Token, addr)).To(BeEmpty())
	})
})

var _ = Describe("A SELL whose units leave does not hang", func() {
	It("a SELL whose units leave before the burn stalls and can be cancelled, releasing its reservation", func() {
		w := newWorld()
		body := fmt.Sprintf("XS%09d", rand.IntN(1_000_000_000))
		d, err := validation.ISINCheckDigit(body)
		Expect(err).NotTo(HaveOccurred())
		w.isin = investv1.ISIN(body + string(d))
		fund := fixtures.Fund()
		sc := fixtures.ShareClass(fund.Name, string(w.isin))
		Expect(k8s.Create(ctx, fund)).To(Succeed())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		acct := fixtures.IndividualAccount(w.ns)
		acct.Name = w.account
		Expect(k8s.Create(ctx, acct)).To(Succeed())
		wal, holder := w.holderWallet()
		other := w.otherAccount()
		_, theirAddr := other.wallet(true)

		mgr := env.StartManager(env.Config, envtest.ManagerOptions{
			New: func(cfg *rest.Config, opts ctrl.Options) (ctrl.Manager, error) {
				m, err := ctrl.NewManager(cfg, opts)
				if err != nil {
					return nil, err
				}
				return m, index.Register(ctx, m.GetFieldIndexer())
			},
			Options: func(o *ctrl.Options) {
				o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{w.ns: {}}}
			},
			Setup: func(mgr ctrl.Manager) error {
				if err := (&ordercontroller.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Now: time.Now}).SetupWithManager(mgr); err != nil {
					return err
				}
				if err := (&accountcontroller.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
					return err
				}
				rt, err := agent.NewRuntime(w.chain.Client, w.chain.Agent, w.chain.ChainID, 1, 0, mgr)
				if err != nil {
					return err
				}
				if err := Setup(mgr, rt, agent.StaticTokens{w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64()}}); err != nil {
					return err
				}
				return settlement.SetupSandbox(mgr, 0, false)
			},
			SkipNameValidation: true,
		})
		defer mgr.Stop()

		quote := func(side investv1.OrderSide, units int64) *investv1.Order {
			o := fixtures.BuyOrder(w.ns, w.account, string(w.isin), units)
			o.Spec.Side, o.Spec.WalletID = side, investv1.ObjectID(wal.Name)
			o.Spec.Quote = &investv1.OrderQuote{
				NAVPerShare: 1_000_000, NAVDate: "2026-10-31", GrossValue: units * 1_000_000, FeeSource: investv1.FeeSourceDefault,
				NetAmount: units * 1_000_000, Amount: units * 1_000_000,
				FundDetails: investv1.OrderFundDetails{ISIN: w.isin, FundID: investv1.ObjectID(fund.Name), FundName: fund.Spec.Name,
					ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: sc.Spec.Name},
				WalletID: investv1.ObjectID(wal.Name),
			}
			Expect(k8s.Create(ctx, o)).To(Succeed())
			return o
		}
		stop := w.chain.Mine(100 * time.Millisecond)
		buy := quote(investv1.SideBuy, 12)
		Eventually(func() investv1.OrderState { return get(buy).Status.State }, timeout, interval).Should(Equal(investv1.StateCompleted))
		stop()

		By("the holder moves every unit to another account's wallet on chain")
		w.chain.Send(holder, w.chain.Token, w.chain.TokenABI.PackTransfer(theirAddr, big.NewInt(12)))
		nonce := pendingNonce(w.chain)

		sell := quote(investv1.SideSell, 12) // the books still say 12: placed, reserved, executed
		Eventually(func(g Gomega) {
			cur := get(sell)
			g.Expect(cur.Status.State).To(Equal(investv1.StateExecuted))
			c := meta.FindStatusCondition(cur.Status.Conditions, lifecycle.ConditionStalled)
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Status).To(BeEquivalentTo("True"))
			g.Expect(c.Reason).To(Equal(lifecycle.WaitTokenTransactionRefused))
			g.Expect(c.Message).To(ContainSubstring("InsufficientTokens: the sell burns 12 units, the account's registered wallets hold 0 on chain"))
		}, timeout, interval).Should(Succeed())
		Expect(reservations(w)).To(HaveLen(1))
		ok, refund, why := lifecycle.Cancellable(get(sell))
		Expect(ok).To(BeTrue(), why)
		Expect(refund).To(BeFalse())

		By("cancelled as DELETE does")
		cancelAsREST(sell)
		Eventually(func() investv1.OrderState { return get(sell).Status.State }, timeout, interval).Should(Equal(investv1.StateCancelled))
		Eventually(func() []investv1.UnitReservation { return reservations(w) }, timeout, interval).Should(BeEmpty())
		cur := get(sell)
		Expect(cur.Status.Refund).To(BeNil(), "nothing was paid: no refund")
		Expect(cur.Status.Settlement.TokensBurned).To(BeNil())
		Expect(cur.Status.Settlement.PaymentSent).To(BeNil(), "no payout")
		Expect(cur.Status.Chain.Transaction).To(BeNil(), "nothing was signed")
		Expect(pendingNonce(w.chain)).To(Equal(nonce))
		Expect(w.chain.Burns(w.chain.Token, holder.Address())).To(BeEmpty())
		Expect(w.chain.Balance(w.chain.Token, theirAddr)).To(Equal(int64(12)))
	})
})

func reservations(w *world) []investv1.UnitReservation {
	GinkgoHelper()
	a := &investv1.Account{}
	Expect(k8s.Get(ctx, client.ObjectKey{Namespace: w.ns, Name: w.account}, a)).To(Succeed())
	return a.Status.Reservations
}
