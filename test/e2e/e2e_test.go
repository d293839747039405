package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
	"github.com/fundshare/fundshare-operator/internal/test/envtest"
	"github.com/fundshare/fundshare-operator/internal/test/kubectl"
)

// namespace is the operator's namespace in config/default.
const namespace = "fundshare-system"

var (
	root  = controlplane.Root()
	suite kubectl.Suite
)

// TestMain starts one control plane for the package: the project's CRDs (installed by
// envtest) plus the cert-manager stand-ins, and an admin kubeconfig for kubectl.
func TestMain(m *testing.M) {
	os.Exit(kubectl.Main(m, &suite, "it builds config/default with `kubectl kustomize` and validates it with `kubectl apply --dry-run=server`",
		"deploy-test-admin", envtest.Options{CRDPaths: []string{filepath.Join(root, "hack", "test", "cert-manager-crds.yaml")}}))
}

// kustomizeDefault is `kubectl kustomize config/default`.
func kustomizeDefault(t *testing.T) []byte {
	t.Helper()
	out, stderr, err := suite.Run(t, nil, "kustomize", "config/default")
	if err != nil {
		t.Fatalf("kubectl kustomize config/default: %v\n%s", err, stderr)
	}
	return out
}

// ensureNamespace creates the operator's namespace from the built Namespace object (so
// it carries the same Pod Security labels), since a dry run creates nothing that the
// namespaced objects of the same run could live in.
func ensureNamespace(t *testing.T, built []*unstructured.Unstructured) {
	t.Helper()
	for _, o := range built {
		if o.GetKind() != "Namespace" {
			continue
		}
		if o.GetName() != namespace {
			t.Fatalf("config/default's namespace is %q, want %q", o.GetName(), namespace)
		}
		ns := &corev1.Namespace{}
		ns.Name = o.GetName()
		ns.Labels = o.GetLabels()
		if err := suite.Env.Client.Create(context.Background(), ns); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("create namespace: %v", err)
		}
		return
	}
	t.Fatal("config/default has no Namespace")
}

// dryRunApply applies the manifests with a server-side dry run and returns the objects as
// the API server returned them (defaulted, admitted, validated) and kubectl's stderr.
func dryRunApply(t *testing.T, manifests []byte) ([]*unstructured.Unstructured, string, error) {
	t.Helper()
	out, stderr, err := suite.Run(t, manifests, "apply", "--dry-run=server", "-o", "yaml", "-f", "-")
	if err != nil {
		return nil, string(stderr), fmt.Errorf("%w\n%s", err, stderr)
	}
	return kubectl.Decode(t, out), string(stderr), nil
}

// TestManifestsPassServerSideDryRun is what the issue asks for: every manifest of
// config/default is accepted by a real API server, and every expected object is there.
func TestManifestsPassServerSideDryRun(t *testing.T) {
	manifests := kustomizeDefault(t)
	ensureNamespace(t, kubectl.Decode(t, manifests))
	objs, stderr, err := dryRunApply(t, manifests)
	if err != nil {
		t.Fatalf("kubectl apply --dry-run=server rejected config/default: %v", err)
	}
	// kubectl notes that the CRDs (installed by envtest) and the namespace (created above)
	// lack its last-applied annotation: expected, skipped. A Pod Security warning from the
	// API server fails the test; other warnings (deprecations) are logged.
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		switch {
		case line == "" || strings.Contains(line, "last-applied-configuration"):
		case strings.Contains(line, "PodSecurity"):
			t.Errorf("the Deployment violates the namespace's Pod Security level: %s", line)
		default:
			t.Logf("kubectl: %s", line)
		}
	}

	crds, err := filepath.Glob(filepath.Join(root, "config", "crd", "bases", "*.yaml"))
	if err != nil || len(crds) == 0 {
		t.Fatalf("no CRDs in config/crd/bases: %v", err)
	}
	want := map[string]int{
		"Namespace":                      1,
		"CustomResourceDefinition":       len(crds),
		"ServiceAccount":                 1,
		"ClusterRole":                    1,
		"ClusterRoleBinding":             1,
		"Role":                           1,
		"RoleBinding":                    1,
		"Deployment":                     1,
		"Service":                        2,
		"PodDisruptionBudget":            1,
		"NetworkPolicy":                  1,
		"ValidatingWebhookConfiguration": 1,
		"MutatingWebhookConfiguration":   1,
		"Issuer":                         1,
		"Certificate":                    1,
	}
	got := map[string]int{}
	for _, o := range objs {
		got[o.GetKind()]++
		if ns := o.GetNamespace(); ns != "" && ns != namespace {
			t.Errorf("%s %s is in namespace %q, want %q", o.GetKind(), o.GetName(), ns, namespace)
		}
	}
	for kind, n := range want {
		if got[kind] != n {
			t.Errorf("the dry run returned %d %s, want %d", got[kind], kind, n)
		}
	}
	for kind := range got {
		if _, ok := want[kind]; !ok {
			t.Errorf("unexpected kind %s in config/default: add it to the test if it belongs there", kind)
		}
	}

	m := index(t, objs)
	t.Run("RBAC has no wildcards and is the generated role", func(t *testing.T) { checkRBAC(t, m) })
	t.Run("Deployment is highly available and locked down", func(t *testing.T) { checkDeployment(t, m) })
	t.Run("Services, PDB and NetworkPolicy select the manager", func(t *testing.T) { checkSelectors(t, m) })
	t.Run("webhooks reach the Service with cert-manager's CA", func(t *testing.T) { checkWebhooks(t, m) })
}

// TestDryRunRejectsAnInvalidManifest shows that the dry run validates: the same build
// with one invalid field (a container port out of range) fails.
func TestDryRunRejectsAnInvalidManifest(t *testing.T) {
	manifests := kustomizeDefault(t)
	built := kubectl.Decode(t, manifests)
	ensureNamespace(t, built)
	var broken bytes.Buffer
	for _, o := range built {
		if o.GetKind() == "Deployment" {
			containers, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
			ports, _, _ := unstructured.NestedSlice(containers[0].(map[string]any), "ports")
			ports[0].(map[string]any)["containerPort"] = int64(70000)
			_ = unstructured.SetNestedSlice(containers[0].(map[string]any), ports, "ports")
			_ = unstructured.SetNestedSlice(o.Object, containers, "spec", "template", "spec", "containers")
		}
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			t.Fatal(err)
		}
		broken.WriteString("---\n")
		broken.Write(data)
	}
	_, _, err := dryRunApply(t, broken.Bytes())
	if err == nil || !strings.Contains(err.Error(), "containerPort") {
		t.Fatalf("the dry run accepted a Deployment with containerPort 70000 (err: %v)", err)
	}
}

// objects holds the dry run's answer by kind, converted to typed objects where checked.
type objects struct {
	byKind map[string][]*unstructured.Unstructured
}

func index(t *testing.T, objs []*unstructured.Unstructured) objects {
	t.Helper()
	m := objects{byKind: map[string][]*unstructured.Unstructured{}}
	for _, o := range objs {
		m.byKind[o.GetKind()] = append(m.byKind[o.GetKind()], o)
	}
	return m
}

// one converts the only object of a kind into out.
func (m objects) one(t *testing.T, kind string, out any) {
	t.Helper()
	if len(m.byKind[kind]) != 1 {
		t.Fatalf("want exactly one %s, have %d", kind, len(m.byKind[kind]))
	}
	m.convert(t, m.byKind[kind][0], out)
}

func (m objects) convert(t *testing.T, u *unstructured.Unstructured, out any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, out); err != nil {
		t.Fatalf("convert %s %s: %v", u.GetKind(), u.GetName(), err)
	}
}

func checkRBAC(t *testing.T, m objects) {
	var rules []rbacv1.PolicyRule
	var cr rbacv1.ClusterRole
	m.one(t, "ClusterRole", &cr)
	var role rbacv1.Role
	m.one(t, "Role", &role)
	rules = append(append(rules, cr.Rules...), role.Rules...)
	for _, r := range rules {
		for field, values := range map[string][]string{"verbs": r.Verbs, "resources": r.Resources, "apiGroups": r.APIGroups, "nonResourceURLs": r.NonResourceURLs} {
			for _, v := range values {
				if strings.Contains(v, "*") {
					t.Errorf("RBAC rule %+v has a wildcard in %s", r, field)
				}
			}
		}
	}

	// The ClusterRole is exactly the role generated from the +kubebuilder:rbac markers.
	data, err := os.ReadFile(filepath.Join(root, "config", "rbac", "role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var generated rbacv1.ClusterRole
	if err := yaml.Unmarshal(data, &generated); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cr.Rules) != fmt.Sprint(generated.Rules) {
		t.Errorf("the ClusterRole's rules differ from config/rbac/role.yaml:\n got %v\nwant %v", cr.Rules, generated.Rules)
	}
	// The manager creates the JWT signing key Secret on first start and reads it after.
	if !allows(cr.Rules, "", "secrets", "get") || !allows(cr.Rules, "", "secrets", "create") {
		t.Error("the ClusterRole does not allow get and create on secrets (the JWT signing key)")
	}
	if !allows(role.Rules, "coordination.k8s.io", "leases", "update") {
		t.Error("the leader-election Role does not allow updating leases")
	}

	var sa corev1.ServiceAccount
	m.one(t, "ServiceAccount", &sa)
	var crb rbacv1.ClusterRoleBinding
	m.one(t, "ClusterRoleBinding", &crb)
	var rb rbacv1.RoleBinding
	m.one(t, "RoleBinding", &rb)
	subject := rbacv1.Subject{Kind: "ServiceAccount", Name: sa.Name, Namespace: sa.Namespace}
	if crb.RoleRef.Kind != "ClusterRole" || crb.RoleRef.Name != cr.Name || !slices.Contains(crb.Subjects, subject) || len(crb.Subjects) != 1 {
		t.Errorf("ClusterRoleBinding %s does not bind %s to exactly %v: %+v", crb.Name, cr.Name, subject, crb)
	}
	if rb.RoleRef.Kind != "Role" || rb.RoleRef.Name != role.Name || !slices.Contains(rb.Subjects, subject) || len(rb.Subjects) != 1 {
		t.Errorf("RoleBinding %s does not bind %s to exactly %v: %+v", rb.Name, role.Name, subject, rb)
	}
}

// allows reports whether one of rules grants verb on group/resource.
func allows(rules []rbacv1.PolicyRule, group, resource, verb string) bool {
	for _, r := range rules {
		if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
			return true
		}
	}
	return false
}

func checkDeployment(t *testing.T, m objects) {
	var d appsv1.Deployment
	m.one(t, "Deployment", &d)
	var sa corev1.ServiceAccount
	m.one(t, "ServiceAccount", &sa)
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("replicas = %v, want 2", d.Spec.Replicas)
	}
	pod := d.Spec.Template.Spec
	if pod.ServiceAccountName != sa.Name {
		t.Errorf("serviceAccountName = %q, want %q", pod.ServiceAccountName, sa.Name)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, have %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	for _, arg := range []string{"--leader-elect"} {
		if !slices.Contains(c.Args, arg) {
			t.Errorf("args %v lack %s", c.Args, arg)
		}
	}
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	// The public base URL is an env value that overlays patch, expanded into the flag.
	if got := flagValue(c.Args, "--public-base-url"); got != "$(PUBLIC_BASE_URL)" {
		t.Errorf("--public-base-url = %q, want $(PUBLIC_BASE_URL)", got)
	}
	if e := env["PUBLIC_BASE_URL"]; !strings.HasPrefix(e.Value, "https://") {
		t.Errorf("PUBLIC_BASE_URL = %+v, want an https URL placeholder", e)
	}
	if e := env["POD_NAMESPACE"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.namespace" {
		t.Errorf("POD_NAMESPACE does not come from the downward API: %+v", e)
	}

	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	for name, port := range map[string]int32{"rest": 8080, "webhook-server": 9443, "metrics": 8443, "health": 8081} {
		if ports[name] != port {
			t.Errorf("container port %s = %d, want %d", name, ports[name], port)
		}
	}
	probe := func(what string, p *corev1.Probe, path string) {
		if p == nil || p.HTTPGet == nil {
			t.Errorf("%s probe missing", what)
			return
		}
		if p.HTTPGet.Path != path || resolvePort(p.HTTPGet.Port, c.Ports) != 8081 {
			t.Errorf("%s probe = %s on %s, want %s on 8081", what, p.HTTPGet.Path, p.HTTPGet.Port.String(), path)
		}
	}
	probe("liveness", c.LivenessProbe, "/healthz")
	probe("readiness", c.ReadinessProbe, "/readyz")

	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[res]; !ok {
			t.Errorf("no %s request", res)
		}
		if _, ok := c.Resources.Limits[res]; !ok {
			t.Errorf("no %s limit", res)
		}
	}

	psc, sc := pod.SecurityContext, c.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Error("the pod does not set runAsNonRoot")
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("the pod does not use the RuntimeDefault seccomp profile")
	}
	if sc == nil {
		t.Fatal("the container has no securityContext")
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Error("the root filesystem is writable")
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("privilege escalation is allowed")
	}
	if sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) > 0 {
		t.Errorf("capabilities = %+v, want drop ALL and add none", sc.Capabilities)
	}

	// The webhook certificate: cert-manager's Secret, mounted at --webhook-cert-dir.
	var cert unstructured.Unstructured
	if certs := m.byKind["Certificate"]; len(certs) == 1 {
		cert = *certs[0]
	}
	secretName, _, _ := unstructured.NestedString(cert.Object, "spec", "secretName")
	dir := flagValue(c.Args, "--webhook-cert-dir")
	if dir == "" {
		t.Fatalf("args %v lack --webhook-cert-dir", c.Args)
	}
	var volume string
	for _, vm := range c.VolumeMounts {
		if vm.MountPath == dir {
			volume = vm.Name
		}
	}
	mounted := false
	for _, v := range pod.Volumes {
		if v.Name == volume && v.Secret != nil && v.Secret.SecretName == secretName && secretName != "" {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("the Certificate's Secret %q is not mounted at --webhook-cert-dir %q", secretName, dir)
	}
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

// resolvePort turns a named or numbered port into its number.
func resolvePort(p intstr.IntOrString, ports []corev1.ContainerPort) int32 {
	if p.Type == intstr.Int {
		return p.IntVal
	}
	for _, cp := range ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort
		}
	}
	return 0
}

func checkSelectors(t *testing.T, m objects) {
	var d appsv1.Deployment
	m.one(t, "Deployment", &d)
	podLabels := labels.Set(d.Spec.Template.Labels)
	c := d.Spec.Template.Spec.Containers[0]

	servicePorts := map[int32]int32{} // service port -> container port
	for _, u := range m.byKind["Service"] {
		var s corev1.Service
		m.convert(t, u, &s)
		if len(s.Spec.Selector) == 0 || !labels.SelectorFromSet(s.Spec.Selector).Matches(podLabels) {
			t.Errorf("Service %s does not select the manager's pods", s.Name)
		}
		for _, p := range s.Spec.Ports {
			servicePorts[p.Port] = resolvePort(p.TargetPort, c.Ports)
		}
	}
	if servicePorts[8080] != 8080 {
		t.Errorf("no Service port 8080 to the REST facade (ports: %v)", servicePorts)
	}
	if servicePorts[443] != 9443 {
		t.Errorf("no Service port 443 to the webhook server on 9443 (ports: %v)", servicePorts)
	}

	var pdb policyv1.PodDisruptionBudget
	m.one(t, "PodDisruptionBudget", &pdb)
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() != 1 {
		t.Errorf("PDB minAvailable = %v, want 1", pdb.Spec.MinAvailable)
	}
	if sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("the PDB does not select the manager's pods (%v)", err)
	}

	var np networkingv1.NetworkPolicy
	m.one(t, "NetworkPolicy", &np)
	if sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector); err != nil || sel.Empty() || !sel.Matches(podLabels) {
		t.Errorf("the NetworkPolicy does not select the manager's pods (%v)", err)
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) || !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Errorf("policyTypes = %v, want Ingress and Egress", np.Spec.PolicyTypes)
	}
	ingress := map[int32][]networkingv1.NetworkPolicyPeer{}
	for _, r := range np.Spec.Ingress {
		for _, p := range r.Ports {
			ingress[p.Port.IntVal] = r.From
		}
	}
	for _, port := range []int32{8080, 9443} {
		if from, ok := ingress[port]; !ok || len(from) != 0 {
			t.Errorf("ingress to %d is not open to all (from: %v, listed: %v)", port, from, ok)
		}
	}
	if from := ingress[8443]; len(from) == 0 || from[0].NamespaceSelector == nil {
		t.Errorf("ingress to metrics (8443) is not limited to a namespace selector: %v", from)
	}
	if len(ingress) != 3 {
		t.Errorf("ingress opens ports %v, want only 8080, 9443 and 8443", ingress)
	}
	egress := map[int32]bool{}
	for _, r := range np.Spec.Egress {
		for _, p := range r.Ports {
			egress[p.Port.IntVal] = true
		}
	}
	if !egress[53] || !egress[443] {
		t.Errorf("egress ports %v lack DNS (53) or the API server (443)", egress)
	}
}

func checkWebhooks(t *testing.T, m objects) {
	var svc corev1.Service
	for _, u := range m.byKind["Service"] {
		var s corev1.Service
		m.convert(t, u, &s)
		for _, p := range s.Spec.Ports {
			if p.Port == 443 {
				svc = s
			}
		}
	}
	if svc.Name == "" {
		t.Fatal("no webhook Service (port 443)")
	}
	var certName, certNS string
	if certs := m.byKind["Certificate"]; len(certs) == 1 {
		certName, certNS = certs[0].GetName(), certs[0].GetNamespace()
		dnsNames, _, _ := unstructured.NestedStringSlice(certs[0].Object, "spec", "dnsNames")
		if want := svc.Name + "." + svc.Namespace + ".svc"; !slices.Contains(dnsNames, want) {
			t.Errorf("Certificate dnsNames %v lack %s", dnsNames, want)
		}
		issuer, _, _ := unstructured.NestedString(certs[0].Object, "spec", "issuerRef", "name")
		if issuers := m.byKind["Issuer"]; len(issuers) != 1 || issuers[0].GetName() != issuer {
			t.Errorf("Certificate's issuerRef %q is not the Issuer of config/default", issuer)
		}
	}
	check := func(kind, name string, annotations map[string]string, configs []admissionregistrationv1.WebhookClientConfig) {
		if got, want := annotations["cert-manager.io/inject-ca-from"], certNS+"/"+certName; got != want {
			t.Errorf("%s %s: cert-manager.io/inject-ca-from = %q, want %q", kind, name, got, want)
		}
		if len(configs) == 0 {
			t.Errorf("%s %s has no webhooks", kind, name)
		}
		for _, cc := range configs {
			if cc.Service == nil || cc.Service.Name != svc.Name || cc.Service.Namespace != svc.Namespace {
				t.Errorf("%s %s: a webhook calls %+v, want Service %s/%s", kind, name, cc.Service, svc.Namespace, svc.Name)
			}
		}
	}
	var v admissionregistrationv1.ValidatingWebhookConfiguration
	m.one(t, "ValidatingWebhookConfiguration", &v)
	var vc []admissionregistrationv1.WebhookClientConfig
	for _, w := range v.Webhooks {
		vc = append(vc, w.ClientConfig)
	}
	check(v.Kind, v.Name, v.Annotations, vc)
	var mu admissionregistrationv1.MutatingWebhookConfiguration
	m.one(t, "MutatingWebhookConfiguration", &mu)
	var mc []admissionregistrationv1.WebhookClientConfig
	for _, w := range mu.Webhooks {
		mc = append(mc, w.ClientConfig)
	}
	check(mu.Kind, mu.Name, mu.Annotations, mc)
}

// TestDeploymentArgsAreManagerFlags catches what a dry run cannot: an argument of the
// Deployment that the manager binary does not define would crash every pod at start.
func TestDeploymentArgsAreManagerFlags(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "manager")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd: %v\n%s", err, out)
	}
	help, _ := exec.CommandContext(ctx, bin, "--help").CombinedOutput() // exits 2 after printing
	defined := map[string]bool{}
	for _, line := range strings.Split(string(help), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "-"); ok {
			defined[strings.Fields(name)[0]] = true
		}
	}
	if !defined["leader-elect"] {
		t.Fatalf("cannot read the manager's flags from --help:\n%s", help)
	}

	var d appsv1.Deployment
	for _, o := range kubectl.Decode(t, kustomizeDefault(t)) {
		if o.GetKind() == "Deployment" {
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(d.Spec.Template.Spec.Containers) == 0 {
		t.Fatal("no Deployment in config/default")
	}
	for _, arg := range d.Spec.Template.Spec.Containers[0].Args {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") || !defined[name] {
			t.Errorf("the Deployment passes %q, which is not a flag of cmd/manager", arg)
		}
	}
}
