package account

import (
	"context"
	"encoding/json"
	"errors"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/conditions"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=wallets/status;paymentmethoddetails/status,verbs=get;update;patch

// childKind describes one kind of account child (wallet or payment method details): how
// to read its owner and its status, and which account pointer designates the primary.
type childKind[T client.Object] struct {
	name       string
	newObj     func() T
	newList    func() client.ObjectList
	listItems  func(client.ObjectList) []T
	accountOf  func(T) investv1.ObjectID
	status     func(T) (isPrimary *bool, conditions *[]metav1.Condition, observed *int64)
	primaryOf  func(*investv1.Account) string
	indexField string
	// health, when set, is what the child's own state says of its readiness once its
	// account exists (a wallet's registration on chain); nil: it is Ready then.
	health func(T) *conditions.Summary
	// statusChanged, when set, says whether a change of the child's status (which does not
	// change its generation) brings it back: what health reads changed.
	statusChanged func(old, cur T) bool
}

// ChildReconciler mirrors the account's primary pointer into a child's status
// (status.isPrimary, for kubectl get) and writes its kstatus conditions (Ready, Reconciling,
// Stalled): whether the owning account exists and, for a wallet of an operator that
// registers wallets on chain, whether the identity registry lists it.
type ChildReconciler[T client.Object] struct {
	Client client.Client
	kind   childKind[T]
}

// NewWalletReconciler mirrors Account.spec.primaryWallet into Wallet.status.isPrimary. A
// wallet is Ready while its account exists.
func NewWalletReconciler(c client.Client) *ChildReconciler[*investv1.Wallet] {
	return &ChildReconciler[*investv1.Wallet]{Client: c, kind: childKind[*investv1.Wallet]{
		name:    "wallet",
		newObj:  func() *investv1.Wallet { return &investv1.Wallet{} },
		newList: func() client.ObjectList { return &investv1.WalletList{} },
		listItems: func(l client.ObjectList) []*investv1.Wallet {
			items := l.(*investv1.WalletList).Items
			out := make([]*investv1.Wallet, len(items))
			for i := range items {
				out[i] = &items[i]
			}
			return out
		},
		accountOf: func(w *investv1.Wallet) investv1.ObjectID { return w.Spec.AccountID },
		status: func(w *investv1.Wallet) (*bool, *[]metav1.Condition, *int64) {
			return &w.Status.IsPrimary, &w.Status.Conditions, &w.Status.ObservedGeneration
		},
		primaryOf:  func(a *investv1.Account) string { return a.Spec.PrimaryWallet },
		indexField: index.WalletAccount,
	}}
}

// NewRegisteringWalletReconciler is NewWalletReconciler for an operator whose chain agent
// registers every wallet in the identity registry (controllers/token): a wallet is Ready
// only once status.registration says Registered, Reconciling while its registration is on
// its way, Stalled when it failed (the Registered condition's reason and message).
func NewRegisteringWalletReconciler(c client.Client) *ChildReconciler[*investv1.Wallet] {
	r := NewWalletReconciler(c)
	r.kind.health = registrationHealth
	r.kind.statusChanged = func(old, cur *investv1.Wallet) bool {
		return !equality.Semantic.DeepEqual(registrationOf(old), registrationOf(cur)) ||
			!equality.Semantic.DeepEqual(meta.FindStatusCondition(old.Status.Conditions, investv1.ConditionRegistered),
				meta.FindStatusCondition(cur.Status.Conditions, investv1.ConditionRegistered))
	}
	return r
}

func registrationOf(w *investv1.Wallet) investv1.RegistrationState {
	if w.Status.Registration == nil {
		return ""
	}
	return w.Status.Registration.State
}

// registrationHealth is the readiness of a wallet whose account exists, from its entry in
// the identity registry.
func registrationHealth(w *investv1.Wallet) *conditions.Summary {
	reg := meta.FindStatusCondition(w.Status.Conditions, investv1.ConditionRegistered)
	says := func(fallback string) string {
		if reg != nil && reg.Message != "" {
			return reg.Message
		}
		return fallback
	}
	switch registrationOf(w) {
	case investv1.RegistrationRegistered:
		return &conditions.Summary{State: conditions.Current, Reason: ReasonRegistered, Message: "the owning account exists and the identity registry lists the address"}
	case investv1.RegistrationFailed:
		reason := ReasonRegistrationFailed
		if reg != nil && reg.Status == metav1.ConditionFalse && reg.Reason != "" {
			reason = reg.Reason
		}
		return &conditions.Summary{State: conditions.Failed, Reason: reason, Message: says("the registration in the identity registry failed")}
	case investv1.RegistrationRemoving:
		return &conditions.Summary{State: conditions.InProgress, Reason: ReasonRegistrationRemoving, Message: says("the address is being removed from the identity registry")}
	}
	return &conditions.Summary{State: conditions.InProgress, Reason: ReasonRegistering, Message: says("waiting for the address to be registered in the identity registry")}
}

// NewPaymentMethodReconciler mirrors Account.spec.primaryPaymentMethodDetails into
// PaymentMethodDetails.status.isPrimary.
func NewPaymentMethodReconciler(c client.Client) *ChildReconciler[*investv1.PaymentMethodDetails] {
	return &ChildReconciler[*investv1.PaymentMethodDetails]{Client: c, kind: childKind[*investv1.PaymentMethodDetails]{
		name:    "paymentmethoddetails",
		newObj:  func() *investv1.PaymentMethodDetails { return &investv1.PaymentMethodDetails{} },
		newList: func() client.ObjectList { return &investv1.PaymentMethodDetailsList{} },
		listItems: func(l client.ObjectList) []*investv1.PaymentMethodDetails {
			items := l.(*investv1.PaymentMethodDetailsList).Items
			out := make([]*investv1.PaymentMethodDetails, len(items))
			for i := range items {
				out[i] = &items[i]
			}
			return out
		},
		accountOf: func(p *investv1.PaymentMethodDetails) investv1.ObjectID { return p.Spec.AccountID },
		status: func(p *investv1.PaymentMethodDetails) (*bool, *[]metav1.Condition, *int64) {
			return &p.Status.IsPrimary, &p.Status.Conditions, &p.Status.ObservedGeneration
		},
		primaryOf:  func(a *investv1.Account) string { return a.Spec.PrimaryPaymentMethodDetails },
		indexField: index.PaymentMethodAccount,
	}}
}

// Reconcile writes the child's status from its account.
func (r *ChildReconciler[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.kind.newObj()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := obj.DeepCopyObject().(T)
	isPrimary, conds, observed := r.kind.status(obj)

	acct := &investv1.Account{}
	err := r.Client.Get(ctx, client.ObjectKey{Namespace: obj.GetNamespace(), Name: string(r.kind.accountOf(obj))}, acct)
	found := true
	switch {
	case apierrors.IsNotFound(err):
		*isPrimary, found = false, false
	case err != nil:
		return ctrl.Result{}, err
	default:
		*isPrimary = r.kind.primaryOf(acct) == obj.GetName()
	}
	var health *conditions.Summary
	if found && r.kind.health != nil {
		health = r.kind.health(obj)
	}
	setChildConditions(conds, obj.GetGeneration(), string(r.kind.accountOf(obj)), found, health)
	*observed = obj.GetGeneration()

	bp, bc, bo := r.kind.status(before)
	if *bp == *isPrimary && *bo == *observed && conditionsEqual(*bc, *conds) {
		return ctrl.Result{}, nil
	}
	// A merge patch computed from before would leave isPrimary out while it stays false, and
	// `kubectl get` would show an empty Primary column: send the whole status. The conditions
	// go as a whole list, which holds another controller's too (a wallet's Registered): the
	// patch carries the resourceVersion read, so a write made in between is never undone;
	// the child is read again instead.
	body, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": obj.GetResourceVersion()},
		"status": map[string]any{
			"isPrimary": *isPrimary, "observedGeneration": *observed, "conditions": *conds,
		},
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Client.Status().Patch(ctx, obj, client.RawPatch(types.MergePatchType, body)); err != nil {
		return patch.Retry(ctx, err, "write the "+r.kind.name+"'s status")
	}
	log := ctrl.LoggerFrom(ctx).WithValues("account", klog.KRef(obj.GetNamespace(), string(r.kind.accountOf(obj))))
	switch {
	case *bp != *isPrimary:
		log.Info("primary mark changed", "isPrimary", *isPrimary)
	case !conditionsEqual(*bc, *conds):
		log.Info("conditions changed", "accountFound", found)
	default:
		log.V(1).Info("status written", "isPrimary", *isPrimary)
	}
	return ctrl.Result{}, nil
}

// setChildConditions is the pure status computation of a wallet or payment method
// details: without its account the child is Stalled (a person must create the account or
// remove the child: no controller can mend it); with it, what health says (a wallet's
// registration), or Ready when health is nil.
func setChildConditions(conds *[]metav1.Condition, generation int64, accountID string, accountFound bool, health *conditions.Summary) {
	switch {
	case !accountFound:
		conditions.Stalled(conds, generation, ReasonAccountNotFound, "account "+accountID+" does not exist")
	case health != nil:
		conditions.Set(conds, generation, *health)
	default:
		conditions.Ready(conds, generation, ReasonAccountFound, "the owning account exists")
	}
}

func conditionsEqual(a, b []metav1.Condition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Status != b[i].Status || a[i].Reason != b[i].Reason || a[i].Message != b[i].Message || a[i].ObservedGeneration != b[i].ObservedGeneration {
			return false
		}
	}
	return true
}

// SetupWithManager watches the children and, through the index, the accounts they
// belong to.
func (r *ChildReconciler[T]) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New(r.kind.name + " controller: nil manager")
	case r.Client == nil:
		return errors.New(r.kind.name + " controller: Client must not be nil")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named(r.kind.name+"-primary").
		For(r.kind.newObj(), builder.WithPredicates(predicate.Or[client.Object](predicate.GenerationChangedPredicate{}, r.statusChanged()))).
		Watches(&investv1.Account{}, handler.EnqueueRequestsFromMapFunc(r.children)).
		Complete(r)
}

// statusChanged passes the updates of a child's status that its readiness reads (none
// unless the kind says).
func (r *ChildReconciler[T]) statusChanged() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
		UpdateFunc: func(e event.UpdateEvent) bool {
			if r.kind.statusChanged == nil {
				return false
			}
			old, okOld := e.ObjectOld.(T)
			cur, okCur := e.ObjectNew.(T)
			return okOld && okCur && r.kind.statusChanged(old, cur)
		},
	}
}

// children maps an account to its children of this kind. A map function cannot return
// an error: a failed List is logged, or the children would silently keep a stale
// primary mark.
func (r *ChildReconciler[T]) children(ctx context.Context, o client.Object) []reconcile.Request {
	list := r.kind.newList()
	if err := r.Client.List(ctx, list, client.InNamespace(o.GetNamespace()), client.MatchingFields{r.kind.indexField: o.GetName()}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "list the children of an account; their primary mark may be stale", "kind", r.kind.name, "account", klog.KObj(o))
		return nil
	}
	var reqs []reconcile.Request
	for _, c := range r.kind.listItems(list) {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(c)})
	}
	return reqs
}
