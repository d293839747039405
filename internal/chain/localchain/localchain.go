// Package localchain is the EVM chain of `make run`: go-ethereum's simulated backend in
// process, mining a block every interval and serving JSON-RPC over HTTP on 127.0.0.1, with the
// identity registry and one share token per sample share class deployed at start.
//
// The chain lives in memory: a restart starts a new chain from genesis. The keys are kept in
// the local folder (mode 0600) and the contracts are deployed in a fixed way (the registry by
// the admin key's first transaction, each token by a deployer key derived from the admin key
// and the token's ISIN), so a restart gives every contract the same address again: what
// `.local/chain.json` says, and what the sample share classes adopt, stays true. What the
// previous chain held (registered wallets, minted units) is gone; the operator registers the
// wallets again and the reconciliation reports the holdings the new chain does not show.
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
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"

	"github.com/fundshare/fundshare-operator/internal/chain"
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
}

// Chain is a running local chain.
type Chain struct {
	Info

	backend     *simulated.Backend
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

	// The node panics when it cannot listen: say it plainly first.
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("local chain: JSON-RPC address %s is taken (is another `make run` running?): %w", addr, err)
	}
	_ = ln.Close()

	deployers := make([]*ecdsa.PrivateKey, len(classes))
	ether := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	funds := new(big.Int).Mul(ether, big.NewInt(1_000_000))
	alloc := types.GenesisAlloc{}
	alloc[crypto.PubkeyToAddress(operator.PublicKey)] = types.Account{Balance: funds}
	alloc[crypto.PubkeyToAddress(admin.PublicKey)] = types.Account{Balance: funds}
	for i, sc := range classes {
		deployers[i] = deployerKey(admin, sc.ISIN)
		alloc[crypto.PubkeyToAddress(deployers[i].PublicKey)] = types.Account{Balance: ether}
	}

	backend, err := newBackend(alloc, cfg.Port)
	if err != nil {
		return nil, err
	}
	c := &Chain{
		backend:     backend,
		operatorKey: operatorHex,
		stop:        make(chan struct{}),
		done:        make(chan struct{}),
	}
	defer func() {
		if err != nil {
			_ = backend.Close()
		}
	}()
	c.RPCURL = "http://" + addr
	c.ChainID = chain.SimulatedChainID
	c.Operator = crypto.PubkeyToAddress(operator.PublicKey)
	c.Admin = crypto.PubkeyToAddress(admin.PublicKey)
	c.Tokens = map[string]common.Address{}

	client := backend.Client()
	chainID, err := chain.VerifyChainID(ctx, client, chain.NetworkLocal, 0)
	if err != nil {
		return nil, err
	}
	adminSigner := keySigner(admin)
	reg, err := chain.DeployIdentityRegistry(ctx, client, adminSigner, chainID, c.Admin, c.Operator)
	if err != nil {
		return nil, err
	}
	c.Registry = reg.Address
	// A token's constructor checks that the registry is a contract: mine the registry first.
	if err := c.mined(ctx, reg.Tx); err != nil {
		return nil, err
	}
	var txs []*types.Transaction
	for i, sc := range classes {
		tok, err := chain.DeployShareToken(ctx, client, keySigner(deployers[i]), chainID, chain.ShareTokenParams{
			Name: sc.Name, Symbol: sc.ISIN, IdentityRegistry: reg.Address, Admin: c.Admin, Agent: c.Operator,
		})
		if err != nil {
			return nil, err
		}
		txs = append(txs, tok.Tx)
		c.Tokens[sc.ISIN] = tok.Address
	}
	if err := c.mined(ctx, txs...); err != nil {
		return nil, err
	}
	go c.mine(cfg.BlockInterval)
	return c, nil
}

// mined mines a block and checks that each deployment in it succeeded.
func (c *Chain) mined(ctx context.Context, txs ...*types.Transaction) error {
	c.backend.Commit()
	client := c.backend.Client()
	for _, tx := range txs {
		r, err := client.TransactionReceipt(ctx, tx.Hash())
		if err != nil {
			return fmt.Errorf("local chain: receipt of deployment %s: %w", tx.Hash().Hex(), err)
		}
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

// newBackend starts the simulated backend with JSON-RPC over HTTP on 127.0.0.1:port.
func newBackend(alloc types.GenesisAlloc, port int) (b *simulated.Backend, err error) {
	// simulated.NewBackend panics when the node does not start (the port was taken since the
	// check above): turn it into an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("local chain: start node: %v", r)
		}
	}()
	return simulated.NewBackend(alloc, func(n *node.Config, _ *ethconfig.Config) {
		n.HTTPHost = "127.0.0.1"
		n.HTTPPort = port
		n.HTTPModules = []string{"eth", "net", "web3"}
		// Host names besides IP addresses (which are always accepted) that may name the node.
		n.HTTPVirtualHosts = []string{"localhost"}
	}), nil
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
			c.backend.Commit()
		}
	}
}

// Client is an in-process client of the chain.
func (c *Chain) Client() simulated.Client { return c.backend.Client() }

// Backend is the simulated backend itself, for tests that fork the chain or mine on demand.
func (c *Chain) Backend() *simulated.Backend { return c.backend }

// OperatorKeyHex is the operator's private key as the chain signer's Secret holds it (64 hex
// characters). It is for that Secret only: never log it.
func (c *Chain) OperatorKeyHex() string { return c.operatorKey }

// Close stops mining and the node.
func (c *Chain) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.stop)
		<-c.done
		err = c.backend.Close()
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
