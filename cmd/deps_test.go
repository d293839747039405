package main

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbiddenInBinary are packages the production binary must not link: the test harness
// (envtest starts kube-apiserver and etcd and writes certificates), fake clients and the
// project's test-only packages.
//
// k8s.io/client-go/testing is not listed: client-go's own k8s.io/client-go/gentype (the
// base of every typed clientset, which controller-runtime uses) imports it for its fake
// clients, so every controller-runtime binary links it.
var forbiddenInBinary = []string{
	"sigs.k8s.io/controller-runtime/pkg/envtest",
	"sigs.k8s.io/controller-runtime/pkg/client/fake",
	"k8s.io/client-go/kubernetes/fake",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"github.com/fundshare/fundshare-operator/internal/controlplane",
	"github.com/fundshare/fundshare-operator/internal/fixtures",
	"github.com/fundshare/fundshare-operator/internal/test",
	"github.com/fundshare/fundshare-operator/cmd/manager/app/apptest",
}

const module = "github.com/fundshare/fundshare-operator"

// TestProductionBinariesDoNotLinkTheTestHarness holds the dependency rule of the layout:
// nothing cmd/manager, cmd/fundsharectl or cmd/kubectl-fundshare imports, directly or not, may import envtest or
// another test-only package.
func TestProductionBinariesDoNotLinkTheTestHarness(t *testing.T) {
	for _, pkg := range []string{".", "./fundsharectl", "./kubectl-fundshare"} {
		out := goList(t, "-deps", pkg)
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed %d packages; the check would see nothing", pkg, len(deps))
		}
		if pkg == "." && !slices.Contains(deps, module+"/cmd/manager/app") {
			t.Fatalf("go list -deps . does not list the composition root cmd/manager/app; the check would miss what it wires")
		}
		for _, dep := range deps {
			for _, bad := range forbiddenInBinary {
				if dep == bad || strings.HasPrefix(dep, bad+"/") {
					t.Errorf("%s links %s: production code must not import the test harness", pkg, dep)
				}
			}
		}
	}
}

// TestOnlyCommandsAndTestsImportTheCompositionRoot holds the other half of the rule: the
// composition root (cmd/manager/app) wires the library packages, so none of them may
// import it; only commands (cmd/), tools (hack/) and the tests of any package may.
func TestOnlyCommandsAndTestsImportTheCompositionRoot(t *testing.T) {
	root := module + "/cmd/manager/app"
	out := goList(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list listed %d packages of the module; the check would see nothing", len(lines))
	}
	importers := 0
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		if !slices.Contains(imports, root) {
			continue
		}
		importers++
		rel := strings.TrimPrefix(pkg, module+"/")
		if rel != "cmd" && !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "hack/") {
			t.Errorf("%s imports the composition root %s: library packages must not (only cmd/, hack/ and tests)", pkg, root)
		}
	}
	if importers == 0 {
		t.Fatal("no package imports cmd/manager/app; the check would see nothing")
	}
}

// TestControllersAndTheFacadeDoNotImportAdmission: the rules they share with admission
// live in library packages (api/v1alpha1, internal/holdings, internal/predicates,
// internal/tenant, internal/refusal), so no controller package and not the REST facade
// imports the admission webhooks.
func TestControllersAndTheFacadeDoNotImportAdmission(t *testing.T) {
	webhooks := module + "/internal/webhooks"
	lines := packageImports(t, module+"/controllers/...", module+"/apiserver/...")
	if len(lines) < 8 {
		t.Fatalf("go list listed %d controller and facade packages; the check would see nothing", len(lines))
	}
	for pkg, imports := range lines {
		if slices.Contains(imports, webhooks) {
			t.Errorf("%s imports %s: the rules it needs belong in a library package", pkg, webhooks)
		}
	}
}

// TestNoControllerImportsAnotherAndNoLibraryImportsAController: each controller package
// is a leaf that the composition root (cmd/manager/app) wires. What several need lives in
// neutral library packages: the lifecycle (internal/lifecycle), the chain agent's options,
// connection, outbox and token lookup (internal/chain/agent), the optimistic-lock writes
// (internal/patch), holdings (internal/holdings). So no controller package imports another
// and no library package (internal/, api/) imports a controller. Tests may (go list's
// Imports leaves test files out: suites start the controllers they need beside the one
// they test), and so may commands and the tools under hack/, which wire them.
func TestNoControllerImportsAnotherAndNoLibraryImportsAController(t *testing.T) {
	controllers := module + "/controllers/"
	lines := packageImports(t, module+"/...")
	if len(lines) < 20 {
		t.Fatalf("go list listed %d packages of the module; the check would see nothing", len(lines))
	}
	root := module + "/cmd/manager/app"
	wired := 0
	for _, imp := range lines[root] {
		if strings.HasPrefix(imp, controllers) {
			wired++
		}
	}
	if wired < 5 {
		t.Fatalf("%s imports %d controller packages; the check would see nothing", root, wired)
	}
	for pkg, imports := range lines {
		rel := strings.TrimPrefix(pkg, module+"/")
		isController := strings.HasPrefix(pkg, controllers)
		isLibrary := strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "api/")
		if !isController && !isLibrary {
			continue
		}
		for _, imp := range imports {
			if !strings.HasPrefix(imp, controllers) || imp == pkg {
				continue
			}
			if isController {
				t.Errorf("%s imports %s: no controller package imports another; move what both need to a library package (internal/...)", pkg, imp)
			} else {
				t.Errorf("%s imports %s: library packages must not import controllers", pkg, imp)
			}
		}
	}
}

// TestTheLifecycleIsPure: internal/lifecycle, the one room of the order lifecycle, decides
// from its arguments only: it imports the API types, integer money, the kstatus conditions
// helper (internal/conditions, itself held to apimachinery's meta packages) and
// apimachinery's condition helpers, never a client, a controller, the chain or the network.
func TestTheLifecycleIsPure(t *testing.T) {
	lifecycle := module + "/internal/lifecycle"
	imports := packageImports(t, lifecycle)[lifecycle]
	if len(imports) == 0 {
		t.Fatalf("go list listed no imports of %s; the check would see nothing", lifecycle)
	}
	allowed := []string{module + "/api/v1alpha1", module + "/internal/money", module + "/internal/conditions", "k8s.io/apimachinery/pkg/api/meta", "k8s.io/apimachinery/pkg/apis/meta/v1"}
	for _, imp := range imports {
		if !strings.Contains(imp, ".") { // the standard library
			if imp == "net" || strings.HasPrefix(imp, "net/") || imp == "os" || imp == "os/exec" {
				t.Errorf("%s imports %s: the lifecycle does no I/O", lifecycle, imp)
			}
			continue
		}
		if !slices.Contains(allowed, imp) {
			t.Errorf("%s imports %s: the lifecycle decides from its arguments only (allowed: %v)", lifecycle, imp, allowed)
		}
	}
	// The kstatus conditions helper, which the lifecycle may use, is as pure: apimachinery's
	// condition types and helpers and the standard library, no I/O.
	conds := module + "/internal/conditions"
	imports = packageImports(t, conds)[conds]
	if len(imports) == 0 {
		t.Fatalf("go list listed no imports of %s; the check would see nothing", conds)
	}
	for _, imp := range imports {
		if !strings.Contains(imp, ".") {
			if imp == "net" || strings.HasPrefix(imp, "net/") || imp == "os" || imp == "os/exec" {
				t.Errorf("%s imports %s: the conditions helper does no I/O", conds, imp)
			}
			continue
		}
		if imp != "k8s.io/apimachinery/pkg/api/meta" && imp != "k8s.io/apimachinery/pkg/apis/meta/v1" {
			t.Errorf("%s imports %s: it may import only apimachinery's meta and metav1, as the lifecycle uses it", conds, imp)
		}
	}
}

// TestOnlyTheFacadeCommandsAndToolsImportTheFacade: the REST facade (apiserver and its
// packages) sits on top; no controller or library package imports it, not even from its
// tests, so what several need (client-secret hashing is internal/clientsecret) lives in a
// neutral package. Only apiserver itself, the commands (cmd/) and the tools under hack/
// import apiserver/....
func TestOnlyTheFacadeCommandsAndToolsImportTheFacade(t *testing.T) {
	facade := module + "/apiserver"
	out := goList(t, "-test=false", "-f", "{{.ImportPath}} {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", module+"/...")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list listed %d packages of the module; the check would see nothing", len(lines))
	}
	importers := 0
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		rel := strings.TrimPrefix(pkg, module+"/")
		for _, imp := range imports {
			if imp != facade && !strings.HasPrefix(imp, facade+"/") {
				continue
			}
			importers++
			if rel != "apiserver" && !strings.HasPrefix(rel, "apiserver/") && rel != "cmd" && !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "hack/") {
				t.Errorf("%s imports %s: only apiserver, cmd/ and hack/ may; move what it needs to a neutral package", pkg, imp)
			}
		}
	}
	if importers == 0 {
		t.Fatal("no package imports the facade; the check would see nothing")
	}
}

// packageImports maps each package go list lists for patterns to its imports (test files
// left out).
func packageImports(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	out := goList(t, append([]string{"-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, patterns...)...)
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			imports[fields[0]] = fields[1:]
		}
	}
	return imports
}

// goList runs go list with args and returns its standard output.
func goList(t *testing.T, args ...string) []byte {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the packages' dependencies: %v", err)
	}
	out, err := exec.Command(gobin, append([]string{"list"}, args...)...).Output()
	if err != nil {
		var stderr string
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, stderr)
	}
	return out
}
