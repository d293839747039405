package delivery

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The delivery suite runs the chain agent (the outbox and the reconciler, in a manager of
// their own per spec, watching one namespace) against the real control plane and a real
// EVM (go-ethereum's simulated backend, mined when the spec commits blocks). "Killing the
// agent" stops its manager at a fail point (a broadcast or a status write that fails);
// a new manager then starts from what is recorded.
var env, k8s, ctx = envtest.Suite(envtest.Options{})

const (
	timeout  = 30 * time.Second
	interval = 50 * time.Millisecond
)

func TestDelivery(t *testing.T) { env.Run(t, "Chain delivery suite", nil) }

// world is one spec's namespace, chain and account.
type world struct {
	ns      string
	chain   *chaintest.Chain
	account string
	isin    investv1.ISIN
}

func newWorld() *world {
	GinkgoHelper()
	return &world{ns: env.NewNamespace("delivery"), chain: chaintest.New(GinkgoT()), account: controlplane.NewID(), isin: fixtures.ISIN}
}

// wallet creates a Wallet of the account with a fresh address; registered puts it in the
// identity registry.
func (w *world) wallet(registered bool) (*investv1.Wallet, common.Address) {
	GinkgoHelper()
	addr := w.chain.NewWallet()
	wal := fixtures.Wallet(w.ns, w.account, addr.Hex())
	Expect(k8s.Create(ctx, wal)).To(Succeed())
	if registered {
		w.chain.Register(addr)
		markRegistered(wal)
	}
	return wal, addr
}

// markRegistered records the wallet as Registered, as the wallet controller does once the
// identity registry verifies its address.
func markRegistered(wal *investv1.Wallet) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(wal), wal)).To(Succeed())
		wal.Status.Registration = &investv1.WalletRegistration{State: investv1.RegistrationRegistered}
		g.Expect(k8s.Status().Update(ctx, wal)).To(Succeed())
	}, timeout, interval).Should(Succeed())
}

// order creates an order of the account for units, delivered to wallet, and moves it to
// EXECUTED (as the order controller would).
func (w *world) order(side investv1.OrderSide, units int64, wallet *investv1.Wallet) *investv1.Order {
	GinkgoHelper()
	o := fixtures.BuyOrder(w.ns, w.account, string(w.isin), units)
	o.Spec.Side = side
	o.Spec.WalletID = investv1.ObjectID(wallet.Name)
	Expect(k8s.Create(ctx, o)).To(Succeed())
	if side == investv1.SideBuy {
		moveTo(o, investv1.StatePlaced, investv1.StateAwaitingPayment, investv1.StatePaymentReceived, investv1.StateExecuted)
	} else {
		moveTo(o, investv1.StatePlaced, investv1.StateExecuted)
	}
	return o
}

// moveTo appends states to the order's history, as the order controller would.
func moveTo(o *investv1.Order, states ...investv1.OrderState) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), o)).To(Succeed())
		for _, s := range states {
			o.Status.State = s
			o.Status.History = append(o.Status.History, investv1.OrderTransition{State: s, At: metav1.Now(), Reason: "SetByTest"})
		}
		g.Expect(k8s.Status().Update(ctx, o)).To(Succeed())
	}, timeout, interval).Should(Succeed())
}

func get(o *investv1.Order) *investv1.Order {
	GinkgoHelper()
	cur := &investv1.Order{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
	return cur
}

// inPool waits until the node's pool holds the transaction with this hash. The agent records
// a transaction before it broadcasts it, so a spec that commits a block as soon as it sees the
// record may commit it before the broadcast arrived.
func inPool(w *world, hash string) {
	GinkgoHelper()
	Eventually(func() (bool, error) {
		_, pending, err := w.chain.Client.TransactionByHash(ctx, common.HexToHash(hash))
		return pending, err
	}, timeout, interval).Should(BeTrue(), "the recorded transaction %s reaches the node's pool", hash)
}

func recordedTx(g Gomega, o *investv1.Order) *investv1.ChainTransaction {
	cur := &investv1.Order{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(o), cur)).To(Succeed())
	g.Expect(cur.Status.Chain).NotTo(BeNil())
	g.Expect(cur.Status.Chain.Transaction).NotTo(BeNil())
	return cur.Status.Chain.Transaction
}

// agentOptions vary the agent a spec starts.
type agentOptions struct {
	backend       outbox.Backend           // nil: the chain's client
	intercept     func(patch []byte) error // a status patch fails when it returns an error
	fees          outbox.FeePolicy         // nil: the default
	stuckAfter    time.Duration            // zero: the outbox's default
	confirmations uint64                   // zero: 1
	tokens        agent.TokenLookup        // nil: the chain's token for w.isin
	batchSize     int                      // above 1: batch mints on
	batchWindow   time.Duration            // zero: 500ms
	noPreflight   bool                     // batches are checked only by the outbox's estimate at signing
	batchOnly     bool                     // the batch controller runs, but the order reconciler mints each order on its own
	healInterval  time.Duration            // zero: 200ms
	initiateAfter time.Duration            // zero: 300ms (members of a batch not final by then are initiated first)
}

// startAgent starts the outbox and the chain agent in a manager of their own.
func (w *world) startAgent(opts agentOptions) *envtest.Manager {
	GinkgoHelper()
	backend := opts.backend
	if backend == nil {
		backend = w.chain.Client
	}
	tokens := opts.tokens
	if tokens == nil {
		tokens = agent.StaticTokens{w.isin: {Address: w.chain.Token, ChainID: w.chain.ChainID.Int64()}}
	}
	conf := opts.confirmations
	if conf == 0 {
		conf = 1
	}
	return env.StartManager(env.Config, envtest.ManagerOptions{
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{w.ns: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			ob, err := outbox.New(outbox.Config{
				Backend: backend, Signer: w.chain.Agent, ChainID: w.chain.ChainID,
				Fees: opts.fees, StuckAfter: opts.stuckAfter, Log: mgr.GetLogger().WithName("outbox"),
				HealInterval: cmp.Or(opts.healInterval, 200*time.Millisecond),
			})
			if err != nil {
				return err
			}
			ob.AddSource(OrdersSource(mgr.GetAPIReader()))
			ob.AddSource(BatchesSource(mgr.GetAPIReader()))
			if err := mgr.Add(ob); err != nil {
				return err
			}
			c := mgr.GetClient()
			if opts.intercept != nil {
				c = interceptor.NewClient(noWatch{c}, interceptor.Funcs{
					SubResourcePatch: func(ctx context.Context, cl client.Client, sub string, obj client.Object, p client.Patch, o ...client.SubResourcePatchOption) error {
						data, err := p.Data(obj)
						if err != nil {
							return err
						}
						if err := opts.intercept(data); err != nil {
							return err
						}
						return cl.SubResource(sub).Patch(ctx, obj, p, o...)
					},
				})
			}
			r := &Reconciler{
				Client: c, Live: mgr.GetAPIReader(), Outbox: ob, Tokens: tokens, Confirmations: conf,
				Poll: 100 * time.Millisecond, RetryRefused: 300 * time.Millisecond,
				BatchSize: opts.batchSize, BatchWindow: opts.batchWindow, Backend: backend, Chain: backend,
				InitiateAfter: cmp.Or(opts.initiateAfter, 300*time.Millisecond),
			}
			if r.BatchWindow == 0 {
				r.BatchWindow = 500 * time.Millisecond
			}
			if opts.noPreflight {
				r.Backend = nil
			}
			if opts.batchOnly {
				if err := r.setupBatching(mgr, 4); err != nil {
					return err
				}
			}
			return r.SetupWithManager(mgr)
		},
		SkipNameValidation: true,
	})
}

// deadBroadcast is the chain client of an agent killed right after recording: nothing it
// broadcasts reaches the node.
type deadBroadcast struct {
	outbox.Backend
	mu   sync.Mutex
	sent []common.Hash
}

func (d *deadBroadcast) SendTransaction(_ context.Context, tx *types.Transaction) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sent = append(d.sent, tx.Hash())
	return errors.New("agent killed before the broadcast reached the node")
}

// noWatch lets the manager's client be intercepted (interceptor wants a WithWatch).
type noWatch struct{ client.Client }

func (noWatch) Watch(context.Context, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
	return nil, errors.New("not watched")
}

// errKilled is a status write that never happened: the agent died just before it.
var errKilled = errors.New("agent killed before this write")

func pendingNonce(c *chaintest.Chain) uint64 {
	GinkgoHelper()
	n, err := c.Client.PendingNonceAt(ctx, c.Agent.Address())
	Expect(err).NotTo(HaveOccurred())
	return n
}
