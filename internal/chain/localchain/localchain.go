// Package localchain is the EVM chain of `make run`: go-ethereum's simulated backend (the
// same pieces: an in-process node, the eth service and the simulated beacon that seals
// blocks) mining a block every interval and serving JSON-RPC over HTTP on 127.0.0.1, with
// the identity registry and one share token per sample share class deployed.
//
// The chain is kept on disk (Config.Dir/geth), like etcd's data: a restart continues the same
// chain, so what the operator recorded (transactions, nonces, registered wallets, minted
// units) stays true. Every block is on disk, fsynced, before anything of it is served: the
// node keeps every block's state (an archive node, go-ethereum's hash state scheme, each
// block's state written when the block is inserted), every block is followed by a sync of
// the database, and a JSON-RPC request over HTTP waits while a block is sealed and synced.
// So after a crash or kill -9 the chain comes back with every block it served; what it loses
// is its transaction pool (transactions sent but not yet in a block), and the operator
// re-broadcasts the transactions it recorded (the same bytes). A folder written by an
// earlier release (go-ethereum's default path scheme, which keeps recent state in memory and
// came back at the last clean stop after a crash) is refused: make clean-local starts afresh.
// The keys are kept in Config.Dir too (mode 0600). The contracts are deployed once, in a fixed way (the registry by the admin key's
// first transaction, each token by a deployer key derived from the admin key and the ISIN),
// so every contract keeps its address, and a share class added to the samples later gets
// its token on the next start.
//
// Development only: the keys are plain files and the chain id is the simulated backend's
// (1337), which the operator refuses to confuse with a public chain.
package localchain

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	gethhex "github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	gethrpc "github.com/ethereum/go-ethereum/rpc"

	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
)

// Defaults of the local chain's flags.
const (
	DefaultPort          = 8545
	DefaultBlockInterval = time.Second
)

// File names inside Config.Dir.
const (
	operatorKeyFile = "operator.key"
	adminKeyFile    = "admin.key"
)

// ShareClass is a share class that gets a token on the local chain.
type ShareClass struct {
	// ISIN is the token's symbol and the key of Info.Tokens.
	ISIN string
	// Name is the token's name.
	Name string
}

// Config configures the local chain.
type Config struct {
	// Dir keeps the operator (agent) and admin keys, created on first start.
	Dir string
	// Port is the JSON-RPC port on 127.0.0.1.
	Port int
	// BlockInterval is the time between two blocks; every block is mined, empty or not.
	BlockInterval time.Duration
	// ShareClasses get one token each.
	ShareClasses []ShareClass
}

// Info is what `.local/chain.json` holds: everything a tool needs to reach the chain and the
// contracts, and nothing secret.
type Info struct {
	// RPCURL is the JSON-RPC endpoint.
	RPCURL string `json:"rpc_url"`
	// ChainID is the chain id (1337).
	ChainID uint64 `json:"chain_id"`
	// Registry is the identity registry's address.
	Registry common.Address `json:"registry"`
	// Tokens maps each share class's ISIN to its token's address.
	Tokens map[string]common.Address `json:"tokens"`
	// Operator is the address of the operator's key, which holds AGENT_ROLE everywhere.
	Operator common.Address `json:"operator"`
	// Admin is the address of the admin key (DEFAULT_ADMIN_ROLE); it stays in the local folder.
	Admin common.Address `json:"admin"`
	// CashToken is the euro settlement token (contracts/src/CashToken.sol), whose issuer is
	// the admin key: the cash leg of delivery versus payment on chain.
	CashToken common.Address `json:"cash_token"`
	// Settlement is the delivery-versus-payment contract (DeliveryVersusPayment.sol); the
	// operator's key is its agent, and it is an agent of every token above.
	Settlement common.Address `json:"settlement"`
}

// Chain is a running local chain.
type Chain struct {
	Info

	node        *gethNode
	operatorKey string
	stop        chan struct{}
	done        chan struct{}
	closeOnce   sync.Once
}

// Start starts the chain, deploys the contracts (mined before Start returns), and then mines
// a block every interval until Close.
func Start(ctx context.Context, cfg Config) (_ *Chain, err error) {
	if cfg.Port <= 0 || cfg.Port > 65535 {
		return nil, fmt.Errorf("local chain: port %d out of range", cfg.Port)
	}
	if cfg.BlockInterval <= 0 {
		return nil, fmt.Errorf("local chain: block interval %s must be positive", cfg.BlockInterval)
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, err
	}
	operatorHex, operator, err := loadOrCreateKey(filepath.Join(cfg.Dir, operatorKeyFile))
	if err != nil {
		return nil, err
	}
	_, admin, err := loadOrCreateKey(filepath.Join(cfg.Dir, adminKeyFile))
	if err != nil {
		return nil, err
	}
	classes := slices.Clone(cfg.ShareClasses)
	seen := map[string]bool{}
	for _, sc := range classes {
		if sc.ISIN == "" || sc.Name == "" {
			return nil, errors.New("local chain: a share class needs an ISIN and a name")
		}
		if seen[sc.ISIN] {
			return nil, fmt.Errorf("local chain: ISIN %s twice", sc.ISIN)
		}
		seen[sc.ISIN] = true
	}

	// JSON-RPC is served on this listener once the contracts are deployed.
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("local chain: JSON-RPC address %s is taken (is another `make run` running?): %w", addr, err)
	}
	defer func() {
		if err != nil {
			_ = ln.Close()
		}
	}()

	// The genesis funds the two keys only, so it stays the same when share classes are
	// added (a stored chain refuses another genesis).
	funds := new(big.Int).Mul(ether, big.NewInt(1_000_000))
	alloc := types.GenesisAlloc{
		crypto.PubkeyToAddress(operator.PublicKey): {Balance: funds},
		crypto.PubkeyToAddress(admin.PublicKey):    {Balance: funds},
	}
	n, err := startNode(filepath.Join(cfg.Dir, "geth"), alloc, rawdb.HashScheme)
	if err != nil {
		return nil, err
	}
	c := &Chain{
		node:        n,
		operatorKey: operatorHex,
		stop:        make(chan struct{}),
		done:        make(chan struct{}),
	}
	defer func() {
		if err != nil {
			_ = n.close()
		}
	}()
	c.RPCURL = "http://" + addr
	c.ChainID = chain.SimulatedChainID
	c.Operator = crypto.PubkeyToAddress(operator.PublicKey)
	c.Admin = crypto.PubkeyToAddress(admin.PublicKey)
	c.Tokens = map[string]common.Address{}

	if err := c.deploy(ctx, admin, classes); err != nil {
		return nil, err
	}
	n.serve(ln)
	go c.mine(cfg.BlockInterval)
	return c, nil
}

// deploy deploys what the chain does not have yet: the registry (the admin's first
// transaction) and each share class's token (its deployer's first transaction; the admin
// funds the deployer first).
func (c *Chain) deploy(ctx context.Context, admin *ecdsa.PrivateKey, classes []ShareClass) error {
	client := c.node.client
	chainID, err := chain.VerifyChainID(ctx, client, chain.NetworkLocal, 0)
	if err != nil {
		return err
	}
	adminSigner := keySigner(admin)
	c.Registry = crypto.CreateAddress(c.Admin, 0)
	has, err := c.hasCode(ctx, c.Registry)
	if err != nil {
		return err
	}
	if !has {
		nonce, err := client.NonceAt(ctx, c.Admin, nil)
		if err != nil {
			return err
		}
		if nonce != 0 {
			return fmt.Errorf("local chain: the admin key has sent %d transactions but there is no registry at %s", nonce, c.Registry.Hex())
		}
		reg, err := chain.DeployIdentityRegistry(ctx, client, adminSigner, chainID, c.Admin, c.Operator)
		if err != nil {
			return err
		}
		// A token's constructor checks that the registry is a contract: mine the registry first.
		if err := c.mined(ctx, reg.Tx); err != nil {
			return err
		}
	}
	// Gas estimates run on the pending state, which follows a new block a moment later.
	if err := waitPending(ctx, func() (bool, error) {
		code, err := client.PendingCodeAt(ctx, c.Registry)
		return len(code) > 0, err
	}); err != nil {
		return err
	}

	var funding, deployments []*types.Transaction
	var missing []ShareClass
	// The admin's funding transfers are numbered here, one after the other: the node's
	// pending nonce follows a sent transaction only once its pool has taken it in (a
	// moment later), so asking it for each transfer could number two alike ("replacement
	// transaction underpriced", seen under load).
	adminNonce, err := client.PendingNonceAt(ctx, c.Admin)
	if err != nil {
		return err
	}
	deployers := map[string]*ecdsa.PrivateKey{}
	for _, sc := range classes {
		k := deployerKey(admin, sc.ISIN)
		from := crypto.PubkeyToAddress(k.PublicKey)
		c.Tokens[sc.ISIN] = crypto.CreateAddress(from, 0)
		has, err := c.hasCode(ctx, c.Tokens[sc.ISIN])
		if err != nil {
			return err
		}
		if has {
			continue
		}
		bal, err := client.BalanceAt(ctx, from, nil)
		if err != nil {
			return err
		}
		if bal.Cmp(ether) < 0 {
			tx, err := c.transfer(ctx, adminSigner, chainID, adminNonce, from, ether)
			if err != nil {
				return err
			}
			adminNonce++
			funding = append(funding, tx)
		}
		deployers[sc.ISIN] = k
		missing = append(missing, sc)
	}
	if err := c.mined(ctx, funding...); err != nil {
		return err
	}
	for _, sc := range missing {
		from := crypto.PubkeyToAddress(deployers[sc.ISIN].PublicKey)
		if err := waitPending(ctx, func() (bool, error) {
			bal, err := client.PendingBalanceAt(ctx, from)
			return err == nil && bal.Cmp(ether) >= 0, err
		}); err != nil {
			return err
		}
	}
	for _, sc := range missing {
		var tok chain.Deployment
		// The node's transaction pool takes up a new block's state a moment after it is
		// mined: a deployer funded in it may still look empty there.
		err := waitPending(ctx, func() (bool, error) {
			var err error
			tok, err = chain.DeployShareToken(ctx, client, keySigner(deployers[sc.ISIN]), chainID, chain.ShareTokenParams{
				Name: sc.Name, Symbol: sc.ISIN, IdentityRegistry: c.Registry, Admin: c.Admin, Agent: c.Operator,
			})
			if err != nil && strings.Contains(err.Error(), "insufficient funds") {
				return false, nil
			}
			return err == nil, err
		})
		if err != nil {
			return err
		}
		if tok.Address != c.Tokens[sc.ISIN] {
			return fmt.Errorf("local chain: token of %s deployed at %s, want %s", sc.ISIN, tok.Address.Hex(), c.Tokens[sc.ISIN].Hex())
		}
		deployments = append(deployments, tok.Tx)
	}
	if err := c.mined(ctx, deployments...); err != nil {
		return err
	}
	return c.deploySettlement(ctx, admin, chainID)
}

// deploySettlement deploys what delivery versus payment on chain needs and the chain does
// not have yet: the euro settlement token (issuer: the admin, make run's stand-in for a
// stablecoin issuer) and the settlement contract (agent: the operator), each its own
// deployer's first transaction so that its address never changes, and makes the settlement
// contract an agent of every token (the admin grants the role where it is missing).
func (c *Chain) deploySettlement(ctx context.Context, admin *ecdsa.PrivateKey, chainID *big.Int) error {
	client := c.node.client
	adminSigner := keySigner(admin)
	adminNonce, err := client.NonceAt(ctx, c.Admin, nil) // everything the admin sent is mined
	if err != nil {
		return err
	}
	for _, ct := range []struct {
		name   string
		addr   *common.Address
		deploy func(chain.Signer) (chain.Deployment, error)
	}{
		{"euro settlement token", &c.CashToken, func(s chain.Signer) (chain.Deployment, error) {
			return chain.DeployCashToken(ctx, client, s, chainID, "Euro settlement token (local chain)", "EURS", c.Admin, c.Admin)
		}},
		{"delivery versus payment", &c.Settlement, func(s chain.Signer) (chain.Deployment, error) {
			return chain.DeployDeliveryVersusPayment(ctx, client, s, chainID, c.Admin, c.Operator)
		}},
	} {
		k := deployerKey(admin, "contract "+ct.name)
		from := crypto.PubkeyToAddress(k.PublicKey)
		*ct.addr = crypto.CreateAddress(from, 0)
		has, err := c.hasCode(ctx, *ct.addr)
		if err != nil {
			return err
		}
		if has {
			continue
		}
		bal, err := client.BalanceAt(ctx, from, nil)
		if err != nil {
			return err
		}
		if bal.Cmp(ether) < 0 {
			tx, err := c.transfer(ctx, adminSigner, chainID, adminNonce, from, ether)
			if err != nil {
				return err
			}
			adminNonce++
			if err := c.mined(ctx, tx); err != nil {
				return err
			}
		}
		var d chain.Deployment
		if err := waitPending(ctx, func() (bool, error) {
			var err error
			d, err = ct.deploy(keySigner(k))
			if err != nil && strings.Contains(err.Error(), "insufficient funds") {
				return false, nil // the pool has not taken up the funding block yet
			}
			return err == nil, err
		}); err != nil {
			return err
		}
		if d.Address != *ct.addr {
			return fmt.Errorf("local chain: %s deployed at %s, want %s", ct.name, d.Address.Hex(), ct.addr.Hex())
		}
		if err := c.mined(ctx, d.Tx); err != nil {
			return err
		}
	}
	tok := contracts.NewShareToken()
	for _, isin := range slices.Sorted(maps.Keys(c.Tokens)) {
		inst := tok.Instance(client, c.Tokens[isin])
		has, err := bind.Call(inst, &bind.CallOpts{Context: ctx}, tok.PackHasRole(agentRole, c.Settlement), tok.UnpackHasRole)
		if err != nil {
			return fmt.Errorf("local chain: token of %s: %w", isin, err)
		}
		if has {
			continue
		}
		opts := chain.TransactOpts(ctx, adminSigner, chainID)
		opts.Nonce = new(big.Int).SetUint64(adminNonce)
		tx, err := bind.Transact(inst, opts, tok.PackGrantRole(agentRole, c.Settlement))
		if err != nil {
			return fmt.Errorf("local chain: make the settlement contract an agent of the token of %s: %w", isin, chain.DecodeError(err))
		}
		adminNonce++
		if err := c.mined(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}

// agentRole is the share token's AGENT_ROLE.
var agentRole = crypto.Keccak256Hash([]byte("AGENT_ROLE"))

// waitPending polls cond until it holds (at most ten seconds).
func waitPending(ctx context.Context, cond func() (bool, error)) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := cond()
		if err != nil {
			return fmt.Errorf("local chain: %w", err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("local chain: the node's pending state did not follow the mined block")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (c *Chain) hasCode(ctx context.Context, addr common.Address) (bool, error) {
	code, err := c.node.client.CodeAt(ctx, addr, nil)
	if err != nil {
		return false, fmt.Errorf("local chain: code at %s: %w", addr.Hex(), err)
	}
	return len(code) > 0, nil
}

// transfer sends wei from signer to to (a plain EIP-1559 value transfer) with nonce.
func (c *Chain) transfer(ctx context.Context, signer chain.Signer, chainID *big.Int, nonce uint64, to common.Address, wei *big.Int) (*types.Transaction, error) {
	client := c.node.client
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, err
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, err
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx, err := signer.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: wei,
	}), chainID)
	if err != nil {
		return nil, err
	}
	return tx, client.SendTransaction(ctx, tx)
}

// mined mines until each transaction is in a block, and checks that each succeeded. The
// node's pool takes a sent transaction in a moment after SendTransaction returns, so the
// block mined right after it may not hold it yet (seen under load: "receipt not found");
// mining again until the receipts are there costs at most a few empty blocks.
func (c *Chain) mined(ctx context.Context, txs ...*types.Transaction) error {
	if len(txs) == 0 {
		return nil
	}
	client := c.node.client
	receipts := make([]*types.Receipt, len(txs))
	if err := waitPending(ctx, func() (bool, error) {
		if err := c.node.seal(); err != nil {
			return false, err
		}
		for i, tx := range txs {
			if receipts[i] != nil {
				continue
			}
			r, err := client.TransactionReceipt(ctx, tx.Hash())
			switch {
			case errors.Is(err, ethereum.NotFound):
				return false, nil
			case err != nil:
				return false, fmt.Errorf("receipt of deployment %s: %w", tx.Hash().Hex(), err)
			}
			receipts[i] = r
		}
		return true, nil
	}); err != nil {
		return err
	}
	for i, tx := range txs {
		r := receipts[i]
		if r.Status != types.ReceiptStatusSuccessful {
			rev, rerr := chain.RevertOfReceipt(ctx, client, tx, r)
			if rerr != nil {
				return fmt.Errorf("local chain: deployment %s failed: %w", tx.Hash().Hex(), rerr)
			}
			return fmt.Errorf("local chain: deployment %s failed: %w", tx.Hash().Hex(), rev)
		}
	}
	return nil
}

var ether = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)

// gethNode is go-ethereum's simulated backend (ethclient/simulated) kept on disk: the same
// node, eth service, filter API and simulated beacon, with a data folder, without the
// rewind to genesis that the simulated backend does on start.
type gethNode struct {
	stack   *node.Node
	backend *eth.Ethereum
	beacon  *catalyst.SimulatedBeacon
	client  *ethclient.Client

	// rpc serves JSON-RPC over HTTP (eth, net, web3) through ServeHTTP.
	rpc     *gethrpc.Server
	handler http.Handler
	http    *http.Server

	// sealing is held to write while a block is sealed and synced to disk, and to read while
	// a JSON-RPC request over HTTP is served: nothing of a block is served before it is on
	// disk. go-ethereum writes its database without a sync (pebble.NoSync), and a block is
	// visible to requests as soon as its batch is written, before seal could sync it.
	sealing sync.RWMutex
	// broken is the failed sync (under sealing): the chain stops and serves nothing more.
	broken error
}

// httpModules are the JSON-RPC namespaces served over HTTP.
var httpModules = []string{"eth", "net", "web3"}

// startNode starts the node with its data in dataDir, keeping every block's state with
// scheme (rawdb.HashScheme; the tests write an earlier release's rawdb.PathScheme too);
// alloc is the genesis of a new chain (a stored chain keeps its own). JSON-RPC over HTTP
// starts with serve.
func startNode(dataDir string, alloc types.GenesisAlloc, scheme string) (*gethNode, error) {
	nodeConf := node.DefaultConfig
	nodeConf.Name = "fundshare-localchain"
	nodeConf.DataDir = dataDir
	nodeConf.IPCPath = ""
	nodeConf.P2P = p2p.Config{NoDiscovery: true, MaxPeers: 0, ListenAddr: ""}
	// No HTTP or WebSocket server of the node's own: serve runs one that waits for sealing.
	nodeConf.HTTPHost = ""
	nodeConf.WSHost = ""

	genesisAlloc := core.SystemContractAllocs()
	maps.Copy(genesisAlloc, alloc)
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{
		Config:   params.AllDevChainProtocolChanges,
		GasLimit: ethconfig.Defaults.Miner.GasCeil,
		Alloc:    genesisAlloc,
	}
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	ethConf.StateScheme = scheme
	if scheme == rawdb.HashScheme {
		// An archive node: every block's state is written to the database when the block is
		// inserted (go-ethereum's default keeps the latest states in memory and writes them
		// on a clean stop only). No snapshot either: it too is written on a clean stop, and
		// rebuilt after a crash.
		ethConf.NoPruning = true
		ethConf.SnapshotCache = 0
	}

	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, fmt.Errorf("local chain: node: %w", err)
	}
	if err := checkStateScheme(stack, scheme); err != nil {
		_ = stack.Close()
		return nil, err
	}
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		_ = stack.Close()
		return nil, fmt.Errorf("local chain: eth service (is %s a chain of another genesis? make clean-local starts afresh): %w", dataDir, err)
	}
	filterAPI := gethrpc.API{Namespace: "eth", Service: filters.NewFilterAPI(filters.NewFilterSystem(backend.APIBackend, filters.Config{}))}
	stack.RegisterAPIs([]gethrpc.API{filterAPI})
	srv := gethrpc.NewServer()
	srv.SetBatchLimits(nodeConf.BatchRequestLimit, nodeConf.BatchResponseMaxSize)
	apis := append(backend.APIs(), filterAPI, gethrpc.API{Namespace: "web3", Service: &web3API{name: nodeConf.NodeName()}})
	if err := node.RegisterApis(apis, httpModules, srv); err != nil {
		_ = stack.Close()
		return nil, fmt.Errorf("local chain: JSON-RPC: %w", err)
	}
	if err := stack.Start(); err != nil {
		_ = stack.Close()
		return nil, fmt.Errorf("local chain: start node: %w", err)
	}
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		_ = stack.Close()
		return nil, fmt.Errorf("local chain: beacon: %w", err)
	}
	return &gethNode{
		stack:   stack,
		backend: backend,
		beacon:  beacon,
		client:  ethclient.NewClient(stack.Attach()),
		rpc:     srv,
		// As the node's own HTTP server: no CORS, host names besides IP addresses (which are
		// always accepted) that may name the node, gzip.
		handler: node.NewHTTPHandlerStack(srv, nil, []string{"localhost"}, nil, false),
	}, nil
}

// checkStateScheme refuses a stored chain whose state is kept with another scheme than
// scheme: go-ethereum cannot convert it, and the earlier releases' path scheme loses the
// latest blocks on a crash.
func checkStateScheme(stack *node.Node, scheme string) error {
	dir := stack.ResolvePath("chaindata")
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil // a new chain
	}
	db, err := stack.OpenDatabaseWithOptions("chaindata", node.DatabaseOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("local chain: open %s: %w", dir, err)
	}
	stored := rawdb.ReadStateScheme(db)
	if err := db.Close(); err != nil {
		return fmt.Errorf("local chain: close %s: %w", dir, err)
	}
	if stored == "" || stored == scheme {
		return nil
	}
	return fmt.Errorf("local chain: %s holds a chain of an earlier release (go-ethereum's %s state scheme, which comes back at its last clean stop after a crash), and this release keeps every block with the %s scheme, which cannot read it: `make clean-local` forgets the local chain together with etcd, and the next `make run` starts both afresh", dir, stored, scheme)
}

// web3API is the web3 namespace the node serves on its own HTTP server.
type web3API struct{ name string }

// ClientVersion is web3_clientVersion.
func (a *web3API) ClientVersion() string { return a.name }

// Sha3 is web3_sha3: the Keccak-256 hash of the input.
func (a *web3API) Sha3(input gethhex.Bytes) gethhex.Bytes { return crypto.Keccak256(input) }

// seal seals a block and syncs the database, holding sealing to write: the block is on
// disk before any request sees it.
func (n *gethNode) seal() error {
	n.sealing.Lock()
	defer n.sealing.Unlock()
	if n.broken != nil {
		return n.broken
	}
	n.beacon.Commit()
	if err := n.backend.ChainDb().SyncKeyValue(); err != nil {
		n.broken = fmt.Errorf("local chain: sync of the database after a block: %w", err)
		return n.broken
	}
	return nil
}

// ServeHTTP serves a JSON-RPC request over HTTP, never while a block is being sealed.
func (n *gethNode) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n.sealing.RLock()
	defer n.sealing.RUnlock()
	if n.broken != nil {
		http.Error(w, n.broken.Error(), http.StatusServiceUnavailable)
		return
	}
	n.handler.ServeHTTP(w, r)
}

// serve serves JSON-RPC over HTTP on ln until close.
func (n *gethNode) serve(ln net.Listener) {
	t := gethrpc.DefaultHTTPTimeouts
	n.http = &http.Server{
		Handler:           n,
		ReadTimeout:       t.ReadTimeout,
		ReadHeaderTimeout: t.ReadHeaderTimeout,
		WriteTimeout:      t.WriteTimeout,
		IdleTimeout:       t.IdleTimeout,
	}
	go func() { _ = n.http.Serve(ln) }()
}

// close stops serving and the node. JSON-RPC over HTTP stops as go-ethereum's own server
// does: the RPC server first, then the HTTP server, cutting after 5 s the connections that
// are still open (a connection accepted without a request yet counts as busy for 5 s).
func (n *gethNode) close() error {
	n.rpc.Stop()
	if n.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := n.http.Shutdown(ctx); err != nil {
			_ = n.http.Close()
		}
	}
	n.client.Close()
	return errors.Join(n.beacon.Stop(), n.stack.Close())
}

func (c *Chain) mine(interval time.Duration) {
	defer close(c.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			if err := c.node.seal(); err != nil {
				// The disk failed: requests are refused with the error from now on.
				return
			}
		}
	}
}

// Client is an in-process client of the chain. Unlike JSON-RPC over HTTP it does not wait
// while a block is sealed and synced: it may see a block a moment before it is on disk.
func (c *Chain) Client() *ethclient.Client { return c.node.client }

// OperatorKeyHex is the operator's private key as the chain signer's Secret holds it (64 hex
// characters). It is for that Secret only: never log it.
func (c *Chain) OperatorKeyHex() string { return c.operatorKey }

// Close stops mining and the node.
func (c *Chain) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		err = c.node.close()
	})
	return err
}

// WriteInfo writes the chain's Info as JSON to path (mode 0644: it holds nothing secret).
func (c *Chain) WriteInfo(path string) error {
	data, err := json.MarshalIndent(c.Info, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644) //nolint:gosec // G306: public addresses only
}

// ReadInfo reads what WriteInfo wrote.
func ReadInfo(path string) (Info, error) {
	var info Info
	data, err := os.ReadFile(path)
	if err != nil {
		return info, err
	}
	return info, json.Unmarshal(data, &info)
}

// loadOrCreateKey returns the key kept in path, creating it (mode 0600) on first use.
func loadOrCreateKey(path string) (string, *ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		key, err := crypto.GenerateKey()
		if err != nil {
			return "", nil, err
		}
		h := hex.EncodeToString(crypto.FromECDSA(key))
		if err := os.WriteFile(path, []byte(h+"\n"), 0o600); err != nil {
			return "", nil, err
		}
		return h, key, nil
	case err != nil:
		return "", nil, err
	}
	h := strings.TrimSpace(string(data))
	key, err := crypto.HexToECDSA(h)
	if err != nil {
		// Name the file, never its content.
		return "", nil, fmt.Errorf("local chain: %s holds no valid key (delete it with the rest of the local folder: make clean-local)", path)
	}
	return h, key, nil
}

// deployerKey derives the key that deploys the token of isin: its first transaction creates
// the token, so the token's address depends on the admin key and the ISIN only.
func deployerKey(admin *ecdsa.PrivateKey, isin string) *ecdsa.PrivateKey {
	seed := crypto.Keccak256(crypto.FromECDSA(admin), []byte("fundshare local chain token deployer"), []byte(isin))
	for {
		if k, err := crypto.ToECDSA(seed); err == nil {
			return k
		}
		seed = crypto.Keccak256(seed) // not below the curve order: practically never
	}
}

func keySigner(k *ecdsa.PrivateKey) chain.Signer {
	s, err := chain.NewKeySigner(hex.EncodeToString(crypto.FromECDSA(k)))
	if err != nil {
		panic(err) // a key that crypto accepted
	}
	return s
}
