package helm

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/yaml"

	"github.com/fundshare/fundshare-operator/cmd/manager/app/options"
	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/kubectl"
)

const (
	// release is the release name of docs/install.md's helm install.
	release = "fundshare-operator"
	chart   = "charts/fundshare-operator"
	// allOn is the values file that turns every toggle of the chart on.
	allOn = "charts/fundshare-operator/ci/all-on-values.yaml"
)

var (
	root  = controlplane.Root()
	suite kubectl.Suite
)

// TestMain starts one control plane for the package: the project's CRDs (installed by
// envtest), the cert-manager stand-ins and prometheus-operator's ServiceMonitor and
// PrometheusRule CRDs, and an admin kubeconfig for kubectl and helm.
func TestMain(m *testing.M) {
	os.Exit(kubectl.Main(m, &suite, "it applies the rendered chart with `kubectl apply --dry-run=server`", "helm-test-admin",
		envtest.Options{CRDPaths: []string{
			filepath.Join(root, "hack", "test", "cert-manager-crds.yaml"),
			filepath.Join(root, "hack", "test", "prometheus-operator-crds"),
		}}))
}

// helmBinary is $HELM (the Makefile exports the pinned one) or the one bin/helm-v*.
func helmBinary(t *testing.T) string {
	t.Helper()
	if h := os.Getenv("HELM"); h != "" {
		if _, err := os.Stat(h); err != nil {
			t.Fatalf("HELM=%s: %v (make helm installs it)", h, err)
		}
		return h
	}
	found, _ := filepath.Glob(filepath.Join(root, "bin", "helm-v*"))
	if len(found) == 0 {
		t.Fatal("no helm in bin/: run `make helm` (make test does), or set HELM")
	}
	sort.Strings(found)
	return found[len(found)-1]
}

// helm runs the pinned helm in the repository's folder and returns what it printed.
func helm(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, helmBinary(t), args...)
	cmd.Dir = root
	// No repositories, plugins or caches of the machine's user: only the chart on disk.
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("helm %s: %w\n%s", strings.Join(args, " "), err, errOut.Bytes())
	}
	return out.Bytes(), nil
}

// render is `helm template` of the chart into namespace ns with the extra arguments, for
// the control plane's Kubernetes version (.Capabilities.KubeVersion, the chart's kubeVersion).
func render(t *testing.T, ns string, args ...string) []*unstructured.Unstructured {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(suite.Env.Config)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dc.ServerVersion()
	if err != nil {
		t.Fatalf("the control plane's version: %v", err)
	}
	out, err := helm(t, append([]string{"template", release, chart, "--namespace", ns, "--kube-version", v.GitVersion}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return kubectl.Decode(t, out)
}

// restrictedNamespace creates ns enforcing (and warning about) the restricted Pod Security
// Standard, as docs/install.md asks of the release namespace.
func restrictedNamespace(t *testing.T, ns string) {
	t.Helper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{
		"pod-security.kubernetes.io/enforce": "restricted",
		"pod-security.kubernetes.io/warn":    "restricted",
	}}}
	if err := suite.Env.Client.Create(context.Background(), n); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create namespace %s: %v", ns, err)
	}
}

// applyCRDs applies the chart's crds/ to the control plane (server-side, for real), as
// helm install does before the templates.
func applyCRDs(t *testing.T) {
	t.Helper()
	if _, err := suite.Output(t, "apply", "--server-side", "--force-conflicts", "-f", filepath.Join(chart, "crds")); err != nil {
		t.Fatalf("the control plane refused the chart's CRDs: %v", err)
	}
}

// dryRun applies objs with a server-side dry run and returns the objects as the API server
// returned them (defaulted, admitted, validated); a Pod Security warning fails the test.
func dryRun(t *testing.T, objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	t.Helper()
	out, stderr, err := suite.Run(t, manifest(t, objs), "apply", "--dry-run=server", "-o", "yaml", "-f", "-")
	if err != nil {
		t.Fatalf("kubectl apply --dry-run=server rejected the rendered chart: %v\n%s", err, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(stderr)), "\n") {
		switch {
		case line == "":
		case strings.Contains(line, "PodSecurity"):
			t.Errorf("the Deployment violates the restricted Pod Security level: %s", line)
		default:
			t.Logf("kubectl: %s", line)
		}
	}
	return kubectl.Decode(t, out)
}

func manifest(t *testing.T, objs []*unstructured.Unstructured) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, o := range objs {
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(data)
	}
	return b.Bytes()
}

// objects holds objects by kind.
type objects map[string][]*unstructured.Unstructured

func byKind(objs []*unstructured.Unstructured) objects {
	m := objects{}
	for _, o := range objs {
		m[o.GetKind()] = append(m[o.GetKind()], o)
	}
	return m
}

// one converts the only object of a kind into out.
func (m objects) one(t *testing.T, kind string, out any) {
	t.Helper()
	if len(m[kind]) != 1 {
		t.Fatalf("want exactly one %s, have %d", kind, len(m[kind]))
	}
	convert(t, m[kind][0], out)
}

func convert(t *testing.T, u *unstructured.Unstructured, out any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, out); err != nil {
		t.Fatalf("convert %s %s: %v", u.GetKind(), u.GetName(), err)
	}
}

// checkKinds compares the kinds of objs with want and checks every namespaced object is
// in ns.
func checkKinds(t *testing.T, objs []*unstructured.Unstructured, ns string, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for _, o := range objs {
		got[o.GetKind()]++
		if n := o.GetNamespace(); n != "" && n != ns {
			t.Errorf("%s %s is in namespace %q, want %q", o.GetKind(), o.GetName(), n, ns)
		}
	}
	for kind, n := range want {
		if got[kind] != n {
			t.Errorf("%d %s, want %d", got[kind], kind, n)
		}
	}
	for kind := range got {
		if _, ok := want[kind]; !ok {
			t.Errorf("unexpected kind %s in the chart: add it to the test if it belongs there", kind)
		}
	}
}

// TestTheChartsCRDsAreTheGeneratedOnes: crds/ is a copy of config/crd/bases (make
// manifests writes it, make chart-check guards it), and the control plane accepts it.
func TestTheChartsCRDsAreTheGeneratedOnes(t *testing.T) {
	generated, err := filepath.Glob(filepath.Join(root, "config", "crd", "bases", "*.yaml"))
	if err != nil || len(generated) == 0 {
		t.Fatalf("no CRDs in config/crd/bases: %v", err)
	}
	copied, _ := filepath.Glob(filepath.Join(root, chart, "crds", "*.yaml"))
	if len(copied) != len(generated) {
		t.Errorf("the chart has %d CRDs, config/crd/bases %d: run make manifests", len(copied), len(generated))
	}
	for _, g := range generated {
		want, _ := os.ReadFile(g)
		got, err := os.ReadFile(filepath.Join(root, chart, "crds", filepath.Base(g)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s/crds/%s is not config/crd/bases/%s: run make manifests (%v)", chart, filepath.Base(g), filepath.Base(g), err)
		}
	}
	applyCRDs(t)
}

// TestTheChartInstallsOnTheControlPlaneWithDefaultValues: every object of the chart with
// its default values passes the API server's validation and admission, and is what a
// platform team checks first.
func TestTheChartInstallsOnTheControlPlaneWithDefaultValues(t *testing.T) {
	const ns = "fundshare-system"
	restrictedNamespace(t, ns)
	applyCRDs(t)
	objs := dryRun(t, render(t, ns))
	checkKinds(t, objs, ns, map[string]int{
		"ServiceAccount": 1, "ClusterRole": 2, "ClusterRoleBinding": 1, "Role": 1, "RoleBinding": 1,
		"Deployment": 1, "Service": 2, "PodDisruptionBudget": 1, "NetworkPolicy": 1, "Secret": 1,
		"ValidatingWebhookConfiguration": 1, "MutatingWebhookConfiguration": 1,
	})
	m := byKind(objs)
	t.Run("the ClusterRole is the generated role", func(t *testing.T) { checkRBAC(t, m) })
	d := checkDeployment(t, m, 2)
	t.Run("Services and PDB select the manager", func(t *testing.T) { checkSelectors(t, m, d) })
	t.Run("the webhooks trust the chart's self-signed CA", func(t *testing.T) {
		var s corev1.Secret
		m.one(t, "Secret", &s)
		checkMounted(t, d, s.Name)
		svc := webhookService(t, m)
		dnsName := svc.Name + "." + svc.Namespace + ".svc"
		checkCertificate(t, s.Data["ca.crt"], s.Data["tls.crt"], dnsName)
		for _, caBundle := range checkWebhooks(t, m, svc, "") {
			if !bytes.Equal(caBundle, s.Data["ca.crt"]) {
				t.Errorf("a webhook's caBundle is not the Secret's ca.crt")
			}
		}
	})
	c := d.Spec.Template.Spec.Containers[0]
	if got := flagValue(c.Args, "--public-base-url"); got != "$(PUBLIC_BASE_URL)" {
		t.Errorf("--public-base-url = %q, want $(PUBLIC_BASE_URL)", got)
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--chain-") || strings.HasPrefix(a, "--archive-dsn") {
			t.Errorf("default values pass %s; without a chain or an archive no such flag belongs there", a)
		}
	}
}

// TestTheChartInstallsOnTheControlPlaneWithEveryToggleOn: the same with ci/all-on-values.yaml:
// cert-manager's Issuer and Certificate, the ServiceMonitor and PrometheusRule (validated
// by prometheus-operator's CRDs), the chain, the archive from a Secret.
func TestTheChartInstallsOnTheControlPlaneWithEveryToggleOn(t *testing.T) {
	const ns = "fundshare-prod"
	restrictedNamespace(t, ns)
	applyCRDs(t)
	rendered := render(t, ns, "-f", allOn)
	objs := dryRun(t, rendered)
	checkKinds(t, objs, ns, map[string]int{
		"ServiceAccount": 1, "ClusterRole": 3, "ClusterRoleBinding": 1, "Role": 1, "RoleBinding": 1, // manager, metrics reader, bank operator
		"Deployment": 1, "Service": 3, "PodDisruptionBudget": 1, "NetworkPolicy": 1,
		"ValidatingWebhookConfiguration": 1, "MutatingWebhookConfiguration": 1,
		"Issuer": 1, "Certificate": 1, "ServiceMonitor": 1, "PrometheusRule": 1,
		"ConfigMap": 2, // the Grafana dashboard and the Argo CD health checks
	})
	m := byKind(objs)
	t.Run("the ClusterRole is the generated role", func(t *testing.T) { checkRBAC(t, m) })
	t.Run("the bank operator role is config/rbac's example role", func(t *testing.T) { checkBankOperatorRole(t, m) })
	d := checkDeployment(t, m, 3)
	t.Run("Services, PDB and ServiceMonitor select the manager", func(t *testing.T) { checkSelectors(t, m, d) })
	t.Run("cert-manager issues the webhook certificate and injects its CA", func(t *testing.T) {
		cert := m["Certificate"][0]
		secretName, _, _ := unstructured.NestedString(cert.Object, "spec", "secretName")
		checkMounted(t, d, secretName)
		svc := webhookService(t, m)
		dnsNames, _, _ := unstructured.NestedStringSlice(cert.Object, "spec", "dnsNames")
		if want := svc.Name + "." + svc.Namespace + ".svc"; !slices.Contains(dnsNames, want) {
			t.Errorf("Certificate dnsNames %v lack %s", dnsNames, want)
		}
		issuer, _, _ := unstructured.NestedString(cert.Object, "spec", "issuerRef", "name")
		if m["Issuer"][0].GetName() != issuer {
			t.Errorf("the Certificate's issuerRef %q is not the chart's Issuer", issuer)
		}
		checkWebhooks(t, m, svc, cert.GetNamespace()+"/"+cert.GetName())
	})
	c := d.Spec.Template.Spec.Containers[0]
	t.Run("the chain and the archive reach the manager's flags", func(t *testing.T) {
		for flagName, want := range map[string]string{
			"--chain-rpc-url": "$(CHAIN_RPC_URL)", "--chain-id": "80002", "--chain-confirmations": "12",
			"--chain-registry": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "--chain-batch-size": "16",
			"--chain-tokens":         "IE000FSHD018=0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0,LU000FSHA019=0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
			"--transfer-index-range": "500", "--archive-dsn": "$(ARCHIVE_DSN)", "--order-retention": "720h",
			"--rest-trusted-proxies": "10.42.0.0/16,10.43.0.0/16",
			"--bank-folder":          "/var/lib/fundshare/bank", "--bank-poll-interval": "10s",
		} {
			if got := flagValue(c.Args, flagName); got != want {
				t.Errorf("%s = %q, want %q", flagName, got, want)
			}
		}
		if !slices.Contains(c.Args, "--bank-instant") {
			t.Errorf("bank.instant does not reach the manager as --bank-instant: %v", c.Args)
		}
		for _, name := range []string{"ARCHIVE_DSN", "CHAIN_RPC_URL"} {
			e := env(c)[name]
			if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.Value != "" {
				t.Errorf("%s does not come from a Secret: %+v", name, e)
			}
		}
	})
	t.Run("the ServiceMonitor scrapes the metrics Service over HTTPS", func(t *testing.T) {
		sm := m["ServiceMonitor"][0]
		endpoints, _, _ := unstructured.NestedSlice(sm.Object, "spec", "endpoints")
		if len(endpoints) != 1 || endpoints[0].(map[string]any)["scheme"] != "https" || endpoints[0].(map[string]any)["port"] != "https" {
			t.Errorf("ServiceMonitor endpoints = %v, want one https endpoint on port https", endpoints)
		}
		groups, _, _ := unstructured.NestedSlice(m["PrometheusRule"][0].Object, "spec", "groups")
		if len(groups) == 0 {
			t.Error("the PrometheusRule has no rule groups")
		}
	})
}

// TestTheChartKeepsItsSelfSignedCertificateOnUpgrade: without cert-manager, a release's
// webhook Secret that exists is read back (helm's lookup) instead of generated anew, so
// an upgrade does not rotate the CA the webhook configurations trust.
func TestTheChartKeepsItsSelfSignedCertificateOnUpgrade(t *testing.T) {
	const ns = "fundshare-upgrade"
	restrictedNamespace(t, ns)
	first := byKind(render(t, ns))
	var s corev1.Secret
	first.one(t, "Secret", &s)
	s.Namespace = ns
	if err := suite.Env.Client.Create(context.Background(), &s); err != nil {
		t.Fatalf("create the release's webhook Secret: %v", err)
	}
	// --dry-run=server lets helm template's lookup read the cluster, as helm upgrade does.
	again := byKind(render(t, ns, "--dry-run=server", "--kubeconfig", suite.Env.Kubeconfig))
	var kept corev1.Secret
	again.one(t, "Secret", &kept)
	for _, key := range []string{"ca.crt", "tls.crt", "tls.key"} {
		if !bytes.Equal(kept.Data[key], s.Data[key]) {
			t.Errorf("the upgrade's %s differs from the existing Secret's: the certificate would rotate", key)
		}
	}
	var v admissionregistrationv1.ValidatingWebhookConfiguration
	again.one(t, "ValidatingWebhookConfiguration", &v)
	if !bytes.Equal(v.Webhooks[0].ClientConfig.CABundle, s.Data["ca.crt"]) {
		t.Error("the upgrade's caBundle is not the existing Secret's CA")
	}
	// And a render without the cluster generates another CA: the lookup is what keeps it.
	var fresh corev1.Secret
	byKind(render(t, ns)).one(t, "Secret", &fresh)
	if bytes.Equal(fresh.Data["ca.crt"], s.Data["ca.crt"]) {
		t.Error("two renders without a cluster made the same CA; the test proves nothing")
	}
}

// TestTheChartPassesOnlyFlagsTheManagerDefines: every argument of the Deployment, with
// default values and with every toggle on, parses with the manager's own FlagSet
// (options.AddFlags) and the options validate, $(VAR)s expanded as the kubelet does; an
// unknown flag would crash every pod, and no dry run sees it.
func TestTheChartPassesOnlyFlagsTheManagerDefines(t *testing.T) {
	for name, args := range map[string][]string{"default values": nil, "every toggle on": {"-f", allOn}} {
		t.Run(name, func(t *testing.T) {
			if err := parseManagerArgs(deployment(t, render(t, "fundshare-system", args...))); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestAnArgumentTheManagerDoesNotDefineFailsTheFlagCheck shows the check above fails a
// chart that passes an unknown flag (here through extraArgs).
// TestTheBanksFolderIsItsClaimMountedAndNeedsTheArchive: the bank folder is the
// PersistentVolumeClaim mounted where --bank-folder says, and the chart refuses a bank
// without the archive (its ledger's database) or without a claim.
func TestTheBanksFolderIsItsClaimMountedAndNeedsTheArchive(t *testing.T) {
	d := deployment(t, render(t, "fundshare-bank", "-f", allOn))
	mounted := false
	for _, m := range d.Spec.Template.Spec.Containers[0].VolumeMounts {
		if m.MountPath == "/var/lib/fundshare/bank" {
			for _, v := range d.Spec.Template.Spec.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == "fundshare-bank" && !m.ReadOnly {
					mounted = true
				}
			}
		}
	}
	if !mounted {
		t.Fatalf("the claim fundshare-bank is not mounted writable at /var/lib/fundshare/bank: %+v", d.Spec.Template.Spec.Volumes)
	}
	if _, err := helm(t, "template", release, chart, "--set", "bank.folder=/bank", "--set", "bank.existingClaim=c"); err == nil ||
		!strings.Contains(err.Error(), "bank.folder needs the archive") {
		t.Fatalf("a bank without the archive: %v", err)
	}
	if _, err := helm(t, "template", release, chart, "--set", "bank.folder=/bank", "--set", "archive.dsnSecret.name=a"); err == nil ||
		!strings.Contains(err.Error(), "bank.existingClaim is required") {
		t.Fatalf("a bank without a claim: %v", err)
	}
}

func TestAnArgumentTheManagerDoesNotDefineFailsTheFlagCheck(t *testing.T) {
	d := deployment(t, render(t, "fundshare-system", "--set", "extraArgs[0]=--no-such-flag=1"))
	err := parseManagerArgs(d)
	if err == nil || !strings.Contains(err.Error(), "no-such-flag") {
		t.Fatalf("the flag check accepted --no-such-flag (err: %v)", err)
	}
}

func deployment(t *testing.T, objs []*unstructured.Unstructured) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	byKind(objs).one(t, "Deployment", &d)
	return &d
}

// parseManagerArgs parses the manager container's args with the manager's FlagSet, each
// $(VAR) replaced by its env value, or a stand-in for one read from a Secret.
func parseManagerArgs(d *appsv1.Deployment) error {
	c := d.Spec.Template.Spec.Containers[0]
	standIns := map[string]string{"ARCHIVE_DSN": "postgres://archive:secret@db:5432/fundshare?sslmode=verify-full", "CHAIN_RPC_URL": "https://rpc.example.org"}
	var args []string
	for _, a := range c.Args {
		for _, e := range c.Env {
			v := e.Value
			if e.ValueFrom != nil {
				v = standIns[e.Name]
			}
			a = strings.ReplaceAll(a, "$("+e.Name+")", v)
		}
		if strings.Contains(a, "$(") {
			return fmt.Errorf("argument %q refers to an env var the container does not set", a)
		}
		args = append(args, a)
	}
	fs := flag.NewFlagSet("manager", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := options.New()
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("the manager refuses the Deployment's args %v: %w", args, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("the manager would ignore the arguments %v", fs.Args())
	}
	if err := o.Validate(); err != nil {
		return fmt.Errorf("the manager's options do not validate: %w", err)
	}
	return nil
}

// checkRBAC: the ClusterRole is exactly config/rbac/role.yaml, bound to the manager's
// ServiceAccount; no rule has a wildcard.
func checkRBAC(t *testing.T, m objects) {
	data, err := os.ReadFile(filepath.Join(root, "config", "rbac", "role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var generated rbacv1.ClusterRole
	if err := yaml.Unmarshal(data, &generated); err != nil {
		t.Fatal(err)
	}
	var manager rbacv1.ClusterRole
	for _, u := range m["ClusterRole"] {
		var cr rbacv1.ClusterRole
		convert(t, u, &cr)
		for _, r := range cr.Rules {
			for _, v := range slices.Concat(r.Verbs, r.Resources, r.APIGroups) {
				if strings.Contains(v, "*") {
					t.Errorf("ClusterRole %s: rule %+v has a wildcard", cr.Name, r)
				}
			}
		}
		if strings.HasSuffix(cr.Name, "-manager-role") {
			manager = cr
		}
	}
	if fmt.Sprint(manager.Rules) != fmt.Sprint(generated.Rules) {
		t.Errorf("the manager's ClusterRole differs from config/rbac/role.yaml:\n got %v\nwant %v", manager.Rules, generated.Rules)
	}
	var sa corev1.ServiceAccount
	m.one(t, "ServiceAccount", &sa)
	var crb rbacv1.ClusterRoleBinding
	m.one(t, "ClusterRoleBinding", &crb)
	subject := rbacv1.Subject{Kind: "ServiceAccount", Name: sa.Name, Namespace: sa.Namespace}
	if crb.RoleRef.Name != manager.Name || !slices.Equal(crb.Subjects, []rbacv1.Subject{subject}) {
		t.Errorf("ClusterRoleBinding %s does not bind %s to %v: %+v", crb.Name, manager.Name, subject, crb)
	}
	var rb rbacv1.RoleBinding
	m.one(t, "RoleBinding", &rb)
	if !slices.Equal(rb.Subjects, []rbacv1.Subject{subject}) {
		t.Errorf("RoleBinding %s does not bind the leader-election Role to %v", rb.Name, subject)
	}
}

// checkBankOperatorRole: with a bank, the chart's <release>-bank-operator ClusterRole has
// the rules of config/rbac/bank_operator_role.yaml (create bankfiles, the virtual resource
// of operators' uploads; get, list, watch and create bankdecisions), and nothing binds it.
func checkBankOperatorRole(t *testing.T, m objects) {
	data, err := os.ReadFile(filepath.Join(root, "config", "rbac", "bank_operator_role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var example rbacv1.ClusterRole
	if err := yaml.Unmarshal(data, &example); err != nil {
		t.Fatal(err)
	}
	var found *rbacv1.ClusterRole
	for _, u := range m["ClusterRole"] {
		var cr rbacv1.ClusterRole
		convert(t, u, &cr)
		if strings.HasSuffix(cr.Name, "-bank-operator") {
			found = &cr
		}
	}
	if found == nil {
		t.Fatal("no <release>-bank-operator ClusterRole")
	}
	if fmt.Sprint(found.Rules) != fmt.Sprint(example.Rules) {
		t.Errorf("%s differs from config/rbac/bank_operator_role.yaml:\n got %v\nwant %v", found.Name, found.Rules, example.Rules)
	}
	for _, u := range m["ClusterRoleBinding"] {
		var crb rbacv1.ClusterRoleBinding
		convert(t, u, &crb)
		if crb.RoleRef.Name == found.Name {
			t.Errorf("the chart binds %s (%s): only the platform team binds it, to its operators", found.Name, crb.Name)
		}
	}
}

// checkDeployment checks replicas, leader election, probes, resources and the restricted
// security context, and returns the Deployment.
func checkDeployment(t *testing.T, m objects, replicas int32) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	m.one(t, "Deployment", &d)
	if d.Spec.Replicas == nil || *d.Spec.Replicas != replicas {
		t.Errorf("replicas = %v, want %d", d.Spec.Replicas, replicas)
	}
	pod := d.Spec.Template.Spec
	var sa corev1.ServiceAccount
	m.one(t, "ServiceAccount", &sa)
	if pod.ServiceAccountName != sa.Name {
		t.Errorf("serviceAccountName = %q, want %q", pod.ServiceAccountName, sa.Name)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, have %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	if !slices.Contains(c.Args, "--leader-elect") {
		t.Errorf("args %v lack --leader-elect", c.Args)
	}
	if e := env(c)["POD_NAMESPACE"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.namespace" {
		t.Errorf("POD_NAMESPACE does not come from the downward API: %+v", e)
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" ||
		c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("the liveness or readiness probe is missing")
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[res]; !ok {
			t.Errorf("no %s request", res)
		}
		if _, ok := c.Resources.Limits[res]; !ok {
			t.Errorf("no %s limit", res)
		}
	}
	psc, sc := pod.SecurityContext, c.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("the pod's securityContext %+v lacks runAsNonRoot or seccomp RuntimeDefault", psc)
	}
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("the container's securityContext %+v is not read-only, no escalation, drop ALL", sc)
	}
	return &d
}

func env(c corev1.Container) map[string]corev1.EnvVar {
	m := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		m[e.Name] = e
	}
	return m
}

// flagValue is the value of --name=value in args.
func flagValue(args []string, name string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// checkMounted: the Secret secretName is mounted at --webhook-cert-dir.
func checkMounted(t *testing.T, d *appsv1.Deployment, secretName string) {
	t.Helper()
	c := d.Spec.Template.Spec.Containers[0]
	dir := flagValue(c.Args, "--webhook-cert-dir")
	for _, vm := range c.VolumeMounts {
		if vm.MountPath != dir {
			continue
		}
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.Name == vm.Name && v.Secret != nil && v.Secret.SecretName == secretName {
				return
			}
		}
	}
	t.Errorf("the Secret %q is not mounted at --webhook-cert-dir %q", secretName, dir)
}

// checkSelectors: every Service, the PDB and the NetworkPolicy select the manager's pods.
func checkSelectors(t *testing.T, m objects, d *appsv1.Deployment) {
	podLabels := labels.Set(d.Spec.Template.Labels)
	for _, u := range m["Service"] {
		var s corev1.Service
		convert(t, u, &s)
		if len(s.Spec.Selector) == 0 || !labels.SelectorFromSet(s.Spec.Selector).Matches(podLabels) {
			t.Errorf("Service %s does not select the manager's pods", s.Name)
		}
	}
	var pdb policyv1.PodDisruptionBudget
	m.one(t, "PodDisruptionBudget", &pdb)
	if sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("the PDB does not select the manager's pods (%v)", err)
	}
	np := m["NetworkPolicy"][0]
	podSelector, _, _ := unstructured.NestedStringMap(np.Object, "spec", "podSelector", "matchLabels")
	if len(podSelector) == 0 || !labels.SelectorFromSet(podSelector).Matches(podLabels) {
		t.Error("the NetworkPolicy does not select the manager's pods")
	}
	for _, sm := range m["ServiceMonitor"] {
		sel, _, _ := unstructured.NestedStringMap(sm.Object, "spec", "selector", "matchLabels")
		matched := false
		for _, u := range m["Service"] {
			if labels.SelectorFromSet(sel).Matches(labels.Set(u.GetLabels())) {
				matched = true
			}
		}
		if !matched {
			t.Errorf("the ServiceMonitor's selector %v matches no Service of the chart", sel)
		}
	}
}

// webhookService is the Service on port 443.
func webhookService(t *testing.T, m objects) corev1.Service {
	t.Helper()
	for _, u := range m["Service"] {
		var s corev1.Service
		convert(t, u, &s)
		for _, p := range s.Spec.Ports {
			if p.Port == 443 {
				return s
			}
		}
	}
	t.Fatal("no webhook Service (port 443)")
	return corev1.Service{}
}

// checkWebhooks: both configurations hold the generated webhooks (config/webhook), each
// calling svc, and carry the inject-ca-from annotation injectFrom (empty: none). It
// returns every webhook's caBundle.
func checkWebhooks(t *testing.T, m objects, svc corev1.Service, injectFrom string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "config", "webhook", "manifests.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	generated := byKind(kubectl.Decode(t, data))
	var bundles [][]byte
	check := func(kind string, meta metav1.ObjectMeta, names []string, configs []admissionregistrationv1.WebhookClientConfig) {
		var want []string
		for _, u := range generated[kind] {
			ws, _, _ := unstructured.NestedSlice(u.Object, "webhooks")
			for _, w := range ws {
				want = append(want, w.(map[string]any)["name"].(string))
			}
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s %s has webhooks %v, config/webhook generates %v", kind, meta.Name, names, want)
		}
		if got := meta.Annotations["cert-manager.io/inject-ca-from"]; got != injectFrom {
			t.Errorf("%s %s: cert-manager.io/inject-ca-from = %q, want %q", kind, meta.Name, got, injectFrom)
		}
		for _, cc := range configs {
			if cc.Service == nil || cc.Service.Name != svc.Name || cc.Service.Namespace != svc.Namespace {
				t.Errorf("%s %s: a webhook calls %+v, want Service %s/%s", kind, meta.Name, cc.Service, svc.Namespace, svc.Name)
			}
			if injectFrom == "" && len(cc.CABundle) == 0 {
				t.Errorf("%s %s: a webhook has no caBundle", kind, meta.Name)
			}
			bundles = append(bundles, cc.CABundle)
		}
	}
	var v admissionregistrationv1.ValidatingWebhookConfiguration
	m.one(t, "ValidatingWebhookConfiguration", &v)
	var names []string
	var configs []admissionregistrationv1.WebhookClientConfig
	for _, w := range v.Webhooks {
		names, configs = append(names, w.Name), append(configs, w.ClientConfig)
	}
	check("ValidatingWebhookConfiguration", v.ObjectMeta, names, configs)
	var mu admissionregistrationv1.MutatingWebhookConfiguration
	m.one(t, "MutatingWebhookConfiguration", &mu)
	names, configs = nil, nil
	for _, w := range mu.Webhooks {
		names, configs = append(names, w.Name), append(configs, w.ClientConfig)
	}
	check("MutatingWebhookConfiguration", mu.ObjectMeta, names, configs)
	return bundles
}

// checkCertificate: the serving certificate (PEM) is signed by the CA (PEM) for dnsName.
func checkCertificate(t *testing.T, caPEM, certPEM []byte, dnsName string) {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatalf("ca.crt holds no PEM certificate: %q", base64.StdEncoding.EncodeToString(caPEM))
	}
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatal("tls.crt holds no PEM certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Verify(x509.VerifyOptions{DNSName: dnsName, Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
		t.Errorf("the webhook certificate does not verify for %s against the CA the webhooks trust: %v", dnsName, err)
	}
}
