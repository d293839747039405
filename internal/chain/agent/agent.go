// Package agent is the chain agent's neutral room: its options and flags, the connection
// to the chain (checked before anything is signed), the signer loaded from its Secret, the
// one transaction outbox of the agent key, and the question which token carries a share
// class's units. The composition root connects once (Connect) and hands the Runtime and a
// TokenLookup to every controller that signs or reads tokens (the delivery agent, the
// token controllers, the transfer indexer, wallet recovery), so none of them imports
// another and nothing is filled in after construction.
package agent

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// DefaultConfirmations is how many blocks (its own included) a mint or burn needs before
// it is final when none is configured. Polygon PoS finalises checkpoints in minutes; 64
// blocks (about two minutes at 2 s a block) is far past its usual reorg depth.
const DefaultConfirmations = 64

// MaxBatchSize is the most members a DeliveryBatch holds (its CRD's limit).
const MaxBatchSize = 256

// DefaultBatchWindow is how long the first order of a batch waits for more when no window
// is configured.
const DefaultBatchWindow = 2 * time.Second

// SecretKey is the key of the signer Secret's data that holds the hex private key.
const SecretKey = "key"

// Options configure the chain agent. An empty RPCURL means no chain is configured.
type Options struct {
	// RPCURL is the chain's JSON-RPC endpoint.
	RPCURL string
	// ChainID is the chain the endpoint must report: 137 (Polygon PoS), 80002 (Amoy) or a
	// local chain's id (1337, the simulated backend's, when zero).
	ChainID uint64
	// SignerSecret names the Secret whose data[SecretKey] holds the agent key (64 hex
	// characters): "name" (in the operator's namespace) or "namespace/name". Read once at
	// start through an uncached client; never logged.
	SignerSecret string
	// Confirmations a mint or burn needs before it is final; zero means
	// DefaultConfirmations.
	Confirmations uint64
	// StuckAfter is how long a transaction waits unmined before it is replaced with higher
	// fees; zero means the outbox's default.
	StuckAfter time.Duration
	// TokenList is "ISIN=0xADDRESS,…": the tokens of the share classes, until share classes
	// report their own.
	TokenList string
	// BatchSize is the most BUY orders of one namespace and share class minted in one
	// batchMint transaction; 1 (the default) mints each order on its own.
	BatchSize int
	// BatchWindow is how long the first order of a batch waits for more.
	BatchWindow time.Duration
}

// BindFlags registers the chain agent's flags on fs.
func BindFlags(fs *flag.FlagSet, o *Options) {
	fs.StringVar(&o.RPCURL, "chain-rpc-url", "", "JSON-RPC URL of the token chain; empty: no chain (the sandbox's not-real token side runs instead)")
	fs.Uint64Var(&o.ChainID, "chain-id", chain.SimulatedChainID, "chain id the endpoint must report: 137 (Polygon PoS), 80002 (Amoy) or a local chain's")
	fs.StringVar(&o.SignerSecret, "chain-signer-secret", "fundshare-chain-signer", "Secret (name in --namespace, or namespace/name) whose data key \"key\" holds the agent's hex private key")
	fs.Uint64Var(&o.Confirmations, "chain-confirmations", DefaultConfirmations, "blocks (the transaction's own included) before a mint or burn is final")
	fs.DurationVar(&o.StuckAfter, "chain-stuck-after", 3*time.Minute, "how long a transaction waits unmined before it is replaced with the same nonce and higher fees")
	fs.StringVar(&o.TokenList, "chain-tokens", "", "token contract per share class: ISIN=0xADDRESS,…")
	fs.IntVar(&o.BatchSize, "chain-batch-size", 1, fmt.Sprintf("most BUY orders of one namespace and share class minted in one batchMint transaction, or SECONDARY BUYs settled in one batchSettleWithRefs (at most %d); 1: each order is sent on its own", MaxBatchSize))
	fs.DurationVar(&o.BatchWindow, "chain-batch-window", DefaultBatchWindow, "how long the first BUY of a batch waits for more orders before the batch is minted (with --chain-batch-size above 1)")
}

// Validate checks the settings that need no chain: the batch size and the token list.
func (o Options) Validate() error {
	if o.BatchSize > MaxBatchSize {
		return fmt.Errorf("chain agent: --chain-batch-size %d is above %d (the most members a DeliveryBatch holds)", o.BatchSize, MaxBatchSize)
	}
	if _, err := ParseTokens(o.TokenList, o.ChainID); err != nil {
		return fmt.Errorf("chain agent: --chain-tokens: %w", err)
	}
	return nil
}

// Runtime is the connected chain: the one Outbox of the agent key, shared by every
// controller that sends transactions (the token controllers add their Sources to it).
type Runtime struct {
	Outbox        *outbox.Outbox
	Backend       outbox.Backend
	ChainID       *big.Int
	Confirmations uint64
	// BatchSize and BatchWindow are Options.BatchSize and .BatchWindow.
	BatchSize   int
	BatchWindow time.Duration
}

// Network is the named network of a chain id: polygon (137), amoy (80002), or local.
func Network(id uint64) chain.Network {
	switch id {
	case chain.PolygonPoSChainID:
		return chain.NetworkPolygon
	case chain.AmoyChainID:
		return chain.NetworkAmoy
	}
	return chain.NetworkLocal
}

// Dial connects to o.RPCURL and checks the chain's id before anything is read or signed.
func Dial(ctx context.Context, o Options) (*ethclient.Client, *big.Int, error) {
	backend, err := ethclient.DialContext(ctx, o.RPCURL)
	if err != nil {
		return nil, nil, fmt.Errorf("chain agent: dial the chain: %w", err)
	}
	id, err := chain.VerifyChainID(ctx, backend, Network(o.ChainID), o.ChainID)
	if err != nil {
		backend.Close()
		return nil, nil, fmt.Errorf("chain agent: %w", err)
	}
	return backend, id, nil
}

// Connect connects to o.RPCURL (checking the chain's id before anything is signed), loads
// the signer from its Secret (namespace is the operator's, for a SignerSecret without
// one) and adds the Outbox of the agent key to the manager (leader-elected; the
// controllers that record transactions add their Sources before the manager starts) and
// the chain Monitor (every replica; its metrics on the manager's endpoint). It
// returns nil and does nothing when no RPC URL is configured.
func Connect(ctx context.Context, mgr ctrl.Manager, o Options, namespace string) (*Runtime, error) {
	if o.RPCURL == "" {
		return nil, nil
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	secret := types.NamespacedName{Namespace: namespace, Name: o.SignerSecret}
	if ns, name, ok := strings.Cut(o.SignerSecret, "/"); ok {
		secret = types.NamespacedName{Namespace: ns, Name: name}
	}
	signer, err := LoadSigner(ctx, mgr.GetAPIReader(), secret)
	if err != nil {
		return nil, err
	}
	backend, id, err := Dial(ctx, o)
	if err != nil {
		return nil, err
	}
	marks := ConfigMapMarks{Reader: mgr.GetAPIReader(), Writer: mgr.GetClient(), Namespace: namespace, Name: MarkName(signer.Address(), id.Int64())}
	rt, err := NewRuntime(backend, signer, id, o.Confirmations, o.StuckAfter, mgr, WithMarks(marks))
	if err != nil {
		return nil, err
	}
	rt.BatchSize, rt.BatchWindow = o.BatchSize, o.BatchWindow
	// The chain monitor (head, head lag, the signer's gas balance) runs on every replica,
	// on this replica's own connection; its first reading is taken now, so the first
	// scrape already has the true values.
	mon := NewMonitor(backend, signer.Address(), MonitorInterval, time.Now)
	mon.Poll(ctx)
	if err := mgr.Add(mon); err != nil {
		return nil, err
	}
	RegisterMonitor(mon)
	mgr.GetLogger().WithName("chain").Info("chain agent configured", "chainID", id, "signer", signer.Address().Hex(), "confirmations", rt.Confirmations)
	return rt, nil
}

// RuntimeOption changes the outbox's configuration.
type RuntimeOption func(*outbox.Config)

// WithMarks keeps the outbox's reservation mark in marks: the records behind the chain are
// detected (outbox health RecordsBehind).
func WithMarks(marks outbox.Marks) RuntimeOption {
	return func(c *outbox.Config) { c.Marks = marks }
}

// NewRuntime creates the Outbox for signer on a verified chain and adds it to the
// manager.
func NewRuntime(backend outbox.Backend, signer chain.Signer, chainID *big.Int, confirmations uint64, stuckAfter time.Duration, mgr ctrl.Manager, opts ...RuntimeOption) (*Runtime, error) {
	if confirmations == 0 {
		confirmations = DefaultConfirmations
	}
	events := mgr.GetEventRecorder("chain-outbox")
	cfg := outbox.Config{
		Backend: backend, Signer: signer, ChainID: chainID, StuckAfter: stuckAfter,
		Log: mgr.GetLogger().WithName("outbox"),
		// What the outbox's healing says about an owner becomes an Event on it; what it
		// says about the signer is logged, and the share classes show it (ChainInSync).
		Notify: func(n outbox.Notice) {
			if n.Record == nil || n.Record.Object == nil {
				return
			}
			typ := corev1.EventTypeNormal
			if n.Warning {
				typ = corev1.EventTypeWarning
			}
			events.Eventf(n.Record.Object, nil, typ, n.Reason, "Heal", "%s", n.Message)
		},
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	ob, err := outbox.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := mgr.Add(ob); err != nil {
		return nil, err
	}
	return &Runtime{Outbox: ob, Backend: backend, ChainID: chainID, Confirmations: confirmations}, nil
}

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get

// LoadSigner reads the agent key from the Secret's data[SecretKey]. Errors name the Secret,
// never its content.
func LoadSigner(ctx context.Context, reader client.Reader, name types.NamespacedName) (*chain.KeySigner, error) {
	if name.Name == "" {
		return nil, errors.New("chain agent: no signer Secret configured")
	}
	s := &corev1.Secret{}
	if err := reader.Get(ctx, name, s); err != nil {
		return nil, fmt.Errorf("chain agent: read the signer Secret %s: %w", name, err)
	}
	raw, ok := s.Data[SecretKey]
	if !ok {
		return nil, fmt.Errorf("chain agent: the signer Secret %s has no %q key", name, SecretKey)
	}
	signer, err := chain.NewKeySigner(string(raw))
	clear(raw)
	if err != nil {
		return nil, fmt.Errorf("chain agent: the signer Secret %s: %w", name, err)
	}
	return signer, nil
}

// ParseTokens reads a token configuration "ISIN=0xADDRESS,ISIN=0xADDRESS" for chainID.
func ParseTokens(s string, chainID uint64) (StaticTokens, error) {
	out := StaticTokens{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		isin, addr, ok := strings.Cut(pair, "=")
		if !ok || !common.IsHexAddress(addr) {
			return nil, fmt.Errorf("token %q: want ISIN=0x and 40 hex digits", pair)
		}
		if chainID == 0 {
			chainID = chain.SimulatedChainID
		}
		out[investv1.ISIN(strings.TrimSpace(isin))] = Token{Address: common.HexToAddress(addr), ChainID: int64(chainID)}
	}
	return out, nil
}

// Token is a share class's token contract on a chain.
type Token struct {
	Address common.Address
	ChainID int64
	// LockUpDays is the share class's lock-up (spec.lockUp): above zero, a BUY's units are
	// minted locked until the release time recorded in the order's status.chain.lockedUntil.
	LockUpDays int32
}

// ErrNoToken says the share class has no usable token (none asked for, not deployed yet,
// or stalled); the error's message says which.
var ErrNoToken = errors.New("the share class has no token")

// TokenLookup finds the token of the share class with an ISIN, for orders in namespace.
// It returns an error wrapping ErrNoToken while there is none (not deployed yet). The
// token controllers implement it from the share classes (token.Lookup); StaticTokens
// from configuration.
type TokenLookup interface {
	Token(ctx context.Context, namespace string, isin investv1.ISIN) (Token, error)
}

// StaticTokens is a TokenLookup from a fixed map (tests, and a configuration that names
// the tokens: --chain-tokens).
type StaticTokens map[investv1.ISIN]Token

// Token implements TokenLookup.
func (s StaticTokens) Token(_ context.Context, _ string, isin investv1.ISIN) (Token, error) {
	t, ok := s[isin]
	if !ok {
		return Token{}, fmt.Errorf("%w: %s", ErrNoToken, isin)
	}
	return t, nil
}
