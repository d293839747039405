package apiserver

import (
	"context"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/test/ctrltest"
)

// The unit tests' facade and client store over a fake client, and the objects they are
// given: what the tests of the package's glue share (the envtest suite, package
// apiserver_test, has its own in suite_test.go).

// newTestIssuer is a token issuer with a fresh signing key.
func newTestIssuer(tb testing.TB) *auth.Issuer {
	tb.Helper()
	key, err := auth.GenerateSigningKey()
	if err != nil {
		tb.Fatal(err)
	}
	keys, err := auth.NewKeySet(key)
	if err != nil {
		tb.Fatal(err)
	}
	issuer, err := auth.NewIssuer(auth.IssuerConfig{Keys: keys, Issuer: "http://api.example.com"})
	if err != nil {
		tb.Fatal(err)
	}
	return issuer
}

// newTestServer is a facade over a fake client (no controllers, no admission), for unit
// tests of glue code; issue makes tokens for tenant.
func newTestServer(t *testing.T, objs ...client.Object) (*Server, client.Client, func(tenant string) string) {
	t.Helper()
	issuer := newTestIssuer(t)
	c := ctrltest.FakeClient(t, objs, &investv1.Order{}, &investv1.Account{})
	clients := &ClientStore{Cache: c, Secrets: c}
	s := NewServer(Deps{Reader: c, Writer: c, APIReader: c, Issuer: issuer, Clients: clients, Log: logr.Discard()})
	// A token of the tenant's API client, onboarded on first use (ApiClient and Secret),
	// so that the bearer check finds the client current.
	return s, c, func(tenant string) string {
		ctx := context.Background()
		id := tenant + "-client"
		if _, err := clients.LookupClient(ctx, id); err != nil {
			if err := c.Create(ctx, fixtures.ApiClient(tenant, id, "credentials")); err != nil {
				t.Fatal(err)
			}
			if err := c.Create(ctx, hashSecret(tenant, "credentials", "hash", "$argon2id$test")); err != nil {
				t.Fatal(err)
			}
		}
		cl, err := clients.LookupClient(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		token, _, err := issuer.IssueFor(cl, "openid offline")
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
}

func clientStoreWith(t *testing.T, objs ...client.Object) *ClientStore {
	c := ctrltest.FakeClient(t, objs)
	return &ClientStore{Cache: c, Secrets: c, Log: logr.Discard()}
}

func hashSecret(ns, name, key, hash string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{key: []byte(hash)}}
}
