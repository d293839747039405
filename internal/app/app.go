// Package app wires the manager: scheme, cache, indexes, controllers, admission webhooks
// and the REST facade. The production binary (cmd/manager), the local dev runner
// (cmd/devrun) and the envtest suites all build the manager through it, so what is
// tested is what runs.
package app

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/controllers/account"
	"github.com/fundshare/fundshare-operator/controllers/apiclient"
	"github.com/fundshare/fundshare-operator/controllers/delivery"
	"github.com/fundshare/fundshare-operator/controllers/order"
	"github.com/fundshare/fundshare-operator/controllers/settlement"
	"github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/index"
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
	// Controllers runs the reconcilers (leader-elected when leader election is on).
	Controllers bool
	// SandboxSettlement runs the built-in sandbox settlement agent with this delay per
	// step; negative turns it off.
	SandboxSettlement time.Duration
	// Chain configures the chain agent (controllers/delivery); no RPC URL: no chain, and
	// the sandbox's not-real token side settles the token steps.
	Chain delivery.Options
	// Token configures the share-class token, wallet registration and ledger controllers
	// (controllers/token) on the chain of Chain.
	Token token.Options
	// TrustedProxies are the reverse proxies whose X-Forwarded-For the token endpoint's
	// throttle believes; empty: the TCP peer is the source.
	TrustedProxies []netip.Prefix
}

// pagedInitialList turns off client-go's streaming initial list (WatchListClient, on by
// default since 1.35): with it, informers decode each object twice at start-up. make bench
// measured the manager's start with 100,000 orders at 93 s with it and 33 s without.
type pagedInitialList struct{ clientfeatures.Gates }

func (g pagedInitialList) Enabled(f clientfeatures.Feature) bool {
	return f != clientfeatures.WatchListClient && g.Gates.Enabled(f)
}

var pagedListOnce sync.Once

// NewManager creates a manager whose cache drops managedFields (nothing here reads them),
// keeps Orders compact (CompactOrder) and lists them streaming (streamlist.go), and
// registers the project's indexes.
func NewManager(cfg *rest.Config, opts ctrl.Options) (ctrl.Manager, error) {
	// Reflectors read the gate when they are built, that is from here on.
	pagedListOnce.Do(func() { clientfeatures.ReplaceFeatureGates(pagedInitialList{clientfeatures.FeatureGates()}) })
	opts.Scheme = scheme.New()
	opts.Cache.DefaultTransform = cache.TransformStripManagedFields()
	opts.Cache.ByObject = withOrderTransform(opts.Cache.ByObject)
	if streamingOrdersApply(opts.Cache) && opts.Cache.NewInformer == nil {
		hc, err := rest.HTTPClientFor(cfg)
		if err != nil {
			return nil, fmt.Errorf("create manager: %w", err)
		}
		orders, err := NewOrderRESTClient(cfg, opts.Scheme, hc)
		if err != nil {
			return nil, fmt.Errorf("create manager: %w", err)
		}
		opts.Cache.NewInformer = func(lw toolscache.ListerWatcher, obj runtime.Object, resync time.Duration, indexers toolscache.Indexers) toolscache.SharedIndexInformer {
			if _, ok := obj.(*investv1.Order); ok {
				lw = streamingOrderLister{ListerWatcherWithContext: toolscache.ToListerWatcherWithContext(lw), client: orders}
			}
			return toolscache.NewSharedIndexInformer(lw, obj, resync, indexers)
		}
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

// streamingOrdersApply tells whether the Order informer may list through the streaming
// lister: it lists every namespace without selectors, which is what the manager's cache
// asks for unless it was restricted.
func streamingOrdersApply(o cache.Options) bool {
	if len(o.DefaultNamespaces) > 0 || o.DefaultLabelSelector != nil || o.DefaultFieldSelector != nil {
		return false
	}
	for obj, by := range o.ByObject {
		if _, ok := obj.(*investv1.Order); ok && (len(by.Namespaces) > 0 || by.Label != nil || by.Field != nil) {
			return false
		}
	}
	return true
}

// withOrderTransform returns byObject with CompactOrder as the Orders' transform, unless
// the caller chose one (make bench measures the manager without it that way).
func withOrderTransform(byObject map[client.Object]cache.ByObject) map[client.Object]cache.ByObject {
	out := make(map[client.Object]cache.ByObject, len(byObject)+1)
	found := false
	for obj, by := range byObject {
		if _, ok := obj.(*investv1.Order); ok {
			found = true
			if by.Transform == nil {
				by.Transform = CompactOrder
			}
		}
		out[obj] = by
	}
	if !found {
		out[&investv1.Order{}] = cache.ByObject{Transform: CompactOrder}
	}
	return out
}

// Setup adds the controllers, webhooks and REST facade that c asks for.
func Setup(mgr ctrl.Manager, c Config) error {
	if err := mgr.AddHealthzCheck("ping", func(*http.Request) error { return nil }); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("ping", func(*http.Request) error { return nil }); err != nil {
		return err
	}
	if c.Webhooks {
		if err := webhooks.Setup(mgr, c.Namespace); err != nil {
			return fmt.Errorf("webhooks: %w", err)
		}
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
					Throttle: auth.NewThrottle(auth.ThrottleConfig{TrustedProxies: c.TrustedProxies}),
					Ready:    mgr.GetCache().WaitForCacheSync,
					Log:      log,
					Now:      time.Now,
				}), nil
			},
		}); err != nil {
			return err
		}
	}
	return nil
}

// setupControllers registers the reconcilers; with leader election on, only the leader
// runs them.
func setupControllers(mgr ctrl.Manager, c Config) error {
	if err := (&account.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("account controller: %w", err)
	}
	if err := (&apiclient.Reconciler{Client: mgr.GetClient(), Secrets: mgr.GetAPIReader()}).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("apiclient controller: %w", err)
	}
	if err := account.NewWalletReconciler(mgr.GetClient()).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("wallet controller: %w", err)
	}
	if err := account.NewPaymentMethodReconciler(mgr.GetClient()).SetupWithManager(mgr); err != nil {
		return fmt.Errorf("payment method controller: %w", err)
	}
	orders := &order.Reconciler{
		Client: mgr.GetClient(), Live: mgr.GetAPIReader(), Recorder: mgr.GetEventRecorder("order-controller"), Now: time.Now,
	}
	if err := orders.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("order controller: %w", err)
	}
	tokens := &token.Lookup{} // share classes report their tokens (unless --chain-tokens names them)
	if c.Chain.Tokens == nil && c.Chain.TokenList == "" {
		c.Chain.Tokens = tokens
	}
	rt, err := delivery.Setup(context.Background(), mgr, c.Chain, c.Namespace)
	if err != nil {
		return err
	}
	if rt != nil {
		if err := token.SetupWithRuntime(mgr, c.Token, rt, tokens); err != nil {
			return err
		}
	}
	if c.SandboxSettlement >= 0 {
		if err := settlement.SetupSandbox(mgr, c.SandboxSettlement, rt == nil); err != nil {
			return err
		}
	}
	return nil
}
