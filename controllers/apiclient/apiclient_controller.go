// Package apiclient reports whether an API client's credentials are usable: its Ready
// condition is True when the Secret it names exists and holds a well-formed argon2id hash
// under its key (reason SecretValid, or Disabled when the client is switched off), False
// with the reason otherwise. The controller reads Secrets only to check that; it caches
// their metadata (to be told of changes), never their data, and never writes them.
package apiclient

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
	"github.com/fundshare/fundshare-operator/internal/conditions"
)

// defaultKey is the Secret key of the hash when the ApiClient names none.
const defaultKey = "hash"

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=apiclients,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=apiclients/status,verbs=get;update;patch
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;list;watch

// Reconciler reconciles ApiClients.
type Reconciler struct {
	// Client reads ApiClients from the cache and writes their status.
	Client client.Client
	// Secrets reads a Secret from the API server (no Secret data is cached).
	Secrets client.Reader
}

// Verdict is what the controller concludes about a client's credentials.
type Verdict struct {
	Reason, Message string
}

// Judge is the pure decision: secret is nil when the Secret does not exist.
func Judge(ac *investv1.ApiClient, secret *corev1.Secret) Verdict {
	key := ac.Spec.ClientSecretRef.Key
	if key == "" {
		key = defaultKey
	}
	name := ac.Spec.ClientSecretRef.Name
	switch {
	case secret == nil:
		return Verdict{ReasonSecretNotFound, fmt.Sprintf("Secret %s does not exist in namespace %s; create it with the argon2id hash of the client secret under key %q (fundsharectl tenant prints it)", name, ac.Namespace, key)}
	case len(secret.Data[key]) == 0:
		return Verdict{ReasonSecretKeyMissing, fmt.Sprintf("Secret %s has no key %q (or it is empty); put the argon2id hash of the client secret there", name, key)}
	}
	if err := clientsecret.CheckHash(string(secret.Data[key])); err != nil {
		// The error names the malformed part, never the value.
		return Verdict{ReasonInvalidHash, fmt.Sprintf("key %q of Secret %s is not a usable argon2id hash ($argon2id$v=19$m=..,t=..,p=..$salt$hash): %v", key, name, err)}
	}
	if ac.Spec.Disabled {
		return Verdict{ReasonDisabled, "the client is disabled (spec.disabled): no token is issued for it"}
	}
	return Verdict{ReasonReady, fmt.Sprintf("Secret %s holds a valid argon2id hash under key %q", name, key)}
}

// SetConditions writes the verdict into the status, the kstatus way (internal/conditions:
// Ready, Reconciling and Stalled all set): Ready=False and Stalled=True when only a person
// can mend the credentials (a missing or malformed
// Secret: kstatus Failed); Ready=True otherwise (Current). A disabled client with valid
// credentials is where its owner wants it: Ready=True, reason Disabled (as a cancelled
// order is Ready with reason Cancelled); the Disabled column of kubectl get shows it.
func SetConditions(st *investv1.ApiClientStatus, generation int64, v Verdict) {
	if v.Reason == ReasonReady || v.Reason == ReasonDisabled {
		conditions.Ready(&st.Conditions, generation, v.Reason, v.Message)
	} else {
		conditions.Stalled(&st.Conditions, generation, v.Reason, v.Message)
	}
	st.ObservedGeneration = generation
}

// Reconcile checks the client's Secret and writes the conditions.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ac := &investv1.ApiClient{}
	if err := r.Client.Get(ctx, req.NamespacedName, ac); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{}
	err := r.Secrets.Get(ctx, client.ObjectKey{Namespace: ac.Namespace, Name: ac.Spec.ClientSecretRef.Name}, secret)
	switch {
	case apierrors.IsNotFound(err):
		secret = nil
	case err != nil:
		return ctrl.Result{}, err
	}
	before := ac.DeepCopy()
	verdict := Judge(ac, secret)
	SetConditions(&ac.Status, ac.Generation, verdict)
	// The Secret by reference and the reason only: never its data, nor the verdict's
	// message (it may describe the hash).
	log := ctrl.LoggerFrom(ctx).WithValues("secret", klog.KRef(ac.Namespace, ac.Spec.ClientSecretRef.Name), "reason", verdict.Reason)
	if equality.Semantic.DeepEqual(before.Status, ac.Status) {
		log.V(1).Info("credentials unchanged")
		return ctrl.Result{}, nil
	}
	if err := r.Client.Status().Patch(ctx, ac, client.MergeFrom(before)); err != nil {
		return ctrl.Result{}, err
	}
	if old := meta.FindStatusCondition(before.Status.Conditions, investv1.ConditionReady); old == nil || old.Reason != verdict.Reason {
		log.Info("credentials judged", "ready", meta.IsStatusConditionTrue(ac.Status.Conditions, investv1.ConditionReady))
	} else {
		log.V(1).Info("status written")
	}
	return ctrl.Result{}, nil
}

// SetupWithManager watches ApiClients and the metadata of Secrets: a Secret's creation,
// change or deletion brings back the ApiClients of its namespace that name it.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	switch {
	case mgr == nil:
		return errors.New("apiclient controller: nil manager")
	case r.Client == nil:
		return errors.New("apiclient controller: Client must not be nil")
	case r.Secrets == nil:
		return errors.New("apiclient controller: Secrets must not be nil")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("apiclient").
		For(&investv1.ApiClient{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.clientsOf), builder.OnlyMetadata).
		Complete(r)
}

func (r *Reconciler) clientsOf(ctx context.Context, secret client.Object) []reconcile.Request {
	var list investv1.ApiClientList
	if err := r.Client.List(ctx, &list, client.InNamespace(secret.GetNamespace())); err != nil {
		// A map function cannot return its error: say it, or the ApiClients naming this
		// Secret would silently miss its change.
		ctrl.LoggerFrom(ctx).Error(err, "list ApiClients for a Secret; their Ready condition may be stale", "secret", klog.KObj(secret))
		return nil
	}
	var out []reconcile.Request
	for i := range list.Items {
		if list.Items[i].Spec.ClientSecretRef.Name == secret.GetName() {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&list.Items[i])})
		}
	}
	return out
}
