// Package controlplane describes the project's real local control plane (kube-apiserver
// and etcd built into bin/controlplane, run through envtest) with the project's CRDs and,
// when asked, its admission webhooks installed. Every envtest suite and the local dev
// runner (`make run`) use it, so tests and the newcomer's environment are the same thing.
// It imports envtest, so only tests, cmd/devrun (through cmd/devrun/devenv) and hack/ may
// import it: the production binary must not (cmd/manager's
// TestProductionBinariesDoNotLinkTheTestHarness checks).
package controlplane

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/google/uuid"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
	"github.com/fundshare/fundshare-operator/internal/scheme"
)

// Root is the repository's top folder.
func Root() string {
	_, file, _, _ := goruntime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Scheme holds the built-in kinds and the project's kinds: the manager's scheme
// (internal/scheme), offered here too so that test suites need one import.
func Scheme() *runtime.Scheme { return scheme.New() }

// Options chooses what the control plane gets besides the CRDs.
type Options struct {
	// Webhooks installs the admission webhook configurations of config/webhook, pointed at
	// a local webhook server whose address and certificates are in
	// Environment.WebhookInstallOptions.
	Webhooks bool
	// EtcdDataDir keeps etcd's data in a folder that outlives the process (make run);
	// empty means a temporary folder removed on Stop (tests).
	EtcdDataDir string
}

// New describes a control plane with the project's CRDs; call Start on it. The binaries
// come from KUBEBUILDER_ASSETS or bin/controlplane; if they are missing, Start fails.
func New(opts Options) *envtest.Environment {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = filepath.Join(Root(), "bin", "controlplane")
	}
	env := &envtest.Environment{
		Scheme:                   Scheme(),
		CRDDirectoryPaths:        []string{filepath.Join(Root(), "config", "crd", "bases")},
		ErrorIfCRDPathMissing:    true,
		BinaryAssetsDirectory:    assets,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	if opts.EtcdDataDir != "" {
		env.ControlPlane.Etcd = &envtest.Etcd{DataDir: opts.EtcdDataDir}
	}
	if opts.Webhooks {
		env.WebhookInstallOptions = envtest.WebhookInstallOptions{
			Paths: []string{filepath.Join(Root(), "config", "webhook")},
		}
	}
	return env
}

// NewNamespace creates a namespace with a unique name: envtest has no garbage collector
// and namespaces never finish deleting, so every test gets a fresh one.
func NewNamespace(ctx context.Context, c client.Client, prefix string) (string, error) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}
	if err := c.Create(ctx, ns); err != nil {
		return "", fmt.Errorf("create namespace: %w", err)
	}
	return ns.Name, nil
}

// NewID returns a fresh object name in the REST id form (lowercase UUIDv4).
func NewID() string { return uuid.NewString() }

// GVK is the GroupVersionKind of one of the project's kinds.
func GVK(kind string) schema.GroupVersionKind { return investv1.GroupVersion.WithKind(kind) }
