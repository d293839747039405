package apiserver

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/tenant"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// fieldOwner names the facade in managedFields of the objects it writes.
var fieldOwner = client.FieldOwner("fundshare-rest")

// maxWriteAttempts bounds a read-modify-write that keeps meeting concurrent changes
// (other requests, and controllers writing the status, which also moves the
// resourceVersion). Each attempt after the first waits a little, at random, so that
// contenders spread out.
const maxWriteAttempts = 10

// retryStep is what a read-modify-write does after its write failed.
type retryStep int

const (
	// retryFail: answer the error (writeAPIError).
	retryFail retryStep = iota
	// retryNotFound: the object is gone: 404.
	retryNotFound
	// retryGiveUp: it kept changing for maxWriteAttempts attempts: 409 Conflict.
	retryGiveUp
	// retryDuplicate: another object holds a value that must be unique: 409 naming it.
	retryDuplicate
	// retryReread: read it again at once.
	retryReread
	// retryBackOff: wait (backoff), then read it again.
	retryBackOff
)

// backoff sleeps before the attempt-th try of a read-modify-write: at random, up to 10 ms
// doubled per attempt and at most half a second, so that contenders that keep meeting
// each other (and the controllers' status writes) spread out further each time, also on
// a loaded API server: about 2.5 s in all over maxWriteAttempts.
func backoff(ctx context.Context, attempt int) error {
	ceiling := min(10*time.Millisecond<<min(attempt, 10), 500*time.Millisecond)
	d := time.Duration(rand.Int64N(int64(ceiling))) //nolint:gosec // jitter, not a secret
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

var (
	gvkAccount       = investv1.GroupVersion.WithKind("Account")
	gvkWallet        = investv1.GroupVersion.WithKind("Wallet")
	gvkPaymentMethod = investv1.GroupVersion.WithKind("PaymentMethodDetails")
)

// errNoSuchID stands for a path id that cannot name an object (not a lowercase UUID); it
// answers exactly like an id that does not exist.
var errNoSuchID = apierrors.NewNotFound(schema.GroupResource{Group: investv1.GroupVersion.Group}, "")

// get reads one object of the tenant from the cache, once this process's earlier writes
// of the kinds named are visible there.
func (s *Server) get(ctx context.Context, namespace, id string, obj client.Object, wait ...schema.GroupVersionKind) error {
	if !validation.IsLowercaseUUID(id) {
		return errNoSuchID
	}
	if err := s.tracker.Wait(ctx, namespace, wait...); err != nil {
		return err
	}
	return s.deps.Reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: id}, obj)
}

// account reads the tenant's account id (tenant.Account, the lookup admission uses
// too) once this process's earlier writes of accounts and of the kinds in wait are
// visible; when it names no account of the tenant it answers 404 itself and returns nil.
func (s *Server) account(w http.ResponseWriter, r *http.Request, id string, wait ...schema.GroupVersionKind) *investv1.Account {
	ctx, ns := r.Context(), tenantOf(r)
	err := s.tracker.Wait(ctx, ns, append([]schema.GroupVersionKind{gvkAccount}, wait...)...)
	var a *investv1.Account
	if err == nil {
		a, err = tenant.Account(ctx, tenant.Readers{Cache: s.deps.Reader}, ns, id)
	}
	if s.readFailed(w, r, err, tenant.IsAccountNotFound, resAccount, id) {
		return nil
	}
	return a
}

// readFailed answers the error of reading resource id, if any: 404 when notFound(err)
// (apierrors.IsNotFound when nil), writeAPIError otherwise. It reports whether it
// answered, i.e. whether err is not nil.
func (s *Server) readFailed(w http.ResponseWriter, r *http.Request, err error, notFound func(error) bool, resource, id string) bool {
	if notFound == nil {
		notFound = apierrors.IsNotFound
	}
	switch {
	case err == nil:
		return false
	case notFound(err):
		writeNotFound(w, resource, id)
	default:
		s.writeAPIError(w, r, err, nil)
	}
	return true
}

// tenantSettings are the caller's tenant settings (tax reporting, LEI, KYC data), which
// account rules depend on: tenant.Settings, as admission reads them.
func (s *Server) tenantSettings(r *http.Request) (rules.TenantSettings, error) {
	return tenant.Settings(r.Context(), tenant.Readers{Cache: s.deps.Reader, Live: s.deps.APIReader}, tenantOf(r))
}

// bodyRules are the messages of a shared rule (internal/rules) about the body of a POST
// under /v1/accounts/{account_id}: without account_id, which the path gives. The path's
// account is not a field to validate but the resource the request is addressed to: an
// id that names no account of the tenant (unknown, another tenant's, or not a UUID)
// answers 404 Account not found (s.account, tenant.Account) once the body's own
// problems are answered, for wallets and payment method details alike.
func bodyRules(fe validation.FieldErrors) validation.FieldErrors {
	delete(fe, "account_id")
	return fe
}

// mergeNew adds the messages of more for fields that have none yet, so that a field
// already refused by the request checks is not reported twice by the shared rules.
func mergeNew(fe *validation.FieldErrors, more validation.FieldErrors) {
	for field, msgs := range more {
		if _, seen := (*fe)[field]; seen {
			continue
		}
		for _, m := range msgs {
			fe.Add(field, m)
		}
	}
}

// required adds "is required" when a request field is absent or null.
func required[T any](fe *validation.FieldErrors, name string, v *T) {
	if v == nil {
		fe.Add(name, "is required")
	}
}

func deref[T any](v *T) T {
	var zero T
	if v == nil {
		return zero
	}
	return *v
}

func lower(s string) string { return strings.ToLower(s) }
