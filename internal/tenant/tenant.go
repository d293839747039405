// Package tenant defines, once, the lookups the REST facade and admission share: a
// namespace's tenant settings and a tenant's account. A tenant is a namespace with one
// ApiClient (the ApiClient webhook's claims keep it at one); REST calls with that client's
// token are confined to the namespace. Both callers read through Settings and Account,
// so a kubectl user and a REST caller meet the same requirements and the same "not
// found"; each maps the errors to its own answer (REST: 404 Account not found; admission:
// a NotFound cause on spec.accountID).
package tenant

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/rules"
	"github.com/fundshare/fundshare-operator/internal/validation"
)

// Readers are where the lookups read: Cache first, then Live (optional) when the cache
// does not show the object yet, e.g. an ApiClient and an Account applied by one kubectl
// apply, whose admission may come before the cache has seen the ApiClient.
type Readers struct {
	Cache client.Reader
	Live  client.Reader
}

// APIClients are the ApiClients of namespace: from the cache, and from Live when the
// cache shows none (the tenancy webhook and Settings read them so).
func APIClients(ctx context.Context, r Readers, namespace string) ([]investv1.ApiClient, error) {
	var list investv1.ApiClientList
	if err := r.Cache.List(ctx, &list, client.InNamespace(namespace)); err != nil {
		return nil, fmt.Errorf("list the ApiClients of namespace %s: %w", namespace, err)
	}
	if len(list.Items) == 0 && r.Live != nil {
		if err := r.Live.List(ctx, &list, client.InNamespace(namespace)); err != nil {
			return nil, fmt.Errorf("list the ApiClients of namespace %s: %w", namespace, err)
		}
	}
	return list.Items, nil
}

// Settings are the tenant settings of namespace (tax reporting, LEI, KYC data), which
// account rules depend on: those of the namespace's ApiClient (APIClients, SettingsOf).
func Settings(ctx context.Context, r Readers, namespace string) (rules.TenantSettings, error) {
	clients, err := APIClients(ctx, r, namespace)
	if err != nil {
		return rules.TenantSettings{}, err
	}
	return SettingsOf(clients), nil
}

// SettingsOf is the rule: a namespace's settings are those of its ApiClient. With none,
// the namespace is no tenant and adds no requirement (the tenancy webhook refuses tenant
// objects there). With more than one (the claims prevent it; a namespace from before
// them, or written while the webhooks were off, may have them), every requirement any of
// them sets applies: which ApiClient a list returns first must not decide what an account
// needs.
func SettingsOf(clients []investv1.ApiClient) rules.TenantSettings {
	var s rules.TenantSettings
	for i := range clients {
		c := rules.SettingsOf(&clients[i])
		s.TaxReporting = s.TaxReporting || c.TaxReporting
		s.LEIRequired = s.LEIRequired || c.LEIRequired
		s.KYCDataRequired = s.KYCDataRequired || c.KYCDataRequired
	}
	return s
}

// AccountNotFoundError is Account's answer for an id that names no account of the
// tenant: unknown, another tenant's, or not an account's name at all (not a lowercase
// UUID). REST answers it 404 Account not found; admission as a NotFound cause on
// spec.accountID.
type AccountNotFoundError struct {
	Namespace string
	ID        string
}

func (e *AccountNotFoundError) Error() string {
	return fmt.Sprintf("account %s not found in namespace %s", e.ID, e.Namespace)
}

// IsAccountNotFound reports whether err is, or wraps, an *AccountNotFoundError.
func IsAccountNotFound(err error) bool {
	var nf *AccountNotFoundError
	return errors.As(err, &nf)
}

// Account reads the account id of the tenant namespace: from the cache, and from Live
// when the cache does not show it. An id that cannot name an account is not found
// without a read. Errors: *AccountNotFoundError, or the readers' own.
func Account(ctx context.Context, r Readers, namespace, id string) (*investv1.Account, error) {
	if !validation.IsLowercaseUUID(id) {
		return nil, &AccountNotFoundError{Namespace: namespace, ID: id}
	}
	var a investv1.Account
	key := client.ObjectKey{Namespace: namespace, Name: id}
	err := r.Cache.Get(ctx, key, &a)
	if apierrors.IsNotFound(err) && r.Live != nil {
		err = r.Live.Get(ctx, key, &a)
	}
	switch {
	case apierrors.IsNotFound(err):
		return nil, &AccountNotFoundError{Namespace: namespace, ID: id}
	case err != nil:
		return nil, fmt.Errorf("read account %s/%s: %w", namespace, id, err)
	}
	return &a, nil
}
