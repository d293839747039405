package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

// clientIDPattern is the ApiClient CRD's pattern for spec.clientID; checking it here
// turns a rejected apply into an immediate message.
var clientIDPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{3,128}$`)

// hashKey is the Secret key that holds the hash (the ApiClient's default key).
const hashKey = "hash"

// Tenant is one integrator: its namespace, its OAuth2 client id and its settings.
type Tenant struct {
	Namespace, ClientID, Name, SecretName string
	// By names the command in the stream's header comment (default "fundsharectl tenant").
	By                                         string
	TaxReporting, LEIRequired, KYCDataRequired bool
}

// Validate checks the names before anything is generated.
func (t Tenant) Validate() error {
	var problems []string
	if t.Namespace == "" {
		problems = append(problems, "--namespace is required")
	} else if errs := validation.IsDNS1123Label(t.Namespace); len(errs) > 0 {
		problems = append(problems, fmt.Sprintf("--namespace %q: %s", t.Namespace, strings.Join(errs, "; ")))
	}
	if t.ClientID == "" {
		problems = append(problems, "--client-id is required")
	} else if !clientIDPattern.MatchString(t.ClientID) {
		problems = append(problems, fmt.Sprintf("--client-id %q: 3 to 128 characters of A-Z a-z 0-9 . _ ~ -", t.ClientID))
	}
	for flag, name := range map[string]string{"--name": t.Name, "--secret-name": t.SecretName} {
		if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
			problems = append(problems, fmt.Sprintf("%s %q: %s", flag, name, strings.Join(errs, "; ")))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "\n  "))
	}
	return nil
}

// Render generates a client secret and returns the tenant's objects as a YAML stream
// (holding only the secret's hash) and the secret itself.
func (t Tenant) Render() (stream []byte, secret string, err error) {
	secret, err = clientsecret.New()
	if err != nil {
		return nil, "", err
	}
	hash, err := clientsecret.Hash(secret)
	if err != nil {
		return nil, "", err
	}
	stream, err = t.objects(hash)
	return stream, secret, err
}

// objects renders the Namespace, the Secret with hash and the ApiClient.
func (t Tenant) objects(hash string) ([]byte, error) {
	objs := []runtime.Object{
		&corev1.Namespace{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: t.Namespace},
		},
		&corev1.Secret{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{Name: t.SecretName, Namespace: t.Namespace},
			Type:       corev1.SecretTypeOpaque,
			Data:       map[string][]byte{hashKey: []byte(hash)},
		},
		&investv1.ApiClient{
			TypeMeta:   metav1.TypeMeta{APIVersion: investv1.GroupVersion.String(), Kind: "ApiClient"},
			ObjectMeta: metav1.ObjectMeta{Name: t.Name, Namespace: t.Namespace},
			Spec: investv1.ApiClientSpec{
				ClientID:        t.ClientID,
				ClientSecretRef: investv1.SecretKeyRef{Name: t.SecretName, Key: hashKey},
				TaxReporting:    t.TaxReporting,
				LEIRequired:     t.LEIRequired,
				KYCDataRequired: t.KYCDataRequired,
			},
		},
	}
	var buf bytes.Buffer
	by := t.By
	if by == "" {
		by = "fundsharectl tenant"
	}
	fmt.Fprintf(&buf, "# Tenant %s (client id %s), written by %s.\n", t.Namespace, t.ClientID, by)
	fmt.Fprintf(&buf, "# The Secret holds the argon2id hash of the client secret, never the secret itself.\n")
	for i, obj := range objs {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, err
		}
		// What the server owns stays out of the files a GitOps tool compares.
		delete(u, "status")
		if spec, ok := u["spec"].(map[string]any); ok && len(spec) == 0 {
			delete(u, "spec")
		}
		if meta, ok := u["metadata"].(map[string]any); ok {
			delete(meta, "creationTimestamp")
		}
		data, err := yaml.Marshal(u)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(data)
	}
	return buf.Bytes(), nil
}
