package main

import (
	"errors"
	"os/exec"
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
}

// TestProductionBinariesDoNotLinkTheTestHarness holds the dependency rule of the layout:
// nothing cmd/manager or cmd/fundsharectl imports, directly or not, may import envtest or
// another test-only package.
func TestProductionBinariesDoNotLinkTheTestHarness(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the binary's dependencies: %v", err)
	}
	for _, pkg := range []string{".", "../fundsharectl"} {
		out, err := exec.Command(gobin, "list", "-deps", pkg).Output()
		if err != nil {
			var stderr string
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed %d packages; the check would see nothing", pkg, len(deps))
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
