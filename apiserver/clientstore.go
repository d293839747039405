package apiserver

import (
	"context"
	"fmt"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// defaultSecretKey is the key of the client secret hash when the ApiClient names none.
const defaultSecretKey = "hash"

// ClientStore finds API clients for the token endpoint in Kubernetes: the ApiClient with
// the client id (any namespace, from the cache's index) and the hash in the Secret it
// names. Secrets are read from the API server directly, never cached: the manager needs
// no list/watch on Secrets, and a rotated hash takes effect at once.
type ClientStore struct {
	// Cache reads ApiClients (the manager's cache, with the index.ApiClientID index).
	Cache client.Reader
	// Secrets reads Secrets (the manager's uncached API reader).
	Secrets client.Reader
	// Log reports misconfigured clients; never secrets.
	Log logr.Logger
}

var _ auth.ClientStore = (*ClientStore)(nil)

// LookupClient implements auth.ClientStore. A client id held by more than one ApiClient
// is a conflict an operator must resolve; until then nobody gets a token with it.
func (s *ClientStore) LookupClient(ctx context.Context, clientID string) (auth.Client, error) {
	var list investv1.ApiClientList
	if err := s.Cache.List(ctx, &list, client.MatchingFields{index.ApiClientID: clientID}); err != nil {
		return auth.Client{}, fmt.Errorf("list api clients: %w", err)
	}
	switch len(list.Items) {
	case 0:
		return auth.Client{}, auth.ErrClientNotFound
	case 1:
	default:
		where := make([]string, 0, len(list.Items))
		for _, ac := range list.Items {
			where = append(where, ac.Namespace+"/"+ac.Name)
		}
		s.Log.Info("client id is used by more than one ApiClient; refusing tokens for it",
			"client_id", clientID, "api_clients", where)
		return auth.Client{}, fmt.Errorf("%w: client id is not unique", auth.ErrClientNotFound)
	}
	ac := list.Items[0]
	key := ac.Spec.ClientSecretRef.Key
	if key == "" {
		key = defaultSecretKey
	}
	var secret corev1.Secret
	err := s.Secrets.Get(ctx, client.ObjectKey{Namespace: ac.Namespace, Name: ac.Spec.ClientSecretRef.Name}, &secret)
	if apierrors.IsNotFound(err) {
		s.Log.Info("ApiClient names a missing Secret", "client_id", clientID, "namespace", ac.Namespace,
			"secret", ac.Spec.ClientSecretRef.Name)
		return auth.Client{}, fmt.Errorf("%w: secret missing", auth.ErrClientNotFound)
	}
	if err != nil {
		return auth.Client{}, fmt.Errorf("read client secret hash: %w", err)
	}
	hash := secret.Data[key]
	if len(hash) == 0 {
		s.Log.Info("ApiClient's Secret has no hash under the key", "client_id", clientID, "namespace", ac.Namespace,
			"secret", ac.Spec.ClientSecretRef.Name, "key", key)
	}
	return auth.Client{
		ID:         clientID,
		Tenant:     ac.Namespace,
		SecretHash: string(hash),
		Disabled:   ac.Spec.Disabled,
	}, nil
}
