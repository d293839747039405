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
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update;deletecollection

// A wallet address is registered once per account, whatever the path and however many
// registrations arrive at once. The admission webhook makes the API server enforce it: it
// creates a claim named by a UUIDv5 of account and address (a Lease, the API's lock
// object), and a create of an existing name fails atomically. The claim names its wallet
// as holder; a claim whose wallet does not exist (a deleted wallet, or a create refused
// after admission) is taken over once it is older than claimGrace, so that a registration
// still on its way to etcd keeps its claim.
const (
	claimPrefix = "wallet-address-"
	// LabelAccount marks the claims of an account, removed with it.
	LabelAccount = "invest.fundshare.io/account"
	claimGrace   = 30 * time.Second
)

var claimSpace = uuid.MustParse("5f0e9b3a-7c2d-4e61-9a8b-3d4c5e6f7a80")

// ClaimName is the name of the claim on an address of an account.
func ClaimName(accountID, address string) string {
	return claimPrefix + uuid.NewSHA1(claimSpace, []byte(accountID+"/"+validation.EVMAddressKey(address))).String()
}

// errClaimed is a registration refused because another wallet holds the address.
type errClaimed struct{ holder string }

func (e errClaimed) Error() string { return WalletDuplicateMessage + " as wallet " + e.holder }

// claimAddress takes the claim for w, or says which wallet holds it.
func claimAddress(ctx context.Context, c client.Client, live client.Reader, w *investv1.Wallet, now time.Time) error {
	claim := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Name: ClaimName(string(w.Spec.AccountID), w.Spec.WalletAddress), Namespace: w.Namespace,
			Labels: map[string]string{LabelAccount: string(w.Spec.AccountID), "app.kubernetes.io/managed-by": "fundshare-operator"},
		},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To(w.Name), AcquireTime: &metav1.MicroTime{Time: now}},
	}
	err := c.Create(ctx, claim)
	if err == nil || !apierrors.IsAlreadyExists(err) {
		return err
	}
	existing := &coordinationv1.Lease{}
	if err := live.Get(ctx, client.ObjectKeyFromObject(claim), existing); err != nil {
		return err
	}
	holder := ptr.Deref(existing.Spec.HolderIdentity, "")
	if holder == w.Name {
		return nil // the same registration, retried
	}
	err = live.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: holder}, &investv1.Wallet{})
	switch {
	case err == nil:
		return errClaimed{holder: holder}
	case !apierrors.IsNotFound(err):
		return err
	}
	acquired := existing.CreationTimestamp.Time
	if existing.Spec.AcquireTime != nil {
		acquired = existing.Spec.AcquireTime.Time
	}
	if now.Sub(acquired) < claimGrace {
		return errClaimed{holder: fmt.Sprintf("%s (registration in progress)", holder)}
	}
	existing.Spec.HolderIdentity = ptr.To(w.Name)
	existing.Spec.AcquireTime = &metav1.MicroTime{Time: now}
	if err := c.Update(ctx, existing); err != nil {
		if apierrors.IsConflict(err) {
			return errClaimed{holder: "being registered concurrently"}
		}
		return err
	}
	return nil
}
