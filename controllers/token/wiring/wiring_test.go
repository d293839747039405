// Package wiring_test checks make run's wiring end to end: a manager built by app.Setup with
// the chain options cmd/devrun gives it (the local chain's RPC URL, the signer Secret that
// devdata.StartLocalChain writes, the registry) registers wallets and adopts the sample
// share classes' tokens through the delivery agent's outbox.
package wiring_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/devdata"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
)

func TestWiring(t *testing.T) { envtest.RunSuite(t, "make run's chain wiring (envtest + local chain)") }

var ctx = context.Background()

var _ = It("make run's manager, connected to the local chain, adopts the sample tokens and registers wallets through the agent's outbox", func() {
	env := envtest.Start(envtest.Options{})
	DeferCleanup(env.Stop)
	k8s := env.Client
	Expect(devdata.EnsureNamespace(ctx, k8s, devdata.OperatorNamespace)).To(Succeed())

	catalogue := filepath.Join(controlplane.Root(), "config", "samples", "catalogue.yaml")
	lc, err := devdata.StartLocalChain(ctx, k8s, devdata.LocalChainConfig{
		LocalDir: GinkgoT().TempDir(), Catalogue: catalogue, Port: loopback.FreePort(GinkgoT()), BlockInterval: 100 * time.Millisecond,
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(lc.Close)

	// The same options cmd/devrun passes.
	m := env.StartManager(env.Config, envtest.ManagerOptions{
		New: app.NewManager,
		Setup: func(mgr ctrl.Manager) error {
			return app.Setup(mgr, app.Config{
				Namespace: devdata.OperatorNamespace, Controllers: true, SandboxSettlement: -1,
				Chain: agent.Options{RPCURL: lc.RPCURL, ChainID: lc.ChainID, SignerSecret: devdata.ChainSignerSecret, Confirmations: 2},
				Token: token.Options{Registry: lc.Registry.Hex(), LedgerInterval: time.Second},
			})
		},
	})
	DeferCleanup(m.Stop)

	Expect(devdata.ApplyFile(ctx, k8s, catalogue)).To(Succeed())
	differing, err := devdata.AdoptLocalTokens(ctx, k8s, lc.Tokens)
	Expect(err).NotTo(HaveOccurred())
	Expect(differing).To(BeEmpty())
	Eventually(func(g Gomega) {
		var list investv1.ShareClassList
		g.Expect(k8s.List(ctx, &list)).To(Succeed())
		g.Expect(list.Items).To(HaveLen(len(lc.Tokens)))
		for _, sc := range list.Items {
			g.Expect(meta.IsStatusConditionTrue(sc.Status.Conditions, token.TypeTokenReady)).To(BeTrue(), "%s: %v", sc.Spec.ISIN, sc.Status.Conditions)
			g.Expect(sc.Status.Token.Address).To(Equal(lc.Tokens[string(sc.Spec.ISIN)].Hex()))
		}
	}, 60*time.Second, 200*time.Millisecond).Should(Succeed())

	ns := env.NewTenant("wiring")
	acct := fixtures.IndividualAccount(ns)
	Expect(k8s.Create(ctx, acct)).To(Succeed())
	addr := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	w := fixtures.Wallet(ns, acct.Name, addr.Hex())
	Expect(k8s.Create(ctx, w)).To(Succeed())
	Eventually(func(g Gomega) {
		got := &investv1.Wallet{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(w), got)).To(Succeed())
		g.Expect(got.Status.Registration).NotTo(BeNil())
		g.Expect(got.Status.Registration.State).To(Equal(investv1.RegistrationRegistered))
		g.Expect(got.Status.Registration.RegisterTransaction.From).To(Equal(lc.Operator.Hex()))
	}, 60*time.Second, 200*time.Millisecond).Should(Succeed())

	eth, err := ethclient.Dial(lc.RPCURL)
	Expect(err).NotTo(HaveOccurred())
	defer eth.Close()
	reg := contracts.NewIdentityRegistry()
	out, err := eth.CallContract(ctx, ethereumCall(lc.Registry, reg.PackIsVerified(addr)), nil)
	Expect(err).NotTo(HaveOccurred())
	ok, err := reg.UnpackIsVerified(out)
	Expect(err).NotTo(HaveOccurred())
	Expect(ok).To(BeTrue())

	// The ledger reconciliation runs too: the account holds nothing and the chain agrees.
	Eventually(func(g Gomega) {
		got := &investv1.Account{}
		g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(acct), got)).To(Succeed())
		c := meta.FindStatusCondition(got.Status.Conditions, token.TypeLedgerInSync)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(metav1.ConditionTrue))
	}, 60*time.Second, 200*time.Millisecond).Should(Succeed())
})

func ethereumCall(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}
