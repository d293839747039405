// Package devdata loads what the local dev run needs besides the control plane: the
// sample catalogue (config/samples) and a demo tenant whose credentials are written to
// .local/demo-client.json. Every step is idempotent, so `make run` can run again on the
// same data.
package devdata

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

const (
	// OperatorNamespace holds the operator's own Secrets in the local run.
	OperatorNamespace = "fundshare-system"
	// DemoNamespace is the demo tenant.
	DemoNamespace = "demo"
	// DemoClientID is the demo tenant's OAuth2 client id.
	DemoClientID   = "demo-integrator"
	demoSecretName = "demo-integrator-credentials"
	fieldOwner     = "fundshare-devrun"
)

// Credentials are what an integrator needs to call the REST facade.
type Credentials struct {
	BaseURL      string `json:"base_url"`
	Audience     string `json:"audience"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Namespace    string `json:"namespace"`
}

// ApplyFile server-side-applies every object of a multi-document YAML file.
func ApplyFile(ctx context.Context, c client.Client, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(u.Object) == 0 {
			continue
		}
		//nolint:staticcheck // Patch with client.Apply applies an unstructured object as is.
		if err := c.Patch(ctx, u, client.Apply, client.FieldOwner(fieldOwner), client.ForceOwnership); err != nil {
			return fmt.Errorf("apply %s %s: %w", u.GetKind(), u.GetName(), err)
		}
	}
}

// EnsureNamespace creates a namespace unless it exists.
func EnsureNamespace(ctx context.Context, c client.Client, name string) error {
	err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("namespace %s: %w", name, err)
	}
	return nil
}

// EnsureDemoTenant makes the demo tenant: its namespace, an ApiClient and a Secret with the
// hash of its client secret. The plain secret exists only in credsPath (mode 0600), which
// is reused on later runs as long as the stored hash still matches it.
func EnsureDemoTenant(ctx context.Context, c client.Client, credsPath, baseURL, audience string) (Credentials, error) {
	if err := EnsureNamespace(ctx, c, DemoNamespace); err != nil {
		return Credentials{}, err
	}
	creds := Credentials{BaseURL: baseURL, Audience: audience, ClientID: DemoClientID, Namespace: DemoNamespace}
	if old, err := readCreds(credsPath); err == nil {
		creds.ClientSecret = old.ClientSecret
	}

	secret := &corev1.Secret{}
	err := c.Get(ctx, client.ObjectKey{Namespace: DemoNamespace, Name: demoSecretName}, secret)
	switch {
	case apierrors.IsNotFound(err):
		secret = nil
	case err != nil:
		return Credentials{}, err
	}
	if creds.ClientSecret == "" || secret == nil || !clientsecret.Verify(string(secret.Data["hash"]), creds.ClientSecret) {
		if creds.ClientSecret, err = clientsecret.New(); err != nil {
			return Credentials{}, err
		}
		hash, err := clientsecret.Hash(creds.ClientSecret)
		if err != nil {
			return Credentials{}, err
		}
		want := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: demoSecretName, Namespace: DemoNamespace},
			Data:       map[string][]byte{"hash": []byte(hash)},
		}
		if secret == nil {
			err = c.Create(ctx, want)
		} else {
			secret.Data = want.Data
			err = c.Update(ctx, secret)
		}
		if err != nil {
			return Credentials{}, fmt.Errorf("client secret hash: %w", err)
		}
	}

	ac := &investv1.ApiClient{ObjectMeta: metav1.ObjectMeta{Name: "integrator", Namespace: DemoNamespace}}
	err = c.Get(ctx, client.ObjectKeyFromObject(ac), ac)
	if apierrors.IsNotFound(err) {
		ac.Spec = investv1.ApiClientSpec{
			ClientID:        DemoClientID,
			ClientSecretRef: investv1.SecretKeyRef{Name: demoSecretName, Key: "hash"},
		}
		err = c.Create(ctx, ac)
	}
	if err != nil {
		return Credentials{}, fmt.Errorf("api client: %w", err)
	}

	// The plain client secret goes to the developer's own file (mode 0600): that is its job.
	data, err := json.MarshalIndent(creds, "", "  ") //nolint:gosec // G117: see above
	if err != nil {
		return Credentials{}, err
	}
	return creds, os.WriteFile(credsPath, append(data, '\n'), 0o600)
}

func readCreds(path string) (Credentials, error) {
	var creds Credentials
	data, err := os.ReadFile(path)
	if err != nil {
		return creds, err
	}
	return creds, json.Unmarshal(data, &creds)
}
