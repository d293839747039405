package v1alpha1_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

// The schema suite proves what the CRDs alone enforce, with no webhook and no controller:
// the real kube-apiserver validates every object against the generated OpenAPI schemas
// and CEL rules.
var (
	env *envtest.Environment
	cfg *rest.Config
	k8s client.Client
	ctx context.Context
)

func TestSchemas(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "CRD schema suite")
}

var _ = BeforeSuite(func() {
	ctx = context.Background()
	env = controlplane.New(controlplane.Options{})
	var err error
	cfg, err = env.Start()
	Expect(err).NotTo(HaveOccurred())
	k8s, err = client.New(cfg, client.Options{Scheme: controlplane.Scheme()})
	Expect(err).NotTo(HaveOccurred())
})

var _ = AfterSuite(func() {
	if env != nil {
		Expect(env.Stop()).To(Succeed())
	}
})
