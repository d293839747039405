package token_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// The token suite runs a real control plane with the admission webhooks, and a manager with
// the webhooks and this package's controllers (the order and account controllers are off, so
// a spec can write an account's holdings itself), against `make run`'s local chain: the
// simulated backend mining every 100 ms, reached over JSON-RPC on a loopback port.
var (
	env, k8s, ctx = envtest.Suite(envtest.Options{Webhooks: true})

	lc       *localchain.Chain
	eth      *ethclient.Client
	operator *chain.KeySigner
	// admin is the local chain's admin key, the specs' own signer: the operator's key
	// belongs to the outbox alone (a transaction signed with it beside the outbox would take
	// a nonce the outbox allocates).
	admin   *chain.KeySigner
	chainID *big.Int
	lookup  *Lookup
	ob      *outbox.Outbox
)

const settle, poll = envtest.Settle, envtest.Poll

// Sample share classes with a token deployed by the local chain at start.
const (
	sampleISIN      = "LU000FSHA019"
	otherSampleISIN = "IE000FSHD018"
	devrunISIN      = "LU000FSHI012"
)

func TestToken(t *testing.T) { env.Run(t, "Token suite (envtest + local chain)", startChainAndManager) }

// startChainAndManager starts the local chain and a manager with this package's
// controllers on it; the manager stops first, then the chain.
func startChainAndManager() {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	var err error
	lc, err = localchain.Start(ctx, localchain.Config{
		Dir: dir, Port: loopback.FreePort(GinkgoT()), BlockInterval: 100 * time.Millisecond,
		ShareClasses: []localchain.ShareClass{{ISIN: sampleISIN, Name: "Class A EUR Acc"}, {ISIN: otherSampleISIN, Name: "Class D EUR Dis"}, {ISIN: devrunISIN, Name: "Class I EUR Acc"}},
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = lc.Close() })
	eth, err = ethclient.Dial(lc.RPCURL)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(eth.Close)
	chainID, err = chain.VerifyChainID(ctx, eth, chain.NetworkLocal, 0)
	Expect(err).NotTo(HaveOccurred())
	operator, err = chain.NewKeySigner(lc.OperatorKeyHex())
	Expect(err).NotTo(HaveOccurred())
	adminKey, err := os.ReadFile(filepath.Join(dir, "admin.key"))
	Expect(err).NotTo(HaveOccurred())
	admin, err = chain.NewKeySigner(string(adminKey))
	Expect(err).NotTo(HaveOccurred())
	Expect(admin.Address()).To(Equal(lc.Admin))
	// The specs register wallets and mint outside the operator with the admin key.
	send(lc.Registry, contracts.NewIdentityRegistry().PackGrantRole(AgentRole, admin.Address()))
	ob, err = outbox.New(outbox.Config{Backend: eth, Signer: operator, ChainID: chainID, StuckAfter: time.Minute})
	Expect(err).NotTo(HaveOccurred())

	env.Manager = env.StartManager(env.Config, apptest.Manager(app.Config{Webhooks: true, SandboxSettlement: -1,
		// The wallet webhook reads the tokens on the local chain.
		Chain: agent.Options{RPCURL: lc.RPCURL, ChainID: chain.SimulatedChainID}},
		func(mgr ctrl.Manager) error {
			lookup = &Lookup{Reader: mgr.GetClient(), ChainID: chainID}
			// A wallet's Ready, Reconciling and Stalled follow its registration.
			if err := account.NewRegisteringWalletReconciler(mgr.GetClient()).SetupWithManager(mgr); err != nil {
				return err
			}
			if err := Setup(mgr, Config{
				Chain: eth, ChainID: chainID, Registry: lc.Registry, Operator: operator.Address(),
				LedgerInterval: 300 * time.Millisecond, Recheck: time.Second,
				Outbox: ob, Confirmations: 2,
			}); err != nil {
				return err
			}
			// The ledger compares an ISIN once its holder transfers are indexed.
			if _, err := transfer.Setup(mgr, eth, 2, transfer.Options{Interval: 200 * time.Millisecond}); err != nil {
				return err
			}
			if err := recovery.Setup(mgr, recovery.Config{Outbox: ob, Chain: eth, Confirmations: 2}); err != nil {
				return err
			}
			return mgr.Add(ob)
		}))
	DeferCleanup(func() { env.Manager.Stop() })
}

// isinSeq makes distinct valid ISINs for share classes the specs create.
var isinSeq atomic.Int64

func newISIN() string {
	body := fmt.Sprintf("XS%09d", 100_000_000+isinSeq.Add(1))
	d, err := validation.ISINCheckDigit(body)
	Expect(err).NotTo(HaveOccurred())
	return body + string(d)
}

// send signs data with the admin key, sends it to the contract and waits for a successful
// receipt.
func send(to common.Address, data []byte) *types.Receipt {
	GinkgoHelper()
	// bind.Transact sends the packed calldata as is: any binding's instance serves.
	inst := contracts.NewShareToken().Instance(eth, to)
	tx, err := bind.Transact(inst, chain.TransactOpts(ctx, admin, chainID), data)
	Expect(chain.DecodeError(err)).NotTo(HaveOccurred())
	return mined(tx)
}

func mined(tx *types.Transaction) *types.Receipt {
	GinkgoHelper()
	wctx, cancel := context.WithTimeout(ctx, settle)
	defer cancel()
	r, err := bind.WaitMined(wctx, eth, tx.Hash())
	Expect(err).NotTo(HaveOccurred())
	Expect(r.Status).To(Equal(types.ReceiptStatusSuccessful), "transaction %s", tx.Hash().Hex())
	return r
}

// balanceOf reads a wallet's units on a token.
func balanceOf(token, wallet common.Address) int64 {
	GinkgoHelper()
	tok := contracts.NewShareToken()
	b, err := bind.Call(tok.Instance(eth, token), &bind.CallOpts{Context: ctx}, tok.PackBalanceOf(wallet), tok.UnpackBalanceOf)
	Expect(err).NotTo(HaveOccurred())
	return b.Int64()
}

func newWalletAddress() common.Address {
	GinkgoHelper()
	k, err := crypto.GenerateKey()
	Expect(err).NotTo(HaveOccurred())
	return crypto.PubkeyToAddress(k.PublicKey)
}

func getShareClass(name string) *investv1.ShareClass {
	GinkgoHelper()
	sc := &investv1.ShareClass{}
	Expect(k8s.Get(ctx, client.ObjectKey{Name: name}, sc)).To(Succeed())
	return sc
}
