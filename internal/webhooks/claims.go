package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update;deletecollection

// Uniqueness rules that span objects (an address once per account, an external id once
// per tenant) are enforced by the API server, whatever the path and however many requests
// arrive at once: admission creates a claim named by a UUIDv5 of the unique key (a Lease,
// the API's lock object), and a create of an existing name fails atomically. The claim
// names the object that holds the key. A claim whose holder no longer holds the key (the
// object was deleted, changed its key, or was refused after admission) is taken over once
// it is older than claimGrace, so a request still on its way to etcd keeps its claim.
const (
	// LabelAccount marks the claims of an account; they are removed with it.
	LabelAccount = investv1.LabelAccount
	claimGrace   = 30 * time.Second
)

var claimSpace = uuid.MustParse("5f0e9b3a-7c2d-4e61-9a8b-3d4c5e6f7a80")

// claimName is the name of the claim on a key of a kind ("wallet-address", ...).
func claimName(kind, key string) string {
	return kind + "-" + uuid.NewSHA1(claimSpace, []byte(kind+"/"+key)).String()
}

// errClaimed is a request refused because another object holds the key.
type errClaimed struct {
	holder     string
	inProgress bool
}

func (e errClaimed) Error() string {
	if e.inProgress {
		return e.holder + " (registration in progress)"
	}
	return e.holder
}

// claim is one uniqueness claim to take.
type claim struct {
	namespace, name, holder string
	labels                  map[string]string
	// holds reports whether the named object still holds the key.
	holds func(ctx context.Context, holder string) (bool, error)
}

// take takes the claim for its holder, or returns errClaimed naming who holds it.
func (cl claim) take(ctx context.Context, c client.Client, live client.Reader, now time.Time) error {
	lease := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: cl.name, Namespace: cl.namespace, Labels: cl.labels},
		Spec:       coordinationv1.LeaseSpec{HolderIdentity: ptr.To(cl.holder), AcquireTime: &metav1.MicroTime{Time: now}},
	}
	err := c.Create(ctx, lease)
	if err == nil || !apierrors.IsAlreadyExists(err) {
		return err
	}
	existing := &coordinationv1.Lease{}
	if err := live.Get(ctx, client.ObjectKeyFromObject(lease), existing); err != nil {
		return err
	}
	holder := ptr.Deref(existing.Spec.HolderIdentity, "")
	if holder == cl.holder {
		return nil // the same object again (a retried create, an update)
	}
	holds, err := cl.holds(ctx, holder)
	switch {
	case err != nil:
		return err
	case holds:
		return errClaimed{holder: holder}
	}
	acquired := existing.CreationTimestamp.Time
	if existing.Spec.AcquireTime != nil {
		acquired = existing.Spec.AcquireTime.Time
	}
	if now.Sub(acquired) < claimGrace {
		return errClaimed{holder: holder, inProgress: true}
	}
	existing.Spec.HolderIdentity = ptr.To(cl.holder)
	existing.Spec.AcquireTime = &metav1.MicroTime{Time: now}
	existing.Labels = cl.labels
	if err := c.Update(ctx, existing); err != nil {
		if apierrors.IsConflict(err) {
			return errClaimed{holder: fmt.Sprintf("%s, taken over concurrently", holder), inProgress: true}
		}
		return err
	}
	return nil
}
