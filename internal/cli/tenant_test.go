package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/clientsecret"
)

// tenantRun runs `fundsharectl tenant args...` and returns stdout, stderr and the code.
func tenantRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"tenant"}, args...), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// splitYAML decodes a YAML stream into its objects.
func splitYAML(t *testing.T, stream string) []*unstructured.Unstructured {
	t.Helper()
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(stream)))
	var objs []*unstructured.Unstructured
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatalf("stdout is not a YAML stream: %v", err)
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &u.Object); err != nil {
			t.Fatalf("document does not parse: %v\n%s", err, doc)
		}
		if len(u.Object) > 0 {
			objs = append(objs, u)
		}
	}
}

// printedSecret is the client_secret line of stderr.
func printedSecret(t *testing.T, stderr string) string {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if v, ok := strings.CutPrefix(line, "client_secret:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("stderr has no client_secret line:\n%s", stderr)
	return ""
}

func TestTenantPrintsNamespaceSecretAndApiClient(t *testing.T) {
	stdout, stderr, code := tenantRun(t, "--namespace", "acme", "--client-id", "acme-prod", "--tax-reporting", "--kyc-data-required")
	if code != 0 {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	objs := splitYAML(t, stdout)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.GetKind())
	}
	if got := strings.Join(kinds, ","); got != "Namespace,Secret,ApiClient" {
		t.Fatalf("kinds = %s, want Namespace,Secret,ApiClient", got)
	}

	if objs[0].GetName() != "acme" {
		t.Errorf("namespace name = %q", objs[0].GetName())
	}

	var secret corev1.Secret
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(objs[1].Object, &secret); err != nil {
		t.Fatal(err)
	}
	if secret.Namespace != "acme" || secret.Name != "integrator-credentials" {
		t.Errorf("secret = %s/%s", secret.Namespace, secret.Name)
	}
	if len(secret.Data) != 1 || len(secret.StringData) != 0 {
		t.Errorf("secret must hold exactly the key %q, has data %v and stringData %v", hashKey, secret.Data, secret.StringData)
	}
	hash := string(secret.Data[hashKey])
	if !strings.HasPrefix(hash, "$argon2id$") {
		t.Errorf("secret data %q is not an argon2id hash", hash)
	}

	var ac investv1.ApiClient
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(objs[2].Object, &ac); err != nil {
		t.Fatal(err)
	}
	if ac.APIVersion != "invest.fundshare.io/v1alpha1" || ac.Namespace != "acme" {
		t.Errorf("api client = %s in %q", ac.APIVersion, ac.Namespace)
	}
	want := investv1.ApiClientSpec{
		ClientID:        "acme-prod",
		ClientSecretRef: investv1.SecretKeyRef{Name: "integrator-credentials", Key: hashKey},
		TaxReporting:    true, KYCDataRequired: true,
	}
	if ac.Spec != want {
		t.Errorf("api client spec = %+v, want %+v", ac.Spec, want)
	}
	for _, o := range objs {
		if _, ok := o.Object["status"]; ok {
			t.Errorf("%s has a status: GitOps files hold only what users own", o.GetKind())
		}
		if _, ok, _ := unstructured.NestedFieldNoCopy(o.Object, "metadata", "creationTimestamp"); ok {
			t.Errorf("%s has a creationTimestamp", o.GetKind())
		}
	}

	plain := printedSecret(t, stderr)
	if !clientsecret.Verify(hash, plain) {
		t.Error("the hash in the Secret does not verify against the printed client secret")
	}
	if clientsecret.Verify(hash, plain+"x") {
		t.Error("the hash verifies against a different secret")
	}
	if strings.Contains(stdout, plain) {
		t.Error("the client secret appears in the YAML on stdout")
	}
	if !strings.Contains(stderr, "ONCE") {
		t.Errorf("stderr lacks the warning to store the secret now:\n%s", stderr)
	}
}

func TestTenantSecretsDifferEveryRun(t *testing.T) {
	out1, err1, _ := tenantRun(t, "--namespace", "acme", "--client-id", "acme-prod")
	out2, err2, _ := tenantRun(t, "--namespace", "acme", "--client-id", "acme-prod")
	if printedSecret(t, err1) == printedSecret(t, err2) {
		t.Error("two runs printed the same client secret")
	}
	if out1 == out2 {
		t.Error("two runs printed the same hash (the salt must be fresh)")
	}
}

func TestTenantFlagsNameTheObjects(t *testing.T) {
	stdout, stderr, code := tenantRun(t, "--namespace", "beta", "--client-id", "beta.live_1", "--name", "beta-api", "--secret-name", "beta-hash", "--lei-required")
	if code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr)
	}
	objs := splitYAML(t, stdout)
	if objs[1].GetName() != "beta-hash" || objs[2].GetName() != "beta-api" {
		t.Errorf("names = %s, %s", objs[1].GetName(), objs[2].GetName())
	}
	ref, _, _ := unstructured.NestedString(objs[2].Object, "spec", "clientSecretRef", "name")
	lei, _, _ := unstructured.NestedBool(objs[2].Object, "spec", "leiRequired")
	if ref != "beta-hash" || !lei {
		t.Errorf("clientSecretRef.name = %q, leiRequired = %v", ref, lei)
	}
}

func TestTenantRejectsBadInput(t *testing.T) {
	for name, args := range map[string][]string{
		"no namespace":        {"--client-id", "acme-prod"},
		"no client id":        {"--namespace", "acme"},
		"namespace not DNS":   {"--namespace", "Acme_Corp", "--client-id", "acme-prod"},
		"client id too short": {"--namespace", "acme", "--client-id", "ab"},
		"client id with /":    {"--namespace", "acme", "--client-id", "acme/prod"},
		"bad object name":     {"--namespace", "acme", "--client-id", "acme-prod", "--name", "Not Valid"},
		"stray argument":      {"--namespace", "acme", "--client-id", "acme-prod", "extra"},
		"unknown flag":        {"--namespace", "acme", "--client-id", "acme-prod", "--nope"},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := tenantRun(t, args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
			if strings.Contains(stderr, "client_secret:") {
				t.Error("a secret was generated for invalid input")
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"tenants"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "unknown command") || stdout.Len() != 0 {
		t.Errorf("code %d, stderr %q", code, stderr.String())
	}
	if code := run(nil, &stdout, &stderr); code != 2 {
		t.Errorf("no command: code %d", code)
	}
}
