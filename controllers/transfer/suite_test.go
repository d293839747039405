package transfer_test

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The transfer suite runs a real control plane with the account controller (holdings),
// and per spec a real EVM (go-ethereum's simulated backend, mined when the spec commits)
// with the registry and a token that a share class of the spec uses. Specs run the indexer
// round by round (Indexer.Round), or as the manager runs it (Start).
var env, k8s, ctx = envtest.Suite(envtest.Options{})

const (
	timeout  = 30 * time.Second
	interval = 50 * time.Millisecond
	// confirmations of the specs' indexers.
	confirmations = 2
)

func TestTransfer(t *testing.T) { env.Run(t, "Transfer indexer suite", startManager) }

func startManager() {
	GinkgoHelper()
	env.Manager = env.StartManager(env.Config, envtest.ManagerOptions{
		New: app.NewManager,
		Setup: func(mgr ctrl.Manager) error {
			return (&account.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
		},
		SkipNameValidation: true,
	})
	DeferCleanup(func() { env.Manager.Stop() })
}

// world is one spec's chain and share class.
type world struct {
	chain *chaintest.Chain
	isin  investv1.ISIN
	sc    *investv1.ShareClass
}

// newWorld starts a chain and a share class whose token is the chain's, ready, with a
// lock-up of lockUp days. The share class goes when the spec ends (other specs' indexers
// list every share class).
func newWorld(lockUp int32) *world {
	GinkgoHelper()
	c := chaintest.New(GinkgoT())
	w := &world{chain: c, isin: investv1.ISIN(envtest.NewISIN())}
	sc := fixtures.ShareClass(controlplane.NewID(), string(w.isin))
	sc.Spec.LockUp = lockUp
	Expect(k8s.Create(ctx, sc)).To(Succeed())
	DeferCleanup(func() { Expect(client.IgnoreNotFound(k8s.Delete(ctx, sc))).To(Succeed()) })
	sc.Status.Token = &investv1.ShareClassTokenStatus{Address: c.Token.Hex(), ChainID: c.ChainID.Int64(), IdentityRegistry: c.Registry.Hex()}
	meta.SetStatusCondition(&sc.Status.Conditions, metav1.Condition{Type: "TokenReady", Status: metav1.ConditionTrue, Reason: "Adopted", Message: "test"})
	Expect(k8s.Status().Update(ctx, sc)).To(Succeed())
	w.sc = sc
	return w
}

// indexer is an indexer on the spec's chain, reading and writing through the direct client.
func (w *world) indexer() *transfer.Indexer {
	return &transfer.Indexer{Client: k8s, Live: k8s, Chain: w.chain.Client, Confirmations: confirmations, Range: 3, Log: GinkgoLogr}
}

// holder is an account of a tenant with one registered wallet whose key sends transfers.
type holder struct {
	ns      string
	account *investv1.Account
	wallet  *investv1.Wallet
	key     *chain.KeySigner
}

func (h *holder) address() common.Address { return h.key.Address() }

// holders makes n accounts, each in a namespace of its own (a tenant), each with a funded,
// registered wallet key.
func (w *world) holders(n int) []*holder {
	GinkgoHelper()
	keys := w.chain.Investors(n)
	out := make([]*holder, n)
	for i, k := range keys {
		ns := env.NewNamespace("transfer")
		a := fixtures.IndividualAccount(ns)
		Expect(k8s.Create(ctx, a)).To(Succeed())
		wal := fixtures.Wallet(ns, a.Name, k.Address().Hex())
		Expect(k8s.Create(ctx, wal)).To(Succeed())
		w.chain.Register(k.Address())
		out[i] = &holder{ns: ns, account: a, wallet: wal, key: k}
	}
	return out
}

// bought records a COMPLETED buy of units for the holder, completed at `at`, and mints
// them to its wallet, as the chain agent would have.
func (w *world) bought(h *holder, units int64, at time.Time) {
	GinkgoHelper()
	o := fixtures.BuyOrder(h.ns, h.account.Name, string(w.isin), units)
	o.Spec.WalletID = investv1.ObjectID(h.wallet.Name)
	Expect(k8s.Create(ctx, o)).To(Succeed())
	o.Status.State = investv1.StateCompleted
	o.Status.History = []investv1.OrderTransition{{State: investv1.StateCompleted, At: metav1.NewTime(at), Reason: "SetByTest"}}
	Expect(k8s.Status().Update(ctx, o)).To(Succeed())
	w.chain.Mint(w.chain.Token, h.address(), units)
}

// send moves units on chain from one holder's wallet to an address, signed by the holder.
func (w *world) send(from *holder, to common.Address, units int64) uint64 {
	GinkgoHelper()
	r := w.chain.Send(from.key, w.chain.Token, w.chain.TokenABI.PackTransfer(to, big.NewInt(units)))
	return r.BlockNumber.Uint64()
}

// confirm commits blocks until every block so far has the confirmations.
func (w *world) confirm() { w.chain.Commit(confirmations) }

// holding is the account's status holding of the world's ISIN (zero when none).
func (w *world) holding(g Gomega, h *holder) investv1.Holding {
	a := &investv1.Account{}
	g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(h.account), a)).To(Succeed())
	for _, x := range a.Status.Holdings {
		if x.ISIN == w.isin {
			return x
		}
	}
	return investv1.Holding{ISIN: w.isin}
}

// transfers are the Transfer objects of the world's ISIN, in every namespace.
func (w *world) transfers() []investv1.Transfer {
	GinkgoHelper()
	var list investv1.TransferList
	Expect(k8s.List(ctx, &list, client.MatchingLabels{investv1.LabelISIN: string(w.isin)})).To(Succeed())
	return list.Items
}

func (w *world) cursor() *investv1.TransferCursor {
	GinkgoHelper()
	sc := &investv1.ShareClass{}
	Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w.sc), sc)).To(Succeed())
	return sc.Status.Transfers
}

// errKilled stops an indexer between its Transfer writes and its cursor write.
var errKilled = errors.New("indexer killed before the cursor write")

// run starts the indexer as the manager runs it until the spec ends.
func run(x *transfer.Indexer) {
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = x.Start(c)
	}()
	DeferCleanup(func() { cancel(); <-done })
}

// walletOf is a second Wallet of the holder's account.
func walletOf(h *holder, address string) *investv1.Wallet {
	return fixtures.Wallet(h.ns, h.account.Name, address)
}

func commonHash(s string) common.Hash { return common.HexToHash(s) }

func bigInt(n uint64) *big.Int { return new(big.Int).SetUint64(n) }

// forkBack makes block keep the chain's head and drops the node's pool (as
// controllers/delivery's heal specs roll a chain back), then mines one block on it.
func forkBack(w *world, keep uint64) {
	GinkgoHelper()
	h, err := w.chain.Client.HeaderByNumber(ctx, bigInt(keep))
	Expect(err).NotTo(HaveOccurred())
	w.chain.Backend.Rollback()
	Expect(w.chain.Backend.Fork(h.Hash())).To(Succeed())
	w.chain.Backend.Rollback()
	w.chain.Commit(1)
	w.chain.Backend.Rollback()
	Expect(w.chain.Head()).To(Equal(keep + 1))
}
