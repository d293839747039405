package v1alpha1_test

import (
	"testing"

	"github.com/fundshare/fundshare-operator/internal/test/envtest"
)

// The schema suite proves what the CRDs alone enforce, with no webhook and no controller:
// the real kube-apiserver validates every object against the generated OpenAPI schemas
// and CEL rules.
var env, k8s, ctx = envtest.Suite(envtest.Options{})

func TestSchemas(t *testing.T) { env.Run(t, "CRD schema suite", nil) }
