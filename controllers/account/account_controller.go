// Package account keeps what spans an account and its children true: the account's
// primary pointers resolve to its own wallet and payment method details (reported as
// conditions), each child's status mirrors whether it is the primary one, and deleting an
// account removes its wallets and payment method details (a finalizer: the local control
// plane has no garbage collector). Controllers here never write a spec field.
package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/holdings"
	"github.com/fundshare/fundshare-operator/internal/holdings/history"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// Finalizer holds a deleted account until its wallets and payment method details are gone.
// Admission puts it on every new account; Reconcile adds it to older ones.
const Finalizer = investv1.AccountFinalizer

// Condition types of an account.
const (
	ConditionPrimaryWallet        = "PrimaryWalletResolved"
	ConditionPrimaryPaymentMethod = "PrimaryPaymentMethodDetailsResolved"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=accounts/finalizers,verbs=update
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets;paymentmethoddetails,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=apiclients;orders;shareclasses;transfers,verbs=get;list;watch

// Reconciler reconciles Accounts.
type Reconciler struct {
	Client client.Client
	// Archive holds the account's orders that left the cluster (controllers/retention):
	// their lots count. Nil: no archive. While it cannot be read, holdings are left as
	// they were and the account is not released from deletion.
	Archive history.Archive
	// Now is the clock for lock-ups; time.Now when nil.
	Now func() time.Time
}

// Reconcile ensures the finalizer, removes the children of a deleted account and reports
// whether the primary pointers resolve.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	acct := &investv1.Account{}
	if err := r.Client.Get(ctx, req.NamespacedName, acct); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	log := ctrl.LoggerFrom(ctx)
	if !acct.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, acct)
	}
	if !controllerutil.ContainsFinalizer(acct, Finalizer) {
		patch := client.MergeFrom(acct.DeepCopy())
		controllerutil.AddFinalizer(acct, Finalizer)
		if err := r.Client.Patch(ctx, acct, patch); err != nil {
			return ctrl.Result{}, err
		}
		log.V(1).Info("added the finalizer", "finalizer", Finalizer)
		return ctrl.Result{}, nil
	}

	before := acct.DeepCopy()
	wallet, err := r.resolve(ctx, acct, acct.Spec.PrimaryWallet, &investv1.Wallet{}, func(o client.Object) investv1.ObjectID {
		return o.(*investv1.Wallet).Spec.AccountID
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	pmd, err := r.resolve(ctx, acct, acct.Spec.PrimaryPaymentMethodDetails, &investv1.PaymentMethodDetails{}, func(o client.Object) investv1.ObjectID {
		return o.(*investv1.PaymentMethodDetails).Spec.AccountID
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	logResolution(ctx, acct, "wallet", acct.Spec.PrimaryWallet, wallet)
	logResolution(ctx, acct, "paymentMethodDetails", acct.Spec.PrimaryPaymentMethodDetails, pmd)
	setConditions(&acct.Status, acct.Generation, wallet, pmd)
	acct.Status.ObservedGeneration = acct.Generation
	result, err := r.setHoldings(ctx, acct)
	if err != nil {
		return ctrl.Result{}, err
	}
	if equality.Semantic.DeepEqual(before.Status, acct.Status) {
		return result, nil
	}
	// The order controller adds reservations to this status concurrently: write only on
	// the version read, and come back on a conflict.
	if err := patch.Status(ctx, r.Client, acct, before); err != nil {
		return patch.Retry(ctx, err, "write the account's status")
	}
	logConditionChanges(ctx, before.Status.Conditions, acct.Status.Conditions)
	log.V(1).Info("status written", "holdings", len(acct.Status.Holdings), "reservations", len(acct.Status.Reservations))
	return result, nil
}

// logResolution says, at V(1), what a primary pointer resolves to; the conditions it
// changes are logged at info once written.
func logResolution(ctx context.Context, acct *investv1.Account, kind, id string, res resolution) {
	if id == "" {
		return
	}
	log := ctrl.LoggerFrom(ctx).V(1).WithValues(kind, klog.KRef(acct.Namespace, id), "reason", res.reason)
	if res.ok {
		log.Info("primary pointer resolved")
		return
	}
	log.Info("primary pointer refused", "message", res.message)
}

// logConditionChanges logs each condition whose status or reason a write changed.
func logConditionChanges(ctx context.Context, before, after []metav1.Condition) {
	log := ctrl.LoggerFrom(ctx)
	for _, c := range after {
		if old := meta.FindStatusCondition(before, c.Type); old == nil || old.Status != c.Status || old.Reason != c.Reason {
			log.Info("condition changed", "type", c.Type, "status", c.Status, "reason", c.Reason, "message", c.Message)
		}
	}
	for _, c := range before {
		if meta.FindStatusCondition(after, c.Type) == nil {
			log.Info("condition removed", "type", c.Type, "reason", c.Reason)
		}
	}
}

// setHoldings derives the holdings from the account's orders, live and archived, and its
// on-chain transfers (an
// unreadable archive is an error: the status is left as it was), and drops the reservations
// of orders that reached a terminal state (a completed sell is counted as sold instead).
// The result asks to come back when the next locked lot unlocks.
func (r *Reconciler) setHoldings(ctx context.Context, acct *investv1.Account) (ctrl.Result, error) {
	now := r.now()
	history, err := history.Load(ctx, r.Client, r.Archive, acct, now)
	if err != nil {
		return ctrl.Result{}, err
	}
	terminal := map[string]bool{}
	for i := range history.Live {
		terminal[history.Live[i].Name] = history.Live[i].Status.State.Terminal()
	}
	kept := acct.Status.Reservations[:0:0]
	for _, res := range acct.Status.Reservations {
		if !terminal[string(res.Order)] && (history.Archived == nil || !history.Archived.Finished[string(res.Order)]) {
			kept = append(kept, res)
		}
	}
	acct.Status.Reservations = kept
	positions := history.Positions(acct, now)
	acct.Status.Holdings = holdings.ToStatus(positions)
	return requeueAtNextUnlock(positions, now), nil
}

// requeueAtNextUnlock asks to come back a second after the earliest locked lot unlocks, so
// that its units become unlocked in the status and fold into the ISIN's lot of unlocked
// units; nothing when no lot is locked.
func requeueAtNextUnlock(positions map[investv1.ISIN]*holdings.Position, now time.Time) ctrl.Result {
	var next time.Time
	for _, p := range positions {
		if t := p.NextUnlock(now); !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	if next.IsZero() {
		return ctrl.Result{}
	}
	return ctrl.Result{RequeueAfter: next.Sub(now) + time.Second}
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// resolution says what a primary pointer points at.
type resolution struct {
	reason, message string
	ok              bool
}

func (r *Reconciler) resolve(ctx context.Context, acct *investv1.Account, id string, obj client.Object, owner func(client.Object) investv1.ObjectID) (resolution, error) {
	if id == "" {
		return resolution{ok: true, reason: ReasonNoPrimary, message: "no primary is set"}, nil
	}
	err := r.Client.Get(ctx, client.ObjectKey{Namespace: acct.Namespace, Name: id}, obj)
	switch {
	case apierrors.IsNotFound(err):
		return resolution{reason: ReasonNotFound, message: fmt.Sprintf("%s does not exist in namespace %s", id, acct.Namespace)}, nil
	case err != nil:
		return resolution{}, err
	case owner(obj) != investv1.ObjectID(acct.Name):
		return resolution{reason: ReasonForeignObject, message: fmt.Sprintf("%s belongs to account %s, not to this account", id, owner(obj))}, nil
	}
	return resolution{ok: true, reason: ReasonResolved, message: id + " is the primary"}, nil
}

// kstatus conditions of an account: a primary pointer to a wallet or payment method
// details that does not exist yet is Reconciling (it resolves by itself when the object
// arrives: GitOps may apply the pointer first); one to another account's object is Stalled
// (a child's account is immutable: only a person can fix the pointer), as is a deletion
// that waits because the account holds something.
const (
	ConditionStalled     = investv1.ConditionStalled
	ConditionReconciling = investv1.ConditionReconciling
)

// setConditions is the pure status computation of an account. Ready says whether the
// primary pointers resolve (reason PrimaryNotResolved when not); Reconciling and Stalled
// say, the kstatus way (internal/conditions: all three always set), whether the account
// waits for an object to arrive or for a person. Every change of a wallet or payment
// method details of the account brings it back.
func setConditions(st *investv1.AccountStatus, generation int64, wallet, pmd resolution) {
	set := func(t string, res resolution) {
		status := metav1.ConditionTrue
		if !res.ok {
			status = metav1.ConditionFalse
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: t, Status: status, Reason: res.reason, Message: res.message, ObservedGeneration: generation})
	}
	set(ConditionPrimaryWallet, wallet)
	set(ConditionPrimaryPaymentMethod, pmd)
	ready := resolution{ok: true, reason: ReasonConsistent, message: "primary pointers resolve"}
	var waiting, stalled *resolution
	for _, res := range []resolution{wallet, pmd} {
		if !res.ok {
			ready = resolution{reason: ReasonPrimaryNotResolved, message: res.message}
			if res.reason == ReasonNotFound {
				waiting = &resolution{reason: ReasonPrimaryNotFound, message: res.message + "; waiting for it"}
			} else {
				stalled = &resolution{reason: ReasonPrimaryOfAnotherAccount, message: res.message}
			}
		}
	}
	switch {
	case stalled != nil: // a person must act anyway
		conditions.Set(&st.Conditions, generation, conditions.Summary{State: conditions.Failed, Reason: stalled.reason, Message: stalled.message,
			ReadyReason: ready.reason, ReadyMessage: ready.message})
	case waiting != nil:
		conditions.Set(&st.Conditions, generation, conditions.Summary{State: conditions.InProgress, Reason: waiting.reason, Message: waiting.message,
			ReadyReason: ready.reason, ReadyMessage: ready.message})
	default:
		conditions.Ready(&st.Conditions, generation, ready.reason, ready.message)
	}
}

// reconcileDelete removes the account's wallets and payment method details, and only
// them, then releases the account.
func (r *Reconciler) reconcileDelete(ctx context.Context, acct *investv1.Account) (ctrl.Result, error) {
	log := ctrl.LoggerFrom(ctx)
	if !controllerutil.ContainsFinalizer(acct, Finalizer) {
		return ctrl.Result{}, nil
	}
	// Admission refuses to delete an account that holds something; a deletion that got
	// past it (made before the rule, or racing an order's placement) removes nothing here
	// while the account holds units or live orders: its wallets and bank accounts are
	// where deliveries and payouts go. It says so in the Stalled condition.
	history, err := history.Load(ctx, r.Client, r.Archive, acct, r.now())
	if err != nil {
		return ctrl.Result{}, err
	}
	if held := holdings.DeletionBlockers(history.Live, history.Archived, acct.Status.Reservations, r.now(), history.Transfers...); len(held) > 0 {
		before := acct.DeepCopy()
		conditions.Stalled(&acct.Status.Conditions, acct.Generation, ReasonDeletionBlocked,
			strings.Join(held, "; ")+": the account is kept, with its wallets and payment method details, until it holds nothing")
		if equality.Semantic.DeepEqual(before.Status, acct.Status) {
			log.V(1).Info("deletion still blocked: the account holds something", "held", len(held))
			return ctrl.Result{}, nil // orders are watched: their changes bring the account back
		}
		if err := r.Client.Status().Patch(ctx, acct, client.MergeFrom(before)); err != nil {
			return ctrl.Result{}, err
		}
		log.Info("deletion blocked: the account holds something", "held", held)
		return ctrl.Result{}, nil
	}
	remaining := 0
	for _, list := range []client.ObjectList{&investv1.WalletList{}, &investv1.PaymentMethodDetailsList{}} {
		field := index.WalletAccount
		if _, ok := list.(*investv1.PaymentMethodDetailsList); ok {
			field = index.PaymentMethodAccount
		}
		if err := r.Client.List(ctx, list, client.InNamespace(acct.Namespace), client.MatchingFields{field: acct.Name}); err != nil {
			return ctrl.Result{}, err
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return ctrl.Result{}, err
		}
		for _, item := range items {
			obj := item.(client.Object)
			remaining++
			if err := r.Client.Delete(ctx, obj); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, fmt.Errorf("delete %s of account %s: %w", obj.GetName(), acct.Name, err)
			}
			log.Info("deleted a child of the deleted account", childKey(obj), klog.KObj(obj))
		}
	}
	if remaining > 0 {
		// Come back once the cache no longer shows them (each deletion is watched).
		log.V(1).Info("waiting for the children of the deleted account to go", "remaining", remaining)
		return ctrl.Result{}, nil
	}
	// The wallet address claims of the account (see internal/webhooks) go with it.
	if err := r.Client.DeleteAllOf(ctx, &coordinationv1.Lease{}, client.InNamespace(acct.Namespace),
		client.MatchingLabels{investv1.LabelAccount: acct.Name}); err != nil {
		return ctrl.Result{}, fmt.Errorf("remove address claims of account %s: %w", acct.Name, err)
	}
	log.V(1).Info("removed the wallet address claims of the deleted account")
	patch := client.MergeFrom(acct.DeepCopy())
	controllerutil.RemoveFinalizer(acct, Finalizer)
	if err := r.Client.Patch(ctx, acct, patch); err != nil {
		return ctrl.Result{}, err
	}
	log.Info("released the deleted account: its wallets and payment method details are gone", "finalizer", Finalizer)
	return ctrl.Result{}, nil
}

// childKey is the log key of a child of an account.
func childKey(obj client.Object) string {
	if _, ok := obj.(*investv1.Wallet); ok {
		return "wallet"
	}
	return "paymentMethodDetails"
}

// SetupWithManager watches accounts and their children.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("account controller: nil manager")
	case r.Client == nil:
		return errors.New("account controller: Client must not be nil")
	}
	toAccount := func(_ context.Context, o client.Object) []reconcile.Request {
		var id investv1.ObjectID
		switch c := o.(type) {
		case *investv1.Wallet:
			id = c.Spec.AccountID
		case *investv1.PaymentMethodDetails:
			id = c.Spec.AccountID
		}
		return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: string(id)}}}
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("account").
		For(&investv1.Account{}, builder.WithPredicates(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}, deletionPredicate()))).
		Watches(&investv1.Wallet{}, handler.EnqueueRequestsFromMapFunc(toAccount), builder.WithPredicates(createOrDelete())).
		Watches(&investv1.PaymentMethodDetails{}, handler.EnqueueRequestsFromMapFunc(toAccount), builder.WithPredicates(createOrDelete())).
		Watches(&investv1.Order{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: string(o.(*investv1.Order).Spec.AccountID)}}}
		}), builder.WithPredicates(stateChanged())).
		// Holdings follow the token: an account's Transfers (immutable; created, or deleted
		// by a reorganisation) bring it back, by their account label.
		Watches(&investv1.Transfer{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: o.GetLabels()[investv1.LabelAccount]}}}
		}), builder.WithPredicates(createOrDelete())).
		Complete(r)
}
