package token

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=matchingwindows,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets/finalizers,verbs=update
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=orders;transfers,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Config connects the controllers to the token chain.
type Config struct {
	// Chain is the chain's JSON-RPC client (ethclient.Client, or the simulated backend's).
	Chain Reader
	// ChainID is the verified chain id (chain.VerifyChainID).
	ChainID *big.Int
	// Registry is the identity registry every token must use.
	Registry common.Address
	// Operator is the operator signer's address, which must hold AGENT_ROLE.
	Operator common.Address
	// LedgerInterval is how often on-chain balances are compared with holdings; zero means
	// one minute, negative turns the reconciliation off.
	LedgerInterval time.Duration
	// Recheck is how often a usable token is verified again; zero means ten minutes.
	Recheck time.Duration
	// Outbox is the shared transaction outbox of the operator's key (the delivery agent's);
	// it deploys tokens and registers wallets. Nil: tokens are adopted only and wallets are
	// not registered (the registry is then kept by other means).
	Outbox *outbox.Outbox
	// Confirmations a deployment or (de)registration needs to be final (at least 1).
	Confirmations uint64
}

// Source lists for the outbox the transactions share classes (token deployments) and
// wallets (registrations and removals) have recorded, read from the API server.
func Source(r client.Reader) outbox.Source {
	return outbox.SourceFunc(func(ctx context.Context) ([]outbox.Record, error) {
		var recs []outbox.Record
		var classes investv1.ShareClassList
		if err := r.List(ctx, &classes); err != nil {
			return nil, err
		}
		for i := range classes.Items {
			sc := &classes.Items[i]
			if t := sc.Status.Token; t != nil {
				for _, tx := range []*investv1.ChainTransaction{t.Deployment, t.SettlementGrant} {
					if tx != nil {
						recs = append(recs, outbox.Record{Owner: "ShareClass " + sc.Name, Object: sc, Tx: tx})
					}
				}
			}
		}
		var wallets investv1.WalletList
		if err := r.List(ctx, &wallets); err != nil {
			return nil, err
		}
		for i := range wallets.Items {
			w := &wallets.Items[i]
			reg := w.Status.Registration
			if reg == nil {
				continue
			}
			for _, tx := range []*investv1.ChainTransaction{reg.RegisterTransaction, reg.RemoveTransaction} {
				if tx != nil {
					recs = append(recs, outbox.Record{Owner: "Wallet " + w.Namespace + "/" + w.Name, Object: w, Tx: tx})
				}
			}
		}
		return recs, nil
	})
}

// Setup adds the share-class token controller, the wallet registration controller (with an
// Outbox) and the ledger reconciliation to mgr.
func Setup(mgr ctrl.Manager, c Config) error {
	switch {
	case c.Chain == nil:
		return errors.New("token: Chain must be set")
	case c.ChainID == nil || c.ChainID.Sign() <= 0 || !c.ChainID.IsInt64():
		return errors.New("token: ChainID must be set")
	case c.Registry == (common.Address{}) || c.Operator == (common.Address{}):
		return errors.New("token: Registry and Operator must be set")
	}
	if c.LedgerInterval == 0 {
		c.LedgerInterval = time.Minute
	}
	if c.Recheck <= 0 {
		c.Recheck = 10 * time.Minute
	}
	sc := &ShareClassReconciler{
		Client:   mgr.GetClient(),
		Verifier: &Verifier{Chain: c.Chain, Registry: c.Registry, Operator: c.Operator},
		ChainID:  c.ChainID,
		Recheck:  c.Recheck,
	}
	if c.Outbox != nil {
		if c.Outbox.From() != c.Operator || c.Outbox.ChainID() != c.ChainID.Int64() {
			return errors.New("token: the outbox signs for another key or chain than Operator and ChainID")
		}
		c.Outbox.AddSource(Source(mgr.GetAPIReader()))
		sc.Chain = c.Outbox
		sc.Deployer = &OutboxDeployer{Client: mgr.GetClient(), Outbox: c.Outbox, Registry: c.Registry, Confirmations: c.Confirmations}
		sc.Outbox, sc.Confirmations = c.Outbox, c.Confirmations
		wr := &WalletReconciler{
			Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Chain: c.Chain,
			Outbox: c.Outbox, Registry: c.Registry, Confirmations: c.Confirmations,
		}
		if err := wr.SetupWithManager(mgr); err != nil {
			return err
		}
	}
	if err := sc.SetupWithManager(mgr); err != nil {
		return err
	}
	if c.LedgerInterval > 0 {
		if err := mgr.Add(&LedgerReconciler{
			Client: mgr.GetClient(), Chain: c.Chain, Interval: c.LedgerInterval, Confirmations: c.Confirmations,
			Recorder: mgr.GetEventRecorder("ledger-reconciliation"),
			Log:      mgr.GetLogger().WithName("ledger"),
		}); err != nil {
			return err
		}
	}
	return nil
}

// Options are the token controllers' settings on the manager's command line.
type Options struct {
	// Registry is the identity registry's address on the chain.
	Registry string
	// LedgerInterval is how often balances are reconciled with holdings (negative: off).
	LedgerInterval time.Duration
}

// BindFlags registers the token controllers' flags on fs.
func BindFlags(fs *flag.FlagSet, o *Options) {
	fs.StringVar(&o.Registry, "chain-registry", "", "address of the identity registry on the token chain (required with --chain-rpc-url)")
	fs.DurationVar(&o.LedgerInterval, "ledger-reconcile-interval", time.Minute, "how often on-chain balances are compared with account holdings (negative: off)")
}

// SetupWithRuntime adds the token controllers on the chain the chain agent connected (rt,
// from agent.Connect), sharing its outbox.
func SetupWithRuntime(mgr ctrl.Manager, o Options, rt *agent.Runtime) error {
	if !common.IsHexAddress(o.Registry) {
		return fmt.Errorf("token: --chain-registry %q: want the identity registry's address (0x and 40 hex digits)", o.Registry)
	}
	return Setup(mgr, Config{
		Chain: rt.Backend, ChainID: rt.ChainID, Registry: common.HexToAddress(o.Registry), Operator: rt.Outbox.From(),
		LedgerInterval: o.LedgerInterval, Outbox: rt.Outbox, Confirmations: rt.Confirmations,
	})
}
