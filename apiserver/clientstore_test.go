package apiserver

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
)

func TestClientStoreFindsTheClientAndItsHash(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.Spec.ClientSecretRef.Key = "" // defaults to "hash"
	ac.Spec.Disabled = true
	s := clientStoreWith(t, ac, hashSecret("tenant-a", "creds", "hash", "$argon2id$x"))
	got, err := s.LookupClient(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	want := auth.Client{ID: "acme", Tenant: "tenant-a", SecretHash: "$argon2id$x", Disabled: true,
		Credentials: auth.CredentialsFingerprint(string(ac.UID), ac.Generation, "$argon2id$x")}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestClientStoreReadsTheNamedKey(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.Spec.ClientSecretRef.Key = "argon"
	s := clientStoreWith(t, ac, hashSecret("tenant-a", "creds", "argon", "h"))
	got, err := s.LookupClient(context.Background(), "acme")
	if err != nil || got.SecretHash != "h" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestClientStoreTreatsUnknownConflictingAndSecretlessClientsAsNotFound(t *testing.T) {
	a := fixtures.ApiClient("tenant-a", "dup", "creds")
	b := fixtures.ApiClient("tenant-b", "dup", "creds")
	lonely := fixtures.ApiClient("tenant-c", "no-secret", "missing")
	s := clientStoreWith(t, a, b, lonely, hashSecret("tenant-a", "creds", "hash", "h"), hashSecret("tenant-b", "creds", "hash", "h"))
	for _, id := range []string{"unknown", "dup", "no-secret"} {
		if _, err := s.LookupClient(context.Background(), id); !errors.Is(err, auth.ErrClientNotFound) {
			t.Errorf("%s: err = %v, want ErrClientNotFound", id, err)
		}
	}
}

// countingReader counts Gets and fails them while failing is set.
type countingReader struct {
	client.Reader
	mu      sync.Mutex
	gets    int
	failing bool
}

func (r *countingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.mu.Lock()
	r.gets++
	failing := r.failing
	r.mu.Unlock()
	if failing {
		return errors.New("api server unreachable")
	}
	return r.Reader.Get(ctx, key, obj, opts...)
}

func (r *countingReader) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gets
}

func TestClientStateReadsTheSecretAtMostOncePerMaxAge(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.UID = "uid-1"
	sec := hashSecret("tenant-a", "creds", "hash", "h1")
	s := clientStoreWith(t, ac, sec)
	secrets := &countingReader{Reader: s.Secrets}
	s.Secrets = secrets
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	ctx := context.Background()

	c, err := s.ClientState(ctx, "acme", auth.StateMaxAge)
	if err != nil {
		t.Fatal(err)
	}
	want := auth.CredentialsFingerprint("uid-1", ac.Generation, "h1")
	if c.Tenant != "tenant-a" || c.Disabled || c.Credentials != want || c.SecretHash != "" {
		t.Fatalf("got %+v, want tenant-a, enabled, fingerprint of h1, no hash", c)
	}
	for range 100 {
		if _, err := s.ClientState(ctx, "acme", auth.StateMaxAge); err != nil {
			t.Fatal(err)
		}
	}
	if n := secrets.count(); n != 1 {
		t.Fatalf("%d Secret reads within max age, want 1", n)
	}

	// Rotation: seen once the copy is max age old.
	sec.Data["hash"] = []byte("h2")
	if err := s.Secrets.(*countingReader).Reader.(client.Client).Update(ctx, sec); err != nil {
		t.Fatal(err)
	}
	now = now.Add(auth.StateMaxAge)
	c, err = s.ClientState(ctx, "acme", auth.StateMaxAge)
	if err != nil {
		t.Fatal(err)
	}
	if c.Credentials != auth.CredentialsFingerprint("uid-1", ac.Generation, "h2") {
		t.Fatal("the rotated hash was not read after max age")
	}

	// The API server is unreachable: a copy younger than the stale limit is used, an
	// older one is an error (the bearer check answers 503, it does not fail open).
	secrets.mu.Lock()
	secrets.failing = true
	secrets.mu.Unlock()
	now = now.Add(credentialsStaleLimit - time.Second)
	if _, err := s.ClientState(ctx, "acme", auth.StateMaxAge); err != nil {
		t.Fatalf("a %v old copy was not used while the API server is unreachable: %v", credentialsStaleLimit-time.Second, err)
	}
	now = now.Add(time.Second)
	if _, err := s.ClientState(ctx, "acme", auth.StateMaxAge); err == nil || errors.Is(err, auth.ErrClientNotFound) {
		t.Fatalf("err = %v, want a server error past the stale limit", err)
	}
}

func TestClientStateFingerprintFollowsTheApiClient(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.UID, ac.Generation = "uid-1", 1
	s := clientStoreWith(t, ac, hashSecret("tenant-a", "creds", "hash", "h1"))
	ctx := context.Background()
	issued, err := s.LookupClient(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.ClientState(ctx, "acme", auth.StateMaxAge)
	if err != nil || c.Credentials != issued.Credentials {
		t.Fatalf("state %+v (%v) differs from the token endpoint's %q", c, err, issued.Credentials)
	}
	for name, mutate := range map[string]func(*investv1.ApiClient){
		"spec changed (generation)": func(a *investv1.ApiClient) { a.Generation = 2 },
		"deleted and re-created":    func(a *investv1.ApiClient) { a.UID = "uid-2" },
	} {
		other := ac.DeepCopy()
		mutate(other)
		if keyOf(other) == keyOf(ac) || fingerprint(keyOf(other), "h1") == issued.Credentials {
			t.Errorf("%s: same fingerprint", name)
		}
	}
	if _, err := s.ClientState(ctx, "nobody", auth.StateMaxAge); !errors.Is(err, auth.ErrClientNotFound) {
		t.Fatalf("unknown client: %v", err)
	}
}
