// Copyright 2026 The fundshare-operator Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

const (
	testNS   = "fundshare-system"
	testName = "fundshare-token-signing-key"
)

func signingSecret(t *testing.T) (*corev1.Secret, string) {
	t.Helper()
	key := must(GenerateSigningKey())(t)
	pemBytes := must(MarshalSigningKeyPEM(key))(t)
	kid, _ := Thumbprint(&key.PublicKey)
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: testName},
		Data:       map[string][]byte{SigningKeyDataKey: pemBytes},
	}, kid
}

func TestEnsureSigningKeyCreates(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientBuilder().Build()
	ks := must(EnsureSigningKey(ctx, c, testNS, testName))(t)
	var s corev1.Secret
	mustOK(t, c.Get(ctx, client.ObjectKey{Namespace: testNS, Name: testName}, &s))
	if s.Labels[ManagedByLabel] != ManagedByValue {
		t.Errorf("labels = %v", s.Labels)
	}
	if s.Type != corev1.SecretTypeOpaque {
		t.Errorf("type = %q", s.Type)
	}
	stored := must(ParseSigningKeyPEM(s.Data[SigningKeyDataKey]))(t)
	if kid, _ := Thumbprint(&stored.PublicKey); kid != ks.ActiveKID() {
		t.Fatal("returned KeySet does not use the stored key")
	}

	// A second call (restart, other replica) loads the same key.
	again := must(EnsureSigningKey(ctx, c, testNS, testName))(t)
	if again.ActiveKID() != ks.ActiveKID() {
		t.Fatal("second call produced a different key")
	}
}

func TestEnsureSigningKeyUsesExisting(t *testing.T) {
	existing, kid := signingSecret(t)
	c := fake.NewClientBuilder().WithObjects(existing).Build()
	expectEnsuredKID(t, c, kid, "existing key not used")
}

// expectEnsuredKID runs EnsureSigningKey with c and fails, saying why, unless the key it
// answers is kid.
func expectEnsuredKID(t *testing.T, c client.Client, kid, why string) {
	t.Helper()
	ks := must(EnsureSigningKey(context.Background(), c, testNS, testName))(t)
	if ks.ActiveKID() != kid {
		t.Fatal(why)
	}
}

func TestEnsureSigningKeyRejectsBrokenSecret(t *testing.T) {
	for name, data := range map[string]map[string][]byte{
		"missing entry": {"other": []byte("x")},
		"garbage":       {SigningKeyDataKey: []byte("-----BEGIN PRIVATE KEY-----\nc2VjcmV0LW1hdGVyaWFs\n-----END PRIVATE KEY-----\n")},
	} {
		t.Run(name, func(t *testing.T) {
			s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: testName}, Data: data}
			c := fake.NewClientBuilder().WithObjects(s).Build()
			_, err := EnsureSigningKey(context.Background(), c, testNS, testName)
			if err == nil {
				t.Fatal("broken Secret accepted")
			}
			if strings.Contains(err.Error(), "c2VjcmV0") {
				t.Fatal("error leaks Secret contents")
			}
			// Not overwritten.
			var got corev1.Secret
			_ = c.Get(context.Background(), client.ObjectKeyFromObject(s), &got)
			if string(got.Data[SigningKeyDataKey]) != string(data[SigningKeyDataKey]) {
				t.Fatal("broken Secret was replaced")
			}
		})
	}
}

// TestEnsureSigningKeyLostRace simulates another replica creating the Secret
// between our Get and our Create.
func TestEnsureSigningKeyLostRace(t *testing.T) {
	theirs, theirKID := signingSecret(t)
	gr := schema.GroupResource{Resource: "secrets"}
	c := interceptor.NewClient(fake.NewClientBuilder().Build(), interceptor.Funcs{
		Create: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := cl.Create(ctx, theirs.DeepCopy()); err != nil {
				return err
			}
			return apierrors.NewAlreadyExists(gr, obj.GetName())
		},
	})
	expectEnsuredKID(t, c, theirKID, "did not adopt the winning replica's key")
}

// TestEnsureSigningKeyLostRaceStaleRead covers a client whose reads lag the
// winner's create (for example a cache): the re-read is retried.
func TestEnsureSigningKeyLostRaceStaleRead(t *testing.T) {
	old := rereadBackoff
	rereadBackoff = time.Millisecond
	t.Cleanup(func() { rereadBackoff = old })

	theirs, theirKID := signingSecret(t)
	gr := schema.GroupResource{Resource: "secrets"}
	gets := 0
	c := interceptor.NewClient(fake.NewClientBuilder().Build(), interceptor.Funcs{
		Get: func(ctx context.Context, cl client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			gets++
			if gets <= 2 { // initial read, then one stale re-read
				return apierrors.NewNotFound(gr, key.Name)
			}
			return cl.Get(ctx, key, obj, opts...)
		},
		Create: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if err := cl.Create(ctx, theirs.DeepCopy()); err != nil {
				return err
			}
			return apierrors.NewAlreadyExists(gr, obj.GetName())
		},
	})
	ks := must(EnsureSigningKey(context.Background(), c, testNS, testName))(t)
	if ks.ActiveKID() != theirKID || gets != 3 {
		t.Fatalf("kid match %v after %d gets", ks.ActiveKID() == theirKID, gets)
	}
}

func TestEnsureSigningKeyPropagatesErrors(t *testing.T) {
	boom := errors.New("apiserver unavailable")
	c := interceptor.NewClient(fake.NewClientBuilder().Build(), interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return boom
		},
	})
	if _, err := EnsureSigningKey(context.Background(), c, testNS, testName); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want wrapped %v", err, boom)
	}

	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, testName, errors.New("rbac"))
	c = interceptor.NewClient(fake.NewClientBuilder().Build(), interceptor.Funcs{
		Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
			return forbidden
		},
	})
	if _, err := EnsureSigningKey(context.Background(), c, testNS, testName); !apierrors.IsForbidden(err) {
		t.Fatalf("err = %v, want Forbidden", err)
	}
}
