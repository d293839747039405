package account

import (
	"context"
	"encoding/json"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/index"
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
}

// ChildReconciler mirrors the account's primary pointer into a child's status
// (status.isPrimary, for kubectl get) and reports whether the owning account exists.
type ChildReconciler[T client.Object] struct {
	Client client.Client
	kind   childKind[T]
}

// NewWalletReconciler mirrors Account.spec.primaryWallet into Wallet.status.isPrimary.
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
	isPrimary, conditions, observed := r.kind.status(obj)

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
	setChildConditions(conditions, obj.GetGeneration(), string(r.kind.accountOf(obj)), found)
	*observed = obj.GetGeneration()

	bp, bc, bo := r.kind.status(before)
	if *bp == *isPrimary && *bo == *observed && conditionsEqual(*bc, *conditions) {
		return ctrl.Result{}, nil
	}
	// A merge patch computed from before would leave isPrimary out while it stays false, and
	// `kubectl get` would show an empty Primary column: send the whole status.
	body, err := json.Marshal(map[string]any{"status": map[string]any{
		"isPrimary": *isPrimary, "observedGeneration": *observed, "conditions": *conditions,
	}})
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Client.Status().Patch(ctx, obj, client.RawPatch(types.MergePatchType, body)); err != nil {
		return ctrl.Result{}, err
	}
	log := ctrl.LoggerFrom(ctx).WithValues("account", klog.KRef(obj.GetNamespace(), string(r.kind.accountOf(obj))))
	switch {
	case *bp != *isPrimary:
		log.Info("primary mark changed", "isPrimary", *isPrimary)
	case !conditionsEqual(*bc, *conditions):
		log.Info("conditions changed", "accountFound", found)
	default:
		log.V(1).Info("status written", "isPrimary", *isPrimary)
	}
	return ctrl.Result{}, nil
}

// setChildConditions is the pure status computation of a wallet or payment method
// details: Ready while the owning account exists; without it the child is Stalled (a
// person must create the account or remove the child: no controller can mend it).
func setChildConditions(conditions *[]metav1.Condition, generation int64, accountID string, accountFound bool) {
	if accountFound {
		meta.SetStatusCondition(conditions, metav1.Condition{Type: investv1.ConditionReady, Status: metav1.ConditionTrue,
			Reason: ReasonAccountFound, Message: "the owning account exists", ObservedGeneration: generation})
		meta.RemoveStatusCondition(conditions, investv1.ConditionStalled)
		return
	}
	msg := "account " + accountID + " does not exist"
	meta.SetStatusCondition(conditions, metav1.Condition{Type: investv1.ConditionReady, Status: metav1.ConditionFalse,
		Reason: ReasonAccountNotFound, Message: msg, ObservedGeneration: generation})
	meta.SetStatusCondition(conditions, metav1.Condition{Type: investv1.ConditionStalled, Status: metav1.ConditionTrue,
		Reason: ReasonAccountNotFound, Message: msg, ObservedGeneration: generation})
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
		For(r.kind.newObj(), builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&investv1.Account{}, handler.EnqueueRequestsFromMapFunc(r.children)).
		Complete(r)
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
