package token

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/source"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain/agent"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// ShareClassReconciler gives a share class the token its spec.token asks for and reports it
// in status.token: an adopted address once it passes the Verifier's checks, or a deployment
// through the outbox.
type ShareClassReconciler struct {
	Client   client.Client
	Verifier *Verifier
	ChainID  *big.Int
	// Recheck is how often a usable token is verified again (a revoked AGENT_ROLE shows).
	Recheck time.Duration
	// Deployer deploys tokens (spec.token.mode Deploy); nil: such share classes wait with
	// TokenReady=False.
	Deployer Deployer
	// Chain reports how the chain stands against the recorded transactions (the outbox's
	// healing): condition ChainInSync. Nil: the condition is not set.
	Chain ChainHealth
	// Outbox sends the operator's grant of AGENT_ROLE to a cash-on-chain market's
	// settlement contract on a token it deployed (settlement.go); nil: never granted, only
	// reported (SettlementReady).
	Outbox Outbox
	// Confirmations the grant needs before it is final (at least 1).
	Confirmations uint64
}

// ChainHealth is the outbox's view of the chain against its records.
type ChainHealth interface {
	Health() outbox.Health
	HealthChanges() <-chan struct{}
}

// behindRecheck is how often a share class looks at the chain's health again while the
// chain is behind the records.
const behindRecheck = 5 * time.Second

// Deployer sends a share class's token deployment and reports how it stands; see
// deploy.go.
type Deployer interface {
	// Deploy advances the deployment of sc's token one step, recording what it sends in
	// sc's status first; it returns the address once the deployment is final and succeeded,
	// a *Problem when it failed for good, or zero and nil while it waits.
	Deploy(ctx context.Context, sc *investv1.ShareClass) (addr common.Address, wait time.Duration, err error)
}

// Reconcile implements reconcile.Reconciler.
func (r *ShareClassReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	res, err := r.reconcile(ctx, req)
	if patch.Stale(err) {
		// Lost the optimistic-lock race (the status, or the deployment recorded in it,
		// was written meanwhile): routine, read again.
		return patch.Retry(ctx, err, "share class "+req.Name+" status")
	}
	if err == nil && r.Chain != nil && r.Chain.Health().State != outbox.InSync && (res.RequeueAfter == 0 || res.RequeueAfter > behindRecheck) {
		res.RequeueAfter = behindRecheck
	}
	return res, err
}

func (r *ShareClassReconciler) reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sc := &investv1.ShareClass{}
	if err := r.Client.Get(ctx, req.NamespacedName, sc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sc.Spec.Token == nil || !sc.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	chainID := r.ChainID.Int64()
	if st := sc.Status.Token; st != nil && st.ChainID != 0 && st.ChainID != chainID {
		return ctrl.Result{}, r.setStatus(ctx, sc, nil, &Problem{ReasonWrongChain,
			fmt.Sprintf("the token is recorded on chain %d, the operator is configured for chain %d", st.ChainID, chainID)})
	}

	var addr common.Address
	switch sc.Spec.Token.Mode {
	case investv1.TokenModeAdopt:
		addr = common.HexToAddress(sc.Spec.Token.Address)
	case investv1.TokenModeDeploy:
		if r.Deployer == nil {
			return ctrl.Result{}, r.setStatus(ctx, sc, nil, &Problem{ReasonDeploying, "no deployer is configured: this operator adopts tokens only"})
		}
		a, wait, err := r.Deployer.Deploy(ctx, sc)
		var p *Problem
		switch {
		case errors.As(err, &p):
			// A refused pre-flight (nothing sent) may pass later; a reverted deployment stays
			// recorded and is only reported again.
			return requeue(r.Recheck, r.setStatus(ctx, sc, nil, p))
		case err != nil:
			return ctrl.Result{}, err
		case a == (common.Address{}):
			msg := "deploying the ShareToken"
			if t := sc.Status.Token; t != nil && t.DeploymentTransaction != "" {
				msg = fmt.Sprintf("deployment %s to %s recorded and sent; waiting for it to be final", t.DeploymentTransaction, t.Address)
			}
			return requeue(wait, r.setStatus(ctx, sc, nil, &Problem{ReasonDeploying, msg}))
		}
		addr = a
	default:
		return ctrl.Result{}, nil
	}

	if other, err := r.tokenOfAnother(ctx, sc, addr); err != nil {
		return ctrl.Result{}, err
	} else if other != "" {
		return ctrl.Result{}, r.setStatus(ctx, sc, nil, &Problem{ReasonTokenInUse,
			fmt.Sprintf("the token at %s is already the token of share class %s", addr.Hex(), other)})
	}
	err := r.Verifier.Verify(ctx, addr)
	var p *Problem
	switch {
	case errors.As(err, &p) && p.Reason == ReasonPaused:
		// The token is the share class's, not usable for mints until it is unpaused.
		return requeue(r.Recheck, r.setStatus(ctx, sc, &addr, p))
	case errors.As(err, &p):
		// The chain may change (a role granted, a contract deployed): look again later.
		return requeue(r.Recheck, r.setStatus(ctx, sc, nil, p))
	case err != nil:
		return ctrl.Result{}, err
	}
	if err := r.setStatus(ctx, sc, &addr, nil); err != nil {
		return ctrl.Result{}, err
	}
	wait, err := r.settlementReady(ctx, sc, addr)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: cmp.Or(wait, r.Recheck)}, nil
}

// requeue asks to come back after d, unless err (then the controller's backoff applies).
func requeue(d time.Duration, err error) (ctrl.Result, error) {
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: d}, nil
}

// tokenOfAnother returns the share class (ISIN) that already reports addr as its token.
func (r *ShareClassReconciler) tokenOfAnother(ctx context.Context, sc *investv1.ShareClass, addr common.Address) (string, error) {
	var all investv1.ShareClassList
	if err := r.Client.List(ctx, &all); err != nil {
		return "", err
	}
	for _, o := range all.Items {
		if o.Name != sc.Name && o.Status.Token != nil && strings.EqualFold(o.Status.Token.Address, addr.Hex()) {
			return string(o.Spec.ISIN) + " (" + o.Name + ")", nil
		}
	}
	return "", nil
}

// setStatus records the token at addr (when set: it passed the checks) and how it stands:
// usable when p is nil, otherwise p says why not. TokenReady says whether the token is
// usable; Ready, Reconciling and Stalled (internal/conditions) say it the kstatus way: a
// deployment on its way is Reconciling, any other problem (a paused token included) needs
// a person and is Stalled. It writes only when something changed.
func (r *ShareClassReconciler) setStatus(ctx context.Context, sc *investv1.ShareClass, addr *common.Address, p *Problem) error {
	before := sc.DeepCopy()
	gen := sc.Generation
	if r.Chain != nil {
		setChainInSync(&sc.Status.Conditions, r.Chain.Health(), gen)
	}
	if addr != nil {
		if sc.Status.Token == nil {
			sc.Status.Token = &investv1.ShareClassTokenStatus{}
		}
		sc.Status.Token.Address = addr.Hex()
		sc.Status.Token.ChainID = r.ChainID.Int64()
		sc.Status.Token.IdentityRegistry = r.Verifier.Registry.Hex()
	}
	setTokenConditions(&sc.Status.Conditions, gen, sc.Spec.Token.Mode, addr, p)
	sc.Status.ObservedGeneration = gen
	if equalStatus(before, sc) {
		return nil
	}
	// A merge patch without the optimistic lock: this controller is the only writer of a
	// share class's conditions and of the token's address fields, and the patch carries
	// only what changed. The transfer indexer moves status.transfers (its cursor) with
	// every block, so a write under the lock would lose the race to it over and over (the
	// recorded deployment, which the outbox needs exactly, is still written under the lock).
	if err := r.Client.Status().Patch(ctx, sc, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("share class %s status: %w", sc.Name, err)
	}
	return nil
}

// setTokenConditions is the pure part of setStatus: TokenReady and the kstatus trio of a
// share class whose token is at addr (nil: not known or not checked) with problem p (nil:
// usable).
func setTokenConditions(conds *[]metav1.Condition, gen int64, mode investv1.TokenMode, addr *common.Address, p *Problem) {
	if p == nil {
		reason, msg := ReasonAdopted, "adopted the ShareToken at "+addr.Hex()
		if mode == investv1.TokenModeDeploy {
			reason, msg = ReasonDeployed, "deployed the ShareToken at "+addr.Hex()
		}
		meta.SetStatusCondition(conds, metav1.Condition{Type: TypeTokenReady, Status: metav1.ConditionTrue, Reason: reason, Message: msg, ObservedGeneration: gen})
		conditions.Ready(conds, gen, reason, msg)
		return
	}
	meta.SetStatusCondition(conds, metav1.Condition{Type: TypeTokenReady, Status: metav1.ConditionFalse, Reason: p.Reason, Message: p.Message, ObservedGeneration: gen})
	if p.Reason == ReasonDeploying {
		conditions.Reconciling(conds, gen, p.Reason, p.Message)
		return
	}
	conditions.Stalled(conds, gen, p.Reason, p.Message)
}

func equalStatus(a, b *investv1.ShareClass) bool {
	return equality.Semantic.DeepEqual(a.Status, b.Status)
}

// setChainInSync sets ChainInSync from the outbox's health.
func setChainInSync(conds *[]metav1.Condition, h outbox.Health, gen int64) {
	c := metav1.Condition{Type: TypeChainInSync, Status: metav1.ConditionTrue, Reason: h.State.String(), ObservedGeneration: gen,
		Message: fmt.Sprintf("the chain holds every transaction recorded as final (the agent's nonce on chain is %d)", h.ChainNonce)}
	if h.State != outbox.InSync {
		c.Status, c.Message = metav1.ConditionFalse, h.Message
	}
	meta.SetStatusCondition(conds, c)
}

// SetupWithManager watches share classes, and every share class with a token when the
// chain's health changes.
func (r *ShareClassReconciler) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).
		Named("shareclass-token").
		For(&investv1.ShareClass{}, builder.WithPredicates(predicate.GenerationChangedPredicate{}))
	if r.Chain != nil {
		ch := make(chan event.GenericEvent, 64)
		if err := mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
			for {
				select {
				case <-ctx.Done():
					return nil
				case <-r.Chain.HealthChanges():
				}
				var all investv1.ShareClassList
				if err := r.Client.List(ctx, &all); err != nil {
					mgr.GetLogger().Error(err, "list share classes after the chain's health changed")
					continue
				}
				for i := range all.Items {
					if all.Items[i].Spec.Token == nil {
						continue
					}
					select {
					case ch <- event.GenericEvent{Object: &all.Items[i]}:
					case <-ctx.Done():
						return nil
					}
				}
			}
		})); err != nil {
			return err
		}
		b = b.WatchesRawSource(source.Channel(ch, &handler.EnqueueRequestForObject{}))
	}
	return b.Complete(r)
}

// Lookup answers which token carries a share class's units (agent.TokenLookup, which the
// delivery agent and wallet recovery ask), read from the manager's cache. A share class's token is usable once
// TokenReady is True on the configured chain.
type Lookup struct {
	Reader  client.Reader
	ChainID *big.Int
}

var _ agent.TokenLookup = (*Lookup)(nil)

// ErrNoToken says the share class has no usable token (none asked for, not deployed yet,
// or stalled); the message says which. It is agent.ErrNoToken.
var ErrNoToken = agent.ErrNoToken

// Token returns the token of the share class with the ISIN (share classes are
// cluster-scoped: namespace does not matter), when its token is ready on the configured
// chain.
func (l *Lookup) Token(ctx context.Context, _ string, isin investv1.ISIN) (agent.Token, error) {
	var list investv1.ShareClassList
	if err := l.Reader.List(ctx, &list, client.MatchingFields{index.ShareClassISIN: string(isin)}); err != nil {
		return agent.Token{}, err
	}
	if len(list.Items) == 0 {
		return agent.Token{}, fmt.Errorf("share class %s: %w: no such share class", isin, ErrNoToken)
	}
	sc := &list.Items[0]
	switch {
	case sc.Spec.Token == nil:
		return agent.Token{}, fmt.Errorf("share class %s: %w: spec.token is not set", isin, ErrNoToken)
	case !tokenReady(sc):
		msg := "not ready yet"
		if c := meta.FindStatusCondition(sc.Status.Conditions, TypeTokenReady); c != nil {
			msg = c.Reason + ": " + c.Message
		}
		return agent.Token{}, fmt.Errorf("share class %s: %w: %s", isin, ErrNoToken, msg)
	case sc.Status.Token.ChainID != l.ChainID.Int64():
		return agent.Token{}, fmt.Errorf("share class %s: %w: token on chain %d, operator on chain %s", isin, ErrNoToken, sc.Status.Token.ChainID, l.ChainID)
	}
	return agent.Token{Address: common.HexToAddress(sc.Status.Token.Address), ChainID: sc.Status.Token.ChainID, LockUpDays: sc.Spec.LockUp}, nil
}
