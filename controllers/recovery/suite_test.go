package recovery_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The recovery suite runs the WalletRecovery controller with the outbox (in a manager of
// their own per spec, watching one namespace) against the real control plane and a real EVM
// (go-ethereum's simulated backend, mined when the spec commits blocks or runs a miner).
// "Killing the agent" stops its manager at a fail point; a new manager then starts from
// what is recorded.
var env, k8s, ctx = envtest.Suite(envtest.Options{})

const (
	timeout  = 30 * time.Second
	interval = 50 * time.Millisecond
)

func TestRecovery(t *testing.T) { env.Run(t, "Wallet recovery suite", nil) }

// world is one spec's namespace, chain, account and two share classes with tokens.
type world struct {
	ns      string
	chain   *chaintest.Chain
	account *investv1.Account
	isins   []investv1.ISIN
	tokens  []common.Address
}

func newWorld() *world {
	GinkgoHelper()
	w := &world{ns: env.NewNamespace("recovery"), chain: chaintest.New(GinkgoT())}
	w.account = fixtures.IndividualAccount(w.ns)
	Expect(k8s.Create(ctx, w.account)).To(Succeed())
	w.tokens = []common.Address{w.chain.Token, w.chain.DeployToken("Fundshare Global Equity D", "LU0000000002")}
	for _, tok := range w.tokens {
		sc := fixtures.ShareClass(controlplane.NewID(), envtest.NewISIN())
		Expect(k8s.Create(ctx, sc)).To(Succeed())
		sc.Status.Token = &investv1.ShareClassTokenStatus{Address: tok.Hex(), ChainID: w.chain.ChainID.Int64()}
		Expect(k8s.Status().Update(ctx, sc)).To(Succeed())
		// Share classes are cluster-wide: the next spec's chain must not see this one's.
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(context.Background(), sc))).To(Succeed()) })
		w.isins = append(w.isins, sc.Spec.ISIN)
	}
	return w
}

// wallet creates a Wallet of the account with a fresh address, registered in the registry.
func (w *world) wallet() (*investv1.Wallet, common.Address) {
	GinkgoHelper()
	addr := w.chain.NewWallet()
	wal := fixtures.Wallet(w.ns, w.account.Name, addr.Hex())
	Expect(k8s.Create(ctx, wal)).To(Succeed())
	w.chain.Register(addr)
	return wal, addr
}

// recovery creates the WalletRecovery of from to to.
func (w *world) recovery(from, to *investv1.Wallet) *investv1.WalletRecovery {
	GinkgoHelper()
	rec := &investv1.WalletRecovery{}
	rec.Namespace, rec.Name = w.ns, from.Name
	rec.Spec = investv1.WalletRecoverySpec{AccountID: investv1.ObjectID(w.account.Name), FromWalletID: investv1.ObjectID(from.Name), ToWalletID: investv1.ObjectID(to.Name)}
	Expect(k8s.Create(ctx, rec)).To(Succeed())
	return rec
}

func get(rec *investv1.WalletRecovery) *investv1.WalletRecovery {
	GinkgoHelper()
	cur := &investv1.WalletRecovery{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(rec), cur)).To(Succeed())
	return cur
}

// startAgent starts the outbox and the recovery controller in a manager of their own.
func (w *world) startAgent(backend outbox.Backend) *envtest.Manager {
	GinkgoHelper()
	if backend == nil {
		backend = w.chain.Client
	}
	return env.StartManager(env.Config, envtest.ManagerOptions{
		Options: func(o *ctrl.Options) {
			o.Cache = cache.Options{DefaultNamespaces: map[string]cache.Config{w.ns: {}}}
		},
		Setup: func(mgr ctrl.Manager) error {
			ob, err := outbox.New(outbox.Config{
				Backend: backend, Signer: w.chain.Agent, ChainID: w.chain.ChainID,
				Log: mgr.GetLogger().WithName("outbox"), HealInterval: 200 * time.Millisecond,
			})
			if err != nil {
				return err
			}
			ob.AddSource(recovery.Source(mgr.GetAPIReader()))
			if err := mgr.Add(ob); err != nil {
				return err
			}
			return (&recovery.Reconciler{
				Client: mgr.GetClient(), Chain: backend, Outbox: ob, Confirmations: 1, Poll: 100 * time.Millisecond,
				Recorder: mgr.GetEventRecorder(recovery.Name),
			}).SetupWithManager(mgr)
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

func (d *deadBroadcast) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.sent)
}

func pendingNonce(c *chaintest.Chain) uint64 {
	GinkgoHelper()
	n, err := c.Client.PendingNonceAt(ctx, c.Agent.Address())
	Expect(err).NotTo(HaveOccurred())
	return n
}
