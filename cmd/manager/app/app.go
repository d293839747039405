// Package app is the composition root: it wires the manager (scheme, cache, indexes,
// controllers, admission webhooks and the REST facade) from the project's packages and
// holds no logic of its own. The production binary (cmd/manager), the local dev runner
// (cmd/devrun), make bench and the envtest suites all build the manager through it, so
// what is tested is what runs. It lives under cmd/manager, as cert-manager's does: no
// library package imports it.
package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/apiclient"
	"github.com/fundshare/fundshare-operator/controllers/bank"
	"github.com/fundshare/fundshare-operator/controllers/dealing"
	"github.com/fundshare/fundshare-operator/controllers/delivery"
	notifyctrl "github.com/fundshare/fundshare-operator/controllers/notify"
	"github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/controllers/recovery"
	"github.com/fundshare/fundshare-operator/controllers/retention"
	secondaryctrl "github.com/fundshare/fundshare-operator/controllers/secondary"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/controllers/strike"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/controllers/transfer"
	"github.com/fundshare/fundshare-operator/internal/archive"
	"github.com/fundshare/fundshare-operator/internal/archive/sqlstore"
	"github.com/fundshare/fundshare-operator/internal/bank/connector"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/lifecycle"
	"github.com/fundshare/fundshare-operator/internal/monitoring"
	"github.com/fundshare/fundshare-operator/internal/notify"
	"github.com/fundshare/fundshare-operator/internal/notify/egress"
	"github.com/fundshare/fundshare-operator/internal/ordercache"
	"github.com/fundshare/fundshare-operator/internal/scheme"
	"github.com/fundshare/fundshare-operator/internal/webhooks"
)

// Config chooses what the manager runs.
type Config struct {
	// RESTAddr is where the REST facade listens, e.g. 127.0.0.1:8080. Empty: no facade.
	RESTAddr string
	// PublicBaseURL is the facade's public address; its host name is the token audience.
	PublicBaseURL string
	// Namespace holds the operator's own Secrets (the JWT signing key).
	Namespace string
	// SigningKeySecret names the Secret with the JWT signing key.
	SigningKeySecret string
	// Webhooks registers the admission webhooks with the manager's webhook server.
	Webhooks bool
	// Clock is the time the dealing rules read (placement and cancellation of forward
	// orders against their cut-offs, the unpaid policy, the strike); nil: time.Now. Test
	// suites move it to cross a cut-off without waiting for it.
	Clock func() time.Time
	// Controllers runs the reconcilers (leader-elected when leader election is on).
	Controllers bool
	// SandboxSettlement runs the built-in sandbox settlement agent with this delay per
	// step; negative turns it off.
	SandboxSettlement time.Duration
	// Chain configures the chain agent (controllers/delivery); no RPC URL: no chain, and
	// the sandbox's not-real token side settles the token steps.
	Chain agent.Options
	// Token configures the share-class token, wallet registration and ledger controllers
	// (controllers/token) on the chain of Chain.
	Token token.Options
	// Transfers configures the transfer indexer (controllers/transfer) on the chain of
	// Chain: holders' transfers between wallets recorded as Transfer objects.
	Transfers transfer.Options
	// TrustedProxies are the reverse proxies whose X-Forwarded-For the token endpoint's
	// throttle believes; empty: the TCP peer is the source.
	TrustedProxies []netip.Prefix
	// RESTAccessLog logs every REST request at info level; off, only 5xx answers are
	// (apiserver.Deps.AccessLog).
	RESTAccessLog bool
	// Archive is the order archive (internal/archive): reads, holdings and placement count
	// the orders in it. Nil: none, and no retention.
	Archive archive.Store
	// WebhookEgress configures how outgoing webhooks are sent (AllowLoopbackHTTP for make
	// run and tests).
	WebhookEgress egress.Options
	// WebhookStore is the outgoing webhooks' outbox and delivery log; nil: the one in
	// Archive's database when Archive is a SQL archive (sqlstore), else no webhooks.
	WebhookStore notify.Store
	// OrderRetention is how long a done order stays in the cluster before the retention
	// controller moves it to Archive; 0 or negative: orders stay.
	OrderRetention time.Duration
	// BankFolder runs the bank ingestion (controllers/bank) on the folder connector rooted
	// there (internal/bank/connector): the statements the bank delivers into its inbox
	// record the payments of BUYs, payouts and refunds leave as pain.001 files in its
	// outbox (their pain.002 reports and debits coming back through the inbox), and the
	// sandbox settlement agent settles no money step. Empty: no bank. It needs Archive to
	// be a SQL archive: the bank ledger lives in its database.
	BankFolder string
	// BankInstant asks the bank for SEPA Instant Credit Transfers in the pain.001 files.
	BankInstant bool
	// BankConnector, when set, is the bank channel in place of the folder at BankFolder
	// (which the sandbox bank still uses): tests wrap the folder to fail a step. The REST
	// facade delivers operators' uploads of bank files into the bank channel (this one,
	// else the folder at BankFolder) when it implements connector.Uploader; set without
	// BankFolder, it takes uploads and nothing ingests them (the REST suite).
	BankConnector connector.Connector
	// BankPollInterval is how often the bank's inbox is looked at; 0: the default.
	BankPollInterval time.Duration
	// SandboxBank runs the sandbox bank of the dev run (controllers/bank.SandboxBank): it
	// pays every waiting BUY after SandboxSettlement with a camt.054 in BankFolder's
	// inbox, and answers every pain.001 in its outbox with a pain.002 and the camt.054 of
	// the debits, so that money goes through the bank ingestion both ways. Needs
	// BankFolder.
	SandboxBank bool
}

// NewManager creates a manager whose cache drops managedFields (nothing here reads them)
// and holds Orders as internal/ordercache configures them (compact, listed streaming,
// paged initial lists), and registers the project's indexes. opts.Scheme, when set, must
// know the project's kinds (cmd/main.go passes internal/scheme's with what kubebuilder adds);
// nil means internal/scheme's.
func NewManager(cfg *rest.Config, opts ctrl.Options) (ctrl.Manager, error) {
	ordercache.UsePagedInitialLists()
	if opts.Scheme == nil {
		opts.Scheme = scheme.New()
	}
	opts.Cache.DefaultTransform = cache.TransformStripManagedFields()
	ClassicWorkqueue(&opts)
	if err := ordercache.Configure(cfg, opts.Scheme, &opts.Cache); err != nil {
		return nil, fmt.Errorf("create manager: %w", err)
	}
	mgr, err := ctrl.NewManager(cfg, opts)
	if err != nil {
		return nil, fmt.Errorf("create manager: %w", err)
	}
	if err := index.Register(context.Background(), mgr.GetFieldIndexer()); err != nil {
		return nil, err
	}
	return mgr, nil
}

// ClassicWorkqueue makes the manager's controllers use client-go's rate-limited workqueue
// instead of controller-runtime's priority queue (its default), unless opts already choose.
//
// The priority queue of the pinned controller-runtime (v0.24.1) can deadlock when a
// manager stops (kubernetes-sigs/controller-runtime#3538, fixed by #3540, not in a v0.24
// release): a worker leaving on shutdown is still counted as waiting, the queue's hand-out
// goroutine blocks giving it an item while holding the queue's locks, and the other workers
// then block in Done. The manager hangs for its whole graceful-shutdown timeout and returns
// an error, so a leader change or a rolling update waits 30 s for nothing (seen in the
// delivery suite: a stopped agent that never stopped). Switch it back on once the pinned
// controller-runtime has the fix.
func ClassicWorkqueue(opts *ctrl.Options) {
	if opts.Controller.UsePriorityQueue == nil {
		opts.Controller.UsePriorityQueue = ptr.To(false)
	}
}

// Setup adds the controllers, webhooks and REST facade that c asks for.
func Setup(mgr ctrl.Manager, c Config) error {
	if err := mgr.AddHealthzCheck("ping", func(*http.Request) error { return nil }); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("ping", func(*http.Request) error { return nil }); err != nil {
		return err
	}
	// What the dashboards and alerts read of the objects (every replica, from the cache)
	// and whether the archive answers (every replica pings it).
	monitoring.Register(mgr.GetCache())
	if c.Archive != nil {
		probe := archive.NewProbe(c.Archive, archive.ProbeInterval)
		probe.Poll(context.Background())
		if err := mgr.Add(probe); err != nil {
			return err
		}
		archive.RegisterProbe(probe)
	}
	if c.Webhooks {
		opts := []webhooks.Option{webhooks.WithArchive(placementArchive(c.Archive)), webhooks.WithClock(c.clock()), webhooks.WithEgress(c.WebhookEgress)}
		if c.Chain.RPCURL != "" {
			// The webhooks read the chain on a connection of their own: they run on every
			// replica, the chain agent on the leader only.
			eth, id, err := agent.Dial(context.Background(), c.Chain)
			if err != nil {
				return fmt.Errorf("webhooks: %w", err)
			}
			opts = append(opts, webhooks.WithChain(eth, id.Int64()))
		}
		if err := webhooks.Setup(mgr, c.Namespace, opts...); err != nil {
			return fmt.Errorf("webhooks: %w", err)
		}
	}
	if c.BankFolder != "" && c.BankConnector == nil {
		// One folder for the ingestion (on the leader) and the facade's uploads (on every
		// replica).
		f, err := openBankFolder(c.BankFolder)
		if err != nil {
			return err
		}
		c.BankConnector = f
	}
	if c.Controllers {
		if err := setupControllers(mgr, c); err != nil {
			return err
		}
	}
	if c.RESTAddr != "" {
		// The signing key's Secret is read (or created) through an uncached client when the
		// manager starts: the manager never lists or watches Secrets, and the operator's
		// namespace may be created only after Setup (make run).
		direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
		if err != nil {
			return fmt.Errorf("rest: %w", err)
		}
		log := mgr.GetLogger().WithName("rest")
		// Every replica serves REST, not only the leader.
		if err := mgr.Add(&apiserver.Runnable{
			Addr: c.RESTAddr, ShutdownTimeout: 10 * time.Second, Log: log,
			Build: func(ctx context.Context) (*apiserver.Server, error) {
				keys, err := auth.EnsureSigningKey(ctx, direct, c.Namespace, c.SigningKeySecret)
				if err != nil {
					return nil, err
				}
				issuer, err := auth.NewIssuer(auth.IssuerConfig{Keys: keys, Issuer: c.PublicBaseURL})
				if err != nil {
					return nil, err
				}
				return apiserver.NewServer(apiserver.Deps{
					Reader:    mgr.GetCache(),
					Writer:    mgr.GetClient(),
					APIReader: mgr.GetAPIReader(),
					Issuer:    issuer,
					Clients: &apiserver.ClientStore{Cache: mgr.GetCache(), Secrets: mgr.GetAPIReader(), Log: log.WithName("clients"),
						DecoySecret: types.NamespacedName{Namespace: c.Namespace, Name: "fundshare-no-such-client"}},
					Throttle:  auth.NewThrottle(auth.ThrottleConfig{TrustedProxies: c.TrustedProxies}),
					Ready:     mgr.GetCache().WaitForCacheSync,
					Log:       log,
					AccessLog: c.RESTAccessLog,
					Now:       c.clock(),
					Archive:   c.Archive,
					Webhooks:  c.webhookStore(), WebhookEgress: c.WebhookEgress,
					BankConnector: c.BankConnector,
				}), nil
			},
		}); err != nil {
			return err
		}
	}
	return nil
}

// clock is the configured clock, time.Now by default.
func (c Config) clock() func() time.Time {
	if c.Clock != nil {
		return c.Clock
	}
	return time.Now
}

// setupControllers registers the reconcilers; with leader election on, only the leader
// runs them.
func setupControllers(mgr ctrl.Manager, c Config) error {
	if err := (&account.Reconciler{Client: mgr.GetClient(), Archive: placementArchive(c.Archive)}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("account controller: %w", err)
	}
	if err := (&apiclient.Reconciler{Client: mgr.GetClient(), Secrets: mgr.GetAPIReader()}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("apiclient controller: %w", err)
	}
	if err := account.NewPaymentMethodReconciler(mgr.GetClient()).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("payment method controller: %w", err)
	}
	orders := &order.Reconciler{
		Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("order-controller"), Now: c.clock(),
		Archive: placementArchive(c.Archive),
	}
	if err := orders.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("order controller: %w", err)
	}
	if err := (&dealing.Reconciler{Client: mgr.GetClient(), Now: c.clock()}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("dealing controller: %w", err)
	}
	if err := (&strike.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("strike-controller"), Now: c.clock()}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("strike controller: %w", err)
	}
	var events func(context.Context, *investv1.Order) error
	if ws := c.webhookStore(); ws != nil {
		rec, err := notifyctrl.Setup(mgr, notifyctrl.Config{Store: ws, Egress: c.WebhookEgress, Now: c.clock()})
		if err != nil {
			return err
		}
		events = rec.RecordOrder
	}
	if c.Archive != nil && c.OrderRetention > 0 {
		if err := (&retention.Reconciler{
			Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Store: c.Archive, Retention: c.OrderRetention,
			Recorder: mgr.GetEventRecorder("retention-controller"), Events: events,
		}).SetupWithManager(mgr); err != nil {
			return fmt.Errorf("retention controller: %w", err)
		}
	}
	windows := &secondaryctrl.Reconciler{Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("window-controller"), Now: c.clock()}
	rt, err := agent.Connect(context.Background(), mgr, c.Chain, c.Namespace)
	if err != nil {
		return err
	}
	// With a chain agent every wallet is registered in the identity registry (the token
	// controllers): a wallet is Ready once it is.
	wallets := account.NewWalletReconciler(mgr.GetClient())
	if rt != nil {
		wallets = account.NewRegisteringWalletReconciler(mgr.GetClient())
	}
	if err := wallets.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("wallet controller: %w", err)
	}
	if rt != nil {
		// The token lookup is made before the controllers that ask it: the tokens named on
		// the command line (--chain-tokens), else the share classes' own (their status).
		var tokens agent.TokenLookup = &token.Lookup{Reader: mgr.GetClient(), ChainID: rt.ChainID}
		if c.Chain.TokenList != "" {
			if tokens, err = agent.ParseTokens(c.Chain.TokenList, c.Chain.ChainID); err != nil {
				return fmt.Errorf("chain agent: %w", err)
			}
		}
		if err := delivery.Setup(mgr, rt, tokens); err != nil {
			return err
		}
		windows.Chain = delivery.WalletChecker{Chain: rt.Backend, Tokens: tokens}
		if err := token.SetupWithRuntime(mgr, c.Token, rt); err != nil {
			return err
		}
		// Holdings follow the token: the holders' transfers are indexed on the same chain,
		// at the same confirmations (eth_getLogs: ethclient and the simulated backend).
		ch, ok := rt.Backend.(transfer.Chain)
		if !ok {
			return fmt.Errorf("transfer indexer: the chain client %T cannot read logs", rt.Backend)
		}
		if _, err := transfer.Setup(mgr, ch, rt.Confirmations, c.Transfers); err != nil {
			return fmt.Errorf("transfer indexer: %w", err)
		}
		// Lost-key recovery signs on the agent's outbox, beside the token controllers.
		if err := recovery.Setup(mgr, recovery.Config{Outbox: rt.Outbox, Chain: rt.Backend, Confirmations: rt.Confirmations}); err != nil {
			return fmt.Errorf("wallet recovery controller: %w", err)
		}
	}
	// The secondary market's windows, after the chain agent (their checks at matching
	// read the chain when there is one).
	if err := windows.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("window controller: %w", err)
	}
	var leave []lifecycle.Step
	if c.BankFolder != "" {
		if err := c.setupBank(mgr); err != nil {
			return err
		}
		// The bank settles every money step: payments come from its statements, payouts
		// and refunds go out in its pain.001 files.
		leave = append(leave, lifecycle.MoneySteps()...)
	}
	if c.SandboxSettlement >= 0 {
		if err := settlement.SetupSandbox(mgr, c.SandboxSettlement, rt == nil, leave...); err != nil {
			return err
		}
	}
	return nil
}

// setupBank adds the bank ingestion on the folder at BankFolder, its ledger in the
// archive's database.
func (c Config) setupBank(mgr ctrl.Manager) error {
	if c.Archive == nil {
		return errors.New("bank ingestion: --bank-folder needs an order archive (--archive-dsn): the bank ledger lives in its database")
	}
	ledger, ok := sqlstore.Ledger(c.Archive)
	if !ok {
		return errors.New("bank ingestion: the order archive is not a SQL archive, and the bank ledger lives in one")
	}
	folder := c.BankConnector // Setup opened the folder at BankFolder when it was nil
	payouts, _ := sqlstore.Payouts(c.Archive)
	payer := &bank.Payer{Payouts: payouts, Connector: folder, Client: mgr.GetClient(), Recorder: mgr.GetEventRecorder("bank-payout"),
		Instant: c.BankInstant, Now: c.clock(), Log: mgr.GetLogger()}
	decisions, _ := sqlstore.Decisions(c.Archive)
	if err := bank.Setup(mgr, &bank.Ingester{Connector: folder, Ledger: ledger, Payer: payer, Decisions: decisions,
		PollInterval: c.BankPollInterval, Now: c.clock()}); err != nil {
		return err
	}
	if !c.SandboxBank {
		return nil
	}
	return bank.SetupSandbox(mgr, &bank.SandboxBank{
		VerifyPayees: true, RejectIBANs: []string{bank.SandboxClosedIBAN},
		Folder: c.BankFolder, Delay: max(c.SandboxSettlement, 0), PollInterval: c.BankPollInterval, Now: c.clock(),
	})
}

// openBankFolder opens the bank connector's folder at dir, creating it if need be.
func openBankFolder(dir string) (*connector.Folder, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("bank ingestion: %w", err)
	}
	f, err := connector.OpenFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("bank ingestion: %w", err)
	}
	return f, nil
}

// webhookStore is the configured webhook store, else the one in the archive's database;
// nil when there is neither.
func (c Config) webhookStore() notify.Store {
	if c.WebhookStore != nil {
		return c.WebhookStore
	}
	if c.Archive == nil {
		return nil
	}
	if ws, ok := sqlstore.Webhooks(c.Archive); ok {
		return ws
	}
	return nil
}

// placementArchive is the archive as holdings read it: nil when there is none.
func placementArchive(a archive.Store) history.Archive {
	if a == nil {
		return nil
	}
	return a
}
