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
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SigningKeyDataKey is the data key of the signing-key Secret that holds the
// PEM-encoded PKCS#8 private key.
const SigningKeyDataKey = "signing-key.pem"

// ManagedByLabel is the label key set on Secrets this package creates, so
// that operators can tell them from user-managed Secrets.
const ManagedByLabel = "app.kubernetes.io/managed-by"

// ManagedByValue is the value of ManagedByLabel on Secrets we create.
const ManagedByValue = "fundshare-operator"

// rereadBackoff is how long EnsureSigningKey waits between re-reads after
// losing the creation race, in case its client reads from a cache that has
// not yet seen the winner's Secret. A variable so tests can shorten it.
var rereadBackoff = 200 * time.Millisecond

// rereadAttempts bounds those re-reads.
const rereadAttempts = 5

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;create

// EnsureSigningKey returns the KeySet backed by the Secret namespace/name,
// creating the Secret with a freshly generated P-256 key when it does not
// exist. All replicas of the operator must sign with the same key, so when
// Create fails with AlreadyExists (another replica won the race) the Secret
// is read again and the winner's key is used instead of ours.
//
// An existing Secret that lacks the key or holds an unusable key is an error:
// silently replacing it would invalidate every token already issued and hide
// tampering. Rotation is done by deleting the Secret (or by building a KeySet
// with NewKeySet that also lists the previous public key).
//
// c should read from the API server directly (not from the manager's cache):
// a cached read needs cluster-wide list/watch on Secrets and may lag behind a
// concurrent create.
func EnsureSigningKey(ctx context.Context, c client.Client, namespace, name string) (*KeySet, error) {
	key := types.NamespacedName{Namespace: namespace, Name: name}
	var existing corev1.Secret
	err := c.Get(ctx, key, &existing)
	if err == nil {
		return keySetFromSecret(&existing)
	}
	if !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("auth: reading signing key Secret %s: %w", key, err)
	}

	priv, err := GenerateSigningKey()
	if err != nil {
		return nil, err
	}
	pemBytes, err := MarshalSigningKeyPEM(priv)
	if err != nil {
		return nil, err
	}
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace,
			Name:      name,
			Labels:    map[string]string{ManagedByLabel: ManagedByValue},
		},
		Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{SigningKeyDataKey: pemBytes},
	}
	err = c.Create(ctx, secret)
	if err == nil {
		return NewKeySet(priv)
	}
	if !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("auth: creating signing key Secret %s: %w", key, err)
	}

	// Lost the race: adopt the winner's key.
	for attempt := 1; ; attempt++ {
		var theirs corev1.Secret
		err := c.Get(ctx, key, &theirs)
		if err == nil {
			return keySetFromSecret(&theirs)
		}
		if !apierrors.IsNotFound(err) || attempt >= rereadAttempts {
			return nil, fmt.Errorf("auth: re-reading signing key Secret %s after AlreadyExists: %w", key, err)
		}
		t := time.NewTimer(rereadBackoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("auth: re-reading signing key Secret %s: %w", key, ctx.Err())
		case <-t.C:
		}
	}
}

// keySetFromSecret parses the signing key stored in s.
func keySetFromSecret(s *corev1.Secret) (*KeySet, error) {
	id := types.NamespacedName{Namespace: s.Namespace, Name: s.Name}
	data, ok := s.Data[SigningKeyDataKey]
	if !ok || len(data) == 0 {
		return nil, fmt.Errorf("auth: Secret %s has no %q entry", id, SigningKeyDataKey)
	}
	priv, err := ParseSigningKeyPEM(data)
	if err != nil {
		return nil, fmt.Errorf("auth: Secret %s entry %q: %w", id, SigningKeyDataKey, err)
	}
	return NewKeySet(priv)
}
