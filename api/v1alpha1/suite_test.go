package v1alpha1_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The schema suite proves what the CRDs alone enforce, with no webhook and no controller:
// the real kube-apiserver validates every object against the generated OpenAPI schemas
// and CEL rules.
var (
	env *envtest.Environment
	k8s client.Client // direct, uncached
	ctx = context.Background()
)

func TestSchemas(t *testing.T) { envtest.RunSuite(t, "CRD schema suite") }

var _ = BeforeSuite(func() {
	env = envtest.Start(envtest.Options{})
	k8s = env.Client
})

var _ = AfterSuite(func() { env.Stop() })
