package token_test

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	. "github.com/fundshare/fundshare-operator/controllers/token"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/patch"
)

// pendingDeployer says the deployment is on its way, every time.
type pendingDeployer struct{}

func (pendingDeployer) Deploy(context.Context, *investv1.ShareClass) (common.Address, time.Duration, error) {
	return common.Address{}, time.Second, nil
}

// TestAShareClassStatusWriteThatLosesTheRaceIsRetriedNotAnError: a status write refused
// with a conflict (someone wrote the share class meanwhile) is routine: the reconciler
// comes back after patch.ConflictRetry with no error, so controller-runtime logs no
// "Reconciler error" with a stack trace; any other failure is still an error.
func TestAShareClassStatusWriteThatLosesTheRaceIsRetriedNotAnError(t *testing.T) {
	sc := fixtures.ShareClass("c0ffee00-0000-4000-8000-000000000001", "LU000FSHA019")
	sc.Spec.Token = &investv1.ShareClassToken{Mode: investv1.TokenModeDeploy}
	for _, tc := range []struct {
		name      string
		err       error
		wantError bool
	}{
		{"conflict", apierrors.NewConflict(schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "shareclasses"}, sc.Name, errors.New("the object has been modified")), false},
		{"gone meanwhile", apierrors.NewNotFound(schema.GroupResource{Group: investv1.GroupVersion.Group, Resource: "shareclasses"}, sc.Name), false},
		{"the API server fails", apierrors.NewInternalError(errors.New("etcd is down")), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(controlplane.Scheme()).WithObjects(sc.DeepCopy()).
				WithStatusSubresource(&investv1.ShareClass{}).
				WithInterceptorFuncs(interceptor.Funcs{SubResourcePatch: func(context.Context, client.Client, string, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
					return tc.err
				}}).Build()
			r := &ShareClassReconciler{Client: c, ChainID: big.NewInt(1337), Recheck: time.Minute, Deployer: pendingDeployer{}}
			res, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(sc)})
			switch {
			case tc.wantError && err == nil:
				t.Fatalf("Reconcile = %+v, nil; want the error", res)
			case !tc.wantError && err != nil:
				t.Fatalf("Reconcile returned %v; want a retry after %s without an error", err, patch.ConflictRetry)
			case !tc.wantError && res.RequeueAfter != patch.ConflictRetry:
				t.Fatalf("RequeueAfter = %s, want %s", res.RequeueAfter, patch.ConflictRetry)
			}
		})
	}
}
