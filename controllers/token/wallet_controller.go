package token

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/chain"
	"github.com/fundshare/fundshare-operator/internal/chain/contracts"
	"github.com/fundshare/fundshare-operator/internal/chain/outbox"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// preflightRetry is when a transaction whose pre-flight check reverted (nothing was sent)
// is checked again.
const preflightRetry = time.Minute

// RegistrationFinalizer keeps a deleted Wallet until its address is out of the identity
// registry (or another Wallet still registers it).
const RegistrationFinalizer = "invest.fundshare.io/chain-registration"

// WalletReconciler puts every Wallet's address into the chain's identity registry (one
// registerWallet transaction through the outbox, recorded in status.registration first)
// and, when the Wallet is deleted, takes it out again (removeWallet), unless another Wallet
// in the cluster registers the same address: the registry is a set, so the address stays
// while anyone needs it.
type WalletReconciler struct {
	Client client.Client
	// APIReader reads around the cache: the count of other Wallets with the address.
	APIReader     client.Reader
	Chain         Reader
	Outbox        Outbox
	Registry      common.Address
	Confirmations uint64
}

// Reconcile implements reconcile.Reconciler. A write that lost the optimistic-lock race
// (the account controller writes the wallet's status too) is routine: read again.
func (r *WalletReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	res, err := r.reconcile(ctx, req)
	if patch.Stale(err) {
		return patch.Retry(ctx, err, "wallet "+req.String()+" registration")
	}
	return res, err
}

func (r *WalletReconciler) reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &investv1.Wallet{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !common.IsHexAddress(w.Spec.WalletAddress) {
		return ctrl.Result{}, nil // admission refuses these; nothing to register
	}
	if !w.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(w, RegistrationFinalizer) {
			return ctrl.Result{}, nil
		}
		return r.remove(ctx, w)
	}
	if !controllerutil.ContainsFinalizer(w, RegistrationFinalizer) {
		before := w.DeepCopy()
		controllerutil.AddFinalizer(w, RegistrationFinalizer)
		if err := patch.Object(ctx, r.Client, w, before); err != nil {
			return ctrl.Result{}, err
		}
	}
	return r.register(ctx, w)
}

func (r *WalletReconciler) register(ctx context.Context, w *investv1.Wallet) (ctrl.Result, error) {
	addr := common.HexToAddress(w.Spec.WalletAddress)
	reg := w.Status.Registration
	if reg != nil && reg.RegisterTransaction != nil {
		return r.track(ctx, w, reg.RegisterTransaction, false)
	}
	if reg != nil && reg.State == investv1.RegistrationRegistered {
		return ctrl.Result{}, nil
	}
	verified, err := r.isVerified(ctx, addr)
	if err != nil {
		return ctrl.Result{}, err
	}
	if verified {
		return ctrl.Result{}, r.setState(ctx, w, investv1.RegistrationRegistered, metav1.ConditionTrue, ReasonRegisteredOnChain,
			"the address was already in the identity registry (registered through another wallet)")
	}
	_, err = r.Outbox.Send(ctx, outbox.Call{To: &r.Registry, Data: contracts.NewIdentityRegistry().PackRegisterWallet(addr)},
		r.record(w, investv1.RegistrationPending, false))
	if rev, ok := chain.AsRevert(err); ok {
		if rev.Name == "WalletAlreadyRegistered" {
			return ctrl.Result{RequeueAfter: pollWhilePending}, nil // registered meanwhile: the next look sees it
		}
		// Nothing was sent: try the pre-flight again later (a role may be granted meanwhile).
		return requeue(preflightRetry, r.setState(ctx, w, investv1.RegistrationFailed, metav1.ConditionFalse, ReasonRegistrationFailed,
			"registerWallet would revert: "+rev.Reason()))
	}
	if outbox.MustWait(err) {
		return ctrl.Result{RequeueAfter: pollWhilePending}, nil
	}
	return requeue(pollWhilePending, err)
}

// track follows a recorded registerWallet (removal false) or removeWallet transaction until
// it is final, records its receipt and the state it leads to.
func (r *WalletReconciler) track(ctx context.Context, w *investv1.Wallet, rec *investv1.ChainTransaction, removal bool) (ctrl.Result, error) {
	if rec.Receipt == nil {
		pending := investv1.RegistrationPending
		if removal {
			pending = investv1.RegistrationRemoving
		}
		obs, _, err := r.Outbox.Track(ctx, rec, r.Confirmations, r.record(w, pending, removal))
		if err != nil {
			return ctrl.Result{}, err
		}
		switch obs.State {
		case outbox.NonceTaken:
			what := "registerWallet"
			if removal {
				what = "removeWallet"
			}
			// Looked at again: if a recorded attempt is mined after all, it is the one.
			return requeue(preflightRetry, r.setState(ctx, w, investv1.RegistrationFailed, metav1.ConditionFalse, ReasonNonceTaken,
				nonceTakenMessage(rec.Nonce, what)))
		case outbox.Final:
			before := w.DeepCopy()
			if removal {
				w.Status.Registration.RemoveTransaction.Receipt = obs.Receipt
			} else {
				w.Status.Registration.RegisterTransaction.Receipt = obs.Receipt
			}
			w.Status.Registration.TransactionHash = obs.Receipt.Hash
			if err := patch.Status(ctx, r.Client, w, before); err != nil {
				return ctrl.Result{}, err
			}
			rec = w.Status.Registration.RegisterTransaction
			if removal {
				rec = w.Status.Registration.RemoveTransaction
			}
		default:
			return ctrl.Result{RequeueAfter: pollWhilePending}, nil
		}
	}
	ok := rec.Receipt.Status == investv1.ChainReceiptSucceeded
	reason := rec.Receipt.RevertReason
	switch {
	case removal && (ok || strings.HasPrefix(reason, "WalletNotRegistered(")):
		return ctrl.Result{}, r.dropFinalizer(ctx, w)
	case removal:
		// The address stays in the registry: keep the Wallet until a person looks.
		return ctrl.Result{}, r.setState(ctx, w, investv1.RegistrationFailed, metav1.ConditionFalse, ReasonRemovalFailed,
			fmt.Sprintf("removeWallet %s reverted: %s; the wallet is kept until the address is out of the registry", rec.Receipt.Hash, reason))
	case ok || strings.HasPrefix(reason, "WalletAlreadyRegistered("):
		return ctrl.Result{}, r.setState(ctx, w, investv1.RegistrationRegistered, metav1.ConditionTrue, ReasonRegisteredOnChain,
			"registered in the identity registry by "+rec.Receipt.Hash)
	default:
		return ctrl.Result{}, r.setState(ctx, w, investv1.RegistrationFailed, metav1.ConditionFalse, ReasonRegistrationFailed,
			fmt.Sprintf("registerWallet %s reverted: %s", rec.Receipt.Hash, reason))
	}
}

func (r *WalletReconciler) remove(ctx context.Context, w *investv1.Wallet) (ctrl.Result, error) {
	reg := w.Status.Registration
	if reg != nil && reg.RemoveTransaction != nil {
		return r.track(ctx, w, reg.RemoveTransaction, true)
	}
	// A registration still in flight is finished first: its nonce comes before the removal's,
	// but the removal's pre-flight check would see the address unregistered.
	if reg != nil && reg.RegisterTransaction != nil && reg.RegisterTransaction.Receipt == nil {
		return r.track(ctx, w, reg.RegisterTransaction, false)
	}
	addr := common.HexToAddress(w.Spec.WalletAddress)
	others, err := r.othersWithAddress(ctx, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	if len(others) > 0 {
		// The registry is a set: the address stays for the other wallets.
		return ctrl.Result{}, r.dropFinalizer(ctx, w)
	}
	verified, err := r.isVerified(ctx, addr)
	if err != nil {
		return ctrl.Result{}, err
	}
	if !verified {
		return ctrl.Result{}, r.dropFinalizer(ctx, w)
	}
	_, err = r.Outbox.Send(ctx, outbox.Call{To: &r.Registry, Data: contracts.NewIdentityRegistry().PackRemoveWallet(addr)},
		r.record(w, investv1.RegistrationRemoving, true))
	if rev, ok := chain.AsRevert(err); ok {
		if rev.Name == "WalletNotRegistered" {
			return ctrl.Result{RequeueAfter: pollWhilePending}, nil // removed meanwhile
		}
		return requeue(preflightRetry, r.setState(ctx, w, investv1.RegistrationFailed, metav1.ConditionFalse, ReasonRemovalFailed,
			"removeWallet would revert: "+rev.Reason()+"; the wallet is kept until the address is out of the registry"))
	}
	if outbox.MustWait(err) {
		return ctrl.Result{RequeueAfter: pollWhilePending}, nil
	}
	return requeue(pollWhilePending, err)
}

// othersWithAddress lists the other Wallets, in any namespace and not being deleted, with the
// same address, read from the API server.
func (r *WalletReconciler) othersWithAddress(ctx context.Context, w *investv1.Wallet) ([]string, error) {
	var list investv1.WalletList
	if err := r.APIReader.List(ctx, &list); err != nil {
		return nil, err
	}
	var out []string
	for _, o := range list.Items {
		if o.UID != w.UID && o.DeletionTimestamp.IsZero() && strings.EqualFold(o.Spec.WalletAddress, w.Spec.WalletAddress) {
			out = append(out, o.Namespace+"/"+o.Name)
		}
	}
	return out, nil
}

func (r *WalletReconciler) isVerified(ctx context.Context, addr common.Address) (bool, error) {
	reg := contracts.NewIdentityRegistry()
	ok, err := call(ctx, r.Chain, r.Registry, nil, reg.PackIsVerified(addr), reg.UnpackIsVerified)
	if err != nil {
		return false, fmt.Errorf("isVerified(%s): %w", addr.Hex(), err)
	}
	return ok, nil
}

// record writes a registerWallet (removal false) or removeWallet transaction into
// status.registration before the outbox broadcasts it.
func (r *WalletReconciler) record(w *investv1.Wallet, state investv1.RegistrationState, removal bool) outbox.RecordFunc {
	return func(ctx context.Context, tx *investv1.ChainTransaction) error {
		before := w.DeepCopy()
		if w.Status.Registration == nil {
			w.Status.Registration = &investv1.WalletRegistration{}
		}
		reg := w.Status.Registration
		reg.State, reg.Registry, reg.ChainID = state, r.Registry.Hex(), tx.ChainID
		reg.TransactionHash = tx.Attempts[len(tx.Attempts)-1].Hash
		if removal {
			reg.RemoveTransaction = tx.DeepCopy()
		} else {
			reg.RegisterTransaction = tx.DeepCopy()
		}
		reason, msg := ReasonRegistering, "registerWallet "+reg.TransactionHash+" recorded and sent"
		if removal {
			reason, msg = ReasonRemoving, "removeWallet "+reg.TransactionHash+" recorded and sent"
		}
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: TypeRegistered, Status: metav1.ConditionFalse,
			Reason: reason, Message: msg, ObservedGeneration: w.Generation})
		return patch.Status(ctx, r.Client, w, before)
	}
}

// setState records the registration's state and the Registered condition when they change.
func (r *WalletReconciler) setState(ctx context.Context, w *investv1.Wallet, state investv1.RegistrationState, status metav1.ConditionStatus, reason, msg string) error {
	before := w.DeepCopy()
	if w.Status.Registration == nil {
		w.Status.Registration = &investv1.WalletRegistration{}
	}
	w.Status.Registration.State = state
	w.Status.Registration.Registry = r.Registry.Hex()
	w.Status.Registration.ChainID = r.Outbox.ChainID()
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: TypeRegistered, Status: status, Reason: reason, Message: msg, ObservedGeneration: w.Generation})
	if equality.Semantic.DeepEqual(before.Status, w.Status) {
		return nil
	}
	return patch.Status(ctx, r.Client, w, before)
}

func (r *WalletReconciler) dropFinalizer(ctx context.Context, w *investv1.Wallet) error {
	before := w.DeepCopy()
	if !controllerutil.RemoveFinalizer(w, RegistrationFinalizer) {
		return nil
	}
	return client.IgnoreNotFound(patch.Object(ctx, r.Client, w, before))
}

// SetupWithManager watches wallets.
func (r *WalletReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		Named("wallet-registration").
		For(&investv1.Wallet{}).
		Complete(r)
}
