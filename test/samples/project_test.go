package samples

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// project is the part of kubebuilder's PROJECT file (config version 3) checked here.
type project struct {
	Version     string   `json:"version"`
	Domain      string   `json:"domain"`
	Layout      []string `json:"layout"`
	ProjectName string   `json:"projectName"`
	Repo        string   `json:"repo"`
	Resources   []struct {
		API *struct {
			CRDVersion string `json:"crdVersion"`
			Namespaced bool   `json:"namespaced"`
		} `json:"api"`
		Controller bool   `json:"controller"`
		Domain     string `json:"domain"`
		Group      string `json:"group"`
		Kind       string `json:"kind"`
		Path       string `json:"path"`
		Version    string `json:"version"`
		Webhooks   *struct {
			Defaulting     bool   `json:"defaulting"`
			Validation     bool   `json:"validation"`
			WebhookVersion string `json:"webhookVersion"`
		} `json:"webhooks"`
	} `json:"resources"`
}

func readProject(t *testing.T) project {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "PROJECT"))
	if err != nil {
		t.Fatal(err)
	}
	var p project
	if err := yaml.UnmarshalStrict(data, &p); err != nil {
		t.Fatalf("PROJECT: %v", err)
	}
	return p
}

// crdKind is what config/crd/bases says about one kind.
type crdKind struct {
	group, version, plural string
	namespaced             bool
}

func readCRDs(t *testing.T) map[string]crdKind {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "config", "crd", "bases", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in config/crd/bases: %v", err)
	}
	out := map[string]crdKind{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd struct {
			Spec struct {
				Group string `json:"group"`
				Names struct {
					Kind   string `json:"kind"`
					Plural string `json:"plural"`
				} `json:"names"`
				Scope    string `json:"scope"`
				Versions []struct {
					Name string `json:"name"`
				} `json:"versions"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(data, &crd); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(crd.Spec.Versions) != 1 {
			t.Fatalf("%s: %d versions; this check expects one", f, len(crd.Spec.Versions))
		}
		out[crd.Spec.Names.Kind] = crdKind{
			group: crd.Spec.Group, version: crd.Spec.Versions[0].Name, plural: crd.Spec.Names.Plural,
			namespaced: crd.Spec.Scope == "Namespaced",
		}
	}
	return out
}

// readWebhooks returns, per resource (plural), whether config/webhook has a mutating
// (defaulting) and a validating webhook for it.
func readWebhooks(t *testing.T) (defaulting, validating map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "config", "webhook", "manifests.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defaulting, validating = map[string]bool{}, map[string]bool{}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var cfg struct {
			Kind     string `json:"kind"`
			Webhooks []struct {
				Rules []struct {
					APIGroups []string `json:"apiGroups"`
					Resources []string `json:"resources"`
				} `json:"rules"`
			} `json:"webhooks"`
		}
		if err := yaml.Unmarshal([]byte(doc), &cfg); err != nil {
			t.Fatalf("config/webhook/manifests.yaml: %v", err)
		}
		into := map[string]map[string]bool{"MutatingWebhookConfiguration": defaulting, "ValidatingWebhookConfiguration": validating}[cfg.Kind]
		if into == nil {
			continue
		}
		for _, w := range cfg.Webhooks {
			for _, r := range w.Rules {
				for _, res := range r.Resources {
					into[res] = true
				}
			}
		}
	}
	if len(validating) == 0 {
		t.Fatal("config/webhook/manifests.yaml has no validating webhook: parsed wrong?")
	}
	return defaulting, validating
}

// TestProjectFileIsAValidKubebuilderV4Project checks the fields kubebuilder needs to
// extend the project (create api, create webhook).
func TestProjectFileIsAValidKubebuilderV4Project(t *testing.T) {
	p := readProject(t)
	want := map[string][2]string{
		"version":     {p.Version, "3"},
		"domain":      {p.Domain, "fundshare.io"},
		"layout":      {strings.Join(p.Layout, ","), "go.kubebuilder.io/v4"},
		"projectName": {p.ProjectName, "fundshare-operator"},
		"repo":        {p.Repo, modulePath(t)},
	}
	for field, gw := range want {
		if gw[0] != gw[1] {
			t.Errorf("PROJECT %s = %q, want %q", field, gw[0], gw[1])
		}
	}
	seen := map[string]bool{}
	for _, r := range p.Resources {
		if seen[r.Kind] {
			t.Errorf("PROJECT lists %s twice", r.Kind)
		}
		seen[r.Kind] = true
		if r.Domain != p.Domain || r.Group != "invest" || r.Version != "v1alpha1" || r.Path != p.Repo+"/api/v1alpha1" {
			t.Errorf("PROJECT %s: domain %q group %q version %q path %q, want fundshare.io, invest, v1alpha1, %s/api/v1alpha1",
				r.Kind, r.Domain, r.Group, r.Version, r.Path, p.Repo)
		}
		if r.API == nil || r.API.CRDVersion != "v1" {
			t.Errorf("PROJECT %s: want api.crdVersion v1 (the project owns the API)", r.Kind)
		}
		if r.Webhooks != nil && r.Webhooks.WebhookVersion != "v1" {
			t.Errorf("PROJECT %s: webhookVersion %q, want v1", r.Kind, r.Webhooks.WebhookVersion)
		}
	}
}

// TestProjectFileListsEveryKindWithItsScopeAndWebhooks keeps PROJECT true to the code: the
// CRDs and webhook configurations generated from the markers.
func TestProjectFileListsEveryKindWithItsScopeAndWebhooks(t *testing.T) {
	p := readProject(t)
	crds := readCRDs(t)
	defaulting, validating := readWebhooks(t)
	listed := map[string]bool{}
	for _, r := range p.Resources {
		listed[r.Kind] = true
		crd, ok := crds[r.Kind]
		if !ok {
			t.Errorf("PROJECT lists %s, which config/crd/bases has no CRD for", r.Kind)
			continue
		}
		if g := r.Group + "." + r.Domain; g != crd.group || r.Version != crd.version {
			t.Errorf("PROJECT %s: %s/%s, the CRD says %s/%s", r.Kind, g, r.Version, crd.group, crd.version)
		}
		if r.API != nil && r.API.Namespaced != crd.namespaced {
			t.Errorf("PROJECT %s: namespaced %v, the CRD says %v", r.Kind, r.API.Namespaced, crd.namespaced)
		}
		var d, v bool
		if r.Webhooks != nil {
			d, v = r.Webhooks.Defaulting, r.Webhooks.Validation
		}
		if d != defaulting[crd.plural] {
			t.Errorf("PROJECT %s: webhooks.defaulting %v, config/webhook has a mutating webhook: %v", r.Kind, d, defaulting[crd.plural])
		}
		if v != validating[crd.plural] {
			t.Errorf("PROJECT %s: webhooks.validation %v, config/webhook has a validating webhook: %v", r.Kind, v, validating[crd.plural])
		}
	}
	var missing []string
	for kind := range crds {
		if !listed[kind] {
			missing = append(missing, kind)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("PROJECT lacks %v, which config/crd/bases has", missing)
	}
}

// modulePath is the module path of go.mod.
func modulePath(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

func sampleFile(kind string) string {
	return fmt.Sprintf("invest_v1alpha1_%s.yaml", strings.ToLower(kind))
}
