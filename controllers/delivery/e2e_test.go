package delivery

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	ordercontroller "github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

var _ = Describe("a BUY end to end: order controller, sandbox money side, chain agent", func() {
	It("walks from PLACED to COMPLETED with the units minted once to the order's wallet, settlement_transaction_hash naming the mint", func() {
		w := newWorld()
		body := fmt.Sprintf("XS%09d", rand.IntN(1_000_000_000))
		d, err := validation.ISINCheckDigit(body)
		Expect(err).NotTo(HaveOccurred())
		w.isin = investv1.ISIN(body + string(d))
		fund := fixtures.Fund()
		sc := fixtures.ShareClass(fund.Name, string(w.isin))
		Expect(k8s.Create(ctx, fund)).To(Succeed())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		wal, addr := w.wallet(true)

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
				if err := (&ordercontroller.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("order-controller"), Now: time.Now}).SetupWithManager(mgr); err != nil {
					return err
				}
				rt, err := agent.NewRuntime(w.chain.Client, w.chain.Agent, w.chain.ChainID, 2, 0, mgr)
				if err != nil {
					return err
				}
				if err := Setup(mgr, rt, agent.StaticTokens{w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64()}}); err != nil {
					return err
				}
				return settlement.SetupSandbox(mgr, 0, false) // the money side only: the chain settles the tokens
			},
			SkipNameValidation: true,
		})
		defer mgr.Stop()
		stop := w.chain.Mine(200 * time.Millisecond)
		defer stop()

		o := fixtures.BuyOrder(w.ns, w.account, string(w.isin), 12)
		o.Spec.WalletID = investv1.ObjectID(wal.Name)
		o.Spec.Quote = &investv1.OrderQuote{
			NAVPerShare: 1_000_000, NAVDate: "2026-10-31", GrossValue: 12_000_000, FeeRate: 50, FeeAmount: 60_000,
			FeeSource: investv1.FeeSourceDefault, NetAmount: 11_940_000, Amount: 12_000_000,
			FundDetails: investv1.OrderFundDetails{ISIN: w.isin, FundID: investv1.ObjectID(fund.Name), FundName: fund.Spec.Name,
				ShareClassID: investv1.ObjectID(sc.Name), ShareClassName: sc.Spec.Name},
			WalletID: investv1.ObjectID(wal.Name),
		}
		Expect(k8s.Create(ctx, o)).To(Succeed())
		Eventually(func() investv1.OrderState { return get(o).Status.State }, timeout, interval).Should(Equal(investv1.StateCompleted))

		cur := get(o)
		Expect(lifecycle.HistoryStates(cur.Status.History)).To(Equal(lifecycle.Path(investv1.SideBuy)))
		Expect(cur.Status.Settlement.PaymentReceived.RecordedBy).To(Equal("sandbox"))
		Expect(cur.Status.Settlement.DeliveryInitiated.RecordedBy).To(Equal(Name))
		hash := cur.Status.Settlement.DeliveryInitiated.TransactionHash
		Expect(cur.Status.Settlement.DeliveryCompleted.TransactionHash).To(Equal(hash))
		mints := w.chain.Mints(w.chain.Token, addr)
		Expect(mints).To(HaveLen(1))
		Expect(mints[0].TxHash.Hex()).To(Equal(hash))
		Expect(w.chain.Balance(w.chain.Token, addr)).To(Equal(int64(12)), "balanceOf(wallet) is the units bought (decimals 0)")
		rc, err := w.chain.Client.TransactionReceipt(ctx, mints[0].TxHash)
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Status).To(Equal(uint64(1)))
		Expect(big.NewInt(cur.Status.Chain.Transaction.Receipt.BlockNumber)).To(Equal(rc.BlockNumber))
	})
})
