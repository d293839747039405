package apiserver

import (
	"context"
	"errors"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/apiserver/auth"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/fixtures"
	"github.com/fundshare/fundshare-operator/internal/index"
)

func clientStoreWith(objs ...client.Object) *ClientStore {
	c := fake.NewClientBuilder().WithScheme(controlplane.Scheme()).WithObjects(objs...).
		WithIndex(&investv1.ApiClient{}, index.ApiClientID, func(o client.Object) []string {
			return []string{o.(*investv1.ApiClient).Spec.ClientID}
		}).Build()
	return &ClientStore{Cache: c, Secrets: c, Log: logr.Discard()}
}

func hashSecret(ns, name, key, hash string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{key: []byte(hash)}}
}

func TestClientStoreFindsTheClientAndItsHash(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.Spec.ClientSecretRef.Key = "" // defaults to "hash"
	ac.Spec.Disabled = true
	s := clientStoreWith(ac, hashSecret("tenant-a", "creds", "hash", "$argon2id$x"))
	got, err := s.LookupClient(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	want := auth.Client{ID: "acme", Tenant: "tenant-a", SecretHash: "$argon2id$x", Disabled: true}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestClientStoreReadsTheNamedKey(t *testing.T) {
	ac := fixtures.ApiClient("tenant-a", "acme", "creds")
	ac.Spec.ClientSecretRef.Key = "argon"
	s := clientStoreWith(ac, hashSecret("tenant-a", "creds", "argon", "h"))
	got, err := s.LookupClient(context.Background(), "acme")
	if err != nil || got.SecretHash != "h" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestClientStoreTreatsUnknownConflictingAndSecretlessClientsAsNotFound(t *testing.T) {
	a := fixtures.ApiClient("tenant-a", "dup", "creds")
	b := fixtures.ApiClient("tenant-b", "dup", "creds")
	lonely := fixtures.ApiClient("tenant-c", "no-secret", "missing")
	s := clientStoreWith(a, b, lonely, hashSecret("tenant-a", "creds", "hash", "h"), hashSecret("tenant-b", "creds", "hash", "h"))
	for _, id := range []string{"unknown", "dup", "no-secret"} {
		if _, err := s.LookupClient(context.Background(), id); !errors.Is(err, auth.ErrClientNotFound) {
			t.Errorf("%s: err = %v, want ErrClientNotFound", id, err)
		}
	}
}
