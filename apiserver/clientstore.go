package apiserver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/index"
)

// defaultSecretKey is the key of the client secret hash when the ApiClient names none.
const defaultSecretKey = "hash"

// Bounds of the credentials cache behind the bearer check.
const (
	// credentialsStaleLimit: when the Secret cannot be read, a fingerprint this old is
	// still used (a blip of the API server), older ones give 503. Under the 5 s promise.
	credentialsStaleLimit = 4 * time.Second
	// credentialsFetchTimeout bounds one read of a Secret for the bearer check.
	credentialsFetchTimeout = 2 * time.Second
	// credentialsForgetAfter: fingerprints of clients not seen for this long are dropped.
	credentialsForgetAfter = 10 * time.Minute
)

// ClientStore finds API clients in Kubernetes: the ApiClient with the client id (any
// namespace, from the cache's index) and the hash in the Secret it names.
//
// For the token endpoint (LookupClient) the Secret is read from the API server directly,
// never cached: the manager needs no list/watch on Secrets, and a rotated hash takes
// effect at once. For the bearer check of every request (ClientState) the ApiClient
// comes from the informer cache and the Secret's hash from a per-client copy at most
// auth.StateMaxAge (2 s) old, read again on demand, one read per client at a time: a
// rotation is seen within 2 s without a Secret watch.
type ClientStore struct {
	// Cache reads ApiClients (the manager's cache, with the index.ApiClientID index).
	Cache client.Reader
	// Secrets reads Secrets (the manager's uncached API reader).
	Secrets client.Reader
	// DecoySecret, when set, is read for unknown client ids, so that they cost the
	// token endpoint the same API round trip as known ones (it need not exist).
	DecoySecret types.NamespacedName
	// Log reports misconfigured clients; never secrets.
	Log logr.Logger
	// Now is the clock of the credentials cache; time.Now when nil.
	Now func() time.Time

	credentials sync.Map // credentialsKey → *credentialsEntry
}

var (
	_ auth.ClientStore  = (*ClientStore)(nil)
	_ auth.ClientStates = (*ClientStore)(nil)
)

// credentialsKey names one client's credentials: the ApiClient object at one
// generation and the Secret key it names.
type credentialsKey struct {
	uid        types.UID
	generation int64
	namespace  string
	secret     string
	key        string
}

// credentialsEntry is the latest read of one client's Secret; mu serialises reads.
type credentialsEntry struct {
	mu   sync.Mutex
	cur  atomic.Pointer[credentialsRead]
	used atomic.Int64 // unix nanoseconds of the last use, for forgetting
}

// credentialsRead is one read: the fingerprint ("" when the Secret or its hash is
// missing) and when it was read.
type credentialsRead struct {
	fingerprint string
	at          time.Time
}

func (s *ClientStore) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// find returns the one ApiClient with clientID from the cache. The object is the
// cache's own (not copied): callers only read it.
func (s *ClientStore) find(ctx context.Context, clientID string) (*investv1.ApiClient, error) {
	var list investv1.ApiClientList
	if err := s.Cache.List(ctx, &list, client.MatchingFields{index.ApiClientID: clientID}, client.UnsafeDisableDeepCopy); err != nil {
		return nil, fmt.Errorf("list api clients: %w", err)
	}
	switch len(list.Items) {
	case 0:
		return nil, auth.ErrClientNotFound
	case 1:
		return &list.Items[0], nil
	default:
		where := make([]string, 0, len(list.Items))
		for _, ac := range list.Items {
			where = append(where, ac.Namespace+"/"+ac.Name)
		}
		s.Log.Info("client id is used by more than one ApiClient; refusing it",
			"client_id", clientID, "api_clients", where)
		return nil, fmt.Errorf("%w: client id is not unique", auth.ErrClientNotFound)
	}
}

func keyOf(ac *investv1.ApiClient) credentialsKey {
	key := ac.Spec.ClientSecretRef.Key
	if key == "" {
		key = defaultSecretKey
	}
	return credentialsKey{uid: ac.UID, generation: ac.Generation, namespace: ac.Namespace,
		secret: ac.Spec.ClientSecretRef.Name, key: key}
}

// errNoSecret: the ApiClient names a Secret that does not exist.
var errNoSecret = fmt.Errorf("%w: secret missing", auth.ErrClientNotFound)

// readHash reads the client's secret hash from the API server: errNoSecret when the
// Secret is missing, "" when it lacks the key.
func (s *ClientStore) readHash(ctx context.Context, clientID string, k credentialsKey) (string, error) {
	var secret corev1.Secret
	err := s.Secrets.Get(ctx, client.ObjectKey{Namespace: k.namespace, Name: k.secret}, &secret)
	if apierrors.IsNotFound(err) {
		s.Log.Info("ApiClient names a missing Secret", "client_id", clientID, "namespace", k.namespace, "secret", k.secret)
		return "", errNoSecret
	}
	if err != nil {
		return "", fmt.Errorf("read client secret hash: %w", err)
	}
	hash := secret.Data[k.key]
	if len(hash) == 0 {
		s.Log.Info("ApiClient's Secret has no hash under the key", "client_id", clientID, "namespace", k.namespace,
			"secret", k.secret, "key", k.key)
	}
	return string(hash), nil
}

func fingerprint(k credentialsKey, hash string) string {
	if hash == "" {
		return ""
	}
	return auth.CredentialsFingerprint(string(k.uid), k.generation, hash)
}

// remember records a fresh read of k's credentials.
func (s *ClientStore) remember(k credentialsKey, fp string, at time.Time) {
	v, _ := s.credentials.LoadOrStore(k, &credentialsEntry{})
	e := v.(*credentialsEntry)
	e.cur.Store(&credentialsRead{fingerprint: fp, at: at})
	e.used.Store(at.UnixNano())
}

// LookupClient implements auth.ClientStore. A client id held by more than one ApiClient
// is a conflict an operator must resolve; until then nobody gets a token with it.
func (s *ClientStore) LookupClient(ctx context.Context, clientID string) (auth.Client, error) {
	ac, err := s.find(ctx, clientID)
	if err != nil {
		if s.DecoySecret.Name != "" {
			_ = s.Secrets.Get(ctx, s.DecoySecret, &corev1.Secret{}) // the same round trip as a known id
		}
		return auth.Client{}, err
	}
	k := keyOf(ac)
	at := s.now()
	hash, err := s.readHash(ctx, clientID, k)
	if errors.Is(err, errNoSecret) {
		s.remember(k, "", at)
	}
	if err != nil {
		return auth.Client{}, err
	}
	fp := fingerprint(k, hash)
	s.remember(k, fp, at)
	return auth.Client{
		ID:          clientID,
		Tenant:      ac.Namespace,
		SecretHash:  hash,
		Disabled:    ac.Spec.Disabled,
		Credentials: fp,
	}, nil
}

// ClientState implements auth.ClientStates: the ApiClient from the informer cache, the
// fingerprint of its credentials from a read of its Secret at most maxAge old.
func (s *ClientStore) ClientState(ctx context.Context, clientID string, maxAge time.Duration) (auth.Client, error) {
	ac, err := s.find(ctx, clientID)
	if err != nil {
		return auth.Client{}, err
	}
	k := keyOf(ac)
	c := auth.Client{ID: clientID, Tenant: ac.Namespace, Disabled: ac.Spec.Disabled}
	now := s.now()
	v, ok := s.credentials.Load(k)
	if !ok {
		v, _ = s.credentials.LoadOrStore(k, &credentialsEntry{})
	}
	e := v.(*credentialsEntry)
	e.used.Store(now.UnixNano())
	if r := e.cur.Load(); r != nil && now.Sub(r.at) < maxAge {
		c.Credentials = r.fingerprint
		return c, nil
	}

	// Stale or never read: one request reads, the others of this client wait for it.
	e.mu.Lock()
	defer e.mu.Unlock()
	if r := e.cur.Load(); r != nil && s.now().Sub(r.at) < maxAge {
		c.Credentials = r.fingerprint
		return c, nil
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), credentialsFetchTimeout)
	defer cancel()
	at := s.now()
	hash, err := s.readHash(rctx, clientID, k)
	if errors.Is(err, errNoSecret) {
		hash, err = "", nil // no credentials: every token of the client is refused
	}
	if err != nil {
		if r := e.cur.Load(); r != nil && s.now().Sub(r.at) < credentialsStaleLimit {
			c.Credentials = r.fingerprint
			return c, nil
		}
		return auth.Client{}, err
	}
	fp := fingerprint(k, hash)
	e.cur.Store(&credentialsRead{fingerprint: fp, at: at})
	c.Credentials = fp
	s.forgetUnused(at)
	return c, nil
}

// forgetUnused drops the credentials of clients not seen for a while (deleted or
// changed ApiClients leave their old keys behind).
func (s *ClientStore) forgetUnused(now time.Time) {
	limit := now.Add(-credentialsForgetAfter).UnixNano()
	s.credentials.Range(func(k, v any) bool {
		if v.(*credentialsEntry).used.Load() < limit {
			s.credentials.Delete(k)
		}
		return true
	})
}
