package apiserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/index"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// fieldOwner names the facade in managedFields of the objects it writes.
var fieldOwner = client.FieldOwner("fundshare-rest")

// maxWriteAttempts bounds a read-modify-write that keeps meeting concurrent changes
// (other requests, and controllers writing the status, which also moves the
// resourceVersion). Each attempt after the first waits a little, at random, so that
// contenders spread out.
const maxWriteAttempts = 10

// backoff sleeps before the attempt-th try of a read-modify-write: up to 10 ms per
// attempt, at random.
func backoff(ctx context.Context, attempt int) error {
	d := time.Duration(rand.Int64N(int64(10*time.Millisecond) * int64(attempt))) //nolint:gosec // jitter, not a secret
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

// account reads the tenant's account id; when it does not exist it answers 404 itself
// and returns nil. wait names further kinds the caller reads afterwards.
func (s *Server) account(w http.ResponseWriter, r *http.Request, id string, wait ...schema.GroupVersionKind) *investv1.Account {
	var a investv1.Account
	err := s.get(r.Context(), tenantOf(r), id, &a, append([]schema.GroupVersionKind{gvkAccount}, wait...)...)
	switch {
	case apierrors.IsNotFound(err):
		writeNotFound(w, resAccount, id)
		return nil
	case err != nil:
		s.writeAPIError(w, r, err, nil)
		return nil
	}
	return &a
}

// tenantSettings are the caller's settings (tax reporting, LEI, KYC data) from its
// ApiClient, which account rules depend on.
func (s *Server) tenantSettings(ctx context.Context, r *http.Request) (rules.TenantSettings, error) {
	claims, _ := auth.ClaimsFrom(r.Context())
	var list investv1.ApiClientList
	if err := s.deps.Reader.List(ctx, &list, client.InNamespace(claims.Tenant),
		client.MatchingFields{index.ApiClientID: claims.ClientID}); err != nil {
		return rules.TenantSettings{}, fmt.Errorf("read tenant settings: %w", err)
	}
	if len(list.Items) != 1 {
		s.deps.Log.Info("no single ApiClient for the token's client id; applying no tenant settings",
			"tenant", claims.Tenant, "client_id", claims.ClientID, "found", len(list.Items))
		return rules.TenantSettings{}, nil
	}
	return rules.SettingsOf(&list.Items[0]), nil
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
