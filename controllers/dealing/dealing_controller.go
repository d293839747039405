// Package dealing is the dealing controller: it writes each share class's dealing
// calendar, status.dealing.next (the next open dealing dates and their cut-offs, from
// internal/dealing), so that kubectl shows them, and refreshes it when the first listed
// dealing's last cut-off passes. It writes nothing else; the REST facade computes the same
// dates from the terms itself.
package dealing

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/dealing"
)

// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=invest.fundshare.io,resources=shareclasses/status,verbs=get;patch

// Reconciler keeps status.dealing of every share class.
type Reconciler struct {
	Client client.Client
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Calendar is status.dealing for a share class's terms at instant now, and when it must be
// computed again: when the first dealing's last cut-off passes (zero: never, without a
// calendar). A pure function of its arguments.
func Calendar(sc *investv1.ShareClass, now time.Time) (*investv1.DealingStatus, time.Time) {
	if sc.Spec.Dealing == nil {
		return nil, time.Time{}
	}
	out := &investv1.DealingStatus{ObservedGeneration: sc.Generation}
	next, err := dealing.Next(sc.Spec.Dealing, now, dealing.NextCount)
	if err != nil {
		out.Message = err.Error()
		return out, time.Time{}
	}
	for _, d := range next {
		out.Next = append(out.Next, investv1.DealingDate{
			Date:               d.String(),
			SubscriptionCutOff: metav1.NewTime(d.SubscriptionCutOff.UTC()),
			RedemptionCutOff:   metav1.NewTime(d.RedemptionCutOff.UTC()),
			NAVPublicationDate: d.NAVPublicationDate.String(),
			SettlementDate:     d.SettlementDate.String(),
		})
	}
	return out, next[0].LastCutOff()
}

// Reconcile writes the share class's calendar when it differs from the status, and asks to
// be called again when the first dealing closes.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var sc investv1.ShareClass
	if err := r.Client.Get(ctx, req.NamespacedName, &sc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	now := r.now()
	want, refresh := Calendar(&sc, now)
	if !equality.Semantic.DeepEqual(want, sc.Status.Dealing) {
		base := sc.DeepCopy()
		sc.Status.Dealing = want
		// A merge patch of status.dealing alone: the token controller owns the rest of the
		// status; the resourceVersion in the patch makes a stale read fail, not overwrite.
		// A conflict is returned: the next reconcile reads afresh.
		if err := r.Client.Status().Patch(ctx, &sc, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, err
		}
	}
	if refresh.IsZero() {
		return ctrl.Result{}, nil
	}
	// A little after the cut-off, so that the next reading has moved on.
	return ctrl.Result{RequeueAfter: refresh.Sub(now) + time.Second}, nil
}

func (r *Reconciler) now() time.Time {
	if r.Now == nil {
		return time.Now()
	}
	return r.Now()
}

// SetupWithManager watches share classes (their spec: status writes do not change the
// generation); controllers run on the leader only.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if mgr == nil || r.Client == nil {
		return errors.New("dealing controller: nil manager or Client")
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("dealing").
		For(&investv1.ShareClass{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Complete(r)
}
