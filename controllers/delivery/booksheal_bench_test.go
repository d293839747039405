package delivery_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/cmd/manager/app"
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/localchain"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/chaintest"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/loopback"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// What the books-heal bench sets up and how it rolls the chain back.
const (
	healAccounts      = 10  // accounts with a registered wallet each, holding the orders
	healCompleted     = 100 // BUY orders COMPLETED before the rollback
	healInFlight      = 50  // BUY orders whose mint is recorded, not final, at the rollback
	healRegistrations = 3   // wallets whose registration is recorded, not final, at the rollback
	healDepth         = 100 // blocks the chain is rolled back

	// healBlockPeriod is the chain's block time while the manager runs: that of make run's
	// local chain.
	healBlockPeriod = localchain.DefaultBlockInterval
	// healConfirmations is --chain-confirmations (the local chain's order of magnitude).
	healConfirmations = 2
	// healLedgerInterval is --ledger-reconcile-interval: short, so that what is measured is
	// the healing, not the wait for the next round.
	healLedgerInterval = time.Second
	// healTransferInterval is --transfer-index-interval (its default).
	healTransferInterval = 2 * time.Second

	healPoll    = 100 * time.Millisecond
	healSetup   = 5 * time.Minute // each step of the set-up
	healTimeout = 5 * time.Minute // rollback → books healed (the target is 60 s)
)

// BenchmarkBooksHealedAfterA100BlockRollback is the rollback row of `make bench` (issue 21):
// the wall time from a 100-block rollback of the chain to the books healed, with the
// manager built as production builds it (app.NewManager and app.Setup: admission webhooks,
// the order and account controllers, the sandbox money side, the chain agent and its
// outbox with healing, the share-class, wallet and ledger controllers, the transfer
// indexer), dialling go-ethereum's simulated chain over JSON-RPC as it dials a node.
//
// Set-up (not timed): a chain mined to a steady base fee (warmUp); 10 accounts, each with a
// wallet the operator registers on chain, and two share classes adopting tokens on the
// chain; 100 BUY orders placed and run to COMPLETED (a block a second, as make run's local
// chain); then, with the chain paused, 50 more BUY orders until each mint is recorded and
// 3 more wallets until each registration is recorded, and one block that mines them (not
// final: 2 confirmations). The chain is then at least 100 blocks past the block before the
// first order, and is rolled back 100 blocks, its transaction pool dropped: a node
// restored from an older snapshot.
//
// Timed: from the rollback (a block a second again) until the books are healed, all at
// once: the agent's nonce on chain back at every transaction it recorded; every order
// COMPLETED; balanceOf of every wallet equal to its account's status.holdings for each
// ISIN; every new wallet Registered and verified by the registry; each share class
// ChainInSync=True, set after the rollback; every account LedgerInSync=True, with a whole
// ledger round (--ledger-reconcile-interval 1s) begun after the rollback. Reported:
// s/healed and the time to each part (s/nonce-caught-up, s/orders-completed,
// s/chain-in-sync, s/ledger-in-sync), and what the rollback took (txs-rolled-back,
// units-rolled-back).
func BenchmarkBooksHealedAfterA100BlockRollback(b *testing.B) {
	logFile, err := os.CreateTemp("", "books-heal-bench-*.log")
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = logFile.Close() }()
	b.Logf("manager log: %s", logFile.Name())
	e, err := envtest.New(envtest.Options{Webhooks: true, Logger: zap.New(zap.WriteTo(logFile))})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = e.Close() }()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := healBooksOnce(b, e)
		b.ReportMetric(r.healed.Seconds(), "s/healed")
		b.ReportMetric(r.nonce.Seconds(), "s/nonce-caught-up")
		b.ReportMetric(r.orders.Seconds(), "s/orders-completed")
		b.ReportMetric(r.chainInSync.Seconds(), "s/chain-in-sync")
		b.ReportMetric(r.ledger.Seconds(), "s/ledger-in-sync")
		b.ReportMetric(float64(r.txsTaken), "txs-rolled-back")
		b.ReportMetric(float64(r.unitsTaken), "units-rolled-back")
	}
}

// healResult is one run: the time from the rollback to each part of the books healed, and
// what the rollback took.
type healResult struct {
	healed, nonce, orders, chainInSync, ledger time.Duration
	txsTaken                                   uint64
	unitsTaken                                 int64
}

// healWorld is one run's chain, namespaces and objects.
type healWorld struct {
	b      *testing.B
	ctx    context.Context
	k      client.Client
	chain  *chaintest.Chain
	ns     string
	isins  []string
	tokens map[string]common.Address // by ISIN
	// classes are the share classes' names.
	classes []string
	// accounts and wallets: accounts[i] owns wallets[i] at addrs[i].
	accounts []*investv1.Account
	wallets  []*investv1.Wallet
	addrs    []common.Address
	orders   []*investv1.Order
}

func healBooksOnce(b *testing.B, e *envtest.Environment) healResult {
	b.Helper()
	b.StopTimer()
	ctx := context.Background()
	k := e.Client

	// The agent's key, which the manager loads from its Secret as in production.
	key, err := crypto.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	keyHex := hex.EncodeToString(crypto.FromECDSA(key))
	signer, err := chain.NewKeySigner(keyHex)
	if err != nil {
		b.Fatal(err)
	}
	c := chaintest.New(b, chaintest.WithAgent(signer), chaintest.ServeRPC(loopback.FreePort(b)))
	w := &healWorld{b: b, ctx: ctx, k: k, chain: c, tokens: map[string]common.Address{}}
	w.tokens[w.newISIN()] = c.Token
	w.tokens[w.newISIN()] = c.DeployToken("Fundshare Global Equity B", "LU0000000002")
	w.warmUp()

	opNS, err := controlplane.NewNamespace(ctx, k, "books-heal-operator")
	if err != nil {
		b.Fatal(err)
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: opNS, Name: "chain-signer"},
		Data:       map[string][]byte{agent.SecretKey: []byte(keyHex)},
	}
	must(b, k.Create(ctx, secret))

	// The manager as cmd/manager builds it, with the chain options of a local chain. No
	// client-side rate limit, as with ctrl.GetConfig.
	cfg := rest.CopyConfig(e.Config)
	cfg.QPS = -1
	mgr, err := e.RunManager(cfg, apptest.Manager(app.Config{
		Webhooks: true, Controllers: true, SandboxSettlement: 0, Namespace: opNS,
		Chain: agent.Options{
			RPCURL: c.RPCURL, ChainID: chain.SimulatedChainID, SignerSecret: secret.Name,
			Confirmations: healConfirmations, StuckAfter: 3 * time.Minute, BatchSize: 1,
		},
		Token:     token.Options{Registry: c.Registry.Hex(), LedgerInterval: healLedgerInterval},
		Transfers: transfer.Options{Range: transfer.DefaultRange, Interval: healTransferInterval},
	}))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = mgr.Close() }()

	if w.ns, err = controlplane.NewNamespace(ctx, k, "books-heal"); err != nil {
		b.Fatal(err)
	}
	if _, err := fixtures.MakeTenant(ctx, k, w.ns); err != nil {
		b.Fatal(err)
	}
	fund := fixtures.Fund()
	must(b, k.Create(ctx, fund))
	for _, isin := range w.isins {
		sc := fixtures.ShareClass(fund.Name, isin)
		sc.Spec.MinInvestment = 0
		sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeAdopt, Address: w.tokens[isin].Hex()}
		must(b, k.Create(ctx, sc))
		w.classes = append(w.classes, sc.Name)
		must(b, k.Create(ctx, fixtures.NAVHistory(isin, "EUR", investv1.NAVPrice{Date: "2026-10-31", NAVPerShare: 1_000_000})))
	}

	stopMiner := c.Mine(healBlockPeriod)
	defer func() { stopMiner() }()

	w.waitFor("the share classes' tokens ready", healSetup, func() (bool, string) {
		for _, name := range w.classes {
			sc := &investv1.ShareClass{}
			must(b, k.Get(ctx, client.ObjectKey{Name: name}, sc))
			if !meta.IsStatusConditionTrue(sc.Status.Conditions, token.TypeTokenReady) {
				return false, fmt.Sprintf("share class %s: %v", sc.Spec.ISIN, sc.Status.Conditions)
			}
		}
		return true, ""
	})
	for range healAccounts {
		w.addCustomer()
	}
	w.waitFor("the wallets registered", healSetup, func() (bool, string) { return w.registered(w.wallets) })

	step := func(what string) { b.Logf("%s: %s (block %d)", time.Now().Format(time.TimeOnly), what, c.Head()) }
	forkPoint := c.Head()
	step(fmt.Sprintf("placing %d BUY orders", healCompleted))
	w.place(healCompleted)
	w.waitFor("the orders completed", healSetup, func() (bool, string) { return w.completed() })
	w.waitFor("the ledger in sync before the rollback", healSetup, w.ledgerInSync)

	step(fmt.Sprintf("%d orders completed; pausing the chain", healCompleted))
	stopMiner()
	if h := c.Head(); h < forkPoint+healDepth-1 {
		c.Commit(int(forkPoint + healDepth - 1 - h))
	}
	firstNew := len(w.wallets)
	for range healRegistrations {
		w.addCustomer()
	}
	flying := w.place(healInFlight)
	w.waitFor("the in-flight mints and registrations recorded", healSetup, func() (bool, string) {
		for _, o := range flying {
			cur := &investv1.Order{}
			must(b, k.Get(ctx, client.ObjectKeyFromObject(o), cur))
			if cur.Status.Chain == nil || cur.Status.Chain.Transaction == nil {
				return false, "order " + o.Name + ": no mint recorded"
			}
		}
		for _, wal := range w.wallets[firstNew:] {
			cur := &investv1.Wallet{}
			must(b, k.Get(ctx, client.ObjectKeyFromObject(wal), cur))
			if cur.Status.Registration == nil || cur.Status.Registration.RegisterTransaction == nil {
				return false, "wallet " + wal.Name + ": no registration recorded"
			}
		}
		return true, ""
	})
	recorded := w.recordedNonces()
	w.waitFor("the recorded transactions in the node's pool", healSetup, func() (bool, string) {
		n, err := c.Client.PendingNonceAt(ctx, signer.Address())
		must(b, err)
		return n >= recorded, fmt.Sprintf("pending nonce %d, recorded %d", n, recorded)
	})
	c.Commit(1) // mined, not final

	// The rollback: the chain forgets the last healDepth blocks and the node's pool.
	nonceBefore := w.nonce()
	holdings := w.holdings()
	keep := c.Head() - healDepth
	step(fmt.Sprintf("rolling back %d blocks to block %d (orders placed above block %d)", healDepth, keep, forkPoint))
	w.forkBack(keep)
	rolledBack, roundsBefore := time.Now(), w.ledgerRounds()
	b.StartTimer()
	stopMiner = c.Mine(healBlockPeriod)

	res := healResult{txsTaken: nonceBefore - w.nonce()}
	tookUnits := map[string]bool{} // accounts the rollback took units from
	for i, a := range w.accounts {
		for isin, tok := range w.tokens {
			if d := holdings[a.Name][isin] - c.Balance(tok, w.addrs[i]); d > 0 {
				res.unitsTaken += d
				tookUnits[a.Name] = true
			}
		}
	}
	// A LedgerInSync=True counts once a whole ledger round began after the rollback: the
	// round running at the rollback may have read the chain before it (a True of then);
	// the next one begins after that one ends. A round that reads the chain while it is
	// behind sets False, and only a later round sets True again.
	ledgerFresh := func() bool { return w.ledgerRounds() >= roundsBefore+2 }
	step(fmt.Sprintf("rolled back: the agent's nonce fell from %d to %d (%d recorded), %d units of %d accounts gone",
		nonceBefore, nonceBefore-res.txsTaken, recorded, res.unitsTaken, len(tookUnits)))
	if res.txsTaken == 0 || res.unitsTaken == 0 {
		b.Fatalf("the rollback took nothing of the books (%d transactions, %d units)", res.txsTaken, res.unitsTaken)
	}

	since := func(d *time.Duration, ok bool) bool {
		if ok && *d == 0 {
			*d = time.Since(rolledBack)
		}
		return ok
	}
	deadline := time.Now().Add(healTimeout)
	var why string
	for {
		nonceOK := since(&res.nonce, w.nonce() >= recorded)
		ordersOK, ordersWhy := w.completed()
		since(&res.orders, ordersOK)
		syncOK, syncWhy := w.chainInSync(rolledBack)
		since(&res.chainInSync, syncOK)
		ledgerOK, ledgerWhy := w.ledgerInSync()
		if ledgerOK && !ledgerFresh() {
			ledgerOK, ledgerWhy = false, "no whole ledger round since the rollback"
		}
		since(&res.ledger, ledgerOK)
		booksOK, booksWhy := w.balancesEqualHoldings()
		regOK, regWhy := w.registered(w.wallets)
		if nonceOK && ordersOK && syncOK && ledgerOK && booksOK && regOK {
			res.healed = time.Since(rolledBack)
			break
		}
		why = strings.Join(slices.DeleteFunc([]string{ordersWhy, syncWhy, ledgerWhy, booksWhy, regWhy}, func(s string) bool { return s == "" }), "; ")
		if !nonceOK {
			why = fmt.Sprintf("nonce %d of %d; %s", w.nonce(), recorded, why)
		}
		if time.Now().After(deadline) {
			b.Fatalf("the books not healed %s after a %d-block rollback: %s", healTimeout, healDepth, why)
		}
		time.Sleep(healPoll)
	}
	b.StopTimer()
	stopMiner()
	step(fmt.Sprintf("healed in %s", res.healed.Round(time.Millisecond)))

	// Each order minted once, and no new nonce for an old effect.
	c.Commit(1)
	if n := w.nonce(); n != recorded {
		b.Fatalf("the agent's nonce is %d after healing, %d recorded", n, recorded)
	}
	for i, a := range w.accounts {
		for isin, tok := range w.tokens {
			want := 0
			for _, o := range w.orders {
				if string(o.Spec.AccountID) == a.Name && string(o.Spec.ISIN) == isin {
					want++
				}
			}
			if got := len(c.Mints(tok, w.addrs[i])); got != want {
				b.Fatalf("account %s, %s: %d mints for %d orders", a.Name, isin, got, want)
			}
		}
	}
	return res
}

// newISIN adds a random valid ISIN to the world.
func (w *healWorld) newISIN() string {
	body := fmt.Sprintf("XS%09d", rand.IntN(1_000_000_000))
	d, err := validation.ISINCheckDigit(body)
	must(w.b, err)
	isin := body + string(d)
	if slices.Contains(w.isins, isin) {
		return w.newISIN()
	}
	w.isins = append(w.isins, isin)
	return isin
}

// warmUp mines empty blocks until the base fee stops falling. A new simulated chain starts
// at a base fee of 1 gwei that falls by an eighth with each block far from full; a chain
// rolled back from there to an earlier block would bring back a higher base fee than the
// one the recorded transactions were priced for (twice the base fee at signing, plus the
// tip), and their recorded bytes would be mined only as fast as the base fee fell again
// (about one a block). A live chain's base fee moves with its demand, not with its age: the
// bench starts from the steady state.
func (w *healWorld) warmUp() {
	for range 1000 {
		before := w.baseFee()
		w.chain.Backend.Commit()
		if w.baseFee().Cmp(before) >= 0 {
			return
		}
	}
	w.b.Fatalf("the base fee still falls after 1000 blocks: %s wei", w.baseFee())
}

func (w *healWorld) baseFee() *big.Int {
	h, err := w.chain.Client.HeaderByNumber(w.ctx, nil)
	must(w.b, err)
	return h.BaseFee
}

// addCustomer creates an account with a wallet (its primary one) at a fresh address; the
// wallet controller registers the address on chain.
func (w *healWorld) addCustomer() {
	a := fixtures.IndividualAccount(w.ns)
	must(w.b, w.k.Create(w.ctx, a))
	addr := w.chain.NewWallet()
	wal := fixtures.Wallet(w.ns, a.Name, addr.Hex())
	must(w.b, w.k.Create(w.ctx, wal))
	patch := client.MergeFrom(a.DeepCopy())
	a.Spec.PrimaryWallet = wal.Name
	must(w.b, w.k.Patch(w.ctx, a, patch))
	w.accounts, w.wallets, w.addrs = append(w.accounts, a), append(w.wallets, wal), append(w.addrs, addr)
}

// place creates n BUY orders spread over the first healAccounts accounts and the ISINs.
func (w *healWorld) place(n int) []*investv1.Order {
	var placed []*investv1.Order
	for range n {
		i := len(w.orders)
		o := fixtures.BuyOrder(w.ns, w.accounts[i%healAccounts].Name, w.isins[i%len(w.isins)], int64(i%7+1))
		must(w.b, w.k.Create(w.ctx, o))
		w.orders = append(w.orders, o)
		placed = append(placed, o)
	}
	return placed
}

// registered says whether every wallet is Registered and verified by the registry.
func (w *healWorld) registered(wallets []*investv1.Wallet) (bool, string) {
	for _, wal := range wallets {
		cur := &investv1.Wallet{}
		must(w.b, w.k.Get(w.ctx, client.ObjectKeyFromObject(wal), cur))
		if r := cur.Status.Registration; r == nil || r.State != investv1.RegistrationRegistered {
			return false, "wallet " + wal.Name + " not Registered"
		}
		if !w.chain.Verified(common.HexToAddress(wal.Spec.WalletAddress)) {
			return false, "wallet " + wal.Name + " not verified on chain"
		}
	}
	return true, ""
}

// completed says whether every order is COMPLETED.
func (w *healWorld) completed() (bool, string) {
	var list investv1.OrderList
	must(w.b, w.k.List(w.ctx, &list, client.InNamespace(w.ns)))
	done := 0
	for _, o := range list.Items {
		if o.Status.State == investv1.StateCompleted {
			done++
		}
	}
	if done < len(w.orders) {
		return false, fmt.Sprintf("%d of %d orders COMPLETED", done, len(w.orders))
	}
	return true, ""
}

// chainInSync says whether every share class has ChainInSync=True, set at or after since:
// the share classes showed the chain behind, and then in sync again.
func (w *healWorld) chainInSync(since time.Time) (bool, string) {
	for _, name := range w.classes {
		sc := &investv1.ShareClass{}
		must(w.b, w.k.Get(w.ctx, client.ObjectKey{Name: name}, sc))
		c := meta.FindStatusCondition(sc.Status.Conditions, token.TypeChainInSync)
		switch {
		case c == nil || c.Status != metav1.ConditionTrue:
			return false, fmt.Sprintf("share class %s ChainInSync: %v", sc.Spec.ISIN, c)
		case c.LastTransitionTime.Time.Before(since.Truncate(time.Second)):
			return false, fmt.Sprintf("share class %s ChainInSync True since before the rollback", sc.Spec.ISIN)
		}
	}
	return true, ""
}

// ledgerInSync says whether every account has LedgerInSync=True.
func (w *healWorld) ledgerInSync() (bool, string) {
	for _, a := range w.accounts {
		cur := &investv1.Account{}
		must(w.b, w.k.Get(w.ctx, client.ObjectKeyFromObject(a), cur))
		if c := meta.FindStatusCondition(cur.Status.Conditions, token.TypeLedgerInSync); c == nil || c.Status != metav1.ConditionTrue {
			return false, fmt.Sprintf("account %s LedgerInSync: %v", a.Name, c)
		}
	}
	return true, ""
}

// ledgerRounds is the number of ledger reconciliation rounds the manager completed
// (fundshare_ledger_reconciliations_total{outcome="ok"}, in this process's registry).
func (w *healWorld) ledgerRounds() float64 {
	families, err := ctrlmetrics.Registry.Gather()
	must(w.b, err)
	for _, f := range families {
		if f.GetName() != "fundshare_ledger_reconciliations_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == "ok" {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

// holdings are the accounts' status.holdings: units by account name and ISIN.
func (w *healWorld) holdings() map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for _, a := range w.accounts {
		cur := &investv1.Account{}
		must(w.b, w.k.Get(w.ctx, client.ObjectKeyFromObject(a), cur))
		out[a.Name] = map[string]int64{}
		for _, h := range cur.Status.Holdings {
			out[a.Name][string(h.ISIN)] = h.Units
		}
	}
	return out
}

// balancesEqualHoldings says whether balanceOf of every account's wallet equals its
// holdings, for each ISIN, at the chain's head.
func (w *healWorld) balancesEqualHoldings() (bool, string) {
	holdings := w.holdings()
	for i, a := range w.accounts {
		for isin, tok := range w.tokens {
			if chainUnits, books := w.chain.Balance(tok, w.addrs[i]), holdings[a.Name][isin]; chainUnits != books {
				return false, fmt.Sprintf("account %s, %s: chain %d units, holdings %d", a.Name, isin, chainUnits, books)
			}
		}
	}
	return true, ""
}

// recordedNonces is one past the highest nonce the operator recorded for its key: the
// orders' mints and the wallets' registrations.
func (w *healWorld) recordedNonces() uint64 {
	var high int64 = -1
	var orders investv1.OrderList
	must(w.b, w.k.List(w.ctx, &orders, client.InNamespace(w.ns)))
	for _, o := range orders.Items {
		if c := o.Status.Chain; c != nil && c.Transaction != nil {
			high = max(high, c.Transaction.Nonce)
		}
	}
	var wallets investv1.WalletList
	must(w.b, w.k.List(w.ctx, &wallets, client.InNamespace(w.ns)))
	for _, wal := range wallets.Items {
		if r := wal.Status.Registration; r != nil && r.RegisterTransaction != nil {
			high = max(high, r.RegisterTransaction.Nonce)
		}
	}
	return uint64(high + 1)
}

// nonce is the agent's nonce at the chain's latest block: its transactions mined.
func (w *healWorld) nonce() uint64 {
	n, err := w.chain.Client.NonceAt(w.ctx, w.chain.Agent.Address(), nil)
	must(w.b, err)
	return n
}

// forkBack makes the chain forget every block above keep and drops the node's pool (the
// forgotten transactions the reorganisation puts back in it), as heal_test's forkBack: a
// node restored from an older snapshot, which only the operator can bring back.
func (w *healWorld) forkBack(keep uint64) {
	h, err := w.chain.Client.HeaderByNumber(w.ctx, new(big.Int).SetUint64(keep))
	must(w.b, err)
	w.chain.Backend.Rollback()
	must(w.b, w.chain.Backend.Fork(h.Hash()))
	w.chain.Backend.Rollback()
	w.chain.Commit(1)
	w.chain.Backend.Rollback()
	if head := w.chain.Head(); head != keep+1 {
		w.b.Fatalf("after the fork the head is %d, want %d", head, keep+1)
	}
}

// waitFor polls cond until it holds, failing the bench after timeout with cond's last
// reason.
func (w *healWorld) waitFor(what string, timeout time.Duration, cond func() (bool, string)) {
	w.b.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, why := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			w.b.Fatalf("%s: not within %s: %s", what, timeout, why)
		}
		time.Sleep(healPoll)
	}
}

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
